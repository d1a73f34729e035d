"""fastauc.dask on a real distributed.LocalCluster: the in-memory numbers for any
partitioning (1, 7 and 24 partitions, empty ones, one-class ones, heavy ties)."""

import warnings

import numpy as np
import pytest

import fastauc
from fastauc._adapters import ranges as _ranges

dask = pytest.importorskip("dask")
da = pytest.importorskip("dask.array")
distributed = pytest.importorskip("distributed")
fd = pytest.importorskip("fastauc.dask")

TOL = 1e-12


@pytest.fixture(scope="session")
def client():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                                           dashboard_address=None)
        with distributed.Client(cluster) as c:
            yield c
        cluster.close()


def _data(rng, n=6000, weighted=True):
    y = (rng.random(n) < 0.3).astype(int)
    s = 1 / (1 + np.exp(-(y + rng.normal(size=n))))
    s[rng.random(n) < 0.3] = 0.5  # 30% of the rows on one tied score
    w = rng.choice([0.0, 0.5, 1.0, 3.0], n) if weighted else None
    return y, s, w


def _chunks(n, parts, rng):
    """``parts`` chunks of random sizes, some of them empty."""
    if parts == 1:
        return (n,)
    cuts = np.sort(rng.integers(0, n + 1, parts - 1))
    cuts[: max(1, parts // 8)] = 0  # empty partitions first
    sizes = np.diff(np.concatenate(([0], cuts, [n])))
    return (tuple(int(x) for x in sizes),)


def _dask_arrays(y, s, w, chunks):
    return (da.from_array(y, chunks=chunks), da.from_array(s, chunks=chunks),
            None if w is None else da.from_array(w, chunks=chunks))


@pytest.mark.parametrize("parts, range_rows", [(1, 1 << 21), (7, 1 << 21), (7, 900),
                                               (24, 1 << 21), (24, 1500)])
@pytest.mark.parametrize("weighted", [False, True])
def test_scalar_metrics_equal_in_memory(client, parts, range_rows, weighted, rng, monkeypatch):
    """``range_rows`` small: several key ranges, each swept from the weight above it."""
    monkeypatch.setattr(_ranges, "RANGE_ROWS", range_rows)
    y, s, w = _data(rng, weighted=weighted)
    # sorted by label in the first half: whole partitions of one class
    order = np.r_[np.argsort(y[:3000], kind="stable"), np.arange(3000, 6000)]
    y, s = y[order], s[order]
    w = None if w is None else w[order]
    Y, S, W = _dask_arrays(y, s, w, _chunks(len(y), parts, rng))
    assert fd.roc_auc_score(Y, S, sample_weight=W) == pytest.approx(
        fastauc.roc_auc_score(y, s, sample_weight=w), abs=TOL)
    for pos in (1, 0):
        assert fd.average_precision_score(Y, S, sample_weight=W, pos_label=pos) == \
            pytest.approx(fastauc.average_precision_score(y, s, sample_weight=w,
                                                          pos_label=pos), abs=TOL)
    ci, ref = fd.roc_auc_ci(Y, S, sample_weight=W), fastauc.roc_auc_ci(y, s, sample_weight=w)
    assert (ci.estimate, ci.low, ci.high, ci.se) == pytest.approx(
        (ref.estimate, ref.low, ref.high, ref.se), abs=TOL)
    mw, ref = fd.mann_whitney_u(Y, S, sample_weight=W), fastauc.mann_whitney_u(
        y, s, sample_weight=w)
    assert (mw.statistic, mw.pvalue, mw.auc) == pytest.approx(
        (ref.statistic, ref.pvalue, ref.auc), rel=1e-12, abs=TOL)
    assert fd.log_loss(Y, S, sample_weight=W) == pytest.approx(
        fastauc.log_loss(y, s, sample_weight=w), rel=1e-12)


def test_dask_series_and_lazy_results(client, rng):
    dd = pytest.importorskip("dask.dataframe")
    pd = pytest.importorskip("pandas")
    y, s, w = _data(rng)
    frame = dd.from_pandas(pd.DataFrame({"y": y, "s": s, "w": w}), npartitions=5)
    assert fd.roc_auc_score(frame["y"], frame["s"], sample_weight=frame["w"]) == \
        pytest.approx(fastauc.roc_auc_score(y, s, sample_weight=w), abs=TOL)
    one = dd.from_pandas(pd.DataFrame({"y": y, "s": s}), npartitions=1)
    assert fd.roc_auc_score(one["y"], one[["s"]]) == \
        pytest.approx(fastauc.roc_auc_score(y, s), abs=TOL)
    lazy = fd.roc_auc_score(frame["y"], frame["s"], compute=False)
    assert hasattr(lazy, "compute")
    assert lazy.compute() == pytest.approx(fastauc.roc_auc_score(y, s), abs=TOL)


def test_string_labels_and_one_class(client, rng):
    y, s, _ = _data(rng, weighted=False)
    labels = np.where(y == 1, "sick", "well")
    Y, S, _ = _dask_arrays(labels, s, None, ((1000,) * 6,))
    assert fd.roc_auc_score(Y, S) == pytest.approx(fastauc.roc_auc_score(labels, s), abs=TOL)
    one = da.from_array(np.zeros(6000, int), chunks=1000)
    with pytest.warns(fastauc.UndefinedMetricWarning, match="Only one class"):
        assert np.isnan(fd.roc_auc_score(one, S))


def test_errors_name_the_global_row(client, rng):
    y, s, _ = _data(rng, weighted=False)
    s = s.copy()
    s[4321] = np.nan
    Y, S, _ = _dask_arrays(y, s, None, ((1000,) * 6,))
    with pytest.raises(ValueError, match="NaN.*global row 4321"):
        fd.roc_auc_score(Y, S)
    with pytest.raises(ValueError, match="inconsistent numbers of samples"):
        fd.roc_auc_score(Y[:10], S)
    y3 = y.copy()
    y3[17] = 2
    with pytest.raises(ValueError, match="multiclass"):
        fd.roc_auc_score(da.from_array(y3, chunks=1000), da.from_array(np.nan_to_num(s), 1000))
    # weights that are all zero: scikit-learn's error, as in memory
    fine = da.from_array(np.nan_to_num(s), chunks=1000)
    zeros = da.zeros(len(y), chunks=1000)
    for fn in (fd.roc_auc_score, fd.average_precision_score, fd.log_loss):
        with pytest.raises(ValueError, match="at least one non-zero number"):
            fn(Y, fine, sample_weight=zeros)
        with pytest.raises(ValueError, match="at least one non-zero number"):
            getattr(fastauc, fn.__name__)(y, np.nan_to_num(s), sample_weight=np.zeros(len(y)))


def test_worker_processes(rng):
    """A cluster of two worker processes (the kernels load from Numba's cache there)."""
    y, s, w = _data(rng)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                      dashboard_address=None) as cluster, \
                distributed.Client(cluster):
            Y, S, W = _dask_arrays(y, s, w, ((1500,) * 4,))
            got = fd.roc_auc_score(Y, S, sample_weight=W)
            boot = fd.bootstrap_ci(Y, S, n_resamples=20, random_state=3)
    assert got == pytest.approx(fastauc.roc_auc_score(y, s, sample_weight=w), abs=TOL)
    ref = fastauc.bootstrap_ci(y, s, n_resamples=20, random_state=3, scheme="poisson")
    np.testing.assert_array_equal(boot.replicates, ref.replicates)  # two worker processes


@pytest.mark.parametrize("parts, range_rows", [(1, 1 << 21), (7, 900), (24, 1500)])
def test_paired_delong_equals_in_memory(client, parts, range_rows, rng, monkeypatch):
    """Three models on the same rows: every row's placement under each model is
    looked up in its range's table and the block sums add up to DeLong's
    covariance."""
    monkeypatch.setattr(_ranges, "RANGE_ROWS", range_rows)
    y, s, w = _data(rng)
    b = np.round(s + rng.normal(size=len(y)), 2)
    c = np.round(rng.normal(size=len(y)) + 0.3 * y, 1)
    chunks = _chunks(len(y), parts, rng)
    Y, S, W = _dask_arrays(y, s, w, chunks)
    B, C = da.from_array(b, chunks=chunks), da.from_array(c, chunks=chunks)
    aucs, cov = fd.delong_covariance(Y, [S, B, C], sample_weight=W)
    ref_aucs, ref_cov = fastauc.delong_covariance(y, np.column_stack((s, b, c)),
                                                  sample_weight=w)
    np.testing.assert_allclose(aucs, ref_aucs, rtol=0, atol=TOL)
    np.testing.assert_allclose(cov, ref_cov, rtol=1e-10, atol=TOL)
    got, ref = fd.delong_test(Y, S, B), fastauc.delong_test(y, s, b)
    assert (got.difference, got.se, got.statistic, got.low, got.high) == pytest.approx(
        (ref.difference, ref.se, ref.statistic, ref.low, ref.high), rel=1e-9, abs=TOL)
    assert got.pvalue == pytest.approx(ref.pvalue, rel=1e-6, abs=1e-300)


@pytest.mark.parametrize("parts, range_rows", [(1, 1 << 21), (7, 900), (24, 1500)])
def test_poisson_bootstrap_is_bit_identical_to_in_memory(client, parts, range_rows, rng,
                                                         monkeypatch):
    """Counts keyed by (seed, replicate, global row): the same replicates as the
    in-memory Poisson bootstrap, bit for bit, whatever the partitions."""
    monkeypatch.setattr(_ranges, "RANGE_ROWS", range_rows)
    y, s, w = _data(rng)
    Y, S, W = _dask_arrays(y, s, w, _chunks(len(y), parts, rng))
    for weights, dw in ((None, None), (w, W)):
        ref = fastauc.bootstrap_ci(y, s, sample_weight=weights, n_resamples=40,
                                   random_state=11, scheme="poisson", method="basic")
        got = fd.bootstrap_ci(Y, S, sample_weight=dw, n_resamples=40, random_state=11,
                              method="basic")
        np.testing.assert_array_equal(got.replicates, ref.replicates)
        assert (got.estimate, got.low, got.high, got.se, got.n_dropped) == pytest.approx(
            (ref.estimate, ref.low, ref.high, ref.se, ref.n_dropped), abs=TOL)
    with pytest.raises(ValueError, match="scheme='poisson'"):
        fd.bootstrap_ci(Y, S, scheme="multinomial")
    # the paired test: both models see the same resample, as in memory
    b = np.round(s + rng.normal(scale=0.3, size=len(s)), 2)
    B = da.from_array(b, chunks=S.chunks)
    for alternative in ("two-sided", "greater"):
        ref = fastauc.bootstrap_test(y, s, b, sample_weight=w, n_resamples=40, random_state=5,
                                     scheme="poisson", alternative=alternative)
        got = fd.bootstrap_test(Y, S, B, sample_weight=W, n_resamples=40, random_state=5,
                                alternative=alternative)
        np.testing.assert_array_equal(got.replicates, ref.replicates)
        assert (got.difference, got.low, got.high, got.se, got.statistic, got.pvalue) == \
            pytest.approx((ref.difference, ref.low, ref.high, ref.se, ref.statistic,
                           ref.pvalue), abs=TOL)
    with pytest.raises(ValueError, match="scheme='poisson'"):
        fd.bootstrap_test(Y, S, B, scheme="multinomial")


@pytest.mark.parametrize("parts, range_rows", [(1, 1 << 21), (7, 900)])
def test_clustered_delong_and_bootstrap_equal_in_memory(client, parts, range_rows, rng,
                                                        monkeypatch):
    """``cluster=``: each block sums its placements per cluster, the sums are added
    up by id (clusters span blocks), Obuchowski's covariance as in memory; the
    Poisson counts keyed by the cluster id give the in-memory replicates."""
    monkeypatch.setattr(_ranges, "RANGE_ROWS", range_rows)
    y, s, w = _data(rng, n=3000)
    ids = rng.integers(0, 400, len(y))  # about 7 rows a cluster, in many blocks
    b = np.round(s + rng.normal(size=len(y)), 2)
    chunks = _chunks(len(y), parts, rng)
    Y, S, W = _dask_arrays(y, s, w, chunks)
    B = da.from_array(b, chunks=chunks)
    for cluster in (ids, np.array([f"patient {i}" for i in ids])):
        C = da.from_array(cluster, chunks=chunks)
        aucs, cov = fd.delong_covariance(Y, [S, B], sample_weight=W, cluster=C)
        ref_aucs, ref_cov = fastauc.delong_covariance(y, np.column_stack((s, b)),
                                                      sample_weight=w, cluster=cluster)
        np.testing.assert_allclose(aucs, ref_aucs, rtol=0, atol=TOL)
        np.testing.assert_allclose(cov, ref_cov, rtol=1e-10, atol=TOL)
        got, ref = fd.roc_auc_ci(Y, S, cluster=C), fastauc.roc_auc_ci(y, s, cluster=cluster)
        assert (got.estimate, got.se, got.low) == pytest.approx((ref.estimate, ref.se, ref.low),
                                                                rel=1e-10, abs=TOL)
        got, ref = fd.delong_test(Y, S, B, cluster=C), fastauc.delong_test(y, s, b,
                                                                           cluster=cluster)
        assert (got.se, got.statistic) == pytest.approx((ref.se, ref.statistic), rel=1e-9)
        lazy = fd.roc_auc_ci(Y, S, cluster=C, compute=False).compute()
        assert lazy.se == pytest.approx(fastauc.roc_auc_ci(y, s, cluster=cluster).se, rel=1e-10)
        boot = fd.bootstrap_ci(Y, S, sample_weight=W, cluster=C, n_resamples=30, random_state=4)
        ref = fastauc.bootstrap_ci(y, s, sample_weight=w, cluster=cluster, n_resamples=30,
                                   random_state=4, scheme="poisson")
        np.testing.assert_allclose(boot.replicates, ref.replicates, rtol=0, atol=TOL)
        test = fd.bootstrap_test(Y, S, B, cluster=C, n_resamples=30, random_state=4)
        ref = fastauc.bootstrap_test(y, s, b, cluster=cluster, n_resamples=30, random_state=4,
                                     scheme="poisson")
        np.testing.assert_array_equal(test.replicates, ref.replicates)
    with pytest.raises(ValueError, match="NaN"):
        fd.roc_auc_ci(Y, S, cluster=da.from_array(np.full(len(y), np.nan), chunks=chunks))
    one = da.from_array(np.zeros(len(y), int), chunks=chunks)  # one cluster: NaN, warned
    with pytest.warns(fastauc.UndefinedMetricWarning, match="two clusters"):
        assert np.isnan(fd.roc_auc_ci(Y, S, cluster=one).se)


@pytest.mark.parametrize("parts", [1, 7])
def test_auc_over_time_equals_in_memory(client, parts, rng):
    """Each block's tables per period, dealt to buckets of periods with their
    windows' earlier periods: the in-memory periods, windows and tests."""
    n = 6000
    t = np.datetime64("2026-01-01") + rng.integers(0, 10 * 24, n) * np.timedelta64(1, "h")
    day = (t - t.min()) // np.timedelta64(1, "D")
    y = rng.integers(0, 2, n).astype(float)
    p = np.round(1 / (1 + np.exp(-(y * (1.5 - 0.1 * day) + rng.normal(size=n) - 0.7))), 2)
    w = rng.choice([0.5, 1.0, 2.0], n)
    y[day >= 9] = np.nan  # not labelled yet
    chunks = _chunks(n, parts, rng)
    Y, P, W = (da.from_array(x, chunks=chunks) for x in (y, p, w))
    T = da.from_array(t, chunks=chunks)
    for kw in ({"window": "2D"}, {"window": "3D", "reference": -2, "alternative": "two-sided"},
               {"reference": (np.datetime64("2026-01-02"), np.datetime64("2026-01-04"))}):
        for weights, dw in ((None, None), (w, W)):
            ref = fastauc.auc_over_time(y, p, t, freq="1D", sample_weight=weights, **kw)
            got = fd.auc_over_time(Y, P, T, freq="1D", sample_weight=dw, **kw)
            np.testing.assert_allclose(got.auc, ref.auc, rtol=1e-12, atol=1e-14)
            np.testing.assert_allclose(got.se, ref.se, rtol=1e-9)
            np.testing.assert_allclose(got.expected_auc, ref.expected_auc, rtol=1e-12)
            np.testing.assert_allclose(got.log_loss, ref.log_loss, rtol=1e-12)
            np.testing.assert_allclose(got.pvalue_adjusted, ref.pvalue_adjusted, rtol=1e-8)
            assert got.flag.tolist() == ref.flag.tolist()
            np.testing.assert_array_equal(got.n, ref.n)
            np.testing.assert_array_equal(got.start, ref.start)
    lazy = fd.auc_over_time(Y, P, T, freq="1D", compute=False).compute()
    np.testing.assert_allclose(lazy.auc, fastauc.auc_over_time(y, p, t, freq="1D").auc,
                               rtol=1e-12)
    with pytest.raises(ValueError, match="whole number of periods"):
        fd.auc_over_time(Y, P, T, freq="1D", window="36h")


def test_report_with_poisson_bootstrap_intervals(client, rng, monkeypatch):
    """``report(..., ci="bootstrap", scheme="poisson")``: the in-memory report's
    intervals (the same replicates), the DeLong comparisons as there."""
    from .compare import assert_close

    monkeypatch.setattr(_ranges, "RANGE_ROWS", 1500)
    y, s, w = _data(rng)
    b = np.round(s + rng.normal(scale=0.2, size=len(s)), 2)
    labels = np.where(y == 1, "yes", "no")
    chunks = _chunks(len(y), 7, rng)
    Y, S, W = _dask_arrays(labels, s, w, chunks)
    B = da.from_array(b, chunks=chunks)
    options = {"n_resamples": 30, "random_state": 4, "scheme": "poisson"}
    got = fd.report(Y, [S, B], sample_weight=W, pos_label="no", ci="bootstrap", **options)
    ref = fastauc.report(labels, np.column_stack((s, b)), sample_weight=w, pos_label="no",
                         ci="bootstrap", **options)
    assert got.ci_method == "bootstrap"
    assert_close(got.to_dict(), ref.to_dict())
    with pytest.raises(ValueError, match="scheme='poisson'"):
        fd.report(Y, [S, B], ci="bootstrap", scheme="multinomial")
    with pytest.raises(TypeError, match="ci='delong'"):
        fd.report(Y, [S, B], n_resamples=10)


@pytest.mark.parametrize("parts, range_rows", [(1, 1 << 21), (7, 900), (24, 1500)])
def test_curves_equal_in_memory(client, parts, range_rows, rng, monkeypatch):
    monkeypatch.setattr(_ranges, "RANGE_ROWS", range_rows)
    y, s, w = _data(rng)
    s = np.round(s, 3).astype(np.float32)
    Y, S, W = _dask_arrays(y, s, w, _chunks(len(y), parts, rng))
    for drop in (True, False):
        for ours, ref in ((fd.roc_curve, fastauc.roc_curve),
                          (fd.precision_recall_curve, fastauc.precision_recall_curve)):
            got = ours(Y, S, sample_weight=W, drop_intermediate=drop)
            want = ref(y, s, sample_weight=w, drop_intermediate=drop)
            for a, b in zip(got, want):
                assert a.shape == b.shape and a.dtype == b.dtype
                np.testing.assert_allclose(a, b, rtol=1e-12, atol=TOL)
    # thinned on the workers: about max_points points, every one an exact point
    fpr, tpr, _ = fd.roc_curve(Y, S, drop_intermediate=False, max_points=40)
    full = fastauc.roc_curve(y, s, drop_intermediate=False)
    exact = set(zip(np.round(full[0], 12), np.round(full[1], 12)))
    n_ranges = min(parts, -(-len(y) // range_rows))
    assert len(fpr) <= 40 + n_ranges + 1  # each range keeps its last point; and inf
    assert all((round(a, 12), round(b, 12)) in exact for a, b in zip(fpr, tpr))


def test_curves_need_a_pos_label_for_other_labels(client, rng):
    y, s, _ = _data(rng, weighted=False)
    labels = np.where(y == 1, "sick", "well")
    Y, S = da.from_array(labels, chunks=1000), da.from_array(s, chunks=1000)
    with pytest.raises(ValueError, match="pos_label is not specified"):
        fd.roc_curve(Y, S)
    got = fd.roc_curve(Y, S, pos_label="sick")
    want = fastauc.roc_curve(labels, s, pos_label="sick")
    for a, b in zip(got, want):
        np.testing.assert_allclose(a, b, rtol=1e-12, atol=TOL)


@pytest.mark.parametrize("parts, range_rows", [(1, 1 << 21), (7, 900), (24, 1500)])
def test_thresholds_equal_in_memory(client, parts, range_rows, rng, monkeypatch):
    """best_threshold: each range's best from the weight above it, the best of
    those (the highest threshold among equals); threshold_metrics: every point."""
    monkeypatch.setattr(_ranges, "RANGE_ROWS", range_rows)
    y, s, w = _data(rng)
    s = np.round(s, 2)
    Y, S, W = _dask_arrays(y, s, w, _chunks(len(y), parts, rng))
    for metric, kw in (("f1", {}), ("mcc", {}), ("youden", {}), ("accuracy", {}),
                       ("closest_topleft", {}), ("cost", {"cost_fp": 1.0, "cost_fn": 4.0}),
                       ("fbeta", {"beta": 2.0})):
        got = fd.best_threshold(Y, S, sample_weight=W, metric=metric, **kw)
        ref = fastauc.best_threshold(y, s, sample_weight=w, metric=metric, **kw)
        assert got.threshold == ref.threshold and got.metric == ref.metric
        assert got.value == pytest.approx(ref.value, abs=TOL)
    got, ref = fd.threshold_metrics(Y, S, sample_weight=W), fastauc.threshold_metrics(
        y, s, sample_weight=w)
    np.testing.assert_array_equal(got.threshold, ref.threshold)
    for name in ("tp", "fp", "tn", "fn", "f1", "mcc"):
        np.testing.assert_allclose(getattr(got, name), getattr(ref, name), rtol=1e-12,
                                   atol=TOL)
    with pytest.raises(ValueError, match="cost_fp"):
        fd.best_threshold(Y, S, metric="cost")
    # pROC's coordinates from the same points (zero-weight scores make no point)
    for x, kw in (("all", {}), ("best", {}), ([0.5, 0.9], {"input": "specificity"}),
                  ([-1.0, 0.0, 0.37], {})):
        got = fd.coords(Y, S, x, sample_weight=W, ret="all", **kw)
        ref = fastauc.coords(y, s, x, sample_weight=w, ret="all", **kw)
        for name in ref:
            np.testing.assert_allclose(got[name], ref[name], rtol=1e-12, atol=TOL)
    with pytest.raises(ValueError, match="not a valid coordinate"):
        fd.coords(Y, S, ret="sesame", compute=False)
    # calibration, from the same table (probabilities: the scores squashed)
    P = 1 / (1 + np.exp(-S))
    p = 1 / (1 + np.exp(-s))
    assert fd.brier_score_loss(Y, P, sample_weight=W) == pytest.approx(
        fastauc.brier_score_loss(y, p, sample_weight=w), rel=1e-12)
    for norm in ("l1", "max"):
        assert fd.calibration_error(Y, P, sample_weight=W, norm=norm, n_bins=7) == \
            pytest.approx(fastauc.calibration_error(y, p, sample_weight=w, norm=norm, n_bins=7),
                          rel=1e-12, abs=1e-15)
    got, ref = fd.brier_decomposition(Y, P, sample_weight=W), fastauc.brier_decomposition(
        y, p, sample_weight=w)
    for name in ("brier", "miscalibration", "discrimination", "uncertainty"):
        assert getattr(got, name) == pytest.approx(getattr(ref, name), rel=1e-10, abs=1e-14)
    for method in ("isotonic", "quantile"):
        got = fd.reliability_curve(Y, P, sample_weight=W, method=method, n_bins=4)
        ref = fastauc.reliability_curve(y, p, sample_weight=w, method=method, n_bins=4)
        np.testing.assert_allclose(got.prob_true, ref.prob_true, rtol=1e-10, atol=1e-14)
        np.testing.assert_allclose(got.prob_pred, ref.prob_pred, rtol=1e-10, atol=1e-14)
    with pytest.raises(ValueError, match="y_prob"):
        fd.brier_score_loss(Y, S + 5)


@pytest.mark.parametrize("parts, range_rows", [(1, 1 << 21), (7, 900), (24, 1 << 21)])
def test_report_equals_in_memory(client, parts, range_rows, rng, monkeypatch):
    from .compare import assert_close

    monkeypatch.setattr(_ranges, "RANGE_ROWS", range_rows)
    y, p, w = _data(rng)
    p = np.round(p, 3)
    q = np.round(rng.normal(size=len(y)) + 0.5 * y, 2)  # not a probability: no log loss
    chunks = _chunks(len(y), parts, rng)
    Y, P, W = _dask_arrays(y, p, w, chunks)
    Q = da.from_array(q, chunks=chunks)
    ref = fastauc.report(y, np.column_stack((p, q)), sample_weight=w, names=["p", "q"])
    got = fd.report(Y, [P, Q], sample_weight=W, names=["p", "q"])
    assert_close(got.to_dict(), ref.to_dict())
    assert str(got) == str(ref)
    if parts == 7:  # the DataFrame form
        dd = pytest.importorskip("dask.dataframe")
        pd = pytest.importorskip("pandas")
        frame = dd.from_pandas(pd.DataFrame({"y": y, "p": p, "q": q, "w": w}), npartitions=5)
        got = fd.report(frame, target="y", scores=["p", "q"], weight="w")
        assert_close(got.to_dict(), ref.to_dict())


# dask's Parquet reader calls a pandas API that pandas 3.1 deprecates (not ours)
@pytest.mark.filterwarnings("ignore:The inplace keyword")
def test_cli_report_on_the_cluster(client, rng, tmp_path):
    """``fastauc report 'parts/*.parquet' --scheduler ADDRESS``: the in-memory report."""
    import argparse
    import dataclasses
    import io
    import json

    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    from fastauc.cli import _report_parser, run_report

    from .compare import assert_close

    y, p, w = _data(rng)
    p = np.round(p, 3)
    q = np.round(rng.normal(size=len(y)) + 0.5 * y, 2)
    label = np.where(y == 1, "sick", "well")
    region = rng.choice(["north", "south", "east"], len(y))
    for i, a in enumerate(range(0, len(y), 2000)):
        pq.write_table(pa.table({"label": label[a:a + 2000], "p": p[a:a + 2000],
                                 "q": q[a:a + 2000], "w": w[a:a + 2000],
                                 "region": region[a:a + 2000]}),
                       tmp_path / f"part{i}.parquet")
    parser = argparse.ArgumentParser()
    _report_parser(parser.add_subparsers(dest="command"))
    args = ["report", str(tmp_path / "*.parquet"), "--target", "label", "--pos-label", "sick",
            "--score", "p", "--score", "q", "--weight", "w", "--json",
            "--scheduler", client.scheduler.address]
    boot = ["--ci", "bootstrap", "--scheme", "poisson", "--n-resamples", "20", "--seed", "3"]
    for extra in ([], ["--by", "region"], boot):
        out = io.StringIO()
        assert run_report(parser.parse_args(args + extra), out=out) == 0
        options = {"ci": "bootstrap", "n_resamples": 20, "random_state": 3,
                   "scheme": "poisson"} if extra == boot else {}
        ref = fastauc.report(label, np.column_stack((p, q)), sample_weight=w, pos_label="sick",
                             names=["p", "q"], by=region if "--by" in extra else None,
                             **options)
        ref = dataclasses.replace(ref, by_group={  # the groups take the file's column name
            name: dataclasses.replace(g, groups={"region": next(iter(g.groups.values()))})
            for name, g in ref.by_group.items()})
        assert_close(json.loads(out.getvalue()), json.loads(json.dumps(ref.to_dict())))
    from fastauc.cli import CLIError

    for extra, message in ((["--ci", "bootstrap"], "needs --scheme poisson"),
                           (["--plot", str(tmp_path / "x.png")], "--plot is not available")):
        with pytest.raises(CLIError, match=message):
            run_report(parser.parse_args(args + extra), out=io.StringIO())


@pytest.mark.parametrize("parts, range_rows", [(1, 1 << 21), (7, 900), (24, 1500)])
def test_by_group_equals_in_memory(client, parts, range_rows, rng, monkeypatch):
    """Groups dealt into buckets by a checksum of their label; each bucket's
    groups merged across partitions: the in-memory table, in group order."""
    from .compare import assert_close

    monkeypatch.setattr(_ranges, "RANGE_ROWS", range_rows)
    y, p, w = _data(rng)
    p = np.round(p, 3)
    g1 = rng.integers(0, 40, len(y))
    g1[y == 1] = np.where(g1[y == 1] == 7, 8, g1[y == 1])  # group 7: negatives only
    g2 = rng.choice(["north", "south"], len(y))
    chunks = _chunks(len(y), parts, rng)
    Y, P, W = _dask_arrays(y, p, w, chunks)
    G1, G2 = da.from_array(g1, chunks=chunks), da.from_array(g2, chunks=chunks)
    # one warning for the whole table, as in memory (not one per bucket)
    with pytest.warns(fastauc.UndefinedMetricWarning) as seen_got:
        got = fd.by_group(Y, P, G1, sample_weight=W)
    with pytest.warns(fastauc.UndefinedMetricWarning) as seen_ref:
        ref = fastauc.by_group(y, p, g1, sample_weight=w)
    assert [str(m.message) for m in seen_got] == [str(m.message) for m in seen_ref]
    assert "1 of 40 groups" in str(seen_ref[0].message)
    assert_close(got.to_dict(), ref.to_dict())
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", fastauc.UndefinedMetricWarning)
        got, ref = fd.by_group(Y, P, (G2, G1)), fastauc.by_group(y, p, (g2, g1))
        assert_close(got.to_dict(), ref.to_dict())


def test_warm_workers_loads_the_kernels_on_every_worker(client):
    """``warm_workers``: one worker first, then the rest; afterwards every
    worker has the tasks' kernels compiled (or loaded from the cache)."""
    done = fd.warm_workers(client)
    assert set(done) == set(client.scheduler_info()["workers"])
    assert all(seconds >= 0 for seconds in done.values())

    def compiled():
        from fastauc._kernels import placements, table

        return all(len(k.signatures) > 0 for k in (table.merge_runs, table.walk_runs,
                                                   placements.row_placements))

    assert all(client.run(compiled).values())


def test_series_cut_apart_and_fewer_distinct_scores_than_ranges(client, rng, monkeypatch):
    """Series with as many partitions but of other lengths are lined up by row
    position (as dask arrays); binary scores with many key ranges leave some
    ranges empty (fewer splitters than ranges) and still give the in-memory
    values."""
    dd = pytest.importorskip("dask.dataframe")
    pd = pytest.importorskip("pandas")
    y, s, _ = _data(rng, weighted=False)
    dy = dd.from_pandas(pd.Series(y), npartitions=3)
    ds = dd.from_dask_array(da.from_array(s, chunks=((1000, 3000, 2000),)))
    assert dy.npartitions == ds.npartitions == 3
    assert fd.roc_auc_score(dy, ds) == pytest.approx(fastauc.roc_auc_score(y, s), abs=TOL)
    monkeypatch.setattr(_ranges, "RANGE_ROWS", 40)
    yb, sb, qb = y[:400], (rng.random(400) < 0.5).astype(float), np.round(s[:400], 1)
    Y, S, Q = (da.from_array(a, chunks=37) for a in (yb, sb, qb))
    assert fd.roc_auc_score(Y, S) == pytest.approx(fastauc.roc_auc_score(yb, sb), abs=TOL)
    got, ref = fd.delong_test(Y, S, Q), fastauc.delong_test(yb, sb, qb)
    assert (got.difference, got.se) == pytest.approx((ref.difference, ref.se), abs=TOL)
    boot = fd.bootstrap_ci(Y, S, n_resamples=10, random_state=1)
    ref_boot = fastauc.bootstrap_ci(yb, sb, n_resamples=10, random_state=1, scheme="poisson")
    np.testing.assert_array_equal(boot.replicates, ref_boot.replicates)


def test_one_class_bootstrap_warns_and_gives_nan_as_in_memory(client, rng):
    """One class: scikit-learn's rule for roc_auc_score (a warning, NaN), on a cluster too."""
    y = np.ones(3000, int)
    s = rng.random(3000)
    Y, S, _ = _dask_arrays(y, s, None, ((1000,) * 3,))
    for call, ref_call in (
            (lambda: fd.bootstrap_ci(Y, S, n_resamples=20, random_state=0),
             lambda: fastauc.bootstrap_ci(y, s, n_resamples=20, random_state=0,
                                          scheme="poisson")),
            (lambda: fd.bootstrap_test(Y, S, S[::-1], n_resamples=20, random_state=0),
             lambda: fastauc.bootstrap_test(y, s, s[::-1], n_resamples=20, random_state=0,
                                            scheme="poisson"))):
        with pytest.warns(fastauc.UndefinedMetricWarning, match="Only one class"):
            got = call()
        with pytest.warns(fastauc.UndefinedMetricWarning, match="Only one class"):
            ref = ref_call()
        for field in ("low", "high", "se", "n_dropped", "n_resamples"):
            assert np.isnan(getattr(got, field)) if field in ("low", "high", "se") else \
                getattr(got, field) == getattr(ref, field), field
        assert np.isnan(got.replicates).all() and np.isnan(ref.replicates).all()


def test_report_calibration_block_and_refused_options(client, rng, monkeypatch):
    """The calibration block from the key ranges' tables equals the functions
    that define it; operating points are refused before any task runs."""
    monkeypatch.setattr(_ranges, "RANGE_ROWS", 700)
    y, p, w = _data(rng)
    p = np.round(p, 2)  # many probabilities on the calibration error's edges
    chunks = _chunks(len(y), 5, rng)
    Y, P, W = _dask_arrays(y, p, w, chunks)
    cal = fd.report(Y, [P], sample_weight=W).models[0].calibration
    d = fastauc.brier_decomposition(y, p, sample_weight=w)
    assert (cal["brier"], cal["miscalibration"], cal["discrimination"],
            cal["uncertainty"]) == pytest.approx(
        (d.brier, d.miscalibration, d.discrimination, d.uncertainty), abs=1e-12)
    assert cal["ece"] == pytest.approx(fastauc.calibration_error(y, p, sample_weight=w),
                                       abs=1e-12)
    assert fd.report(Y, [P], calibration=False).models[0].calibration is None
    Q = da.from_array(p * 2 - 0.5, chunks=chunks)
    assert fd.report(Y, [Q]).models[0].calibration is None  # no probability: left out
    with pytest.raises(ValueError, match="calibration=True needs probabilities"):
        fd.report(Y, [Q], calibration=True)
    for kwargs in ({"at_specificity": 0.9}, {"at_sensitivity": [0.8]}):
        with pytest.raises(ValueError, match="not available in fastauc.dask.report"):
            fd.report(Y, [P], compute=False, **kwargs)
    with pytest.raises(ValueError, match="calibration must be"):
        fd.report(Y, [P], calibration="yes")
