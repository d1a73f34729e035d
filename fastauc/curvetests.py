"""Whole-curve comparisons and cross-validated AUC intervals.

:func:`venkatraman_test` compares two ROC curves at every operating point
by permutation (Venkatraman & Begg 1996; Venkatraman 2000), as pROC's
``roc.test(method="venkatraman")`` does: one sort per score column, then
O(n) per permutation in a compiled kernel (``_kernels.permutation``), the
permutations cut into fixed units taken by the threads.

:func:`cv_auc_ci` is the influence-curve interval of the cross-validated AUC
(LeDell, Petersen & van der Laan 2015), as the R package cvAUC computes it:
one sort per fold, the influence values from the fold's placement values.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from statistics import NormalDist

import numpy as np

from . import _validation as v
from ._device import dispatch
from ._kernels.permutation import paired_batch, paired_statistic, unpaired_batch
from ._kernels.permutation import unpaired_statistic
from ._parallel import map_units
from ._delong import t_ppf
from ._table import placement_values, sorted_tallies, table_with_rows

__all__ = ["CrossValidatedAUC", "VenkatramanResult", "cv_auc_ci", "venkatraman_test"]

PERMUTATION_UNIT = 64  # permutations per unit of work on the threads


@dataclass(frozen=True)
class VenkatramanResult:
    """Result of :func:`venkatraman_test`.

    Attributes
    ----------
    statistic : float
        The observed statistic ``E``: for paired curves the summed absolute
        difference of the two rank orders' error counts over all cut points
        (an integer), for unpaired curves the area between the two error
        curves.
    pvalue : float
        The fraction of permutations whose statistic is at least
        ``statistic`` (pROC's p-value).
    n_permutations : int
        Permutations drawn.
    method : str
        ``"paired"`` or ``"unpaired"``.
    permutations : ndarray of shape (n_permutations,)
        The statistic of each permutation (not in the repr).

    See Also
    --------
    venkatraman_test : The function returning this record.

    Examples
    --------
    >>> from fastauc import venkatraman_test
    >>> res = venkatraman_test([0, 0, 1, 1, 0, 1], [.1, .4, .35, .8, .2, .9],
    ...                        [.3, .1, .6, .7, .2, .5], n_permutations=100, random_state=0)
    >>> res.statistic, res.method, res.permutations.shape
    (2.0, 'paired', (100,))
    """

    statistic: float
    pvalue: float
    n_permutations: int
    method: str  #: "paired" or "unpaired"
    permutations: np.ndarray = field(repr=False)


@dataclass(frozen=True)
class CrossValidatedAUC:
    """Result of :func:`cv_auc_ci`.

    Attributes
    ----------
    estimate : float
        The mean of the folds' AUCs.
    se : float
        Its influence-curve standard error.
    low, high : float
        ``estimate -+ z se``, cut to [0, 1].
    confidence_level : float
        The interval's level.
    fold_aucs : ndarray of shape (n_folds,)
        Each fold's AUC, folds in sorted order of their labels (not in the
        repr).

    See Also
    --------
    cv_auc_ci : The function returning this record.

    Examples
    --------
    >>> from fastauc import cv_auc_ci
    >>> res = cv_auc_ci([0, 1, 0, 1, 0, 1, 1, 0], [.2, .7, .4, .3, .1, .9, .8, .6],
    ...                 [0, 0, 0, 0, 1, 1, 1, 1])
    >>> round(res.estimate, 4), res.fold_aucs.tolist()
    (0.875, [0.75, 1.0])
    """

    estimate: float
    se: float
    low: float
    high: float
    confidence_level: float
    fold_aucs: np.ndarray = field(repr=False)


@dataclass(frozen=True)
class CrossValidatedROC:
    """Result of :func:`cv_roc_curve`: the folds' ROC curves averaged vertically.

    Attributes
    ----------
    fpr : ndarray of shape (n_points,)
        The false positive rates of the grid.
    tpr : ndarray of shape (n_points,)
        The mean over the folds of each fold's true positive rate there.
    low, high : ndarray of shape (n_points,)
        The pointwise interval of the mean, ``tpr -+ t sd / sqrt(k)`` with
        Student's ``t`` on ``k - 1`` degrees of freedom, cut to [0, 1].
    std : ndarray of shape (n_points,)
        The folds' standard deviation there (divisor ``k - 1``): their
        spread, as scikit-learn's cross-validation example shades it.
    fold_tpr : ndarray of shape (n_folds, n_points)
        Each fold's true positive rate on the grid.
    fold_aucs : ndarray of shape (n_folds,)
        Each fold's AUC (folds in sorted order of their labels; a fold whose
        rows all weigh zero is left out).
    auc : float
        The mean of the folds' AUCs (each :func:`roc_auc_score`'s float): the
        estimate of :func:`cv_auc_ci`.
    confidence_level : float
        The interval's level.

    See Also
    --------
    cv_roc_curve : The function returning this record.

    Examples
    --------
    >>> from fastauc import cv_roc_curve
    >>> res = cv_roc_curve([0, 1, 0, 1, 0, 1, 1, 0], [.2, .7, .4, .3, .1, .9, .8, .6],
    ...                    [0, 0, 0, 0, 1, 1, 1, 1], fpr=[0.0, 0.5, 1.0])
    >>> res.tpr.tolist(), res.auc
    ([0.75, 1.0, 1.0], 0.875)
    """

    fpr: np.ndarray
    tpr: np.ndarray
    low: np.ndarray
    high: np.ndarray
    std: np.ndarray
    fold_tpr: np.ndarray = field(repr=False)
    fold_aucs: np.ndarray = field(repr=False)
    auc: float = math.nan
    confidence_level: float = 0.95


# ------------------------------------------------------------------ Venkatraman


def _rank_order(score):
    """Rows in rank order, ties by row order (R's ``ties.method="first"``),
    and each row's rank: the one sort of a score column."""
    order = np.argsort(score, kind="stable")
    rank = np.empty_like(order)
    rank[order] = np.arange(order.shape[0])
    return order, rank


def _positive(y_true, name, **arrays):
    is_pos, _, _ = v.binary_rows(y_true, None, **arrays)
    n_pos = int(np.count_nonzero(is_pos))
    if n_pos == 0 or n_pos == is_pos.shape[0]:
        raise ValueError(f"{name} must hold both classes; it has one class only")
    return is_pos.astype(np.uint8), n_pos


def _units(n_permutations):
    return [(a, min(a + PERMUTATION_UNIT, n_permutations))
            for a in range(0, n_permutations, PERMUTATION_UNIT)]


@dispatch("y_score_a", "y_score_b")
def venkatraman_test(y_true, y_score_a, y_score_b, *, y_true_b=None, n_permutations=2000,
                     random_state=None):
    """Venkatraman's permutation test that two ROC curves are equal at every
    operating point.

    Paired (the two models scored the same rows; ``y_true_b=None``): the
    test of Venkatraman and Begg (1996).  Unpaired (two samples; the
    labels of the second in ``y_true_b``): the test of Venkatraman (2000).
    The statistic and the permutation scheme are those of pROC's
    ``roc.test(method="venkatraman")``: scores become ranks (ties broken by
    row order, ``ties.method="first"``), a permutation jitters the ranks
    uniformly by less than one half and exchanges each row's two ranks with
    probability 1/2 (paired), or pools each class's rows of both samples
    and deals them back at random (unpaired).  Only the ranks matter: the
    test ignores the direction of either model.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Binary labels (of sample a when unpaired); the greater label is the
        positive class.
    y_score_a : array-like of shape (n_samples,)
        The first model's scores.
    y_score_b : array-like of shape (n_samples,) or (n_samples_b,)
        The second model's scores: of the same rows (paired), or of the
        rows labelled by ``y_true_b`` (unpaired).
    y_true_b : array-like of shape (n_samples_b,), default=None
        Labels of the second sample: given, the test is unpaired.
    n_permutations : int, default=2000
        Permutations drawn (pROC's ``boot.n``).
    random_state : None, int, numpy Generator, RandomState or SeedSequence, default=None
        Seeds the permutations.  Permutation ``r`` has its own random
        stream, a function of the seed and ``r``: the result does not
        depend on the number of threads.

    Returns
    -------
    VenkatramanResult
        ``statistic``, ``pvalue`` (the fraction of permutations at least as
        large, as pROC reports it), ``n_permutations``, ``method``
        (``"paired"`` or ``"unpaired"``) and the ``permutations``.

    Raises
    ------
    ValueError
        Lengths that differ, NaN or infinite scores, labels that are not
        binary or hold one class only, ``n_permutations`` below 1.
    TypeError
        A non-integer ``n_permutations`` or a bad ``random_state``.

    See Also
    --------
    delong_test : Compares the two areas, not the whole curves.
    bootstrap_test : The paired bootstrap comparison of a metric.

    Notes
    -----
    The unpaired statistic weighs the two error rates by the mixing
    proportion: the positives over the rows of both samples.  pROC divides
    by twice the first sample's size instead; the two agree when the
    samples have the same size.

    References
    ----------
    .. [1] Venkatraman, E. S. and Begg, C. B. (1996). A distribution-free
       procedure for comparing receiver operating characteristic curves
       from a paired experiment. Biometrika 83, 835-848.
    .. [2] Venkatraman, E. S. (2000). A permutation test to compare receiver
       operating characteristic curves. Biometrics 56, 1134-1138.
    .. [3] Robin, X. et al. (2011). pROC: an open-source package for R and
       S+ to analyze and compare ROC curves. BMC Bioinformatics 12, 77.

    Examples
    --------
    >>> import numpy as np
    >>> from fastauc import venkatraman_test
    >>> rng = np.random.default_rng(0)
    >>> y = rng.integers(0, 2, 300)
    >>> a, b = y + rng.normal(size=300), y + 2 * rng.normal(size=300)
    >>> res = venkatraman_test(y, a, b, n_permutations=500, random_state=1)
    >>> res.method, res.pvalue < 0.05
    ('paired', True)
    """
    n_permutations = v.check_positive_int(n_permutations, "n_permutations")
    seed = v.seed_from_random_state(random_state)
    a = v.as_float_array(y_score_a, "y_score_a")
    b = v.as_float_array(y_score_b, "y_score_b")
    v.check_finite(a, "y_score_a")
    v.check_finite(b, "y_score_b")
    if y_true_b is None:
        is_pos, n_pos = _positive(y_true, "y_true", y_score_a=a, y_score_b=b)
        row_a, rank_a = _rank_order(a)
        row_b = _rank_order(b)[0]
        n_neg = is_pos.shape[0] - n_pos
        stat = float(paired_statistic(is_pos[row_a], is_pos[row_b], n_neg))
        out = np.empty(n_permutations)
        lab_a, lab_b, b_in_a = is_pos[row_a], is_pos[row_b], rank_a[row_b]
        map_units(paired_batch, [(seed, s, out[s:e], lab_a, lab_b, b_in_a, n_neg)
                                 for s, e in _units(n_permutations)])
        method = "paired"
    else:
        pos_a, na_pos = _positive(y_true, "y_true", y_score_a=a)
        pos_b, nb_pos = _positive(y_true_b, "y_true_b", y_score_b=b)
        lab_a = pos_a[_rank_order(a)[0]]
        lab_b = pos_b[_rank_order(b)[0]]
        mp = (na_pos + nb_pos) / (lab_a.shape[0] + lab_b.shape[0])
        stat = float(unpaired_statistic(lab_a, lab_b, mp))
        out = np.empty(n_permutations)
        map_units(unpaired_batch, [(seed, s, out[s:e], lab_a, lab_b, mp)
                                   for s, e in _units(n_permutations)])
        method = "unpaired"
    pvalue = float(np.count_nonzero(out >= stat)) / n_permutations
    return VenkatramanResult(stat, pvalue, n_permutations, method, out)


# ------------------------------------------------------------------ cvAUC


def _fold_terms(is_pos, score, w, ids, w1, w0, taubar):
    """One fold: its AUC and its mean squared influence value (of rows, or
    of units with ``ids``); None when the fold has no weight."""
    table, at = table_with_rows(is_pos, score, w)
    total_p, total_n = float(table.pos.sum()), float(table.neg.sum())
    if total_p + total_n == 0:
        return None
    if total_p == 0 or total_n == 0:
        return "one class"
    v10, v01 = placement_values(table, 0.0, 0.0, total_p, total_n)
    auc = float(np.dot(table.pos, v10)) / total_p
    # cvAUC's placements count ties as neither below nor above
    below = v10 - 0.5 * table.neg / total_n
    above = v01 - 0.5 * table.pos / total_p
    ic_pos = w1 * (below - auc)
    ic_neg = w0 * (above - auc)
    if ids is None:
        sq = float(np.dot(table.pos, ic_pos**2) + np.dot(table.neg, ic_neg**2))
        return auc, sq / (total_p + total_n)
    ww = np.ones(is_pos.shape[0]) if w.shape[0] == 0 else w
    ic = np.where(is_pos, ic_pos[at], ic_neg[at]) * ww
    codes, inverse = np.unique(ids, return_inverse=True)
    unit_w = np.bincount(inverse, weights=ww, minlength=codes.shape[0])
    unit_ic = np.bincount(inverse, weights=ic, minlength=codes.shape[0]) / taubar
    return auc, float(np.mean(unit_ic[unit_w > 0] ** 2))


def _folds(f):
    """``(labels, each row's fold code, each fold's rows)``: the folds in
    sorted order of their labels, each fold's rows in row order."""
    labels, fold_of = np.unique(f, return_inverse=True)
    order = np.argsort(fold_of, kind="stable")
    cuts = np.searchsorted(fold_of[order], np.arange(labels.shape[0] + 1))
    return labels, fold_of, [order[cuts[k]:cuts[k + 1]] for k in range(labels.shape[0])]


@dispatch("y_score")
def cv_auc_ci(y_true, y_score, folds, *, confidence_level=0.95, sample_weight=None,
              pooled=False):
    """Cross-validated AUC with its influence-curve confidence interval.

    The estimate is the mean of the folds' AUCs; its variance comes from the
    AUC's influence curve (LeDell, Petersen & van der Laan 2015), computed
    as the R package cvAUC does (``ci.cvAUC``, and ``ci.pooled.cvAUC`` with
    ``pooled``): no refitting and no resampling, one sort per fold.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Binary labels; the greater label is the positive class.
    y_score : array-like of shape (n_samples,)
        Each row's score from the model fitted without its fold (the
        cross-validated predictions).
    folds : array-like of shape (n_samples,)
        Each row's validation fold (any labels: integers, strings).  From
        scikit-learn's splitters: ``folds[test] = k`` for the ``k``-th
        ``(train, test)`` pair.
    confidence_level : float, default=0.95
        Level of the interval.
    sample_weight : array-like of shape (n_samples,), default=None
        Frequency weights: a row of weight ``k`` counts as ``k`` rows (so
        scaling the weights changes the standard error).
    pooled : False or array-like of shape (n_samples,), default=False
        The independent units of pooled repeated measures (patient ids):
        each unit's influence value is the sum of its rows' over the mean
        number of rows per unit, and the sample size is the number of
        units (``ci.pooled.cvAUC``).  A unit's rows must lie in one fold.

    Returns
    -------
    CrossValidatedAUC
        ``estimate``, ``se``, ``low``, ``high`` (cut to [0, 1]),
        ``confidence_level`` and the ``fold_aucs`` (folds in sorted order
        of their labels; a fold whose rows all weigh zero is left out).

    Raises
    ------
    ValueError
        Lengths that differ, NaN or infinite scores, labels that are not
        binary, a fold with rows of one class only, a unit in several
        folds, a bad ``confidence_level`` or bad weights.

    See Also
    --------
    roc_auc_ci : DeLong's interval of one AUC.
    bootstrap_ci : A resampling interval of one AUC.

    Notes
    -----
    A positive's influence value is ``(F0 - AUC_v) / p1`` and a negative's
    ``(F1 - AUC_v) / p0``, where ``F0`` is the fraction of the fold's
    negatives scoring strictly below it, ``F1`` the fraction of its
    positives scoring strictly above it (cvAUC's counts: a tie is neither),
    ``AUC_v`` the fold's AUC (ties one half) and ``p1``, ``p0`` the class
    proportions of all rows.  ``sigma^2`` is the mean over folds of each
    fold's mean squared influence value and ``se = sqrt(sigma^2 / n)``.

    References
    ----------
    .. [1] LeDell, E., Petersen, M. and van der Laan, M. (2015).
       Computationally efficient confidence intervals for cross-validated
       area under the ROC curve estimates. Electronic Journal of
       Statistics 9, 1583-1607.

    Examples
    --------
    >>> import numpy as np
    >>> from fastauc import cv_auc_ci
    >>> rng = np.random.default_rng(0)
    >>> y = rng.integers(0, 2, 1000)
    >>> s = y + rng.normal(size=1000)
    >>> res = cv_auc_ci(y, s, np.arange(1000) % 5)
    >>> round(res.estimate, 3), round(res.se, 4), res.fold_aucs.shape
    (0.787, 0.0142, (5,))
    """
    level = v.check_confidence_level(confidence_level)
    s = v.as_float_array(y_score, "y_score")
    v.check_finite(s, "y_score")
    f = v.as_label_array(folds, "folds")
    ids = None
    if not (pooled is False or pooled is None):
        ids = v.as_label_array(pooled, "pooled")
    arrays = {"y_score": s, "folds": f} if ids is None else {"y_score": s, "folds": f,
                                                           "pooled": ids}
    is_pos, _, w = v.binary_rows(y_true, sample_weight, frequency=True, **arrays)
    if f.ndim != 1:
        raise ValueError(f"folds must be 1-D, got shape {f.shape}")
    n = float(w.sum()) if w.shape[0] else float(is_pos.shape[0])
    total_p = float(w[is_pos].sum()) if w.shape[0] else float(np.count_nonzero(is_pos))
    if total_p == 0 or total_p == n:
        raise ValueError("y_true must hold both classes (with weight); it has one class only")
    w1, w0 = n / total_p, n / (n - total_p)
    labels, fold_of, fold_rows = _folds(f)
    taubar = math.nan
    id_codes = None
    if ids is not None:
        _, id_codes = np.unique(ids, return_inverse=True)
        keep = id_codes if w.shape[0] == 0 else id_codes[w > 0]
        fold_kept = fold_of if w.shape[0] == 0 else fold_of[w > 0]
        pairs = np.unique(np.column_stack((keep, fold_kept)), axis=0)
        if np.unique(pairs[:, 0]).shape[0] != pairs.shape[0]:
            raise ValueError("each unit of pooled must lie in one fold; some lie in several")
        n_units = np.unique(keep).shape[0]
        taubar = n / n_units
    aucs, terms = [], []
    for k, rows in enumerate(fold_rows):
        part = _fold_terms(is_pos[rows], np.ascontiguousarray(s[rows]),
                           w[rows] if w.shape[0] else w,
                           None if ids is None else id_codes[rows], w1, w0, taubar)
        if part is None:
            continue
        if part == "one class":
            raise ValueError(f"fold {v.plain(labels[k])!r} has rows of one class only; "
                             "every fold needs both classes")
        aucs.append(part[0])
        terms.append(part[1])
    estimate = float(np.mean(aucs))
    se = math.sqrt(float(np.mean(terms)) / (n if ids is None else n_units))
    z = NormalDist().inv_cdf(level + (1.0 - level) / 2.0)
    return CrossValidatedAUC(estimate, se, max(0.0, estimate - z * se),
                             min(1.0, estimate + z * se), level, np.array(aucs))


def _tpr_at(fpr, tpr, grid):
    """A ROC polyline's true positive rate at the false positive rates
    ``grid``: linear between its points, the top of a vertical step."""
    i = np.searchsorted(fpr, grid, side="right") - 1
    nxt = np.minimum(i + 1, fpr.shape[0] - 1)
    run = fpr[nxt] - fpr[i]
    with np.errstate(divide="ignore", invalid="ignore"):
        slope = np.where(run > 0, (tpr[nxt] - tpr[i]) / run, 0.0)
    return np.minimum(tpr[i] + (grid - fpr[i]) * slope, 1.0)


@dispatch("y_score")
def cv_roc_curve(y_true, y_score, folds, *, fpr=None, confidence_level=0.95,
                 sample_weight=None):
    """Cross-validated ROC curve: the folds' curves averaged vertically, with a band.

    Each fold's ROC curve (its rows' distinct scores, one sort) is read at
    the false positive rates ``fpr`` (linear between its points; where it
    rises vertically, its top), and the folds' true positive rates are
    averaged at each (Fawcett 2006's vertical averaging), with their spread
    and a pointwise interval of the mean.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Binary labels; the greater label is the positive class.
    y_score : array-like of shape (n_samples,)
        Each row's cross-validated score (from the model fitted without its
        fold).
    folds : array-like of shape (n_samples,)
        Each row's validation fold (any labels), as for :func:`cv_auc_ci`.
    fpr : array-like of shape (n_points,), default=None
        The false positive rates to read the curves at, increasing, in
        [0, 1]; default 101 points from 0 to 1.
    confidence_level : float, default=0.95
        Level of the pointwise interval of the mean curve.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative weights (each fold's curve is weighted).

    Returns
    -------
    CrossValidatedROC
        ``fpr``, ``tpr`` (the mean), ``low``, ``high``, ``std``, ``fold_tpr``,
        ``fold_aucs``, ``auc`` and ``confidence_level``.

    Raises
    ------
    ValueError
        Lengths that differ, NaN or infinite scores, labels that are not
        binary, a fold whose rows hold one class only, fewer than two folds,
        a grid outside [0, 1] or not increasing, a bad ``confidence_level``.

    See Also
    --------
    cv_auc_ci : The cross-validated AUC with its influence-curve interval.
    plot_roc : Draws this curve with ``folds=``.
    roc_curve : One curve's points.

    References
    ----------
    .. [1] Fawcett, T. (2006). An introduction to ROC analysis. Pattern
       Recognition Letters 27, 861-874 (section 8.1, vertical averaging).

    Examples
    --------
    >>> import numpy as np
    >>> from fastauc import cv_roc_curve
    >>> rng = np.random.default_rng(0)
    >>> y = rng.integers(0, 2, 1000)
    >>> s = y + rng.normal(size=1000)
    >>> res = cv_roc_curve(y, s, np.arange(1000) % 5, fpr=[0.1, 0.2, 0.5])
    >>> np.round(res.tpr, 3), np.round(res.std, 3), round(res.auc, 3)
    (array([0.416, 0.582, 0.861]), array([0.14 , 0.106, 0.055]), 0.787)
    """
    level = v.check_confidence_level(confidence_level)
    s = v.as_float_array(y_score, "y_score")
    v.check_finite(s, "y_score")
    f = v.as_label_array(folds, "folds")
    is_pos, _, w = v.binary_rows(y_true, sample_weight, y_score=s, folds=f)
    grid = np.linspace(0.0, 1.0, 101) if fpr is None else v.as_float_array(fpr, "fpr")
    if not (np.isfinite(grid).all() and grid.min() >= 0.0 and grid.max() <= 1.0) or \
            np.any(np.diff(grid) < 0):
        raise ValueError("fpr must hold increasing false positive rates in [0, 1]")
    labels, _, fold_rows = _folds(f)
    if labels.shape[0] < 2:
        raise ValueError(f"cv_roc_curve needs two folds or more, got {labels.shape[0]}")
    curves, aucs = [], []
    for k, rows in enumerate(fold_rows):
        t = sorted_tallies(is_pos[rows], np.ascontiguousarray(s[rows]),
                           w[rows] if w.shape[0] else w, curve=True)
        if t.total_pos == 0 and t.total_neg == 0:
            continue  # a fold whose rows all weigh zero is left out, as cv_auc_ci leaves it
        if not (t.total_pos > 0 and t.total_neg > 0):
            raise ValueError(f"fold {v.plain(labels[k])!r} has rows of one class only (with "
                             "weight); every fold needs both classes")
        zero = np.zeros(1)  # the curve's start; the tallies' own first entry is not a point
        curves.append(_tpr_at(np.concatenate((zero, t.fps[1:] / t.total_neg)),
                              np.concatenate((zero, t.tps[1:] / t.total_pos)), grid))
        aucs.append(t.area2 / (2.0 * t.total_pos * t.total_neg))
    fold_tpr = np.array(curves)
    k = fold_tpr.shape[0]
    if k < 2:
        raise ValueError(f"cv_roc_curve needs two folds or more with weight, got {k}")
    mean = fold_tpr.mean(axis=0)
    std = fold_tpr.std(axis=0, ddof=1)
    half = t_ppf(level + (1.0 - level) / 2.0, k - 1) * std / math.sqrt(k)
    return CrossValidatedROC(grid, mean, np.clip(mean - half, 0.0, 1.0),
                             np.clip(mean + half, 0.0, 1.0), std, fold_tpr, np.array(aucs),
                             float(np.mean(aucs)), level)

