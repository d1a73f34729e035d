"""The batched bootstrap: every replicate in compiled code, from one sort.

The rows are sorted once per model into a layout (``_resample``); a
replicate is a vector of resample counts applied to it in O(n), and batches
of a fixed number of replicates run on several threads, seeded by replicate
index, so the result depends only on ``random_state``.  Percentile, basic
and BCa intervals (Efron & Tibshirani 1993), the jackknife for BCa in O(n)
from the placement values.
"""

from __future__ import annotations

import math

import numpy as np

from ._device import dispatch
from . import _validation as v
from ._resample import (
    MERGED_CODES as _MERGED_CODES,
    bootstrap_interval as _interval,
    bootstrap_rows as _bootstrap_rows,
    check_bootstrap_args as _check_bootstrap_args,
    point_estimate as _point_estimate,
    prepare_rows as _prepare_rows,
    undefined as _undefined,
    undefined_result as _undefined_result,
    _jackknife,
    _metric_code,
    _Prepared,
    _run_replicates,
)
from ._results import BootstrapResult, BootstrapTestResult
from ._stats import ALTERNATIVES as _ALTERNATIVES
from ._stats import pvalue as _pvalue
from ._stats import ratio as _ratio

__all__ = ["BootstrapResult", "BootstrapTestResult", "bootstrap_ci", "bootstrap_test"]


def _jack_groups(prep: _Prepared, jk_rows_layout0, stratified):
    if stratified:
        n_pos = prep.models[0].lay.n_pos
        return [jk_rows_layout0[:n_pos], jk_rows_layout0[n_pos:]]
    return [jk_rows_layout0]


@dispatch("y_score")
def bootstrap_ci(y_true, y_score, *, metric="roc_auc", n_resamples=1000, confidence_level=0.95,
                 method="percentile", stratified=None, sample_weight=None, random_state=None,
                 max_fpr=None, progress=False, scheme="multinomial", at=None):
    """Bootstrap confidence interval of a ranking metric, all replicates in compiled code.

    The rows are sorted once; every replicate is a vector of resample counts
    applied to the sorted tallies in O(n), and batches of replicates run on
    several threads.  No per-replicate sort and no per-replicate Python call.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Binary labels; the greater label is the positive class.
    y_score : array-like of shape (n_samples,)
        Scores (probabilities of the positive class for ``"log_loss"``,
        ``"brier"`` and ``"ece"``).
    metric : str, default="roc_auc"
        The metric resampled: ``"roc_auc"`` (:func:`roc_auc_score`),
        ``"average_precision"`` (:func:`average_precision_score`),
        ``"log_loss"`` (:func:`log_loss`), ``"brier"``
        (:func:`brier_score_loss`), ``"ece"`` (:func:`calibration_error`,
        15 bins, l1), or an operating point at the floor
        ``at``: ``"sensitivity_at_specificity"``,
        ``"specificity_at_sensitivity"``, ``"precision_at_recall"``,
        ``"recall_at_precision"`` (the value of :func:`sensitivity_at_specificity`
        and the others: each replicate finds its own best threshold).  The
        binned ECE is biased upward (resampling adds noise to every bin), so
        its replicates tend to sit above the estimate.
    n_resamples : int, default=1000
        Number of bootstrap replicates (positive).
    confidence_level : float, default=0.95
        Level of the interval, in (0, 1).
    method : {"percentile", "basic", "bca"}, default="percentile"
        ``"percentile"``: quantiles of the replicates.  ``"basic"``: the
        percentile interval reflected about the estimate.
        ``"bca"``: bias-corrected and accelerated (Efron 1987), with the
        acceleration from the exact leave-one-out values, computed in O(n)
        from the placement values (``"roc_auc"``) or the per-row losses
        (``"log_loss"``, ``"brier"``); not available for
        ``"average_precision"``, ``"ece"``, the operating points or with
        ``max_fpr``.
    stratified : bool or None, default=None
        Multinomial scheme: resample positives and negatives separately
        (``True``, pROC's default, what ``None`` means), so every replicate
        has both classes, or together (``False``; replicates with one class
        are dropped and counted in ``n_dropped``).  The Poisson scheme is
        never stratified (``True`` raises).
    sample_weight : array-like of shape (n_samples,), default=None
        Rows are resampled with their weights; a replicate is the weighted
        metric of the resampled rows.
    random_state : None, int, numpy Generator, RandomState or SeedSequence, default=None
        Seeds every replicate's own random stream: the same value gives the
        same replicates whatever the number of threads.  None: fresh
        entropy, different replicates on every call.
    max_fpr : float in (0, 1], default=None
        With ``metric="roc_auc"``, the standardised partial AUC up to this
        false positive rate (McClish), as ``roc_auc_score(max_fpr=...)``.
    progress : bool, default=False
        Show a tqdm progress bar (updated between batches of replicates)
        when the optional ``tqdm`` is installed.
    scheme : {"multinomial", "poisson"}, default="multinomial"
        ``"multinomial"``: the classical bootstrap, each replicate draws
        as many rows as there are (per class when stratified).
        ``"poisson"``: every row gets an independent Poisson(1) count in
        each replicate (Hanley & MacGibbon 2006; Chamandy et al. 2012),
        a function of ``random_state``, the replicate and the row's
        position in the input only, so the counts are generated streaming
        in sorted order (fast and cache-friendly at 1e7 rows and more) and
        do not depend on how the rows are ordered, chunked or partitioned.
        Replicates whose resample has no weight in a class are dropped.
        See the user guide for which to use when.
    at : float in [0, 1], default=None
        The floor of an operating-point metric: the minimum specificity of
        ``"sensitivity_at_specificity"``, and so on (required for those,
        refused for the others).

    Returns
    -------
    BootstrapResult
        ``estimate`` (the metric on all rows: the float ``roc_auc_score``,
        ``average_precision_score`` or ``log_loss`` returns, to the last
        bit), ``low``, ``high``, ``se`` (the standard deviation of the
        replicates), ``method``, ``n_resamples``, ``n_dropped`` and
        ``replicates`` (NaN where dropped).  When ``y_true`` has one class
        only, or one class has zero weight in all, the metric is undefined
        (scikit-learn's rule for ``roc_auc_score``): ``estimate``, ``low``,
        ``high``, ``se`` and every replicate are NaN and ``n_dropped`` is
        ``n_resamples``.

    Raises
    ------
    ValueError
        When every replicate drew a single class (a tiny sample with
        ``stratified=False`` or the Poisson scheme): the interval has no
        replicate to come from.

    Warns
    -----
    UndefinedMetricWarning
        When ``y_true`` has one class only, or one class has zero weight in
        all (scikit-learn's words: "Only one class is present in y_true. ROC
        AUC score is not defined in that case.").

    See Also
    --------
    roc_auc_ci : DeLong's interval of the AUC, or this one.
    bootstrap_test : The paired comparison of two models.

    Notes
    -----
    Multinomial replicate ``r`` draws, for each stratum in turn, as many
    positions as the stratum has, uniformly with replacement, among the
    stratum's rows taken in decreasing score order (ties in decreasing row
    order).  It equals the scikit-learn metric of those rows.  Poisson
    replicate ``r`` equals the scikit-learn metric of all rows with
    ``sample_weight`` multiplied by their counts.

    References
    ----------
    .. [1] Efron, B. (1987). Better bootstrap confidence intervals. Journal of
       the American Statistical Association 82, 171-185.
    .. [2] Efron, B. and Tibshirani, R. J. (1993). An Introduction to the
       Bootstrap. Chapman & Hall.
    .. [3] Carpenter, J. and Bithell, J. (2000). Bootstrap confidence intervals:
       when, which, what? Statistics in Medicine 19, 1141-1164.
    .. [4] Hanley, J. A. and MacGibbon, B. (2006). Creating non-parametric
       bootstrap samples using Poisson frequencies. Computer Methods and
       Programs in Biomedicine 83, 57-62.
    .. [5] Chamandy, N., Muralidharan, O., Najmi, A. and Naidu, S. (2012).
       Estimating uncertainty for massive data streams. Google technical report.

    Examples
    --------
    >>> import numpy as np
    >>> from fastauc import bootstrap_ci
    >>> rng = np.random.default_rng(0)
    >>> y = rng.integers(0, 2, 500)
    >>> s = y + rng.normal(size=500)
    >>> res = bootstrap_ci(y, s, n_resamples=200, random_state=1)
    >>> round(res.estimate, 3), res.low < res.estimate < res.high
    (0.727, True)
    """
    n_resamples, level, stratified = _check_bootstrap_args(n_resamples, confidence_level,
                                                           method, stratified, scheme)
    code, fpr = _metric_code(metric, max_fpr, method, at)
    seed = v.seed_from_random_state(random_state)
    rows = _bootstrap_rows(y_true, [y_score], ["y_score"], sample_weight)
    undefined = _undefined(rows, metric)
    if undefined is not None:
        return _undefined_result(undefined, False, method, level, n_resamples, metric)
    # row indices only where a replicate or the weights need them
    # partial AUC and operating points: the merged order
    row_index = scheme == "poisson" or code in _MERGED_CODES
    prep = _prepare_rows(rows, ["y_score"], metric, stratified, row_index, keys=False)
    reps = _run_replicates(prep, code, fpr, n_resamples, seed, progress, scheme)
    estimate = _point_estimate(rows, 0, prep.models[0], metric, fpr)
    reps = reps[:, 0]
    low, high, se, n_dropped = _summarise(
        reps, estimate, level, method, prep, lambda: _jackknife(prep.models[0], metric),
        stratified)
    return BootstrapResult(estimate, low, high, se, method, level, n_resamples, n_dropped,
                           metric, reps)


def _summarise(values, estimate, level, method, prep, jackknife, stratified,
               alternative="two-sided"):
    """Interval, standard error and number dropped, from replicate values (NaN:
    dropped); ``jackknife()`` gives the leave-one-out values for BCa."""
    good = values[np.isfinite(values)]
    if good.shape[0] == 0:
        raise ValueError("every bootstrap replicate had a single class; use stratified=True "
                         "(scheme='multinomial')")
    groups = _jack_groups(prep, jackknife(), stratified) if method == "bca" else None
    low, high = _interval(good, estimate, level, method, groups, alternative)
    se = float(good.std(ddof=1)) if good.shape[0] > 1 else math.nan
    return low, high, se, int(values.shape[0] - good.shape[0])


@dispatch("y_score_a", "y_score_b")
def bootstrap_test(y_true, y_score_a, y_score_b, *, metric="roc_auc", n_resamples=1000,
                   confidence_level=0.95, method="percentile", stratified=None,
                   alternative="two-sided", sample_weight=None, random_state=None, max_fpr=None,
                   progress=False, scheme="multinomial", at=None):
    """Paired bootstrap comparison of two models scored on the same rows.

    Each replicate resamples the rows once and evaluates both models on that
    resample, so the difference keeps the models' correlation.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Binary labels; the greater label is the positive class.
    y_score_a, y_score_b : array-like of shape (n_samples,)
        Scores of the two models.
    metric : str, default="roc_auc"
        The metric compared (as in :func:`bootstrap_ci`, operating points
        at the floor ``at`` included).
    n_resamples : int, default=1000
        Number of paired bootstrap replicates (positive).
    confidence_level : float, default=0.95
        Level of the interval of the difference, in (0, 1).
    method : {"percentile", "basic", "bca"}, default="percentile"
        How the interval of the difference is formed from the replicate
        differences (as in :func:`bootstrap_ci`; ``"bca"`` uses the
        leave-one-out differences).
    stratified : bool or None, default=None
        Resample positives and negatives separately (``True``, what ``None``
        means for the multinomial scheme) or together (``False``); the
        Poisson scheme is never stratified.
    alternative : {"two-sided", "less", "greater"}, default="two-sided"
        ``"greater"``: H1 is ``metric_a > metric_b``; ``"less"``: H1 is
        ``metric_a < metric_b``.  A one-sided alternative gives a one-sided
        interval.
    sample_weight : array-like of shape (n_samples,), default=None
        Rows are resampled with their weights; each model's replicate is the
        weighted metric of the resampled rows.
    random_state : None, int, numpy Generator, RandomState or SeedSequence, default=None
        Seeds every replicate's own random stream (as in :func:`bootstrap_ci`).
    max_fpr : float in (0, 1], default=None
        With ``metric="roc_auc"``, compare the standardised partial AUCs up
        to this false positive rate.
    progress : bool, default=False
        Show a tqdm progress bar when the optional ``tqdm`` is installed.
    scheme : {"multinomial", "poisson"}, default="multinomial"
        The resampling scheme (as in :func:`bootstrap_ci`); with
        ``"poisson"`` a row has the same count under both models.
    at : float in [0, 1], default=None
        The floor of an operating-point metric (as in :func:`bootstrap_ci`).

    Returns
    -------
    BootstrapTestResult
        ``difference`` (a - b on all rows), its interval ``low``/``high``,
        ``se`` (standard deviation of the replicate differences),
        ``statistic = difference / se`` and its normal ``pvalue`` (pROC's
        bootstrap test), ``estimate_a``, ``estimate_b`` (each the float the
        in-memory metric returns) and ``replicates`` of shape
        (n_resamples, 2).  When ``y_true`` has one class only, or one class
        has zero weight in all, every number is NaN (``n_dropped`` is
        ``n_resamples``), as :func:`bootstrap_ci`.

    Warns
    -----
    UndefinedMetricWarning
        When ``y_true`` has one class only, or one class has zero weight in all.

    See Also
    --------
    delong_test : DeLong's paired test of two AUCs (no resampling).
    bootstrap_ci : The interval of one model's metric.

    References
    ----------
    .. [1] Hanley, J. A. and McNeil, B. J. (1983). A method of comparing the areas
       under receiver operating characteristic curves derived from the same
       cases. Radiology 148, 839-843.
    .. [2] Robin, X. et al. (2011). pROC. BMC Bioinformatics 12, 77.

    Examples
    --------
    >>> import numpy as np
    >>> from fastauc import bootstrap_test
    >>> rng = np.random.default_rng(0)
    >>> y = rng.integers(0, 2, 500)
    >>> a, b = y + rng.normal(size=500), y + 2 * rng.normal(size=500)
    >>> res = bootstrap_test(y, a, b, n_resamples=200, random_state=1)
    >>> res.difference > 0, res.pvalue < 0.05
    (True, True)
    """
    n_resamples, level, stratified = _check_bootstrap_args(n_resamples, confidence_level,
                                                           method, stratified, scheme)
    v.check_choice(alternative, "alternative", _ALTERNATIVES)
    code, fpr = _metric_code(metric, max_fpr, method, at)
    seed = v.seed_from_random_state(random_state)
    names = ["y_score_a", "y_score_b"]
    rows = _bootstrap_rows(y_true, [y_score_a, y_score_b], names, sample_weight)
    undefined = _undefined(rows, metric)
    if undefined is not None:
        return _undefined_result(undefined, True, method, level, n_resamples, metric,
                                 alternative)
    prep = _prepare_rows(rows, names, metric, stratified, keys=False)
    reps = _run_replicates(prep, code, fpr, n_resamples, seed, progress, scheme)
    est_a, est_b = (_point_estimate(rows, j, prep.models[j], metric, fpr) for j in (0, 1))
    d = est_a - est_b

    def jackknife_difference():
        jk_b = np.empty(prep.n)
        jk_b[prep.models[1].lay.rows] = _jackknife(prep.models[1], metric)
        return _jackknife(prep.models[0], metric) - jk_b[prep.models[0].lay.rows]

    low, high, se, n_dropped = _summarise(reps[:, 0] - reps[:, 1], d, level, method, prep,
                                          jackknife_difference, stratified, alternative)
    z = 0.0 if d == 0.0 and se == 0.0 else _ratio(d, se)
    return BootstrapTestResult(z, _pvalue(z, alternative), d, low, high, se, est_a, est_b,
                               method, alternative, level, int(reps.shape[0]), n_dropped, metric,
                               reps)

