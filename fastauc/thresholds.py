"""Operating points: confusion-matrix metrics at every threshold, the best
threshold, lift and gains, the ROC convex hull and the Gini coefficient.

Everything comes from the same sort and sweep as ``roc_curve``: for every
distinct score ``t`` (highest first) the sweep gives the weights ``tp(t)``
and ``fp(t)`` of the positives and negatives with ``score >= t``; with the
class totals that is the confusion matrix at every threshold at once.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ._device import dispatch
from . import _validation as v
from ._curves import check_best_args, gains, lifts, threshold_tallies
from ._kernels.table import band_area
from ._kernels.sorting import keys_to_floats
from ._kernels.thresholds import best_index, upper_hull
from ._results import GainsTable, ThresholdMetrics
from .ranking import roc_auc_score

__all__ = [
    "BestThreshold",
    "ConvexHull",
    "GainsTable",
    "ThresholdMetrics",
    "best_threshold",
    "gains_table",
    "gini",
    "lift_at",
    "partial_auc",
    "roc_convex_hull",
    "threshold_metrics",
]


@dispatch("y_score")
def threshold_metrics(y_true, y_score, *, sample_weight=None, pos_label=None):
    """Confusion-matrix metrics at every distinct threshold, from one sort.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True binary labels: {0, 1} or {-1, 1}, or give ``pos_label``.
    y_score : array-like of shape (n_samples,)
        Scores; row ``i`` is predicted positive at threshold ``t`` when
        ``y_score[i] >= t``.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative sample weights; the counts become sums of weights.
    pos_label : int, float, bool or str, default=None
        The label of the positive class (labels {0, 1} or {-1, 1} need none).

    Returns
    -------
    ThresholdMetrics
        Arrays with one entry per distinct score, thresholds decreasing:
        ``threshold``, ``tp``, ``fp``, ``tn``, ``fn`` (weighted counts),
        ``tpr``/``recall``/``sensitivity``, ``fpr``, ``tnr``/``specificity``,
        ``fnr``, ``precision``/``ppv``, ``npv``, ``accuracy``, ``error_rate``,
        ``f1``, ``mcc``, ``youden``, ``lift``, ``predicted_positive_rate``,
        and the method ``fbeta(beta)``.  Each equals scikit-learn's metric on
        ``y_pred = y_score >= threshold`` with ``zero_division=0``.

    See Also
    --------
    best_threshold : The threshold that maximises one of these metrics.
    roc_curve : The (fpr, tpr) points alone.
    precision_recall_curve : The (precision, recall) points alone.
    precision_recall_fscore_support : The metrics of one fixed prediction.

    Examples
    --------
    >>> from fastauc import threshold_metrics
    >>> m = threshold_metrics([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    >>> m.threshold
    array([0.8 , 0.4 , 0.35, 0.1 ])
    >>> m.precision
    array([1.        , 0.5       , 0.66666667, 0.5       ])
    >>> m.f1
    array([0.66666667, 0.5       , 0.8       , 0.66666667])
    """
    return ThresholdMetrics(*threshold_tallies(y_true, y_score, sample_weight, pos_label))


@dataclass(frozen=True)
class BestThreshold:
    """Result of :func:`best_threshold`.

    Unpacks as ``threshold, value, metric``, like a named tuple.

    Attributes
    ----------
    threshold : float
        The best threshold: predict positive when ``score >= threshold``.
    value : float
        The metric there; for ``"cost"`` the cost ``cost_fp * FP + cost_fn *
        FN`` and for ``"closest_topleft"`` the squared distance ``(1 - tpr)^2
        + fpr^2``, both minimised.
    metric : str
        The metric optimised.

    See Also
    --------
    best_threshold : The function returning this record.
    threshold_metrics : Every metric at every threshold.

    Examples
    --------
    >>> from fastauc import best_threshold
    >>> threshold, value, metric = best_threshold([0, 0, 1, 1, 0, 1],
    ...                                           [0.1, 0.4, 0.35, 0.8, 0.2, 0.7])
    >>> threshold, round(value, 4), metric
    (0.35, 0.8571, 'f1')
    """

    threshold: float
    value: float  #: the metric there (for "cost": the cost; "closest_topleft": the distance^2)
    metric: str

    def __iter__(self):
        return iter((self.threshold, self.value, self.metric))


@dispatch("y_score")
def best_threshold(y_true, y_score, *, metric="f1", beta=1.0, sample_weight=None, cost_fp=None,
                   cost_fn=None, pos_label=None):
    """The threshold that maximises a metric over every distinct threshold.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True binary labels: {0, 1} or {-1, 1}, or give ``pos_label``.
    y_score : array-like of shape (n_samples,)
        Scores of the positive class (probabilities or decision values).
    metric : {"f1", "fbeta", "mcc", "youden", "accuracy", "closest_topleft", "cost"}, \
default="f1"
        The metric maximised: F1, F-beta, Matthews correlation coefficient,
        Youden's J (sensitivity + specificity - 1) or accuracy.
        ``"closest_topleft"`` minimises ``(1 - tpr)^2 + fpr^2`` (pROC's
        "closest.topleft"); ``"cost"`` minimises ``cost_fp * FP + cost_fn * FN``.
    beta : float, default=1.0
        Weight of recall for ``metric="fbeta"`` (positive).
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative sample weights; the counts become sums of weights.
    cost_fp, cost_fn : float, default=None
        Cost of a false positive and of a false negative, for
        ``metric="cost"`` only (both required there, finite and non-negative).
    pos_label : int, float, bool or str, default=None
        The label of the positive class (labels {0, 1} or {-1, 1} need none).

    Returns
    -------
    BestThreshold
        ``(threshold, value, metric)``; among equally good thresholds the
        highest is returned.

    See Also
    --------
    threshold_metrics : Every metric at every threshold.
    roc_curve : The ROC points the thresholds come from.

    References
    ----------
    .. [1] Youden, W. J. (1950). Index for rating diagnostic tests. Cancer 3, 32-35.
    .. [2] Perkins, N. J. and Schisterman, E. F. (2006). The inconsistency of
       "optimal" cutpoints obtained using two criteria based on the receiver
       operating characteristic curve. Am. J. Epidemiol. 163, 670-675.

    Examples
    --------
    >>> from fastauc import best_threshold
    >>> best = best_threshold([0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.2, 0.7],
    ...                       metric="youden")
    >>> best.threshold, round(best.value, 6)
    (0.7, 0.666667)
    >>> best_threshold([0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.2, 0.7],
    ...                metric="cost", cost_fp=1, cost_fn=5)
    BestThreshold(threshold=0.35, value=1.0, metric='cost')
    """
    code = check_best_args(metric, beta, cost_fp, cost_fn)
    keys, tps, fps, total_p, total_n = threshold_tallies(y_true, y_score, sample_weight,
                                                         pos_label, keys=True)
    i, best = best_index(tps, fps, total_p, total_n, code, float(beta),
                         float(cost_fp or 0.0), float(cost_fn or 0.0))
    if metric in ("cost", "closest_topleft"):
        best = -best
    threshold = keys_to_floats(keys[i:i + 1], np.empty(1, np.uint64))[0]  # the one needed
    return BestThreshold(float(threshold), float(best), metric)


@dispatch("y_score")
def gini(y_true, y_score, *, sample_weight=None):
    """Gini coefficient ``2 * AUC - 1`` (the accuracy ratio), weighted.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True binary labels; the greater label is the positive class, as in
        :func:`roc_auc_score`.
    y_score : array-like of shape (n_samples,)
        Scores of the positive class (probabilities or decision values).
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative sample weights; the counts become sums of weights.

    Returns
    -------
    float
        ``2 * roc_auc_score(y_true, y_score, sample_weight=sample_weight) - 1``,
        in [-1, 1]: 0 for a random ordering, 1 for a perfect one.  NaN, with
        an :class:`UndefinedMetricWarning`, when ``y_true`` has one class only.

    See Also
    --------
    roc_auc_score : The AUC the coefficient is computed from.
    roc_auc_ci : The AUC with a confidence interval (map it by ``2 * x - 1``).
    report : Gini among the other summaries of one or several models.

    Examples
    --------
    >>> from fastauc import gini
    >>> round(gini([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8]), 6)
    0.5
    """
    return 2.0 * roc_auc_score(y_true, y_score, sample_weight=sample_weight) - 1.0


# ------------------------------------------------------------------ lift and gains


@dispatch("y_score")
def lift_at(y_true, y_score, k, *, sample_weight=None, pos_label=None):
    """Lift in the top fraction ``k`` of rows: their positive rate over the overall rate.

    Rows tied at the cut count in proportion to the part of their group that
    falls inside the top ``k`` (averaging over the orders of tied rows),
    never by an arbitrary order.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True binary labels: {0, 1} or {-1, 1}, or give ``pos_label``.
    y_score : array-like of shape (n_samples,)
        Scores of the positive class (probabilities or decision values).
    k : float in (0, 1]
        Fraction of the (weighted) rows, highest scores first.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative sample weights; the counts become sums of weights.
    pos_label : int, float, bool or str, default=None
        The label of the positive class (labels {0, 1} or {-1, 1} need none).

    Returns
    -------
    float
        The positive rate of the top ``k`` over the overall positive rate:
        1 for a random ordering, at most ``1 / base rate``.

    Raises
    ------
    ValueError
        If ``k`` is not in (0, 1], or ``y_true`` has no positive (with
        positive weight).

    See Also
    --------
    gains_table : The lift of every bin, and the cumulative gains.
    plot_gains : The gains curve and lift chart.
    threshold_metrics : ``lift`` at every threshold.

    Examples
    --------
    >>> from fastauc import lift_at
    >>> lift_at([1, 0, 1, 0, 0, 0, 0, 0, 0, 0], [9, 8, 7, 6, 5, 4, 3, 2, 1, 0], 0.2)
    2.5
    """
    if isinstance(k, bool) or not isinstance(k, (int, float, np.number)) or not 0 < k <= 1:
        raise ValueError(f"k must be a fraction in (0, 1], got {v.plain(k)!r}")
    _, tps, fps, total_p, total_n = threshold_tallies(y_true, y_score, sample_weight, pos_label,
                                                      keys=True)
    return lifts(tps, fps, total_p, total_n, (k,))[k]


@dispatch("y_score")
def gains_table(y_true, y_score, *, n_bins=10, sample_weight=None, pos_label=None):
    """Cumulative gains and lift by bins of equal (weighted) size, highest scores first.

    Bin edges that fall inside a group of tied scores split the group in
    proportion, so the table does not depend on the order of tied rows
    (counts can then be fractional).

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True binary labels: {0, 1} or {-1, 1}, or give ``pos_label``.
    y_score : array-like of shape (n_samples,)
        Scores of the positive class (probabilities or decision values).
    n_bins : int, default=10
        Number of bins of equal (weighted) size: deciles by default.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative sample weights; the counts become sums of weights.
    pos_label : int, float, bool or str, default=None
        The label of the positive class (labels {0, 1} or {-1, 1} need none).

    Returns
    -------
    GainsTable
        Arrays of length ``n_bins``: ``bin``, ``count``, ``positives``,
        ``rate``, ``cumulative_gain``, ``lift``, ``cumulative_lift``, and the
        overall ``base_rate``; ``str()`` prints the table.

    Raises
    ------
    ValueError
        If ``y_true`` has no positive (with positive weight).

    See Also
    --------
    lift_at : The lift of one top fraction.
    plot_gains : The gains curve and lift chart.
    threshold_metrics : Confusion-matrix metrics at every threshold.

    Examples
    --------
    >>> from fastauc import gains_table
    >>> g = gains_table([1, 0, 1, 0, 0, 0, 0, 0, 0, 1], list(range(10, 0, -1)), n_bins=5)
    >>> g.positives
    array([1., 1., 0., 0., 1.])
    >>> g.cumulative_gain
    array([0.33333333, 0.66666667, 0.66666667, 0.66666667, 1.        ])
    """
    n_bins = v.check_positive_int(n_bins, "n_bins")
    return gains(*threshold_tallies(y_true, y_score, sample_weight, pos_label, keys=True)[1:],
                 n_bins)


# ------------------------------------------------------------------ convex hull

@dataclass(frozen=True)
class ConvexHull:
    """The ROC convex hull (:func:`roc_convex_hull`).

    Attributes
    ----------
    fpr : ndarray of shape (n_vertices,)
        False positive rates of the hull's vertices, from 0 to 1.
    tpr : ndarray of shape (n_vertices,)
        True positive rates of the vertices, from 0 to 1.
    thresholds : ndarray of shape (n_vertices,)
        Score of each vertex (``inf`` for the vertex (0, 0)).
    auc : float
        Area under the hull, at least the ROC AUC.

    See Also
    --------
    roc_convex_hull : The function returning this record.
    roc_curve : The ROC points the hull is drawn around.

    Examples
    --------
    >>> from fastauc import roc_convex_hull
    >>> hull = roc_convex_hull([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    >>> hull.thresholds, hull.auc
    (array([ inf, 0.8 , 0.35, 0.1 ]), 0.875)
    """

    fpr: np.ndarray
    tpr: np.ndarray
    thresholds: np.ndarray  #: score of each hull vertex (inf for (0, 0))
    auc: float  #: area under the hull, >= the ROC AUC


@dispatch("y_score")
def roc_convex_hull(y_true, y_score, *, sample_weight=None, pos_label=None):
    """Vertices of the ROC convex hull and the area under it.

    Every point on the hull is reachable by randomising between the two
    thresholds at the ends of its segment (Provost & Fawcett 2001), so the
    hull's area is at least the AUC.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True binary labels: {0, 1} or {-1, 1}, or give ``pos_label``.
    y_score : array-like of shape (n_samples,)
        Scores of the positive class (probabilities or decision values).
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative sample weights; the counts become sums of weights.
    pos_label : int, float, bool or str, default=None
        The label of the positive class (labels {0, 1} or {-1, 1} need none).

    Returns
    -------
    ConvexHull
        ``fpr``, ``tpr``, ``thresholds`` of the vertices from (0, 0) to
        (1, 1), and ``auc``.

    Raises
    ------
    ValueError
        If ``y_true`` lacks a class (or a class has no weight).

    See Also
    --------
    roc_curve : The ROC points.
    roc_auc_score : The area under the ROC curve itself.

    References
    ----------
    .. [1] Provost, F. and Fawcett, T. (2001). Robust classification for
       imprecise environments. Machine Learning 42, 203-231.

    Examples
    --------
    >>> from fastauc import roc_convex_hull
    >>> hull = roc_convex_hull([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    >>> hull.fpr, hull.tpr, hull.auc
    (array([0. , 0. , 0.5, 1. ]), array([0. , 0.5, 1. , 1. ]), 0.875)
    """
    thr, tps, fps, total_p, total_n = threshold_tallies(y_true, y_score, sample_weight, pos_label)
    if total_p <= 0 or total_n <= 0:
        raise ValueError("the ROC convex hull needs both classes (with positive weight)")
    # the turns are decided on the weights (exact integers when unweighted: three
    # collinear points stay collinear, which the rates, rounded, may not be)
    idx = upper_hull(np.concatenate(([0.0], fps)), np.concatenate(([0.0], tps)))
    hx = np.concatenate(([0.0], fps / total_n))[idx]
    hy = np.concatenate(([0.0], tps / total_p))[idx]
    area = float(np.sum(np.diff(hx) * (hy[1:] + hy[:-1])) / 2.0)
    return ConvexHull(hx, hy, np.concatenate(([np.inf], thr))[idx], area)


# ------------------------------------------------------------------ partial AUC

def _check_range(r, name):
    try:
        lo, hi = sorted(float(x) for x in r)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be a pair of numbers in [0, 1], got {r!r}") from None
    if not (0.0 <= lo < hi <= 1.0):
        shown = tuple(v.plain(x) for x in r) if isinstance(r, (tuple, list)) else r
        raise ValueError(f"{name} must be two different numbers in [0, 1], got {shown!r}")
    return lo, hi


@dispatch("y_score")
def partial_auc(y_true, y_score, *, fpr_range=None, tpr_range=None, correct=False,
                sample_weight=None, pos_label=None):
    """Partial area under the ROC curve over a range of FPR or of TPR (pROC's definition).

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True binary labels: {0, 1} or {-1, 1}, or give ``pos_label``.
    y_score : array-like of shape (n_samples,)
        Scores of the positive class (probabilities or decision values).
    fpr_range : (float, float), optional
        Area under the ROC curve (TPR against FPR) for FPR in this range:
        pROC's ``partial.auc = c(1 - fpr_range)``, ``partial.auc.focus =
        "specificity"``.
    tpr_range : (float, float), optional
        Area of specificity (1 - FPR) against sensitivity (TPR) for TPR in
        this range: pROC's ``partial.auc.focus = "sensitivity"``.  Give at
        most one of the two ranges; with neither, the full AUC.
    correct : bool, default=False
        McClish's standardisation ``(1 + (A - min) / (max - min)) / 2``: 0.5
        for a useless test, 1 for a perfect one (``min`` is the area of the
        chance diagonal over the range, ``max`` the range's width).  With
        ``fpr_range=(0, m)`` this is ``roc_auc_score(max_fpr=m)``.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative sample weights; the counts become sums of weights.
    pos_label : int, float, bool or str, default=None
        The label of the positive class (labels {0, 1} or {-1, 1} need none).

    Returns
    -------
    float
        The un-normalised area (at most the width of the range), or the
        corrected value.  NaN, with an :class:`UndefinedMetricWarning`, when
        ``y_true`` has one class only.

    See Also
    --------
    roc_auc_score : The full AUC, or with ``max_fpr`` McClish's corrected
        partial AUC from FPR 0.
    roc_curve : The ROC points the area is computed from.

    Notes
    -----
    The curve is the ROC polyline through every distinct threshold,
    interpolated linearly between points, exactly as pROC does at the ends
    of the range; vertical (horizontal) pieces add no area.

    References
    ----------
    .. [1] McClish, D. K. (1989). Analyzing a portion of the ROC curve.
       Medical Decision Making 9, 190-195.
    .. [2] Robin, X. et al. (2011). pROC. BMC Bioinformatics 12, 77.

    Examples
    --------
    >>> from fastauc import partial_auc
    >>> y, s = [0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.2, 0.7]
    >>> round(partial_auc(y, s, fpr_range=(0, 0.5)), 6)
    0.388889
    >>> round(partial_auc(y, s, tpr_range=(0.9, 1.0), correct=True), 6)
    0.824561
    """
    if fpr_range is not None and tpr_range is not None:
        raise ValueError("give fpr_range or tpr_range, not both")
    _, tps, fps, total_p, total_n = threshold_tallies(y_true, y_score, sample_weight, pos_label,
                                                      keys=True)
    if total_p <= 0 or total_n <= 0:
        v.warn_undefined("Only one class is present in y_true (or has weight). Partial AUC "
                         "is not defined in that case.")
        return float("nan")
    fpr = np.concatenate(([0.0], fps / total_n))
    tpr = np.concatenate(([0.0], tps / total_p))
    if tpr_range is not None:
        lo, hi = _check_range(tpr_range, "tpr_range")
        area = band_area(tpr, 1.0 - fpr, lo, hi)
        chance = (hi - lo) - (hi * hi - lo * lo) / 2.0  # area of 1 - t over the range
    else:
        lo, hi = (0.0, 1.0) if fpr_range is None else _check_range(fpr_range, "fpr_range")
        area = band_area(fpr, tpr, lo, hi)
        chance = (hi * hi - lo * lo) / 2.0
    if not correct:
        return area
    width = hi - lo
    return float((1.0 + (area - chance) / (width - chance)) / 2.0)

