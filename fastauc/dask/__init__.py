"""Exact metrics on Dask: range partitioning on the score key.

The same numbers as the in-memory functions, for any partitioning and any
number of workers; no step gathers the rows or the distinct scores on one
machine (``docs/guide/dask_spark.md``).  Needs the ``dask`` extra
(``pip install "fastauc[dask]"``); imported only when used.

The graph, for a score column in P partitions:

1. each partition is validated (errors name the global row position) and
   sorted once into its distinct-score table (an ``Accumulator``), and
   offers a few of its keys as a sample;
2. the pooled samples give K - 1 splitter keys (K about P): key ranges of
   about equal size, a score never split across two;
3. each partition's table is cut at the splitters, and the pieces of every
   range are merged (a tree of linear merges): range k's table holds every
   distinct score of the range, with its weight per class;
4. each range's class totals give, by suffix sums, the weight above it
   (``tp0``, ``fp0``), and each range is swept from there; the ranges' twice
   areas, average-precision numerators and DeLong moments add up exactly.

The paired DeLong test keeps each row's position in its partition's table
(the one sort carries it) and each range records where every piece's keys
went in its table, so the placements come back to the rows without a row
being looked up.  ``warm_workers(client)`` gets the kernels onto every
worker before the first call.

Functions take dask arrays, dask Series, or anything ``dask.array.asarray``
takes; ``compute=False`` returns a ``dask.delayed`` object instead of the
value.  The current ``distributed`` client runs the graph, or dask's local
scheduler when there is none.
"""

from .calibration import (brier_decomposition, brier_score_loss, calibration_error,
                          reliability_curve)
from .over_time import auc_over_time
from .deploy import warm_workers
from .inference import bootstrap_ci, bootstrap_test, delong_covariance, delong_test
from .metrics import (average_precision_score, best_threshold, coords, log_loss, mann_whitney_u,
                      precision_recall_curve, roc_auc_ci, roc_auc_score, roc_curve,
                      threshold_metrics)
from .report import by_group, report

__all__ = ["auc_over_time", "average_precision_score", "best_threshold", "bootstrap_ci",
           "bootstrap_test",
           "brier_decomposition", "brier_score_loss", "by_group", "calibration_error", "coords",
           "reliability_curve",
           "delong_covariance", "delong_test", "log_loss", "mann_whitney_u",
           "precision_recall_curve", "report", "roc_auc_ci", "roc_auc_score", "roc_curve",
           "threshold_metrics", "warm_workers"]
