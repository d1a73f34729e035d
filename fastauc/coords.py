"""pROC's ``coords``: any coordinate of the ROC curve, at thresholds or at
given rates (intervals: :mod:`fastauc.coords_intervals`)."""

from __future__ import annotations

from ._coords import Coords, _curve, coords_of_curve
from ._curves import warn_roc_totals
from ._device import dispatch

__all__ = ["Coords", "coords"]


@dispatch("y_score")
def coords(y_true, y_score, x="all", *, input="threshold",
           ret=("threshold", "specificity", "sensitivity"), sample_weight=None, pos_label=None,
           best_method="youden", best_weights=(1.0, 0.5)):
    """Coordinates of the ROC curve at thresholds or at given rates (pROC's ``coords``).

    One sort; every coordinate of every requested point comes from the
    cumulative class weights at the distinct scores.  Values equal pROC's
    ``coords(roc(y_true, y_score, direction = "<"), x, input, ret)`` (higher
    scores are positive, as in scikit-learn), with sample weights besides.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Binary labels.
    y_score : array-like of shape (n_samples,)
        Scores; higher means more likely positive.
    x : "all", "local maxima", "best" or array-like of float, default="all"
        The points: every point of the curve (thresholds increasing, from
        ``-inf``), pROC's local maxima, the best point(s) by
        ``best_method``, or values of the coordinate ``input``.
    input : str, default="threshold"
        What numeric ``x`` holds: ``"threshold"`` (predict positive when
        ``score >= x``) or a monotone coordinate: ``"sensitivity"``,
        ``"specificity"``, ``"tpr"``, ``"tnr"``, ``"fpr"``, ``"fnr"``,
        ``"recall"``, ``"tp"``, ``"tn"``, ``"fp"``, ``"fn"``,
        ``"1-specificity"``, ``"1-sensitivity"``.  A rate between two points
        is interpolated linearly (threshold NaN), as pROC does; where several
        points have the value, the one of highest sensitivity is taken for a
        coordinate that falls as the threshold rises, of highest specificity
        otherwise.
    ret : str or sequence of str, default=("threshold", "specificity", "sensitivity")
        The coordinates returned, pROC's names: ``"threshold"``,
        ``"specificity"``, ``"sensitivity"``, ``"accuracy"``, ``"tn"``,
        ``"tp"``, ``"fn"``, ``"fp"``, ``"npv"``, ``"ppv"``, ``"fdr"``,
        ``"fpr"``, ``"tpr"``, ``"tnr"``, ``"fnr"``, ``"1-specificity"``,
        ``"1-sensitivity"``, ``"1-accuracy"``, ``"1-npv"``, ``"1-ppv"``,
        ``"precision"``, ``"recall"``, ``"lr_pos"``, ``"lr_neg"``,
        ``"youden"``, ``"closest.topleft"``, and ``"f1"``, ``"mcc"``; or
        ``"all"``.  Unique prefixes (``"sens"``) and pROC's aliases
        (``"t"``, ``"topleft"``, ``"npe"``, ``"ppe"``) are accepted.
    sample_weight : array-like of shape (n_samples,), default=None
        Row weights: counts become weighted sums.
    pos_label : int, float, bool or str, default=None
        The positive class; None: scikit-learn's rule (labels {0, 1} or {-1, 1}).
    best_method : {"youden", "closest.topleft"}, default="youden"
        The criterion of ``x="best"``: the greatest ``se + r sp`` or the least
        ``(1 - se)^2 + r (1 - sp)^2``.
    best_weights : tuple of 2 floats, default=(1.0, 0.5)
        pROC's ``best.weights``: the relative cost of a false negative to a
        false positive, and the prevalence; ``r = (1 - prevalence) / (cost *
        prevalence)`` (1 by default).

    Returns
    -------
    Coords
        One array per coordinate of ``ret``, one entry per point (``x="best"``
        returns every point tied for best).

    Raises
    ------
    ValueError
        An unknown or ambiguous coordinate name (the valid ones listed), a
        coordinate that is not monotone given as ``input``, an empty or NaN
        ``x``, or a rate ``x`` outside the coordinate's range (pROC's words:
        "Input specificity (1.2) not in range (0-1)").

    Warns
    -----
    UndefinedMetricWarning
        When ``y_true`` has one class only (scikit-learn's ``roc_curve``
        words): the rates of the absent class are NaN.

    See Also
    --------
    coords_ci : Confidence intervals of these coordinates.
    sensitivity_at_specificity : The best sensitivity at a minimum specificity (torchmetrics' rule).
    threshold_metrics : Every threshold's confusion matrix (scikit-learn's thresholds).

    Notes
    -----
    Conventions (pROC's): the thresholds are the midpoints between
    consecutive distinct scores, from ``-inf`` to ``+inf``, so that each
    threshold separates two scores (scikit-learn's thresholds are the
    scores themselves); ``"youden"`` is ``se + r sp`` (add -1 for the
    J statistic) and ``"closest.topleft"`` is the squared distance
    ``(1 - se)^2 + r (1 - sp)^2``; ``"lr_pos"`` is ``se / (1 - sp)`` and
    ``"lr_neg"`` ``(1 - se) / sp``.  ``"f1"`` and ``"mcc"`` are 0 where
    undefined (scikit-learn's ``zero_division=0``).  Every coordinate is
    computed from the sensitivity and specificity of the point as pROC
    computes it, so values equal pROC's to the last bit.

    References
    ----------
    .. [1] Robin, X. et al. (2011). pROC: an open-source package for R and S+
       to analyze and compare ROC curves. BMC Bioinformatics 12, 77.
    .. [2] Youden, W. J. (1950). Index for rating diagnostic tests. Cancer 3, 32-35.

    Examples
    --------
    >>> from fastauc import coords
    >>> y = [0, 0, 1, 1, 0, 1]
    >>> s = [0.1, 0.4, 0.35, 0.8, 0.2, 0.7]
    >>> c = coords(y, s)
    >>> c.threshold
    array([ -inf, 0.15 , 0.275, 0.375, 0.55 , 0.75 ,   inf])
    >>> coords(y, s, [0.5, 0.9], input="specificity", ret=["sensitivity", "threshold"]).sensitivity
    array([1.        , 0.66666667])
    >>> best = coords(y, s, "best", ret=["threshold", "youden"])  # two points tie
    >>> best.threshold, best.youden
    (array([0.275, 0.55 ]), array([1.66666667, 1.66666667]))
    """
    curve = _curve(y_true, y_score, sample_weight, pos_label)
    if curve.P <= 0 or curve.N <= 0:
        warn_roc_totals(curve.P, curve.N)
    return coords_of_curve(curve, x, input, ret, best_method, best_weights)


