"""CORP reliability diagrams and the Brier score's decomposition.

Both are functions of the distinct-probability table (``_table.Table``:
every distinct predicted probability with the positive and the negative
weight there), built with the one sort.  ``method="isotonic"`` recalibrates
the probabilities with pool adjacent violators on that table, tied
probabilities pooled first (``_kernels.pav``, one pass with a stack): the
CORP approach of Dimitriadis, Gneiting and Jordan (2021), whose reliability
diagram needs no bins and whose recalibrated probabilities split the Brier
score into miscalibration, discrimination and uncertainty.  The binned
methods sum the same table per bin, as ``sklearn.calibration.calibration_curve``
cuts it.
"""

from __future__ import annotations

from ._device import dispatch
from ._probabilities import binary_probability_rows, check_n_bins, check_option
from ._reliability import binned_curve, decomposition_of_rows, isotonic_curve_of_rows
from ._table import Table
from ._results import BrierDecomposition, ReliabilityCurve

__all__ = ["BrierDecomposition", "ReliabilityCurve", "brier_decomposition",
           "reliability_curve"]

_METHODS = ("isotonic", "uniform", "quantile")


# ---------------------------------------------------------------- public

@dispatch("y_prob")
def reliability_curve(y_true, y_prob, *, method="isotonic", n_bins=10, sample_weight=None,
                      pos_label=None):
    """Reliability diagram points: observed frequency against predicted probability.

    With ``method="isotonic"`` (default) the CORP reliability curve of
    Dimitriadis, Gneiting and Jordan (2021): the probabilities recalibrated
    by isotonic regression (pool adjacent violators, weighted, tied
    probabilities pooled first so each distinct probability gets one value),
    with no bins to choose.  Each point is a block of pooled probabilities:
    its range (``low``, ``high``), weight, mean probability and frequency.
    With ``"uniform"`` or ``"quantile"``, the bins of
    :func:`sklearn.calibration.calibration_curve` (empty bins left out),
    with sample weights and the weight of each bin.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels.
    y_prob : array-like of shape (n_samples,)
        Predicted probabilities of the positive class, in [0, 1].
    method : {"isotonic", "uniform", "quantile"}, default="isotonic"
        PAV blocks, bins of equal width, or bins at the quantiles of
        ``y_prob`` (numpy's linear percentiles of the rows; weights count as
        repeated rows).
    n_bins : int, default=10
        Number of bins of the binned methods (before empty ones are left
        out); not used by ``"isotonic"``.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative sample weights; rows of zero weight are left out.
    pos_label : int, float, bool or str, default=None
        The positive class. None means 1 for labels {0, 1} or {-1, 1},
        otherwise the greater numeric label; string labels need it.

    Returns
    -------
    curve : ReliabilityCurve
        ``prob_pred``, ``prob_true``, ``weight``, ``low``, ``high`` per
        point, ``scores`` and ``recalibrated`` per distinct probability.
        With one class only, every frequency is 0 (or 1 for positives
        only): a single block.

    Raises
    ------
    ValueError
        If ``y_prob`` has values outside [0, 1], NaN or infinity, or
        ``y_true`` is not binary.

    See Also
    --------
    brier_decomposition : The Brier score split with the same recalibration.
    calibration_curve : scikit-learn's binned curve (two arrays).
    plot_calibration : The diagram drawn.

    Notes
    -----
    The PAV pass walks the sorted table of distinct probabilities once with
    a stack of blocks: O(distinct probabilities) after the one sort.  Its
    blocks are maximal: adjacent blocks have different frequencies.

    References
    ----------
    .. [1] T. Dimitriadis, T. Gneiting and A. I. Jordan, "Stable reliability
       diagrams for probabilistic classifiers", PNAS 118(8), e2016191118, 2021.
    .. [2] M. Ayer, H. D. Brunk, G. M. Ewing, W. T. Reid and E. Silverman,
       "An empirical distribution function for sampling with incomplete
       information", Annals of Mathematical Statistics 26(4), 641-647, 1955.

    Examples
    --------
    >>> from fastauc import reliability_curve
    >>> y = [0, 0, 1, 0, 1, 1]
    >>> p = [0.1, 0.3, 0.3, 0.6, 0.5, 0.9]
    >>> r = reliability_curve(y, p)
    >>> r.prob_true
    array([0. , 0.5, 1. ])
    >>> r.low, r.high
    (array([0.1, 0.3, 0.9]), array([0.1, 0.6, 0.9]))
    >>> reliability_curve(y, p, method="uniform", n_bins=2).prob_true
    array([0.5, 0.5])
    """
    check_option("method", method, _METHODS, "reliability_curve")
    n_bins = check_n_bins(n_bins, "reliability_curve")
    *rows, bounds = binary_probability_rows(y_true, y_prob, sample_weight, pos_label,
                                            bounds=True)
    if method == "isotonic":
        return isotonic_curve_of_rows(*rows, bounds)
    return binned_curve(Table.from_rows(*rows, name="y_prob"), method, n_bins)


@dispatch("y_prob")
def brier_decomposition(y_true, y_prob, *, sample_weight=None, pos_label=None):
    """The Brier score split into miscalibration, discrimination and uncertainty (CORP).

    With ``S`` the (weighted) mean Brier score, ``x`` the probabilities,
    ``r`` their isotonic recalibration (:func:`reliability_curve`'s
    ``recalibrated``) and ``c`` the base rate:
    ``MCB = S(x) - S(r)``, ``DSC = S(c) - S(r)``, ``UNC = S(c)``, so that
    ``S(x) = MCB - DSC + UNC``.  Both MCB and DSC are non-negative, since
    isotonic regression minimises the Brier score among the non-decreasing
    functions of ``x``, the identity and the constants included.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels.
    y_prob : array-like of shape (n_samples,)
        Predicted probabilities of the positive class, in [0, 1].
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative sample weights.
    pos_label : int, float, bool or str, default=None
        The positive class, as in :func:`brier_score_loss`.

    Returns
    -------
    decomposition : BrierDecomposition
        ``brier``, ``miscalibration``, ``discrimination``, ``uncertainty``
        (Python floats).  With one class only, ``uncertainty`` and
        ``discrimination`` are 0 and ``miscalibration`` is the Brier score;
        constant probabilities have ``discrimination`` 0.

    Raises
    ------
    ValueError
        If ``y_prob`` has values outside [0, 1], NaN or infinity, or
        ``y_true`` is not binary.

    See Also
    --------
    reliability_curve : The recalibrated probabilities (the CORP diagram).
    brier_score_loss : The Brier score alone.
    d2_brier_score : ``1 - S(x) / S(c)``, the skill score against the base rate.

    Notes
    -----
    ``S(r)`` is a sum over the PAV blocks: a block of positive weight ``P``
    and negative weight ``N`` contributes ``P N / (P + N)``.  The score,
    the blocks and the class totals come from one pass over the table.

    References
    ----------
    .. [1] T. Dimitriadis, T. Gneiting and A. I. Jordan, "Stable reliability
       diagrams for probabilistic classifiers", PNAS 118(8), e2016191118, 2021.
    .. [2] A. H. Murphy, "A new vector partition of the probability score",
       Journal of Applied Meteorology 12(4), 595-600, 1973.

    Examples
    --------
    >>> from fastauc import brier_decomposition
    >>> d = brier_decomposition([0, 0, 1, 0, 1, 1], [0.1, 0.3, 0.3, 0.6, 0.5, 0.9])
    >>> [round(x, 6) for x in (d.brier, d.miscalibration, d.discrimination)]
    [0.201667, 0.035, 0.083333]
    >>> d.uncertainty
    0.25
    """
    return decomposition_of_rows(*binary_probability_rows(y_true, y_prob, sample_weight,
                                                          pos_label, bounds=True))
