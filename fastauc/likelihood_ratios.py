"""Class likelihood ratios of a fixed prediction: scikit-learn's
``class_likelihood_ratios`` (LR+ and LR-), with its ``replace_undefined_by``
rules and warnings.

The four cells of the binary confusion matrix are weighted counts of the
predicted labels (no Python loop over rows); ``metric_at_thresholds`` reads
the same ratios at every threshold of a score from one sweep.
"""

from __future__ import annotations

import math
import warnings

import numpy as np

from . import _validation as v
from ._device import dispatch
from ._likelihood import (
    LR_NEG_UNDEFINED,
    LR_POS_UNDEFINED,
    NO_POSITIVE,
    NO_PREDICTED_POSITIVE,
    SINGLE_LABEL,
    check_replace,
)
from ._targets import check_targets

__all__ = ["class_likelihood_ratios"]


def _cells(yt, yp, w, labels):
    """``(tn, fp, fn, tp)`` of the confusion matrix over ``labels``
    ``[negative, positive]`` (rows with another label left out), as numpy
    float64 scalars (so that a 0 / 0 is NaN with numpy's warning, as in
    scikit-learn)."""
    neg, pos = labels
    t1, p1 = yt == pos, yp == pos
    keep = (t1 | (yt == neg)) & (p1 | (yp == neg))
    code = (2 * t1 + p1)[keep]
    counts = np.bincount(code, weights=w[keep] if w.shape[0] else None, minlength=4)
    counts = counts.astype(np.float64)
    return tuple(counts[k] for k in range(4))


def ratios(tn, fp, fn, tp, replace, stacklevel=None):
    """LR+ and LR- from the cells (numpy scalars: a 0 / 0 gives NaN with numpy's
    RuntimeWarning, as in scikit-learn), with scikit-learn's warnings."""
    support_pos = tp + fn
    support_neg = tn + fp
    pos = neg = math.nan
    if support_pos == 0:
        v.warn_undefined(NO_POSITIVE, stacklevel)
    if fp == 0:
        v.warn_undefined(NO_PREDICTED_POSITIVE if tp == 0 else LR_POS_UNDEFINED, stacklevel)
        pos = math.nan if replace is None else replace[0]
    else:
        pos = (tp * support_neg) / (fp * support_pos)
    if tn == 0:
        v.warn_undefined(LR_NEG_UNDEFINED, stacklevel)
        neg = math.nan if replace is None else replace[1]
    else:
        neg = (fn * support_neg) / (tn * support_pos)
    return float(pos), float(neg)


@dispatch("y_pred")
def class_likelihood_ratios(y_true, y_pred, *, labels=None, sample_weight=None,
                            replace_undefined_by=np.nan):
    """Positive and negative likelihood ratios of binary predictions.

    scikit-learn's :func:`sklearn.metrics.class_likelihood_ratios`:
    ``LR+ = sensitivity / (1 - specificity)`` and
    ``LR- = (1 - sensitivity) / specificity``, with sensitivity
    ``tp / (tp + fn)`` and specificity ``tn / (tn + fp)``.  ``LR+`` runs from
    1 (a useless test) to infinity, ``LR-`` from 1 down to 0; post-test odds
    are pre-test odds times the ratio.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True binary labels.
    y_pred : array-like of shape (n_samples,)
        Predicted labels (such as ``model.predict(X)`` or
        ``y_score >= threshold``, not scores).
    labels : array-like of shape (2,), default=None
        ``[negative_class, positive_class]``.  Default: the labels present
        in ``y_true`` and ``y_pred``, sorted (the larger one is positive).
    sample_weight : array-like of shape (n_samples,), default=None
        Sample weights: the counts become sums of weights.
    replace_undefined_by : np.nan, 1.0 or dict, default=np.nan
        The value of a ratio whose denominator is zero: ``np.nan``;
        ``1.0`` for ``{"LR+": 1.0, "LR-": 1.0}`` (a useless test); or a
        dict ``{"LR+": value_1, "LR-": value_2}`` with ``value_1`` in
        ``[1, inf]`` or NaN and ``value_2`` in ``[0, 1]`` or NaN.  Only the
        undefined ratio is replaced.

    Returns
    -------
    (positive_likelihood_ratio, negative_likelihood_ratio) : tuple of float
        ``LR+`` and ``LR-`` (Python floats).

    Raises
    ------
    ValueError
        When the targets are not binary, when ``labels`` does not give two
        labels of which one is in ``y_true``, or when a dict
        ``replace_undefined_by`` is out of range.

    Warns
    -----
    UndefinedMetricWarning
        When no false positives make ``LR+`` undefined, no true negatives
        make ``LR-`` undefined, or ``y_true`` has no positive row (both
        undefined), scikit-learn's words.

    See Also
    --------
    metric_at_thresholds : These ratios at every threshold of a score.
    precision_recall_fscore_support : Other metrics of a fixed prediction.

    Notes
    -----
    The ratios are computed as ``tp (tn + fp) / (fp (tp + fn))`` and
    ``fn (tn + fp) / (tn (tp + fn))``, as in scikit-learn.  scikit-learn 1.9
    has no ``raise_warning`` parameter (it was removed in 1.8); passing it
    is a ``TypeError`` here too.

    References
    ----------
    .. [1] Deeks, J. J. and Altman, D. G. (2004). Diagnostic tests 4:
       likelihood ratios. BMJ 329(7458), 168-169.

    Examples
    --------
    >>> from fastauc import class_likelihood_ratios
    >>> class_likelihood_ratios([0, 1, 0, 1, 0], [1, 1, 0, 0, 0])
    (1.5, 0.75)
    >>> class_likelihood_ratios(["non-cat", "cat", "non-cat", "cat", "non-cat"],
    ...                         ["cat", "cat", "non-cat", "non-cat", "non-cat"],
    ...                         labels=["non-cat", "cat"])
    (1.5, 0.75)
    """
    replace = check_replace(replace_undefined_by)
    y_type, present, yt, yp, w = check_targets(y_true, y_pred, sample_weight)
    if y_type != "binary":
        raise ValueError("class_likelihood_ratios only supports binary classification "
                         f"problems, got targets of type: {y_type}")
    if labels is None:
        chosen = present
    else:
        chosen = np.asarray(labels)
        if chosen.size == 0:
            raise ValueError("'labels' should contain at least one label.")
        if not np.isin(chosen.ravel(), yt).any():
            raise ValueError("At least one label specified must be in y_true")
        chosen = chosen.ravel()
    if chosen.shape[0] == 1:
        warnings.warn(SINGLE_LABEL, UserWarning, stacklevel=v.caller_stacklevel())
        raise ValueError("not enough values to unpack (expected 4, got 1)")
    if chosen.shape[0] > 2:
        raise ValueError("too many values to unpack (expected 4)")
    tn, fp, fn, tp = _cells(yt, yp, w, chosen)
    return ratios(tn, fp, fn, tp, replace)
