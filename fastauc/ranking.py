"""ROC AUC, ROC/PR/DET curves and average precision: scikit-learn's API.

Every function here sorts once (``_table.sorted_tallies``) and derives everything
from one merge-sweep over the distinct scores (``_kernels.sweeps.sweep``).
Names, signatures, defaults, return types, warnings and tie handling follow
``sklearn.metrics`` 1.9, so replacing ``from sklearn.metrics import ...`` with
``from fastauc import ...`` changes nothing but the speed.
"""

from __future__ import annotations

import numpy as np

from ._device import dispatch
from . import _validation as v
from ._kernels.sorting import keys_to_floats
from ._kernels.sweeps import class_pair_areas
from ._kernels.sweeps import drop_intermediate as _drop_intermediate
from ._curves import binary_ap as _binary_ap
from ._curves import binary_auc as _binary_auc
from ._containers import to_numpy
from ._curves import det_points, pr_points, roc_points
from ._parallel import map_units, map_whole
from ._sort import CHUNK_MIN, sort_by_class
from ._multiclass_input import checked_columns, need_multi_class
from ._stats import ovo_average, ovr_average
from ._table import sorted_tallies

__all__ = [
    "auc",
    "average_precision_score",
    "det_curve",
    "precision_recall_curve",
    "roc_auc_score",
    "roc_curve",
]

# ------------------------------------------------------------------ curves

@dispatch("y_score")
def roc_curve(y_true, y_score, *, pos_label=None, sample_weight=None, drop_intermediate=True):
    """Compute the Receiver Operating Characteristic (ROC) curve.

    Same inputs, outputs and point set as :func:`sklearn.metrics.roc_curve`.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True binary labels. If labels are not {0, 1} or {-1, 1}, ``pos_label``
        must be given.
    y_score : array-like of shape (n_samples,)
        Scores: probabilities of the positive class or decision values.
    pos_label : int, float, bool or str, default=None
        The label of the positive class.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative sample weights; rows of weight zero are ignored.
    drop_intermediate : bool, default=True
        Drop thresholds that are collinear with their neighbours (scikit-learn's
        second-difference rule); they do not change the plotted curve or AUC.

    Returns
    -------
    fpr : ndarray of shape (>2,)
        Increasing false positive rates; ``fpr[i]`` is the rate of predictions
        with ``score >= thresholds[i]``.
    tpr : ndarray of shape (>2,)
        Increasing true positive rates.
    thresholds : ndarray of shape (n_thresholds,)
        Decreasing distinct scores, float64; ``thresholds[0] == inf``.

    See Also
    --------
    roc_auc_score : Area under the ROC curve.
    precision_recall_curve, det_curve : Other curves from the same sweep.

    Examples
    --------
    >>> from fastauc import roc_curve
    >>> fpr, tpr, thresholds = roc_curve([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    >>> fpr
    array([0. , 0. , 0.5, 0.5, 1. ])
    >>> tpr
    array([0. , 0.5, 0.5, 1. , 1. ])
    >>> thresholds
    array([ inf, 0.8 , 0.4 , 0.35, 0.1 ])
    """
    is_pos, s, w, _, _ = v.binary_target(
        y_true, y_score, sample_weight, pos_label, default_rule="sklearn",
        keep_float32=True)
    # the drop rule is applied as the sweep writes the points (fewer written)
    return roc_points(sorted_tallies(is_pos, s, w, curve=True, drop=1 if drop_intermediate
                                     else 0), drop_intermediate)


@dispatch("y_score")
def precision_recall_curve(
    y_true, y_score, *, pos_label=None, sample_weight=None, drop_intermediate=False
):
    """Compute precision-recall pairs for every distinct threshold.

    Same inputs, outputs and point set as
    :func:`sklearn.metrics.precision_recall_curve`.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True binary labels.
    y_score : array-like of shape (n_samples,)
        Scores of the positive class.
    pos_label : int, float, bool or str, default=None
        The label of the positive class ({0, 1} or {-1, 1} labels need none).
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative sample weights.
    drop_intermediate : bool, default=False
        Drop thresholds where the true positive count does not change from
        the previous or the next threshold.

    Returns
    -------
    precision : ndarray of shape (n_thresholds + 1,)
        Precision at each threshold (increasing thresholds); last element 1.
    recall : ndarray of shape (n_thresholds + 1,)
        Decreasing recall; last element 0.
    thresholds : ndarray of shape (n_thresholds,)
        Increasing distinct scores, in the dtype of ``y_score`` when it is numeric.

    See Also
    --------
    average_precision_score : The step-function area under this curve.

    Examples
    --------
    >>> from fastauc import precision_recall_curve
    >>> precision, recall, thresholds = precision_recall_curve(
    ...     [0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    >>> precision
    array([0.5 , 0.66666667, 0.5 , 1. , 1. ])
    >>> recall
    array([1. , 1. , 0.5, 0.5, 0. ])
    >>> thresholds
    array([0.1 , 0.35, 0.4 , 0.8 ])
    """
    is_pos, s, w, _, raw_dtype = v.binary_target(
        y_true, y_score, sample_weight, pos_label, default_rule="sklearn",
        keep_float32=True)
    return pr_points(sorted_tallies(is_pos, s, w, curve=True, drop=2 if drop_intermediate
                                    else 0), drop_intermediate, raw_dtype)


@dispatch("y_score")
def det_curve(y_true, y_score, pos_label=None, sample_weight=None, drop_intermediate=False):
    """Compute the Detection Error Tradeoff (DET) curve: FPR against FNR.

    Same inputs and outputs as :func:`sklearn.metrics.det_curve`.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True binary labels.
    y_score : array-like of shape (n_samples,)
        Scores of the positive class.
    pos_label : int, float, bool or str, default=None
        The label of the positive class.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative sample weights.
    drop_intermediate : bool, default=False
        Drop thresholds where the true positive count does not change.

    Returns
    -------
    fpr : ndarray
        Decreasing false positive rates.
    fnr : ndarray
        Increasing false negative rates.
    thresholds : ndarray
        Increasing thresholds; ``inf`` last unless ``fpr = 0`` is reached at a
        finite threshold.

    See Also
    --------
    roc_curve : The ROC curve from the same sweep.

    Examples
    --------
    >>> from fastauc import det_curve
    >>> fpr, fnr, thresholds = det_curve([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    >>> fpr
    array([0.5, 0.5, 0. ])
    >>> fnr
    array([0. , 0.5, 0.5])
    >>> thresholds
    array([0.35, 0.4 , 0.8 ])
    """
    is_pos, s, w, classes, _ = v.binary_target(
        y_true, y_score, sample_weight, pos_label, default_rule="sklearn",
        keep_float32=True)
    t = sorted_tallies(is_pos, s, w, curve=True)
    tps, fps, thr = t.tps, t.fps, t.thr_keys
    tps[0] = fps[0] = 0.0
    keys_to_floats(thr[1:], thr[1:])  # in place
    thr = thr.view(np.float64)
    thr[0] = np.inf
    if drop_intermediate and tps.shape[0] > 2:
        m = _drop_intermediate(tps, fps, thr, False)
        tps, fps, thr = tps[:m], fps[:m], thr[:m]
    if classes.shape[0] != 2:
        raise ValueError(v.ONE_CLASS_DET)
    return det_points(tps, fps, thr)


@dispatch("y")
def auc(x, y):
    """Area under a curve given by points, with the trapezoidal rule.

    Same as :func:`sklearn.metrics.auc`: ``x`` must be monotonic (increasing
    or decreasing).

    Parameters
    ----------
    x : array-like of shape (n,)
        X coordinates, monotonic.
    y : array-like of shape (n,)
        Y coordinates.

    Returns
    -------
    auc : float
        Area under the piecewise-linear curve through the points (positive
        for decreasing ``x`` too, as scikit-learn).

    See Also
    --------
    roc_auc_score : Area under the ROC curve straight from labels and scores.

    Examples
    --------
    >>> from fastauc import auc, roc_curve
    >>> fpr, tpr, _ = roc_curve([1, 1, 2, 2], [0.1, 0.4, 0.35, 0.8], pos_label=2)
    >>> auc(fpr, tpr)
    0.75
    """
    x_raw = to_numpy(x, "x")  # (tensors and the other containers too)
    x = np.asarray(x_raw, dtype=np.float64)
    y = np.asarray(to_numpy(y, "y"), dtype=np.float64)
    if x.ndim == 2 and x.shape[1] == 1:
        x = x[:, 0]
    if y.ndim == 2 and y.shape[1] == 1:
        y = y[:, 0]
    for name, arr in (("x", x), ("y", y)):
        if arr.ndim != 1:
            raise v.not_1d_error(name, arr, scores=False)
    v.check_lengths(x=x, y=y)
    if x.shape[0] < 2:
        raise ValueError(
            "At least 2 points are needed to compute area under curve, "
            f"but x.shape = {x.shape[0]}"
        )
    dx = np.diff(x)
    direction = 1.0
    if np.any(dx < 0):
        if np.all(dx <= 0):
            direction = -1.0
        else:
            raise ValueError(f"x is neither increasing nor decreasing : {x_raw}.")
    return float(direction * (dx * (y[1:] + y[:-1]) / 2.0).sum())


# --------------------------------------------------------------- scores

def _average_binary(metric, Y, S, average, weight):
    """scikit-learn's ``_average_binary_score`` over the columns of ``Y``/``S``."""
    v.check_average(average)
    n, n_cols = Y.shape
    weighted = weight.shape[0] > 0
    if average == "micro":
        w = np.repeat(weight, n_cols) if weighted else weight
        return metric(
            np.ascontiguousarray(Y.ravel()), np.ascontiguousarray(S.ravel()), w
        )
    score_weight = weight
    average_weight = None
    if average == "weighted":
        average_weight = (Y * weight[:, None]).sum(axis=0) if weighted else Y.sum(axis=0)
        if np.isclose(average_weight.sum(), 0.0):
            return 0
    if average == "samples":
        average_weight = weight if weighted else None
        scores = np.array(
            [metric(Y[i].copy(), S[i].copy(), v.EMPTY_WEIGHT) for i in range(n)]
        )
    else:
        scores = np.array(
            [
                metric(np.ascontiguousarray(Y[:, c]), np.ascontiguousarray(S[:, c]), score_weight)
                for c in range(n_cols)
            ]
        )
    if average is None:
        return scores
    if average_weight is not None:
        scores[average_weight == 0] = 0
    return float(np.average(scores, weights=average_weight))


def _multilabel_input(y, y_score, sample_weight):
    Y = v.check_multilabel_indicator(y)
    S = v.as_float_array(y_score, "y_score", ndim=(1, 2))
    v.check_lengths(y_true=Y, y_score=S)
    if S.shape != Y.shape:
        raise ValueError(
            f"y_true is a multilabel indicator of shape {Y.shape}, so y_score must have "
            f"the same shape, got {S.shape}"
        )
    v.check_finite(S, "y_score")
    w = v.check_sample_weight(sample_weight, Y.shape[0])
    return Y, S, w


@dispatch("y_score")
def roc_auc_score(
    y_true,
    y_score,
    *,
    average="macro",
    sample_weight=None,
    max_fpr=None,
    multi_class="raise",
    labels=None,
):
    """Area under the ROC curve, exact, with ties counted one half.

    A drop-in for :func:`sklearn.metrics.roc_auc_score` (binary, multiclass
    one-vs-rest and one-vs-one, multilabel, partial AUC with ``max_fpr``).
    The binary case sorts once with a radix sort and sweeps once.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,) or (n_samples, n_classes)
        True labels, or a multilabel indicator matrix.  For binary targets the
        greater label is the positive class.
    y_score : array-like of shape (n_samples,) or (n_samples, n_classes)
        Scores of the positive class (binary), class probabilities summing to
        one (multiclass), or per-label scores (multilabel).
    average : {'micro', 'macro', 'samples', 'weighted'} or None, default='macro'
        Averaging over classes or labels (ignored for binary targets).
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative sample weights.
    max_fpr : float in (0, 1], default=None
        If given, the standardised partial AUC over ``FPR <= max_fpr`` with
        McClish's correction (binary only).
    multi_class : {'raise', 'ovr', 'ovo'}, default='raise'
        Multiclass strategy: one-vs-rest or one-vs-one (Hand & Till).
    labels : array-like of shape (n_classes,), default=None
        Multiclass only: the labels indexing the columns of ``y_score``.

    Returns
    -------
    auc : float, or ndarray when ``average=None``
        The AUC (a Python float; NaN with an :class:`UndefinedMetricWarning`
        when a binary ``y_true`` has one class only), or one AUC per class or
        label with ``average=None``.

    See Also
    --------
    roc_curve : The curve whose area this is.

    Notes
    -----
    ``fastauc.naive.pairwise_auc`` is the O(n*m) definition (every
    positive-negative pair, ties one half) this is tested against.

    References
    ----------
    .. [1] Hanley, J. A. and McNeil, B. J. (1982). The meaning and use of the
       area under a receiver operating characteristic (ROC) curve. Radiology 143.
    .. [2] McClish, D. K. (1989). Analyzing a portion of the ROC curve. Medical
       Decision Making 9(3).
    .. [3] Hand, D. J. and Till, R. J. (2001). A simple generalisation of the area
       under the ROC curve for multiple class classification problems. Machine
       Learning 45(2).

    Examples
    --------
    >>> from fastauc import roc_auc_score
    >>> roc_auc_score([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    0.75
    >>> roc_auc_score([0, 1, 0, 1], [0.5, 0.5, 0.2, 0.9])  # a tie counts 1/2
    0.875
    """
    v.check_auc_options(average, max_fpr, multi_class)
    y = v.as_label_array(y_true)
    if y.ndim == 2:
        Y, S, w = _multilabel_input(y, y_score, sample_weight)
        return _average_binary(
            lambda p, s, ww: _binary_auc(p, s, ww, max_fpr), Y, S, average, w
        )
    S = v.as_float_array(y_score, "y_score", ndim=(1, 2), keep_float32=True)
    n = v.check_lengths(y_true=y, y_score=S)
    classes, ones = v.classes_and_ones(y)
    multiclass = len(classes) > 2 or (S.ndim == 2 and S.shape[1] > 2)
    if S.ndim == 2:
        S = v.wide(S)
    if multiclass and multi_class == "ovo":
        w = None if sample_weight is None else v.EMPTY_WEIGHT[:0]  # refused below
    else:
        w = v.check_sample_weight(sample_weight, n)
    if S.ndim == 2 and S.shape[1] == 1:
        S = np.ascontiguousarray(S[:, 0])
    if multiclass:
        if max_fpr is not None and max_fpr != 1.0:
            raise ValueError(
                "Partial AUC computation not available in multiclass setting, "
                f"'max_fpr' must be set to `None`, received `max_fpr={max_fpr}` instead"
            )
        if multi_class == "raise":
            need_multi_class(classes, S)
        return _multiclass_roc_auc(y, S, labels, multi_class, average, w, classes)
    if S.ndim == 2:  # y_true is binary: one column of scores
        raise v.not_1d_error("y_score", S)
    if len(classes) < 2:
        v.warn_undefined(v.ONE_CLASS)
        return float("nan")
    return _binary_auc(ones if ones is not None else v.positive_mask(y, classes[-1]), S, w,
                       max_fpr)


def _multiclass_roc_auc(y, S, labels, multi_class, average, w, y_classes):
    columns, classes = checked_columns(y, S, labels, multi_class, average, y_classes)
    S = np.ascontiguousarray(S)
    if multi_class == "ovr":
        return _ovr_roc_auc(y, S, columns, classes, average, w)
    if w is not None:
        raise ValueError(
            "sample_weight is not supported for multiclass one-vs-one ROC AUC, "
            "'sample_weight' must be None in this case."
        )
    return _ovo_roc_auc(np.searchsorted(classes, y), columns, average)


def _ovr_roc_auc(y, S, columns, classes, average, w):
    """One-vs-rest: each class's column (``columns``, contiguous) sorted once,
    against its class mask (no (n, k) indicator matrix)."""
    if average == "micro":
        return _average_binary(_binary_auc, y[:, None] == classes[None, :], S, average, w)
    # one class a unit, taken in turn by the threads (each AUC then runs whole
    # in its thread): the same numbers whatever the number of threads
    jobs = [(j, y, classes, columns, w) for j in range(len(classes))]
    done = (_classes_map(S.shape[0], len(classes))(_class_auc, jobs)
            if S.shape[0] * len(classes) >= CHUNK_MIN else [_class_auc(*job) for job in jobs])
    return ovr_average(np.array([auc for auc, _ in done]),
                       np.array([count for _, count in done]), average)


# rows of one class's column from which its sort and sweep spread over the
# threads too (below, each class runs whole in the thread that takes it)
CLASS_SPREAD_ROWS = 1 << 22


def _classes_map(rows, k):
    """How the classes are mapped: each whole in a thread when there are
    several classes of fewer than ``CLASS_SPREAD_ROWS`` rows (their sorts'
    units are small, so spreading each class's units over the threads gains
    less than running the classes side by side), else each class's units
    too on every thread.  The results are the same either way."""
    return map_whole if k > 1 and rows < CLASS_SPREAD_ROWS else map_units


def _class_auc(j, y, classes, columns, w):
    """Class ``j``'s one-vs-rest AUC and its weight (rows, or their weights)."""
    mask = y == classes[j]
    count = float(w[mask].sum()) if w.shape[0] else float(np.count_nonzero(mask))
    return _binary_auc(mask, columns[j], w), count


def _class_pair_areas(a, everyone, columns, codes, k):
    """Class ``a``'s areas against every other class (its column sorted with
    the rows' classes): ``(a, areas)``."""
    r = sort_by_class(everyone, columns[a], extra=codes)
    return a, class_pair_areas(r.pk[::-1].copy(), r.px[::-1].copy(), int(a), k)


def _ovo_roc_auc(encoded, columns, average):
    """One-vs-one (Hand & Till 2001): each class's score column sorted once
    with the rows' classes, and one pass over it gives that class's area
    against every other class (``_kernels.sweeps.class_pair_areas``); each
    pair scores the mean of its two directed AUCs."""
    k, n = columns.shape
    counts = np.bincount(encoded, minlength=k).astype(np.float64)
    present = np.flatnonzero(counts)
    codes = encoded.astype(np.int32)
    everyone = np.ones(n, bool)
    jobs = [(a, everyone, columns, codes, k) for a in present]
    areas = dict(_classes_map(n, present.shape[0])(_class_pair_areas, jobs)
                 if n * present.shape[0] >= CHUNK_MIN
                 else [_class_pair_areas(*job) for job in jobs])
    return ovo_average(areas, counts, present, n, average)


@dispatch("y_score")
def average_precision_score(y_true, y_score, *, average="macro", pos_label=1, sample_weight=None):
    """Average precision: the step-function area under the precision-recall curve.

    A drop-in for :func:`sklearn.metrics.average_precision_score`,
    ``AP = sum_n (R_n - R_{n-1}) P_n`` over the distinct thresholds, computed
    in the same sweep as the ROC AUC (no curve is materialised).

    Parameters
    ----------
    y_true : array-like of shape (n_samples,) or (n_samples, n_classes)
        True binary labels, multiclass labels or a multilabel indicator.
    y_score : array-like of shape (n_samples,) or (n_samples, n_classes)
        Scores.
    average : {'micro', 'samples', 'weighted', 'macro'} or None, default='macro'
        Averaging for multilabel and multiclass targets.
    pos_label : int, float, bool or str, default=1
        The positive class (binary targets only).
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative sample weights.

    Returns
    -------
    average_precision : float, or ndarray when ``average=None``
        The average precision (a Python float), or one value per class or
        label with ``average=None``.

    See Also
    --------
    precision_recall_curve : The curve.

    Examples
    --------
    >>> from fastauc import average_precision_score
    >>> average_precision_score([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    0.8333333333333333
    """
    v.check_average(average)
    y = v.as_label_array(y_true)
    if y.ndim == 2:
        Y = v.check_multilabel_indicator(y)
        if pos_label != 1:
            raise ValueError(
                "Parameter pos_label is fixed to 1 for multilabel-indicator y_true. "
                "Do not set pos_label or set pos_label to 1."
            )
        Y, S, w = _multilabel_input(Y, y_score, sample_weight)
        return _average_binary(_binary_ap, Y, S, average, w)
    S = v.as_float_array(y_score, "y_score", ndim=(1, 2), keep_float32=True)
    n = v.check_lengths(y_true=y, y_score=S)
    w = v.check_sample_weight(sample_weight, n)
    classes = v.unique_labels(y)
    if S.ndim == 2:
        S = v.wide(S)
    if len(classes) > 2:
        if pos_label != 1:
            raise ValueError(
                "Parameter pos_label is fixed to 1 for multiclass y_true. "
                "Do not set pos_label or set pos_label to 1."
            )
        if S.shape != (n, len(classes)):
            raise ValueError(
                "`y_score` needs to be of shape `(n_samples, n_classes)`, since "
                f"`y_true` contains multiple classes. Got `y_score.shape={S.shape}`."
            )
        v.check_finite(S, "y_score")
        return _average_binary(_binary_ap, y[:, None] == classes[None, :], S, average, w)
    if S.ndim == 2:
        if S.shape[1] != 1:  # y_true is binary: one column of scores
            raise v.not_1d_error("y_score", S)
        S = np.ascontiguousarray(S[:, 0])
    if len(classes) == 2 and not np.any(classes == pos_label):
        raise ValueError(
            f"pos_label={pos_label} is not a valid label. It should be one of {classes}"
        )
    return _binary_ap(v.positive_mask(y, pos_label), S, w)
