"""Paired DeLong tests and the Poisson bootstrap on Dask."""

from __future__ import annotations

from .. import _validation as v
from .._adapters.docstrings import dask_doc
from .._adapters.inference import (
    block_cluster_sums,
    block_covariance,
    clustered_of,
    warn_small_clusters,
    bootstrap_result,
    bootstrap_test_result,
    check_poisson,
    covariance_of,
    range_replicates,
    replicates_of,
    rows_by_range,
)
from .._stats import ALTERNATIVES as _ALTERNATIVES
from .ranges import aucs_only, blocks_of, column_graphs, columns_of, load_dask, range_graph


def delong_graph(y_true, y_scores, sample_weight, positive=None, cluster=None):
    """Delayed ``(aucs, covariance)`` of k score columns on the same rows
    (with ``cluster``, Obuchowski's covariance from each block's placements
    summed per cluster, added up by cluster id)."""
    import functools

    dask, _ = load_dask()
    delayed = functools.partial(dask.delayed, pure=True)
    cols = columns_of(y_scores)
    first_blocks, graphs, _, *clusters = column_graphs(y_true, cols, sample_weight, positive,
                                                       track=True, cluster=cluster)
    classes = graphs[0]["classes"]
    tallies = [g["tallies"] for g in graphs]
    aucs = delayed(aucs_only)(tallies)
    totals = [g["totals"] for g in graphs]
    sums = []
    for b, (y, _, w) in enumerate(first_blocks):
        mine = [vals[b] for g in graphs for vals in g["values"]]
        rows_at = [g["rows_at"][b] for g in graphs]
        if cluster is None:
            sums.append(delayed(block_covariance)(y, w, classes, aucs, rows_at, totals, *mine))
        else:
            sums.append(delayed(block_cluster_sums)(y, w, classes, len(cols), rows_at, totals,
                                                    clusters[0][b], *mine))
    return delayed(covariance_of if cluster is None else clustered_of)(sums, tallies)


def delong_result(graph, cluster, compute):
    """The computed ``(aucs, covariance)`` (with the in-memory warning when a
    clustered covariance is NaN), or the graph."""
    if not compute:
        return graph
    aucs, cov = graph.compute()
    return warn_small_clusters(aucs, cov) if cluster is not None else (aucs, cov)


@dask_doc
def delong_covariance(y_true, y_scores, *, sample_weight=None, cluster=None, compute=True):
    """:func:`fastauc.delong_covariance` of k score columns held by Dask:
    ``(aucs, covariance)``.

    Each model's table is range-partitioned as for :func:`roc_auc_score`;
    every row's placement under each model is looked up in the range that
    holds its score (the rows of a block travel to their ranges' lookups and
    their placements come back to the block), and each block adds its share
    of DeLong's sums, so no task holds more than a block's rows or a range's
    table.

    Parameters
    ----------
    {y_true}
    {y_scores}
    {sample_weight/delong}
    {cluster/delong}
    {compute}

    Returns
    -------
    aucs : ndarray of shape (k,)
    cov : ndarray of shape (k, k)
        ``cov[a, b] = S10[a, b] / m + S01[a, b] / n``, with ``S10`` and ``S01``
        the sample covariances of the positives' and negatives' placement
        values, as pROC computes them (the in-memory numbers).

        With ``compute=False``, a ``Delayed`` of the tuple ``(aucs, cov)``.

    Raises
    ------
    ValueError
        Before any task runs: columns of different lengths (dask arrays and
        array-likes) or not 1-D.  When computing (from ``.compute()`` with
        ``compute=False``): a NaN or infinite score (naming its global row),
        labels with more than two values or a mix of strings and numbers, no
        rows at all, negative or non-finite weights, weights that are all zero
        (as in memory); each score column is checked.

    See Also
    --------
    fastauc.delong_covariance : The in-memory function.
    fastauc.spark.delong_covariance : The same on Spark.
    delong_test : The paired test of two columns.

    References
    ----------
    .. [1] DeLong, E. R., DeLong, D. M. and Clarke-Pearson, D. L. (1988).
       Comparing the areas under two or more correlated receiver operating
       characteristic curves: a nonparametric approach. Biometrics 44, 837-845.

    Examples
    --------
    >>> import dask.array as da, numpy as np
    >>> import fastauc, fastauc.dask
    >>> rng = np.random.default_rng(0)
    >>> y = rng.integers(0, 2, 10_000)
    >>> a = np.round(y + rng.normal(size=10_000), 2)      # a good model
    >>> b = np.round(y + 2 * rng.normal(size=10_000), 2)  # a weaker one
    >>> Y, A, B = (da.from_array(x, 1000) for x in (y, a, b))  # 10 chunks each
    >>> aucs, cov = fastauc.dask.delong_covariance(Y, [A, B])
    >>> ref = fastauc.delong_covariance(y, np.column_stack((a, b)))
    >>> bool(np.allclose(aucs, ref[0], rtol=1e-12, atol=0))
    True
    >>> bool(np.allclose(cov, ref[1], rtol=1e-12, atol=0))
    True
    >>> aucs.round(3)
    array([0.756, 0.642])
    """
    return delong_result(delong_graph(y_true, y_scores, sample_weight, cluster=cluster),
                         cluster, compute)


@dask_doc
def delong_test(y_true, y_score_a, y_score_b, *, alternative="two-sided",
                confidence_level=0.95, sample_weight=None, cluster=None, compute=True):
    """:func:`fastauc.delong_test` (paired) of two score columns held by Dask.

    The AUCs and their covariance come from :func:`delong_covariance`; the
    test is the in-memory one on those.

    Parameters
    ----------
    {y_true}
    {y_score_a}
    {y_score_b}
    {alternative}
    {confidence_level/difference}
    {sample_weight/delong}
    {cluster/delong}
    {compute}

    Returns
    -------
    result : fastauc.DeLongTestResult or dask.delayed.Delayed
        ``statistic`` (z), ``pvalue``, ``difference`` (auc_a - auc_b), ``low``,
        ``high``, ``se``, ``auc_a``, ``auc_b``.  Identical scores give z = 0,
        p = 1.  A ``Delayed`` of it when ``compute=False``.

    Raises
    ------
    ValueError
        Before any task runs: an ``alternative`` outside its choices, a
        ``confidence_level`` outside (0, 1) (``TypeError`` when not a number),
        columns of different lengths or not 1-D.  When computing (from
        ``.compute()`` with ``compute=False``): a NaN or infinite score
        (naming its global row), labels with more than two values or a mix of
        strings and numbers, no rows at all, negative or non-finite weights,
        weights that are all zero (as in memory).

    See Also
    --------
    fastauc.delong_test : The in-memory function.
    fastauc.spark.delong_test : The same on Spark.
    bootstrap_test : The paired bootstrap comparison.

    Examples
    --------
    >>> import dask.array as da, numpy as np
    >>> import fastauc, fastauc.dask
    >>> rng = np.random.default_rng(0)
    >>> y = rng.integers(0, 2, 10_000)
    >>> a = np.round(y + rng.normal(size=10_000), 2)      # a good model
    >>> b = np.round(y + 2 * rng.normal(size=10_000), 2)  # a weaker one
    >>> Y, A, B = (da.from_array(x, 1000) for x in (y, a, b))  # 10 chunks each
    >>> res = fastauc.dask.delong_test(Y, A, B)
    >>> ref = fastauc.delong_test(y, a, b)
    >>> abs(res.difference - ref.difference) < 1e-12, abs(res.statistic - ref.statistic) < 1e-9
    (True, True)
    >>> round(res.auc_a, 3), round(res.auc_b, 3), res.pvalue < 1e-6
    (0.756, 0.642, True)
    """
    from .._delong import paired_test

    v.check_choice(alternative, "alternative", _ALTERNATIVES)
    level = v.check_confidence_level(confidence_level)
    dask, _ = load_dask()
    graph = delong_graph(y_true, [y_score_a, y_score_b], sample_weight, cluster=cluster)
    if compute:
        aucs, cov = delong_result(graph, cluster, True)
        return paired_test(aucs, cov, 0, 1, level, alternative)
    return dask.delayed(lambda ac: paired_test(ac[0], ac[1], 0, 1, level, alternative))(graph)


# ---------------------------------------------------------------- Poisson bootstrap

def replicates_graph(y_true, y_score, sample_weight, seed, n_resamples, positive=None,
                     cluster=None):
    """Delayed ``(tallies, every replicate's AUC)`` of one score column (with
    ``cluster``, the rows' counts are their clusters')."""
    dask, _ = load_dask()
    delayed = dask.delayed
    blocks, offsets, n_rows, *clusters = blocks_of(y_true, y_score, sample_weight, cluster)
    g = range_graph(blocks, offsets, n_rows, positive)
    k = g["n_ranges"]
    ids = clusters[0] if clusters else [None] * len(blocks)
    split = [delayed(rows_by_range, nout=k)(y, s, w, o, g["classes"], g["splitters"], k, c)
             for (y, s, w), o, c in zip(blocks, offsets, ids)]
    sums = [delayed(range_replicates)(seed, n_resamples, *[sp[j] for sp in split])
            for j in range(k)]
    return g["tallies"], delayed(replicates_of)(sums)


@dask_doc
def bootstrap_ci(y_true, y_score, *, metric="roc_auc", n_resamples=1000,
                 confidence_level=0.95, method="percentile", stratified=None,
                 sample_weight=None, random_state=None, scheme="poisson", cluster=None,
                 compute=True):
    """:func:`fastauc.bootstrap_ci` with ``scheme="poisson"`` on Dask.

    Every row's Poisson(1) count in replicate ``r`` is a function of the
    seed, ``r`` and the row's global position, so each replicate equals the
    in-memory ``bootstrap_ci(..., scheme="poisson")`` replicate, bit for bit
    with unit weights, whatever the partitioning and the workers.  The rows of
    each key range meet in one task, which sweeps all the replicates; the
    ranges' sums combine as the AUC's do (the weight above a range, per
    replicate).  The multinomial scheme cannot be split across partitions
    (a replicate draws n rows from all of them) and raises.

    Parameters
    ----------
    {y_true}
    {y_score}
    {metric/bootstrap}
    {n_resamples}
    {confidence_level}
    {method/bootstrap}
    {stratified}
    {sample_weight/bootstrap}
    {random_state}
    {scheme}
    {cluster/bootstrap}
    {compute}

    Returns
    -------
    result : fastauc.BootstrapResult or dask.delayed.Delayed
        ``estimate`` (the AUC of all rows), ``low``, ``high``, ``se`` (the
        standard deviation of the replicates), ``method``, ``n_resamples``,
        ``n_dropped`` (replicates whose resample has no weight in a class)
        and ``replicates`` (NaN where dropped).  A ``Delayed`` of it when
        ``compute=False``.

    Raises
    ------
    ValueError
        Before any task runs: a ``scheme`` other than ``"poisson"``, a
        ``metric`` other than ``"roc_auc"``, ``method="bca"`` or another
        unknown method, ``stratified=True``, an ``n_resamples`` below 1 or a
        ``confidence_level`` outside (0, 1) (a ``TypeError`` when either is
        not a number).  When computing (from ``.compute()`` with
        ``compute=False``): a NaN or infinite score (naming its global row),
        labels with more than two values or a mix of strings and numbers, no
        rows at all, negative or non-finite weights, weights that are all zero
        (as in memory); every replicate with a single class.

    See Also
    --------
    fastauc.bootstrap_ci : The in-memory function (both schemes, other metrics).
    roc_auc_ci : DeLong's interval, from one pass.
    bootstrap_test : The paired comparison of two models.

    References
    ----------
    .. [1] Hanley, J. A. and MacGibbon, B. (2006). Creating non-parametric
       bootstrap samples using Poisson frequencies. Computer Methods and
       Programs in Biomedicine 83, 57-62.

    Examples
    --------
    >>> import dask.array as da, numpy as np
    >>> import fastauc, fastauc.dask
    >>> rng = np.random.default_rng(0)
    >>> y = rng.integers(0, 2, 10_000)
    >>> a = np.round(y + rng.normal(size=10_000), 2)      # a good model
    >>> b = np.round(y + 2 * rng.normal(size=10_000), 2)  # a weaker one
    >>> Y, A, B = (da.from_array(x, 1000) for x in (y, a, b))  # 10 chunks each
    >>> res = fastauc.dask.bootstrap_ci(Y, A, n_resamples=200, random_state=1)
    >>> ref = fastauc.bootstrap_ci(y, a, n_resamples=200, random_state=1, scheme="poisson")
    >>> bool(np.array_equal(res.replicates, ref.replicates)), res.low == ref.low
    (True, True)
    >>> res.low < res.estimate < res.high
    True
    """
    n_resamples, level = check_poisson(scheme, metric, method, n_resamples,
                                        confidence_level, stratified)
    seed = int(v.seed_from_random_state(random_state))
    tallies, reps = replicates_graph(y_true, y_score, sample_weight, seed, n_resamples,
                                     cluster=cluster)

    result = load_dask()[0].delayed(bootstrap_result)(tallies, reps, level, method, n_resamples,
                                                     metric)
    return result.compute() if compute else result


@dask_doc
def bootstrap_test(y_true, y_score_a, y_score_b, *, metric="roc_auc", n_resamples=1000,
                   confidence_level=0.95, method="percentile", stratified=None,
                   alternative="two-sided", sample_weight=None, random_state=None,
                   scheme="poisson", cluster=None, compute=True):
    """:func:`fastauc.bootstrap_test` (paired) with ``scheme="poisson"`` on Dask.

    A row's count in a replicate depends on the seed, the replicate and the
    row's global position only, so both models see the same resample, as in
    memory; each model's replicates come from its own key ranges and the
    differences are taken on the client.  Equal, replicate by replicate, to
    the in-memory ``bootstrap_test(..., scheme="poisson")``.

    Parameters
    ----------
    {y_true}
    {y_score_a}
    {y_score_b}
    {metric/bootstrap}
    {n_resamples}
    {confidence_level/difference}
    {method/bootstrap}
    {stratified}
    {alternative}
    {sample_weight/bootstrap}
    {random_state}
    {scheme}
    {cluster/bootstrap}
    {compute}

    Returns
    -------
    result : fastauc.BootstrapTestResult or dask.delayed.Delayed
        ``difference`` (auc_a - auc_b on all rows), its interval
        ``low``/``high``, ``se`` (standard deviation of the replicate
        differences), ``statistic = difference / se`` and its normal
        ``pvalue``, ``estimate_a``, ``estimate_b`` and ``replicates`` of
        shape (n_resamples, 2).  A ``Delayed`` of it when ``compute=False``.

    Raises
    ------
    ValueError
        Before any task runs: a ``scheme`` other than ``"poisson"``, a
        ``metric`` other than ``"roc_auc"``, ``method="bca"`` or another
        unknown method, ``stratified=True``, an ``n_resamples`` below 1 or a
        ``confidence_level`` outside (0, 1) (a ``TypeError`` when either is
        not a number), an ``alternative`` outside its choices.  When computing
        (from ``.compute()`` with ``compute=False``): a NaN or infinite score
        (naming its global row), labels with more than two values or a mix of
        strings and numbers, no rows at all, negative or non-finite weights,
        weights that are all zero (as in memory); every replicate with a
        single class.

    See Also
    --------
    fastauc.bootstrap_test : The in-memory function (both schemes, other metrics).
    delong_test : DeLong's paired test, from one pass.
    bootstrap_ci : One model's bootstrap interval.

    Examples
    --------
    >>> import dask.array as da, numpy as np
    >>> import fastauc, fastauc.dask
    >>> rng = np.random.default_rng(0)
    >>> y = rng.integers(0, 2, 10_000)
    >>> a = np.round(y + rng.normal(size=10_000), 2)      # a good model
    >>> b = np.round(y + 2 * rng.normal(size=10_000), 2)  # a weaker one
    >>> Y, A, B = (da.from_array(x, 1000) for x in (y, a, b))  # 10 chunks each
    >>> res = fastauc.dask.bootstrap_test(Y, A, B, n_resamples=200, random_state=1)
    >>> ref = fastauc.bootstrap_test(y, a, b, n_resamples=200, random_state=1,
    ...                              scheme="poisson")
    >>> bool(np.array_equal(res.replicates, ref.replicates)), res.pvalue == ref.pvalue
    (True, True)
    >>> res.difference > 0, res.pvalue < 0.05
    (True, True)
    """
    n_resamples, level = check_poisson(scheme, metric, method, n_resamples,
                                        confidence_level, stratified)
    v.check_choice(alternative, "alternative", _ALTERNATIVES)
    seed = int(v.seed_from_random_state(random_state))
    ta, ra = replicates_graph(y_true, y_score_a, sample_weight, seed, n_resamples,
                              cluster=cluster)
    tb, rb = replicates_graph(y_true, y_score_b, sample_weight, seed, n_resamples,
                              cluster=cluster)

    result = load_dask()[0].delayed(bootstrap_test_result)(ta, tb, ra, rb, level, method,
                                                          alternative, n_resamples, metric)
    return result.compute() if compute else result
