"""fastauc.torch: the losses with autograd against the article's code and the
numpy functions; the metrics against fastauc's functions, in one process and
across two real torch.distributed (gloo) processes."""

from __future__ import annotations

import os
import socket
import warnings

import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("torchmetrics")

import fastauc  # noqa: E402
from fastauc.torch import (  # noqa: E402
    BinaryAUROC,
    BinaryAveragePrecision,
    PairwiseAUCLoss,
    pairwise_loss,
)


def article_loss(y_true, y_pred):
    """The article's all-pairs loss, verbatim (n**2 pairs)."""
    y_t = torch.cartesian_prod(y_true, y_true)
    y_p = torch.cartesian_prod(y_pred, y_pred)
    L = (y_t[:, 0] - y_t[:, 1]) * (y_p[:, 1] - y_p[:, 0])
    return 0.5 + L.mean()


def batch(seed, n=300, ties=True):
    g = torch.Generator().manual_seed(seed)
    y = (torch.rand(n, generator=g) < 0.3).to(torch.float64)
    s = torch.randn(n, generator=g, dtype=torch.float64) + y
    if ties:
        s = torch.round(s * 4) / 4
    return y, s


@pytest.mark.parametrize("seed", range(4))
def test_linear_all_pairs_is_the_articles_loss(seed):
    y, s = batch(seed)
    ours_s = s.clone().requires_grad_()
    ref_s = s.clone().requires_grad_()
    ours = pairwise_loss(y, ours_s, loss="linear", normalize="all_pairs")
    ref = article_loss(y, ref_s)
    ours.backward()
    ref.backward()
    assert ours.item() == pytest.approx(ref.item(), abs=1e-12)
    np.testing.assert_allclose(ours_s.grad.numpy(), ref_s.grad.numpy(), rtol=0, atol=1e-12)
    assert ours.dtype == torch.float64 and ours.ndim == 0


@pytest.mark.parametrize("loss", ["square", "squared_hinge"])
def test_gradcheck(loss):
    y, s = batch(11, n=24, ties=False)
    s = s.clone().requires_grad_()
    assert torch.autograd.gradcheck(lambda x: pairwise_loss(y, x, loss=loss), (s,),
                                    eps=1e-6, atol=1e-6)


@pytest.mark.parametrize("loss", ["linear", "square", "squared_hinge", "hinge", "aum"])
@pytest.mark.parametrize("normalize", [True, False])
def test_values_and_gradients_are_the_numpy_functions(loss, normalize):
    y, s = batch(3)
    w = torch.from_numpy(np.random.default_rng(0).choice([0.0, 0.5, 1.0, 2.0], 300))
    groups = np.arange(300) % 4
    x = s.clone().requires_grad_()
    value = pairwise_loss(y, x, loss=loss, normalize=normalize, sample_weight=w, groups=groups)
    value.backward()
    ref, grad = fastauc.pairwise_loss_gradient(y.numpy(), s.numpy(), loss=loss,
                                               normalize=normalize, sample_weight=w.numpy(),
                                               groups=groups)
    assert value.item() == ref
    np.testing.assert_array_equal(x.grad.numpy(), grad)


def test_float32_module_and_column_scores():
    y, s = batch(5)
    x = s.to(torch.float32)[:, None].clone().requires_grad_()
    value = PairwiseAUCLoss(loss="square", margin=0.5)(x, y)
    value.backward()
    assert value.dtype == torch.float32 and x.grad.shape == x.shape
    ref, grad = fastauc.pairwise_loss_gradient(y.numpy(), x.detach().numpy()[:, 0].astype(
        np.float64), loss="square", margin=0.5)
    assert value.item() == pytest.approx(ref, rel=1e-6)
    np.testing.assert_allclose(x.grad.numpy()[:, 0], grad, rtol=1e-6)


def test_a_batch_without_pairs_is_zero_and_quiet():
    x = torch.tensor([0.2, 0.5, 0.9], requires_grad=True)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        value = pairwise_loss(torch.tensor([1, 1, 1]), x)
    value.backward()
    assert value.item() == 0.0 and x.grad.tolist() == [0.0, 0.0, 0.0]


def test_training_step_lowers_the_loss():
    y, s = batch(8, n=200, ties=False)
    x = torch.zeros(200, dtype=torch.float64, requires_grad=True)
    opt = torch.optim.SGD([x], lr=0.5)
    first = None
    for _ in range(20):
        opt.zero_grad()
        value = pairwise_loss(y, x + 0.1 * s, loss="squared_hinge")
        value.backward()
        opt.step()
        first = value.item() if first is None else first
    assert value.item() < first


@pytest.mark.parametrize("call,exc,words", [
    (lambda: pairwise_loss(torch.tensor([0, 1]), torch.tensor([1, 2])), TypeError,
     "floating-point"),
    (lambda: pairwise_loss(torch.tensor([0, 1]), torch.zeros(2, 2)), ValueError,
     "no batch dimension"),
    (lambda: pairwise_loss(torch.tensor([0, 1, 1]), torch.zeros(2)), ValueError,
     "inconsistent numbers of samples"),
    (lambda: pairwise_loss(torch.tensor([0, 1]), torch.tensor([0.1, float("nan")])),
     ValueError, "NaN"),
    (lambda: pairwise_loss(torch.zeros(2, device="meta"), torch.zeros(2)), ValueError,
     "y_true is on meta"),
    (lambda: pairwise_loss([0, 1], [0.1, 0.2]), TypeError, "torch.Tensor"),
])
def test_bad_input(call, exc, words):
    with pytest.raises(exc, match=words):
        call()


# ------------------------------------------------------------------ the metrics

def _batches(seed, k=5, weighted=False):
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(k):
        n = int(rng.integers(1, 400))
        y = rng.random(n) < 0.3
        s = np.round(rng.standard_normal(n) + y, 1)
        w = rng.choice([0.0, 0.5, 1.0, 3.0], n) if weighted else None
        out.append((y, s, w))
    return out


def _all(batches):
    y = np.concatenate([b[0] for b in batches])
    s = np.concatenate([b[1] for b in batches])
    w = None if batches[0][2] is None else np.concatenate([b[2] for b in batches])
    return y, s, w


@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("seed", range(3))
def test_metrics_equal_the_functions(seed, weighted):
    batches = _batches(seed, weighted=weighted)
    auc, ap, part = BinaryAUROC(), BinaryAveragePrecision(), BinaryAUROC(max_fpr=0.3)
    for y, s, w in batches:
        args = (torch.from_numpy(s).to(torch.float32), torch.from_numpy(y))
        kw = {} if w is None else {"sample_weight": torch.from_numpy(w)}
        for m in (auc, ap, part):
            m.update(*args, **kw)
    y, s, w = _all(batches)
    s = s.astype(np.float32).astype(np.float64)
    got = auc.compute().item()
    ref = fastauc.roc_auc_score(y, s, sample_weight=w)
    if weighted:
        assert got == pytest.approx(ref, rel=1e-12, abs=1e-12)
    else:
        assert got == ref  # counts: the same float
    assert ap.compute().item() == pytest.approx(
        fastauc.average_precision_score(y, s, sample_weight=w), rel=1e-12, abs=1e-12)
    assert part.compute().item() == pytest.approx(
        fastauc.roc_auc_score(y, s, sample_weight=w, max_fpr=0.3), rel=1e-12, abs=1e-12)
    if not weighted:
        ci, ref = auc.delong_interval(), fastauc.roc_auc_ci(y, s)
        assert (ci.low, ci.high, ci.se) == pytest.approx((ref.low, ref.high, ref.se), rel=1e-12)
    kept = s if w is None else s[w > 0]  # a row of weight zero is a row removed
    assert auc.n_distinct == np.unique(kept).shape[0]  # the state: one row per distinct score


def test_metric_ignore_index_reset_and_bad_input():
    m = BinaryAUROC(ignore_index=-1)
    m.update(torch.tensor([0.1, 0.9, 0.5, 0.3]), torch.tensor([0, 1, -1, 1]))
    assert m.compute().item() == fastauc.roc_auc_score([0, 1, 1], [0.1, 0.9, 0.3])
    m.reset()
    assert m.n_distinct == 0
    with pytest.raises(ValueError, match="0/1"):
        BinaryAUROC().update(torch.tensor([0.1, 0.2]), torch.tensor([0, 2]))
    with pytest.raises(ValueError, match="NaN"):
        BinaryAUROC().update(torch.tensor([0.1, float("nan")]), torch.tensor([0, 1]))
    with pytest.warns(fastauc.UndefinedMetricWarning):
        one = BinaryAUROC()
        one.update(torch.tensor([0.1, 0.2]), torch.tensor([1, 1]))
        assert np.isnan(one.compute().item())


def test_bounded_metric_is_the_bounded_accumulator():
    """``max_groups``: the Accumulator's cells, bounds and midpoint; exact
    (and then the plain metric's value) while the table fits."""
    rng = np.random.default_rng(2)
    bounded, roomy = BinaryAUROC(max_groups=64), BinaryAUROC(max_groups=10**6)
    ys, ss = [], []
    for _ in range(6):
        y = rng.random(500) < 0.3
        s = rng.standard_normal(500) + y
        for m in (bounded, roomy):
            m.update(torch.from_numpy(s), torch.from_numpy(y))
        ys.append(y)
        ss.append(s)
    y, s = np.concatenate(ys), np.concatenate(ss)
    low, high = bounded.auc_bounds()
    # the rows wait (fewer than the bounded metric's batch) and fold at once
    assert 3000 < bounded._bounded_rows()
    acc = fastauc.Accumulator(max_groups=64).update(y, s)
    assert (low, high) == acc.auc_bounds()
    assert bounded.compute().item() == acc.roc_auc()
    assert bounded.n_distinct == acc.n_groups <= 64
    assert low <= fastauc.roc_auc_score(y, s) <= high and high - low <= 4 / 64
    assert roomy.compute().item() == fastauc.roc_auc_score(y, s)
    assert roomy.auc_bounds() == (roomy.compute().item(),) * 2
    with pytest.raises(ValueError, match="exact table"):
        bounded.delong_interval()
    with pytest.raises(ValueError, match="at least 2"):
        BinaryAUROC(max_groups=1)


def _free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _rank_main(rank, port, batches, out_dir):
    import torch.distributed as dist

    dist.init_process_group("gloo", init_method=f"tcp://127.0.0.1:{port}", rank=rank,
                            world_size=2)
    try:
        auc, ap, bounded = BinaryAUROC(), BinaryAveragePrecision(), BinaryAUROC(max_groups=16)
        for i, (y, s, w) in enumerate(batches):
            if i % 2 == rank:  # each rank sees its own batches
                for m in (auc, ap, bounded):
                    m.update(torch.from_numpy(s), torch.from_numpy(y),
                             sample_weight=None if w is None else torch.from_numpy(w))
        ci = auc.delong_interval()  # synced too: all the data
        values = (auc.compute().item(), ap.compute().item(), ci.se,
                  *bounded.auc_bounds(), bounded.compute().item())
        np.save(os.path.join(out_dir, f"rank{rank}.npy"), np.array(values))
        _mixed_part(rank, out_dir)
    finally:
        dist.destroy_process_group()


@pytest.mark.parametrize("weighted", [True])  # (unweighted: in one process above)
def test_ddp_two_processes_merge_tables(tmp_path, weighted):
    """Two gloo processes, each updating with half the batches: both get the
    all-data AUC and AP (the ranks' tables merged); then ranks of both state
    forms and key dtypes, forward, and metrics updated on one rank only."""
    import torch.multiprocessing as mp

    batches = _batches(7, k=6, weighted=weighted)
    mp.start_processes(_rank_main, args=(_free_port(), batches, str(tmp_path)), nprocs=2,
                       join=True, start_method="spawn")
    y, s, w = _all(batches)
    for rank in (0, 1):
        auc, ap, se, low, high, mid = np.load(tmp_path / f"rank{rank}.npy")
        ref = fastauc.roc_auc_score(y, s, sample_weight=w)
        if not weighted:
            assert se == pytest.approx(fastauc.roc_auc_ci(y, s).se, rel=1e-12)
        assert low <= ref <= high and mid == 0.5 * (low + high)  # the bounded one: all data
        assert auc == (ref if not weighted else pytest.approx(ref, rel=1e-12))
        assert ap == pytest.approx(fastauc.average_precision_score(y, s, sample_weight=w),
                                   rel=1e-12)
    _check_mixed(tmp_path)


def test_cpu_scores_are_read_in_place_and_half_precision_widened():
    y, s = batch(9)
    x32 = s.to(torch.float32).requires_grad_()
    ref32, grad32 = fastauc.pairwise_loss_gradient(y.numpy(), x32.detach().numpy())
    value = pairwise_loss(y, x32)
    value.backward()
    assert value.item() == pytest.approx(ref32, rel=1e-7)
    np.testing.assert_array_equal(x32.grad.numpy(), grad32.astype(np.float32))
    xb = s.to(torch.bfloat16).requires_grad_()
    value = pairwise_loss(y, xb, loss="square")
    value.backward()
    ref, _ = fastauc.pairwise_loss_gradient(y.numpy(), xb.detach().float().numpy(),
                                            loss="square")
    assert value.dtype == torch.bfloat16 and xb.grad.dtype == torch.bfloat16
    assert value.item() == pytest.approx(ref, rel=1e-2)


CUDA = torch.cuda.is_available() and os.environ.get("NUMBA_ENABLE_CUDASIM") != "1"


@pytest.mark.skipif(not CUDA, reason="needs a CUDA GPU (and the simulator off)")
@pytest.mark.parametrize("loss", ["linear", "square", "squared_hinge", "hinge", "aum"])
def test_cuda_tensors_give_the_cpu_loss_and_gradient(loss):
    """On a GPU (benchmarks/device_session.sh runs this): the device path's
    value and gradient are the CPU tensors' to 1e-12, with weights and groups,
    and the result stays on the GPU; the metric's table too."""
    y, s = batch(3, n=2000)
    g = torch.Generator().manual_seed(4)
    w = torch.rand(2000, generator=g, dtype=torch.float64)
    groups = torch.randint(0, 5, (2000,), generator=g)
    for kw in ({}, {"sample_weight": w, "groups": groups}):
        cpu_s = s.clone().requires_grad_()
        cpu = pairwise_loss(y, cpu_s, loss=loss, **kw)
        cpu.backward()
        dev_s = s.cuda().requires_grad_()
        dev = pairwise_loss(y.cuda(), dev_s, loss=loss,
                            **{k: v.cuda() for k, v in kw.items()})
        dev.backward()
        assert dev.is_cuda and dev_s.grad.is_cuda
        assert dev.item() == pytest.approx(cpu.item(), rel=1e-12, abs=1e-15)
        np.testing.assert_allclose(dev_s.grad.cpu().numpy(), cpu_s.grad.numpy(), rtol=1e-12,
                                   atol=1e-12 * float(cpu_s.grad.abs().max()))
    m = BinaryAUROC()
    m.update(s.cuda(), y.cuda())
    assert m.compute().item() == fastauc.roc_auc_score(y.numpy(), s.numpy())


# ------------------------------------------------------------------ the metrics in a loop

def _state_bytes(metric):
    """Bytes of a torchmetrics metric's state tensors."""
    total = 0
    for x in metric.metric_state.values():
        for t in (x if isinstance(x, list) else [x]):
            total += t.numel() * t.element_size()
    return total


@pytest.fixture
def rows_sorted(monkeypatch):
    """Counts the rows every sort in the process is given (fastauc's one
    sort, and torch's sort, argsort and unique): ``rows_sorted()`` returns
    the count since the last call."""
    from fastauc._table import Table

    seen = [0]
    real_from_rows = Table.from_rows.__func__

    def from_rows(cls, is_pos, score, weight, name="y_score"):
        seen[0] += score.shape[0]
        return real_from_rows(cls, is_pos, score, weight, name)

    monkeypatch.setattr(Table, "from_rows", classmethod(from_rows))
    for name in ("sort", "argsort", "unique"):
        real = getattr(torch, name)

        def counted(x, *args, _real=real, **kwargs):
            seen[0] += x.numel()
            return _real(x, *args, **kwargs)

        monkeypatch.setattr(torch, name, counted)

    def take():
        n, seen[0] = seen[0], 0
        return n

    return take


@pytest.mark.parametrize("host_kernels", [True, False])
def test_update_sorts_nothing_and_compute_sorts_each_row_once(rows_sorted, monkeypatch,
                                                              host_kernels):
    """An update appends (no sort, whatever was seen before); compute sorts
    the rows that came since the last compute, once; forward sorts its batch."""
    import fastauc._torch_metrics as tm

    monkeypatch.setattr(tm, "HOST_KERNELS", host_kernels)
    g = torch.Generator().manual_seed(0)
    metric, ys, ss = BinaryAUROC(), [], []
    rows_sorted()
    for _ in range(40):
        y = torch.rand(500, generator=g) < 0.1
        s = torch.randn(500, generator=g) + y
        metric.update(s, y)
        ys.append(y)
        ss.append(s)
        assert rows_sorted() == 0  # appended
    first = metric.compute().item()
    assert rows_sorted() == 40 * 500
    for _ in range(10):
        y = torch.rand(512, generator=g) < 0.1
        s = torch.randn(512, generator=g) + y
        metric(s, y)  # forward: the batch's value
        assert rows_sorted() == 512  # the batch, not the epoch
        ys.append(y)
        ss.append(s)
    second = metric.compute().item()
    assert rows_sorted() == 10 * 512  # only the new rows: the run sorted before is merged
    y, s = torch.cat(ys).numpy(), torch.cat(ss).numpy()
    assert first == fastauc.roc_auc_score(y[:20000], s[:20000])
    assert second == fastauc.roc_auc_score(y, s)
    assert metric.compute().item() == second and rows_sorted() == 0


def test_state_bytes_stay_below_torchmetrics():
    """Pending rows: the scores' bytes and one; sorted: the smaller of that
    and the table (ties); never above torchmetrics' 12 bytes a row."""
    from torchmetrics.classification import BinaryAUROC as TorchmetricsAUROC

    g = torch.Generator().manual_seed(1)
    for ties in (False, True):
        ours, theirs = BinaryAUROC(), TorchmetricsAUROC(thresholds=None)
        n = 0
        for _ in range(20):
            y = (torch.rand(1000, generator=g) < 0.03).long()
            s = torch.rand(1000, generator=g)
            if ties:
                s = torch.round(s * 50) / 50
            ours.update(s, y)
            theirs.update(s, y)
            n += 1000
        # (+ 8: the count of weighted batches)
        assert _state_bytes(ours) == 5 * n + 8 <= _state_bytes(theirs) == 12 * n
        ours.compute()
        sorted_bytes = _state_bytes(ours)
        if ties:  # 51 distinct scores: the table, 4 + 16 bytes each (+ the run's sizes)
            assert sorted_bytes == 51 * 20 + 16 + 8
        else:
            assert sorted_bytes == 5 * n + 16 + 8
    weighted = BinaryAUROC()
    weighted.update(torch.tensor([0.2, 0.2, 0.7]), torch.tensor([0, 1, 1]),
                    sample_weight=torch.tensor([1.0, 2.0, 0.5]))
    weighted.compute()
    assert weighted.table_keys[0].tolist() == pytest.approx([0.7, 0.2])
    assert weighted.table_pos[0].tolist() == [0.5, 2.0]


@pytest.mark.parametrize("host_kernels", [True, False])
@pytest.mark.parametrize("seed", range(4))
def test_any_batching_merging_and_compute_order_is_exact(seed, host_kernels, monkeypatch):
    """Updates, forwards, computes in between, merge_state of metrics fed
    apart, float32 and float64 batches, weights: the value of the rows put
    together, to the last bit for counts."""
    import fastauc._torch_metrics as tm

    monkeypatch.setattr(tm, "HOST_KERNELS", host_kernels)
    rng = np.random.default_rng(seed)
    weighted = seed % 2 == 1
    parts = [BinaryAUROC(), BinaryAUROC(), BinaryAveragePrecision(), BinaryAveragePrecision()]
    ys, ss, ws = [], [], []
    for i in range(12):
        n = int(rng.integers(0, 300))
        y = rng.random(n) < 0.2
        s = np.round(rng.standard_normal(n) + y, int(rng.integers(1, 4)))
        if rng.random() < 0.3:
            s = -s * 0.0 if rng.random() < 0.2 else s  # signed zeros tie
        dtype = torch.float64 if i % 3 == 0 else torch.float32
        s = torch.from_numpy(s).to(dtype)
        w = rng.choice([0.0, 0.5, 1.0, 2.0], n) if weighted else None
        kw = {} if w is None else {"sample_weight": torch.from_numpy(w)}
        which = i % 2
        for m in (parts[which], parts[2 + which]):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # batches of one class, or none
                if rng.random() < 0.5:
                    m(s, torch.from_numpy(y), **kw)
                else:
                    m.update(s, torch.from_numpy(y), **kw)
                if rng.random() < 0.3 and m.update_called:
                    m.compute()
        ys.append(y)
        ss.append(s.to(torch.float64).numpy())
        ws.append(w if w is not None else np.ones(n))
    y, s, w = np.concatenate(ys), np.concatenate(ss), np.concatenate(ws)
    parts[0].merge_state(parts[1])
    parts[2].merge_state(parts[3])
    auc, ap = parts[0].compute().item(), parts[2].compute().item()
    ref_auc = fastauc.roc_auc_score(y, s, sample_weight=w if weighted else None)
    ref_ap = fastauc.average_precision_score(y, s, sample_weight=w if weighted else None)
    if weighted:
        assert auc == pytest.approx(ref_auc, rel=1e-12, abs=1e-12)
    else:
        assert auc == ref_auc
    assert ap == pytest.approx(ref_ap, rel=1e-12, abs=1e-12)
    kept = s if not weighted else s[w > 0]
    assert parts[0].n_distinct == np.unique(kept + 0.0).shape[0]


def test_forward_is_the_batch_value_and_the_state_keeps_every_batch():
    g = torch.Generator().manual_seed(3)
    metric, ys, ss = BinaryAUROC(), [], []
    for _ in range(5):
        y = torch.rand(300, generator=g) < 0.3
        s = torch.randn(300, generator=g) + y
        assert metric(s, y).item() == fastauc.roc_auc_score(y.numpy(), s.numpy())
        ys.append(y)
        ss.append(s)
    assert metric.compute().item() == fastauc.roc_auc_score(torch.cat(ys).numpy(),
                                                            torch.cat(ss).numpy())


def test_compute_before_update_is_nan_with_one_warning():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        value = BinaryAUROC().compute()
    assert np.isnan(value.item())
    assert len(caught) == 1 and "before the ``update``" in str(caught[0].message)


def test_user_warnings_are_not_repeated_by_the_loss():
    """The loss leaves Python's warning registry alone: a warning raised in
    a loop that calls the loss prints once (the default rule), and a batch
    without pairs warns nothing."""
    import subprocess
    import sys

    code = """
import warnings, torch
from fastauc.torch import PairwiseAUCLoss
loss = PairwiseAUCLoss()
for step in range(5):
    s = torch.randn(8, requires_grad=True)
    loss(s, torch.tensor([0, 1] * 4)).backward()
    loss(s, torch.ones(8)).backward()  # one class: no pair, 0, quiet
    warnings.warn("the user's own warning")
"""
    out = subprocess.run([sys.executable, "-W", "default", "-c", code], capture_output=True,
                         text=True, check=True)
    assert out.stderr.count("the user's own warning") == 1
    assert "positive-negative pair" not in out.stderr


def test_swapped_arguments_get_a_hint():
    s = torch.randn(6, requires_grad=True)
    y = torch.tensor([0, 1, 0, 1, 1, 0])
    with pytest.raises(TypeError, match="did you swap y_true and y_score"):
        PairwiseAUCLoss()(y, s)
    with pytest.raises(TypeError, match="did you swap y_true and y_score"):
        pairwise_loss(s, y)
    with pytest.raises(TypeError, match="did you swap"):
        BinaryAUROC().update(y, s.detach())


def _mixed_part(rank, out_dir):
    """Rank 0: float64 scores, forward and update, ties (the table form);
    rank 1: float32 distinct scores (the rows form) or nothing at all."""
    auc, ap, empty = BinaryAUROC(), BinaryAveragePrecision(), BinaryAUROC()
    bounded, local = BinaryAUROC(max_groups=8), BinaryAUROC(sync_on_compute=False)
    ys, ss = _mixed_rows(rank)
    for y, s in zip(ys, ss):
        auc(s, y)
        ap.update(s, y)
        local.update(s, y)
        if rank == 0:
            empty.update(s, y)
            bounded.update(s, y)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # rank 1's empty metrics: compute before update
        values = (auc.compute().item(), ap.compute().item(), empty.compute().item(),
                  auc.delong_interval().se, auc.n_distinct, *bounded.auc_bounds(),
                  local.compute().item(), local.delong_interval().se)  # this rank's alone
    np.save(os.path.join(out_dir, f"mixed{rank}.npy"), np.array(values))


def _mixed_rows(rank):
    g = torch.Generator().manual_seed(10 + rank)
    ys, ss = [], []
    for _ in range(4):
        y = torch.rand(700, generator=g) < 0.2
        if rank == 0:
            s = torch.round((torch.randn(700, generator=g, dtype=torch.float64) + y) * 4) / 4
        else:
            s = torch.randn(700, generator=g) + y
        ys.append(y)
        ss.append(s)
    return ys, ss


def _check_mixed(tmp_path):
    """The ranks of both forms and dtypes, and empty ranks: every rank's value
    is the all-data one."""
    parts = [_mixed_rows(r) for r in (0, 1)]
    y = torch.cat(parts[0][0] + parts[1][0]).numpy()
    s = np.concatenate([x.to(torch.float64).numpy() for x in parts[0][1] + parts[1][1]])
    y0 = torch.cat(parts[0][0]).numpy()
    s0 = torch.cat(parts[0][1]).numpy()
    for rank in (0, 1):
        auc, ap, only0, se, n_distinct, low, high, mine_auc, mine_se = np.load(
            tmp_path / f"mixed{rank}.npy")
        y_r = torch.cat(parts[rank][0]).numpy()
        s_r = np.concatenate([x.to(torch.float64).numpy() for x in parts[rank][1]])
        assert mine_auc == fastauc.roc_auc_score(y_r, s_r)
        assert mine_se == pytest.approx(fastauc.roc_auc_ci(y_r, s_r).se, rel=1e-12)
        assert low <= only0 <= high < low + 4 / 8  # the bounded metric: rank 0's rows
        assert auc == fastauc.roc_auc_score(y, s)
        assert ap == pytest.approx(fastauc.average_precision_score(y, s), rel=1e-12)
        assert only0 == fastauc.roc_auc_score(y0, s0)
        assert se == pytest.approx(fastauc.roc_auc_ci(y, s).se, rel=1e-12)
        mine = np.concatenate([x.to(torch.float64).numpy() for x in parts[rank][1]])
        assert n_distinct == np.unique(mine).shape[0]  # this rank's (no sync)
