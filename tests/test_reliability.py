"""CORP reliability curves and the Brier decomposition (fastauc.reliability).

References: scikit-learn's IsotonicRegression (weighted, ties pooled) for
the PAV values, its calibration_curve for the bins, brier_score_loss for
the score, fastauc.naive (min-max formula of isotonic regression, the
decomposition row by row) for the rest.
"""

import numpy as np
import pytest
import sklearn.calibration as skc
import sklearn.metrics as skm
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.isotonic import IsotonicRegression

import fastauc
from fastauc import naive

from .strategies import binary_problems


def _sigmoid(s):
    return 1.0 / (1.0 + np.exp(-s))


def _problem(rng, n, ties=False, weights=False):
    p = _sigmoid(rng.normal(size=n))
    if ties:
        p = np.round(p, 1)
    y = (rng.random(n) < p**1.5).astype(np.int64)
    w = rng.choice([0.0, 0.5, 1.0, 2.0, 3.25], n) if weights else None
    return y, p, w


def _sklearn_pav(y, p, w):
    xs = np.unique(p if w is None else p[w > 0])
    fit = IsotonicRegression().fit(p, y.astype(np.float64), sample_weight=w)
    return xs, fit.predict(xs)


def _check_blocks(r, y, p, w):
    """The record's blocks are the runs of the recalibrated values, maximal,
    and their numbers are the sums over their rows."""
    assert np.all(np.diff(r.prob_true) > 0)
    assert np.all(r.low <= r.high) and np.all(r.high[:-1] < r.low[1:])
    assert np.all((r.prob_pred >= r.low - 1e-15) & (r.prob_pred <= r.high + 1e-15))
    ww = np.ones(len(p)) if w is None else w
    pos = y == 1
    for b in range(len(r)):
        rows = (p >= r.low[b]) & (p <= r.high[b]) & (ww > 0)
        np.testing.assert_allclose(r.weight[b], ww[rows].sum(), rtol=1e-12)
        np.testing.assert_allclose(r.prob_true[b], ww[rows & pos].sum() / ww[rows].sum(),
                                   rtol=1e-12, atol=1e-15)
        np.testing.assert_allclose(r.prob_pred[b], (ww * p)[rows].sum() / ww[rows].sum(),
                                   rtol=1e-12)
        inside = (r.scores >= r.low[b]) & (r.scores <= r.high[b])
        assert np.all(r.recalibrated[inside] == r.prob_true[b])


@pytest.mark.parametrize("ties", [False, True])
@pytest.mark.parametrize("weights", [False, True])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_isotonic_equals_sklearn_isotonic_regression(seed, ties, weights):
    rng = np.random.default_rng(seed)
    y, p, w = _problem(rng, 3000, ties, weights)
    r = fastauc.reliability_curve(y, p, sample_weight=w)
    xs, fit = _sklearn_pav(y, p, w)
    np.testing.assert_array_equal(r.scores, xs)
    np.testing.assert_allclose(r.recalibrated, fit, rtol=0, atol=1e-12)
    _check_blocks(r, y, p, w)
    assert r.method == "isotonic"


def test_isotonic_on_a_table_built_in_key_ranges():
    """Past the size where the table is built in key ranges on the threads."""
    rng = np.random.default_rng(7)
    y, p, w = _problem(rng, 200_000, weights=True)
    r = fastauc.reliability_curve(y, p, sample_weight=w)
    xs, fit = _sklearn_pav(y, p, w)
    np.testing.assert_array_equal(r.scores, xs)
    np.testing.assert_allclose(r.recalibrated, fit, rtol=0, atol=1e-12)
    np.testing.assert_allclose(r.weight.sum(), w.sum(), rtol=1e-12)


def test_isotonic_equals_naive_pav_and_its_blocks():
    rng = np.random.default_rng(3)
    y, p, w = _problem(rng, 200, ties=True, weights=True)
    r = fastauc.reliability_curve(y, p, sample_weight=w)
    xs, fit = naive.pav(p, y, w)
    np.testing.assert_array_equal(r.scores, xs)
    np.testing.assert_allclose(r.recalibrated, fit, rtol=0, atol=1e-12)


@settings(max_examples=150, deadline=None)
@given(binary_problems(both_classes=False), st.booleans())
def test_isotonic_and_decomposition_on_tie_heavy_problems(problem, flip):
    """Ties, weights with zeros, and one class (or one class of positive
    weight): one block at frequency 0 or 1, DSC = UNC = 0."""
    y, s, w = problem
    p = _sigmoid(np.clip(s, -30, 30) / 2.0)
    if flip:
        p = 1.0 - p
    r = fastauc.reliability_curve(y, p, sample_weight=w)
    xs, fit = naive.pav(p, y, w)
    np.testing.assert_array_equal(r.scores, xs)
    np.testing.assert_allclose(r.recalibrated, fit, rtol=0, atol=1e-12)
    d = fastauc.brier_decomposition(y, p, sample_weight=w)
    ref = naive.brier_decomposition(y, p, w)
    for k, val in ref.items():
        assert abs(getattr(d, k) - val) <= 1e-12, (k, getattr(d, k), val)
    assert abs(d.brier - (d.miscalibration - d.discrimination + d.uncertainty)) <= 1e-12


@pytest.mark.parametrize("weights", [False, True])
@pytest.mark.parametrize("seed", [0, 1])
def test_decomposition_adds_up_and_equals_the_brier_score(seed, weights):
    rng = np.random.default_rng(seed)
    y, p, w = _problem(rng, 5000, ties=seed == 1, weights=weights)
    d = fastauc.brier_decomposition(y, p, sample_weight=w)
    assert abs(d.brier - (d.miscalibration - d.discrimination + d.uncertainty)) <= 1e-12
    assert abs(d.brier - skm.brier_score_loss(y, p, sample_weight=w)) <= 1e-12
    assert abs(d.brier - fastauc.brier_score_loss(y, p, sample_weight=w)) <= 1e-12
    assert d.miscalibration >= -1e-15 and d.discrimination >= -1e-15
    # the definitions, row by row, with scikit-learn's isotonic fit
    ww = np.ones(len(p)) if w is None else w
    r = IsotonicRegression().fit(p, y, sample_weight=w).predict(p)
    base = np.average(y, weights=ww)
    s_r = skm.brier_score_loss(y, r, sample_weight=w)
    s_c = skm.brier_score_loss(y, np.full(len(y), base), sample_weight=w)
    assert abs(d.miscalibration - (d.brier - s_r)) <= 1e-12
    assert abs(d.discrimination - (s_c - s_r)) <= 1e-12
    assert abs(d.uncertainty - s_c) <= 1e-12


def test_one_class_constant_and_calibrated_probabilities():
    p = np.array([0.1, 0.2, 0.2, 0.7])
    d = fastauc.brier_decomposition([0, 0, 0, 0], p)
    assert (d.uncertainty, d.discrimination) == (0.0, 0.0)
    assert d.miscalibration == pytest.approx(d.brier) == pytest.approx(np.mean(p**2))
    r = fastauc.reliability_curve([0, 0, 0, 0], p)
    assert r.prob_true.tolist() == [0.0] and r.weight.tolist() == [4.0]
    r = fastauc.reliability_curve([1, 1, 1, 1], p)
    assert r.prob_true.tolist() == [1.0] and (r.low[0], r.high[0]) == (0.1, 0.7)
    # a constant prediction: one block, no discrimination
    d = fastauc.brier_decomposition([0, 1, 1, 0, 1], np.full(5, 0.3))
    assert d.discrimination == 0.0
    assert d.miscalibration == pytest.approx((0.6 - 0.3) ** 2, abs=1e-15)  # (base - 0.3)^2
    # probabilities that are their own isotonic recalibration: no miscalibration
    rng = np.random.default_rng(5)
    y, p, _ = _problem(rng, 2000, ties=True)
    q = fastauc.reliability_curve(y, p).recalibrated[np.searchsorted(np.unique(p), p)]
    assert abs(fastauc.brier_decomposition(y, q).miscalibration) <= 1e-12


@pytest.mark.parametrize("strategy", ["uniform", "quantile"])
@pytest.mark.parametrize("n_bins", [1, 5, 10, 13])
def test_binned_equals_sklearn_calibration_curve(strategy, n_bins):
    rng = np.random.default_rng(n_bins)
    y, p, _ = _problem(rng, 1000, ties=n_bins == 5)
    r = fastauc.reliability_curve(y, p, method=strategy, n_bins=n_bins)
    prob_true, prob_pred = skc.calibration_curve(y, p, n_bins=n_bins, strategy=strategy)
    np.testing.assert_allclose(r.prob_true, prob_true, rtol=0, atol=1e-12)
    np.testing.assert_allclose(r.prob_pred, prob_pred, rtol=0, atol=1e-12)
    assert r.weight.sum() == 1000 and np.all(r.weight > 0)
    # each distinct score's value is its bin's frequency
    if strategy == "uniform":
        ids = np.searchsorted(np.linspace(0, 1, n_bins + 1)[1:-1], r.scores)
        kept = np.unique(ids)
        np.testing.assert_array_equal(r.recalibrated, r.prob_true[np.searchsorted(kept, ids)])


def test_binned_with_weights_sums_weights_per_bin():
    rng = np.random.default_rng(11)
    y, p, w = _problem(rng, 800, weights=True)
    r = fastauc.reliability_curve(y, p, method="uniform", n_bins=6, sample_weight=w)
    ids = np.searchsorted(np.linspace(0, 1, 7)[1:-1], p)
    total = np.bincount(ids, w, 6)
    kept = total > 0
    np.testing.assert_allclose(r.weight, total[kept], rtol=1e-12)
    np.testing.assert_allclose(r.prob_true, np.bincount(ids, w * y, 6)[kept] / total[kept],
                               rtol=1e-12)
    np.testing.assert_allclose(r.prob_pred, np.bincount(ids, w * p, 6)[kept] / total[kept],
                               rtol=1e-12)
    # quantile bins count weights as repeated rows
    wi = rng.integers(0, 4, 800).astype(float)
    a = fastauc.reliability_curve(y, p, method="quantile", n_bins=5, sample_weight=wi)
    rows = np.repeat(np.arange(800), wi.astype(int))
    b = fastauc.reliability_curve(y[rows], p[rows], method="quantile", n_bins=5)
    for k in ("prob_true", "prob_pred", "weight", "low", "high"):
        np.testing.assert_allclose(getattr(a, k), getattr(b, k), rtol=1e-12)


def test_labels_pos_label_and_to_dict():
    y = np.array(["no", "yes", "no", "yes", "yes"])
    p = [0.1, 0.3, 0.5, 0.5, 0.9]
    r = fastauc.reliability_curve(y, p, pos_label="yes")
    assert r.prob_true.tolist() == [0.0, 2 / 3, 1.0]
    with pytest.raises(ValueError, match="pos_label"):
        fastauc.reliability_curve(y, p)
    d = r.to_dict()
    assert d["method"] == "isotonic" and d["weight"] == [1.0, 3.0, 1.0]
    assert fastauc.brier_decomposition(y, p, pos_label="yes").to_dict()["uncertainty"] == \
        pytest.approx(0.24)
    # {-1, 1} labels: 1 is positive
    assert fastauc.brier_decomposition([-1, 1, -1, 1, 1], p) == \
        fastauc.brier_decomposition([0, 1, 0, 1, 1], p)


@pytest.mark.parametrize("func", [fastauc.reliability_curve, fastauc.brier_decomposition])
def test_bad_probabilities_and_options(func):
    y = [0, 1, 0, 1]
    with pytest.raises(ValueError, match="y_prob contains values greater than 1"):
        func(y, [0.1, 1.2, 0.3, 0.4])
    with pytest.raises(ValueError, match="y_prob contains values less than 0"):
        func(y, [0.1, -0.2, 0.3, 0.4])
    with pytest.raises(ValueError, match="y_prob"):
        func(y, [0.1, np.nan, 0.3, 0.4])
    with pytest.raises(ValueError, match="multiclass"):
        func([0, 1, 2, 1], [0.1, 0.2, 0.3, 0.4])
    with pytest.raises(ValueError, match="sample_weight"):
        func(y, [0.1, 0.2, 0.3, 0.4], sample_weight=[1, -1, 1, 1])


def test_bad_method_and_bins():
    y, p = [0, 1, 0, 1], [0.1, 0.2, 0.3, 0.4]
    with pytest.raises(ValueError, match="'method' parameter of reliability_curve"):
        fastauc.reliability_curve(y, p, method="pav")
    for n_bins in (0, 2.5, True):
        with pytest.raises(ValueError, match="'n_bins' parameter of reliability_curve"):
            fastauc.reliability_curve(y, p, method="uniform", n_bins=n_bins)


def test_inputs_are_not_modified():
    rng = np.random.default_rng(2)
    y, p, w = _problem(rng, 100_000, weights=True)
    copies = [a.copy() for a in (y, p, w)]
    fastauc.reliability_curve(y, p, sample_weight=w)
    fastauc.reliability_curve(y, p, method="quantile", sample_weight=w)
    fastauc.brier_decomposition(y, p, sample_weight=w)
    for a, b in zip((y, p, w), copies):
        np.testing.assert_array_equal(a, b)


def test_float32_probabilities():
    rng = np.random.default_rng(4)
    y, p, _ = _problem(rng, 1000)
    p32 = p.astype(np.float32)
    r = fastauc.reliability_curve(y, p32)
    xs, fit = _sklearn_pav(y, p32.astype(np.float64), None)
    np.testing.assert_array_equal(r.scores, xs)
    np.testing.assert_allclose(r.recalibrated, fit, atol=1e-12)


@pytest.mark.parametrize("ties", [False, True])
def test_key_ranges_on_the_threads_equal_one_pass_over_the_table(ties):
    """The rows' path (PAV per key range, the ranges' blocks pooled after)
    against PAV over the whole table in one pass."""
    from fastauc._reliability import decomposition, isotonic_curve
    from fastauc._table import Table

    rng = np.random.default_rng(9)
    y, p, w = _problem(rng, 1_100_000, ties=False, weights=True)
    if ties:
        p = np.round(p, 3)
    ours = fastauc.reliability_curve(y, p, sample_weight=w)
    table = Table.from_rows(y == 1, p, w)
    ref = isotonic_curve(table)
    np.testing.assert_array_equal(ours.scores, ref.scores)
    np.testing.assert_allclose(ours.recalibrated, ref.recalibrated, rtol=0, atol=1e-12)
    for k in ("prob_true", "prob_pred", "weight", "low", "high"):
        np.testing.assert_allclose(getattr(ours, k), getattr(ref, k), rtol=1e-12)
    a = fastauc.brier_decomposition(y, p, sample_weight=w)
    b = decomposition(table)
    for k in ("brier", "miscalibration", "discrimination", "uncertainty"):
        assert abs(getattr(a, k) - getattr(b, k)) <= 1e-12
    assert abs(a.brier - skm.brier_score_loss(y, p, sample_weight=w)) <= 1e-12
