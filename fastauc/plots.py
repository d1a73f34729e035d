"""Plots (matplotlib, the optional ``plot`` extra, imported only when called).

Every plotting function draws from the same sorted tallies as the metrics
and returns the matplotlib Figure.  ``roc_confidence_band`` computes the
pointwise bootstrap band of the ROC curve with the batched bootstrap kernel.
The drawing itself lives in ``_plotting`` (``report(plot=...)`` uses it too).
"""

from __future__ import annotations

import numpy as np

from . import _validation as v
from ._plotting import (
    _axes,
    _band,
    _Column,
    _draw_gains,
    _draw_precision_recall,
    _draw_roc,
    _labels,
    _pyplot,
)
from ._resample import _prepare

__all__ = ["plot_gains", "plot_precision_recall", "plot_roc", "roc_confidence_band"]


def roc_confidence_band(y_true, y_score, *, sample_weight=None, pos_label=None,
                        n_resamples=200, confidence_level=0.95, fpr_grid=None,
                        stratified=True, random_state=0):
    """Pointwise bootstrap band of the ROC curve: TPR quantiles on a grid of FPR.

    Each replicate's ROC polyline is evaluated at every ``fpr_grid`` value
    (the top of a vertical step at a grid value), with the same resamples as
    :func:`bootstrap_ci` (same ``random_state``, same replicates).

    Returns
    -------
    fpr_grid, tpr_low, tpr_high : ndarray
        The grid (default 101 points on [0, 1]) and the band's edges (the
        ``(1 - level)/2`` and ``(1 + level)/2`` quantiles).

    Examples
    --------
    >>> import numpy as np
    >>> from fastauc import roc_confidence_band
    >>> rng = np.random.default_rng(0)
    >>> y = rng.integers(0, 2, 500)
    >>> grid, low, high = roc_confidence_band(y, y + rng.normal(size=500), n_resamples=100)
    >>> grid.shape, bool(np.all(low <= high))
    ((101,), True)
    """
    level = v.check_confidence_level(confidence_level)
    n_resamples = v.check_positive_int(n_resamples, "n_resamples")
    grid = np.linspace(0.0, 1.0, 101) if fpr_grid is None else np.asarray(fpr_grid, np.float64)
    if grid.ndim != 1 or not np.all(np.diff(grid) > 0) or grid[0] < 0 or grid[-1] > 1:
        raise ValueError("fpr_grid must be increasing values in [0, 1]")
    is_pos = _labels(y_true, pos_label)
    prep = _prepare(is_pos, [y_score], ["y_score"], sample_weight, "roc_auc", stratified)
    return (grid, *_band(prep, grid, n_resamples, level, random_state))


def plot_roc(y_true, y_score, *, sample_weight=None, pos_label=None, band=True,
             n_resamples=200, confidence_level=0.95, random_state=0,
             operating_point="youden", label=None, ax=None):
    """ROC curve with its bootstrap confidence band and an operating point.

    Parameters
    ----------
    y_true, y_score, sample_weight, pos_label
        As in :func:`roc_curve`.
    band : bool, default=True
        Shade the pointwise bootstrap band (:func:`roc_confidence_band`).
    n_resamples, confidence_level, random_state
        For the band.
    operating_point : str, float or None, default="youden"
        A :func:`best_threshold` metric ("f1", "mcc", "youden", "accuracy",
        "closest_topleft"), a threshold value, or None.
    label : str, default=None
        Legend label (the AUC is appended).
    ax : matplotlib Axes, default=None

    Returns
    -------
    matplotlib.figure.Figure

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from fastauc import plot_roc
    >>> fig = plot_roc([0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.2, 0.7], band=False)
    >>> fig.axes[0].get_xlabel()
    'False positive rate'
    """
    col = _Column(_labels(y_true, pos_label), y_score, sample_weight)  # checks first
    fig, ax = _axes(ax, figsize=(5.5, 5))
    _draw_roc(ax, col, band, n_resamples, confidence_level, random_state, operating_point,
              label)
    return fig


def plot_precision_recall(y_true, y_score, *, sample_weight=None, pos_label=None, label=None,
                          ax=None, baseline=True):
    """Precision-recall curve (a step function) with the average precision.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from fastauc import plot_precision_recall
    >>> fig = plot_precision_recall([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    >>> fig.axes[0].get_ylabel()
    'Precision'
    """
    col = _Column(_labels(y_true, pos_label), y_score, sample_weight)  # checks first
    fig, ax = _axes(ax, figsize=(5.5, 5))
    _draw_precision_recall(ax, col, label, baseline)
    return fig


def plot_gains(y_true, y_score, *, sample_weight=None, pos_label=None, n_bins=10, label=None,
               ax=None, baseline=True):
    """Cumulative gains curve and lift by bin.

    Without ``ax``, a figure with two panels: the cumulative gains curve
    (share of positives captured against share of rows, highest scores
    first, tied rows spread evenly) and the lift of each of ``n_bins`` bins
    (:func:`gains_table`).  With ``ax``, only the gains curve, on ``ax``.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from fastauc import plot_gains
    >>> fig = plot_gains([1, 0, 1, 0, 0, 0, 0, 0, 0, 1], list(range(10, 0, -1)), n_bins=5)
    >>> len(fig.axes)
    2
    """
    n_bins = v.check_positive_int(n_bins, "n_bins")
    col = _Column(_labels(y_true, pos_label), y_score, sample_weight)
    if ax is None:
        plt = _pyplot()
        fig, (ax, ax_lift) = plt.subplots(1, 2, figsize=(10, 4.5))
    else:
        fig, ax_lift = ax.figure, None
    _draw_gains(ax, ax_lift, col, n_bins, label, baseline)
    return fig
