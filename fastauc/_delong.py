"""DeLong's covariance of several AUCs on the same rows, and the paired test.

The computational core of :mod:`fastauc.delong`, shared with ``report``.
One model's variance comes from the placement moments of the sweep that
gives its AUC; several models need each row's placement in each model, from
each model's sorted layout (``_resample.layouts``), and one pass over the rows
for the covariance (DeLong, DeLong & Clarke-Pearson 1988; Sun & Xu 2014).
"""

from __future__ import annotations

import math
import threading

import numpy as np

from . import _validation as v
from ._kernels.clusters import bucket_sums, cluster_walk, gammaincc, offset_codes
from ._kernels.sorting import ID_BITS
from ._kernels.coords import betainc, betaincinv
from ._kernels.placements import placement_covariance
from ._parallel import map_units, num_threads, row_blocks
from ._resample import layouts
from ._results import DeLongTestResult
from ._stats import delong_variance, difference_interval, pvalue, ratio
from ._sort import CHUNK_MIN, bucket_tagged, method, sort_bucket, sort_by_class
from ._sort import _tables as _sort_tables
from ._table import cut_runs, sorted_tallies, spare, sweep_buffers, sweep_parts, weights_above

__all__ = ["SMALL_CLUSTERS", "SMALL_DELONG", "bonferroni", "class_weights", "cluster_codes",
           "clustered_aucs_and_covariance", "clustered_covariance", "covariance_from_sums",
           "delong_many", "delong_one", "delong_setup", "holm", "omnibus_statistic",
           "paired_test", "placement_cov", "t_pvalue", "unpaired_test"]


SMALL_DELONG = ("DeLong's variance needs a total weight above one in each class; "
                 "the covariance is NaN.")


_EPS = float(np.finfo(np.float64).eps)

def delong_one(is_pos, s, w):
    """AUC and variance of one model from the moments of one sweep."""
    t = sorted_tallies(is_pos, s, w, curve=False, moments=True)
    auc = t.area2 / (2.0 * t.total_pos * t.total_neg)
    var = delong_variance(t.stats)
    if math.isnan(var):
        v.warn_undefined(SMALL_DELONG)
    return auc, var


def delong_many(is_pos, columns, w, names=None):
    """AUCs and DeLong covariance of several score columns (placements per row).

    ``columns`` are contiguous float64 (or float32) 1-D arrays.  Each is
    sorted once with its rows (``_sort.sort_by_class``) and one walk per
    column (``walk_rows``, through ``_resample.layouts``, which spreads the
    columns over the threads) writes every row's placement; then one pass
    over the rows gives the covariance.
    """
    k, n = len(columns), is_pos.shape[0]
    names = ["y_scores"] * k if names is None else names
    X = np.empty((k, n))
    _, aucs = layouts(is_pos, columns, names, w, X, keys=False, layout=False)
    return aucs, placement_cov(X, is_pos, w, aucs)


def placement_cov(X, is_pos, w, aucs):
    """DeLong's covariance from every row's placements ``X`` ((k, n)): the
    sums over fixed row blocks (``_parallel.row_blocks``) on the threads,
    added in block order."""
    parts = map_units(placement_covariance, [(X, is_pos, w, aucs, a, b)
                                             for a, b in row_blocks(is_pos.shape[0])])
    return covariance_from_sums(sum(p[0] for p in parts), sum(p[1] for p in parts))


def covariance_from_sums(s, ws, warn=True):
    """DeLong's k x k covariance from ``placement_covariance``'s sums (added up
    over any split of the rows): ``s`` (2, k, k) upper triangles, ``ws`` the
    class weights; NaN (with a warning) when a class weighs one or less."""
    k = s.shape[1]
    w10, w01 = ws
    if w10 <= 1.0 or w01 <= 1.0:
        if warn:
            v.warn_undefined(SMALL_DELONG, stacklevel=None)
        return np.full((k, k), np.nan)
    cov = s[0] / (w10 - 1.0) / w10 + s[1] / (w01 - 1.0) / w01
    return np.triu(cov) + np.triu(cov, 1).T


def delong_setup(y_true, y_scores, sample_weight, name):
    S = v.score_matrix(y_scores, v.n_rows(y_true), name)[1]
    is_pos, _, w = v.binary_rows(y_true, sample_weight, frequency=True, **{name: S})
    return is_pos, S, w


def class_weights(is_pos, w):
    if w.shape[0]:
        return float(w[is_pos].sum()), float(w[~is_pos].sum())
    n_pos = int(np.count_nonzero(is_pos))
    return float(n_pos), float(is_pos.shape[0] - n_pos)


def paired_test(aucs, cov, a, b, level, alternative, margin=0.0) -> DeLongTestResult:
    """DeLong's z test of ``aucs[a] - aucs[b]`` against ``margin`` from their
    covariance matrix."""
    d = float(aucs[a] - aucs[b])
    var = float(cov[a, a] + cov[b, b] - 2.0 * cov[a, b])
    if abs(var) <= 8.0 * _EPS * (abs(cov[a, a]) + abs(cov[b, b])):
        # zero up to the rounding of its terms (the models place every row
        # alike): so is a difference of two AUCs (in [0, 1]) at rounding level
        var = 0.0
        if abs(d) <= 8.0 * _EPS:
            d = 0.0
    se = math.sqrt(max(var, 0.0)) if not math.isnan(var) else math.nan
    z = 0.0 if d == margin and se == 0.0 else ratio(d - margin, se)
    low, high = difference_interval(d, se, level, alternative)
    return DeLongTestResult(z, pvalue(z, alternative), d, low, high, se, float(aucs[a]),
                            float(aucs[b]), alternative, level, margin=margin)


# ------------------------------------------------------------ two samples

def unpaired_test(auc_a, var_a, n_a, auc_b, var_b, n_b, level, alternative,
                  margin=0.0) -> DeLongTestResult:
    """DeLong's test of two AUCs on different rows (pROC's unpaired test).

    ``D = (auc_a - auc_b - margin) / sqrt(var_a + var_b)`` referred to
    Student's t with Welch-Satterthwaite's degrees of freedom
    ``(var_a + var_b)^2 / (var_a^2 / (n_a - 1) + var_b^2 / (n_b - 1))``, ``n``
    each sample's total weight (its number of rows without weights).  The
    interval of the difference uses the same t quantile.
    """
    d = float(auc_a - auc_b)
    var = float(var_a + var_b)
    se = math.sqrt(max(var, 0.0)) if not math.isnan(var) else math.nan
    with np.errstate(divide="ignore", invalid="ignore"):
        df = float(np.float64(var) ** 2 / (np.float64(var_a) ** 2 / (n_a - 1.0)
                                            + np.float64(var_b) ** 2 / (n_b - 1.0)))
    if se == 0.0 and not (math.isnan(var_a) or math.isnan(var_b)):
        df = math.inf  # both samples separate perfectly: no variance to estimate
    stat = 0.0 if d == margin and se == 0.0 else ratio(d - margin, se)
    p = t_pvalue(stat, df, alternative)
    low, high = t_difference_interval(d, se, df, level, alternative)
    return DeLongTestResult(stat, p, d, low, high, se, float(auc_a), float(auc_b), alternative,
                            level, df=df, margin=margin)


def t_sf(t, df):
    """Upper tail ``P(T > t)`` of Student's t with ``df`` (> 0, real) degrees
    of freedom: ``I_x(df / 2, 1 / 2) / 2`` with ``x = df / (df + t^2)``."""
    if math.isnan(t) or math.isnan(df):
        return math.nan
    if math.isinf(t):
        return 0.0 if t > 0 else 1.0
    half = 0.5 * float(betainc(0.5 * df, 0.5, df / (df + t * t)))
    return half if t > 0 else 1.0 - half


def t_ppf(p, df):
    """The quantile of Student's t at ``p`` (in (0, 1)), by inverting the
    incomplete beta function."""
    if p == 0.5:
        return 0.0
    q = p if p < 0.5 else 1.0 - p
    x = float(betaincinv(0.5 * df, 0.5, 2.0 * q))
    t = math.sqrt(df * (1.0 - x) / x) if x > 0.0 else math.inf
    return -t if p < 0.5 else t


def t_pvalue(t, df, alternative):
    """p-value of a t statistic (the normal's when ``df`` is infinite)."""
    if math.isnan(t) or math.isnan(df):
        return math.nan
    if math.isinf(df):
        return pvalue(t, alternative)
    if alternative == "greater":
        return float(t_sf(t, df))
    if alternative == "less":
        return float(t_sf(-t, df))
    return min(1.0, 2.0 * float(t_sf(abs(t), df)))


def t_difference_interval(d, se, df, level, alternative):
    """``difference_interval`` with Student's t quantile for ``df``."""
    if math.isnan(d) or math.isnan(se) or math.isnan(df):
        return math.nan, math.nan
    if math.isinf(df):
        return difference_interval(d, se, level, alternative)
    q = float(t_ppf(0.5 + 0.5 * level if alternative == "two-sided" else level, df))
    if alternative == "two-sided":
        return max(-1.0, d - q * se), min(1.0, d + q * se)
    if alternative == "greater":
        return max(-1.0, d - q * se), 1.0
    return -1.0, min(1.0, d + q * se)


# ------------------------------------------------------------ clusters

def cluster_codes(cluster, n, scan=True):
    """Cluster ids (any 1-D array-like of hashable values, ``n`` of them) ->
    ``(codes, count, offset)``: int32 or int64 codes with ``codes - offset``
    in ``0..count - 1``.  Integers of a range no wider than ``n + 1024`` are
    their own codes (int32 and int64 ids as they are, offset by their
    minimum; other integers copied to int32 codes in one pass); values in
    the range that occur in no row are clusters without rows, which add
    nothing.  Other ids take one ``np.unique``.  ``scan=False``: int32 and
    int64 ids come back as they are, unread, with ``count`` and ``offset``
    None (a caller that finds their range itself)."""
    ids = cluster if isinstance(cluster, np.ndarray) else np.asarray(cluster)
    if ids.ndim != 1:
        raise ValueError(f"cluster must be 1-D (one cluster id per row), got shape {ids.shape}")
    if ids.shape[0] != n:
        raise ValueError("Found input variables with inconsistent numbers of samples: "
                         f"[{n}, {ids.shape[0]}] (y_true has {n}, cluster has {ids.shape[0]})")
    if n == 0:
        return np.zeros(0, np.int32), 0, 0
    if ids.dtype.kind == "b":
        ids = ids.view(np.uint8)
    if not scan and ids.dtype in (np.int32, np.int64) and ids.dtype.isnative:
        return np.ascontiguousarray(ids), None, None
    if ids.dtype.kind in "iu":
        lo, hi = (int(x) for x in v.minmax(ids))  # one pass, on the threads
        span = hi - lo + 1
        if span <= n + 1024:
            if ids.dtype in (np.int32, np.int64) and ids.dtype.isnative:
                return np.ascontiguousarray(ids), span, lo  # the ids are the codes
            out = np.empty(n, np.int32 if span < 2**31 else np.int64)
            return offset_codes(ids, ids.dtype.type(lo), out), span, 0
    if ids.dtype.kind in "fc" and np.isnan(ids).any():
        raise ValueError("cluster contains NaN: every row needs a cluster id")
    if ids.dtype.kind == "O" and any(x is None for x in ids):
        raise ValueError("cluster contains None: every row needs a cluster id")
    try:
        uniq, codes = np.unique(ids, return_inverse=True)
    except TypeError as exc:  # ids of mixed types: no order between them
        try:
            import pandas as pd
        except ImportError:
            raise TypeError(f"cluster ids could not be sorted ({exc}); use ids of one type")
        codes, uniq = pd.factorize(ids)
    count = int(len(uniq))
    codes = np.ascontiguousarray(codes.reshape(-1), np.int32 if count < 2**31 else np.int64)
    return codes, count, 0


def clustered_covariance(v10, v01, m, nn, aucs, warn=True):
    """Obuchowski's (1997) covariance of the AUCs of clustered rows.

    From the placements summed per cluster: ``v10[a, c]``/``v01[a, c]`` the
    sums of cluster ``c``'s positives' and negatives' placements in model
    ``a`` (each times its weight), ``m[c]``/``nn[c]`` its positive and
    negative weights.  With ``M``/``N`` the totals, ``I10``/``I01`` the
    numbers of clusters with positives and with negatives and ``I`` those
    with either::

        S10 = I10 / ((I10 - 1) M) sum_c (V10_c - m_c A)(V10_c - m_c A)'
        S01 = I01 / ((I01 - 1) N) sum_c (V01_c - n_c A)(V01_c - n_c A)'
        S11 = I / (I - 1) sum_c (V10_c - m_c A)(V01_c - n_c A)'
        cov = S10 / M + S01 / N + (S11 + S11') / (M N)

    One row per cluster gives DeLong's covariance (``S11 = 0``).  NaN (with a
    warning) when fewer than two clusters hold each class.
    """
    k = v10.shape[0]
    M, N = float(m.sum()), float(nn.sum())
    i10 = int(np.count_nonzero(m > 0))
    i01 = int(np.count_nonzero(nn > 0))
    i_all = int(np.count_nonzero((m + nn) > 0))
    if i10 <= 1 or i01 <= 1:
        if warn:
            v.warn_undefined(SMALL_CLUSTERS, stacklevel=None)
        return np.full((k, k), np.nan)
    A = np.asarray(aucs, np.float64)[:, None]
    d10 = v10 - m[None, :] * A
    d01 = v01 - nn[None, :] * A
    s10 = (d10 @ d10.T) * (i10 / ((i10 - 1.0) * M))
    s01 = (d01 @ d01.T) * (i01 / ((i01 - 1.0) * N))
    s11 = (d10 @ d01.T) * (i_all / (i_all - 1.0))
    cov = s10 / M + s01 / N + (s11 + s11.T) / (M * N)
    return 0.5 * (cov + cov.T)


SMALL_CLUSTERS = ("The clustered DeLong variance needs at least two clusters holding each "
                  "class; the covariance is NaN.")


def _cluster_sums(is_pos, s, w, codes, n_clusters, total_p, total_n, name, offset=0):
    """One model's AUC (``roc_auc_score``'s float) and its placements summed
    per cluster, ``(auc, sums)`` with ``sums`` (n_clusters, 4): each
    cluster's positives' placements summed, their weight, the same for its
    negatives.  One sort carrying the cluster codes, then the walk of
    ``cluster_walk`` over the sweep's key ranges (``_table.split_sweep``'s
    cuts and weights above, so the AUC's sums are the sweep's); unweighted
    rows take :func:`_bucket_sums` instead."""
    r = sort_by_class(is_pos, s, w, extra=codes, name=name, alloc=sweep_buffers)
    runs = (r.pk, r.pw, r.nk, r.nw)
    n = s.shape[0]
    if n >= CHUNK_MIN:
        ranges = cut_runs(runs, sweep_parts(n))
        above = weights_above(ranges)
    else:
        ranges, above = [runs], [(0.0, 0.0)]
    R = len(ranges)
    bp = np.array([r.pk.shape[0], *(r.pk.shape[0] - np.cumsum([x[0].shape[0] for x in ranges]))],
                  np.int64)
    bn = np.array([r.nk.shape[0], *(r.nk.shape[0] - np.cumsum([x[2].shape[0] for x in ranges]))],
                  np.int64)
    tp0s = np.array([a for a, _ in above], np.float64)
    fp0s = np.array([b for _, b in above], np.float64)
    area, tps, fps = np.zeros(R), np.zeros(R), np.zeros(R)
    # the ranges in up to 4 fixed groups on the threads, each with its own
    # sums (a function of the sizes alone: the same floats for any threads);
    # one group when the clusters are many (each group's sums: 32 bytes a cluster)
    units = 1 if R == 1 or n_clusters > n // 16 else min(R, 4)
    halves = [(R * u // units, R * (u + 1) // units) for u in range(units)]
    sums = [np.zeros(4 * n_clusters) for _ in halves]
    map_units(cluster_walk, [(r.pk, r.pw, r.px, r.nk, r.nw, r.nx, bp, bn, tp0s, fp0s, a, b,
                              offset, total_p, total_n, acc, area, tps, fps)
                             for (a, b), acc in zip(halves, sums)])
    area2 = 0.0
    for x in area.tolist():
        area2 += x
    tp, fp = float(tps[-1]), float(fps[-1])
    auc = area2 / (2.0 * tp * fp) if tp > 0 and fp > 0 else math.nan
    total = sums[0]
    for more in sums[1:]:
        total += more
    return auc, total.reshape(n_clusters, 4)  # columns: v10, m, v01, n per cluster


SUMS_BYTES = 1 << 26  # the bucket walks' sums may take this, or 16 bytes a row if more


class _Sums:
    """The bucket walks' sums: up to ``most`` arrays of ``size`` int64 zeros,
    made as units ask for them and lent to one unit at a time, each thread
    given back the one it had (its L2 holds it), another free one otherwise
    (a unit waits for one when all are out: many clusters, many threads).
    Integer sums: the total is the same however units share them."""

    def __init__(self, size, most):
        self.size, self.most = size, most
        self.made, self.free, self.last = [], set(), {}
        self.cond = threading.Condition()

    def take(self) -> int:
        """The index in ``made`` of the sums lent to this thread."""
        me = threading.get_ident()
        with self.cond:
            while True:
                mine = self.last.get(me)
                if mine in self.free:
                    self.free.discard(mine)
                    return mine
                if len(self.made) < self.most:
                    self.made.append(np.zeros(self.size, np.int64))
                    got = len(self.made) - 1
                elif self.free:
                    got = self.free.pop()
                else:
                    self.cond.wait()
                    continue
                self.last[me] = got
                return got

    def give(self, i: int):
        with self.cond:
            self.free.add(i)
            self.cond.notify()


def _bucket_sums(is_pos, s, ids, n_clusters, total_p, total_n, name, offset):
    """``_cluster_sums`` of unweighted rows, in integers: the rows scattered
    into key buckets with their cluster id and class (``bucket_tagged``),
    then each bucket, in turn on the threads, sorted and walked in cache
    (``bucket_sums``): no sorted copy of the whole and no second pass over
    it.  Each cluster's sums are integers (twice ``N`` or ``P`` times its
    placements), exact in any order, so the threads keep one set each (as
    many as ``SUMS_BYTES`` or 16 bytes a row hold, at least one); the AUC's
    count is exact too (``2 P N`` below ``2**53``), so it is
    ``roc_auc_score``'s float.

    ``n_clusters`` None: ``ids`` are integers not yet scanned, their range
    found by the scatter; returns None when it is too wide for codes (see
    :func:`cluster_codes`), else ``(auc, sums, n_clusters, offset)``."""
    b = bucket_tagged(is_pos, s, ids, name, alloc=sweep_buffers)
    least, most = b.ids
    if n_clusters is None:
        if most - least >= min(ids.shape[0] + 1024, ID_BITS):
            return None
        n_clusters, offset = most - least + 1, least
    longest = int(np.max(np.diff(b.starts))) if b.starts.shape[0] > 1 else 0
    numpy = method() == "numpy"
    base = offset & ID_BITS
    sums = _Sums(4 * n_clusters, max(1, min(num_threads(), max(SUMS_BYTES, 16 * s.shape[0])
                                            // (32 * n_clusters))))

    def unit(first, last):
        packed = spare("cluster packed", longest, np.uint64)
        tmp = spare("cluster scratch words", longest, np.uint64)
        sk = spare("cluster keys", longest, b.keys.dtype)
        sx = spare("cluster tags", longest, np.uint32)
        tk = spare("cluster scratch keys", longest, b.keys.dtype)
        tx = spare("cluster scratch tags", longest, np.uint32)
        tables = _sort_tables()
        area2 = 0
        lent = sums.take()
        acc = sums.made[lent]
        try:
            for j in range(first, last):
                a, e = int(b.starts[j]), int(b.starts[j + 1])
                if e == a:
                    continue
                ib, exact = sort_bucket(b.keys, a, e, packed, tmp, tables, numpy)
                area2 += bucket_sums(packed[:e - a], ib, exact, b.keys, b.tags, a, base,
                                     int(b.pos_below[j]), int(b.neg_below[j]), int(total_p),
                                     acc, sk, sx, tk, tx, tables)
        finally:
            sums.give(lent)
        return area2

    area2 = sum(map_units(unit, b.ranges))
    total = sums.made[0]
    for acc in sums.made[1:]:
        total += acc
    neg, pos = total.reshape(2, n_clusters, 2)
    out = np.empty((n_clusters, 4))
    np.divide(pos[:, 0], 2.0 * total_n, out=out[:, 0])
    out[:, 1] = pos[:, 1]
    np.divide(neg[:, 0], 2.0 * total_p, out=out[:, 2])
    out[:, 3] = neg[:, 1]
    auc = float(area2) / (2.0 * total_p * total_n)
    return auc, out, n_clusters, offset


def clustered_aucs_and_covariance(is_pos, columns, w, cluster, names=None):
    """AUCs (``roc_auc_score``'s floats) and Obuchowski's covariance of
    validated score columns on clustered rows (both classes present, of
    positive weight): each column sorted once with the cluster codes and
    walked into per-cluster sums of its placements.  Unweighted rows
    (``2 P N`` below ``2**53``) take :func:`_bucket_sums`, which finds the
    range of integer ids as it scatters them."""
    k = len(columns)
    n = is_pos.shape[0]
    names = ["y_scores"] * k if names is None else names
    total_p, total_n = class_weights(is_pos, w)
    buckets = w.shape[0] == 0 and 2.0 * total_p * total_n < 2.0**53
    codes, n_clusters, offset = cluster_codes(cluster, n, scan=not buckets)
    v10 = v01 = None
    aucs = np.empty(k)
    for a, (col, name) in enumerate(zip(columns, names)):
        if buckets:
            got = _bucket_sums(is_pos, col, codes, n_clusters, total_p, total_n, name, offset)
            if got is None:  # integer ids too far apart for codes of their own
                codes, n_clusters, offset = cluster_codes(cluster, n)
                got = _bucket_sums(is_pos, col, codes, n_clusters, total_p, total_n, name,
                                   offset)
            aucs[a], sums, n_clusters, offset = got
        else:
            aucs[a], sums = _cluster_sums(is_pos, col, w, codes, n_clusters, total_p, total_n,
                                          name, offset)
        if v10 is None:
            v10, v01 = np.empty((k, n_clusters)), np.empty((k, n_clusters))
        v10[a], v01[a] = sums[:, 0], sums[:, 2]
    m, nn = sums[:, 1], sums[:, 3]
    return aucs, clustered_covariance(v10, v01, m, nn, aucs)


# ------------------------------------------------------------ k models

def omnibus_statistic(aucs, cov):
    """DeLong et al.'s (1988) chi-square of equal AUCs: contrasts ``L`` of each
    model against the next, ``(L A)' (L S L')^+ (L A)`` on ``rank(L S L')``
    degrees of freedom (``k - 1`` unless models are linear combinations of
    one another); returns ``(statistic, df, pvalue)``."""
    k = aucs.shape[0]
    L = np.zeros((k - 1, k))
    idx = np.arange(k - 1)
    L[idx, idx] = 1.0
    L[idx, idx + 1] = -1.0
    if np.isnan(cov).any() or np.isnan(aucs).any():
        return math.nan, float(k - 1), math.nan
    c = L @ aucs
    Q = L @ cov @ L.T
    scale = float(np.abs(np.diag(cov)).max()) if k else 0.0
    evals, evecs = np.linalg.eigh(Q)
    keep = evals > 1e3 * _EPS * max(scale, 1e-300) * k
    df = int(np.count_nonzero(keep))
    proj = evecs[:, keep].T @ c
    stat = float(np.sum(proj * proj / evals[keep]))
    resid = c - evecs[:, keep] @ proj
    if np.any(np.abs(resid) > 8.0 * _EPS):  # a difference with no variance
        return math.inf, float(max(df, 1)), 0.0
    if df == 0:
        return 0.0, 0.0, 1.0
    return stat, float(df), float(gammaincc(0.5 * df, 0.5 * stat))


def holm(p):
    """Holm's step-down adjusted p-values (NaN stays NaN)."""
    p = np.asarray(p, np.float64)
    out = np.full(p.shape, np.nan)
    ok = ~np.isnan(p)
    q = p[ok]
    m = q.shape[0]
    order = np.argsort(q, kind="stable")
    adj = np.minimum(1.0, np.maximum.accumulate((m - np.arange(m)) * q[order]))
    res = np.empty(m)
    res[order] = adj
    out[ok] = res
    return out


def bonferroni(p):
    """Bonferroni's adjusted p-values (NaN stays NaN)."""
    p = np.asarray(p, np.float64)
    return np.minimum(1.0, p * np.count_nonzero(~np.isnan(p)))
