"""Precision, recall and F-beta at a fixed prediction, binary or multiclass:
scikit-learn's API (``average`` = "binary", "micro", "macro", "weighted" or
None; ``zero_division``; ``labels``; ``sample_weight``).

Per-class tallies are three weighted bincounts (true, predicted, both), so
every call is O(n) with no Python loop over rows.
"""

from __future__ import annotations

import math
import warnings

import numpy as np

from . import _validation as v
from ._device import dispatch
from ._targets import check_targets as _check_targets

__all__ = ["f1_score", "fbeta_score", "precision_recall_fscore_support", "precision_score",
           "recall_score"]

_AVERAGES = (None, "micro", "macro", "weighted", "samples")


def _zero_division_value(zero_division):
    if isinstance(zero_division, str) and zero_division == "warn":
        return 0.0
    if isinstance(zero_division, (int, float, np.number)) and not isinstance(zero_division, bool):
        if zero_division in (0, 1) or math.isnan(zero_division):
            return float(zero_division)
    raise v.InvalidParameterError(
        "The 'zero_division' parameter must be a float among {0.0, 1.0}, numpy.nan or a str "
        f"among {{'warn'}}. Got {zero_division!r} instead.")


def _divide(num, den, metric, modifier, average, warn_for, zero_division):
    """``num / den`` with scikit-learn's zero_division handling and warning."""
    mask = den == 0
    out = num / np.where(mask, 1.0, den)
    if not mask.any():
        return out
    out[mask] = _zero_division_value(zero_division)
    if isinstance(zero_division, str) and metric in warn_for:
        axis0, axis1 = ("label", "sample") if average == "samples" else ("sample", "label")
        where = "due to" if out.shape[0] == 1 else f"in {axis1}s with"
        warnings.warn(f"{metric.capitalize()} is ill-defined and being set to 0.0 {where} no "
                      f"{modifier} {axis0}s. Use `zero_division` parameter to control this "
                      "behavior.", v.undefined_metric_warning(), stacklevel=4)
    return out


def _set_wise_labels(y_type, present, average, labels, pos_label):
    if average not in _AVERAGES and average != "binary":
        raise v.InvalidParameterError(
            "The 'average' parameter must be a str among {'binary', 'micro', 'macro', "
            f"'weighted', 'samples'}} or None. Got {average!r} instead.")
    if average == "binary":
        if y_type != "binary":
            options = [a for a in _AVERAGES if a != "samples" or y_type != "multiclass"]
            raise ValueError(f"Target is {y_type} but average='binary'. Please choose another "
                             f"average setting, one of {options!r}.")
        if pos_label not in present.tolist() and present.shape[0] >= 2:
            raise ValueError(f"pos_label={pos_label} is not a valid label. It should be one "
                             f"of {present}")
        return [pos_label]
    if pos_label not in (None, 1):
        warnings.warn(f"Note that pos_label (set to {pos_label!r}) is ignored when average != "
                      f"'binary' (got {average!r}). You may use labels=[pos_label] to specify a "
                      "single positive class.", UserWarning, stacklevel=4)
    return labels


def _tallies(y_type, present, yt, yp, w, labels, samplewise):
    """Weighted (tp, predicted, true) per selected label, or per sample."""
    weights = w if w.shape[0] else None
    if y_type != "multilabel-indicator":
        if samplewise:
            raise ValueError("Samplewise metrics are not available outside of multilabel "
                             "classification.")
        selected = present if labels is None else np.asarray(labels)
        universe = np.union1d(present, selected) if labels is not None else present
        it = np.searchsorted(universe, yt)
        ip = np.searchsorted(universe, yp)
        k = universe.shape[0]
        hit = it == ip
        tp = np.bincount(it[hit], weights=None if weights is None else weights[hit],
                         minlength=k)
        true_sum = np.bincount(it, weights=weights, minlength=k)
        pred_sum = np.bincount(ip, weights=weights, minlength=k)
        sel = np.searchsorted(universe, selected)
        return (np.asarray(a[sel], np.float64) for a in (tp, pred_sum, true_sum))
    if labels is not None:
        labels = np.asarray(labels)
        if labels.shape != present.shape or np.any(labels != present):
            if labels.size and labels.max() > present.max():
                raise ValueError("All labels must be in [0, n labels) for multilabel targets. "
                                 f"Got {labels.max()} > {present.max()}")
            if labels.size and labels.min() < 0:
                raise ValueError("All labels must be in [0, n labels) for multilabel targets. "
                                 f"Got {labels.min()} < 0")
        yt, yp = yt[:, labels], yp[:, labels]
    both = yt & yp
    if samplewise:
        counts = [a.sum(axis=1, dtype=np.float64) for a in (both, yp, yt)]
        return (c * weights if weights is not None else c for c in counts)
    if weights is None:
        return (a.sum(axis=0, dtype=np.float64) for a in (both, yp, yt))
    return (weights @ a for a in (both, yp, yt))


@dispatch("y_pred")
def precision_recall_fscore_support(y_true, y_pred, *, beta=1.0, labels=None, pos_label=1,
                                    average=None, warn_for=("precision", "recall", "f-score"),
                                    sample_weight=None, zero_division="warn"):
    """Precision, recall, F-beta and support per class or averaged.

    Same inputs, outputs, warnings and ``zero_division`` rules as
    :func:`sklearn.metrics.precision_recall_fscore_support`: binary,
    multiclass and multilabel-indicator targets.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,) or (n_samples, n_labels)
        True and predicted labels (not scores), or multilabel indicator
        matrices.
    beta : float, default=1.0
        Weight of recall in the F-score.
    labels : array-like, default=None
        Labels to include (and their order when ``average=None``); column
        indices for multilabel input.
    pos_label : int, float, bool or str, default=1
        The positive class when ``average="binary"``.
    average : {"binary", "micro", "macro", "weighted", "samples"} or None, default=None
        ``"samples"`` (multilabel only) averages the per-sample scores.
    warn_for : tuple of str, default=("precision", "recall", "f-score")
        Which metrics warn on zero division.
    sample_weight : array-like of shape (n_samples,), default=None
        Sample weights: the counts become sums of weights.
    zero_division : {"warn", 0.0, 1.0, np.nan}, default="warn"
        The value of a metric whose denominator is zero; ``"warn"`` gives 0
        with an :class:`UndefinedMetricWarning` for the metrics in
        ``warn_for``.

    Returns
    -------
    precision, recall, fbeta_score : float or ndarray of shape (n_labels,)
        Python floats when averaged, else one value per label.
    support : ndarray of shape (n_labels,) or None
        Weighted number of true rows per label (None when averaged).

    Warns
    -----
    UndefinedMetricWarning
        With ``zero_division="warn"``, when a metric in ``warn_for`` has a
        zero denominator (no predicted or no true rows of a label).

    See Also
    --------
    precision_score, recall_score, fbeta_score, f1_score : One metric each.
    threshold_metrics : The same metrics at every threshold of a score.
    best_threshold : The threshold of a score that maximises F-beta.

    Examples
    --------
    >>> from fastauc import precision_recall_fscore_support
    >>> precision_recall_fscore_support([0, 1, 2, 0, 1, 2], [0, 2, 1, 0, 0, 1],
    ...                                 average="macro")
    (0.2222222222222222, 0.3333333333333333, 0.26666666666666666, None)
    >>> precision_recall_fscore_support([[1, 0, 1], [0, 1, 1]], [[1, 1, 1], [0, 1, 0]],
    ...                                 average="samples")
    (0.8333333333333333, 0.75, 0.7333333333333334, None)
    """
    _zero_division_value(zero_division)
    if isinstance(beta, bool) or not isinstance(beta, (int, float, np.number)) or beta < 0:
        raise v.InvalidParameterError(
            f"The 'beta' parameter must be a float in the range [0.0, inf). Got {beta!r} "
            "instead.")
    y_type, present, yt, yp, w = _check_targets(y_true, y_pred, sample_weight)
    labels = _set_wise_labels(y_type, present, average, labels, pos_label)
    samplewise = average == "samples"
    tp, pred_sum, true_sum = _tallies(y_type, present, yt, yp, w, labels, samplewise)
    if average == "micro":
        tp, pred_sum, true_sum = (np.array([a.sum()]) for a in (tp, pred_sum, true_sum))
    precision = _divide(tp, pred_sum, "precision", "predicted", average, warn_for,
                        zero_division)
    recall = _divide(tp, true_sum, "recall", "true", average, warn_for, zero_division)
    if np.isposinf(beta):
        f = recall
    elif beta == 0:
        f = precision
    else:
        b2 = beta * beta
        f = _divide((1 + b2) * tp, b2 * true_sum + pred_sum, "f-score", "true nor predicted",
                    average, warn_for, zero_division)
    if average is None:
        return precision, recall, f, true_sum
    avg_weights = (true_sum if average == "weighted"
                   else (w if samplewise and w.shape[0] else None))
    return (_nanaverage(precision, avg_weights), _nanaverage(recall, avg_weights),
            _nanaverage(f, avg_weights), None)


def _nanaverage(a, weights):
    """Mean ignoring NaN; weighted unless every weight is zero (scikit-learn's rule)."""
    keep = ~np.isnan(a)
    if not keep.any():
        return float("nan")
    if weights is None or weights[keep].sum() == 0:
        return float(np.mean(a[keep]))
    return float(np.average(a[keep], weights=weights[keep]))


def _one(index, y_true, y_pred, *, labels, pos_label, average, sample_weight, zero_division,
         beta=1.0, warn_for):
    return precision_recall_fscore_support(
        y_true, y_pred, beta=beta, labels=labels, pos_label=pos_label, average=average,
        warn_for=warn_for, sample_weight=sample_weight, zero_division=zero_division)[index]


@dispatch("y_pred")
def precision_score(y_true, y_pred, *, labels=None, pos_label=1, average="binary",
                    sample_weight=None, zero_division="warn"):
    """Precision ``tp / (tp + fp)``; as :func:`sklearn.metrics.precision_score`.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,) or (n_samples, n_labels)
        True labels, or a multilabel indicator matrix.
    y_pred : array-like of shape (n_samples,) or (n_samples, n_labels)
        Predicted labels (such as ``model.predict(X)`` or ``y_score >=
        threshold``, not scores), or a multilabel indicator matrix.
    labels : array-like, default=None
        Labels to include when ``average != "binary"`` (and their order when
        ``average=None``); labels absent from the data may be given (their
        precision is 0 or ``zero_division``).  Column indices for multilabel
        input.  Default: every label in ``y_true`` and ``y_pred``, sorted.
    pos_label : int, float, bool or str, default=1
        The class to report when ``average="binary"``; ignored otherwise
        (with a warning unless it is 1 or None).
    average : {"binary", "micro", "macro", "weighted", "samples"} or None, \
default="binary"
        ``"binary"``: the precision of ``pos_label`` (binary targets only).
        ``"micro"``: from the counts summed over labels.  ``"macro"``: the
        unweighted mean over labels.  ``"weighted"``: the mean weighted by
        each label's support.  ``"samples"``: the mean over samples
        (multilabel only).  None: one value per label.
    sample_weight : array-like of shape (n_samples,), default=None
        Sample weights: the counts become sums of weights.
    zero_division : {"warn", 0.0, 1.0, np.nan}, default="warn"
        The value where a label's precision has a zero denominator;
        ``"warn"`` gives 0 with an :class:`UndefinedMetricWarning`.

    Returns
    -------
    float or ndarray of shape (n_labels,)
        The precision (a Python float), or one value per label with
        ``average=None``.

    See Also
    --------
    precision_recall_fscore_support : Precision, recall, F-beta and support at once.
    recall_score : ``tp / (tp + fn)``.
    f1_score : Their harmonic mean.
    threshold_metrics : The same metrics at every threshold of a score.

    Examples
    --------
    >>> from fastauc import precision_score
    >>> precision_score([0, 1, 1, 0], [1, 1, 0, 0])
    0.5
    >>> precision_score([0, 1, 2, 0, 1, 2], [0, 2, 1, 0, 0, 1], average=None)
    array([0.66666667, 0.        , 0.        ])
    """
    return _one(0, y_true, y_pred, labels=labels, pos_label=pos_label, average=average,
                sample_weight=sample_weight, zero_division=zero_division,
                warn_for=("precision",))


@dispatch("y_pred")
def recall_score(y_true, y_pred, *, labels=None, pos_label=1, average="binary",
                 sample_weight=None, zero_division="warn"):
    """Recall ``tp / (tp + fn)``; as :func:`sklearn.metrics.recall_score`.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,) or (n_samples, n_labels)
        True labels, or a multilabel indicator matrix.
    y_pred : array-like of shape (n_samples,) or (n_samples, n_labels)
        Predicted labels (such as ``model.predict(X)`` or ``y_score >=
        threshold``, not scores), or a multilabel indicator matrix.
    labels : array-like, default=None
        Labels to include when ``average != "binary"`` (and their order when
        ``average=None``); labels absent from the data may be given (their
        recall is 0 or ``zero_division``).  Column indices for multilabel
        input.  Default: every label in ``y_true`` and ``y_pred``, sorted.
    pos_label : int, float, bool or str, default=1
        The class to report when ``average="binary"``; ignored otherwise
        (with a warning unless it is 1 or None).
    average : {"binary", "micro", "macro", "weighted", "samples"} or None, \
default="binary"
        ``"binary"``: the recall of ``pos_label`` (binary targets only).
        ``"micro"``: from the counts summed over labels.  ``"macro"``: the
        unweighted mean over labels.  ``"weighted"``: the mean weighted by
        each label's support.  ``"samples"``: the mean over samples
        (multilabel only).  None: one value per label.
    sample_weight : array-like of shape (n_samples,), default=None
        Sample weights: the counts become sums of weights.
    zero_division : {"warn", 0.0, 1.0, np.nan}, default="warn"
        The value where a label's recall has a zero denominator;
        ``"warn"`` gives 0 with an :class:`UndefinedMetricWarning`.

    Returns
    -------
    float or ndarray of shape (n_labels,)
        The recall (a Python float), or one value per label with
        ``average=None``.

    See Also
    --------
    precision_recall_fscore_support : Precision, recall, F-beta and support at once.
    precision_score : ``tp / (tp + fp)``.
    f1_score : Their harmonic mean.
    threshold_metrics : The same metrics at every threshold of a score.

    Examples
    --------
    >>> from fastauc import recall_score
    >>> recall_score([0, 1, 1, 0], [1, 1, 0, 0])
    0.5
    >>> recall_score(["a", "b", "b", "a"], ["b", "b", "a", "a"], pos_label="a")
    0.5
    """
    return _one(1, y_true, y_pred, labels=labels, pos_label=pos_label, average=average,
                sample_weight=sample_weight, zero_division=zero_division, warn_for=("recall",))


@dispatch("y_pred")
def fbeta_score(y_true, y_pred, *, beta, labels=None, pos_label=1, average="binary",
                sample_weight=None, zero_division="warn"):
    """F-beta score; as :func:`sklearn.metrics.fbeta_score`.

    The weighted harmonic mean of precision and recall,
    ``(1 + beta^2) tp / ((1 + beta^2) tp + beta^2 fn + fp)``: ``beta > 1``
    favours recall, ``beta < 1`` precision.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,) or (n_samples, n_labels)
        True labels, or a multilabel indicator matrix.
    y_pred : array-like of shape (n_samples,) or (n_samples, n_labels)
        Predicted labels (such as ``model.predict(X)`` or ``y_score >=
        threshold``, not scores), or a multilabel indicator matrix.
    beta : float
        Weight of recall, >= 0 (0: precision; ``inf``: recall).
    labels : array-like, default=None
        Labels to include when ``average != "binary"`` (and their order when
        ``average=None``); labels absent from the data may be given (their
        F-beta score is 0 or ``zero_division``).  Column indices for multilabel
        input.  Default: every label in ``y_true`` and ``y_pred``, sorted.
    pos_label : int, float, bool or str, default=1
        The class to report when ``average="binary"``; ignored otherwise
        (with a warning unless it is 1 or None).
    average : {"binary", "micro", "macro", "weighted", "samples"} or None, \
default="binary"
        ``"binary"``: the F-beta score of ``pos_label`` (binary targets only).
        ``"micro"``: from the counts summed over labels.  ``"macro"``: the
        unweighted mean over labels.  ``"weighted"``: the mean weighted by
        each label's support.  ``"samples"``: the mean over samples
        (multilabel only).  None: one value per label.
    sample_weight : array-like of shape (n_samples,), default=None
        Sample weights: the counts become sums of weights.
    zero_division : {"warn", 0.0, 1.0, np.nan}, default="warn"
        The value where the score has a zero denominator;
        ``"warn"`` gives 0 with an :class:`UndefinedMetricWarning`.

    Returns
    -------
    float or ndarray of shape (n_labels,)
        The F-beta score (a Python float), or one value per label with
        ``average=None``.

    See Also
    --------
    f1_score : ``beta=1``.
    precision_recall_fscore_support : Precision, recall, F-beta and support at once.
    best_threshold : The threshold of a score that maximises F-beta.

    References
    ----------
    .. [1] van Rijsbergen, C. J. (1979). Information Retrieval (2nd ed.),
       chapter 7. Butterworths.

    Examples
    --------
    >>> from fastauc import fbeta_score
    >>> round(fbeta_score([0, 1, 1, 0, 1], [1, 1, 0, 0, 1], beta=2), 6)
    0.666667
    >>> round(fbeta_score([0, 1, 1, 0, 1], [1, 1, 0, 0, 1], beta=0.5), 6)
    0.666667
    """
    return _one(2, y_true, y_pred, labels=labels, pos_label=pos_label, average=average,
                sample_weight=sample_weight, zero_division=zero_division, beta=beta,
                warn_for=("f-score",))


@dispatch("y_pred")
def f1_score(y_true, y_pred, *, labels=None, pos_label=1, average="binary", sample_weight=None,
             zero_division="warn"):
    """F1 score; as :func:`sklearn.metrics.f1_score`.

    The harmonic mean of precision and recall, ``2 tp / (2 tp + fp + fn)``:
    :func:`fbeta_score` with ``beta=1``.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,) or (n_samples, n_labels)
        True labels, or a multilabel indicator matrix.
    y_pred : array-like of shape (n_samples,) or (n_samples, n_labels)
        Predicted labels (such as ``model.predict(X)`` or ``y_score >=
        threshold``, not scores), or a multilabel indicator matrix.
    labels : array-like, default=None
        Labels to include when ``average != "binary"`` (and their order when
        ``average=None``); labels absent from the data may be given (their
        F1 score is 0 or ``zero_division``).  Column indices for multilabel
        input.  Default: every label in ``y_true`` and ``y_pred``, sorted.
    pos_label : int, float, bool or str, default=1
        The class to report when ``average="binary"``; ignored otherwise
        (with a warning unless it is 1 or None).
    average : {"binary", "micro", "macro", "weighted", "samples"} or None, \
default="binary"
        ``"binary"``: the F1 score of ``pos_label`` (binary targets only).
        ``"micro"``: from the counts summed over labels.  ``"macro"``: the
        unweighted mean over labels.  ``"weighted"``: the mean weighted by
        each label's support.  ``"samples"``: the mean over samples
        (multilabel only).  None: one value per label.
    sample_weight : array-like of shape (n_samples,), default=None
        Sample weights: the counts become sums of weights.
    zero_division : {"warn", 0.0, 1.0, np.nan}, default="warn"
        The value where the score has a zero denominator;
        ``"warn"`` gives 0 with an :class:`UndefinedMetricWarning`.

    Returns
    -------
    float or ndarray of shape (n_labels,)
        The F1 score (a Python float), or one value per label with
        ``average=None``.

    See Also
    --------
    fbeta_score : Any weight of recall.
    precision_recall_fscore_support : Precision, recall, F-beta and support at once.
    best_threshold : The threshold of a score that maximises F1.

    Examples
    --------
    >>> from fastauc import f1_score
    >>> f1_score([0, 1, 2, 0, 1, 2], [0, 2, 1, 0, 0, 1], average="micro")
    0.3333333333333333
    >>> f1_score([0, 1, 1, 0], [1, 1, 0, 0])
    0.5
    """
    return fbeta_score(y_true, y_pred, beta=1.0, labels=labels, pos_label=pos_label,
                       average=average, sample_weight=sample_weight, zero_division=zero_division)
