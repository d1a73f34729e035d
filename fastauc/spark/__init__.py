"""Exact metrics on Spark: the in-memory numbers for data in Spark tables.

The same algorithm as ``fastauc.dask`` (``docs/guide/dask_spark.md``), its steps
shared with it (``fastauc._adapters.ranges``), run with the DataFrame API
only (``mapInArrow``, ``groupBy().applyInArrow``; no RDD, no
``SparkContext``), so that it also runs over Spark Connect:

1. each partition, as Arrow batches, is validated (a null or NaN names the
   column, the partition and the row) and sorted once into its
   distinct-score table; the driver receives its labels, rows per class and
   64 of its keys;
2. the pooled keys give K - 1 splitters (K about one per 2**21 rows, at most
   one per partition; no score is split);
3. each partition's table is cut at the splitters and the pieces of each key
   range are merged (``groupBy("range").applyInArrow``): a shuffle of tables,
   not of rows;
4. each range's class weights give the weight above it, and each range is
   swept from there; the driver adds up K sums.

Functions take a Spark DataFrame and column names.  Needs the ``spark``
extra (``pip install "fastauc[spark]"``); imported only when used.
"""

from .over_time import auc_over_time
from .calibration import (
    brier_decomposition,
    brier_score_loss,
    calibration_error,
    reliability_curve,
)
from .curves import (
    best_threshold,
    coords,
    log_loss,
    precision_recall_curve,
    roc_curve,
    threshold_metrics,
)
from .inference import bootstrap_ci, bootstrap_test, delong_covariance, delong_test
from .metrics import (
    average_precision_score,
    mann_whitney_u,
    roc_auc_ci,
    roc_auc_score,
    warm_executors,
)
from .report import by_group, report

__all__ = ["auc_over_time", "average_precision_score", "best_threshold", "bootstrap_ci",
           "bootstrap_test",
           "brier_decomposition", "brier_score_loss", "by_group", "calibration_error", "coords",
           "reliability_curve",
           "delong_covariance", "delong_test", "log_loss", "mann_whitney_u",
           "precision_recall_curve", "report", "roc_auc_ci", "roc_auc_score", "roc_curve",
           "threshold_metrics", "warm_executors"]
