"""The sweep: one pass over the merged, descending distinct scores.

Both classes arrive sorted ascending, one run each (``_sort.sort_by_class``).
Walking the two runs from the top like the merge step of merge sort visits each distinct
score once with its positive weight ``tp_g`` and negative weight ``fp_g``:
the rows of the distinct-score table (``table``), which the sweep can write
out while it accumulates every sum of ``table.step`` (the ROC area, the
average-precision numerator, the rank-test and DeLong moments) in the same
pass.
"""

from __future__ import annotations

import numpy as np

from .._jit import jit
from .sorting import key_to_float_bits
from .table import add_moments, step

POS_INF_BITS = np.uint64(0x7FF0000000000000)


@jit
def kept_point(pt, pf, ct, cf, nt, nf, drop):
    """``drop_intermediate``'s rule for the point ``c`` between ``p`` and ``n``:
    ``drop == 1`` scikit-learn's ROC rule (a second difference is non-zero),
    ``drop == 2`` the PR/DET rule (``tps`` changes on either side)."""
    if drop == 1:
        return ((nf - cf) - (cf - pf)) != 0.0 or ((nt - ct) - (ct - pt)) != 0.0
    return (ct - pt) != 0.0 or (nt - ct) != 0.0


@jit
def sweep(pk, pw, nk, nw, keys_out, pos_out, neg_out, cumulative, tp0, fp0, stats, drop,
          first_is_end):
    """Merge-sweep the two classes' ascending key runs from the top.

    A run may be empty; weight arrays may be empty (unit weights).  When
    ``pos_out`` is non-empty (length >= number of distinct keys) the table is
    written out: each distinct key to ``keys_out`` (unless it is empty) and
    its positive and negative weight to ``pos_out``/``neg_out``, or with
    ``cumulative`` the weights down to and including it (the curve points).
    ``tp0``/``fp0`` are the weights of the rows scored above every key here
    (non-zero when the key range was cut in two and this is the lower part).
    ``stats`` is None, or ``N_STATS`` floats holding the class totals at
    ``ST_TOTAL_POS``/``ST_TOTAL_NEG`` and zeros elsewhere; the tie term and
    the placement moments are then accumulated into it.

    ``drop`` (curves only) applies a ``drop_intermediate`` rule (``kept_point``)
    while the points are written, one point behind: only the points kept are
    written (and so touch memory).  The first point is kept when
    ``first_is_end``; otherwise its predecessor is the point ``(tp0, fp0)``
    (the last one of the range above).  The last point is always written;
    ``(pt, pf)``, its predecessor, and ``(ft, ff)``, the first point, are
    returned so that the caller can judge the points where two ranges meet.

    Returns ``(n_written, total_pos, total_neg, area2, ap_num, pt, pf, ft, ff,
    n_points)``, ``n_points`` the points before any was dropped (counted only
    when ``drop``).
    """
    store = pos_out.shape[0] > 0
    streaming = store and cumulative and drop > 0
    pt = tp0  # the point before the candidate (original values)
    pf = fp0
    ct = 0.0  # the candidate: the last point seen, not yet written
    cf = 0.0
    ck = np.uint64(0)
    ft = 0.0
    ff = 0.0
    seen = 0
    store_keys = keys_out.shape[0] > 0
    pweighted = pw.shape[0] > 0
    nweighted = nw.shape[0] > 0
    i = pk.shape[0] - 1
    j = nk.shape[0] - 1
    tp = tp0
    fp = fp0
    area2 = 0.0
    ap_num = 0.0
    g = 0
    while i >= 0 or j >= 0:
        if j < 0 or (i >= 0 and pk[i] >= nk[j]):
            k = pk[i]
        else:
            k = nk[j]
        tg = 0.0
        while i >= 0 and pk[i] == k:
            tg += pw[i] if pweighted else 1.0
            i -= 1
        fg = 0.0
        while j >= 0 and nk[j] == k:
            fg += nw[j] if nweighted else 1.0
            j -= 1
        if stats is not None:  # None: pruned when compiled (no moments code at all)
            add_moments(tp, fp, tg, fg, stats)
        a, p = step(tp, fp, tg, fg)
        area2 += a
        ap_num += p
        tp += tg
        fp += fg
        if streaming:
            if seen == 0:
                ft = tp
                ff = fp
            elif (seen == 1 and first_is_end) or kept_point(pt, pf, ct, cf, tp, fp, drop):
                keys_out[g] = ck
                pos_out[g] = ct
                neg_out[g] = cf
                g += 1
            if seen > 0:
                pt = ct
                pf = cf
            ct = tp
            cf = fp
            ck = k
            seen += 1
            continue
        if store:
            if store_keys:
                keys_out[g] = k
            if cumulative:
                pos_out[g] = tp
                neg_out[g] = fp
            else:
                pos_out[g] = tg
                neg_out[g] = fg
        g += 1
    if streaming and seen > 0:  # the last point: always written
        keys_out[g] = ck
        pos_out[g] = ct
        neg_out[g] = cf
        g += 1
    return g, tp, fp, area2, ap_num, pt, pf, ft, ff, seen


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
    # one pass, compacting as it goes: point i is written at m <= i, and the
    # original values of i - 1 are carried along (no keep array to allocate)
    t0 = tps[0]
    f0 = fps[0]
    t1 = tps[1]
    f1 = fps[1]
    m = 1
    for i in range(1, n - 1):
        t2 = tps[i + 1]
        f2 = fps[i + 1]
        if second_difference:
            keep = ((f2 - f1) - (f1 - f0)) != 0.0 or ((t2 - t1) - (t1 - t0)) != 0.0
        else:
            keep = (t1 - t0) != 0.0 or (t2 - t1) != 0.0
        if keep:
            tps[m] = t1
            fps[m] = f1
            thr[m] = thr[i]
            m += 1
        t0 = t1
        f0 = f1
        t1 = t2
        f1 = f2
    tps[m] = tps[n - 1]
    fps[m] = fps[n - 1]
    thr[m] = thr[n - 1]
    return m + 1


@jit
def copy_points(thr, tps, fps, a, thr_out, tps_out, fps_out, b, g):
    """Points ``a:a + g`` of a curve's three arrays to ``b:b + g`` of three others
    (one key range's share of ``_table.split_sweep``'s gather)."""
    for i in range(g):
        thr_out[b + i] = thr[a + i]
        tps_out[b + i] = tps[a + i]
        fps_out[b + i] = fps[a + i]


@jit
def finish_points(tps, fps, thr, total_p, total_n, lo, hi, pr, whole):
    """Turn compacted tallies into curve values, in place, slots ``lo:hi`` of
    ``[0, m]`` (one row block: any split of ``[0, m]`` gives the same arrays).

    The tallies occupy ``[1, m]`` of each array; slot 0 is free;
    ``total_p``/``total_n`` are the tallies at ``m`` (read before any slot
    changes).  ROC (``pr`` False): slot 0 becomes the point (0, 0) with
    threshold ``inf``, ``fps`` and ``tps`` are divided by their totals (a
    zero total gives NaN, as in scikit-learn) and keys become float64 bits;
    the curve is ``[0, m]`` in decreasing-threshold order.  PR: ``fps``
    becomes precision and ``tps`` recall, slot 0 holds (1, 0), keys become
    float64 bits; ``reverse_points`` then puts them in increasing-threshold
    order (here at once when ``whole``: the call covers all of ``[0, m]``)."""
    for i in range(lo, hi):
        if i == 0:
            if pr:
                fps[0] = 1.0
                tps[0] = 0.0
            else:
                tps[0] = 0.0 / total_p  # NaN when there are no positives, as scikit-learn
                fps[0] = 0.0 / total_n
                thr[0] = POS_INF_BITS
        elif pr:
            t = tps[i]
            fps[i] = t / (t + fps[i])
            tps[i] = t / total_p
            thr[i] = key_to_float_bits(thr[i])
        else:
            tps[i] = tps[i] / total_p
            fps[i] = fps[i] / total_n
            thr[i] = key_to_float_bits(thr[i])
    if pr and whole:
        m = hi - 1
        reverse_points(tps, fps, thr, m, 0, m // 2 + 1)


@jit
def finish_curve(tps, fps, thr, m, pr):
    """``finish_points`` over all of ``[0, m]`` in one call (a small curve;
    the totals are the tallies at ``m``)."""
    finish_points(tps, fps, thr, tps[m], fps[m], 0, m + 1, pr, True)


@jit
def reverse_points(tps, fps, thr, m, lo, hi):
    """Pairs ``lo:hi`` of the reversal of ``tps[0:m + 1]``, ``fps[0:m + 1]``
    and ``thr[1:m + 1]`` (pair ``j`` swaps ``j`` with ``m - j``, and ``1 + j``
    with ``m - j`` in ``thr``): each pair in one block, so blocks of pairs
    run on any threads."""
    for j in range(lo, hi):
        if j < m - j:
            tps[j], tps[m - j] = tps[m - j], tps[j]
            fps[j], fps[m - j] = fps[m - j], fps[j]
        if 1 + j < m - j:
            thr[1 + j], thr[m - j] = thr[m - j], thr[1 + j]


@jit
def class_pair_areas(keys, codes, a, n_classes):
    """One-vs-one areas of class ``a`` against every other class, from one
    column sorted by decreasing key with each row's class code.

    ``out[b]`` is twice the ROC area of the rows of class ``a`` (positive)
    against those of class ``b`` (negative) in weight units, ``sum`` over
    the tied groups of ``n_b (2 TP_a + t_a)`` as in ``table.step`` (a tied
    pair counts one half): each row of another class adds twice the class-a
    rows above its group plus those in it.  Unit weights: integer sums,
    exact, so every pair's area equals the binary sweep's on that pair's rows.
    """
    out = np.zeros(n_classes)
    n = keys.shape[0]
    tp = 0.0
    i = 0
    while i < n:
        k = keys[i]
        j = i
        ta = 0.0
        while j < n and keys[j] == k:
            ta += 1.0 if codes[j] == a else 0.0
            j += 1
        base = 2.0 * tp + ta
        for q in range(i, j):  # (class a's own rows land in out[a], unused)
            out[codes[q]] += base
        tp += ta
        i = j
    return out



@jit
def class_components(keys, payload, shift, a, alpha, beta, n_a, Z, areas):
    """Each row's part of a multiclass AUC's structural components from score
    column ``a`` (``_multiclass_delong``): ``keys`` the column sorted
    ascending, ``payload`` their rows' ``index << shift | class`` (the
    class comes with the row: no second lookup, no division).  A
    row of class ``a`` adds ``sum_b alpha[b] (below_b + tied_b / 2)``
    (``alpha[b]``: the weight of its comparison with class ``b`` over
    ``n_b``); a row of class ``b`` adds ``beta[b] (above_a + tied_a / 2)``
    (``beta[b]``: the weight over ``n_a``).  ``areas[b]`` (zeroed) gets
    twice the area of class ``a``'s rows over class ``b``'s in this column,
    in rows (each of ``b``'s rows adds twice the rows of ``a`` above it plus
    those tied: whole numbers, exact, ``class_pair_areas``' sums).  One
    pass, a tie group at a time."""
    n = keys.shape[0]
    mask = (1 << shift) - 1
    below = 0.0
    seen_a = 0.0
    i = 0
    while i < n:
        key = keys[i]
        j = i
        ta = 0.0
        tw = 0.0
        while j < n and keys[j] == key:
            c = payload[j] & mask
            if c == a:
                ta += 1.0
            else:
                tw += alpha[c]
            j += 1
        above = n_a - seen_a - ta
        for q in range(i, j):
            r = payload[q] >> shift
            c = payload[q] & mask
            if c == a:
                Z[r] += below + 0.5 * tw
            else:
                Z[r] += beta[c] * (above + 0.5 * ta)
                areas[c] += 2.0 * above + ta
        below += tw
        seen_a += ta
        i = j
