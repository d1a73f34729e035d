"""Paired DeLong tests and the Poisson bootstrap on Dask."""

from __future__ import annotations

import math

import numpy as np

from .. import _validation as v
from .._adapters.ranges import block_covariance, covariance_of
from .._stats import ALTERNATIVES as _ALTERNATIVES
from .ranges import auc_of, aucs_only, blocks_of, column_graphs, columns_of, load_dask, range_graph


def delong_graph(y_true, y_scores, sample_weight, positive=None):
    """Delayed ``(aucs, covariance)`` of k score columns on the same rows."""
    import functools

    dask, _ = load_dask()
    delayed = functools.partial(dask.delayed, pure=True)
    first_blocks, graphs, _ = column_graphs(y_true, columns_of(y_scores), sample_weight,
                                            positive, track=True)
    classes = graphs[0]["classes"]
    tallies = [g["tallies"] for g in graphs]
    aucs = delayed(aucs_only)(tallies)
    totals = [g["totals"] for g in graphs]
    sums = []
    for b, (y, _, w) in enumerate(first_blocks):
        mine = [vals[b] for g in graphs for vals in g["values"]]
        sums.append(delayed(block_covariance)(y, w, classes, aucs,
                                               [g["rows_at"][b] for g in graphs], totals,
                                               *mine))
    return delayed(covariance_of)(sums, tallies)


def delong_covariance(y_true, y_scores, *, sample_weight=None, compute=True):
    """:func:`fastauc.delong_covariance` of k score columns held by Dask:
    ``(aucs, covariance)``.

    Each model's table is range-partitioned as for :func:`roc_auc_score`;
    every row's placement under each model is looked up in the range that
    holds its score (the rows of a block travel to their ranges' lookups and
    their placements come back to the block), and each block adds its share
    of DeLong's sums, so no task holds more than a block's rows or a range's
    table.
    """
    graph = delong_graph(y_true, y_scores, sample_weight)
    return graph.compute() if compute else graph


def delong_test(y_true, y_score_a, y_score_b, *, alternative="two-sided",
                confidence_level=0.95, sample_weight=None, compute=True):
    """:func:`fastauc.delong_test` (paired) of two score columns held by Dask."""
    from .._delong import paired_test

    v.check_choice(alternative, "alternative", _ALTERNATIVES)
    level = v.check_confidence_level(confidence_level)
    dask, _ = load_dask()
    graph = delong_graph(y_true, [y_score_a, y_score_b], sample_weight)
    result = dask.delayed(lambda ac: paired_test(ac[0], ac[1], 0, 1, level, alternative))(graph)
    return result.compute() if compute else result


# ---------------------------------------------------------------- Poisson bootstrap

def _rows_by_range(y, s, w, offset, classes, splitters, n_ranges):
    """A block's rows split by key range: ``(keys, is_pos, w, global row id)``."""
    from .._table import float_keys

    y = np.asarray(y)
    keys = float_keys(np.asarray(s, np.float64))
    is_pos = v.positive_mask(y, classes[-1])
    ww = None if w is None else np.asarray(w, np.float64)
    rid = np.arange(offset, offset + keys.shape[0], dtype=np.int64)
    rk = splitters.shape[0] - np.searchsorted(splitters[::-1], keys, side="right")
    out = []
    for k in range(n_ranges):
        m = rk == k
        out.append((keys[m], is_pos[m], v.EMPTY_WEIGHT if ww is None else ww[m], rid[m]))
    return out


def _range_replicates(seed, n_resamples, *pieces):
    """One key range's ``(tp, fp, area2)`` for every replicate, from its rows."""
    from .._kernels.resampling import poisson_range_sums

    keys = np.concatenate([p[0] for p in pieces])
    is_pos = np.concatenate([p[1] for p in pieces])
    rid = np.concatenate([p[3] for p in pieces])
    weighted = any(p[2].shape[0] for p in pieces)
    w = np.concatenate([p[2] for p in pieces]) if weighted else v.EMPTY_WEIGHT
    order = np.argsort(~keys, kind="stable")  # decreasing key
    out = np.empty((n_resamples, 3))
    poisson_range_sums(keys[order], is_pos[order], w[order] if weighted else w,
                       rid[order], np.uint64(seed), 0, out)
    return out


def _replicates_of(sums):
    """Every replicate's AUC from the ranges' sums (top range first); NaN
    where a class has no resampled weight."""
    n_resamples = sums[0].shape[0]
    tp_above = np.zeros(n_resamples)
    area2 = np.zeros(n_resamples)
    fp = np.zeros(n_resamples)
    for part in sums:
        area2 += part[:, 2] + 2.0 * part[:, 1] * tp_above
        tp_above += part[:, 0]
        fp += part[:, 1]
    with np.errstate(divide="ignore", invalid="ignore"):
        reps = area2 / (2.0 * tp_above * fp)
    reps[(tp_above <= 0) | (fp <= 0)] = np.nan
    return reps


def _interval(estimate, reps, level, method, alternative):
    """``(estimate, low, high, se, dropped)`` from the replicates (NaN: dropped)."""
    from .._resample import bootstrap_interval

    good = reps[np.isfinite(reps)]
    if good.shape[0] == 0:
        raise ValueError("every bootstrap replicate had a single class")
    low, high = bootstrap_interval(good, estimate, level, method, None, alternative)
    se = float(good.std(ddof=1)) if good.shape[0] > 1 else math.nan
    return estimate, low, high, se, int(reps.shape[0] - good.shape[0])


def boot_interval(tallies, reps, level, method):
    """A model's bootstrap :class:`~fastauc.ConfidenceInterval` (the report's)."""
    from .._results import ConfidenceInterval

    estimate, low, high, se, _ = _interval(auc_of(tallies), reps, level, method, "two-sided")
    return ConfidenceInterval(estimate, low, high, se, f"bootstrap ({method})", level)


def check_poisson(scheme, metric, method, n_resamples, confidence_level, stratified):
    from .._resample import check_bootstrap_args

    if scheme != "poisson":
        raise ValueError("fastauc.dask bootstraps with scheme='poisson' only: the multinomial "
                         "scheme draws n rows from every partition at once and cannot be "
                         "split across them; pass scheme='poisson'")
    n_resamples, level, _ = check_bootstrap_args(n_resamples, confidence_level, method,
                                                  stratified, scheme)
    if metric != "roc_auc":
        raise ValueError("fastauc.dask bootstraps metric='roc_auc' for now")
    if method == "bca":
        raise ValueError("method='bca' needs the jackknife over all rows; use 'percentile' "
                         "or 'basic' on Dask")
    return n_resamples, level


def replicates_graph(y_true, y_score, sample_weight, seed, n_resamples, positive=None):
    """Delayed ``(tallies, every replicate's AUC)`` of one score column."""
    dask, _ = load_dask()
    delayed = dask.delayed
    blocks, offsets, n_rows = blocks_of(y_true, y_score, sample_weight)
    g = range_graph(blocks, offsets, n_rows, positive)
    k = g["n_ranges"]
    split = [delayed(_rows_by_range, nout=k)(y, s, w, o, g["classes"], g["splitters"], k)
             for (y, s, w), o in zip(blocks, offsets)]
    sums = [delayed(_range_replicates)(seed, n_resamples, *[sp[j] for sp in split])
            for j in range(k)]
    return g["tallies"], delayed(_replicates_of)(sums)


def bootstrap_ci(y_true, y_score, *, metric="roc_auc", n_resamples=1000,
                 confidence_level=0.95, method="percentile", stratified=None,
                 sample_weight=None, random_state=None, scheme="poisson", compute=True):
    """:func:`fastauc.bootstrap_ci` with ``scheme="poisson"`` on Dask.

    Every row's Poisson(1) count in replicate ``r`` is a function of the
    seed, ``r`` and the row's global position, so each replicate equals the
    in-memory ``bootstrap_ci(..., scheme="poisson")`` replicate, bit for bit
    with unit weights, whatever the partitioning and the workers.  The rows of
    each key range meet in one task, which sweeps all the replicates; the
    ranges' sums combine as the AUC's do (the weight above a range, per
    replicate).  The multinomial scheme cannot be split across partitions
    (a replicate draws n rows from all of them) and raises.
    """
    from .._results import BootstrapResult

    n_resamples, level = check_poisson(scheme, metric, method, n_resamples,
                                        confidence_level, stratified)
    seed = int(v.seed_from_random_state(random_state))
    tallies, reps = replicates_graph(y_true, y_score, sample_weight, seed, n_resamples)

    def finish(tallies, reps):
        estimate, low, high, se, n_dropped = _interval(auc_of(tallies), reps, level, method,
                                                       "two-sided")
        return BootstrapResult(estimate, low, high, se, method, level, n_resamples,
                               n_dropped, metric, reps)

    result = load_dask()[0].delayed(finish)(tallies, reps)
    return result.compute() if compute else result


def bootstrap_test(y_true, y_score_a, y_score_b, *, metric="roc_auc", n_resamples=1000,
                   confidence_level=0.95, method="percentile", stratified=None,
                   alternative="two-sided", sample_weight=None, random_state=None,
                   scheme="poisson", compute=True):
    """:func:`fastauc.bootstrap_test` (paired) with ``scheme="poisson"`` on Dask.

    A row's count in a replicate depends on the seed, the replicate and the
    row's global position only, so both models see the same resample, as in
    memory; each model's replicates come from its own key ranges and the
    differences are taken on the client.  Equal, replicate by replicate, to
    the in-memory ``bootstrap_test(..., scheme="poisson")``.
    """
    from .._results import BootstrapTestResult
    from .._stats import pvalue, ratio

    n_resamples, level = check_poisson(scheme, metric, method, n_resamples,
                                        confidence_level, stratified)
    v.check_choice(alternative, "alternative", _ALTERNATIVES)
    seed = int(v.seed_from_random_state(random_state))
    ta, ra = replicates_graph(y_true, y_score_a, sample_weight, seed, n_resamples)
    tb, rb = replicates_graph(y_true, y_score_b, sample_weight, seed, n_resamples)

    def finish(ta, tb, ra, rb):
        est_a, est_b = auc_of(ta), auc_of(tb)
        d, low, high, se, n_dropped = _interval(est_a - est_b, ra - rb, level, method,
                                                alternative)
        z = 0.0 if d == 0.0 and se == 0.0 else ratio(d, se)
        return BootstrapTestResult(z, pvalue(z, alternative), d, low, high, se, est_a, est_b,
                                   method, alternative, level, n_resamples, n_dropped, metric,
                                   np.column_stack((ra, rb)))

    result = load_dask()[0].delayed(finish)(ta, tb, ra, rb)
    return result.compute() if compute else result
