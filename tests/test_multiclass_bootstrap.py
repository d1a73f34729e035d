"""The bootstrap of multiclass AUCs (one-vs-rest and Hand & Till's one-vs-one,
macro and weighted): every replicate equals scikit-learn's ``roc_auc_score``
on the replicate's rows, rebuilt from the documented draws; the schemes,
pairing, threads and input rules."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from sklearn.metrics import roc_auc_score as sk_auc

import fastauc
from fastauc import _parallel
from fastauc._kernels.resampling import count_draws, draw_buffer, poisson_count, replicate_state
from fastauc._resample import second_seed
from fastauc._validation import seed_from_random_state

from .conftest import sklearn_call
from .test_multiclass_ci import OPTIONS, multiclass_problems


def _class_layout(y):
    """The rows in class order (the classes sorted as roc_auc_score sorts them)
    and each class's first position."""
    classes, codes = np.unique(y, return_inverse=True)
    rows = np.argsort(codes, kind="stable")
    sizes = np.bincount(codes, minlength=classes.shape[0])
    return rows, np.concatenate(([0], np.cumsum(sizes))).astype(np.int64)


def _counts(y, seed, r, scheme, stratified):
    """Each input row's count in replicate ``r``, from the documented draws."""
    rows, bounds = _class_layout(y)
    n = rows.shape[0]
    out = np.zeros(n, np.int64)
    if scheme == "poisson":
        key = np.uint64(replicate_state(seed, r))
        for i in range(n):
            out[i] = poisson_count(key, i)
        return out
    strata = bounds if stratified else np.array([0, n], np.int64)
    cnt = np.zeros(n, np.int64)
    count_draws(seed, r, strata, cnt, draw_buffer(n, 8))
    out[rows] = cnt
    return out


@pytest.mark.parametrize("multi_class,average", OPTIONS)
@pytest.mark.parametrize("scheme,stratified", [("multinomial", True), ("multinomial", False),
                                               ("poisson", False)])
@settings(max_examples=8, deadline=None)
@given(problem=multiclass_problems())
def test_every_replicate_is_roc_auc_score_of_its_rows(multi_class, average, scheme,
                                                      stratified, problem):
    y, P, Q = problem
    res = fastauc.bootstrap_ci(y, P, multi_class=multi_class, average=average,
                               n_resamples=6, random_state=11, scheme=scheme,
                               stratified=stratified if scheme == "multinomial" else None)
    assert res.estimate == fastauc.roc_auc_score(y, P, multi_class=multi_class,
                                                 average=average)
    seed = seed_from_random_state(11)
    k = np.unique(y).shape[0]
    for r in range(6):
        rows = np.repeat(np.arange(y.shape[0]), _counts(y, seed, r, scheme, stratified))
        if np.unique(y[rows]).shape[0] < k:  # a class missed: dropped
            assert np.isnan(res.replicates[r])
            continue
        ref = sklearn_call(sk_auc, y[rows], P[rows], multi_class=multi_class, average=average)
        assert res.replicates[r] == pytest.approx(ref, abs=1e-12)
    test = fastauc.bootstrap_test(y, P, Q, multi_class=multi_class, average=average,
                                  n_resamples=6, random_state=11, scheme=scheme,
                                  stratified=stratified if scheme == "multinomial" else None)
    other = fastauc.bootstrap_ci(y, Q, multi_class=multi_class, average=average,
                                 n_resamples=6, random_state=11, scheme=scheme,
                                 stratified=stratified if scheme == "multinomial" else None)
    # paired: both models read the same counts, each as bootstrap_ci draws them
    np.testing.assert_array_equal(test.replicates[:, 0], res.replicates)
    np.testing.assert_array_equal(test.replicates[:, 1], other.replicates)
    assert test.difference == res.estimate - other.estimate


@pytest.mark.parametrize("multi_class", ["ovr", "ovo"])
def test_unpaired_each_set_from_its_own_stream(multi_class):
    rng = np.random.default_rng(4)
    y, yb = rng.integers(0, 3, 90), rng.integers(0, 3, 70)
    P = rng.dirichlet(np.ones(3), 90) + 0.5 * np.eye(3)[y]
    Q = rng.dirichlet(np.ones(3), 70) + 0.2 * np.eye(3)[yb]
    P, Q = P / P.sum(1, keepdims=True), Q / Q.sum(1, keepdims=True)
    res = fastauc.bootstrap_test(y, P, Q, y_true_b=yb, multi_class=multi_class,
                                 n_resamples=40, random_state=2)
    seed = seed_from_random_state(2)
    a = fastauc.bootstrap_ci(y, P, multi_class=multi_class, n_resamples=40, random_state=2)
    np.testing.assert_array_equal(res.replicates[:, 0], a.replicates)
    for r in (0, 17, 39):
        rows = np.repeat(np.arange(70), _counts(yb, second_seed(seed), r, "multinomial", True))
        assert res.replicates[r, 1] == pytest.approx(
            sk_auc(yb[rows], Q[rows], multi_class=multi_class), abs=1e-12)
    d = res.replicates[:, 0] - res.replicates[:, 1]
    assert res.se == pytest.approx(d.std(ddof=1), rel=1e-12)
    assert (res.low, res.high) == pytest.approx(tuple(np.quantile(d, [0.025, 0.975])))


def test_roc_auc_ci_bootstrap_and_intervals():
    rng = np.random.default_rng(8)
    y = rng.integers(0, 4, 400)
    raw = rng.random((400, 4)) + 0.6 * np.eye(4)[y]
    P = raw / raw.sum(1, keepdims=True)
    ci = fastauc.roc_auc_ci(y, P, multi_class="ovo", method="bootstrap", n_resamples=300,
                            random_state=5)
    same = fastauc.bootstrap_ci(y, P, multi_class="ovo", n_resamples=300, random_state=5)
    np.testing.assert_array_equal(ci.replicates, same.replicates)
    assert (ci.low, ci.high) == pytest.approx(tuple(np.quantile(ci.replicates, [0.025, 0.975])))
    basic = fastauc.bootstrap_ci(y, P, multi_class="ovo", n_resamples=300, random_state=5,
                                 method="basic")
    assert basic.low == pytest.approx(2 * ci.estimate - ci.high)
    # the bootstrap standard error is near DeLong's
    delong = fastauc.roc_auc_ci(y, P, multi_class="ovo")
    assert ci.se == pytest.approx(delong.se, rel=0.25)
    assert ci.n_dropped == 0 and ci.method == "percentile"


@pytest.mark.parametrize("scheme", ["multinomial", "poisson"])
def test_same_replicates_for_any_threads(scheme, monkeypatch):
    rng = np.random.default_rng(1)
    y = rng.integers(0, 5, 300)
    P = rng.dirichlet(np.ones(5), 300)
    runs = []
    for threads in ("1", "3"):
        monkeypatch.setenv("FASTAUC_NUM_THREADS", threads)
        runs.append(fastauc.bootstrap_ci(y, P, multi_class="ovr", n_resamples=50,
                                         random_state=9, scheme=scheme).replicates)
    monkeypatch.setattr(_parallel, "SHUFFLE", 5)
    runs.append(fastauc.bootstrap_ci(y, P, multi_class="ovr", n_resamples=50, random_state=9,
                                     scheme=scheme).replicates)
    for r in runs[1:]:
        np.testing.assert_array_equal(r, runs[0])


@pytest.mark.parametrize("multi_class,average", OPTIONS)
def test_wide_counts_path_agrees(multi_class, average):
    """The int64 fallback (a uint8 count that would pass 255) gives the same values."""
    from fastauc import _multiclass_bootstrap as mcb
    from fastauc._kernels.multiclass import multiclass_wide

    rng = np.random.default_rng(6)
    y = rng.integers(0, 4, 200)
    P = rng.dirichlet(np.ones(4), 200).round(2)
    P /= P.sum(1, keepdims=True)
    lay = mcb.layout(y, [P], multi_class, average, None)
    seed = np.uint64(77)
    reps = mcb.replicates(lay, 4, seed, True, "multinomial", False)
    for r in range(4):
        out = np.empty(1)
        multiclass_wide(seed, r, out, lay.bounds, lay.bounds, lay.orders, lay.ranks, lay.ovo,
                        lay.weighted, np.empty(201), np.empty((4, 4)), np.empty(4),
                        draw_buffer(200, 8))
        assert out[0] == reps[r, 0]


def test_an_absent_class_gives_nan_with_a_warning():
    y = np.array([0, 1, 0, 1, 0, 1])
    P = np.random.default_rng(0).dirichlet(np.ones(3), 6)
    with pytest.warns(fastauc.UndefinedMetricWarning):
        res = fastauc.bootstrap_ci(y, P, multi_class="ovo", labels=[0, 1, 2], n_resamples=5)
    assert np.isnan(res.low) and np.isnan(res.replicates).all() and res.n_dropped == 5


@pytest.mark.parametrize("kwargs,words", [
    ({"metric": "average_precision"}, "metric='roc_auc' only"),
    ({"method": "bca"}, "method='bca' is not available for multiclass"),
    ({"sample_weight": np.ones(6)}, "takes no sample_weight"),
    ({"max_fpr": 0.5}, "max_fpr apply to binary scores"),
    ({"average": "micro"}, "average='micro' has no bootstrap"),
    ({"multi_class": "raise"}, "multi_class must be in ('ovo', 'ovr')"),
    ({"scheme": "poisson", "stratified": True}, "cannot be stratified"),
])
def test_bad_options_raise(kwargs, words):
    y = [0, 1, 2, 0, 1, 2]
    P = np.full((6, 3), 1 / 3)
    kwargs = {"multi_class": "ovr", **kwargs}
    with pytest.raises(ValueError, match=words.replace("(", r"\(").replace(")", r"\)")):
        fastauc.bootstrap_ci(y, P, **kwargs)
    with pytest.raises(ValueError, match=words.replace("(", r"\(").replace(")", r"\)")):
        fastauc.bootstrap_test(y, P, P, **kwargs)


def test_inputs_are_not_modified():
    y = np.array([0, 1, 2, 0, 1, 2, 1])
    P = np.random.default_rng(0).dirichlet(np.ones(3), 7)
    copies = y.copy(), P.copy()
    fastauc.bootstrap_ci(y, P, multi_class="ovo", n_resamples=5)
    fastauc.bootstrap_test(y, P, P[::-1].copy(), multi_class="ovr", n_resamples=5)
    assert np.array_equal(y, copies[0]) and np.array_equal(P, copies[1])
