"""Calibration metrics of predicted probabilities, scikit-learn's and torchmetrics' API.

The Brier score, its skill score, the bins of the reliability curve and
the calibration errors are sums over the rows that need no order: one pass
of a kernel (``_kernels.calibration``) over row blocks on the threads, whose
partial sums are added in block order (the blocks depend on the number of
rows only, so the result does not depend on the number of threads).  The
quantile edges are order statistics, found by selection without a sort: the
rows are counted by the top bits of their probability, and only the rows of
the few buckets that hold the wanted ranks are gathered and partitioned.
Several probability columns (multiclass) take no sort: their Brier score is
a row-wise numpy sum, and the D² of the log loss is ``log_loss`` against the
loss of the class frequencies.
"""

from __future__ import annotations

import warnings

import numpy as np

from . import _validation as v
from ._device import dispatch
from ._kernels.calibration import (
    BUCKETS,
    bin_rows,
    brier_rows,
    bucket_counts_of,
    gather_buckets,
)
from ._parallel import map_units, row_blocks
from ._probabilities import binary_pos_label as _binary_pos_label
from ._probabilities import binned_error, linspace_edges
from ._probabilities import check_n_bins as _check_n_bins
from ._probabilities import check_option as _check_options
from ._probabilities import check_range as _check_range
from .losses import log_loss

__all__ = ["brier_score_loss", "calibration_curve", "calibration_error", "d2_brier_score",
           "d2_log_loss_score"]

_NORMS = ("l1", "l2", "max")
_STRATEGIES = ("uniform", "quantile")


# ---------------------------------------------------------------- validation

def _binary_rows(y_true, y_proba, sample_weight, pos_label):
    """scikit-learn's checks of a binary target and one probability column
    (in its order); returns ``(is_pos, p, w)``."""
    p = v.as_float_array(y_proba, "y_proba")
    y = v.as_label_array(y_true)
    v.check_finite(p, "y_proba")
    n = v.check_lengths(y_proba=p, y_true=y)
    w = v.check_sample_weight(sample_weight, n, names=("y_proba", "y_true"))
    kind, y, classes = v.target_type(y)
    if kind != "binary":
        raise ValueError(f"The type of the target inferred from y_true is {kind} but should be "
                         "binary according to the shape of y_prob.")
    _check_range(p)
    return v.positive_mask(y, _binary_pos_label(classes, pos_label)), p, w


def _neumaier(pairs):
    """The compensated sum of partial Neumaier sums ``(s, c)``, in order."""
    s = c = 0.0
    for ps, pc in pairs:
        for x in (ps, pc):
            t = s + x
            c += (s - t) + x if abs(s) >= abs(x) else (x - t) + s
            s = t
    return s + c


def _squared_errors(is_pos, p, w):
    """``(sum_i w_i (y_i - p_i)^2, sum_i w_i (y_i - ybar)^2, sum_i w_i)`` of
    the rows: compensated sums of row blocks (``brier_rows``), added in
    block order."""
    parts = map_units(brier_rows, [(p[a:b], is_pos[a:b], w[a:b] if w.shape[0] else w)
                                   for a, b in row_blocks(p.shape[0])])
    sse, total_pos, total_neg = (_neumaier([(r[k], r[k + 1]) for r in parts])
                                 for k in (0, 2, 4))
    total = total_pos + total_neg
    ybar = total_pos / total
    sse_null = total_pos * (1.0 - ybar) ** 2 + total_neg * ybar**2
    return sse, sse_null, total


def _row_bins(labels, p, w, edges, n_bins, right, scale, shift):
    """``(weight, sum of w p, positive weight)`` per bin from the rows
    (``bin_rows``: row blocks on the threads, added in block order),
    ``(least, greatest, non-finite rows)`` of ``p`` and ``(least, greatest)``
    of ``labels`` (the positive mask, or int64 labels, 1 the positive)."""
    edges = np.ascontiguousarray(edges, np.float64)
    blocks = row_blocks(p.shape[0])
    outs = [np.zeros((3, n_bins)) for _ in blocks]
    parts = map_units(bin_rows, [(p[a:b], labels[a:b], w[a:b] if w.shape[0] else w, edges,
                                  right, float(scale), shift, out)
                                 for (a, b), out in zip(blocks, outs)])
    out = outs[0]
    for more in outs[1:]:
        out += more
    lo = min(r[0] for r in parts)
    hi = max(r[1] for r in parts)
    return ((out[0], out[1], out[2]), (lo, hi, sum(r[2] for r in parts)),
            (min(r[3] for r in parts), max(r[4] for r in parts)))


def _labels_in_the_pass(y, n, pos_label=None):
    """Whether the label checks can ride on the binning pass (``bin_rows``
    with the labels themselves): 1-D int64 labels of ``n`` rows, 1 the
    positive class.  The pass then says whether they are {0, 1} (no label
    error, ``y == 1`` the positive rows); if not, the caller checks them
    the usual way."""
    return (y.ndim == 1 and y.dtype == np.int64 and y.flags.c_contiguous and y.shape[0] == n
            and (pos_label is None or (isinstance(pos_label, (int, np.integer))
                                       and pos_label == 1)))


def _one_hot(y_true, P, sample_weight, labels):
    """scikit-learn's checks of several probability columns; returns
    ``(Y, P, w)`` with ``Y`` the one-hot float64 target (n, n_classes)."""
    v.check_finite(P, "y_proba")
    _check_range(P, "lower than")
    y = v.as_label_array(y_true)
    n = v.check_lengths(y_proba=P, y_true=y)
    w = v.check_sample_weight(sample_weight, n, names=("y_proba", "y_true"))
    classes = v.log_loss_classes(labels, v.unique_labels(y))
    if not np.all(np.isclose(P.sum(axis=1), 1.0, rtol=v.ROW_SUM_RTOL)):
        v.warn_row_sums()
    v.check_log_loss_columns(P.shape[1], classes, labels is not None)
    Y = np.zeros(P.shape)
    Y[np.arange(n), np.searchsorted(classes, y)] = 1.0
    return Y, P, w


def _mean(x, w):
    return float(np.average(x, weights=w if w.shape[0] else None))


# ---------------------------------------------------------------- Brier score

@dispatch("y_proba")
def brier_score_loss(y_true, y_proba, *, sample_weight=None, pos_label=None, labels=None,
                     scale_by_half="auto"):
    """Brier score: the mean squared difference of probabilities and outcomes.

    A drop-in for :func:`sklearn.metrics.brier_score_loss` (1.9). For one
    column of probabilities of the positive class it is
    ``sum_i w_i (y_i - p_i)^2 / sum_i w_i``, computed from the table of the
    distinct probabilities with the positive and negative weight at each.
    For ``(n_samples, n_classes)`` probabilities it is the mean over rows of
    ``sum_k (y_ik - p_ik)^2`` (one-hot ``y``), halved for two columns by
    default.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels.
    y_proba : array-like of shape (n_samples,) or (n_samples, n_classes)
        Predicted probabilities: of the positive class (1-D), or of each class
        in the order of ``labels`` (2-D).
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative sample weights.
    pos_label : int, float, bool or str, default=None
        The positive class of a binary target. None means 1 for labels
        {0, 1} or {-1, 1}, otherwise the greater numeric label; string labels
        need it.
    labels : array-like of shape (n_classes,), default=None
        All class labels, in the order of the columns of a 2-D ``y_proba``;
        needed when ``y_true`` does not contain every class.
    scale_by_half : bool or "auto", default="auto"
        Halve the sum over the classes (then a binary score lies in [0, 1]);
        "auto" halves for one or two columns.

    Returns
    -------
    score : float
        The (weighted) Brier score; 0 is perfect.

    See Also
    --------
    d2_brier_score : The Brier skill score against the base rate.
    calibration_curve : Observed frequency against mean probability per bin.
    log_loss : Another proper scoring rule.

    References
    ----------
    .. [1] G. W. Brier, "Verification of forecasts expressed in terms of
       probability", Monthly Weather Review 78(1), 1-3, 1950.

    Examples
    --------
    >>> from fastauc import brier_score_loss
    >>> brier_score_loss([0, 1, 1, 0], [0.1, 0.9, 0.8, 0.3])
    0.0375
    """
    if not (isinstance(scale_by_half, bool) or
            (isinstance(scale_by_half, str) and scale_by_half == "auto")):
        raise v.InvalidParameterError(
            "The 'scale_by_half' parameter of brier_score_loss must be an instance of 'bool' "
            f"or a str among {{'auto'}}. Got {scale_by_half!r} instead.")
    P = v.as_float_array(y_proba, "y_proba", ndim=(1, 2))
    if P.ndim == 1 or P.shape[1] == 1:
        sse, _, total = _squared_errors(*_binary_rows(y_true, P.ravel(), sample_weight,
                                                      pos_label))
        score = 2.0 * sse / total  # both columns: (y - p)^2 twice
        half = True
    else:
        Y, P, w = _one_hot(y_true, P, sample_weight, labels)
        score = _mean(np.square(Y - P).sum(axis=1), w)
        half = P.shape[1] < 3
    if scale_by_half == "auto":
        scale_by_half = half
    return float(score * 0.5 if scale_by_half else score)


def _too_few(n):
    if n < 2:
        warnings.warn("D^2 score is not well-defined with less than two samples.",
                      v.UndefinedMetricWarning, stacklevel=v.caller_stacklevel())
        return True
    return False


def _lengths(y_true, y_proba, sample_weight):
    sizes = {"y_proba": v.n_rows(y_proba), "y_true": v.n_rows(y_true)}
    if sample_weight is not None:
        sizes["sample_weight"] = v.n_rows(sample_weight)
    sizes = {k: n for k, n in sizes.items() if n >= 0}
    if len(set(sizes.values())) > 1:
        v.check_lengths(**{k: np.empty(n) for k, n in sizes.items()})
    return min(sizes.values(), default=2)


@dispatch("y_proba")
def d2_brier_score(y_true, y_proba, *, sample_weight=None, pos_label=None, labels=None):
    """D² score of the Brier score: the fraction of the base rate's Brier score explained.

    A drop-in for :func:`sklearn.metrics.d2_brier_score` (1.9):
    ``1 - BS(y_proba) / BS(null)``, where the null model predicts the
    (weighted) class frequencies of ``y_true`` for every row. For one column
    of probabilities both scores come from the distinct-probability table.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels.
    y_proba : array-like of shape (n_samples,) or (n_samples, n_classes)
        Predicted probabilities: of the positive class (1-D), or of each class
        in the order of ``labels`` (2-D).
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative sample weights.
    pos_label : int, float, bool or str, default=None
        The positive class of a binary target, as in
        :func:`brier_score_loss`.
    labels : array-like of shape (n_classes,), default=None
        All class labels, in the order of the columns of a 2-D ``y_proba``.

    Returns
    -------
    score : float
        1 is perfect, 0 is no better than the base rate, and it can be
        negative. NaN, with an ``UndefinedMetricWarning``, for fewer than two
        samples.

    See Also
    --------
    brier_score_loss : The Brier score itself.
    d2_log_loss_score : The same skill score of the log loss.

    References
    ----------
    .. [1] G. W. Brier, "Verification of forecasts expressed in terms of
       probability", Monthly Weather Review 78(1), 1-3, 1950.

    Examples
    --------
    >>> from fastauc import d2_brier_score
    >>> d2_brier_score([0, 1, 1, 0], [0.1, 0.9, 0.8, 0.3])
    0.85
    """
    if _too_few(_lengths(y_true, y_proba, sample_weight)):
        return float("nan")
    P = v.as_float_array(y_proba, "y_proba", ndim=(1, 2))
    if P.ndim == 1 or P.shape[1] == 1:
        sse, sse_null, _ = _squared_errors(*_binary_rows(y_true, P.ravel(), sample_weight,
                                                         pos_label))
    else:
        Y, P, w = _one_hot(y_true, P, sample_weight, labels)
        prior = np.average(Y, axis=0, weights=w if w.shape[0] else None)
        sse = _mean(np.square(Y - P).sum(axis=1), w)
        sse_null = _mean(np.square(Y - prior).sum(axis=1), w)
    return float(1 - np.float64(sse) / np.float64(sse_null))


@dispatch("y_proba")
def d2_log_loss_score(y_true, y_proba=None, *, sample_weight=None, labels=None,
                      y_pred="deprecated"):
    """D² score of the log loss: the fraction of the base rate's log loss explained.

    A drop-in for :func:`sklearn.metrics.d2_log_loss_score` (1.9):
    ``1 - LL(y_proba) / LL(null)``, where the null model predicts the
    (weighted) class frequencies of ``y_true`` for every row (McFadden's
    pseudo-R² when ``y_proba`` comes from a fitted model).

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels.
    y_proba : array-like of shape (n_samples,) or (n_samples, n_classes)
        Predicted probabilities; a 1-D array is the probability of the greater
        label of a binary problem.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative sample weights.
    labels : array-like of shape (n_classes,), default=None
        All class labels, in the order of the columns of ``y_proba``.
    y_pred : array-like, deprecated
        Old name of ``y_proba`` (scikit-learn 1.9 renamed it).

    Returns
    -------
    score : float
        1 is perfect, 0 is no better than the base rate, and it can be
        negative. NaN, with an ``UndefinedMetricWarning``, for fewer than two
        samples.

    See Also
    --------
    log_loss : The log loss itself.
    d2_brier_score : The same skill score of the Brier score.

    Examples
    --------
    >>> from fastauc import d2_log_loss_score
    >>> round(d2_log_loss_score([0, 1, 1, 0], [0.1, 0.9, 0.8, 0.3]), 6)
    0.714873
    """
    if not (isinstance(y_pred, str) and y_pred == "deprecated"):
        if y_proba is not None:
            raise ValueError("Cannot use both `y_pred` and `y_proba`. `y_pred` is deprecated, "
                             "use `y_proba` instead.")
        warnings.warn("`y_pred` was renamed to `y_proba` in version 1.9 and will be removed "
                      "in 1.11. Use `y_proba` instead.", FutureWarning,
                      stacklevel=v.caller_stacklevel())
        y_proba = y_pred
    if _too_few(_lengths(y_true, y_proba, sample_weight)):
        return float("nan")
    numerator = log_loss(y_true, y_proba, normalize=False, sample_weight=sample_weight,
                         labels=labels)
    y = v.as_label_array(y_true)
    classes = v.log_loss_classes(labels, v.unique_labels(y))
    w = v.check_sample_weight(sample_weight, y.shape[0], names=("y_proba", "y_true"))
    # the null model's loss: -sum_k W_k log(prior_k), prior_k = W_k / W
    W = np.bincount(np.searchsorted(classes, y), weights=w if w.shape[0] else None,
                    minlength=len(classes)).astype(np.float64)
    eps = np.finfo(np.float64).eps
    prior = np.clip(W / W.sum(), eps, 1 - eps)
    denominator = -float(W @ np.log(prior))
    return float(1 - np.float64(numerator) / np.float64(denominator))


# ---------------------------------------------------------------- binned calibration

def _bucket_counts(bits):
    """Rows per bucket of the probabilities' top bits in each row block
    (``bucket_counts_of``, the blocks on the threads: exact counts), and
    ``(least, greatest, non-finite rows)``; returns ``(blocks, their counts,
    the counts of all rows, the range)``."""
    blocks = row_blocks(bits.shape[0], 1 << 20)
    hists = [np.zeros(BUCKETS, np.int64) for _ in blocks]
    parts = map_units(bucket_counts_of, [(bits[a:b], h) for (a, b), h in zip(blocks, hists)])
    hist = np.sum(hists, axis=0) if len(hists) > 1 else hists[0]
    return blocks, hists, hist, (min(r[0] for r in parts), max(r[1] for r in parts),
                                 sum(r[2] for r in parts))


def _selected(bits, counted, k):
    """The ``k``-th smallest rows (0-based, ``k`` whole numbers) of
    probabilities in [0, 1] (their bits), ``-0.0`` as ``+0.0``, from
    :func:`_bucket_counts`' ``counted``: the bucket of each from the counts,
    then the rows of those buckets alone (gathered by row block on the
    threads, each block at its offset), partitioned at the wanted ranks: a
    selection, no sort of the rows."""
    blocks, hists, hist, _ = counted
    k = np.asarray(k).astype(np.int64)
    cum = np.cumsum(hist)
    bucket = np.searchsorted(cum, k, side="right")
    need = np.unique(bucket)
    slot = np.full(BUCKETS, -1, np.int64)
    slot[need] = np.arange(need.shape[0])
    sizes = hist[need]
    starts = np.concatenate(([0], np.cumsum(sizes)[:-1])).astype(np.int64)
    rows = np.empty(int(sizes.sum()), np.uint64)
    at = starts.copy()
    units = []
    for (a, b), h in zip(blocks, hists):
        units.append((bits[a:b], slot, at.copy(), rows))
        at += h[need]
    map_units(gather_buckets, units)
    at = starts[slot[bucket]] + (k - (cum[bucket] - hist[bucket]))  # each rank's place
    for a, b in zip(starts, starts + sizes):  # each bucket: its wanted ranks in place
        wanted = np.unique(at[(at >= a) & (at < b)]) - a
        rows[a:b].partition(wanted)
    return rows[at].view(np.float64)


def _percentile_edges(order_statistics, n, n_bins):
    """``np.percentile(rows, linspace(0, 1, n_bins + 1) * 100)`` (numpy's
    "linear" method) of ``n`` rows from ``order_statistics(k)``, their
    ``k``-th smallest (0-based)."""
    n = float(n)
    q = np.linspace(0, 1, n_bins + 1) * 100 / 100
    virtual = (n - 1) * q
    prev = np.floor(virtual)
    gamma = virtual - prev
    top = virtual >= n - 1
    prev = np.where(top, n - 1, prev)
    a = order_statistics(prev)
    b = order_statistics(np.minimum(prev + 1, n - 1))
    diff = b - a
    out = a + diff * gamma
    late = gamma >= 0.5
    out[late] = (b - diff * (1 - gamma))[late]
    out[top] = a[top]
    return out


@dispatch("y_prob")
def calibration_curve(y_true, y_prob, *, pos_label=None, n_bins=5, strategy="uniform"):
    """Observed frequency of the positive class against the mean probability, per bin.

    A drop-in for :func:`sklearn.calibration.calibration_curve` (1.9): the
    probabilities are cut into ``n_bins`` bins, equally wide (``"uniform"``)
    or holding about as many rows each (``"quantile"``, at numpy's linear
    percentiles of the rows); bin ``i`` holds the probabilities in
    ``(edges[i], edges[i + 1]]`` (the first bin also ``edges[0]``). Empty
    bins are left out. The bins are sums over the rows (no sort); the
    quantiles are order statistics found by selection.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels.
    y_prob : array-like of shape (n_samples,)
        Predicted probabilities of the positive class, in [0, 1].
    pos_label : int, float, bool or str, default=None
        The positive class. None means 1 for labels {0, 1} or {-1, 1}; other
        labels need it.
    n_bins : int, default=5
        Number of bins (before empty ones are left out).
    strategy : {"uniform", "quantile"}, default="uniform"
        Equal widths, or edges at the quantiles of ``y_prob``.

    Returns
    -------
    prob_true : ndarray of shape (n_nonempty_bins,)
        The fraction of positive rows in each non-empty bin.
    prob_pred : ndarray of shape (n_nonempty_bins,)
        The mean predicted probability in each non-empty bin.

    See Also
    --------
    calibration_error : One number from the same bins (ECE, RMS, MCE).
    brier_score_loss : A proper scoring rule that needs no bins.

    References
    ----------
    .. [1] A. Niculescu-Mizil and R. Caruana, "Predicting good probabilities
       with supervised learning", ICML 2005.

    Examples
    --------
    >>> from fastauc import calibration_curve
    >>> prob_true, prob_pred = calibration_curve(
    ...     [0, 0, 0, 0, 1, 1, 1, 1], [0.1, 0.2, 0.3, 0.4, 0.65, 0.7, 0.8, 0.9], n_bins=3)
    >>> prob_true
    array([0. , 0.5, 1. ])
    >>> prob_pred
    array([0.2  , 0.525, 0.8  ])
    """
    n_bins = _check_n_bins(n_bins, "calibration_curve")
    _check_options("strategy", strategy, _STRATEGIES, "calibration_curve")
    y = v.as_label_array(y_true)
    p = v.as_float_array(y_prob, "y_prob")
    v.check_lengths(y_true=y, y_prob=p)
    uniform = (v.EMPTY_WEIGHT, np.linspace(0.0, 1.0, n_bins + 1)[1:-1], n_bins, False, n_bins, 0)
    labels = None
    if strategy == "uniform" and _labels_in_the_pass(y, p.shape[0], pos_label):
        # labels {0, 1} checked in the pass that bins the rows
        (total, sums, true), (lo, hi, bad), y_range = _row_bins(y, p, *uniform)
        if y_range == (0, 1):
            classes, labels = np.array([0, 1], y.dtype), y
    if labels is None:
        classes, ones = v.classes_and_ones(y)
        pos_label = v.resolve_pos_label(classes, pos_label)
        labels = ones if ones is not None and pos_label == 1 else v.positive_mask(y, pos_label)
        # the pass that bins the rows (uniform) or counts them by bucket
        # (quantile) finds their range too; its errors in scikit-learn's order
        if strategy == "quantile":
            bits = p.view(np.uint64)
            counted = _bucket_counts(bits)
            lo, hi, bad = counted[3]
        else:
            (total, sums, true), (lo, hi, bad), _ = _row_bins(labels, p, *uniform)
    if bad:
        v.raise_non_finite("y_prob", p)
    if lo < 0 or hi > 1:
        raise ValueError("y_prob has values outside [0, 1].")
    if len(classes) > 2:
        raise ValueError(f"Only binary classification is supported. Provided labels {classes}.")
    if strategy == "quantile":
        edges = _percentile_edges(lambda k: _selected(bits, counted, k), p.shape[0], n_bins)
        (total, sums, true), _, _ = _row_bins(labels, p, v.EMPTY_WEIGHT, edges[1:-1], n_bins,
                                              False, 0, 0)
    kept = total != 0
    return true[kept] / total[kept], sums[kept] / total[kept]


@dispatch("y_prob")
def calibration_error(y_true, y_prob, *, n_bins=15, norm="l1", sample_weight=None):
    """Expected (l1), root-mean-square (l2) or maximum (max) calibration error.

    The binary calibration error of torchmetrics
    (:func:`torchmetrics.functional.classification.binary_calibration_error`)
    on probabilities, with sample weights. The probabilities are cut at
    ``n_bins + 1`` equally spaced edges from 0 to 1 into bins closed on the left
    (a probability on an edge goes to the bin above it, and 1 to a bin of
    its own, as torchmetrics' ``bucketize(..., right=True)`` puts it). With
    ``acc_b`` the (weighted) fraction of positives in bin ``b``, ``conf_b``
    its mean probability and ``prop_b`` its share of the weight:

    - ``"l1"``: ``sum_b prop_b |acc_b - conf_b|`` (ECE),
    - ``"l2"``: ``sqrt(sum_b prop_b (acc_b - conf_b)^2)`` (RMS calibration error),
    - ``"max"``: ``max_b |acc_b - conf_b|`` over the non-empty bins (MCE).

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels, {0, 1} or {-1, 1}; 1 is the positive class.
    y_prob : array-like of shape (n_samples,)
        Predicted probabilities of the positive class, in [0, 1].
    n_bins : int, default=15
        Number of equally wide bins.
    norm : {"l1", "l2", "max"}, default="l1"
        Which calibration error.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative sample weights; integer weights equal repeated rows.

    Returns
    -------
    error : float
        The calibration error, in [0, 1]; 0 is perfectly calibrated on
        these bins.

    See Also
    --------
    calibration_curve : The per-bin frequencies and mean probabilities.
    brier_score_loss : A proper scoring rule that needs no bins.

    Notes
    -----
    The edges are rounded as ``torch.linspace`` rounds them element by
    element (``i / n_bins`` from 0 in the lower half, from 1 in the upper
    half: ``0.6`` is an edge of 5 bins, where ``numpy.linspace`` gives
    ``0.6000000000000001``). For long inputs (``n_bins`` of 15 and more)
    torch's vectorised loop rounds a few interior edges one unit in the last
    place differently, depending on the CPU: a probability exactly on such
    an edge can fall on the other side of it.

    References
    ----------
    .. [1] M. P. Naeini, G. F. Cooper and M. Hauskrecht, "Obtaining well
       calibrated probabilities using Bayesian binning", AAAI 2015.
    .. [2] C. Guo, G. Pleiss, Y. Sun and K. Q. Weinberger, "On calibration
       of modern neural networks", ICML 2017.

    Examples
    --------
    >>> from fastauc import calibration_error
    >>> y = [0, 0, 0, 1, 1, 1, 1, 1]
    >>> p = [0.1, 0.2, 0.3, 0.4, 0.65, 0.7, 0.8, 0.9]
    >>> round(calibration_error(y, p, n_bins=3), 6)
    0.2
    >>> round(calibration_error(y, p, n_bins=3, norm="max"), 6)
    0.4
    """
    n_bins = _check_n_bins(n_bins, "calibration_error")
    _check_options("norm", norm, _NORMS, "calibration_error")
    p = v.as_float_array(y_prob, "y_prob")
    y = v.as_label_array(y_true)
    # bins closed on the left; 1 alone in a last bin (one pass; its errors after it)
    bins = (linspace_edges(n_bins), n_bins + 1, True, n_bins, 1)
    done = False
    if _labels_in_the_pass(y, p.shape[0]):  # labels {0, 1} checked in that pass
        try:
            w = v.check_sample_weight(sample_weight, y.shape[0], names=("y_true", "y_prob"))
        except (TypeError, ValueError):  # raised below, after the label checks
            pass
        else:
            (total, sums, true), (lo, hi, bad), y_range = _row_bins(y, p, w, *bins)
            done = y_range == (0, 1)
    if not done:
        if y.ndim == 1 and len(classes := v.unique_labels(y)) > 2:
            raise ValueError(f"multiclass format is not supported (y_true has {len(classes)} "
                             "classes but calibration_error takes a binary target: labels "
                             "{0, 1} or {-1, 1}, 1 the positive class)")
        is_pos, _, w = v.binary_rows(y, sample_weight, None, rule="sklearn", y_prob=p)
        (total, sums, true), (lo, hi, bad), _ = _row_bins(is_pos, p, w, *bins)
    if bad:
        v.raise_non_finite("y_prob", p)
    if lo < 0 or hi > 1:
        raise ValueError("y_prob has values outside [0, 1].")
    return binned_error(total, sums, true, norm)
