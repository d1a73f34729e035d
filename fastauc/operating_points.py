"""Operating points: the best value of one rate subject to a floor on another.

``sensitivity_at_specificity``, ``specificity_at_sensitivity``,
``precision_at_recall`` and ``recall_at_precision`` follow torchmetrics'
binary ``*_at_specificity`` / ``*_at_fixed_*`` rules; ``confusion_matrix_at_thresholds``
and ``metric_at_thresholds`` are scikit-learn's.  All of them read the same
sweep as ``threshold_metrics``:
the distinct scores, highest first, with the cumulative weights ``tp(t)`` and
``fp(t)`` of the positives and negatives with ``score >= t``.
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass

import numpy as np

from . import _metric_sweep as ms
from ._operating import confusion_at_thresholds, operating_point, rates
from ._device import dispatch

__all__ = [
    "OperatingPoint",
    "confusion_matrix_at_thresholds",
    "metric_at_thresholds",
    "precision_at_recall",
    "recall_at_precision",
    "sensitivity_at_specificity",
    "specificity_at_sensitivity",
]

@dataclass(frozen=True)
class OperatingPoint:
    """Result of the ``*_at_*`` operating-point functions.

    Unpacks as ``value, threshold``, like torchmetrics' tuple.

    Attributes
    ----------
    value : float
        The best value of the metric maximised among the thresholds that meet
        the constraint (0.0 when none does).
    threshold : float
        The threshold reaching it: predict positive when ``score >= threshold``.

    See Also
    --------
    sensitivity_at_specificity : The best sensitivity at a minimum specificity.
    precision_at_recall : The best precision at a minimum recall.

    Examples
    --------
    >>> from fastauc import sensitivity_at_specificity
    >>> value, threshold = sensitivity_at_specificity([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8], 0.5)
    >>> value, threshold
    (1.0, 0.35)
    """

    value: float
    threshold: float

    def __iter__(self):
        return iter((self.value, self.threshold))


def _check_minimum(value, name):
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real) or \
            not (0.0 <= float(value) <= 1.0):
        raise ValueError(f"{name} must be a number in [0, 1], got {value!r}.")
    return float(value)


@dispatch("y_score")
def sensitivity_at_specificity(y_true, y_score, min_specificity, *, sample_weight=None,
                               pos_label=None):
    """The highest sensitivity among the thresholds with specificity >= a minimum.

    torchmetrics' ``binary_sensitivity_at_specificity`` (``thresholds=None``):
    the candidates are the ROC points, a start point where nothing is
    predicted positive (reported at threshold 1.0, or ``inf`` when a score
    exceeds 1) and every distinct score; among those with
    ``specificity >= min_specificity`` the one of highest sensitivity, the
    highest threshold on ties.  When none qualifies the result is
    ``(0.0, 1e6)``, as in torchmetrics.  Without negatives the specificity is
    1 everywhere; without positives the sensitivity is 0.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True binary labels: {0, 1} or {-1, 1}, or give ``pos_label``.
    y_score : array-like of shape (n_samples,)
        Scores of the positive class; row ``i`` is predicted positive at
        threshold ``t`` when ``y_score[i] >= t``.
    min_specificity : float
        The lowest specificity (true negative rate) allowed, in [0, 1].
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative sample weights; the rates become ratios of weights.
    pos_label : int, float, bool or str, default=None
        The label of the positive class (labels {0, 1} or {-1, 1} need none).

    Returns
    -------
    OperatingPoint
        ``value`` (the sensitivity) and ``threshold``; unpacks as a pair.

    See Also
    --------
    specificity_at_sensitivity : The converse constraint.
    roc_curve : Every (fpr, tpr) point.
    threshold_metrics : Every metric at every threshold.

    Examples
    --------
    >>> from fastauc import sensitivity_at_specificity
    >>> y = [0, 0, 1, 1, 0, 1]
    >>> s = [0.1, 0.4, 0.35, 0.8, 0.2, 0.7]
    >>> sensitivity_at_specificity(y, s, 0.9)
    OperatingPoint(value=0.6666666666666666, threshold=0.7)
    """
    minimum = _check_minimum(min_specificity, "min_specificity")
    return OperatingPoint(*operating_point("sensitivity_at_specificity", y_true, y_score,
                                           minimum, sample_weight, pos_label))


@dispatch("y_score")
def specificity_at_sensitivity(y_true, y_score, min_sensitivity, *, sample_weight=None,
                               pos_label=None):
    """The highest specificity among the thresholds with sensitivity >= a minimum.

    torchmetrics' ``binary_specificity_at_sensitivity`` (``thresholds=None``):
    the candidates are the ROC points, a start point where nothing is
    predicted positive (reported at threshold 1.0, or ``inf`` when a score
    exceeds 1) and every distinct score; among those with
    ``sensitivity >= min_sensitivity`` the one of highest specificity, the
    highest threshold on ties.  When none qualifies the result is
    ``(0.0, 1e6)``, as in torchmetrics.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True binary labels: {0, 1} or {-1, 1}, or give ``pos_label``.
    y_score : array-like of shape (n_samples,)
        Scores of the positive class; row ``i`` is predicted positive at
        threshold ``t`` when ``y_score[i] >= t``.
    min_sensitivity : float
        The lowest sensitivity (true positive rate, recall) allowed, in [0, 1].
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative sample weights; the rates become ratios of weights.
    pos_label : int, float, bool or str, default=None
        The label of the positive class (labels {0, 1} or {-1, 1} need none).

    Returns
    -------
    OperatingPoint
        ``value`` (the specificity) and ``threshold``; unpacks as a pair.

    See Also
    --------
    sensitivity_at_specificity : The converse constraint.
    roc_curve : Every (fpr, tpr) point.

    Examples
    --------
    >>> from fastauc import specificity_at_sensitivity
    >>> y = [0, 0, 1, 1, 0, 1]
    >>> s = [0.1, 0.4, 0.35, 0.8, 0.2, 0.7]
    >>> specificity_at_sensitivity(y, s, 1.0)
    OperatingPoint(value=0.6666666666666667, threshold=0.35)
    """
    minimum = _check_minimum(min_sensitivity, "min_sensitivity")
    return OperatingPoint(*operating_point("specificity_at_sensitivity", y_true, y_score,
                                           minimum, sample_weight, pos_label))


@dispatch("y_score")
def precision_at_recall(y_true, y_score, min_recall, *, sample_weight=None, pos_label=None):
    """The highest precision among the thresholds with recall >= a minimum.

    torchmetrics' ``binary_precision_at_fixed_recall`` (``thresholds=None``):
    the candidates are the distinct scores (the precision-recall curve's end
    point, which has no threshold, is not one); among those with
    ``recall >= min_recall`` the one of highest precision, then highest
    recall, then highest threshold.  When none qualifies, or the best
    precision is 0, the threshold is NaN (the value then 0.0).  Without
    positives the recall is 1 everywhere, as in torchmetrics.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True binary labels: {0, 1} or {-1, 1}, or give ``pos_label``.
    y_score : array-like of shape (n_samples,)
        Scores of the positive class; row ``i`` is predicted positive at
        threshold ``t`` when ``y_score[i] >= t``.
    min_recall : float
        The lowest recall allowed, in [0, 1].
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative sample weights; the rates become ratios of weights.
    pos_label : int, float, bool or str, default=None
        The label of the positive class (labels {0, 1} or {-1, 1} need none).

    Returns
    -------
    OperatingPoint
        ``value`` (the precision) and ``threshold``; unpacks as a pair.

    See Also
    --------
    recall_at_precision : The converse constraint.
    precision_recall_curve : Every (precision, recall) point.

    Examples
    --------
    >>> from fastauc import precision_at_recall
    >>> y = [0, 0, 1, 1, 0, 1]
    >>> s = [0.1, 0.4, 0.35, 0.8, 0.2, 0.7]
    >>> precision_at_recall(y, s, 0.9)
    OperatingPoint(value=0.75, threshold=0.35)
    """
    minimum = _check_minimum(min_recall, "min_recall")
    return OperatingPoint(*operating_point("precision_at_recall", y_true, y_score, minimum,
                                           sample_weight, pos_label))


@dispatch("y_score")
def recall_at_precision(y_true, y_score, min_precision, *, sample_weight=None, pos_label=None):
    """The highest recall among the thresholds with precision >= a minimum.

    torchmetrics' ``binary_recall_at_fixed_precision`` (``thresholds=None``):
    the candidates are the distinct scores (the precision-recall curve's end
    point, which has no threshold, is not one); among those with
    ``precision >= min_precision`` the one of highest recall, then highest
    precision, then highest threshold.  When none qualifies, or the best
    recall is 0, the threshold is NaN (the value then 0.0).

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True binary labels: {0, 1} or {-1, 1}, or give ``pos_label``.
    y_score : array-like of shape (n_samples,)
        Scores of the positive class; row ``i`` is predicted positive at
        threshold ``t`` when ``y_score[i] >= t``.
    min_precision : float
        The lowest precision allowed, in [0, 1].
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative sample weights; the rates become ratios of weights.
    pos_label : int, float, bool or str, default=None
        The label of the positive class (labels {0, 1} or {-1, 1} need none).

    Returns
    -------
    OperatingPoint
        ``value`` (the recall) and ``threshold``; unpacks as a pair.

    See Also
    --------
    precision_at_recall : The converse constraint.
    precision_recall_curve : Every (precision, recall) point.

    Examples
    --------
    >>> from fastauc import recall_at_precision
    >>> y = [0, 0, 1, 1, 0, 1]
    >>> s = [0.1, 0.4, 0.35, 0.8, 0.2, 0.7]
    >>> recall_at_precision(y, s, 0.8)
    OperatingPoint(value=0.6666666666666666, threshold=0.7)
    """
    minimum = _check_minimum(min_precision, "min_precision")
    return OperatingPoint(*operating_point("recall_at_precision", y_true, y_score, minimum,
                                           sample_weight, pos_label))


@dispatch("y_score")
def confusion_matrix_at_thresholds(y_true, y_score, *, pos_label=None, sample_weight=None):
    """The binary confusion matrix at every distinct threshold, from one sort.

    scikit-learn's ``sklearn.metrics.confusion_matrix_at_thresholds``: the
    thresholds are the distinct scores (of rows with non-zero weight),
    decreasing; at threshold ``t`` a row is predicted positive when its score
    is ``>= t``.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True binary labels: {0, 1} or {-1, 1}, or give ``pos_label``.
    y_score : array-like of shape (n_samples,)
        Scores of the positive class (probabilities or decision values).
    pos_label : int, float, bool or str, default=None
        The label of the positive class (labels {0, 1} or {-1, 1} need none).
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative sample weights; the counts become sums of weights.

    Returns
    -------
    tns : ndarray of shape (n_thresholds,)
        True negatives (weighted) at each threshold.
    fps : ndarray of shape (n_thresholds,)
        False positives.
    fns : ndarray of shape (n_thresholds,)
        False negatives.
    tps : ndarray of shape (n_thresholds,)
        True positives.
    thresholds : ndarray of shape (n_thresholds,)
        The distinct scores, decreasing.

    See Also
    --------
    threshold_metrics : Every confusion-matrix metric at every threshold.
    roc_curve : The rates alone.

    Examples
    --------
    >>> from fastauc import confusion_matrix_at_thresholds
    >>> tns, fps, fns, tps, thr = confusion_matrix_at_thresholds([0, 0, 1, 1],
    ...                                                          [0.1, 0.4, 0.35, 0.8])
    >>> tns, fps, fns, tps, thr
    (array([2., 1., 1., 0.]), array([0., 1., 1., 2.]), array([1., 1., 0., 0.]), \
array([1., 1., 2., 2.]), array([0.8 , 0.4 , 0.35, 0.1 ]))
    """
    return confusion_at_thresholds(y_true, y_score, sample_weight, pos_label)


@dispatch("y_score")
def metric_at_thresholds(y_true, y_score, metric_func, *, sample_weight=None,
                         metric_params=None):
    """A metric of the predictions ``y_score >= t`` at every distinct threshold ``t``.

    scikit-learn's :func:`sklearn.metrics.metric_at_thresholds`: the
    thresholds are the distinct scores of the rows with non-zero weight,
    decreasing, and the value at ``t`` is
    ``metric_func(y_true, y_pred, **metric_params)`` with
    ``y_pred = (y_score >= t).astype(np.int32)`` (and ``sample_weight``).

    When ``metric_func`` is one of scikit-learn's or fastauc's
    ``accuracy_score``, ``balanced_accuracy_score``, ``precision_score``,
    ``recall_score``, ``f1_score``, ``fbeta_score``, ``jaccard_score``,
    ``matthews_corrcoef``, ``cohen_kappa_score`` or
    ``class_likelihood_ratios`` (or a ``functools.partial`` of one with
    keyword arguments), with options that keep the binary meaning
    (``pos_label`` 0 or 1, ``average="binary"``, ``zero_division``,
    ``beta``, ``normalize``, ``adjusted``, ``weights`` and
    ``replace_undefined_by``), and ``y_true`` holds the labels 0 and 1, every
    value comes from the confusion matrix at each threshold, read from one
    sort and one sweep: O(n log n) in all instead of one O(n) call per
    threshold.  Any other metric, option or input is computed by calling
    ``metric_func`` at each threshold, as scikit-learn does.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels, passed to ``metric_func`` as they are (in score order).
    y_score : array-like of shape (n_samples,)
        Scores of the positive class (probabilities or decision values).
    metric_func : callable
        Called as ``metric_func(y_true, y_pred, **metric_params)``; returns a
        number or a tuple of numbers of a fixed length.
    sample_weight : array-like of shape (n_samples,), default=None
        Sample weights, passed to ``metric_func``; rows of zero weight are
        left out.
    metric_params : dict, default=None
        Keyword arguments of ``metric_func``.

    Returns
    -------
    metric_values : ndarray of shape (n_thresholds,) or (n_thresholds, n_outputs)
        The metric at each threshold (a row of values per threshold when
        ``metric_func`` returns a tuple, as ``class_likelihood_ratios`` does).
    thresholds : ndarray of shape (n_thresholds,)
        The distinct scores, decreasing, of ``y_score``'s dtype.

    Warns
    -----
    UndefinedMetricWarning
        Where ``metric_func`` warns at some threshold (a zero denominator
        with ``zero_division="warn"``, an undefined likelihood ratio): from
        the sweep, each message once per call.

    See Also
    --------
    confusion_matrix_at_thresholds : The four cells at every threshold.
    threshold_metrics : Many metrics at every threshold.
    best_threshold : The threshold that maximises a metric.

    Examples
    --------
    >>> from fastauc import metric_at_thresholds, f1_score
    >>> values, thresholds = metric_at_thresholds([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8],
    ...                                           f1_score)
    >>> thresholds
    array([0.8 , 0.4 , 0.35, 0.1 ])
    >>> values
    array([0.66666667, 0.5       , 0.8       , 0.66666667])
    """
    ms.check_metric_args(metric_func, metric_params)
    swept = ms.swept_metric(metric_func, metric_params, sample_weight is not None)
    rows = ms.binary_rows(y_true, y_score, sample_weight) if swept is not None else None
    if rows is not None:
        name, kw = swept
        yt, ys, w = rows
        thr, tp, fp, total_p, total_n = rates(yt, ys, w, 1)
        if name not in ms.NEEDS_BOTH_CLASSES or (total_p > 0 and total_n > 0):
            values = ms.swept_values(name, kw, tp, fp, total_p, total_n)
            return np.asarray(values, np.float64), thr.astype(ys.dtype, copy=False)
    return ms.each_threshold(y_true, y_score, metric_func, sample_weight, metric_params)
