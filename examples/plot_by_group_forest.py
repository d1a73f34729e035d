"""
AUC per group, drawn as a forest plot
=====================================

A model's AUC over all rows can hide groups where it ranks poorly, and small
groups have wide intervals. :func:`fastauc.by_group` computes, in one pass,
every group's AUC with its DeLong interval, average precision, log loss and
counts; this example draws them as a forest plot next to the overall AUC.
"""

import matplotlib.pyplot as plt
import numpy as np

import fastauc

# %%
# Scores for eight regions of different sizes
# -------------------------------------------
# The model separates the classes less well in some regions (more noise in
# their scores), and the regions range from 150 to 6000 rows.
rng = np.random.default_rng(0)
sizes = {"north": 6000, "south": 4000, "east": 3000, "west": 2000,
         "centre": 1000, "coast": 600, "islands": 300, "mountains": 150}
noise = {"north": 1.0, "south": 1.0, "east": 1.3, "west": 1.0,
         "centre": 1.6, "coast": 1.0, "islands": 1.0, "mountains": 2.0}
region = np.repeat(list(sizes), list(sizes.values()))
y = rng.random(region.size) < 0.3
scale = np.array([noise[r] for r in region])
score = 1 / (1 + np.exp(-(1.5 * y - 1 + scale * rng.normal(size=region.size))))

# %%
# Every group at once
# -------------------
# The result holds one array per column, groups in sorted order;
# ``to_pandas()`` gives a table.
res = fastauc.by_group(y, score, region)
print(res.to_pandas()[["group", "n", "n_pos", "auc", "auc_low", "auc_high",
                       "average_precision"]].round(3).to_string(index=False))
overall = fastauc.roc_auc_ci(y, score)
print(f"all rows: AUC {overall.estimate:.3f} [{overall.low:.3f}, {overall.high:.3f}]")

# %%
# Each group's numbers equal the single-model functions on its rows:
north = region == "north"
names_sorted = res.groups["group"]
same = fastauc.roc_auc_score(y[north], score[north]) == res.auc[names_sorted == "north"][0]
print(f"north's AUC equals roc_auc_score on its rows: {same}")

# %%
# The forest plot
# ---------------
# One row per group, largest first: the AUC (marker area by the number of
# rows) and its 95% DeLong interval; the shaded band is the interval of the
# AUC over all rows.
order = np.argsort(res.n)
names = res.groups["group"][order]
fig, ax = plt.subplots(figsize=(6.5, 4.5))
ax.axvspan(overall.low, overall.high, color="grey", alpha=0.25, label="all rows, 95% CI")
ax.axvline(overall.estimate, color="grey")
ax.errorbar(res.auc[order], np.arange(len(order)),
            xerr=[res.auc[order] - res.auc_low[order], res.auc_high[order] - res.auc[order]],
            fmt="none", ecolor="C0", capsize=3)
ax.scatter(res.auc[order], np.arange(len(order)), s=res.n[order] / 25 + 10, color="C0",
           zorder=3, label="group AUC, 95% DeLong CI")
ax.set_yticks(np.arange(len(order)), [f"{g} (n={n})" for g, n in zip(names, res.n[order])])
ax.set(xlabel="ROC AUC", title="AUC by region")
ax.legend(loc="upper left", fontsize="small")
fig.tight_layout()
plt.show()
