"""The device path against the CPU path.

Here (CI, no GPU) the device path runs under numba-cuda's simulator
(``tests/conftest.py`` sets ``NUMBA_ENABLE_CUDASIM=1`` unless it is set):
``config_context(device="cuda")`` runs the whole device pipeline on host
arrays, its kernels simulated and its array steps on numpy.  Cases stay small
(the simulator runs a Python thread per GPU thread).  The tests marked
``gpu`` need a real CUDA GPU (torch or CuPy arrays on it) and skip without one.
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
import threading
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import fastauc
from fastauc import _config
from fastauc._device import engine_for
from fastauc._device.arrays import cuda_device

from . import test_invariances as inv
from .compare import exact_bits
from .registry import REGISTRY, assert_close, close_figures
from .strategies import binary_problems
from .test_bad_input import GENERIC, MUTATIONS

pytestmark = pytest.mark.skipif(importlib.util.find_spec("numba_cuda") is None,
                                reason="numba-cuda is not installed (the gpu extra)")
SIMULATED = os.environ.get("NUMBA_ENABLE_CUDASIM") == "1"


def on_device(call, *args, **kwargs):
    with fastauc.config_context(device="cuda"):
        return call(*args, **kwargs)


def dispatched(function: str) -> bool:
    return hasattr(getattr(fastauc, function), "score_arguments")


def quiet(call, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return call(*args, **kwargs)


# ------------------------------------------------------------------ the registry

# the multinomial bootstrap draws on the device with its own generator: its
# estimate is the CPU's, its replicates are tested below
DRAWN = ("bootstrap_ci", "bootstrap_test")
PARITY = [pytest.param(c, id=c.name) for c in REGISTRY
          if dispatched(c.function) and c.name not in DRAWN]


@pytest.mark.parametrize("entry", PARITY)
@pytest.mark.parametrize("ties", [False, True])
def test_registry_entry_on_the_device_is_the_cpu_result(entry, ties):
    rng = np.random.default_rng(7)
    d = entry.data(rng, 40, ties)
    w = rng.choice((0.0, 1.0, 2.0, 3.0), 40) if entry.weights else None
    if w is not None:
        w[:2] = 1.0
    for weights in ((None, w) if entry.weights else (None,)):
        cpu = quiet(entry, d, weights)
        dev = quiet(on_device, entry, d, weights)
        close_figures()
        assert_close(dev, cpu, 1e-12)


# unweighted AUCs and curves: the same floats, to the last bit
EXACT = {
    "roc_auc_score": lambda y, s, w: fastauc.roc_auc_score(y, s, sample_weight=w),
    "roc_curve": lambda y, s, w: fastauc.roc_curve(y, s, sample_weight=w),
    "roc_curve[all]": lambda y, s, w: fastauc.roc_curve(y, s, sample_weight=w,
                                                        drop_intermediate=False),
    "precision_recall_curve": lambda y, s, w: fastauc.precision_recall_curve(
        y, s, sample_weight=w, drop_intermediate=True),
    "det_curve": lambda y, s, w: fastauc.det_curve(y, s, sample_weight=w),
    "roc_auc_ci": lambda y, s, w: fastauc.roc_auc_ci(y, s, sample_weight=w).estimate,
    "mann_whitney_u": lambda y, s, w: fastauc.mann_whitney_u(  # (exact: whole weights only)
        y, s, sample_weight=w, method="asymptotic").statistic,
    # (16 replicates: with 2, a lone row of a class has a zero count in both with
    # probability e**-2, and a sample without a replicate of both classes raises)
    "bootstrap_ci": lambda y, s, w: fastauc.bootstrap_ci(  # its estimate, from its own sort
        y, s, sample_weight=w, n_resamples=16, scheme="poisson", random_state=0).estimate,
}


@pytest.mark.parametrize("name", list(EXACT))
@settings(max_examples=15, deadline=None)
@given(problem=binary_problems(max_size=40), float32=st.booleans())
def test_same_bits_as_the_cpu(name, problem, float32):
    """Unweighted, and with dyadic weights (exact tallies): the same bits;
    float32 scores (kept 32-bit on both paths), ties, -0.0 and +0.0."""
    y, s, w = problem
    if float32:
        s = np.clip(s, -1e30, 1e30).astype(np.float32)
    call = EXACT[name]
    cpu = quiet(call, y, s, w)
    dev = quiet(on_device, call, y, s, w)
    assert exact_bits(dev) == exact_bits(cpu)


@settings(max_examples=15, deadline=None)
@given(problem=binary_problems(max_size=40, weights=True))
def test_weighted_sums_to_1e12(problem):
    y, s, w = problem
    w = w * 1.1  # weights that are not dyadic: the sums round
    for call in (fastauc.roc_auc_score, fastauc.average_precision_score):
        assert_close(quiet(on_device, call, y, s, sample_weight=w),
                     quiet(call, y, s, sample_weight=w), 1e-12)


def test_one_class_warns_as_on_the_cpu():
    with pytest.warns(fastauc.UndefinedMetricWarning, match="Only one class") as record:
        assert np.isnan(on_device(fastauc.roc_auc_score, [1, 1, 1], [0.1, 0.2, 0.3]))
    assert record[0].filename == __file__  # the user's line


# ------------------------------------------------------------------ computed there, not on host copies

def computed_on_the_device(function, *args, **kwargs):
    """The device implementation's own result (it did not leave the call to
    the CPU path), checked against the CPU path to 1e-12."""
    import inspect

    from fastauc._device.arrays import HOST
    from fastauc._device.metrics import DEVICE

    public = getattr(fastauc, function)
    bound = inspect.signature(public.__wrapped__).bind(*args, **kwargs)
    bound.apply_defaults()
    engine = engine_for({name: bound.arguments[name] for name in public.score_arguments})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = DEVICE[function](engine, **bound.arguments)
        assert result is not HOST, (function, kwargs)
        assert_close(result, public(*args, **kwargs), 1e-12)
    return result


def _columns_problem(seed=3, n=50, k=4):
    rng = np.random.default_rng(seed)
    Y = rng.random((n, k)) < 0.4
    Y[:2] = [True, False, True, False], [False, True, False, True]  # every column two classes
    S = np.round(rng.random((n, k)), 1)  # ties
    y = rng.integers(0, k, n)
    y[:k] = np.arange(k)
    P = rng.random((n, k))
    P /= P.sum(axis=1, keepdims=True)
    w = rng.choice((0.0, 1.0, 2.5), n)
    w[:4] = 1.0
    return Y, S, y, P, w


@pytest.mark.parametrize("average", ["macro", "weighted", "micro", None])
@pytest.mark.parametrize("weighted", [False, True])
def test_multilabel_multiclass_and_micro_compute_on_the_device(average, weighted):
    Y, S, y, P, w = _columns_problem()
    w = w if weighted else None
    computed_on_the_device("roc_auc_score", Y, S, average=average, sample_weight=w)
    computed_on_the_device("roc_auc_score", Y.astype(np.int8), S, average=average,
                           sample_weight=w, max_fpr=0.5)
    computed_on_the_device("average_precision_score", Y, S, average=average, sample_weight=w)
    computed_on_the_device("average_precision_score", y, P, average=average, sample_weight=w)
    computed_on_the_device("roc_auc_score", y, P, multi_class="ovr", average=average,
                           sample_weight=w)
    Pm = np.clip(S, 0.05, 0.95)
    for normalize in (True, False):
        computed_on_the_device("log_loss", Y, Pm, sample_weight=w, normalize=normalize)
        computed_on_the_device("log_loss", Y.tolist(), Pm, sample_weight=w,
                               normalize=normalize)


def test_multilabel_log_loss_warns_as_on_the_cpu():
    Y, S, _, _, _ = _columns_problem()
    P = np.clip(S, 0.05, 0.95)  # rows that do not sum to one
    for device in ("cpu", "cuda"):
        with fastauc.config_context(device=device), \
                pytest.warns(UserWarning, match="do not sum to one") as record:
            fastauc.log_loss(Y, P)
        assert record[0].filename == __file__


def test_samples_average_and_odd_indicators_take_the_cpu_path():
    """``average="samples"`` (a metric per row) runs on host copies; so do 2-D
    labels that are no indicator (the CPU path's error)."""
    from fastauc._device.arrays import HOST
    from fastauc._device.metrics import DEVICE

    Y, S, _, _, _ = _columns_problem()
    engine = engine_for({"y_score": S})
    assert DEVICE["average_precision_score"](engine, Y, S, "samples", 1, None) is HOST
    got = quiet(on_device, fastauc.average_precision_score, Y, S, average="samples")
    assert got == quiet(fastauc.average_precision_score, Y, S, average="samples")
    three = Y.astype(np.int64)
    three[0, 0] = 2
    errors = []
    for device in ("cpu", "cuda"):
        with fastauc.config_context(device=device), pytest.raises(ValueError) as info:
            fastauc.roc_auc_score(three, S)
        errors.append(str(info.value))
    assert errors[0] == errors[1] and "format is not supported" in errors[0]


@settings(max_examples=40, deadline=None)
@given(n=st.integers(2, 40), seed=st.integers(0, 2**32 - 1), grouped=st.booleans(),
       weighted=st.booleans(), rates=st.booleans())
def test_aum_on_the_device(n, seed, grouped, weighted, rates):
    """AUM's value and gradient (a rounding apart: 1e-12 of the largest of
    them), with ties, groups (some with one class) and zero weights."""
    rng = np.random.default_rng(seed)
    y = rng.random(n) < rng.random()
    s = np.round(rng.standard_normal(n), int(rng.integers(0, 3)))
    w = rng.choice((0.0, 1.0, 2.0, 0.3), n) if weighted else None
    g = rng.integers(0, 4, n) if grouped else None
    call = dict(loss="aum", sample_weight=w, groups=g, normalize=rates, hessian=True)
    try:
        cpu = quiet(fastauc.pairwise_loss_gradient, y, s, **call)
    except ValueError as exc:  # every weight zero: the same error
        with pytest.raises(ValueError, match="weight"):
            quiet(on_device, fastauc.pairwise_loss_gradient, y, s, **call)
        assert "weight" in str(exc)
        return
    if cpu[0] == 0 and not np.any(cpu[1]):  # no pair: left to the no-pair tests
        return
    dev = quiet(on_device, fastauc.pairwise_loss_gradient, y, s, **call)
    scale = max(abs(cpu[0]), float(np.abs(cpu[1]).max()), 1e-3)
    assert abs(dev[0] - cpu[0]) <= 1e-12 * scale
    assert np.abs(dev[1] - cpu[1]).max() <= 1e-12 * scale
    assert not np.any(dev[2])


def test_aum_computes_on_the_device():
    rng = np.random.default_rng(5)
    y = rng.random(60) < 0.3
    s = np.round(rng.standard_normal(60), 1)
    w = rng.random(60)
    for groups in (None, rng.integers(0, 3, 60)):
        for rates in (True, False):
            computed_on_the_device("pairwise_loss", y, s, loss="aum", sample_weight=w,
                                   groups=groups, normalize=rates)


# ------------------------------------------------------------------ weight invariances

def _device_groups():
    """The weighted registry entries the device computes, by invariance and
    data kind (one drawn problem checks a kind's entries together); the
    bootstraps (``slow``) are left to the tests above, their replicates
    being the CPU's."""
    from fastauc._device.metrics import DEVICE

    from .registry import INVARIANCES, WEIGHTED

    out = []
    for name in INVARIANCES:
        kinds = {}
        for c in WEIGHTED:
            if c.function in DEVICE and name in c.invariances and not c.slow:
                key = "binary" if c.data.from_binary is not None else c.data.name
                kinds.setdefault(key, []).append(c)
        out += [pytest.param(name, entries, id=f"{name}-{kind}")
                for kind, entries in sorted(kinds.items())]
    return out


def _invariance_draws(name):
    return {"unit": (inv.unit, False, st.just(())),
            "repeat": (inv.repeat, False, st.tuples(inv.REPS)),
            "zero": (inv.zero, False, st.tuples(st.integers(0, 39))),
            "scale": (inv.scale, True, st.tuples(st.sampled_from(inv.SCALES))),
            "shuffle": (inv.shuffle, None, st.tuples(inv.SEED))}[name]


@pytest.mark.parametrize("name,entries", _device_groups())
@settings(max_examples=5, deadline=None)
@given(data=st.data())
def test_weight_invariances_on_the_device(name, entries, data):
    """scikit-learn's weight invariances (tests/test_invariances.py), each
    entry computed on the device."""
    from hypothesis import assume

    check, weights, extra = _invariance_draws(name)
    raw = data.draw(inv.problems(entries[0].data, weights=weights))
    args = data.draw(extra)
    with fastauc.config_context(device="cuda"):
        assume(inv._all(check, entries, raw, *args))


# ------------------------------------------------------------------ bootstrap

@pytest.mark.parametrize("weighted", [False, True])
def test_poisson_replicates_are_the_cpu_replicates(weighted):
    rng = np.random.default_rng(3)
    y = rng.random(300) < 0.3
    s = np.round(rng.standard_normal(300) + y, 1)
    w = rng.integers(0, 4, 300).astype(float) if weighted else None
    kw = dict(n_resamples=24, random_state=5, scheme="poisson", sample_weight=w)
    cpu = fastauc.bootstrap_ci(y, s, **kw)
    dev = on_device(fastauc.bootstrap_ci, y, s, **kw)
    assert exact_bits(dev.replicates) == exact_bits(cpu.replicates)
    assert (dev.estimate, dev.low, dev.high, dev.se) == (cpu.estimate, cpu.low, cpu.high, cpu.se)


def test_paired_bootstrap_on_the_device():
    """Poisson: the CPU's replicates of both models; multinomial: both models
    read each replicate's one set of counts (identical scores differ by 0)."""
    rng = np.random.default_rng(8)
    y = rng.random(200) < 0.4
    a = np.round(rng.standard_normal(200) + y, 1)
    b = np.round(a + rng.standard_normal(200), 1)
    kw = dict(n_resamples=16, random_state=2, scheme="poisson")
    cpu = fastauc.bootstrap_test(y, a, b, **kw)
    dev = on_device(fastauc.bootstrap_test, y, a, b, **kw)
    assert exact_bits(dev.replicates) == exact_bits(cpu.replicates)
    assert (dev.statistic, dev.pvalue, dev.low, dev.high) == \
        (cpu.statistic, cpu.pvalue, cpu.low, cpu.high)
    same = on_device(fastauc.bootstrap_test, y, a, a, n_resamples=8, random_state=2)
    assert np.array_equal(same.replicates[:, 0], same.replicates[:, 1])
    assert same.difference == 0.0 and same.statistic == 0.0


def test_chunks_join_to_the_whole(monkeypatch):
    """Many small chunks (cut at tie-group starts) give the replicates one
    chunk gives: the join in chunk order is exact for counts."""
    from fastauc._device import resample

    rng = np.random.default_rng(4)
    y = rng.random(200) < 0.4
    s = np.round(rng.standard_normal(200), 1)  # long tie groups
    kw = dict(n_resamples=16, random_state=1, scheme="poisson")
    whole = on_device(fastauc.bootstrap_ci, y, s, **kw).replicates
    monkeypatch.setattr(resample, "CHUNK_ROWS", 7)
    monkeypatch.setattr(resample, "BATCH_BYTES", 24 * 30 * 5)  # batches of a few replicates
    assert exact_bits(on_device(fastauc.bootstrap_ci, y, s, **kw).replicates) == \
        exact_bits(whole)


def test_multinomial_replicates_reproducible_and_stratified():
    rng = np.random.default_rng(6)
    y = rng.random(150) < 0.3
    s = rng.standard_normal(150) + y
    kw = dict(n_resamples=20, random_state=9)
    a = on_device(fastauc.bootstrap_ci, y, s, **kw)
    b = on_device(fastauc.bootstrap_ci, y, s, **kw)
    assert exact_bits(a.replicates) == exact_bits(b.replicates)
    assert a.estimate == fastauc.roc_auc_score(y, s)
    assert np.isfinite(a.replicates).all() and len(set(a.replicates.tolist())) > 10
    # every replicate is the AUC of a resample of each class's own size
    from fastauc._device import arrays, resample

    e = arrays.Engine(True, "numpy", None)
    model = resample.Model(e, y, s, None, resample.ROC_AUC, 1.0, "y_score")
    reps = resample.replicates(e, [model], np.uint64(3), 4, "multinomial", True)[:, 0]
    from fastauc._kernels.resampling import uniform_pick

    pos, neg = np.flatnonzero(y), np.flatnonzero(~y)
    rows, n_pos = np.concatenate((pos, neg)), pos.shape[0]
    for r in range(4):
        counts = np.zeros(150, np.int64)
        for j in range(150):
            lo, hi = (0, n_pos) if j < n_pos else (n_pos, 150)
            counts[rows[lo + uniform_pick(np.uint64(3), r, j, hi - lo)]] += 1
        assert counts[y].sum() == n_pos  # stratified: each class keeps its size
        idx = np.repeat(np.arange(150), counts)
        assert reps[r] == fastauc.roc_auc_score(y[idx], s[idx])


@pytest.mark.parametrize("options", [
    dict(metric="average_precision"), dict(metric="log_loss"), dict(max_fpr=0.3),
    dict(method="bca"), dict(metric="log_loss", method="bca"), dict(method="basic"),
], ids=["ap", "log_loss", "partial", "bca", "log_loss-bca", "basic"])
@pytest.mark.parametrize("weighted", [False, True])
def test_poisson_bootstrap_of_every_metric_is_the_cpus(options, weighted):
    """The second walk (average precision, partial AUC, log loss) and BCa's
    jackknife on the device: the CPU path's replicates and interval, to
    rounding (their sums run in another order)."""
    rng = np.random.default_rng(5)
    y = rng.random(240) < 0.35
    p = 1.0 / (1.0 + np.exp(-np.round(rng.standard_normal(240) + y, 1)))
    w = rng.integers(0, 4, 240).astype(float) if weighted else None
    kw = dict(n_resamples=20, random_state=4, scheme="poisson", sample_weight=w, **options)
    cpu = fastauc.bootstrap_ci(y, p, **kw)
    dev = on_device(fastauc.bootstrap_ci, y, p, **kw)
    assert_close({f: getattr(dev, f) for f in ("estimate", "low", "high", "se", "replicates")},
                 {f: getattr(cpu, f) for f in ("estimate", "low", "high", "se", "replicates")},
                 1e-12)
    a = p + 0.1 * np.round(rng.standard_normal(240), 1)
    a = np.clip(a, 0.0, 1.0)
    cpu = fastauc.bootstrap_test(y, p, a, **kw)
    dev = on_device(fastauc.bootstrap_test, y, p, a, **kw)
    assert_close({f: getattr(dev, f) for f in ("difference", "low", "high", "se", "pvalue")},
                 {f: getattr(cpu, f) for f in ("difference", "low", "high", "se", "pvalue")},
                 1e-12)


# ------------------------------------------------------------------ bad input

BAD = [p for p in GENERIC if dispatched(p.values[0].function)]


@pytest.mark.parametrize("entry,mutation", BAD)
def test_bad_input_same_error_as_the_cpu(entry, mutation):
    _, spoil, exc, _ = MUTATIONS[mutation]
    d, w = spoil(entry, entry.data(np.random.default_rng(0), 8), np.ones(8))
    errors = []
    for device in ("cpu", "cuda"):
        with fastauc.config_context(device=device), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            with pytest.raises(exc) as info:
                entry(d, w if entry.weights else None)
        errors.append((type(info.value), str(info.value)))
    assert errors[1] == errors[0]


@pytest.mark.parametrize("call", [
    lambda: fastauc.roc_auc_score([0, 1, 1], ["a", "b", "c"]),
    lambda: fastauc.roc_auc_score(["a", "b", "c"], [0.1, 0.2, 0.3]),
    lambda: fastauc.roc_curve([0, 1, 2], [0.1, 0.2, 0.3]),
    lambda: fastauc.roc_auc_score([0, 1], [0.1, 0.2], sample_weight=[1.0, -1.0]),
    lambda: fastauc.roc_auc_score([0, 1], [0.1, np.inf]),
    lambda: fastauc.roc_auc_score([0, 1, 1], [0.1, 0.2]),
    lambda: fastauc.delong_test([0, 1, 1], [0.1, 0.2, 0.3], [0.1, 0.2]),
    lambda: fastauc.roc_auc_score([0.5, 1.5, 0.5], [0.1, 0.2, 0.3]),
])
def test_more_bad_input_same_error(call):
    errors = []
    for device in ("cpu", "cuda"):
        with fastauc.config_context(device=device), pytest.raises((ValueError, TypeError)) \
                as info:
            call()
        errors.append((type(info.value), str(info.value)))
    assert errors[1] == errors[0]


def test_string_labels_and_pos_label():
    y = np.array(["no", "yes", "yes", "no", "yes"])
    s = np.array([0.1, 0.8, 0.3, 0.35, 0.9])
    for call in (lambda: fastauc.roc_auc_score(y, s),
                 lambda: fastauc.roc_curve(y, s, pos_label="yes"),
                 lambda: fastauc.precision_recall_curve(y, s, pos_label="yes")):
        assert exact_bits(on_device(call)) == exact_bits(call())


def test_float16_scores_are_widened_exactly():
    rng = np.random.default_rng(1)
    y = rng.random(100) < 0.5
    s = (rng.standard_normal(100) + y).astype(np.float16)
    assert on_device(fastauc.roc_auc_score, y, s) == \
        fastauc.roc_auc_score(y, s.astype(np.float32))


def test_inputs_are_not_modified():
    y = np.array([0, 1, 1, 0, 1])
    s = np.array([0.2, 0.9, 0.4, 0.5, 0.7])
    w = np.array([1.0, 2.0, 0.0, 1.0, 3.0])
    copies = [a.copy() for a in (y, s, w)]
    on_device(fastauc.roc_curve, y, s, sample_weight=w)
    on_device(fastauc.bootstrap_ci, y, s, sample_weight=w, n_resamples=5, scheme="poisson")
    for a, b in zip((y, s, w), copies):
        assert np.array_equal(a, b)


def test_results_in_the_scores_library_and_device():
    """device='cuda' on CPU tensors (simulated here; a real GPU computes
    there): CPU tensors back, as the CPU path gives them, with the CPU
    path's dtypes and values; numpy scores give numpy."""
    torch = pytest.importorskip("torch", reason="torch is not installed (the torch extra)")
    rng = np.random.default_rng(2)
    y = rng.random(200) < 0.4
    s = np.round(rng.standard_normal(200) + y, 1).astype(np.float32)
    P = rng.dirichlet(np.ones(3), 200)
    k = rng.integers(0, 3, 200)
    calls = [(fastauc.roc_curve, (y, s)), (fastauc.precision_recall_curve, (y, s)),
             (fastauc.det_curve, (y, s)),
             (lambda a, b: fastauc.roc_auc_score(a, b, multi_class="ovr", average=None), (k, P)),
             (fastauc.delong_covariance, (y, np.column_stack((s, s ** 2)))),
             (lambda a, b: fastauc.pairwise_loss_gradient(a, b, hessian=True), (y, s))]
    for call, (a, b) in calls:
        ref = call(a, b)
        for result in (on_device(call, torch.as_tensor(a), torch.as_tensor(b)),
                       on_device(call, a, torch.as_tensor(b)), call(a, torch.as_tensor(b))):
            for r, t in zip(ref if isinstance(ref, tuple) else (ref,),
                            result if isinstance(result, tuple) else (result,)):
                if isinstance(r, float):
                    assert type(t) is float and t == pytest.approx(r, rel=1e-12)
                    continue
                assert isinstance(t, torch.Tensor) and t.device.type == "cpu", call
                assert str(t.dtype) == f"torch.{r.dtype}", (call, t.dtype, r.dtype)
                # the values (the device's DeLong sums may differ in the last bit)
                np.testing.assert_allclose(t.numpy(), r, rtol=1e-12, atol=0)
        numpy_in = on_device(call, a, b)
        assert not any(isinstance(r, torch.Tensor)
                       for r in (numpy_in if isinstance(numpy_in, tuple) else (numpy_in,)))


# ------------------------------------------------------------------ configuration

def test_config_context_is_per_thread_and_restored():
    assert fastauc.get_config() == {"device": "auto"}
    seen = []
    with fastauc.config_context(device="cuda"):
        assert fastauc.get_config()["device"] == "cuda"
        t = threading.Thread(target=lambda: seen.append(fastauc.get_config()["device"]))
        t.start()
        t.join()
        with fastauc.config_context(device="cpu"):
            assert fastauc.get_config()["device"] == "cpu"
        assert fastauc.get_config()["device"] == "cuda"
    assert fastauc.get_config()["device"] == "auto"
    assert seen == ["auto"]


def test_set_config_and_bad_device():
    try:
        fastauc.set_config(device="cpu")
        assert fastauc.get_config()["device"] == "cpu"
        assert _config._global["device"] == "cpu"
    finally:
        fastauc.set_config(device="auto")
    with pytest.raises(ValueError, match="device must be one of"):
        fastauc.set_config(device="gpu")
    with pytest.raises(ValueError, match="device must be one of"):
        with fastauc.config_context(device="tpu"):
            pass


class _FakeDevice:
    """An object that says it lives on CUDA device ``k`` (DLPack), nothing more:
    enough for the checks that run before any array is read."""

    def __init__(self, k):
        self.k = k

    def __dlpack_device__(self):
        return (2, self.k)


def test_where_arrays_live():
    assert cuda_device(np.zeros(3)) is None
    assert cuda_device([1, 2]) is None
    assert cuda_device(None) is None
    assert cuda_device(_FakeDevice(1)) == 1


def test_arrays_on_two_devices_raise_naming_both():
    with pytest.raises(ValueError, match="y_score on cuda:0, y_true on cuda:1"):
        engine_for({"y_score": _FakeDevice(0), "y_true": _FakeDevice(1)})


def test_cuda_without_a_gpu_raises_clearly():
    code = ("import fastauc\n"
            "with fastauc.config_context(device='cuda'):\n"
            "    fastauc.roc_auc_score([0, 1], [0.1, 0.2])\n")
    env = {**os.environ, "NUMBA_ENABLE_CUDASIM": "0"}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         timeout=120)
    if out.returncode == 0:
        pytest.skip("this machine has a CUDA GPU")
    assert "ValueError: device='cuda' cannot run" in out.stderr, out.stderr[-2000:]
    from fastauc._device import _driver_gpus

    if not _driver_gpus()[0]:  # no GPU at all (not merely no CuPy): said first
        assert "cannot run: no CUDA GPU found (checked: " in out.stderr, out.stderr[-2000:]
    # the default, device='auto', computes on the CPU there
    auto = subprocess.run([sys.executable, "-c", "import fastauc; print(fastauc.roc_auc_score("
                           "[0, 1], [0.1, 0.2]))"], env=env, capture_output=True, text=True,
                          timeout=120)
    assert auto.stdout.strip() == "1.0", auto.stderr[-2000:]


def _nvvm_available() -> bool:
    """numba-cuda's compiler libraries are installed (``numba-cuda[cu13]``)."""
    try:
        from cuda.pathfinder import load_nvidia_dynamic_lib

        load_nvidia_dynamic_lib("nvvm")
        load_nvidia_dynamic_lib("nvrtc")
    except Exception:  # noqa: BLE001 - not found, whatever the reason
        return False
    return True


@pytest.mark.skipif(not _nvvm_available(), reason="NVVM/NVRTC not installed (numba-cuda[cu13])")
def test_device_kernels_compile_to_ptx():
    """The simulator does not type-check: compile every device kernel for
    sm_90 (an H100) with the real compiler, no GPU needed."""
    script = os.path.join(os.path.dirname(__file__), "..", "benchmarks", "gpu_compile_check.py")
    env = {**os.environ, "NUMBA_ENABLE_CUDASIM": "0"}
    out = subprocess.run([sys.executable, script], env=env, capture_output=True, text=True,
                         timeout=600)
    assert out.returncode == 0, out.stderr[-3000:]
    assert "all device kernels compiled" in out.stdout


# ------------------------------------------------------------------ a real GPU

def _torch_cuda():
    if SIMULATED:
        return None
    try:
        import torch
    except ImportError:
        return None
    return torch if torch.cuda.is_available() else None


gpu = pytest.mark.skipif(_torch_cuda() is None, reason="needs a CUDA GPU and torch")


@gpu
def test_torch_tensors_in_torch_tensors_out():
    torch = _torch_cuda()
    g = torch.Generator(device="cuda").manual_seed(0)
    y = torch.rand(10_000, device="cuda", generator=g) < 0.3
    s = (torch.randn(10_000, device="cuda", generator=g) + y).requires_grad_()
    auc = fastauc.roc_auc_score(y, s)
    assert auc == fastauc.roc_auc_score(y.cpu().numpy(), s.detach().cpu().numpy())
    fpr, tpr, thr = fastauc.roc_curve(y, s)
    assert isinstance(fpr, torch.Tensor) and fpr.is_cuda
    ref = fastauc.roc_curve(y.cpu().numpy(), s.detach().cpu().numpy())
    assert np.array_equal(fpr.cpu().numpy(), ref[0])
    b16 = fastauc.roc_auc_score(y, s.detach().bfloat16())
    assert b16 == fastauc.roc_auc_score(y.cpu().numpy(),
                                        s.detach().bfloat16().float().cpu().numpy())


@gpu
def test_cuda_tensors_computed_on_the_cpu_come_back_on_the_gpu():
    """The same rule where the CPU computes: device='cpu', and a function
    without a device implementation (the confidence band)."""
    torch = _torch_cuda()
    y = torch.rand(1000, device="cuda") < 0.3
    s = torch.randn(1000, device="cuda", dtype=torch.float64) + y
    with fastauc.config_context(device="cpu"):
        fpr, tpr, thr = fastauc.roc_curve(y, s)
    assert fpr.is_cuda and thr.is_cuda and fpr.dtype == torch.float64
    ref = fastauc.roc_curve(y.cpu().numpy(), s.cpu().numpy())
    assert np.array_equal(thr.cpu().numpy(), ref[2])
    band = fastauc.roc_confidence_band(y, s, n_resamples=20, random_state=0)
    assert all(isinstance(b, torch.Tensor) and b.is_cuda for b in band)


@gpu
def test_torch_side_stream_is_ordered_with_the_device_path():
    """Scores written on a busy torch stream that is current at the call:
    the device path reads them after the write (DLPack orders CuPy's stream
    after torch's), and torch reads the results after CuPy wrote them."""
    torch = _torch_cuda()
    n = 1_000_000
    g = torch.Generator(device="cuda").manual_seed(1)
    y = torch.rand(n, device="cuda", generator=g) < 0.2
    base = torch.randn(n, device="cuda", generator=g)
    side = torch.cuda.Stream()
    torch.cuda.synchronize()
    with torch.cuda.stream(side):
        torch.cuda._sleep(100_000_000)  # the write below waits behind this
        s = torch.empty(n, device="cuda")
        s.copy_(base * 3 + y)
        auc = fastauc.roc_auc_score(y, s)
        fpr, tpr, thr = fastauc.roc_curve(y, s)
        total = float((fpr.double() + tpr.double()).sum())
    torch.cuda.synchronize()
    yh, sh = y.cpu().numpy(), s.cpu().numpy()
    assert auc == fastauc.roc_auc_score(yh, sh)
    ref = fastauc.roc_curve(yh, sh)
    assert np.array_equal(fpr.cpu().numpy(), ref[0])
    assert total == pytest.approx(float(ref[0].sum() + ref[1].sum()), rel=1e-12)


def _jax_gpu():
    if SIMULATED:
        return None
    try:
        import jax
        return jax.devices("gpu")[0]
    except Exception:  # noqa: BLE001 - no JAX, or no GPU backend for it
        return None


@pytest.mark.skipif(_jax_gpu() is None, reason="needs JAX with a CUDA GPU")
def test_jax_arrays_in_jax_arrays_out():
    import jax

    device = _jax_gpu()
    rng = np.random.default_rng(4)
    y = rng.random(20_000) < 0.3
    s = (rng.standard_normal(20_000) + y).astype(np.float32)
    w = rng.random(20_000).astype(np.float32)
    yj, sj, wj = (jax.device_put(a, device) for a in (y, s, w))
    if not jax.config.read("jax_enable_x64"):  # JAX's default: float64 results held as float32
        fpr = fastauc.roc_curve(yj, sj)[0]
        assert fpr.dtype == np.float32 and np.array_equal(
            np.asarray(fpr), fastauc.roc_curve(y, s)[0].astype(np.float32))
    previous = jax.config.read("jax_enable_x64")
    jax.config.update("jax_enable_x64", True)
    try:
        _jax_results_are_the_cpus(jax, device, y, s, w, yj, sj, wj)
    finally:
        jax.config.update("jax_enable_x64", previous)


def _jax_results_are_the_cpus(jax, device, y, s, w, yj, sj, wj):
    assert fastauc.roc_auc_score(yj, sj) == fastauc.roc_auc_score(y, s)
    assert fastauc.roc_auc_score(yj, sj, sample_weight=wj) == pytest.approx(
        fastauc.roc_auc_score(y, s, sample_weight=w), rel=1e-12)
    fpr, tpr, thr = fastauc.roc_curve(yj, sj)
    assert isinstance(fpr, jax.Array) and fpr.devices() == {device}
    ref = fastauc.roc_curve(y, s)
    assert np.array_equal(np.asarray(fpr), ref[0]) and np.array_equal(np.asarray(thr), ref[2])
    a, b = fastauc.roc_auc_ci(yj, sj), fastauc.roc_auc_ci(y, s)
    assert (a.estimate, a.se) == pytest.approx((b.estimate, b.se), rel=1e-12)
    kw = dict(n_resamples=50, random_state=0, scheme="poisson")
    assert np.array_equal(np.asarray(fastauc.bootstrap_ci(yj, sj, **kw).replicates),
                          fastauc.bootstrap_ci(y, s, **kw).replicates)


@settings(max_examples=40, deadline=None)
@given(problem=binary_problems(max_size=40, weights=False), scale=st.sampled_from(
    [1.0, 1e-40, 1e-44]))
def test_subnormal_and_signed_zero_scores_give_the_cpu_bits(problem, scale):
    """float32 scores with subnormals (a sigmoid far in its tail) and both
    zeros: the device orders and converts them as the CPU path does (CuPy's
    own kernels would read a subnormal as zero)."""
    y, s, _ = problem
    s = np.clip(s, -1e30, 1e30).astype(np.float32)
    s = np.where(s == 0, np.float32(-0.0), s).astype(np.float32)
    s[::3] *= np.float32(scale)
    for call in (fastauc.roc_auc_score, fastauc.roc_curve, fastauc.precision_recall_curve,
                 lambda y, s: fastauc.roc_auc_ci(y, s).estimate,
                 lambda y, s: fastauc.delong_test(y, s, s[::-1].copy()).difference):
        assert exact_bits(quiet(on_device, call, y, s)) == exact_bits(quiet(call, y, s))


def test_float32_scores_widen_exactly_when_one_is_subnormal():
    from fastauc._device import validation as dv
    from fastauc._device.arrays import Engine

    e = Engine(True, "numpy", None)
    normal = np.array([0.5, -0.0, 1e-30, -3.0], np.float32)
    assert dv.as_float(e, normal, True).dtype == np.float32
    assert dv.as_float(e, normal, False).dtype == np.float64
    tiny = np.array([0.5, 1e-40, -1e-45, 0.0], np.float32)
    wide = dv.as_float(e, tiny, True)
    assert wide.dtype == np.float64 and np.array_equal(wide, tiny.astype(np.float64))
    assert wide[1] != 0 and wide[2] < 0  # kept, not flushed
    assert dv.as_float(e, tiny.reshape(2, 2), True).shape == (2, 2)


def test_gpu_page_from_saved_outputs(tmp_path):
    """``gpu_benchmark.py --page`` (no GPU): the saved device outputs become
    the benchmarks page's section, replaced in place on a second write."""
    import importlib.util

    root = os.path.join(os.path.dirname(__file__), "..", "benchmarks")
    spec = importlib.util.spec_from_file_location("gpu_benchmark",
                                                  os.path.join(root, "gpu_benchmark.py"))
    gb = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gb)
    runs = os.path.join(root, "device_runs")
    page = tmp_path / "page.md"
    page.write_text("# Benchmarks\n\nbefore\n")
    saved = [os.path.join(runs, f) for f in ("h200_machine.txt", "h200_device.md",
                                             "h200_peers_and_cpu.md")]
    for _ in range(2):
        gb.write_page(*saved, page=str(page))
    text = page.read_text()
    assert text.count(gb.BEGIN) == 1 and text.startswith("# Benchmarks") and "before" in text
    assert "NVIDIA H200" in text and "| parity: roc_auc_score | equal bits | ok |" in text
    assert "| fastauc on the CPU cores: `roc_auc_score`, 1e+08 |" in text


def test_docstrings_say_what_runs_on_the_gpu():
    from fastauc._device import DEVICE_NOTES, HOST_NOTE
    from fastauc._device.metrics import DEVICE

    assert set(DEVICE_NOTES) == set(DEVICE)
    for name in fastauc.__all__:
        f = getattr(fastauc, name)
        if dispatched(name):
            assert "On the GPU" in f.__doc__, name
            assert (DEVICE_NOTES.get(name, HOST_NOTE)[:40].split()[0]) in f.__doc__, name


def test_cli_report_bootstrap_on_the_device(tmp_path):
    """``fastauc report --ci bootstrap --device cuda``: the bootstrap intervals
    on the device (simulated here): the Poisson scheme's are the CPU's, the
    multinomial scheme's are drawn by the device's own generator."""
    import json

    rng = np.random.default_rng(0)
    n = 600
    y = rng.integers(0, 2, n)
    p = np.round(1 / (1 + np.exp(-(y + rng.normal(size=n)))), 3)
    path = tmp_path / "scores.csv"
    path.write_text("y,p\n" + "".join(f"{a},{b!r}\n" for a, b in zip(y, p.tolist())))
    out = {}
    for device in ("cpu", "cuda"):
        proc = subprocess.run(
            [sys.executable, "-m", "fastauc", "report", str(path), "--target", "y",
             "--score", "p", "--ci", "bootstrap", "--scheme", "poisson", "--n-resamples",
             "20", "--device", device, "--json"], capture_output=True, text=True,
            timeout=300, env={**os.environ, "NUMBA_ENABLE_CUDASIM": "1"})
        assert proc.returncode == 0, proc.stderr[-2000:]
        out[device] = json.loads(proc.stdout)["models"][0]
    # the calibration block comes from the device's table: the CPU's to rounding
    cal = {d: out[d].pop("calibration") for d in out}
    assert_close(cal["cuda"], cal["cpu"], 1e-12)
    assert out["cuda"] == out["cpu"]
    # the multinomial scheme: the device's own draws (so the device ran them)
    kw = dict(ci="bootstrap", n_resamples=20, random_state=0)
    cpu = fastauc.report(y, p, **kw).to_dict()["models"][0]
    dev = on_device(fastauc.report, y, p, **kw).to_dict()["models"][0]
    assert dev["auc"] == cpu["auc"] and dev["auc_low"] != cpu["auc_low"]


@pytest.mark.parametrize("name, call", [
    ("coords", lambda y, p, w: fastauc.coords(y, p, [0.3, 0.9], input="specificity", ret="all",
                                              sample_weight=w)),
    ("reliability_curve", lambda y, p, w: fastauc.reliability_curve(y, p, sample_weight=w)),
    ("reliability_curve", lambda y, p, w: fastauc.reliability_curve(
        y, p, method="quantile", n_bins=3, sample_weight=w)),
    ("brier_decomposition", lambda y, p, w: fastauc.brier_decomposition(y, p, sample_weight=w)),
    ("calibration_error", lambda y, p, w: fastauc.calibration_error(y, p, norm="l2",
                                                                    sample_weight=w)),
])
def test_table_results_compute_on_the_device(name, call, monkeypatch):
    """The device sorts and tallies; the table's results equal the CPU's, and
    the device implementation answered (not the host fallback)."""
    from fastauc._device import metrics, tables

    answered = []
    original = metrics.DEVICE[name]
    monkeypatch.setitem(metrics.DEVICE, name, lambda *a, **k: answered.append(
        original(*a, **k)) or answered[-1])
    rng = np.random.default_rng(3)
    y = rng.integers(0, 2, 60)
    p = np.round(rng.random(60), 1)  # ties
    w = rng.choice((0.0, 0.5, 1.0, 2.0), 60)
    def plain(r):  # records as dicts of numbers
        r = getattr(r, "columns", r)
        return dict(vars(r)) if hasattr(r, "__dataclass_fields__") else r

    for weights in (None, w):
        assert_close(plain(on_device(call, y, p, weights)), plain(call(y, p, weights)), 1e-12)
    assert answered and all(a is not tables.HOST for a in answered)
    # what the CPU path must judge comes back to it, with its words
    with pytest.raises(ValueError) as cpu:
        fastauc.reliability_curve(y, p + 1.0)
    with pytest.raises(ValueError) as dev:
        on_device(fastauc.reliability_curve, y, p + 1.0)
    assert str(dev.value) == str(cpu.value)
