"""Log loss, one pass, with Neumaier-compensated sums.

Probabilities are clipped to ``[eps, 1 - eps]`` (``eps`` of float64) as
scikit-learn 1.9 does, without renormalising rows.  Compensated summation keeps
the result within a few ulps of the exact sum, so it agrees with numpy's
pairwise sums to far better than 1e-12.
"""

from __future__ import annotations

import numpy as np

from .._jit import jit

EPS = np.finfo(np.float64).eps


@jit
def neumaier_add(s, c, x):
    t = s + x
    if abs(s) >= abs(x):
        c += (s - t) + x
    else:
        c += (x - t) + s
    return t, c


@jit
def _row_loss(proba, cls, i, one_column, lo, hi):
    """``-log p`` of row ``i``'s true class, ``p`` clipped to ``[lo, hi]``."""
    if one_column:
        p = proba[i, 0] if cls[i] == 1 else 1.0 - proba[i, 0]
    else:
        p = proba[i, cls[i]]
    return -np.log(min(max(p, lo), hi))


@jit
def log_loss_sum(proba, cls, weight):
    """Return ``(sum_i w_i * -log(p_i[cls_i]), sum_i w_i)``.

    ``proba`` is (n, k) float64.  With ``k == 1`` the column is the
    probability of class 1 and class 0 gets ``1 - p`` (binary 1-D input).
    ``cls`` is int64 (n,) with values in ``0..max(k, 2)-1``.  ``weight`` is
    float64 (n,) or empty for unit weights.
    """
    n = proba.shape[0]
    weighted = weight.shape[0] > 0
    lo = EPS
    hi = 1.0 - EPS
    s = 0.0
    c = 0.0
    sw = 0.0
    cw = 0.0
    one_column = proba.shape[1] == 1
    for i in range(n):
        term = _row_loss(proba, cls, i, one_column, lo, hi)
        if weighted:
            w = weight[i]
            s, c = neumaier_add(s, c, term * w)
            sw, cw = neumaier_add(sw, cw, w)
        else:
            s, c = neumaier_add(s, c, term)
    if not weighted:
        sw = float(n)
    return s + c, sw + cw

