"""
Training a linear model for the AUC with numpy
==============================================

The AUC counts correctly ordered (positive, negative) pairs. Replacing the
count by a smooth loss over all pairs gives something to minimise;
:func:`fastauc.pairwise_loss_gradient` computes such a loss over all pairs,
and its gradient, in O(n log n). This example drives plain gradient descent
of a linear model with it, follows the held-out AUC, and compares the result
with :class:`fastauc.AUCLinearClassifier` (the same loss, fitted by L-BFGS)
and a logistic regression.
"""

import matplotlib.pyplot as plt
import numpy as np
from sklearn.datasets import make_classification
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import train_test_split
from sklearn.preprocessing import StandardScaler

import fastauc

# %%
# Data: 20,000 rows, 20 features, 5% positives
X, y = make_classification(n_samples=20_000, n_features=20, n_informative=8,
                           weights=[0.95], flip_y=0.02, random_state=3)
X = StandardScaler().fit_transform(X)
X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=0.5, random_state=3)

# %%
# Gradient descent on the squared hinge loss
# ------------------------------------------
# The loss of the margins ``X @ w`` is the mean over all positive-negative
# pairs of ``max(0, 1 - (s_pos - s_neg))**2``. Its gradient in the margins,
# times ``X``, is its gradient in ``w``. A pairwise loss ignores a shift of
# all margins, so the model needs no intercept to rank.
w = np.zeros(X.shape[1])
losses, test_auc = [], []
for step in range(100):
    loss, grad = fastauc.pairwise_loss_gradient(y_tr, X_tr @ w, loss="squared_hinge")
    w -= 0.01 * (X_tr.T @ grad)
    losses.append(loss)
    test_auc.append(fastauc.roc_auc_score(y_te, X_te @ w))
print(f"step 1: held-out AUC {test_auc[0]:.4f}; step 100: training loss {losses[-1]:.4f}, "
      f"held-out AUC {test_auc[-1]:.4f}")

# %%
# The same loss fitted by L-BFGS, and a logistic regression
# ---------------------------------------------------------
clf = fastauc.AUCLinearClassifier(loss="squared_hinge", C=1.0).fit(X_tr, y_tr)
auc_lbfgs = fastauc.roc_auc_score(y_te, clf.decision_function(X_te))
logreg = LogisticRegression().fit(X_tr, y_tr)
auc_logreg = fastauc.roc_auc_score(y_te, logreg.decision_function(X_te))
print(f"AUCLinearClassifier: held-out AUC {auc_lbfgs:.4f} ({clf.n_iter_[0]} L-BFGS steps)")
print(f"LogisticRegression:  held-out AUC {auc_logreg:.4f}")

# %%
# Both fits of the pairwise loss reach the same held-out AUC here, above
# that of the logistic regression, which minimises the log loss instead.

# %%
# The training curve
# ------------------
fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(10, 4))
ax1.plot(losses)
ax1.set(xlabel="gradient step", ylabel="squared hinge loss (training)", title="Training loss")
ax2.plot(test_auc, label="gradient descent")
ax2.axhline(auc_lbfgs, ls="--", color="C1", label="AUCLinearClassifier")
ax2.axhline(auc_logreg, ls=":", color="C2", label="LogisticRegression")
ax2.set(xlabel="gradient step", ylabel="ROC AUC (held out)", title="Held-out AUC")
ax2.legend()
fig.tight_layout()
plt.show()
