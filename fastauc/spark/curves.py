"""Curves, thresholds and the log loss on Spark."""

from __future__ import annotations

import pickle

import numpy as np

from .._adapters.docstrings import spark_doc
from .._adapters.ranges import (
    best_of,
    classes_of,
    label_meta,
    loss_block,
    loss_of,
    range_best,
    thresholds_of,
)
from .ranges import (blob, collect, curve, key_ranges, partition_arrays, per_range,
                     select_columns)

# the numpy dtype each Spark numeric type arrives as (decimals are read as double)
_DTYPES = {"tinyint": np.int8, "smallint": np.int16, "int": np.int32, "bigint": np.int64,
           "float": np.float32, "double": np.float64}


def _score_dtype(df, score):
    """The (checked) score column's numpy dtype, from the schema (no job)."""
    return np.dtype(_DTYPES.get(df.schema[score].dataType.simpleString(), np.float64))


@spark_doc
def roc_curve(df, y_true, y_score, *, pos_label=None, sample_weight=None,
              drop_intermediate=True, max_points=None):
    """:func:`fastauc.roc_curve` of a Spark DataFrame's columns: the same points.

    Each key range computes its points from the weight above it on the
    executors; the driver receives the points (the result itself, a
    partition at a time), never the rows.

    Parameters
    ----------
    {df}
    {y_true/curve}
    {y_score}
    {pos_label}
    {sample_weight}
    {drop_intermediate/roc}
    {max_points}

    Returns
    -------
    fpr : ndarray of shape (>2,)
        Increasing false positive rates; ``fpr[i]`` is the rate of predictions
        with ``score >= thresholds[i]``.
    tpr : ndarray of shape (>2,)
        Increasing true positive rates.
    thresholds : ndarray of shape (n_thresholds,)
        Decreasing distinct scores, float64; ``thresholds[0] == inf``.

    Raises
    ------
    ValueError
        As :func:`roc_auc_score`, a ``pos_label`` scikit-learn refuses, and a
        ``max_points`` that is not an integer >= 2.

    See Also
    --------
    fastauc.roc_curve : The in-memory function.
    fastauc.dask.roc_curve : The same on Dask.

    Examples
    --------
    >>> SESSION
    >>> fpr, tpr, thr = fastauc.spark.roc_curve(df, "label", "score")
    >>> ref = fastauc.roc_curve(y, s)
    >>> all(np.array_equal(a, b) for a, b in zip((fpr, tpr, thr), ref))
    True
    """
    from .._curves import roc_points

    t = curve(df, y_true, y_score, sample_weight, pos_label, max_points)
    return roc_points(t, drop_intermediate)


@spark_doc
def precision_recall_curve(df, y_true, y_score, *, pos_label=None, sample_weight=None,
                           drop_intermediate=False, max_points=None):
    """:func:`fastauc.precision_recall_curve` of a Spark DataFrame's columns:
    the same points (thresholds of the score column's type).

    Parameters
    ----------
    {df}
    {y_true/curve}
    {y_score}
    {pos_label}
    {sample_weight}
    {drop_intermediate/pr}
    {max_points}

    Returns
    -------
    precision : ndarray of shape (n_thresholds + 1,)
        Precision at each threshold (increasing thresholds); last element 1.
    recall : ndarray of shape (n_thresholds + 1,)
        Decreasing recall; last element 0.
    thresholds : ndarray of shape (n_thresholds,)
        Increasing distinct scores, in the score column's type.

    Raises
    ------
    ValueError
        As :func:`roc_curve`.

    See Also
    --------
    fastauc.precision_recall_curve : The in-memory function.
    fastauc.dask.precision_recall_curve : The same on Dask.

    Examples
    --------
    >>> SESSION
    >>> p, r, thr = fastauc.spark.precision_recall_curve(df, "label", "score")
    >>> ref = fastauc.precision_recall_curve(y, s)
    >>> all(np.array_equal(a, b) for a, b in zip((p, r, thr), ref))
    True
    """
    from .._curves import pr_points

    t = curve(df, y_true, y_score, sample_weight, pos_label, max_points)
    return pr_points(t, drop_intermediate, _score_dtype(df, y_score))


@spark_doc
def threshold_metrics(df, y_true, y_score, *, sample_weight=None, pos_label=None,
                      max_points=None):
    """:func:`fastauc.threshold_metrics` of a Spark DataFrame's columns: the
    confusion matrix at every distinct threshold.

    Parameters
    ----------
    {df}
    {y_true/curve}
    {y_score}
    {sample_weight}
    {pos_label}
    {max_points/thresholds}

    Returns
    -------
    metrics : fastauc.ThresholdMetrics
        Arrays with one entry per distinct score, thresholds decreasing:
        ``threshold``, ``tp``, ``fp``, ``tn``, ``fn`` (weighted counts),
        ``tpr``, ``fpr``, ``precision``, ``f1``, ``mcc``, ``youden``... (see
        :func:`fastauc.threshold_metrics`).

    Raises
    ------
    ValueError
        As :func:`roc_curve`.

    See Also
    --------
    fastauc.threshold_metrics : The in-memory function.
    fastauc.dask.threshold_metrics : The same on Dask.
    best_threshold : The best of those thresholds for a metric.

    Examples
    --------
    >>> SESSION
    >>> tm = fastauc.spark.threshold_metrics(df, "label", "score")
    >>> np.array_equal(tm.tp, fastauc.threshold_metrics(y, s).tp)
    True
    """
    return thresholds_of(curve(df, y_true, y_score, sample_weight, pos_label, max_points))


@spark_doc
def best_threshold(df, y_true, y_score, *, metric="f1", beta=1.0, sample_weight=None,
                   cost_fp=None, cost_fn=None, pos_label=None):
    """:func:`fastauc.best_threshold` of a Spark DataFrame's columns: each key
    range finds its best threshold from the weight above it, on the
    executors, and the best of those wins (the highest among equals, as in
    memory).

    Parameters
    ----------
    {df}
    {y_true/curve}
    {y_score}
    {metric/best}
    {beta}
    {sample_weight}
    {cost_fp}
    {cost_fn}
    {pos_label}

    Returns
    -------
    best : fastauc.BestThreshold
        ``(threshold, value, metric)``; among equally good thresholds the
        highest.

    Raises
    ------
    ValueError
        As :func:`roc_curve`, and options :func:`fastauc.best_threshold` refuses.

    See Also
    --------
    fastauc.best_threshold : The in-memory function.
    fastauc.dask.best_threshold : The same on Dask.

    Examples
    --------
    >>> SESSION
    >>> best = fastauc.spark.best_threshold(df, "label", "score", metric="youden")
    >>> best == fastauc.best_threshold(y, s, metric="youden")
    True
    """
    from .._curves import check_best_args

    code = check_best_args(metric, beta, cost_fp, cost_fn)
    with key_ranges(df, y_true, y_score, sample_weight, pos_label, "sklearn") as ranges:
        bests = per_range(ranges, range_best, code, float(beta), float(cost_fp or 0.0),
                          float(cost_fn or 0.0))
    return best_of([b for _, b in bests], metric)


@spark_doc
def coords(df, y_true, y_score, x="all", *, input="threshold",
           ret=("threshold", "specificity", "sensitivity"), sample_weight=None, pos_label=None,
           best_method="youden", best_weights=(1.0, 0.5)):
    """:func:`fastauc.coords` of a Spark DataFrame's columns: pROC's
    coordinates of the ROC curve, from the ranges' points (the curve's
    distinct scores with their cumulative weights come to the driver, as for
    :func:`threshold_metrics`).

    Parameters
    ----------
    {df}
    {y_true/curve}
    {y_score}
    {x/coords}
    {input/coords}
    {ret/coords}
    {sample_weight}
    {pos_label}
    {best_method}
    {best_weights}

    Returns
    -------
    coords : fastauc.Coords
        One array per coordinate of ``ret``, one entry per point, equal to
        :func:`fastauc.coords` of the same rows.

    Raises
    ------
    ValueError
        Before any job runs: an unknown coordinate name.  Then as
        :func:`fastauc.coords`.

    See Also
    --------
    fastauc.coords : The in-memory function.
    fastauc.dask.coords : The same on Dask.
    threshold_metrics : Every threshold's confusion matrix.

    Examples
    --------
    >>> SESSION
    >>> c = fastauc.spark.coords(df, "label", "score", [0.9], input="specificity")
    >>> ref = fastauc.coords(y, s, [0.9], input="specificity")
    >>> bool(np.allclose(c.sensitivity, ref.sensitivity, rtol=1e-12))
    True
    """
    from .._coords import _input_code, _ret_codes, coords_of_tallies

    _ret_codes(ret, None)  # the words of a bad name before any job runs
    _input_code(input)
    t = curve(df, y_true, y_score, sample_weight, pos_label, None)
    return coords_of_tallies(t, x, input, ret, best_method, best_weights)


@spark_doc
def log_loss(df, y_true, y_proba, *, normalize=True, sample_weight=None):
    """:func:`fastauc.log_loss` (binary: ``y_proba`` is the probability of the
    greater label) of a Spark DataFrame's columns: each partition's weighted
    sum, added up.

    Parameters
    ----------
    {df}
    {y_true/log_loss}
    {y_proba}
    {normalize}
    {sample_weight}

    Returns
    -------
    loss : float
        ``-sum_i w_i log p_i[y_i] / sum_i w_i`` (the sum with
        ``normalize=False``).

    Raises
    ------
    ValueError
        As :func:`roc_auc_score`, probabilities outside [0, 1] (as in memory).

    See Also
    --------
    fastauc.log_loss : The in-memory function.
    fastauc.dask.log_loss : The same on Dask.

    Examples
    --------
    >>> SESSION
    >>> loss = fastauc.spark.log_loss(df, "label", "score")
    >>> abs(loss - fastauc.log_loss(y, s)) < 1e-12
    True
    """
    import pyarrow as pa

    names = {"y": y_true, "s": y_proba, "w": sample_weight}
    sel = select_columns(df, y_true, y_proba, sample_weight)

    def labels(batches):  # job 1: each partition's labels
        y, _, _, _ = partition_arrays(batches, names)
        yield pa.RecordBatch.from_pydict({"meta": pa.array([blob(label_meta(y))], pa.binary())})

    classes = classes_of([pickle.loads(r.meta) for r in
                          collect(sel.mapInArrow(labels, "meta binary"))])

    def sums(batches):  # job 2: each partition's loss and weight
        y, p, w, part = partition_arrays(batches, names)
        try:
            loss, weight = loss_block(y, p, w, classes)
        except (ValueError, TypeError) as exc:
            raise type(exc)(f"{exc} (in Spark partition {part})") from None
        yield pa.RecordBatch.from_pydict({"loss": [loss], "weight": [weight]})

    return loss_of([(r.loss, r.weight) for r in
                    collect(sel.mapInArrow(sums, "loss double, weight double"))], normalize)
