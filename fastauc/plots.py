"""Plots (matplotlib, the optional ``plot`` extra, imported only when called).

Every plotting function draws from the same sorted tallies as the metrics
and returns the matplotlib Figure it drew on.  ``ax`` takes an Axes or a
Figure (its current axes), so ``fig = plot_roc(y, a); plot_roc(y, b, ax=fig)``
overlays model b on model a; the reference lines and the band each get one
legend entry however many models share the axes.  ``roc_confidence_band`` computes the
pointwise bootstrap band of the ROC curve with the batched bootstrap kernel.
``plot_calibration`` draws :func:`reliability_curve` (CORP or binned) with
its histogram and band, ``plot_det`` draws :func:`det_curve` on
normal-deviate axes; both take a dict of models to overlay.
The drawing itself lives in ``_plotting`` (``report(plot=...)`` uses it too).
"""

from __future__ import annotations

import numpy as np

from . import _validation as v
from ._device import dispatch
from ._plotting import (
    _axes,
    _band,
    _check_ax,
    _Column,
    _draw_gains,
    _draw_precision_recall,
    _draw_roc,
    _labels,
    _pyplot,
)
from ._plotting import _draw_calibration, _draw_det, _models
from ._probabilities import binary_probability_table, check_n_bins, check_option
from ._resample import _prepare
from .ranking import det_curve

__all__ = ["plot_calibration", "plot_det", "plot_gains", "plot_over_time",
           "plot_precision_recall", "plot_roc", "roc_confidence_band"]


@dispatch("y_score")
def roc_confidence_band(y_true, y_score, *, sample_weight=None, pos_label=None,
                        n_resamples=200, confidence_level=0.95, fpr_grid=None,
                        stratified=True, random_state=0):
    """Pointwise bootstrap band of the ROC curve: TPR quantiles on a grid of FPR.

    Each replicate's ROC polyline is evaluated at every ``fpr_grid`` value
    (the top of a vertical step at a grid value), with the same resamples as
    :func:`bootstrap_ci` (same ``random_state``, same replicates).  Needs no
    matplotlib: :func:`plot_roc` draws this band.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True binary labels: {0, 1} or {-1, 1}, or give ``pos_label``.
    y_score : array-like of shape (n_samples,)
        Scores of the positive class (probabilities or decision values).
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative sample weights.
    pos_label : int, float, bool or str, default=None
        The label of the positive class (labels {0, 1} or {-1, 1} need none).
    n_resamples : int, default=200
        Number of bootstrap replicates.
    confidence_level : float, default=0.95
        Pointwise level of the band, in (0, 1).
    fpr_grid : array-like of shape (n_points,), default=None
        Increasing false positive rates in [0, 1] at which the band is
        evaluated; default 101 evenly spaced points from 0 to 1.
    stratified : bool, default=True
        Resample positives and negatives separately (every replicate has
        both classes), as :func:`bootstrap_ci`'s default.
    random_state : None, int, numpy Generator, RandomState or SeedSequence, default=0
        Seeds the replicates; the same value gives the same band.

    Returns
    -------
    fpr_grid : ndarray of shape (n_points,)
        The grid.
    tpr_low, tpr_high : ndarray of shape (n_points,)
        The band's edges: the ``(1 - confidence_level) / 2`` and
        ``(1 + confidence_level) / 2`` quantiles of the replicates' true
        positive rates at each grid value.

    Raises
    ------
    ValueError
        If ``fpr_grid`` is not increasing within [0, 1].

    See Also
    --------
    plot_roc : The ROC curve drawn with this band.
    bootstrap_ci : A bootstrap interval of the AUC, from the same replicates.
    roc_curve : The ROC points of all rows.

    References
    ----------
    .. [1] Macskassy, S. A., Provost, F. and Rosset, S. (2005). ROC confidence
       bands: an empirical evaluation. Proceedings of the 22nd International
       Conference on Machine Learning (ICML), 537-544.
    .. [2] Fawcett, T. (2006). An introduction to ROC analysis. Pattern
       Recognition Letters 27, 861-874 (vertical averaging).

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


@dispatch("y_score")
def plot_roc(y_true, y_score, *, sample_weight=None, pos_label=None, band=True,
             n_resamples=200, confidence_level=0.95, random_state=0,
             operating_point="youden", label=None, ax=None, folds=None):
    """ROC curve with its bootstrap confidence band and an operating point.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True binary labels: {0, 1} or {-1, 1}, or give ``pos_label``.
    y_score : array-like of shape (n_samples,)
        Scores of the positive class (probabilities or decision values).
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative sample weights.
    pos_label : int, float, bool or str, default=None
        The label of the positive class (labels {0, 1} or {-1, 1} need none).
    band : bool, default=True
        Shade the pointwise bootstrap band (:func:`roc_confidence_band`).
    n_resamples : int, default=200
        Bootstrap replicates of the band.
    confidence_level : float, default=0.95
        Pointwise level of the band.
    random_state : None, int, numpy Generator, RandomState or SeedSequence, default=0
        Seed of the band's replicates.
    operating_point : str, float or None, default="youden"
        A :func:`best_threshold` metric ("f1", "mcc", "youden", "accuracy",
        "closest_topleft"), a threshold value, or None.
    label : str, default=None
        Legend label (the AUC is appended).
    ax : matplotlib Axes or Figure, default=None
        Where to draw: an Axes, or a Figure (its current axes, a new one if
        it has none), e.g. the Figure an earlier call returned, to overlay
        another model.  Each model's band is shaded in its colour and the
        band has one legend entry whatever the number of models (the colour
        says whose band it is; an entry per model would only repeat it).
        Default: a new figure.
    folds : array-like of shape (n_samples,), default=None
        Each row's cross-validation fold (``y_score`` then holds
        cross-validated scores): draws each fold's curve, their vertical
        average and the pointwise interval of the average
        (:func:`cv_roc_curve`) instead of one curve with a bootstrap band;
        ``band``, ``n_resamples``, ``random_state`` and ``operating_point``
        are then not used.

    Returns
    -------
    matplotlib.figure.Figure
        The figure drawn on: a new one without ``ax``, else the one holding
        ``ax`` (the top-level Figure for an Axes in a SubFigure).

    Raises
    ------
    TypeError
        If ``ax`` is neither None, a matplotlib Axes nor a Figure.

    See Also
    --------
    roc_confidence_band : The band's numbers, without drawing.
    cv_roc_curve : The cross-validated curve drawn with ``folds``.
    roc_curve : The ROC points.
    best_threshold : The operating points marked.
    plot_precision_recall : The precision-recall curve.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from fastauc import plot_roc
    >>> y = [0, 0, 1, 1, 0, 1]
    >>> fig = plot_roc(y, [0.1, 0.4, 0.35, 0.8, 0.2, 0.7], band=False, label="a")
    >>> fig.axes[0].get_xlabel()
    'False positive rate'
    >>> fig = plot_roc(y, [0.2, 0.1, 0.6, 0.7, 0.3, 0.4], band=False, label="b", ax=fig)
    >>> [t.get_text() for t in fig.axes[0].get_legend().get_texts()]
    ['a (AUC = 0.889)', 'youden: t = 0.7', 'b (AUC = 1.000)', 'youden: t = 0.4']
    """
    ax = _check_ax(ax)
    if folds is not None:
        from ._plotting import draw_cv_roc
        from .curvetests import cv_roc_curve

        res = cv_roc_curve(_labels(y_true, pos_label), y_score, folds,
                           confidence_level=confidence_level, sample_weight=sample_weight)
        fig, ax = _axes(ax, figsize=(5.5, 5))
        draw_cv_roc(ax, res, label)
        return fig
    col = _Column(_labels(y_true, pos_label), y_score, sample_weight)  # checks first
    fig, ax = _axes(ax, figsize=(5.5, 5))
    _draw_roc(ax, col, band, n_resamples, confidence_level, random_state, operating_point,
              label)
    return fig


@dispatch("y_score")
def plot_precision_recall(y_true, y_score, *, sample_weight=None, pos_label=None, label=None,
                          ax=None, baseline=True):
    """Precision-recall curve (a step function) with the average precision.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True binary labels: {0, 1} or {-1, 1}, or give ``pos_label``.
    y_score : array-like of shape (n_samples,)
        Scores of the positive class (probabilities or decision values).
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative sample weights.
    pos_label : int, float, bool or str, default=None
        The label of the positive class (labels {0, 1} or {-1, 1} need none).
    label : str, default=None
        Legend label (the average precision is appended).
    ax : matplotlib Axes or Figure, default=None
        Where to draw: an Axes, or a Figure (its current axes, a new one if
        it has none), e.g. the Figure an earlier call returned, to overlay
        another model.  Default: a new figure.
    baseline : bool, default=True
        Draw the precision of a classifier without skill (the prevalence of
        positives), labelled once in the legend if several models share it.

    Returns
    -------
    matplotlib.figure.Figure
        The figure drawn on: a new one without ``ax``, else the one holding
        ``ax`` (the top-level Figure for an Axes in a SubFigure).

    Raises
    ------
    TypeError
        If ``ax`` is neither None, a matplotlib Axes nor a Figure.

    See Also
    --------
    precision_recall_curve : The curve's points.
    average_precision_score : The number in the legend.
    plot_roc : The ROC curve.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from fastauc import plot_precision_recall
    >>> fig = plot_precision_recall([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    >>> fig.axes[0].get_ylabel()
    'Precision'
    """
    ax = _check_ax(ax)
    col = _Column(_labels(y_true, pos_label), y_score, sample_weight)  # checks first
    fig, ax = _axes(ax, figsize=(5.5, 5))
    _draw_precision_recall(ax, col, label, baseline)
    return fig


@dispatch("y_score")
def plot_gains(y_true, y_score, *, sample_weight=None, pos_label=None, n_bins=10, label=None,
               ax=None, baseline=True):
    """Cumulative gains curve and lift by bin.

    Without ``ax`` (or with a Figure that has no axes yet), two panels: the
    cumulative gains curve (share of positives captured against share of
    rows, highest scores first, tied rows spread evenly) and the lift of each
    of ``n_bins`` bins (:func:`gains_table`); the gains panel is left as the
    figure's current axes.  With an Axes, or a Figure that has axes (its
    current axes: the gains panel of a figure this function returned), only
    the gains curve, drawn over what is there.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True binary labels: {0, 1} or {-1, 1}, or give ``pos_label``.
    y_score : array-like of shape (n_samples,)
        Scores of the positive class (probabilities or decision values).
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative sample weights.
    pos_label : int, float, bool or str, default=None
        The label of the positive class (labels {0, 1} or {-1, 1} need none).
    n_bins : int, default=10
        Bins of the lift panel.
    label : str, default=None
        Legend label of the gains curve (default "model").
    ax : matplotlib Axes or Figure, default=None
        Where to draw (see above), e.g. the Figure an earlier call returned,
        to overlay another model.  Default: a new figure.
    baseline : bool, default=True
        Draw the gains of a random ordering (the diagonal), labelled once in
        the legend if several models share it.

    Returns
    -------
    matplotlib.figure.Figure
        The figure drawn on: a new one without ``ax``, else the one holding
        ``ax`` (the top-level Figure for an Axes in a SubFigure).

    Raises
    ------
    TypeError
        If ``ax`` is neither None, a matplotlib Axes nor a Figure.

    See Also
    --------
    gains_table : The numbers of the lift panel.
    lift_at : The lift of one top fraction.
    plot_roc : The ROC curve.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from fastauc import plot_gains
    >>> y = [1, 0, 1, 0, 0, 0, 0, 0, 0, 1]
    >>> fig = plot_gains(y, list(range(10, 0, -1)), n_bins=5, label="a")
    >>> len(fig.axes)
    2
    >>> fig = plot_gains(y, list(range(10)), label="b", ax=fig)  # over a's gains curve
    >>> [t.get_text() for t in fig.axes[0].get_legend().get_texts()]
    ['a', 'random', 'b']
    """
    ax = _check_ax(ax)
    n_bins = v.check_positive_int(n_bins, "n_bins")
    col = _Column(_labels(y_true, pos_label), y_score, sample_weight)
    plt = _pyplot()
    from matplotlib.figure import FigureBase

    ax_lift = None
    if ax is None or (isinstance(ax, FigureBase) and not ax.axes):  # both panels
        figure = plt.figure(figsize=(10, 4.5)) if ax is None else ax
        ax, ax_lift = figure.subplots(1, 2)
        ax.figure.sca(ax)  # so that an overlay on the returned Figure draws on the gains
    fig, ax = _axes(ax)
    _draw_gains(ax, ax_lift, col, n_bins, label, baseline)
    return fig


@dispatch("y_prob")
def plot_calibration(y_true, y_prob, *, sample_weight=None, pos_label=None, method="isotonic",
                     n_bins=10, band=False, n_resamples=200, confidence_level=0.95,
                     random_state=0, histogram=True, label=None, ax=None):
    """Reliability diagram (CORP or binned), with a bootstrap band and a histogram.

    The curve is :func:`reliability_curve`'s: with ``method="isotonic"``
    each block of pooled probabilities is a flat segment at its recalibrated
    probability, from its lowest to its highest probability, consecutive
    blocks joined (the CORP diagram); with ``"uniform"`` or ``"quantile"``
    the bins' (mean probability, frequency) points.  The legend gives each
    model's Brier score and its miscalibration (:func:`brier_decomposition`).

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels.
    y_prob : array-like of shape (n_samples,) or dict of str to array-like
        Predicted probabilities of the positive class, in [0, 1]; a dict of
        model name -> probabilities draws every model on the same axes.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative sample weights.
    pos_label : int, float, bool or str, default=None
        The positive class, as in :func:`reliability_curve`.
    method : {"isotonic", "uniform", "quantile"}, default="isotonic"
        How the curve is made (:func:`reliability_curve`).
    n_bins : int, default=10
        Bins of the binned methods; the histogram has ``max(n_bins, 20)``
        equally wide bins.
    band : bool, default=False
        Shade the pointwise bootstrap band of each curve: replicates draw as
        many rows as have positive weight from the (weighted) rows, make
        their curve the same way and read it on 101 points across the
        probabilities' range.
    n_resamples : int, default=200
        Bootstrap replicates of the band.
    confidence_level : float, default=0.95
        Pointwise level of the band.
    random_state : None, int, numpy Generator, RandomState or SeedSequence, default=0
        Seed of the band's replicates.
    histogram : bool, default=True
        On a new figure (or a Figure without axes), a second panel under the
        diagram with the (weighted) histogram of each model's probabilities.
    label : str, default=None
        Legend label of a single model (a dict's keys name its models).
    ax : matplotlib Axes or Figure, default=None
        Where to draw the diagram: an Axes, or a Figure (its current axes; a
        new diagram, with the histogram, if it has none), e.g. the Figure an
        earlier call returned, to overlay another model.  Default: a new
        figure.

    Returns
    -------
    matplotlib.figure.Figure
        The figure drawn on: a new one without ``ax`` (the diagram its
        current axes), else the one holding ``ax`` (the top-level Figure for
        an Axes in a SubFigure).

    Raises
    ------
    ValueError
        If probabilities are outside [0, 1], NaN or infinite, or ``y_true``
        is not binary.
    TypeError
        If ``ax`` is neither None, a matplotlib Axes nor a Figure.

    See Also
    --------
    reliability_curve : The curve's numbers.
    brier_decomposition : The numbers in the legend.
    calibration_curve : scikit-learn's binned curve.

    References
    ----------
    .. [1] T. Dimitriadis, T. Gneiting and A. I. Jordan, "Stable reliability
       diagrams for probabilistic classifiers", PNAS 118(8), e2016191118, 2021.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from fastauc import plot_calibration
    >>> y = [0, 0, 1, 0, 1, 1]
    >>> fig = plot_calibration(y, {"a": [0.1, 0.3, 0.3, 0.6, 0.6, 0.9],
    ...                            "b": [0.2, 0.2, 0.7, 0.4, 0.8, 0.9]})
    >>> len(fig.axes)
    2
    >>> fig.axes[0].lines[0].get_xydata()[:, 1]
    array([0. , 0. , 0.5, 0.5, 1. , 1. ])
    """
    ax = _check_ax(ax)
    check_option("method", method, ("isotonic", "uniform", "quantile"), "plot_calibration")
    n_bins = check_n_bins(n_bins, "plot_calibration")
    models = _models(y_prob, label)
    tables = [binary_probability_table(y_true, p, sample_weight, pos_label)
              for _, p in models]  # every check before drawing
    boot = None
    if band:
        level = v.check_confidence_level(confidence_level)
        n_resamples = v.check_positive_int(n_resamples, "n_resamples")
        seed = int(v.seed_from_random_state(random_state))
        n_rows = v.n_rows(y_true) if sample_weight is None else int(
            np.count_nonzero(np.asarray(sample_weight) > 0))
        boot = (n_rows, n_resamples, level, seed)
    plt = _pyplot()
    from matplotlib.figure import FigureBase

    ax_hist = None
    if histogram and (ax is None or (isinstance(ax, FigureBase) and not ax.axes)):
        figure = plt.figure(figsize=(5.5, 6.5)) if ax is None else ax
        ax, ax_hist = figure.subplots(2, 1, sharex=True,
                                      gridspec_kw={"height_ratios": (3, 1)})
        ax.figure.sca(ax)  # an overlay on the returned Figure draws on the diagram
    fig, ax = _axes(ax, figsize=(5.5, 5))
    for (name, _), t in zip(models, tables):
        _draw_calibration(ax, ax_hist, t, method, n_bins, boot, name, max(n_bins, 20))
    return fig


@dispatch("y_score")
def plot_det(y_true, y_score, *, sample_weight=None, pos_label=None, label=None, ax=None):
    """Detection error tradeoff (DET) curve on normal-deviate axes.

    The false negative rate against the false positive rate, both on the
    scale of standard normal quantiles (ticks in percent), as
    :class:`sklearn.metrics.DetCurveDisplay` draws them: a model whose
    classes' scores are normal with equal spread is a straight line.  The
    points are :func:`det_curve`'s (``drop_intermediate=True``).

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True binary labels: {0, 1} or {-1, 1}, or give ``pos_label``.
    y_score : array-like of shape (n_samples,) or dict of str to array-like
        Scores of the positive class; a dict of model name -> scores draws
        every model on the same axes.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative sample weights.
    pos_label : int, float, bool or str, default=None
        The label of the positive class (labels {0, 1} or {-1, 1} need none).
    label : str, default=None
        Legend label of a single model (a dict's keys name its models).
    ax : matplotlib Axes or Figure, default=None
        Where to draw: an Axes, or a Figure (its current axes, a new one if
        it has none), e.g. the Figure an earlier call returned, to overlay
        another model.  Default: a new figure.

    Returns
    -------
    matplotlib.figure.Figure
        The figure drawn on: a new one without ``ax``, else the one holding
        ``ax`` (the top-level Figure for an Axes in a SubFigure).

    Raises
    ------
    TypeError
        If ``ax`` is neither None, a matplotlib Axes nor a Figure.

    See Also
    --------
    det_curve : The curve's points.
    plot_roc : The ROC curve.

    References
    ----------
    .. [1] A. Martin, G. Doddington, T. Kamm, M. Ordowski and M. Przybocki,
       "The DET curve in assessment of detection task performance",
       Eurospeech 1997.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from fastauc import plot_det
    >>> fig = plot_det([0, 0, 1, 1], {"a": [0.1, 0.4, 0.35, 0.8], "b": [0.2, 0.1, 0.6, 0.7]})
    >>> [t.get_text() for t in fig.axes[0].get_legend().get_texts()]
    ['a', 'b']
    """
    ax = _check_ax(ax)
    curves = [(name, det_curve(y_true, s, pos_label=pos_label, sample_weight=sample_weight,
                               drop_intermediate=True)) for name, s in _models(y_score, label)]
    fig, ax = _axes(ax, figsize=(5.5, 5))
    for name, (fpr, fnr, _) in curves:
        _draw_det(ax, fpr, fnr, name)
    return fig


def plot_over_time(over_time, *, ax=None):
    """Plot :func:`auc_over_time`'s result: each window's AUC with its interval.

    Parameters
    ----------
    over_time : AUCOverTime
        The result of :func:`auc_over_time`.
    ax : matplotlib Axes or Figure, default=None
        Where to draw; a new figure by default.

    Returns
    -------
    matplotlib.figure.Figure
        The AUC at each period's end (the window's), DeLong's interval
        shaded, the reference's AUC as a line, the flagged periods circled in
        red, and the expected AUC (before labels) dotted when it was asked.

    See Also
    --------
    auc_over_time : The numbers drawn.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import numpy as np
    >>> from fastauc import auc_over_time, plot_over_time
    >>> rng = np.random.default_rng(0)
    >>> t = np.arange(3000) / 1000.0
    >>> y = rng.integers(0, 2, 3000)
    >>> fig = plot_over_time(auc_over_time(y, y + rng.normal(size=3000), t, freq=1.0))
    >>> fig.axes[0].get_ylabel()
    'ROC AUC'
    """
    from ._over_time import AUCOverTime
    from ._plotting import draw_over_time

    if not isinstance(over_time, AUCOverTime):
        raise TypeError(f"plot_over_time draws auc_over_time's result, got "
                        f"{type(over_time).__name__}")
    return draw_over_time(over_time, ax)
