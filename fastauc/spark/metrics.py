"""Single-model metrics on Spark: AUC, average precision, DeLong's interval,
Mann-Whitney's test."""

from __future__ import annotations

import time

from .. import _validation as v
from .._adapters.docstrings import spark_doc
from .._adapters.ranges import ap_of, auc_interval, auc_of, mann_whitney_of
from .._stats import ALTERNATIVES as _ALTERNATIVES
from .ranges import auc_tallies, collect, tallies

@spark_doc
def roc_auc_score(df, y_true, y_score, *, sample_weight=None):
    """:func:`fastauc.roc_auc_score` (binary) of a Spark DataFrame's columns,
    exactly: the in-memory number for any partitioning.

    Parameters
    ----------
    {df}
    {y_true}
    {y_score}
    {sample_weight}

    Returns
    -------
    auc : float
        The area under the ROC curve, ties counted one half; NaN, with an
        ``UndefinedMetricWarning``, when one class is missing or weighs
        nothing.

    Raises
    ------
    ValueError
        A missing column or one of the wrong type (before any job starts), a
        null, NaN or infinite value (naming the column, the partition and
        the row), a label column with more than two values, bad weights.

    See Also
    --------
    fastauc.roc_auc_score : The in-memory function.
    fastauc.dask.roc_auc_score : The same on Dask.

    Examples
    --------
    >>> SESSION
    >>> auc = fastauc.spark.roc_auc_score(df, "label", "score")
    >>> abs(auc - fastauc.roc_auc_score(y, s)) < 1e-12
    True
    """
    return auc_of(auc_tallies(df, y_true, y_score, sample_weight))


@spark_doc
def average_precision_score(df, y_true, y_score, *, pos_label=1, sample_weight=None):
    """:func:`fastauc.average_precision_score` (binary) of a Spark
    DataFrame's columns, exactly.

    Parameters
    ----------
    {df}
    {y_true/pos_label}
    {y_score}
    {pos_label/ap}
    {sample_weight}

    Returns
    -------
    average_precision : float
        ``AP = sum_n (R_n - R_{n-1}) P_n`` over the distinct thresholds; 0,
        with a warning, when no row is positive.

    Raises
    ------
    ValueError
        As :func:`roc_auc_score`, and ``pos_label`` not among the labels.

    See Also
    --------
    fastauc.average_precision_score : The in-memory function.
    fastauc.dask.average_precision_score : The same on Dask.

    Examples
    --------
    >>> SESSION
    >>> ap = fastauc.spark.average_precision_score(df, "label", "score")
    >>> abs(ap - fastauc.average_precision_score(y, s)) < 1e-12
    True
    """
    return ap_of(tallies(df, y_true, y_score, sample_weight, positive=pos_label), pos_label)


@spark_doc
def roc_auc_ci(df, y_true, y_score, *, confidence_level=0.95, sample_weight=None,
               transform=None, cluster=None):
    """:func:`fastauc.roc_auc_ci` (DeLong) of a Spark DataFrame's columns: the
    moments of every key range's sweep add up to the whole data's.

    Parameters
    ----------
    {df}
    {y_true}
    {y_score}
    {confidence_level}
    {sample_weight/delong}
    {transform}
    {cluster/delong}

    Returns
    -------
    ci : fastauc.ConfidenceInterval
        ``estimate``, ``low``, ``high``, ``se``, ``method`` (``"delong"``)
        and ``confidence_level``: the Wald interval ``auc ± z * se`` with
        DeLong's standard error, clipped to [0, 1].

    Raises
    ------
    ValueError
        As :func:`roc_auc_score`, and a confidence level outside (0, 1).

    See Also
    --------
    fastauc.roc_auc_ci : The in-memory function.
    fastauc.dask.roc_auc_ci : The same on Dask.

    References
    ----------
    DeLong, E. R., DeLong, D. M. and Clarke-Pearson, D. L. (1988). Comparing
    the areas under two or more correlated receiver operating characteristic
    curves: a nonparametric approach. Biometrics 44(3).

    Examples
    --------
    >>> SESSION
    >>> ci = fastauc.spark.roc_auc_ci(df, "label", "score")
    >>> abs(ci.high - fastauc.roc_auc_ci(y, s).high) < 1e-12
    True
    """
    level = v.check_confidence_level(confidence_level)
    v.check_choice(transform, "transform", (None, "logit"))
    if cluster is not None:  # Obuchowski's variance: the placements summed per cluster
        from .._stats import wald_interval
        from .inference import delong_parts

        aucs, cov = delong_parts(df, y_true, [y_score], sample_weight, cluster=cluster)
        return wald_interval(float(aucs[0]), float(cov[0, 0]), level, transform)
    return auc_interval(tallies(df, y_true, y_score, sample_weight), level, transform)


@spark_doc
def mann_whitney_u(df, y_true, y_score, *, alternative="two-sided", use_continuity=True,
                   method="auto", sample_weight=None):
    """:func:`fastauc.mann_whitney_u` of a Spark DataFrame's columns.

    Parameters
    ----------
    {df}
    {y_true}
    {y_score}
    {alternative/mann_whitney}
    {use_continuity}
    {method/mann_whitney}
    {sample_weight/mann_whitney}

    Returns
    -------
    result : fastauc.MannWhitneyResult
        ``statistic`` (U of the positives), ``pvalue``, ``auc`` (U / (n_pos *
        n_neg)), ``n_pos``, ``n_neg`` and the ``method`` used.

    Raises
    ------
    ValueError
        As :func:`roc_auc_score`, and parameters outside their choices.

    See Also
    --------
    fastauc.mann_whitney_u : The in-memory function.
    fastauc.dask.mann_whitney_u : The same on Dask.

    Examples
    --------
    >>> SESSION
    >>> u = fastauc.spark.mann_whitney_u(df, "label", "score")
    >>> abs(u.pvalue - fastauc.mann_whitney_u(y, s).pvalue) < 1e-12
    True
    """
    v.check_choice(alternative, "alternative", _ALTERNATIVES)
    v.check_choice(method, "method", ("auto", "asymptotic", "exact"))
    if use_continuity not in (True, False):
        raise ValueError(f"use_continuity must be True or False, got {use_continuity!r}")
    return mann_whitney_of(tallies(df, y_true, y_score, sample_weight), alternative,
                           use_continuity, method)


def _warm_task(batches):
    import pyarrow as pa

    from ..deploy import warmup

    for _ in batches:
        pass
    t0 = time.perf_counter()
    warmup()
    yield pa.RecordBatch.from_pydict({"seconds": [time.perf_counter() - t0]})


def warm_executors(spark, tasks=None):
    """Compile (or load from Numba's cache) fastauc's kernels in the Python
    workers of the executors, before the first real call.

    Spark reuses its Python workers (``spark.python.worker.reuse``, on by
    default), so a worker pays the load once, not per task.  One job of
    ``tasks`` tasks (default: ``spark.default.parallelism``, or 2) runs
    :func:`fastauc.deploy.warmup` in each.

    Parameters
    ----------
    spark : pyspark.sql.SparkSession
        The session whose executors are warmed.
    tasks : int, default=None
        Number of tasks of the warm-up job (each runs in one Python worker);
        by default ``spark.default.parallelism``, or 2 when it is not set.
        Give at least the number of executor cores to reach every worker.

    Returns
    -------
    seconds : list of float
        Each task's time (the first on a cold cache compiles: seconds; the
        others load: milliseconds per kernel).

    See Also
    --------
    fastauc.dask.warm_workers : The same on Dask.

    Examples
    --------
    >>> from pyspark.sql import SparkSession
    >>> import fastauc.spark
    >>> spark = SparkSession.builder.master("local[2]").getOrCreate()
    >>> len(fastauc.spark.warm_executors(spark, tasks=2))
    2
    """
    if tasks is None:
        tasks = int(spark.conf.get("spark.default.parallelism", "2"))
    df = spark.range(0, tasks, 1, tasks)
    return [r.seconds for r in collect(df.mapInArrow(_warm_task, "seconds double"))]
