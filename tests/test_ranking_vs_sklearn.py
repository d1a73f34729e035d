"""Differential tests: every function against scikit-learn, to 1e-12."""

import warnings

import numpy as np
import pytest
import sklearn.metrics as skm
from hypothesis import given
from hypothesis import strategies as st

import fastauc
from fastauc import UndefinedMetricWarning

from .conftest import sklearn_call
from .strategies import binary_problems

# every reference comparison here holds on both sort paths (fastauc._sort)
pytestmark = pytest.mark.usefixtures("each_sort_path")

ATOL = 1e-12


def assert_curves_equal(ours, ref):
    assert len(ours) == len(ref)
    for a, b in zip(ours, ref):
        assert a.shape == b.shape, (a, b)
        np.testing.assert_allclose(a, b, rtol=0, atol=ATOL, equal_nan=True)


def both_classes_weighted(y, w):
    if w is None:
        return True
    return w[y == 1].sum() > 0 and w[y == 0].sum() > 0


@given(binary_problems())
def test_roc_auc_score_binary(problem):
    y, s, w = problem
    ref = sklearn_call(skm.roc_auc_score, y, s, sample_weight=w)
    if both_classes_weighted(y, w):
        assert abs(fastauc.roc_auc_score(y, s, sample_weight=w) - ref) <= ATOL
    else:
        with pytest.warns(UndefinedMetricWarning):
            assert np.isnan(fastauc.roc_auc_score(y, s, sample_weight=w))


@given(binary_problems(), st.floats(0.05, 1.0))
def test_roc_auc_score_max_fpr(problem, max_fpr):
    y, s, w = problem
    if not both_classes_weighted(y, w):
        return
    ref = sklearn_call(skm.roc_auc_score, y, s, sample_weight=w, max_fpr=max_fpr)
    assert abs(fastauc.roc_auc_score(y, s, sample_weight=w, max_fpr=max_fpr) - ref) <= ATOL


@pytest.mark.parametrize("name", ["roc_curve", "precision_recall_curve", "det_curve"])
@given(problem=binary_problems(), drop=st.booleans())
def test_curves(name, problem, drop):
    y, s, w = problem
    if not both_classes_weighted(y, w):
        return
    ref = sklearn_call(getattr(skm, name), y, s, sample_weight=w, drop_intermediate=drop)
    ours = getattr(fastauc, name)(y, s, sample_weight=w, drop_intermediate=drop)
    assert_curves_equal(ours, ref)
    assert ours[2].dtype == ref[2].dtype


@given(binary_problems(both_classes=False))
def test_average_precision_score(problem):
    y, s, w = problem
    ref = sklearn_call(skm.average_precision_score, y, s, sample_weight=w)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # no positives: scikit-learn warns too
        assert abs(fastauc.average_precision_score(y, s, sample_weight=w) - ref) <= ATOL


@given(binary_problems(both_classes=False), st.booleans())
def test_log_loss_binary(problem, use_proba_2d):
    y, s, w = problem
    if y.min() == y.max():
        return
    p = 1 / (1 + np.exp(-np.clip(s, -30, 30)))
    p = np.where(np.arange(len(p)) % 7 == 0, np.round(p), p)  # exact 0 and 1: clipping
    if use_proba_2d:
        p = np.column_stack([1 - p, p])
    for normalize in (True, False):
        ref = sklearn_call(skm.log_loss, y, p, sample_weight=w, normalize=normalize)
        ours = fastauc.log_loss(y, p, sample_weight=w, normalize=normalize)
        assert abs(ours - ref) <= ATOL * max(1.0, abs(ref))


@given(st.integers(3, 5), st.integers(10, 80), st.integers(0, 2**32 - 1))
def test_log_loss_multiclass(k, n, seed):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, k, n)
    y[:k] = np.arange(k)
    p = rng.dirichlet(np.ones(k), n)
    w = rng.random(n)
    for kw in ({}, {"sample_weight": w}, {"normalize": False}):
        assert abs(fastauc.log_loss(y, p, **kw) - skm.log_loss(y, p, **kw)) <= ATOL * 10


@given(st.integers(3, 5), st.integers(12, 80), st.integers(0, 2**32 - 1),
       st.sampled_from(["macro", "weighted", "micro", None]), st.booleans())
def test_roc_auc_multiclass(k, n, seed, average, weighted):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, k, n)
    y[:k] = np.arange(k)
    p = rng.dirichlet(np.ones(k), n)
    p = np.round(p, 1)
    p = p / p.sum(axis=1, keepdims=True)
    w = rng.integers(0, 4, n).astype(float) if weighted else None
    for mc in ("ovr", "ovo"):
        if mc == "ovo" and (average in ("micro", None) or weighted):
            continue
        if w is not None and any(w[y == c].sum() == 0 for c in range(k)):
            continue
        ref = sklearn_call(skm.roc_auc_score, y, p, multi_class=mc, average=average,
                           sample_weight=w)
        ours = fastauc.roc_auc_score(y, p, multi_class=mc, average=average, sample_weight=w)
        np.testing.assert_allclose(ours, ref, rtol=0, atol=ATOL)


def test_roc_auc_multiclass_labels(rng):
    y = rng.choice(["a", "b", "c"], 200)
    p = rng.dirichlet(np.ones(4), 200)
    labels = ["a", "b", "c", "d"]
    for mc in ("ovr", "ovo"):
        ref = sklearn_call(skm.roc_auc_score, y, p, multi_class=mc, labels=labels)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UndefinedMetricWarning)
            ours = fastauc.roc_auc_score(y, p, multi_class=mc, labels=labels)
        np.testing.assert_allclose(ours, ref, rtol=0, atol=ATOL, equal_nan=True)


@given(st.integers(2, 5), st.integers(10, 60), st.integers(0, 2**32 - 1),
       st.sampled_from(["macro", "weighted", "micro", "samples", None]), st.booleans())
def test_multilabel(k, n, seed, average, weighted):
    rng = np.random.default_rng(seed)
    Y = rng.integers(0, 2, (n, k))
    Y[0], Y[1] = 0, 1  # every label has both classes, every row too
    Y[2:, 0] = rng.integers(0, 2, n - 2)
    Y[2:4, :] = [[1] + [0] * (k - 1), [0] + [1] * (k - 1)]
    S = np.round(rng.random((n, k)), 1)
    w = rng.integers(1, 4, n).astype(float) if weighted else None
    for name in ("roc_auc_score", "average_precision_score"):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ref = getattr(skm, name)(Y, S, average=average, sample_weight=w)
            ours = getattr(fastauc, name)(Y, S, average=average, sample_weight=w)
        np.testing.assert_allclose(ours, ref, rtol=0, atol=ATOL, equal_nan=True)


def test_average_precision_multiclass(rng):
    y = rng.integers(0, 3, 300)
    p = rng.dirichlet(np.ones(3), 300)
    for average in ("macro", "weighted", "micro", None):
        np.testing.assert_allclose(
            fastauc.average_precision_score(y, p, average=average),
            skm.average_precision_score(y, p, average=average), rtol=0, atol=ATOL)


@pytest.mark.parametrize("labels,pos_label", [
    ([0, 1], None), ([-1, 1], None), ([False, True], None), ([1, 2], 2),
    (["neg", "pos"], "pos"), ([0.0, 1.0], None), ([3, 7], 3),
])
def test_label_encodings(rng, labels, pos_label):
    y = np.array(labels, dtype=object if isinstance(labels[0], str) else None)[
        rng.integers(0, 2, 200)]
    s = np.round(rng.random(200), 2)
    assert_curves_equal(fastauc.roc_curve(y, s, pos_label=pos_label),
                        skm.roc_curve(y, s, pos_label=pos_label))
    assert_curves_equal(fastauc.precision_recall_curve(y, s, pos_label=pos_label),
                        skm.precision_recall_curve(y, s, pos_label=pos_label))
    assert abs(fastauc.roc_auc_score(y, s) - skm.roc_auc_score(y, s)) <= ATOL
    ap_pos = 1 if pos_label is None else pos_label
    assert abs(fastauc.average_precision_score(y, s, pos_label=ap_pos)
               - skm.average_precision_score(y, s, pos_label=ap_pos)) <= ATOL


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64, np.int8, np.int32,
                                   np.int64, np.uint16, bool, ">f8", "<f4"])
def test_score_dtypes(rng, dtype):
    y = rng.integers(0, 2, 500)
    s = (rng.random(500) * 100).astype(dtype)
    assert abs(fastauc.roc_auc_score(y, s) - skm.roc_auc_score(y, s)) <= ATOL
    assert_curves_equal(fastauc.roc_curve(y, s), skm.roc_curve(y, s))


def test_auc_matches_sklearn(rng):
    x = np.sort(rng.random(50))
    yv = rng.random(50)
    assert abs(fastauc.auc(x, yv) - skm.auc(x, yv)) <= ATOL
    assert abs(fastauc.auc(x[::-1], yv[::-1]) - skm.auc(x[::-1], yv[::-1])) <= ATOL
    with pytest.raises(ValueError, match="neither increasing nor decreasing"):
        fastauc.auc(rng.random(10), yv[:10])
    with pytest.raises(ValueError, match="At least 2 points"):
        fastauc.auc([0.5], [0.5])


def test_one_class_warns_nan_like_sklearn():
    with pytest.warns(UndefinedMetricWarning, match="Only one class"):
        assert np.isnan(fastauc.roc_auc_score([1, 1, 1], [0.1, 0.2, 0.3]))
    with pytest.warns(UndefinedMetricWarning, match="No negative samples"):
        fpr, tpr, _ = fastauc.roc_curve([1, 1, 1], [0.1, 0.2, 0.3])
    assert np.isnan(fpr).all()
    with pytest.raises(ValueError, match="Only one class"):
        fastauc.det_curve([1, 1], [0.1, 0.2])


def test_large_exact(rng):
    """1e5 rows with heavy ties and weights: the same as scikit-learn."""
    n = 100_000
    y = rng.integers(0, 2, n)
    s = np.round(rng.standard_normal(n) + y, 2)
    w = rng.random(n)
    for kw in ({}, {"sample_weight": w}):
        assert abs(fastauc.roc_auc_score(y, s, **kw) - skm.roc_auc_score(y, s, **kw)) <= ATOL
        assert abs(fastauc.average_precision_score(y, s, **kw)
                   - skm.average_precision_score(y, s, **kw)) <= ATOL
        ours, ref = fastauc.roc_curve(y, s, **kw), skm.roc_curve(y, s, **kw)
        assert_curves_equal(ours, ref)
        # above 2**16 rows the curve is swept in two key ranges on two threads
        # (the upper one has ties, so the halves are closed up afterwards)
        for f in ("precision_recall_curve", "det_curve"):
            assert_curves_equal(getattr(fastauc, f)(y, s, **kw), getattr(skm, f)(y, s, **kw))
        assert_curves_equal(fastauc.roc_curve(y, s, drop_intermediate=False, **kw),
                            skm.roc_curve(y, s, drop_intermediate=False, **kw))
        assert_curves_equal(fastauc.roc_curve(y, -np.abs(s), **kw),
                            skm.roc_curve(y, -np.abs(s), **kw))


def test_log_loss_labels_and_missing_classes(rng):
    y = rng.choice([0, 2], 100)  # class 1 never appears
    p = rng.dirichlet(np.ones(3), 100)
    ref = skm.log_loss(y, p, labels=[0, 1, 2])
    assert abs(fastauc.log_loss(y, p, labels=[0, 1, 2]) - ref) <= ATOL
    y2 = rng.choice(["ham", "spam"], 100)
    p2 = rng.random(100)
    assert abs(fastauc.log_loss(y2, p2) - skm.log_loss(y2, p2)) <= ATOL
    with pytest.raises(ValueError, match="different number of classes"):
        with pytest.warns(UserWarning, match="do not sum to one"):  # as scikit-learn
            fastauc.log_loss(np.arange(100) % 3, p[:, :2])


def test_binary_y_true_with_three_score_columns(rng):
    y = rng.choice([0, 2], 200)
    p = rng.dirichlet(np.ones(3), 200)
    ref = sklearn_call(skm.roc_auc_score, y, p, multi_class="ovr", labels=[0, 1, 2],
                       average="weighted")
    with pytest.warns(UndefinedMetricWarning, match="Only one class"):  # class 1 is absent
        ours = fastauc.roc_auc_score(y, p, multi_class="ovr", labels=[0, 1, 2],
                                     average="weighted")
    assert abs(ours - ref) <= ATOL


@pytest.mark.parametrize("average", ["macro", "weighted"])
def test_multiclass_large_with_ties_ovo_and_ovr(average, rng):
    """Above 2**16 rows (two sorted runs per column), rounded probabilities
    (many ties across classes); one-vs-one also with a class given in
    ``labels`` that has no row (its pairs are skipped, as in scikit-learn)."""
    n, k = 90_000, 5
    y = rng.choice(k, n, p=[0.35, 0.3, 0.2, 0.1, 0.05])
    logits = rng.normal(size=(n, k))
    logits[np.arange(n), y] += 1.0
    P = np.exp(logits)
    P = np.round(P / P.sum(1, keepdims=True), 2)
    P[:, -1] = 1.0 - P[:, :-1].sum(1)
    for mc in ("ovo", "ovr"):
        ours = fastauc.roc_auc_score(y, P, multi_class=mc, average=average)
        ref = skm.roc_auc_score(y, P, multi_class=mc, average=average)
        assert abs(ours - ref) <= ATOL, (mc, ours, ref)
    absent = np.where(y == 3, 4, y)  # class 3 has no row
    assert abs(fastauc.roc_auc_score(absent, P, multi_class="ovo", average=average,
                                     labels=np.arange(k))
               - skm.roc_auc_score(absent, P, multi_class="ovo", average=average,
                                   labels=np.arange(k))) <= ATOL
