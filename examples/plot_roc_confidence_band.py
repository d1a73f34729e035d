"""
ROC curve with a bootstrap confidence band
==========================================

A ROC curve estimated from a test set is uncertain, like the AUC under it.
This example computes the curve with :func:`fastauc.roc_curve`, a 95%
interval of the AUC with :func:`fastauc.bootstrap_ci` and DeLong's
:func:`fastauc.roc_auc_ci`, and a pointwise bootstrap band of the curve with
:func:`fastauc.roc_confidence_band`, then draws it all with
:func:`fastauc.plot_roc`.
"""

import matplotlib.pyplot as plt
from sklearn.datasets import make_classification
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import train_test_split

import fastauc

# %%
# A model and a small test set
# ----------------------------
# Scores of a logistic regression on 600 held-out rows.
X, y = make_classification(n_samples=3000, n_features=20, n_informative=5,
                           class_sep=0.6, random_state=0)
X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=600, random_state=0)
score = LogisticRegression().fit(X_train, y_train).decision_function(X_test)

# %%
# The curve and two intervals of its area
# ---------------------------------------
# :func:`~fastauc.roc_curve` returns the same points as scikit-learn's. The
# bootstrap resamples positives and negatives separately (2000 replicates,
# all in compiled code); DeLong's interval needs no resampling at all.
fpr, tpr, thresholds = fastauc.roc_curve(y_test, score)
boot = fastauc.bootstrap_ci(y_test, score, n_resamples=2000, random_state=0)
delong = fastauc.roc_auc_ci(y_test, score)
print(f"{len(fpr)} ROC points; AUC = {boot.estimate:.4f}")
print(f"bootstrap 95% CI: [{boot.low:.4f}, {boot.high:.4f}]  (se {boot.se:.4f})")
print(f"DeLong    95% CI: [{delong.low:.4f}, {delong.high:.4f}]  (se {delong.se:.4f})")

# %%
# A band around the curve
# -----------------------
# :func:`~fastauc.roc_confidence_band` evaluates each replicate's curve on a
# grid of false positive rates and takes quantiles of the true positive rate
# at each one. The band is pointwise: at each FPR, 95% of the replicates'
# TPRs lie inside it.
grid, low, high = fastauc.roc_confidence_band(y_test, score, n_resamples=500)
i = grid.searchsorted(0.1)
print(f"at FPR = {grid[i]:.2f} the TPR lies in [{low[i]:.3f}, {high[i]:.3f}]")

fig, ax = plt.subplots(figsize=(5.5, 5))
ax.fill_between(grid, low, high, alpha=0.3, label="95% band")
ax.plot(fpr, tpr, label=f"ROC (AUC = {boot.estimate:.3f})")
ax.plot([0, 1], [0, 1], ls="--", c="grey", lw=1)
ax.set(xlabel="False positive rate", ylabel="True positive rate",
       title="ROC curve with a bootstrap band")
ax.legend(loc="lower right")
plt.show()

# %%
# The same in one call
# --------------------
# :func:`~fastauc.plot_roc` draws the curve, the band and an operating point
# (here the threshold that maximises Youden's J, from
# :func:`~fastauc.best_threshold`). Pass the returned figure as ``ax`` to
# overlay another model.
fig = fastauc.plot_roc(y_test, score, label="logistic regression",
                       operating_point="youden")
plt.show()
