"""The fast AUC agrees with the O(n*m) definition in fastauc.naive, and the other
references in fastauc.naive agree with scikit-learn and scipy where those exist."""

import numpy as np
import pytest
import scipy.spatial
import scipy.stats
import sklearn.metrics as skm
from hypothesis import given

import fastauc
from fastauc import naive
from fastauc.naive import pairwise_auc

from .strategies import binary_problems


@given(binary_problems())
def test_roc_auc_matches_pairwise_definition(problem):
    y, s, w = problem
    if w is not None and (w[y == 1].sum() == 0 or w[y == 0].sum() == 0):
        return
    assert abs(fastauc.roc_auc_score(y, s, sample_weight=w) - pairwise_auc(y, s, w)) <= 1e-12


def test_pairwise_chunks_and_ties(rng):
    y = rng.integers(0, 2, 3000)
    s = rng.integers(0, 20, 3000).astype(float)  # heavy ties
    w = rng.random(3000)
    # tiny blocks force many chunks; the answer must not change
    assert abs(pairwise_auc(y, s, w, block=97) - pairwise_auc(y, s, w)) <= 1e-12
    assert abs(fastauc.roc_auc_score(y, s, sample_weight=w) - pairwise_auc(y, s, w)) <= 1e-12


def test_all_ties_is_one_half():
    assert pairwise_auc([0, 1, 0, 1], [2.0, 2.0, 2.0, 2.0]) == 0.5
    assert fastauc.roc_auc_score([0, 1, 0, 1], [2.0, 2.0, 2.0, 2.0]) == 0.5
    # -0.0 and 0.0 are one tie
    assert fastauc.roc_auc_score([0, 1], [-0.0, 0.0]) == 0.5
    np.testing.assert_array_equal(fastauc.roc_curve([0, 1], [-0.0, 0.0])[2], [np.inf, 0.0])


def test_submodules_reachable_lazily_after_plain_import():
    import subprocess
    import sys

    code = ("import sys, fastauc\n"
            "assert 'fastauc.naive' not in sys.modules and 'sklearn' not in sys.modules\n"
            "assert fastauc.naive.pairwise_auc([0, 1, 1], [0.2, 0.2, 0.9]) == 0.75\n"
            "assert 'naive' in dir(fastauc)\n"
            "try:\n    fastauc.no_such_name\nexcept AttributeError:\n    pass\n"
            "else:\n    raise SystemExit('no AttributeError')\n")
    subprocess.run([sys.executable, "-c", code], check=True)


# ------------------------------------------- the references themselves, checked independently

def _problem(seed, n=50, ties=True):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    y[:2] = (0, 1)
    s = rng.normal(size=n) + y
    s = np.round(2 * s) / 2 if ties else s
    return y, s, rng.choice([0.0, 0.5, 1.0, 3.0], n)


@pytest.mark.parametrize("seed", [0, 1])
def test_confusion_counts_and_metrics_match_sklearn(seed):
    y, s, w = _problem(seed)
    thr, tp, fp, p, n = naive.confusion_at_thresholds(y, s, w)
    fpr, tpr, sk_thr = skm.roc_curve(y, s, sample_weight=w, drop_intermediate=False)
    np.testing.assert_array_equal(thr, sk_thr[1:])
    np.testing.assert_allclose(tp / p, tpr[1:], rtol=0, atol=1e-12)
    np.testing.assert_allclose(fp / n, fpr[1:], rtol=0, atol=1e-12)
    m = naive.threshold_metrics(y, s, w, beta=2.0)
    for i, t in enumerate(thr):
        pred = (s >= t).astype(int)
        for key, fn, kw in (("precision", skm.precision_score, {"zero_division": 0}),
                            ("f1", skm.f1_score, {"zero_division": 0}),
                            ("fbeta", skm.fbeta_score, {"beta": 2.0, "zero_division": 0}),
                            ("mcc", skm.matthews_corrcoef, {}),
                            ("accuracy", skm.accuracy_score, {})):
            assert m[key][i] == pytest.approx(fn(y, pred, sample_weight=w, **kw), abs=1e-12)


@pytest.mark.parametrize("seed", [0, 1])
def test_average_precision_log_loss_and_jackknife_match_sklearn(seed):
    y, s, w = _problem(seed)
    assert naive.average_precision(y, s, w) == pytest.approx(
        skm.average_precision_score(y, s, sample_weight=w), abs=1e-12)
    p = 1 / (1 + np.exp(-s))
    p[::9] = np.round(p[::9])  # exact 0 and 1: clipped
    assert naive.log_loss(y, p, w) == pytest.approx(skm.log_loss(y, p, sample_weight=w),
                                                    rel=1e-12)
    jk = naive.jackknife_auc(y[:20], s[:20])
    for i in range(20):
        keep = np.arange(20) != i
        assert jk[i] == pytest.approx(skm.roc_auc_score(y[:20][keep], s[:20][keep]), abs=1e-12)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_convex_hull_matches_scipy(seed):
    y, s, w = _problem(seed, ties=seed == 2)
    hull = naive.roc_convex_hull(y, s, w)
    fpr, tpr, _ = skm.roc_curve(y, s, sample_weight=w, drop_intermediate=False)
    pts = np.column_stack((fpr, tpr))
    area = scipy.spatial.ConvexHull(np.vstack((pts, [[1.0, 0.0]]))).volume
    assert hull["auc"] == pytest.approx(area, abs=1e-12)
    for x, yy in zip(hull["fpr"], hull["tpr"]):  # vertices are ROC points
        assert np.any(np.all(np.abs(pts - [x, yy]) < 1e-12, axis=1))
    dx, dy = np.diff(hull["fpr"]), np.diff(hull["tpr"])
    assert np.all(dx[:-1] * dy[1:] - dy[:-1] * dx[1:] < 0)  # strictly concave turns


@pytest.mark.parametrize("max_fpr", [0.1, 0.5, 1.0])
def test_partial_auc_mcclish_matches_sklearn_max_fpr(max_fpr):
    y, s, w = _problem(3)
    assert naive.partial_auc(y, s, fpr_range=(0, max_fpr), correct=True,
                             sample_weight=w) == pytest.approx(
        skm.roc_auc_score(y, s, sample_weight=w, max_fpr=max_fpr), abs=1e-12)
    assert naive.partial_auc(y, s, tpr_range=(0, 1), sample_weight=w) == pytest.approx(
        pairwise_auc(y, s, w), abs=1e-12)


def test_lift_and_gains_by_tied_groups():
    rng = np.random.default_rng(4)
    y = rng.integers(0, 2, 200)
    s = rng.integers(0, 5, 200).astype(float)  # five big tie groups
    perm = rng.permutation(200)
    assert naive.lift_at(y, s, 0.1) == pytest.approx(naive.lift_at(y[perm], s[perm], 0.1),
                                                     rel=1e-14)
    top = s == s.max()  # the top group holds ~20%: lift at 10% is its rate / base
    assert naive.lift_at(y, s, 0.1) == pytest.approx(y[top].mean() / y.mean(), rel=1e-12)
    g = naive.gains_table(y, s, 4)
    assert g["cumulative_gain"][-1] == pytest.approx(1.0)
    np.testing.assert_allclose(g["positives"].sum(), y.sum(), rtol=1e-12)
    np.testing.assert_allclose(g["count"], 50.0, rtol=1e-12)


def test_delong_interval_and_test_follow_the_normal_formulas():
    y, s, w = _problem(5, ties=False)
    s2 = np.round(s + np.random.default_rng(0).normal(size=len(s)), 1)
    aucs, cov = naive.delong_covariance(y, np.column_stack((s, s2)), w)
    est, low, high, se = naive.delong_interval(y, s, w, 0.9)
    z = scipy.stats.norm.ppf(0.95)
    assert (est, se) == pytest.approx((aucs[0], np.sqrt(cov[0, 0])), rel=1e-12)
    assert (low, high) == pytest.approx((max(0, est - z * se), min(1, est + z * se)), rel=1e-12)
    res = naive.delong_test(y, s, s2, w)
    sd = np.sqrt(cov[0, 0] + cov[1, 1] - 2 * cov[0, 1])
    assert res["statistic"] == pytest.approx((aucs[0] - aucs[1]) / sd, rel=1e-12)
    assert res["pvalue"] == pytest.approx(2 * scipy.stats.norm.sf(abs(res["statistic"])),
                                          rel=1e-10)
    assert np.isnan(naive.delong_interval([0, 1, 0], [0.2, 0.5, 0.1])[3])  # one positive


def test_by_group_is_a_loop_over_the_groups():
    y, s, w = _problem(6)
    p = 1 / (1 + np.exp(-s))
    g = np.arange(len(y)) % 3
    res = naive.by_group(y, p, g, w)
    assert res["group"].tolist() == [0, 1, 2]
    for j in range(3):
        m = g == j
        assert res["auc"][j] == pytest.approx(
            skm.roc_auc_score(y[m], p[m], sample_weight=w[m]), abs=1e-12)
        assert res["average_precision"][j] == pytest.approx(
            skm.average_precision_score(y[m], p[m], sample_weight=w[m]), abs=1e-12)
        assert res["log_loss"][j] == pytest.approx(
            skm.log_loss(y[m], p[m], sample_weight=w[m]), rel=1e-12)
