"""The exact null distribution of the Mann-Whitney U statistic.

Without ties, under H0 every placement of the ``m`` positives among the
``m + n`` ranks is equally likely, and the number of placements with
``U = u`` is the coefficient of ``q**u`` in the Gaussian binomial coefficient
``prod_{i=1..m} (1 - q**(n+i)) / (1 - q**i)`` (Andrews 1976, ch. 3).  We
multiply the factors in one at a time and rescale each step by ``i/(n+i)`` so
that the coefficients stay probabilities (no overflow for any size).  Both
operations only move mass to higher powers of ``q``, so truncating at the
largest ``u`` needed is exact.  Cost: O(min(m, n) * u_max).
"""

from __future__ import annotations

import numpy as np

from .._jit import jit


@jit
def u_null_cdf(m, n, u_max):
    """``P(U <= u)`` for ``u = 0..u_max`` when the samples have sizes ``m`` and ``n``."""
    if m > n:
        m, n = n, m
    c = np.zeros(u_max + 1)
    c[0] = 1.0
    for i in range(1, m + 1):
        d = n + i
        for u in range(u_max, d - 1, -1):  # times (1 - q**d)
            c[u] -= c[u - d]
        for u in range(i, u_max + 1):  # divided by (1 - q**i)
            c[u] += c[u - i]
        scale = i / d
        for u in range(u_max + 1):
            c[u] *= scale
    total = 0.0
    for u in range(u_max + 1):
        total += c[u]
        c[u] = total
    return c
