"""Calibration metrics against scikit-learn and torchmetrics.

The Brier score, the D² scores and the reliability curve against
scikit-learn 1.9 (random data, ties, weights with zeros, label encodings,
``pos_label``, bins and strategies); the calibration error against
torchmetrics' ``binary_calibration_error`` (every norm, several bin counts,
probabilities exactly on bin edges, 0 and 1) and, with weights, against its
definition row by row; scikit-learn's weight invariances; property tests;
a table of bad input.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import sklearn.calibration as skc
import sklearn.metrics as skm
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import fastauc
from fastauc import (
    brier_score_loss,
    calibration_curve,
    calibration_error,
    d2_brier_score,
    d2_log_loss_score,
)

from .conftest import sklearn_call
from .registry import _calibration_error

try:
    import torch
    from torchmetrics.functional.classification import binary_calibration_error
except ImportError:  # the torch extra: only the comparisons with torchmetrics are skipped
    torch = None

needs_torch = pytest.mark.skipif(torch is None, reason="torch and torchmetrics not installed")

TOL = 1e-12


def close(ours, ref, tol=TOL):
    if isinstance(ref, tuple):
        assert len(ours) == len(ref)
        for a, b in zip(ours, ref):
            close(a, b, tol)
        return
    ref = np.asarray(ref, np.float64)
    ours = np.asarray(ours, np.float64)
    assert ours.shape == ref.shape, (ours, ref)
    np.testing.assert_allclose(ours, ref, rtol=0, atol=tol * max(1.0, float(np.max(np.abs(
        ref), initial=0.0))))


def problem(rng, n, ties=False, weights=False):
    y = (rng.random(n) < 0.4).astype(np.int64)
    y[:2] = (0, 1)
    p = 1.0 / (1.0 + np.exp(-(rng.normal(size=n) + y)))
    if ties:
        p = np.round(p, 1)  # 0, 0.1, ..., 1: many ties, values on the edges of 5 and 10 bins
    w = None
    if weights:
        w = rng.random(n) * 3
        w[rng.random(n) < 0.25] = 0.0
        w[:2] = 1.0
    return y, p, w


SIZES = (2, 7, 60, 1000)


# ---------------------------------------------------------------- against scikit-learn

@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("ties", [False, True])
@pytest.mark.parametrize("weights", [False, True])
def test_brier_and_d2_match_sklearn(n, ties, weights):
    y, p, w = problem(np.random.default_rng(n), n, ties, weights)
    for scale in ("auto", True, False):
        close(brier_score_loss(y, p, sample_weight=w, scale_by_half=scale),
              sklearn_call(skm.brier_score_loss, y, p, sample_weight=w, scale_by_half=scale))
    close(d2_brier_score(y, p, sample_weight=w),
          sklearn_call(skm.d2_brier_score, y, p, sample_weight=w))
    close(d2_log_loss_score(y, p, sample_weight=w),
          sklearn_call(skm.d2_log_loss_score, y, p, sample_weight=w))


LABELS = {
    "0/1": (np.array([0, 1]), {}),
    "-1/1": (np.array([-1, 1]), {}),
    "bool": (np.array([False, True]), {}),
    "2/5 (greater positive)": (np.array([2, 5]), {}),
    "floats": (np.array([0.0, 1.0]), {}),
    "strings": (np.array(["neg", "pos"]), {"pos_label": "pos"}),
    "strings, first positive": (np.array(["neg", "pos"]), {"pos_label": "neg"}),
    "0/1, pos_label=0": (np.array([0, 1]), {"pos_label": 0}),
}


@pytest.mark.parametrize("encoding", LABELS)
def test_label_encodings(encoding):
    classes, kw = LABELS[encoding]
    y01, p, w = problem(np.random.default_rng(1), 80, True, True)
    y = classes[y01]
    close(brier_score_loss(y, p, sample_weight=w, **kw),
          sklearn_call(skm.brier_score_loss, y, p, sample_weight=w, **kw))
    close(d2_brier_score(y, p, sample_weight=w, **kw),
          sklearn_call(skm.d2_brier_score, y, p, sample_weight=w, **kw))
    if "pos_label" not in kw:
        close(d2_log_loss_score(y, p, sample_weight=w),
              sklearn_call(skm.d2_log_loss_score, y, p, sample_weight=w))
    if encoding not in ("2/5 (greater positive)",):  # calibration_curve needs pos_label there
        for strategy in ("uniform", "quantile"):
            close(calibration_curve(y, p, strategy=strategy, **kw),
                  sklearn_call(skc.calibration_curve, y, p, strategy=strategy, **kw))


@pytest.mark.parametrize("y", [[0, 0, 0], [1, 1, 1], [-1, -1, -1], [2, 2, 2]])
def test_one_class_brier(y):
    p = [0.2, 0.7, 1.0]
    close(brier_score_loss(y, p), sklearn_call(skm.brier_score_loss, y, p))
    close(calibration_curve(np.array(y) > 0, p), sklearn_call(skc.calibration_curve,
                                                              np.array(y) > 0, p))


@pytest.mark.parametrize("k", [2, 3, 4])
@pytest.mark.parametrize("weights", [False, True])
def test_multiclass_columns(k, weights):
    rng = np.random.default_rng(k)
    y = rng.integers(0, k, 90)
    y[:k] = np.arange(k)
    P = rng.dirichlet(np.ones(k), 90)
    w = rng.random(90) if weights else None
    for f, ref in ((brier_score_loss, skm.brier_score_loss), (d2_brier_score, skm.d2_brier_score),
                   (d2_log_loss_score, skm.d2_log_loss_score)):
        close(f(y, P, sample_weight=w), sklearn_call(ref, y, P, sample_weight=w))
    close(brier_score_loss(y, P, scale_by_half=True),
          sklearn_call(skm.brier_score_loss, y, P, scale_by_half=True))
    # a class absent from y_true, named by labels
    y2 = np.where(y == k - 1, 0, y)
    close(brier_score_loss(y2, P, labels=np.arange(k)),
          sklearn_call(skm.brier_score_loss, y2, P, labels=np.arange(k)))


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("ties", [False, True])
@pytest.mark.parametrize("n_bins", [1, 2, 5, 10, 37])
@pytest.mark.parametrize("strategy", ["uniform", "quantile"])
def test_calibration_curve_matches_sklearn(n, ties, n_bins, strategy):
    y, p, _ = problem(np.random.default_rng(n + n_bins), n, ties)
    close(calibration_curve(y, p, n_bins=n_bins, strategy=strategy),
          sklearn_call(skc.calibration_curve, y, p, n_bins=n_bins, strategy=strategy))


def test_calibration_curve_edges_and_extremes():
    """Probabilities on the uniform edges (right-closed bins), 0 and 1."""
    p = np.array([0.0, 0.2, 0.2, 0.4, 0.5, 0.6, 0.8, 1.0, 1.0, 0.0])
    y = np.array([0, 0, 1, 0, 1, 1, 1, 1, 0, 1])
    for n_bins in (1, 2, 4, 5, 10):
        for strategy in ("uniform", "quantile"):
            close(calibration_curve(y, p, n_bins=n_bins, strategy=strategy),
                  sklearn_call(skc.calibration_curve, y, p, n_bins=n_bins, strategy=strategy))


@pytest.mark.parametrize("kind", ["distinct", "ties", "signed zeros", "narrow", "constant",
                                  "subnormal"])
def test_calibration_curve_in_row_blocks(kind):
    """Rows in several blocks (the threads' units): the bins' sums, and the
    quantiles selected from buckets of the probabilities' top bits (one
    bucket holding every row, ``-0.0`` beside ``+0.0``, subnormals)."""
    y, p, _ = problem(np.random.default_rng(5), 200_000)
    p = {"distinct": p, "ties": np.round(p, 2), "signed zeros": np.where(p < 0.3, -0.0, p),
         "narrow": 0.5 + p * 1e-9, "constant": np.full(p.shape, 0.25),
         "subnormal": p * 1e-310}[kind]
    for n_bins in (1, 5, 13):
        for strategy in ("uniform", "quantile"):
            close(calibration_curve(y, p, n_bins=n_bins, strategy=strategy),
                  sklearn_call(skc.calibration_curve, y, p, n_bins=n_bins, strategy=strategy))


def test_row_blocks_in_any_order_give_the_same_bits(monkeypatch):
    """The blocks' partial sums are added in block order: the units run in
    another order (as other threads would take them), the same result."""
    from fastauc import _parallel

    y, p, w = problem(np.random.default_rng(6), 300_000, weights=True)
    calls = (lambda: brier_score_loss(y, p, sample_weight=w),
             lambda: d2_brier_score(y, p, sample_weight=w),
             lambda: calibration_curve(y, p, n_bins=7),
             lambda: calibration_curve(y, p, n_bins=7, strategy="quantile"),
             lambda: calibration_error(y, p, sample_weight=w, norm="l2"))
    first = [call() for call in calls]
    close(first[0], sklearn_call(skm.brier_score_loss, y, p, sample_weight=w))
    close(first[4], _calibration_error(y, p, w, 15, "l2"))
    monkeypatch.setattr(_parallel, "SHUFFLE", 3)
    for call, before in zip(calls, first):
        np.testing.assert_array_equal(call(), before)


# ---------------------------------------------------------------- against torchmetrics

def torchmetrics_ce(y, p, n_bins, norm):
    return float(binary_calibration_error(torch.as_tensor(np.asarray(p, np.float64)),
                                          torch.as_tensor(np.asarray(y, np.int64)),
                                          n_bins=n_bins, norm=norm))


def torch_edges(n_bins):
    return torch.linspace(0, 1, n_bins + 1, dtype=torch.float64).numpy()


@needs_torch
@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("ties", [False, True])
@pytest.mark.parametrize("n_bins", [1, 3, 5, 10, 15])
@pytest.mark.parametrize("norm", ["l1", "l2", "max"])
def test_calibration_error_matches_torchmetrics(n, ties, n_bins, norm):
    y, p, _ = problem(np.random.default_rng(n * n_bins), n, ties)
    close(calibration_error(y, p, n_bins=n_bins, norm=norm), torchmetrics_ce(y, p, n_bins, norm))


@needs_torch
@pytest.mark.parametrize("n_bins", [1, 2, 3, 4, 5, 7, 10, 15, 20])
@pytest.mark.parametrize("norm", ["l1", "l2", "max"])
def test_calibration_error_on_the_edges(n_bins, norm):
    """Probabilities exactly on torchmetrics' edges go to the bin above; 1 to a bin
    of its own; 0 to the first.  (Edges that torch's vectorised linspace rounds
    differently from its element-wise formula are left out: they depend on the CPU.)"""
    from fastauc._probabilities import linspace_edges as _linspace_edges

    edges = torch_edges(n_bins)
    same = edges[edges == _linspace_edges(n_bins)]
    rng = np.random.default_rng(n_bins)
    p = np.concatenate([same, same, [0.0, 1.0, 1.0, 0.0], rng.choice(same, 40)])
    y = rng.integers(0, 2, p.shape[0])
    close(calibration_error(y, p, n_bins=n_bins, norm=norm), torchmetrics_ce(y, p, n_bins, norm))


@pytest.mark.parametrize("n_bins", [31, 32, 40, 100])
@pytest.mark.parametrize("norm", ["l1", "l2", "max"])
def test_calibration_error_with_many_bins(n_bins, norm):
    """More edges than the kernel compares one by one: the count starts at
    ``p * n_bins`` and walks to the edges (probabilities on them, 0 and 1)."""
    from fastauc._probabilities import linspace_edges as _linspace_edges

    y, p, w = problem(np.random.default_rng(n_bins), 3000, weights=True)
    p[:200] = np.random.default_rng(1).choice(_linspace_edges(n_bins), 200)
    close(calibration_error(y, p, n_bins=n_bins, norm=norm, sample_weight=w),
          _calibration_error(y, p, w, n_bins, norm))


@needs_torch
def test_edges_follow_torch_for_few_bins():
    from fastauc._probabilities import linspace_edges as _linspace_edges

    for n_bins in range(1, 15):
        np.testing.assert_array_equal(_linspace_edges(n_bins), torch_edges(n_bins))


@needs_torch
@pytest.mark.parametrize("norm", ["l1", "l2", "max"])
def test_weighted_calibration_error(norm):
    rng = np.random.default_rng(3)
    y, p, w = problem(rng, 300, True, True)
    close(calibration_error(y, p, n_bins=10, norm=norm, sample_weight=w),
          _calibration_error(y, p, w, 10, norm))
    # integer weights: torchmetrics on the repeated rows
    k = rng.integers(0, 4, 300)
    k[:2] = 1
    close(calibration_error(y, p, n_bins=10, norm=norm, sample_weight=k),
          torchmetrics_ce(np.repeat(y, k), np.repeat(p, k), 10, norm))


@needs_torch
def test_perfect_calibration_is_zero():
    p = np.repeat([0.0, 0.25, 0.5, 1.0], 4)
    y = np.array([0, 0, 0, 0, 1, 0, 0, 0, 1, 1, 0, 0, 1, 1, 1, 1])
    for norm in ("l1", "l2", "max"):
        assert calibration_error(y, p, n_bins=4, norm=norm) == 0.0
        assert torchmetrics_ce(y, p, 4, norm) == 0.0  # the same rule: 1 is a bin of its own


# ---------------------------------------------------------------- weight invariances

WEIGHTED = {
    "brier_score_loss": lambda y, p, w: brier_score_loss(y, p, sample_weight=w),
    "d2_brier_score": lambda y, p, w: d2_brier_score(y, p, sample_weight=w),
    "d2_log_loss_score": lambda y, p, w: d2_log_loss_score(y, p, sample_weight=w),
    **{f"calibration_error[{norm}]":
       (lambda y, p, w, norm=norm: calibration_error(y, p, n_bins=8, norm=norm, sample_weight=w))
       for norm in ("l1", "l2", "max")},
}


@pytest.mark.parametrize("name", WEIGHTED)
def test_weight_invariances(name):
    f = WEIGHTED[name]
    rng = np.random.default_rng(11)
    y, p, _ = problem(rng, 120, True)
    k = rng.integers(0, 4, 120)
    k[:2] = 1
    close(f(y, p, np.ones(120)), f(y, p, None))  # ones == no weights
    close(f(y, p, k.astype(float)), f(np.repeat(y, k), np.repeat(p, k), None))  # repeat rows
    keep = k > 0
    close(f(y, p, k.astype(float)), f(y[keep], p[keep], k[keep].astype(float)))  # zero: removed
    close(f(y, p, 3.5 * k), f(y, p, k.astype(float)))  # scale
    order = rng.permutation(120)
    close(f(y[order], p[order], k[order].astype(float)), f(y, p, k.astype(float)))  # shuffle


def test_no_sort_of_the_rows(monkeypatch):
    from fastauc import _table

    calls = []
    real = _table.sort_by_class

    def counted(*args, **kwargs):
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(_table, "sort_by_class", counted)
    y, p, w = problem(np.random.default_rng(0), 200, True, True)
    # sums over the rows and a selection of order statistics: no sort of the rows
    for call in (lambda: brier_score_loss(y, p, sample_weight=w),
                 lambda: d2_brier_score(y, p, sample_weight=w),
                 lambda: calibration_curve(y, p, strategy="quantile"),
                 lambda: calibration_curve(y, p),
                 lambda: calibration_error(y, p, sample_weight=w)):
        calls.clear()
        call()
        assert len(calls) == 0


# ---------------------------------------------------------------- properties

PROBS = [0.0, 0.1, 0.2, 0.25, 0.4, 0.5, 0.6, 0.75, 0.8, 1.0, 1 / 3, 2 / 3]
WEIGHTS = [0.0, 0.5, 1.0, 2.0, 3.25, 7.0]


@st.composite
def probability_problems(draw, weights=True):
    n = draw(st.integers(2, 50))
    y = draw(hnp.arrays(np.int64, n, elements=st.integers(0, 1)))
    if draw(st.booleans()):
        p = draw(hnp.arrays(np.float64, n, elements=st.sampled_from(PROBS)))
    else:
        p = draw(hnp.arrays(np.float64, n, elements=st.floats(0.0, 1.0)))
    w = None
    if weights and draw(st.booleans()):
        w = draw(hnp.arrays(np.float64, n, elements=st.sampled_from(WEIGHTS)))
        if w.max() == 0:
            w[0] = 1.0
    return y, p, w


@given(probability_problems(), st.sampled_from([True, False, "auto"]))
def test_property_brier(problem_, scale):
    y, p, w = problem_
    close(brier_score_loss(y, p, sample_weight=w, scale_by_half=scale),
          sklearn_call(skm.brier_score_loss, y, p, sample_weight=w, scale_by_half=scale))


@given(probability_problems(weights=False), st.integers(1, 12),
       st.sampled_from(["uniform", "quantile"]))
def test_property_calibration_curve(problem_, n_bins, strategy):
    y, p, _ = problem_
    close(calibration_curve(y, p, n_bins=n_bins, strategy=strategy),
          sklearn_call(skc.calibration_curve, y, p, n_bins=n_bins, strategy=strategy))


@given(probability_problems(), st.integers(1, 14), st.sampled_from(["l1", "l2", "max"]))
def test_property_calibration_error(problem_, n_bins, norm):
    y, p, w = problem_
    ours = calibration_error(y, p, n_bins=n_bins, norm=norm, sample_weight=w)
    close(ours, _calibration_error(y, p, w, n_bins, norm))
    if w is None and torch is not None:
        close(ours, torchmetrics_ce(y, p, n_bins, norm))
    assert 0.0 <= ours <= 1.0


# ---------------------------------------------------------------- bad input

Y = np.array([0, 1, 0, 1, 1])
P = np.array([0.1, 0.8, 0.3, 0.6, 0.9])

BAD = [
    # (call, error type, words that must appear: scikit-learn's first)
    (lambda: brier_score_loss(Y, [0.1, 1.2, 0.3, 0.6, 0.9]), ValueError,
     ["y_prob contains values greater than 1: 1.2"]),
    (lambda: brier_score_loss(Y, [0.1, -0.2, 0.3, 0.6, 0.9]), ValueError,
     ["y_prob contains values less than 0: -0.2"]),
    (lambda: brier_score_loss([0, 1, 2], [[.2, .3, .5], [.1, .1, 1.8], [.3, .3, .4]]), ValueError,
     ["y_prob contains values greater than 1"]),
    (lambda: brier_score_loss(Y, [0.1, np.nan, 0.3, 0.6, 0.9]), ValueError,
     ["Input contains NaN", "index 1"]),
    (lambda: brier_score_loss(Y, P[:4]), ValueError,
     ["inconsistent numbers of samples", "y_true has 5"]),
    (lambda: brier_score_loss([0, 1, 2, 1, 0], P), ValueError,
     ["The type of the target inferred from y_true is multiclass but should be binary"]),
    (lambda: brier_score_loss(["a", "b", "a", "b", "b"], P), ValueError,
     ["pos_label is not specified"]),
    (lambda: brier_score_loss(Y, P, scale_by_half="yes"), ValueError,
     ["scale_by_half"]),
    (lambda: brier_score_loss(Y, P, sample_weight=[1, -1, 1, 1, 1]), ValueError,
     ["sample_weight", "negative"]),
    (lambda: brier_score_loss([0, 1, 2], [[.5, .5], [.5, .5], [.5, .5]]), ValueError,
     ["different number of classes"]),
    (lambda: d2_brier_score(Y, [0.1, 1.2, 0.3, 0.6, 0.9]), ValueError,
     ["y_prob contains values greater than 1"]),
    (lambda: d2_brier_score(Y, P[:4]), ValueError, ["inconsistent numbers of samples"]),
    (lambda: d2_log_loss_score(Y, [0.1, 1.2, 0.3, 0.6, 0.9]), ValueError,
     ["y_prob contains values greater than 1"]),
    (lambda: d2_log_loss_score(Y, P[:4]), ValueError, ["inconsistent numbers of samples"]),
    (lambda: d2_log_loss_score([1, 1, 1, 1, 1], P), ValueError, ["only one label"]),
    (lambda: d2_log_loss_score(Y, P, y_pred=P), ValueError, ["Cannot use both"]),
    (lambda: calibration_curve(Y, [0.1, 1.2, 0.3, 0.6, 0.9]), ValueError,
     ["y_prob has values outside [0, 1]."]),
    (lambda: calibration_curve(Y, [0.1, -0.2, 0.3, 0.6, 0.9]), ValueError,
     ["y_prob has values outside [0, 1]."]),
    (lambda: calibration_curve(Y, [0.1, np.nan, 0.3, 0.6, 0.9]), ValueError,
     ["Input contains NaN", "index 1"]),
    (lambda: calibration_curve(Y, P[:4]), ValueError, ["inconsistent numbers of samples"]),
    (lambda: calibration_curve([0, 1, 2, 1, 0], P, pos_label=1), ValueError,
     ["Only binary classification is supported. Provided labels [0 1 2]."]),
    (lambda: calibration_curve([1, 2, 2, 1, 1], P), ValueError, ["pos_label is not specified"]),
    (lambda: calibration_curve(Y, P, n_bins=0), ValueError,
     ["The 'n_bins' parameter of calibration_curve must be an int in the range [1, inf)"]),
    (lambda: calibration_curve(Y, P, strategy="median"), ValueError,
     ["The 'strategy' parameter of calibration_curve must be a str among"]),
    (lambda: calibration_curve(Y, [[0.1, 0.9]] * 5), ValueError,
     ["y should be a 1d array", "y_prob[:, 1]"]),
    (lambda: calibration_error(Y, [0.1, 1.2, 0.3, 0.6, 0.9]), ValueError,
     ["y_prob has values outside [0, 1]."]),
    (lambda: calibration_error(Y, [0.1, np.nan, 0.3, 0.6, 0.9]), ValueError,
     ["Input contains NaN", "index 1"]),
    (lambda: calibration_error(Y, P[:4]), ValueError, ["inconsistent numbers of samples"]),
    (lambda: calibration_error([0, 1, 2, 1, 0], P), ValueError, ["3 classes", "binary"]),
    (lambda: calibration_error([1, 2, 2, 1, 1], P), ValueError, ["{0, 1} or {-1, 1}"]),
    (lambda: calibration_error(Y, P, norm="l3"), ValueError, ["'norm'", "'l1', 'l2', 'max'"]),
    (lambda: calibration_error(Y, P, n_bins=1.5), ValueError, ["n_bins"]),
    (lambda: calibration_error(Y, P, sample_weight=np.zeros(5)), ValueError,
     ["sample_weight sums to zero"]),
]


@pytest.mark.parametrize("call,exc,words", BAD)
def test_bad_input(call, exc, words):
    with pytest.raises(exc) as info, warnings.catch_warnings():
        warnings.simplefilter("ignore")
        call()
    for word in words:
        assert word in str(info.value), (word, str(info.value))


@pytest.mark.parametrize("f", [d2_brier_score, d2_log_loss_score])
def test_d2_of_one_sample_is_nan_with_a_warning(f):
    with pytest.warns(fastauc.UndefinedMetricWarning, match="less than two samples"):
        assert np.isnan(f([1], [0.7]))


def test_y_pred_is_deprecated():
    with pytest.warns(FutureWarning, match="renamed to `y_proba`"):
        ours = d2_log_loss_score(Y, y_pred=P)
    close(ours, sklearn_call(skm.d2_log_loss_score, Y, P))


def test_results_are_python_floats_and_arrays():
    for v in (brier_score_loss(Y, P), d2_brier_score(Y, P), d2_log_loss_score(Y, P),
              calibration_error(Y, P)):
        assert type(v) is float
    prob_true, prob_pred = calibration_curve(Y, P)
    assert prob_true.dtype == prob_pred.dtype == np.float64
