"""fastauc.spark on a real local[2] SparkSession (one per test session): the
in-memory numbers for any partitioning (1, 7 and 64 partitions, empty ones,
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


@pytest.mark.parametrize("partitions", [1, 7, 64])
def test_equal_in_memory_for_any_partitioning(spark, rng, partitions, monkeypatch):
    from fastauc._adapters import ranges

    monkeypatch.setattr(ranges, "RANGE_ROWS", 700)  # several key ranges
    y, s, w = _data(rng)
    df = _frame(spark, {"label": y, "score": s, "w": w}, partitions)
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
