"""The batched bootstrap: every replicate in compiled code, from one sort.

The rows are sorted once per model into a layout (``_resample``); a
replicate is a vector of resample counts applied to it in O(n), and batches
of a fixed number of replicates run on several threads, seeded by replicate
index, so the result depends only on ``random_state``.  Percentile, basic
and BCa intervals (Efron & Tibshirani 1993), the jackknife for BCa in O(n)
from the placement values.  Two models are compared on the same rows (each
replicate resamples the rows once), on two data sets (each set resampled on
its own, set b from a second stream of ``random_state``), or with clustered
rows (each replicate resamples whole clusters: Field & Welsh 2007).
"""

from __future__ import annotations

import math

import numpy as np

from ._device import dispatch
from . import _validation as v
from ._resample import (
    MERGED_CODES as _MERGED_CODES,
    cluster_ids as _cluster_ids,
    partial_range as _partial_range,
    second_seed as _second_seed,
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
from . import _multiclass_bootstrap as _mc
from ._multiclass_input import multiclass_scores as _multiclass_scores
from ._results import BootstrapResult, BootstrapTestResult
from ._stats import ALTERNATIVES as _ALTERNATIVES
from ._stats import pvalue as _pvalue
from ._stats import ratio as _ratio

__all__ = ["BootstrapResult", "BootstrapTestResult", "bootstrap_ci", "bootstrap_test"]


def _jack_groups(prep: _Prepared, jk_rows_layout0, stratified):
    """The jackknife values grouped for BCa's acceleration: by class when stratified."""
    if stratified:
        n_pos = prep.models[0].lay.n_pos
        return [jk_rows_layout0[:n_pos], jk_rows_layout0[n_pos:]]
    return [jk_rows_layout0]


@dispatch("y_score")
def bootstrap_ci(y_true, y_score, *, metric="roc_auc", n_resamples=1000, confidence_level=0.95,
                 method="percentile", stratified=None, sample_weight=None, random_state=None,
                 max_fpr=None, progress=False, scheme="multinomial", at=None, cluster=None,
                 fpr_range=None, tpr_range=None, correct=False, multi_class="raise",
                 average="macro", labels=None):
    """Bootstrap confidence interval of a ranking metric, all replicates in compiled code.

    The rows are sorted once; every replicate is a vector of resample counts
    applied to the sorted tallies in O(n), and batches of replicates run on
    several threads.  No per-replicate sort and no per-replicate Python call.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Binary labels; the greater label is the positive class.
    y_score : array-like of shape (n_samples,) or (n_samples, n_classes)
        Scores (probabilities of the positive class for ``"log_loss"``,
        ``"brier"`` and ``"ece"``); with ``multi_class``, each class's
        probability (three columns or more), as :func:`roc_auc_score`
        takes them.
    metric : str, default="roc_auc"
        The metric resampled: ``"roc_auc"`` (:func:`roc_auc_score`),
        ``"average_precision"`` (:func:`average_precision_score`),
        ``"log_loss"`` (:func:`log_loss`), ``"brier"``
        (:func:`brier_score_loss`), ``"ece"`` (:func:`calibration_error`,
        15 bins, l1), or an operating point at the floor
        ``at``: ``"sensitivity_at_specificity"``,
        ``"specificity_at_sensitivity"``, ``"precision_at_recall"``,
        ``"recall_at_precision"`` (the value of :func:`sensitivity_at_specificity`
        and the others: each replicate finds its own best threshold), or
        ``"partial_auc"`` (:func:`partial_auc` over ``fpr_range`` or
        ``tpr_range``, pROC's ``ci.auc(partial.auc=...)``).  The
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
        ``"average_precision"``, ``"ece"``, ``"partial_auc"``, the operating
        points, with ``max_fpr`` or with ``cluster``.
    stratified : bool or None, default=None
        Multinomial scheme: resample positives and negatives separately
        (``True``, pROC's default, what ``None`` means), so every replicate
        has both classes, or together (``False``; replicates with one class
        are dropped and counted in ``n_dropped``).  The Poisson scheme and
        the clustered bootstrap are never stratified (``True`` raises).
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
    cluster : array-like of shape (n_samples,), default=None
        Cluster ids (integers, strings or real numbers): rows of a cluster
        (several lesions of a patient, several visits of a customer) are
        resampled together.  Multinomial scheme: each replicate draws as
        many clusters as there are, uniformly with replacement, and a row's
        count is its cluster's; this is not stratified by class (a cluster
        may hold both), so replicates with one class are dropped.  Poisson
        scheme: a cluster's count is a function of ``random_state``, the
        replicate and the cluster's id alone (an integer id is its own key,
        other ids a 64-bit hash of their value), so any partitioning of the
        rows gives the same replicates.
    fpr_range : (float, float), default=None
        With ``metric="partial_auc"``: the area under the ROC curve for FPR
        in this range (pROC's ``partial.auc.focus="specificity"``, the range
        ``1 - fpr_range`` of specificity); with neither range, the full AUC.
    tpr_range : (float, float), default=None
        With ``metric="partial_auc"``: the area of specificity against TPR
        for TPR in this range (pROC's ``partial.auc.focus="sensitivity"``).
        Give at most one of the two ranges.
    correct : bool, default=False
        With ``metric="partial_auc"``: McClish's standardisation of the
        estimate and of every replicate (pROC's ``partial.auc.correct``), as
        :func:`partial_auc` computes it.
    multi_class : {"raise", "ovr", "ovo"}, default="raise"
        For multiclass scores: the replicates of :func:`roc_auc_score` with
        this ``multi_class``, ``average`` and ``labels`` (``metric="roc_auc"``;
        the percentile or basic interval; no weights, clusters or ranges).
        Stratified, a replicate draws each class's size of rows from that
        class; otherwise all rows together, and replicates missing a class
        are dropped.  Each score column is sorted once.
    average : {"macro", "weighted"}, default="macro"
        The multiclass average.
    labels : array-like of shape (n_classes,), default=None
        The classes of the score columns, as :func:`roc_auc_score` takes
        them.

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
        ``stratified=False``, the Poisson scheme or clusters): the interval
        has no replicate to come from.  When ``cluster`` does not hold one
        id per row, holds NaN, or comes with ``stratified=True`` or
        ``method="bca"``; when ``fpr_range``/``tpr_range`` are not two
        different numbers in [0, 1], both are given, or are given with
        another metric than ``"partial_auc"``.
    TypeError
        When the cluster ids are not of one sortable type.

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
    ``sample_weight`` multiplied by their counts.  With ``cluster``, the
    multinomial replicate ``r`` draws the clusters (in the order of their
    sorted ids) as the unstratified bootstrap draws rows, and every row is
    repeated as often as its cluster was drawn.  A ``"partial_auc"``
    replicate is :func:`partial_auc` of the replicate's rows, from the same
    pass over the merged order as the partial AUC of ``max_fpr``.

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
    .. [6] Field, C. A. and Welsh, A. H. (2007). Bootstrapping clustered data.
       Journal of the Royal Statistical Society B 69, 369-390.
    .. [7] McClish, D. K. (1989). Analyzing a portion of the ROC curve.
       Medical Decision Making 9, 190-195.
    .. [8] Robin, X. et al. (2011). pROC: an open-source package for R and S+
       to analyze and compare ROC curves. BMC Bioinformatics 12, 77.

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
    >>> part = bootstrap_ci(y, s, metric="partial_auc", fpr_range=(0, 0.2), correct=True,
    ...                     n_resamples=200, random_state=1)
    >>> part.low < part.estimate < part.high
    True

    Three classes (the one-vs-rest AUC; each replicate draws each class's
    rows from that class):

    >>> y3 = rng.integers(0, 3, 300)
    >>> P = rng.dirichlet(np.ones(3), 300) + 0.3 * np.eye(3)[y3]
    >>> P /= P.sum(axis=1, keepdims=True)
    >>> res = bootstrap_ci(y3, P, multi_class="ovr", n_resamples=200, random_state=1)
    >>> round(res.estimate, 3), bool(res.low < res.estimate < res.high)
    (0.811, True)
    """
    if _multiclass_scores(y_score):
        _mc.check_options(metric, method, sample_weight, cluster, max_fpr=max_fpr, at=at,
                          fpr_range=fpr_range, tpr_range=tpr_range, correct=correct)
        n_resamples, level, stratified = _check_bootstrap_args(n_resamples, confidence_level,
                                                               method, stratified, scheme)
        reps, (est,) = _multiclass(y_true, [y_score], multi_class, average, labels,
                                   n_resamples, v.seed_from_random_state(random_state),
                                   stratified, scheme, progress)
        reps = reps[:, 0]
        if math.isnan(est) or not np.isfinite(reps).any():
            nan = math.nan
            return BootstrapResult(est, nan, nan, nan, method, level, n_resamples,
                                   n_resamples, metric, reps)
        low, high, se, n_dropped = _summarise(reps, est, level, method, None)
        return BootstrapResult(est, low, high, se, method, level, n_resamples, n_dropped,
                               metric, reps)
    stratified = _cluster_stratified(cluster, stratified, method)
    n_resamples, level, stratified = _check_bootstrap_args(n_resamples, confidence_level,
                                                           method, stratified, scheme)
    spec = _Spec(metric, max_fpr, method, at, fpr_range, tpr_range, correct)
    seed = v.seed_from_random_state(random_state)
    rows = _bootstrap_rows(y_true, [y_score], ["y_score"], sample_weight)
    clusters = None if cluster is None else _cluster_ids(cluster, rows.is_pos.shape[0])
    undefined = _undefined(rows, metric)
    if undefined is not None:
        return _undefined_result(undefined, False, method, level, n_resamples, metric)
    # row indices only where a replicate or the weights need them
    # partial AUC and operating points: the merged order
    row_index = scheme == "poisson" or spec.code in _MERGED_CODES
    prep = _prepare_rows(rows, ["y_score"], metric, stratified, row_index, keys=False,
                         clusters=clusters)
    reps = spec.replicates(prep, n_resamples, seed, progress, scheme)[:, 0]
    estimate = spec.estimate(rows, 0, prep)
    low, high, se, n_dropped = _summarise(
        reps, estimate, level, method,
        lambda: _jack_groups(prep, _jackknife(prep.models[0], metric), stratified))
    return BootstrapResult(estimate, low, high, se, method, level, n_resamples, n_dropped,
                           metric, reps)


def _multiclass(y_true, scores, multi_class, average, labels, n_resamples, seed, stratified,
                scheme, progress):
    """Replicates (n_resamples, len(scores)) and estimates (roc_auc_score's
    floats) of multiclass models scored on the same rows; NaN replicates,
    with a warning, when a class of ``labels`` has no rows."""
    from .ranking import roc_auc_score

    lay = _mc.layout(y_true, scores, multi_class, average, labels)
    est = [roc_auc_score(y_true, S, multi_class=multi_class, average=average, labels=labels)
           for S in scores]
    if lay is None:
        _mc.absent_class_warning()
        return np.full((n_resamples, len(scores)), math.nan), est
    return _mc.replicates(lay, n_resamples, seed, stratified, scheme, progress), est


class _Spec:
    """The checked metric: its kernel code and parameter, and for
    ``"partial_auc"`` its range (the kernel's area, corrected here)."""

    def __init__(self, metric, max_fpr, method, at, fpr_range, tpr_range, correct):
        self.metric = metric
        self.code, self.param = _metric_code(metric, max_fpr, method, at)
        self.range = _partial_range(metric, fpr_range, tpr_range, correct, max_fpr, at, method)
        self.bounds = (0.0, 1.0)
        if self.range is not None:
            self.code, self.param = self.range.code, self.range.hi
            self.bounds = (self.range.lo, self.range.hi)

    def replicates(self, prep, n_resamples, seed, progress, scheme):
        reps = _run_replicates(prep, self.code, self.param, n_resamples, seed, progress,
                               scheme, self.bounds)
        return reps if self.range is None else self.range.corrected(reps)

    def estimate(self, rows, j, prep, model=None):
        model = prep.models[j] if model is None else model
        return _point_estimate(rows, j, model, self.metric,
                               self.param if self.range is None else self.range)


def _cluster_stratified(cluster, stratified, method):
    """``stratified`` for the clustered bootstrap (False: clusters are drawn
    whole, not by class) after its checks; unchanged without clusters."""
    if cluster is None:
        return stratified
    if stratified:
        raise ValueError("cluster= resamples whole clusters, which may hold both classes: the "
                         "replicates cannot be stratified by class; leave stratified=None "
                         "(or False)")
    if method == "bca":
        raise ValueError("method='bca' is not available with cluster= (its jackknife would "
                         "leave out whole clusters); use 'percentile' or 'basic'")
    return False


def _summarise(values, estimate, level, method, groups, alternative="two-sided"):
    """Interval, standard error and number dropped, from replicate values (NaN:
    dropped); ``groups()`` gives the leave-one-out values for BCa, grouped by
    sample (``_jack_groups``)."""
    good = values[np.isfinite(values)]
    if good.shape[0] == 0:
        raise ValueError("every bootstrap replicate had a single class; use stratified=True "
                         "(scheme='multinomial')")
    low, high = _interval(good, estimate, level, method,
                          groups() if method == "bca" else None, alternative)
    se = float(good.std(ddof=1)) if good.shape[0] > 1 else math.nan
    return low, high, se, int(values.shape[0] - good.shape[0])


@dispatch("y_score_a", "y_score_b")
def bootstrap_test(y_true, y_score_a, y_score_b, *, metric="roc_auc", n_resamples=1000,
                   confidence_level=0.95, method="percentile", stratified=None,
                   alternative="two-sided", sample_weight=None, random_state=None, max_fpr=None,
                   progress=False, scheme="multinomial", at=None, y_true_b=None,
                   sample_weight_b=None, margin=0.0, cluster=None, fpr_range=None,
                   tpr_range=None, correct=False, multi_class="raise", average="macro",
                   labels=None):
    """Bootstrap comparison of two models: on the same rows (paired) or on two data sets.

    Paired (the default): each replicate resamples the rows once and
    evaluates both models on that resample, so the difference keeps the
    models' correlation.  Unpaired (``y_true_b`` given): model b is scored on
    rows of its own, and each replicate resamples each data set on its own.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Binary labels; the greater label is the positive class.
    y_score_a, y_score_b : array-like of shape (n_samples,)
        Scores of the two models (``y_score_b`` of shape (n_samples_b,) with
        ``y_true_b``).
    metric : str, default="roc_auc"
        The metric compared (as in :func:`bootstrap_ci`, operating points
        at the floor ``at`` and ``"partial_auc"`` over a range included).
    n_resamples : int, default=1000
        Number of bootstrap replicates (positive).
    confidence_level : float, default=0.95
        Level of the interval of the difference, in (0, 1).
    method : {"percentile", "basic", "bca"}, default="percentile"
        How the interval of the difference is formed from the replicate
        differences (as in :func:`bootstrap_ci`; ``"bca"`` uses the
        leave-one-out differences, or unpaired the leave-one-out values of
        each data set as two samples).
    stratified : bool or None, default=None
        Resample positives and negatives separately (``True``, what ``None``
        means for the multinomial scheme; unpaired, within each data set, as
        pROC's unpaired bootstrap) or together (``False``); the Poisson
        scheme and the clustered bootstrap are never stratified.
    alternative : {"two-sided", "less", "greater"}, default="two-sided"
        ``"greater"``: H1 is ``metric_a - metric_b > margin``; ``"less"``: H1
        is ``metric_a - metric_b < margin``.  A one-sided alternative gives a
        one-sided interval.
    sample_weight : array-like of shape (n_samples,), default=None
        Rows are resampled with their weights; each model's replicate is the
        weighted metric of the resampled rows.
    random_state : None, int, numpy Generator, RandomState or SeedSequence, default=None
        Seeds every replicate's own random stream (as in :func:`bootstrap_ci`).
        Unpaired, data set a's replicate ``r`` is the one :func:`bootstrap_ci`
        draws with this ``random_state``, and data set b's comes from a second
        64-bit seed derived from it (SplitMix64's finaliser of the seed XOR a
        fixed constant), so the two sets' draws are independent and the
        result depends on ``random_state`` alone, not on the threads.
    max_fpr : float in (0, 1], default=None
        With ``metric="roc_auc"``, compare the standardised partial AUCs up
        to this false positive rate.
    progress : bool, default=False
        Show a tqdm progress bar when the optional ``tqdm`` is installed.
    scheme : {"multinomial", "poisson"}, default="multinomial"
        The resampling scheme (as in :func:`bootstrap_ci`); with
        ``"poisson"`` a row has the same count under both models (paired),
        or each data set's rows their own counts (unpaired).
    at : float in [0, 1], default=None
        The floor of an operating-point metric (as in :func:`bootstrap_ci`).
    y_true_b : array-like of shape (n_samples_b,), default=None
        The labels of the rows model b is scored on, when they are not model
        a's (an unpaired comparison: two studies, two time periods; any
        length).  None: a paired comparison on ``y_true``'s rows.
    sample_weight_b : array-like of shape (n_samples_b,), default=None
        The weights of ``y_true_b``'s rows (unpaired only; ``sample_weight``
        then weighs ``y_true``'s rows only).
    margin : float, default=0.0
        The difference ``metric_a - metric_b`` under the null hypothesis:
        ``statistic = (difference - margin) / se``.  Non-inferiority of a
        to b within ``delta > 0``: ``margin=-delta, alternative="greater"``;
        superiority by at least ``delta``: ``margin=delta,
        alternative="greater"``.  The interval of the difference does not
        depend on it (H0 is rejected at level ``1 - confidence_level`` when
        it excludes ``margin``, for the percentile and basic intervals up to
        the normal approximation of the p-value).
    cluster : array-like of shape (n_samples,), default=None
        Cluster ids of the rows (paired only): each replicate resamples
        whole clusters for both models, as in :func:`bootstrap_ci`.
    fpr_range, tpr_range : (float, float), default=None
        The range of ``metric="partial_auc"`` (as in :func:`bootstrap_ci`).
    correct : bool, default=False
        McClish's standardisation of ``"partial_auc"`` (as in :func:`bootstrap_ci`).
    multi_class : {"raise", "ovr", "ovo"}, default="raise"
        For two multiclass models (three score columns or more each): their
        :func:`roc_auc_score` with this ``multi_class``, ``average`` and
        ``labels`` compared, paired (one set of counts for both) or
        unpaired, as in :func:`bootstrap_ci`.
    average : {"macro", "weighted"}, default="macro"
        The multiclass average.
    labels : array-like of shape (n_classes,), default=None
        The classes of the score columns.

    Returns
    -------
    BootstrapTestResult
        ``difference`` (a - b on all rows), its interval ``low``/``high``,
        ``se`` (standard deviation of the replicate differences),
        ``statistic = (difference - margin) / se`` and its normal ``pvalue``
        (pROC's bootstrap test), ``estimate_a``, ``estimate_b`` (each the
        float the in-memory metric returns) and ``replicates`` of shape
        (n_resamples, 2).  When ``y_true`` (or ``y_true_b``) has one class
        only, or one class has zero weight in all, every number is NaN
        (``n_dropped`` is ``n_resamples``), as :func:`bootstrap_ci`.

    Raises
    ------
    ValueError
        When every replicate drew a single class; when ``sample_weight_b``
        comes without ``y_true_b``, ``cluster`` with ``y_true_b``, or
        ``margin`` is not a finite number; and as :func:`bootstrap_ci`.

    Warns
    -----
    UndefinedMetricWarning
        When ``y_true`` (or ``y_true_b``) has one class only, or one class
        has zero weight in all.

    See Also
    --------
    delong_test : DeLong's paired test of two AUCs (no resampling).
    bootstrap_ci : The interval of one model's metric.

    Notes
    -----
    Unpaired, the replicate difference is ``metric_a(resample of set a) -
    metric_b(resample of set b)``, the two resamples independent (pROC's
    ``roc.test(method="bootstrap", paired=FALSE)``); its standard deviation
    estimates ``sqrt(var_a + var_b)``.

    References
    ----------
    .. [1] Hanley, J. A. and McNeil, B. J. (1983). A method of comparing the areas
       under receiver operating characteristic curves derived from the same
       cases. Radiology 148, 839-843.
    .. [2] Robin, X. et al. (2011). pROC. BMC Bioinformatics 12, 77.
    .. [3] Efron, B. and Tibshirani, R. J. (1993). An Introduction to the
       Bootstrap. Chapman & Hall.
    .. [4] Field, C. A. and Welsh, A. H. (2007). Bootstrapping clustered data.
       Journal of the Royal Statistical Society B 69, 369-390.

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

    Model b on other rows (unpaired), and a non-inferiority test of a to b
    within 0.05:

    >>> y2 = rng.integers(0, 2, 300)
    >>> b2 = y2 + 2 * rng.normal(size=300)
    >>> res = bootstrap_test(y, a, b2, y_true_b=y2, n_resamples=200, random_state=1,
    ...                      margin=-0.05, alternative="greater")
    >>> res.pvalue < 0.05
    True
    """
    if _multiclass_scores(y_score_a) or _multiclass_scores(y_score_b):
        _mc.check_options(metric, method, sample_weight, cluster, max_fpr=max_fpr, at=at,
                          fpr_range=fpr_range, tpr_range=tpr_range, correct=correct,
                          sample_weight_b=sample_weight_b)
    stratified = _cluster_stratified(cluster, stratified, method)
    n_resamples, level, stratified = _check_bootstrap_args(n_resamples, confidence_level,
                                                           method, stratified, scheme)
    v.check_choice(alternative, "alternative", _ALTERNATIVES)
    margin = _check_margin(margin)
    if _multiclass_scores(y_score_a) or _multiclass_scores(y_score_b):
        seed = v.seed_from_random_state(random_state)
        args = (multi_class, average, labels, n_resamples)
        if y_true_b is None:
            reps, est = _multiclass(y_true, [y_score_a, y_score_b], *args, seed, stratified,
                                    scheme, progress)
        else:
            (ra, (ea,)), (rb, (eb,)) = (
                _multiclass(y, [sc], *args, sd, stratified, scheme, progress)
                for y, sc, sd in ((y_true, y_score_a, seed),
                                  (y_true_b, y_score_b, _second_seed(seed))))
            reps, est = np.column_stack((ra[:, 0], rb[:, 0])), [ea, eb]
        if math.isnan(est[0] - est[1]) or not np.isfinite(reps[:, 0] - reps[:, 1]).any():
            nan = math.nan
            return BootstrapTestResult(nan, nan, est[0] - est[1], nan, nan, nan, est[0],
                                       est[1], method, alternative, level, n_resamples,
                                       n_resamples, metric, reps)
        return _test_result(reps, est[0], est[1], level, method, None, alternative, margin,
                            metric)
    spec = _Spec(metric, max_fpr, method, at, fpr_range, tpr_range, correct)
    seed = v.seed_from_random_state(random_state)
    if y_true_b is not None:
        if cluster is not None:
            raise ValueError("cluster= applies to the paired comparison (rows shared by both "
                             "models), not with y_true_b")
        return _unpaired(spec, y_true, y_score_a, y_true_b, y_score_b, sample_weight,
                         sample_weight_b, n_resamples, level, method, stratified, alternative,
                         seed, progress, scheme, margin)
    if sample_weight_b is not None:
        raise ValueError("sample_weight_b weighs the rows of y_true_b (an unpaired "
                         "comparison): give y_true_b too, or use sample_weight for the "
                         "shared rows")
    names = ["y_score_a", "y_score_b"]
    rows = _bootstrap_rows(y_true, [y_score_a, y_score_b], names, sample_weight)
    clusters = None if cluster is None else _cluster_ids(cluster, rows.is_pos.shape[0])
    undefined = _undefined(rows, metric)
    if undefined is not None:
        return _undefined_result(undefined, True, method, level, n_resamples, metric,
                                 alternative)
    prep = _prepare_rows(rows, names, metric, stratified, keys=False, clusters=clusters)
    reps = spec.replicates(prep, n_resamples, seed, progress, scheme)
    est_a, est_b = (spec.estimate(rows, j, prep) for j in (0, 1))

    def jackknife_difference():
        jk_b = np.empty(prep.n)
        jk_b[prep.models[1].lay.rows] = _jackknife(prep.models[1], metric)
        diff = _jackknife(prep.models[0], metric) - jk_b[prep.models[0].lay.rows]
        return _jack_groups(prep, diff, stratified)

    return _test_result(reps, est_a, est_b, level, method, jackknife_difference, alternative,
                        margin, metric)


def _check_margin(margin) -> float:
    if isinstance(margin, (bool, np.bool_)) or not isinstance(margin, (int, float, np.number)) \
            or not math.isfinite(margin):
        raise ValueError(f"margin must be a finite number, got {v.plain(margin)!r}")
    return float(margin)


def _unpaired(spec, y_true, y_score_a, y_true_b, y_score_b, sample_weight, sample_weight_b,
              n_resamples, level, method, stratified, alternative, seed, progress, scheme,
              margin):
    """``bootstrap_test`` of two data sets: each resampled on its own, set b
    from its own stream (``second_seed``)."""
    metric = spec.metric
    rows = [_bootstrap_rows(y_true, [y_score_a], ["y_score_a"], sample_weight),
            _bootstrap_rows(y_true_b, [y_score_b], ["y_score_b"], sample_weight_b)]
    for r in rows:
        undefined = _undefined(r, metric)
        if undefined is not None:
            return _undefined_result(undefined, True, method, level, n_resamples, metric,
                                     alternative)
    row_index = scheme == "poisson" or spec.code in _MERGED_CODES
    preps = [_prepare_rows(r, [nm], metric, stratified, row_index, keys=False)
             for r, nm in zip(rows, ["y_score_a", "y_score_b"])]
    reps = np.column_stack([spec.replicates(p, n_resamples, s, progress, scheme)[:, 0]
                            for p, s in zip(preps, (seed, _second_seed(seed)))])
    est_a, est_b = (spec.estimate(r, 0, p) for r, p in zip(rows, preps))

    def groups():  # two samples: the acceleration adds up each one's (a's, then minus b's)
        ga = _jack_groups(preps[0], _jackknife(preps[0].models[0], metric), stratified)
        gb = _jack_groups(preps[1], _jackknife(preps[1].models[0], metric), stratified)
        return ga + [-g for g in gb]

    return _test_result(reps, est_a, est_b, level, method, groups, alternative, margin, metric)


def _test_result(reps, est_a, est_b, level, method, groups, alternative, margin, metric):
    d = est_a - est_b
    low, high, se, n_dropped = _summarise(reps[:, 0] - reps[:, 1], d, level, method, groups,
                                          alternative)
    shift = d - margin
    z = 0.0 if shift == 0.0 and se == 0.0 else _ratio(shift, se)
    return BootstrapTestResult(z, _pvalue(z, alternative), d, low, high, se, est_a, est_b,
                               method, alternative, level, int(reps.shape[0]), n_dropped, metric,
                               reps)
