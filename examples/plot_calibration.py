"""
Reliability diagrams without bins: CORP and the Brier decomposition
===================================================================

A binned reliability diagram changes shape when the bins move. The CORP
diagram (Dimitriadis, Gneiting and Jordan, 2021) recalibrates the
probabilities by isotonic regression instead, so it has nothing to tune,
and the same recalibration splits the Brier score into miscalibration,
discrimination and uncertainty. This example compares a logistic
regression with an over-confident naive Bayes model
(:func:`fastauc.reliability_curve`, :func:`fastauc.brier_decomposition`,
:func:`fastauc.plot_calibration`), and draws their DET curves
(:func:`fastauc.plot_det`).
"""

import matplotlib.pyplot as plt
from sklearn.datasets import make_classification
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import train_test_split
from sklearn.naive_bayes import GaussianNB

import fastauc

# %%
# Two models
# ----------
# Naive Bayes treats the correlated features as independent evidence, so
# its probabilities crowd near 0 and 1.
X, y = make_classification(n_samples=20_000, n_features=20, n_informative=4,
                           n_redundant=8, class_sep=0.7, random_state=0)
X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=10_000, random_state=0)
models = {
    "logistic regression": LogisticRegression().fit(X_tr, y_tr).predict_proba(X_te)[:, 1],
    "naive Bayes": GaussianNB().fit(X_tr, y_tr).predict_proba(X_te)[:, 1],
}

# %%
# The Brier decomposition
# -----------------------
# ``brier = miscalibration - discrimination + uncertainty``. Both models
# see the same rows, so uncertainty is the same. Naive Bayes discriminates
# a little better (larger DSC) but is more miscalibrated (larger MCB), and
# its Brier score ends up worse: recalibrating it would make it the better
# model.
for name, p in models.items():
    d = fastauc.brier_decomposition(y_te, p)
    print(f"{name:20s} Brier {d.brier:.4f} = MCB {d.miscalibration:.4f} "
          f"- DSC {d.discrimination:.4f} + UNC {d.uncertainty:.4f}")

r = fastauc.reliability_curve(y_te, models["naive Bayes"])
print(f"naive Bayes: {len(r)} PAV blocks; the lowest holds {r.weight[0]:.0f} rows "
      f"up to p = {r.high[0]:.3g}, observed frequency {r.prob_true[0]:.3f}")

# %%
# The diagrams
# ------------
# Each block of pooled probabilities is a flat step at its observed
# frequency; the band is a pointwise bootstrap band, and the histogram
# shows where each model's probabilities lie.
fig = fastauc.plot_calibration(y_te, models, band=True, n_resamples=100)

# %%
# The same models on DET axes: error rates on a normal-deviate scale.
fig = fastauc.plot_det(y_te, models)
plt.show()
