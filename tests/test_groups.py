"""by_group against a loop over the groups with the in-memory functions and scikit-learn,
and the distinct-score table's split/merge property."""

import math
import warnings

import numpy as np
import pandas as pd
import polars as pl
import pyarrow as pa
import pytest
import sklearn.metrics as skm
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import fastauc
from fastauc._kernels.table import SEG_AP, SEG_AREA2, SEG_FP, SEG_TP
from fastauc._table import Table, grouped_sums

from .conftest import sklearn_call
from .strategies import SCORE_VALUES, binary_problems

TOL = 1e-12


def _loop_reference(y, s, codes, w, level=0.95):
    """Each group's numbers from the in-memory functions on its rows."""
    out = []
    for j in np.unique(codes):
        m = codes == j
        yj, sj = y[m], s[m]
        wj = None if w is None else w[m]
        row = {"n": int(m.sum()), "n_pos": int(yj.sum())}
        if wj is not None and wj.sum() == 0:  # no weight: every metric is undefined
            row.update(auc=math.nan, ap=math.nan, low=math.nan, high=math.nan, se=math.nan,
                       log_loss=math.nan)
            out.append(row)
            continue
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            both = len(np.unique(yj[wj > 0] if wj is not None else yj)) == 2
            row["auc"] = fastauc.roc_auc_score(yj, sj, sample_weight=wj) if both else math.nan
            row["ap"] = fastauc.average_precision_score(yj, sj, sample_weight=wj)
            if both:
                ci = fastauc.roc_auc_ci(yj, sj, sample_weight=wj, confidence_level=level)
                row["low"], row["high"], row["se"] = ci.low, ci.high, ci.se
            else:
                row["low"] = row["high"] = row["se"] = math.nan
            if s.min() >= 0 and s.max() <= 1 and (wj is None or wj.sum() > 0):
                row["log_loss"] = fastauc.log_loss(yj, sj, sample_weight=wj, labels=[0, 1])
        out.append(row)
    return out


def _assert_matches(res, ref):
    assert len(res) == len(ref)
    for i, r in enumerate(ref):
        assert res.n[i] == r["n"] and res.n_pos[i] == r["n_pos"]
        for col, key in (("auc", "auc"), ("average_precision", "ap"), ("auc_low", "low"),
                         ("auc_high", "high"), ("auc_se", "se")):
            got = getattr(res, col)[i]
            if math.isnan(r[key]):
                assert math.isnan(got), (col, i)
            else:
                assert got == pytest.approx(r[key], abs=TOL, rel=TOL), (col, i)
        if res.log_loss is None:
            assert "log_loss" not in r or math.isnan(r["log_loss"])
        elif "log_loss" in r and math.isnan(r["log_loss"]):
            assert math.isnan(res.log_loss[i])
        elif "log_loss" in r:
            assert res.log_loss[i] == pytest.approx(r["log_loss"], abs=TOL, rel=TOL)


@given(binary_problems(min_size=2, max_size=80), st.integers(1, 6), st.data())
def test_by_group_equals_loop_over_groups(problem, n_groups, data):
    y, s, w = problem
    codes = data.draw(hnp.arrays(np.int64, y.shape[0], elements=st.integers(0, n_groups - 1)))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = fastauc.by_group(y, s, codes, sample_weight=w)
    assert res.groups["group"].tolist() == np.unique(codes).tolist()
    _assert_matches(res, _loop_reference(y, s, codes, w))


def test_by_group_against_sklearn(rng):
    n = 20_000
    y = (rng.random(n) < 0.3).astype(int)
    s = np.round(rng.random(n), 3)
    w = rng.random(n)
    g = rng.integers(0, 50, n)
    res = fastauc.by_group(y, s, g, sample_weight=w)
    for j in range(50):
        m = g == j
        assert res.auc[j] == pytest.approx(skm.roc_auc_score(y[m], s[m], sample_weight=w[m]),
                                           abs=TOL)
        assert res.average_precision[j] == pytest.approx(
            skm.average_precision_score(y[m], s[m], sample_weight=w[m]), abs=TOL)
        assert res.log_loss[j] == pytest.approx(
            skm.log_loss(y[m], s[m], sample_weight=w[m]), abs=TOL)


def test_one_class_groups_warn_once_and_count():
    y = np.array([1, 1, 0, 1, 0, 0, 0])
    s = np.array([0.2, 0.4, 0.3, 0.9, 0.1, 0.5, 0.6])
    g = np.array([0, 0, 1, 1, 1, 2, 2])
    with pytest.warns(fastauc.UndefinedMetricWarning, match=r"2 of 3 groups") as rec:
        res = fastauc.by_group(y, s, g)
    assert len(rec) == 1
    assert math.isnan(res.auc[0]) and math.isnan(res.auc[2]) and res.auc[1] == 1.0
    assert math.isnan(res.auc_low[0]) and math.isnan(res.auc_high[2])
    assert res.average_precision[0] == 1.0 and res.average_precision[2] == 0.0


def test_group_label_kinds_and_order():
    y = np.array([0, 1, 0, 1, 1, 0, 1, 0])
    s = np.array([0.1, 0.8, 0.3, 0.6, 0.7, 0.9, 0.4, 0.2])
    labels = np.array(["b", "b", "a", "a", "c", "c", "a", "b"])
    ref = fastauc.by_group(y, s, labels)
    assert ref.groups["group"].tolist() == ["a", "b", "c"]
    for form in (labels.tolist(), pd.Series(labels, name="country"),
                 pd.Series(labels, dtype="category"), pd.Categorical(labels),
                 pl.Series("country", labels), pl.Series(labels, dtype=pl.Categorical),
                 pa.array(labels), pa.chunked_array([labels[:3], labels[3:]])):
        res = fastauc.by_group(y, s, form)
        assert [str(x) for x in next(iter(res.groups.values()))] == ["a", "b", "c"]
        np.testing.assert_array_equal(res.auc, ref.auc)
    assert list(fastauc.by_group(y, s, pd.Series(labels, name="country")).groups) == [
        "country"]
    # numbers far apart (not a compact range), booleans
    big = np.where(labels == "a", -(10 ** 15), np.where(labels == "b", 7, 10 ** 12))
    np.testing.assert_array_equal(fastauc.by_group(y, s, big).auc, ref.auc)
    bools = labels == "a"
    res = fastauc.by_group(y, s, bools)
    assert res.groups["group"].tolist() == [False, True]


def test_tuple_of_columns_gives_combinations():
    rng = np.random.default_rng(0)
    n = 3000
    y = rng.integers(0, 2, n)
    s = rng.random(n)
    a = rng.choice(["x", "y", "z"], n)
    b = rng.integers(0, 4, n)
    res = fastauc.by_group(y, s, (pd.Series(a, name="site"), b))
    assert list(res.groups) == ["site", "group_1"]
    pairs = list(zip(res.groups["site"].tolist(), res.groups["group_1"].tolist()))
    assert pairs == sorted(set(zip(a.tolist(), b.tolist())))
    for i, (ai, bi) in enumerate(pairs):
        m = (a == ai) & (b == bi)
        assert res.auc[i] == pytest.approx(skm.roc_auc_score(y[m], s[m]), abs=TOL)


def test_missing_group_labels():
    y = np.array([0, 1, 1, 1, 0, 0])
    s = np.array([0.1, 0.8, 0.3, 0.6, 0.7, 0.9])
    for missing in (np.array([1.0, np.nan, 1.0, 2.0, 2.0, 1.0]),
                    pd.Series([1, None, 1, 2, 2, 1], dtype="Int64"),
                    pl.Series([1, None, 1, 2, 2, 1]),
                    np.array(["u", None, "u", "v", "v", "u"], dtype=object)):
        with pytest.raises(ValueError, match=r"groups has 1 missing label.*index 1.*dropna"):
            fastauc.by_group(y, s, missing)
        res = fastauc.by_group(y, s, missing, dropna=True)
        assert res.n.tolist() == [3, 2]
        first = np.array([0, 2, 5])
        assert res.auc[0] == pytest.approx(skm.roc_auc_score(y[first], s[first]), abs=TOL)
        assert res.auc[1] == 0.0


def test_bad_input():
    y = np.array([0, 1, 0, 1])
    s = np.array([0.1, 0.8, 0.3, 0.6])
    with pytest.raises(ValueError, match="inconsistent numbers of samples"):
        fastauc.by_group(y, s, [1, 2, 3])
    with pytest.raises(ValueError, match="Input contains NaN"):
        fastauc.by_group(y, np.array([0.1, np.nan, 0.3, 0.6]), [1, 1, 2, 2])
    with pytest.raises(ValueError, match="1-D"):
        fastauc.by_group(y, s, np.zeros((4, 2)))
    with pytest.raises(ValueError, match="must be in"):
        fastauc.by_group(y, s, [1, 1, 2, 2], confidence_level=1.5)
    with pytest.raises(ValueError, match="multiclass format is not supported"):
        fastauc.by_group([0, 1, 2, 1], s, [1, 1, 2, 2])


def test_inputs_are_not_modified_and_result_converts(rng):
    n = 1000
    y = rng.integers(0, 2, n)
    s = rng.random(n)
    g = rng.integers(0, 5, n)
    copies = [a.copy() for a in (y, s, g)]
    res = fastauc.by_group(y, s, g)
    for a, c in zip((y, s, g), copies):
        np.testing.assert_array_equal(a, c)
    df = res.to_pandas()
    assert list(df.columns[:4]) == ["group", "n", "n_pos", "n_neg"]
    assert df.shape == (5, 12)
    assert res.to_polars().shape == (5, 12)
    assert "group" in str(res) and len(str(res).splitlines()) == 6


def test_not_probabilities_has_no_log_loss():
    res = fastauc.by_group([0, 1, 0, 1], [-1.0, 2.0, 0.5, 3.0], [0, 0, 1, 1])
    assert res.log_loss is None
    assert "log_loss" not in res.to_dict()


def test_result_does_not_depend_on_threads(monkeypatch, rng):
    n = 200_000
    y = rng.integers(0, 2, n)
    s = np.round(rng.random(n), 4)
    g = rng.integers(0, 300, n)
    a = fastauc.by_group(y, s, g)
    monkeypatch.setenv("FASTAUC_NUM_THREADS", "1")
    b = fastauc.by_group(y, s, g)
    for col in ("auc", "auc_se", "average_precision", "log_loss"):
        np.testing.assert_array_equal(getattr(a, col), getattr(b, col))


# ------------------------------------------------------------ the table itself

def _table(y, s, w):
    return Table.from_rows(y.astype(bool), s, np.empty(0) if w is None else w)


@given(binary_problems(min_size=2, max_size=80), st.lists(st.sampled_from(SCORE_VALUES),
                                                            max_size=4))
def test_cut_table_sweeps_add_up(problem, cuts):
    y, s, w = problem
    t = _table(y, s, w)
    whole = t.sweep(moments=True)
    area = ap = 0.0
    for part, tp0, fp0 in t.cut(cuts):
        sw = part.sweep(tp0, fp0, moments=True, totals=(t.total_pos, t.total_neg))
        area += sw.area2
        ap += sw.ap_num
    assert area == pytest.approx(whole.area2, rel=1e-12, abs=1e-12)
    assert ap == pytest.approx(whole.ap_num, rel=1e-12, abs=1e-12)
    if whole.tp > 0 and whole.fp > 0:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ref = sklearn_call(skm.roc_auc_score, y, s, sample_weight=w)
        assert whole.auc == pytest.approx(ref, abs=TOL)


@given(binary_problems(min_size=2, max_size=80), st.data())
def test_merged_tables_of_any_partition_equal_the_whole(problem, data):
    y, s, w = problem
    n = y.shape[0]
    part = data.draw(hnp.arrays(np.int64, n, elements=st.integers(0, 3)))
    whole = _table(y, s, w)
    merged = None
    for j in range(4):
        m = part == j
        t = _table(y[m], s[m], None if w is None else w[m])
        merged = t if merged is None else merged.merge(t)
    np.testing.assert_array_equal(merged.keys, whole.keys)
    np.testing.assert_allclose(merged.pos, whole.pos, rtol=1e-15)
    np.testing.assert_allclose(merged.neg, whole.neg, rtol=1e-15)
    a, b = merged.sweep(), whole.sweep()
    assert a.area2 == pytest.approx(b.area2, rel=1e-12)


@given(binary_problems(min_size=2, max_size=80), st.integers(1, 5), st.data())
def test_grouped_sums_are_the_groups_tables_sweeps(problem, n_groups, data):
    y, s, w = problem
    codes = data.draw(hnp.arrays(np.int64, y.shape[0], elements=st.integers(0, n_groups - 1)))
    got = grouped_sums(y.astype(bool), s, np.empty(0) if w is None else w, codes, n_groups,
                       moments=True)
    for j in range(n_groups):
        m = codes == j
        ref = _table(y[m], s[m], None if w is None else w[m]).sweep(moments=True)
        assert got.sums[j, SEG_TP] == ref.tp
        assert got.sums[j, SEG_FP] == ref.fp
        assert got.sums[j, SEG_AREA2] == pytest.approx(ref.area2, rel=1e-12, abs=1e-12)
        assert got.sums[j, SEG_AP] == pytest.approx(ref.ap_num, rel=1e-12, abs=1e-12)


def test_operating_points_and_calibration_per_group():
    """Each group's extra columns equal the single-model functions on its rows."""
    import warnings

    rng = np.random.default_rng(5)
    n = 600
    y = rng.integers(0, 2, n)
    p = np.round(1 / (1 + np.exp(-(y + rng.normal(size=n)))), 2)
    g = rng.integers(0, 4, n)
    y[g == 3] = 1  # a group with one class
    w = rng.choice([0.0, 1.0, 2.0], n)
    for weights in (None, w):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", fastauc.UndefinedMetricWarning)
            res = fastauc.by_group(y, p, g, sample_weight=weights, at_specificity=[0.8, 0.95],
                                   at_sensitivity=[0.9], calibration=True)
        assert list(res.extra) == ["sensitivity_at_specificity=0.8",
                                   "sensitivity_at_specificity=0.95",
                                   "specificity_at_sensitivity=0.9", "brier", "miscalibration",
                                   "discrimination", "uncertainty", "ece"]
        for j, label in enumerate(res.groups["group"]):
            m = g == label
            ww = None if weights is None else weights[m]
            if label == 3:
                assert np.isnan(res.extra["sensitivity_at_specificity=0.8"][j])
            else:
                c = fastauc.coords(y[m], p[m], [0.8, 0.95], input="specificity",
                                   sample_weight=ww)
                np.testing.assert_allclose(
                    [res.extra["sensitivity_at_specificity=0.8"][j],
                     res.extra["sensitivity_at_specificity=0.95"][j]], c.sensitivity, rtol=1e-12)
                assert res.extra["ece"][j] == pytest.approx(
                    fastauc.calibration_error(y[m], p[m], sample_weight=ww), rel=1e-12)
            d = fastauc.brier_decomposition(y[m], p[m], sample_weight=ww)
            for name in ("brier", "miscalibration", "discrimination", "uncertainty"):
                assert res.extra[name][j] == pytest.approx(getattr(d, name), rel=1e-12,
                                                           abs=1e-15)
        assert "ece" in str(res) and res.to_dict()["brier"] == res.extra["brier"].tolist()
    plain = fastauc.by_group(y[g < 3], p[g < 3], g[g < 3])
    assert plain.extra == {} and "brier" not in plain.to_dict()
    with pytest.raises(ValueError, match="probabilities"):
        fastauc.by_group(y, p + 1, g, calibration=True)
    with pytest.raises(ValueError, match="at_specificity"):
        fastauc.by_group(y, p, g, at_specificity=[1.5])
