"""Log loss (cross-entropy), scikit-learn's API."""

from __future__ import annotations

import warnings

import numpy as np

from ._device import dispatch
from . import _validation as v
from ._kernels.losses import log_loss_sum

__all__ = ["log_loss"]


@dispatch("y_proba")
def log_loss(y_true, y_proba=None, *, normalize=True, sample_weight=None, labels=None,
             y_pred="deprecated"):
    """Log loss (logistic loss, cross-entropy) of predicted probabilities.

    A drop-in for :func:`sklearn.metrics.log_loss` (1.9): probabilities are
    clipped to ``[eps, 1 - eps]`` with ``eps`` the machine epsilon of float64,
    rows are not renormalised (a warning says so when they do not sum to one),
    and the loss is ``-sum_i w_i log p_i[y_i] / sum_i w_i``.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels.
    y_proba : array-like of shape (n_samples,) or (n_samples, n_classes)
        Predicted probabilities; a 1-D array is the probability of the greater
        label of a binary problem.
    normalize : bool, default=True
        Mean loss per (weighted) sample if True, else the sum.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative sample weights.
    labels : array-like, default=None
        All class labels, in the order of the columns of ``y_proba``; needed
        when ``y_true`` does not contain every class.
    y_pred : array-like, deprecated
        Old name of ``y_proba`` (scikit-learn 1.9 renamed it).

    Returns
    -------
    loss : float
        The (weighted) mean loss per sample, or the sum with
        ``normalize=False``.

    See Also
    --------
    roc_auc_score : A ranking metric that ignores calibration.

    Notes
    -----
    float32 probabilities are evaluated in float64; scikit-learn evaluates them
    in float32 (and clips with float32's eps), so the two differ by float32
    rounding there.

    Examples
    --------
    >>> from fastauc import log_loss
    >>> round(log_loss(["spam", "ham", "ham", "spam"],
    ...                [[.1, .9], [.9, .1], [.8, .2], [.35, .65]]), 6)
    0.216162
    """
    if not (isinstance(y_pred, str) and y_pred == "deprecated"):
        if y_proba is not None:
            raise ValueError("Cannot use both `y_pred` and `y_proba`. `y_pred` is deprecated, "
                             "use `y_proba` instead.")
        warnings.warn("`y_pred` was renamed to `y_proba` in version 1.9 and will be removed "
                      "in 1.11. Use `y_proba` instead.", FutureWarning, stacklevel=v.caller_stacklevel())
        y_proba = y_pred
    P = v.as_float_array(y_proba, "y_proba", ndim=(1, 2))
    v.check_finite(P, "y_proba")
    hi, lo = P.max(), P.min()
    if hi > 1:
        raise ValueError(f"y_prob contains values greater than 1: {hi} (y_proba must be probabilities)")
    if lo < 0:
        raise ValueError(f"y_prob contains values lower than 0: {lo} (y_proba must be probabilities)")
    y = v.as_label_array(y_true)
    n = v.check_lengths(y_proba=P, y_true=y)  # scikit-learn's order in its message
    w = v.check_sample_weight(sample_weight, n, names=("y_proba", "y_true"))
    if y.ndim == 2:
        return _multilabel_log_loss(v.check_multilabel_indicator(y), P, w, normalize)
    classes = v.log_loss_classes(labels, v.unique_labels(y))
    if P.ndim == 1:
        P = P[:, None]
    if P.shape[1] > 1:
        _warn_row_sums(P)
    v.check_log_loss_columns(P.shape[1], classes, labels is not None)
    if len(classes) == 2:
        cls = v.positive_mask(y, classes[1]).view(np.uint8).astype(np.int64)
    else:
        cls = np.searchsorted(classes, y).astype(np.int64)
    total, total_w = log_loss_sum(P, cls, w)
    return float(total / total_w) if normalize else float(total)


def _multilabel_log_loss(Y, P, w, normalize):
    """scikit-learn's log loss of an indicator matrix: ``-sum_l y_il log p_il`` per row
    (each label's column is a class; rows are not renormalised)."""
    if P.ndim != 2 or P.shape[1] != Y.shape[1]:
        raise ValueError(
            f"y_true and y_prob contain different number of classes: {Y.shape[1]} vs "
            f"{P.shape[1] if P.ndim == 2 else 2}. Please provide the true labels explicitly "
            "through the labels argument.")
    _warn_row_sums(P)
    eps = np.finfo(np.float64).eps
    loss = -(Y * np.log(np.clip(P, eps, 1 - eps))).sum(axis=1)
    if not normalize:
        return float(loss @ w if w.shape[0] else loss.sum())
    return float(np.average(loss, weights=w if w.shape[0] else None))


def _warn_row_sums(P):
    if not np.all(np.isclose(P.sum(axis=1), 1.0, rtol=v.ROW_SUM_RTOL)):
        v.warn_row_sums()
