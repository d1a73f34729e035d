"""fastauc on the GPU: parity with the CPU path, then the timing table.

One command on a machine with a CUDA GPU, CuPy, numba-cuda and (for the
peers' rows) torch and torchmetrics; within 4 minutes on an H100:

    PYTHONPATH=. python benchmarks/gpu_benchmark.py [--out docs/gpu_benchmark.md] [--quick]

1. **Parity at 1e7** (float32 scores and bool labels on the device, 10%
   positives, scores normal + label): ``roc_auc_score`` unweighted equal to
   the CPU path's float to the last bit, the ROC and PR curves' points equal,
   weighted AUC, AP, ``roc_auc_ci`` and ``delong_test`` to 1e-12, Poisson
   bootstrap replicates equal to the CPU's.
2. **Timings**: median of 10 runs timed with CUDA events, milliseconds:
   ``cupy.sort`` (32- and 64-bit keys), ``torch.sort``, torchmetrics'
   ``binary_auroc`` (exact and binned), fastauc on the device and fastauc on
   this machine's CPU cores (host arrays), at 1e7 and 1e8; the bootstrap
   (1000 replicates at 1e6, 10,000 at 1e7); device memory beyond the input;
   the first device call in a fresh process (empty and warm Numba cache).

Every row prints as soon as it is measured; a row that fails prints its error
and the run goes on.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
import traceback

import numpy as np

ROWS = []


def row(what, *cells):
    ROWS.append((what, *cells))
    print(f"| {what} | " + " | ".join(str(c) for c in cells) + " |", flush=True)


def ms(x):
    return "-" if x is None else (f"{x:.2f}" if x < 10 else f"{x:.1f}" if x < 100 else f"{x:,.0f}")


def gpu_time(call, repeat=10, warmup=1):
    """Median milliseconds of ``call()`` timed with CUDA events."""
    import cupy as cp

    for _ in range(warmup):
        call()
    cp.cuda.Device().synchronize()
    times = []
    for _ in range(repeat):
        start, end = cp.cuda.Event(), cp.cuda.Event()
        start.record()
        call()
        end.record()
        end.synchronize()
        times.append(cp.cuda.get_elapsed_time(start, end))
    return statistics.median(times)


def cpu_time(call, repeat=3):
    """Best milliseconds of ``repeat`` runs after a warm-up run."""
    call()
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        call()
        best = min(best, time.perf_counter() - t)
    return best * 1e3


def guarded(what, fn):
    try:
        fn()
    except Exception as exc:  # noqa: BLE001 - report and go on
        traceback.print_exc()
        row(what, f"failed: {type(exc).__name__}: {str(exc)[:120]}")


def data(n, seed=0):
    import cupy as cp

    rng = cp.random.default_rng(seed)
    y = rng.random(n, dtype=cp.float32) < 0.1
    s = (rng.standard_normal(n, dtype=cp.float32) + y).astype(cp.float32)
    w = rng.random(n, dtype=cp.float64) * 2.0
    return y, s, w


def parity(n):
    import fastauc

    y, s, w = data(n)
    yh, sh, wh = y.get(), s.get(), w.get()

    def same(what, dev, cpu, exact):
        dev = [np.asarray(d.get() if hasattr(d, "get") else d) for d in
               (dev if isinstance(dev, tuple) else (dev,))]
        cpu = [np.asarray(c) for c in (cpu if isinstance(cpu, tuple) else (cpu,))]
        if exact:
            ok = all(a.shape == b.shape and np.array_equal(a, b) for a, b in zip(dev, cpu))
        else:
            ok = all(a.shape == b.shape and np.allclose(a, b, rtol=1e-12, atol=1e-12)
                     for a, b in zip(dev, cpu))
        worst = max(float(np.max(np.abs(a - b))) if a.shape == b.shape and a.size else 0.0
                    for a, b in zip(dev, cpu))
        row(f"parity: {what}", "equal bits" if exact and ok else
            f"max diff {worst:.1e}", "ok" if ok else "MISMATCH")

    same("roc_auc_score", fastauc.roc_auc_score(y, s), fastauc.roc_auc_score(yh, sh), True)
    same("roc_auc_score weighted", fastauc.roc_auc_score(y, s, sample_weight=w),
         fastauc.roc_auc_score(yh, sh, sample_weight=wh), False)
    same("roc_curve", fastauc.roc_curve(y, s), fastauc.roc_curve(yh, sh), True)
    same("precision_recall_curve", fastauc.precision_recall_curve(y, s),
         fastauc.precision_recall_curve(yh, sh), True)
    same("average_precision_score", fastauc.average_precision_score(y, s),
         fastauc.average_precision_score(yh, sh), False)
    a, b = fastauc.roc_auc_ci(y, s), fastauc.roc_auc_ci(yh, sh)
    same("roc_auc_ci", (a.estimate, a.se), (b.estimate, b.se), False)
    s2 = s + data(n, 1)[1]
    a, b = fastauc.delong_test(y, s, s2), fastauc.delong_test(yh, sh, s2.get())
    same("delong_test", (a.difference, a.se), (b.difference, b.se), False)
    m = 10**6
    kw = dict(n_resamples=100, random_state=0, scheme="poisson")
    same("bootstrap_ci poisson replicates (1e6)",
         fastauc.bootstrap_ci(y[:m], s[:m], **kw).replicates,
         fastauc.bootstrap_ci(yh[:m], sh[:m], **kw).replicates, True)


def sorts_and_peers(n):
    import cupy as cp

    _, s, _ = data(n)
    k64 = s.astype(cp.float64)
    row(f"`cupy.sort` 32-bit / 64-bit keys, {n:.0e}", ms(gpu_time(lambda: cp.sort(s))),
        ms(gpu_time(lambda: cp.sort(k64))))
    try:
        import torch
    except ImportError:
        return
    ts = torch.from_dlpack(s)
    row(f"`torch.sort`, {n:.0e}", ms(gpu_time(lambda: torch.sort(ts))))
    try:
        from torchmetrics.functional.classification import binary_auroc
    except ImportError:
        return
    y = torch.from_dlpack(data(n)[0])
    row(f"torchmetrics `binary_auroc` exact, {n:.0e}", ms(gpu_time(lambda: binary_auroc(ts, y))))
    row(f"torchmetrics `binary_auroc(thresholds=1000)`, {n:.0e}",
        ms(gpu_time(lambda: binary_auroc(ts, y, thresholds=1000), repeat=3)))


def fastauc_rows(n, cpu_too):
    import cupy as cp

    import fastauc

    y, s, w = data(n)
    s2 = s + data(n, 1)[1]
    calls = {
        "roc_auc_score": lambda y, s, w, s2: fastauc.roc_auc_score(y, s),
        "roc_auc_score weighted": lambda y, s, w, s2: fastauc.roc_auc_score(y, s,
                                                                            sample_weight=w),
        "roc_curve": lambda y, s, w, s2: fastauc.roc_curve(y, s),
        "precision_recall_curve": lambda y, s, w, s2: fastauc.precision_recall_curve(y, s),
        "average_precision_score": lambda y, s, w, s2: fastauc.average_precision_score(y, s),
        "roc_auc_ci": lambda y, s, w, s2: fastauc.roc_auc_ci(y, s),
        "delong_test": lambda y, s, w, s2: fastauc.delong_test(y, s, s2),
    }
    host = (y.get(), s.get(), w.get(), s2.get()) if cpu_too else None
    for name, call in calls.items():
        def one():
            dev = gpu_time(lambda: call(y, s, w, s2))
            cpu = cpu_time(lambda: call(*host), repeat=3 if n < 10**8 else 1) if host else None
            row(f"fastauc `{name}`, {n:.0e}", ms(dev), ms(cpu),
                f"{cpu / dev:.0f}x" if cpu else "-")
        guarded(f"fastauc `{name}`, {n:.0e}", one)
    pool = cp.get_default_memory_pool()

    def memory():
        pool.free_all_blocks()
        before = pool.total_bytes()
        fastauc.roc_auc_score(y, s)
        cp.cuda.Device().synchronize()
        extra = pool.total_bytes() - before
        row(f"device memory beyond the input, `roc_auc_score` {n:.0e}",
            f"{extra / 2**20:,.0f} MiB", f"{extra / (s.nbytes + y.nbytes):.2f}x the input")
    guarded("memory", memory)


def auc_phases(n):
    """Where the binary AUC's time goes on the device (its steps as
    ``_device.tallies`` takes them), and a candidate step beside each, so a
    run on a GPU can choose between them: one ``searchsorted`` and the
    right-side search only for the positives tied with a negative, instead
    of two full searches."""
    import cupy as cp

    y, s, _ = data(n)
    pos, neg = s[y], s[~y]
    ps, ns = cp.sort(pos), cp.sort(neg)
    steps = {
        "split by class (two boolean gathers)": lambda: (s[y], s[~y]),
        "sort positives": lambda: cp.sort(pos),
        "sort negatives": lambda: cp.sort(neg),
        "searchsorted left + right": lambda: (cp.searchsorted(ns, ps, "left"),
                                              cp.searchsorted(ns, ps, "right")),
    }

    def one_search():
        lo = cp.searchsorted(ns, ps, "left")
        at = cp.minimum(lo, ns.shape[0] - 1)
        tied = cp.flatnonzero(ns[at] == ps)
        total = int(lo.sum(dtype=cp.int64)) * 2
        if tied.shape[0]:
            total += int((cp.searchsorted(ns, ps[tied], "right") - lo[tied]).sum())
        return total

    def two_searches():
        return int(cp.searchsorted(ns, ps, "left").sum(dtype=cp.int64)) + \
            int(cp.searchsorted(ns, ps, "right").sum(dtype=cp.int64))

    assert one_search() == two_searches()
    steps["candidate: one search + ties"] = one_search
    steps["two searches + sums (as now)"] = two_searches
    for what, call in steps.items():
        row(f"AUC step at {n:.0e}: {what}", ms(gpu_time(call)))


def bootstrap_rows(quick):
    import fastauc

    for n, reps in ((10**6, 1000), (10**7, 1000 if quick else 10_000)):
        y, s, _ = data(n)

        def one():
            dev = gpu_time(lambda: fastauc.bootstrap_ci(y, s, n_resamples=reps, random_state=0,
                                                        scheme="poisson"), repeat=3)
            row(f"`bootstrap_ci` poisson, {reps:,} replicates, {n:.0e}", ms(dev))
            if n > 10**6:
                return  # the multinomial counts: batches of 512 MiB, timed at 1e6
            dev = gpu_time(lambda: fastauc.bootstrap_ci(y, s, n_resamples=reps,
                                                        random_state=0), repeat=3)
            row(f"`bootstrap_ci` multinomial, {reps:,} replicates, {n:.0e}", ms(dev))
        guarded(f"bootstrap {n}", one)


def torch_loss_rows():
    """fastauc.torch's loss on CUDA tensors: forward plus backward (issue 39's
    goal: 2 ms at 1e6 on an H100), and BinaryAUROC's update + compute."""
    import torch

    from fastauc.torch import BinaryAUROC, pairwise_loss

    for n in (10**6, 10**7):
        y, s, _ = data(n)
        yt, st = torch.from_dlpack(y), torch.from_dlpack(s).clone().requires_grad_()
        for loss in ("linear", "squared_hinge"):
            def step():
                st.grad = None
                pairwise_loss(yt, st, loss=loss).backward()
            guarded(f"torch loss {loss}", lambda: row(
                f"`fastauc.torch.pairwise_loss` {loss}, forward + backward, {n:.0e}",
                ms(gpu_time(step))))

        def metric():
            m = BinaryAUROC()
            m.update(st.detach(), yt)
            return m.compute()
        guarded("torch metric", lambda: row(f"`BinaryAUROC` update + compute, {n:.0e}",
                                            ms(gpu_time(metric))))


FIRST_CALL = """
import time, cupy as cp
y = cp.random.default_rng(0).random(10**6) < 0.1
s = cp.random.default_rng(1).standard_normal(10**6, dtype=cp.float32)
t = time.perf_counter()
import fastauc
a = fastauc.roc_auc_score(y, s)
b = fastauc.bootstrap_ci(y, s, n_resamples=100, random_state=0, scheme="poisson")
print(time.perf_counter() - t)
"""


def first_call():
    cache = tempfile.mkdtemp()
    env = {**os.environ, "NUMBA_CACHE_DIR": cache}
    times = []
    for _ in range(2):  # empty cache, then the cache the first run filled
        out = subprocess.run([sys.executable, "-c", FIRST_CALL], env=env, capture_output=True,
                             text=True, timeout=300)
        times.append(float(out.stdout.strip().splitlines()[-1]) if out.returncode == 0
                     else float("nan"))
        if out.returncode:
            print(out.stderr[-2000:])
    row("first device call in a fresh process (AUC + bootstrap), empty / warm cache, s",
        f"{times[0]:.2f}", f"{times[1]:.2f}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", help="also write the table (markdown) here")
    parser.add_argument("--quick", action="store_true", help="1e7 only, fewer replicates")
    args = parser.parse_args()
    import cupy as cp

    props = cp.cuda.runtime.getDeviceProperties(0)
    print(f"device: {props['name'].decode()}, CuPy {cp.__version__}, "
          f"{os.cpu_count()} CPU cores\n", flush=True)
    print("| what | device ms | CPU ms | CPU / device |\n|---|---|---|---|", flush=True)
    t0 = time.perf_counter()
    guarded("parity", lambda: parity(10**7))
    sizes = (10**7,) if args.quick else (10**7, 10**8)
    for n in sizes:
        guarded(f"sorts {n}", lambda: sorts_and_peers(n))
        fastauc_rows(n, cpu_too=True)
    guarded("AUC phases", lambda: auc_phases(sizes[-1]))
    bootstrap_rows(args.quick)
    guarded("torch", torch_loss_rows)
    guarded("first call", first_call)
    print(f"\n({time.perf_counter() - t0:.0f} s in all)")
    if args.out:
        with open(args.out, "w") as f:
            f.write("| what | device ms | CPU ms | CPU / device |\n|---|---|---|---|\n")
            for r in ROWS:
                f.write("| " + " | ".join(str(c) for c in r) + " |\n")


if __name__ == "__main__":
    main()
