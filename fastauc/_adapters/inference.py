"""The engine-neutral half of paired DeLong and the Poisson bootstrap on a
cluster: a block's share of DeLong's sums from its rows' placements, the
rows of a key range swept for every replicate, and the finishers."""

from __future__ import annotations

import math

import numpy as np

from .. import _validation as v
from .ranges import aucs_only, auc_of


def _outside(totals):
    """Per key range, the negative weight of the ranges below it and the
    positive weight of those above (suffix and prefix sums of the totals)."""
    below = np.zeros(len(totals))
    above = np.zeros(len(totals))
    for k in range(len(totals) - 1, 0, -1):
        below[k - 1] = below[k] + totals[k][1]
    for k in range(1, len(totals)):
        above[k] = above[k - 1] + totals[k - 1][0]
    return below, above


def _block_placements(y, w, classes, k, rows_at, totals, values):
    """``(X, is_pos, w)``: each row's placement under each of the ``k``
    models, from its table keys' values (see :func:`block_covariance`)."""
    from .._kernels.placements import row_placements

    y = np.asarray(y)
    n = y.shape[0]
    is_pos = v.positive_mask(y, classes[-1])
    ww = v.EMPTY_WEIGHT if w is None else np.ascontiguousarray(w, np.float64)
    X = np.empty((k, n))
    first = 0
    for m in range(k):
        mine = values[first:first + len(totals[m])]
        first += len(totals[m])
        ends = np.cumsum([0] + [p.shape[0] for p in mine]).astype(np.int64)
        if not ends[-1]:  # a block without weight: zeros add nothing
            X[m] = 0.0
            continue
        below, above = _outside(totals[m])
        read = row_placements(np.concatenate(mine), ends, below, above,
                              sum(t[1] for t in totals[m]), sum(t[0] for t in totals[m]),
                              rows_at[m], is_pos, ww, np.empty(n, np.uint8),
                              np.empty((2, n)), X[m])
        if read != ends[-1]:  # pragma: no cover - a bug, not bad input
            raise RuntimeError(f"the block's keys took {read} placement values of "
                               f"{ends[-1]}")
    return X, is_pos, ww


def block_covariance(y, w, classes, aucs, rows_at, totals, *values):
    """A block's share of DeLong's sums: ``values`` holds, model by model, the
    placement numerators of the block's table keys within every range (top
    range first: the table's order; per key, only those its classes need);
    the weight outside each range (from the ranges' ``totals``) completes
    them, each row takes its key's value for its class (through ``rows_at``,
    its position in the table) and the kernel adds up the products."""
    from .._kernels.placements import placement_covariance

    X, is_pos, ww = _block_placements(y, w, classes, aucs.shape[0], rows_at, totals, values)
    return placement_covariance(X, is_pos, ww, aucs, 0, X.shape[1])


def block_cluster_sums(y, w, classes, k, rows_at, totals, cluster, *values):
    """A block's placements summed per cluster (Obuchowski's variance):
    ``(ids, v10, m, v01, nn)``, the block's distinct cluster ids (sorted),
    per model the sums of their positives' and negatives' weighted
    placements, and their positive and negative weights."""
    from .._resample import cluster_ids

    X, is_pos, ww = _block_placements(y, w, classes, k, rows_at, totals, values)
    c = cluster_ids(cluster, X.shape[1])
    wt = np.ones(X.shape[1]) if ww.shape[0] == 0 else ww
    wp = np.where(is_pos, wt, 0.0)
    wn = wt - wp
    v10 = np.array([np.bincount(c.index, wp * X[a], c.size) for a in range(k)]).reshape(k, -1)
    v01 = np.array([np.bincount(c.index, wn * X[a], c.size) for a in range(k)]).reshape(k, -1)
    return (c.ids, v10, np.bincount(c.index, wp, c.size), v01,
            np.bincount(c.index, wn, c.size))


def clustered_of(parts, tallies):
    """``(aucs, Obuchowski's covariance)`` from the blocks' per-cluster sums
    (a cluster may span blocks: its sums are added up by id); NaN, without
    a warning here (the caller gives it), when fewer than two clusters hold
    a class."""
    from .._delong import clustered_covariance

    aucs = aucs_only(tallies)
    parts = [p for p in parts if p[0].shape[0]]
    ids, at = np.unique(np.concatenate([p[0] for p in parts]), return_inverse=True)
    at = at.reshape(-1)
    u = ids.shape[0]
    k = aucs.shape[0]

    def total(i, per_model):
        if per_model:
            return np.array([np.bincount(at, np.concatenate([p[i][a] for p in parts]), u)
                             for a in range(k)]).reshape(k, u)
        return np.bincount(at, np.concatenate([p[i] for p in parts]), u)

    cov = clustered_covariance(total(1, True), total(3, True), total(2, False),
                               total(4, False), aucs, warn=False)
    return aucs, cov


def warn_small_clusters(aucs, cov):
    """The in-memory warning for a clustered covariance that came back NaN."""
    from .._delong import SMALL_CLUSTERS

    if np.isnan(cov).any() and not np.isnan(aucs).any():
        v.warn_undefined(SMALL_CLUSTERS, stacklevel=None)
    return aucs, cov


def covariance_of(parts_sums, tallies):
    from .._delong import covariance_from_sums

    aucs = aucs_only(tallies)
    return aucs, covariance_from_sums(sum(p[0] for p in parts_sums),
                                      sum(p[1] for p in parts_sums))


# ---------------------------------------------------------------- Poisson bootstrap

def rows_by_range(y, s, w, offset, classes, splitters, n_ranges, cluster=None):
    """A block's rows split by key range: ``(keys, is_pos, w, global row id)``
    each (the rows of block starting at global row ``offset``); with
    ``cluster``, each row's cluster key instead of its row id (the Poisson
    counts are then the clusters', as in memory)."""
    from .._resample import cluster_ids
    from .._table import float_keys

    y = np.asarray(y)
    keys = float_keys(np.asarray(s, np.float64))
    is_pos = v.positive_mask(y, classes[-1])
    ww = None if w is None else np.asarray(w, np.float64)
    if cluster is None:
        rid = np.arange(offset, offset + keys.shape[0], dtype=np.int64)
    else:
        rid = cluster_ids(cluster, keys.shape[0]).key
    rk = splitters.shape[0] - np.searchsorted(splitters[::-1], keys, side="right")
    out = []
    for k in range(n_ranges):
        m = rk == k
        out.append((keys[m], is_pos[m], v.EMPTY_WEIGHT if ww is None else ww[m], rid[m]))
    return out


def range_replicates(seed, n_resamples, *pieces):
    """One key range's ``(tp, fp, area2)`` for every replicate, from its rows
    (in decreasing key, ties by row id: the same order whatever order the
    pieces come in)."""
    from .._kernels.resampling import poisson_range_sums

    keys = np.concatenate([p[0] for p in pieces])
    is_pos = np.concatenate([p[1] for p in pieces])
    rid = np.concatenate([p[3] for p in pieces])
    weighted = any(p[2].shape[0] for p in pieces)
    w = np.concatenate([p[2] for p in pieces]) if weighted else v.EMPTY_WEIGHT
    order = np.lexsort((rid, ~keys))  # decreasing key, then row id
    out = np.empty((n_resamples, 3))
    poisson_range_sums(keys[order], is_pos[order], w[order] if weighted else w,
                       rid[order], np.uint64(seed), 0, out)
    return out


def replicates_of(sums):
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


def replicate_interval(estimate, reps, level, method, alternative):
    """``(estimate, low, high, se, dropped)`` from the replicates (NaN: dropped).

    An undefined estimate (one class, warned where the AUC was computed)
    gives NaN throughout, as in memory (``fastauc.bootstrap_ci``)."""
    from .._resample import bootstrap_interval

    if math.isnan(estimate):
        return estimate, math.nan, math.nan, math.nan, int(reps.shape[0])
    good = reps[np.isfinite(reps)]
    if good.shape[0] == 0:
        raise ValueError("every bootstrap replicate had a single class")
    low, high = bootstrap_interval(good, estimate, level, method, None, alternative)
    se = float(good.std(ddof=1)) if good.shape[0] > 1 else math.nan
    return estimate, low, high, se, int(reps.shape[0] - good.shape[0])


def check_poisson(scheme, metric, method, n_resamples, confidence_level, stratified,
                  engine="fastauc.dask"):
    """The bootstrap's options on a cluster: the Poisson scheme, the AUC,
    no BCa (its jackknife needs all rows at once)."""
    from .._resample import check_bootstrap_args

    if scheme != "poisson":
        raise ValueError(f"{engine} bootstraps with scheme='poisson' only: the multinomial "
                         "scheme draws n rows from every partition at once and cannot be "
                         "split across them; pass scheme='poisson'")
    n_resamples, level, _ = check_bootstrap_args(n_resamples, confidence_level, method,
                                                  stratified, scheme)
    if metric != "roc_auc":
        raise ValueError(f"{engine} bootstraps metric='roc_auc' for now")
    if method == "bca":
        raise ValueError(f"method='bca' needs the jackknife over all rows; use 'percentile' "
                         f"or 'basic' on {engine}")
    return n_resamples, level


def bootstrap_result(tallies, reps, level, method, n_resamples, metric):
    """:class:`~fastauc.BootstrapResult` from the tallies and the replicates."""
    from .._results import BootstrapResult

    estimate, low, high, se, n_dropped = replicate_interval(auc_of(tallies), reps, level,
                                                            method, "two-sided")
    return BootstrapResult(estimate, low, high, se, method, level, n_resamples, n_dropped,
                           metric, reps)


def bootstrap_test_result(ta, tb, ra, rb, level, method, alternative, n_resamples, metric):
    """:class:`~fastauc.BootstrapTestResult` of two models' tallies and replicates."""
    from .._results import BootstrapTestResult
    from .._stats import pvalue, ratio

    est_a, est_b = auc_of(ta), auc_of(tb)
    d, low, high, se, n_dropped = replicate_interval(est_a - est_b, ra - rb, level, method,
                                                     alternative)
    z = 0.0 if d == 0.0 and se == 0.0 else ratio(d, se)
    return BootstrapTestResult(z, pvalue(z, alternative), d, low, high, se, est_a, est_b,
                               method, alternative, level, n_resamples, n_dropped, metric,
                               np.column_stack((ra, rb)))


def boot_interval(tallies, reps, level, method):
    """A model's bootstrap :class:`~fastauc.ConfidenceInterval` (the report's)."""
    from .._results import ConfidenceInterval

    estimate, low, high, se, _ = replicate_interval(auc_of(tallies), reps, level, method,
                                                    "two-sided")
    return ConfidenceInterval(estimate, low, high, se, f"bootstrap ({method})", level)


def report_bootstrap(ci, level, options, engine):
    """A report's ``ci`` and bootstrap options on a cluster: ``(n_resamples,
    seed, method)`` for ``ci="bootstrap"`` (the Poisson scheme), None for
    DeLong's intervals."""
    v.check_choice(ci, "ci", ("delong", "bootstrap"))
    if ci == "delong":
        if options:
            raise TypeError(f"unexpected arguments for ci='delong': {sorted(options)}")
        return None
    options = dict(options)
    options.pop("progress", None)  # the in-memory option; the engines show their own
    seed = int(v.seed_from_random_state(options.pop("random_state", None)))
    method = options.pop("method", "percentile")
    n_resamples, _ = check_poisson(options.pop("scheme", "poisson"), "roc_auc", method,
                                   options.pop("n_resamples", 1000), level,
                                   options.pop("stratified", None), engine)
    if options:
        raise TypeError(f"unexpected bootstrap arguments: {sorted(options)}")
    return n_resamples, seed, method
