"""Bootstrap replicates: resample counts applied to the sorted tallies.

The data are sorted once into a *layout*: positions ``[0, n_pos)`` hold the
positives and ``[n_pos, n)`` the negatives, each in decreasing score order,
and ``bp[g]``/``bn[g]`` are the cumulative numbers of positives/negatives in
the distinct-score groups ``0..g`` (highest score first).  A replicate draws
each stratum's size of positions uniformly with replacement, counts them in an
int32 vector (one random increment per draw), and then walks the groups once,
streaming the counts: O(n) per replicate, no sort, no Python call.

Random numbers: each replicate ``r`` has its own SplitMix64 stream (Steele,
Lea & Flood 2014) started from ``mix(seed, r)``, and integers below ``m`` are
drawn with Lemire's (2019) multiply-shift rejection method, which is unbiased.
A replicate therefore depends only on ``(seed, r)``: results are identical
whatever the batching and the number of threads.
"""

from __future__ import annotations

import numpy as np

from .._jit import jit

GOLDEN = np.uint64(0x9E3779B97F4A7C15)
MIX1 = np.uint64(0xBF58476D1CE4E5B9)
MIX2 = np.uint64(0x94D049BB133111EB)
LOW32 = np.uint64(0xFFFFFFFF)
TWO32 = np.uint64(1 << 32)
S27, S30, S31, S32 = np.uint64(27), np.uint64(30), np.uint64(31), np.uint64(32)
ONE = np.uint64(1)

# metric codes
ROC_AUC, AVERAGE_PRECISION, PARTIAL_AUC, LOG_LOSS = 0, 1, 2, 3


@jit
def _mix(z):
    z = (z ^ (z >> S30)) * MIX1
    z = (z ^ (z >> S27)) * MIX2
    return z ^ (z >> S31)


@jit
def replicate_state(seed, r):
    """Start of replicate ``r``'s stream (``seed`` is uint64)."""
    return _mix(seed ^ _mix((np.uint64(r) + ONE) * GOLDEN))


@jit
def _next(state):
    state = state + GOLDEN
    return state, _mix(state)


@jit
def draw_below(state, m):
    """A uniform integer in ``[0, m)`` (``m >= 1``, uint64) and the new state."""
    if m <= TWO32:
        state, z = _next(state)
        prod = (z >> S32) * m
        low = prod & LOW32
        if low < m:
            threshold = (TWO32 - m) % m
            while low < threshold:
                state, z = _next(state)
                prod = (z >> S32) * m
                low = prod & LOW32
        return state, np.int64(prod >> S32)
    mask = m - ONE  # m > 2**32: mask to the next power of two, reject above
    for s in (S32, np.uint64(16), np.uint64(8), np.uint64(4), np.uint64(2), ONE):
        mask |= mask >> s
    while True:
        state, z = _next(state)
        x = z & mask
        if x < m:
            return state, np.int64(x)


@jit
def draw_positions(seed, r, strata):
    """The layout positions drawn by replicate ``r``, in draw order.

    ``strata`` are the boundaries ``[0, ..., n]`` of the strata; each stratum
    gets as many draws as it has positions.  Used to reconstruct a resample.
    """
    out = np.empty(strata[-1], np.int64)
    state = replicate_state(seed, r)
    k = 0
    for s in range(strata.shape[0] - 1):
        lo = strata[s]
        size = strata[s + 1] - lo
        for _ in range(size):
            state, u = draw_below(state, np.uint64(size))
            out[k] = lo + u
            k += 1
    return out


@jit
def _take(cnt, w, start, stop):
    """Weight of the drawn rows at positions ``[start, stop)``; resets the counts."""
    total = 0.0
    weighted = w.shape[0] > 0
    for p in range(start, stop):
        c = cnt[p]
        if c != 0:
            total += c * w[p] if weighted else float(c)
            cnt[p] = 0
    return total


@jit
def _weight_in(cnt, w, start, stop):
    total = 0.0
    weighted = w.shape[0] > 0
    for p in range(start, stop):
        total += cnt[p] * w[p] if weighted else float(cnt[p])
    return total


@jit
def replicate_value(cnt, bp, bn, n_groups, n_pos, w, loss, metric, max_fpr):
    """The metric of one resample given its counts over the layout.

    ``cnt`` is reset to zero on return.  NaN when a class has no weight.
    """
    n = cnt.shape[0]
    if metric == LOG_LOSS:
        s = 0.0
        sw = 0.0
        weighted = w.shape[0] > 0
        for p in range(n):
            c = cnt[p]
            if c != 0:
                wt = c * w[p] if weighted else float(c)
                s += wt * loss[p]
                sw += wt
                cnt[p] = 0
        return s / sw if sw > 0.0 else np.nan
    total_p = 1.0
    total_n = 1.0
    if metric == PARTIAL_AUC:
        total_p = _weight_in(cnt, w, 0, n_pos)
        total_n = _weight_in(cnt, w, n_pos, n)
    tp = 0.0
    fp = 0.0
    area2 = 0.0
    ap_num = 0.0
    partial = 0.0
    x0 = 0.0  # last ROC point inside [0, max_fpr]
    y0 = 0.0
    inside = True
    ip = 0
    ineg = n_pos
    for g in range(n_groups):
        tg = _take(cnt, w, ip, bp[g])
        fg = _take(cnt, w, ineg, n_pos + bn[g])
        ip = bp[g]
        ineg = n_pos + bn[g]
        area2 += fg * (2.0 * tp + tg)
        tp += tg
        fp += fg
        if metric == AVERAGE_PRECISION and tg > 0.0:
            ap_num += tg * (tp / (tp + fp))
        if metric == PARTIAL_AUC and inside and total_p > 0.0 and total_n > 0.0:
            x1 = fp / total_n
            y1 = tp / total_p
            if x1 <= max_fpr:
                partial += 0.5 * (x1 - x0) * (y0 + y1)
                x0 = x1
                y0 = y1
            else:  # the segment crosses max_fpr: interpolate, as scikit-learn
                y = y0 + (y1 - y0) * (max_fpr - x0) / (x1 - x0)
                partial += 0.5 * (max_fpr - x0) * (y0 + y)
                inside = False
    if tp <= 0.0 or fp <= 0.0:
        return np.nan
    if metric == AVERAGE_PRECISION:
        return ap_num / tp
    if metric == PARTIAL_AUC:
        min_area = 0.5 * max_fpr * max_fpr
        return 0.5 * (1.0 + (partial - min_area) / (max_fpr - min_area))
    return area2 / (2.0 * tp * fp)


@jit
def replicate_batch(seed, r_start, out, strata, maps, bp, bn, n_groups, n_pos, w, loss,
                    metric, max_fpr):
    """Replicates ``r_start .. r_start + len(out)`` of ``k`` models at once.

    ``out`` is (n_replicates, k).  Model 0's layout defines the draws; row
    ``p`` of model 0 sits at ``maps[m, p]`` in model ``m``'s layout (``maps``
    is (k, n), row 0 unused).  ``bp``/``bn`` are (k, max_groups) cumulative
    group counts, ``n_groups`` (k,); ``w`` and ``loss`` are (k, n) or (k, 0).
    """
    k = out.shape[1]
    n = strata[-1]
    cnt = np.zeros((k, n), np.int32)
    for r in range(out.shape[0]):
        state = replicate_state(seed, r_start + r)
        for s in range(strata.shape[0] - 1):
            lo = strata[s]
            size = strata[s + 1] - lo
            m_size = np.uint64(size)
            for _ in range(size):
                state, u = draw_below(state, m_size)
                p = lo + u
                cnt[0, p] += 1
                for m in range(1, k):
                    cnt[m, maps[m, p]] += 1
        for m in range(k):
            out[r, m] = replicate_value(
                cnt[m], bp[m], bn[m], n_groups[m], n_pos, w[m], loss[m], metric, max_fpr
            )
