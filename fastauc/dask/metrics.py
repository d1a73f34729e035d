"""Single-model metrics on Dask: AUC, AP, DeLong, Mann-Whitney, log loss, curves
and thresholds."""

from __future__ import annotations

import numpy as np

from .. import _validation as v
from .._adapters.docstrings import dask_doc
from .._adapters.ranges import (
    ap_of,
    auc_interval,
    best_of,
    label_meta,
    loss_block,
    loss_of,
    mann_whitney_of,
    range_best,
    thresholds_of,
)
from .._stats import ALTERNATIVES as _ALTERNATIVES
from .ranges import (as_dask_array, auc_of, blocks_of, classes_of, curve_graph, load_dask,
                     range_graph, run, tallies_graph, totals_with_keys)


@dask_doc
def roc_auc_score(y_true, y_score, *, sample_weight=None, compute=True):
    """:func:`fastauc.roc_auc_score` (binary) of dask collections, exactly.

    Each partition is sorted once into its table of distinct scores; the
    tables are cut into key ranges and merged per range, and the ranges'
    areas, swept from the weight above each, add up to the in-memory number
    for any partitioning (see the package docstring).

    Parameters
    ----------
    {y_true}
    {y_score}
    {sample_weight}
    {compute}

    Returns
    -------
    auc : float or dask.delayed.Delayed
        The area under the ROC curve, ties counted one half; NaN, with an
        ``UndefinedMetricWarning``, when one class is missing or weighs
        nothing.  A ``Delayed`` of it when ``compute=False``.

    Raises
    ------
    ValueError
        Before any task runs: columns of different lengths (dask arrays and
        array-likes; dask Series cut alike are checked partition by
        partition when computing) or not 1-D.  When computing (from
        ``.compute()`` with ``compute=False``): a NaN or infinite score
        (naming its global row), labels with more than two values or a mix
        of strings and numbers, no rows at all, negative or non-finite
        weights, weights that are all zero (as in memory).

    See Also
    --------
    fastauc.roc_auc_score : The in-memory function.
    fastauc.spark.roc_auc_score : The same on Spark.
    roc_auc_ci : The AUC with its DeLong interval.

    Examples
    --------
    >>> import dask.array as da, numpy as np
    >>> import fastauc, fastauc.dask
    >>> rng = np.random.default_rng(0)
    >>> y = rng.integers(0, 2, 10_000)
    >>> s = np.round(y + rng.normal(size=10_000), 2)  # many tied scores
    >>> Y, S = da.from_array(y, 1000), da.from_array(s, 1000)  # 10 chunks
    >>> auc = fastauc.dask.roc_auc_score(Y, S)
    >>> abs(auc - fastauc.roc_auc_score(y, s)) < 1e-12
    True
    >>> round(auc, 3)
    0.756
    >>> lazy = fastauc.dask.roc_auc_score(Y, S, compute=False)  # a dask.delayed
    >>> lazy.compute() == auc
    True
    """
    return run(tallies_graph(y_true, y_score, sample_weight), auc_of, compute)


@dask_doc
def average_precision_score(y_true, y_score, *, pos_label=1, sample_weight=None,
                            compute=True):
    """:func:`fastauc.average_precision_score` (binary) of dask collections.

    The average-precision numerators of the key ranges, each swept from the
    weight above it, add up to the in-memory sum (same graph as
    :func:`roc_auc_score`).

    Parameters
    ----------
    {y_true/pos_label}
    {y_score}
    {pos_label/ap}
    {sample_weight}
    {compute}

    Returns
    -------
    average_precision : float or dask.delayed.Delayed
        ``AP = sum_n (R_n - R_{n-1}) P_n`` over the distinct thresholds; 0,
        with a warning, when ``y_true`` has no positive.  A ``Delayed`` of it
        when ``compute=False``.

    Raises
    ------
    ValueError
        As :func:`roc_auc_score`, and (when computing) a ``pos_label`` that is
        not one of the labels.

    See Also
    --------
    fastauc.average_precision_score : The in-memory function.
    fastauc.spark.average_precision_score : The same on Spark.
    precision_recall_curve : The curve whose step-function area this is.

    Examples
    --------
    >>> import dask.array as da, numpy as np
    >>> import fastauc, fastauc.dask
    >>> rng = np.random.default_rng(0)
    >>> y = rng.integers(0, 2, 10_000)
    >>> s = np.round(y + rng.normal(size=10_000), 2)  # many tied scores
    >>> Y, S = da.from_array(y, 1000), da.from_array(s, 1000)  # 10 chunks
    >>> ap = fastauc.dask.average_precision_score(Y, S)
    >>> abs(ap - fastauc.average_precision_score(y, s)) < 1e-12
    True
    """

    def finish(t):
        return ap_of(t, pos_label)

    return run(tallies_graph(y_true, y_score, sample_weight, positive=pos_label), finish,
                compute)


@dask_doc
def roc_auc_ci(y_true, y_score, *, confidence_level=0.95, sample_weight=None, transform=None,
               cluster=None, compute=True):
    """:func:`fastauc.roc_auc_ci` (DeLong) of dask collections: the moments of
    every range's sweep add up to the whole data's.

    Parameters
    ----------
    {y_true}
    {y_score}
    {confidence_level}
    {sample_weight/delong}
    {transform}
    {cluster/delong}
    {compute}

    Returns
    -------
    ci : fastauc.ConfidenceInterval or dask.delayed.Delayed
        ``estimate``, ``low``, ``high``, ``se``, ``method`` (``"delong"``)
        and ``confidence_level``: the Wald interval ``auc ± z * se`` with
        DeLong's standard error, clipped to [0, 1].  A ``Delayed`` of it when
        ``compute=False``.  (The bootstrap interval is :func:`bootstrap_ci`.)

    Raises
    ------
    ValueError
        Before any task runs: a ``confidence_level`` outside (0, 1) (a
        ``TypeError`` when not a number), a ``transform`` other than None or
        ``"logit"``.  Then as :func:`roc_auc_score`.

    See Also
    --------
    fastauc.roc_auc_ci : The in-memory function.
    fastauc.spark.roc_auc_ci : The same on Spark.
    bootstrap_ci : A bootstrap interval (Poisson scheme).
    delong_covariance : Several models' AUCs and their covariance.

    References
    ----------
    .. [1] DeLong, E. R., DeLong, D. M. and Clarke-Pearson, D. L. (1988).
       Biometrics 44, 837-845.

    Examples
    --------
    >>> import dask.array as da, numpy as np
    >>> import fastauc, fastauc.dask
    >>> rng = np.random.default_rng(0)
    >>> y = rng.integers(0, 2, 10_000)
    >>> s = np.round(y + rng.normal(size=10_000), 2)  # many tied scores
    >>> Y, S = da.from_array(y, 1000), da.from_array(s, 1000)  # 10 chunks
    >>> ci = fastauc.dask.roc_auc_ci(Y, S)
    >>> ref = fastauc.roc_auc_ci(y, s)
    >>> abs(ci.low - ref.low) < 1e-12, abs(ci.high - ref.high) < 1e-12
    (True, True)
    >>> round(ci.low, 3), round(ci.high, 3)
    (0.747, 0.765)
    """
    level = v.check_confidence_level(confidence_level)
    v.check_choice(transform, "transform", (None, "logit"))
    if cluster is not None:  # Obuchowski's variance: the placements summed per cluster
        from .._stats import wald_interval
        from .inference import delong_graph, delong_result

        def interval(ac):
            return wald_interval(float(ac[0][0]), float(ac[1][0, 0]), level, transform)

        graph = delong_graph(y_true, [y_score], sample_weight, cluster=cluster)
        if compute:
            return interval(delong_result(graph, cluster, True))
        return load_dask()[0].delayed(interval)(graph)

    def finish(t):
        return auc_interval(t, level, transform)

    return run(tallies_graph(y_true, y_score, sample_weight), finish, compute)


@dask_doc
def mann_whitney_u(y_true, y_score, *, alternative="two-sided", use_continuity=True,
                   method="auto", sample_weight=None, compute=True):
    """:func:`fastauc.mann_whitney_u` of dask collections.

    U is the weighted pair count that the AUC's sweep gives, and the tie
    correction comes from the same ranges' moments: the test of the
    in-memory function, without gathering the rows.

    Parameters
    ----------
    {y_true}
    {y_score}
    {alternative/mann_whitney}
    {use_continuity}
    {method/mann_whitney}
    {sample_weight/mann_whitney}
    {compute}

    Returns
    -------
    result : fastauc.MannWhitneyResult or dask.delayed.Delayed
        ``statistic`` (U of the positives), ``pvalue``, ``auc`` (U / (n_pos *
        n_neg)), ``n_pos``, ``n_neg`` and the ``method`` used.  A ``Delayed``
        of it when ``compute=False``.

    Raises
    ------
    ValueError
        Before any task runs: an ``alternative`` or ``method`` outside its
        choices, a ``use_continuity`` that is not True or False.  Then as
        :func:`roc_auc_score`.

    See Also
    --------
    fastauc.mann_whitney_u : The in-memory function.
    fastauc.spark.mann_whitney_u : The same on Spark.

    Examples
    --------
    >>> import dask.array as da, numpy as np
    >>> import fastauc, fastauc.dask
    >>> rng = np.random.default_rng(0)
    >>> y = rng.integers(0, 2, 10_000)
    >>> s = np.round(y + rng.normal(size=10_000), 2)  # many tied scores
    >>> Y, S = da.from_array(y, 1000), da.from_array(s, 1000)  # 10 chunks
    >>> u = fastauc.dask.mann_whitney_u(Y, S, alternative="greater")
    >>> ref = fastauc.mann_whitney_u(y, s, alternative="greater")
    >>> abs(u.pvalue - ref.pvalue) < 1e-12, u.statistic == ref.statistic
    (True, True)
    """
    v.check_choice(alternative, "alternative", _ALTERNATIVES)
    v.check_choice(method, "method", ("auto", "asymptotic", "exact"))
    if use_continuity not in (True, False):
        raise ValueError(f"use_continuity must be True or False, got {use_continuity!r}")

    def finish(t):
        return mann_whitney_of(t, alternative, use_continuity, method)

    return run(tallies_graph(y_true, y_score, sample_weight), finish, compute)


@dask_doc
def log_loss(y_true, y_proba, *, normalize=True, sample_weight=None, compute=True):
    """:func:`fastauc.log_loss` (binary: the probability of the greater label)
    of dask collections: per-partition weighted sums, added up.

    Parameters
    ----------
    {y_true/log_loss}
    {y_proba}
    {normalize}
    {sample_weight}
    {compute}

    Returns
    -------
    loss : float or dask.delayed.Delayed
        ``-sum_i w_i log p_i[y_i] / sum_i w_i`` (the sum with
        ``normalize=False``).  A ``Delayed`` of it when ``compute=False``.

    Raises
    ------
    ValueError
        Before any task runs: columns of different lengths or not 1-D.
        When computing: NaN, infinite or out-of-[0, 1] probabilities, labels
        with more than two values, no rows at all, negative or non-finite
        weights, weights that are all zero (as in memory).

    See Also
    --------
    fastauc.log_loss : The in-memory function.
    fastauc.spark.log_loss : The same on Spark.

    Examples
    --------
    >>> import dask.array as da, numpy as np
    >>> import fastauc, fastauc.dask
    >>> rng = np.random.default_rng(0)
    >>> y = rng.integers(0, 2, 10_000)
    >>> s = np.round(y + rng.normal(size=10_000), 2)  # many tied scores
    >>> Y, S = da.from_array(y, 1000), da.from_array(s, 1000)  # 10 chunks
    >>> p = 1 / (1 + np.exp(-s))  # a probability of the label 1
    >>> loss = fastauc.dask.log_loss(Y, da.from_array(p, 1000))
    >>> abs(loss - fastauc.log_loss(y, p)) < 1e-12
    True
    """
    dask, _ = load_dask()
    delayed = dask.delayed
    blocks, offsets, _ = blocks_of(y_true, y_proba, sample_weight)
    metas = [delayed(label_meta)(y) for y, _, _ in blocks]
    classes = delayed(classes_of)(metas)
    sums = [delayed(loss_block)(y, p, w, classes) for y, p, w in blocks]
    result = delayed(loss_of)(sums, normalize)
    return result.compute() if compute else result


@dask_doc
def roc_curve(y_true, y_score, *, pos_label=None, sample_weight=None, drop_intermediate=True,
              max_points=None, compute=True):
    """:func:`fastauc.roc_curve` of dask collections: ``(fpr, tpr, thresholds)``.

    Each key range computes its points from the weight above it; the client
    receives the points (the result itself), not the rows.  ``max_points``
    thins the curve on the workers to about that many points, every one a
    point of the exact curve (then ``drop_intermediate`` applies to those).

    Parameters
    ----------
    {y_true/curve}
    {y_score}
    {pos_label}
    {sample_weight}
    {drop_intermediate/roc}
    {max_points}
    {compute}

    Returns
    -------
    fpr : ndarray of shape (>2,)
        Increasing false positive rates; ``fpr[i]`` is the rate of predictions
        with ``score >= thresholds[i]``.
    tpr : ndarray of shape (>2,)
        Increasing true positive rates.
    thresholds : ndarray of shape (n_thresholds,)
        Decreasing distinct scores, float64; ``thresholds[0] == inf``.

        With ``compute=False``, a ``Delayed`` of the tuple.

    Raises
    ------
    ValueError
        Before any task runs: a ``max_points`` that is not an integer >= 2
        or None.  Then as :func:`roc_auc_score`, and (when computing) labels
        other than {0, 1} or {-1, 1} without a ``pos_label``.

    See Also
    --------
    fastauc.roc_curve : The in-memory function.
    fastauc.spark.roc_curve : The same on Spark.
    roc_auc_score : The area under this curve.

    Examples
    --------
    >>> import dask.array as da, numpy as np
    >>> import fastauc, fastauc.dask
    >>> rng = np.random.default_rng(0)
    >>> y = rng.integers(0, 2, 10_000)
    >>> s = np.round(y + rng.normal(size=10_000), 2)  # many tied scores
    >>> Y, S = da.from_array(y, 1000), da.from_array(s, 1000)  # 10 chunks
    >>> fpr, tpr, thresholds = fastauc.dask.roc_curve(Y, S)
    >>> ref = fastauc.roc_curve(y, s)
    >>> all(np.array_equal(a, b) for a, b in zip((fpr, tpr, thresholds), ref))
    True
    >>> fpr, tpr, thresholds = fastauc.dask.roc_curve(Y, S, max_points=50)  # thinned
    >>> full = fastauc.roc_curve(y, s, drop_intermediate=False)
    >>> len(thresholds) <= 51, bool(np.isin(thresholds, full[2]).all())  # exact points
    (True, True)
    """
    from .._curves import roc_points

    graph = curve_graph(y_true, y_score, sample_weight, pos_label, max_points)
    result = load_dask()[0].delayed(roc_points)(graph, drop_intermediate)
    return result.compute() if compute else result


@dask_doc
def precision_recall_curve(y_true, y_score, *, pos_label=None, sample_weight=None,
                           drop_intermediate=False, max_points=None, compute=True):
    """:func:`fastauc.precision_recall_curve` of dask collections (``max_points``
    as in :func:`roc_curve`).

    Each key range computes its points from the weight above it; the client
    receives the points, not the rows.

    Parameters
    ----------
    {y_true/curve}
    {y_score}
    {pos_label}
    {sample_weight}
    {drop_intermediate/pr}
    {max_points}
    {compute}

    Returns
    -------
    precision : ndarray of shape (n_thresholds + 1,)
        Precision at each threshold (increasing thresholds); last element 1.
    recall : ndarray of shape (n_thresholds + 1,)
        Decreasing recall; last element 0.
    thresholds : ndarray of shape (n_thresholds,)
        Increasing distinct scores, in the dtype of ``y_score`` when it is
        numeric.

        With ``compute=False``, a ``Delayed`` of the tuple.

    Raises
    ------
    ValueError
        As :func:`roc_curve`.

    See Also
    --------
    fastauc.precision_recall_curve : The in-memory function.
    fastauc.spark.precision_recall_curve : The same on Spark.
    average_precision_score : The step-function area under this curve.

    Examples
    --------
    >>> import dask.array as da, numpy as np
    >>> import fastauc, fastauc.dask
    >>> rng = np.random.default_rng(0)
    >>> y = rng.integers(0, 2, 10_000)
    >>> s = np.round(y + rng.normal(size=10_000), 2)  # many tied scores
    >>> Y, S = da.from_array(y, 1000), da.from_array(s, 1000)  # 10 chunks
    >>> precision, recall, thresholds = fastauc.dask.precision_recall_curve(Y, S)
    >>> ref = fastauc.precision_recall_curve(y, s)
    >>> all(np.array_equal(a, b) for a, b in zip((precision, recall, thresholds), ref))
    True
    """
    from .._curves import pr_points

    dtype = getattr(y_score, "dtype", None)  # a frame's column: no pass to find it
    dtype = dtype if isinstance(dtype, np.dtype) else as_dask_array(y_score, "y_score").dtype
    graph = curve_graph(y_true, y_score, sample_weight, pos_label, max_points)
    result = load_dask()[0].delayed(pr_points)(graph, drop_intermediate, dtype)
    return result.compute() if compute else result


# ---------------------------------------------------------------- thresholds

@dask_doc
def threshold_metrics(y_true, y_score, *, sample_weight=None, pos_label=None, max_points=None,
                      compute=True):
    """:func:`fastauc.threshold_metrics` of dask collections (the confusion
    matrix at every distinct threshold; ``max_points`` as in :func:`roc_curve`).

    Parameters
    ----------
    {y_true/curve}
    {y_score}
    {sample_weight}
    {pos_label}
    {max_points/thresholds}
    {compute}

    Returns
    -------
    metrics : fastauc.ThresholdMetrics or dask.delayed.Delayed
        Arrays with one entry per distinct score, thresholds decreasing:
        ``threshold``, ``tp``, ``fp``, ``tn``, ``fn`` (weighted counts),
        ``tpr``, ``fpr``, ``precision``, ``f1``, ``mcc``, ``youden``... (see
        :func:`fastauc.threshold_metrics`).  A ``Delayed`` of it when
        ``compute=False``.

    Raises
    ------
    ValueError
        As :func:`roc_curve`.

    See Also
    --------
    fastauc.threshold_metrics : The in-memory function.
    fastauc.spark.threshold_metrics : The same on Spark.
    best_threshold : The best of those thresholds for a metric.

    Examples
    --------
    >>> import dask.array as da, numpy as np
    >>> import fastauc, fastauc.dask
    >>> rng = np.random.default_rng(0)
    >>> y = rng.integers(0, 2, 10_000)
    >>> s = np.round(y + rng.normal(size=10_000), 2)  # many tied scores
    >>> Y, S = da.from_array(y, 1000), da.from_array(s, 1000)  # 10 chunks
    >>> m = fastauc.dask.threshold_metrics(Y, S)
    >>> ref = fastauc.threshold_metrics(y, s)
    >>> np.array_equal(m.threshold, ref.threshold), np.array_equal(m.tp, ref.tp)
    (True, True)
    """
    graph = curve_graph(y_true, y_score, sample_weight, pos_label, max_points)
    result = load_dask()[0].delayed(thresholds_of)(graph)
    return result.compute() if compute else result


@dask_doc
def best_threshold(y_true, y_score, *, metric="f1", beta=1.0, sample_weight=None, cost_fp=None,
                   cost_fn=None, pos_label=None, compute=True):
    """:func:`fastauc.best_threshold` of dask collections: each key
    range finds its best threshold from the weight above it, and the best of
    those wins (the highest threshold among equals, as in memory).

    Parameters
    ----------
    {y_true/curve}
    {y_score}
    {metric/best}
    {beta}
    {sample_weight}
    {cost_fp}
    {cost_fn}
    {pos_label}
    {compute}

    Returns
    -------
    best : fastauc.BestThreshold or dask.delayed.Delayed
        ``(threshold, value, metric)``; among equally good thresholds the
        highest.  A ``Delayed`` of it when ``compute=False``.

    Raises
    ------
    ValueError
        Before any task runs: an unknown ``metric``, a ``beta`` that is not
        positive, ``cost_fp``/``cost_fn`` missing or negative for ``"cost"``
        or given for another metric.  Then as :func:`roc_curve`.

    See Also
    --------
    fastauc.best_threshold : The in-memory function.
    fastauc.spark.best_threshold : The same on Spark.
    threshold_metrics : Every threshold's confusion matrix.

    Examples
    --------
    >>> import dask.array as da, numpy as np
    >>> import fastauc, fastauc.dask
    >>> rng = np.random.default_rng(0)
    >>> y = rng.integers(0, 2, 10_000)
    >>> s = np.round(y + rng.normal(size=10_000), 2)  # many tied scores
    >>> Y, S = da.from_array(y, 1000), da.from_array(s, 1000)  # 10 chunks
    >>> best = fastauc.dask.best_threshold(Y, S, metric="youden")
    >>> best == fastauc.best_threshold(y, s, metric="youden")
    True
    """
    from .._curves import check_best_args

    code = check_best_args(metric, beta, cost_fp, cost_fn)
    dask, _ = load_dask()
    delayed = dask.delayed
    blocks, offsets, n_rows = blocks_of(y_true, y_score, sample_weight)
    g = range_graph(blocks, offsets, n_rows, positive=pos_label, rule="sklearn")
    totals = delayed(list)([delayed(totals_with_keys)(r) for r in g["ranges"]])
    bests = [delayed(range_best)(r, totals, k, code, float(beta), float(cost_fp or 0.0),
                                  float(cost_fn or 0.0)) for k, r in enumerate(g["ranges"])]

    result = delayed(best_of)(bests, metric)
    return result.compute() if compute else result


@dask_doc
def coords(y_true, y_score, x="all", *, input="threshold",
           ret=("threshold", "specificity", "sensitivity"), sample_weight=None, pos_label=None,
           best_method="youden", best_weights=(1.0, 0.5), compute=True):
    """:func:`fastauc.coords` of dask collections: pROC's coordinates of the ROC
    curve, from the ranges' points (the curve's distinct scores with their
    cumulative weights come to the client, as for :func:`threshold_metrics`).

    Parameters
    ----------
    {y_true/curve}
    {y_score}
    {x/coords}
    {input/coords}
    {ret/coords}
    {sample_weight}
    {pos_label}
    {best_method}
    {best_weights}
    {compute}

    Returns
    -------
    coords : fastauc.Coords or dask.delayed.Delayed
        One array per coordinate of ``ret``, one entry per point, equal to
        :func:`fastauc.coords` of the same rows.  A ``Delayed`` of it when
        ``compute=False``.

    Raises
    ------
    ValueError
        Before any task runs: an unknown coordinate name.  Then as
        :func:`fastauc.coords`.

    See Also
    --------
    fastauc.coords : The in-memory function.
    fastauc.spark.coords : The same on Spark.
    threshold_metrics : Every threshold's confusion matrix.

    Examples
    --------
    >>> import dask.array as da, numpy as np
    >>> import fastauc, fastauc.dask
    >>> rng = np.random.default_rng(0)
    >>> y = rng.integers(0, 2, 10_000)
    >>> s = np.round(y + rng.normal(size=10_000), 2)  # many tied scores
    >>> Y, S = da.from_array(y, 1000), da.from_array(s, 1000)  # 10 chunks
    >>> c = fastauc.dask.coords(Y, S, [0.8, 0.9], input="specificity", ret="sensitivity")
    >>> ref = fastauc.coords(y, s, [0.8, 0.9], input="specificity", ret="sensitivity")
    >>> np.allclose(c.sensitivity, ref.sensitivity, rtol=1e-12)
    True
    """
    from .._coords import _input_code, _ret_codes, coords_of_tallies

    _ret_codes(ret, None)  # the words of a bad name before any task runs
    _input_code(input)
    graph = curve_graph(y_true, y_score, sample_weight, pos_label, None)
    result = load_dask()[0].delayed(coords_of_tallies)(graph, x, input, ret, best_method,
                                                         best_weights)
    return result.compute() if compute else result
