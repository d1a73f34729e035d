"""
Training a PyTorch model for the AUC
====================================

:class:`fastauc.torch.PairwiseAUCLoss` is an all-pairs AUC loss as an
``nn.Module``, with autograd, in O(n log n) per batch.
:class:`fastauc.torch.BinaryAUROC` is a torchmetrics metric that gives the
exact AUC of everything it was fed, and DeLong's interval. This example
trains a small MLP with both and draws the training curve.
"""

import matplotlib.pyplot as plt
import numpy as np
import torch

import fastauc
from fastauc.torch import BinaryAUROC, PairwiseAUCLoss

torch.manual_seed(0)
torch.set_num_threads(1)  # a model this small trains fastest on one thread

# %%
# Data and model
# --------------
# 20,000 rows of 10 features; whether a row is positive (about 20% are)
# depends on its features through a nonlinear function ``f``. Ranking the
# rows by ``f`` itself is the best any model can do on average: its AUC is the ceiling.
rng = np.random.default_rng(4)
X = rng.normal(size=(20_000, 10)).astype(np.float32)
f = X[:, 0] * X[:, 1] + np.sin(2 * X[:, 2]) + X[:, 3] ** 2 - X[:, 4] - 3
y = f + rng.logistic(size=len(f)) > 0
X_tr, X_te = torch.from_numpy(X[:15_000]), torch.from_numpy(X[15_000:])
y_tr, y_te = torch.from_numpy(y[:15_000]), torch.from_numpy(y[15_000:])
ceiling = fastauc.roc_auc_score(y[15_000:], f[15_000:])
print(f"{y.mean():.1%} positives; AUC of f on the held-out rows: {ceiling:.4f}")

# %%
# A two-layer MLP outputs one score per row (a margin: the loss ranks, so no
# sigmoid is needed).
model = torch.nn.Sequential(torch.nn.Linear(10, 64), torch.nn.ReLU(), torch.nn.Linear(64, 1))
criterion = PairwiseAUCLoss(loss="squared_hinge")
optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)

# %%
# The training loop
# -----------------
# Each epoch: mini-batches of 500 rows, the loss over all pairs of each
# batch; then the held-out AUC and its 95% DeLong interval, from a metric
# fed batch by batch.
train_auc, test_auc, test_ci = [], [], []
for epoch in range(15):
    train_metric, batch_losses = BinaryAUROC(), []
    for idx in torch.randperm(len(y_tr)).split(500):
        scores = model(X_tr[idx]).squeeze(1)
        loss = criterion(scores, y_tr[idx])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        train_metric.update(scores.detach(), y_tr[idx])
        batch_losses.append(loss.item())
    test_metric = BinaryAUROC()
    with torch.no_grad():
        for idx in torch.arange(len(y_te)).split(1000):
            test_metric.update(model(X_te[idx]).squeeze(1), y_te[idx])
    train_auc.append(train_metric.compute().item())
    test_auc.append(test_metric.compute().item())
    test_ci.append(ci := test_metric.delong_interval())
    if epoch % 5 == 4:
        print(f"epoch {epoch + 1:2d}: mean loss {np.mean(batch_losses):.4f}, "
              f"training AUC {train_auc[-1]:.4f}, "
              f"held-out AUC {test_auc[-1]:.4f} [{ci.low:.4f}, {ci.high:.4f}]")

# %%
# The training curve
# ------------------
# The training AUC is that of the scores seen during the epoch, while the
# weights changed; the held-out AUC is measured after it. After a few epochs
# the training AUC passes the held-out one and keeps rising while the
# held-out AUC levels off below the ceiling: the model begins to fit the
# noise of its training rows.
epochs = np.arange(1, len(test_auc) + 1)
fig, ax = plt.subplots(figsize=(6.5, 4))
ax.plot(epochs, train_auc, "o-", label="training (during the epoch)")
ax.plot(epochs, test_auc, "o-", label="held out")
ax.fill_between(epochs, [c.low for c in test_ci], [c.high for c in test_ci], color="C1",
                alpha=0.2, label="held out, 95% DeLong CI")
ax.axhline(ceiling, ls="--", color="grey", label="held-out ceiling: AUC of f")
ax.set(xlabel="epoch", ylabel="ROC AUC", title="MLP trained with PairwiseAUCLoss")
ax.legend(loc="lower right")
plt.show()
