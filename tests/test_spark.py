"""fastauc.spark on a real local[2] SparkSession (one per test session): the
in-memory numbers for any partitioning (1, 7 and 24 partitions, empty ones,
one-class ones, heavy ties, weights, string labels, Parquet), and the errors
for bad columns raised before any job."""

import numpy as np
import pytest

import fastauc

pyspark = pytest.importorskip("pyspark")
pytest.importorskip("pyarrow")
pd = pytest.importorskip("pandas")
fs = pytest.importorskip("fastauc.spark")

TOL = 1e-12


@pytest.fixture(scope="session")
def spark():
    from pyspark.sql import SparkSession

    session = (SparkSession.builder.master("local[2]")
               .config("spark.ui.enabled", "false")
               .config("spark.sql.shuffle.partitions", "4")
               .config("spark.driver.maxResultSize", "64m")
               .getOrCreate())
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()


def _frame(spark, cols, partitions):
    return spark.createDataFrame(pd.DataFrame(cols)).repartition(partitions)


def _data(rng, n=4000):
    y = rng.integers(0, 2, n)
    s = np.round(rng.standard_normal(n) + y, 1)
    s[rng.random(n) < 0.3] = 0.5  # 30% of the rows on one score
    return y, s, rng.random(n)


@pytest.mark.parametrize("partitions", [1, 24])
def test_equal_in_memory_for_any_partitioning(spark, rng, partitions, monkeypatch):
    from fastauc._adapters import ranges

    monkeypatch.setattr(ranges, "RANGE_ROWS", 700)  # several key ranges
    y, s, w = _data(rng)
    df = _frame(spark, {"label": y, "score": s, "w": w}, partitions).cache()
    for weight, ww in ((None, None), ("w", w)):
        assert abs(fs.roc_auc_score(df, "label", "score", sample_weight=weight)
                   - fastauc.roc_auc_score(y, s, sample_weight=ww)) < TOL
        assert abs(fs.average_precision_score(df, "label", "score", sample_weight=weight)
                   - fastauc.average_precision_score(y, s, sample_weight=ww)) < TOL
        ci, ref = (fs.roc_auc_ci(df, "label", "score", sample_weight=weight),
                   fastauc.roc_auc_ci(y, s, sample_weight=ww))
        np.testing.assert_allclose([ci.estimate, ci.low, ci.high, ci.se],
                                   [ref.estimate, ref.low, ref.high, ref.se], rtol=TOL)
    u, ref = fs.mann_whitney_u(df, "label", "score"), fastauc.mann_whitney_u(y, s)
    np.testing.assert_allclose([u.statistic, u.pvalue], [ref.statistic, ref.pvalue], rtol=TOL)
    df.unpersist()


def test_empty_and_one_class_partitions_strings_and_parquet(spark, rng, tmp_path):
    y, s, w = _data(rng, 3000)
    order = np.argsort(y, kind="stable")  # sorted by label: most partitions one class
    labels = np.where(y[order] == 1, "yes", "no")
    df = _frame(spark, {"label": labels, "score": s[order], "w": w[order]}, 1)
    df = df.repartitionByRange(12, "label").union(df.limit(0).repartition(5))  # empty ones
    expected = fastauc.roc_auc_score(labels, s[order], sample_weight=w[order])
    assert abs(fs.roc_auc_score(df, "label", "score", sample_weight="w") - expected) < TOL
    df.write.parquet(str(tmp_path / "t.parquet"))
    back = spark.read.parquet(str(tmp_path / "t.parquet"))
    assert abs(fs.roc_auc_score(back, "label", "score", sample_weight="w") - expected) < TOL


def test_float32_decimal_and_boolean_columns(spark, rng):
    from pyspark.sql import functions as F

    y, s, _ = _data(rng, 2000)
    df = _frame(spark, {"label": y.astype(bool), "score": s}, 3)
    df = df.withColumn("s32", F.col("score").cast("float")) \
           .withColumn("dec", F.col("score").cast("decimal(10,2)"))
    for col, ref in (("s32", s.astype(np.float32)), ("dec", s)):
        assert abs(fs.roc_auc_score(df, "label", col) - fastauc.roc_auc_score(y, ref)) < TOL


def test_one_class_gives_nan_with_the_warning(spark, rng):
    df = _frame(spark, {"label": np.ones(50, int), "score": rng.random(50)}, 3)
    with pytest.warns(fastauc.UndefinedMetricWarning, match="Only one class"):
        assert np.isnan(fs.roc_auc_score(df, "label", "score"))


def test_bad_columns_raise_before_any_job(spark, rng):
    df = _frame(spark, {"label": rng.integers(0, 3, 100), "score": rng.random(100),
                        "name": ["a"] * 100}, 2)
    with pytest.raises(ValueError, match="no column 'missing'"):
        fs.roc_auc_score(df, "label", "missing")
    with pytest.raises(ValueError, match="'name' has type string; it must be numeric"):
        fs.roc_auc_score(df, "label", "name")
    with pytest.raises(ValueError, match="multiclass|binary"):
        fs.roc_auc_score(df, "label", "score")
    with pytest.raises(ValueError, match="Found array with 0 sample"):
        fs.roc_auc_score(df.limit(0), "label", "score")


def test_nulls_nan_and_bad_weights_name_the_column(spark, rng):
    from pyspark.sql import functions as F

    base = _frame(spark, {"label": rng.integers(0, 2, 100), "score": rng.random(100),
                          "w": rng.random(100)}, 1)
    nulls = base.withColumn("score", F.when(F.col("score") > 0.9, None)
                            .otherwise(F.col("score")))
    with pytest.raises(ValueError, match="y_score \\(column 'score'\\) has a null at row"):
        fs.roc_auc_score(nulls, "label", "score")
    nan = base.withColumn("score", F.when(F.col("score") > 0.9, float("nan"))
                          .otherwise(F.col("score")))
    with pytest.raises(ValueError, match="Input y_score contains NaN.*Spark partition 0"):
        fs.roc_auc_score(nan, "label", "score")
    with pytest.raises(ValueError, match="negative"):
        fs.roc_auc_score(base.withColumn("w", -F.col("w")), "label", "score",
                         sample_weight="w")


def test_warm_executors(spark):
    seconds = fs.warm_executors(spark, tasks=2)
    assert len(seconds) == 2 and all(t >= 0 for t in seconds)


def test_the_same_call_twice_gives_the_same_bits(spark, rng):
    """Tasks are pure: each job recomputes its partitions from the source, and
    the same call twice gives the same bits."""
    y, s, w = _data(rng, 2000)
    df = _frame(spark, {"label": y, "score": s, "w": w}, 5)
    first = fs.roc_auc_score(df, "label", "score", sample_weight="w")
    assert fs.roc_auc_score(df, "label", "score", sample_weight="w") == first


@pytest.mark.parametrize("partitions", [1, 7])
def test_curves_thresholds_and_log_loss_equal_in_memory(spark, rng, partitions, monkeypatch):
    """The same points (each range's from the weight above it), the same best
    threshold (the highest among equals) and the same log loss."""
    from fastauc._adapters import ranges

    monkeypatch.setattr(ranges, "RANGE_ROWS", 900)  # several key ranges
    y, s, w = _data(rng)
    s = np.round(s, 3).astype(np.float32)
    df = _frame(spark, {"label": y, "score": s, "w": w}, partitions).cache()
    assert df.schema["score"].dataType.simpleString() == "float"
    cases = ((fs.roc_curve, fastauc.roc_curve, True),
             (fs.roc_curve, fastauc.roc_curve, False),
             (fs.precision_recall_curve, fastauc.precision_recall_curve, True))
    for ours, ref, drop in cases:
        got = ours(df, "label", "score", sample_weight="w", drop_intermediate=drop)
        want = ref(y, s, sample_weight=w, drop_intermediate=drop)
        for a, b in zip(got, want):
            assert a.shape == b.shape and a.dtype == b.dtype
            np.testing.assert_allclose(a, b, rtol=TOL, atol=TOL)
    # thinned on the executors: about max_points points, every one exact
    fpr, tpr, _ = fs.roc_curve(df, "label", "score", drop_intermediate=False, max_points=40)
    full = fastauc.roc_curve(y, s, drop_intermediate=False)
    exact = set(zip(np.round(full[0], 12), np.round(full[1], 12)))
    assert 20 <= len(fpr) <= 40 + min(partitions, -(-len(y) // 900)) + 1
    assert all((round(a, 12), round(b, 12)) in exact for a, b in zip(fpr, tpr))
    for metric, kw in (("f1", {}), ("cost", {"cost_fp": 1.0, "cost_fn": 4.0})):
        got = fs.best_threshold(df, "label", "score", sample_weight="w", metric=metric, **kw)
        ref = fastauc.best_threshold(y, s, sample_weight=w, metric=metric, **kw)
        assert got.threshold == ref.threshold and got.metric == ref.metric
        assert got.value == pytest.approx(ref.value, abs=TOL)
    got, ref = (fs.threshold_metrics(df, "label", "score", sample_weight="w"),
                fastauc.threshold_metrics(y, s, sample_weight=w))
    np.testing.assert_array_equal(got.threshold, ref.threshold)
    for name in ("tp", "fp", "tn", "fn", "f1", "mcc"):
        np.testing.assert_allclose(getattr(got, name), getattr(ref, name), rtol=TOL, atol=TOL)
    for x, kw in (("all", {}), ([0.5, 0.9], {"input": "specificity"})):
        got = fs.coords(df, "label", "score", x, sample_weight="w", ret="all", **kw)
        ref = fastauc.coords(y, s, x, sample_weight=w, ret="all", **kw)
        for name in ref:
            np.testing.assert_allclose(got[name], ref[name], rtol=TOL, atol=TOL)
    p = 1 / (1 + np.exp(-s.astype(np.float64)))
    dfc = _frame(spark, {"label": y, "p": p, "w": w}, partitions)
    assert fs.brier_score_loss(dfc, "label", "p", sample_weight="w") == pytest.approx(
        fastauc.brier_score_loss(y, p, sample_weight=w), rel=1e-12)
    assert fs.calibration_error(dfc, "label", "p", sample_weight="w", norm="l2") == \
        pytest.approx(fastauc.calibration_error(y, p, sample_weight=w, norm="l2"), rel=1e-12)
    got = fs.brier_decomposition(dfc, "label", "p", sample_weight="w")
    ref = fastauc.brier_decomposition(y, p, sample_weight=w)
    assert got.miscalibration == pytest.approx(ref.miscalibration, rel=1e-10, abs=1e-14)
    got = fs.reliability_curve(dfc, "label", "p", sample_weight="w")
    ref = fastauc.reliability_curve(y, p, sample_weight=w)
    np.testing.assert_allclose(got.prob_true, ref.prob_true, rtol=1e-10, atol=1e-14)
    dfp = _frame(spark, {"label": y, "p": p, "w": w}, partitions).cache()
    for weight, ww, normalize in ((None, None, True), ("w", w, False)):
        assert fs.log_loss(dfp, "label", "p", sample_weight=weight, normalize=normalize) == \
            pytest.approx(fastauc.log_loss(y, p, sample_weight=ww, normalize=normalize),
                          rel=TOL)
    df.unpersist()
    dfp.unpersist()


def test_curve_and_threshold_errors(spark, rng):
    y, s, _ = _data(rng, 500)
    labels = np.where(y == 1, "sick", "well")
    df = _frame(spark, {"label": labels, "score": s}, 3)
    with pytest.raises(ValueError, match="pos_label is not specified"):
        fs.roc_curve(df, "label", "score")
    for a, b in zip(fs.roc_curve(df, "label", "score", pos_label="sick"),
                    fastauc.roc_curve(labels, s, pos_label="sick")):
        np.testing.assert_allclose(a, b, rtol=TOL, atol=TOL)
    with pytest.raises(ValueError, match="max_points"):
        fs.roc_curve(df, "label", "score", pos_label="sick", max_points=1)
    with pytest.raises(ValueError, match="cost_fp"):
        fs.best_threshold(df, "label", "score", metric="cost", pos_label="sick")
    with pytest.raises(ValueError, match="no column 'nope'"):
        fs.log_loss(df, "label", "nope")
    bad = _frame(spark, {"label": y, "p": s}, 3)  # scores outside [0, 1]
    with pytest.raises(ValueError, match=r"partition \d"):
        fs.log_loss(bad, "label", "p")


def test_chunks_put_together_in_any_order(rng):
    """Blobs cut into chunks (a few a batch) come back whole, whatever order
    the chunks and batches arrive in; an empty blob is one empty chunk."""
    import pyarrow as pa

    from fastauc.spark.ranges import chunk_batches, joined

    items = [((p, kind), rng.bytes(int(n))) for p, kind, n in
             [(3, 0, 0), (3, 1, 1000), (0, 2, 999), (1, 1, 37)]]
    batches = list(chunk_batches(("part", "kind"), items, size=100))
    assert [len(b) for b in batches] == [8, 8, 6]  # 1 + 10 + 10 + 1 chunks
    assert all(len(d) <= 100 for b in batches for d in b.column("data").to_pylist())
    rows = pa.Table.from_batches(batches).to_pylist()
    order = rng.permutation(len(rows))
    shuffled = pa.Table.from_pylist([rows[i] for i in order])
    got = joined([shuffled], ("part", "kind"))
    assert list(got) == sorted(k for k, _ in items)
    assert got == dict(items)


@pytest.mark.parametrize("partitions", [1, 24])
def test_paired_delong_equals_in_memory(spark, rng, partitions, monkeypatch):
    """Every row's placement under each model comes back to its partition by
    position: the covariance of three columns and the paired test as in memory."""
    from fastauc._adapters import ranges

    monkeypatch.setattr(ranges, "RANGE_ROWS", 900)  # several key ranges
    if partitions > 1:  # every value cut into many chunks, several batches of them
        monkeypatch.setattr(fs.ranges, "CHUNK_BYTES", 1500)
    y, s, w = _data(rng)
    other = np.round(s + rng.standard_normal(len(s)), 1)  # ties of their own
    third = -s  # a model worse than chance
    df = _frame(spark, {"label": y, "a": s, "b": other, "c": third, "w": w}, partitions).cache()
    for weight, ww in ((None, None), ("w", w)):
        aucs, cov = fs.delong_covariance(df, "label", ["a", "b", "c"], sample_weight=weight)
        ref_aucs, ref_cov = fastauc.delong_covariance(y, np.column_stack([s, other, third]),
                                                      sample_weight=ww)
        np.testing.assert_allclose(aucs, ref_aucs, rtol=TOL)
        np.testing.assert_allclose(cov, ref_cov, rtol=TOL, atol=1e-18)
    got = fs.delong_test(df, "label", "a", "b", alternative="greater", sample_weight="w")
    ref = fastauc.delong_test(y, s, other, alternative="greater", sample_weight=w)
    np.testing.assert_allclose([got.statistic, got.pvalue, got.low, got.high],
                               [ref.statistic, ref.pvalue, ref.low, ref.high], rtol=TOL)
    df.unpersist()


def test_delong_labels_and_errors(spark, rng):
    y, s, _ = _data(rng, 600)
    labels = np.where(y == 1, "yes", "no")
    df = _frame(spark, {"label": labels, "a": s, "b": s[::-1].copy()}, 3)
    got = fs.delong_test(df, "label", "a", "b")
    ref = fastauc.delong_test(labels, s, s[::-1].copy())
    assert got.pvalue == pytest.approx(ref.pvalue, rel=TOL)
    assert fs.delong_test(df, "label", "a", "a").pvalue == 1.0  # the same scores
    with pytest.raises(ValueError, match="no column 'zz'"):
        fs.delong_covariance(df, "label", ["a", "zz"])
    with pytest.raises(ValueError, match="alternative"):
        fs.delong_test(df, "label", "a", "b", alternative="bigger")


def test_without_grouped_arrow_as_on_pyspark_3_5(spark, rng, monkeypatch):
    """pyspark 3.5 has no groupBy().applyInArrow: the merges then go through
    applyInPandas, with the same numbers."""
    from fastauc.spark import ranges

    monkeypatch.setattr(ranges, "ARROW_GROUPS", False)
    y, s, w = _data(rng, 1500)
    df = _frame(spark, {"label": y, "a": s, "b": np.round(s * s, 2), "w": w}, 5)
    assert abs(fs.roc_auc_score(df, "label", "a", sample_weight="w")
               - fastauc.roc_auc_score(y, s, sample_weight=w)) < TOL
    got = fs.delong_test(df, "label", "a", "b")
    assert got.pvalue == pytest.approx(fastauc.delong_test(y, s, np.round(s * s, 2)).pvalue,
                                       rel=TOL)


def _collected(df, *names):
    """The columns in the rows' order (the order that defines their positions)."""
    rows = df.collect()
    return [np.array([r[c] for r in rows]) for c in names]


@pytest.mark.parametrize("partitions", [1, 7])
def test_poisson_bootstrap_equals_in_memory(spark, rng, partitions, monkeypatch):
    """Each replicate counts row i by the seed, the replicate and i only: the
    in-memory Poisson replicates, for any partitioning and key ranges."""
    from fastauc._adapters import ranges

    monkeypatch.setattr(ranges, "RANGE_ROWS", 900)  # several key ranges
    y, s, w = _data(rng, 3000)
    df = _frame(spark, {"label": y, "a": s, "b": np.round(s + rng.standard_normal(len(s)), 1),
                        "w": w}, partitions).cache()
    yy, aa, bb, ww = _collected(df, "label", "a", "b", "w")
    got = fs.bootstrap_ci(df, "label", "a", sample_weight="w", n_resamples=150,
                          random_state=7)
    ref = fastauc.bootstrap_ci(yy, aa, sample_weight=ww, n_resamples=150, random_state=7,
                               scheme="poisson")
    np.testing.assert_allclose(got.replicates, ref.replicates, rtol=TOL)
    np.testing.assert_allclose([got.estimate, got.low, got.high, got.se],
                               [ref.estimate, ref.low, ref.high, ref.se], rtol=TOL)
    got = fs.bootstrap_test(df, "label", "a", "b", n_resamples=100, random_state=3,
                            method="basic", alternative="greater")
    ref = fastauc.bootstrap_test(yy, aa, bb, n_resamples=100, random_state=3, method="basic",
                                 alternative="greater", scheme="poisson")
    np.testing.assert_allclose(got.replicates, ref.replicates, rtol=TOL)
    assert got.pvalue == pytest.approx(ref.pvalue, rel=TOL)
    df.unpersist()


def test_clustered_delong_and_bootstrap_equal_in_memory(spark, rng):
    """``cluster=`` (a column): each partition sums its placements per cluster,
    the driver adds them up by id (a cluster in several partitions); the
    Poisson counts keyed by the cluster id give the in-memory replicates, in
    any row order."""
    y, s, w = _data(rng, 2500)
    ids = rng.integers(0, 300, len(y))
    b = np.round(s + rng.standard_normal(len(s)), 1)
    names = np.array([f"patient {i}" for i in ids])
    df = _frame(spark, {"label": y, "a": s, "b": b, "w": w, "c": ids, "cs": names}, 7).cache()
    for col, cluster in (("c", ids), ("cs", names)):
        aucs, cov = fs.delong_covariance(df, "label", ["a", "b"], sample_weight="w",
                                         cluster=col)
        ref = fastauc.delong_covariance(y, np.column_stack((s, b)), sample_weight=w,
                                        cluster=cluster)
        np.testing.assert_allclose(aucs, ref[0], rtol=0, atol=TOL)
        np.testing.assert_allclose(cov, ref[1], rtol=1e-10, atol=TOL)
    ci, ref = fs.roc_auc_ci(df, "label", "a", cluster="c"), fastauc.roc_auc_ci(y, s, cluster=ids)
    assert (ci.se, ci.low, ci.high) == pytest.approx((ref.se, ref.low, ref.high), rel=1e-10)
    got, ref = (fs.delong_test(df, "label", "a", "b", cluster="cs"),
                fastauc.delong_test(y, s, b, cluster=names))
    assert (got.se, got.statistic) == pytest.approx((ref.se, ref.statistic), rel=1e-9)
    got = fs.bootstrap_test(df, "label", "a", "b", cluster="cs", n_resamples=30,
                            random_state=2)
    ref = fastauc.bootstrap_test(y, s, b, cluster=names, n_resamples=30, random_state=2,
                                 scheme="poisson")
    np.testing.assert_allclose(got.replicates, ref.replicates, rtol=0, atol=TOL)
    with pytest.raises(ValueError, match="cluster: no column 'nope'"):
        fs.roc_auc_ci(df, "label", "a", cluster="nope")
    df.unpersist()


def test_auc_over_time_equals_in_memory(spark, rng):
    """Each partition's tables per period, shuffled to buckets of periods with
    their windows' earlier periods: the in-memory windows and tests; labels
    not arrived yet (nulls) give the expected AUC."""
    n = 5000
    t = np.datetime64("2026-01-01") + rng.integers(0, 8 * 24, n) * np.timedelta64(1, "h")
    day = (t - t.min()) // np.timedelta64(1, "D")
    y = rng.integers(0, 2, n).astype(float)
    p = np.round(1 / (1 + np.exp(-(y * (1.5 - 0.12 * day) + rng.normal(size=n) - 0.7))), 2)
    w = rng.choice([0.5, 1.0, 2.0], n)
    y[day >= 7] = np.nan
    df = _frame(spark, {"label": y, "p": p, "w": w, "ts": pd.to_datetime(t)}, 7).cache()
    for kw in ({"window": "2D"}, {"reference": -2, "alternative": "two-sided"},
               {"reference": (np.datetime64("2026-01-02"), np.datetime64("2026-01-04"))}):
        ref = fastauc.auc_over_time(y, p, t, freq="1D", sample_weight=w, **kw)
        got = fs.auc_over_time(df, "label", "p", "ts", freq="1D", sample_weight="w", **kw)
        np.testing.assert_allclose(got.auc, ref.auc, rtol=1e-12, atol=1e-14)
        np.testing.assert_allclose(got.se, ref.se, rtol=1e-9)
        np.testing.assert_allclose(got.expected_auc, ref.expected_auc, rtol=1e-12)
        np.testing.assert_allclose(got.pvalue_adjusted, ref.pvalue_adjusted, rtol=1e-8)
        assert got.flag.tolist() == ref.flag.tolist()
        np.testing.assert_array_equal(got.n, ref.n)
        np.testing.assert_array_equal(got.start, ref.start)
    with pytest.raises(ValueError, match="no column 'nope'"):
        fs.auc_over_time(df, "label", "p", "nope", freq="1D")
    df.unpersist()


def test_bootstrap_positions_follow_the_columns_read(spark, rng):
    """An uncached round-robin repartition deals out rows sorted by the columns
    it reads, so df.collect() and df.select(...).collect() differ in order.
    Positions are the order of the call's own columns (label, scores,
    weight), and both models of a paired test number the rows alike."""
    y, s, w = _data(rng, 2000)
    b = np.round(s + rng.standard_normal(len(s)), 1)
    df = _frame(spark, {"label": y, "a": s, "b": b, "w": w, "other": rng.random(len(y))}, 7)
    yy, aa, ww = _collected(df.select("label", "a", "w"), "label", "a", "w")
    got = fs.bootstrap_ci(df, "label", "a", sample_weight="w", n_resamples=80, random_state=4)
    ref = fastauc.bootstrap_ci(yy, aa, sample_weight=ww, n_resamples=80, random_state=4,
                               scheme="poisson")
    np.testing.assert_allclose(got.replicates, ref.replicates, rtol=TOL)
    yy, aa, bb = _collected(df.select("label", "a", "b"), "label", "a", "b")
    got = fs.bootstrap_test(df, "label", "a", "b", n_resamples=80, random_state=4)
    ref = fastauc.bootstrap_test(yy, aa, bb, n_resamples=80, random_state=4, scheme="poisson")
    np.testing.assert_allclose(got.replicates, ref.replicates, rtol=TOL)


def test_bootstrap_options_raise_before_any_job(spark, rng):
    y, s, _ = _data(rng, 300)
    df = _frame(spark, {"label": y, "a": s}, 2)
    with pytest.raises(ValueError, match="scheme='poisson'"):
        fs.bootstrap_ci(df, "label", "a", scheme="multinomial")
    with pytest.raises(ValueError, match="bca"):
        fs.bootstrap_ci(df, "label", "a", method="bca")
    with pytest.raises(ValueError, match="alternative"):
        fs.bootstrap_test(df, "label", "a", "a", alternative="up")


def test_a_long_curve_comes_back_in_chunks(spark, rng, monkeypatch):
    """A curve is cut into chunks and fetched a partition at a time, so no
    job returns more than spark.driver.maxResultSize (here: as if 64 KiB)."""
    from fastauc.spark import ranges

    monkeypatch.setattr(ranges, "result_limit", lambda session: 1 << 16)
    n = 30_000  # 720 kB of points: a dozen chunks of 64 kB
    y, s = rng.integers(0, 2, n), rng.standard_normal(n)
    df = _frame(spark, {"label": y, "score": s}, 3)
    got = fs.roc_curve(df, "label", "score", drop_intermediate=False)
    for a, b in zip(got, fastauc.roc_curve(y, s, drop_intermediate=False)):
        np.testing.assert_array_equal(a, b)
    assert ranges.result_limit(spark) == 1 << 16
    monkeypatch.undo()
    assert ranges.result_limit(spark) == 64 << 20  # the session's 64m


_KILLED_WORKER = """
import json, os, signal, sys
import numpy as np
from pyspark.sql import SparkSession, functions as F
from pyspark.sql.types import DoubleType
import fastauc, fastauc.spark as fs

spark = (SparkSession.builder.master("local[2,3]").config("spark.ui.enabled", "false")
         .config("spark.sql.shuffle.partitions", "4").getOrCreate())
spark.sparkContext.setLogLevel("OFF")
rng = np.random.default_rng(5)
y = rng.integers(0, 2, 6000)
s = np.round(rng.standard_normal(6000) + y, 2)
base = spark.createDataFrame([(int(a), float(b)) for a, b in zip(y, s)], "label long, raw double")
mark = sys.argv[1]

@F.udf(DoubleType())
def killing(x):
    from pyspark import TaskContext
    ctx = TaskContext.get()
    if ctx.partitionId() == 2 and ctx.attemptNumber() == 0:
        open(mark, "a").write("killed\\n")
        os.kill(os.getpid(), signal.SIGKILL)  # the Python worker dies mid-task
    return x

df = base.repartition(5).withColumn("score", killing("raw"))
got = fs.roc_auc_score(df, "label", "score")
ci = fs.roc_auc_ci(df, "label", "score")
rows = df.select("label", "score").collect()
yy, ss = np.array([r.label for r in rows]), np.array([r.score for r in rows])
print(json.dumps({"got": got, "ref": fastauc.roc_auc_score(yy, ss), "high": ci.high,
                  "ref_high": fastauc.roc_auc_ci(yy, ss).high}))
"""


def test_a_killed_python_worker_is_retried_with_the_same_result(tmp_path):
    """local[2,3]: a task may fail three times.  A Python worker killed in the
    middle of the first job's task is retried, and the result is the
    in-memory one (the tasks are pure).  Its own process: one SparkContext
    a process, and this one runs with retries."""
    import json
    import subprocess
    import sys

    mark = tmp_path / "killed"
    out = subprocess.run([sys.executable, "-c", _KILLED_WORKER, str(mark)], capture_output=True,
                         text=True, timeout=600)
    assert out.returncode == 0, out.stderr[-3000:]
    res = json.loads(out.stdout.strip().splitlines()[-1])
    assert mark.read_text().count("killed") >= 1  # the worker did die
    assert abs(res["got"] - res["ref"]) < TOL and abs(res["high"] - res["ref_high"]) < TOL


@pytest.mark.parametrize("partitions", [1, 7])
def test_report_equals_in_memory(spark, rng, partitions, monkeypatch):
    """Every model's section (AUC, interval, AP, log loss, best thresholds,
    lift) and the paired comparisons, as in memory; a pos_label; and the
    Poisson bootstrap's intervals."""
    from fastauc._adapters import ranges

    from .compare import assert_close

    monkeypatch.setattr(ranges, "RANGE_ROWS", 900)
    y, s, w = _data(rng, 3000)
    p = np.round(1 / (1 + np.exp(-s)), 3)  # a probability: with a log loss
    q = np.round(rng.normal(size=len(y)) + 0.5 * y, 2)  # not one
    labels = np.where(y == 1, "sick", "well")
    df = _frame(spark, {"label": labels, "p": p, "q": q, "w": w}, partitions).cache()
    got = fs.report(df, "label", ["p", "q"], weight="w", pos_label="sick")
    ref = fastauc.report(labels, np.column_stack((p, q)), sample_weight=w, names=["p", "q"],
                         pos_label="sick")
    assert_close(got.to_dict(), ref.to_dict())
    assert str(got) == str(ref)
    ll, pp = _collected(df, "label", "p")
    got = fs.report(df, "label", "p", ci="bootstrap", n_resamples=100, random_state=2,
                    pos_label="sick")
    ref = fastauc.report(ll, pp, ci="bootstrap", n_resamples=100, random_state=2,
                         scheme="poisson", pos_label="sick", names=["p"])
    assert_close(got.to_dict(), ref.to_dict())
    df.unpersist()


def test_report_options_raise_before_any_job(spark, rng):
    y, s, _ = _data(rng, 200)
    df = _frame(spark, {"label": y, "a": s}, 2)
    with pytest.raises(ValueError, match="names has 1 entries for 2"):
        fs.report(df, "label", ["a", "a"], names=["x"])
    with pytest.raises(ValueError, match="no column 'b'"):
        fs.report(df, "label", ["a", "b"])
    with pytest.raises(TypeError, match="ci='delong'"):
        fs.report(df, "label", "a", n_resamples=10)
    with pytest.raises(ValueError, match="scheme='poisson'"):
        fs.report(df, "label", "a", ci="bootstrap", scheme="multinomial")


def test_cli_report_through_spark(spark, rng, tmp_path):
    """``fastauc report 'dir/*.parquet' --spark`` and ``--spark-table NAME``:
    the in-memory report (the session running here is the one they use)."""
    import argparse
    import io
    import json

    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    from fastauc.cli import CLIError, _report_parser, run_report

    from .compare import assert_close

    y, s, w = _data(rng, 3000)
    p = np.round(1 / (1 + np.exp(-s)), 3)
    label = np.where(y == 1, "sick", "well")
    region = rng.choice(["north", "south"], len(y))
    for i, a in enumerate(range(0, len(y), 1000)):
        pq.write_table(pa.table({"label": label[a:a + 1000], "p": p[a:a + 1000],
                                 "q": s[a:a + 1000], "w": w[a:a + 1000],
                                 "region": region[a:a + 1000]}),
                       tmp_path / f"part{i}.parquet")
    parser = argparse.ArgumentParser()
    _report_parser(parser.add_subparsers(dest="command"))
    ref = fastauc.report(label, np.column_stack((p, s)), sample_weight=w, pos_label="sick",
                         names=["p", "q"])
    common = ["--target", "label", "--pos-label", "sick", "--score", "p", "--score", "q",
              "--weight", "w", "--json", "--spark"]
    out = io.StringIO()
    assert run_report(parser.parse_args(["report", str(tmp_path / "*.parquet"), *common]),
                      out=out) == 0
    assert_close(json.loads(out.getvalue()), ref.to_dict())
    spark.read.parquet(str(tmp_path)).createOrReplaceTempView("scored")
    out = io.StringIO()
    assert run_report(parser.parse_args(["report", *common, "--spark-table", "scored"]),
                      out=out) == 0
    assert_close(json.loads(out.getvalue()), ref.to_dict())
    # --by: each model's table per group, its groups named by the column
    out = io.StringIO()
    assert run_report(parser.parse_args(["report", str(tmp_path), *common, "--by", "region"]),
                      out=out) == 0
    ref = fastauc.report(label, np.column_stack((p, s)), sample_weight=w, pos_label="sick",
                         names=["p", "q"], by=region)
    got, want = json.loads(out.getvalue()), ref.to_dict()
    assert list(got["by_group"]["p"])[0] == "region"
    want["by_group"] = {m: {("region" if k == "group" else k): x for k, x in g.items()}
                        for m, g in want["by_group"].items()}
    assert_close(got, want)
    for extra, match in ((["--by", "nope"], "no column 'nope'"),
                         (["--ci", "bootstrap"], "--scheme poisson"),
                         (["--dask"], "one engine")):
        with pytest.raises(CLIError, match=match):
            run_report(parser.parse_args(["report", str(tmp_path), *common, *extra]))
    with pytest.raises(CLIError, match="could not read"):
        run_report(parser.parse_args(["report", *common, "--spark-table", "no_such_table"]))


@pytest.mark.parametrize("partitions", [1, 7])
def test_by_group_equals_in_memory(spark, rng, partitions, monkeypatch):
    """One group column or two, weights, a pos_label, a one-class group (the
    warning, once), null group labels (an error, or left out with dropna)."""
    from fastauc._adapters import ranges

    monkeypatch.setattr(ranges, "RANGE_ROWS", 700)  # several buckets of groups
    y, s, w = _data(rng, 3000)
    region = rng.choice(["north", "south", "east", "west"], len(y))
    tier = rng.integers(0, 3, len(y))
    y[region == "west"] = 1  # a group of one class
    df = _frame(spark, {"label": y, "s": s, "w": w, "region": region, "tier": tier},
                partitions).cache()
    for groups, ref_groups in (("region", region), (["region", "tier"], (region, tier))):
        with pytest.warns(fastauc.UndefinedMetricWarning, match="groups have a single class"):
            got = fs.by_group(df, "label", "s", groups, sample_weight="w", pos_label=1)
        with pytest.warns(fastauc.UndefinedMetricWarning):
            ref = fastauc.by_group(y, s, ref_groups, sample_weight=w, pos_label=1)
        names = [groups] if isinstance(groups, str) else groups
        assert list(got.groups) == names
        for a, b in zip(got.groups.values(), ref.groups.values()):
            np.testing.assert_array_equal(a, b)
        for name in ("n", "n_pos", "n_neg"):
            np.testing.assert_array_equal(getattr(got, name), getattr(ref, name))
        for name in ("pos_weight", "neg_weight", "auc", "auc_low", "auc_high",
                     "average_precision"):
            np.testing.assert_allclose(getattr(got, name), getattr(ref, name), rtol=TOL,
                                       atol=TOL, equal_nan=True)
    df.unpersist()
    holes = _frame(spark, {"label": y, "s": s, "region": np.where(tier == 0, None, region)},
                   partitions)
    with pytest.raises(ValueError, match="missing label"):
        fs.by_group(holes, "label", "s", "region")
    keep = tier != 0
    with pytest.warns(fastauc.UndefinedMetricWarning):
        got = fs.by_group(holes, "label", "s", "region", dropna=True)
    with pytest.warns(fastauc.UndefinedMetricWarning):
        ref = fastauc.by_group(y[keep], s[keep], region[keep])
    np.testing.assert_allclose(got.auc, ref.auc, rtol=TOL, equal_nan=True)
    with pytest.raises(ValueError, match="no column 'nope'"):
        fs.by_group(holes, "label", "s", ["region", "nope"])


_CONNECT = """
import json, sys, warnings
import numpy as np, pandas as pd
warnings.simplefilter("ignore", FutureWarning)  # pyspark.sql.connect on pandas 3
from pyspark.sql import SparkSession
import fastauc, fastauc.spark as fs

spark = (SparkSession.builder.remote("local[2]").config("spark.ui.enabled", "false")
         .config("spark.sql.shuffle.partitions", "4").getOrCreate())
rng = np.random.default_rng(11)
n = 3000
y = rng.integers(0, 2, n)
a = np.round(rng.standard_normal(n) + y, 1)
a[rng.random(n) < 0.3] = 0.5
b = np.round(a + rng.standard_normal(n), 2)
w = rng.random(n)
g = rng.choice(["x", "y", "z"], n)
df = spark.createDataFrame(pd.DataFrame({"label": y, "a": a, "b": b, "w": w, "g": g}))
df = df.repartition(7).cache()
rows = df.collect()
yy, aa, bb, ww = (np.array([r[c] for r in rows]) for c in ("label", "a", "b", "w"))
out = {"session": type(spark).__module__, "pairs": {}, "errors": {}}
def pair(name, got, ref):
    out["pairs"][name] = [np.asarray(got, float).ravel().tolist(),
                          np.asarray(ref, float).ravel().tolist()]
pair("auc", fs.roc_auc_score(df, "label", "a", sample_weight="w"),
     fastauc.roc_auc_score(y, a, sample_weight=w))
pair("ap", fs.average_precision_score(df, "label", "a"), fastauc.average_precision_score(y, a))
ci, ref = fs.roc_auc_ci(df, "label", "a"), fastauc.roc_auc_ci(y, a)
pair("ci", [ci.low, ci.high, ci.se], [ref.low, ref.high, ref.se])
pair("delong", fs.delong_test(df, "label", "a", "b").pvalue, fastauc.delong_test(y, a, b).pvalue)
pair("u", fs.mann_whitney_u(df, "label", "a").pvalue, fastauc.mann_whitney_u(y, a).pvalue)
for i, (p, q) in enumerate(zip(fs.roc_curve(df, "label", "b"), fastauc.roc_curve(y, b))):
    pair(f"roc_curve[{i}]", p, q)
pair("best", fs.best_threshold(df, "label", "a").threshold, fastauc.best_threshold(y, a).threshold)
pair("log_loss", fs.log_loss(df, "label", "w"), fastauc.log_loss(y, w))
got = fs.bootstrap_ci(df, "label", "a", sample_weight="w", n_resamples=60, random_state=2)
ref = fastauc.bootstrap_ci(yy, aa, sample_weight=ww, n_resamples=60, random_state=2,
                           scheme="poisson")
pair("bootstrap", got.replicates, ref.replicates)
rep = fs.report(df, target="label", scores=["a", "b"], weight="w")
ref = fastauc.report(y, {"a": a, "b": b}, sample_weight=w)
pair("report", [m.auc for m in rep.models] + [m.auc_high for m in rep.models],
     [m.auc for m in ref.models] + [m.auc_high for m in ref.models])
pair("by_group", fs.by_group(df, "label", "a", "g").auc, fastauc.by_group(y, a, g).auc)
out["warm"] = len(fs.warm_executors(spark, tasks=2))
for name, call in (("column", lambda: fs.roc_auc_score(df, "label", "nope")),
                   ("labels", lambda: fs.roc_auc_score(  # three labels: seen in a worker
                       df.withColumn("label", df.label + (df.a > 1).cast("long")), "label", "a"))):
    try:
        call()
    except Exception as exc:
        out["errors"][name] = [type(exc).__name__, str(exc)]
print(json.dumps(out))
"""


def test_spark_connect(tmp_path):
    """The same calls over Spark Connect (a local Connect server, in its own
    process: a Connect session and a classic one do not share a process
    here): only the DataFrame API is used, so the numbers are the in-memory
    ones, and errors raised in a worker come back as ValueError."""
    import json
    import subprocess
    import sys

    if int(pyspark.__version__.split(".")[0]) < 4:
        pytest.skip("a local Spark Connect server needs pyspark>=4 (3.5 fetches its jar)")
    for name in ("grpc", "google.rpc", "zstandard"):
        pytest.importorskip(name)
    out = subprocess.run([sys.executable, "-c", _CONNECT], capture_output=True, text=True,
                         timeout=600, cwd=tmp_path)
    assert out.returncode == 0, out.stderr[-3000:]
    res = json.loads(out.stdout.strip().splitlines()[-1])
    assert res["session"] == "pyspark.sql.connect.session"
    for name, (got, ref) in res["pairs"].items():
        np.testing.assert_allclose(got, ref, rtol=TOL, atol=TOL, err_msg=name)
    assert res["warm"] == 2
    assert res["errors"]["column"][0] == "ValueError"
    assert "no column 'nope'" in res["errors"]["column"][1]
    assert res["errors"]["labels"][0] == "ValueError"
    assert "multiclass format is not supported" in res["errors"]["labels"][1]


def test_one_class_bootstrap_warns_and_gives_nan_as_in_memory(spark, rng):
    """One class: scikit-learn's rule for roc_auc_score (a warning, NaN), as in memory."""
    df = _frame(spark, {"label": np.ones(60, int), "a": rng.random(60), "b": rng.random(60)},
                3)
    with pytest.warns(fastauc.UndefinedMetricWarning, match="Only one class"):
        got = fs.bootstrap_ci(df, "label", "a", n_resamples=20, random_state=0)
    assert np.isnan([got.estimate, got.low, got.high, got.se]).all()
    assert got.n_dropped == 20 and np.isnan(got.replicates).all()
    with pytest.warns(fastauc.UndefinedMetricWarning, match="Only one class"):
        got = fs.bootstrap_test(df, "label", "a", "b", n_resamples=20, random_state=0)
    assert np.isnan([got.difference, got.low, got.high, got.se, got.pvalue]).all()


def test_report_calibration_block_and_refused_options(spark, rng, monkeypatch):
    from fastauc._adapters import ranges

    monkeypatch.setattr(ranges, "RANGE_ROWS", 900)
    y, s, w = _data(rng, 3000)
    p = np.round(1 / (1 + np.exp(-s)), 2)
    df = _frame(spark, {"y": y, "p": p, "w": w, "s": s}, 4).cache()
    cal = fs.report(df, "y", "p", weight="w").models[0].calibration
    d = fastauc.brier_decomposition(y, p, sample_weight=w)
    assert (cal["brier"], cal["miscalibration"], cal["discrimination"],
            cal["uncertainty"]) == pytest.approx(
        (d.brier, d.miscalibration, d.discrimination, d.uncertainty), abs=1e-12)
    assert cal["ece"] == pytest.approx(fastauc.calibration_error(y, p, sample_weight=w),
                                       abs=1e-12)
    with pytest.raises(ValueError, match="calibration=True needs probabilities"):
        fs.report(df, "y", "s", calibration=True)
    with pytest.raises(ValueError, match="not available in fastauc.spark.report"):
        fs.report(df, "y", "p", at_specificity=0.9)
