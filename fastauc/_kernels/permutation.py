"""Venkatraman's permutation tests of two ROC curves: O(n) per permutation.

Both tests work on ranks (ties broken by row order, R's ``ties.method =
"first"``), so the data are sorted once per score column and a permutation
only reorders class labels along the two rank orders:

- ``paired_*``: each row's two ranks are exchanged with probability 1/2
  (Venkatraman & Begg 1996).  A kept rank carries a uniform jitter in
  (-1/2, 1/2) and an exchanged one does not, so in the permuted ranking the
  ranks stay ordered and a kept and an exchanged row that share a rank are
  ordered by a fair coin: every rank is a bucket of at most two rows.
- ``unpaired_*``: each class's rows of the two samples are pooled and dealt
  back at random in the original sizes (Venkatraman 2000), again with
  jittered ranks: buckets of at most two rows per sample.

Random numbers: permutation ``r`` has its own SplitMix64 stream started at
``replicate_state(seed, r)`` (``resampling``), so a permutation depends on
``(seed, r)`` only, not on how permutations are batched on the threads.
"""

from __future__ import annotations

import numpy as np

from .._jit import jit
from .resampling import GOLDEN, replicate_state

S32 = np.uint64(32)
LOW32 = np.uint64(0xFFFFFFFF)
TWO32 = np.uint64(1 << 32)
BIT = np.uint64(1)
ZERO = np.uint64(0)


@jit
def _next(state):
    """The stream's next 64 bits: SplitMix64's Weyl step, its output mixed by
    ``replicate_state`` (the resampling streams' own mixer)."""
    state = state + GOLDEN
    return state, replicate_state(state, ZERO)


@jit
def paired_statistic(lab_a, lab_b, n_neg):
    """Sum over cut points ``x = 1..n`` of ``|err_b(x) - err_a(x)|``, where
    ``err(x)`` is the positives ranked at or below ``x`` plus the negatives
    ranked above it; ``lab_*[k]`` is 1 when the row of rank ``k`` is
    positive."""
    ea = n_neg
    eb = n_neg
    total = 0
    for k in range(lab_a.shape[0]):
        ea += 2 * np.int64(lab_a[k]) - 1
        eb += 2 * np.int64(lab_b[k]) - 1
        total += abs(eb - ea)
    return total


@jit
def _words(state, out):
    """Fill ``out`` (uint64) with the stream's next outputs: 64 fair bits each."""
    for k in range(out.shape[0]):
        state, out[k] = _next(state)
    return state


@jit
def _bit(words, k):
    return np.int64((words[k >> 6] >> np.uint64(k & 63)) & BIT)


@jit
def paired_batch(seed, r_start, out, lab_a, lab_b, b_in_a, n_neg):
    """Permutations ``r_start + j`` of the paired test into ``out[j]``.

    ``lab_a[k]``/``lab_b[k]``: the label of the row of rank ``k`` by score
    a/b; ``b_in_a[k]``: the a-rank of the row of b-rank ``k``.  Row ``x``
    (a-rank ``i``) keeps its ranks when bit ``i`` of ``keep`` is 1.  Both
    permuted rankings are written without branches: a rank's bucket writes
    two labels and advances by the rows it holds."""
    n = lab_a.shape[0]
    nw = (n + 63) >> 6
    keep = np.empty(nw, np.uint64)
    coin = np.empty(2 * nw, np.uint64)
    new_a = np.empty(n + 1, np.uint8)
    new_b = np.empty(n + 1, np.uint8)
    for j in range(out.shape[0]):
        state = replicate_state(seed, r_start + j)
        state = _words(state, keep)
        state = _words(state, coin)
        ia = 0
        ib = 0
        for k in range(n):
            lx = np.int64(lab_a[k])  # the row of a-rank k
            ly = np.int64(lab_b[k])  # the row of b-rank k
            kx = _bit(keep, k)
            ky = _bit(keep, b_in_a[k])
            # ranking a: x if kept (jittered), y if exchanged (exact)
            my = 1 - ky
            x_first = kx * (1 - my * (1 - _bit(coin, 2 * k)))
            new_a[ia] = x_first * lx + (1 - x_first) * ly
            new_a[ia + 1] = x_first * ly + (1 - x_first) * lx
            ia += kx + my
            # ranking b: y if kept (jittered), x if exchanged (exact)
            mx = 1 - kx
            y_first = ky * (1 - mx * (1 - _bit(coin, 2 * k + 1)))
            new_b[ib] = y_first * ly + (1 - y_first) * lx
            new_b[ib + 1] = y_first * lx + (1 - y_first) * ly
            ib += ky + mx
        out[j] = paired_statistic(new_a[:n], new_b[:n], n_neg)


@jit
def _positives(lab):
    """The positives of a ranking (labels 0/1)."""
    n = 0
    for k in range(lab.shape[0]):
        n += np.int64(lab[k])
    return n


@jit
def _next_point(lab, i, cp, cn, step_pos, step_neg):
    """The mixture coordinate of a curve's point ``i`` (after ``i + 1``
    ranks), ``cp``/``cn`` the positives/negatives among the first ``i``
    ranks; infinity past the last point."""
    if i >= lab.shape[0]:
        return np.inf
    up = np.int64(lab[i])
    return (cp + up) * step_pos + (cn + 1 - up) * step_neg


@jit
def unpaired_statistic(lab_a, lab_b, mp):
    """The area between the two error curves, as functions of the mixture
    quantile, by the trapezoid rule on the union of both curves' points
    (segments with an end outside either curve's range left out).

    A sample's ranking (labels in rank order) gives, after each rank, the
    fractions ``F`` of its positives and ``G`` of its negatives ranked at or
    below it, the mixture quantile ``p = mp F + (1 - mp) G`` and the error
    ``e = mp F + (1 - mp)(1 - G)``.  A positive moves ``p`` and ``e`` up by
    the same step, a negative moves ``p`` up and ``e`` down by the same step:
    between its points a curve has slope +1 or -1, so its value at any
    point of the union is its last point's value plus the slope times the
    distance (R's ``approx`` on the same segment).  One merge of the two
    point sequences, counts kept as integers."""
    na = lab_a.shape[0]
    nb = lab_b.shape[0]
    pos_a = _positives(lab_a)
    pos_b = _positives(lab_b)
    sa_pos, sa_neg = mp / pos_a, (1.0 - mp) / (na - pos_a)
    sb_pos, sb_neg = mp / pos_b, (1.0 - mp) / (nb - pos_b)
    top = 1.0 - mp
    cpa = 0
    cna = 0
    cpb = 0
    cnb = 0
    i = 0
    j = 0
    next_a = _next_point(lab_a, 0, 0, 0, sa_pos, sa_neg)
    next_b = _next_point(lab_b, 0, 0, 0, sb_pos, sb_neg)
    last_a = pos_a * sa_pos + (na - pos_a) * sa_neg
    last_b = pos_b * sb_pos + (nb - pos_b) * sb_neg
    # each curve's last point at or below x: (p, e), and its slope after it
    pa = 0.0
    ea = 0.0
    slope_a = 0.0
    pb = 0.0
    eb = 0.0
    slope_b = 0.0
    total = 0.0
    prev_x = 0.0
    prev_ok = False
    prev_y = 0.0
    for _ in range(na + nb):
        if next_a <= next_b:
            x = next_a
            up = np.int64(lab_a[i])
            cpa += up
            cna += 1 - up
            i += 1
            pa = x
            ea = 2.0 * (cpa * sa_pos) + top - x
            slope_a = 2.0 * lab_a[i] - 1.0 if i < na else 0.0
            next_a = _next_point(lab_a, i, cpa, cna, sa_pos, sa_neg)
            y = abs(ea - (eb + slope_b * (x - pb)))
        else:
            x = next_b
            up = np.int64(lab_b[j])
            cpb += up
            cnb += 1 - up
            j += 1
            pb = x
            eb = 2.0 * (cpb * sb_pos) + top - x
            slope_b = 2.0 * lab_b[j] - 1.0 if j < nb else 0.0
            next_b = _next_point(lab_b, j, cpb, cnb, sb_pos, sb_neg)
            y = abs(ea + slope_a * (x - pa) - eb)
        ok = i > 0 and j > 0 and x <= last_a and x <= last_b
        if ok and prev_ok:
            total += (y + prev_y) * (x - prev_x) / 2.0
        prev_x = x
        prev_y = y
        prev_ok = ok
    return total


@jit
def _dest(state, half, need, left):
    """Selection sampling (Knuth's Algorithm S), one row: 0 (to sample a)
    with probability ``need / left``, else 1, by a uniform integer below
    ``left`` made from the 32 random bits ``half`` (Lemire 2019: a draw in
    the rejected band is replaced by a fresh one; ``1 <= left <= 2**32``)."""
    m = np.uint64(left)
    prod = half * m
    if (prod & LOW32) < m:
        t = (TWO32 - m) % m
        while (prod & LOW32) < t:
            state, z = _next(state)
            prod = (z >> S32) * m
    return state, np.int64(np.int64(prod >> S32) >= need)


@jit(inline="always")
def _dealt(state, half, c, need, left):
    """A row of class ``c`` dealt (``_dest``): ``(state, 0 to a / 1 to b)``."""
    state, d = _dest(state, half, need[c], left[c])
    need[c] -= 1 - d
    left[c] -= 1
    return state, d


@jit(inline="always")
def _put(new_a, new_b, ka, kb, c, d):
    """A row of class ``c`` appended to sample ``d``'s ranking (written to both:
    each has a spare slot)."""
    new_a[ka] = np.uint8(c)
    new_b[kb] = np.uint8(c)
    return ka + 1 - d, kb + d


@jit
def unpaired_batch(seed, r_start, out, lab_a, lab_b, mp):
    """Permutations ``r_start + j`` of the unpaired test into ``out[j]``.

    ``lab_a``/``lab_b``: each sample's labels in rank order.  Each class's
    rows of both samples are dealt back in the samples' sizes by selection
    sampling over the rows in rank order (a's row of rank ``k``, then b's):
    the deal and the permuted rankings in one pass.  One 64-bit draw deals
    the two rows of rank ``k`` (a 32-bit half each); they are ordered by
    their jitter, a fair coin (bit ``k mod 64`` of a word drawn every 64
    ranks)."""
    na = lab_a.shape[0]
    nb = lab_b.shape[0]
    pos_a = _positives(lab_a)
    pos_b = _positives(lab_b)
    new_a = np.empty(na + 1, np.uint8)  # one spare slot: every row is written to both
    new_b = np.empty(nb + 1, np.uint8)
    need = np.empty(2, np.int64)
    left = np.empty(2, np.int64)
    both = min(na, nb)
    for j in range(out.shape[0]):
        state = replicate_state(seed, r_start + j)
        need[0], need[1] = na - pos_a, pos_a
        left[0], left[1] = na - pos_a + nb - pos_b, pos_a + pos_b
        ka = 0
        kb = 0
        coins = ZERO
        for k in range(both):
            if k & 63 == 0:
                state, coins = _next(state)
            state, z = _next(state)
            cx = np.int64(lab_a[k])
            state, dx = _dealt(state, z >> S32, cx, need, left)
            cy = np.int64(lab_b[k])
            state, dy = _dealt(state, z & LOW32, cy, need, left)
            yf = np.int64((coins >> np.uint64(k & 63)) & BIT)  # b's row first
            c1 = cx + yf * (cy - cx)
            d1 = dx + yf * (dy - dx)
            ka, kb = _put(new_a, new_b, ka, kb, c1, d1)
            ka, kb = _put(new_a, new_b, ka, kb, cx + cy - c1, dx + dy - d1)
        for lab, lo in ((lab_a, both), (lab_b, both)):  # the longer sample's last ranks
            for k in range(lo, lab.shape[0]):
                state, z = _next(state)
                c = np.int64(lab[k])
                state, d = _dealt(state, z >> S32, c, need, left)
                ka, kb = _put(new_a, new_b, ka, kb, c, d)
        out[j] = unpaired_statistic(new_a[:na], new_b[:nb], mp)
