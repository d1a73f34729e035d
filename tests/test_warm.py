"""First calls: numpy answers while the kernels compile, with the same floats.

``fastauc._warm`` answers unweighted binary AUC and average precision from
numpy's sort and searchsorted (``_table.numpy_tallies``) until this
process's kernels for them are ready, compiling them in a background thread.
Results never depend on which path answered: every case here runs both
(``_warm.MODE``) and compares with ``==``.  Ahead of time, ``fastauc
warmup`` (``fastauc.deploy``) fills the cache: after its training group, a
training step compiles nothing.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest
import sklearn.metrics as skm
from hypothesis import given
from hypothesis import strategies as st

import fastauc
from fastauc import _sort, _warm

from .conftest import sklearn_call


@pytest.fixture
def both_paths(monkeypatch):
    """``run(fn)`` -> ``(numpy_result, kernel_result)``."""

    def run(fn):
        out = []
        for mode in ("numpy", "kernels"):
            monkeypatch.setattr(_warm, "MODE", mode)
            out.append(fn())
        return tuple(out)

    return run


def _scores(rng, n, kind):
    y = rng.random(n) < rng.choice([0.02, 0.3, 0.5, 0.8])
    y[:2] = (False, True)
    s = rng.normal(size=n) + y
    if kind == "ties":
        s = np.round(3 * s) / 3
    elif kind == "zeros":
        s = np.round(s)
        s[s == 0] = -0.0  # -0.0 ties with +0.0
    elif kind == "float32":
        s = np.round(s, 2).astype(np.float32)
    return y, s


@pytest.mark.parametrize("n", [2, 17, 1000, _sort.CHUNK_MIN - 1, _sort.CHUNK_MIN, 150_000])
@pytest.mark.parametrize("kind", ["distinct", "ties", "zeros", "float32"])
def test_numpy_path_equals_the_kernels_to_the_last_bit(both_paths, n, kind):
    rng = np.random.default_rng(n)
    y, s = _scores(rng, n, kind)
    fast, kern = both_paths(lambda: (fastauc.roc_auc_score(y, s),
                                     fastauc.average_precision_score(y, s)))
    assert fast == kern
    expected = (sklearn_call(skm.roc_auc_score, y, s),
                sklearn_call(skm.average_precision_score, y, s))
    np.testing.assert_allclose(fast, expected, rtol=1e-12, atol=1e-12)


@given(st.lists(st.tuples(st.booleans(), st.sampled_from([-1.5, -0.0, 0.0, 0.25, 1.0, 3.0])),
                min_size=2, max_size=60), st.booleans())
def test_numpy_path_property(rows, float32):
    y = np.array([r[0] for r in rows])
    s = np.array([r[1] for r in rows], np.float32 if float32 else np.float64)
    old = _warm.MODE
    try:
        results = []
        for mode in ("numpy", "kernels"):
            _warm.MODE = mode
            if y.all() or not y.any():
                results.append(fastauc.average_precision_score(y, s) if y.any() else None)
            else:
                results.append((fastauc.roc_auc_score(y, s),
                                fastauc.average_precision_score(y, s)))
    finally:
        _warm.MODE = old
    assert results[0] == results[1]


def test_numpy_path_cuts_where_the_split_sweep_cuts(both_paths):
    """Above ``CHUNK_MIN`` rows the sweep runs in two key ranges whose
    average-precision sums are added: the numpy path cuts at the same key
    (the longer class's median), whichever class is longer."""
    rng = np.random.default_rng(7)
    for rate in (0.05, 0.5, 0.95):
        y = rng.random(200_000) < rate
        s = np.round(rng.normal(size=y.shape[0]) + y, 4)
        fast, kern = both_paths(lambda: fastauc.average_precision_score(y, s))
        assert fast == kern


def test_numpy_path_errors_are_the_kernels(monkeypatch):
    y = np.array([0, 1, 0, 1])
    for bad in (np.nan, np.inf):
        s = np.array([0.1, 0.4, bad, 0.8])
        errors = []
        for mode in ("numpy", "kernels"):
            monkeypatch.setattr(_warm, "MODE", mode)
            with pytest.raises(ValueError) as info:
                fastauc.roc_auc_score(y, s)
            errors.append(str(info.value))
        assert errors[0] == errors[1] and "y_score" in errors[0]


def test_numpy_tallies_declines_where_it_cannot_be_exact(monkeypatch, both_paths):
    """From 2**53 twice-pairs on, the sweep's float sums may round: the numpy
    path then returns None and the kernels answer (shown with the bound
    lowered, rather than on 2e8 rows)."""
    from fastauc import _table

    y = np.array([0, 1, 0, 1, 1, 0])
    s = np.array([0.1, 0.4, 0.35, 0.8, 0.8, 0.8])
    assert _table.numpy_tallies(y.astype(bool), s) is not None
    monkeypatch.setattr(_table, "EXACT_PAIRS", 2 * 3 * 3)  # this data's twice-pairs
    assert _table.numpy_tallies(y.astype(bool), s) is None
    fast, kern = both_paths(lambda: fastauc.roc_auc_score(y, s))
    assert fast == kern
    assert fast == pytest.approx(sklearn_call(skm.roc_auc_score, y, s), abs=1e-12)


def test_weighted_calls_and_curves_take_the_kernels(monkeypatch):
    """Only unweighted tallies without curves have a numpy path."""
    calls = []
    monkeypatch.setattr(_warm, "numpy_path", lambda family: calls.append(family) or True)
    y = np.array([0, 1, 0, 1, 1])
    s = np.array([0.1, 0.4, 0.35, 0.8, 0.8])
    fastauc.roc_auc_score(y, s, sample_weight=np.ones(5))
    fastauc.roc_curve(y, s)
    assert calls == []
    fastauc.roc_auc_score(y, s)
    assert calls == [("tallies", "<f8")]


_FRESH = textwrap.dedent("""
    import os, sys, time
    import numpy as np
    import fastauc
    from fastauc import _warm
    rng = np.random.default_rng(0)
    y = rng.random(200_000) < 0.1
    s = np.round(rng.normal(size=y.shape[0]) + y, 3)
    first = fastauc.roc_auc_score(y, s)
    numpy_answered = not _warm.ready(_warm.tallies_family(s))
    pid = os.fork()  # while the background thread compiles
    if pid == 0:  # (its own first compilation says so too: not on the parent's stderr)
        os.dup2(os.open(os.devnull, os.O_WRONLY), 2)
        ok = fastauc.roc_auc_score(y, s) == first and fastauc.log_loss(y, s > 0) > 0
        os._exit(0 if ok else 3)
    _, status = os.waitpid(pid, 0)
    assert _warm.wait(300)
    assert _warm.ready(_warm.tallies_family(s))
    later = fastauc.roc_auc_score(y, s)
    print(numpy_answered, first == later, os.waitstatus_to_exitcode(status))
""")


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")
def test_fresh_process_answers_from_numpy_then_the_kernels(tmp_path):
    """An empty Numba cache: the first call is answered from numpy while the
    kernels compile in the background, says once that it compiles, a fork
    in the middle of it leaves a working child, the kernels then take over
    with the same number, and the process exits cleanly."""
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path))
    proc = subprocess.run([sys.executable, "-c", _FRESH], capture_output=True, text=True,
                          env=env, timeout=600)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split() == ["True", "True", "0"]
    assert proc.stderr.count(_warm.COMPILING) == 1


def test_exit_stops_the_warm_up_between_two_compilations(tmp_path):
    """A short script on an empty cache exits while the background thread
    compiles: it stops at its next compilation, the exit status is 0 and
    nothing half-written is left that a later process trips on."""
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path))
    script = ("import numpy as np, fastauc; rng = np.random.default_rng(1); "
              "y = rng.random(100_000) < 0.5; s = rng.normal(size=y.shape[0]) + y; "
              "print(fastauc.roc_auc_score(y, s))")
    first = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                           env=env, timeout=600)
    second = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                            env=env, timeout=600)
    assert first.returncode == 0 and second.returncode == 0, first.stderr + second.stderr
    assert first.stdout == second.stdout


def test_warmup_in_parallel_processes(capsys):
    from fastauc.deploy import warmup

    assert warmup(groups=["log_loss", "multiclass"], jobs=2) >= 0
    assert "kernels compiled or loaded in" in capsys.readouterr().out
    with pytest.raises(ValueError, match="unknown warm-up groups"):
        warmup(groups=["nope"])


@pytest.mark.parametrize("cpus", [1, 2, 3, 4, 64])
def test_demo_compile_plan_covers_every_piece_once(cpus):
    """``fastauc demo`` compiles its calls' kernels in a thread and child
    processes: every piece once, whatever the CPUs; a child on 2-3 CPUs,
    two from 4."""
    from fastauc import _demo

    here, groups = _demo._compile_plan(cpus)
    pieces = list(here) + [p for g in groups for p in g]
    assert sorted(pieces) == sorted(_demo._pieces(None, None, None, None))
    assert len(groups) == (2 if cpus >= 4 else 1)


_TRAINING_STEPS = textwrap.dedent("""
    import json, sys
    import torch
    from numba.core.registry import CPUDispatcher
    from fastauc import _pairwise, _warm
    from fastauc.torch import BinaryAUROC, BinaryAveragePrecision, PairwiseAUCLoss

    metrics = BinaryAUROC(), BinaryAveragePrecision(), BinaryAUROC(max_groups=64)
    for n in (256, 70_000):  # one bucket of the sort; above CHUNK_MIN rows
        g = torch.Generator().manual_seed(n)
        y = (torch.rand(n, generator=g) < 0.3).to(torch.float32)
        for loss in _pairwise.LOSSES:
            s = (torch.randn(n, generator=g) + y).requires_grad_()
            PairwiseAUCLoss(loss=loss)(s, y).backward()
            assert bool(torch.isfinite(s.grad).all()) and s.grad.abs().sum() > 0
            for m in metrics:  # the step's value, the rows kept
                m(s.detach(), y)
        for m in metrics:  # the epoch's: the rows sorted, merged with the run before
            assert 0.5 < float(m.compute()) < 1
    metrics[0].delong_interval()
    _warm.wait()
    kernels = {id(d): d for module_name, module in list(sys.modules.items())
               if module_name.startswith("fastauc") and module is not None
               for d in vars(module).values() if isinstance(d, CPUDispatcher)}.values()
    name = lambda d: f"{d.py_func.__module__}.{d.py_func.__name__}"
    print(json.dumps({
        "compiled": sorted(name(d) for d in kernels if sum(d.stats.cache_misses.values())),
        "loaded": sorted(name(d) for d in kernels if sum(d.stats.cache_hits.values())),
        "said": _warm.compiled()}))
""")


def test_training_steps_after_the_training_warm_up_compile_nothing(tmp_path):
    """``fastauc warmup --groups training`` on an empty cache (fresh
    processes, as a Docker build runs it: the group's parts compiled in
    two), then a fresh process training with ``fastauc.torch``'s losses
    and metrics (float32 tensors, each loss, a small batch and one above
    ``CHUNK_MIN`` rows) loads every kernel from that cache: Numba compiles none of them
    (no cache miss), and nothing says it compiles."""
    pytest.importorskip("torch")
    pytest.importorskip("torchmetrics")
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path))
    warm = subprocess.run([sys.executable, "-m", "fastauc", "warmup", "--groups", "training",
                           "--jobs", "2"], capture_output=True, text=True, env=env,
                          timeout=1200)
    assert warm.returncode == 0, warm.stderr
    assert "kernels compiled or loaded in" in warm.stdout
    steps = subprocess.run([sys.executable, "-c", _TRAINING_STEPS], capture_output=True,
                           text=True, env=env, timeout=600)
    assert steps.returncode == 0, steps.stderr
    found = json.loads(steps.stdout.strip().splitlines()[-1])
    assert found["compiled"] == [], found["compiled"]
    assert not found["said"] and _warm.COMPILING not in steps.stderr
    assert "fastauc._kernels.pairwise.hinge_merge" in found["loaded"]  # (read from the cache)
