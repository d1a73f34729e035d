"""Paired DeLong tests and the Poisson bootstrap on Dask."""

from __future__ import annotations

import math

import numpy as np

from .. import _validation as v
from .._kernels.table import find_sorted
from .._stats import ALTERNATIVES as _ALTERNATIVES
from .._table import placement_values
from .ranges import auc_of, aucs_only, blocks_of, column_graphs, columns_of, load_dask, range_graph

def _lookup(table, totals, k):
    """Range k's placement lookup: its keys ascending with each key's DeLong
    placement for a positive (negative weight below, ties one half, over N)
    and for a negative (positive weight above, ties one half, over P)."""
    tp0 = sum(t[0] for t in totals[:k])
    fp0 = sum(t[1] for t in totals[:k])
    big_p = sum(t[0] for t in totals)
    big_n = sum(t[1] for t in totals)
    v10, v01 = placement_values(table, tp0, fp0, big_p, big_n)
    return table.keys[::-1].copy(), v10[::-1].copy(), v01[::-1].copy()


def _row_split(y, s, classes, splitters, n_ranges):
    """A block's rows under one model, by key range (0 at the top): per range
    the keys of its positives and of its negatives in ascending runs (so that
    the range's lookups walk its table forwards, a galloping search), and
    last, the rows' positions in the same order, which stay with the block.
    One radix sort with the positions as payload (``sorted_runs``)."""
    from .._table import sorted_runs

    is_pos = v.positive_mask(np.asarray(y), classes[-1])
    s = np.ascontiguousarray(s, np.float64)
    if not s.shape[0]:  # an empty block: no rows anywhere
        nothing = (np.empty(0, np.uint64),) * 4
        return (*[nothing] * n_ranges, np.empty(0, np.int64))
    runs = sorted_runs(is_pos, s, v.EMPTY_WEIGHT, extra=np.arange(s.shape[0], dtype=np.int64))
    keys, rows = runs[0::3], runs[2::3]  # two positive runs, then two negative ones
    # splitters are descending: ascending cut j .. j+1 holds range K - 1 - j
    asc = splitters[::-1]
    cuts = [np.concatenate(([0], np.searchsorted(k, asc, side="left"), [k.shape[0]]))
            for k in keys]
    pieces, order = [], []
    for j in range(n_ranges - 1, -1, -1):
        pieces.append(tuple(k[c[j]:c[j + 1]] for k, c in zip(keys, cuts)))
        order += [r[c[j]:c[j + 1]] for r, c in zip(rows, cuts)]
    return (*pieces, np.concatenate(order))


def _place(piece, lookup):
    """The placements of a block's rows in one range (its positives' runs then
    its negatives', as ``_row_split`` cut them), in that order."""
    asc, v10, v01 = lookup
    out = []
    for r, keys in enumerate(piece):
        if not asc.shape[0]:  # only rows of weight zero here: they add nothing
            out.append(np.zeros(keys.shape[0]))
            continue
        # a score held only by rows of weight zero is not in the table: any
        # value will do for them (weight zero), the nearest key's is taken
        at = np.empty(keys.shape[0], np.int64)
        find_sorted(asc, keys, at)
        out.append((v10 if r < 2 else v01)[at])
    return np.concatenate(out)


def _block_covariance(y, w, classes, aucs, orders, *placed):
    """A block's share of DeLong's sums: ``placed`` holds, model by model, the
    placements from every range, in the order of the model's ``orders`` entry
    (row positions); the kernel adds up the products."""
    from .._kernels.placements import placement_covariance

    y = np.asarray(y)
    n = y.shape[0]
    k = aucs.shape[0]
    is_pos = v.positive_mask(y, classes[-1])
    X = np.empty((k, n))
    n_ranges = len(placed) // k
    for m in range(k):
        X[m, orders[m]] = np.concatenate(placed[m * n_ranges:(m + 1) * n_ranges])
    ww = v.EMPTY_WEIGHT if w is None else np.ascontiguousarray(w, np.float64)
    return placement_covariance(X, is_pos, ww, aucs, 0, n)


def _covariance_of(parts_sums, tallies):
    from .._delong import covariance_from_sums

    aucs = aucs_only(tallies)
    return aucs, covariance_from_sums(sum(p[0] for p in parts_sums),
                                      sum(p[1] for p in parts_sums))


def delong_graph(y_true, y_scores, sample_weight, positive=None):
    """Delayed ``(aucs, covariance)`` of k score columns on the same rows."""
    import functools

    dask, _ = load_dask()
    delayed = functools.partial(dask.delayed, pure=True)
    first_blocks, graphs, col_blocks = column_graphs(y_true, columns_of(y_scores),
                                                      sample_weight, positive)
    classes = graphs[0]["classes"]
    tallies = [g["tallies"] for g in graphs]
    aucs = delayed(aucs_only)(tallies)
    lookups = [[delayed(_lookup)(r, g["totals"], k) for k, r in enumerate(g["ranges"])]
               for g in graphs]  # one per model and range
    sums = []
    for b, (y, _, w) in enumerate(first_blocks):
        placed, orders = [], []
        for g, blocks, look in zip(graphs, col_blocks, lookups):
            k = g["n_ranges"]
            split = delayed(_row_split, nout=k + 1)(y, blocks[b][1], classes, g["splitters"], k)
            placed += [delayed(_place)(split[j], look[j]) for j in range(k)]
            orders.append(split[k])
        sums.append(delayed(_block_covariance)(y, w, classes, aucs, orders, *placed))
    return delayed(_covariance_of)(sums, tallies)


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
    from .._resample import bootstrap_interval, check_bootstrap_args
    from .._results import BootstrapResult

    if scheme != "poisson":
        raise ValueError("fastauc.dask.bootstrap_ci supports scheme='poisson' only: the "
                         "multinomial scheme draws n rows from every partition at once and "
                         "cannot be split across them; pass scheme='poisson'")
    n_resamples, level, _ = check_bootstrap_args(n_resamples, confidence_level, method,
                                                  stratified, scheme)
    if metric != "roc_auc":
        raise ValueError("fastauc.dask.bootstrap_ci computes metric='roc_auc' for now")
    if method == "bca":
        raise ValueError("method='bca' needs the jackknife over all rows; use 'percentile' "
                         "or 'basic' on Dask")
    seed = int(v.seed_from_random_state(random_state))
    dask, _ = load_dask()
    delayed = dask.delayed
    blocks, offsets, n_rows = blocks_of(y_true, y_score, sample_weight)
    g = range_graph(blocks, offsets, n_rows)
    k = g["n_ranges"]
    split = [delayed(_rows_by_range, nout=k)(y, s, w, o, g["classes"], g["splitters"], k)
             for (y, s, w), o in zip(blocks, offsets)]
    sums = [delayed(_range_replicates)(seed, n_resamples, *[sp[j] for sp in split])
            for j in range(k)]

    def finish(tallies, reps):
        estimate = auc_of(tallies)
        good = reps[np.isfinite(reps)]
        if good.shape[0] == 0:
            raise ValueError("every bootstrap replicate had a single class")
        low, high = bootstrap_interval(good, estimate, level, method, None)
        se = float(good.std(ddof=1)) if good.shape[0] > 1 else math.nan
        return BootstrapResult(estimate, low, high, se, method, level, n_resamples,
                               int(reps.shape[0] - good.shape[0]), metric, reps)

    result = delayed(finish)(g["tallies"], delayed(_replicates_of)(sums))
    return result.compute() if compute else result
