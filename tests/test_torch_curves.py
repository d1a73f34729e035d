"""fastauc.torch's curve metrics (BinaryROC, BinaryPrecisionRecallCurve, the
four operating points, BinaryCalibrationError) against torchmetrics' classes
and functions (exact and binned, float16/32/64 scores, several batches,
forward, reset, empty compute), against fastauc's in-memory functions with
weights, on both engines, and across two real torch.distributed (gloo)
processes."""

from __future__ import annotations

import math
import os
import socket
import warnings
import zlib

import numpy as np
import pytest

torch = pytest.importorskip("torch")
tmc = pytest.importorskip("torchmetrics.classification")
tmf = pytest.importorskip("torchmetrics.functional.classification")

import fastauc  # noqa: E402
import fastauc._torch_metrics as tm  # noqa: E402
from fastauc.torch import (  # noqa: E402
    BinaryCalibrationError,
    BinaryPrecisionAtFixedRecall,
    BinaryPrecisionRecallCurve,
    BinaryROC,
    BinaryRecallAtFixedPrecision,
    BinarySensitivityAtSpecificity,
    BinarySpecificityAtSensitivity,
)

OURS = {
    "BinaryROC": BinaryROC,
    "BinaryPrecisionRecallCurve": BinaryPrecisionRecallCurve,
    "BinarySensitivityAtSpecificity": BinarySensitivityAtSpecificity,
    "BinarySpecificityAtSensitivity": BinarySpecificityAtSensitivity,
    "BinaryPrecisionAtFixedRecall": BinaryPrecisionAtFixedRecall,
    "BinaryRecallAtFixedPrecision": BinaryRecallAtFixedPrecision,
}
FUNCTIONAL = {
    "BinaryROC": tmf.binary_roc,
    "BinaryPrecisionRecallCurve": tmf.binary_precision_recall_curve,
    "BinarySensitivityAtSpecificity": tmf.binary_sensitivity_at_specificity,
    "BinarySpecificityAtSensitivity": tmf.binary_specificity_at_sensitivity,
    "BinaryPrecisionAtFixedRecall": tmf.binary_precision_at_fixed_recall,
    "BinaryRecallAtFixedPrecision": tmf.binary_recall_at_fixed_precision,
}
MINIMUM = {
    "BinarySensitivityAtSpecificity": "min_specificity",
    "BinarySpecificityAtSensitivity": "min_sensitivity",
    "BinaryPrecisionAtFixedRecall": "min_recall",
    "BinaryRecallAtFixedPrecision": "min_precision",
}
CURVES = ("BinaryROC", "BinaryPrecisionRecallCurve")


@pytest.fixture(params=[True, False], ids=["numba", "torch"])
def engine(request, monkeypatch):
    """Both engines: fastauc's Numba kernels for CPU tensors, and the torch
    operations CUDA tensors take (run here on the CPU)."""
    monkeypatch.setattr(tm, "HOST_KERNELS", request.param)
    return request.param


def _batches(seed, k=4, dtype=torch.float32, logits=False, weighted=False):
    """Batches with ties (scores rounded), of one dtype; probabilities, or
    logits (a sigmoid for torchmetrics)."""
    g = torch.Generator().manual_seed(seed)
    out = []
    for _ in range(k):
        n = int(torch.randint(20, 200, (1,), generator=g))
        y = (torch.rand(n, generator=g) < 0.35).long()
        if logits:
            s = torch.round((torch.randn(n, generator=g) * 2 + y) * 4) / 4
        else:
            s = torch.round(torch.rand(n, generator=g) * 40) / 40
        w = torch.randint(0, 4, (n,), generator=g).to(torch.float64) / 2 if weighted else None
        out.append((s.to(dtype), y, w))
    return out


def _kwargs(name, minimum, thresholds=None):
    kw = {} if name in CURVES else {MINIMUM[name]: minimum}
    if thresholds is not None:
        kw["thresholds"] = thresholds
    return kw


def _same(ours, theirs, exact=True):
    """Our float64 tensors are torchmetrics' values (float32 rates: ours
    rounded; thresholds: ours are the scores widened)."""
    if isinstance(theirs, torch.Tensor):
        ours, theirs = (ours,), (theirs,)
    assert len(ours) == len(theirs)
    for a, b in zip(ours, theirs):
        assert a.dtype == torch.float64 and a.shape == b.shape
        if exact:
            torch.testing.assert_close(a.to(b.dtype), b, rtol=0, atol=0, equal_nan=True)
        else:  # an operating point's value: torchmetrics computes 1 - fpr in float32
            torch.testing.assert_close(a, b.to(torch.float64), rtol=2e-7, atol=2e-7,
                                       equal_nan=True)


def _equal(ours, ref):
    """Two of our results, to the last bit."""
    ours = ours if isinstance(ours, tuple) else (ours,)
    ref = ref if isinstance(ref, tuple) else (ref,)
    for a, b in zip(ours, ref, strict=True):
        torch.testing.assert_close(a, b, rtol=0, atol=0, equal_nan=True)


class _quiet(warnings.catch_warnings):
    """torchmetrics' warnings and ours about a batch of one class, ignored."""

    def __enter__(self):
        out = super().__enter__()
        warnings.simplefilter("ignore")
        return out


# ------------------------------------------------------------------ torchmetrics

@pytest.mark.parametrize("name", list(OURS))
@pytest.mark.parametrize("thresholds", [None, 11, [0.1, 0.35, 0.5, 0.9]],
                         ids=["exact", "int", "list"])
@pytest.mark.parametrize("dtype", [torch.float16, torch.float32, torch.float64],
                         ids=["f16", "f32", "f64"])
def test_equal_to_torchmetrics_class_and_function(name, thresholds, dtype, engine):
    """Several batches (forward values and updates), then compute: the class's
    and the function's results; every curve exact (float32 rates are ours
    rounded), the operating points' thresholds exact and values to float32."""
    batches = _batches(zlib.crc32(f"{name}{thresholds}{dtype}".encode()), dtype=dtype,
                       logits=dtype == torch.float32)
    kw = _kwargs(name, 0.55, thresholds)
    ours, theirs = OURS[name](**kw), getattr(tmc, name)(**kw)
    exact = name in CURVES
    with _quiet():
        for i, (s, y, _) in enumerate(batches):
            if i % 2 == 0:
                _same(ours(s, y), theirs(s, y), exact)
            else:
                ours.update(s, y)
                theirs.update(s, y)
        _same(ours.compute(), theirs.compute(), exact)
        # (the logits put through a sigmoid batch by batch: torch's vectorised
        # sigmoid may round a value one unit apart elsewhere in a longer tensor)
        s = torch.cat([b[0].sigmoid() if dtype == torch.float32 else b[0] for b in batches])
        y = torch.cat([b[1] for b in batches])
        args = () if name in CURVES else (0.55,)
        _same(ours.compute(), FUNCTIONAL[name](s, y, *args, thresholds=thresholds), exact)


@pytest.mark.parametrize("name", CURVES)
def test_curve_of_logits_without_sigmoid(name, engine):
    """``normalization=None``: the scores ranked as given; torchmetrics'
    values on the same scores (it has the same switch)."""
    batches = _batches(5, logits=True)
    ours = OURS[name](normalization=None)
    theirs = getattr(tmc, name)(normalization=None)
    for s, y, _ in batches:
        ours.update(s, y)
        theirs.update(s, y)
    got, ref = ours.compute(), theirs.compute()
    if name == "BinaryROC":  # a start threshold above every score (torchmetrics says 1.0)
        assert got[2][0] == math.inf and ref[2][0] == 1.0
        got, ref = got[:2], ref[:2]
    _same(got, ref)


@pytest.mark.parametrize("norm", ["l1", "l2", "max"])
@pytest.mark.parametrize("dtype", [torch.float16, torch.float32, torch.float64],
                         ids=["f16", "f32", "f64"])
def test_calibration_error_equals_torchmetrics(norm, dtype, engine):
    """Probabilities of each dtype (and a batch of logits: the sigmoid): the
    class's value; to 1e-12 against torchmetrics on the same probabilities
    as float64, to float32 rounding against its own dtype."""
    batches = _batches(3, dtype=dtype)
    g = torch.Generator().manual_seed(1)
    batches.append(((torch.randn(50, generator=g) * 3).to(dtype), torch.ones(50).long(), None))
    ours = BinaryCalibrationError(n_bins=7, norm=norm)
    theirs = tmc.BinaryCalibrationError(n_bins=7, norm=norm)
    for i, (s, y, _) in enumerate(batches):
        if i % 2:
            batch = ours(s, y)
            assert batch.dtype == torch.float64
            torch.testing.assert_close(batch, theirs(s, y).to(torch.float64), rtol=5e-3,
                                       atol=5e-3)
        else:
            ours.update(s, y)
            theirs.update(s, y)
    got = ours.compute()
    assert got.dtype == torch.float64
    tol = {torch.float16: 5e-3, torch.float32: 1e-5, torch.float64: 1e-12}[dtype]  # its sums
    torch.testing.assert_close(got, theirs.compute().to(torch.float64), rtol=tol, atol=tol)
    probs = torch.cat([b[0] for b in batches[:-1]] + [batches[-1][0].sigmoid()])
    y = torch.cat([b[1] for b in batches])
    ref = tmf.binary_calibration_error(probs.to(torch.float64), y, n_bins=7, norm=norm)
    assert got.item() == pytest.approx(ref.item(), rel=1e-12, abs=1e-12)


# ------------------------------------------------------------------ fastauc's functions

@pytest.mark.parametrize("seed", range(2))
def test_weights_equal_fastauc_functions(seed, engine):
    """Weighted batches (zeros among them): the curves are fastauc.roc_curve's
    and precision_recall_curve's (scikit-learn's start threshold aside), the
    operating points and the calibration error fastauc's functions', to 1e-12."""
    batches = _batches(20 + seed, k=5, dtype=torch.float64, weighted=True)
    mins = dict(min_specificity=0.7, min_sensitivity=0.6, min_recall=0.5, min_precision=0.3)
    metrics = {name: cls(**_kwargs(name, mins.get(MINIMUM.get(name)))) for name, cls in
               OURS.items()}
    metrics["calibration"] = BinaryCalibrationError(n_bins=6)
    for s, y, w in batches:
        for m in metrics.values():
            m.update(s, y, sample_weight=w)
    s = torch.cat([b[0] for b in batches]).numpy()
    y = torch.cat([b[1] for b in batches]).numpy()
    w = torch.cat([b[2] for b in batches]).numpy()

    def close(ours, ref):
        np.testing.assert_allclose(ours.numpy(), np.asarray(ref, np.float64), rtol=1e-12,
                                   atol=1e-12)

    fpr, tpr, thr = metrics["BinaryROC"].compute()
    ref = fastauc.roc_curve(y, s, sample_weight=w, drop_intermediate=False)
    close(fpr, ref[0])
    close(tpr, ref[1])
    close(thr[1:], ref[2][1:])
    assert thr[0] == 1.0
    precision, recall, thr = metrics["BinaryPrecisionRecallCurve"].compute()
    ref = fastauc.precision_recall_curve(y, s, sample_weight=w, drop_intermediate=False)
    for a, b in zip((precision, recall, thr), ref):
        close(a, b)
    functions = {
        "BinarySensitivityAtSpecificity": fastauc.sensitivity_at_specificity,
        "BinarySpecificityAtSensitivity": fastauc.specificity_at_sensitivity,
        "BinaryPrecisionAtFixedRecall": fastauc.precision_at_recall,
        "BinaryRecallAtFixedPrecision": fastauc.recall_at_precision,
    }
    for name, fn in functions.items():
        value, threshold = metrics[name].compute()
        ref = fn(y, s, mins[MINIMUM[name]], sample_weight=w)
        assert value.item() == pytest.approx(ref.value, rel=1e-12, abs=1e-12)
        assert threshold.item() == ref.threshold and not math.isnan(ref.threshold)
    assert metrics["calibration"].compute().item() == pytest.approx(
        fastauc.calibration_error(y, s, n_bins=6, sample_weight=w), rel=1e-12, abs=1e-12)


def test_binned_values_are_the_weight_above_each_threshold(engine):
    """Binned with weights: each threshold's tp and fp are the weight of the
    rows with ``score >= t`` (thresholds in any order, repeated, outside
    the scores)."""
    batches = _batches(8, k=3, dtype=torch.float64, weighted=True)
    thresholds = torch.tensor([0.5, 0.0, 0.975, 0.5, 1.0, 0.3])
    roc, pr = BinaryROC(thresholds=thresholds), BinaryPrecisionRecallCurve(thresholds=thresholds)
    for s, y, w in batches:
        roc.update(s, y, sample_weight=w)
        pr.update(s, y, sample_weight=w)
    s = torch.cat([b[0] for b in batches])
    y = torch.cat([b[1] for b in batches]).bool()
    w = torch.cat([b[2] for b in batches])
    t = thresholds.to(torch.float64)
    tp = torch.stack([(w * (y & (s >= x))).sum() for x in t])
    fp = torch.stack([(w * (~y & (s >= x))).sum() for x in t])
    fpr, tpr, thr = roc.compute()
    torch.testing.assert_close(fpr, (fp / w[~y].sum()).flip(0), rtol=1e-12, atol=1e-12)
    torch.testing.assert_close(tpr, (tp / w[y].sum()).flip(0), rtol=1e-12, atol=1e-12)
    torch.testing.assert_close(thr, t.flip(0))
    precision, recall, thr = pr.compute()
    torch.testing.assert_close(precision[:-1], tp / (tp + fp), rtol=1e-12, atol=1e-12,
                               equal_nan=True)
    torch.testing.assert_close(recall[:-1], tp / w[y].sum(), rtol=1e-12, atol=1e-12)
    assert precision[-1] == 1.0 and recall[-1] == 0.0


# ------------------------------------------------------------------ life of a metric

@pytest.mark.parametrize("name", list(OURS) + ["BinaryCalibrationError"])
def test_empty_compute_reset_and_merge_state(name, engine):
    """compute before any row: torchmetrics' warning and ValueError (exact),
    or its values from an empty confusion matrix (binned); reset forgets;
    merge_state of metrics fed apart is the metric fed everything."""
    make = (lambda **kw: BinaryCalibrationError(n_bins=5)) if name == "BinaryCalibrationError" \
        else (lambda **kw: OURS[name](**_kwargs(name, 0.5, **kw)))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with pytest.raises(ValueError, match="No samples"):
            make().compute()
    assert len(caught) == 1 and "before the ``update``" in str(caught[0].message)
    if name != "BinaryCalibrationError":
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            _same(make(thresholds=5).compute(),
                  getattr(tmc, name)(**_kwargs(name, 0.5, 5)).compute(), name in CURVES)
    batches = _batches(4)
    whole, parts = make(), [make(), make()]
    with _quiet():
        for i, (s, y, _) in enumerate(batches):
            whole.update(s, y)
            parts[i % 2].update(s, y)
            parts[i % 2].compute()  # a sorted run, then more rows
        parts[0].merge_state(parts[1])
        _equal(parts[0].compute(), whole.compute())
        whole.reset()
        assert whole.n_distinct == 0
        s, y, _ = batches[0]
        whole.update(s, y)
        single = make()
        single.update(s, y)
        _equal(whole.compute(), single.compute())


def test_one_class_warns_as_torchmetrics():
    s = torch.tensor([0.2, 0.6, 0.9])
    for cls, words in ((BinaryROC, "No negative samples"),
                       (BinaryPrecisionRecallCurve, "No positive samples")):
        y = torch.ones(3).long() if cls is BinaryROC else torch.zeros(3).long()
        ours, theirs = cls(), getattr(tmc, cls.__name__)()
        with pytest.warns(UserWarning, match=words):
            ours.update(s, y)
            got = ours.compute()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            theirs.update(s, y)
            _same(got, theirs.compute())


def test_ignore_index_and_bad_arguments():
    m = BinaryROC(ignore_index=-1)
    m.update(torch.tensor([0.1, 3.0, 0.5, 0.3]), torch.tensor([0, -1, 1, 1]),
             sample_weight=[1.0, 5.0, 1.0, 1.0])
    # the ignored row's 3.0 is not a logit: no sigmoid, as torchmetrics decides
    _same(m.compute(), tmf.binary_roc(torch.tensor([0.1, 0.5, 0.3]), torch.tensor([0, 1, 1])))
    g = torch.Generator().manual_seed(2)
    s, y = torch.randn(999, generator=g) * 4, torch.randint(-1, 2, (999,), generator=g)
    m, ref = BinaryPrecisionRecallCurve(ignore_index=-1), tmc.BinaryPrecisionRecallCurve(
        ignore_index=-1)
    _same(m(s, y), ref(s, y))  # the logits of the rows kept, put through a sigmoid
    for call, words in [
        (lambda: BinaryROC(thresholds=1), "larger than 1"),
        (lambda: BinaryROC(thresholds=[0.5, 2.0]), r"\[0,1\] range"),
        (lambda: BinaryROC(thresholds="ten"), "integer, list of floats"),
        (lambda: BinaryROC(thresholds=torch.zeros(2, 2)), "1d"),
        (lambda: BinaryROC(max_groups=64), "max_groups"),
        (lambda: BinaryROC(normalization="softmax"), "normalization"),
        (lambda: BinaryROC(ignore_index=0.5), "ignore_index"),
        (lambda: BinarySensitivityAtSpecificity(min_specificity=1.5), "min_specificity"),
        (lambda: BinaryRecallAtFixedPrecision(min_precision=True), "min_precision"),
        (lambda: BinaryCalibrationError(n_bins=0), "n_bins"),
        (lambda: BinaryCalibrationError(norm="l3"), "norm"),
        (lambda: BinaryCalibrationError(max_groups=8), "max_groups"),
        (lambda: BinaryROC().update(torch.tensor([0.1, 0.2]), torch.tensor([0, 2])), "0/1"),
        (lambda: BinaryROC().update(torch.tensor([1, 2]), torch.tensor([0, 1])),
         "floating point"),
    ]:
        with pytest.raises((ValueError, TypeError), match=words):
            call()


@pytest.mark.parametrize("name", CURVES)
def test_plot_is_torchmetrics_plot(name):
    pytest.importorskip("matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    s, y, _ = _batches(6, k=1)[0]
    ours, theirs = OURS[name](), getattr(tmc, name)()
    ours.update(s, y)
    theirs.update(s, y)
    try:
        _, ax = ours.plot(score=True)
        _, ref = theirs.plot(score=True)
        assert ax.get_legend_handles_labels()[1] == ref.get_legend_handles_labels()[1]
        assert (ax.get_xlabel(), ax.get_ylabel()) == (ref.get_xlabel(), ref.get_ylabel())
    finally:
        plt.close("all")


CUDA = torch.cuda.is_available() and os.environ.get("NUMBA_ENABLE_CUDASIM") != "1"


@pytest.mark.skipif(not CUDA, reason="needs a CUDA GPU (and the simulator off)")
@pytest.mark.parametrize("name", list(OURS) + ["BinaryCalibrationError"])
def test_cuda_tensors_give_the_cpu_results(name):
    """On a GPU: the torch engine's table on the device gives the CPU
    metric's results, on the device."""
    make = (lambda: BinaryCalibrationError(n_bins=5)) if name == "BinaryCalibrationError" \
        else (lambda: OURS[name](**_kwargs(name, 0.5)))
    cpu, dev = make(), make().cuda()
    for s, y, w in _batches(9, weighted=True):
        cpu.update(s, y, sample_weight=w)
        dev.update(s.cuda(), y.cuda(), sample_weight=w.cuda())
    got, ref = dev.compute(), cpu.compute()
    got = got if isinstance(got, tuple) else (got,)
    ref = ref if isinstance(ref, tuple) else (ref,)
    for a, b in zip(got, ref, strict=True):
        assert a.is_cuda
        torch.testing.assert_close(a.cpu(), b, rtol=1e-12, atol=1e-12, equal_nan=True)


# ------------------------------------------------------------------ DDP

def _free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _ddp_metrics():
    return {"roc": BinaryROC(), "pr_binned": BinaryPrecisionRecallCurve(thresholds=9),
            "sens": BinarySensitivityAtSpecificity(min_specificity=0.6),
            "recall": BinaryRecallAtFixedPrecision(min_precision=0.5),
            "ce": BinaryCalibrationError(n_bins=6, norm="l2")}


def _rank_main(rank, port, batches, out_dir):
    import torch.distributed as dist

    import fastauc._torch_metrics as metrics_module

    dist.init_process_group("gloo", init_method=f"tcp://127.0.0.1:{port}", rank=rank,
                            world_size=2)
    try:
        for host_kernels in (True, False):
            metrics_module.HOST_KERNELS = host_kernels
            metrics = _ddp_metrics()
            for i, (s, y, w) in enumerate(batches):
                if i % 2 == rank:  # each rank its own batches; rank 1 float64
                    s = s.to(torch.float64) if rank == 1 else s
                    for m in metrics.values():
                        m.update(s, y, sample_weight=w)
            out = {k: m.compute() for k, m in metrics.items()}
            torch.save(out, os.path.join(out_dir, f"rank{rank}_{int(host_kernels)}.pt"))
    finally:
        dist.destroy_process_group()


def test_ddp_two_processes(tmp_path):
    """Two gloo processes, each updating with its half of the weighted
    batches (float32 on one rank, float64 on the other), on both engines:
    every rank's results are the metrics' fed every batch in one process."""
    import torch.multiprocessing as mp

    batches = _batches(30, k=6, weighted=True)
    mp.start_processes(_rank_main, args=(_free_port(), batches, str(tmp_path)), nprocs=2,
                       join=True, start_method="spawn")
    ref = _ddp_metrics()
    for i, (s, y, w) in enumerate(batches):
        s = s.to(torch.float64) if i % 2 == 1 else s
        for m in ref.values():
            m.update(s, y, sample_weight=w)
    expected = {k: m.compute() for k, m in ref.items()}
    for rank in (0, 1):
        for host_kernels in (1, 0):
            got = torch.load(tmp_path / f"rank{rank}_{host_kernels}.pt")
            for k, value in expected.items():
                value = value if isinstance(value, tuple) else (value,)
                mine = got[k] if isinstance(got[k], tuple) else (got[k],)
                for a, b in zip(mine, value):
                    torch.testing.assert_close(a, b, rtol=1e-12, atol=1e-12, equal_nan=True)
