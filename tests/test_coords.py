"""coords and coords_ci: pROC's documented values on aSAH, the definitions
(fastauc.naive.coords), scipy's binomial intervals, and the bootstrap
replicates rebuilt from fastauc's own draws."""

import json
import math
import pathlib
import warnings

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import fastauc
from fastauc import coords, coords_ci, naive
from fastauc._kernels.coords import RET_NAMES, betainc
from fastauc._validation import UndefinedMetricWarning, seed_from_random_state

from .resamples import drawn_positions

DATA = pathlib.Path(__file__).parent / "data"
PROC_NAMES = ["threshold", "specificity", "sensitivity", "accuracy", "tn", "tp", "fn", "fp",
              "npv", "ppv", "fdr", "fpr", "tpr", "tnr", "fnr", "1-specificity",
              "1-sensitivity", "1-accuracy", "1-npv", "1-ppv", "precision", "recall",
              "lr_pos", "lr_neg", "youden", "closest.topleft"]


@pytest.fixture(scope="module")
def asah():
    import csv

    with open(DATA / "asah.csv") as fh:
        rows = list(csv.DictReader(fh))
    y = np.array([r["outcome"] == "Poor" for r in rows], int)
    s100b = np.array([float(r["s100b"]) for r in rows])
    ndka = np.array([float(r["ndka"]) for r in rows])
    return y, s100b, ndka


@pytest.fixture(scope="module")
def expected():
    data = json.loads((DATA / "proc_coords_s100b.json").read_text())["columns"]
    return {k: np.array([float.fromhex(x) if "0x" in x else float(x) for x in v])
            for k, v in data.items()}


def close(a, b, tol=1e-12):
    a, b = np.asarray(a, float), np.asarray(b, float)
    assert a.shape == b.shape
    both_nan = np.isnan(a) & np.isnan(b)
    same_inf = np.isinf(a) & (a == b)
    with np.errstate(invalid="ignore"):
        ok = both_nan | same_inf | (np.abs(a - b) <= tol * np.maximum(1.0, np.abs(b)))
    assert ok.all(), (a[~ok], b[~ok])


# ---------------------------------------------------------------- pROC's values

def test_all_points_equal_proc(asah, expected):
    y, s, _ = asah
    c = coords(y, s, "all", ret="all")
    assert list(c)[:26] == PROC_NAMES and list(c)[26:] == ["f1", "mcc"]
    for name in PROC_NAMES:
        close(c[name], expected[name])
    # to the last bit where pROC's arithmetic is the same
    for name in ("threshold", "specificity", "sensitivity", "tp", "tn", "youden"):
        np.testing.assert_array_equal(c[name], expected[name])


def test_default_is_all_thresholds(asah, expected):
    y, s, _ = asah
    c = coords(y, s)
    assert list(c) == ["threshold", "specificity", "sensitivity"]
    np.testing.assert_array_equal(c.threshold, expected["threshold"])


def test_proc_interpolation_documented_values(asah):
    y, s, _ = asah
    grid = np.round(np.arange(0, 1.01, 0.1), 10)
    c = coords(y, s, grid, input="sensitivity")
    close(c.threshold, [np.inf] + [np.nan] * 9 + [-np.inf])
    close(c.sensitivity, grid)
    close(c.specificity, [1, 1, 1, 0.972222222222222, 0.888888888888889, 0.833333333333333,
                          0.805555555555556, 0.56875, 0.447222222222222, 0.230555555555556, 0],
          1e-13 * 1e2)
    c = coords(y, s, grid, input="specificity")
    close(c.threshold, [-np.inf] + [np.nan] * 9 + [0.51])
    close(c.specificity, grid)
    close(c.sensitivity, [1, 0.975609756097561, 0.921951219512195, 0.879674796747967,
                          0.823693379790941, 0.774390243902439, 0.675609756097561,
                          0.655284552845528, 0.634146341463415, 0.390243902439024,
                          0.292682926829268], 1e-11)


def test_proc_local_maxima_best_and_thresholds(asah, expected):
    y, s, _ = asah
    lm = coords(y, s, "local maxima", ret="all")
    want = np.array([-np.inf, 0.065, 0.075, 0.085, 0.095, 0.105, 0.115, 0.135, 0.155, 0.205,
                     0.245, 0.29, 0.325, 0.345, 0.395, 0.435, 0.475, 0.485, 0.51])
    close(lm.threshold, want)
    rows = np.flatnonzero(np.isin(np.round(expected["threshold"], 6), np.round(want, 6)))
    for name in PROC_NAMES:
        close(lm[name], expected[name][rows])
    best = coords(y, s, "best", ret="all")
    assert best.n_points == 1 and abs(best.threshold[0] - 0.205) < 1e-3
    row = int(np.flatnonzero(np.abs(expected["threshold"] - 0.205) < 1e-3)[0])
    for name in PROC_NAMES:
        close(best[name], expected[name][[row]])
    # arbitrary thresholds, and thresholds at a data point (rows 18, 4, 3, 40 of pROC's 1-based table)
    c = coords(y, s, [0.205, 0.055], ret=PROC_NAMES)
    for name in PROC_NAMES:
        close(c[name], expected[name][[17, 3]])
    c = coords(y, s, [0.05, 0.52], ret=PROC_NAMES)
    for name in PROC_NAMES[1:]:
        close(c[name], expected[name][[2, 39]])
    np.testing.assert_array_equal(c.threshold, [0.05, 0.52])


def test_topleft_and_best_weights(asah):
    y, s, nd = asah
    for x in (s, nd):
        full = coords(y, x, ret=["sensitivity", "specificity", "closest.topleft", "youden"])
        for w0, prev in ((1.0, 0.5), (2.0, 0.3), (0.5, 0.8)):
            r = (1 - prev) / (w0 * prev)
            dist = (1 - full.sensitivity) ** 2 + r * (1 - full.specificity) ** 2
            b = coords(y, x, "best", best_method="closest.topleft", best_weights=(w0, prev),
                       ret=["closest.topleft", "sensitivity"])
            assert np.all(b["closest.topleft"] == dist.min())
            yb = coords(y, x, "best", best_weights=(w0, prev), ret="youden")
            assert np.all(yb.youden == np.max(full.sensitivity + r * full.specificity))


# ---------------------------------------------------------------- the definitions

INPUTS = ["threshold", "sensitivity", "specificity", "tpr", "tnr", "fpr", "fnr", "recall",
          "tp", "tn", "fp", "fn", "1-specificity", "1-sensitivity"]


@st.composite
def problems(draw):
    n = draw(st.integers(2, 30))
    y = np.array(draw(st.lists(st.integers(0, 1), min_size=n, max_size=n)))
    if y.min() == y.max():
        y[0] = 1 - y[0]
    s = np.array(draw(st.lists(st.integers(0, 6), min_size=n, max_size=n)), float) / 4
    w = None
    if draw(st.booleans()):
        w = np.array(draw(st.lists(st.sampled_from([0.0, 0.5, 1.0, 2.0, 3.0]), min_size=n,
                                   max_size=n)))
        if w[y == 1].sum() == 0 or w[y == 0].sum() == 0:
            w = None
    return y, s, w


@settings(max_examples=60, deadline=None)
@given(problems(), st.sampled_from(INPUTS), st.data())
def test_matches_definitions(prob, input, data):
    y, s, w = prob
    ret = list(RET_NAMES)
    full = naive.coords(y, s, "all", ret=["threshold"] + [input if input != "threshold"
                                                          else "sensitivity"], sample_weight=w)
    if input == "threshold":
        x = np.array(data.draw(st.lists(st.sampled_from([-1.0, 0.0, 0.1, 0.25, 0.3, 0.5, 1.5,
                                                         2.0]), min_size=1, max_size=5)))
    else:
        vals = np.array(full[input])
        lo, hi = vals.min(), vals.max()
        picks = data.draw(st.lists(st.floats(0, 1), min_size=1, max_size=5))
        x = np.array([lo + p * (hi - lo) for p in picks] + [vals[len(vals) // 2]])
    ours = coords(y, s, x, input=input, ret=ret, sample_weight=w)
    ref = naive.coords(y, s, x, input=input, ret=ret, sample_weight=w)
    for name in ret:
        close(ours[name], ref[name], 1e-9)
    for what in ("all", "best"):
        ours = coords(y, s, what, ret=ret, sample_weight=w)
        ref = naive.coords(y, s, what, ret=ret, sample_weight=w)
        for name in ret:
            close(ours[name], ref[name], 1e-9)


@pytest.mark.parametrize("kind", ["normal", "rounded", "one value"])
def test_key_ranges_path_equals_the_one_pass(kind, monkeypatch):
    """From 2**16 unweighted rows the curve's columns come from the sweep's
    key ranges on the threads (no sums; ties leave gaps closed afterwards):
    every coordinate equal to the one-pass path's, for every input."""
    from fastauc import _coords

    rng = np.random.default_rng(11)
    n = 120_000
    y = (rng.random(n) < 0.2).astype(np.int64)
    s = {"normal": lambda: rng.standard_normal(n) + y,
         "rounded": lambda: np.round(rng.random(n), 2),
         "one value": lambda: np.full(n, 0.5)}[kind]()
    queries = [(np.linspace(0, 1, 37), "specificity"), (np.linspace(0, 1, 29), "sensitivity"),
               (s[:50], "threshold"), ("all", "threshold"), ("best", "threshold"),
               ("local maxima", "threshold")]
    split = [coords(y, s, x=x, input=inp, ret="all") for x, inp in queries]
    monkeypatch.setattr(_coords, "CHUNK_MIN", 1 << 40)
    for got, (x, inp) in zip(split, queries):
        ref = coords(y, s, x=x, input=inp, ret="all")
        for name in ref.keys():
            np.testing.assert_array_equal(got[name], ref[name])


def test_weights_invariances():
    rng = np.random.default_rng(3)
    y = rng.integers(0, 2, 300)
    s = np.round(y + rng.normal(size=300), 1)
    w = rng.integers(0, 4, 300).astype(float)
    x = [0.3, 0.7, 0.95]
    a = coords(y, s, x, input="specificity", ret="all", sample_weight=w)
    keep = w > 0
    b = coords(np.repeat(y[keep], w[keep].astype(int)), np.repeat(s[keep], w[keep].astype(int)),
               x, input="specificity", ret="all")
    c = coords(y, s, x, input="specificity", ret="all", sample_weight=w * 2.5)
    for name in RET_NAMES:
        close(a[name], b[name], 1e-9)
        if name not in ("tn", "tp", "fn", "fp"):
            close(a[name], c[name], 1e-9)
        else:
            close(a[name] * 2.5, c[name], 1e-9)
    # ones == none; shuffled == same
    perm = rng.permutation(300)
    d = coords(y, s, "all", ret="all", sample_weight=np.ones(300))
    e = coords(y[perm], s[perm], "all", ret="all")
    for name in RET_NAMES:
        close(d[name], e[name], 0)


# ---------------------------------------------------------------- records and errors

def test_record_access_and_frame(asah):
    y, s, _ = asah
    c = coords(y, s, [0.9], input="sp", ret=["se", "1-sp", "lr+", "topleft"])
    assert list(c) == ["sensitivity", "1-specificity", "lr_pos", "closest.topleft"]
    assert c["se"] is c.sensitivity and c.lr_pos is c["lr+"]
    assert c.closest_topleft is c["closest.topleft"]
    pd = pytest.importorskip("pandas")
    f = c.to_frame()
    assert isinstance(f, pd.DataFrame) and list(f.columns) == list(c)
    assert "sensitivity=" in repr(c)
    with pytest.raises(AttributeError):
        c.nothing


@pytest.mark.parametrize("kwargs, words", [
    ({"ret": "sesame"}, "'sesame' is not a valid coordinate"),
    ({"ret": "f"}, "ambiguous"),
    ({"ret": ["all", "threshold"]}, "ret='all' can't be used"),
    ({"ret": []}, "at least one"),
    ({"input": "accuracy", "x": [0.5]}, "not monotone"),
    ({"input": "specificity", "x": [1.2]}, "Input specificity (1.2) not in range (0-1)"),
    ({"input": "sensitivity", "x": [-0.1]}, "not in range"),
    ({"x": []}, "length 0"),
    ({"x": [np.nan]}, "NaN"),
    ({"x": "middle"}, "'all', 'local maxima' or 'best'"),
    ({"x": "best", "best_weights": (1, 1.0)}, "prevalence"),
    ({"x": "best", "best_weights": (1,)}, "length 2"),
    ({"x": "best", "best_method": "nearest"}, "best_method"),
])
def test_bad_input(kwargs, words):
    y, s = [0, 1, 0, 1], [0.1, 0.2, 0.3, 0.4]
    kw = {"x": "all", **kwargs}
    with pytest.raises(ValueError) as e:
        coords(y, s, **kw)
    assert words in str(e.value)


def test_inputs_not_modified():
    y = np.array([0, 1, 0, 1, 1])
    s = np.array([0.1, 0.2, 0.3, 0.4, 0.4])
    w = np.array([1.0, 2.0, 0.0, 1.0, 1.0])
    before = (y.copy(), s.copy(), w.copy())
    coords_ci(y, s, [0.5], input="specificity", sample_weight=w, n_resamples=20, random_state=0)
    coords(y, s, "best", sample_weight=w)
    for a, b in zip((y, s, w), before):
        np.testing.assert_array_equal(a, b)


def test_one_class_warns_and_gives_nan():
    with pytest.warns(UndefinedMetricWarning, match="No negative samples"):
        c = coords([1, 1, 1], [0.1, 0.2, 0.3], ret="all")
    assert np.isnan(c.specificity).all() and np.all(c.sensitivity[[0, -1]] == [1.0, 0.0])
    with pytest.warns(UndefinedMetricWarning):
        c = coords([1, 1, 1], [0.1, 0.2, 0.3], [0.5], input="specificity")
    assert np.isnan(c.sensitivity).all()
    with pytest.raises(ValueError, match="one class"):
        coords_ci([1, 1, 1], [0.1, 0.2, 0.3], [0.5], method="wilson")


# ---------------------------------------------------------------- intervals

def test_binomial_intervals_equal_scipy(asah):
    from scipy.stats import binomtest

    y, s, _ = asah
    P, N = int(y.sum()), int((1 - y).sum())
    x = [0.1, 0.205, 0.5]
    est = coords(y, s, x, ret=["tp", "tn", "fp", "tp", "ppv"])
    tp = est.tp.round().astype(int)
    tn = est.tn.round().astype(int)
    fp = est.fp.round().astype(int)
    for level in (0.9, 0.95):
        for method, sp_method in (("wilson", "wilson"), ("clopper-pearson", "exact")):
            ci = coords_ci(y, s, x, method=method, confidence_level=level,
                           ret=["sensitivity", "specificity", "ppv", "tp", "threshold"])
            for i in range(len(x)):
                for name, k, n in (("sensitivity", tp[i], P), ("specificity", tn[i], N),
                                   ("ppv", tp[i], tp[i] + fp[i])):
                    ref = binomtest(int(k), int(n)).proportion_ci(level, method=sp_method)
                    close([ci.low[name][i], ci.high[name][i]], [ref.low, ref.high], 1e-11)
                ref = binomtest(int(tp[i]), P).proportion_ci(level, method=sp_method)
                close([ci.low.tp[i], ci.high.tp[i]], [ref.low * P, ref.high * P], 1e-11)
            np.testing.assert_array_equal(ci.low.threshold, x)
            assert ci.median is None and ci.replicates is None
    # Agresti-Coull, from its definition
    ci = coords_ci(y, s, [0.205], method="agresti-coull", ret="sensitivity")
    z = 1.959963984540054
    nt = P + z * z
    pt = (tp[1] + z * z / 2) / nt
    half = z * math.sqrt(pt * (1 - pt) / nt)
    close([ci.low.sensitivity[0], ci.high.sensitivity[0]], [pt - half, pt + half], 1e-12)


def test_incomplete_beta_equals_scipy():
    from scipy.special import betainc as sp_betainc

    for a, b, x in ((0.5, 0.5, 0.3), (3.0, 40.0, 0.05), (41.0, 1.0, 0.99), (200.0, 300.0, 0.4)):
        close(betainc(a, b, x), sp_betainc(a, b, x), 1e-12)


@pytest.mark.parametrize("stratified", [True, False])
@pytest.mark.parametrize("input, x", [("threshold", [0.1, 0.205, 0.5]),
                                      ("specificity", [0.5, 0.9]),
                                      ("sensitivity", [0.3, 0.8]),
                                      ("fpr", [0.25])])
def test_bootstrap_replicates_equal_definitions(asah, stratified, input, x):
    from fastauc._resample import _prepare

    y, s, _ = asah
    ret = ["specificity", "sensitivity", "ppv", "npv", "tp", "youden"]
    seed = 11
    ci = coords_ci(y, s, x, input=input, ret=ret, n_resamples=25, random_state=seed,
                   stratified=stratified)
    prep = _prepare(y == 1, [s], ["y_score"], None, "roc_auc", stratified)
    sd = np.uint64(seed_from_random_state(seed))
    for r in range(25):
        rows = prep.models[0].lay.rows[drawn_positions(sd, r, prep.strata)]
        yr, sr = y[rows], s[rows]
        if yr.min() == yr.max():
            assert np.isnan(ci.replicates[r]).all()
            continue
        ref = naive.coords(yr, sr, x, input=input, ret=ret)
        for j, name in enumerate(ret):
            close(ci.replicates[r, :, j], ref[name], 1e-12)
    alpha = 0.05
    close(ci.low.sensitivity, np.nanquantile(ci.replicates[:, :, 1], alpha / 2, axis=0))
    close(ci.high.sensitivity, np.nanquantile(ci.replicates[:, :, 1], 1 - alpha / 2, axis=0))


def test_bootstrap_best_replicates_and_policies():
    from fastauc._resample import _prepare

    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, 30)
    s = rng.integers(0, 4, 30).astype(float)  # few scores: best points often tie
    with pytest.raises(ValueError, match='More than one "best" threshold'):
        coords_ci(y, s, "best", n_resamples=50, random_state=0)
    ret = ["threshold", "sensitivity", "specificity"]
    ci = coords_ci(y, s, "best", n_resamples=40, random_state=1, best_policy="omit", ret=ret)
    prep = _prepare(y == 1, [s], ["y_score"], None, "roc_auc", True)
    sd = np.uint64(seed_from_random_state(1))
    ties = 0
    for r in range(40):
        rows = prep.models[0].lay.rows[drawn_positions(sd, r, prep.strata)]
        ref = naive.coords(y[rows], s[rows], "best", ret=ret)
        if len(ref["threshold"]) > 1:
            ties += 1
            assert np.isnan(ci.replicates[r]).all()
        else:
            close(ci.replicates[r, 0], [ref[k][0] for k in ret])
    assert 0 < ties < 40 and ci.n_dropped == ties
    rnd = coords_ci(y, s, "best", n_resamples=40, random_state=1, best_policy="random", ret=ret)
    again = coords_ci(y, s, "best", n_resamples=40, random_state=1, best_policy="random",
                      ret=ret)
    np.testing.assert_array_equal(rnd.replicates, again.replicates)
    assert not np.isnan(rnd.replicates).any()
    for r in range(40):  # the point drawn is one of the tied best points
        rows = prep.models[0].lay.rows[drawn_positions(sd, r, prep.strata)]
        ref = naive.coords(y[rows], s[rows], "best", ret=ret)
        assert any(np.allclose(rnd.replicates[r, 0], [ref[k][i] for k in ret])
                   for i in range(len(ref["threshold"])))


def test_bootstrap_weighted_equals_repeated_rows():
    rng = np.random.default_rng(5)
    y = rng.integers(0, 2, 200)
    s = np.round(y + rng.normal(size=200), 1)
    w = rng.integers(1, 3, 200).astype(float)
    a = coords_ci(y, s, [0.8], input="specificity", ret="sensitivity", sample_weight=w,
                  n_resamples=30, random_state=4)
    assert a.estimate.sensitivity[0] == pytest.approx(
        coords(np.repeat(y, w.astype(int)), np.repeat(s, w.astype(int)), [0.8],
               input="specificity").sensitivity[0], abs=1e-12)
    assert np.isfinite(a.replicates).all()


def test_ci_bad_input(asah):
    y, s, _ = asah
    for kwargs, words in (({"x": "all"}, "not available for confidence intervals"),
                          ({"x": [0.9], "input": "specificity", "ret": "threshold"},
                           "'threshold' output is only supported"),
                          ({"x": [0.5], "method": "wald"}, "method must be one of"),
                          ({"x": [0.5], "method": "wilson", "ret": "youden"},
                           "neither"),
                          ({"x": [0.5], "confidence_level": 1.0}, "confidence_level"),
                          ({"x": [0.5], "n_resamples": 0}, "n_resamples"),
                          ({"x": "best", "best_policy": "first"}, "best_policy")):
        with pytest.raises(ValueError) as e:
            coords_ci(y, s, **kwargs)
        assert words in str(e.value)


def test_ci_same_whatever_the_threads(asah, monkeypatch):
    y, s, _ = asah
    a = coords_ci(y, s, [0.5, 0.9], input="specificity", n_resamples=64, random_state=3)
    import fastauc._resample as R

    monkeypatch.setattr(R, "UNIT_ROWS", 64)  # smaller units: many more of them
    b = coords_ci(y, s, [0.5, 0.9], input="specificity", n_resamples=64, random_state=3)
    np.testing.assert_array_equal(a.replicates, b.replicates)
    assert "CoordsCI(method='bootstrap'" in repr(a)


def test_exported():
    assert fastauc.coords is coords and fastauc.coords_ci is coords_ci
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        fastauc.Coords, fastauc.CoordsCI
