"""
A report of two models
======================

:func:`fastauc.report` gathers what is usually asked of a binary classifier
in one call: the AUC with its interval, Gini, average precision, log loss,
lift, the best thresholds by F1, MCC and Youden's J with the confusion
metrics there, and the paired DeLong test of every pair of models. With
``plot=`` it also writes their ROC curves with bootstrap bands,
precision-recall curves and cumulative gains to one PNG file.
"""

import tempfile
from pathlib import Path

import matplotlib.pyplot as plt
from sklearn.datasets import make_classification
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import train_test_split
from sklearn.naive_bayes import GaussianNB

import fastauc

# %%
# Two models' probabilities on the same test rows
# -----------------------------------------------
X, y = make_classification(n_samples=8000, n_features=12, n_informative=6,
                           weights=[0.8], random_state=6)
X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=3000, random_state=6)
scores = {
    "naive Bayes": GaussianNB().fit(X_tr, y_tr).predict_proba(X_te)[:, 1],
    "logistic": LogisticRegression().fit(X_tr, y_tr).predict_proba(X_te)[:, 1],
}

# %%
# The report
# ----------
# ``str(report)`` is a table; the numbers are also attributes, and
# ``to_dict()`` gives plain types for JSON. Here the two models disagree:
# naive Bayes has the higher AUC (it ranks better over all pairs), the
# logistic regression the higher average precision and lift (it ranks better
# among the top scores).
out = Path(tempfile.mkdtemp()) / "report.png"
rep = fastauc.report(y_te, scores, plot=out)
print(rep)

# %%
# For example, the paired test of the AUCs, and the threshold that maximises
# F1 for naive Bayes:
diff = rep.comparisons[0]
print(f"{diff.a} - {diff.b}: {diff.difference:+.4f}, p = {diff.pvalue:.2g}")
f1 = rep.models[0].best["f1"]
print(f"{rep.models[0].name}: best F1 {f1['value']:.3f} at threshold {f1['threshold']:.3f} "
      f"(precision {f1['precision']:.3f}, recall {f1['recall']:.3f})")

# %%
# The plot
# --------
# The PNG that ``plot=`` wrote: ROC curves with their 95% bootstrap bands and
# Youden points, precision-recall curves, cumulative gains.
image = plt.imread(out)
fig, ax = plt.subplots(figsize=(image.shape[1] / 100, image.shape[0] / 100))
ax.imshow(image)
ax.set_axis_off()
fig.subplots_adjust(0, 0, 1, 1)
plt.show()
