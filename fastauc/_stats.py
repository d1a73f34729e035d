"""Shared statistics: normal quantiles and DeLong's variance from sweep moments."""

from __future__ import annotations

import math
from statistics import NormalDist

import numpy as np

from ._kernels.ranks import u_null_cdf
from ._kernels.table import ST_M2_01, ST_M2_10, ST_MAX_TIE, ST_TIES, ST_W01, ST_W10
from ._results import ConfidenceInterval, MannWhitneyResult
from ._validation import ONE_CLASS, ZERO_WEIGHT_CLASS
from ._validation import warn_undefined

__all__ = ["ALTERNATIVES", "delong_variance", "difference_interval", "norm_ppf",
           "norm_sf", "pvalue", "ratio", "wald_bounds", "wald_interval"]

ALTERNATIVES = ("two-sided", "less", "greater")

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


def ratio(num: float, den: float) -> float:
    """``num / den`` with IEEE semantics for a zero denominator (as numpy)."""
    if den != 0.0:
        return num / den
    if num == 0.0 or math.isnan(num):
        return math.nan
    return math.copysign(math.inf, num)


def pvalue(z: float, alternative: str) -> float:
    """p-value of a z statistic for H1: ``greater`` (z large), ``less``, two-sided."""
    if math.isnan(z):
        return math.nan
    if alternative == "greater":
        return norm_sf(z)
    if alternative == "less":
        return norm_sf(-z)
    return min(1.0, 2.0 * norm_sf(abs(z)))


def difference_interval(d, se, level, alternative, lo_bound=-1.0, hi_bound=1.0):
    if math.isnan(d) or math.isnan(se):
        return math.nan, math.nan
    if alternative == "two-sided":
        z = norm_ppf(0.5 + 0.5 * level)
        return max(lo_bound, d - z * se), min(hi_bound, d + z * se)
    z = norm_ppf(level)
    if alternative == "greater":
        return max(lo_bound, d - z * se), hi_bound
    return lo_bound, min(hi_bound, d + z * se)


def wald_interval(est, var, level, transform=None) -> ConfidenceInterval:
    """DeLong interval of one AUC from its variance (Wald, or Wald on the logit scale)."""
    se = math.sqrt(max(var, 0.0)) if not math.isnan(var) else math.nan
    z = norm_ppf(0.5 + 0.5 * level)
    name = "delong" if transform is None else "delong-logit"
    if math.isnan(est) or math.isnan(se):  # no interval around an undefined estimate
        low = high = math.nan
    elif transform == "logit" and 0.0 < est < 1.0:
        centre = math.log(est / (1.0 - est))
        half = z * se / (est * (1.0 - est))
        low = 1.0 / (1.0 + math.exp(-(centre - half)))
        high = 1.0 / (1.0 + math.exp(-(centre + half)))
    elif transform == "logit":
        low = high = est
    else:
        low, high = max(0.0, est - z * se), min(1.0, est + z * se)
    return ConfidenceInterval(est, low, high, se, name, level)



def _exact_sf(k: int, n1: int, n2: int) -> float:
    """``P(U >= k)`` under H0 without ties (the exact distribution)."""
    mn = n1 * n2
    if k <= 0:
        return 1.0
    if k > mn:
        return 0.0
    if mn - k <= k - 1:  # upper tail by symmetry: P(U >= k) = P(U <= mn - k)
        return float(u_null_cdf(n1, n2, mn - k)[-1])
    return float(1.0 - u_null_cdf(n1, n2, k - 1)[-1])


def mann_whitney_result(area2, n1, n2, stats, alternative, use_continuity, method,
                        one_class=True):
    """The Mann-Whitney test from a sweep: twice the area, the class totals and
    the moments (tie term, largest tie); scipy's methods and corrections.
    Undefined (NaN, with scikit-learn's words for ``roc_auc_score``) when a
    class has no weight: ``one_class`` says whether a class has no rows at all."""
    if n1 <= 0 or n2 <= 0:
        why = ONE_CLASS if one_class else ZERO_WEIGHT_CLASS
        warn_undefined(why.replace("ROC AUC score", "The Mann-Whitney test"), stacklevel=None)
        return MannWhitneyResult(math.nan, math.nan, math.nan, n1, n2, method)
    u1 = 0.5 * area2
    u2 = n1 * n2 - u1
    if alternative == "greater":
        u, factor = u1, 1.0
    elif alternative == "less":
        u, factor = u2, 1.0
    else:
        u, factor = max(u1, u2), 2.0
    if method == "auto":
        ties = stats[ST_MAX_TIE] > 1.0
        method = "exact" if (n1 <= 8 or n2 <= 8) and not ties else "asymptotic"
    if method == "exact":
        if n1 != int(n1) or n2 != int(n2):
            raise ValueError(
                "method='exact' needs whole numbers of positives and negatives; the "
                f"weighted class totals are {n1} and {n2}"
            )
        p = _exact_sf(int(u), int(n1), int(n2))
    else:
        n = n1 + n2
        var = n1 * n2 / 12.0 * ((n + 1.0) - stats[ST_TIES] / (n * (n - 1.0)))
        num = u - 0.5 * n1 * n2 - (0.5 if use_continuity else 0.0)
        z = ratio(num, math.sqrt(max(var, 0.0)))
        p = math.nan if math.isnan(z) else norm_sf(z)
    p = min(max(p * factor, 0.0), 1.0) if not math.isnan(p) else p
    return MannWhitneyResult(float(u1), float(p), float(u1 / (n1 * n2)), float(n1), float(n2),
                             method)


# ------------------------------------------------------------ multiclass averages

def ovr_average(scores: np.ndarray, counts: np.ndarray, average):
    """One-vs-rest AUCs averaged as scikit-learn does (``average`` None,
    "macro" or "weighted"; ``counts`` each class's rows or weight)."""
    if average is None:
        return scores
    if average == "weighted":
        if np.isclose(counts.sum(), 0.0):
            return 0
        scores = scores.copy()
        scores[counts == 0] = 0
        return float(np.average(scores, weights=counts))
    return float(np.average(scores))


def ovo_average(areas: dict, counts: np.ndarray, present, n: int, average) -> float:
    """Hand & Till's one-vs-one AUC: ``areas[a][b]`` is twice the area of class
    ``a``'s scores of class ``a`` rows over class ``b`` rows (in rows); each
    pair scores the mean of its two directed AUCs, averaged plainly or by
    the pair's prevalence."""
    from itertools import combinations

    pair_scores, prevalence = [], []
    for a, b in combinations(present, 2):
        both = counts[a] * counts[b]
        pair_scores.append((areas[a][b] / (2.0 * both) + areas[b][a] / (2.0 * both)) / 2)
        prevalence.append((counts[a] + counts[b]) / n)
    return float(
        np.average(pair_scores, weights=prevalence if average == "weighted" else None)
    )
