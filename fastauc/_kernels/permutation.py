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
def _bits(state, out):
    """Fill ``out`` (uint8) with fair bits from the stream."""
    n = out.shape[0]
    k = 0
    while k < n:
        state, z = _next(state)
        for _ in range(64):
            if k == n:
                break
            out[k] = np.uint8(z & BIT)
            z = z >> BIT
            k += 1
    return state


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
def _curve(lab, mp, p, e):
    """The mixture points ``p`` and error rates ``e`` of one sample's
    ranking (labels in rank order): after each rank ``x``, ``p = mp F + (1 -
    mp) G`` and ``e = mp F + (1 - mp)(1 - G)``, F and G the fractions of
    positives and negatives ranked at or below ``x``."""
    n = lab.shape[0]
    n_pos = 0
    for k in range(n):
        n_pos += lab[k]
    n_neg = n - n_pos
    cp = 0
    cn = 0
    for k in range(n):
        if lab[k]:
            cp += 1
        else:
            cn += 1
        f = cp / n_pos
        g = cn / n_neg
        p[k] = mp * f + (1.0 - mp) * g
        e[k] = mp * f + (1.0 - mp) * (1.0 - g)


@jit
def _interp(p, e, i, x):
    """R's ``approx`` at ``x`` with ``p[i] <= x < p[i + 1]`` known (NaN
    outside ``[p[0], p[-1]]``)."""
    m = p.shape[0]
    if x < p[0] or x > p[m - 1]:
        return np.nan
    if i >= m - 1:
        return e[m - 1]
    if x == p[i + 1]:
        return e[i + 1]
    if x == p[i]:
        return e[i]
    return e[i] + (e[i + 1] - e[i]) * ((x - p[i]) / (p[i + 1] - p[i]))


@jit
def unpaired_statistic(lab_a, lab_b, mp, pa, ea, pb, eb):
    """The area between the two error curves, as functions of the mixture
    quantile, by the trapezoid rule on the union of both curves' points
    (segments with an end outside either curve's range left out)."""
    _curve(lab_a, mp, pa, ea)
    _curve(lab_b, mp, pb, eb)
    na = pa.shape[0]
    nb = pb.shape[0]
    i = 0
    j = 0
    ia = -1  # the last point of a at or below x
    ib = -1
    total = 0.0
    prev_x = 0.0
    prev_y = np.nan
    while i < na or j < nb:
        if j >= nb or (i < na and pa[i] <= pb[j]):
            x = pa[i]
            i += 1
        else:
            x = pb[j]
            j += 1
        while ia + 1 < na and pa[ia + 1] <= x:
            ia += 1
        while ib + 1 < nb and pb[ib + 1] <= x:
            ib += 1
        y = abs(_interp(pa, ea, max(ia, 0), x) - _interp(pb, eb, max(ib, 0), x))
        term = (y + prev_y) * (x - prev_x) / 2.0
        if not np.isnan(term):
            total += term
        prev_x = x
        prev_y = y
    return total


@jit
def _below(state, m):
    """A uniform integer in ``[0, m)``, ``1 <= m <= 2**32`` (Lemire 2019)."""
    state, z = _next(state)
    prod = (z >> S32) * m
    if (prod & LOW32) < m:
        t = (TWO32 - m) % m
        while (prod & LOW32) < t:
            state, z = _next(state)
            prod = (z >> S32) * m
    return state, np.int64(prod >> S32)


@jit
def _deal(state, lab, dest, offset, cls, need, left):
    """Selection sampling (Knuth's Algorithm S) over one sample's rows of
    class ``cls`` in rank order: each goes to sample a (``dest = 0``) with
    probability ``need / left``; returns the state, ``need`` and ``left``."""
    for k in range(lab.shape[0]):
        if lab[k] == cls:
            state, u = _below(state, np.uint64(left))
            if u < need:
                dest[offset + k] = 0
                need -= 1
            else:
                dest[offset + k] = 1
            left -= 1
    return state, need, left


@jit
def unpaired_batch(seed, r_start, out, lab_a, lab_b, mp):
    """Permutations ``r_start + j`` of the unpaired test into ``out[j]``.

    ``lab_a``/``lab_b``: each sample's labels in rank order."""
    na = lab_a.shape[0]
    nb = lab_b.shape[0]
    pos_a = 0
    for k in range(na):
        pos_a += lab_a[k]
    pos_b = 0
    for k in range(nb):
        pos_b += lab_b[k]
    neg_a = na - pos_a
    dest = np.empty(na + nb, np.uint8)  # a's rows, then b's: 0 to sample a, 1 to b
    m = max(na, nb)
    coin = np.empty(m, np.uint8)
    new_a = np.empty(na, np.uint8)
    new_b = np.empty(nb, np.uint8)
    pa, ea, pb, eb = np.empty(na), np.empty(na), np.empty(nb), np.empty(nb)
    for j in range(out.shape[0]):
        state = replicate_state(seed, r_start + j)
        # the negatives, then the positives, dealt back in the samples' sizes
        state, need, left = _deal(state, lab_a, dest, 0, 0, neg_a, neg_a + nb - pos_b)
        state, need, left = _deal(state, lab_b, dest, na, 0, need, left)
        state, need, left = _deal(state, lab_a, dest, 0, 1, pos_a, pos_a + pos_b)
        state, need, left = _deal(state, lab_b, dest, na, 1, need, left)
        state = _bits(state, coin)
        ka = 0
        kb = 0
        for k in range(m):
            has_x = k < na
            has_y = k < nb
            # a row of a's rank k and one of b's rank k: by rank, then by jitter
            first_y = has_x and has_y and coin[k] == 1
            for t in range(2):
                from_b = (t == 0) == first_y
                if from_b:
                    if not has_y:
                        continue
                    lab = lab_b[k]
                    d = dest[na + k]
                else:
                    if not has_x:
                        continue
                    lab = lab_a[k]
                    d = dest[k]
                if d == 0:
                    new_a[ka] = lab
                    ka += 1
                else:
                    new_b[kb] = lab
                    kb += 1
        out[j] = unpaired_statistic(new_a, new_b, mp, pa, ea, pb, eb)
