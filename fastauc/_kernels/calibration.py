"""Calibration sums over the distinct-score table, one pass each.

The table's keys (``sorting.float_key`` of each distinct probability,
descending) are turned back into floats on the fly, so no array of scores
or of squared errors is allocated.  The Brier sums are Neumaier-compensated
(within a few ulps of the exact sum, as numpy's pairwise sums are); the bins
add their rows in table order, as ``numpy.bincount`` adds its rows.
"""

from __future__ import annotations

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


@jit
def bin_sums(keys, pos, neg, edges, right, out):
    """Per bin, into ``out`` (3, n_bins) zeroed: the weight, the weighted sum
    of the probabilities and the positive weight.

    A probability ``p`` goes to bin ``searchsorted(edges, p, side)``, minus
    one with ``right`` (``side="right"``: bins closed on the left, as
    ``torch.bucketize(right=True) - 1``), else ``side="left"`` (bins closed
    on the right, as scikit-learn's ``calibration_curve`` with its inner
    edges)."""
    m = edges.shape[0]
    for i in range(keys.shape[0]):
        p = bits_to_float(key_to_float_bits(keys[i]))
        lo, hi = 0, m  # first edge > p (right) or >= p (left)
        while lo < hi:
            mid = (lo + hi) >> 1
            if edges[mid] < p or (right and edges[mid] == p):
                lo = mid + 1
            else:
                hi = mid
        b = lo - 1 if right else lo
        w = pos[i] + neg[i]
        out[0, b] += w
        out[1, b] += w * p
        out[2, b] += pos[i]
    return out
