"""fastauc.spark on rows read from Parquet, on a cluster of executors (issue 23).

    python benchmarks/spark_parquet.py [--rows 1e8] [--master 'local-cluster[2,1,4096]']
        [--path /tmp/fastauc_1e8.parquet]

Writes the Parquet files once (10% positives, scores normal + label, a
second model's scores the first's plus noise; 64 files), then times
fastauc.spark's roc_auc_score, roc_auc_ci, delong_test and
roc_curve(max_points=1000) reading them (nothing cached), one call each,
with ``spark.driver.maxResultSize=64m``.  ``local-cluster[2,1,4096]`` is
Spark's own test cluster: two executor processes of one core and 4 GiB each.
"""

from __future__ import annotations

import argparse
import os
import time


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", type=float, default=1e8)
    ap.add_argument("--master", default="local-cluster[2,1,4096]")
    ap.add_argument("--path", default="/tmp/fastauc_1e8.parquet")
    ap.add_argument("--executor-memory", default="4g")
    ap.add_argument("--only", default=None, help="run only the calls whose name has this")
    args = ap.parse_args(argv)
    n = int(args.rows)

    import pyspark
    from pyspark.sql import SparkSession
    from pyspark.sql import functions as F

    import fastauc.spark as fs

    os.environ.setdefault("SPARK_HOME", os.path.dirname(pyspark.__file__))
    spark = (SparkSession.builder.master(args.master)
             .config("spark.ui.enabled", "false")
             .config("spark.executor.memory", args.executor_memory)
             .config("spark.driver.memory", "4g")
             .config("spark.driver.maxResultSize", "64m")
             .config("spark.sql.shuffle.partitions", "64")
             .getOrCreate())
    spark.sparkContext.setLogLevel("ERROR")
    if not os.path.exists(args.path):
        t0 = time.perf_counter()
        (spark.range(0, n, 1, 64)
         .withColumn("label", (F.rand(1) < 0.1).cast("int"))
         .withColumn("score", F.randn(2) + F.col("label"))
         .withColumn("other", F.col("score") + F.randn(3))
         .drop("id").write.parquet(args.path))
        print(f"wrote {n:.0e} rows to {args.path} in {time.perf_counter() - t0:.1f} s")
    df = spark.read.parquet(args.path)
    print(f"warm_executors: {fs.warm_executors(spark, tasks=2)}")
    for name, call in (("roc_auc_score", lambda: fs.roc_auc_score(df, "label", "score")),
                       ("roc_auc_ci", lambda: fs.roc_auc_ci(df, "label", "score")),
                       ("roc_curve(max_points=1000)",
                        lambda: len(fs.roc_curve(df, "label", "score", max_points=1000)[0])),
                       ("delong_test (2 columns)",
                        lambda: fs.delong_test(df, "label", "score", "other").pvalue)):
        if args.only and args.only not in name:
            continue
        t0 = time.perf_counter()
        out = call()
        print(f"| `{name}` | {n:.0e} | {time.perf_counter() - t0:.1f} s | {out} |", flush=True)
    print(f"master {args.master}, executors {args.executor_memory}, driver 4g, maxResultSize 64m; "
          f"pyspark {pyspark.__version__}, Java "
          f"{spark.sparkContext._jvm.System.getProperty('java.version')}")
    spark.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
