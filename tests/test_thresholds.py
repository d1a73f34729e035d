"""Threshold metrics against scikit-learn at every threshold; best thresholds,
lift, gains and the convex hull against brute force."""

import numpy as np
import pytest
import scipy.spatial
import sklearn.metrics as skm
from hypothesis import example, given
from hypothesis import strategies as st

import fastauc
from fastauc import naive

from .conftest import sklearn_call
from .strategies import binary_problems

# every reference comparison here holds on both sort paths (fastauc._sort)
pytestmark = pytest.mark.usefixtures("each_sort_path")

BETAS = [0.5, 2.0, 3.0, 4.0]


def _sk(fn, y, pred, w, **kw):
    return sklearn_call(fn, y, pred, sample_weight=w, **kw)


@given(binary_problems(max_size=40))
def test_threshold_metrics_equal_sklearn_at_every_threshold(problem):
    y, s, w = problem
    m = fastauc.threshold_metrics(y, s, sample_weight=w)
    ww = np.ones(len(y)) if w is None else w
    keep = ww > 0
    np.testing.assert_array_equal(m.threshold, np.unique(s[keep])[::-1] + 0.0)
    for i, t in enumerate(m.threshold):
        pred = (s >= t).astype(int)
        tn, fp, fn, tp = _sk(skm.confusion_matrix, y, pred, w, labels=[0, 1]).ravel()
        assert (m.tp[i], m.fp[i]) == pytest.approx((tp, fp), abs=1e-12)
        assert (m.tn[i], m.fn[i]) == pytest.approx((tn, fn), abs=1e-12)
        z = {"zero_division": 0}
        expected = {
            "precision": _sk(skm.precision_score, y, pred, w, **z),
            "recall": _sk(skm.recall_score, y, pred, w, **z),
            "specificity": _sk(skm.recall_score, y, pred, w, pos_label=0, **z),
            "npv": _sk(skm.precision_score, y, pred, w, pos_label=0, **z),
            "f1": _sk(skm.f1_score, y, pred, w, **z),
            "mcc": _sk(skm.matthews_corrcoef, y, pred, w),
            "accuracy": _sk(skm.accuracy_score, y, pred, w),
        }
        for name, ref in expected.items():
            assert getattr(m, name)[i] == pytest.approx(ref, abs=1e-12), (name, t)
        for beta in BETAS:
            ref = _sk(skm.fbeta_score, y, pred, w, beta=beta, **z)
            assert m.fbeta(beta)[i] == pytest.approx(ref, abs=1e-12), (beta, t)
        total = ww.sum()
        assert m.error_rate[i] == pytest.approx(1 - expected["accuracy"], abs=1e-12)
        assert m.youden[i] == pytest.approx(expected["recall"] + expected["specificity"] - 1,
                                            abs=1e-12)
        assert m.predicted_positive_rate[i] == pytest.approx((tp + fp) / total, abs=1e-12)
        prevalence = ww[y == 1].sum() / total
        if prevalence > 0:
            assert m.lift[i] == pytest.approx(expected["precision"] / prevalence, abs=1e-12)
    fpr, tpr, _ = sklearn_call(skm.roc_curve, y, s, sample_weight=w, drop_intermediate=False)
    if np.isfinite(fpr).all() and np.isfinite(tpr).all():
        np.testing.assert_allclose(m.fpr, fpr[1:], atol=1e-12)
        np.testing.assert_allclose(m.tpr, tpr[1:], atol=1e-12)
        np.testing.assert_allclose(m.fnr, 1 - tpr[1:], atol=1e-12)
    assert m.recall is m.tpr and m.sensitivity is m.tpr and m.ppv is m.precision
    assert len(m.to_dict()["f1"]) == len(m)


CODES = ["f1", "fbeta", "mcc", "youden", "accuracy", "closest_topleft", "cost"]


@given(binary_problems(max_size=40), st.sampled_from(CODES))
def test_best_threshold_is_the_first_maximum(problem, metric):
    y, s, w = problem
    m = fastauc.threshold_metrics(y, s, sample_weight=w)
    kw = {}
    if metric == "fbeta":
        kw["beta"] = 2.0
        values = m.fbeta(2.0)
    elif metric == "closest_topleft":
        values = -((1 - m.tpr) ** 2 + m.fpr**2)
    elif metric == "cost":
        kw = {"cost_fp": 1.0, "cost_fn": 5.0}
        values = -(1.0 * m.fp + 5.0 * m.fn)
    else:
        values = getattr(m, metric)
    res = fastauc.best_threshold(y, s, metric=metric, sample_weight=w, **kw)
    best = np.max(values)
    first = int(np.flatnonzero(values >= best - 1e-12)[0])
    assert res.threshold == m.threshold[first]
    sign = -1 if metric in ("closest_topleft", "cost") else 1
    assert sign * res.value == pytest.approx(best, abs=1e-12)
    assert res.metric == metric


@given(binary_problems(max_size=40), st.sampled_from([0.01, 0.1, 0.25, 0.5, 1.0]))
def test_lift_at_and_gains_table_against_brute_force(problem, k):
    y, s, w = problem
    ww = np.ones(len(y)) if w is None else w
    total, total_p = ww.sum(), ww[y == 1].sum()
    if total_p == 0:
        with pytest.raises(ValueError, match="no positive"):
            fastauc.lift_at(y, s, k, sample_weight=w)
        return
    ref = naive.top_positives(y, s, ww, k * total) / (k * total) / (total_p / total)
    assert fastauc.lift_at(y, s, k, sample_weight=w) == pytest.approx(ref, rel=1e-12)
    g = fastauc.gains_table(y, s, n_bins=4, sample_weight=w)
    cum = np.array([naive.top_positives(y, s, ww, total * b / 4) for b in range(1, 5)])
    np.testing.assert_allclose(g.cumulative_gain, cum / total_p, rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(g.positives.sum(), total_p, rtol=1e-12)
    np.testing.assert_allclose(g.count, total / 4, rtol=1e-12)
    assert g.cumulative_gain[-1] == pytest.approx(1.0)
    assert g.cumulative_lift[-1] == pytest.approx(1.0)


def test_lift_ties_do_not_depend_on_row_order(rng):
    y = rng.integers(0, 2, 1000)
    s = rng.integers(0, 5, 1000).astype(float)  # five big tie groups
    perm = rng.permutation(1000)
    a = fastauc.lift_at(y, s, 0.1)
    b = fastauc.lift_at(y[perm], s[perm], 0.1)
    assert a == pytest.approx(b, rel=1e-14)
    top = s == s.max()  # the top group holds ~20%: lift at 10% is its rate / base
    assert a == pytest.approx(y[top].mean() / y.mean(), rel=1e-12)


@given(binary_problems(max_size=40))
@example(problem=(  # exactly collinear vertices (tpr 5/11, 8/11, 11/11) that rates round apart
    np.array([0, 0, 0, 0, 1, 1, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1]),
    np.array([-1e300, -1e300, -2.5, -1.0, -2.5, -2.5, -0.0, -2.5, -1.0, -1.0, -1.0, -0.0,
              -0.0, -0.0, -0.0, -0.0]), None))
def test_roc_convex_hull(problem):
    y, s, w = problem
    ww = np.ones(len(y)) if w is None else w
    if ww[y == 1].sum() == 0 or ww[y == 0].sum() == 0:
        return
    hull = fastauc.roc_convex_hull(y, s, sample_weight=w)
    auc = sklearn_call(skm.roc_auc_score, y, s, sample_weight=w)
    assert hull.auc >= auc - 1e-12
    fpr, tpr, thr = sklearn_call(skm.roc_curve, y, s, sample_weight=w, drop_intermediate=False)
    pts = np.column_stack((fpr, tpr))
    for x, yy in zip(hull.fpr, hull.tpr):  # vertices are ROC points
        assert np.any(np.all(np.abs(pts - [x, yy]) < 1e-12, axis=1))
    dx, dy = np.diff(hull.fpr), np.diff(hull.tpr)
    assert np.all(dx[:-1] * dy[1:] - dy[:-1] * dx[1:] < 0)  # strictly concave turns
    poly = np.vstack((pts, [[1.0, 0.0]]))
    if np.ptp(poly[:, 0]) > 0 and np.ptp(poly[:, 1]) > 0:
        area = scipy.spatial.ConvexHull(poly).volume
        assert hull.auc == pytest.approx(area, abs=1e-12)


def test_gini_weighted(rng):
    y = rng.integers(0, 2, 500)
    s = rng.normal(size=500) + y
    w = rng.random(500)
    assert fastauc.gini(y, s, sample_weight=w) == pytest.approx(
        2 * skm.roc_auc_score(y, s, sample_weight=w) - 1, abs=1e-12)


def test_threshold_metrics_large_matches_curve(rng):
    n = 200_000
    y = rng.integers(0, 2, n)
    s = np.round(rng.normal(size=n), 3)
    m = fastauc.threshold_metrics(y, s)
    fpr, tpr, thr = skm.roc_curve(y, s, drop_intermediate=False)
    np.testing.assert_array_equal(m.threshold, thr[1:])
    np.testing.assert_allclose(m.tpr, tpr[1:], atol=1e-15)
    best = fastauc.best_threshold(y, s, metric="mcc")
    i = int(np.argmax(m.mcc))
    assert best.threshold == m.threshold[i]


def _proc_points(y, s, w):
    fpr, tpr, _ = sklearn_call(skm.roc_curve, y, s, sample_weight=w, drop_intermediate=False)
    return 1 - fpr[::-1], tpr[::-1]  # pROC's sort: specificity up, sensitivity down


RANGES = [(0.0, 0.1), (0.0, 0.5), (0.05, 0.3), (0.2, 0.9), (0.9, 1.0), (0.0, 1.0),
          (0.33, 0.34)]


@given(binary_problems(max_size=40), st.sampled_from(RANGES), st.booleans())
def test_partial_auc_matches_proc_procedure(problem, rng_, correct):
    y, s, w = problem
    ww = np.ones(len(y)) if w is None else w
    if ww[y == 1].sum() == 0 or ww[y == 0].sum() == 0:
        return
    a, b = rng_
    sp, se = _proc_points(y, s, w)
    # focus specificity: FPR in [a, b] is specificity in [1 - b, 1 - a]
    ref = naive.partial_auc_proc(sp, se, 1 - b, 1 - a)
    ours = fastauc.partial_auc(y, s, fpr_range=(a, b), sample_weight=w)
    assert ours == pytest.approx(ref, abs=1e-12)
    # focus sensitivity: the points reversed, axes swapped
    ref_t = naive.partial_auc_proc(se[::-1], sp[::-1], a, b)
    ours_t = fastauc.partial_auc(y, s, tpr_range=(a, b), sample_weight=w)
    assert ours_t == pytest.approx(ref_t, abs=1e-12)
    if correct:
        width = b - a
        chance = (b * b - a * a) / 2
        corrected = fastauc.partial_auc(y, s, fpr_range=(a, b), correct=True, sample_weight=w)
        assert corrected == pytest.approx((1 + (ref - chance) / (width - chance)) / 2, abs=1e-12)
        chance_t = width - (b * b - a * a) / 2
        corrected_t = fastauc.partial_auc(y, s, tpr_range=(a, b), correct=True, sample_weight=w)
        assert corrected_t == pytest.approx((1 + (ref_t - chance_t) / (width - chance_t)) / 2,
                                            abs=1e-12)


@given(binary_problems(max_size=40), st.sampled_from([0.1, 0.3, 0.5, 0.77, 1.0]))
def test_partial_auc_mcclish_equals_sklearn_max_fpr(problem, max_fpr):
    y, s, w = problem
    ww = np.ones(len(y)) if w is None else w
    if ww[y == 1].sum() == 0 or ww[y == 0].sum() == 0:
        return
    ref = sklearn_call(skm.roc_auc_score, y, s, sample_weight=w, max_fpr=max_fpr)
    ours = fastauc.partial_auc(y, s, fpr_range=(0, max_fpr), correct=True, sample_weight=w)
    assert ours == pytest.approx(ref, abs=1e-12)
    full = fastauc.partial_auc(y, s, sample_weight=w)
    assert full == pytest.approx(sklearn_call(skm.roc_auc_score, y, s, sample_weight=w),
                                 abs=1e-12)
    assert fastauc.partial_auc(y, s, tpr_range=(0, 1), sample_weight=w) == pytest.approx(
        full, abs=1e-12)
