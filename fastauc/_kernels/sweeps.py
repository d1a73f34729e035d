"""The sweep: one pass over the merged, descending distinct scores.

Both classes arrive sorted ascending (``sorting.radix_sort``).  Walking them
from the top like the merge step of merge sort visits each distinct score once
with its positive weight ``tp_g`` and negative weight ``fp_g``.  From these
tallies the sweep accumulates

- twice the ROC area in count units, ``sum_g fp_g * (2 * TP_before + tp_g)``
  (a tied positive/negative pair counts one half: the trapezoid rule);
- the average-precision numerator, ``sum_g tp_g * TP_g / (TP_g + FP_g)``;
- optionally the cumulative tallies ``TP_g``, ``FP_g`` and the threshold key
  of every group, which are the points of the ROC, PR and DET curves.

On request (a non-empty ``stats`` array) the same pass also accumulates what
the rank tests and DeLong's variance need: the tie term ``sum_g (t_g**3 - t_g)``
of the Mann-Whitney test (``t_g = tp_g + fp_g``) and the weighted mean and sum
of squared deviations of the placement values (DeLong 1988), updated group by
group with West's weighted form of Welford's algorithm, so no cancellation.

Counts and weights are accumulated in float64, exact for integer counts up
to 2**53.
"""

from __future__ import annotations

import numpy as np

from .._jit import jit
from .sorting import key_to_float_bits

POS_INF_BITS = np.uint64(0x7FF0000000000000)

# layout of the ``stats`` array of ``sweep`` (0, 1 are inputs; the rest outputs)
ST_TOTAL_POS, ST_TOTAL_NEG = 0, 1
ST_TIES, ST_MAX_TIE = 2, 3
ST_W10, ST_MEAN10, ST_M2_10 = 4, 5, 6  # placements of positives, weighted by tp_g
ST_W01, ST_MEAN01, ST_M2_01 = 7, 8, 9  # placements of negatives, weighted by fp_g
N_STATS = 10


@jit
def _take_group(keys, w, i, k):
    """Walk down run ``keys`` from index ``i`` while it equals ``k``."""
    total = 0.0
    weighted = w.shape[0] > 0
    while i >= 0 and keys[i] == k:
        total += w[i] if weighted else 1.0
        i -= 1
    return total, i


@jit
def _head(keys, i, best, found):
    if i >= 0 and (not found or keys[i] > best):
        return keys[i], True
    return best, found


@jit
def _welford(stats, at, w, x):
    """Add value ``x`` with weight ``w > 0`` to the running (W, mean, M2) at ``at``."""
    total = stats[at] + w
    delta = x - stats[at + 1]
    stats[at] = total
    stats[at + 1] += delta * (w / total)
    stats[at + 2] += w * delta * (x - stats[at + 1])


@jit
def merge_stats(a, b):
    """Combine the ``stats`` of two key ranges into ``a`` (Chan et al. 1979)."""
    a[ST_TIES] += b[ST_TIES]
    a[ST_MAX_TIE] = max(a[ST_MAX_TIE], b[ST_MAX_TIE])
    for at in (ST_W10, ST_W01):
        wa = a[at]
        wb = b[at]
        total = wa + wb
        if wb == 0.0:
            continue
        delta = b[at + 1] - a[at + 1]
        a[at] = total
        a[at + 1] += delta * (wb / total)
        a[at + 2] += b[at + 2] + delta * delta * (wa * wb / total)


@jit
def sweep(pk1, pw1, pk2, pw2, nk1, nw1, nk2, nw2, thr_out, tps_out, fps_out, tp0, fp0, stats):
    """Merge-sweep ascending key runs from the top.

    Each class comes as two sorted runs (``*1``, ``*2``; a run may be empty)
    so that the two halves of the rows can be sorted on two threads.  Weight
    arrays may be empty (unit weights).  When ``thr_out`` is non-empty
    (length >= number of distinct keys) the per-group threshold key and
    cumulative ``TP``/``FP`` are written to the three output arrays.
    ``tp0``/``fp0`` are the weights of the rows scored above every key here
    (non-zero when the key range was cut in two and this is the lower part).
    ``stats`` is empty, or ``N_STATS`` floats holding the class totals at
    ``ST_TOTAL_POS``/``ST_TOTAL_NEG`` and zeros elsewhere; the tie term and
    the placement moments are then accumulated into it.

    Returns ``(n_groups, total_pos, total_neg, area2, ap_num)``.
    """
    store = tps_out.shape[0] > 0
    store_thr = thr_out.shape[0] > 0
    moments = stats.shape[0] > 0
    total_p = stats[ST_TOTAL_POS] if moments else 1.0
    total_n = stats[ST_TOTAL_NEG] if moments else 1.0
    ip1 = pk1.shape[0] - 1
    ip2 = pk2.shape[0] - 1
    in1 = nk1.shape[0] - 1
    in2 = nk2.shape[0] - 1
    tp = tp0
    fp = fp0
    area2 = 0.0
    ap_num = 0.0
    g = 0
    k = np.uint64(0)
    while True:
        found = False
        k, found = _head(pk1, ip1, k, found)
        k, found = _head(pk2, ip2, k, found)
        k, found = _head(nk1, in1, k, found)
        k, found = _head(nk2, in2, k, found)
        if not found:
            break
        t1, ip1 = _take_group(pk1, pw1, ip1, k)
        t2, ip2 = _take_group(pk2, pw2, ip2, k)
        f1, in1 = _take_group(nk1, nw1, in1, k)
        f2, in2 = _take_group(nk2, nw2, in2, k)
        tg = t1 + t2
        fg = f1 + f2
        area2 += fg * (2.0 * tp + tg)
        if moments:
            tie = tg + fg
            stats[ST_TIES] += (tie * tie - 1.0) * tie
            stats[ST_MAX_TIE] = max(stats[ST_MAX_TIE], tie)
            if tg > 0.0:  # positives here beat the negatives below, tie with these
                _welford(stats, ST_W10, tg, ((total_n - fp - fg) + 0.5 * fg) / total_n)
            if fg > 0.0:  # negatives here lose to the positives above
                _welford(stats, ST_W01, fg, (tp + 0.5 * tg) / total_p)
        tp += tg
        fp += fg
        if tg > 0.0:
            ap_num += tg * (tp / (tp + fp))
        if store:
            if store_thr:
                thr_out[g] = k
            tps_out[g] = tp
            fps_out[g] = fp
        g += 1
    return g, tp, fp, area2, ap_num


@jit
def drop_intermediate(tps, fps, thr, second_difference):
    """Compact curve points in place; return how many are kept.

    ``second_difference=True`` is scikit-learn's ``roc_curve`` rule: keep the
    ends and every point where the second difference of ``fps`` or ``tps`` is
    non-zero (a corner).  ``False`` is the PR/DET rule: keep the ends and every
    point whose ``tps`` differs from its predecessor's or its successor's.
    """
    n = tps.shape[0]
    if n <= 2:
        return n
    keep = np.zeros(n, np.bool_)
    keep[0] = True
    keep[n - 1] = True
    for i in range(1, n - 1):
        if second_difference:
            d2f = (fps[i + 1] - fps[i]) - (fps[i] - fps[i - 1])
            d2t = (tps[i + 1] - tps[i]) - (tps[i] - tps[i - 1])
            keep[i] = d2f != 0.0 or d2t != 0.0
        else:
            keep[i] = (tps[i] - tps[i - 1]) != 0.0 or (tps[i + 1] - tps[i]) != 0.0
    m = 0
    for i in range(n):
        if keep[i]:
            tps[m] = tps[i]
            fps[m] = fps[i]
            thr[m] = thr[i]
            m += 1
    return m


@jit
def finish_curve(tps, fps, thr, m, pr):
    """Turn compacted tallies into curve arrays, in place, in one pass.

    The tallies occupy ``[1, m]`` of each array; slot 0 is free.  ``pr=False``
    (ROC): slot 0 becomes the point (0, 0) with threshold ``inf``, ``fps`` and
    ``tps`` are divided by their totals (a zero total gives NaN, as in
    scikit-learn) and keys become float64 bits; the curve is ``[0, m]`` in
    decreasing-threshold order.  ``pr=True``: ``fps`` becomes precision and
    ``tps`` recall, slot 0 holds (1, 0), and ``[0, m]`` is reversed so that
    thresholds increase and (1, 0) comes last; the thresholds are ``[0, m)``
    after the call.
    """
    total_p = tps[m]
    total_n = fps[m]
    if pr:
        for i in range(1, m + 1):
            t = tps[i]
            fps[i] = t / (t + fps[i])
            tps[i] = t / total_p
            thr[i] = key_to_float_bits(thr[i])
        fps[0] = 1.0
        tps[0] = 0.0
        lo = 0
        hi = m
        while lo < hi:
            fps[lo], fps[hi] = fps[hi], fps[lo]
            tps[lo], tps[hi] = tps[hi], tps[lo]
            lo += 1
            hi -= 1
        lo = 1
        hi = m
        while lo < hi:  # thresholds [1, m] reversed ...
            thr[lo], thr[hi] = thr[hi], thr[lo]
            lo += 1
            hi -= 1
        for j in range(m):  # ... and moved to [0, m)
            thr[j] = thr[j + 1]
        return
    tps[0] = 0.0 / total_p  # NaN when there are no positives, as scikit-learn
    fps[0] = 0.0 / total_n
    thr[0] = POS_INF_BITS
    for i in range(1, m + 1):
        tps[i] = tps[i] / total_p
        fps[i] = fps[i] / total_n
        thr[i] = key_to_float_bits(thr[i])
