"""Precision, recall and F-beta at a fixed prediction against scikit-learn."""

import warnings

import numpy as np
import pytest
import sklearn.metrics as skm
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import fastauc

from .conftest import sklearn_call

AVERAGES = [None, "micro", "macro", "weighted"]
ZERO = [0.0, 1.0, np.nan]


@st.composite
def predictions(draw, max_classes=4):
    n = draw(st.integers(1, 40))
    k = draw(st.integers(2, max_classes))
    y = draw(hnp.arrays(np.int64, n, elements=st.integers(0, k - 1)))
    p = draw(hnp.arrays(np.int64, n, elements=st.integers(0, k - 1)))
    w = None
    if draw(st.booleans()):
        w = draw(hnp.arrays(np.float64, n, elements=st.sampled_from([0.0, 0.5, 1.0, 3.0])))
        if w.max() == 0:
            w[0] = 1.0
    return y, p, w


def _close(a, b):
    if a is None or b is None:
        assert a is None and b is None
        return
    np.testing.assert_allclose(np.asarray(a, float), np.asarray(b, float), atol=1e-12,
                               equal_nan=True)


@given(predictions(), st.sampled_from(AVERAGES), st.sampled_from(ZERO),
       st.sampled_from([0.5, 1.0, 2.0, 3.0, 4.0]), st.booleans())
def test_prfs_matches_sklearn(problem, average, zero_division, beta, subset):
    y, p, w = problem
    labels = None
    if subset:
        labels = [0, 1, 5]  # 5 is absent everywhere
    ours = fastauc.precision_recall_fscore_support(
        y, p, beta=beta, average=average, sample_weight=w, zero_division=zero_division,
        labels=labels)
    ref = sklearn_call(skm.precision_recall_fscore_support, y, p, beta=beta, average=average,
                       sample_weight=w, zero_division=zero_division, labels=labels)
    for a, b in zip(ours, ref):
        _close(a, b)
    if average is not None:
        assert all(isinstance(x, float) for x in ours[:3])


@given(predictions(max_classes=2), st.sampled_from(ZERO), st.sampled_from([0, 1]))
def test_binary_scores_match_sklearn(problem, zero_division, pos_label):
    y, p, w = problem
    kw = {"sample_weight": w, "zero_division": zero_division, "pos_label": pos_label}
    for name in ("precision_score", "recall_score", "f1_score"):
        _close(getattr(fastauc, name)(y, p, **kw), sklearn_call(getattr(skm, name), y, p, **kw))
    for beta in (0.5, 2.0):
        _close(fastauc.fbeta_score(y, p, beta=beta, **kw),
               sklearn_call(skm.fbeta_score, y, p, beta=beta, **kw))


def test_string_labels_and_warnings():
    y = np.array(["cat", "dog", "dog", "bird"])
    p = np.array(["cat", "cat", "dog", "cat"])
    for avg in AVERAGES:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ref = skm.precision_recall_fscore_support(y, p, average=avg)
        if avg == "micro":  # pooled counts: nothing to divide by zero
            ours = fastauc.precision_recall_fscore_support(y, p, average=avg)
        else:  # "bird" is never predicted
            with pytest.warns(fastauc.UndefinedMetricWarning, match="labels with no predicted"):
                ours = fastauc.precision_recall_fscore_support(y, p, average=avg)
        for a, b in zip(ours, ref):
            _close(a, b)
    with pytest.raises(ValueError, match="multiclass but average='binary'"):
        fastauc.f1_score(y, p)
    with pytest.raises(ValueError, match="pos_label=2 is not a valid label"):
        fastauc.precision_score([0, 1, 1], [1, 1, 0], pos_label=2)
    with pytest.raises(ValueError, match="zero_division"):
        fastauc.recall_score([0, 1], [1, 1], zero_division=2)
    with pytest.raises(ValueError, match="Samplewise metrics are not available outside of "
                       "multilabel classification"):
        fastauc.f1_score([0, 1], [1, 1], average="samples")
