"""
Choosing a threshold: metrics at every cut-off, lift and gains
==============================================================

To act on scores you pick a threshold (predict positive when
``score >= t``). This example computes the confusion-matrix metrics at every
distinct threshold with :func:`fastauc.threshold_metrics`, finds the best
threshold for F1, Youden's J and a cost of errors with
:func:`fastauc.best_threshold`, and measures how well the top of the ranking
captures the positives with :func:`fastauc.lift_at`,
:func:`fastauc.gains_table` and :func:`fastauc.plot_gains`.
"""

import matplotlib.pyplot as plt
from sklearn.datasets import make_classification
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import train_test_split

import fastauc

# %%
# Probabilities of a model on imbalanced data (10% positives)
X, y = make_classification(n_samples=6000, n_features=10, n_informative=4,
                           weights=[0.9], class_sep=0.8, random_state=2)
X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=2000, random_state=2)
p = LogisticRegression().fit(X_tr, y_tr).predict_proba(X_te)[:, 1]
print(f"{y_te.sum()} positives in {len(y_te)} rows; AUC {fastauc.roc_auc_score(y_te, p):.3f}")

# %%
# Every threshold at once
# -----------------------
# One sort gives the confusion matrix at each distinct score; each field is
# an array with one entry per threshold, highest first.
m = fastauc.threshold_metrics(y_te, p)
print(f"{len(m.threshold)} thresholds; at the default 0.5 cut-off:")
i = (m.threshold >= 0.5).sum() - 1  # the last threshold at or above 0.5
print(f"  t = {m.threshold[i]:.3f}: precision {m.precision[i]:.3f}, "
      f"recall {m.recall[i]:.3f}, F1 {m.f1[i]:.3f}")

# %%
# The best threshold depends on what you maximise: F1, Youden's J (the
# point of the ROC curve farthest above the diagonal), or the least cost
# when a missed positive costs five false alarms.
best = {
    "F1": fastauc.best_threshold(y_te, p, metric="f1"),
    "Youden": fastauc.best_threshold(y_te, p, metric="youden"),
    "cost (FN = 5 FP)": fastauc.best_threshold(y_te, p, metric="cost", cost_fp=1, cost_fn=5),
}
for name, b in best.items():
    j = (m.threshold >= b.threshold).sum() - 1
    print(f"{name:>17}: t = {b.threshold:.3f}, precision {m.precision[j]:.3f}, "
          f"recall {m.recall[j]:.3f}")

fig, ax = plt.subplots(figsize=(6.5, 4))
for field in ["precision", "recall", "f1"]:
    ax.plot(m.threshold, getattr(m, field), label=field)
for k, (name, b) in enumerate(best.items()):
    ax.axvline(b.threshold, ls="--", color=f"C{k + 3}", label=f"best {name}")
ax.set(xlabel="threshold (predict positive when p >= t)", ylim=(0, 1.02))
ax.legend(fontsize="small")
plt.show()

# %%
# Lift and gains
# --------------
# The lift at ``k`` is the positive rate among the top ``k`` share of rows
# over the overall rate. The gains table cuts the ranking into deciles.
for k in (0.01, 0.05, 0.1):
    print(f"lift in the top {k:.0%}: {fastauc.lift_at(y_te, p, k):.2f}")
g = fastauc.gains_table(y_te, p, n_bins=10)
print(f"top 20% of rows: {g.cumulative_gain[1]:.1%} of the positives")

fig = fastauc.plot_gains(y_te, p, label="logistic regression")
plt.show()
