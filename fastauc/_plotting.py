"""The drawing behind ``plots`` and ``report(plot=...)``: one sorted column
(``_Column``) gives every panel, without another sort."""

from __future__ import annotations

import warnings

import numpy as np

from . import _validation as v
from ._curves import cumulative_from, gains, layout_tallies
from ._kernels.resampling import PARTIAL_AUC, draw_buffer, roc_band_batch, roc_band_wide
from ._kernels.sorting import keys_to_floats
from ._kernels.thresholds import CODES, best_index
from ._parallel import map_units
from ._resample import _BATCH, _kernel_arrays, _prepare, layout_table
from ._results import ThresholdMetrics


def _pyplot():
    try:
        import matplotlib.pyplot as plt
    except ImportError:
        raise ImportError('plotting needs matplotlib: pip install "fastauc[plot]"') from None
    return plt


def _check_ax(ax):
    """``ax`` as given, checked before any work: None, a matplotlib Axes, or a
    Figure (or SubFigure), whose current axes a plot draws on."""
    if ax is None:
        return None
    _pyplot()
    from matplotlib.axes import Axes
    from matplotlib.figure import FigureBase

    if isinstance(ax, (Axes, FigureBase)):
        return ax
    kind = type(ax)
    name = kind.__qualname__ if kind.__module__ == "builtins" else (
        f"{kind.__module__}.{kind.__qualname__}")
    hint = ""
    if isinstance(ax, (np.ndarray, list, tuple)) and any(
            isinstance(a, Axes) for a in (ax.ravel() if isinstance(ax, np.ndarray) else ax)):
        hint = " holding Axes (as plt.subplots returns): pass a single Axes, e.g. ax=axes[0]"
    raise TypeError(f"ax must be a matplotlib Axes, a matplotlib Figure or None; got {name}{hint}")


def _root(fig):
    """The Figure holding ``fig`` (itself, or a SubFigure's parent): the one
    that saves."""
    from matplotlib.figure import SubFigure

    while isinstance(fig, SubFigure):
        fig = fig.figure
    return fig


def _axes(ax, **subplots):
    """The figure and axes a plot draws on, from ``_check_ax(ax)``: a new figure
    (with ``subplots``) for None, the Axes given, or a Figure's current axes (a
    new one if it has none), so that ``fig = plot_roc(y, a); plot_roc(y, b,
    ax=fig)`` draws b over a."""
    if ax is None:
        _, ax = _pyplot().subplots(**subplots)
    else:
        from matplotlib.figure import FigureBase

        if isinstance(ax, FigureBase):
            ax = ax.gca()
    return _root(ax.figure), ax


def _once(ax, text):
    """``text`` as a legend label, or ``"_" + text`` (left out of the legend)
    when an artist of ``ax`` already shows it: a reference line, band or point
    drawn again for another model gives no second legend entry."""
    return "_" + text if text in ax.get_legend_handles_labels()[1] else text


def _labels(y_true, pos_label):
    """Boolean positives, by scikit-learn's rule for pos_label=None."""
    return v.binary_rows(y_true, pos_label=pos_label, rule="sklearn")[0]


class _Column:
    """One score column sorted once: everything the plots draw comes from it.

    Built from the rows (validated and sorted here) or, with ``prep``, from a
    model sorted already (``_resample.prepared_from_layout``)."""

    def __init__(self, is_pos, y_score, sample_weight, stratified=True, prep=None):
        self.prep = prep if prep is not None else _prepare(
            is_pos, [y_score], ["y_score"], sample_weight, "roc_auc", stratified)
        model = self.prep.models[0]
        self.table = layout_table(model.lay, model.wl)
        keys, *tallies = layout_tallies(model.lay, model.wl, self.table)
        self.metrics = ThresholdMetrics(keys_to_floats(keys, np.empty_like(keys)), *tallies)
        if self.metrics.total_pos <= 0 or self.metrics.total_neg <= 0:
            empty = "positive" if self.metrics.total_pos <= 0 else "negative"
            raise ValueError(f"the {empty} rows of y_true all have zero sample_weight; the "
                             "curves are not defined")


def _band(prep, grid, n_resamples, level, random_state):
    """The band's edges from a prepared (sorted) model."""
    src, w, _, _, code = _kernel_arrays(prep, PARTIAL_AUC)  # merged-order arrays
    seed = v.seed_from_random_state(random_state)
    out = np.empty((n_resamples, grid.shape[0]))
    n = prep.strata[-1]
    wrapped = np.zeros(n_resamples, np.bool_)
    map_units(roc_band_batch, [(seed, r, out[r: r + _BATCH], prep.strata, src[0], w[0],
                                 code[0], grid, np.zeros(n, np.uint8), draw_buffer(n),
                                 wrapped[r: r + _BATCH])
                                for r in range(0, n_resamples, _BATCH)])
    for r in np.flatnonzero(wrapped):  # a row drawn 256 times or more: int64 counts
        roc_band_wide(seed, int(r), out[r], prep.strata, src[0], w[0], code[0], grid,
                      draw_buffer(n, 8))
    alpha = 1.0 - level
    with warnings.catch_warnings():  # every replicate with one class: NaN edges
        warnings.simplefilter("ignore", RuntimeWarning)
        low, high = np.nanquantile(out, [alpha / 2, 1 - alpha / 2], axis=0)
    return low, high


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
                        label=_once(ax, f"{confidence_level:.0%} bootstrap band"))
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
                label=_once(ax, f"{name}: t = {m.threshold[i]:.4g}"))
    ax.plot([0, 1], [0, 1], ls="--", lw=0.8, color="grey")
    ax.set(xlim=(0, 1), ylim=(0, 1.01), xlabel="False positive rate",
           ylabel="True positive rate", title="ROC curve")
    ax.legend(loc="lower right", fontsize="small")


def draw_cv_roc(ax, res, label):
    """A :class:`~fastauc.CrossValidatedROC`: each fold's curve thin, their
    vertical average, and the pointwise interval of the average shaded."""
    grid = np.concatenate(([0.0], res.fpr)) if res.fpr[0] > 0 else res.fpr
    pad = (lambda a: np.concatenate(([0.0], a))) if res.fpr[0] > 0 else (lambda a: a)
    k = res.fold_tpr.shape[0]
    text = f"mean of {k} folds (AUC = {res.auc:.3f})"
    (line,) = ax.plot(grid, pad(res.tpr), lw=1.8,
                      label=text if label is None else f"{label}: {text}")
    for row in res.fold_tpr:
        ax.plot(grid, pad(row), lw=0.6, alpha=0.35, color=line.get_color())
    ax.fill_between(grid, pad(res.low), pad(res.high), color=line.get_color(), alpha=0.2, lw=0,
                    label=_once(ax, f"{res.confidence_level:.0%} interval of the mean"))
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
                   label=_once(ax, f"prevalence {prevalence:.3f}"))
    ax.set(xlim=(0, 1), ylim=(0, 1.01), xlabel="Recall", ylabel="Precision",
           title="Precision-recall curve")
    ax.legend(loc="upper right", fontsize="small")


def _draw_gains(ax, ax_lift, col, n_bins, label, baseline):
    m = col.metrics
    cw, cp, total_p, total = cumulative_from(m.tp, m.fp, m.total_pos, m.total_neg)
    ax.plot(cw / total, cp / total_p, lw=1.8, label=label or "model")
    if baseline:
        ax.plot([0, 1], [0, 1], ls="--", lw=0.8, color="grey",
                label=_once(ax, "random"))
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


def draw_report(path, columns, names, seed):
    """One PNG: every column's ROC curve (with its bootstrap band and Youden
    point), precision-recall curve and cumulative gains, from ``_Column``s."""
    plt = _pyplot()
    import matplotlib

    if matplotlib.get_backend().lower() not in ("agg", "pdf", "svg", "ps", "cairo"):
        plt.switch_backend("Agg")
    fig = _report_figure(columns, names, seed)
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path


def _report_figure(columns, names, seed):
    """The report's three panels: every model has its ROC curve, band and Youden
    point, its precision-recall and gains curves (the prevalence and random
    lines, the same for all models, are drawn with the first)."""
    fig, axes = _pyplot().subplots(1, 3, figsize=(16, 5))
    for j, (col, name) in enumerate(zip(columns, names)):
        _draw_roc(axes[0], col, True, 200, 0.95, seed, "youden", name)
        _draw_precision_recall(axes[1], col, name, j == 0)
        _draw_gains(axes[2], None, col, 10, name, j == 0)
    fig.tight_layout()
    return fig


def _models(y_score, label):
    """``[(name, scores)]`` of one score column (named ``label``) or a dict of
    name -> scores (several models on one Axes)."""
    if isinstance(y_score, dict):
        if not y_score:
            raise ValueError("the dict of models is empty: give at least one name -> scores")
        return list(y_score.items())
    return [(label, y_score)]


def _draw_calibration(ax, ax_hist, t, method, n_bins, band, label, hist_bins):
    """One model's reliability diagram (``_reliability.points``) on ``ax``, its
    band (``band``: None or ``(n_rows, n_resamples, level, seed)``) and the
    weighted histogram of its probabilities on ``ax_hist``."""
    from ._reliability import band as reliability_band
    from ._reliability import binned_curve, decomposition, isotonic_curve, points

    curve = isotonic_curve(t) if method == "isotonic" else binned_curve(t, method, n_bins)
    x, y = points(curve)
    d = decomposition(t)
    text = f"Brier = {d.brier:.3f}, MCB = {d.miscalibration:.3f}"
    text = text if label is None else f"{label} ({text})"
    style = "-" if method == "isotonic" else "s-"
    (line,) = ax.plot(x, y, style, lw=1.8, ms=4, label=text)
    if band is not None:
        n_rows, n_resamples, level, seed = band
        grid = np.linspace(x[0], x[-1], 101)
        low, high = reliability_band(t, method, n_bins, n_rows, grid, n_resamples, level, seed)
        ax.fill_between(grid, low, high, color=line.get_color(), alpha=0.2, lw=0,
                        label=_once(ax, f"{level:.0%} bootstrap band"))
    ax.plot([0, 1], [0, 1], ls="--", lw=0.8, color="grey",
            label=_once(ax, "perfectly calibrated"))
    ax.set(xlim=(0, 1), ylim=(0, 1.01), ylabel="Observed frequency",
           title=f"Reliability diagram ({'CORP' if method == 'isotonic' else method + ' bins'})")
    ax.legend(loc="upper left", fontsize="small")
    if ax_hist is not None:
        scores = t.scores
        counts, edges = np.histogram(scores, bins=hist_bins, range=(0.0, 1.0),
                                     weights=t.pos + t.neg)
        ax_hist.stairs(counts, edges, color=line.get_color(), lw=1.4)
        ax_hist.set(xlim=(0, 1), xlabel="Predicted probability", ylabel="Count")
    else:
        ax.set_xlabel("Predicted probability")


def _normal_deviates(p):
    """The standard normal quantiles of ``p`` (-inf at 0, inf at 1), as
    scikit-learn's DET axes use them (``_kernels.normal.norm_ppf``)."""
    from ._kernels.normal import norm_ppf

    p = np.ascontiguousarray(p, np.float64)
    return norm_ppf(p, np.empty_like(p))


DET_TICKS = (0.001, 0.01, 0.05, 0.20, 0.5, 0.80, 0.95, 0.99, 0.999)


def _draw_det(ax, fpr, fnr, label):
    """A DET curve on normal-deviate axes (scikit-learn's DetCurveDisplay)."""
    ax.plot(_normal_deviates(fpr), _normal_deviates(fnr), lw=1.8,
            label="model" if label is None else label)
    ticks = _normal_deviates(DET_TICKS)
    names = [f"{100 * s:.1f}".rstrip("0").rstrip(".") + "%" for s in DET_TICKS]
    ax.set(xticks=ticks, xticklabels=names, yticks=ticks, yticklabels=names,
           xlim=(ticks[0], ticks[-1]), ylim=(ticks[0], ticks[-1]),
           xlabel="False positive rate", ylabel="False negative rate",
           title="Detection error tradeoff (DET) curve")
    ax.legend(loc="upper right", fontsize="small")


def draw_over_time(res, ax=None):
    """An :class:`~fastauc.AUCOverTime`: the windows' AUC at each period's
    end with DeLong's interval shaded, the reference's AUC, the flagged
    periods marked, and the expected AUC (before labels) dashed."""
    fig, ax = _axes(_check_ax(ax), figsize=(8, 4))
    x = res.end
    (line,) = ax.plot(x, res.auc, lw=1.8, marker="o", ms=3, label="AUC")
    ax.fill_between(x, res.low, res.high, color=line.get_color(), alpha=0.2, lw=0,
                    label=f"{res.confidence_level:.0%} interval")
    if res.reference_auc == res.reference_auc:
        ax.axhline(res.reference_auc, ls="--", lw=0.8, color="grey", label="reference")
    if res.flag.any():
        ax.plot(x[res.flag], res.auc[res.flag], ls="none", marker="o", ms=7, mfc="none",
                color="tab:red", label=f"flagged ({res.adjust or 'unadjusted'} p)")
    if res.expected_auc is not None:
        ax.plot(x, res.expected_auc, ls=":", lw=1.4, color=line.get_color(),
                label="expected (calibrated)")
    ax.set(xlabel="end of window", ylabel="ROC AUC", title="ROC AUC over time")
    ax.legend(loc="lower left", fontsize="small")
    return fig
