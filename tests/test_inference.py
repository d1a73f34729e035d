"""Inference against references: scipy (Mann-Whitney), fastauc.naive (DeLong),
scikit-learn on explicitly reconstructed resamples (bootstrap)."""

import math
import warnings

import numpy as np
import pytest
import scipy.stats as ss
import sklearn.metrics as skm
from hypothesis import given
from hypothesis import strategies as st

import fastauc
from fastauc import naive
from fastauc._kernels import resampling as R
from fastauc._resample import _jackknife, _prepare

from .conftest import sklearn_call
from .resamples import drawn_positions
from .strategies import binary_problems

ALTERNATIVES = ["two-sided", "less", "greater"]


# ------------------------------------------------------------------ Mann-Whitney

def _scipy_mwu(y, s, **kw):
    return ss.mannwhitneyu(s[y == 1], s[y == 0], **kw)


@given(binary_problems(max_size=40, weights=False), st.sampled_from(ALTERNATIVES),
       st.sampled_from(["auto", "asymptotic", "exact"]), st.booleans())
def test_mann_whitney_matches_scipy(problem, alternative, method, continuity):
    y, s, _ = problem
    ours = fastauc.mann_whitney_u(y, s, alternative=alternative, method=method,
                                  use_continuity=continuity)
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ref = _scipy_mwu(y, s, alternative=alternative, method=method,
                         use_continuity=continuity)
    assert ours.statistic == pytest.approx(ref.statistic, rel=1e-9, abs=1e-12)
    if np.isnan(ref.pvalue):
        assert np.isnan(ours.pvalue)
    else:
        assert abs(ours.pvalue - ref.pvalue) <= 1e-10
    n1, n0 = (y == 1).sum(), (y == 0).sum()
    assert ours.auc == pytest.approx(ref.statistic / (n1 * n0), abs=1e-14)


@pytest.mark.parametrize("n1,n2", [(1, 1), (3, 9), (8, 8), (20, 25), (40, 7)])
@pytest.mark.parametrize("alternative", ALTERNATIVES)
def test_mann_whitney_exact_sizes(n1, n2, alternative, rng):
    s = rng.permutation(n1 + n2).astype(float)  # no ties
    y = np.r_[np.ones(n1, int), np.zeros(n2, int)]
    ours = fastauc.mann_whitney_u(y, s, alternative=alternative, method="exact")
    ref = _scipy_mwu(y, s, alternative=alternative, method="exact")
    assert ours.statistic == ref.statistic
    assert abs(ours.pvalue - ref.pvalue) <= 1e-10
    assert ours.method == "exact"


def test_mann_whitney_large_asymptotic(rng):
    n = 200_000
    y = (rng.random(n) < 0.2).astype(int)
    s = np.round(rng.normal(size=n) + 0.05 * y, 2)  # heavy ties
    for alt in ALTERNATIVES:
        ours = fastauc.mann_whitney_u(y, s, alternative=alt)
        ref = _scipy_mwu(y, s, alternative=alt)
        assert ours.statistic == pytest.approx(ref.statistic, rel=1e-12)
        assert abs(ours.pvalue - ref.pvalue) <= 1e-10


@given(binary_problems(max_size=30, weights=False), st.lists(st.integers(0, 3), min_size=30,
                                                             max_size=30))
def test_mann_whitney_integer_weights_repeat_rows(problem, reps):
    y, s, _ = problem
    w = np.array(reps[: len(y)], float)
    w[np.argmax(y == 1)] += 1
    w[np.argmax(y == 0)] += 1
    ours = fastauc.mann_whitney_u(y, s, sample_weight=w)
    rep = fastauc.mann_whitney_u(np.repeat(y, w.astype(int)), np.repeat(s, w.astype(int)))
    assert ours.statistic == pytest.approx(rep.statistic, rel=1e-12)
    assert ours.pvalue == pytest.approx(rep.pvalue, abs=1e-12)
    assert ours.method == rep.method
    unit = fastauc.mann_whitney_u(y, s, sample_weight=np.ones(len(y)))
    plain = fastauc.mann_whitney_u(y, s)
    assert (unit.statistic, unit.pvalue) == (plain.statistic, plain.pvalue)


def test_mann_whitney_one_class_warns():
    with pytest.warns(fastauc.UndefinedMetricWarning, match="one class"):
        res = fastauc.mann_whitney_u([1, 1, 1], [0.1, 0.2, 0.3])
    assert math.isnan(res.pvalue) and math.isnan(res.statistic)


# ------------------------------------------------------------------ DeLong

def _tied_scores(problem, rng, k):
    y, s, w = problem
    cols = [s] + [np.round(s + rng.normal(size=len(s)), 1) for _ in range(k - 1)]
    return y, np.column_stack(cols), w


def _has_two_per_class(y, w):
    w = np.ones(len(y)) if w is None else w
    return w[y == 1].sum() > 1 and w[y == 0].sum() > 1


@given(binary_problems(max_size=50), st.integers(1, 3))
def test_delong_covariance_matches_naive(problem, k):
    y, S, w = _tied_scores(problem, np.random.default_rng(len(problem[0])), k)
    if not _has_two_per_class(y, w):
        return
    aucs, cov = fastauc.delong_covariance(y, S, sample_weight=w)
    ref_aucs, ref_cov = naive.delong_covariance(y, S, w)
    np.testing.assert_allclose(aucs, ref_aucs, rtol=0, atol=1e-12)
    np.testing.assert_allclose(cov, ref_cov, rtol=1e-9, atol=1e-15)
    for m in range(k):  # one model at a time (the moments-in-the-sweep path)
        a1, c1 = fastauc.delong_covariance(y, S[:, m], sample_weight=w)
        assert a1[0] == pytest.approx(ref_aucs[m], abs=1e-12)
        assert c1[0, 0] == pytest.approx(ref_cov[m, m], rel=1e-9, abs=1e-15)
        ref_auc = sklearn_call(skm.roc_auc_score, y, S[:, m], sample_weight=w)
        assert a1[0] == pytest.approx(ref_auc, abs=1e-12)


@given(binary_problems(max_size=30, weights=False),
       st.lists(st.integers(1, 4), min_size=30, max_size=30))
def test_delong_weights_unit_and_integer(problem, reps):
    y, s, _ = problem
    S = _tied_scores(problem, np.random.default_rng(7), 2)[1]
    w = np.array(reps[: len(y)], float)
    if not _has_two_per_class(y, None):
        return
    for X in (S[:, 0], S):
        plain = fastauc.delong_covariance(y, X)
        unit = fastauc.delong_covariance(y, X, sample_weight=np.ones(len(y)))
        np.testing.assert_allclose(unit[1], plain[1], rtol=1e-13, atol=0)
        weighted = fastauc.delong_covariance(y, X, sample_weight=w)
        iw = w.astype(int)
        repeated = fastauc.delong_covariance(np.repeat(y, iw), np.repeat(X, iw, axis=0))
        np.testing.assert_allclose(weighted[0], repeated[0], rtol=0, atol=1e-13)
        np.testing.assert_allclose(weighted[1], repeated[1], rtol=1e-10, atol=1e-16)


def test_delong_large_and_shifted_scores(rng):
    """1e6 rows; scores scaled by 2**40 (exactly the same order): the one-pass
    (Welford in the sweep) and two-pass (placements) paths agree to 1e-10."""
    n = 1_000_000
    y = (rng.random(n) < 0.3).astype(int)
    s = rng.normal(size=n) + y
    aucs, cov = fastauc.delong_covariance(y, np.column_stack((s, s * 2.0**40)))
    assert aucs[0] == aucs[1]
    assert cov[0, 0] == pytest.approx(cov[1, 1], rel=1e-12)
    assert cov[0, 1] == pytest.approx(cov[0, 0], rel=1e-12)
    a1, c1 = fastauc.delong_covariance(y, s)
    assert c1[0, 0] == pytest.approx(cov[0, 0], rel=1e-10)
    assert aucs[0] == pytest.approx(skm.roc_auc_score(y, s), abs=1e-12)


def test_delong_perfect_separation_zero_variance():
    y = np.r_[np.zeros(50, int), np.ones(50, int)]
    s = np.arange(100.0)
    aucs, cov = fastauc.delong_covariance(y, s)
    assert aucs[0] == 1.0 and cov[0, 0] == 0.0
    ci = fastauc.roc_auc_ci(y, s)
    assert (ci.low, ci.high, ci.se) == (1.0, 1.0, 0.0)


@pytest.mark.parametrize("level", [0.8, 0.95, 0.99])
def test_roc_auc_ci_wald_and_logit(level, rng):
    y = rng.integers(0, 2, 300)
    s = np.round(rng.normal(size=300) + y, 1)
    _, cov = naive.delong_covariance(y, s)
    se = math.sqrt(cov[0, 0])
    est = skm.roc_auc_score(y, s)
    z = ss.norm.ppf(0.5 + level / 2)
    ci = fastauc.roc_auc_ci(y, s, confidence_level=level)
    assert ci.estimate == pytest.approx(est, abs=1e-12)
    assert ci.se == pytest.approx(se, rel=1e-10)
    assert ci.low == pytest.approx(max(0, est - z * se), abs=1e-12)
    assert ci.high == pytest.approx(min(1, est + z * se), abs=1e-12)
    assert (ci.method, ci.confidence_level) == ("delong", level)
    lg = fastauc.roc_auc_ci(y, s, confidence_level=level, transform="logit")
    logit = math.log(est / (1 - est))
    half = z * se / (est * (1 - est))
    assert lg.low == pytest.approx(1 / (1 + math.exp(-(logit - half))), abs=1e-12)
    assert lg.high == pytest.approx(1 / (1 + math.exp(-(logit + half))), abs=1e-12)
    assert 0 < lg.low < est < lg.high < 1


@given(binary_problems(max_size=50), st.sampled_from(ALTERNATIVES))
def test_delong_test_matches_naive(problem, alternative):
    y, S, w = _tied_scores(problem, np.random.default_rng(3), 2)
    if not _has_two_per_class(y, w):
        return
    res = fastauc.delong_test(y, S[:, 0], S[:, 1], alternative=alternative, sample_weight=w)
    aucs, cov = naive.delong_covariance(y, S, w)
    d = aucs[0] - aucs[1]
    var = cov[0, 0] + cov[1, 1] - 2 * cov[0, 1]
    assert res.difference == pytest.approx(d, abs=1e-12)
    assert res.se == pytest.approx(math.sqrt(max(var, 0)), rel=1e-6, abs=1e-9)
    if res.se > 1e-6:
        z = d / math.sqrt(var)
        assert res.statistic == pytest.approx(z, rel=1e-8, abs=1e-9)
        p = {"two-sided": 2 * ss.norm.sf(abs(z)), "greater": ss.norm.sf(z),
             "less": ss.norm.cdf(z)}[alternative]
        assert res.pvalue == pytest.approx(min(p, 1.0), abs=1e-10)


def test_delong_test_identical_scores(rng):
    y = rng.integers(0, 2, 100)
    s = rng.normal(size=100)
    res = fastauc.delong_test(y, s, s)
    assert (res.statistic, res.pvalue, res.difference, res.se) == (0.0, 1.0, 0.0, 0.0)
    assert res.low == res.high == 0.0


# ------------------------------------------------------------------ bootstrap

def _reference_metric(metric, y, s, w, max_fpr):
    if metric == "roc_auc":
        return sklearn_call(skm.roc_auc_score, y, s, sample_weight=w, max_fpr=max_fpr)
    if metric == "average_precision":
        return sklearn_call(skm.average_precision_score, y, s, sample_weight=w)
    return sklearn_call(skm.log_loss, y, s, sample_weight=w, labels=[0, 1])


def _resampled_rows(y, s, w, stratified, seed, r):
    """Reconstruct replicate r's rows: the drawn class-layout positions mapped to rows."""
    prep = _prepare(y, [s], ["y_score"], w, "roc_auc", stratified)
    pos = drawn_positions(seed, r, prep.strata)
    return prep.models[0].lay.rows[pos]


@pytest.mark.parametrize("metric,max_fpr", [("roc_auc", None), ("roc_auc", 0.3),
                                            ("average_precision", None), ("log_loss", None)])
@pytest.mark.parametrize("stratified", [True, False])
@pytest.mark.parametrize("weighted", [False, True])
def test_bootstrap_replicates_equal_sklearn_on_resampled_rows(metric, max_fpr, stratified,
                                                              weighted, rng):
    n = 80
    y = (rng.random(n) < 0.3).astype(int)
    s = np.round(rng.random(n), 1)  # probabilities with ties
    w = rng.choice([0.0, 0.5, 1.0, 3.0], n) if weighted else None
    res = fastauc.bootstrap_ci(y, s, metric=metric, max_fpr=max_fpr, n_resamples=40,
                               stratified=stratified, sample_weight=w, random_state=2024)
    seed = fastauc._validation.seed_from_random_state(2024)
    checked = 0
    for r in range(40):
        rows = _resampled_rows(y, s, w, stratified, seed, r)
        yr, sr = y[rows], s[rows]
        wr = None if w is None else w[rows]
        wsum = np.ones(n) if wr is None else wr
        one_class = wsum[yr == 1].sum() == 0 or wsum[yr == 0].sum() == 0
        if one_class and metric != "log_loss":
            assert np.isnan(res.replicates[r])
            continue
        ref = _reference_metric(metric, yr, sr, wr, max_fpr)
        assert res.replicates[r] == pytest.approx(ref, abs=1e-12), r
        checked += 1
    assert checked >= 30
    assert res.n_dropped == int(np.isnan(res.replicates).sum())
    assert res.estimate == pytest.approx(_reference_metric(metric, y, s, w, max_fpr), abs=1e-12)


def test_bootstrap_stratified_keeps_class_sizes(rng):
    y = (rng.random(50) < 0.2).astype(int)
    s = rng.random(50)
    prep = _prepare(y, [s], ["y_score"], None, "roc_auc", True)
    for r in range(20):
        pos = drawn_positions(5, r, prep.strata)
        rows = prep.models[0].lay.rows[pos]
        assert y[rows].sum() == y.sum()


def test_bootstrap_unstratified_drops_one_class_replicates():
    y = np.r_[1, np.zeros(9, int)]
    s = np.arange(10.0)
    res = fastauc.bootstrap_ci(y, s, n_resamples=300, stratified=False, random_state=0)
    # P(the single positive is not drawn) = 0.9**10 ~ 0.35
    assert 60 < res.n_dropped < 150
    assert np.isnan(res.replicates).sum() == res.n_dropped
    assert np.isfinite(res.low) and np.isfinite(res.high)


def test_bootstrap_paired_replicates_match_single(rng):
    """bootstrap_test resamples rows once for both models."""
    n = 120
    y = rng.integers(0, 2, n)
    a = np.round(rng.normal(size=n) + y, 1)
    b = np.round(rng.normal(size=n) + 0.5 * y, 1)
    res = fastauc.bootstrap_test(y, a, b, n_resamples=30, random_state=11)
    seed = fastauc._validation.seed_from_random_state(11)
    for r in range(30):
        rows = _resampled_rows(y, a, None, True, seed, r)
        assert res.replicates[r, 0] == pytest.approx(skm.roc_auc_score(y[rows], a[rows]),
                                                     abs=1e-12)
        assert res.replicates[r, 1] == pytest.approx(skm.roc_auc_score(y[rows], b[rows]),
                                                     abs=1e-12)
    single = fastauc.bootstrap_ci(y, a, n_resamples=30, random_state=11)
    np.testing.assert_array_equal(single.replicates, res.replicates[:, 0])
    diff = res.replicates[:, 0] - res.replicates[:, 1]
    assert res.se == pytest.approx(diff.std(ddof=1), rel=1e-12)
    assert res.statistic == pytest.approx(res.difference / res.se, rel=1e-12)
    assert res.pvalue == pytest.approx(2 * ss.norm.sf(abs(res.statistic)), abs=1e-12)
    lo, hi = np.quantile(diff, [0.025, 0.975])
    assert (res.low, res.high) == pytest.approx((lo, hi), abs=1e-15)


# ------------------------------------------------------------------ Poisson bootstrap

def _poisson_reference(metric, y, s, w, max_fpr, seed, r):
    """Replicate r of the Poisson scheme: the metric with every row's weight
    times its count from the definition (fastauc.naive)."""
    c = naive.poisson_bootstrap_counts(seed, r, len(y)).astype(float)
    wr = c if w is None else w * c
    if wr[y == 1].sum() == 0 or wr[y == 0].sum() == 0:
        return math.nan
    return _reference_metric(metric, y, s, wr, max_fpr)


@pytest.mark.parametrize("metric,max_fpr", [("roc_auc", None), ("roc_auc", 0.3),
                                            ("average_precision", None), ("log_loss", None)])
@pytest.mark.parametrize("weighted", [False, True])
def test_poisson_bootstrap_replicates_equal_sklearn_with_count_weights(metric, max_fpr,
                                                                       weighted, rng):
    n = 90
    y = (rng.random(n) < 0.3).astype(int)
    s = np.round(rng.random(n), 1)  # probabilities with ties
    w = rng.choice([0.0, 0.5, 1.0, 3.0], n) if weighted else None
    res = fastauc.bootstrap_ci(y, s, metric=metric, max_fpr=max_fpr, n_resamples=25,
                               sample_weight=w, random_state=77, scheme="poisson")
    seed = fastauc._validation.seed_from_random_state(77)
    for r in range(25):
        ref = _poisson_reference(metric, y, s, w, max_fpr, seed, r)
        if math.isnan(ref):
            assert np.isnan(res.replicates[r])
        else:
            assert res.replicates[r] == pytest.approx(ref, abs=1e-12), r
    assert res.n_dropped == int(np.isnan(res.replicates).sum())
    assert res.estimate == pytest.approx(_reference_metric(metric, y, s, w, max_fpr), abs=1e-12)


@given(binary_problems(max_size=30), st.integers(0, 2**64 - 1))
def test_poisson_bootstrap_matches_definition_on_any_problem(problem, seed):
    y, s, w = problem
    if len(np.unique(y)) < 2:
        return
    rs = np.random.SeedSequence(seed)
    key = fastauc._validation.seed_from_random_state(np.random.SeedSequence(seed))
    refs = np.array([_poisson_reference("roc_auc", y, s, w, None, key, r) for r in range(4)])
    if w is not None and not (w[y == y.max()].sum() > 0 and w[y != y.max()].sum() > 0):
        # a class of zero weight: the AUC is undefined (roc_auc_score's rule)
        with pytest.warns(fastauc.UndefinedMetricWarning, match="zero weight"):
            res = fastauc.bootstrap_ci(y, s, sample_weight=w, n_resamples=4, scheme="poisson",
                                       random_state=rs)
        assert np.isnan([res.estimate, res.low, res.high, res.se]).all()
        return
    if np.isnan(refs).all():  # no replicate has weight in both classes
        with pytest.raises(ValueError, match="single class"):
            fastauc.bootstrap_ci(y, s, sample_weight=w, n_resamples=4, scheme="poisson",
                                 random_state=rs)
        return
    res = fastauc.bootstrap_ci(y, s, sample_weight=w, n_resamples=4, scheme="poisson",
                               random_state=rs)
    np.testing.assert_array_equal(np.isnan(res.replicates), np.isnan(refs))
    ok = ~np.isnan(refs)
    np.testing.assert_allclose(res.replicates[ok], refs[ok], rtol=0, atol=1e-12)


def test_poisson_test_pairs_the_counts_and_matches_single(rng):
    n = 150
    y = rng.integers(0, 2, n)
    a = np.round(rng.normal(size=n) + y, 1)
    b = np.round(rng.normal(size=n) + 0.5 * y, 1)
    res = fastauc.bootstrap_test(y, a, b, n_resamples=30, random_state=5, scheme="poisson")
    seed = fastauc._validation.seed_from_random_state(5)
    for r in range(30):
        for j, col in enumerate((a, b)):
            ref = _poisson_reference("roc_auc", y, col, None, None, seed, r)
            assert res.replicates[r, j] == pytest.approx(ref, abs=1e-12)
    single = fastauc.bootstrap_ci(y, a, n_resamples=30, random_state=5, scheme="poisson")
    np.testing.assert_array_equal(single.replicates, res.replicates[:, 0])
    diff = res.replicates[:, 0] - res.replicates[:, 1]
    assert res.se == pytest.approx(diff.std(ddof=1), rel=1e-12)


def test_poisson_counts_kernel_equals_definition_and_poisson_one():
    """The table lookup (and its rare exact fallback) gives the definition's
    counts, at small and at huge row indices; the counts follow Poisson(1)."""
    seed = np.uint64(2**64 - 12345)
    for r, start in ((0, 0), (3, 2**40)):
        key = np.uint64(R.replicate_state(seed, r))
        rid = np.arange(start, start + 20_000, dtype=np.int64)
        out = np.empty(rid.shape[0], np.uint8)
        R.poisson_counts(key, rid, out)
        np.testing.assert_array_equal(out, naive.poisson_bootstrap_counts(seed, r, 20_000,
                                                                          start))
    # every bucket the table cannot answer alone is reached by some row here
    n = 2_000_000
    out = np.empty(n, np.uint8)
    R.poisson_counts(np.uint64(R.replicate_state(seed, 9)), np.arange(n), out)
    counts = np.bincount(out)
    k = np.arange(7)
    expected = n * np.append(ss.poisson.pmf(k[:-1], 1.0), ss.poisson.sf(k[-2], 1.0))
    observed = np.append(counts[:6], counts[6:].sum())
    assert ss.chisquare(observed, expected).pvalue > 1e-4
    assert out.mean() == pytest.approx(1.0, abs=5e-3)
    assert out.var() == pytest.approx(1.0, abs=5e-3)


def test_poisson_bootstrap_does_not_depend_on_threads_or_batching(monkeypatch, rng):
    n = 3000
    y = rng.integers(0, 2, n)
    s = rng.normal(size=n) + y
    base = fastauc.bootstrap_ci(y, s, n_resamples=40, random_state=3,
                                scheme="poisson").replicates
    monkeypatch.setenv("FASTAUC_NUM_THREADS", "1")
    again = fastauc.bootstrap_ci(y, s, n_resamples=57, random_state=3, scheme="poisson")
    np.testing.assert_array_equal(base, again.replicates[:40])
    multi = fastauc.bootstrap_ci(y, s, n_resamples=40, random_state=3).replicates
    assert not np.array_equal(base, multi)


def test_poisson_bootstrap_interval_covers_and_bca(rng):
    n = 2000
    y = rng.integers(0, 2, n)
    s = rng.normal(size=n) + y
    pois = fastauc.bootstrap_ci(y, s, n_resamples=400, random_state=1, scheme="poisson",
                                method="bca")
    multi = fastauc.bootstrap_ci(y, s, n_resamples=400, random_state=1, stratified=False)
    delong = fastauc.roc_auc_ci(y, s)
    assert pois.low < pois.estimate < pois.high
    # the two schemes estimate the same standard error (DeLong's, asymptotically)
    assert pois.se == pytest.approx(delong.se, rel=0.15)
    assert pois.se == pytest.approx(multi.se, rel=0.15)


def test_poisson_scheme_cannot_be_stratified():
    y, s = np.array([0, 1, 0, 1]), np.array([0.1, 0.4, 0.35, 0.8])
    with pytest.raises(ValueError, match="cannot be stratified"):
        fastauc.bootstrap_ci(y, s, scheme="poisson", stratified=True)
    with pytest.raises(ValueError, match="scheme must be one of"):
        fastauc.bootstrap_test(y, s, s, scheme="bayesian")
    # a seed whose one replicate gives both positives a count of zero: no replicate
    # has both classes, so there is no interval (the estimate is defined)
    seed = next(k for k in range(1000) if not naive.poisson_bootstrap_counts(
        fastauc._validation.seed_from_random_state(k), 0, 4)[1::2].any())
    with pytest.raises(ValueError, match="single class"):
        fastauc.bootstrap_ci(y, s, scheme="poisson", n_resamples=1, random_state=seed)


@pytest.mark.parametrize("threads", ["1", "2", "3"])
def test_bootstrap_same_seed_same_result_any_threads_and_batching(threads, monkeypatch, rng):
    n = 3000
    y = rng.integers(0, 2, n)
    s = rng.normal(size=n) + y
    base = fastauc.bootstrap_ci(y, s, n_resamples=70, random_state=3).replicates
    monkeypatch.setenv("FASTAUC_NUM_THREADS", threads)
    monkeypatch.setenv("NUMBA_NUM_THREADS", threads)
    again = fastauc.bootstrap_ci(y, s, n_resamples=70, random_state=3).replicates
    np.testing.assert_array_equal(base, again)
    longer = fastauc.bootstrap_ci(y, s, n_resamples=101, random_state=3).replicates
    np.testing.assert_array_equal(base, longer[:70])  # batching does not matter
    other = fastauc.bootstrap_ci(y, s, n_resamples=70, random_state=4).replicates
    assert not np.array_equal(base, other)


def test_bootstrap_wide_counts_path_agrees(rng):
    """The int64 fallback (used if a uint8 count wraps) gives the same values."""
    n = 500
    y = rng.integers(0, 2, n)
    s = np.round(rng.normal(size=n), 1)
    prep = _prepare(y, [s], ["y_score"], None, "roc_auc", True)
    from fastauc._resample import _kernel_arrays
    for code in (R.ROC_AUC, R.AVERAGE_PRECISION, R.PARTIAL_AUC):
        src, w, loss, ranks, codes = _kernel_arrays(prep, code)
        n_pos = prep.models[0].lay.n_pos
        outs = []
        for cnt in (np.zeros(n, np.uint8), np.zeros(n, np.int64)):
            out = np.empty(1)
            assert R._replicate(np.uint64(9), 4, cnt, prep.strata, src, n_pos, w, loss, ranks,
                                codes, code, 0.5, np.empty(n + 2),
                                R.draw_buffer(n, cnt.itemsize, direct_bytes=0), out)
            assert not cnt.any()  # counts are reset for the next replicate
            outs.append(out[0])
        assert outs[0] == outs[1]


@pytest.mark.parametrize("metric", ["roc_auc", "log_loss"])
@pytest.mark.parametrize("weighted", [False, True])
def test_jackknife_from_placements_equals_leave_one_out(metric, weighted, rng):
    n = 40
    y = rng.integers(0, 2, n)
    s = np.round(rng.random(n), 1)
    w = rng.choice([0.5, 1.0, 2.0], n) if weighted else None
    prep = _prepare(y, [s], ["y_score"], w, metric, True)
    jk = _jackknife(prep.models[0], metric)
    rows = prep.models[0].lay.rows
    for pos, row in enumerate(rows):
        keep = np.arange(n) != row
        ref = _reference_metric(metric, y[keep], s[keep], None if w is None else w[keep], None)
        assert jk[pos] == pytest.approx(ref, abs=1e-12)


@pytest.mark.parametrize("method", ["percentile", "basic", "bca"])
def test_bootstrap_interval_formulas(method, rng):
    n = 400
    y = rng.integers(0, 2, n)
    s = rng.normal(size=n) + y
    res = fastauc.bootstrap_ci(y, s, n_resamples=500, method=method, random_state=8,
                               confidence_level=0.9)
    reps = res.replicates
    q = np.quantile(reps, [0.05, 0.95])
    if method == "percentile":
        assert (res.low, res.high) == pytest.approx(tuple(q), abs=1e-15)
    elif method == "basic":
        assert (res.low, res.high) == pytest.approx((2 * res.estimate - q[1],
                                                     2 * res.estimate - q[0]), abs=1e-15)
    else:  # BCa from its definition, with a brute-force jackknife
        prop = ((reps < res.estimate).sum() + (reps <= res.estimate).sum()) / (2 * len(reps))
        z0 = ss.norm.ppf(prop)
        jk_groups = []
        for cls in (1, 0):
            vals = []
            for i in np.flatnonzero(y == cls):
                keep = np.arange(n) != i
                vals.append(skm.roc_auc_score(y[keep], s[keep]))
            jk_groups.append(np.array(vals))
        num = den = 0.0
        for jk in jk_groups:
            u = (len(jk) - 1) * (jk.mean() - jk)
            num += (u**3).sum() / len(jk) ** 3
            den += (u**2).sum() / len(jk) ** 2
        a = num / (6 * den**1.5)
        za = ss.norm.ppf([0.05, 0.95])
        adj = ss.norm.cdf(z0 + (z0 + za) / (1 - a * (z0 + za)))
        assert (res.low, res.high) == pytest.approx(tuple(np.quantile(reps, adj)), abs=1e-12)
    assert res.se == pytest.approx(reps.std(ddof=1), rel=1e-12)


def test_roc_auc_ci_bootstrap_passes_options(rng):
    y = rng.integers(0, 2, 200)
    s = rng.normal(size=200) + y
    a = fastauc.roc_auc_ci(y, s, method="bootstrap", n_resamples=50, random_state=1)
    b = fastauc.bootstrap_ci(y, s, n_resamples=50, random_state=1)
    assert (a.low, a.high, a.estimate) == (b.low, b.high, b.estimate)


def test_progress_bar_updates_between_batches(monkeypatch, rng):
    import sys
    import types

    updates = []

    class FakeBar:
        def __init__(self, total, **kw):
            self.total = total

        def update(self, k):
            updates.append(k)

        def close(self):
            updates.append("closed")

    auto = types.ModuleType("tqdm.auto")
    auto.tqdm = FakeBar
    monkeypatch.setitem(sys.modules, "tqdm", types.ModuleType("tqdm"))
    monkeypatch.setitem(sys.modules, "tqdm.auto", auto)
    y = rng.integers(0, 2, 100)
    s = rng.normal(size=100)
    fastauc.bootstrap_ci(y, s, n_resamples=100, random_state=0, progress=True)
    assert updates[-1] == "closed"
    assert sum(updates[:-1]) == 100 and len(updates) > 2


# ------------------------------------------------------------------ coverage

def _binormal(rng, n_pos, n_neg, mu):
    y = np.r_[np.ones(n_pos, int), np.zeros(n_neg, int)]
    s = np.r_[rng.normal(mu, 1, n_pos), rng.normal(0, 1, n_neg)]
    return y, s


def test_coverage_delong_and_bootstrap():
    """Binormal scores with known AUC = Phi(mu / sqrt 2): the 95% intervals
    cover it in roughly 95% of simulated data sets."""
    rng = np.random.default_rng(2026)
    mu = 1.0
    truth = ss.norm.cdf(mu / math.sqrt(2))
    hits = {"delong": 0, "logit": 0, "percentile": 0, "bca": 0}
    n_sets, n_boot_sets = 400, 150
    for i in range(n_sets):
        y, s = _binormal(rng, 60, 80, mu)
        ci = fastauc.roc_auc_ci(y, s)
        hits["delong"] += ci.low <= truth <= ci.high
        lg = fastauc.roc_auc_ci(y, s, transform="logit")
        hits["logit"] += lg.low <= truth <= lg.high
        if i < n_boot_sets:
            for method in ("percentile", "bca"):
                b = fastauc.bootstrap_ci(y, s, n_resamples=300, method=method, random_state=i)
                hits[method] += b.low <= truth <= b.high
    for key in ("delong", "logit"):
        assert 0.92 <= hits[key] / n_sets <= 0.98, (key, hits)
    for key in ("percentile", "bca"):
        assert 0.89 <= hits[key] / n_boot_sets <= 0.99, (key, hits)


def test_u_and_delong_variance_exact_against_rational_arithmetic(rng):
    """Few distinct scores: the exact U and DeLong variance in fractions.

    (The same check at n = 1e8 gave U exactly and the variance to 2e-16.)"""
    from fractions import Fraction

    n, n_levels = 300_000, 400
    y = (rng.random(n) < 0.3).astype(np.int8)
    levels = rng.integers(0, 300, n) + y * rng.integers(0, 100, n)
    s = levels * 0.001
    cp = np.bincount(levels[y == 1], minlength=n_levels).tolist()
    cn = np.bincount(levels[y == 0], minlength=n_levels).tolist()
    m, k = sum(cp), sum(cn)
    below, twice_u = 0, 0
    v10, v01 = [], [None] * n_levels
    for lv in range(n_levels):
        twice_u += cp[lv] * (2 * below + cn[lv])
        v10.append(Fraction(2 * below + cn[lv], 2 * k))
        below += cn[lv]
    above = 0
    for lv in reversed(range(n_levels)):
        v01[lv] = Fraction(2 * above + cp[lv], 2 * m)
        above += cp[lv]
    auc = Fraction(twice_u, 2 * m * k)
    s10 = sum(c * (v - auc) ** 2 for c, v in zip(cp, v10)) / (m - 1)
    s01 = sum(c * (v - auc) ** 2 for c, v in zip(cn, v01)) / (k - 1)
    var = float(s10 / m + s01 / k)
    assert fastauc.mann_whitney_u(y, s).statistic == twice_u / 2
    _, cov1 = fastauc.delong_covariance(y, s)
    _, cov2 = fastauc.delong_covariance(y, np.column_stack((s, s)))
    assert cov1[0, 0] == pytest.approx(var, rel=1e-13)
    assert cov2[0, 1] == pytest.approx(var, rel=1e-13)


@pytest.mark.parametrize("ties", [True, False])
def test_layout_ranks_match_their_definition(ties, rng):
    """The bootstrap's per-position ranks (one branch-free walk) against the
    numpy definition: a positive of group g has (bp[g], bn[g]), a negative
    (bp[g - 1], bp[g])."""
    from fastauc._resample import _group_sizes, _layout, _ranks

    for n in (1, 2, 7, 300, 70_000):
        y = rng.integers(0, 2, n).astype(bool)
        s = np.round(rng.normal(size=n), 1) if ties else rng.normal(size=n)
        lay = _layout(y, s)
        bpz = np.concatenate(([0], lay.bp.astype(np.int64)))
        bnz = np.concatenate(([0], lay.bn.astype(np.int64)))
        tpc, fpc = _group_sizes(lay)
        gp = np.repeat(np.arange(len(tpc)), tpc)
        gn = np.repeat(np.arange(len(fpc)), fpc)
        expected = np.stack((np.concatenate((bpz[gp + 1], bpz[gn])),
                             np.concatenate((bnz[gp + 1], bpz[gn + 1]))))
        np.testing.assert_array_equal(_ranks(lay), expected)


@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("decimals", [1, 2, None])
def test_layout_walked_in_two_key_ranges_equals_one_walk(weighted, decimals):
    """From CHUNK_MIN rows on a model's layout is walked in two key ranges on
    two threads (ties at the cut, a gap closed) and its ranks written in two
    ranges of groups: the same layout, placements and ranks as one walk."""
    from fastauc._kernels.placements import walk_rows
    from fastauc._resample import _ranks, _walk
    from fastauc._sort import CHUNK_MIN, sort_by_class

    rng = np.random.default_rng(11)
    n = 2 * CHUNK_MIN + 123
    is_pos = rng.random(n) < 0.3
    s = rng.standard_normal(n) + is_pos
    if decimals is not None:
        s = np.round(s, decimals)
    w = rng.random(n) if weighted else np.empty(0)
    r = sort_by_class(is_pos, s, row_index=True)
    total_p = float(w[is_pos].sum()) if weighted else float(is_pos.sum())
    total_n = float(w[~is_pos].sum()) if weighted else float((~is_pos).sum())
    out = np.empty(n)
    lay, auc = _walk(r, w, total_p, total_n, out)
    keys, bp, bn, ref = np.empty(n, np.uint64), np.empty(n), np.empty(n), np.empty(n)
    g, ref_area, tp, fp = walk_rows(r.pk, r.px, r.nk, r.nx, w, total_p, total_n, ref, keys,
                                    bp, bn, np.zeros(4))
    np.testing.assert_array_equal(lay.keys, keys[:g])
    np.testing.assert_array_equal(lay.bp, bp[:g])
    np.testing.assert_array_equal(lay.bn, bn[:g])
    if weighted:  # the lower range starts from the upper one's weight, summed apart
        np.testing.assert_allclose(out, ref, rtol=0, atol=1e-12)
    else:  # counts: exact
        np.testing.assert_array_equal(out, ref)
    assert auc == pytest.approx(ref_area / (2.0 * tp * fp), rel=1e-12)
    assert lay.auc == auc  # the walk in two ranges adds up roc_auc_score's sums, to the bit
    assert auc == fastauc.roc_auc_score(is_pos, s, sample_weight=w if weighted else None)
    assert auc == pytest.approx(
        skm.roc_auc_score(is_pos, s, sample_weight=w if weighted else None), abs=1e-12)
    one = np.empty(2 * n + 1, np.int32)
    R.layout_ranks(lay.bp, lay.bn, lay.n_pos, one, 0, lay.bp.shape[0])
    np.testing.assert_array_equal(_ranks(lay), one[:2 * n].reshape(2, n))


@pytest.mark.parametrize("n, dtype", [(3_000_017, np.uint8), (400_003, np.int64)])
def test_draws_counted_block_by_block_equal_draws_counted_as_made(n, dtype):
    """Counts too large for the cache are incremented block by block after the
    draws are partitioned: the same draws, so the same counts (several blocks,
    odd strata, both count types)."""
    strata = np.array([0, 123_457, n], np.int64)
    for r in (0, 5):
        direct = np.zeros(n, dtype)
        blocked = np.zeros(n, dtype)
        assert R._count_draws(np.uint64(9), r, strata, direct, np.empty(0, np.int64))
        buf = R.draw_buffer(n, direct.itemsize, direct_bytes=0)
        assert buf.shape[0] > 2 * R.CHUNK_DRAWS + 2  # more than one block
        assert R._count_draws(np.uint64(9), r, strata, blocked, buf)
        np.testing.assert_array_equal(blocked, direct)
        assert int(direct[:123_457].sum()) == 123_457 and int(direct.sum()) == n


def test_delong_test_variance_zero_up_to_rounding_gives_zero_se():
    """Two models that place every row alike have a difference of variance
    zero, and here of zero: computed as c_aa + c_bb - 2 c_ab and as a
    difference of two sums, both are zero only up to rounding, which a square
    root would turn into an se of 5e-9 (a case hypothesis found)."""
    y = np.array([0, 0, 0] + [1] * 28)
    a = np.array([-1.0, -1e300, -1e300] + [-2.5] * 28)
    b = np.round(a + np.random.default_rng(3).normal(size=a.shape[0]), 1)
    res = fastauc.delong_test(y, a, b)
    assert fastauc.roc_auc_score(y, a) == pytest.approx(2 / 3, abs=1e-15)
    assert fastauc.roc_auc_score(y, b) == pytest.approx(2 / 3, abs=1e-15)
    assert (res.difference, res.se, res.statistic, res.pvalue) == (0.0, 0.0, 0.0, 1.0)


# ------------------------------------------------ operating points and the Brier score

OPERATING = (("sensitivity_at_specificity", 0.8), ("specificity_at_sensitivity", 0.7),
             ("precision_at_recall", 0.6), ("recall_at_precision", 0.7))


@pytest.mark.parametrize("metric, at", OPERATING)
@pytest.mark.parametrize("scheme, stratified", [("multinomial", True), ("multinomial", False),
                                                ("poisson", None)])
def test_operating_point_replicates_equal_the_function(metric, at, scheme, stratified):
    """Each replicate equals the in-memory function on the replicate's rows
    (multinomial: rebuilt from the draws; Poisson: the rows with their counts
    as weights), weighted too."""
    from fastauc._resample import _prepare
    from fastauc._validation import seed_from_random_state

    rng = np.random.default_rng(3)
    y = rng.integers(0, 2, 150)
    s = np.round(y + rng.normal(size=150), 1)
    w = rng.choice([0.5, 1.0, 2.0], 150)
    res = fastauc.bootstrap_ci(y, s, metric=metric, at=at, n_resamples=12, random_state=5,
                               sample_weight=w, scheme=scheme, stratified=stratified)
    fn = getattr(fastauc, metric)
    assert res.estimate == fn(y, s, at, sample_weight=w).value
    seed = np.uint64(seed_from_random_state(5))
    if scheme == "poisson":
        for r in range(12):
            c = fastauc.naive.poisson_bootstrap_counts(seed, r, 150).astype(float)
            ww = c * w
            if ww[y == 1].sum() == 0 or ww[y == 0].sum() == 0:
                assert np.isnan(res.replicates[r])
                continue
            assert res.replicates[r] == pytest.approx(fn(y, s, at, sample_weight=ww).value,
                                                      abs=1e-12)
        return
    prep = _prepare(y, [s], ["y_score"], w, "roc_auc", stratified)
    for r in range(12):
        rows = prep.models[0].lay.rows[drawn_positions(seed, r, prep.strata)]
        if len(set(y[rows])) < 2:
            assert np.isnan(res.replicates[r])
            continue
        assert res.replicates[r] == pytest.approx(
            fn(y[rows], s[rows], at, sample_weight=w[rows]).value, abs=1e-12)


def test_operating_point_paired_test_and_brier():
    rng = np.random.default_rng(4)
    y = rng.integers(0, 2, 400)
    a = y + rng.normal(size=400)
    b = y + 2 * rng.normal(size=400)
    t = fastauc.bootstrap_test(y, a, b, metric="sensitivity_at_specificity", at=0.9,
                               n_resamples=100, random_state=0)
    assert t.estimate_a == fastauc.sensitivity_at_specificity(y, a, 0.9).value
    assert t.estimate_b == fastauc.sensitivity_at_specificity(y, b, 0.9).value
    assert t.difference > 0 and t.replicates.shape == (100, 2)
    p = 1 / (1 + np.exp(-a))
    r = fastauc.bootstrap_ci(y, p, metric="brier", method="bca", n_resamples=100,
                             random_state=0)
    assert r.estimate == pytest.approx(fastauc.brier_score_loss(y, p), abs=1e-15)
    assert r.low < r.estimate < r.high
    # the calibration error: every replicate (Poisson: the rows with their
    # counts as weights) is calibration_error's
    from fastauc._validation import seed_from_random_state

    r = fastauc.bootstrap_ci(y, p, metric="ece", n_resamples=20, random_state=3,
                             scheme="poisson")
    assert r.estimate == pytest.approx(fastauc.calibration_error(y, p), abs=1e-15)
    seed = np.uint64(seed_from_random_state(3))
    for k in range(20):
        c = fastauc.naive.poisson_bootstrap_counts(seed, k, 400).astype(float)
        assert r.replicates[k] == pytest.approx(fastauc.calibration_error(y, p,
                                                                          sample_weight=c),
                                                abs=1e-12)
    t = fastauc.bootstrap_test(y, p, p ** 2, metric="ece", n_resamples=50, random_state=0)
    assert t.estimate_b == pytest.approx(fastauc.calibration_error(y, p ** 2), abs=1e-15)


@pytest.mark.parametrize("kwargs, words", [
    ({"metric": "sensitivity_at_specificity"}, "needs at="),
    ({"metric": "sensitivity_at_specificity", "at": 1.5}, "needs at="),
    ({"metric": "roc_auc", "at": 0.5}, "at= is the floor of an operating-point metric"),
    ({"metric": "precision_at_recall", "at": 0.5, "method": "bca"}, "not available"),
    ({"metric": "recall_at_precision", "at": 0.5, "max_fpr": 0.5}, "max_fpr"),
    ({"metric": "brier", "y_score": [0.1, 1.2, 0.3, 0.4]}, "probabilities in [0, 1]"),
    ({"metric": "ece", "method": "bca"}, "method='bca' is available for"),
])
def test_operating_point_bad_input(kwargs, words):
    kw = {"y_score": [0.1, 0.2, 0.3, 0.4], **kwargs}
    with pytest.raises(ValueError) as e:
        fastauc.bootstrap_ci([0, 1, 0, 1], n_resamples=5, **kw)
    assert words in str(e.value)
