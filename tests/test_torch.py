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
    assert auc.n_distinct == np.unique(s).shape[0]  # the state: one row per distinct score


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
    bounded, acc, roomy = BinaryAUROC(max_groups=64), fastauc.Accumulator(max_groups=64), \
        BinaryAUROC(max_groups=10**6)
    ys, ss = [], []
    for _ in range(6):
        y = rng.random(500) < 0.3
        s = rng.standard_normal(500) + y
        for m in (bounded, roomy):
            m.update(torch.from_numpy(s), torch.from_numpy(y))
        acc.update(y, s)
        ys.append(y)
        ss.append(s)
    y, s = np.concatenate(ys), np.concatenate(ss)
    low, high = bounded.auc_bounds()
    assert (low, high) == acc.auc_bounds()
    assert bounded.compute().item() == acc.roc_auc()
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
    finally:
        dist.destroy_process_group()


@pytest.mark.parametrize("weighted", [True])  # (unweighted: in one process above)
def test_ddp_two_processes_merge_tables(tmp_path, weighted):
    """Two gloo processes, each updating with half the batches: both get the
    all-data AUC and AP (the ranks' tables merged)."""
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
