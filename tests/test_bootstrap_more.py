"""The bootstrap's comparisons and options: the unpaired test (two data sets),
margin=, the partial AUC over any range (pROC's ci.auc(partial.auc=...)) and
the clustered bootstrap, each against the metric of the replicate's rows
rebuilt from fastauc's own draws (scikit-learn, fastauc's in-memory functions)."""

import math

import numpy as np
import pytest
import scipy.stats as ss
import sklearn.metrics as skm
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import fastauc
from fastauc import naive
from fastauc._kernels.resampling import _count_draws, draw_buffer
from fastauc._resample import _prepare, second_seed
from fastauc._validation import seed_from_random_state

from .conftest import sklearn_call
from .registry import _calibration_error
from .resamples import drawn_positions
from .strategies import binary_problems

SEED = 2024
OPERATING = {"sensitivity_at_specificity": 0.8, "specificity_at_sensitivity": 0.7,
             "precision_at_recall": 0.6, "recall_at_precision": 0.55}
METRICS = [("roc_auc", {}), ("roc_auc", {"max_fpr": 0.3}), ("average_precision", {}),
           ("log_loss", {}), ("brier", {}), ("ece", {}),
           ("partial_auc", {"fpr_range": (0.1, 0.4)}),
           ("partial_auc", {"tpr_range": (0.7, 1.0), "correct": True}),
           *[(m, {"at": at}) for m, at in OPERATING.items()]]


def metric_of(metric, y, s, w, kw):
    """The in-memory metric of some rows (NaN when a class has no weight)."""
    ww = np.ones(len(y)) if w is None else w
    if metric != "log_loss" and (ww[y == 1].sum() == 0 or ww[y == 0].sum() == 0):
        return math.nan
    if metric == "roc_auc":
        return sklearn_call(skm.roc_auc_score, y, s, sample_weight=w,
                            max_fpr=kw.get("max_fpr"))
    if metric == "average_precision":
        return sklearn_call(skm.average_precision_score, y, s, sample_weight=w)
    if metric == "log_loss":
        return sklearn_call(skm.log_loss, y, s, sample_weight=w, labels=[0, 1])
    if metric == "brier":
        return sklearn_call(skm.brier_score_loss, y, s, sample_weight=w)
    if metric == "ece":
        return _calibration_error(y, s, w, 15, "l1")
    if metric == "partial_auc":
        return fastauc.partial_auc(y, s, sample_weight=w, **kw)
    return naive.operating_point(y, s, metric, kw["at"], w)[0]


def layout_rows(y, s, w, stratified, seed, r):
    """Multinomial replicate ``r``'s rows (the positions it draws, as rows)."""
    prep = _prepare(y, [s], ["y_score"], w, "roc_auc", stratified)
    return prep.models[0].lay.rows[drawn_positions(seed, r, prep.strata)]


def problem(rng, n, weighted=False, p=0.4):
    y = (rng.random(n) < p).astype(int)
    s = np.clip(np.round(0.5 * y + 0.6 * rng.random(n) - 0.05, 2), 0, 1)  # ties, in [0, 1]
    w = rng.choice([0.0, 0.5, 1.0, 3.0], n) if weighted else None
    return y, s, w


# ------------------------------------------------------------------ partial AUC over a range

@pytest.mark.parametrize("kw", [{"fpr_range": (0.0, 0.3)}, {"fpr_range": (0.2, 0.6)},
                                {"fpr_range": (0.3, 0.1), "correct": True},
                                {"tpr_range": (0.8, 1.0)}, {"tpr_range": (0.5, 0.9),
                                                            "correct": True}, {}])
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("stratified", [True, False])
def test_partial_auc_replicates_are_partial_auc_of_the_rows(kw, weighted, stratified, rng):
    y, s, w = problem(rng, 90, weighted)
    res = fastauc.bootstrap_ci(y, s, metric="partial_auc", n_resamples=30, random_state=SEED,
                               sample_weight=w, stratified=stratified, **kw)
    assert res.estimate == fastauc.partial_auc(y, s, sample_weight=w, **kw)  # the same float
    seed = seed_from_random_state(SEED)
    checked = 0
    for r in range(30):
        rows = layout_rows(y, s, w, stratified, seed, r)
        ref = metric_of("partial_auc", y[rows], s[rows], None if w is None else w[rows], kw)
        if math.isnan(ref):
            assert math.isnan(res.replicates[r])
            continue
        assert res.replicates[r] == pytest.approx(ref, abs=1e-12), r
        checked += 1
    assert checked >= 20


@pytest.mark.parametrize("kw", [{"fpr_range": (0.1, 0.5), "correct": True},
                                {"tpr_range": (0.6, 1.0)}])
def test_partial_auc_poisson_and_paired(kw, rng):
    y, s, w = problem(rng, 70, True)
    s2 = np.clip(s + np.round(rng.normal(0, 0.2, 70), 2), 0, 1)
    seed = seed_from_random_state(SEED)
    pois = fastauc.bootstrap_ci(y, s, metric="partial_auc", n_resamples=20, random_state=SEED,
                                sample_weight=w, scheme="poisson", **kw)
    for r in range(20):
        c = naive.poisson_bootstrap_counts(seed, r, 70) * w
        ref = metric_of("partial_auc", y, s, c, kw)
        assert pois.replicates[r] == pytest.approx(ref, abs=1e-12, nan_ok=True)
    test = fastauc.bootstrap_test(y, s, s2, metric="partial_auc", n_resamples=20,
                                  random_state=SEED, sample_weight=w, **kw)
    assert test.difference == fastauc.partial_auc(y, s, sample_weight=w, **kw) - \
        fastauc.partial_auc(y, s2, sample_weight=w, **kw)
    prep = _prepare(y, [s, s2], ["a", "b"], w, "roc_auc", True)
    for r in range(20):
        rows = prep.models[0].lay.rows[drawn_positions(seed, r, prep.strata)]
        for j, sc in enumerate((s, s2)):
            ref = metric_of("partial_auc", y[rows], sc[rows], w[rows], kw)
            assert test.replicates[r, j] == pytest.approx(ref, abs=1e-12)


def test_partial_auc_full_range_is_the_auc(rng):
    y, s, _ = problem(rng, 200)
    full = fastauc.bootstrap_ci(y, s, metric="partial_auc", n_resamples=25, random_state=1)
    auc = fastauc.bootstrap_ci(y, s, n_resamples=25, random_state=1)
    np.testing.assert_allclose(full.replicates, auc.replicates, atol=1e-12)
    mcclish = fastauc.bootstrap_ci(y, s, metric="partial_auc", fpr_range=(0, 0.25),
                                   correct=True, n_resamples=25, random_state=1)
    max_fpr = fastauc.bootstrap_ci(y, s, max_fpr=0.25, n_resamples=25, random_state=1)
    np.testing.assert_allclose(mcclish.replicates, max_fpr.replicates, atol=1e-12)
    assert mcclish.estimate == pytest.approx(max_fpr.estimate, abs=1e-12)


# ------------------------------------------------------------------ unpaired test

@pytest.mark.parametrize("metric,kw", METRICS)
def test_unpaired_replicates_resample_each_data_set(metric, kw, rng):
    ya, sa, _ = problem(rng, 60)
    yb, sb, wb = problem(rng, 45, True, p=0.5)
    res = fastauc.bootstrap_test(ya, sa, sb, y_true_b=yb, sample_weight_b=wb, metric=metric,
                                 n_resamples=25, random_state=SEED, **kw)
    # set a: bootstrap_ci's replicates with the same random_state
    alone = fastauc.bootstrap_ci(ya, sa, metric=metric, n_resamples=25, random_state=SEED,
                                 **kw)
    np.testing.assert_array_equal(res.replicates[:, 0], alone.replicates)
    seed_b = second_seed(seed_from_random_state(SEED))
    for r in range(25):
        rows = layout_rows(yb, sb, wb, True, seed_b, r)
        ref = metric_of(metric, yb[rows], sb[rows], wb[rows], kw)
        assert res.replicates[r, 1] == pytest.approx(ref, abs=1e-12, nan_ok=True), r
    est_b = metric_of(metric, yb, sb, wb, kw)
    assert res.estimate_a == alone.estimate
    assert res.estimate_b == pytest.approx(est_b, abs=1e-12)
    diff = res.replicates[:, 0] - res.replicates[:, 1]
    good = diff[np.isfinite(diff)]
    assert res.se == pytest.approx(good.std(ddof=1), rel=1e-12)
    assert res.n_dropped == diff.shape[0] - good.shape[0]
    low, high = np.quantile(good, [0.025, 0.975])
    assert (res.low, res.high) == pytest.approx((low, high), abs=1e-12)
    if res.se > 0:  # (an operating point can be 1 in every replicate of both sets)
        z = res.difference / res.se
        assert res.statistic == pytest.approx(z, rel=1e-12)
        assert res.pvalue == pytest.approx(2 * ss.norm.sf(abs(z)), rel=1e-9)


@pytest.mark.parametrize("metric,kw", [("roc_auc", {}), ("log_loss", {}),
                                       ("partial_auc", {"fpr_range": (0, 0.5)})])
def test_unpaired_poisson_counts_each_set_from_its_own_seed(metric, kw, rng):
    ya, sa, wa = problem(rng, 50, True)
    yb, sb, _ = problem(rng, 80)
    res = fastauc.bootstrap_test(ya, sa, sb, y_true_b=yb, sample_weight=wa, metric=metric,
                                 n_resamples=15, random_state=SEED, scheme="poisson", **kw)
    seed = seed_from_random_state(SEED)
    for r in range(15):
        ca = naive.poisson_bootstrap_counts(seed, r, 50) * wa
        cb = naive.poisson_bootstrap_counts(second_seed(seed), r, 80).astype(float)
        assert res.replicates[r, 0] == pytest.approx(metric_of(metric, ya, sa, ca, kw),
                                                     abs=1e-12, nan_ok=True)
        assert res.replicates[r, 1] == pytest.approx(metric_of(metric, yb, sb, cb, kw),
                                                     abs=1e-12, nan_ok=True)


def test_unpaired_depends_on_the_seed_only(monkeypatch, rng):
    ya, sa, _ = problem(rng, 3000)
    yb, sb, _ = problem(rng, 2000)
    base = fastauc.bootstrap_test(ya, sa, sb, y_true_b=yb, n_resamples=40, random_state=3)
    monkeypatch.setenv("FASTAUC_NUM_THREADS", "1")
    again = fastauc.bootstrap_test(ya, sa, sb, y_true_b=yb, n_resamples=57, random_state=3)
    np.testing.assert_array_equal(base.replicates, again.replicates[:40])
    # the same data as both sets: two independent streams, not the paired test
    same = fastauc.bootstrap_test(ya, sa, sa, y_true_b=ya, n_resamples=40, random_state=3)
    assert same.difference == 0.0
    assert not np.array_equal(same.replicates[:, 0], same.replicates[:, 1])
    paired = fastauc.bootstrap_test(ya, sa, sa, n_resamples=40, random_state=3)
    assert paired.se == 0.0 and same.se > 0


def test_unpaired_se_matches_the_independent_sum_and_bca(rng):
    ya, sa, _ = problem(rng, 1500)
    yb, sb, _ = problem(rng, 1000)
    res = fastauc.bootstrap_test(ya, sa, sb, y_true_b=yb, n_resamples=400, random_state=1,
                                 method="bca")
    va = fastauc.roc_auc_ci(ya, sa).se
    vb = fastauc.roc_auc_ci(yb, sb).se
    assert res.se == pytest.approx(math.hypot(va, vb), rel=0.15)
    assert res.low < res.difference < res.high


def test_unpaired_undefined_set_gives_nan(rng):
    ya, sa, _ = problem(rng, 40)
    with pytest.warns(fastauc.UndefinedMetricWarning, match="Only one class"):
        res = fastauc.bootstrap_test(ya, sa, [0.1, 0.2], y_true_b=[1, 1], n_resamples=5)
    assert math.isnan(res.difference) and res.n_dropped == 5


# ------------------------------------------------------------------ margin

@pytest.mark.parametrize("alternative", ["two-sided", "less", "greater"])
def test_margin_shifts_the_statistic_not_the_interval(alternative, rng):
    y, a, _ = problem(rng, 300)
    b = np.clip(a + np.round(rng.normal(0, 0.3, 300), 2), 0, 1)
    base = fastauc.bootstrap_test(y, a, b, n_resamples=100, random_state=4,
                                  alternative=alternative)
    res = fastauc.bootstrap_test(y, a, b, n_resamples=100, random_state=4,
                                 alternative=alternative, margin=-0.05)
    assert (res.low, res.high, res.se, res.difference) == \
        (base.low, base.high, base.se, base.difference)
    z = (res.difference + 0.05) / res.se
    assert res.statistic == pytest.approx(z, rel=1e-12)
    p = {"two-sided": 2 * ss.norm.sf(abs(z)), "greater": ss.norm.sf(z),
         "less": ss.norm.cdf(z)}[alternative]
    assert res.pvalue == pytest.approx(min(1.0, p), rel=1e-9, abs=1e-300)


def test_non_inferiority_example(rng):
    y, a, _ = problem(rng, 2000)
    # b equal to a: non-inferior within 0.05 (one-sided p small), not superior by 0.05
    ni = fastauc.bootstrap_test(y, a, a, y_true_b=y, n_resamples=300, random_state=1,
                                margin=-0.05, alternative="greater")
    sup = fastauc.bootstrap_test(y, a, a, y_true_b=y, n_resamples=300, random_state=1,
                                 margin=0.05, alternative="greater")
    assert ni.pvalue < 0.01 < 0.99 < sup.pvalue


# ------------------------------------------------------------------ clustered bootstrap

def clustered(rng, n_clusters=25, size=4, weighted=False, start=10):
    ids = start + np.repeat(np.arange(n_clusters), rng.integers(1, size + 1, n_clusters))
    n = ids.shape[0]
    effect = rng.normal(0, 0.3, n_clusters)[ids - start]  # correlated within a cluster
    y = (rng.random(n) < 0.4).astype(int)
    s = np.clip(np.round(0.4 * y + effect * 0.3 + 0.4 * rng.random(n) + 0.2, 2), 0, 1)
    w = rng.choice([0.5, 1.0, 2.0], n) if weighted else None
    perm = rng.permutation(n)
    return y[perm], s[perm], None if w is None else w[perm], ids[perm]


def cluster_counts(seed, r, ids):
    """Multinomial replicate ``r``'s count of every row: its cluster's draws."""
    uniq, index = np.unique(ids, return_inverse=True)
    counts = np.zeros(uniq.shape[0], np.int64)
    _count_draws(np.uint64(seed), r, np.array([0, uniq.shape[0]], np.int64), counts,
                 draw_buffer(counts.shape[0], 8))
    return counts[index]


@pytest.mark.parametrize("metric,kw", METRICS)
def test_cluster_replicates_repeat_whole_clusters(metric, kw, rng):
    y, s, w, ids = clustered(rng, weighted=metric in ("roc_auc", "partial_auc"))
    res = fastauc.bootstrap_ci(y, s, metric=metric, cluster=ids, n_resamples=20,
                               random_state=SEED, **kw)
    assert res.estimate == pytest.approx(metric_of(metric, y, s, None, kw), abs=1e-12) \
        if w is None else True
    res = fastauc.bootstrap_ci(y, s, metric=metric, cluster=ids, n_resamples=20,
                               random_state=SEED, sample_weight=w, **kw)
    seed = seed_from_random_state(SEED)
    for r in range(20):
        rows = np.repeat(np.arange(y.shape[0]), cluster_counts(seed, r, ids))
        ref = metric_of(metric, y[rows], s[rows], None if w is None else w[rows], kw)
        assert res.replicates[r] == pytest.approx(ref, abs=1e-12, nan_ok=True), r


@pytest.mark.parametrize("metric,kw", [("roc_auc", {}), ("average_precision", {}),
                                       ("brier", {}),
                                       ("partial_auc", {"tpr_range": (0.5, 1.0)})])
def test_cluster_poisson_counts_are_keyed_by_cluster_id(metric, kw, rng):
    y, s, w, ids = clustered(rng, weighted=True)
    res = fastauc.bootstrap_ci(y, s, metric=metric, cluster=ids, n_resamples=15,
                               random_state=SEED, scheme="poisson", sample_weight=w, **kw)
    seed = seed_from_random_state(SEED)
    for r in range(15):
        # integer ids are their own keys: the counts of "rows" 10, 11, ... by definition
        per_id = naive.poisson_bootstrap_counts(seed, r, int(ids.max()) - 9, start=10)
        c = per_id[ids - 10] * w
        assert res.replicates[r] == pytest.approx(metric_of(metric, y, s, c, kw), abs=1e-12,
                                                  nan_ok=True)
    # any order or split of the rows: the same replicates
    perm = rng.permutation(y.shape[0])
    again = fastauc.bootstrap_ci(y[perm], s[perm], metric=metric, cluster=ids[perm],
                                 n_resamples=15, random_state=SEED, scheme="poisson",
                                 sample_weight=w[perm], **kw)
    np.testing.assert_allclose(again.replicates, res.replicates, atol=1e-12)


def test_cluster_of_singletons_is_the_poisson_bootstrap(rng):
    y, s, _ = problem(rng, 120)
    plain = fastauc.bootstrap_ci(y, s, n_resamples=20, random_state=3, scheme="poisson")
    single = fastauc.bootstrap_ci(y, s, n_resamples=20, random_state=3, scheme="poisson",
                                  cluster=np.arange(120))
    np.testing.assert_array_equal(plain.replicates, single.replicates)


def test_cluster_string_ids_and_order(rng):
    y, s, _, ids = clustered(rng)
    names = np.array([f"patient-{i}" for i in ids], dtype=object)
    a = fastauc.bootstrap_ci(y, s, cluster=names, n_resamples=20, random_state=5,
                             scheme="poisson")
    perm = rng.permutation(y.shape[0])
    b = fastauc.bootstrap_ci(y[perm], s[perm], cluster=list(names[perm]), n_resamples=20,
                             random_state=5, scheme="poisson")
    np.testing.assert_allclose(a.replicates, b.replicates, atol=1e-12)
    m = fastauc.bootstrap_ci(y, s, cluster=names, n_resamples=20, random_state=5)
    m2 = fastauc.bootstrap_ci(y[perm], s[perm], cluster=names[perm], n_resamples=20,
                              random_state=5)
    np.testing.assert_allclose(m.replicates, m2.replicates, atol=1e-12)


def test_cluster_paired_test_resamples_clusters_for_both(rng):
    y, s, w, ids = clustered(rng, weighted=True)
    s2 = np.clip(s + np.round(rng.normal(0, 0.2, s.shape[0]), 2), 0, 1)
    res = fastauc.bootstrap_test(y, s, s2, cluster=ids, n_resamples=20, random_state=SEED,
                                 sample_weight=w)
    seed = seed_from_random_state(SEED)
    for r in range(20):
        rows = np.repeat(np.arange(y.shape[0]), cluster_counts(seed, r, ids))
        for j, sc in enumerate((s, s2)):
            ref = metric_of("roc_auc", y[rows], sc[rows], w[rows], {})
            assert res.replicates[r, j] == pytest.approx(ref, abs=1e-12, nan_ok=True)


def test_cluster_widens_the_interval_of_correlated_rows(rng):
    n_clusters, size = 300, 8
    ids = np.repeat(np.arange(n_clusters), size)
    y = np.repeat(rng.integers(0, 2, n_clusters), size)  # a patient's rows share the label
    s = y + np.repeat(rng.normal(size=n_clusters), size) + 0.3 * rng.normal(size=ids.shape[0])
    rows = fastauc.bootstrap_ci(y, s, n_resamples=300, random_state=1, stratified=False)
    clus = fastauc.bootstrap_ci(y, s, n_resamples=300, random_state=1, cluster=ids)
    assert clus.se > 1.8 * rows.se  # about sqrt(8) for whole duplicated clusters


# ------------------------------------------------------------------ properties

RANGES = [{"fpr_range": (0.0, 0.3)}, {"fpr_range": (0.25, 0.75), "correct": True},
          {"tpr_range": (0.5, 1.0)}, {"tpr_range": (0.1, 0.6), "correct": True}]


@settings(max_examples=40, deadline=None)
@given(binary_problems(max_size=40), st.sampled_from(RANGES),
       st.sampled_from(["stratified", "poisson", "cluster", "cluster-poisson"]),
       st.integers(1, 6))
def test_partial_auc_replicates_on_any_problem(problem, kw, mode, n_clusters):
    y, s, w = problem
    ww = np.ones(len(y)) if w is None else w
    assume(ww[y == 1].sum() > 0 and ww[y == 0].sum() > 0)
    ids = np.arange(len(y)) % n_clusters
    opts = {"scheme": "poisson" if mode.endswith("poisson") else "multinomial",
            "cluster": ids if mode.startswith("cluster") else None}
    try:
        res = fastauc.bootstrap_ci(y, s, metric="partial_auc", n_resamples=8, random_state=7,
                                   sample_weight=w, **opts, **kw)
    except ValueError as exc:  # no replicate with both classes (Poisson, clusters)
        assert "single class" in str(exc) and mode != "stratified"
        return
    assert res.estimate == fastauc.partial_auc(y, s, sample_weight=w, **kw)
    seed = seed_from_random_state(7)
    for r in range(8):
        if mode == "stratified":
            rows = layout_rows(y, s, w, True, seed, r)
            counts = np.bincount(rows, minlength=len(y))
        elif mode == "cluster":
            counts = cluster_counts(seed, r, ids)
        else:  # a cluster id is its own key: row i's count under plain Poisson is id i's
            counts = naive.poisson_bootstrap_counts(seed, r, len(y))
            counts = counts[ids] if mode == "cluster-poisson" else counts
        rows = np.repeat(np.arange(len(y)), counts)
        ref = metric_of("partial_auc", y[rows], s[rows], None if w is None else w[rows], kw)
        assert res.replicates[r] == pytest.approx(ref, abs=1e-12, nan_ok=True), r


# ------------------------------------------------------------------ bad input

def test_bad_options():
    y, s = np.array([0, 1, 0, 1, 1, 0]), np.array([0.1, 0.4, 0.35, 0.8, 0.6, 0.2])
    cases = [
        (dict(cluster=[1, 2, 3]), ValueError, "one id per row"),
        (dict(cluster=[1.0, np.nan, 2, 2, 3, 3]), ValueError, "NaN"),
        (dict(cluster=np.array([1, "a", 2, 2, 3, 3], dtype=object)), TypeError, "one type"),
        (dict(cluster=[1, 1, 2, 2, 3, 3], stratified=True), ValueError, "stratified"),
        (dict(cluster=[1, 1, 2, 2, 3, 3], method="bca"), ValueError, "bca"),
        (dict(fpr_range=(0, 0.5)), ValueError, "partial_auc"),
        (dict(correct=True), ValueError, "partial_auc"),
        (dict(metric="partial_auc", fpr_range=(0, 0.5), tpr_range=(0, 0.5)), ValueError,
         "not both"),
        (dict(metric="partial_auc", fpr_range=(0.5, 0.5)), ValueError, "two different"),
        (dict(metric="partial_auc", tpr_range="ab"), ValueError, "pair of numbers"),
        (dict(metric="partial_auc", max_fpr=0.5), ValueError, "fpr_range"),
        (dict(metric="partial_auc", method="bca"), ValueError, "bca"),
        (dict(metric="partial_auc", correct="yes"), TypeError, "correct"),
    ]
    for kw, exc, words in cases:
        with pytest.raises(exc, match=words):
            fastauc.bootstrap_ci(y, s, n_resamples=5, **kw)
    for kw, exc, words in [
        (dict(sample_weight_b=np.ones(6)), ValueError, "y_true_b"),
        (dict(y_true_b=y, cluster=[1, 1, 2, 2, 3, 3]), ValueError, "paired"),
        (dict(margin=math.nan), ValueError, "margin"),
        (dict(margin="0.1"), ValueError, "margin"),
        (dict(y_true_b=y[:4]), ValueError, "y_score_b"),
    ]:
        with pytest.raises(exc, match=words):
            fastauc.bootstrap_test(y, s, s, n_resamples=5, **kw)


def test_inputs_not_modified(rng):
    y, s, w, ids = clustered(rng, weighted=True)
    copies = [a.copy() for a in (y, s, w, ids)]
    fastauc.bootstrap_test(y, s, s[::-1].copy(), cluster=ids, sample_weight=w, n_resamples=5)
    fastauc.bootstrap_test(y, s, s, y_true_b=y, sample_weight_b=w, n_resamples=5,
                           metric="partial_auc", tpr_range=(0.2, 0.9))
    for a, b in zip((y, s, w, ids), copies):
        np.testing.assert_array_equal(a, b)
