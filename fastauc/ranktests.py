"""The Mann-Whitney U test from the sweep that gives the AUC.

The tie term of the normal approximation and the U statistic come from the
same sort and sweep as ``roc_auc_score`` (``_table.sorted_tallies`` with
moments); small samples without ties get the exact distribution.
"""

from __future__ import annotations

import numpy as np

from ._device import dispatch
from . import _validation as v
from ._results import MannWhitneyResult
from ._stats import ALTERNATIVES as _ALTERNATIVES
from ._stats import mann_whitney_result
from ._table import sorted_tallies as _sorted_tallies

__all__ = ["MannWhitneyResult", "mann_whitney_u"]


@dispatch("y_score")
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
        n_neg): ``roc_auc_score``'s float, to the last bit), ``n_pos``,
        ``n_neg`` and the ``method`` used.  All NaN but the class totals, with
        an ``UndefinedMetricWarning``, when a class is absent or weighs zero.

    See Also
    --------
    roc_auc_score : The AUC alone (``auc`` here).
    roc_auc_ci : The AUC with a confidence interval.
    delong_test : The paired test of two models' AUCs on the same rows.

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
    n_pos = int(np.count_nonzero(is_pos))
    return mann_whitney_result(t.area2, t.total_pos, t.total_neg, t.stats, alternative,
                               use_continuity, method, n_pos in (0, is_pos.shape[0]))

