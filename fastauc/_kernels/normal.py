"""Standard normal quantiles of an array, one pass (the DET plot's axes).

Acklam's rational approximation (relative error below 1.2e-9), refined by
one step of Halley's method on ``0.5 erfc(-x / sqrt(2)) - p``: within a few
units in the last place of ``scipy.special.ndtri`` over (0, 1).
"""

from __future__ import annotations

import math

from .._jit import jit

_A = (-3.969683028665376e+01, 2.209460984245205e+02, -2.759285104469687e+02,
      1.383577518672690e+02, -3.066479806614716e+01, 2.506628277459239e+00)
_B = (-5.447609879822406e+01, 1.615858368580409e+02, -1.556989798598866e+02,
      6.680131188771972e+01, -1.328068155288572e+01)
_C = (-7.784894002430293e-03, -3.223964580411365e-01, -2.400758277161838e+00,
      -2.549732539343734e+00, 4.374664141464968e+00, 2.938163982698783e+00)
_D = (7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e+00,
      3.754408661907416e+00)
_LOW = 0.02425


@jit
def _tail(q):
    """The approximation for the lower tail, ``q = sqrt(-2 log p)``."""
    return ((((((_C[0] * q + _C[1]) * q + _C[2]) * q + _C[3]) * q + _C[4]) * q + _C[5])
            / ((((_D[0] * q + _D[1]) * q + _D[2]) * q + _D[3]) * q + 1.0))


@jit
def norm_ppf(p, out):
    """``out[i]``: the standard normal quantile of ``p[i]`` (-inf at 0, inf
    at 1, NaN outside [0, 1] or for NaN)."""
    for i in range(p.shape[0]):
        x = p[i]
        if not (0.0 <= x <= 1.0):
            out[i] = math.nan
            continue
        if x == 0.0:
            out[i] = -math.inf
            continue
        if x == 1.0:
            out[i] = math.inf
            continue
        if x < _LOW:
            z = _tail(math.sqrt(-2.0 * math.log(x)))
        elif x > 1.0 - _LOW:
            z = -_tail(math.sqrt(-2.0 * math.log1p(-x)))
        else:
            q = x - 0.5
            r = q * q
            z = (((((_A[0] * r + _A[1]) * r + _A[2]) * r + _A[3]) * r + _A[4]) * r + _A[5]) * q \
                / (((((_B[0] * r + _B[1]) * r + _B[2]) * r + _B[3]) * r + _B[4]) * r + 1.0)
        # one Halley step; the upper half from its complement (no cancellation near 1)
        if x > 0.5:
            e = 0.5 * math.erfc(z / math.sqrt(2.0)) - (1.0 - x)
            u = -e * math.sqrt(2.0 * math.pi) * math.exp(0.5 * z * z)
        else:
            e = 0.5 * math.erfc(-z / math.sqrt(2.0)) - x
            u = e * math.sqrt(2.0 * math.pi) * math.exp(0.5 * z * z)
        out[i] = z - u / (1.0 + 0.5 * z * u)
    return out
