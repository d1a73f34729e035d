"""
Comparing two models: DeLong's test and the paired bootstrap
============================================================

Two models scored on the same test rows have correlated AUCs, so their
intervals overlapping says little about the difference. This example tests
the difference directly, with DeLong's paired test
(:func:`fastauc.delong_test`) and the paired bootstrap
(:func:`fastauc.bootstrap_test`), and draws each model's interval next to
the interval of the difference.
"""

import matplotlib.pyplot as plt
import numpy as np
from sklearn.datasets import make_classification
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import train_test_split

import fastauc

# %%
# Two models on the same test set
# -------------------------------
# A logistic regression on all 20 features, and one on the first 8 only:
# they hold the 6 informative features, the other 12 are noise.
X, y = make_classification(n_samples=4000, n_features=20, n_informative=6,
                           n_redundant=0, shuffle=False, class_sep=0.5, random_state=1)
X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=1000, random_state=1)
full = LogisticRegression().fit(X_tr, y_tr).decision_function(X_te)
small = LogisticRegression().fit(X_tr[:, :8], y_tr).decision_function(X_te[:, :8])

ci_full = fastauc.roc_auc_ci(y_te, full)
ci_small = fastauc.roc_auc_ci(y_te, small)
print(f"all features: AUC {ci_full.estimate:.4f} [{ci_full.low:.4f}, {ci_full.high:.4f}]")
print(f"8 features:   AUC {ci_small.estimate:.4f} [{ci_small.low:.4f}, {ci_small.high:.4f}]")

# %%
# The two intervals overlap almost entirely. Is one model better?
#
# The paired tests
# ----------------
# DeLong's test uses the covariance of the two AUCs on the same rows. The
# bootstrap resamples the rows once per replicate and scores both models on
# that resample, so each replicate difference keeps their correlation. Both
# say that the smaller model ranks better, though by little: the noise
# features cost the full model some AUC on nearly every resample.
dl = fastauc.delong_test(y_te, small, full)
bt = fastauc.bootstrap_test(y_te, small, full, n_resamples=2000, random_state=0)
print(f"DeLong:    difference {dl.difference:.4f} [{dl.low:.4f}, {dl.high:.4f}], "
      f"z = {dl.statistic:.2f}, p = {dl.pvalue:.2g}")
print(f"bootstrap: difference {bt.difference:.4f} [{bt.low:.4f}, {bt.high:.4f}], "
      f"z = {bt.statistic:.2f}, p = {bt.pvalue:.2g}")
r = np.corrcoef(bt.replicates[:, 0], bt.replicates[:, 1])[0, 1]
print(f"correlation of the two models' bootstrap AUCs: {r:.2f}")
diff = bt.replicates[:, 0] - bt.replicates[:, 1]
print(f"replicates where the 8-feature model is ahead: {np.mean(diff > 0):.1%}")

# %%
# The intervals drawn
# -------------------
# Left: each model's AUC with DeLong's interval. Right: the difference, with
# both tests' intervals over the histogram of the bootstrap's replicate
# differences.
fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(10, 4))
for i, ci in enumerate([ci_full, ci_small]):
    ax1.errorbar(ci.estimate, i, xerr=[[ci.estimate - ci.low], [ci.high - ci.estimate]],
                 fmt="o", capsize=4)
ax1.set(yticks=[0, 1], yticklabels=["all features", "8 features"], ylim=(-0.5, 1.5),
        xlabel="ROC AUC (95% DeLong CI)", title="Each model")
counts, _, _ = ax2.hist(diff, bins=40, color="lightgrey", label="bootstrap replicates")
for k, (name, res) in enumerate([("DeLong", dl), ("bootstrap", bt)]):
    h = counts.max() * (1.25 - 0.12 * k)
    err = [[res.difference - res.low], [res.high - res.difference]]
    ax2.errorbar(res.difference, h, xerr=err, fmt="o", capsize=4, color=f"C{k}",
                 label=f"{name} 95% CI")
ax2.axvline(0, color="k", lw=1)
ax2.set_ylim(0, counts.max() * 1.7)
ax2.set(xlabel="AUC(8 features) - AUC(all features)", title="The difference")
ax2.legend(loc="upper left", fontsize="small")
fig.tight_layout()
plt.show()
