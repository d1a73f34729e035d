"""The distinct-score table: build, merge, sweep, and its segmented form.

A table is three arrays of one length ``G``: ``keys`` (the order-preserving
uint64 keys of ``sorting.float_key``, distinct and *descending*), ``pos`` and
``neg`` (the positive and the negative weight of the rows with that score).
Everything a single model's ranking metrics need is a sweep of it from the
top: with ``TP``/``FP`` the weight above a key and ``tp_g``/``fp_g`` the
weight at it,

- twice the ROC area in weight units, ``sum_g fp_g * (2 TP + tp_g)`` (a tied
  positive/negative pair counts one half: the trapezoid rule);
- the average-precision numerator, ``sum_g tp_g * (TP + tp_g) / (TP + tp_g + FP + fp_g)``;
- optionally the Mann-Whitney tie term and DeLong's placement moments
  (``step``; ``sweeps.ST_*`` is the layout of ``stats``).

A sweep of a key range that starts from the weight above the range
(``tp0``, ``fp0``) gives that range's share of every sum, so a table can be
cut into key ranges and swept on several threads (or machines), and tables
built from any partition of the rows merge (``merge``) into the table of all
of them.  Weights are summed in float64, exact for integer counts up to 2**53.

A *segmented* table holds one table per group back to back, with
``starts[j]:starts[j + 1]`` the keys of group ``j``; ``grouped_table`` builds
it from rows and their group codes, ``sweep_segments`` sweeps every segment.
"""

from __future__ import annotations

import numpy as np

from .._jit import jit
from .sorting import BYTE, N_DIGITS, float_key, radix_sort

# layout of the ``stats`` array (0, 1 are inputs; the rest outputs)
ST_TOTAL_POS, ST_TOTAL_NEG = 0, 1
ST_TIES, ST_MAX_TIE = 2, 3
ST_W10, ST_MEAN10, ST_M2_10 = 4, 5, 6  # placements of positives, weighted by tp_g
ST_W01, ST_MEAN01, ST_M2_01 = 7, 8, 9  # placements of negatives, weighted by fp_g
N_STATS = 10

# columns of the per-segment sums of ``sweep_segments``
SEG_TP, SEG_FP, SEG_AREA2, SEG_AP, N_SEG = 0, 1, 2, 3, 4


@jit
def _welford(stats, at, w, x):
    """Add value ``x`` with weight ``w > 0`` to the running (W, mean, M2) at ``at``."""
    total = stats[at] + w
    delta = x - stats[at + 1]
    stats[at] = total
    stats[at + 1] += delta * (w / total)
    stats[at + 2] += w * delta * (x - stats[at + 1])


@jit
def step(tp, fp, tg, fg, stats, moments):
    """The per-key arithmetic, written once: every sweep calls it.

    ``tp``/``fp`` are the weights above the key, ``tg``/``fg`` the weights at
    it.  Returns the key's contributions ``(area2, ap_num)``; with
    ``moments`` the tie term and the placement moments (West's weighted
    Welford update, no cancellation) are added to ``stats``, whose class
    totals must be set.
    """
    if moments:
        total_p = stats[ST_TOTAL_POS]
        total_n = stats[ST_TOTAL_NEG]
        tie = tg + fg
        stats[ST_TIES] += (tie * tie - 1.0) * tie
        stats[ST_MAX_TIE] = max(stats[ST_MAX_TIE], tie)
        if tg > 0.0:  # positives here beat the negatives below, tie with these
            _welford(stats, ST_W10, tg, ((total_n - fp - fg) + 0.5 * fg) / total_n)
        if fg > 0.0:  # negatives here lose to the positives above
            _welford(stats, ST_W01, fg, (tp + 0.5 * tg) / total_p)
    area2 = fg * (2.0 * tp + tg)
    if tg > 0.0:
        tp_after = tp + tg
        return area2, tg * (tp_after / (tp_after + (fp + fg)))
    return area2, 0.0


@jit
def head(keys, i, best, found):
    """The greater of ``best`` and ``keys[i]`` (a run walked down from its top)."""
    if i >= 0 and (not found or keys[i] > best):
        return keys[i], True
    return best, found



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
def sweep_table(keys, pos, neg, lo, hi, tp0, fp0, stats, tps_out, fps_out):
    """Sweep keys ``lo:hi`` of a table from the weight above them (``tp0``, ``fp0``).

    ``stats`` is empty or ``N_STATS`` floats with the class totals set (the
    moments are then accumulated).  Non-empty ``tps_out``/``fps_out`` (length
    ``hi - lo``) receive the cumulative weights, the curve points.
    Returns ``(tp, fp, area2, ap_num)`` with ``tp``/``fp`` the weight down to
    and including key ``hi - 1``.
    """
    moments = stats.shape[0] > 0
    store = tps_out.shape[0] > 0
    tp = tp0
    fp = fp0
    area2 = 0.0
    ap_num = 0.0
    for g in range(lo, hi):
        tg = pos[g]
        fg = neg[g]
        a, p = step(tp, fp, tg, fg, stats, moments)
        area2 += a
        ap_num += p
        tp += tg
        fp += fg
        if store:
            tps_out[g - lo] = tp
            fps_out[g - lo] = fp
    return tp, fp, area2, ap_num


@jit
def merge_tables(k1, p1, n1, k2, p2, n2):
    """The table of the union of two tables' rows (one linear pass)."""
    out_k = np.empty(k1.shape[0] + k2.shape[0], np.uint64)
    out_p = np.empty(out_k.shape[0], np.float64)
    out_n = np.empty(out_k.shape[0], np.float64)
    i = 0
    j = 0
    g = 0
    while i < k1.shape[0] or j < k2.shape[0]:
        if j >= k2.shape[0] or (i < k1.shape[0] and k1[i] > k2[j]):
            out_k[g], out_p[g], out_n[g] = k1[i], p1[i], n1[i]
            i += 1
        elif i >= k1.shape[0] or k2[j] > k1[i]:
            out_k[g], out_p[g], out_n[g] = k2[j], p2[j], n2[j]
            j += 1
        else:
            out_k[g], out_p[g], out_n[g] = k1[i], p1[i] + p2[j], n1[i] + n2[j]
            i += 1
            j += 1
        g += 1
    return out_k[:g], out_p[:g], out_n[:g]


@jit
def sweep_segments(keys, pos, neg, starts, first, last, moments, sums, stats):
    """Sweep segments ``first:last`` of a segmented table, each from zero.

    Writes segment ``j``'s ``(tp, fp, area2, ap_num)`` to ``sums[j]`` and,
    with ``moments``, its ``N_STATS`` moments to ``stats[j]`` (rows of
    ``stats`` must be zero).  Segments are independent, so any split of
    ``first:last`` over threads gives the same numbers.
    """
    none = np.empty(0, np.float64)
    for j in range(first, last):
        lo = starts[j]
        hi = starts[j + 1]
        st = stats[j] if moments else none
        if moments:
            tot_p = 0.0
            tot_n = 0.0
            for g in range(lo, hi):
                tot_p += pos[g]
                tot_n += neg[g]
            st[ST_TOTAL_POS] = tot_p
            st[ST_TOTAL_NEG] = tot_n
        tp, fp, area2, ap_num = sweep_table(keys, pos, neg, lo, hi, 0.0, 0.0, st, none, none)
        sums[j, SEG_TP] = tp
        sums[j, SEG_FP] = fp
        sums[j, SEG_AREA2] = area2
        sums[j, SEG_AP] = ap_num


# columns of the per-group state of ``grouped_sweep``: pending weights at the
# current score, then the N_SEG sums, then the N_STATS moments (one cache-friendly row)
GS_PEND_T, GS_PEND_F, GS_SUMS = 0, 1, 2
GS_STATS = GS_SUMS + N_SEG
N_GS = GS_STATS + N_STATS


@jit
def _take_grouped(keys, w, tags, i, k, first, last, state, touched, n_touched):
    """Add the rows of run ``keys`` equal to ``k`` (walking down from ``i``) to
    their groups' pending weights, for groups ``first:last`` only (a thread
    writes only its own groups' rows of ``state``); note each group touched
    first.  A row's tag is ``2 * group + (1 if positive else 0)``."""
    weighted = w.shape[0] > 0
    while i >= 0 and keys[i] == k:
        tag = tags[i]
        g = tag >> 1
        if g < first or g >= last:
            i -= 1
            continue
        if state[g, GS_PEND_T] == 0.0 and state[g, GS_PEND_F] == 0.0:
            touched[n_touched] = g
            n_touched += 1
        state[g, GS_PEND_F - (tag & 1)] += w[i] if weighted else 1.0
        i -= 1
    return i, n_touched


@jit
def grouped_sweep(k1, w1, x1, k2, w2, x2, first, last, state, moments):
    """Sweep every group at once over rows sorted by score, each tagged with its group.

    ``k1``/``k2`` are two ascending runs of keys (either may be empty) with
    their weights (or empty) and tags ``2 * group + is_positive``.  Walking
    the distinct scores from the top, the rows at a score add to their
    groups' pending weights; then each group touched takes one ``step`` from
    its own weight above.  Only groups ``first <= g < last`` are kept (the
    caller cuts the groups in two ranges for two threads).  Per group this is
    exactly the sweep of that group's table, in the same order, so every
    group's sums are those of ``sweep_segments``.  ``state`` is (G, N_GS):
    zeros, with the class totals in the moments' columns when ``moments``;
    one row per group keeps a group's state in two cache lines.
    """
    touched = np.empty(state.shape[0], np.int64)
    none = np.empty(0, np.float64)
    i1 = k1.shape[0] - 1
    i2 = k2.shape[0] - 1
    k = np.uint64(0)
    while True:
        found = False
        k, found = head(k1, i1, k, found)
        k, found = head(k2, i2, k, found)
        if not found:
            break
        nt = 0
        i1, nt = _take_grouped(k1, w1, x1, i1, k, first, last, state, touched, nt)
        i2, nt = _take_grouped(k2, w2, x2, i2, k, first, last, state, touched, nt)
        for t in range(nt):
            g = touched[t]
            row = state[g]
            tg = row[GS_PEND_T]
            fg = row[GS_PEND_F]
            row[GS_PEND_T] = 0.0
            row[GS_PEND_F] = 0.0
            tp = row[GS_SUMS + SEG_TP]
            fp = row[GS_SUMS + SEG_FP]
            a, p = step(tp, fp, tg, fg, row[GS_STATS:] if moments else none, moments)
            row[GS_SUMS + SEG_AREA2] += a
            row[GS_SUMS + SEG_AP] += p
            row[GS_SUMS + SEG_TP] = tp + tg
            row[GS_SUMS + SEG_FP] = fp + fg


@jit
def group_totals(tags, weight, n_groups):
    """(G, 3): positive weight, negative weight and rows of every group (rows
    tagged as above)."""
    out = np.zeros((n_groups, 3))
    weighted = weight.shape[0] > 0
    for i in range(tags.shape[0]):
        tag = tags[i]
        g = tag >> 1
        out[g, 1 - (tag & 1)] += weight[i] if weighted else 1.0
        out[g, 2] += 1.0
    return out


@jit
def group_rows(bits, is_pos, weight, codes, n_groups):
    """Stable sort of the rows by group code: their keys and signed weights.

    Rows of weight zero are left out (they add no threshold, as in
    scikit-learn).  A positive row carries ``+w``, a negative ``-w`` (``w = 1``
    when ``weight`` is empty), so one payload holds class and weight.  Up to
    256 groups take one counting-sort pass; more take one LSD pass per byte of
    the group code (256 buckets each, which stays in cache where one pass
    with thousands of buckets would not).
    Returns ``(keys, signed, row_starts, n_bad, first_bad)``: the keys of
    group ``j`` are ``keys[row_starts[j]:row_starts[j + 1]]``, unsorted;
    ``n_bad``/``first_bad`` count NaN/inf scores (nothing else is done then).
    """
    n = bits.shape[0]
    weighted = weight.shape[0] > 0
    row_starts = np.zeros(n_groups + 1, np.int64)
    n_digits = 1
    while n_groups - 1 >= (1 << (8 * n_digits)):
        n_digits += 1
    hist = np.zeros((n_digits, 256), np.int64)
    n_bad = 0
    first_bad = -1
    exp_mask = np.uint64(0x7FF0000000000000)
    for i in range(n):
        if (bits[i] & exp_mask) == exp_mask:
            n_bad += 1
            if first_bad < 0:
                first_bad = i
        if weighted and weight[i] == 0.0:
            continue
        c = codes[i]
        row_starts[c + 1] += 1
        for d in range(n_digits):
            hist[d, (c >> (8 * d)) & 255] += 1
    for j in range(n_groups):
        row_starts[j + 1] += row_starts[j]
    m = row_starts[n_groups]
    if n_bad > 0:
        return (np.empty(0, np.uint64), np.empty(0, np.float64), row_starts, n_bad,
                first_bad)
    src_c = np.empty(m, np.int64)
    src_k = np.empty(m, np.uint64)
    src_s = np.empty(m, np.float64)
    if n_digits == 1:
        at = row_starts[:n_groups].copy()
        for i in range(n):
            w = weight[i] if weighted else 1.0
            if w == 0.0:
                continue
            c = codes[i]
            o = at[c]
            src_k[o] = float_key(bits[i])
            src_s[o] = w if is_pos[i] else -w
            at[c] = o + 1
        return src_k, src_s, row_starts, 0, -1
    o = 0
    for i in range(n):
        w = weight[i] if weighted else 1.0
        if w == 0.0:
            continue
        src_c[o] = codes[i]
        src_k[o] = float_key(bits[i])
        src_s[o] = w if is_pos[i] else -w
        o += 1
    dst_c = np.empty(m, np.int64)
    dst_k = np.empty(m, np.uint64)
    dst_s = np.empty(m, np.float64)
    offset = np.empty(256, np.int64)
    for d in range(n_digits):
        total = 0
        constant = False
        for b in range(256):
            offset[b] = total
            total += hist[d, b]
            if hist[d, b] == m:
                constant = True
        if constant:
            continue
        shift = 8 * d
        for i in range(m):
            c = src_c[i]
            b = (c >> shift) & 255
            p = offset[b]
            dst_c[p] = c
            dst_k[p] = src_k[i]
            dst_s[p] = src_s[i]
            offset[b] = p + 1
        src_c, dst_c = dst_c, src_c
        src_k, dst_k = dst_k, src_k
        src_s, dst_s = dst_s, src_s
    return src_k, src_s, row_starts, 0, -1


@jit
def _insertion_sort(keys, payload, lo, hi):
    for i in range(lo + 1, hi):
        k = keys[i]
        p = payload[i]
        j = i - 1
        while j >= lo and keys[j] > k:
            keys[j + 1] = keys[j]
            payload[j + 1] = payload[j]
            j -= 1
        keys[j + 1] = k
        payload[j + 1] = p


@jit
def sort_segments(keys, signed, row_starts, first, last):
    """Sort each group's keys ascending in place (payload along), groups ``first:last``."""
    for j in range(first, last):
        lo = row_starts[j]
        hi = row_starts[j + 1]
        if hi - lo <= 32:
            _insertion_sort(keys, signed, lo, hi)
            continue
        hist = np.zeros((N_DIGITS, 256), np.int64)
        for i in range(lo, hi):
            k = keys[i]
            for d in range(N_DIGITS):
                hist[d, (k >> np.uint64(8 * d)) & BYTE] += 1
        sk, sp, _ = radix_sort(keys[lo:hi].copy(), signed[lo:hi].copy(),
                               np.empty(0, np.int64), hist)
        keys[lo:hi] = sk
        signed[lo:hi] = sp


@jit
def collapse_segments(keys, signed, row_starts, first, last, out_k, out_p, out_n, counts):
    """Each sorted group's rows into its table, written from ``row_starts[j]`` on.

    Keys come out descending; ``counts[j]`` receives group ``j``'s number of
    distinct keys.
    """
    for j in range(first, last):
        lo = row_starts[j]
        hi = row_starts[j + 1]
        g = lo - 1
        i = hi - 1
        while i >= lo:
            k = keys[i]
            g += 1
            out_k[g] = k
            tp = 0.0
            fp = 0.0
            while i >= lo and keys[i] == k:
                s = signed[i]
                if s > 0.0:
                    tp += s
                else:
                    fp -= s
                i -= 1
            out_p[g] = tp
            out_n[g] = fp
        counts[j] = g + 1 - lo


@jit
def compact_segments(out_k, out_p, out_n, row_starts, counts):
    """Move every group's table to be back to back; return the segment starts."""
    n_groups = counts.shape[0]
    starts = np.empty(n_groups + 1, np.int64)
    g = 0
    for j in range(n_groups):
        starts[j] = g
        lo = row_starts[j]
        for t in range(counts[j]):
            out_k[g] = out_k[lo + t]
            out_p[g] = out_p[lo + t]
            out_n[g] = out_n[lo + t]
            g += 1
    starts[n_groups] = g
    return starts
