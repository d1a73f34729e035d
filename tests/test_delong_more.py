"""DeLong's family beyond the paired test: unpaired samples (pROC's test),
margins, k models (the omnibus chi-square and the pairwise table) and
clustered rows (Obuchowski 1997)."""

from __future__ import annotations

import csv
import math
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import special, stats

import fastauc
from fastauc import _delong, _parallel, _sort, naive
from fastauc._delong import bonferroni, holm, t_ppf, t_sf
from fastauc._kernels.clusters import gammaincc

DATA = Path(__file__).parent / "data" / "asah.csv"


@pytest.fixture(scope="module")
def asah():
    with DATA.open() as fh:
        rows = list(csv.DictReader(fh))
    y = np.array([r["outcome"] for r in rows])
    return y, {k: np.array([float(r[k]) for r in rows]) for k in ("wfns", "s100b", "ndka")}


# pROC's tests/testthat/test-roc.test.R: roc.test(r.a, r.b, paired = FALSE)
UNPAIRED = [("wfns", "s100b", 1.43490640926908, 0.152825378808796),
            ("wfns", "ndka", 3.10125096778969, 0.00220950791756457),
            ("ndka", "s100b", -1.55995743389685, 0.120192832430845)]


@pytest.mark.parametrize("a, b, stat, p", UNPAIRED)
def test_unpaired_matches_proc(asah, a, b, stat, p):
    y, X = asah
    res = fastauc.delong_test(y, X[a], X[b], y_true_b=y)
    assert res.statistic == pytest.approx(stat, abs=1e-12)
    assert res.pvalue == pytest.approx(p, abs=1e-12)
    assert res.auc_a == fastauc.roc_auc_score(y == "Poor", X[a])
    back = fastauc.delong_test(y, X[b], X[a], y_true_b=y)  # reversed: same p, -D
    assert back.pvalue == pytest.approx(p, abs=1e-12)
    assert back.statistic == pytest.approx(-stat, abs=1e-12)


def test_unpaired_one_sided_matches_proc(asah):
    y, X = asah
    gt = fastauc.delong_test(y, X["wfns"], X["s100b"], y_true_b=y, alternative="greater")
    lt = fastauc.delong_test(y, X["wfns"], X["s100b"], y_true_b=y, alternative="less")
    assert gt.pvalue == pytest.approx(0.076412689404398, abs=1e-12)
    assert lt.pvalue == pytest.approx(0.923587310595602, abs=1e-12)
    assert gt.statistic == lt.statistic


def test_paired_still_matches_proc(asah):
    y, X = asah
    res = fastauc.delong_test(y, X["wfns"], X["s100b"])
    assert res.statistic == pytest.approx(2.20898359144091, abs=1e-12)
    assert res.pvalue == pytest.approx(0.0271757822291882, abs=1e-12)
    assert res.low == pytest.approx(0.0104061769564846, abs=1e-12)
    assert res.high == pytest.approx(0.174214419249478, abs=1e-12)
    assert math.isinf(res.df) and res.margin == 0.0


def _unpaired_reference(ya, a, yb, b, alternative="two-sided", level=0.95):
    """pROC's formula from the naive DeLong variances, scipy's t."""
    (auc_a,), va = naive.delong_covariance(ya, a)
    (auc_b,), vb = naive.delong_covariance(yb, b)
    va, vb = va[0, 0], vb[0, 0]
    se = math.sqrt(va + vb)
    df = (va + vb) ** 2 / (va ** 2 / (len(ya) - 1) + vb ** 2 / (len(yb) - 1))
    d = auc_a - auc_b
    t = d / se
    p = {"two-sided": 2 * stats.t.sf(abs(t), df), "greater": stats.t.sf(t, df),
         "less": stats.t.cdf(t, df)}[alternative]
    q = stats.t.ppf(0.5 + level / 2, df)
    return d, t, p, df, max(-1, d - q * se), min(1, d + q * se)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(6, 60), st.integers(6, 60),
       st.sampled_from(["two-sided", "greater", "less"]))
def test_unpaired_matches_reference(seed, na, nb, alternative):
    rng = np.random.default_rng(seed)
    ya, yb = np.r_[0, 0, 1, 1, rng.integers(0, 2, na - 4)], np.r_[0, 0, 1, 1,
                                                                 rng.integers(0, 2, nb - 4)]
    a = np.round(rng.normal(size=na) + ya, 1)
    b = np.round(rng.normal(size=nb) + 0.5 * yb, 1)
    res = fastauc.delong_test(ya, a, b, y_true_b=yb, alternative=alternative)
    if naive.delong_covariance(ya, a)[1][0, 0] + naive.delong_covariance(yb, b)[1][0, 0] == 0:
        assert res.se == 0.0 and math.isinf(res.df)  # both separate perfectly
        return
    d, t, p, df, low, high = _unpaired_reference(ya, a, yb, b, alternative)
    assert res.difference == pytest.approx(d, abs=1e-12)
    assert res.statistic == pytest.approx(t, rel=1e-9, abs=1e-12)
    assert res.df == pytest.approx(df, rel=1e-9)
    assert res.pvalue == pytest.approx(p, rel=1e-8, abs=1e-12)
    if alternative == "two-sided":
        assert (res.low, res.high) == pytest.approx((low, high), abs=1e-9)


def test_unpaired_weights_repeat_rows():
    rng = np.random.default_rng(3)
    ya, yb = rng.integers(0, 2, 40), rng.integers(0, 2, 25)
    a, b = rng.normal(size=40) + ya, rng.normal(size=25)
    wa, wb = rng.integers(0, 3, 40), rng.integers(1, 3, 25)
    res = fastauc.delong_test(ya, a, b, y_true_b=yb, sample_weight=wa, sample_weight_b=wb)
    rep = fastauc.delong_test(np.repeat(ya, wa), np.repeat(a, wa), np.repeat(b, wb),
                              y_true_b=np.repeat(yb, wb))
    for f in ("statistic", "pvalue", "df", "difference", "se", "low", "high"):
        assert getattr(res, f) == pytest.approx(getattr(rep, f), rel=1e-12, abs=1e-14), f


def test_unpaired_undefined_and_lengths():
    with pytest.warns(fastauc.UndefinedMetricWarning):
        res = fastauc.delong_test([1, 1, 1], [1, 2, 3], [1, 2, 3, 4], y_true_b=[0, 1, 0, 1])
    assert math.isnan(res.pvalue)
    with pytest.raises(ValueError, match="y_score_b"):
        fastauc.delong_test([0, 1, 0], [1, 2, 3], [1, 2, 3, 4], y_true_b=[0, 1, 0])
    with pytest.raises(ValueError, match=r"y_score_a has 4, y_score_b has 3"):
        fastauc.delong_test([0, 1, 0, 1], [1, 2, 3, 4], [1, 2, 3])
    with pytest.raises(ValueError, match="sample_weight_b"):
        fastauc.delong_test([0, 1, 0, 1], [1, 2, 3, 4], [1, 2, 3, 4],
                            sample_weight_b=[1, 1, 1, 1])
    with pytest.raises(ValueError, match="cluster"):
        fastauc.delong_test([0, 1, 0, 1], [1, 2, 3, 4], [1, 2, 3, 4], y_true_b=[0, 1, 0, 1],
                            cluster=[0, 0, 1, 1])


# ---------------------------------------------------------------- margins

@pytest.mark.parametrize("alternative", ["two-sided", "greater", "less"])
@pytest.mark.parametrize("unpaired", [False, True])
def test_margin_shifts_the_statistic(asah, alternative, unpaired):
    y, X = asah
    kw = {"y_true_b": y} if unpaired else {}
    base = fastauc.delong_test(y, X["wfns"], X["s100b"], alternative=alternative, **kw)
    res = fastauc.delong_test(y, X["wfns"], X["s100b"], alternative=alternative, margin=-0.05,
                              **kw)
    assert res.margin == -0.05
    assert res.statistic == pytest.approx((base.difference + 0.05) / base.se, rel=1e-14)
    assert (res.difference, res.se, res.low, res.high) == (base.difference, base.se,
                                                           base.low, base.high)
    if alternative == "greater":
        assert res.pvalue < base.pvalue
        if not unpaired:
            assert res.pvalue == pytest.approx(stats.norm.sf(res.statistic), rel=1e-12)


@pytest.mark.parametrize("margin, error", [(2.0, ValueError), (math.nan, ValueError),
                                           ("a", TypeError), (None, TypeError)])
def test_margin_bad(margin, error):
    with pytest.raises(error, match="margin"):
        fastauc.delong_test([0, 1, 0, 1], [1, 2, 3, 4], [1, 3, 2, 4], margin=margin)


# ---------------------------------------------------------------- k models

def _problem(seed, n=200, k=4, ties=True):
    rng = np.random.default_rng(seed)
    y = np.r_[0, 0, 1, 1, rng.integers(0, 2, n - 4)]
    S = rng.normal(size=(n, k)) + y[:, None] * rng.uniform(0, 1.5, k)
    return y, (np.round(S, 1) if ties else S)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(2, 5), st.booleans())
def test_omnibus_matches_reference(seed, k, weighted):
    y, S = _problem(seed, k=k)
    w = np.random.default_rng(seed).integers(0, 4, len(y)).astype(float) if weighted else None
    res = fastauc.delong_omnibus(y, S, sample_weight=w)
    aucs, cov = naive.delong_covariance(y, S, w)
    # other contrasts (each model against the first) give the same statistic
    L = np.hstack([-np.ones((k - 1, 1)), np.eye(k - 1)])
    c = L @ aucs
    stat = float(c @ np.linalg.solve(L @ cov @ L.T, c))
    assert res.df == k - 1
    assert res.statistic == pytest.approx(stat, rel=1e-8)
    assert res.pvalue == pytest.approx(stats.chi2.sf(stat, k - 1), rel=1e-7, abs=1e-15)
    np.testing.assert_allclose(res.aucs, aucs, atol=1e-12)
    np.testing.assert_allclose(res.cov, cov, atol=1e-12)
    for r, (i, j) in enumerate((i, j) for i in range(k) for j in range(i + 1, k)):
        t = naive.delong_test(y, S[:, i], S[:, j], w)
        assert res.pairs["pvalue"][r] == pytest.approx(t["pvalue"], rel=1e-7, abs=1e-12)


def test_omnibus_two_models_is_z_squared():
    y, S = _problem(1, k=2)
    res = fastauc.delong_omnibus(y, S)
    t = fastauc.delong_test(y, S[:, 0], S[:, 1])
    assert res.statistic == pytest.approx(t.statistic ** 2, rel=1e-10)
    assert res.pvalue == pytest.approx(t.pvalue, rel=1e-9)


def test_omnibus_table_names_and_adjustments():
    y, S = _problem(2, k=3)
    res = fastauc.delong_omnibus(y, {"x": S[:, 0], "y": S[:, 1], "z": S[:, 2]})
    assert res.names == ("x", "y", "z")
    assert res.pairs["model_a"] == ("x", "x", "y")
    assert res.pairs["model_b"] == ("y", "z", "z")
    p = res.pairs["pvalue"]
    np.testing.assert_allclose(res.pairs["pvalue_bonferroni"], np.minimum(1, 3 * p))
    order = np.argsort(p)
    expect = np.maximum.accumulate(np.minimum(1, (3 - np.arange(3)) * p[order]))
    np.testing.assert_allclose(res.pairs["pvalue_holm"][order], expect)
    pytest.importorskip("pandas")
    frame = res.to_frame()
    assert list(frame["model_a"]) == ["x", "x", "y"] and len(frame.columns) == 12
    assert "DeLongOmnibusResult" in repr(res)


def test_holm_bonferroni_helpers():
    p = np.array([0.01, 0.04, 0.03, np.nan, 0.5])
    np.testing.assert_allclose(holm(p), [0.04, 0.09, 0.09, np.nan, 0.5])
    np.testing.assert_allclose(bonferroni(p), [0.04, 0.16, 0.12, np.nan, 1.0])


def test_omnibus_repeated_model_and_bad_input():
    y, S = _problem(3, k=2)
    res = fastauc.delong_omnibus(y, np.column_stack([S, S[:, 0]]))  # a model twice: rank 1
    assert res.df == 1.0
    z = fastauc.delong_test(y, S[:, 0], S[:, 1]).statistic
    assert res.statistic == pytest.approx(z ** 2, rel=1e-9)
    with pytest.raises(ValueError, match="k >= 2"):
        fastauc.delong_omnibus(y, S[:, :1])
    with pytest.raises(ValueError, match="alternative"):
        fastauc.delong_omnibus(y, S, alternative="bigger")
    with pytest.warns(fastauc.UndefinedMetricWarning):
        res = fastauc.delong_omnibus(np.ones(len(y)), S)
    assert math.isnan(res.statistic)


# ---------------------------------------------------------------- clusters

@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(2, 30), st.booleans(), st.integers(1, 3))
def test_clustered_matches_naive(seed, n_clusters, weighted, k):
    rng = np.random.default_rng(seed)
    n = 80
    y = rng.integers(0, 2, n)
    S = np.round(rng.normal(size=(n, k)) + y[:, None], 1)
    cl = rng.integers(0, n_clusters, n)
    w = rng.integers(0, 4, n).astype(float) if weighted else None
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", fastauc.UndefinedMetricWarning)
        aucs, cov = fastauc.delong_covariance(y, S, cluster=cl, sample_weight=w)
    ra, rc = naive.clustered_auc_variance(y, S, cl, w)
    np.testing.assert_allclose(aucs, ra, atol=1e-12)
    np.testing.assert_allclose(cov, rc, atol=1e-12, rtol=1e-10)


def test_one_row_per_cluster_is_delong():
    y, S = _problem(4, k=3)
    ids = np.array([f"patient{i}" for i in range(len(y))])
    a1, c1 = fastauc.delong_covariance(y, S, cluster=ids)
    a2, c2 = fastauc.delong_covariance(y, S)
    np.testing.assert_array_equal(a1, a2)
    np.testing.assert_allclose(c1, c2, rtol=1e-12, atol=1e-16)
    ra, rc = naive.clustered_auc_variance(y, S, ids)
    np.testing.assert_allclose(rc, naive.delong_covariance(y, S)[1], rtol=1e-12, atol=1e-16)


def test_cluster_ids_of_any_type_give_the_same():
    y, S = _problem(5, k=1)
    cl = np.random.default_rng(5).integers(0, 30, len(y))
    base = fastauc.roc_auc_ci(y, S[:, 0], cluster=cl)
    for ids in (cl * 1000 - 7, cl.astype(float) / 3, [f"c{c}" for c in cl],
                np.array([(c, "x") for c in cl], dtype=object)[:, 0],
                list(map(int, cl)), cl.astype(np.uint8), 2 ** 40 * cl,
                np.iinfo(np.int64).max - cl, cl.astype(np.int16) - 100,
                (cl - 2**31 + 50).astype(np.int32), -(2**62) + 3 * cl):
        res = fastauc.roc_auc_ci(y, S[:, 0], cluster=ids)
        assert res.se == pytest.approx(base.se, rel=1e-12)
    _, cov = fastauc.delong_covariance(y, S[:, 0], cluster=cl)
    assert base.se == pytest.approx(math.sqrt(cov[0, 0]), rel=1e-14)
    assert base.estimate == fastauc.roc_auc_score(y, S[:, 0])


def test_boolean_cluster_ids():
    y, S = _problem(8, k=1)
    ids = np.arange(len(y)) % 2 == 0
    assert fastauc.roc_auc_ci(y, S[:, 0], cluster=ids).se == pytest.approx(
        fastauc.roc_auc_ci(y, S[:, 0], cluster=ids.astype(int)).se, rel=1e-15)


def test_clustered_paired_test_and_omnibus():
    y, S = _problem(6, k=3)
    cl = np.arange(len(y)) // 4
    aucs, cov = naive.clustered_auc_variance(y, S, cl)
    t = fastauc.delong_test(y, S[:, 0], S[:, 1], cluster=cl)
    se = math.sqrt(cov[0, 0] + cov[1, 1] - 2 * cov[0, 1])
    assert t.se == pytest.approx(se, rel=1e-9)
    om = fastauc.delong_omnibus(y, S, cluster=cl)
    np.testing.assert_allclose(om.cov, cov, atol=1e-14)


def _bucket_and_walk(y, s, cl):
    """The unweighted clustered sums both ways: the integer bucket walk
    (``_bucket_sums``) and the sort carrying the codes (``_cluster_sums``
    with unit weights, which takes the float walk)."""
    is_pos = np.asarray(y) == 1
    codes, count, offset = _delong.cluster_codes(cl, len(y))
    tp, tn = _delong.class_weights(is_pos, np.empty(0))
    got = _delong._bucket_sums(is_pos, s, codes, count, tp, tn, "y", offset)
    ref = _delong._cluster_sums(is_pos, s, np.ones(len(y)), codes, count, tp, tn, "y", offset)
    found = _delong._bucket_sums(is_pos, s, np.asarray(cl), None, tp, tn, "y", None)
    assert found[2:] == (count, offset) == got[2:]  # the ids' range, found by the scatter
    np.testing.assert_array_equal(found[1], got[1])
    return got[:2], ref


SCORES = {
    "rounded": lambda rng, y: np.round(rng.normal(size=y.shape[0]) + y, 1),
    "continuous": lambda rng, y: rng.normal(size=y.shape[0]) + y,
    "float32": lambda rng, y: (rng.normal(size=y.shape[0]) + y).astype(np.float32),
    # magnitudes from 1e-300 to 1e300 of both signs: buckets far wider than
    # the bits a sort word keeps, so keys come back out of order and are sorted again
    "wide": lambda rng, y: (rng.choice([-1.0, 1.0], y.shape[0])
                            * 10.0 ** rng.integers(-300, 300, y.shape[0])
                            * (1.0 + rng.integers(0, 4, y.shape[0]) * 2.0**-52)),
}


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(2, 400), st.integers(1, 60),
       st.sampled_from(sorted(SCORES)), st.sampled_from([None, 1, 3, 16]),
       st.sampled_from(["radix", "numpy"]))
def test_bucket_walk_equals_the_sorted_walk(seed, n, n_clusters, kind, bucket_rows, path):
    """Unweighted clustered sums are integers summed per bucket: the AUC is
    the float walk's bit for bit and each cluster's sums equal its to
    rounding, for any buckets (tiny ones: ties at every edge), either sort
    of the words, float32 keys and keys too wide for a word."""
    from unittest import mock

    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    y[:2] = [0, 1]
    s = SCORES[kind](rng, y)
    cl = rng.integers(-5, n_clusters, n)  # negative ids: codes offset by the least
    with mock.patch.dict("os.environ", {"FASTAUC_SORT": path}), \
            mock.patch.object(_sort, "BUCKET_ROWS", bucket_rows or _sort.BUCKET_ROWS):
        (auc, sums), (ref_auc, ref_sums) = _bucket_and_walk(y, s, cl)
    assert auc == ref_auc == fastauc.roc_auc_score(y, s)
    np.testing.assert_array_equal(sums[:, [1, 3]], ref_sums[:, [1, 3]])
    np.testing.assert_allclose(sums[:, [0, 2]], ref_sums[:, [0, 2]], rtol=1e-13, atol=1e-13)


@pytest.mark.parametrize("bins", ["key", "value"])
def test_bucket_walk_bins_beyond_the_sampled_range(bins, monkeypatch):
    """The buckets' bins span a strided sample's range; rows beyond it (the
    extremes here are all off the sample's stride) go to the end bins, still
    in key order."""
    monkeypatch.setattr(_sort, "BINS", bins)
    rng = np.random.default_rng(4)
    n = 70_000
    y = rng.integers(0, 2, n)
    s = np.round(rng.normal(size=n) + y, 3)
    s[1::34] = rng.choice([-1e300, -7.0, 9.0, 1e300], s[1::34].shape[0])
    cl = rng.integers(0, 500, n)
    (auc, sums), (ref_auc, ref_sums) = _bucket_and_walk(y, s, cl)
    assert auc == ref_auc == fastauc.roc_auc_score(y, s)
    np.testing.assert_allclose(sums, ref_sums, rtol=1e-13, atol=1e-13)


@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
def test_clustered_non_finite_score_off_the_sample_raises(bad):
    n = 20_000
    y = np.arange(n) % 2
    s = np.linspace(0.0, 1.0, n)
    s[3] = bad  # the sample takes every 9th row
    with pytest.raises(ValueError, match="Input contains (NaN|infinity)"):
        fastauc.roc_auc_ci(y, s, cluster=np.arange(n) // 4)


def test_bucket_walk_sorts_again_keys_a_word_cannot_hold():
    """One bucket holding -1.0 and 300 keys one ulp apart above 1.0 in
    shuffled rows: the words keep the top 55 of the span's 63 bits, so those
    keys tie on their words and come back in row order, not key order; the
    bucket is sorted again and the sums are the definition's."""
    rng = np.random.default_rng(3)
    s = np.r_[-1.0, 1.0 + np.arange(300) * 2.0**-52]
    s = s[rng.permutation(s.shape[0])]
    y = rng.integers(0, 2, s.shape[0])
    cl = rng.integers(0, 20, s.shape[0])
    aucs, cov = fastauc.delong_covariance(y, s, cluster=cl)
    ra, rc = naive.clustered_auc_variance(y, s, cl)
    np.testing.assert_allclose(aucs, ra, atol=1e-12)
    np.testing.assert_allclose(cov, rc, rtol=1e-10, atol=1e-15)
    assert aucs[0] == fastauc.roc_auc_score(y, s)


def test_bucket_walk_is_the_same_in_any_unit_order(monkeypatch):
    """Each thread keeps integer sums of its own: the covariance is the same
    floats whichever thread takes which bucket range, in whatever order, and
    with one set of sums for all (many clusters on many threads)."""
    rng = np.random.default_rng(8)
    n = 300_000
    y = rng.integers(0, 2, n)
    s = np.round(rng.normal(size=n) + y, 3)
    cl = rng.integers(0, 3000, n)
    base = fastauc.roc_auc_ci(y, s, cluster=cl)
    monkeypatch.setattr(_parallel, "SHUFFLE", 17)
    again = fastauc.roc_auc_ci(y, s, cluster=cl)
    assert (again.estimate, again.se) == (base.estimate, base.se)
    monkeypatch.setattr(_parallel, "SHUFFLE", None)
    monkeypatch.setattr(_delong, "SUMS_BYTES", 0)
    monkeypatch.setattr(_delong, "num_threads", lambda: 8)
    cl = np.arange(n)[::-1] // 2  # 150,000 clusters: one set of sums (16 bytes a row)
    base = fastauc.roc_auc_ci(y, s, cluster=cl)
    one = fastauc.roc_auc_ci(y, s, cluster=cl, sample_weight=np.ones(n))
    assert base.se == pytest.approx(one.se, rel=1e-12) and base.estimate == one.estimate


def test_cluster_bad_input():
    y, s = [0, 1, 0, 1], [0.1, 0.2, 0.3, 0.4]
    with pytest.raises(ValueError, match="cluster"):
        fastauc.roc_auc_ci(y, s, cluster=[0, 1, 2])
    with pytest.raises(ValueError, match="NaN"):
        fastauc.roc_auc_ci(y, s, cluster=[0.0, 1.0, np.nan, 1.0])
    with pytest.raises(ValueError, match="1-D"):
        fastauc.roc_auc_ci(y, s, cluster=[[0, 1], [1, 0]])
    with pytest.raises(ValueError, match="method='delong'"):
        fastauc.roc_auc_ci(y, s, cluster=[0, 0, 1, 1], method="bootstrap")
    with pytest.warns(fastauc.UndefinedMetricWarning, match="two clusters"):
        res = fastauc.roc_auc_ci(y, s, cluster=[0, 0, 0, 0])
    assert math.isnan(res.se) and res.estimate == 0.75
    ids = np.array([3, 3, 5, 5])
    fastauc.roc_auc_ci(y, s, cluster=ids)
    assert ids.tolist() == [3, 3, 5, 5]


# ---------------------------------------------------------------- kernels

@pytest.mark.parametrize("df", [1.0, 2.5, 7.0, 30.0, 206.66, 1e4])
def test_t_kernels_match_scipy(df):
    for t in (-40.0, -3.0, -0.5, 0.0, 0.7, 2.2, 9.0):
        assert t_sf(t, df) == pytest.approx(stats.t.sf(t, df), rel=1e-11, abs=1e-300)
    for p in (0.6, 0.95, 0.975, 0.999):
        assert t_ppf(p, df) == pytest.approx(stats.t.ppf(p, df), rel=1e-10)


@pytest.mark.parametrize("a", [0.5, 1.0, 1.5, 4.0, 20.0])
def test_gammaincc_matches_scipy(a):
    for x in (0.0, 1e-3, 0.5, 1.0, 3.0, 10.0, 60.0, 400.0):
        assert gammaincc(a, x) == pytest.approx(special.gammaincc(a, x), rel=1e-11,
                                                abs=1e-300)


def _placements_numpy(y, s, w):
    """Each row's placement from searchsorted on the other class's cumulative weights."""
    pos = y == 1

    def share(x, other, wo):
        order = np.argsort(other, kind="stable")
        o, cw = other[order], np.r_[0.0, np.cumsum(wo[order])]
        lo, hi = np.searchsorted(o, x, "left"), np.searchsorted(o, x, "right")
        return (cw[lo] + 0.5 * (cw[hi] - cw[lo])) / cw[-1]

    out = np.empty(len(y))
    out[pos] = share(s[pos], s[~pos], w[~pos])
    out[~pos] = 1.0 - share(s[~pos], s[pos], w[pos])
    return out


@pytest.mark.parametrize("weighted, n_clusters", [(False, 5000), (True, 5000),
                                                 (False, 100_000)])
def test_clustered_large_matches_numpy(weighted, n_clusters):
    """Past the size where the sweep runs in key ranges on the threads (the
    ranges in groups with sums of their own; one group for many clusters)."""
    rng = np.random.default_rng(7)
    n = 600_000
    y = rng.integers(0, 2, n)
    s = np.round(rng.normal(size=n) + y, 2)
    cl = rng.integers(0, n_clusters, n)
    w = rng.integers(0, 4, n).astype(float) if weighted else np.ones(n)
    res = fastauc.roc_auc_ci(y, s, cluster=cl, sample_weight=w if weighted else None)
    auc = fastauc.roc_auc_score(y, s, sample_weight=w if weighted else None)
    assert res.estimate == auc
    X = _placements_numpy(y, s, w)
    pos = y == 1
    v10 = np.bincount(cl[pos], w[pos] * X[pos], minlength=n_clusters)
    v01 = np.bincount(cl[~pos], w[~pos] * X[~pos], minlength=n_clusters)
    m = np.bincount(cl[pos], w[pos], minlength=n_clusters)
    nn = np.bincount(cl[~pos], w[~pos], minlength=n_clusters)
    M, N = m.sum(), nn.sum()
    I10, I01, I = (m > 0).sum(), (nn > 0).sum(), ((m + nn) > 0).sum()
    d10, d01 = v10 - m * auc, v01 - nn * auc
    var = (I10 / ((I10 - 1) * M) * (d10 @ d10) / M + I01 / ((I01 - 1) * N) * (d01 @ d01) / N
           + 2 * I / (I - 1) * (d10 @ d01) / (M * N))
    assert res.se == pytest.approx(math.sqrt(var), rel=1e-9)
