"""Plots (matplotlib, the optional ``plot`` extra, imported only when called).

Every plotting function draws from the same sorted tallies as the metrics
and returns the matplotlib Figure.  ``roc_confidence_band`` computes the
pointwise bootstrap band of the ROC curve with the batched bootstrap kernel.
"""

from __future__ import annotations

import numpy as np

from . import _validation as v
from ._kernels.resampling import PARTIAL_AUC, roc_band_batch
from ._kernels.sorting import keys_to_floats
from ._parallel import map_chunks
from ._resample import _BATCH, _kernel_arrays, _prepare, layout_table
from ._kernels.thresholds import CODES, best_index
from ._curves import cumulative_from, gains, layout_tallies
from .thresholds import ThresholdMetrics

__all__ = ["plot_gains", "plot_precision_recall", "plot_roc", "roc_confidence_band"]


def _pyplot():
    try:
        import matplotlib.pyplot as plt
    except ImportError:
        raise ImportError("plotting needs matplotlib: pip install 'fastauc[plot]'") from None
    return plt


def _axes(ax, **subplots):
    if ax is not None:
        return ax.figure, ax
    plt = _pyplot()
    fig, ax = plt.subplots(**subplots)
    return fig, ax


def _labels(y_true, pos_label):
    """Boolean positives, by scikit-learn's rule for pos_label=None."""
    return v.binary_rows(y_true, pos_label=pos_label, rule="sklearn")[0]


class _Column:
    """One score column sorted once: everything the plots draw comes from it."""

    def __init__(self, is_pos, y_score, sample_weight, stratified=True):
        self.prep = _prepare(is_pos, [y_score], ["y_score"], sample_weight, "roc_auc",
                             stratified)
        model = self.prep.models[0]
        self.table = layout_table(model.lay, model.wl)
        keys, *tallies = layout_tallies(model.lay, model.wl, self.table)
        self.metrics = ThresholdMetrics(keys_to_floats(keys), *tallies)
        if self.metrics.total_pos <= 0 or self.metrics.total_neg <= 0:
            empty = "positive" if self.metrics.total_pos <= 0 else "negative"
            raise ValueError(f"the {empty} rows of y_true all have zero sample_weight; the "
                             "curves are not defined")


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


def _band(prep, grid, n_resamples, level, random_state):
    """The band's edges from a prepared (sorted) model."""
    src, w, _, _, code = _kernel_arrays(prep, PARTIAL_AUC)  # merged-order arrays
    seed = v.seed_from_random_state(random_state)
    out = np.empty((n_resamples, grid.shape[0]))
    map_chunks(roc_band_batch, [(seed, r, out[r: r + _BATCH], prep.strata, src[0], w[0],
                                 code[0], grid) for r in range(0, n_resamples, _BATCH)])
    alpha = 1.0 - level
    low, high = np.nanquantile(out, [alpha / 2, 1 - alpha / 2], axis=0)
    return low, high


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


def _draw_roc(ax, col, band, n_resamples, confidence_level, random_state, operating_point,
              label):
    m = col.metrics
    keep = _corners(np.concatenate(([0.0], m.tp)), np.concatenate(([0.0], m.fp)))
    fpr = np.concatenate(([0.0], m.fpr))[keep]
    tpr = np.concatenate(([0.0], m.tpr))[keep]
    # the area of the drawn polyline (dropped points are collinear: same area)
    auc = float(np.sum(np.diff(fpr) * (tpr[1:] + tpr[:-1])) / 2.0)
    text = f"AUC = {auc:.3f}" if label is None else f"{label} (AUC = {auc:.3f})"
    (line,) = ax.plot(fpr, tpr, lw=1.8, label=text)
    if band:
        level = v.check_confidence_level(confidence_level)
        grid = np.linspace(0.0, 1.0, 101)
        low, high = _band(col.prep, grid, v.check_positive_int(n_resamples, "n_resamples"),
                          level, random_state)
        ax.fill_between(grid, low, high, color=line.get_color(), alpha=0.2, lw=0,
                        label=f"{confidence_level:.0%} bootstrap band")
    if operating_point is not None:
        if isinstance(operating_point, str):
            v.check_choice(operating_point, "operating_point",
                           tuple(c for c in CODES if c not in ("fbeta", "cost")))
            i = best_index(m.tp, m.fp, m.total_pos, m.total_neg, CODES[operating_point],
                           1.0, 0.0, 0.0)[0]
            name = operating_point
        else:  # the last (lowest) threshold >= the value given
            i = max(int(np.searchsorted(-m.threshold, -float(operating_point), "right")) - 1, 0)
            name = "threshold"
        ax.plot([m.fpr[i]], [m.tpr[i]], "o", color=line.get_color(), ms=7,
                label=f"{name}: t = {m.threshold[i]:.4g}")
    ax.plot([0, 1], [0, 1], ls="--", lw=0.8, color="grey")
    ax.set(xlim=(0, 1), ylim=(0, 1.01), xlabel="False positive rate",
           ylabel="True positive rate", title="ROC curve")
    ax.legend(loc="lower right", fontsize="small")


def _corners(tps, fps):
    """Points of the ROC polyline that are not on a straight segment, from the
    cumulative tallies: scikit-learn's ``drop_intermediate`` rule (same drawing,
    far fewer points)."""
    if tps.shape[0] <= 2:
        return np.ones(tps.shape[0], bool)
    corner = (np.diff(tps, 2) != 0) | (np.diff(fps, 2) != 0)
    return np.concatenate(([True], corner, [True]))


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


def _draw_precision_recall(ax, col, label, baseline):
    m = col.metrics
    # precision_recall_curve's points: increasing thresholds, then (recall 0, precision 1)
    recall = np.concatenate((m.recall[::-1], [0.0]))
    precision = np.concatenate((m.precision[::-1], [1.0]))
    ap = col.table.sweep().average_precision
    text = f"AP = {ap:.3f}" if label is None else f"{label} (AP = {ap:.3f})"
    ax.plot(recall, precision, drawstyle="steps-post", lw=1.8, label=text)
    if baseline:  # a classifier without skill: precision = prevalence
        prevalence = m.total_pos / (m.total_pos + m.total_neg)
        ax.axhline(prevalence, ls="--", lw=0.8, color="grey",
                   label=f"prevalence {prevalence:.3f}")
    ax.set(xlim=(0, 1), ylim=(0, 1.01), xlabel="Recall", ylabel="Precision",
           title="Precision-recall curve")
    ax.legend(loc="upper right", fontsize="small")


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


def _draw_gains(ax, ax_lift, col, n_bins, label, baseline):
    m = col.metrics
    cw, cp, total_p, total = cumulative_from(m.tp, m.fp, m.total_pos, m.total_neg)
    ax.plot(cw / total, cp / total_p, lw=1.8, label=label or "model")
    if baseline:
        ax.plot([0, 1], [0, 1], ls="--", lw=0.8, color="grey", label="random")
    ax.set(xlim=(0, 1), ylim=(0, 1.01), xlabel="Share of rows (highest scores first)",
           ylabel="Share of positives", title="Cumulative gains")
    ax.legend(loc="lower right", fontsize="small")
    if ax_lift is not None:
        g = gains(m.tp, m.fp, m.total_pos, m.total_neg, n_bins)
        ax_lift.bar(g.bin, g.lift, color="C0", alpha=0.7, label="lift in bin")
        ax_lift.plot(g.bin, g.cumulative_lift, "o-", color="C1", label="cumulative lift")
        ax_lift.axhline(1.0, ls="--", lw=0.8, color="grey")
        ax_lift.set(xlabel=f"Bin (1 = top {100 / n_bins:.0f}%)", ylabel="Lift",
                    title="Lift by bin", xticks=g.bin)
        ax_lift.legend(fontsize="small")


def save_report_plot(path, y_true, scores, names, sample_weight=None, pos_label=None, seed=0):
    """One PNG with the ROC curves (with bootstrap bands), the precision-recall
    curves and the cumulative gains of every score column (the CLI's --plot)."""
    plt = _pyplot()
    import matplotlib

    if matplotlib.get_backend().lower() not in ("agg", "pdf", "svg", "ps", "cairo"):
        plt.switch_backend("Agg")
    S = np.asarray(scores, np.float64).reshape(len(scores), -1)
    is_pos = _labels(y_true, pos_label)
    fig, axes = plt.subplots(1, 3, figsize=(16, 5))
    for j, name in enumerate(names):  # one sort per column for all three panels
        col = _Column(is_pos, np.ascontiguousarray(S[:, j]), sample_weight)
        _draw_roc(axes[0], col, True, 200, 0.95, seed, "youden" if j == 0 else None, name)
        _draw_precision_recall(axes[1], col, name, j == 0)
        _draw_gains(axes[2], None, col, 10, name, j == 0)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path
