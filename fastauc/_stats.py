"""Shared statistics: normal quantiles and DeLong's variance from sweep moments."""

from __future__ import annotations

import math
from statistics import NormalDist

import numpy as np

from ._kernels.table import ST_M2_01, ST_M2_10, ST_W01, ST_W10

__all__ = ["delong_variance", "norm_ppf", "norm_sf", "wald_bounds"]

_NORMAL = NormalDist()
_SQRT2 = math.sqrt(2.0)


def norm_sf(z: float) -> float:
    """Upper tail of the standard normal, accurate far into the tail."""
    return 0.5 * math.erfc(z / _SQRT2)


def norm_ppf(p: float) -> float:
    return _NORMAL.inv_cdf(p)


def delong_variance(stats: np.ndarray):
    """DeLong's variance of the AUC from the placement moments of one sweep.

    ``stats`` is one ``N_STATS`` row or an (m, ``N_STATS``) array of them.
    The variance is ``S10 / (W10 (W10 - 1)) + S01 / (W01 (W01 - 1))`` with
    ``S`` the weighted sums of squared deviations of the placements and ``W``
    the class weights (frequency weights: unit weights give the unweighted
    formula of DeLong et al. 1988).  It is NaN where a class weighs one or
    less (returned as a float for one row, an array otherwise).
    """
    st = np.asarray(stats, np.float64)
    w10, w01 = st[..., ST_W10], st[..., ST_W01]
    ok = (w10 > 1.0) & (w01 > 1.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        var = st[..., ST_M2_10] / (w10 - 1.0) / w10 + st[..., ST_M2_01] / (w01 - 1.0) / w01
    var = np.where(ok, var, np.nan)
    return float(var) if var.ndim == 0 else var


def wald_bounds(est, var, level: float):
    """``(se, low, high)`` of the Wald interval ``est ± z se`` clipped to [0, 1].

    NaN where the estimate or the variance is NaN (no interval around an
    undefined estimate); arrays in, arrays out.
    """
    est = np.asarray(est, np.float64)
    se = np.sqrt(np.maximum(np.asarray(var, np.float64), 0.0))
    z = norm_ppf(0.5 + 0.5 * level)
    undefined = np.isnan(est) | np.isnan(se)
    low = np.where(undefined, np.nan, np.maximum(0.0, est - z * se))
    high = np.where(undefined, np.nan, np.minimum(1.0, est + z * se))
    return se, low, high
