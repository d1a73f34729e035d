"""fastauc.spark against Spark ML's BinaryClassificationEvaluator (issue 23).

n rows (default 1e7: 10% positives, scores normal + label, a second model's
scores the first's plus noise) made and cached in Spark itself, on
``local[2]`` with ``spark.driver.maxResultSize=64m`` (the driver never
receives the rows).  Times fastauc.spark's roc_auc_score, roc_auc_ci,
delong_test (two columns) and roc_curve (max_points=1000) against the
evaluator's exact mode (``numBins=0``) and its default (``numBins=1000``),
each the best of ``--repeat`` calls (the evaluator: one call, it takes
minutes), and prints a markdown table (``--write`` puts it in
``docs/spark_benchmarks.md``).

    python benchmarks/spark_benchmark.py [--rows 1e7] [--partitions 8] [--write]
"""

from __future__ import annotations

import argparse
import platform
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def best(fn, repeat):
    out, t_best = None, float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = fn()
        t_best = min(t_best, time.perf_counter() - t0)
    return t_best, out


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", type=float, default=1e7)
    ap.add_argument("--partitions", type=int, default=8)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--skip-evaluator", action="store_true")
    ap.add_argument("--write", action="store_true")
    ap.add_argument("--driver-memory", default="8g",
                    help="local[2] runs in the driver's JVM (Spark's default: 1g)")
    args = ap.parse_args(argv)
    n = int(args.rows)

    import pyspark
    from pyspark.ml.evaluation import BinaryClassificationEvaluator
    from pyspark.sql import SparkSession
    from pyspark.sql import functions as F

    import fastauc.spark as fs

    spark = (SparkSession.builder.master("local[2]")
             .config("spark.ui.enabled", "false")
             .config("spark.driver.memory", args.driver_memory)
             .config("spark.driver.maxResultSize", "64m")
             .config("spark.sql.shuffle.partitions", str(args.partitions))
             .getOrCreate())
    spark.sparkContext.setLogLevel("ERROR")
    df = (spark.range(0, n, 1, args.partitions)
          .withColumn("label", (F.rand(1) < 0.1).cast("int"))
          .withColumn("score", F.randn(2) + F.col("label"))
          .withColumn("other", F.col("score") + F.randn(3))
          .withColumn("labeld", F.col("label").cast("double"))
          .cache())
    df.count()
    fs.warm_executors(spark)
    fs.roc_auc_score(df.limit(1000), "label", "score")

    rows = []
    t_auc, auc = best(lambda: fs.roc_auc_score(df, "label", "score"), args.repeat)
    t_ci, ci = best(lambda: fs.roc_auc_ci(df, "label", "score"), args.repeat)
    t_test, test = best(lambda: fs.delong_test(df, "label", "score", "other"), args.repeat)
    t_curve, _ = best(lambda: fs.roc_curve(df, "label", "score", max_points=1000),
                      args.repeat)
    def count_rows(batches):
        import pyarrow as pa

        yield pa.RecordBatch.from_pydict({"n": [sum(b.num_rows for b in batches)]})

    t_floor, _ = best(lambda: df.select("label", "score").mapInArrow(count_rows, "n long")
                      .collect(), args.repeat)
    rows.append(("`fastauc.spark.roc_auc_score`", t_auc, f"{auc:.15f}", ""))
    rows.append(("a `mapInArrow` that only counts the rows (moving them to Python: the floor)",
                 t_floor, "", f"{t_floor / t_auc:.2f}x one AUC"))
    rows.append(("`fastauc.spark.roc_auc_ci`", t_ci, f"[{ci.low:.6f}, {ci.high:.6f}]",
                 f"{t_ci / t_auc:.2f}x one AUC"))
    rows.append(("`fastauc.spark.delong_test` (2 columns)", t_test, f"p = {test.pvalue:.3g}",
                 f"{t_test / t_auc:.2f}x one AUC"))
    rows.append(("`fastauc.spark.roc_curve(max_points=1000)`", t_curve, "",
                 f"{t_curve / t_auc:.2f}x one AUC"))
    if not args.skip_evaluator:
        for bins in (0, 1000):
            ev = BinaryClassificationEvaluator(rawPredictionCol="score", labelCol="labeld",
                                               metricName="areaUnderROC", numBins=bins)
            t_ev, value = best(lambda: ev.evaluate(df), 1)
            rows.append((f"`BinaryClassificationEvaluator(numBins={bins})`", t_ev,
                         f"{value:.15f} (differs by {abs(value - auc):.1e})",
                         f"fastauc {t_ev / t_auc:.1f}x faster"))
    lines = [f"n = {n:.0e} rows in {args.partitions} partitions, cached; `local[2]`, "
             f"`spark.driver.maxResultSize=64m`, driver memory {args.driver_memory}; best of "
             f"{args.repeat} (the evaluator: 1 call).", "",
             "| call | seconds | value | ratio |", "|---|---|---|---|"]
    lines += [f"| {name} | {t:.2f} | {val} | {ratio} |" for name, t, val, ratio in rows]
    java = spark.sparkContext._jvm.System.getProperty("java.version")
    lines += ["", f"pyspark {pyspark.__version__}, Java {java}, Python "
              f"{platform.python_version()}; "
              f"generated by `python benchmarks/spark_benchmark.py` on "
              f"{time.strftime('%Y-%m-%d')}."]
    text = "\n".join(lines)
    print(text)
    if args.write:
        name = "spark_benchmarks.md" if args.driver_memory == "8g" else \
            f"spark_benchmarks_driver_{args.driver_memory}.md"
        (ROOT / "docs" / name).write_text(
            "# fastauc.spark benchmarks\n\nDo not edit by hand: rerun the script.\n\n"
            + text + "\n")
    spark.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
