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

# ln 2 split for the argument reduction: LN2_HI has 42 significant bits, so
# k * LN2_HI is exact for every exponent k; LN2_LO = ln 2 - LN2_HI (both from
# a 60-digit ln 2; tests/test_losses.py checks them)
LN2_HI = 0.6931471805598903
LN2_LO = 5.497923018708371e-14
_MANT = np.uint64(0x000FFFFFFFFFFFFF)
_SQRT2_MANT = np.uint64(0x6A09E667F3BCD)  # mantissa bits of sqrt(2)
# log(1 + f) = 2 atanh(s), s = f / (2 + f): 2 s + s z (2/3 + 2/5 z + 2/7 z^2 + ...), z = s^2;
# |s| <= 0.1716, so ten terms leave a truncation error below 1e-19 of the result
_A0, _A1, _A2, _A3, _A4, _A5, _A6, _A7, _A8, _A9 = (2.0 / (2 * i + 3) for i in range(10))


@jit
def neumaier_add(s, c, x):
    t = s + x
    if abs(s) >= abs(x):
        c += (s - t) + x
    else:
        c += (x - t) + s
    return t, c


@jit
def log_into(x, out, scratch):
    """``out[i] = log(x[i])`` for positive, normal, finite ``x`` (clipped
    probabilities), in two loops the compiler vectorises (libm's ``log`` is a
    call per element).  ``scratch`` is float64, as long as ``x``.

    ``x = 2**k * m`` with ``m`` in ``[sqrt(2)/2, sqrt(2))`` from the bits;
    ``log m = log(1 + f)`` is the ``atanh`` series above in the form
    ``f - f**2/2 + s (f**2/2 + R)`` that keeps the rounding small, and
    ``k log 2`` is added in two parts (Cody & Waite's reduction).  Within
    one ulp of the correctly rounded logarithm (tests/test_losses.py).
    """
    n = x.shape[0]
    xb = x.view(np.uint64)
    mb = scratch.view(np.uint64)
    for i in range(n):
        b = xb[i]
        mant = b & _MANT
        up = np.uint64(1) if mant >= _SQRT2_MANT else np.uint64(0)
        mb[i] = mant | ((np.uint64(1023) - up) << np.uint64(52))
        out[i] = float(np.int64(b >> np.uint64(52)) - 1023 + np.int64(up))
    for i in range(n):
        f = scratch[i] - 1.0
        k = out[i]
        s = f / (2.0 + f)
        z = s * s
        r = z * (_A0 + z * (_A1 + z * (_A2 + z * (_A3 + z * (_A4 + z * (
            _A5 + z * (_A6 + z * (_A7 + z * (_A8 + z * _A9)))))))))
        hfsq = 0.5 * f * f
        out[i] = k * LN2_HI - ((hfsq - (s * (hfsq + r) + k * LN2_LO)) - f)


@jit
def log_loss_sum(proba, cls, weight):
    """Return ``(sum_i w_i * -log(p_i[cls_i]), sum_i w_i)``.

    ``proba`` is (n, k) float64.  With ``k == 1`` the column is the
    probability of class 1 and class 0 gets ``1 - p`` (binary 1-D input).
    ``cls`` is int64 (n,) with values in ``0..max(k, 2)-1``.  ``weight`` is
    float64 (n,) or empty for unit weights.  Rows go through in blocks: each
    block's clipped probabilities are gathered, their logarithms taken by
    ``log_into`` (vectorised), and the terms added in row order.
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
    block = 1024
    p = np.empty(block)
    logs = np.empty(block)
    scratch = np.empty(block)
    for start in range(0, n, block):
        m = min(block, n - start)
        for j in range(m):
            i = start + j
            if one_column:
                x = proba[i, 0] if cls[i] == 1 else 1.0 - proba[i, 0]
            else:
                x = proba[i, cls[i]]
            p[j] = min(max(x, lo), hi)
        log_into(p[:m], logs[:m], scratch[:m])
        for j in range(m):
            if weighted:
                w = weight[start + j]
                s, c = neumaier_add(s, c, -logs[j] * w)
                sw, cw = neumaier_add(sw, cw, w)
            else:
                s, c = neumaier_add(s, c, -logs[j])
    if not weighted:
        sw = float(n)
    return s + c, sw + cw
