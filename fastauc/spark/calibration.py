"""Calibration on Spark: the Brier score, its CORP decomposition, the reliability
curve and the binned calibration error, from the distinct-probability table."""

from __future__ import annotations

from .. import calibration as _calibration
from .. import reliability as _reliability
from .._adapters.docstrings import spark_doc
from .._adapters.ranges import table_rows_of
from .ranges import curve


def _on_table(fn, df, y_true, y_prob, sample_weight, label, **options):
    """``fn`` (an in-memory calibration function) of the table the key ranges
    build on the executors (``label`` the positive class): one row per
    distinct probability and class, with its weight, label 1 the positive."""
    y, p, w = table_rows_of(curve(df, y_true, y_prob, sample_weight, label, None))
    return fn(y, p, sample_weight=w, **options)


@spark_doc
def brier_score_loss(df, y_true, y_prob, *, sample_weight=None, pos_label=None):
    """:func:`fastauc.brier_score_loss` (binary) of a Spark DataFrame's columns.

    The key ranges build the table of distinct probabilities with each
    class's weight on the executors; the score is computed from it (the
    table comes to the driver, as for :func:`threshold_metrics`).

    Parameters
    ----------
    {df}
    {y_true/curve}
    {y_prob}
    {sample_weight}
    {pos_label}

    Returns
    -------
    score : float
        The weighted mean of ``(y - p)^2``, equal to the in-memory function's
        to rounding.

    Raises
    ------
    ValueError
        As :func:`roc_curve`; probabilities outside [0, 1] (as in memory).

    See Also
    --------
    fastauc.brier_score_loss : The in-memory function.
    brier_decomposition : Its CORP decomposition.

    Examples
    --------
    >>> SESSION
    >>> got = fastauc.spark.brier_score_loss(df, "label", "score")
    >>> bool(np.isclose(got, fastauc.brier_score_loss(y, s), rtol=1e-12))
    True
    """
    return _on_table(_calibration.brier_score_loss, df, y_true, y_prob, sample_weight,
                     pos_label, pos_label=1)


@spark_doc
def calibration_error(df, y_true, y_prob, *, n_bins=15, norm="l1", sample_weight=None,
                      pos_label=None):
    """:func:`fastauc.calibration_error` (torchmetrics' binned ECE, RMS or MCE)
    of a Spark DataFrame's columns, from the distinct-probability table.

    Parameters
    ----------
    {df}
    {y_true/curve}
    {y_prob}
    {n_bins/calibration_error}
    {norm}
    {sample_weight}
    {pos_label}

    Returns
    -------
    error : float
        As the in-memory function, to rounding.

    Raises
    ------
    ValueError
        As :func:`roc_curve`; probabilities outside [0, 1] (as in memory).

    See Also
    --------
    fastauc.calibration_error : The in-memory function.
    reliability_curve : The points behind it.

    Examples
    --------
    >>> SESSION
    >>> got = fastauc.spark.calibration_error(df, "label", "score", norm="max")
    >>> bool(np.isclose(got, fastauc.calibration_error(y, s, norm="max"), rtol=1e-12))
    True
    """
    return _on_table(_calibration.calibration_error, df, y_true, y_prob, sample_weight,
                     pos_label, n_bins=n_bins, norm=norm)


@spark_doc
def reliability_curve(df, y_true, y_prob, *, method="isotonic", n_bins=10, sample_weight=None,
                      pos_label=None):
    """:func:`fastauc.reliability_curve` (CORP's PAV fit, or bins) of a Spark
    DataFrame's columns, from the distinct-probability table.

    Parameters
    ----------
    {df}
    {y_true/curve}
    {y_prob}
    {method/reliability}
    {n_bins/reliability}
    {sample_weight}
    {pos_label}

    Returns
    -------
    curve : fastauc.ReliabilityCurve
        As the in-memory function.

    Raises
    ------
    ValueError
        As :func:`roc_curve`; probabilities outside [0, 1] (as in memory).

    See Also
    --------
    fastauc.reliability_curve : The in-memory function.
    brier_decomposition : The Brier score's CORP decomposition.

    Examples
    --------
    >>> SESSION
    >>> got = fastauc.spark.reliability_curve(df, "label", "score")
    >>> bool(np.allclose(got.prob_true, fastauc.reliability_curve(y, s).prob_true))
    True
    """
    return _on_table(_reliability.reliability_curve, df, y_true, y_prob, sample_weight,
                     pos_label, method=method, n_bins=n_bins, pos_label=1)


@spark_doc
def brier_decomposition(df, y_true, y_prob, *, sample_weight=None, pos_label=None):
    """:func:`fastauc.brier_decomposition` (CORP: miscalibration,
    discrimination, uncertainty) of a Spark DataFrame's columns, from the
    distinct-probability table.

    Parameters
    ----------
    {df}
    {y_true/curve}
    {y_prob}
    {sample_weight}
    {pos_label}

    Returns
    -------
    decomposition : fastauc.BrierDecomposition
        As the in-memory function.

    Raises
    ------
    ValueError
        As :func:`roc_curve`; probabilities outside [0, 1] (as in memory).

    See Also
    --------
    fastauc.brier_decomposition : The in-memory function.
    brier_score_loss : The Brier score alone.

    Examples
    --------
    >>> SESSION
    >>> got = fastauc.spark.brier_decomposition(df, "label", "score")
    >>> bool(np.isclose(got.brier, fastauc.brier_score_loss(y, s), rtol=1e-12))
    True
    """
    return _on_table(_reliability.brier_decomposition, df, y_true, y_prob, sample_weight,
                     pos_label, pos_label=1)
