"""DeLong's interval and test of multiclass AUCs (one-vs-rest and Hand &
Till's one-vs-one, macro and weighted) against the definitions in
``fastauc.naive``, scikit-learn's AUC, and the input rules."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.metrics import roc_auc_score as sk_auc

import fastauc
from fastauc import naive

from .conftest import sklearn_call

OPTIONS = [(mc, avg) for mc in ("ovr", "ovo") for avg in ("macro", "weighted")]


@st.composite
def multiclass_problems(draw):
    k = draw(st.integers(3, 5))
    n = draw(st.integers(2 * k, 40))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    y = rng.integers(0, k, n)
    y[: 2 * k] = np.tile(np.arange(k), 2)  # every class twice at least
    digits = draw(st.sampled_from([1, 2, 6]))  # 1: many ties
    models = []
    for shift in (0.8, 0.2):
        raw = np.round(rng.random((n, k)) + shift * np.eye(k)[y], digits) + 0.01
        models.append(raw / raw.sum(axis=1, keepdims=True))
    labels = draw(st.sampled_from([None, "strings"]))
    if labels:
        y = np.array(["ant", "bee", "cat", "dog", "elk"])[y]
    return y, models[0], models[1]


@pytest.mark.parametrize("multi_class,average", OPTIONS)
@settings(max_examples=25, deadline=None)
@given(problem=multiclass_problems())
def test_interval_and_test_are_the_definitions(multi_class, average, problem):
    y, P, Q = problem
    ci = fastauc.roc_auc_ci(y, P, multi_class=multi_class, average=average)
    aucs, cov = naive.multiclass_auc_covariance(y, [P, Q], multi_class, average)
    assert ci.estimate == fastauc.roc_auc_score(y, P, multi_class=multi_class, average=average)
    assert ci.estimate == pytest.approx(sklearn_call(sk_auc, y, P, multi_class=multi_class,
                                                     average=average), abs=1e-12)
    assert ci.estimate == pytest.approx(aucs[0], abs=1e-12)
    assert ci.se ** 2 == pytest.approx(cov[0, 0], rel=1e-10, abs=1e-15)
    z = 1.959963984540054
    assert ci.low == pytest.approx(max(0.0, ci.estimate - z * ci.se), abs=1e-12)
    res = fastauc.delong_test(y, P, Q, multi_class=multi_class, average=average)
    assert (res.auc_a, res.auc_b) == pytest.approx(tuple(aucs), abs=1e-12)
    assert res.se ** 2 == pytest.approx(cov[0, 0] + cov[1, 1] - 2 * cov[0, 1], rel=1e-10,
                                        abs=1e-15)


def test_two_classes_of_the_definitions_are_delong():
    rng = np.random.default_rng(3)
    y = rng.integers(0, 2, 50)
    s = np.round(rng.random(50), 1)
    aucs, cov = naive.multiclass_auc_covariance(y, [np.column_stack([1 - s, s])], "ovo")
    ref_aucs, ref_cov = naive.delong_covariance(y, s)
    assert aucs == pytest.approx(ref_aucs, abs=1e-14)
    assert cov == pytest.approx(ref_cov, rel=1e-12)


def test_invariant_to_row_order_and_identical_models():
    rng = np.random.default_rng(5)
    y = rng.integers(0, 4, 200)
    raw = rng.random((200, 4)) + np.eye(4)[y]
    P = raw / raw.sum(axis=1, keepdims=True)
    perm = rng.permutation(200)
    for mc in ("ovr", "ovo"):
        a = fastauc.roc_auc_ci(y, P, multi_class=mc)
        b = fastauc.roc_auc_ci(y[perm], P[perm], multi_class=mc)
        assert a.estimate == b.estimate and a.se == pytest.approx(b.se, rel=1e-12)
        same = fastauc.delong_test(y, P, P.copy(), multi_class=mc)
        assert same.difference == 0 and same.pvalue == 1.0


def test_labels_give_the_columns_classes():
    y = np.array([2, 5, 9, 2, 5, 9, 5, 9, 2])
    rng = np.random.default_rng(1)
    raw = rng.random((9, 3)) + np.eye(3)[np.searchsorted([2, 5, 9], y)]
    P = raw / raw.sum(axis=1, keepdims=True)
    a = fastauc.roc_auc_ci(y, P, multi_class="ovr", labels=[2, 5, 9])
    b = fastauc.roc_auc_ci(np.searchsorted([2, 5, 9], y), P, multi_class="ovr")
    assert (a.estimate, a.se) == (b.estimate, b.se)


def test_a_class_of_one_row_gives_nan_with_a_warning():
    y = np.array([0, 0, 1, 1, 2])
    P = np.full((5, 3), 1 / 3)
    with pytest.warns(fastauc.UndefinedMetricWarning):
        ci = fastauc.roc_auc_ci(y, P, multi_class="ovr")
    assert np.isnan(ci.se) and np.isnan(ci.low)


@pytest.mark.parametrize("kwargs,words", [
    ({}, "multi_class must be in ('ovo', 'ovr')"),
    ({"multi_class": "ovr", "average": "micro"}, "average='micro' has no DeLong"),
    ({"multi_class": "ovr", "average": None}, "average=None has no DeLong"),
    ({"multi_class": "ovr", "sample_weight": np.ones(6)}, "takes no sample_weight"),
    ({"multi_class": "ovr", "cluster": np.arange(6)}, "takes no sample_weight or cluster"),
    ({"multi_class": "ovr", "method": "bootstrap", "transform": "logit"}, "method='delong'"),
    ({"multi_class": "ovx"}, "multi_class"),
])
def test_bad_multiclass_options_raise(kwargs, words):
    y = [0, 1, 2, 0, 1, 2]
    P = np.full((6, 3), 1 / 3)
    with pytest.raises(ValueError, match=words.replace("(", r"\(").replace(")", r"\)")):
        fastauc.roc_auc_ci(y, P, **kwargs)


def test_scikit_learns_own_errors_come_first():
    y = [0, 1, 2, 0, 1, 2]
    P = np.full((6, 3), 0.5)  # rows not summing to 1
    with pytest.raises(ValueError, match="sum up to 1.0"):
        fastauc.roc_auc_ci(y, P, multi_class="ovr")
    with pytest.raises(ValueError, match="same shape"):
        fastauc.delong_test(y, np.full((6, 3), 1 / 3), np.full((6, 4), 0.25), multi_class="ovr")
    with pytest.raises(ValueError, match="paired"):
        fastauc.delong_test(y, np.full((6, 3), 1 / 3), np.full((6, 3), 1 / 3),
                            multi_class="ovr", y_true_b=y)


def test_inputs_are_not_modified():
    y = np.array([0, 1, 2, 0, 1, 2, 1])
    P = np.random.default_rng(0).dirichlet(np.ones(3), 7)
    copies = y.copy(), P.copy()
    fastauc.roc_auc_ci(y, P, multi_class="ovo")
    fastauc.delong_test(y, P, P[::-1].copy(), multi_class="ovr")
    assert np.array_equal(y, copies[0]) and np.array_equal(P, copies[1])
