"""pytest-benchmark cases (not part of the test run: `pytest benchmarks/ --benchmark-enable`).

The functions timed, their options and their goals come from the registry of
comparisons (tests/registry.py): every entry with ``bench`` set is timed on its
own kind of data (1e6 rows unless the entry says otherwise), with
``sample_weight`` where ``bench_weighted`` is set, and its scikit-learn/scipy
reference where ``bench_reference`` is set.  The goal is stored in each
benchmark's ``extra_info`` (``benchmarks/run_benchmarks.py`` prints the table
of ratios against it).
"""

import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.registry import REGISTRY  # noqa: E402

N = 10**6
BENCHED = [c for c in REGISTRY if c.bench is not None]


@pytest.fixture(scope="module")
def problem():
    rng = np.random.default_rng(0)
    return (rng.random(N) < 0.1).astype(np.int64), rng.random(N), rng.random(N)


def _data(entry, problem):
    """The entry's data at its benchmark size, and weights for it."""
    y, s, w = problem
    n = entry.bench_n
    if entry.data.from_binary is not None:
        return entry.data.from_binary(y[:n], s[:n]), w[:n]
    return entry.data(np.random.default_rng(0), n), w[:n]


def _run(benchmark, entry, fn, *args, **kwargs):
    benchmark.extra_info["goal"] = entry.goal
    if entry.slow:
        benchmark.pedantic(fn, args=args, kwargs=kwargs, rounds=3)
    else:
        benchmark(fn, *args, **kwargs)


@pytest.mark.parametrize("entry", BENCHED, ids=str)
def test_fastauc(benchmark, problem, entry):
    d, _ = _data(entry, problem)
    _run(benchmark, entry, entry.ours, d, None, **entry.bench)


@pytest.mark.parametrize("entry", [c for c in BENCHED if c.bench_weighted], ids=str)
def test_fastauc_weighted(benchmark, problem, entry):
    d, w = _data(entry, problem)
    _run(benchmark, entry, entry.ours, d, w, **entry.bench)


@pytest.mark.parametrize("entry", [c for c in BENCHED if c.bench_reference], ids=str)
def test_reference(benchmark, problem, entry):
    d, _ = _data(entry, problem)
    benchmark.extra_info["goal"] = entry.goal
    benchmark.pedantic(entry.reference, args=(d, None), rounds=3)


def test_every_goal_is_benchmarked():
    assert all(c.bench is not None for c in REGISTRY if c.goal is not None), [
        c.name for c in REGISTRY if c.goal is not None and c.bench is None]
