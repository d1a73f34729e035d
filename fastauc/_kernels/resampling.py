"""Bootstrap replicates: resample counts applied to the sorted tallies.

The data are sorted once.  Draws are counted in the *class layout*: positions
``[0, n_pos)`` are the positives and ``[n_pos, n)`` the negatives, each in
decreasing score order, so a stratum is a contiguous range.  A replicate draws
each stratum's size of positions uniformly with replacement and counts them in
a uint8 vector (one random increment per draw; n bytes stay in the L2 cache,
where int32 counts would not; a count that would pass 255 is detected and the
replicate is redone with int64 counts).

The metric is then computed by streaming passes over the class layout with
precomputed ranks (``replicate_value``): O(n) per replicate, no sort, no
Python call.  A second model scored on the same rows reads the counts through
``src`` (its position -> the first model's class-layout position).

Random numbers: each replicate ``r`` has its own SplitMix64 stream (Steele,
Lea & Flood 2014) started from ``mix(seed, r)``, and integers below ``m`` are
drawn with Lemire's (2019) multiply-shift rejection method, which is unbiased;
each 64-bit output gives two 32-bit draws.
A replicate therefore depends only on ``(seed, r)``: results are identical
whatever the batching and the number of threads.

The clustered bootstrap draws clusters, not rows: the strata are the one
range of the clusters, ``cnt`` holds each cluster's count and ``src`` maps
every position to its cluster, so a row's count is its cluster's.

The Poisson scheme (``poisson_batch``) gives every row an independent
Poisson(1) count per replicate instead (Hanley & MacGibbon 2006; Chamandy et
al. 2012): the count of the row at input position ``i`` in replicate ``r`` is
a function of ``(seed, r, i)`` alone, ``F^-1(u)`` with ``u = mix(key_r + (i +
1) * GOLDEN)`` (SplitMix64 used as a counter-based generator, ``key_r`` as
above) and ``F`` the Poisson(1) distribution function on the 64-bit grid.  So
counts are generated in any order (here, streaming in sorted order), and do
not depend on how the rows are ordered internally, chunked or partitioned.
"""

from __future__ import annotations

import numpy as np

from .._jit import jit
from .table import segment_area

GOLDEN = np.uint64(0x9E3779B97F4A7C15)
MIX1 = np.uint64(0xBF58476D1CE4E5B9)
MIX2 = np.uint64(0x94D049BB133111EB)
LOW32 = np.uint64(0xFFFFFFFF)
TWO32 = np.uint64(1 << 32)
S27, S30, S31, S32 = np.uint64(27), np.uint64(30), np.uint64(31), np.uint64(32)
ONE = np.uint64(1)

def _poisson_tables(bits=12):
    """Inverse-CDF tables of Poisson(1) on the 64-bit grid.

    ``cdf[k] = floor(2**64 * P(X <= k))`` (50-digit arithmetic), as long as it
    increases; the count of ``u`` is the number of ``cdf[k] <= u``.  ``table``
    answers from the top ``bits`` bits of ``u`` where its whole bucket has one
    count, and holds ``AMBIGUOUS`` (7 of 4096 buckets) where a threshold falls
    inside the bucket.
    """
    from decimal import Decimal, localcontext

    cdf = []
    with localcontext() as ctx:
        ctx.prec = 50
        term = Decimal(-1).exp()
        total = Decimal(0)
        k = 0
        while True:
            total += term
            t = int(total * (1 << 64))
            if t >= (1 << 64) - 1 or (cdf and t == cdf[-1]):
                break
            cdf.append(t)
            k += 1
            term /= k
    shift = 64 - bits
    table = np.empty(1 << bits, np.uint8)
    for b in range(1 << bits):
        lo = sum((b << shift) >= t for t in cdf)
        hi = sum((((b + 1) << shift) - 1) >= t for t in cdf)
        table[b] = lo if lo == hi else 255
    return np.array(cdf, np.uint64), table, np.uint64(shift)


POISSON_CDF, POISSON_TABLE, _TABLE_SHIFT = _poisson_tables()
AMBIGUOUS = np.uint8(255)

# metric codes
ROC_AUC, AVERAGE_PRECISION, PARTIAL_AUC, LOG_LOSS = 0, 1, 2, 3
# the operating points (torchmetrics' rules; the floor comes as ``max_fpr``): group by
# group in merged order, as the partial AUC
SENS_AT_SPEC, SPEC_AT_SENS, PREC_AT_REC, REC_AT_PREC = 4, 5, 6, 7
# the binned calibration error (l1, ``ECE_BINS`` bins): ``loss`` holds each row's
# probability and ``ranks[0]`` its bin
ECE = 8
ECE_BINS = 15
# the partial AUC over any range (pROC's ``partial.auc``), not standardised (the
# caller applies McClish's correction): of the ROC curve over an FPR range
# (``partial.auc.focus="specificity"``), or of specificity over a TPR range
# (``"sensitivity"``); swept in merged order, the range ``(lo, hi)`` in ``loss``
PARTIAL_FPR, PARTIAL_TPR = 9, 10


@jit
def _mix(z):
    z = (z ^ (z >> S30)) * MIX1
    z = (z ^ (z >> S27)) * MIX2
    return z ^ (z >> S31)


#: SplitMix64's finaliser (the unpaired bootstrap's second seed is ``mix(seed ^ constant)``)
mix = _mix


@jit
def replicate_state(seed, r):
    """Start of replicate ``r``'s stream (``seed`` is uint64)."""
    return _mix(seed ^ _mix((np.uint64(r) + ONE) * GOLDEN))


@jit
def _next(state):
    state = state + GOLDEN
    return state, _mix(state)


@jit
def _draw_pair(state, m, threshold):
    """Two uniform integers in ``[0, m)`` (``m <= 2**32``) from one 64-bit output.

    Lemire's multiply-shift on each 32-bit half; a half whose low product
    word falls below ``threshold = 2**32 mod m`` is rejected and redrawn.
    """
    state, z = _next(state)
    a = (z >> S32) * m
    b = (z & LOW32) * m
    while (a & LOW32) < threshold:
        state, z = _next(state)
        a = (z >> S32) * m
    while (b & LOW32) < threshold:
        state, z = _next(state)
        b = (z >> S32) * m
    return state, np.int64(a >> S32), np.int64(b >> S32)


@jit
def draw_large(state, m):
    """A uniform integer in ``[0, m)`` for ``m > 2**32``: mask and reject."""
    mask = m - ONE
    for s in (S32, np.uint64(16), np.uint64(8), np.uint64(4), np.uint64(2), ONE):
        mask |= mask >> s
    while True:
        state, z = _next(state)
        x = z & mask
        if x < m:
            return state, np.int64(x)


@jit
def _stratum(strata, s):
    """Start, size, size as uint64 and Lemire's rejection threshold of stratum ``s``
    (the threshold is 0 for an empty stratum or one of more than 2**32 rows,
    which ``draw_large`` serves)."""
    lo = strata[s]
    size = strata[s + 1] - lo
    m = np.uint64(size)
    threshold = (TWO32 - m) % m if size > 0 and m <= TWO32 else np.uint64(0)
    return lo, size, m, threshold


BLOCK_BYTES_SHIFT = 20  # counts incremented block by block of 1 MiB (in L2)
DIRECT_BYTES = 1 << 22  # counts up to this size are incremented as drawn
CHUNK_DRAWS = 1 << 14  # draws partitioned by block at a time (even)


@jit(inline="always")
def _add_draws(cnt, idx, c, part, cursor, shift, wrapped):
    """Add the draws ``idx[:c]`` (positions) to ``cnt``, partitioned first by
    block of ``2**shift`` positions (a counting sort on the block, ``cursor``
    the counts), so that the increments visit one cache-sized block after
    another instead of the whole array at random."""
    one = cnt.dtype.type(1)
    nb = cursor.shape[0] - 1
    for b in range(nb + 1):
        cursor[b] = 0
    for i in range(c):
        cursor[(idx[i] >> shift) + 1] += 1
    for b in range(nb):
        cursor[b + 1] += cursor[b]
    for i in range(c):
        b = idx[i] >> shift
        o = cursor[b]
        cursor[b] = o + 1
        part[o] = idx[i]
    for i in range(c):
        p = part[i]
        v = cnt[p] + one
        cnt[p] = v
        wrapped |= v == 0
    return wrapped


@jit(inline="always")
def _count_draws(seed, r, strata, cnt, buf):
    """Add replicate ``r``'s draws to ``cnt``: each stratum gets as many draws
    as it has positions, in pairs from one 64-bit output.

    Returns False if a uint8 count wrapped around (then the caller redoes the
    replicate with int64 counts).  ``buf`` (int64, ``draw_buffer``) is
    scratch: empty, each draw is counted as it is made (the counts stay in
    cache); otherwise the draws are made ``CHUNK_DRAWS`` at a time and counted
    block by block (``_add_draws``: about 1.3x faster once the counts outgrow
    the cache).  The draws, and so the counts, are the same either way.
    """
    state = replicate_state(seed, r)
    one = cnt.dtype.type(1)
    wrapped = False
    blocked = buf.shape[0] > 0
    shift = np.int64(BLOCK_BYTES_SHIFT) - (3 if cnt.itemsize == 8 else 0)
    nb = ((cnt.shape[0] - 1) >> shift) + 1 if blocked else 0
    idx = buf[:CHUNK_DRAWS]
    part = buf[CHUNK_DRAWS:2 * CHUNK_DRAWS]
    cursor = buf[2 * CHUNK_DRAWS:2 * CHUNK_DRAWS + nb + 1]
    for s in range(strata.shape[0] - 1):
        lo, size, m, threshold = _stratum(strata, s)
        if m > TWO32:  # pragma: no cover - more than 4e9 rows in one stratum
            for _ in range(size):
                state, u = draw_large(state, m)
                c = cnt[lo + u] + one
                cnt[lo + u] = c
                wrapped |= c == 0
            continue
        if blocked:
            done = 0
            while done < size:
                c = min(CHUNK_DRAWS, size - done)
                for q in range(0, c - 1, 2):
                    state, u1, u2 = _draw_pair(state, m, threshold)
                    idx[q] = lo + u1
                    idx[q + 1] = lo + u2
                if c % 2:  # the stratum's last, odd draw
                    state, u1, _ = _draw_pair(state, m, threshold)
                    idx[c - 1] = lo + u1
                wrapped = _add_draws(cnt, idx, c, part, cursor, shift, wrapped)
                done += c
            continue
        for _ in range(size // 2):
            state, u1, u2 = _draw_pair(state, m, threshold)
            c1 = cnt[lo + u1] + one
            cnt[lo + u1] = c1
            c2 = cnt[lo + u2] + one
            cnt[lo + u2] = c2
            wrapped |= (c1 == 0) | (c2 == 0)
        if size % 2:
            state, u1, _ = _draw_pair(state, m, threshold)
            c1 = cnt[lo + u1] + one
            cnt[lo + u1] = c1
            wrapped |= c1 == 0
    return not wrapped


#: the draws of replicate ``r`` added to counts, for the other kernels' replicates
count_draws = _count_draws

def draw_buffer(n, itemsize=1, direct_bytes=DIRECT_BYTES):
    """``_count_draws``' scratch for the counts of ``n`` positions (``itemsize``
    bytes each): empty (count each draw as it is made) while the counts fit
    in ``direct_bytes``."""
    if n * itemsize <= direct_bytes:
        return np.empty(0, np.int64)
    shift = BLOCK_BYTES_SHIFT - (3 if itemsize == 8 else 0)
    return np.empty(2 * CHUNK_DRAWS + ((n - 1) >> shift) + 2, np.int64)


@jit
def poisson_count(key, i):
    """Poisson(1) count of input row ``i`` under replicate key ``key``."""
    return poisson_count_in(POISSON_TABLE, POISSON_CDF, key, i)


@jit
def poisson_bits(key, i):
    """The 64 random bits of input row ``i`` under replicate key ``key``."""
    return _mix(key + (np.uint64(i) + ONE) * GOLDEN)


@jit
def poisson_count_in(table, cdf, key, i):
    """:func:`poisson_count` with its tables given (``POISSON_TABLE``,
    ``POISSON_CDF``): the device's walks pass them as arrays, read through
    the caches, where the constant bank would serialise a warp's 32
    different table entries."""
    u = poisson_bits(key, i)
    c = table[u >> _TABLE_SHIFT]
    if c == AMBIGUOUS:
        c = 0
        while c < cdf.shape[0] and u >= cdf[c]:
            c += 1
    return c


@jit
def uniform_pick(seed, r, j, size):
    """Draw ``j`` of replicate ``r``: a uniform integer below ``size`` (< 2**32)
    from the counter-based stream ``mix(state_r + (j + 1) GOLDEN)``: Lemire's
    multiply-shift on its high 32 bits, a low product word below ``2**32 mod
    size`` rejected and redrawn from the next value of the chain (unbiased).
    A function of ``(seed, r, j)`` alone: the device's multinomial draws."""
    size = np.uint64(size)
    threshold = ((LOW32 - size) + ONE) % size  # 2**32 mod size
    z = _mix(replicate_state(seed, r) + (np.uint64(j) + ONE) * GOLDEN)
    prod = (z >> S32) * size
    while (prod & LOW32) < threshold:
        z = _mix(z + GOLDEN)
        prod = (z >> S32) * size
    return np.int64(prod >> S32)


@jit
def poisson_counts(key, rid, out):
    """``out[p]`` = the Poisson count of input row ``rid[p]``, streaming."""
    for p in range(rid.shape[0]):
        out[p] = poisson_count(key, rid[p])


@jit
def _x(cnt, src, w, p):
    """Resampled weight at position ``p``: its count (read through ``src`` when
    given) times its weight (when weighted)."""
    c = cnt[src[p]] if src.shape[0] > 0 else cnt[p]
    return c * w[p] if w.shape[0] > 0 else float(c)


@jit
def _prefix(cnt, src, w, start, stop, out):
    """``out[i + 1] = sum of _x over [start, start + i]``; returns the total."""
    acc = 0.0
    out[0] = 0.0
    for p in range(start, stop):
        acc += _x(cnt, src, w, p)
        out[p - start + 1] = acc
    return acc


@jit
def _merged_sweep(cnt, src, w, code, metric, max_fpr, grid, tpr_out, lo=0.0, hi=1.0):
    """Group-by-group sweep in merged order: the partial AUC, and the TPR of
    the ROC polyline at each FPR in ``grid`` (increasing) into ``tpr_out``
    (the top of a vertical segment at a grid value; ``grid`` may be empty).
    ``PARTIAL_FPR``: the area under the ROC polyline for FPR in ``[lo, hi]``;
    ``PARTIAL_TPR``: the area under specificity against TPR for TPR in
    ``[lo, hi]`` (each segment as ``segment_area`` cuts it, the rule of
    ``partial_auc``; not standardised).

    ``src``/``w`` are in merged order; ``code[p]`` bit 0 = positive, bit 1 =
    first row of a distinct-score group.
    """
    n = code.shape[0]
    total_p = 0.0
    total_n = 0.0
    for p in range(n):
        x = _x(cnt, src, w, p)
        if code[p] & 1:
            total_p += x
        else:
            total_n += x
    if total_p <= 0.0 or total_n <= 0.0:  # no curve: NaN everywhere (the band skips it)
        tpr_out[:] = np.nan
        return np.nan
    tp = 0.0
    fp = 0.0
    tg = 0.0
    fg = 0.0
    area2 = 0.0
    partial = 0.0
    # the operating point's value: the start point (nothing positive) is a ROC
    # candidate, with sensitivity 0 and specificity 1
    op = 1.0 if metric == SPEC_AT_SENS and max_fpr <= 0.0 else 0.0
    gx = 0.0  # last ROC point
    gy = 0.0
    j = 0
    n_grid = grid.shape[0]
    for p in range(n + 1):
        if p == n or code[p] & 2:  # close the previous group
            area2 += fg * (2.0 * tp + tg)
            tp += tg
            fp += fg
            if tg > 0.0 or fg > 0.0:
                x1 = fp / total_n
                y1 = tp / total_p
                while j < n_grid and grid[j] < x1:
                    tpr_out[j] = gy + (y1 - gy) * (grid[j] - gx) / (x1 - gx)
                    j += 1
                if SENS_AT_SPEC <= metric <= REC_AT_PREC:
                    op = _operating_point(metric, max_fpr, tp, fp, total_p, total_n, op)
                elif metric == PARTIAL_FPR:
                    partial += segment_area(gx, gy, x1, y1, lo, hi)
                elif metric == PARTIAL_TPR:  # specificity against TPR
                    partial += segment_area(gy, 1.0 - gx, y1, 1.0 - x1, lo, hi)
                else:
                    partial += segment_area(gx, gy, x1, y1, 0.0, max_fpr)
                gx = x1
                gy = y1
                if n_grid == 0 and ((metric == PARTIAL_AUC and x1 >= max_fpr) or
                                    (metric == PARTIAL_FPR and x1 >= hi) or
                                    (metric == PARTIAL_TPR and y1 >= hi)):
                    break
            tg = 0.0
            fg = 0.0
            if p == n:
                break
        x = _x(cnt, src, w, p)
        if code[p] & 1:
            tg += x
        else:
            fg += x
    while j < n_grid:  # at and beyond the last point (FPR = 1)
        tpr_out[j] = gy
        j += 1
    if metric == PARTIAL_AUC:
        min_area = 0.5 * max_fpr * max_fpr
        return 0.5 * (1.0 + (partial - min_area) / (max_fpr - min_area))
    if metric == PARTIAL_FPR or metric == PARTIAL_TPR:
        return partial
    if SENS_AT_SPEC <= metric <= REC_AT_PREC:
        return op
    return area2 / (2.0 * tp * fp)


@jit
def _binned_error(cnt, src, n_pos, w, prob, bins):
    """The resample's expected calibration error (l1): per bin, the resampled
    weight, its sum of probabilities and its positive weight; the weighted
    gaps ``|positives - sum of probabilities| / total`` added up."""
    nb = ECE_BINS + 1
    tot = np.zeros(nb)
    sp = np.zeros(nb)
    tr = np.zeros(nb)
    for p in range(prob.shape[0]):
        x = _x(cnt, src, w, p)
        if x != 0.0:
            b = bins[p]
            tot[b] += x
            sp[b] += x * prob[p]
            if p < n_pos:
                tr[b] += x
    total = tot.sum()
    if total <= 0.0:
        return np.nan
    err = 0.0
    for b in range(nb):
        if tot[b] != 0.0:
            err += abs(tr[b] - sp[b])
    return err / total


@jit(inline="always")
def _operating_point(metric, floor, tp, fp, total_p, total_n, best):
    """``best`` updated with the point ``(tp, fp)`` (a distinct score's
    cumulative weights): the greatest value whose constraint meets ``floor``,
    computed as ``operating_points`` computes it."""
    if metric == SENS_AT_SPEC or metric == SPEC_AT_SENS:
        sens = tp / total_p
        spec = 1.0 - fp / total_n
        if metric == SENS_AT_SPEC:
            return max(best, sens) if spec >= floor else best
        return max(best, spec) if sens >= floor else best
    precision = tp / (tp + fp)
    recall = tp / total_p
    if metric == PREC_AT_REC:
        return max(best, precision) if recall >= floor else best
    return max(best, recall) if precision >= floor else best


@jit
def layout_ranks(bp, bn, n_pos, out, g0, g1):
    """``replicate_value``'s ranks of the class-layout positions of groups
    ``g0 .. g1 - 1`` into ``out`` (flat, ``2 n + 1``: row 0 at ``0:n``, row 1
    at ``n:2n``, one spare slot last, so that ``out[:2 n]`` is a contiguous
    (2, n) array): a positive of group ``g`` gets ``(bp[g], bn[g])``, a
    negative ``(bp[g - 1], bp[g])``.  Written in one walk of the groups with
    no data-dependent branch, as ``layout_placements``: a group without rows
    of a class still writes at that class's next position, which a later
    group overwrites, or the spare slot past the range's last position (so
    that ranges of groups can be written on threads at once)."""
    n = (out.shape[0] - 1) // 2
    spare = 2 * n
    ip = np.int64(bp[g0 - 1]) if g0 > 0 else 0
    ineg = n_pos + (np.int64(bn[g0 - 1]) if g0 > 0 else 0)
    p_lim = np.int64(bp[g1 - 1]) if g1 > 0 else 0
    n_lim = n_pos + (np.int64(bn[g1 - 1]) if g1 > 0 else 0)
    above = ip
    for g in range(g0, g1):
        p_end = np.int64(bp[g])
        n_end = n_pos + np.int64(bn[g])
        at0 = ip if ip < p_lim else spare
        at1 = n + ip if ip < p_lim else spare
        out[at0] = p_end
        out[at1] = n_end - n_pos
        at0 = ineg if ineg < n_lim else spare
        at1 = n + ineg if ineg < n_lim else spare
        out[at0] = above
        out[at1] = p_end
        for q in range(ip + 1, p_end):
            out[q] = p_end
            out[n + q] = n_end - n_pos
        for q in range(ineg + 1, n_end):
            out[q] = above
            out[n + q] = p_end
        above = p_end
        ip = p_end
        ineg = n_end


@jit
def replicate_value(cnt, src, n_pos, w, loss, ranks, code, metric, max_fpr, scratch):
    """The metric of one resample, given its counts ``cnt`` (model 0's class
    layout).  ``cnt`` is left unchanged; NaN when a class has no weight.

    Class-layout arrays (``src``, ``w``, ``loss``, ``ranks``) are used for
    ROC AUC, average precision and log loss; merged-order ones (``src``,
    ``w``, ``code``) for the partial AUC and the operating points (for
    ``PARTIAL_FPR`` and ``PARTIAL_TPR``, ``loss`` is the range ``(lo, hi)``).
    ``src`` maps this model's positions to model 0's class layout (empty:
    the identity), or, for the clustered bootstrap, to their clusters
    (``cnt`` then holds the clusters' counts).
    ``ranks[0, j], ranks[1, j]`` for a negative ``j`` are the numbers of
    positives strictly above and at-or-above its score; for a positive they
    are the numbers of positives and of negatives at-or-above its score.
    ``scratch`` has room for ``n + 2`` floats.

    ROC AUC: ``2 U = sum_neg x_j (C[lo_j] + C[hi_j])`` with ``C`` the prefix
    sums of the positives' resampled weights (``C[lo] + C[hi]`` is twice the
    weight above plus the weight tied).  Average precision: every positive
    adds ``x_i * C[i'] / (C[i'] + D[i''])`` with ``D`` the negatives' prefix
    sums.  Each is one streaming pass per class.
    """
    if metric == PARTIAL_FPR or metric == PARTIAL_TPR:
        return _merged_sweep(cnt, src, w, code, metric, max_fpr, scratch[:0], scratch[:0],
                             loss[0], loss[1])
    if metric == PARTIAL_AUC or SENS_AT_SPEC <= metric <= REC_AT_PREC:
        return _merged_sweep(cnt, src, w, code, metric, max_fpr, scratch[:0], scratch[:0])
    if metric == ECE:
        return _binned_error(cnt, src, n_pos, w, loss, ranks[0])
    if metric == LOG_LOSS:
        s = 0.0
        sw = 0.0
        for p in range(loss.shape[0]):
            x = _x(cnt, src, w, p)
            s += x * loss[p]
            sw += x
        return s / sw if sw > 0.0 else np.nan
    n = ranks.shape[1]
    cp = scratch[: n_pos + 1]
    total_p = _prefix(cnt, src, w, 0, n_pos, cp)
    if metric == AVERAGE_PRECISION:
        cn = scratch[n_pos + 1:]
        total_n = _prefix(cnt, src, w, n_pos, n, cn)
        if total_p <= 0.0 or total_n <= 0.0:
            return np.nan
        ap_num = 0.0
        for i in range(n_pos):
            x = _x(cnt, src, w, i)
            if x != 0.0:
                t = cp[ranks[0, i]]
                ap_num += x * (t / (t + cn[ranks[1, i]]))
        return ap_num / total_p
    area2 = 0.0
    total_n = 0.0
    for j in range(n_pos, n):
        x = _x(cnt, src, w, j)
        total_n += x
        area2 += x * (cp[ranks[0, j]] + cp[ranks[1, j]])
    if total_p <= 0.0 or total_n <= 0.0:
        return np.nan
    return area2 / (2.0 * total_p * total_n)


@jit(inline="always")
def _replicate(seed, r, cnt, strata, src, n_pos, w, loss, ranks, code, metric, max_fpr,
               scratch, draws, out_row):
    ok = _count_draws(seed, r, strata, cnt, draws)
    if ok:
        for m in range(out_row.shape[0]):
            out_row[m] = replicate_value(cnt, src[m], n_pos, w[m], loss[m], ranks[m], code[m],
                                         metric, max_fpr, scratch)
    cnt[:] = 0
    return ok


@jit
def replicate_batch(seed, r_start, out, strata, src, n_pos, w, loss, ranks, code, metric,
                    max_fpr, small, scratch, draws, wrapped):
    """Replicates ``r_start .. r_start + len(out)`` of ``k`` models at once.

    ``out`` is (n_replicates, k); the other arrays are stacked per model
    (first axis k) as ``replicate_value`` takes them (``src[0]`` may be
    empty: all rows of ``src`` are then empty, or of length n).  ``small``
    (n uint8 zeros, left zero) and ``scratch`` (n + 2 floats) come from the
    caller, reused batch after batch (allocated here they would get small
    pages: a page fault per 4 KiB, every batch); so does ``draws``
    (``draw_buffer``: ``_count_draws``' scratch).  ``wrapped[r]`` is set when
    a uint8 count of replicate ``r`` wrapped around (its row of ``out`` is
    then not written: the caller redoes it with ``replicate_wide``, a kernel
    of its own, so that this one compiles for uint8 counts only).
    """
    for r in range(out.shape[0]):
        wrapped[r] = not _replicate(seed, r_start + r, small, strata, src, n_pos, w, loss,
                                    ranks, code, metric, max_fpr, scratch, draws, out[r])


@jit
def replicate_wide(seed, r, out_row, strata, src, n_pos, w, loss, ranks, code, metric,
                   max_fpr, scratch, draws):
    """Replicate ``r`` with int64 counts (after a uint8 count wrapped); ``draws``
    is ``draw_buffer(n, 8)``."""
    wide = np.zeros(strata[-1], np.int64)
    _replicate(seed, r, wide, strata, src, n_pos, w, loss, ranks, code, metric, max_fpr,
               scratch, draws, out_row)


@jit
def roc_band_batch(seed, r_start, out, strata, src, w, code, grid, small, draws, wrapped):
    """TPR at the FPR values ``grid`` for replicates ``r_start ..``: ``out`` is
    (n_replicates, len(grid)); one model, arrays in merged order; ``small``,
    ``draws`` and ``wrapped`` as in ``replicate_batch`` (``roc_band_wide`` redoes those)."""
    for r in range(out.shape[0]):
        ok = _count_draws(seed, r_start + r, strata, small, draws)
        if ok:
            _merged_sweep(small, src, w, code, ROC_AUC, 1.0, grid, out[r])
        wrapped[r] = not ok
        small[:] = 0


@jit
def roc_band_wide(seed, r, out_row, strata, src, w, code, grid, draws):
    """Replicate ``r`` of the band with int64 counts (after a uint8 count
    wrapped); ``draws`` is ``draw_buffer(n, 8)``."""
    wide = np.zeros(strata[-1], np.int64)
    _count_draws(seed, r, strata, wide, draws)
    _merged_sweep(wide, src, w, code, ROC_AUC, 1.0, grid, out_row)


@jit
def poisson_batch(seed, r_start, out, rid, n_pos, w, loss, ranks, code, metric, max_fpr,
                  counts, scratch):
    """Poisson-scheme replicates ``r_start .. r_start + len(out)`` of ``k`` models.

    ``rid[m]`` is model ``m``'s input row at each of its positions (class
    layout, or merged order for the partial AUC): each model generates the
    counts of its rows in its own order, so a row has the same count under
    every model of a replicate.  ``counts`` (n uint8) and ``scratch`` (n + 2
    floats) come from the caller.
    """
    none = np.empty(0, np.int64)
    for r in range(out.shape[0]):
        key = replicate_state(seed, r_start + r)
        for m in range(out.shape[1]):
            poisson_counts(key, rid[m], counts)
            out[r, m] = replicate_value(counts, none, n_pos, w[m], loss[m], ranks[m], code[m],
                                        metric, max_fpr, scratch)


@jit
def poisson_range_sums(keys, is_pos, w, rid, seed, r_start, out):
    """Poisson replicates ``r_start ..`` of one key range's rows (sorted by
    decreasing key): ``out[r] = (tp, fp, area2)``, the range's positive and
    negative resampled weight and twice its ROC area counted from zero weight
    above (a tie group's pairs one half).  Ranges add up: the whole area is
    ``sum_k area2_k + 2 fp_k * (tp of the ranges above k)``.  ``w`` empty:
    unit weights."""
    n = keys.shape[0]
    weighted = w.shape[0] > 0
    for r in range(out.shape[0]):
        key = replicate_state(seed, r_start + r)
        tp = 0.0
        fp = 0.0
        tg = 0.0
        fg = 0.0
        area2 = 0.0
        for i in range(n):
            if i > 0 and keys[i] != keys[i - 1]:  # close the tie group above
                area2 += fg * (2.0 * tp + tg)
                tp += tg
                fp += fg
                tg = 0.0
                fg = 0.0
            x = float(poisson_count(key, rid[i]))
            if weighted:
                x *= w[i]
            if is_pos[i]:
                tg += x
            else:
                fg += x
        area2 += fg * (2.0 * tp + tg)
        out[r, 0] = tp + tg
        out[r, 1] = fp + fg
        out[r, 2] = area2
