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
from ._delong import (bonferroni, cluster_codes, clustered_aucs_and_covariance, holm,
                      omnibus_statistic, unpaired_test)
from ._delong_results import DeLongOmnibusResult
from ._multiclass_delong import multiclass_components, multiclass_covariance
from ._multiclass_input import multiclass_scores
from .bootstrap import bootstrap_ci
from ._results import ConfidenceInterval, DeLongTestResult
from ._stats import ALTERNATIVES as _ALTERNATIVES
from ._stats import wald_interval as _wald_interval

__all__ = ["ConfidenceInterval", "DeLongOmnibusResult", "DeLongTestResult", "delong_covariance",
           "delong_omnibus", "delong_test", "roc_auc_ci"]


@dispatch("y_scores")
def delong_covariance(y_true, y_scores, *, sample_weight=None, cluster=None):
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
    cluster : array-like of shape (n_samples,), default=None
        Each row's cluster id (any hashable values: integers, strings...):
        rows of a cluster (several lesions or eyes of one patient) are
        correlated, and the covariance is Obuchowski's (1997) for clustered
        data instead of DeLong's.  One row per cluster gives DeLong's.

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

    With ``cluster``: each cluster ``c`` sums its positives' placements
    (``V10_c``) and its negatives' (``V01_c``); with ``m_c``, ``n_c`` its
    class weights, ``M``, ``N`` the totals, ``I10``, ``I01`` the numbers of
    clusters holding positives, negatives, and ``I`` all clusters,
    ``S10 = I10 / ((I10 - 1) M) sum (V10_c - m_c A)^2``,
    ``S01 = I01 / ((I01 - 1) N) sum (V01_c - n_c A)^2``,
    ``S11 = I / (I - 1) sum (V10_c - m_c A)(V01_c - n_c A)`` and
    ``var = S10 / M + S01 / N + 2 S11 / (M N)`` (products of two models'
    terms for the covariances) [3]_.

    References
    ----------
    .. [1] DeLong, E. R., DeLong, D. M. and Clarke-Pearson, D. L. (1988).
       Comparing the areas under two or more correlated receiver operating
       characteristic curves: a nonparametric approach. Biometrics 44, 837-845.
    .. [2] Sun, X. and Xu, W. (2014). Fast implementation of DeLong's algorithm
       for comparing the areas under correlated receiver operating
       characteristic curves. IEEE Signal Processing Letters 21, 1389-1393.
    .. [3] Obuchowski, N. A. (1997). Nonparametric analysis of clustered ROC
       curve data. Biometrics 53, 567-578.

    Examples
    --------
    >>> from fastauc import delong_covariance
    >>> aucs, cov = delong_covariance([0, 0, 1, 1, 0, 1],
    ...                               [0.1, 0.4, 0.35, 0.8, 0.2, 0.7])
    >>> aucs
    array([0.88888889])
    >>> cov
    array([[0.02469136]])

    Two rows per patient, clustered:

    >>> aucs, cov = delong_covariance([0, 1, 0, 1, 0, 1, 0, 1],
    ...                               [0.1, 0.6, 0.4, 0.35, 0.2, 0.7, 0.3, 0.9],
    ...                               cluster=[1, 1, 2, 2, 3, 3, 4, 4])
    >>> aucs, cov.round(5)
    (array([0.9375]), array([[0.01562]]))
    """
    is_pos, S, w = delong_setup(y_true, y_scores, sample_weight, "y_scores")
    v.warn_if_proba(S, "y_scores")
    columns = [np.ascontiguousarray(S[:, j]) for j in range(S.shape[1])]
    if cluster is not None:
        return _clustered(is_pos, columns, w, cluster)
    return _aucs_and_covariance(is_pos, columns, w)


def _clustered(is_pos, columns, w, cluster, names=None):
    """AUCs and Obuchowski's covariance; NaN (with scikit-learn's warning)
    when a class is absent or weighs zero."""
    k = len(columns)
    total_p, total_n = class_weights(is_pos, w)
    if total_p <= 0 or total_n <= 0:
        cluster_codes(cluster, is_pos.shape[0])  # its errors first
        v.warn_undefined(v.undefined_auc(is_pos), stacklevel=None)
        return np.full(k, np.nan), np.full((k, k), np.nan)
    return clustered_aucs_and_covariance(is_pos, columns, w, cluster, names)


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
               transform=None, cluster=None, multi_class="raise", average="macro", labels=None,
               **bootstrap_options):
    """ROC AUC with a confidence interval (DeLong or bootstrap).

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Binary labels (the greater label is the positive class), or, with
        ``multi_class``, three classes or more.
    y_score : array-like of shape (n_samples,) or (n_samples, n_classes)
        Scores of one model (for binary ``predict_proba`` output, column 1:
        the probability of the greater label); with ``multi_class``, each
        class's probability (rows summing to 1), as :func:`roc_auc_score`
        takes them.
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
    cluster : array-like of shape (n_samples,), default=None
        Each row's cluster id (any hashable values): the standard error is
        Obuchowski's (1997) for clustered rows (see
        :func:`delong_covariance`).  DeLong only.
    multi_class : {"raise", "ovr", "ovo"}, default="raise"
        For multiclass scores (three columns or more): the AUC of
        :func:`roc_auc_score` with this ``multi_class``, ``average`` and
        ``labels``, and DeLong's standard error of it with the classes as
        the samples (each row's placements in the two-class AUCs the
        average is made of; with two classes, DeLong's interval), or with
        ``method="bootstrap"`` :func:`bootstrap_ci`'s interval of it;
        without ``sample_weight`` or ``cluster``.
    average : {"macro", "weighted"}, default="macro"
        The multiclass average (``"micro"`` and None have no such standard
        error).
    labels : array-like of shape (n_classes,), default=None
        The classes of the score columns, as :func:`roc_auc_score` takes
        them.
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

    Raises
    ------
    ValueError
        When the lengths differ, the labels are not binary, ``method`` or
        ``transform`` is unknown, or ``transform``/``cluster`` is given with
        ``method="bootstrap"``.
    TypeError
        When bootstrap options are given with ``method="delong"``.

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
    .. [3] Obuchowski, N. A. (1997). Nonparametric analysis of clustered ROC
       curve data. Biometrics 53, 567-578.

    Examples
    --------
    >>> from fastauc import roc_auc_ci
    >>> ci = roc_auc_ci([0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.2, 0.7])
    >>> round(ci.estimate, 4), round(ci.low, 4), round(ci.high, 4)
    (0.8889, 0.5809, 1.0)
    >>> ci = roc_auc_ci([0, 1, 0, 1, 0, 1, 0, 1], [0.1, 0.6, 0.4, 0.35, 0.2, 0.7, 0.3, 0.9],
    ...                 cluster=["a", "a", "b", "b", "c", "c", "d", "d"])
    >>> round(ci.se, 4)
    0.125

    Three classes (Hand and Till's one-vs-one AUC):

    >>> P = [[0.7, 0.2, 0.1], [0.2, 0.5, 0.3], [0.1, 0.3, 0.6], [0.5, 0.3, 0.2],
    ...      [0.3, 0.4, 0.3], [0.2, 0.2, 0.6], [0.4, 0.4, 0.2], [0.1, 0.6, 0.3]]
    >>> ci = roc_auc_ci([0, 1, 2, 0, 1, 2, 1, 2], P, multi_class="ovo")
    >>> round(ci.estimate, 4), round(ci.se, 4)
    (0.9259, 0.0747)
    """
    v.check_choice(method, "method", ("delong", "bootstrap"))
    v.check_choice(transform, "transform", (None, "logit"))
    if multiclass_scores(y_score):
        return _multiclass_interval(y_true, y_score, method, confidence_level, sample_weight,
                                    transform, cluster, multi_class, average, labels,
                                    bootstrap_options)
    if method == "bootstrap":
        if transform is not None:
            raise ValueError("transform applies to method='delong' only")
        if cluster is not None:
            raise ValueError("cluster applies to method='delong' only")
        return bootstrap_ci(y_true, y_score, metric="roc_auc", confidence_level=confidence_level,
                            sample_weight=sample_weight, **bootstrap_options)
    if bootstrap_options:
        raise TypeError(f"unexpected arguments for method='delong': {sorted(bootstrap_options)}")
    level = v.check_confidence_level(confidence_level)
    s = v.as_float_array(y_score, "y_score")  # one model: a 2-D array raises
    is_pos, _, w = v.binary_rows(y_true, sample_weight, frequency=True, y_score=s)
    if cluster is not None:
        aucs, cov = _clustered(is_pos, [s], w, cluster)
    else:
        aucs, cov = _aucs_and_covariance(is_pos, [s], w)
    return _wald_interval(float(aucs[0]), float(cov[0, 0]), level, transform)


@dispatch("y_score_a", "y_score_b")
def delong_test(y_true, y_score_a, y_score_b, *, alternative="two-sided", confidence_level=0.95,
                sample_weight=None, margin=0.0, y_true_b=None, sample_weight_b=None,
                cluster=None, multi_class="raise", average="macro", labels=None):
    """DeLong's test of two AUCs: paired (same rows) or unpaired (different rows).

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Binary labels; the greater label is the positive class.  The labels
        of both models' rows, or of model a's rows when ``y_true_b`` is given.
    y_score_a : array-like of shape (n_samples,)
        Scores of model a.
    y_score_b : array-like of shape (n_samples,) or (n_samples_b,)
        Scores of model b: on the same rows as ``y_score_a`` (paired), or on
        the rows of ``y_true_b`` (unpaired).
    alternative : {"two-sided", "less", "greater"}, default="two-sided"
        ``"greater"``: H1 is ``auc_a - auc_b > margin``.
    confidence_level : float, default=0.95
        Level of the interval of the difference (one-sided for one-sided
        alternatives).
    sample_weight : array-like of shape (n_samples,), default=None
        Frequency weights (see :func:`delong_covariance`) of the rows of
        ``y_true``.
    margin : float, default=0.0
        The difference ``auc_a - auc_b`` under H0: the statistic is
        ``(auc_a - auc_b - margin) / se``.  Non-inferiority of a to b within
        0.05 is ``margin=-0.05, alternative="greater"``; superiority by more
        than 0.02 is ``margin=0.02, alternative="greater"``.
    y_true_b : array-like of shape (n_samples_b,), default=None
        Labels of model b's rows when the two models were scored on
        different rows (two test sets, two hospitals): the unpaired test of
        pROC's ``roc.test(paired = FALSE)``.  Its length may differ from
        ``y_true``'s.
    sample_weight_b : array-like of shape (n_samples_b,), default=None
        Frequency weights of model b's rows (unpaired only).
    cluster : array-like of shape (n_samples,), default=None
        Each row's cluster id (paired only): the covariance is Obuchowski's
        (1997) for clustered rows (see :func:`delong_covariance`).
    multi_class : {"raise", "ovr", "ovo"}, default="raise"
        Two multiclass models (score arrays of three columns or more) on the
        same rows: their :func:`roc_auc_score` with this ``multi_class``,
        ``average`` and ``labels``, compared by the covariance of the two
        averages (see :func:`roc_auc_ci`).  Paired, unweighted, unclustered.
    average : {"macro", "weighted"}, default="macro"
        The multiclass average.
    labels : array-like of shape (n_classes,), default=None
        The classes of the score columns.

    Returns
    -------
    DeLongTestResult
        ``statistic``, ``pvalue``, ``difference`` (auc_a - auc_b), ``low``,
        ``high``, ``se``, ``auc_a``, ``auc_b`` (each the float
        ``roc_auc_score`` returns for that model, to the last bit), ``df``
        and ``margin``.  Paired: the statistic is z, referred to the normal
        (``df`` is inf).  Unpaired: ``D = (d - margin) / sqrt(V_a + V_b)``,
        each ``V`` DeLong's variance of one AUC, referred to Student's t with
        Welch-Satterthwaite's ``df = (V_a + V_b)^2 / (V_a^2 / (N_a - 1) +
        V_b^2 / (N_b - 1))`` (``N`` a sample's rows or total weight), as pROC
        does; its interval uses the same t quantile.  Identical scores give
        a statistic of 0 and p = 1.  Every number is NaN, with an
        ``UndefinedMetricWarning``, when a sample has one class only or one
        class has zero weight in all.

    Raises
    ------
    ValueError
        When paired inputs' lengths differ (the message names the arguments),
        an unpaired sample's lengths differ, a label set is not binary,
        ``alternative`` is unknown, ``margin`` is not a finite number in
        [-1, 1], ``sample_weight_b`` is given without ``y_true_b``, or
        ``cluster`` with ``y_true_b``.

    See Also
    --------
    delong_covariance : The covariance of any number of models' AUCs.
    delong_omnibus : The test of k models' AUCs at once, with all pairs.
    bootstrap_test : The paired bootstrap comparison (any metric).
    report : Every pair of several models compared, with other summaries.

    References
    ----------
    .. [1] DeLong, E. R., DeLong, D. M. and Clarke-Pearson, D. L. (1988).
       Biometrics 44, 837-845.
    .. [2] Robin, X. et al. (2011). pROC: an open-source package for R and S+ to
       analyze and compare ROC curves. BMC Bioinformatics 12, 77.
    .. [3] Obuchowski, N. A. (1997). Nonparametric analysis of clustered ROC
       curve data. Biometrics 53, 567-578.

    Examples
    --------
    >>> from fastauc import delong_test
    >>> y = [0, 0, 1, 1, 0, 1, 0, 1]
    >>> res = delong_test(y, [0.1, 0.4, 0.35, 0.8, 0.2, 0.7, 0.3, 0.9],
    ...                   [0.2, 0.1, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8])
    >>> round(res.difference, 4), round(res.statistic, 4), round(res.pvalue, 4)
    (0.25, 1.0, 0.3173)

    Two models on different rows (unpaired):

    >>> res = delong_test(y, [0.1, 0.4, 0.35, 0.8, 0.2, 0.7, 0.3, 0.9],
    ...                   [0.2, 0.1, 0.3, 0.4, 0.5, 0.6], y_true_b=[0, 1, 0, 1, 0, 1])
    >>> round(res.difference, 4), round(res.df, 2)
    (0.3819, 5.8)

    Two multiclass models on the same rows (one-vs-rest, macro average):

    >>> P = [[0.7, 0.2, 0.1], [0.2, 0.5, 0.3], [0.1, 0.3, 0.6], [0.5, 0.3, 0.2],
    ...      [0.3, 0.4, 0.3], [0.2, 0.2, 0.6], [0.4, 0.4, 0.2], [0.1, 0.6, 0.3]]
    >>> Q = [[0.4, 0.3, 0.3], [0.3, 0.4, 0.3], [0.3, 0.3, 0.4], [0.3, 0.4, 0.3],
    ...      [0.4, 0.3, 0.3], [0.3, 0.3, 0.4], [0.3, 0.3, 0.4], [0.3, 0.4, 0.3]]
    >>> res = delong_test([0, 1, 2, 0, 1, 2, 1, 2], P, Q, multi_class="ovr")
    >>> round(res.difference, 4), round(res.pvalue, 4)
    (0.2889, 0.0526)
    """
    v.check_choice(alternative, "alternative", _ALTERNATIVES)
    level = v.check_confidence_level(confidence_level)
    margin = _check_margin(margin)
    if multiclass_scores(y_score_a) or multiclass_scores(y_score_b):
        if y_true_b is not None:
            raise ValueError("the test of two multiclass models is paired: y_true_b must be "
                             "None")
        if np.shape(y_score_a) != np.shape(y_score_b):
            raise ValueError("y_score_a and y_score_b must have the same shape, got "
                             f"{np.shape(y_score_a)} and {np.shape(y_score_b)}")
        aucs, cov = _multiclass_setup(y_true, [y_score_a, y_score_b], multi_class, average,
                                      labels, sample_weight, cluster, "delong_test")
        return paired_test(aucs, cov, 0, 1, level, alternative, margin)
    a = v.as_float_array(y_score_a, "y_score_a")
    b = v.as_float_array(y_score_b, "y_score_b")
    if y_true_b is not None:
        if cluster is not None:
            raise ValueError("cluster applies to the paired test only (y_true_b is None)")
        return _unpaired(y_true, a, sample_weight, y_true_b, b, sample_weight_b, level,
                         alternative, margin)
    if sample_weight_b is not None:
        raise ValueError("sample_weight_b applies to the unpaired test only: pass y_true_b, "
                         "the labels of model b's rows, or use sample_weight")
    is_pos, _, w = v.binary_rows(y_true, sample_weight, frequency=True, y_score_a=a,
                                 y_score_b=b)
    total_p, total_n = class_weights(is_pos, w)
    if total_p <= 0 or total_n <= 0:
        v.warn_undefined(v.undefined_auc(is_pos), stacklevel=None)
        return _nan_test(alternative, level, margin)
    columns = [np.ascontiguousarray(a), np.ascontiguousarray(b)]
    if cluster is not None:
        aucs, cov = _clustered(is_pos, columns, w, cluster, names=["y_score_a", "y_score_b"])
    else:
        aucs, cov = delong_many(is_pos, columns, w, names=["y_score_a", "y_score_b"])
    return paired_test(aucs, cov, 0, 1, level, alternative, margin)


def _multiclass_setup(y_true, scores, multi_class, average, labels, sample_weight, cluster,
                      what):
    """The multiclass AUCs (:func:`roc_auc_score`'s floats, after its checks
    with its words) and DeLong's covariance of them."""
    from ._multiclass_input import multiclass_checked
    from .ranking import roc_auc_score

    if sample_weight is not None or cluster is not None:
        raise ValueError(f"{what} of multiclass scores takes no sample_weight or cluster")
    v.check_choice(multi_class, "multi_class", ("ovr", "ovo", "raise"))
    if average not in ("macro", "weighted"):
        raise ValueError(f"average={average!r} has no DeLong standard error of the multiclass "
                         "AUC; use 'macro' or 'weighted'")
    aucs, Z = [], []
    for S in scores:
        y, columns, classes = multiclass_checked(y_true, S, multi_class, average, labels)
        codes = np.searchsorted(classes, y)
        k = classes.shape[0]
        if np.bincount(codes, minlength=k).min() == 0:  # an absent class: its own words
            aucs.append(roc_auc_score(y_true, S, multi_class=multi_class, average=average,
                                      labels=labels))
            Z.append(np.full(codes.shape[0], math.nan))
            continue
        auc, z = multiclass_components(codes, columns, k, multi_class, average)
        aucs.append(auc)
        Z.append(z)
    return np.array(aucs), multiclass_covariance(codes, Z, k)


def _multiclass_interval(y_true, y_score, method, confidence_level, sample_weight, transform,
                         cluster, multi_class, average, labels, bootstrap_options):
    if method == "bootstrap":
        if transform is not None:
            raise ValueError("transform applies to method='delong' only")
        return bootstrap_ci(y_true, y_score, metric="roc_auc", confidence_level=confidence_level,
                            sample_weight=sample_weight, cluster=cluster,
                            multi_class=multi_class, average=average, labels=labels,
                            **bootstrap_options)
    if bootstrap_options:
        raise TypeError(f"unexpected arguments for method='delong': {sorted(bootstrap_options)}")
    level = v.check_confidence_level(confidence_level)
    aucs, cov = _multiclass_setup(y_true, [y_score], multi_class, average, labels,
                                  sample_weight, cluster, "roc_auc_ci")
    return _wald_interval(float(aucs[0]), float(cov[0, 0]), level, transform)


def _check_margin(margin) -> float:
    try:
        m = float(margin)
    except (TypeError, ValueError):
        raise TypeError(f"margin must be a real number, got {type(margin).__name__}") from None
    if not (-1.0 <= m <= 1.0):
        raise ValueError(f"margin must be a finite number in [-1, 1], got {margin!r}")
    return m


def _nan_test(alternative, level, margin, df=math.inf):
    nan = math.nan
    return DeLongTestResult(nan, nan, nan, nan, nan, nan, nan, nan, alternative, level, df=df,
                            margin=margin)


def _unpaired(y_a, a, w_a, y_b, b, w_b, level, alternative, margin):
    """pROC's unpaired DeLong test: one sweep with moments per sample."""
    pos_a, _, wa = v.binary_rows(y_a, w_a, frequency=True, y_score_a=a)
    try:
        pos_b, _, wb = v.binary_rows(y_b, w_b, frequency=True, y_score_b=b)
    except ValueError as exc:
        raise ValueError(str(exc).replace("y_true has", "y_true_b has").replace(
            "sample_weight has", "sample_weight_b has")) from None
    sums = [class_weights(pos_a, wa), class_weights(pos_b, wb)]
    if min(min(s) for s in sums) <= 0:
        bad = pos_a if min(sums[0]) <= 0 else pos_b
        v.warn_undefined(v.undefined_auc(bad), stacklevel=None)
        return _nan_test(alternative, level, margin, df=math.nan)
    auc_a, var_a = delong_one(pos_a, np.ascontiguousarray(a), wa)
    auc_b, var_b = delong_one(pos_b, np.ascontiguousarray(b), wb)
    return unpaired_test(auc_a, var_a, sum(sums[0]), auc_b, var_b, sum(sums[1]), level,
                         alternative, margin)


@dispatch("y_scores")
def delong_omnibus(y_true, y_scores, *, alternative="two-sided", confidence_level=0.95,
                   sample_weight=None, cluster=None):
    """DeLong's chi-square test that k models' AUCs are equal, with every pair.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Binary labels; the greater label is the positive class.
    y_scores : array-like of shape (n_samples, k)
        Scores of ``k >= 2`` models on the same rows, one column per model
        (also a mapping ``{name: scores}``, a DataFrame or a list of 1-D
        arrays; their names label the pairs).
    alternative : {"two-sided", "less", "greater"}, default="two-sided"
        Alternative of the pairwise tests (``"greater"``: the first model of
        the pair has the greater AUC).  The omnibus test is two-sided.
    confidence_level : float, default=0.95
        Level of the pairwise intervals of the differences (not adjusted).
    sample_weight : array-like of shape (n_samples,), default=None
        Frequency weights (see :func:`delong_covariance`).
    cluster : array-like of shape (n_samples,), default=None
        Each row's cluster id: Obuchowski's (1997) covariance for clustered
        rows (see :func:`delong_covariance`).

    Returns
    -------
    DeLongOmnibusResult
        ``statistic`` (the chi-square), ``df`` (``k - 1``), ``pvalue``,
        ``names``, ``aucs``, ``cov`` and ``pairs``: for every pair ``a < b``
        the paired test of :func:`delong_test` with Holm's and Bonferroni's
        adjusted p-values over the pairs (``to_frame()`` gives the table as
        a DataFrame).  NaN, with an ``UndefinedMetricWarning``, when
        ``y_true`` has one class only.

    Raises
    ------
    ValueError
        When there are fewer than two models, the lengths differ, the labels
        are not binary or ``alternative`` is unknown.

    See Also
    --------
    delong_test : Two models, paired or unpaired.
    delong_covariance : The AUCs and their covariance.

    Notes
    -----
    With ``A`` the AUCs, ``S`` their covariance and ``L`` the ``(k - 1, k)``
    contrasts of each model against the next (``L[i, i] = 1``,
    ``L[i, i + 1] = -1``), the statistic ``(L A)' (L S L')^-1 (L A)`` is
    chi-square with ``k - 1`` degrees of freedom under equal AUCs [1]_.  Any
    full-rank set of contrasts gives the same statistic.  When ``L S L'`` is
    singular (a model repeated), the pseudo-inverse and its rank are used.
    Holm's adjustment controls the family-wise error as Bonferroni's does,
    and is never less powerful.

    References
    ----------
    .. [1] DeLong, E. R., DeLong, D. M. and Clarke-Pearson, D. L. (1988).
       Comparing the areas under two or more correlated receiver operating
       characteristic curves: a nonparametric approach. Biometrics 44, 837-845.
    .. [2] Holm, S. (1979). A simple sequentially rejective multiple test
       procedure. Scandinavian Journal of Statistics 6, 65-70.

    Examples
    --------
    >>> import numpy as np
    >>> from fastauc import delong_omnibus
    >>> y = [0, 0, 1, 1, 0, 1, 0, 1]
    >>> S = {"a": [0.1, 0.4, 0.35, 0.8, 0.2, 0.7, 0.3, 0.9],
    ...      "b": [0.2, 0.1, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8],
    ...      "c": [0.3, 0.2, 0.1, 0.9, 0.4, 0.8, 0.5, 0.6]}
    >>> res = delong_omnibus(y, S)
    >>> round(res.statistic, 4), res.df, round(res.pvalue, 4)
    (1.5698, 2.0, 0.4562)
    >>> res.pairs["model_a"], res.pairs["model_b"]
    (('a', 'a', 'b'), ('b', 'c', 'c'))
    """
    v.check_choice(alternative, "alternative", _ALTERNATIVES)
    level = v.check_confidence_level(confidence_level)
    names, S = v.score_matrix(y_scores, v.n_rows(y_true), "y_scores")
    k = S.shape[1]
    if k < 2:
        raise ValueError(f"delong_omnibus compares k >= 2 models: y_scores has {k} column")
    names = tuple(str(x) for x in names) if names else tuple(str(j) for j in range(k))
    is_pos, _, w = v.binary_rows(y_true, sample_weight, frequency=True, y_scores=S)
    v.warn_if_proba(S, "y_scores")
    columns = [np.ascontiguousarray(S[:, j]) for j in range(k)]
    if cluster is not None:
        aucs, cov = _clustered(is_pos, columns, w, cluster)
    else:
        aucs, cov = _aucs_and_covariance(is_pos, columns, w)
    stat, df, p = omnibus_statistic(aucs, cov)
    pairs = [(i, j) for i in range(k) for j in range(i + 1, k)]
    tests = [paired_test(aucs, cov, i, j, level, alternative) if not np.isnan(aucs).any()
             else _nan_test(alternative, level, 0.0) for i, j in pairs]
    col = {f: np.array([getattr(t, f) for t in tests], np.float64)
           for f in ("auc_a", "auc_b", "difference", "se", "statistic", "pvalue", "low",
                     "high")}
    table = {"model_a": tuple(names[i] for i, _ in pairs),
             "model_b": tuple(names[j] for _, j in pairs), **col,
             "pvalue_holm": holm(col["pvalue"]), "pvalue_bonferroni": bonferroni(col["pvalue"])}
    return DeLongOmnibusResult(stat, df, p, names, aucs, cov, table, alternative, level)
