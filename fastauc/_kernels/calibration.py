"""Calibration sums, one pass each: over the rows (``bin_rows``,
``brier_rows``: sums that need no order, for row blocks whose partial sums
the caller adds in block order; ``bucket_counts_of`` and ``gather_buckets``
for the selection of order statistics) or over the distinct-score table
(``brier_sums``).

The table's keys (``sorting.float_key`` of each distinct probability,
descending) are turned back into floats on the fly, so no array of scores
or of squared errors is allocated.  The Brier sums are Neumaier-compensated
(within a few ulps of the exact sum, as numpy's pairwise sums are); the bins
add their rows in table order, as ``numpy.bincount`` adds its rows.
"""

from __future__ import annotations

import numpy as np

from .._jit import jit
from .losses import neumaier_add
from .sorting import bits_to_float, key_to_float_bits


@jit
def brier_sums(keys, pos, neg):
    """``(sum pos (1 - p)^2 + neg p^2, sum pos, sum neg)`` of a table."""
    sse = sse_c = tp = tp_c = tn = tn_c = 0.0
    for i in range(keys.shape[0]):
        p = bits_to_float(key_to_float_bits(keys[i]))
        q = 1.0 - p
        sse, sse_c = neumaier_add(sse, sse_c, pos[i] * q * q + neg[i] * p * p)
        tp, tp_c = neumaier_add(tp, tp_c, pos[i])
        tn, tn_c = neumaier_add(tn, tn_c, neg[i])
    return sse + sse_c, tp + tp_c, tn + tn_c


LINEAR_EDGES = 32


@jit
def bin_rows(p, labels, weight, edges, right, scale, shift, out):
    """Per bin, into ``out`` (3, n_bins) zeroed, from the rows themselves
    (no table, no sort): the weight, the weighted sum of the probabilities
    and the positive weight, added in row order; ``weight`` empty means ones.
    ``labels``: the positive mask (bool), or int64 labels whose positive
    class is 1 (their least and greatest are returned, to check them after).

    A probability ``p`` goes to bin ``c - 1`` with ``right`` (``c`` the
    edges ``<= p``: ``searchsorted(edges, p, "right") - 1``, torch's
    ``bucketize(right=True) - 1``), else to bin ``c`` (``c`` the edges
    ``< p``: ``searchsorted(edges, p, "left")``, scikit-learn's rule with its
    inner edges).  Up to ``LINEAR_EDGES`` edges, ``p`` is compared with each
    (no branch: probabilities in no order make a search's branches a coin
    toss); beyond, with ``scale > 0`` the count starts at
    ``int(p * scale) + shift`` (equally wide bins: right or one off) and
    walks to the exact count, comparing ``p`` with the edges themselves,
    else a binary search finds it.  The same count every way.

    Returns ``(least, greatest, non-finite rows)`` of ``p`` (the range over
    the finite rows) and ``(least, greatest)`` of ``labels`` (as int64, over
    all rows); non-finite rows are not binned, and a count outside the bins
    is clamped (the caller raises for such rows)."""
    m = edges.shape[0]
    nb = out.shape[1]
    weighted = weight.shape[0] > 0
    lo_p = np.inf
    hi_p = -np.inf
    bad = 0
    lo_y = np.iinfo(np.int64).max
    hi_y = np.iinfo(np.int64).min
    for i in range(p.shape[0]):
        x = p[i]
        y = np.int64(labels[i])
        lo_y = min(lo_y, y)
        hi_y = max(hi_y, y)
        if not (x - x == 0.0):  # NaN or infinite
            bad += 1
            continue
        lo_p = min(lo_p, x)
        hi_p = max(hi_p, x)
        if m <= LINEAR_EDGES:  # count them all: no branch on x (the fastest for few)
            c = 0
            if right:
                for j in range(m):
                    c += edges[j] <= x
            else:
                for j in range(m):
                    c += edges[j] < x
        elif scale > 0.0:
            g = x * scale
            c = m if g >= m else (0 if g <= 0.0 else int(g))
            c += shift
            c = 0 if c < 0 else (m if c > m else c)
            if right:
                while c > 0 and edges[c - 1] > x:
                    c -= 1
                while c < m and edges[c] <= x:
                    c += 1
            else:
                while c > 0 and edges[c - 1] >= x:
                    c -= 1
                while c < m and edges[c] < x:
                    c += 1
        else:
            lo, hi = 0, m
            while lo < hi:
                mid = (lo + hi) >> 1
                if edges[mid] < x or (right and edges[mid] == x):
                    lo = mid + 1
                else:
                    hi = mid
            c = lo
        b = c - 1 if right else c
        b = 0 if b < 0 else (nb - 1 if b >= nb else b)
        w = weight[i] if weighted else 1.0
        out[0, b] += w
        out[1, b] += w * x
        out[2, b] += w * (y == 1)  # no branch: the labels are in no order
    return lo_p, hi_p, bad, lo_y, hi_y


@jit
def brier_rows(p, is_pos, weight):
    """The Neumaier sums ``(sse, c), (positive weight, c), (negative weight,
    c)`` of rows (``sse``: ``w (1 - p)^2`` of a positive, ``w p^2`` of a
    negative), in row order; ``weight`` empty means ones."""
    weighted = weight.shape[0] > 0
    sse = sse_c = tp = tp_c = tn = tn_c = 0.0
    for i in range(p.shape[0]):
        w = weight[i] if weighted else 1.0
        y = 1.0 if is_pos[i] else 0.0
        q = y - p[i]  # 1 - p, or -p (squared: p^2): no branch, the labels are in no order
        sse, sse_c = neumaier_add(sse, sse_c, w * q * q)
        tp, tp_c = neumaier_add(tp, tp_c, w * y)
        tn, tn_c = neumaier_add(tn, tn_c, w - w * y)
    return sse, sse_c, tp, tp_c, tn, tn_c


# the top bits of a probability's IEEE 754 bits that pick its bucket in the
# selection of order statistics: bits >> 46 of [0, 1] lie below 2^16 (the
# exponent and 6 bits of the mantissa), in the order of the probabilities
BUCKET_SHIFT = 46
BUCKETS = 1 << 16


@jit
def bucket_counts_of(bits, hist):
    """Rows per bucket (``bits >> BUCKET_SHIFT``) into ``hist`` (``BUCKETS``,)
    zeroed, of the probabilities' bits (``-0.0`` as ``+0.0``); returns
    ``(least, greatest, non-finite rows)`` of the probabilities, as
    :func:`bin_rows` does.  Rows outside [0, 1] are not counted."""
    lo_p = np.inf
    hi_p = -np.inf
    bad = 0
    for i in range(bits.shape[0]):
        x = bits_to_float(bits[i])
        if not (x - x == 0.0):
            bad += 1
            continue
        lo_p = min(lo_p, x)
        hi_p = max(hi_p, x)
        if 0.0 <= x <= 1.0:
            hist[(bits[i] & np.uint64(0x7FFFFFFFFFFFFFFF)) >> np.uint64(BUCKET_SHIFT)] += 1
    return lo_p, hi_p, bad


@jit
def gather_buckets(bits, slot, starts, out):
    """The bits (``-0.0`` as ``+0.0``) of the rows whose bucket has a slot
    (``slot[bucket] >= 0``), written in row order at ``out[starts[s]]`` on
    for slot ``s`` (``starts`` is advanced).  Rows in [0, 1] only."""
    for i in range(bits.shape[0]):
        b = bits[i] & np.uint64(0x7FFFFFFFFFFFFFFF)
        s = slot[b >> np.uint64(BUCKET_SHIFT)]
        if s >= 0:
            out[starts[s]] = b
            starts[s] += 1
    return starts
