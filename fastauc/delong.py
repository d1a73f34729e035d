"""DeLong's method: AUC variances and covariances, intervals and the paired test.

One model's variance comes from the placement moments of the sweep that
gives its AUC (``_table.sorted_tallies`` with moments).  Several models on
the same rows need each row's placement in each model: every model is sorted
once into a layout (``_resample._layout``) and its placements are applied to
the rows in O(n); the covariance is one pass over the rows.  Weights are
frequency weights (DeLong, DeLong & Clarke-Pearson 1988; Sun & Xu 2014).
"""

from __future__ import annotations

import math

import numpy as np

from ._device import dispatch
from . import _validation as v
from ._delong import class_weights, delong_many, delong_one, delong_setup, paired_test
from .bootstrap import bootstrap_ci
from ._results import ConfidenceInterval, DeLongTestResult
from ._stats import ALTERNATIVES as _ALTERNATIVES
from ._stats import wald_interval as _wald_interval

__all__ = ["ConfidenceInterval", "DeLongTestResult", "delong_covariance", "delong_test",
           "roc_auc_ci"]


@dispatch("y_scores")
def delong_covariance(y_true, y_scores, *, sample_weight=None):
    """AUCs of one or several models on the same rows and their DeLong covariance.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Binary labels; the greater label is the positive class.
    y_scores : array-like of shape (n_samples,) or (n_samples, k)
        Scores of ``k`` models on the same rows, one column per model (also
        a mapping ``{name: scores}``, a DataFrame or a list of 1-D arrays).
    sample_weight : array-like of shape (n_samples,), default=None
        Frequency weights (see Notes).

    Returns
    -------
    aucs : ndarray of shape (k,)
        Each model's AUC: the float ``roc_auc_score`` returns for its column,
        to the last bit.  NaN (with an ``UndefinedMetricWarning``) when
        ``y_true`` has one class only, or one class has zero weight in all.
    cov : ndarray of shape (k, k)
        ``cov[a, b] = S10[a, b] / m + S01[a, b] / n``, with ``S10`` and ``S01``
        the sample covariances (divisor ``m - 1``, ``n - 1``) of the
        positives' and negatives' placement values, as pROC computes them.

    Warns
    -----
    UserWarning
        When ``y_scores`` has 2 columns whose rows all sum to 1: the output
        of ``predict_proba``, one model's probabilities of the two classes,
        not two models.  Pass column 1 (the probability of the greater label,
        the positive class) for that model's AUC and variance.
    UndefinedMetricWarning
        When ``y_true`` has one class only (NaN results).

    See Also
    --------
    roc_auc_ci : One AUC with its DeLong interval.
    delong_test : The paired test of two AUCs from this covariance.
    bootstrap_ci : A bootstrap interval instead.

    Notes
    -----
    With weights, a positive's placement is the weighted share of negatives
    it outscores (ties one half), and the covariances are weighted with
    divisor ``sum(w) - 1`` and ``m = sum(w)``: unit weights give the
    unweighted result and integer weights give the result of repeating rows.
    Details in ``docs/guide/intervals.md``.

    References
    ----------
    .. [1] DeLong, E. R., DeLong, D. M. and Clarke-Pearson, D. L. (1988).
       Comparing the areas under two or more correlated receiver operating
       characteristic curves: a nonparametric approach. Biometrics 44, 837-845.
    .. [2] Sun, X. and Xu, W. (2014). Fast implementation of DeLong's algorithm
       for comparing the areas under correlated receiver operating
       characteristic curves. IEEE Signal Processing Letters 21, 1389-1393.

    Examples
    --------
    >>> from fastauc import delong_covariance
    >>> aucs, cov = delong_covariance([0, 0, 1, 1, 0, 1],
    ...                               [0.1, 0.4, 0.35, 0.8, 0.2, 0.7])
    >>> aucs
    array([0.88888889])
    >>> cov
    array([[0.02469136]])
    """
    is_pos, S, w = delong_setup(y_true, y_scores, sample_weight, "y_scores")
    v.warn_if_proba(S, "y_scores")
    return _aucs_and_covariance(is_pos, [np.ascontiguousarray(S[:, j])
                                         for j in range(S.shape[1])], w)


def _aucs_and_covariance(is_pos, columns, w):
    """AUCs and DeLong covariance of validated score columns; NaN, with
    scikit-learn's warning, when a class is absent or weighs zero."""
    k = len(columns)
    total_p, total_n = class_weights(is_pos, w)
    if total_p <= 0 or total_n <= 0:
        v.warn_undefined(v.undefined_auc(is_pos), stacklevel=None)
        return np.full(k, np.nan), np.full((k, k), np.nan)
    if k == 1:
        auc, var = delong_one(is_pos, columns[0], w)
        return np.array([auc]), np.array([[var]])
    return delong_many(is_pos, columns, w)


@dispatch("y_score")
def roc_auc_ci(y_true, y_score, *, method="delong", confidence_level=0.95, sample_weight=None,
               transform=None, **bootstrap_options):
    """ROC AUC with a confidence interval (DeLong or bootstrap).

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Binary labels; the greater label is the positive class.
    y_score : array-like of shape (n_samples,)
        Scores of one model (for ``predict_proba`` output, column 1: the
        probability of the greater label; a 2-D array raises).
    method : {"delong", "bootstrap"}, default="delong"
        ``"delong"``: Wald interval ``auc ± z * se`` with DeLong's standard
        error, clipped to [0, 1] (as pROC's ``ci.auc``).  ``"bootstrap"``:
        :func:`bootstrap_ci` with ``metric="roc_auc"``.
    confidence_level : float, default=0.95
        Level of the interval, in (0, 1).
    sample_weight : array-like of shape (n_samples,), default=None
        Frequency weights (see :func:`delong_covariance`).
    transform : {None, "logit"}, default=None
        ``"logit"``: build the Wald interval for ``logit(auc)`` (standard
        error ``se / (auc (1 - auc))``) and map it back; it stays inside
        (0, 1) and is better near 0 or 1.  DeLong only.
    **bootstrap_options
        Passed to :func:`bootstrap_ci` (``n_resamples``, ``random_state``, ...).

    Returns
    -------
    ConfidenceInterval or BootstrapResult
        With ``estimate`` (the float ``roc_auc_score`` returns, to the last
        bit), ``low``, ``high``, ``se``, ``method``, ``confidence_level``.
        All four numbers are NaN, with an ``UndefinedMetricWarning``, when
        ``y_true`` has one class only or one class has zero weight in all
        (scikit-learn's rule for ``roc_auc_score``).

    See Also
    --------
    delong_covariance : The AUCs and DeLong covariance of several models.
    bootstrap_ci : The bootstrap interval (``method="bootstrap"``).
    roc_auc_score : The AUC alone.

    References
    ----------
    .. [1] DeLong, E. R., DeLong, D. M. and Clarke-Pearson, D. L. (1988).
       Biometrics 44, 837-845.
    .. [2] Robin, X. et al. (2011). pROC: an open-source package for R and S+ to
       analyze and compare ROC curves. BMC Bioinformatics 12, 77.

    Examples
    --------
    >>> from fastauc import roc_auc_ci
    >>> ci = roc_auc_ci([0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.2, 0.7])
    >>> round(ci.estimate, 4), round(ci.low, 4), round(ci.high, 4)
    (0.8889, 0.5809, 1.0)
    """
    v.check_choice(method, "method", ("delong", "bootstrap"))
    v.check_choice(transform, "transform", (None, "logit"))
    if method == "bootstrap":
        if transform is not None:
            raise ValueError("transform applies to method='delong' only")
        return bootstrap_ci(y_true, y_score, metric="roc_auc", confidence_level=confidence_level,
                            sample_weight=sample_weight, **bootstrap_options)
    if bootstrap_options:
        raise TypeError(f"unexpected arguments for method='delong': {sorted(bootstrap_options)}")
    level = v.check_confidence_level(confidence_level)
    s = v.as_float_array(y_score, "y_score")  # one model: a 2-D array raises
    is_pos, _, w = v.binary_rows(y_true, sample_weight, frequency=True, y_score=s)
    aucs, cov = _aucs_and_covariance(is_pos, [s], w)
    return _wald_interval(float(aucs[0]), float(cov[0, 0]), level, transform)


@dispatch("y_score_a", "y_score_b")
def delong_test(y_true, y_score_a, y_score_b, *, alternative="two-sided", confidence_level=0.95,
                sample_weight=None):
    """DeLong's paired test of two AUCs measured on the same rows.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Binary labels; the greater label is the positive class.
    y_score_a, y_score_b : array-like of shape (n_samples,)
        Scores of the two models.
    alternative : {"two-sided", "less", "greater"}, default="two-sided"
        ``"greater"``: H1 is ``auc_a > auc_b``.
    confidence_level : float, default=0.95
        Level of the interval of the difference (one-sided for one-sided
        alternatives).
    sample_weight : array-like of shape (n_samples,), default=None
        Frequency weights (see :func:`delong_covariance`).

    Returns
    -------
    DeLongTestResult
        ``statistic`` (z), ``pvalue``, ``difference`` (auc_a - auc_b), ``low``,
        ``high``, ``se``, ``auc_a``, ``auc_b`` (each the float
        ``roc_auc_score`` returns for that model, to the last bit).
        Identical scores give z = 0, p = 1.  Every number is NaN, with an
        ``UndefinedMetricWarning``, when ``y_true`` has one class only or one
        class has zero weight in all.

    See Also
    --------
    delong_covariance : The covariance of any number of models' AUCs.
    bootstrap_test : The paired bootstrap comparison (any metric).
    report : Every pair of several models compared, with other summaries.

    References
    ----------
    .. [1] DeLong, E. R., DeLong, D. M. and Clarke-Pearson, D. L. (1988).
       Biometrics 44, 837-845.

    Examples
    --------
    >>> from fastauc import delong_test
    >>> y = [0, 0, 1, 1, 0, 1, 0, 1]
    >>> res = delong_test(y, [0.1, 0.4, 0.35, 0.8, 0.2, 0.7, 0.3, 0.9],
    ...                   [0.2, 0.1, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8])
    >>> round(res.difference, 4), round(res.statistic, 4), round(res.pvalue, 4)
    (0.25, 1.0, 0.3173)
    """
    v.check_choice(alternative, "alternative", _ALTERNATIVES)
    level = v.check_confidence_level(confidence_level)
    a = v.as_float_array(y_score_a, "y_score_a")
    b = v.as_float_array(y_score_b, "y_score_b")
    is_pos, _, w = v.binary_rows(y_true, sample_weight, frequency=True, y_score_a=a,
                                 y_score_b=b)
    total_p, total_n = class_weights(is_pos, w)
    if total_p <= 0 or total_n <= 0:
        v.warn_undefined(v.undefined_auc(is_pos), stacklevel=None)
        nan = math.nan
        return DeLongTestResult(nan, nan, nan, nan, nan, nan, nan, nan, alternative, level)
    aucs, cov = delong_many(is_pos, [np.ascontiguousarray(a), np.ascontiguousarray(b)], w,
                            names=["y_score_a", "y_score_b"])
    return paired_test(aucs, cov, 0, 1, level, alternative)


