"""report(): every number equals the function that defines it."""

import json

import numpy as np
import pytest
import sklearn.metrics as skm

import fastauc


@pytest.fixture
def data(rng):
    n = 3000
    y = rng.integers(0, 2, n)
    a = 1 / (1 + np.exp(-(y + rng.normal(size=n))))
    b = np.round(y + 2 * rng.normal(size=n), 1)
    w = rng.choice([0.5, 1.0, 2.0], n)
    return y, np.column_stack((a, b)), w


@pytest.mark.parametrize("weighted", [False, True])
def test_report_numbers_match_their_definitions(data, weighted):
    y, S, w = data
    sw = w if weighted else None
    r = fastauc.report(y, S, sample_weight=sw, names=["prob", "raw"])
    assert [m.name for m in r.models] == ["prob", "raw"]
    for j, m in enumerate(r.models):
        s = S[:, j]
        ci = fastauc.roc_auc_ci(y, s, sample_weight=sw)
        assert (m.auc, m.auc_low, m.auc_high, m.auc_se) == pytest.approx(
            (ci.estimate, ci.low, ci.high, ci.se), abs=1e-12)
        assert m.auc == pytest.approx(skm.roc_auc_score(y, s, sample_weight=sw), abs=1e-12)
        assert m.gini == pytest.approx(2 * m.auc - 1, abs=1e-15)
        assert m.average_precision == pytest.approx(
            skm.average_precision_score(y, s, sample_weight=sw), abs=1e-12)
        if j == 0:
            assert m.log_loss == pytest.approx(skm.log_loss(y, s, sample_weight=sw), abs=1e-12)
        else:
            assert m.log_loss is None
        for metric in ("f1", "mcc", "youden"):
            best = fastauc.best_threshold(y, s, metric=metric, sample_weight=sw)
            assert m.best[metric]["threshold"] == best.threshold
            assert m.best[metric]["value"] == pytest.approx(best.value, abs=1e-15)
            pred = (s >= best.threshold).astype(int)
            assert m.best[metric]["precision"] == pytest.approx(
                skm.precision_score(y, pred, sample_weight=sw), abs=1e-12)
            assert m.best[metric]["recall"] == pytest.approx(
                skm.recall_score(y, pred, sample_weight=sw), abs=1e-12)
        for k in (0.01, 0.05, 0.1):
            assert m.lift[k] == pytest.approx(fastauc.lift_at(y, s, k, sample_weight=sw),
                                              rel=1e-12)
    (c,) = r.comparisons
    t = fastauc.delong_test(y, S[:, 0], S[:, 1], sample_weight=sw)
    assert (c["difference"], c["statistic"], c["pvalue"]) == pytest.approx(
        (t.difference, t.statistic, t.pvalue), abs=1e-12)
    assert isinstance(c, fastauc.Comparison) and (c.a, c.b) == ("prob", "raw")
    assert (c.low, c.high, c.se) == (c["low"], c["high"], c["se"])
    assert c.to_dict()["difference"] == c.difference and "pvalue" in c.keys()
    text = str(r)
    for word in ("prob", "raw", "AUC", "Gini", "lift at 5%", "best mcc", "Paired DeLong"):
        assert word in text
    d = r.to_dict()
    json.dumps(d, allow_nan=False)
    assert d["models"][1]["log_loss"] is None and d["n_samples"] == 3000


def test_report_bootstrap_and_labels(data):
    y, S, _ = data
    labels = np.where(y == 1, "sick", "well")
    r = fastauc.report(labels, S[:, 0], pos_label="sick", ci="bootstrap", n_resamples=100,
                       random_state=0)
    b = fastauc.bootstrap_ci(y, S[:, 0], n_resamples=100, random_state=0)
    assert (r.models[0].auc_low, r.models[0].auc_high) == (b.low, b.high)
    assert r.ci_method == "bootstrap" and r.comparisons == []
    with pytest.raises(ValueError, match="pos_label"):
        fastauc.report(labels, S[:, 0])
    with pytest.raises(ValueError, match="one class"):
        fastauc.report(np.ones(10), np.arange(10.0))
    with pytest.raises(ValueError, match="names"):
        fastauc.report(y, S, names=["one"])
    with pytest.raises(TypeError, match="delong"):
        fastauc.report(y, S, n_resamples=10)


# ------------------------------------------------------------------ report(..., by=...)

_GROUP_COLUMNS = ("n", "n_pos", "n_neg", "pos_weight", "neg_weight", "auc", "auc_low",
                  "auc_high", "auc_se", "average_precision")


def _assert_same_table(got, ref):
    assert list(got.groups) == list(ref.groups)
    for name in ref.groups:
        np.testing.assert_array_equal(got.groups[name], ref.groups[name])
    for col in _GROUP_COLUMNS:
        np.testing.assert_array_equal(getattr(got, col), getattr(ref, col), err_msg=col)
    if ref.log_loss is None:
        assert got.log_loss is None
    else:
        np.testing.assert_array_equal(got.log_loss, ref.log_loss)
    assert got.confidence_level == ref.confidence_level


@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("k", [1, 2])
def test_report_by_equals_by_group(data, rng, weighted, k):
    y, S, w = data
    S = S[:, :k]
    sw = w if weighted else None
    g = rng.choice(["north", "south", "east", "west"], y.shape[0])
    names = ["prob", "raw"][:k]
    r = fastauc.report(y, S, sample_weight=sw, names=names, by=g, confidence_level=0.9)
    assert list(r.by_group) == names
    for j, name in enumerate(names):
        ref = fastauc.by_group(y, S[:, j], g, sample_weight=sw, confidence_level=0.9)
        _assert_same_table(r.by_group[name], ref)
    text = str(r)
    for label in ("north", "south", "east", "west", "90% CI"):
        assert label in text
    for name in names:
        assert f"{name} by group (4 groups" in text
    d = r.to_dict()
    json.dumps(d, allow_nan=False)
    assert list(d["by_group"]) == names
    assert d["by_group"]["prob"]["group"] == ["east", "north", "south", "west"]
    assert d["by_group"]["prob"]["auc"] == r.by_group["prob"].auc.tolist()


def test_report_by_tuple_labels_and_pos_label(data, rng):
    y, S, w = data
    labels = np.where(y == 1, "sick", "well")
    g = rng.integers(0, 3, y.shape[0])
    h = rng.choice(["a", "b"], y.shape[0])
    r = fastauc.report(labels, S, pos_label="sick", sample_weight=w, names=["p", "q"],
                       by=(g, h))
    for j, name in enumerate(["p", "q"]):
        ref = fastauc.by_group(labels, S[:, j], (g, h), pos_label="sick", sample_weight=w)
        _assert_same_table(r.by_group[name], ref)
    assert list(r.by_group["p"].groups) == ["group_0", "group_1"]
    assert "p by group_0, group_1 (6 groups" in str(r)


def test_report_without_by_is_unchanged(data, rng):
    y, S, w = data
    g = rng.integers(0, 2, y.shape[0])
    plain = fastauc.report(y, S, sample_weight=w)
    grouped = fastauc.report(y, S, sample_weight=w, by=g)
    assert plain.by_group == {} and "by_group" not in plain.to_dict()
    d = grouped.to_dict()
    del d["by_group"]
    assert d == plain.to_dict()
    assert str(grouped).startswith(str(plain) + "\n\nmodel_1 by group")


def test_report_by_bad_input(data):
    y, S, _ = data
    with pytest.raises(ValueError, match="inconsistent numbers of samples"):
        fastauc.report(y, S, by=np.zeros(y.shape[0] - 1))
    with pytest.raises(ValueError, match="missing label"):
        fastauc.report(y, S, by=np.where(np.arange(y.shape[0]) == 3, np.nan, 1.0))
    g = np.where(y == 1, "only positives", "only negatives")
    g[:2] = "mixed"
    y2 = y.copy()
    y2[:2] = [0, 1]
    with pytest.warns(fastauc.UndefinedMetricWarning, match="2 of 3 groups"):
        r = fastauc.report(y2, S[:, 0], by=g)
    assert np.isnan(r.by_group["model_1"].auc[1:]).all()
    assert "-" in str(r).splitlines()[-1]  # the undefined interval prints as "-"
    json.dumps(r.to_dict(), allow_nan=False)  # NaN as null


# ------------------------------------------------------------------ issue 36: p-values, counts

def test_underflowed_pvalue_prints_as_a_bound(rng):
    """A DeLong p-value past float64's range is 0.0: the table says p < 1e-300, not p = 0."""
    n = 20_000
    y = rng.integers(0, 2, n)
    S = np.column_stack((y + 0.01 * rng.normal(size=n), rng.normal(size=n)))
    r = fastauc.report(y, S)
    assert r.comparisons[0].pvalue == 0.0  # the test statistic is about 150
    text = str(r)
    assert "p < 1e-300" in text and "p = 0\n" not in text and not text.endswith("p = 0")
    t = fastauc.delong_test(y, S[:, 0], S[:, 1])
    assert t.pvalue == 0.0 and t.statistic > 100  # the value itself stays what it is
    assert r.to_dict()["comparisons"][0]["pvalue"] == 0.0


@pytest.mark.parametrize("p, text", [(0.0, "p < 1e-300"), (5e-324, "p < 1e-300"),
                                     (1e-301, "p < 1e-300"), (1e-300, "p = 1e-300"),
                                     (0.01234, "p = 0.0123"), (1.0, "p = 1"),
                                     (float("nan"), "p = nan")])
def test_format_pvalue(p, text):
    from fastauc._report_blocks import P_FLOOR, format_pvalue

    assert P_FLOOR == 1e-300
    assert format_pvalue(p) == text


@pytest.mark.parametrize("weighted", [False, True])
def test_json_counts_are_integers_when_counted(data, weighted):
    """Unweighted counts are JSON integers (7987, not 7987.0); weighted ones floats."""
    y, S, w = data
    g = np.arange(len(y)) % 3
    r = fastauc.report(y, S, sample_weight=w if weighted else None, by=g)
    d = json.loads(json.dumps(r.to_dict(), allow_nan=False))
    kind = float if weighted else int
    assert type(d["n_positive"]) is kind and type(d["n_negative"]) is kind
    assert d["n_positive"] == r.n_positive and d["n_negative"] == r.n_negative
    for model, m in zip(d["models"], r.models):
        for metric, point in model["best"].items():
            for key in ("tp", "fp", "tn", "fn"):
                assert type(point[key]) is kind, (metric, key, point[key])
                assert point[key] == m.best[metric][key]
            assert type(point["precision"]) is float  # rates stay floats
    for table in d["by_group"].values():
        assert all(type(x) is kind for x in table["pos_weight"] + table["neg_weight"])
        assert all(type(x) is int for x in table["n"] + table["n_pos"] + table["n_neg"])
    # a model's own to_dict() without the report's context keeps floats
    assert type(r.models[0].to_dict()["best"]["f1"]["tp"]) is float


# ------------------------------------------------------------------ operating points, calibration

@pytest.mark.parametrize("weighted", [False, True])
def test_operating_points_equal_coords_and_wilson(data, weighted):
    y, S, w = data
    sw = w if weighted else None
    r = fastauc.report(y, S, sample_weight=sw, names=["prob", "raw"],
                       at_specificity=(0.9, 0.95), at_sensitivity=0.8)
    for j, m in enumerate(r.models):
        s = S[:, j]
        assert [(p["given"], p["rate"], p["measure"]) for p in m.operating_points] == [
            ("specificity", 0.9, "sensitivity"), ("specificity", 0.95, "sensitivity"),
            ("sensitivity", 0.8, "specificity")]
        for given, measure, rates in (("specificity", "sensitivity", [0.9, 0.95]),
                                      ("sensitivity", "specificity", [0.8])):
            c = fastauc.coords(y, s, rates, input=given, ret=[measure, "threshold"],
                               sample_weight=sw)
            ci = fastauc.coords_ci(y, s, rates, input=given, ret=[measure], method="wilson",
                                   sample_weight=sw)
            points = [p for p in m.operating_points if p["given"] == given]
            for i, p in enumerate(points):
                assert p["interval"] == "wilson"
                assert p["value"] == pytest.approx(c[measure][i], abs=1e-12)
                assert p["low"] == pytest.approx(ci.low[measure][i], abs=1e-12)
                assert p["high"] == pytest.approx(ci.high[measure][i], abs=1e-12)
                np.testing.assert_array_equal(p["threshold"], c["threshold"][i])
    text = str(r)
    assert "prob: operating points" in text and "95% CI (Wilson)" in text
    assert "specificity 0.95" in text and "sensitivity 0.8" in text
    d = json.loads(json.dumps(r.to_dict(), allow_nan=False))
    point = d["models"][1]["operating_points"][0]
    assert sorted(point) == ["given", "high", "interval", "low", "measure", "rate",
                             "threshold", "value"]


def test_operating_points_on_a_point_of_the_curve_have_its_threshold():
    y = np.array([0, 0, 0, 0, 1, 1, 1, 1])
    s = np.array([0.1, 0.2, 0.3, 0.6, 0.4, 0.7, 0.8, 0.9])
    r = fastauc.report(y, s, at_specificity=[0.75, 0.9])
    exact, between = r.models[0].operating_points
    c = fastauc.coords(y, s, [0.75, 0.9], input="specificity", ret=["sensitivity", "threshold"])
    assert exact["threshold"] == c.threshold[0] and np.isfinite(exact["threshold"])
    assert np.isnan(between["threshold"])
    assert "interpolated" in str(r)
    assert r.to_dict()["models"][0]["operating_points"][1]["threshold"] is None


def test_operating_points_bootstrap_equal_coords_ci(data):
    y, S, w = data
    r = fastauc.report(y, S[:, 0], sample_weight=w, ci="bootstrap", n_resamples=200,
                       random_state=3, at_specificity=0.9, at_sensitivity=[0.7, 0.8])
    for given, measure, rates in (("specificity", "sensitivity", [0.9]),
                                  ("sensitivity", "specificity", [0.7, 0.8])):
        ci = fastauc.coords_ci(y, S[:, 0], rates, input=given, ret=[measure], sample_weight=w,
                               n_resamples=200, random_state=3)
        points = [p for p in r.models[0].operating_points if p["given"] == given]
        for i, p in enumerate(points):
            assert p["interval"] == "bootstrap"
            assert p["value"] == pytest.approx(ci.estimate[measure][i], abs=1e-12)
            assert (p["low"], p["high"]) == (ci.low[measure][i], ci.high[measure][i])
    assert "95% CI (bootstrap)" in str(r)


@pytest.mark.parametrize("weighted", [False, True])
def test_calibration_block_equals_its_functions(data, weighted):
    y, S, w = data
    sw = w if weighted else None
    r = fastauc.report(y, S, sample_weight=sw, names=["prob", "raw"])
    d = fastauc.brier_decomposition(y, S[:, 0], sample_weight=sw)
    cal = r.models[0].calibration
    assert (cal["brier"], cal["miscalibration"], cal["discrimination"],
            cal["uncertainty"]) == pytest.approx(
        (d.brier, d.miscalibration, d.discrimination, d.uncertainty), abs=1e-12)
    assert cal["brier"] == pytest.approx(
        skm.brier_score_loss(y, S[:, 0], sample_weight=sw), abs=1e-12)
    assert cal["ece"] == pytest.approx(
        fastauc.calibration_error(y, S[:, 0], n_bins=15, norm="l1", sample_weight=sw),
        abs=1e-12)
    assert r.models[1].calibration is None  # not probabilities: left out silently
    text = str(r)
    for word in ("Brier score", "miscalibration", "discrimination", "uncertainty",
                 "ECE (15 bins)"):
        assert word in text
    models = json.loads(json.dumps(r.to_dict(), allow_nan=False))["models"]
    assert sorted(models[0]["calibration"]) == ["brier", "discrimination", "ece",
                                                "miscalibration", "uncertainty"]
    assert models[1]["calibration"] is None
    assert "operating_points" not in models[0]


def test_calibration_option_and_unchanged_output(data):
    y, S, _ = data
    raw = fastauc.report(y, S[:, 1])
    assert raw.models[0].calibration is None and "Brier" not in str(raw)
    assert "calibration" not in raw.to_dict()["models"][0]
    assert "operating_points" not in raw.to_dict()["models"][0]
    off = fastauc.report(y, S, calibration=False)
    assert all(m.calibration is None for m in off.models) and "Brier" not in str(off)
    on = fastauc.report(y, S[:, 0], calibration=True)
    assert on.models[0].calibration == fastauc.report(y, S[:, 0]).models[0].calibration
    # without the block, the text is the report's as before: the new rows only
    lines = [x for x in str(fastauc.report(y, S)).splitlines()
             if not x.startswith(("Brier score", "  miscalibration", "  discrimination",
                                  "  uncertainty", "ECE (15 bins)"))]
    assert lines == str(off).splitlines()
    with pytest.raises(ValueError, match="calibration=True needs probabilities.*'model_2'"):
        fastauc.report(y, S, calibration=True)
    with pytest.raises(ValueError, match="calibration must be None"):
        fastauc.report(y, S, calibration="auto")


@pytest.mark.parametrize("kwargs,error,words", [
    ({"at_specificity": 1.5}, ValueError, "at_specificity must hold rates in \\[0, 1\\]"),
    ({"at_specificity": [0.9, -0.1]}, ValueError, "at_specificity.*-0.1"),
    ({"at_sensitivity": float("nan")}, ValueError, "at_sensitivity"),
    ({"at_sensitivity": "0.9"}, TypeError, "at_sensitivity must hold numbers"),
    ({"at_specificity": [True]}, TypeError, "at_specificity must hold numbers"),
    ({"at_specificity": object()}, TypeError, "at_specificity must be a rate"),
])
def test_operating_points_bad_rates(data, kwargs, error, words):
    y, S, _ = data
    with pytest.raises(error, match=words):
        fastauc.report(y, S, **kwargs)


@pytest.mark.parametrize("weighted", [False, True])
def test_report_of_several_models_has_the_omnibus_test_and_adjusted_pairs(weighted):
    """Three models or more: DeLong's chi-square of equal AUCs and each
    pair's Holm and Bonferroni p-values, as delong_omnibus gives them."""
    rng = np.random.default_rng(11)
    y = rng.integers(0, 2, 800)
    S = np.column_stack([y + s * rng.normal(size=800) for s in (1.0, 2.0, 1.6, 1.1)])
    sw = rng.random(800) * 2 if weighted else None
    r = fastauc.report(y, S, sample_weight=sw, names=["a", "b", "c", "d"])
    om = fastauc.delong_omnibus(y, S, sample_weight=sw)
    assert (r.omnibus["statistic"], r.omnibus["df"], r.omnibus["pvalue"]) == pytest.approx(
        (om.statistic, om.df, om.pvalue), rel=1e-12)
    pairs = om.pairs
    assert [c.pvalue_holm for c in r.comparisons] == pytest.approx(list(pairs["pvalue_holm"]),
                                                                    rel=1e-12)
    assert [c.pvalue_bonferroni for c in r.comparisons] == pytest.approx(
        list(pairs["pvalue_bonferroni"]), rel=1e-12)
    text = str(r)
    assert "DeLong's test of equal AUCs (4 models)" in text and "Holm p" in text
    d = r.to_dict()
    json.dumps(d, allow_nan=False)
    assert d["omnibus"]["df"] == 3 and "pvalue_holm" in d["comparisons"][0]
    two = fastauc.report(y, S[:, :2])
    assert two.omnibus is None and two.comparisons[0].pvalue_holm == two.comparisons[0].pvalue
    assert "Holm" not in str(two)
