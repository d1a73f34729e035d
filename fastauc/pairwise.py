"""All-pairs surrogate losses of the AUC, with gradients, in O(n log n).

AUC counts the positive-negative pairs a model orders correctly; it is a
step function of the scores, so learners minimise a smooth or convex loss
summed over all pairs instead.  Written out that sum costs O(P * N); here the
square and linear losses need per-group sums only (O(n)), and the hinge
losses and the AUM one sort of the scores (the sort layer that every metric
uses) and linear walks.  See ``docs/training.md`` for the derivations.
"""

from __future__ import annotations

import math
import numbers

import numpy as np

from . import _validation as v
from ._groups import group_codes
from ._kernels.pairwise import (
    aum_groups,
    class_sums,
    closed_form,
    hinge_negatives,
    hinge_positives,
    negative_spread,
)
from ._kernels.sorting import keys_to_floats
from ._parallel import map_chunks
from ._sort import sort_by_group

__all__ = ["LOSSES", "pairwise_loss", "pairwise_loss_gradient"]

LOSSES = ("linear", "square", "squared_hinge", "hinge", "aum")
_HINGES = ("squared_hinge", "hinge")
_NORMALIZE = (True, False, "all_pairs")
CHUNK_MIN = 1 << 16  # rows from which the two walks run on two threads


def _check_params(loss, margin, normalize):
    if not isinstance(loss, str) or loss not in LOSSES:
        raise v.InvalidParameterError(
            f"The 'loss' parameter of pairwise_loss must be a str among {set(LOSSES)}. "
            f"Got {loss!r} instead.")
    if isinstance(margin, bool) or not isinstance(margin, numbers.Real):
        raise v.InvalidParameterError(
            f"The 'margin' parameter of pairwise_loss must be a finite real number >= 0 "
            f"(> 0 for {_HINGES[0]!r} and {_HINGES[1]!r}). Got {margin!r} instead.")
    margin = float(margin)
    low_ok = margin > 0 if loss in _HINGES else margin >= 0
    if not (math.isfinite(margin) and low_ok):
        bound = "> 0" if loss in _HINGES else ">= 0"
        raise ValueError(
            f"margin must be a finite number {bound} for loss={loss!r}, got {margin!r}")
    if not any(normalize is x or (isinstance(x, str) and normalize == x) for x in _NORMALIZE) \
            and not isinstance(normalize, np.bool_):
        raise v.InvalidParameterError(
            "The 'normalize' parameter of pairwise_loss must be True, False or 'all_pairs'. "
            f"Got {normalize!r} instead.")
    if isinstance(normalize, np.bool_):
        normalize = bool(normalize)
    if loss == "aum" and normalize == "all_pairs":
        raise ValueError(
            "normalize='all_pairs' is the mean over ordered pairs of a pairwise loss; "
            "loss='aum' is an area over thresholds and takes normalize=True (rates) or "
            "False (weighted counts)")
    return margin, normalize


def _warn_no_pairs(wp, wn, present, grouped):
    lonely = int(np.count_nonzero(present & ((wp == 0) | (wn == 0))))
    if not lonely:
        return
    if grouped:
        v.warn_undefined(
            f"{lonely} of {int(present.sum())} groups have no positive-negative pair "
            "(one class, or one class of zero weight): they add nothing to the loss and "
            "their rows get a zero gradient.", stacklevel=4)
    else:
        v.warn_undefined(
            "Only one class is present in y_true (by weight): there is no "
            "positive-negative pair, so the loss is 0 and the gradient zero.", stacklevel=4)


def _or_none(w):
    return None if w.shape[0] == 0 else w


def _closed_form(loss, s, is_pos, w, codes, n_groups, sums, margin, z):
    """Linear and square losses from per-group sums: no sort."""
    wp, wn, sp, sn = sums
    mean_p = np.divide(sp, wp, out=np.zeros(n_groups), where=wp > 0)
    mean_n = np.divide(sn, wn, out=np.zeros(n_groups), where=wn > 0)
    n = s.shape[0]
    grad = np.zeros(n)
    hess = np.zeros(n)
    square = loss == "square"
    value = closed_form(s, is_pos, _or_none(w), codes, wp, wn, mean_p, mean_n, margin, square,
                        1.0 / z, grad, hess)
    if square:
        m2n = np.zeros(n_groups)
        negative_spread(s, is_pos, _or_none(w), codes, mean_n, m2n)
        value += float(np.dot(wp, m2n)) / z
    else:
        value = float(np.dot(wp * wn, mean_n - mean_p)) / z
    return value, grad, hess


def _sorted_terms(loss, s, is_pos, w, codes, n_groups, sums, margin, z, normalize):
    """Hinge losses and AUM: one sort by (group, score), then the walks."""
    wp, wn = sums[:2]
    runs, p_starts, n_starts = sort_by_group(is_pos, s, w, codes, n_groups)
    ps = keys_to_floats(runs.pk, runs.pk)
    ns = keys_to_floats(runs.nk, runs.nk)
    pw, nw = _or_none(runs.pw), _or_none(runs.nw)
    n = s.shape[0]
    grad = np.zeros(n)
    hess = np.zeros(n)
    if loss == "aum":
        rates = normalize is True
        pairs = wp * wn
        scale = pairs / pairs.sum() if rates else np.ones(n_groups)
        value = aum_groups(ps, pw, runs.px, p_starts, ns, nw, runs.nx, n_starts, rates, scale,
                           grad)
        return value, grad, hess
    squared = loss == "squared_hinge"
    scale = np.full(n_groups, 1.0 / z)
    calls = [
        (hinge_positives, (ps, pw, runs.px, p_starts, ns, nw, n_starts, margin, squared, scale,
                           grad, hess)),
        (hinge_negatives, (ps, pw, p_starts, ns, nw, runs.nx, n_starts, margin, squared, scale,
                           grad, hess)),
    ]  # the two walks write disjoint rows
    return _run(calls, n >= CHUNK_MIN)[0], grad, hess


def _run(calls, threaded):
    """``[fn(*args) for fn, args in calls]``, on threads when ``threaded``."""
    if threaded:
        return map_chunks(lambda fn, args: fn(*args), calls)
    return [fn(*args) for fn, args in calls]


def _pairwise(y_true, y_score, loss, margin, sample_weight, pos_label, groups, normalize,
              hessian):
    margin, normalize = _check_params(loss, margin, normalize)
    is_pos, s, w, _, _ = v.binary_target(y_true, y_score, sample_weight, pos_label,
                                         default_rule="greater", keep_float32=True)
    v.check_finite(s, "y_score")
    n = s.shape[0]
    if groups is None:
        codes = None
        n_groups = 1
        present = np.array([n > 0])
    else:
        gc = group_codes(groups, n)
        if gc.n_missing:
            raise ValueError(
                f"groups has {gc.n_missing} missing value(s) (first at row "
                f"{gc.first_missing}); every row needs a group")
        codes = gc.codes
        n_groups = gc.n_groups
        present = np.bincount(codes, minlength=n_groups) > 0
    sums = tuple(np.zeros(n_groups) for _ in range(4))  # wp, wn, sp, sn
    class_sums(s, is_pos, _or_none(w), codes, *sums)
    wp, wn = sums[:2]
    _warn_no_pairs(wp, wn, present, groups is not None)
    pairs = float(np.dot(wp, wn))
    if normalize == "all_pairs":
        totals = wp + wn
        z = float(np.dot(totals, totals)) / 2.0
    elif normalize is True:
        z = pairs
    else:
        z = 1.0
    if pairs == 0.0 or z == 0.0:
        value = 0.5 if loss == "linear" and normalize == "all_pairs" and z > 0 else 0.0
        return value, np.zeros(n), np.zeros(n)
    if loss in ("linear", "square"):
        value, grad, hess = _closed_form(loss, s, is_pos, w, codes, n_groups, sums, margin, z)
    else:
        value, grad, hess = _sorted_terms(loss, s, is_pos, w, codes, n_groups, sums, margin, z,
                                          normalize)
    if loss == "linear" and normalize == "all_pairs":
        value += 0.5
    return float(value), grad, hess


def pairwise_loss(y_true, y_score, *, loss="squared_hinge", margin=1.0, sample_weight=None,
                  pos_label=None, groups=None, normalize=True):
    """An all-pairs surrogate of the AUC, exactly, in O(n log n).

    With ``d = s_i - s_j`` for a positive ``i`` and a negative ``j`` (of the
    same group, with ``groups``) and pair weight ``w_i * w_j``, the loss sums
    over all such pairs:

    - ``"linear"``: ``-d``;
    - ``"square"``: ``(margin - d)**2``;
    - ``"squared_hinge"``: ``max(0, margin - d)**2`` (Rust & Hocking 2023);
    - ``"hinge"``: ``max(0, margin - d)``;
    - ``"aum"``: not a sum over pairs but the area under ``min(FPR(t),
      FNR(t))`` over all thresholds ``t`` (Hocking & Barr 2023); weighted
      counts FP and FN with ``normalize=False``.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Binary labels; the greater label is positive unless ``pos_label``.
    y_score : array-like of shape (n_samples,)
        Scores (margins or probabilities); finite.
    loss : {"squared_hinge", "square", "hinge", "linear", "aum"}, default="squared_hinge"
    margin : float, default=1.0
        ``m`` above: finite, > 0 for the hinge losses, >= 0 otherwise
        (unused by ``"linear"`` and ``"aum"``).
    sample_weight : array-like of shape (n_samples,), default=None
    pos_label : int, float, bool or str, default=None
    groups : array-like of shape (n_samples,), default=None
        A query id per row: only pairs within a group count, summed over the
        groups (as ranking learners use ``qid``).  One sort serves all groups.
    normalize : {True, False, "all_pairs"}, default=True
        ``True`` divides by the total pair weight (``W_pos * W_neg``, summed
        over groups); for ``"aum"`` FP and FN become rates within each group
        and the groups' areas are averaged with their pair weights.
        ``False`` gives the raw weighted sum.  ``"all_pairs"`` is the mean
        over all ``N**2`` ordered pairs (``sum_g W_g**2`` with groups, pairs
        of one class counting 0), plus 0.5 for ``"linear"``: the article's
        ``L = 0.5 + mean (y_i - y_j)(p_j - p_i)``.

    Returns
    -------
    loss : float
        0 (0.5 for ``"linear"`` with ``"all_pairs"``) when there is no pair,
        with an :class:`~fastauc.UndefinedMetricWarning` saying how many
        groups have one class only.

    Raises
    ------
    ValueError
        An unknown ``loss`` or ``normalize``, a bad ``margin``, NaN or
        infinite scores, bad weights, labels or lengths, ``groups`` of another
        length or with missing values.

    See Also
    --------
    pairwise_loss_gradient : The same with the gradient and the Hessian.
    fastauc.naive.pairwise_loss : The O(n**2) definition.
    fastauc.naive.article_loss : The article's loss with outer products.

    Notes
    -----
    A hinge pair counts when ``d < margin`` (the float difference, strictly):
    at ``d == margin`` it adds 0 to the value, the gradient and the Hessian.

    References
    ----------
    .. [1] Rust, K. R. and Hocking, T. D. (2023). A log-linear gradient descent
       algorithm for unbalanced binary classification using the all pairs
       squared hinge loss. arXiv:2302.11062.
    .. [2] Hocking, T. D. and Barr, J. (2023). Optimizing ROC curves with a
       sort-based surrogate loss for binary classification and changepoint
       detection. JMLR 24(70).

    Examples
    --------
    >>> from fastauc import pairwise_loss
    >>> y, s = [0, 1, 0, 1], [0.2, 0.9, 0.4, 0.6]
    >>> pairwise_loss(y, s, loss="hinge")  # (0.3 + 0.5 + 0.6 + 0.8) / 4
    0.55
    >>> pairwise_loss(y, s, loss="linear", normalize="all_pairs")  # the article's L
    0.275
    >>> round(pairwise_loss(y, s, loss="aum"), 12)  # no negative outscores a positive
    0.0
    >>> round(pairwise_loss([0, 1, 0, 1], [0.2, 0.9, 0.7, 0.6], loss="aum", normalize=False), 12)
    0.1
    """
    return _pairwise(y_true, y_score, loss, margin, sample_weight, pos_label, groups,
                     normalize, False)[0]


def pairwise_loss_gradient(y_true, y_score, *, loss="squared_hinge", margin=1.0,
                           sample_weight=None, pos_label=None, groups=None, normalize=True,
                           hessian=False):
    """:func:`pairwise_loss` with its gradient in the scores (and the
    diagonal of its Hessian).

    Parameters are those of :func:`pairwise_loss`, plus

    hessian : bool, default=False
        Also return the diagonal of the Hessian.

    Returns
    -------
    value : float
    gradient : ndarray of shape (n_samples,)
        ``d value / d y_score[k]`` in the input's row order.  For ``"aum"``
        (piecewise linear) where a row's score ties another's the two
        one-sided derivatives differ, and their mean is returned; elsewhere
        both equal the derivative.  Rows of weight zero get 0.
    hessian : ndarray of shape (n_samples,), only with ``hessian=True``
        The second derivatives ``d2 value / d y_score[k]**2``: 0 for
        ``"linear"``, ``"hinge"`` and ``"aum"`` (piecewise linear).

    See Also
    --------
    pairwise_loss : The value alone.
    fastauc.objectives : Gradient-boosting objectives built on this.

    Examples
    --------
    >>> from fastauc import pairwise_loss_gradient
    >>> value, grad, hess = pairwise_loss_gradient(
    ...     [0, 1, 0, 1], [0.2, 0.9, 0.4, 0.6], loss="squared_hinge", hessian=True)
    >>> round(value, 6)
    0.335
    >>> grad
    array([ 0.45, -0.4 ,  0.65, -0.7 ])
    >>> hess
    array([1., 1., 1., 1.])

    The AUM's gradient moves only the rows whose scores overlap the other
    class's:

    >>> pairwise_loss_gradient([0, 1, 0, 1], [0.2, 0.9, 0.7, 0.6], loss="aum",
    ...                        normalize=False)[1]
    array([ 0.,  0.,  1., -1.])
    """
    value, grad, hess = _pairwise(y_true, y_score, loss, margin, sample_weight, pos_label,
                                  groups, normalize, hessian)
    return (value, grad, hess) if hessian else (value, grad)
