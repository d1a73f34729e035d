"""venkatraman_test and cv_auc_ci against pROC's and cvAUC's documented values and
the definitions in fastauc.naive (the registry covers the generic comparisons)."""

from __future__ import annotations

import math
import os

import numpy as np
import pytest

import fastauc
from fastauc import _parallel, naive

ASAH = os.path.join(os.path.dirname(__file__), "data", "asah.csv")


def _asah():
    with open(ASAH) as f:
        header = f.readline().strip().split(",")
        rows = [line.strip().split(",") for line in f if line.strip()]
    col = {name: [r[i] for r in rows] for i, name in enumerate(header)}
    y = np.array([o == "Poor" for o in col["outcome"]], dtype=np.int64)
    return y, {k: np.array(col[k], dtype=float) for k in ("s100b", "ndka", "wfns")}


def _mc_close(p, expected, n, sigmas=5.0):
    """p within Monte Carlo error of ``expected`` (two estimates of n draws each)."""
    sd = math.sqrt(max(expected * (1 - expected), 1e-4) / n) * math.sqrt(2)
    assert abs(p - expected) <= sigmas * sd, (p, expected)


def test_venkatraman_asah_matches_proc():
    # pROC's roc.test help page: roc.test(roc(outcome, s100b), roc(outcome, wfns),
    # method="venkatraman") prints E = 578, boot.n = 2000, p-value = 0.024
    y, x = _asah()
    res = fastauc.venkatraman_test(y, x["s100b"], x["wfns"], random_state=0)
    assert res.statistic == 578.0
    assert res.method == "paired" and res.n_permutations == 2000
    _mc_close(res.pvalue, 0.024, 2000)


@pytest.mark.parametrize("other", ["ndka", "wfns"])
def test_venkatraman_asah_against_definition(other):
    y, x = _asah()
    res = fastauc.venkatraman_test(y, x["s100b"], x[other], n_permutations=10)
    assert res.statistic == naive.venkatraman_statistic(y, x["s100b"], x[other])
    res = fastauc.venkatraman_test(y, x["s100b"], x[other], y_true_b=y, n_permutations=10)
    ref = naive.venkatraman_statistic(y, x["s100b"], x[other], y_true_b=y)
    assert res.method == "unpaired"
    assert res.statistic == pytest.approx(ref, rel=1e-12, abs=1e-15)


def test_venkatraman_unpaired_different_sizes(rng):
    ya, yb = rng.integers(0, 2, 37), rng.integers(0, 2, 52)
    a = np.round(ya + rng.normal(size=37), 1)
    b = np.round(yb + 0.5 * rng.normal(size=52), 1)
    res = fastauc.venkatraman_test(ya, a, b, y_true_b=yb, n_permutations=10)
    assert res.statistic == pytest.approx(
        naive.venkatraman_statistic(ya, a, b, y_true_b=yb), rel=1e-12, abs=1e-15)


@pytest.mark.parametrize("unpaired", [False, True])
def test_venkatraman_permutations_follow_proc_scheme(unpaired, rng):
    # the permutation distribution of pROC's scheme (jittered ranks, drawn with numpy in
    # fastauc.naive) and of the kernel's: the same mean, and the same p-value
    n = 40
    y = rng.integers(0, 2, n)
    y[:2] = (0, 1)
    a = np.round(y + rng.normal(size=n), 1)
    b = np.round(y + 1.5 * rng.normal(size=n), 0)
    kw = {"y_true_b": y} if unpaired else {}
    ours = fastauc.venkatraman_test(y, a, b, n_permutations=4000, random_state=3, **kw)
    ref = naive.venkatraman_permutations(y, a, b, n_permutations=400, rng=4, **kw)
    se = np.std(ref) * math.sqrt(1 / 400 + 1 / 4000)
    assert abs(ours.permutations.mean() - ref.mean()) <= 5 * se
    assert abs(ours.permutations.std() - ref.std()) <= 0.2 * ref.std()
    p_ref = np.mean(ref >= ours.statistic)
    assert abs(ours.pvalue - p_ref) <= 5 * math.sqrt(max(p_ref * (1 - p_ref), 1e-3) / 400)


@pytest.mark.parametrize("unpaired", [False, True])
def test_venkatraman_same_for_any_threads(unpaired, rng, monkeypatch):
    n = 500
    y = rng.integers(0, 2, n)
    a, b = y + rng.normal(size=n), y + rng.normal(size=n)
    kw = {"y_true_b": y[::-1]} if unpaired else {}
    runs = []
    for threads in ("1", "2", "3"):
        monkeypatch.setenv("FASTAUC_NUM_THREADS", threads)
        runs.append(fastauc.venkatraman_test(y, a, b, n_permutations=300, random_state=7,
                                             **kw))
    monkeypatch.setattr(_parallel, "SHUFFLE", 11)
    runs.append(fastauc.venkatraman_test(y, a, b, n_permutations=300, random_state=7, **kw))
    for r in runs[1:]:
        np.testing.assert_array_equal(r.permutations, runs[0].permutations)
        assert r.pvalue == runs[0].pvalue
    other = fastauc.venkatraman_test(y, a, b, n_permutations=300, random_state=8, **kw)
    assert not np.array_equal(other.permutations, runs[0].permutations)


def test_venkatraman_result_and_inputs(rng):
    y = rng.integers(0, 2, 50)
    a, b = y + rng.normal(size=50), rng.normal(size=50)
    copies = [x.copy() for x in (y, a, b)]
    res = fastauc.venkatraman_test(y, a, b, n_permutations=30, random_state=1)
    for x, c in zip((y, a, b), copies):
        np.testing.assert_array_equal(x, c)
    assert "array" not in repr(res) and "statistic=" in repr(res)
    assert res.permutations.shape == (30,)
    assert res.pvalue == np.mean(res.permutations >= res.statistic)
    with pytest.raises(AttributeError):
        res.pvalue = 0.5
    # identical curves: statistic 0, p-value 1
    same = fastauc.venkatraman_test(y, a, a, n_permutations=30)
    assert same.statistic == 0.0 and same.pvalue == 1.0


@pytest.mark.parametrize("call,exc,words", [
    (lambda: fastauc.venkatraman_test([0, 1, 0, 1], [1, 2, 3, 4], [1, 2, 3, 4],
                                      n_permutations=0), ValueError, ["n_permutations"]),
    (lambda: fastauc.venkatraman_test([0, 1, 0, 1], [1, 2, 3, 4], [1, 2, 3, 4],
                                      n_permutations=2.5), TypeError, ["n_permutations"]),
    (lambda: fastauc.venkatraman_test([0, 1, 0, 1], [1, 2, 3, 4], [1, 2, 3]), ValueError,
     ["y_score_b has 3"]),
    (lambda: fastauc.venkatraman_test([1, 1, 1, 1], [1, 2, 3, 4], [1, 2, 3, 4]), ValueError,
     ["y_true", "one class"]),
    (lambda: fastauc.venkatraman_test([0, 1, 0, 1], [1, 2, 3, 4], [1, 2, 3],
                                      y_true_b=[1, 1, 1]), ValueError, ["y_true_b", "one class"]),
    (lambda: fastauc.venkatraman_test([0, 1, 0, 1], [1, 2, 3, 4], [1, 2, 3],
                                      y_true_b=[0, 1]), ValueError, ["y_score_b has 3"]),
    (lambda: fastauc.venkatraman_test([0, 1, 0, 1], [1, 2, 3, 4], [1, 2, 3, 4],
                                      random_state="x"), TypeError, ["random_state"]),
    (lambda: fastauc.cv_auc_ci([0, 0, 1, 1], [1, 2, 3, 4], [0, 0, 1, 1]), ValueError,
     ["fold 0", "one class"]),
    (lambda: fastauc.cv_auc_ci([0, 1, 0, 1], [1, 2, 3, 4], [0, 1, 0, 1]), ValueError,
     ["one class"]),
    (lambda: fastauc.cv_auc_ci([0, 1, 0, 1], [1, 2, 3, 4], [0, 0, 1]), ValueError,
     ["folds has 3"]),
    (lambda: fastauc.cv_auc_ci([0, 1, 0, 1, 0, 1, 0, 1], np.arange(8.0), [0, 0, 0, 0, 1, 1, 1, 1],
                               pooled=[0, 0, 1, 1, 1, 2, 2, 2]), ValueError,
     ["pooled", "one fold"]),
    (lambda: fastauc.cv_auc_ci([0, 1, 0, 1], [1, 2, 3, 4], [0, 0, 0, 0],
                               confidence_level=95), ValueError, ["confidence_level"]),
])
def test_bad_input(call, exc, words):
    with pytest.raises(exc) as info:
        call()
    for word in words:
        assert word in str(info.value), (word, str(info.value))


def _cv_problem(rng, n=300, ties=True):
    y = rng.integers(0, 2, n)
    s = y + rng.normal(size=n)
    if ties:
        s = np.round(s, 0)
    folds = rng.permutation(np.arange(n) % 5)
    return y, s, folds


@pytest.mark.parametrize("ties", [False, True])
def test_cv_auc_ci_against_definition(ties, rng):
    y, s, folds = _cv_problem(rng, ties=ties)
    w = rng.choice([0.0, 0.5, 1.0, 3.0], len(y))
    for weights in (None, w):
        ours = fastauc.cv_auc_ci(y, s, folds, sample_weight=weights, confidence_level=0.9)
        ref = naive.cv_auc_ci(y, s, folds, sample_weight=weights, confidence_level=0.9)
        for key in ("estimate", "se", "low", "high"):
            assert getattr(ours, key) == pytest.approx(ref[key], rel=1e-10), key
        np.testing.assert_allclose(ours.fold_aucs, ref["fold_aucs"], rtol=1e-12)
        assert ours.confidence_level == 0.9


def test_cv_auc_ci_folds_are_roc_auc_scores(rng):
    y, s, folds = _cv_problem(rng)
    labels = np.array(["c", "a", "b", "e", "d"])[folds]
    res = fastauc.cv_auc_ci(y, s, labels)
    expected = [fastauc.roc_auc_score(y[labels == k], s[labels == k]) for k in "abcde"]
    np.testing.assert_allclose(res.fold_aucs, expected, rtol=1e-12)
    assert res.estimate == pytest.approx(np.mean(expected), rel=1e-12)
    assert "array" not in repr(res) and "estimate=" in repr(res)


def test_cv_auc_ci_interval_is_cvauc_s(rng):
    # cvAUC's ci.cvAUC help page: cvAUC 0.9046473, se 0.01620238 -> ci 0.8728913 0.9364034;
    # the interval is estimate -+ qnorm(0.975) se, cut to [0, 1]
    y, s, folds = _cv_problem(rng)
    res = fastauc.cv_auc_ci(y, s, folds)
    z = (res.high - res.estimate) / res.se
    assert 0.9046473 - z * 0.01620238 == pytest.approx(0.8728913, abs=1e-7)
    assert 0.9046473 + z * 0.01620238 == pytest.approx(0.9364034, abs=1e-7)
    assert res.estimate - res.low == pytest.approx(res.high - res.estimate, rel=1e-12)
    perfect = fastauc.cv_auc_ci(y, y + 0.1 * s, folds)
    assert perfect.high == 1.0


def test_cv_auc_ci_pooled(rng):
    y, s, folds = _cv_problem(rng)
    # one row per unit: the pooled interval is the i.i.d. one
    single = fastauc.cv_auc_ci(y, s, folds, pooled=np.arange(len(y)) + 100)
    iid = fastauc.cv_auc_ci(y, s, folds)
    assert single.se == pytest.approx(iid.se, rel=1e-12)
    # units of several rows nested in the folds, against the definition
    units = folds * 1000 + rng.integers(0, 20, len(y))
    ours = fastauc.cv_auc_ci(y, s, folds, pooled=units)
    ref = naive.cv_auc_ci(y, s, folds, ids=units)
    assert ours.se == pytest.approx(ref["se"], rel=1e-10)
    assert ours.estimate == pytest.approx(ref["estimate"], rel=1e-12)


def test_cv_auc_ci_zero_weight_fold_is_left_out(rng):
    y, s, folds = _cv_problem(rng)
    w = np.where(folds == 2, 0.0, 1.0)
    res = fastauc.cv_auc_ci(y, s, folds, sample_weight=w)
    kept = folds != 2
    ref = fastauc.cv_auc_ci(y[kept], s[kept], folds[kept])
    assert res.fold_aucs.shape == (4,)
    assert res.se == pytest.approx(ref.se, rel=1e-12)


def test_cv_roc_curve_band_is_the_t_interval_of_the_mean(rng):
    from scipy.stats import t as student

    y = rng.integers(0, 2, 900)
    s = y + rng.normal(size=900)
    folds = np.arange(900) % 6
    res = fastauc.cv_roc_curve(y, s, folds, confidence_level=0.9)
    half = student.ppf(0.95, 5) * res.fold_tpr.std(axis=0, ddof=1) / np.sqrt(6)
    assert res.low == pytest.approx(np.clip(res.tpr - half, 0, 1), abs=1e-12)
    assert res.high == pytest.approx(np.clip(res.tpr + half, 0, 1), abs=1e-12)
    assert res.auc == pytest.approx(fastauc.cv_auc_ci(y, s, folds).estimate, abs=1e-15)
    assert res.fold_aucs.tolist() == [fastauc.roc_auc_score(y[folds == k], s[folds == k])
                                      for k in range(6)]
    assert res.fpr.shape == (101,) and res.tpr[-1] == 1.0


@pytest.mark.parametrize("kwargs,words", [
    ({"fpr": [0.5, 0.1]}, "increasing"),
    ({"fpr": [0.0, 1.5]}, "in \\[0, 1\\]"),
    ({"confidence_level": 1.5}, "confidence_level"),
])
def test_cv_roc_curve_bad_input(kwargs, words):
    y = [0, 1, 0, 1, 0, 1, 0, 1]
    with pytest.raises(ValueError, match=words):
        fastauc.cv_roc_curve(y, np.arange(8.0), [0, 0, 0, 0, 1, 1, 1, 1], **kwargs)
    with pytest.raises(ValueError, match="two folds"):
        fastauc.cv_roc_curve(y, np.arange(8.0), np.zeros(8))
    with pytest.raises(ValueError, match="one class only"):
        fastauc.cv_roc_curve(y, np.arange(8.0), [0, 1, 0, 1, 0, 1, 0, 1])
