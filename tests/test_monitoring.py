"""Monitoring: the expected AUC before labels (against scikit-learn on the
doubled rows and fastauc.naive's pair definition)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from sklearn.metrics import average_precision_score as sk_ap
from sklearn.metrics import precision_recall_curve as sk_pr
from sklearn.metrics import roc_auc_score as sk_auc
from sklearn.metrics import roc_curve as sk_roc

import fastauc
from fastauc import naive


def _doubled(p, w=None):
    n = p.shape[0]
    ww = np.ones(n) if w is None else w
    return (np.concatenate((np.ones(n), np.zeros(n))), np.concatenate((p, p)),
            np.concatenate((ww * p, ww * (1 - p))))


@pytest.mark.parametrize("digits", [None, 1, 3])
@pytest.mark.parametrize("weighted", [False, True])
def test_expected_auc_is_the_weighted_auc_of_the_doubled_rows(digits, weighted, rng):
    p = rng.beta(0.8, 2.5, 2000)
    if digits:
        p = np.round(p, digits)
    w = rng.random(2000) * 3 if weighted else None
    est = fastauc.expected_roc_auc(p, sample_weight=w)
    y2, s2, w2 = _doubled(p, w)
    assert est.roc_auc == pytest.approx(sk_auc(y2, s2, sample_weight=w2), abs=1e-12)
    assert est.average_precision == pytest.approx(sk_ap(y2, s2, sample_weight=w2), abs=1e-12)
    assert est.expected_positives == pytest.approx(float(np.sum(w2[:2000])), rel=1e-12)
    for drop in (True, False):
        for a, b in zip(est.roc_curve(drop_intermediate=drop),
                        sk_roc(y2, s2, sample_weight=w2, drop_intermediate=drop)):
            np.testing.assert_allclose(a, b, rtol=0, atol=1e-12)
    for a, b in zip(est.precision_recall_curve(), sk_pr(y2, s2, sample_weight=w2)):
        np.testing.assert_allclose(a, b, rtol=0, atol=1e-12)
    small = rng.choice(p, 150)
    assert fastauc.expected_roc_auc(small).roc_auc == pytest.approx(
        naive.expected_roc_auc(small)[0], abs=1e-12)


def test_calibrated_probabilities_estimate_the_auc(rng):
    # labels drawn from calibrated probabilities: the realised AUC scatters
    # around the expected one
    p = rng.beta(1, 3, 200_000)
    y = rng.random(p.shape[0]) < p
    est = fastauc.expected_roc_auc(p)
    assert abs(est.roc_auc - fastauc.roc_auc_score(y, p)) < 0.005
    assert abs(est.average_precision - fastauc.average_precision_score(y, p)) < 0.01


def test_reference_calibration_warns(rng):
    p = rng.beta(1, 3, 5000)
    y = rng.random(5000) < p
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        est = fastauc.expected_roc_auc(p, reference=(y, p))
    assert est.reference_calibration_error == pytest.approx(
        fastauc.calibration_error(y, p), abs=0)
    with pytest.warns(UserWarning, match="calibration error is 0.2"):
        bad = fastauc.expected_roc_auc(p, reference=(y, np.clip(p + 0.25, 0, 1)))
    assert bad.roc_auc == est.roc_auc  # the estimate itself does not change
    w = rng.random(5000)
    est = fastauc.expected_roc_auc(p, reference=(y, p, w), max_calibration_error=0.5)
    assert est.reference_calibration_error == fastauc.calibration_error(y, p, sample_weight=w)


@pytest.mark.parametrize("value, which", [(0.0, "0"), (1.0, "1")])
def test_all_zero_or_one_is_undefined(value, which):
    with pytest.warns(fastauc.UndefinedMetricWarning, match=f"Every probability is {which}"):
        est = fastauc.expected_roc_auc(np.full(10, value))
    assert np.isnan(est.roc_auc) and np.isnan(est.average_precision)


def test_float32_and_containers_and_inputs_unchanged(rng):
    p = rng.random(500).astype(np.float32)
    copy = p.copy()
    a = fastauc.expected_roc_auc(p)
    b = fastauc.expected_roc_auc(p.astype(np.float64))
    assert a.roc_auc == b.roc_auc and np.array_equal(p, copy)
    assert fastauc.expected_roc_auc(list(map(float, p))).roc_auc == b.roc_auc


@pytest.mark.parametrize("kwargs, exc, words", [
    ({"y_prob": [0.2, 1.3]}, ValueError, "greater than 1"),
    ({"y_prob": [0.2, -0.1]}, ValueError, "less than 0"),
    ({"y_prob": [0.2, np.nan]}, ValueError, "NaN"),
    ({"y_prob": []}, ValueError, "empty"),
    ({"y_prob": [0.2, 0.4], "sample_weight": [1.0]}, ValueError, "sample_weight has 1"),
    ({"y_prob": [0.2, 0.4], "max_calibration_error": -1}, ValueError, "max_calibration_error"),
    ({"y_prob": [0.2, 0.4], "reference": [0, 1]}, TypeError, "reference must be a tuple"),
])
def test_bad_input(kwargs, exc, words):
    with pytest.raises(exc, match=words):
        fastauc.expected_roc_auc(**kwargs)


# ---------------------------------------------------------------- subgroup AUCs

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402


def _subset_ci(y, s, w, rows):
    return fastauc.roc_auc_ci(y[rows], s[rows], sample_weight=None if w is None else w[rows])


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**31), n=st.integers(8, 300), k=st.integers(1, 6),
       digits=st.sampled_from([None, 0, 1]), weighted=st.booleans())
def test_subgroup_bpsn_bnsp_are_roc_auc_ci_of_their_rows(seed, n, k, digits, weighted):
    rng = np.random.default_rng(seed)
    g = rng.integers(0, k, n)
    y = rng.integers(0, 2, n)
    y[:2] = (0, 1)
    s = y + rng.normal(size=n) + 0.3 * g
    if digits is not None:
        s = np.round(s, digits)
    w = rng.choice([0.0, 0.5, 1.0, 2.0, 3.0], n) if weighted else None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = fastauc.subgroup_aucs(y, s, g, sample_weight=w)
    wt = np.ones(n) if w is None else w
    for j, label in enumerate(res.groups["group"]):
        inside = g == label
        for name, rows in (("subgroup", inside), ("bpsn", (~inside & (y == 1)) | (inside & (y == 0))),
                           ("bnsp", (inside & (y == 1)) | (~inside & (y == 0)))):
            got_auc = getattr(res, f"{name}_auc")[j]
            got_se = getattr(res, f"{name}_se")[j]
            ww = wt[rows]
            if ww[y[rows] == 1].sum() <= 0 or ww[y[rows] == 0].sum() <= 0:
                assert np.isnan(got_auc)
                continue
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                ci = _subset_ci(y, s, w, rows)
            if w is None:
                assert got_auc == ci.estimate  # the same float, unweighted
            else:
                assert got_auc == pytest.approx(ci.estimate, abs=1e-12)
            if np.isnan(ci.se):
                assert np.isnan(got_se)
            else:
                assert got_se == pytest.approx(ci.se, rel=1e-9, abs=1e-12)
                assert getattr(res, f"{name}_low")[j] == pytest.approx(ci.low, abs=1e-9)


def test_subgroups_of_two_columns_strings_and_dropna(rng):
    n = 2000
    a = rng.choice(["north", "south"], n).astype(object)
    b = rng.integers(0, 3, n)
    y = rng.integers(0, 2, n)
    s = y + rng.normal(size=n)
    res = fastauc.subgroup_aucs(y, s, (a, b))
    assert len(res) == 6 and set(res.groups) == {"group_0", "group_1"}
    ref = fastauc.by_group(y, s, (a, b))
    np.testing.assert_array_equal(res.subgroup_auc, ref.auc)
    np.testing.assert_array_equal(res.n, ref.n)
    a[5] = None
    with pytest.raises(ValueError, match="missing label"):
        fastauc.subgroup_aucs(y, s, a)
    res = fastauc.subgroup_aucs(y, s, a, dropna=True)
    keep = np.array([x is not None for x in a])
    sel = (a == "north") & keep
    rows = ((~sel & keep) & (y == 1)) | (sel & (y == 0))
    assert res.bpsn_auc[0] == fastauc.roc_auc_score(y[rows], s[rows])
    frame = res.to_pandas()
    assert list(frame.columns[:2]) == ["group", "n"] and len(frame) == 2
    assert res.to_dict()["bnsp_auc"] == res.bnsp_auc.tolist()


def test_subgroup_one_class_warns(rng):
    y = np.array([0, 1, 0, 1, 1, 1])
    s = np.array([0.1, 0.9, 0.3, 0.7, 0.6, 0.8])
    g = np.array(["a", "a", "a", "a", "b", "b"])  # group b: positives only
    with pytest.warns(fastauc.UndefinedMetricWarning) as rec:
        res = fastauc.subgroup_aucs(y, s, g)
    words = " ".join(str(r.message) for r in rec)
    assert "1 of 2 groups have a single class" in words and "BPSN or BNSP" in words
    assert np.isnan(res.subgroup_auc[1]) and np.isnan(res.bpsn_auc[1])
    assert res.bnsp_auc[1] == fastauc.roc_auc_score([1, 1, 0, 0], [0.6, 0.8, 0.1, 0.3])


def test_subgroup_bad_input():
    with pytest.raises(ValueError, match="inconsistent numbers of samples"):
        fastauc.subgroup_aucs([0, 1, 0], [0.1, 0.2, 0.3], [1, 2])
    with pytest.raises(TypeError, match="dropna"):
        fastauc.subgroup_aucs([0, 1], [0.1, 0.2], [1, 1], dropna="yes")
    with pytest.raises(ValueError, match="confidence_level"):
        fastauc.subgroup_aucs([0, 1], [0.1, 0.2], [1, 1], confidence_level=2)


# ---------------------------------------------------------------- AUC over time


def _drifting(rng, n=12000, days=20):
    t = np.datetime64("2026-02-01T00") + rng.integers(0, days * 24, n) * np.timedelta64(1, "h")
    y = rng.integers(0, 2, n)
    day = (t - t.min()).astype("timedelta64[D]").astype(int)
    s = np.round(1 / (1 + np.exp(-(y * (1.5 - 0.05 * day) + rng.normal(size=n) - 0.7))), 2)
    return t, y, s


@pytest.mark.parametrize("window", [None, "3D"])
@pytest.mark.parametrize("weighted", [False, True])
def test_each_window_is_roc_auc_ci_and_the_test_delong_test(window, weighted, rng):
    t, y, s = _drifting(rng)
    w = rng.choice([0.5, 1.0, 2.0], y.shape[0]) if weighted else None
    res = fastauc.auc_over_time(y, s, t, freq="1D", window=window, sample_weight=w)
    k = 1 if window is None else 3
    days = ((t - res.start[0]) // np.timedelta64(1, "D")).astype(int)
    ref_rows = (days >= 0) & (days < k)
    wt = np.ones(y.shape[0]) if w is None else w
    p_raw = []
    for j in range(len(res)):
        rows = (days > j - k) & (days <= j)
        assert res.n[j] == rows.sum() and res.n_pos[j] == y[rows].sum()
        ci = fastauc.roc_auc_ci(y[rows], s[rows], sample_weight=None if w is None else w[rows])
        if w is None:
            assert res.auc[j] == ci.estimate
        else:
            assert res.auc[j] == pytest.approx(ci.estimate, abs=1e-12)
        assert res.se[j] == pytest.approx(ci.se, rel=1e-9)
        assert res.average_precision[j] == pytest.approx(fastauc.average_precision_score(
            y[rows], s[rows], sample_weight=None if w is None else w[rows]), abs=1e-12)
        assert res.log_loss[j] == pytest.approx(fastauc.log_loss(
            y[rows], s[rows], sample_weight=None if w is None else w[rows]), rel=1e-12)
        if j < 2 * k - 1:  # the reference's window, or one sharing rows with it
            assert np.isnan(res.pvalue[j])
            p_raw.append(np.nan)
            continue
        test = fastauc.delong_test(y[rows], s[rows], s[ref_rows], y_true_b=y[ref_rows],
                                   sample_weight=None if w is None else wt[rows],
                                   sample_weight_b=None if w is None else wt[ref_rows],
                                   alternative="less")
        assert res.difference[j] == pytest.approx(test.difference, abs=1e-12)
        assert res.pvalue[j] == pytest.approx(test.pvalue, rel=1e-9, abs=1e-300)
        p_raw.append(test.pvalue)
    from fastauc._delong import holm

    np.testing.assert_allclose(res.pvalue_adjusted, holm(p_raw), rtol=1e-9)
    assert res.flag.tolist() == ((res.pvalue_adjusted < 0.05) & (res.difference < 0)).tolist()
    assert res.flag[-1]  # the model has drifted by then
    frame = res.to_pandas()
    assert list(frame.columns[:3]) == ["start", "end", "n"] and len(frame) == len(res)


def test_unlabelled_rows_give_the_expected_auc(rng):
    t, y, s = _drifting(rng, days=6)
    y = y.astype(float)
    days = ((t - t.min()) // np.timedelta64(1, "D")).astype(int)
    y[days >= 4] = np.nan  # the last two days' labels have not arrived
    res = fastauc.auc_over_time(y, s, t, freq="1D")
    assert np.isnan(res.auc[4:]).all() and (res.n[4:] == 0).all()
    for j in range(len(res)):
        rows = days == j
        assert res.expected_auc[j] == pytest.approx(
            fastauc.expected_roc_auc(s[rows]).roc_auc, abs=1e-12)
    labels = np.array([None if x != x else int(x) for x in y], dtype=object)  # None: missing
    again = fastauc.auc_over_time(labels, s, t, freq="1D")
    np.testing.assert_array_equal(again.auc, res.auc)
    none = fastauc.auc_over_time(y[days < 4], s[days < 4], t[days < 4], freq="1D")
    assert none.expected_auc is None


def test_numeric_times_references_and_options(rng):
    n = 6000
    t = rng.random(n) * 6.0
    y = rng.integers(0, 2, n)
    s = y * (1.2 - 0.15 * t) + rng.normal(size=n)
    base = fastauc.auc_over_time(y, s, t, freq=1.0, alternative="two-sided", adjust=None)
    assert len(base) == 6 and base.start.tolist() == [0.0, 1.0, 2.0, 3.0, 4.0, 5.0]
    np.testing.assert_array_equal(base.pvalue, base.pvalue_adjusted)
    last = fastauc.auc_over_time(y, s, t, freq=1.0, reference=-1)
    assert np.isnan(last.pvalue[-1]) and last.reference_auc == base.auc[-1]
    span = fastauc.auc_over_time(y, s, t, freq=1.0, reference=(0.0, 2.0))
    rows = t < 2.0
    assert span.reference_auc == fastauc.roc_auc_score(y[rows], s[rows])
    assert np.isnan(span.pvalue[:2]).all() and not np.isnan(span.pvalue[2:]).any()
    no = fastauc.auc_over_time(y, s, t, freq=1.0, reference=None)
    assert np.isnan(no.pvalue).all() and not no.flag.any()
    both = fastauc.auc_over_time(y, s, t, freq=0.5, window=1.5)
    assert len(both) == 12 and both.n[2] == np.count_nonzero(t < 1.5)


@pytest.mark.parametrize("kwargs, exc, words", [
    ({"freq": 1.0, "window": 1.5}, ValueError, "whole number of periods"),
    ({"freq": "1D"}, TypeError, "time holds numbers"),
    ({"freq": 1.0, "reference": "last"}, ValueError, "reference"),
    ({"freq": 1.0, "reference": 9}, ValueError, "is not a period"),
    ({"freq": 1.0, "adjust": "fdr"}, ValueError, "adjust"),
    ({"freq": 1.0, "alternative": "down"}, ValueError, "alternative"),
    ({"freq": 1.0, "expected": True}, ValueError, "need probabilities"),
    ({"freq": -1.0}, ValueError, "positive"),
])
def test_over_time_bad_input(kwargs, exc, words, rng):
    y = rng.integers(0, 2, 300)
    s = rng.normal(size=300) * 3
    t = np.arange(300) / 100.0
    with pytest.raises(exc, match=words):
        fastauc.auc_over_time(y, s, t, **kwargs)


def test_plot_over_time(rng):
    import matplotlib

    matplotlib.use("Agg")
    t, y, s = _drifting(rng, days=8)
    res = fastauc.auc_over_time(y, s, t, freq="1D", expected=True)
    fig = res.plot()
    labels = [x.get_text() for x in fig.axes[0].get_legend().get_texts()]
    assert labels[0] == "AUC" and "reference" in labels and "expected (calibrated)" in labels
    with pytest.raises(TypeError, match="auc_over_time's result"):
        fastauc.plot_over_time([0.5, 0.6])
    import matplotlib.pyplot as plt

    plt.close("all")


def test_background_columns_in_by_group_and_report(rng):
    g = rng.choice(["a", "b", "c", "d"], 3000)
    y = rng.integers(0, 2, 3000)
    s = y + rng.normal(size=3000) + 0.4 * (g == "c")
    w = rng.choice([0.5, 1.0, 2.0], 3000)
    sub = fastauc.subgroup_aucs(y, s, g, sample_weight=w)
    res = fastauc.by_group(y, s, g, sample_weight=w, background=True)
    for col in ("bpsn_auc", "bpsn_low", "bpsn_high", "bnsp_auc", "bnsp_low", "bnsp_high"):
        np.testing.assert_array_equal(res.extra[col], getattr(sub, col))
    assert "bpsn_auc" not in fastauc.by_group(y, s, g).extra
    rep = fastauc.report(y, np.column_stack((s, -s)), by=g, background=True)
    np.testing.assert_array_equal(rep.by_group["model_1"].extra["bnsp_auc"],
                                  fastauc.subgroup_aucs(y, s, g).bnsp_auc)
    np.testing.assert_array_equal(rep.by_group["model_2"].extra["bpsn_auc"],
                                  fastauc.subgroup_aucs(y, -s, g).bpsn_auc)
    assert "bpsn_auc" in rep.to_dict()["by_group"]["model_1"]


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 10**6), st.lists(st.integers(0, (1 << 50) - 1), min_size=1, max_size=40),
       st.lists(st.integers(-3, 3), max_size=40))
def test_periods_by_float_division_equal_integer_division(step, ds, shifts):
    """Times less than 2**50 units past the origin take the float quotient,
    corrected by one: each period the integer division's, at and beside the
    multiples of the period."""
    from fastauc._kernels.periods import periods_of

    d = np.array(ds + [max(0, (x // step) * step + s) for x, s in zip(ds, shifts)], np.int64)
    d = np.minimum(d, (1 << 50) - 1)
    got = periods_of(d + 7, np.int64(7), np.int64(step), np.empty(d.shape[0], np.int64), True)
    np.testing.assert_array_equal(got, d // step)


@pytest.mark.parametrize("unit", ["m", "ns"])
def test_nat_times_raise(unit):
    t = np.array(["2026-01-01", "NaT", "2026-01-03"], dtype=f"datetime64[{unit}]")
    with pytest.raises(ValueError, match="NaT"):
        fastauc.auc_over_time([0, 1, 1], [0.1, 0.7, 0.4], t, freq="1D")


@pytest.mark.parametrize("weighted", [False, True])
def test_subgroup_auc_of_large_groups_is_by_groups(weighted, rng):
    """Groups past the sweeps' split size: the subgroup AUC from the
    background walk is ``by_group``'s (the same float unweighted), with its
    interval."""
    n = 200_000
    g = rng.integers(0, 3, n)
    y = (rng.random(n) < 0.3).astype(np.int64)
    s = np.round(y + rng.normal(size=n) + 0.2 * g, 2)
    w = rng.choice([0.0, 0.5, 1.0, 2.5], n) if weighted else None
    res = fastauc.subgroup_aucs(y, s, g, sample_weight=w)
    ref = fastauc.by_group(y, s, g, sample_weight=w)
    np.testing.assert_array_equal(res.n, ref.n)
    np.testing.assert_array_equal(res.n_pos, ref.n_pos)
    if weighted:
        np.testing.assert_allclose(res.subgroup_auc, ref.auc, rtol=0, atol=1e-12)
    else:
        np.testing.assert_array_equal(res.subgroup_auc, ref.auc)
    np.testing.assert_allclose(res.subgroup_se, ref.auc_se, rtol=1e-9)
    np.testing.assert_allclose(res.subgroup_low, ref.auc_low, rtol=0, atol=1e-9)
