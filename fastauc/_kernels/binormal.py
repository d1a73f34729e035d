"""Standard normal distribution function of an array (binormal ROC curves) and
the Gaussian kernel density on a grid (density-smoothed ROC curves)."""

from __future__ import annotations

import math

from .._jit import jit


@jit
def norm_cdf(z, out):
    """``out[i]``: the standard normal distribution function at ``z[i]``
    (0 at -inf, 1 at inf, NaN for NaN), as ``erfc(-z / sqrt(2)) / 2``."""
    r = 1.0 / math.sqrt(2.0)
    for i in range(z.shape[0]):
        out[i] = 0.5 * math.erfc(-z[i] * r)
    return out



@jit
def gaussian_density(x, grid, bw, out):
    """``out[j]``: the Gaussian kernel density estimate of the sample ``x``
    (bandwidth ``bw``, each point weighing ``1 / len(x)``) at ``grid[j]``,
    summed exactly (no binning).  ``grid`` is evenly spaced: each point
    visits only the grid points within 40 bandwidths, beyond which its
    kernel underflows to exactly 0."""
    m = grid.shape[0]
    c = 1.0 / (x.shape[0] * bw * math.sqrt(2.0 * math.pi))
    step = (grid[m - 1] - grid[0]) / (m - 1) if m > 1 else 1.0
    reach = 40.0 * bw
    for j in range(m):
        out[j] = 0.0
    for i in range(x.shape[0]):
        xi = x[i]
        j0, j1 = 0, m
        if step > 0.0:
            j0 = max(0, int(math.floor((xi - reach - grid[0]) / step)) - 1)
            j1 = min(m, int(math.ceil((xi + reach - grid[0]) / step)) + 2)
        for j in range(j0, j1):
            u = (grid[j] - xi) / bw
            out[j] += math.exp(-0.5 * u * u)
    for j in range(grid.shape[0]):
        out[j] *= c
    return out
