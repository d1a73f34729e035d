"""Operating points (torchmetrics' ``*_at_*`` rules) and scikit-learn's
``confusion_matrix_at_thresholds``: against torchmetrics, scikit-learn and
``fastauc.naive``, with weights, properties and bad inputs."""

import math
import warnings

import numpy as np
import pytest
import sklearn.metrics as skm
from hypothesis import given, settings
from hypothesis import strategies as st

import fastauc
from fastauc import _operating, naive

RULES = ("sensitivity_at_specificity", "specificity_at_sensitivity", "precision_at_recall",
         "recall_at_precision")
MIN_NAMES = dict(zip(RULES, ("min_specificity", "min_sensitivity", "min_recall",
                             "min_precision")))


def _data(seed, n, decimals=2, one_class=False):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    if one_class:
        y[:] = y[0]
    return y, np.round(rng.random(n), decimals)


def _torchmetrics(rule, y, s, minimum):
    torch = pytest.importorskip("torch")
    tm = pytest.importorskip("torchmetrics.functional.classification")
    fn = {"sensitivity_at_specificity": tm.binary_sensitivity_at_specificity,
          "specificity_at_sensitivity": tm.binary_specificity_at_sensitivity,
          "precision_at_recall": tm.binary_precision_at_fixed_recall,
          "recall_at_precision": tm.binary_recall_at_fixed_precision}[rule]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # torchmetrics' warnings about an absent class
        out = fn(torch.tensor(s, dtype=torch.float32), torch.tensor(y), minimum)
    return tuple(float(x) for x in out)


def _close(a, b, tol):
    np.testing.assert_allclose(np.asarray(tuple(a), float), np.asarray(tuple(b), float),
                               rtol=0, atol=tol, equal_nan=True)


@pytest.mark.parametrize("rule", RULES)
@pytest.mark.parametrize("seed", range(12))
def test_equals_torchmetrics_and_naive(rule, seed):
    n = [1, 2, 5, 9, 30, 200][seed % 6]
    y, s = _data(seed, n, decimals=1 + seed % 3, one_class=seed % 5 == 4)
    for minimum in (0.0, 0.3, 0.5, 0.77, 0.95, 1.0):
        ours = getattr(fastauc, rule)(y, s, minimum)
        _close(ours, _torchmetrics(rule, y, s, minimum), 1e-6)
        _close(ours, naive.operating_point(y, s, rule, minimum), 1e-12)


@pytest.mark.parametrize("rule", RULES)
def test_unsatisfiable_constraint_and_zero_value(rule):
    y, s = [0, 1, 0, 1], [0.9, 0.1, 0.8, 0.2]  # worse than random
    for minimum in (1.0, 0.99):
        ours = getattr(fastauc, rule)(y, s, minimum)
        _close(ours, _torchmetrics(rule, y, s, minimum), 1e-6)
    # no positives: the value is 0, the threshold 1e6 (ROC) or NaN (precision-recall)
    value, threshold = getattr(fastauc, rule)([0, 0, 0], [0.2, 0.5, 0.9], 0.5)
    tm_value, tm_threshold = _torchmetrics(rule, [0, 0, 0], [0.2, 0.5, 0.9], 0.5)
    assert value == tm_value
    assert threshold == tm_threshold or (math.isnan(threshold) and math.isnan(tm_threshold))


def test_documented_thresholds():
    y, s = [0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8]
    assert tuple(fastauc.sensitivity_at_specificity(y, s, 1.0)) == (0.5, 0.8)
    assert tuple(fastauc.specificity_at_sensitivity([0, 1], [0.3, 0.7], 0.0)) == (1.0, 1.0)
    assert fastauc.sensitivity_at_specificity([0, 1], [-3.0, 2.0], 1.0).threshold == 2.0
    # the start point of scores above 1 is at +inf (nothing predicted positive)
    assert tuple(fastauc.specificity_at_sensitivity([0, 1], [-3.0, 2.0], 0.0)) == \
        (1.0, math.inf)
    r = fastauc.recall_at_precision(y, s, 0.99)
    assert (r.value, r.threshold) == (0.5, 0.8)
    assert repr(r) == "OperatingPoint(value=0.5, threshold=0.8)"


@pytest.mark.parametrize("rule", RULES)
@settings(max_examples=60, deadline=None)
@given(data=st.lists(st.tuples(st.integers(0, 1), st.integers(0, 6), st.integers(0, 3)),
                     min_size=1, max_size=25),
       minimum=st.sampled_from([0.0, 0.25, 0.5, 0.6, 1.0]) | st.floats(0, 1))
def test_weighted_equals_naive_and_repeated_rows(rule, data, minimum):
    y = np.array([d[0] for d in data])
    s = np.array([d[1] for d in data]) / 6.0
    w = np.array([d[2] for d in data], float)
    if w.sum() == 0:
        w[0] = 1.0
    fn = getattr(fastauc, rule)
    ours = fn(y, s, minimum, sample_weight=w)
    _close(ours, naive.operating_point(y, s, rule, minimum, w), 1e-12)
    # integer weights == repeated rows; zero weight == row removed
    rep = np.repeat(np.arange(len(y)), w.astype(int))
    _close(ours, fn(y[rep], s[rep], minimum), 1e-12)
    # scaled weights and shuffled rows change nothing
    order = np.random.default_rng(len(y)).permutation(len(y))
    _close(ours, fn(y[order], s[order], minimum, sample_weight=w[order] * 0.5), 1e-12)


@pytest.mark.parametrize("rule", RULES)
@settings(max_examples=40, deadline=None)
@given(data=st.lists(st.tuples(st.integers(0, 1), st.integers(0, 5)), min_size=2,
                     max_size=20))
def test_properties(rule, data):
    y = np.array([d[0] for d in data])
    s = np.array([d[1] for d in data]) / 5.0
    fn = getattr(fastauc, rule)
    values = [fn(y, s, m).value for m in (0.0, 0.2, 0.5, 0.8, 1.0)]
    assert all(0.0 <= v <= 1.0 for v in values)
    assert all(a >= b for a, b in zip(values, values[1:]))  # a higher floor never helps
    # the labels flipped by pos_label give the same result
    _close(fn(np.where(y == 1, "yes", "no"), s, 0.5, pos_label="yes"), fn(y, s, 0.5), 0)


@pytest.mark.parametrize("rule", RULES)
@pytest.mark.parametrize("minimum, words", [
    (-0.1, "in [0, 1]"), (1.5, "in [0, 1]"), (float("nan"), "in [0, 1]"),
    ("0.5", "a number"), (None, "a number"), (True, "a number")])
def test_bad_minimum(rule, minimum, words):
    with pytest.raises(ValueError, match=MIN_NAMES[rule]) as info:
        getattr(fastauc, rule)([0, 1], [0.2, 0.8], minimum)
    assert words in str(info.value)


@pytest.mark.parametrize("rule", RULES)
def test_bad_labels_and_scores(rule):
    fn = getattr(fastauc, rule)
    with pytest.raises(ValueError, match="inconsistent numbers of samples|length"):
        fn([0, 1, 1], [0.2, 0.8], 0.5)
    with pytest.raises(ValueError, match="NaN|infinity"):
        fn([0, 1], [0.2, float("nan")], 0.5)
    with pytest.raises(ValueError, match="negative"):
        fn([0, 1], [0.2, 0.8], 0.5, sample_weight=[1.0, -1.0])


def test_tensors_in_tensors_out_for_scalars():
    torch = pytest.importorskip("torch")
    y, s = _data(3, 50)
    ours = fastauc.precision_at_recall(torch.tensor(y), torch.tensor(s), 0.5)
    _close(ours, fastauc.precision_at_recall(y, s, 0.5), 0)


# ------------------------------------------------------------ confusion_matrix_at_thresholds
@pytest.mark.parametrize("seed", range(10))
def test_confusion_matrix_at_thresholds_equals_sklearn(seed):
    y, s = _data(seed, [1, 3, 10, 57, 400][seed % 5], decimals=1 + seed % 3)
    w = np.round(np.random.default_rng(seed).random(len(y)) * 3, 1) if seed % 2 else None
    kw = {} if seed % 3 else {"pos_label": 0}
    if seed % 4 == 3:
        y = np.where(y == 1, "b", "a")
        kw = {"pos_label": "a" if seed % 8 == 3 else "b"}
    ours = fastauc.confusion_matrix_at_thresholds(y, s, sample_weight=w, **kw)
    ref = skm.confusion_matrix_at_thresholds(y, s, sample_weight=w, **kw)
    assert len(ours) == 5
    for a, b in zip(ours, ref):
        np.testing.assert_allclose(a, b, rtol=0, atol=1e-12)
        assert a.dtype == b.dtype


@pytest.mark.parametrize("kind", ["normal", "rounded", "one value", "one class", "float32"])
def test_confusion_matrix_at_thresholds_in_key_ranges(kind, monkeypatch):
    """From 2**16 unweighted rows the columns are written by the sweep's key
    ranges on the threads (ties leave gaps closed afterwards): scikit-learn's
    arrays bit for bit, and the one-pass path's."""
    rng = np.random.default_rng(7)
    n = 150_000
    y = (rng.random(n) < 0.1).astype(np.int64)
    s = {"normal": lambda: rng.standard_normal(n) + y,
         "rounded": lambda: np.round(rng.random(n), 2),
         "one value": lambda: np.full(n, 0.25),
         "one class": lambda: rng.standard_normal(n),
         "float32": lambda: (rng.standard_normal(n) + y).astype(np.float32)}[kind]()
    if kind == "one class":
        y[:] = 0
    ours = fastauc.confusion_matrix_at_thresholds(y, s)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ref = skm.confusion_matrix_at_thresholds(y, s)
    monkeypatch.setattr(_operating, "CHUNK_MIN", 1 << 40)
    one_pass = fastauc.confusion_matrix_at_thresholds(y, s)
    for a, b, c in zip(ours, ref, one_pass):
        np.testing.assert_array_equal(a, b)
        np.testing.assert_array_equal(a, c)
        assert a.dtype == b.dtype and a.flags.c_contiguous


@settings(max_examples=60, deadline=None)
@given(data=st.lists(st.tuples(st.integers(0, 1), st.integers(-3, 3), st.integers(0, 3)),
                     min_size=1, max_size=25))
def test_confusion_matrix_at_thresholds_property(data):
    y = np.array([d[0] for d in data])
    s = np.array([d[1] for d in data]) * 0.5
    w = np.array([d[2] for d in data], float)
    if w.sum() == 0:
        w[0] = 1.0
    tns, fps, fns, tps, thr = fastauc.confusion_matrix_at_thresholds(y, s, sample_weight=w)
    ref = naive.confusion_at_thresholds(y, s, w)
    np.testing.assert_array_equal(thr, ref[0])
    np.testing.assert_allclose(tps, ref[1], atol=1e-12)
    np.testing.assert_allclose(fps, ref[2], atol=1e-12)
    np.testing.assert_allclose(tns + fps, ref[4], atol=1e-12)
    np.testing.assert_allclose(fns + tps, ref[3], atol=1e-12)
    if len(set(y.tolist())) == 2:
        sk = skm.confusion_matrix_at_thresholds(y, s, sample_weight=w)
        for a, b in zip((tns, fps, fns, tps, thr), sk):
            np.testing.assert_allclose(a, b, rtol=0, atol=1e-12)


@pytest.mark.parametrize("y, s, kw, error", [
    ([0, 1, 2], [0.1, 0.2, 0.3], {}, "multiclass format is not supported"),
    (["a", "b"], [0.1, 0.2], {}, "pos_label"),
    ([0, 1], [0.1], {}, "inconsistent numbers of samples"),
])
def test_confusion_matrix_at_thresholds_errors_as_sklearn(y, s, kw, error):
    with pytest.raises(ValueError, match=error):
        skm.confusion_matrix_at_thresholds(y, s, **kw)
    with pytest.raises(ValueError, match=error):
        fastauc.confusion_matrix_at_thresholds(y, s, **kw)
