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

__all__ = ["f1_score", "fbeta_score", "precision_recall_fscore_support", "precision_score",
           "recall_score"]

_AVERAGES = (None, "micro", "macro", "weighted")


def _zero_division_value(zero_division):
    if isinstance(zero_division, str) and zero_division == "warn":
        return 0.0
    if isinstance(zero_division, (int, float, np.number)) and not isinstance(zero_division, bool):
        if zero_division in (0, 1) or math.isnan(zero_division):
            return float(zero_division)
    raise ValueError(f'zero_division must be "warn", 0.0, 1.0 or np.nan, got {zero_division!r}')


def _divide(num, den, metric, modifier, warn_for, zero_division):
    """``num / den`` with scikit-learn's zero_division handling and warning."""
    mask = den == 0
    out = num / np.where(mask, 1.0, den)
    if not mask.any():
        return out
    out[mask] = _zero_division_value(zero_division)
    if isinstance(zero_division, str) and metric in warn_for:
        where = "due to" if out.shape[0] == 1 else "in labels with"
        warnings.warn(f"{metric.capitalize()} is ill-defined and being set to 0.0 {where} no "
                      f"{modifier} samples. Use `zero_division` parameter to control this "
                      "behavior.", v.UndefinedMetricWarning, stacklevel=4)
    return out


def _targets(y_true, y_pred, sample_weight):
    yt = v.as_label_array(y_true, "y_true")
    yp = v.as_label_array(y_pred, "y_pred")
    for name, a in (("y_true", yt), ("y_pred", yp)):
        if a.ndim != 1:
            raise ValueError(f"{name} must have shape (n_samples,), got {a.shape} "
                             "(multilabel input is not supported)")
    n = v.check_lengths(y_true=yt, y_pred=yp)
    w = v.check_sample_weight(sample_weight, n)
    try:
        present = np.unique(np.concatenate((v.unique_labels(yt, "y_true"),
                                            v.unique_labels(yp, "y_pred"))))
    except TypeError as exc:
        raise ValueError(f"Mix of label input types in y_true and y_pred: {exc}") from exc
    return yt, yp, w, present


def precision_recall_fscore_support(y_true, y_pred, *, beta=1.0, labels=None, pos_label=1,
                                    average=None, warn_for=("precision", "recall", "f-score"),
                                    sample_weight=None, zero_division="warn"):
    """Precision, recall, F-beta and support per class or averaged.

    Same inputs, outputs, warnings and ``zero_division`` rules as
    :func:`sklearn.metrics.precision_recall_fscore_support` for binary and
    multiclass targets.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,)
        True and predicted labels.
    beta : float, default=1.0
        Weight of recall in the F-score.
    labels : array-like, default=None
        Labels to include (and their order when ``average=None``).
    pos_label : int, float, bool or str, default=1
        The positive class when ``average="binary"``.
    average : {"binary", "micro", "macro", "weighted"} or None, default=None
    warn_for : tuple of str
        Which metrics warn on zero division.
    sample_weight : array-like of shape (n_samples,), default=None
    zero_division : {"warn", 0.0, 1.0, np.nan}, default="warn"

    Returns
    -------
    precision, recall, fbeta_score : float or ndarray
    support : ndarray or None
        Weighted number of true rows per label (None when averaged).

    Examples
    --------
    >>> from fastauc import precision_recall_fscore_support
    >>> precision_recall_fscore_support([0, 1, 2, 0, 1, 2], [0, 2, 1, 0, 0, 1],
    ...                                 average="macro")
    (0.2222222222222222, 0.3333333333333333, 0.26666666666666666, None)
    """
    if average not in _AVERAGES and average != "binary":
        raise ValueError(f"average has to be one of {_AVERAGES} or 'binary', got {average!r}")
    _zero_division_value(zero_division)
    if beta < 0:
        raise ValueError(f"beta should be >=0 in the F-beta score, got {beta!r}")
    yt, yp, w, present = _targets(y_true, y_pred, sample_weight)
    y_type = "binary" if present.shape[0] <= 2 else "multiclass"
    if average == "binary":
        if y_type != "binary":
            raise ValueError("Target is multiclass but average='binary'. Please choose another "
                             "average setting, one of [None, 'micro', 'macro', 'weighted'].")
        if pos_label not in present.tolist() and present.shape[0] >= 2:
            raise ValueError(f"pos_label={pos_label!r} is not a valid label. It should be one "
                             f"of {present.tolist()}")
        labels = [pos_label]
    elif pos_label not in (None, 1):
        warnings.warn(f"Note that pos_label (set to {pos_label!r}) is ignored when average != "
                      f"'binary' (got {average!r}). You may use labels=[pos_label] to specify a "
                      "single positive class.", UserWarning, stacklevel=2)
    selected = present if labels is None else np.asarray(labels)
    if selected.ndim != 1 or selected.shape[0] == 0:
        raise ValueError(f"labels must be a non-empty list of labels, got {labels!r}")
    universe = np.unique(np.concatenate((present, selected)))
    it = np.searchsorted(universe, yt)
    ip = np.searchsorted(universe, yp)
    weights = w if w.shape[0] else None
    k = universe.shape[0]
    hit = it == ip
    tp = np.bincount(it[hit], weights=None if weights is None else weights[hit], minlength=k)
    true_sum = np.bincount(it, weights=weights, minlength=k)
    pred_sum = np.bincount(ip, weights=weights, minlength=k)
    sel = np.searchsorted(universe, selected)
    tp, true_sum, pred_sum = tp[sel], true_sum[sel], pred_sum[sel]
    support = true_sum
    if average == "micro":
        tp, true_sum, pred_sum = (np.array([a.sum()], np.float64)
                                  for a in (tp, true_sum, pred_sum))
    tp, t_f, p_f = (np.asarray(a, np.float64) for a in (tp, true_sum, pred_sum))
    precision = _divide(tp, p_f, "precision", "predicted", warn_for, zero_division)
    recall = _divide(tp, t_f, "recall", "true", warn_for, zero_division)
    if np.isposinf(beta):
        f = recall
    elif beta == 0:
        f = precision
    else:
        b2 = beta * beta
        f = _divide((1 + b2) * tp, b2 * t_f + p_f, "f-score", "true nor predicted", warn_for,
                    zero_division)
    if average is None:
        return precision, recall, f, support
    avg_weights = t_f if average == "weighted" else None
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


def precision_score(y_true, y_pred, *, labels=None, pos_label=1, average="binary",
                    sample_weight=None, zero_division="warn"):
    """Precision ``tp / (tp + fp)``; as :func:`sklearn.metrics.precision_score`.

    Examples
    --------
    >>> from fastauc import precision_score
    >>> precision_score([0, 1, 1, 0], [1, 1, 0, 0])
    0.5
    """
    return _one(0, y_true, y_pred, labels=labels, pos_label=pos_label, average=average,
                sample_weight=sample_weight, zero_division=zero_division,
                warn_for=("precision",))


def recall_score(y_true, y_pred, *, labels=None, pos_label=1, average="binary",
                 sample_weight=None, zero_division="warn"):
    """Recall ``tp / (tp + fn)``; as :func:`sklearn.metrics.recall_score`.

    Examples
    --------
    >>> from fastauc import recall_score
    >>> recall_score([0, 1, 1, 0], [1, 1, 0, 0])
    0.5
    """
    return _one(1, y_true, y_pred, labels=labels, pos_label=pos_label, average=average,
                sample_weight=sample_weight, zero_division=zero_division, warn_for=("recall",))


def fbeta_score(y_true, y_pred, *, beta, labels=None, pos_label=1, average="binary",
                sample_weight=None, zero_division="warn"):
    """F-beta score; as :func:`sklearn.metrics.fbeta_score`.

    Examples
    --------
    >>> from fastauc import fbeta_score
    >>> round(fbeta_score([0, 1, 1, 0, 1], [1, 1, 0, 0, 1], beta=2), 6)
    0.666667
    """
    return _one(2, y_true, y_pred, labels=labels, pos_label=pos_label, average=average,
                sample_weight=sample_weight, zero_division=zero_division, beta=beta,
                warn_for=("f-score",))


def f1_score(y_true, y_pred, *, labels=None, pos_label=1, average="binary", sample_weight=None,
             zero_division="warn"):
    """F1 score; as :func:`sklearn.metrics.f1_score`.

    Examples
    --------
    >>> from fastauc import f1_score
    >>> f1_score([0, 1, 2, 0, 1, 2], [0, 2, 1, 0, 0, 1], average="micro")
    0.3333333333333333
    """
    return fbeta_score(y_true, y_pred, beta=1.0, labels=labels, pos_label=pos_label,
                       average=average, sample_weight=sample_weight, zero_division=zero_division)
