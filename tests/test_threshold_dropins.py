"""scikit-learn 1.9's threshold functions as drop-ins: ``class_likelihood_ratios``,
``metric_at_thresholds`` (from one sweep for the metrics it knows) and
``TunedThresholdClassifierCV`` under ``fastauc.sklearn.patch()``: values to
1e-12, the same thresholds, errors and warnings as scikit-learn."""

import functools
import warnings

import numpy as np
import pytest
import sklearn.metrics as skm
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.datasets import make_classification
from sklearn.exceptions import UndefinedMetricWarning
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import _scorer
from sklearn.model_selection import TunedThresholdClassifierCV

import fastauc
import fastauc.sklearn as fs
from fastauc import _metric_sweep


def _run(func, *args, **kwargs):
    """``(result or (error type, message), {(warning kind, message)})``."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            result = func(*args, **kwargs)
        except Exception as exc:  # noqa: BLE001 - compared with scikit-learn's
            result = (type(exc).__name__, str(exc))
    kinds = set()
    for w in caught:
        kind = "undefined" if issubclass(w.category, UndefinedMetricWarning) else \
            w.category.__name__
        kinds.add((kind, str(w.message)))
    return result, kinds


def _is_error(r):
    return isinstance(r, tuple) and len(r) == 2 and isinstance(r[0], str)


def assert_same(ours, ref):
    (a, wa), (b, wb) = ours, ref
    assert wa == wb
    if _is_error(b):
        assert _is_error(a) and a[0] == b[0], (a, b)
        # a TypeError's words come from Python's call machinery, whichever wrapper binds
        assert b[1] in a[1] or a[0] == "TypeError", (a, b)
        return
    assert not _is_error(a), a
    if isinstance(b, tuple) and isinstance(b[0], np.ndarray):  # (values, thresholds)
        assert a[1].dtype == b[1].dtype
        np.testing.assert_array_equal(a[1], b[1])
        assert a[0].shape == b[0].shape
        np.testing.assert_allclose(a[0], b[0], rtol=1e-12, atol=1e-12)
        return
    np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-12)
    assert all(type(x) is float for x in a)


# ---------------------------------------------------------------- class_likelihood_ratios

def _label_pairs(rng, n, encoding):
    yt, yp = rng.integers(0, 2, n), rng.integers(0, 2, n)
    if encoding == "str":
        return np.where(yt == 1, "cat", "dog"), np.where(yp == 1, "cat", "dog")
    if encoding == "pm1":
        return 2 * yt - 1, 2 * yp - 1
    if encoding == "bool":
        return yt.astype(bool), yp.astype(bool)
    return yt, yp


REPLACE = [np.nan, 1.0, {"LR+": np.inf, "LR-": 0.0}, {"LR+": 1.0, "LR-": np.nan}]


@pytest.mark.parametrize("encoding", ["01", "str", "pm1", "bool"])
@pytest.mark.parametrize("replace", range(len(REPLACE)))
def test_likelihood_ratios_match_sklearn(encoding, replace):
    rng = np.random.default_rng(hash((encoding, replace)) % 2**32)
    for _ in range(60):  # small inputs: every degenerate cell pattern comes up
        n = int(rng.integers(1, 8))
        yt, yp = _label_pairs(rng, n, encoding)
        kw = {"replace_undefined_by": REPLACE[replace]}
        if rng.random() < 0.5:
            kw["sample_weight"] = rng.choice([0.0, 0.5, 1.0, 2.5], n)
        if rng.random() < 0.2:
            kw["labels"] = list(np.unique(np.concatenate([yt, yp])))[::-1]
        assert_same(_run(fastauc.class_likelihood_ratios, yt, yp, **kw),
                    _run(skm.class_likelihood_ratios, yt, yp, **kw))


def test_likelihood_ratios_larger_inputs_and_weights(rng):
    y = rng.integers(0, 2, 5000)
    pred = (rng.random(5000) < 0.3 + 0.4 * y).astype(int)
    w = rng.random(5000)
    for kw in ({}, {"sample_weight": w}, {"sample_weight": np.round(10 * w)},
               {"labels": [1, 0]}):
        assert_same(_run(fastauc.class_likelihood_ratios, y, pred, **kw),
                    _run(skm.class_likelihood_ratios, y, pred, **kw))


@pytest.mark.parametrize("call", [
    lambda f: f([0, 1, 2], [0, 1, 1]),  # multiclass
    lambda f: f([0, 1, 1], [0, 1, 1], replace_undefined_by="x"),
    lambda f: f([0, 1, 1], [0, 1, 1], replace_undefined_by=float("nan")),
    lambda f: f([0, 1, 1], [0, 1, 1], replace_undefined_by={"LR+": 0.5, "LR-": 1}),
    lambda f: f([0, 1, 1], [0, 1, 1], replace_undefined_by={"LR+": 2.0}),
    lambda f: f([0, 1, 1], [0, 1, 1], replace_undefined_by={"LR+": 2.0, "LR-": 1.5}),
    lambda f: f([0, 1, 1], [0, 1, 1], raise_warning=True),  # removed in scikit-learn 1.8
    lambda f: f([1, 1, 1], [1, 1, 1]),  # one label: a 1x1 confusion matrix
    lambda f: f([0, 1, 0], [0, 1, 0], labels=[0, 1, 2]),
    lambda f: f([0, 1, 0], [0, 1, 0], labels=[]),
    lambda f: f([0, 1, 0], [0, 1, 0], labels=[5, 6]),
    lambda f: f([0, 0, 0], [0, 1, 1]),  # no positive: numpy's 0 / 0 warnings too
], ids=["multiclass", "str", "float-nan", "dict-range", "dict-key", "dict-neg", "raise_warning",
        "one-label", "three-labels", "no-labels", "absent-labels", "no-positive"])
def test_likelihood_ratios_errors_and_warnings(call):
    ours = _run(call, fastauc.class_likelihood_ratios)
    assert_same(ours, _run(call, skm.class_likelihood_ratios))


def test_likelihood_ratios_warning_class():
    with pytest.warns(UndefinedMetricWarning, match="ill-defined"):
        fastauc.class_likelihood_ratios([0, 1, 1], [0, 1, 1])
    with pytest.warns(fastauc.UndefinedMetricWarning):
        fastauc.class_likelihood_ratios([0, 1, 1], [0, 1, 1])


def test_likelihood_ratios_inputs_not_modified(rng):
    y, pred, w = rng.integers(0, 2, 50), rng.integers(0, 2, 50), rng.random(50)
    copies = [a.copy() for a in (y, pred, w)]
    fastauc.class_likelihood_ratios(y, pred, sample_weight=w)
    for a, b in zip((y, pred, w), copies):
        np.testing.assert_array_equal(a, b)


# ---------------------------------------------------------------- metric_at_thresholds

SWEPT = [
    (skm.accuracy_score, {}), (skm.accuracy_score, {"normalize": False}),
    (skm.balanced_accuracy_score, {}), (skm.balanced_accuracy_score, {"adjusted": True}),
    (skm.precision_score, {}), (skm.precision_score, {"pos_label": 0}),
    (skm.precision_score, {"zero_division": 1}), (skm.precision_score, {"zero_division": np.nan}),
    (skm.recall_score, {}), (skm.recall_score, {"pos_label": 0, "zero_division": 0}),
    (skm.f1_score, {}), (skm.f1_score, {"pos_label": 0}), (skm.f1_score, {"zero_division": 1.0}),
    (skm.fbeta_score, {"beta": 2.0}), (skm.fbeta_score, {"beta": 0.5, "pos_label": 0}),
    (skm.fbeta_score, {"beta": 0}), (skm.fbeta_score, {"beta": np.inf}),
    (skm.jaccard_score, {}), (skm.jaccard_score, {"pos_label": 0, "zero_division": 1}),
    (skm.matthews_corrcoef, {}), (skm.cohen_kappa_score, {}),
    (skm.cohen_kappa_score, {"weights": "quadratic"}),
    (skm.class_likelihood_ratios, {}), (skm.class_likelihood_ratios, {"replace_undefined_by": 1.0}),
    (skm.class_likelihood_ratios, {"replace_undefined_by": {"LR+": np.inf, "LR-": 0.0}}),
    (fastauc.f1_score, {}), (fastauc.precision_score, {"pos_label": 0}),
    (fastauc.fbeta_score, {"beta": 3}), (fastauc.recall_score, {}),
    (fastauc.class_likelihood_ratios, {}),
    (functools.partial(skm.fbeta_score, beta=2), {}),
    (functools.partial(skm.f1_score, zero_division=0), {"pos_label": 0}),
]
LOOPED = [  # called per threshold, as scikit-learn does
    (skm.f1_score, {"average": "macro"}), (skm.f1_score, {"labels": [0, 1]}),
    (skm.fbeta_score, {}),  # beta missing: scikit-learn's TypeError
    (skm.f1_score, {"pos_label": 2}), (skm.hamming_loss, {}),
    (lambda yt, yp: (int(yp.sum()), float(yt[yp == 1].sum())), {}),
    (functools.partial(skm.f1_score, np.zeros(3)), {}),
]


def _name(case):
    func, kw = case
    return f"{getattr(func, '__module__', '')}.{getattr(func, '__name__', func)}{kw}"


def _problem(rng, n, mode, encoding):
    y = rng.integers(0, 2, n)
    if mode == "all0":
        y[:] = 0
    elif mode == "all1":
        y[:] = 1
    s = np.round(rng.normal(size=n) + y, int(rng.integers(0, 2)))
    if encoding == "float":
        y = y.astype(float)
    elif encoding == "bool":
        y = y.astype(bool)
    elif encoding == "float32":
        s = s.astype(np.float32)
    elif encoding == "int":
        s = (2 * s).astype(np.int64)
    return y, s


@pytest.mark.parametrize("case", SWEPT + LOOPED, ids=_name)
def test_metric_at_thresholds_matches_sklearn(case):
    func, kw = case
    rng = np.random.default_rng(len(_name(case)))
    for i in range(40):
        n = int(rng.integers(1, 9)) if i < 30 else 300
        mode = ("both", "all0", "all1")[i % 3]
        y, s = _problem(rng, n, mode, ("int01", "float", "bool", "float32", "int")[i % 5])
        w = None if i % 2 else rng.choice([0.0, 0.5, 1.0, 2.5], n)
        if w is not None and not (w > 0).any():
            w[0] = 1.0
        args = (y, s, func)
        opts = {"sample_weight": w, "metric_params": kw or None}
        assert_same(_run(fastauc.metric_at_thresholds, *args, **opts),
                    _run(skm.metric_at_thresholds, *args, **opts))


@pytest.mark.parametrize("case", SWEPT, ids=_name)
def test_known_metrics_are_swept(case, monkeypatch):
    """Two-class labels in {0, 1}: no per-threshold call."""
    def refuse(*args, **kwargs):
        raise AssertionError("called metric_func per threshold")

    monkeypatch.setattr(_metric_sweep, "each_threshold", refuse)
    func, kw = case
    rng = np.random.default_rng(0)
    y, s = rng.integers(0, 2, 500), np.round(rng.normal(size=500), 2)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        fastauc.metric_at_thresholds(y, s, func, metric_params=kw or None)
        fastauc.metric_at_thresholds(y, s, func, metric_params=kw or None,
                                     sample_weight=rng.random(500))


@pytest.mark.parametrize("labels", [[-1, 1], [1, 2], ["a", "b"]])
def test_other_label_encodings_are_scikit_learns(labels):
    """Labels other than {0, 1} meet the predictions 0/1 in the metric itself."""
    rng = np.random.default_rng(1)
    y = np.array(labels)[rng.integers(0, 2, 40)]
    s = rng.normal(size=40)
    for func, kw in [(skm.f1_score, {}), (skm.accuracy_score, {}),
                     (skm.f1_score, {"average": "micro"}), (skm.matthews_corrcoef, {})]:
        assert_same(_run(fastauc.metric_at_thresholds, y, s, func, metric_params=kw),
                    _run(skm.metric_at_thresholds, y, s, func, metric_params=kw))


def test_zero_division_warning_once(rng):
    """scikit-learn warns at each threshold; the sweep once per call and message."""
    s = rng.normal(size=50)
    with pytest.warns(UndefinedMetricWarning, match="Recall is ill-defined") as record:
        fastauc.metric_at_thresholds(np.ones(50, int), s, skm.recall_score,
                                     metric_params={"pos_label": 0})
    assert len(record) == 1
    with pytest.warns(UndefinedMetricWarning, match="F-score is ill-defined"):
        fastauc.metric_at_thresholds(np.ones(5, int), np.arange(5.0), skm.f1_score,
                                     metric_params={"pos_label": 0})


def test_sample_weight_only_in_metric_params_is_scikit_learns(rng):
    y, s = rng.integers(0, 2, 30), rng.normal(size=30)
    w = rng.random(30)
    assert_same(_run(fastauc.metric_at_thresholds, y, s, skm.f1_score,
                     metric_params={"sample_weight": w}),
                _run(skm.metric_at_thresholds, y, s, skm.f1_score,
                     metric_params={"sample_weight": w}))


def test_metric_at_thresholds_bad_arguments():
    with pytest.raises(ValueError, match="metric_func"):
        fastauc.metric_at_thresholds([0, 1], [0.1, 0.2], "f1")
    with pytest.raises(ValueError, match="metric_params"):
        fastauc.metric_at_thresholds([0, 1], [0.1, 0.2], skm.f1_score, metric_params=[1])
    with pytest.raises(ValueError, match="sample_weight sums to zero"):
        fastauc.metric_at_thresholds([0, 1], [0.1, 0.2], skm.f1_score, sample_weight=[0, 0])


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 1), st.integers(-3, 3), st.sampled_from([0, 1, 2])),
                min_size=1, max_size=12),
       st.sampled_from(range(len(SWEPT))), st.booleans())
def test_metric_at_thresholds_property(rows, which, weighted):
    y, s, w = (np.array(c) for c in zip(*rows))
    s = s / 2.0
    if weighted and not (w > 0).any():
        w[0] = 1
    func, kw = SWEPT[which]
    opts = {"sample_weight": w if weighted else None, "metric_params": kw or None}
    assert_same(_run(fastauc.metric_at_thresholds, y, s, func, **opts),
                _run(skm.metric_at_thresholds, y, s, func, **opts))


def test_metric_at_thresholds_weight_invariances(rng):
    y, s = rng.integers(0, 2, 200), np.round(rng.normal(size=200), 1)
    w = rng.integers(0, 4, 200).astype(float)
    ref, thr = fastauc.metric_at_thresholds(y, s, skm.f1_score, sample_weight=w,
                                            metric_params={"zero_division": 0})
    idx = np.repeat(np.arange(200), w.astype(int))
    rep, thr2 = fastauc.metric_at_thresholds(y[idx], s[idx], skm.f1_score,
                                             metric_params={"zero_division": 0})
    np.testing.assert_allclose(rep, ref, rtol=1e-12)
    np.testing.assert_array_equal(thr, thr2)
    scaled, _ = fastauc.metric_at_thresholds(y, s, skm.f1_score, sample_weight=3.5 * w,
                                             metric_params={"zero_division": 0})
    np.testing.assert_allclose(scaled, ref, rtol=1e-12)


# ---------------------------------------------------------------- fastauc.sklearn

def test_patch_swaps_and_restores():
    originals = {n: getattr(skm, n) for n in ("class_likelihood_ratios", "metric_at_thresholds")}
    score = _scorer._CurveScorer.__dict__["_score"]
    with fs.patched():
        for name in originals:
            assert getattr(skm, name) is fs._metric(name)
        assert _scorer._CurveScorer.__dict__["_score"] is not score
        values, thr = skm.metric_at_thresholds([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8],
                                               skm.f1_score)  # the patched f1 is known
        np.testing.assert_allclose(values, [2 / 3, 0.5, 0.8, 2 / 3])
    assert {n: getattr(skm, n) for n in originals} == originals
    assert _scorer._CurveScorer.__dict__["_score"] is score


def test_patched_metric_is_swept(monkeypatch):
    monkeypatch.setattr(_metric_sweep, "each_threshold", None)  # a loop would fail
    with fs.patched():
        fastauc.metric_at_thresholds([0, 1, 1], [0.2, 0.5, 0.5], skm.f1_score)
        fastauc.metric_at_thresholds([0, 1, 1], [0.2, 0.5, 0.5],
                                     functools.partial(skm.fbeta_score, beta=2.0))


X, Y = make_classification(n_samples=400, n_features=5, weights=[0.7], random_state=0)
YS = np.where(Y == 1, "spam", "ham")


def _tuned(X, y, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        return TunedThresholdClassifierCV(LogisticRegression(max_iter=300),
                                          store_cv_results=True, **kw).fit(X, y)


TUNED = [
    ({"scoring": "balanced_accuracy"}, Y), ({"scoring": "f1"}, Y),
    ({"scoring": "f1", "thresholds": np.linspace(0, 1, 37)}, Y),
    ({"scoring": skm.make_scorer(skm.fbeta_score, beta=2)}, Y),
    ({"scoring": "matthews_corrcoef"}, Y), ({"scoring": "accuracy", "thresholds": 1000}, Y),
    ({"scoring": skm.make_scorer(skm.cohen_kappa_score)}, Y),
    ({"scoring": skm.make_scorer(skm.precision_score, zero_division=1)}, Y),
    ({"scoring": "recall", "response_method": "decision_function"}, Y),
    ({"scoring": "jaccard", "cv": 3}, Y),
    ({"scoring": skm.make_scorer(skm.f1_score, pos_label="spam")}, YS),
    ({"scoring": skm.make_scorer(skm.f1_score, pos_label="ham")}, YS),  # the first class
    ({"scoring": skm.make_scorer(skm.recall_score, pos_label="ham"), "thresholds": 50}, YS),
    ({"scoring": "balanced_accuracy"}, YS),
]


@pytest.mark.parametrize("kw,y", TUNED, ids=[str(i) for i in range(len(TUNED))])
def test_tuned_threshold_same_under_patch(kw, y):
    reference = _tuned(X, y, **kw)
    before = fs.fallback_counts().get("TunedThresholdClassifierCV", 0)
    with fs.patched():
        tuned = _tuned(X, y, **kw)
    assert fs.fallback_counts().get("TunedThresholdClassifierCV", 0) == before  # swept
    assert tuned.best_threshold_ == reference.best_threshold_
    assert tuned.best_score_ == reference.best_score_
    for key in ("thresholds", "scores"):
        np.testing.assert_array_equal(tuned.cv_results_[key], reference.cv_results_[key])


def test_tuned_threshold_every_distinct_score():
    model = LogisticRegression(max_iter=300).fit(X, Y)
    every = np.unique(model.predict_proba(X)[:, 1])
    kw = {"cv": "prefit", "refit": False, "thresholds": every}
    for scoring in ("f1", "balanced_accuracy"):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UndefinedMetricWarning)
            ref = TunedThresholdClassifierCV(model, scoring=scoring, store_cv_results=True,
                                             **kw).fit(X, Y)
            with fs.patched():
                ours = TunedThresholdClassifierCV(model, scoring=scoring,
                                                  store_cv_results=True, **kw).fit(X, Y)
        assert ours.best_threshold_ == ref.best_threshold_
        np.testing.assert_array_equal(ours.cv_results_["scores"], ref.cv_results_["scores"])


def test_tuned_threshold_other_scorers_fall_back():
    scorer = skm.make_scorer(lambda yt, yp: float(np.mean(yt == yp)) ** 2)
    reference = _tuned(X, Y, scoring=scorer)
    before = fs.fallback_counts().get("TunedThresholdClassifierCV", 0)
    with fs.patched():
        tuned = _tuned(X, Y, scoring=scorer)
    assert fs.fallback_counts()["TunedThresholdClassifierCV"] == before + 5
    assert tuned.best_threshold_ == reference.best_threshold_
    np.testing.assert_array_equal(tuned.cv_results_["scores"], reference.cv_results_["scores"])
