"""pytest-benchmark cases (not part of the test run: `pytest benchmarks/ --benchmark-enable`)."""

import numpy as np
import pytest

import fastauc

N = 10**6


@pytest.fixture(scope="module")
def problem():
    rng = np.random.default_rng(0)
    return (rng.random(N) < 0.1).astype(np.int64), rng.random(N), rng.random(N)


@pytest.mark.parametrize("name", ["roc_auc_score", "average_precision_score", "roc_curve",
                                  "precision_recall_curve"])
def test_fastauc(benchmark, problem, name):
    y, s, _ = problem
    benchmark(getattr(fastauc, name), y, s)


def test_fastauc_weighted(benchmark, problem):
    y, s, w = problem
    benchmark(fastauc.roc_auc_score, y, s, sample_weight=w)


@pytest.mark.parametrize("name", ["roc_auc_score", "roc_curve"])
def test_sklearn(benchmark, problem, name):
    skm = pytest.importorskip("sklearn.metrics")
    y, s, _ = problem
    benchmark.pedantic(getattr(skm, name), args=(y, s), rounds=3)


def test_bootstrap_ci(benchmark, problem):
    y, s, _ = problem
    benchmark.pedantic(fastauc.bootstrap_ci, args=(y, s),
                       kwargs={"n_resamples": 200, "random_state": 0}, rounds=3)


@pytest.mark.parametrize("name", ["roc_auc_ci", "mann_whitney_u"])
def test_inference(benchmark, problem, name):
    y, s, _ = problem
    benchmark(getattr(fastauc, name), y, s)


def test_delong_test(benchmark, problem):
    y, s, w = problem
    benchmark(fastauc.delong_test, y, s, w)


@pytest.mark.parametrize("name", ["threshold_metrics", "best_threshold", "report"])
def test_thresholds(benchmark, problem, name):
    y, s, _ = problem
    benchmark(getattr(fastauc, name), y, s)
