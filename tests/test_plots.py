"""Plots render with Agg and draw the data the metrics define."""

import matplotlib
import numpy as np
import pytest
import sklearn.calibration as skc
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


# ------------------------------------------------- reliability diagrams and DET curves

@pytest.fixture
def probs(rng):
    y = rng.integers(0, 2, 1500)
    p = np.round(1 / (1 + np.exp(-(1.5 * y - 0.75 + rng.normal(size=1500)))), 2)
    q = np.round(np.clip(0.5 + 0.3 * (y - 0.5) + 0.2 * rng.normal(size=1500), 0, 1), 2)
    return y, p, q


def _blocks_polyline(y, p, w=None):
    """The CORP polyline from scikit-learn's isotonic fit: each run of one
    fitted value a flat segment from its lowest to its highest probability."""
    from sklearn.isotonic import IsotonicRegression

    xs = np.unique(p)
    fit = IsotonicRegression().fit(p, y, sample_weight=w).predict(xs)
    new = np.r_[True, ~np.isclose(fit[1:], fit[:-1], rtol=0, atol=1e-12)]
    start = np.flatnonzero(new)
    end = np.r_[start[1:], len(xs)] - 1
    return np.column_stack((np.column_stack((xs[start], xs[end])).ravel(),
                            np.repeat(fit[start], 2)))


def test_plot_calibration_draws_the_corp_curves_of_several_models(probs):
    y, p, q = probs
    fig = fastauc.plot_calibration(y, {"p": p, "q": q})
    ax, ax_hist = fig.axes
    assert fig.gca() is ax
    lines = _model_lines(ax, ["p", "q"])
    assert len(lines) == 2
    for line, s in zip(lines, (p, q)):
        np.testing.assert_allclose(line.get_xydata(), _blocks_polyline(y, s), atol=1e-12)
        d = fastauc.brier_decomposition(y, s)
        assert f"Brier = {d.brier:.3f}, MCB = {d.miscalibration:.3f}" in line.get_label()
    texts = [t.get_text() for t in ax.get_legend().get_texts()]
    assert texts.count("perfectly calibrated") == 1
    # the histogram of each model's probabilities, 20 bins on [0, 1]
    assert len(ax_hist.patches) == 2
    for patch, s in zip(ax_hist.patches, (p, q)):
        counts, _ = np.histogram(s, bins=20, range=(0, 1))
        heights = patch.get_path().vertices[:, 1]
        assert set(np.unique(heights)) <= set(counts.tolist()) | {0.0}
        assert max(heights) == counts.max()
    # an overlay through the returned Figure draws on the diagram
    fastauc.plot_calibration(y, p, label="again", ax=fig)
    assert len(fig.axes) == 2 and len(_model_lines(ax, ["again"])) == 1
    plt.close(fig)


@pytest.mark.parametrize("method", ["uniform", "quantile"])
def test_plot_calibration_binned_and_weighted(probs, method):
    y, p, _ = probs
    fig, ax = plt.subplots()
    assert fastauc.plot_calibration(y, p, method=method, n_bins=8, ax=ax, label="p") is fig
    prob_true, prob_pred = skc.calibration_curve(y, p, n_bins=8, strategy=method)
    np.testing.assert_allclose(ax.lines[0].get_xydata(), np.column_stack((prob_pred, prob_true)),
                               atol=1e-12)
    assert len(fig.axes) == 1  # no histogram panel on an Axes given
    plt.close(fig)
    w = np.where(np.arange(len(y)) % 3 == 0, 0.0, 2.0)
    fig = fastauc.plot_calibration(y, p, sample_weight=w, histogram=False)
    keep = w > 0
    np.testing.assert_allclose(fig.axes[0].lines[0].get_xydata(),
                               _blocks_polyline(y[keep], p[keep]), atol=1e-12)
    plt.close(fig)


def test_plot_calibration_band_holds_the_curve_mostly(probs):
    y, p, _ = probs
    fig = fastauc.plot_calibration(y, p, band=True, n_resamples=60, random_state=1)
    ax = fig.axes[0]
    assert len(ax.collections) == 1
    xy = ax.lines[0].get_xydata()
    band = ax.collections[0].get_paths()[0].vertices
    grid = np.linspace(xy[0, 0], xy[-1, 0], 101)
    low = np.interp(grid, band[1:102, 0], band[1:102, 1])
    curve = np.interp(grid, xy[:, 0], xy[:, 1])
    assert np.all(np.isfinite(low))
    assert np.mean(low <= curve + 1e-12) > 0.9
    again = fastauc.plot_calibration(y, p, band=True, n_resamples=60, random_state=1)
    np.testing.assert_array_equal(again.axes[0].collections[0].get_paths()[0].vertices, band)
    plt.close("all")


def test_plot_calibration_refuses_bad_input_before_drawing(probs):
    y, p, _ = probs
    before = plt.get_fignums()
    with pytest.raises(ValueError, match="greater than 1"):
        fastauc.plot_calibration(y, {"ok": p, "bad": p + 1})
    with pytest.raises(ValueError, match="'method' parameter of plot_calibration"):
        fastauc.plot_calibration(y, p, method="pav")
    with pytest.raises(ValueError, match="dict of models is empty"):
        fastauc.plot_calibration(y, {})
    with pytest.raises(TypeError, match="ax must be"):
        fastauc.plot_calibration(y, p, ax="axes")
    assert plt.get_fignums() == before


def test_plot_det_draws_sklearn_det_curves_on_normal_deviates(data, rng):
    from scipy.stats import norm

    y, s = data
    s2 = s + rng.normal(size=s.shape[0])
    fig = fastauc.plot_det(y, {"a": s, "b": s2})
    ax = fig.axes[0]
    for line, score in zip(_model_lines(ax, ["a", "b"]), (s, s2)):
        fpr, fnr, _ = skm.det_curve(y, score, drop_intermediate=True)
        np.testing.assert_allclose(line.get_xydata(),
                                   np.column_stack((norm.ppf(fpr), norm.ppf(fnr))), atol=1e-9)
    np.testing.assert_allclose(ax.get_xticks(), norm.ppf([0.001, 0.01, 0.05, 0.2, 0.5, 0.8,
                                                          0.95, 0.99, 0.999]), atol=1e-12)
    assert [t.get_text() for t in ax.get_xticklabels()][:3] == ["0.1%", "1%", "5%"]
    again = fastauc.plot_det(y, -s, label="c", ax=fig)
    assert again is fig and len(_model_lines(ax, ["c"])) == 1
    plt.close(fig)


def test_reliability_band_replicates_are_isotonic_fits_of_the_drawn_rows(probs):
    """Each replicate of the band: rows drawn from the table's cells (the same
    generator draws), scikit-learn's isotonic fit with the draws as weights,
    its CORP polyline read on the grid; then the pointwise quantiles."""
    from fastauc._probabilities import binary_probability_table
    from fastauc._reliability import band

    y, p, _ = probs
    t = binary_probability_table(y, p, None, None)
    grid = np.linspace(p.min(), p.max(), 41)
    low, high = band(t, "isotonic", 10, len(y), grid, 30, 0.9, 11)
    rng = np.random.default_rng(11)
    scores = t.scores
    cells_p = np.concatenate((scores, scores))
    cells_y = np.r_[np.ones(len(t)), np.zeros(len(t))]
    weight = np.concatenate((t.pos, t.neg))
    curves = np.full((30, grid.size), np.nan)
    for r in range(30):
        counts = rng.multinomial(len(y), weight / weight.sum()).astype(float)
        keep = counts > 0
        line = _blocks_polyline(cells_y[keep], cells_p[keep], counts[keep])
        inside = (grid >= line[0, 0]) & (grid <= line[-1, 0])
        curves[r, inside] = np.interp(grid[inside], line[:, 0], line[:, 1])
    q_low, q_high = np.nanquantile(curves, [0.05, 0.95], axis=0)
    np.testing.assert_allclose(low, q_low, atol=1e-12)
    np.testing.assert_allclose(high, q_high, atol=1e-12)


def test_plot_roc_with_folds_draws_the_cross_validated_curve():
    """``folds=``: each fold's curve, their vertical average (cv_roc_curve's)
    and the interval of the average."""
    rng = np.random.default_rng(8)
    y = rng.integers(0, 2, 600)
    s = y + rng.normal(size=600)
    folds = np.arange(600) % 4
    fig = fastauc.plot_roc(y, s, folds=folds, label="cv")
    ax = fig.axes[0]
    res = fastauc.cv_roc_curve(y, s, folds)
    mean_line = ax.get_lines()[0]
    assert np.array_equal(mean_line.get_ydata(), res.tpr)
    assert len(ax.get_lines()) == 4 + 2  # the mean, four folds, the diagonal
    texts = [t.get_text() for t in ax.get_legend().get_texts()]
    assert texts[0] == f"cv: mean of 4 folds (AUC = {res.auc:.3f})"
    assert "95% interval of the mean" in texts
    plt.close("all")
