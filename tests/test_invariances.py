"""scikit-learn's weight invariances for every weighted metric."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import fastauc

from .strategies import binary_problems


def _proba(s):
    return 1 / (1 + np.exp(-np.clip(s, -30, 30)))


METRICS = {
    "roc_auc_score": lambda y, s, w: fastauc.roc_auc_score(y, s, sample_weight=w),
    "average_precision_score": lambda y, s, w: fastauc.average_precision_score(
        y, s, sample_weight=w),
    "log_loss": lambda y, s, w: fastauc.log_loss(y, _proba(s), sample_weight=w),
    "roc_auc_score_max_fpr": lambda y, s, w: fastauc.roc_auc_score(
        y, s, sample_weight=w, max_fpr=0.4),
}
CURVES = {
    "roc_curve": lambda y, s, w: fastauc.roc_curve(y, s, sample_weight=w),
    "precision_recall_curve": lambda y, s, w: fastauc.precision_recall_curve(
        y, s, sample_weight=w),
    "det_curve": lambda y, s, w: fastauc.det_curve(y, s, sample_weight=w),
}
TOL = 1e-12


def close(a, b):
    if isinstance(a, tuple):
        return all(x.shape == z.shape and np.allclose(x, z, rtol=0, atol=TOL)
                   for x, z in zip(a, b))
    return abs(a - b) <= TOL * max(1.0, abs(b))


ALL = {**METRICS, **CURVES}


@pytest.mark.parametrize("name", sorted(ALL))
@given(problem=binary_problems(min_size=4, weights=False))
def test_unit_weights_equal_no_weights(name, problem):
    y, s, _ = problem
    f = ALL[name]
    assert close(f(y, s, np.ones(len(y))), f(y, s, None))


@pytest.mark.parametrize("name", sorted(ALL))
@given(problem=binary_problems(min_size=4, weights=False),
       reps=st.lists(st.integers(1, 4), min_size=60, max_size=60))
def test_integer_weights_equal_repeated_rows(name, problem, reps):
    y, s, _ = problem
    w = np.array(reps[: len(y)], dtype=float)
    f = ALL[name]
    idx = np.repeat(np.arange(len(y)), w.astype(int))
    assert close(f(y, s, w), f(y[idx], s[idx], None))


@pytest.mark.parametrize("name", sorted(ALL))
@given(problem=binary_problems(min_size=4, weights=False), data=st.data())
def test_zero_weight_equals_removed_row(name, problem, data):
    y, s, _ = problem
    i = data.draw(st.integers(0, len(y) - 1))
    keep = np.arange(len(y)) != i
    if len(np.unique(y[keep])) < 2:
        return
    w = np.ones(len(y))
    w[i] = 0.0
    f = ALL[name]
    assert close(f(y, s, w), f(y[keep], s[keep], None))


@pytest.mark.parametrize("name", sorted(ALL))
@given(problem=binary_problems(min_size=4, weights=True),
       scale=st.sampled_from([0.5, 2.0, 4.0, 1024.0]))
def test_scaled_weights_same_result(name, problem, scale):
    y, s, w = problem
    if w[y == 1].sum() == 0 or w[y == 0].sum() == 0:
        return
    f = ALL[name]
    assert close(f(y, s, w * scale), f(y, s, w))


@pytest.mark.parametrize("name", sorted(ALL))
@given(problem=binary_problems(min_size=4), seed=st.integers(0, 2**32 - 1))
def test_shuffled_rows_same_result(name, problem, seed):
    y, s, w = problem
    if w is not None and (w[y == 1].sum() == 0 or w[y == 0].sum() == 0):
        return
    perm = np.random.default_rng(seed).permutation(len(y))
    f = ALL[name]
    assert close(f(y[perm], s[perm], None if w is None else w[perm]), f(y, s, w))
