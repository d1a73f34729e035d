"""The Mann-Whitney U test from the sweep that gives the AUC.

The tie term of the normal approximation and the U statistic come from the
same sort and sweep as ``roc_auc_score`` (``_table.sorted_tallies`` with
moments); small samples without ties get the exact distribution.
"""

from __future__ import annotations

import math

from . import _validation as v
from ._kernels.ranks import u_null_cdf
from ._kernels.table import ST_MAX_TIE, ST_TIES
from ._results import MannWhitneyResult
from ._stats import ALTERNATIVES as _ALTERNATIVES
from ._stats import norm_sf as _norm_sf
from ._stats import ratio as _ratio
from ._table import sorted_tallies as _sorted_tallies

__all__ = ["MannWhitneyResult", "mann_whitney_u"]


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


def mann_whitney_u(
    y_true, y_score, *, alternative="two-sided", use_continuity=True, method="auto",
    sample_weight=None,
):
    """Mann-Whitney U test of the positive scores against the negative scores.

    The same test as ``scipy.stats.mannwhitneyu(x=scores of positives,
    y=scores of negatives)``, with its tie correction, continuity correction,
    alternatives and choice of method, in O(n log n) from one sort.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Binary labels; the greater label is the positive class.
    y_score : array-like of shape (n_samples,)
        Scores.
    alternative : {"two-sided", "less", "greater"}, default="two-sided"
        ``"greater"``: positives score stochastically greater than negatives
        (AUC > 1/2).
    use_continuity : bool, default=True
        Continuity correction of 1/2 (asymptotic method only).
    method : {"auto", "asymptotic", "exact"}, default="auto"
        ``"exact"`` uses the exact null distribution of U (no tie correction);
        ``"auto"`` uses it when one class has at most 8 rows and there are
        no ties, as scipy does.
    sample_weight : array-like of shape (n_samples,), default=None
        Frequency weights: a row of weight ``k`` counts as ``k`` rows, so
        integer weights give the test on repeated rows.  ``"exact"`` needs
        integer class totals.

    Returns
    -------
    MannWhitneyResult
        ``statistic`` (U of the positives), ``pvalue``, ``auc`` (U / (n_pos *
        n_neg)), ``n_pos``, ``n_neg`` and the ``method`` used.

    See Also
    --------
    roc_auc_ci, delong_test

    References
    ----------
    .. [1] Mann, H. B. and Whitney, D. R. (1947). On a test of whether one of two
       random variables is stochastically larger than the other. Annals of
       Mathematical Statistics 18, 50-60.
    .. [2] Hanley, J. A. and McNeil, B. J. (1982). The meaning and use of the area
       under a ROC curve. Radiology 143, 29-36 (U / (m n) is the AUC).

    Examples
    --------
    >>> from fastauc import mann_whitney_u
    >>> res = mann_whitney_u([1, 1, 1, 1, 1, 0, 0, 0, 0],
    ...                      [19, 22, 16, 29, 24, 20, 11, 17, 12])
    >>> res.statistic, round(res.pvalue, 6), res.auc
    (17.0, 0.111111, 0.85)
    """
    v.check_choice(alternative, "alternative", _ALTERNATIVES)
    v.check_choice(method, "method", ("auto", "asymptotic", "exact"))
    if use_continuity not in (True, False):
        raise ValueError(f"use_continuity must be True or False, got {use_continuity!r}")
    is_pos, s, w, _, _ = v.binary_target(
        y_true, y_score, sample_weight, None, default_rule="greater", frequency=True
    )
    t = _sorted_tallies(is_pos, s, w, curve=False, moments=True)
    n1, n2 = t.total_pos, t.total_neg
    if n1 <= 0 or n2 <= 0:
        v.warn_undefined("Only one class is present in y_true (or one class has zero weight); "
                         "the Mann-Whitney test is not defined in that case.")
        return MannWhitneyResult(math.nan, math.nan, math.nan, n1, n2, method)
    u1 = 0.5 * t.area2
    u2 = n1 * n2 - u1
    if alternative == "greater":
        u, factor = u1, 1.0
    elif alternative == "less":
        u, factor = u2, 1.0
    else:
        u, factor = max(u1, u2), 2.0
    if method == "auto":
        ties = t.stats[ST_MAX_TIE] > 1.0
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
        var = n1 * n2 / 12.0 * ((n + 1.0) - t.stats[ST_TIES] / (n * (n - 1.0)))
        num = u - 0.5 * n1 * n2 - (0.5 if use_continuity else 0.0)
        z = _ratio(num, math.sqrt(max(var, 0.0)))
        p = math.nan if math.isnan(z) else _norm_sf(z)
    p = min(max(p * factor, 0.0), 1.0) if not math.isnan(p) else p
    return MannWhitneyResult(float(u1), float(p), float(u1 / (n1 * n2)), float(n1), float(n2),
                             method)

