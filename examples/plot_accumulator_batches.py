"""
Metrics over batches: the Accumulator and its bounded mode
==========================================================

When the scores arrive in batches (a validation loop, a file read in
chunks, shards on several machines), :class:`fastauc.Accumulator` keeps a
table of the distinct scores seen, from which it gives the exact in-memory
numbers. With ``max_groups`` its memory is bounded, and the AUC comes with
certified bounds; this example shows how tight they are as a function of
``max_groups``.
"""

import matplotlib.pyplot as plt
import numpy as np

import fastauc

# %%
# Half a million rows in 10 batches
# ---------------------------------
rng = np.random.default_rng(0)
n = 500_000
y = rng.random(n) < 0.2
score = rng.normal(size=n) + 1.2 * y
batches = [(y[a:a + 50_000], score[a:a + 50_000]) for a in range(0, n, 50_000)]

acc = fastauc.Accumulator()
for y_batch, s_batch in batches:
    acc.update(y_batch, s_batch)
auc = fastauc.roc_auc_score(y, score)
print(f"accumulated AUC {acc.roc_auc()!r}, in memory {auc!r}, equal: {acc.roc_auc() == auc}")
ci = acc.roc_auc_ci()
print(f"DeLong 95% CI from the table: [{ci.low:.4f}, {ci.high:.4f}]")
print(f"{acc.n_samples} rows, {acc.n_groups} distinct scores held")

# %%
# Accumulators merge: two halves fed apart and merged give the same table,
# and ``to_bytes()`` / ``from_bytes()`` carry a state between processes.
first, second = fastauc.Accumulator(), fastauc.Accumulator()
for k, (y_batch, s_batch) in enumerate(batches):
    (first if k < 5 else second).update(y_batch, s_batch)
merged = fastauc.Accumulator.from_bytes(first.to_bytes()).merge(second)
print(f"merged AUC equal: {merged.roc_auc() == auc}")

# %%
# Bounded memory, certified bounds
# --------------------------------
# ``Accumulator(max_groups=G)`` holds at most G ranges of scores. Pairs of a
# positive and a negative in the same range are the only ones whose order
# it no longer knows, so the AUC lies between ``auc_bounds()``: ``low``
# counts none of them as ordered correctly, ``high`` all of them.
sizes = [8, 16, 32, 64, 128, 256, 512, 1024]
bounds = []
for g in sizes:
    bounded = fastauc.Accumulator(max_groups=g)
    for y_batch, s_batch in batches:
        bounded.update(y_batch, s_batch)
    bounds.append(bounded.auc_bounds())
    low, high = bounds[-1]
    print(f"max_groups={g:5d}: [{low:.5f}, {high:.5f}], width {high - low:.5f}, "
          f"g x width = {g * (high - low):.2f}, holds the AUC: {low <= auc <= high}")

low, high = np.array(bounds).T
fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(10, 4))
ax1.fill_between(sizes, low, high, alpha=0.3, label="certified bounds")
ax1.axhline(auc, color="k", lw=1, label="exact AUC")
ax1.set(xscale="log", xlabel="max_groups", ylabel="ROC AUC", title="Bounds of the AUC")
ax1.legend()
ax2.loglog(sizes, high - low, "o-", label="width of the bounds")
ax2.loglog(sizes, 1 / np.array(sizes), "--", color="grey", label="1 / max_groups")
ax2.set(xlabel="max_groups", title="Width shrinks as 1 / max_groups")
ax2.legend()
fig.tight_layout()
plt.show()
