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

Per group, ``sweep_groups`` sorts each group's rows in cache and sweeps its
table (``by_group``).
"""

from __future__ import annotations

import numpy as np

from .._jit import jit
from .losses import EPS, log_into, neumaier_add
from .sorting import DIGIT_MAX, TABLE_ROWS, float_key, key_to_float_bits, radix

# layout of the ``stats`` array (0, 1 are inputs; the rest outputs)
ST_TOTAL_POS, ST_TOTAL_NEG = 0, 1
ST_TIES, ST_MAX_TIE = 2, 3
ST_W10, ST_MEAN10, ST_M2_10 = 4, 5, 6  # placements of positives, weighted by tp_g
ST_W01, ST_MEAN01, ST_M2_01 = 7, 8, 9  # placements of negatives, weighted by fp_g
N_STATS = 10

# columns of the per-group sums of ``sweep_groups`` (``SEG_AP_SPLIT``: the
# average-precision numerator summed in ``_table.split_sweep``'s two key ranges)
SEG_TP, SEG_FP, SEG_AREA2, SEG_AP, SEG_AP_SPLIT, N_SEG = 0, 1, 2, 3, 4, 5


@jit
def _welford(stats, at, w, x):
    """Add value ``x`` with weight ``w > 0`` to the running (W, mean, M2) at ``at``."""
    total = stats[at] + w
    delta = x - stats[at + 1]
    stats[at] = total
    stats[at + 1] += delta * (w / total)
    stats[at + 2] += w * delta * (x - stats[at + 1])


@jit
def step(tp, fp, tg, fg):
    """The per-key arithmetic, written once: every sweep calls it.

    ``tp``/``fp`` are the weights above the key, ``tg``/``fg`` the weights at
    it.  Returns the key's contributions to twice the ROC area and to the
    average-precision numerator.  (Sweeps that also want the rank-test and
    DeLong moments call :func:`add_moments` before it, in a branch of their
    own: folding both into one function with a flag made the plain sweep
    three times slower, since the compiler then kept the moments' code in
    every loop.)
    """
    tp_after = tp + tg
    ap = tg * (tp_after / (tp_after + (fp + fg))) if tg > 0.0 else 0.0
    return fg * (2.0 * tp + tg), ap


@jit
def add_moments(tp, fp, tg, fg, stats):
    """Add one key's rank-test tie term and DeLong placement moments to ``stats``.

    ``stats`` holds the class totals (``ST_TOTAL_*``); West's weighted form of
    Welford's update keeps the sums of squared deviations free of
    cancellation.
    """
    total_p = stats[ST_TOTAL_POS]
    total_n = stats[ST_TOTAL_NEG]
    tie = tg + fg
    stats[ST_TIES] += (tie * tie - 1.0) * tie
    stats[ST_MAX_TIE] = max(stats[ST_MAX_TIE], tie)
    if tg > 0.0:  # positives here beat the negatives below, tie with these
        _welford(stats, ST_W10, tg, ((total_n - fp - fg) + 0.5 * fg) / total_n)
    if fg > 0.0:  # negatives here lose to the positives above
        _welford(stats, ST_W01, fg, (tp + 0.5 * tg) / total_p)


@jit
def segment_area(x0, y0, x1, y1, lo, hi):
    """Area under the segment (x0, y0)-(x1, y1) (``x0 <= x1``) over ``lo <= x <= hi``,
    interpolating linearly inside it: the one partial-area rule, shared by
    ``roc_auc_score(max_fpr=...)``, ``partial_auc`` and the bootstrap."""
    a = min(max(x0, lo), hi)
    b = min(max(x1, lo), hi)
    run = x1 - x0
    if b <= a or run <= 0.0:
        return 0.0
    ya = y0 + (y1 - y0) * ((a - x0) / run)
    yb = y0 + (y1 - y0) * ((b - x0) / run)
    return 0.5 * (b - a) * (ya + yb)


@jit
def band_area(u, v, lo, hi):
    """Area under the polyline ``(u, v)`` (``u`` non-decreasing) over ``lo <= u <= hi``."""
    area = 0.0
    for i in range(u.shape[0] - 1):
        if u[i] >= hi:
            break
        area += segment_area(u[i], v[i], u[i + 1], v[i + 1], lo, hi)
    return area


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
        if moments:
            add_moments(tp, fp, tg, fg, stats)
        a, p = step(tp, fp, tg, fg)
        area2 += a
        ap_num += p
        tp += tg
        fp += fg
        if store:
            tps_out[g - lo] = tp
            fps_out[g - lo] = fp
    return tp, fp, area2, ap_num


@jit
def cumulative_range(tps, fps, lo, hi):
    """``sweep_table`` of keys ``lo:hi`` of a table given by its cumulative
    weights, from the cumulative weights above them: ``(area2, ap_num)``."""
    tp = tps[lo - 1] if lo > 0 else 0.0
    fp = fps[lo - 1] if lo > 0 else 0.0
    area2 = 0.0
    ap_num = 0.0
    for g in range(lo, hi):
        a, p = step(tp, fp, tps[g] - tp, fps[g] - fp)
        area2 += a
        ap_num += p
        tp = tps[g]
        fp = fps[g]
    return area2, ap_num


@jit
def placement_moments(pos, neg, lo, hi, total_p, total_n, auc, stats):
    """DeLong's placement moments of a table's keys ``lo:hi`` (the whole table),
    in a second pass once the AUC is known.

    A positive's placement is the share of negative weight below it (ties
    one half), a negative's the share of positive weight above it; both
    average to the AUC.  Writes the class weights, ``auc`` as the means and
    the weighted sums of squared deviations from it into ``stats``'s
    ``ST_W*``/``ST_MEAN*``/``ST_M2_*`` slots, the layout ``step`` fills in
    one pass with Welford's update (the same numbers to rounding, without a
    division per update: a table held in cache is cheaper to read twice).
    """
    tp = 0.0
    fp = 0.0
    s10 = 0.0
    s01 = 0.0
    for g in range(lo, hi):
        tg = pos[g]
        fg = neg[g]
        if tg > 0.0:
            d = ((total_n - fp - fg) + 0.5 * fg) / total_n - auc
            s10 += tg * d * d
        if fg > 0.0:
            d = (tp + 0.5 * tg) / total_p - auc
            s01 += fg * d * d
        tp += tg
        fp += fg
    stats[ST_TOTAL_POS] = total_p
    stats[ST_TOTAL_NEG] = total_n
    stats[ST_W10] = total_p
    stats[ST_MEAN10] = auc
    stats[ST_M2_10] = s10
    stats[ST_W01] = total_n
    stats[ST_MEAN01] = auc
    stats[ST_M2_01] = s01


@jit
def merge_tables(k1, p1, n1, k2, p2, n2, out_k, out_p, out_n):
    """The table of the union of two tables' rows, written to ``out_*`` (room
    for both), in one linear pass; returns its number of keys.  The key
    comparison picks a source without a branch; equal keys (rare) add up."""
    m1 = k1.shape[0]
    m2 = k2.shape[0]
    i = 0
    j = 0
    g = 0
    while i < m1 and j < m2:
        a = k1[i]
        b = k2[j]
        if a == b:
            out_k[g] = a
            out_p[g] = p1[i] + p2[j]
            out_n[g] = n1[i] + n2[j]
            i += 1
            j += 1
        else:
            first = a > b
            out_k[g] = a if first else b
            out_p[g] = p1[i] if first else p2[j]
            out_n[g] = n1[i] if first else n2[j]
            i += first
            j += not first
        g += 1
    while i < m1:
        out_k[g], out_p[g], out_n[g] = k1[i], p1[i], n1[i]
        i += 1
        g += 1
    while j < m2:
        out_k[g], out_p[g], out_n[g] = k2[j], p2[j], n2[j]
        j += 1
        g += 1
    return g


@jit
def _merge_keys(sk, so, a, a_end, b, b_end, dk, do, o):
    """Descending runs ``sk[a:a_end]`` and ``sk[b:b_end]`` (each key with its
    origin ``so``) merged into ``dk``/``do`` from ``o`` on: one linear pass
    without a branch on the data, equal keys both kept (run ``a``'s first)."""
    while a < a_end and b < b_end:
        x = sk[a]
        y = sk[b]
        first = np.int64(x >= y)
        # arithmetic, not a load through the chosen index: LLVM turns that
        # into a branch, mispredicted on every other key of interleaved runs
        dk[o] = max(x, y)
        do[o] = so[b] + (so[a] - so[b]) * first
        a += first
        b += 1 - first
        o += 1
    for q in range(a, a_end):
        dk[o] = sk[q]
        do[o] = so[q]
        o += 1
    for q in range(b, b_end):
        dk[o] = sk[q]
        do[o] = so[q]
        o += 1


@jit
def merge_runs(keys, pos, neg, starts, out_k, out_p, out_n, vals, tmp_k, org, tmp_org):
    """The table of several tables' rows, and each input key's DeLong
    placement numerators in it: tables ``starts[r]:starts[r + 1]`` of
    ``keys``/``pos``/``neg`` (each descending) merged into ``out_*``; returns
    the result's number of keys.

    ``vals`` receives, input key by input key, the values its classes need
    (nothing else: most keys hold one class): where the key has positive
    weight, the negative weight below it in the result, its ties one half (a
    positive's placement), then where it has negative weight, the positive
    weight above it, ties one half (a negative's).  ``vals`` holds exactly
    as many values (``count_nonzero(pos) + count_nonzero(neg)``), so input
    table ``r``'s values are contiguous.

    Only the keys and their origins move through the merge levels (a
    balanced tree of linear merges between ``keys``/``org`` and
    ``tmp_k``/``tmp_org``, scratch of the inputs' length; ``keys`` is
    overwritten); one last walk adds up the weights of equal keys, read from
    ``pos``/``neg`` at their origins (a few sequential streams), and writes
    each origin's values.
    """
    n_runs = starts.shape[0] - 1
    m = starts[n_runs]
    bounds = starts.copy()  # run r: bounds[r]:bounds[r + 1]
    for i in range(m):
        org[i] = i
    sk, so, dk, do = keys, org, tmp_k, tmp_org
    while n_runs > 1:
        nr = 0
        for r in range(0, n_runs - 1, 2):
            _merge_keys(sk, so, bounds[r], bounds[r + 1], bounds[r + 1], bounds[r + 2], dk, do,
                        bounds[r])
            bounds[nr] = bounds[r]
            nr += 1
        if n_runs % 2:  # the odd run moves over as it is
            for q in range(bounds[n_runs - 1], m):
                dk[q] = sk[q]
                do[q] = so[q]
            bounds[nr] = bounds[n_runs - 1]
            nr += 1
        bounds[nr] = m
        n_runs = nr
        sk, dk = dk, sk
        so, do = do, so
    below = 0.0  # the negative weight of the whole result
    first = do  # spent: where each origin's values start
    f = 0
    for q in range(m):
        below += neg[q]
        first[q] = f
        f += (pos[q] > 0.0) + (neg[q] > 0.0)
    tp = 0.0
    fp = 0.0
    g = 0
    i = 0
    while i < m:
        x = sk[i]
        tg = 0.0
        fg = 0.0
        j = i
        while j < m and sk[j] == x:
            tg += pos[so[j]]
            fg += neg[so[j]]
            j += 1
        out_k[g] = x
        out_p[g] = tg
        out_n[g] = fg
        v10 = (below - fp) - 0.5 * fg
        v01 = tp + 0.5 * tg
        for r in range(i, j):
            q = so[r]
            f = first[q]
            if pos[q] > 0.0:
                vals[f] = v10
                f += 1
            if neg[q] > 0.0:
                vals[f] = v01
        tp += tg
        fp += fg
        g += 1
        i = j
    return g


# ------------------------------------------------------------ per group
#
# Rows are placed group by group and, inside a group, positives first (a
# counting sort on the group code and the class, two fixed halves of the rows
# on two threads): the score's key in ``rk`` and, when weighted, the weight in
# ``rw``.  Each group's two runs are then radix-sorted (in cache: a group is
# small), walked together from the top into the group's table and swept,
# group after group.  Rows of weight zero are left out (they add no key).

CNT_KEPT, CNT_ROWS, CNT_POS, CNT_KEPT_POS = 0, 1, 2, 3


@jit
def count_groups(bits, is_pos, weight, codes, n_groups):
    """Per group (G, 4): rows of non-zero weight, all rows, positive rows,
    positive rows of non-zero weight; the number of NaN/inf scores and the
    index of the first; the least and the greatest score (to tell
    probabilities)."""
    counts = np.zeros((n_groups, 4), np.int64)
    weighted = weight.shape[0] > 0
    n_bad = 0
    first_bad = -1
    exp_mask = np.uint64(0x7FF0000000000000)
    scores = bits.view(np.float64)
    lo = np.inf
    hi = -np.inf
    for i in range(bits.shape[0]):
        if (bits[i] & exp_mask) == exp_mask:
            n_bad += 1
            if first_bad < 0:
                first_bad = i
        x = scores[i]
        lo = min(lo, x)
        hi = max(hi, x)
        c = codes[i]
        kept = (weight[i] != 0.0) if weighted else True
        counts[c, CNT_KEPT] += kept
        counts[c, CNT_ROWS] += 1
        counts[c, CNT_POS] += is_pos[i]
        counts[c, CNT_KEPT_POS] += kept and is_pos[i]
    return counts, n_bad, first_bad, lo, hi


@jit
def scatter_groups(bits, is_pos, weight, codes, at, rk, rw):
    """Write each row's key (and weight) at ``at[code, 0]`` for a positive,
    ``at[code, 1]`` for a negative, advancing it; rows of weight zero are skipped."""
    if weight.shape[0] > 0:
        for i in range(bits.shape[0]):
            w = weight[i]
            if w == 0.0:
                continue
            c = codes[i]
            k = 0 if is_pos[i] else 1
            o = at[c, k]
            at[c, k] = o + 1
            rk[o] = float_key(bits[i])
            rw[o] = w
    else:
        for i in range(bits.shape[0]):
            c = codes[i]
            k = 0 if is_pos[i] else 1
            o = at[c, k]
            at[c, k] = o + 1
            rk[o] = float_key(bits[i])


@jit
def _sort_run(rk, rw, lo, hi, ak, aw, tk, tw, hist, offset):
    """Keys ``lo:hi`` (with their weights when ``rw`` is not empty) sorted
    ascending; returns ``(keys, weights)`` (views of the buffers).

    The run is copied into ``ak``/``aw`` and radix-sorted in cache
    (``sorting.radix``, the one in-cache sort) between those and
    ``tk``/``tw`` (at least ``hi - lo`` long, reused across groups).
    """
    m = hi - lo
    weighted = rw.shape[0] > 0
    for i in range(m):
        ak[i] = rk[lo + i]
    if weighted:
        for i in range(m):
            aw[i] = rw[lo + i]
    if m == 0:
        return ak[:0], aw[:0]
    if weighted:
        if radix(ak[:m], aw[:m], None, tk, tw, None, hist, offset):
            return tk[:m], tw[:m]
        return ak[:m], aw[:m]
    if radix(ak[:m], None, None, tk, None, None, hist, offset):
        return tk[:m], aw[:0]
    return ak[:m], aw[:0]


@jit
def _run_loss(keys, weights, positive, bits, p, logs):
    """Log-loss sum of one class's sorted run, the scores taken as
    probabilities of the positive class: Neumaier-compensated ``sum w * -log p``
    with ``p`` (the score of a positive, one minus it for a negative)
    clipped to ``[eps, 1 - eps]`` as ``losses.log_loss_sum`` does.  ``bits``
    (uint64), ``p`` and ``logs`` (float64) are scratch at least as long."""
    m = keys.shape[0]
    weighted = weights.shape[0] > 0
    for i in range(m):
        bits[i] = key_to_float_bits(keys[i])
    scores = bits[:m].view(np.float64)
    for i in range(m):
        x = scores[i] if positive else 1.0 - scores[i]
        p[i] = min(max(x, EPS), 1.0 - EPS)
    log_into(p[:m], logs[:m], bits[:m].view(np.float64))
    total = 0.0
    comp = 0.0
    for i in range(m):
        total, comp = neumaier_add(total, comp, -logs[i] * weights[i] if weighted else -logs[i])
    return total + comp


@jit
def walk_runs(pk, pw, nk, nw, ck, cp, cn, px, nx, at):
    """Two ascending runs (a group's positives and negatives) walked together
    from the top into the group's table (keys descending); returns its length.
    With row positions ``px``/``nx`` carried by the runs, ``at[row]``
    receives the row's position in the table (``at`` empty: skipped)."""
    i = pk.shape[0] - 1
    j = nk.shape[0] - 1
    weighted = pw.shape[0] > 0 or nw.shape[0] > 0
    track = at.shape[0] > 0
    g = 0
    while i >= 0 or j >= 0:
        if j < 0 or (i >= 0 and pk[i] >= nk[j]):
            k = pk[i]
        else:
            k = nk[j]
        tg = 0.0
        fg = 0.0
        while i >= 0 and pk[i] == k:
            tg += pw[i] if weighted else 1.0
            if track:
                at[px[i]] = g
            i -= 1
        while j >= 0 and nk[j] == k:
            fg += nw[j] if weighted else 1.0
            if track:
                at[nx[j]] = g
            j -= 1
        ck[g] = k
        cp[g] = tg
        cn[g] = fg
        g += 1
    return g


@jit
def sweep_groups(rk, rw, row_starts, n_pos, first, last, moments, sums, stats, loss, parts):
    """Sort, walk and sweep groups ``first:last``; each from zero.

    Group ``j``'s rows are ``row_starts[j]:row_starts[j + 1]``, its
    ``n_pos[j]`` positives first: both runs are sorted in cache-sized
    buffers and walked into the group's table, which ``sweep_table`` sweeps.
    Writes the group's ``(tp, fp, area2, ap_num)`` and its average-precision
    numerator as ``split_sweep`` sums it in ``parts[j]`` key ranges
    (``SEG_AP_SPLIT``: the ``sorted_tallies`` float of an unweighted group)
    to ``sums[j]`` and, with ``moments``, its moments to ``stats[j]``
    (zero rows).  With a non-empty ``loss`` the group's log-loss sum
    (``_run_loss``) to ``loss[j]``.  Groups are independent: any split of
    ``first:last`` over threads gives the same numbers.
    """
    no_rows = np.empty(0, np.int64)
    with_loss = loss.shape[0] > 0
    biggest = 0
    for j in range(first, last):
        biggest = max(biggest, row_starts[j + 1] - row_starts[j])
    wl = biggest if rw.shape[0] > 0 else 0
    # two buffers per class: a sorted run may end in either
    pk_a = np.empty(biggest, np.uint64)
    pk_t = np.empty(biggest, np.uint64)
    nk_a = np.empty(biggest, np.uint64)
    nk_t = np.empty(biggest, np.uint64)
    pw_a = np.empty(wl, np.float64)
    pw_t = np.empty(wl, np.float64)
    nw_a = np.empty(wl, np.float64)
    nw_t = np.empty(wl, np.float64)
    ck = np.empty(biggest, np.uint64)
    cp = np.empty(biggest, np.float64)
    cn = np.empty(biggest, np.float64)
    hist = np.zeros((TABLE_ROWS - 1, 1 << DIGIT_MAX), np.int64)
    offset = np.empty(1 << DIGIT_MAX, np.int64)
    for j in range(first, last):
        lo = row_starts[j]
        mid = lo + n_pos[j]
        hi = row_starts[j + 1]
        pk, pw = _sort_run(rk, rw, lo, mid, pk_a, pw_a, pk_t, pw_t, hist, offset)
        nk, nw = _sort_run(rk, rw, mid, hi, nk_a, nw_a, nk_t, nw_t, hist, offset)
        if with_loss:
            loss[j] = (_run_loss(pk, pw, True, ck, cp, cn)
                       + _run_loss(nk, nw, False, ck, cp, cn))
        g = walk_runs(pk, pw, nk, nw, ck, cp, cn, no_rows, no_rows, no_rows)
        tp, fp, area2, ap_num, ap_split = _sweep_split(ck, cp, cn, g, pk, nk, parts[j])
        if moments:
            placement_moments(cp, cn, 0, g, tp, fp, area2 / (2.0 * tp * fp), stats[j])
        sums[j, SEG_TP] = tp
        sums[j, SEG_FP] = fp
        sums[j, SEG_AREA2] = area2
        sums[j, SEG_AP] = ap_num
        sums[j, SEG_AP_SPLIT] = ap_split


@jit
def _keys_at_or_above(keys, g, pivot):
    """The number of keys of the table ``keys[:g]`` (descending) at or above ``pivot``."""
    lo = 0
    hi = g
    while lo < hi:  # the first key below the pivot
        mid = (lo + hi) >> 1
        if keys[mid] >= pivot:
            lo = mid + 1
        else:
            hi = mid
    return lo


@jit
def _sweep_split(keys, pos, neg, hi, pk, nk, parts):
    """``sweep_table`` of keys ``0:hi`` from the top, ``(tp, fp, area2, ap_num)``,
    and besides the average-precision numerator summed as ``split_sweep``
    sums it in ``parts`` key ranges (``_table.pivots`` of the longer of the
    ascending runs ``pk``/``nk``, the positives' when as long): each range
    summed apart and the sums added in order.  The same terms (for counts,
    ``split_sweep``'s ranges start from the same exact counts), another
    rounding."""
    longest = pk if pk.shape[0] >= nk.shape[0] else nk
    m = longest.shape[0]
    tp = 0.0
    fp = 0.0
    area2 = 0.0
    ap_num = 0.0
    ap_split = 0.0
    g = 0
    for j in range(parts - 1, -1, -1):  # the range above pivot j (j = 0: to the end)
        end = hi if j == 0 or m == 0 else _keys_at_or_above(keys, hi, longest[m * j // parts])
        ap_part = 0.0
        while g < end:
            a, p = step(tp, fp, pos[g], neg[g])
            area2 += a
            ap_num += p
            ap_part += p
            tp += pos[g]
            fp += neg[g]
            g += 1
        ap_split += ap_part
    return tp, fp, area2, ap_num, ap_split


@jit
def bucket_starts(keys_asc, kmin, shift, starts):
    """``starts[b]``: the first position of ``keys_asc`` (ascending) whose key is
    at least ``kmin + (b << shift)``; one walk.  With ``find_keys`` it turns a
    lookup into a search of one bucket."""
    j = 0
    n = keys_asc.shape[0]
    for b in range(starts.shape[0]):
        bound = kmin + (np.uint64(b) << shift)
        while j < n and keys_asc[j] < bound:
            j += 1
        starts[b] = j


@jit
def _lower_bound(keys_asc, x, lo, hi):
    """First position in ``[lo, hi)`` whose key is not below ``x`` (``hi`` if none)."""
    while lo < hi:
        mid = (lo + hi) >> 1
        if keys_asc[mid] < x:
            lo = mid + 1
        else:
            hi = mid
    return lo


@jit
def find_keys(keys_asc, starts, kmin, shift, needles, out):
    """Position of each needle in ``keys_asc`` (each needle is one of its keys):
    its bucket from its high bits, then a binary search inside the bucket."""
    last = starts.shape[0] - 2
    for i in range(needles.shape[0]):
        x = needles[i]
        b = min(np.int64((x - kmin) >> shift), last)
        out[i] = _lower_bound(keys_asc, x, starts[b], starts[b + 1])


@jit
def collapse_rows(scores, labels, out_f, out_keys, pos, neg):
    """Rows sorted by score, descending (a score repeated per row; ``labels``
    0/1), to the table: the distinct scores' keys into ``out_keys`` (whose
    memory ``out_f`` views as float64) with each class's count.  Returns the
    number of keys.  ``-0.0`` and ``+0.0`` are one key."""
    g = -1
    prev = 0.0
    for i in range(scores.shape[0]):
        x = np.float64(scores[i]) + 0.0
        if g < 0 or x != prev:
            g += 1
            out_f[g] = x
            pos[g] = 0.0
            neg[g] = 0.0
            prev = x
        if labels[i]:
            pos[g] += 1.0
        else:
            neg[g] += 1.0
    for j in range(g + 1):
        out_keys[j] = float_key(out_keys[j])
    return g + 1


@jit
def expand_rows(scores, pos, neg, out_scores, out_labels):
    """A table of counts (``scores`` descending, float64) as rows: each score
    once per row, its positives first, in ``out_scores``' dtype."""
    o = 0
    for g in range(scores.shape[0]):
        x = scores[g]
        for _ in range(np.int64(pos[g])):
            out_scores[o] = x
            out_labels[o] = 1
            o += 1
        for _ in range(np.int64(neg[g])):
            out_scores[o] = x
            out_labels[o] = 0
            o += 1
    return o
