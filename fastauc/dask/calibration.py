"""Calibration on Dask: the Brier score, its CORP decomposition, the reliability
curve and the binned calibration error, from the distinct-probability table."""

from __future__ import annotations

from .. import calibration as _calibration
from .. import reliability as _reliability
from .._adapters.docstrings import dask_doc
from .._adapters.ranges import table_rows_of
from .ranges import curve_graph, load_dask


def _on_table(fn, y_true, y_prob, sample_weight, label, compute, **options):
    """``fn`` (an in-memory calibration function) of the table the key ranges
    build (``label`` the positive class): one row per distinct probability
    and class, with its weight, label 1 the positive class."""
    graph = curve_graph(y_true, y_prob, sample_weight, label, None)

    def finish(t):
        y, p, w = table_rows_of(t)
        return fn(y, p, sample_weight=w, **options)

    result = load_dask()[0].delayed(finish)(graph)
    return result.compute() if compute else result


@dask_doc
def brier_score_loss(y_true, y_prob, *, sample_weight=None, pos_label=None, compute=True):
    """:func:`fastauc.brier_score_loss` (binary) of dask collections.

    The key ranges build the table of distinct probabilities with each
    class's weight; the score is computed from it (the table comes to the
    client, as for :func:`threshold_metrics`).

    Parameters
    ----------
    {y_true/curve}
    {y_prob}
    {sample_weight}
    {pos_label}
    {compute}

    Returns
    -------
    score : float or dask.delayed.Delayed
        The weighted mean of ``(y - p)^2``, equal to the in-memory function's
        to rounding.  A ``Delayed`` of it when ``compute=False``.

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
    >>> import dask.array as da, numpy as np
    >>> import fastauc, fastauc.dask
    >>> rng = np.random.default_rng(0)
    >>> y = rng.integers(0, 2, 10_000)
    >>> p = np.round(1 / (1 + np.exp(-(y + rng.normal(size=10_000)))), 3)
    >>> Y, P = da.from_array(y, 1000), da.from_array(p, 1000)  # 10 chunks
    >>> got = fastauc.dask.brier_score_loss(Y, P)
    >>> bool(np.isclose(got, fastauc.brier_score_loss(y, p), rtol=1e-12))
    True
    """
    return _on_table(_calibration.brier_score_loss, y_true, y_prob, sample_weight, pos_label,
                     compute, pos_label=1)


@dask_doc
def calibration_error(y_true, y_prob, *, n_bins=15, norm="l1", sample_weight=None,
                      pos_label=None, compute=True):
    """:func:`fastauc.calibration_error` (torchmetrics' binned ECE, RMS or MCE)
    of dask collections, from the distinct-probability table.

    Parameters
    ----------
    {y_true/curve}
    {y_prob}
    {n_bins/calibration_error}
    {norm}
    {sample_weight}
    {pos_label}
    {compute}

    Returns
    -------
    error : float or dask.delayed.Delayed
        As the in-memory function, to rounding.  A ``Delayed`` of it when
        ``compute=False``.

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
    >>> import dask.array as da, numpy as np
    >>> import fastauc, fastauc.dask
    >>> rng = np.random.default_rng(0)
    >>> y = rng.integers(0, 2, 10_000)
    >>> p = np.round(1 / (1 + np.exp(-(y + rng.normal(size=10_000)))), 3)
    >>> Y, P = da.from_array(y, 1000), da.from_array(p, 1000)  # 10 chunks
    >>> got = fastauc.dask.calibration_error(Y, P, norm="l2")
    >>> bool(np.isclose(got, fastauc.calibration_error(y, p, norm="l2"), rtol=1e-12))
    True
    """
    return _on_table(_calibration.calibration_error, y_true, y_prob, sample_weight, pos_label,
                     compute, n_bins=n_bins, norm=norm)


@dask_doc
def reliability_curve(y_true, y_prob, *, method="isotonic", n_bins=10, sample_weight=None,
                      pos_label=None, compute=True):
    """:func:`fastauc.reliability_curve` (CORP's PAV fit, or bins) of dask
    collections, from the distinct-probability table.

    Parameters
    ----------
    {y_true/curve}
    {y_prob}
    {method/reliability}
    {n_bins/reliability}
    {sample_weight}
    {pos_label}
    {compute}

    Returns
    -------
    curve : fastauc.ReliabilityCurve or dask.delayed.Delayed
        As the in-memory function.  A ``Delayed`` of it when ``compute=False``.

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
    >>> import dask.array as da, numpy as np
    >>> import fastauc, fastauc.dask
    >>> rng = np.random.default_rng(0)
    >>> y = rng.integers(0, 2, 10_000)
    >>> p = np.round(1 / (1 + np.exp(-(y + rng.normal(size=10_000)))), 3)
    >>> Y, P = da.from_array(y, 1000), da.from_array(p, 1000)  # 10 chunks
    >>> got = fastauc.dask.reliability_curve(Y, P)
    >>> ref = fastauc.reliability_curve(y, p)
    >>> bool(np.allclose(got.prob_true, ref.prob_true, rtol=1e-12))
    True
    """
    return _on_table(_reliability.reliability_curve, y_true, y_prob, sample_weight, pos_label,
                     compute, method=method, n_bins=n_bins, pos_label=1)


@dask_doc
def brier_decomposition(y_true, y_prob, *, sample_weight=None, pos_label=None, compute=True):
    """:func:`fastauc.brier_decomposition` (CORP: miscalibration,
    discrimination, uncertainty) of dask collections, from the
    distinct-probability table.

    Parameters
    ----------
    {y_true/curve}
    {y_prob}
    {sample_weight}
    {pos_label}
    {compute}

    Returns
    -------
    decomposition : fastauc.BrierDecomposition or dask.delayed.Delayed
        As the in-memory function.  A ``Delayed`` of it when ``compute=False``.

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
    >>> import dask.array as da, numpy as np
    >>> import fastauc, fastauc.dask
    >>> rng = np.random.default_rng(0)
    >>> y = rng.integers(0, 2, 10_000)
    >>> p = np.round(1 / (1 + np.exp(-(y + rng.normal(size=10_000)))), 3)
    >>> Y, P = da.from_array(y, 1000), da.from_array(p, 1000)  # 10 chunks
    >>> got = fastauc.dask.brier_decomposition(Y, P)
    >>> bool(np.isclose(got.miscalibration, fastauc.brier_decomposition(y, p).miscalibration,
    ...                 rtol=1e-10))
    True
    """
    return _on_table(_reliability.brier_decomposition, y_true, y_prob, sample_weight,
                     pos_label, compute, pos_label=1)
