"""All-pairs surrogate losses of the AUC, with gradients, in O(n log n).

AUC counts the positive-negative pairs a model orders correctly; it is a
step function of the scores, so learners minimise a smooth or convex loss
summed over all pairs instead.  Written out that sum costs O(P * N); here the
square and linear losses need per-group sums only (O(n)), and the hinge
losses and the AUM one sort of the scores (the sort layer that every metric
uses) and linear walks.  See ``docs/guide/training.md`` for the derivations.
"""

from __future__ import annotations

from ._device import dispatch
from ._pairwise import pairwise_terms

__all__ = ["pairwise_loss", "pairwise_loss_gradient"]


@dispatch("y_score")
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
        The surrogate, as listed above.
    margin : float, default=1.0
        ``m`` above: finite, > 0 for the hinge losses, >= 0 otherwise
        (unused by ``"linear"`` and ``"aum"``).
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative row weights; a pair weighs ``w_i * w_j``.
    pos_label : int, float, bool or str, default=None
        The label of the positive class (default: the greater label).
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

    Notes
    -----
    ``fastauc.naive.pairwise_loss`` is the O(n**2) definition this is tested
    against, and ``fastauc.naive.article_loss`` the article's loss written
    with outer products.

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
    return pairwise_terms(y_true, y_score, loss, margin, sample_weight, pos_label, groups,
                          normalize)[0]


@dispatch("y_score")
def pairwise_loss_gradient(y_true, y_score, *, loss="squared_hinge", margin=1.0,
                           sample_weight=None, pos_label=None, groups=None, normalize=True,
                           hessian=False):
    """:func:`pairwise_loss` with its gradient in the scores (and the
    diagonal of its Hessian).

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Binary labels; the greater label is positive unless ``pos_label``.
    y_score : array-like of shape (n_samples,)
        Scores (margins or probabilities); finite.
    loss : {"squared_hinge", "square", "hinge", "linear", "aum"}, default="squared_hinge"
        The surrogate (see :func:`pairwise_loss`).
    margin : float, default=1.0
        The margin of the hinge and square losses: finite, > 0 for the hinge
        losses, >= 0 otherwise (unused by ``"linear"`` and ``"aum"``).
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative row weights; a pair weighs ``w_i * w_j``.
    pos_label : int, float, bool or str, default=None
        The label of the positive class (default: the greater label).
    groups : array-like of shape (n_samples,), default=None
        A query id per row: only pairs within a group count.
    normalize : {True, False, "all_pairs"}, default=True
        How the sum is scaled (see :func:`pairwise_loss`); the gradient and
        the Hessian are scaled alike.
    hessian : bool, default=False
        Also return the diagonal of the Hessian.

    Returns
    -------
    value : float
        The loss, as :func:`pairwise_loss` returns it.
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

    Notes
    -----
    ``fastauc.naive.pairwise_loss`` is the O(n**2) definition, with the
    gradient, that this is tested against.

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
    value, grad, hess = pairwise_terms(y_true, y_score, loss, margin, sample_weight, pos_label,
                                       groups, normalize)
    return (value, grad, hess) if hessian else (value, grad)
