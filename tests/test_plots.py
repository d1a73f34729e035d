"""Plots render with Agg and draw the data the metrics define."""

import matplotlib
import numpy as np
import pytest
import sklearn.metrics as skm

import fastauc
from fastauc._resample import _prepare

from .resamples import drawn_positions

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


@pytest.fixture
def data(rng):
    y = rng.integers(0, 2, 400)
    s = np.round(y + rng.normal(size=400), 1)
    return y, s


def test_plot_roc_draws_the_curve_band_and_operating_point(data):
    y, s = data
    fig = fastauc.plot_roc(y, s, n_resamples=60, random_state=3)
    ax = fig.axes[0]
    fpr, tpr, _ = skm.roc_curve(y, s)
    np.testing.assert_allclose(ax.lines[0].get_xydata(), np.column_stack((fpr, tpr)))
    best = fastauc.best_threshold(y, s, metric="youden")
    m = fastauc.threshold_metrics(y, s)
    i = int(np.flatnonzero(m.threshold == best.threshold)[0])
    np.testing.assert_allclose(ax.lines[1].get_xydata(), [[m.fpr[i], m.tpr[i]]])
    assert len(ax.collections) == 1  # the band
    assert f"{skm.roc_auc_score(y, s):.3f}" in ax.get_legend().get_texts()[0].get_text()
    plt.close(fig)


def test_roc_band_replicates_equal_sklearn_on_resamples(data):
    """Each replicate's TPR on the grid is the resampled ROC curve at that FPR."""
    y, s = data
    grid = np.linspace(0, 1, 21)
    prep = _prepare(y == 1, [s], ["y_score"], None, "roc_auc", True)
    seed = fastauc._validation.seed_from_random_state(5)
    _, low, high = fastauc.roc_confidence_band(y, s, n_resamples=40, fpr_grid=grid,
                                               random_state=5, confidence_level=0.9)
    curves = []
    for r in range(40):
        rows = prep.models[0].lay.rows[drawn_positions(seed, r, prep.strata)]
        fpr, tpr, _ = skm.roc_curve(y[rows], s[rows], drop_intermediate=False)
        # the polyline at each grid value, taking the top of a vertical step
        curves.append([tpr[fpr <= g].max() if np.any(fpr == g) else np.interp(g, fpr, tpr)
                       for g in grid])
    curves = np.array(curves)
    q_low, q_high = np.quantile(curves, [0.05, 0.95], axis=0)
    np.testing.assert_allclose(low, q_low, atol=1e-12)
    np.testing.assert_allclose(high, q_high, atol=1e-12)
    assert np.all(low <= high)


def test_plot_precision_recall_and_gains(data):
    y, s = data
    fig = fastauc.plot_precision_recall(y, s)
    precision, recall, _ = skm.precision_recall_curve(y, s)
    np.testing.assert_allclose(fig.axes[0].lines[0].get_xydata(),
                               np.column_stack((recall, precision)))
    plt.close(fig)
    fig = fastauc.plot_gains(y, s, n_bins=5)
    g = fastauc.gains_table(y, s, n_bins=5)
    gains_line = fig.axes[0].lines[0].get_xydata()
    assert gains_line[0].tolist() == [0.0, 0.0] and gains_line[-1].tolist() == [1.0, 1.0]
    np.testing.assert_allclose(np.interp([0.2, 0.4, 0.6, 0.8, 1.0], *gains_line.T),
                               g.cumulative_gain, atol=1e-12)
    heights = [p.get_height() for p in fig.axes[1].patches]
    np.testing.assert_allclose(heights, g.lift)
    plt.close(fig)


def test_plots_name_the_extra_without_matplotlib(block_import, data):
    block_import("matplotlib")
    with pytest.raises(ImportError, match=r"fastauc\[plot\]"):
        fastauc.plot_roc(*data, band=False)


def test_a_class_without_weight_is_refused_before_a_figure_opens(data):
    y, s = data
    w = np.where(y == 1, 0.0, 1.0)
    before = plt.get_fignums()
    for plot in (fastauc.plot_roc, fastauc.plot_precision_recall, fastauc.plot_gains):
        with pytest.raises(ValueError, match="zero sample_weight"):
            plot(y, s, sample_weight=w)
    assert plt.get_fignums() == before
    with pytest.raises(ValueError, match="zero sample_weight"):
        fastauc.report(y, s, sample_weight=w)


def _count_sorts(monkeypatch):
    """Count the one-sort entry point (every layout goes through it)."""
    import fastauc._resample as resample

    calls = []
    real = resample.sort_by_class

    def counting(*args, **kwargs):
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(resample, "sort_by_class", counting)
    return calls


def test_report_with_plot_sorts_each_column_once(tmp_path, monkeypatch, data):
    y, s = data
    S = np.column_stack((s, s + np.random.default_rng(3).normal(size=s.shape[0])))
    calls = _count_sorts(monkeypatch)
    path = tmp_path / "report.png"
    rep = fastauc.report(y, S, plot=path, plot_seed=4)
    assert len(calls) == 2
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert rep.models[0].auc == pytest.approx(skm.roc_auc_score(y, s), abs=1e-12)
    plt.close("all")


def test_report_plot_draws_what_the_plot_functions_draw(tmp_path, data):
    """The report's ROC panel (from its own layouts) has the curve and band of plot_roc."""
    y, s = data
    fastauc.report(y, s, plot=tmp_path / "r.png", plot_seed=2)
    fig = fastauc.plot_roc(y, s, random_state=2)
    line = fig.axes[0].lines[0]
    from fastauc._plotting import _Column, _draw_roc
    from fastauc._resample import layouts, prepared_from_layout

    is_pos = np.asarray(y) == 1
    lay = layouts(is_pos, [np.ascontiguousarray(s, np.float64)], ["s"])[0]
    fig2, ax2 = plt.subplots()
    _draw_roc(ax2, _Column(is_pos, None, None, prep=prepared_from_layout(lay, np.empty(0))),
              True, 200, 0.95, 2, "youden", None)
    np.testing.assert_array_equal(ax2.lines[0].get_xydata(), line.get_xydata())
    np.testing.assert_array_equal(ax2.collections[0].get_paths()[0].vertices,
                                  fig.axes[0].collections[0].get_paths()[0].vertices)
    plt.close("all")


# ------------------------------------------------- overlays, ax and the legend

@pytest.fixture
def three(rng):
    """2,000 rows and three models of different skill (float scores, few ties)."""
    y = rng.integers(0, 2, 2000)
    return y, [y * k + rng.normal(size=2000) for k in (0.5, 1.0, 2.0)]


PLOTS = {
    "plot_roc": (lambda *a, **k: fastauc.plot_roc(*a, band=False, **k), "AUC"),
    "plot_precision_recall": (fastauc.plot_precision_recall, "AP"),
    "plot_gains": (fastauc.plot_gains, None),
}


def _model_lines(ax, names):
    """The model curves of ``ax``, by their legend label (name, or "name (AUC = ...)")."""
    return [line for name in names for line in ax.get_lines()
            if line.get_label().split(" (")[0] == name]


def _check_curve(kind, line, y, s):
    """The drawn curve is the model's (not the other one's)."""
    xy = line.get_xydata()
    if kind == "plot_roc":  # the corners of scikit-learn's full curve, the same area
        fpr, tpr, _ = skm.roc_curve(y, s, drop_intermediate=False)
        full = {tuple(p) for p in np.column_stack((fpr, tpr))}
        assert all(tuple(p) in full for p in xy)
        area = np.sum(np.diff(xy[:, 0]) * (xy[1:, 1] + xy[:-1, 1])) / 2
        assert area == pytest.approx(skm.roc_auc_score(y, s), abs=1e-12)
    elif kind == "plot_precision_recall":
        precision, recall, _ = skm.precision_recall_curve(y, s)
        np.testing.assert_allclose(xy, np.column_stack((recall, precision)))
    else:
        g = fastauc.gains_table(y, s, n_bins=5)
        np.testing.assert_allclose(np.interp([0.2, 0.4, 0.6, 0.8, 1.0], *xy.T),
                                   g.cumulative_gain, atol=1e-12)


@pytest.mark.parametrize("kind", PLOTS)
@pytest.mark.parametrize("through", ["figure", "axes"])
def test_an_overlay_draws_both_models_on_one_axes(kind, through, three):
    y, (a, b, _) = three
    plot, _ = PLOTS[kind]
    if through == "figure":  # the natural chain: the Figure the first call returned
        fig = plot(y, a, label="a")
        n_axes = len(fig.axes)
        again = plot(y, b, label="b", ax=fig)
        assert len(fig.axes) == n_axes  # no new panel
    else:
        fig, ax = plt.subplots()
        assert plot(y, a, label="a", ax=ax) is fig
        again = plot(y, b, label="b", ax=ax)
    assert again is fig
    ax = fig.axes[0]
    lines = _model_lines(ax, ["a", "b"])
    assert len(lines) == 2
    assert lines[0].get_color() != lines[1].get_color()
    for line, s in zip(lines, (a, b)):
        _check_curve(kind, line, y, s)
    assert [t.get_text().split(" (")[0] for t in ax.get_legend().get_texts()
            if t.get_text()[0] in "ab"] == ["a", "b"]
    plt.close("all")


def test_a_figure_without_axes_gets_them_and_a_subfigure_returns_its_figure(three):
    y, (a, b, _) = three
    fig = plt.figure()
    assert fastauc.plot_roc(y, a, band=False, ax=fig) is fig and len(fig.axes) == 1
    fig = plt.figure()  # plot_gains lays out both panels, the gains one current
    assert fastauc.plot_gains(y, a, label="a", ax=fig) is fig and len(fig.axes) == 2
    assert fig.gca() is fig.axes[0] and fig.axes[1].get_title() == "Lift by bin"
    lift = (len(fig.axes[1].get_lines()), len(fig.axes[1].patches))
    fastauc.plot_gains(y, b, label="b", ax=fig)  # over a's gains curve; the lift panel as it was
    assert len(fig.axes) == 2 and len(_model_lines(fig.axes[0], ["a", "b"])) == 2
    assert (len(fig.axes[1].get_lines()), len(fig.axes[1].patches)) == lift
    fig = plt.figure()
    left, right = fig.subfigures(1, 2)
    assert fastauc.plot_precision_recall(y, a, ax=right) is fig  # the Figure that saves
    assert fastauc.plot_precision_recall(y, b, ax=right.axes[0]) is fig
    assert len(right.axes) == 1 and not left.axes
    plt.close("all")


@pytest.mark.parametrize("kind", PLOTS)
@pytest.mark.parametrize("ax, words", [
    ("left", r"got str$"),
    (42, r"got int$"),
    ("array", r"got numpy\.ndarray holding Axes .*pass a single Axes, e\.g\. ax=axes\[0\]"),
    ("list", r"got list holding Axes"),
    ("subplots", r"got tuple holding Axes"),  # ax=plt.subplots(): (Figure, Axes)
])
def test_a_wrong_ax_raises_a_type_error_naming_it(kind, ax, words, three):
    y, (a, _, _) = three
    if ax in ("array", "list"):
        _, axes = plt.subplots(1, 2)
        ax = axes if ax == "array" else list(axes)
    elif ax == "subplots":
        ax = plt.subplots()
    before = plt.get_fignums()
    with pytest.raises(TypeError, match=r"ax must be a matplotlib Axes, a matplotlib Figure "
                                        r"or None; " + words):
        PLOTS[kind][0](y, a, ax=ax)
    assert plt.get_fignums() == before  # refused before any figure opens
    plt.close("all")


def _legend_texts(ax):
    return [t.get_text() for t in ax.get_legend().get_texts()]


@pytest.mark.parametrize("k", [1, 2, 3])
def test_each_reference_has_one_legend_entry_however_many_models(k, three):
    y, scores = three
    fig = None
    for j in range(k):
        fig = fastauc.plot_roc(y, scores[j], n_resamples=20, random_state=j, label=f"m{j}",
                               ax=fig)
    ax = fig.axes[0]
    texts = _legend_texts(ax)
    assert len(texts) == len(set(texts)), texts
    assert [t.split(" (")[0] for t in texts if t.startswith("m")] == [f"m{j}" for j in range(k)]
    assert texts.count("95% bootstrap band") == 1
    assert len(ax.collections) == k  # every model's band is drawn, in its colour
    curves = _model_lines(ax, [f"m{j}" for j in range(k)])
    np.testing.assert_allclose([c.get_facecolor()[0][:3] for c in ax.collections],
                               [matplotlib.colors.to_rgb(c.get_color()) for c in curves])
    plt.close(fig)

    for plot, reference in ((fastauc.plot_precision_recall, "prevalence"),
                            (fastauc.plot_gains, "random")):
        fig = None
        for j in range(k):
            fig = plot(y, scores[j], label=f"m{j}", ax=fig)
        texts = _legend_texts(fig.axes[0])
        assert len(texts) == len(set(texts)), texts
        assert sum(t.startswith(reference) for t in texts) == 1
        assert sum(t.startswith("m") for t in texts) == k
        plt.close(fig)


def test_different_references_keep_their_own_entries(three):
    """Two test sets with different prevalences: two baselines, two entries."""
    y, (a, _, _) = three
    fig = fastauc.plot_precision_recall(y, a, label="all")
    keep = np.flatnonzero((y == 0) | (np.arange(y.shape[0]) % 2 == 0))
    fastauc.plot_precision_recall(y[keep], a[keep], label="half the positives", ax=fig)
    texts = _legend_texts(fig.axes[0])
    assert sum(t.startswith("prevalence") for t in texts) == 2 and len(set(texts)) == 4
    plt.close(fig)


def test_report_plot_gives_every_model_its_youden_point(tmp_path, monkeypatch, three):
    import fastauc._plotting as plotting

    y, scores = three
    drawn = []
    real = plotting._report_figure

    def keep(*args):
        drawn.append(real(*args))
        return drawn[-1]

    monkeypatch.setattr(plotting, "_report_figure", keep)
    names = ["weak", "fair", "strong"]
    fastauc.report(y, np.column_stack(scores), names=names, plot=tmp_path / "r.png",
                   plot_seed=1)
    (fig,) = drawn
    roc = fig.axes[0]
    curves = _model_lines(roc, names)
    points = [line for line in roc.get_lines() if line.get_label().lstrip("_").startswith("youden")]
    assert len(curves) == len(points) == 3
    for curve, point, s in zip(curves, points, scores):
        best = fastauc.best_threshold(y, s, metric="youden")
        m = fastauc.threshold_metrics(y, s)
        i = int(np.flatnonzero(m.threshold == best.threshold)[0])
        np.testing.assert_allclose(point.get_xydata(), [[m.fpr[i], m.tpr[i]]])
        assert point.get_color() == curve.get_color()
    assert len(roc.collections) == 3  # and every model's band
    for ax in fig.axes:
        texts = _legend_texts(ax)
        assert len(texts) == len(set(texts)), texts
    plt.close("all")


def test_band_skips_replicates_with_one_weighted_class():
    """A replicate whose draws give a class no weight has no ROC curve: its
    row is NaN and the band's quantiles are those of the other replicates
    (it was left unwritten: whatever the memory held leaked into the band,
    found by hypothesis in the scaled-weights invariance)."""
    from .registry import _resampled_rows

    y = np.array([1, 0, 1, 1, 0, 0, 1, 1, 1, 1, 0, 0, 0, 1, 1, 0, 1, 0, 1, 0, 1, 1, 0, 1, 1, 1,
                  1, 0, 1, 0, 1, 1, 1])
    s = np.zeros(33)
    s[[1, 2, 29]] = -1e300
    s[[11, 18]] = 0.5
    s[[21, 22, 27]] = 3.0
    s[17] = -1.0
    w = np.zeros(33)
    w[[2, 29]] = 1.0
    w[15] = 0.5
    grid = np.linspace(0, 1, 11)
    curves = []
    for r in _resampled_rows({"y": y, "s": s}, w, ["s"], 5, 20):
        if w[r][y[r] == 1].sum() > 0 and w[r][y[r] == 0].sum() > 0:
            fpr, tpr, _ = skm.roc_curve(y[r], s[r], sample_weight=w[r], drop_intermediate=False)
            curves.append([tpr[fpr <= g].max() if np.any(fpr == g) else np.interp(g, fpr, tpr)
                           for g in grid])
    assert 0 < len(curves) < 20  # some replicates have no curve
    expected = np.quantile(np.array(curves), [0.05, 0.95], axis=0)
    for scale in (1.0, 1024.0):
        np.full(1 << 16, 0.7).sum()  # memory that held other numbers
        _, low, high = fastauc.roc_confidence_band(
            y, s, sample_weight=w * scale, n_resamples=20, random_state=5,
            confidence_level=0.9, fpr_grid=grid)
        np.testing.assert_allclose(np.vstack((low, high)), expected, rtol=0, atol=1e-12)
