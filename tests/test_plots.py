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
