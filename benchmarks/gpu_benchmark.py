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
and the run goes on.  ``--parts`` picks parts (parity, peers, rows, phases:
the steps of the AUC and the curves, bootstrap, torch, first, profile:
cProfile of a first call and of the torch loss); ``--page MACHINE DEVICE
PEERS`` writes saved outputs (benchmarks/device_runs/) into
docs/benchmarks.md, no GPU needed.
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


def peak_bytes(call):
    """Device bytes a call holds at its peak beyond what was in use before
    (every allocation goes through CuPy's pool, CUB's scratch included)."""
    import cupy as cp

    pool = cp.get_default_memory_pool()
    cp.cuda.Device().synchronize()
    base = pool.used_bytes()
    peak = [base]

    def malloc(size):
        mem = pool.malloc(size)
        peak[0] = max(peak[0], pool.used_bytes())
        return mem

    cp.cuda.set_allocator(malloc)
    try:
        call()
        cp.cuda.Device().synchronize()
    finally:
        cp.cuda.set_allocator(pool.malloc)
    return peak[0] - base


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
    def memory():
        for name in ("roc_auc_score", "roc_auc_score weighted", "roc_curve"):
            extra = peak_bytes(lambda: calls[name](y, s, w, s2))
            row(f"device memory beyond the input at its peak, `{name}` {n:.0e}",
                f"{extra / 2**20:,.0f} MiB", f"{extra / (s.nbytes + y.nbytes):.2f}x the input")
    guarded("memory", memory)


def auc_phases(n):
    """Where the binary AUC's time goes on the device (its steps as
    ``_device.tallies`` takes them), with the alternatives that lost beside
    them: boolean gathers for the partition, and one sort of 64-bit keys
    (score bits and label) or of all scores for the two sorts of the
    classes."""
    import cupy as cp

    from fastauc._device import tallies as t
    from fastauc._device import validation as dv
    from fastauc._device.arrays import Engine

    y, s, _ = data(n)
    e = Engine(False, "cupy", 0)
    n_pos = e.count(y)
    part, _ = t.partition(e, y, s, None, n_pos)
    ps, ns = cp.sort(part[:n_pos]), cp.sort(part[n_pos:])
    keys = (s.view(cp.uint32).astype(cp.uint64) << 1) | y.astype(cp.uint64)
    steps = {
        "validation: finite scores (one float64 sum)": lambda: dv.check_finite(e, s, "s"),
        "validation: count positives": lambda: int(cp.count_nonzero(y)),
        "validation: subnormal float32 scores?": lambda: dv.as_float(e, s, True),
        "partition by class (one scan, one scatter)": lambda: t.partition(e, y, s, None, n_pos),
        "instead: two boolean gathers": lambda: (s[y], s[~y]),
        "sort positives + sort negatives (in place)": lambda: (part[:n_pos].copy().sort(),
                                                               part[n_pos:].copy().sort()),
        "copies (to subtract from the line above)": lambda: (part[:n_pos].copy(),
                                                             part[n_pos:].copy()),
        "searchsorted left + right, sums": lambda: (
            int(cp.searchsorted(ns, ps, "left").sum()) + int(cp.searchsorted(ns, ps,
                                                                                "right").sum())),
        "instead: one sort of 64-bit keys (score bits, label)": lambda: cp.sort(keys),
        "instead: one sort of all scores (32-bit)": lambda: cp.sort(s),
    }
    for what, call in steps.items():
        guarded(what, lambda: row(f"AUC step at {n:.0e}: {what}", ms(gpu_time(call))))


def curve_phases(n):
    """Where the curves' and DeLong's time goes on the device."""
    import cupy as cp

    from fastauc._device import tallies as t
    from fastauc._device.arrays import Engine

    import fastauc

    y, s, w = data(n)
    e = Engine(False, "cupy", 0)

    def by_argsort(call):
        t.CURVE_KEYS = False
        try:
            return call()
        finally:
            t.CURVE_KEYS = True

    row(f"device memory beyond the input at its peak, `roc_curve` by argsort {n:.0e}",
        f"{peak_bytes(lambda: by_argsort(lambda: fastauc.roc_curve(y, s))) / 2**20:,.0f} MiB")
    a, b = by_argsort(lambda: fastauc.roc_curve(y, s)), fastauc.roc_curve(y, s)
    row(f"`roc_curve` {n:.0e}: by 64-bit keys and by argsort", "equal bits" if all(
        bool((x == z).all()) and x.shape == z.shape for x, z in zip(a, b)) else "DIFFERENT")
    order = cp.argsort(s)[::-1]
    ss, lab = s[order], y[order]
    c = t.curve(e, y, s, None)
    classes = t.split_classes(e, y, s, None)
    v10, v01 = t.placements(e, classes)
    kept = t.split_classes(e, y, s, None, keep_order=True)
    steps = {
        "argsort (descending view)": lambda: cp.argsort(s)[::-1],
        "gather scores and labels by the order": lambda: (s[order], y[order]),
        "sorted_curve (ends, cumsums, thresholds)": lambda: t.sorted_curve(e, ss, lab, None),
        "curve by argsort (all of the above)": lambda: by_argsort(lambda: t.curve(e, y, s, None)),
        "curve by one sort of 64-bit keys (the float32 path)": lambda: t.keys_curve(e, y, s),
        "roc_curve by argsort, whole call": lambda: by_argsort(lambda: fastauc.roc_curve(y, s)),
        "roc_curve by 64-bit keys, whole call": lambda: fastauc.roc_curve(y, s),
        "drop_points": lambda: t.drop_points(e, c.tps, c.fps, True),
        "roc (curve, drop, rates)": lambda: t.roc(e, y, s, None, True),
        "weighted curve": lambda: t.curve(e, y, s, w),
        "partition by class": lambda: t.partition(e, y, s, None, e.count(y)),
        "partition by class, weighted": lambda: t.partition(e, y, s, w, e.count(y)),
        "split_classes": lambda: t.split_classes(e, y, s, None),
        "split_classes weighted": lambda: t.split_classes(e, y, s, w),
        "placements (four searches)": lambda: t.placements(e, classes),
        "split_classes keeping the orders (argsorts)": lambda: t.split_classes(
            e, y, s, None, keep_order=True),
        "unsort both classes' placements (scatter)": lambda: (
            t.unsort(cp, kept.pos_order, v10), t.unsort(cp, kept.neg_order, v01)),
    }
    for what, call in steps.items():
        guarded(what, lambda: row(f"step at {n:.0e}: {what}", ms(gpu_time(call))))


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
    """fastauc.torch's loss on CUDA tensors: forward plus backward, and
    BinaryAUROC's update + compute beside torchmetrics'."""
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
            m = BinaryAUROC().to(st.device)
            m.update(st.detach(), yt)
            return m.compute()
        guarded("torch metric", lambda: row(f"`BinaryAUROC` update + compute, {n:.0e}",
                                            ms(gpu_time(metric))))

        def peer():
            from torchmetrics.classification import BinaryAUROC as Peer

            def once():
                m = Peer().to(st.device)
                m.update(st.detach(), yt)
                return m.compute()
            row(f"torchmetrics `BinaryAUROC` update + compute, {n:.0e}", ms(gpu_time(once)))
        guarded("torchmetrics metric", peer)

        def ten_batches():  # ten updates, then compute: the metric's table merges
            m = BinaryAUROC().to(st.device)
            for part in range(10):
                m.update(st.detach()[part::10], yt[part::10])
            return m.compute()
        guarded("torch metric batches", lambda: row(
            f"`BinaryAUROC` 10 updates + compute, {n:.0e}", ms(gpu_time(ten_batches))))


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
    env = {**os.environ, "NUMBA_CACHE_DIR": cache, "CUPY_CACHE_DIR": os.path.join(cache, "cupy")}
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


PROFILE = """
import cProfile, pstats, sys, time, cupy as cp, torch
y = cp.random.default_rng(0).random(10**6) < 0.1
s = cp.random.default_rng(1).standard_normal(10**6, dtype=cp.float32)
prof = cProfile.Profile()
t = time.perf_counter()
prof.enable()
import fastauc
a = fastauc.roc_auc_score(y, s)
b = fastauc.bootstrap_ci(y, s, n_resamples=100, random_state=0, scheme="poisson")
prof.disable()
print("first call", time.perf_counter() - t)
pstats.Stats(prof, stream=sys.stdout).sort_stats("cumulative").print_stats(30)
from fastauc.torch import pairwise_loss
yt, st = torch.from_dlpack(y), torch.from_dlpack(s).clone().requires_grad_()
for _ in range(3):
    st.grad = None
    pairwise_loss(yt, st).backward()
torch.cuda.synchronize()
prof = cProfile.Profile()
prof.enable()
for _ in range(20):
    st.grad = None
    pairwise_loss(yt, st).backward()
torch.cuda.synchronize()
prof.disable()
pstats.Stats(prof, stream=sys.stdout).sort_stats("tottime").print_stats(25)
"""


def profiles():
    """Where a first call's seconds go (empty caches, then warm ones), and
    the host's share of the torch loss (cProfile, 20 steps)."""
    cache = tempfile.mkdtemp()
    env = {**os.environ, "NUMBA_CACHE_DIR": cache, "CUPY_CACHE_DIR": os.path.join(cache, "cupy")}
    for cache_state in ("empty", "warm"):
        out = subprocess.run([sys.executable, "-c", PROFILE], env=env, capture_output=True,
                             text=True, timeout=300)
        print(f"--- profile, {cache_state} caches ---\n{out.stdout[:9000]}\n{out.stderr[-2000:]}",
              flush=True)


PARTS = ("parity", "peers", "rows", "phases", "bootstrap", "torch", "first", "profile")


BEGIN, END = "<!-- gpu: begin -->", "<!-- gpu: end -->"
PAGE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "docs", "benchmarks.md")


def _rows(path):
    with open(path) as f:
        return [line.strip() for line in f if line.startswith("| ") and "---" not in line
                and not line.startswith("| what |")]


def write_page(machine, device, peers, page=PAGE):
    """The "On the GPU" section of docs/benchmarks.md from saved outputs:
    ``machine`` (device_session.sh's machine.txt), ``device`` (a ``--out``
    table of this script's device rows) and ``peers`` (one with the peers'
    rows and the CPU path's timings: only those rows are taken from it)."""
    with open(machine) as f:
        lines = [x.strip() for x in f if x.strip()]
    gpu = lines[2].split(",")
    head = [BEGIN, "## On the GPU", "",
            f"fastauc's device path (CUDA arrays of PyTorch, CuPy or JAX) on one {gpu[0]} "
            f"({gpu[1].strip()}, driver {gpu[2].strip()}) with {lines[1]} CPU cores; Python "
            f"{lines[3]}, {lines[4]}, {lines[5]}. Generated by `python "
            "benchmarks/gpu_benchmark.py --page` from saved outputs of the script "
            "(benchmarks/device_runs/); each table is one process. Float32 scores and bool "
            "labels on the device, 10% positives; median of 10 calls timed with CUDA events, "
            "ms. Do not edit by hand.", "",
            "### fastauc on the device", "",
            "Parity with the CPU path at 1e7 rows, then each call, its peak device memory "
            "beyond the input, and the steps of the AUC and the curves (with the designs "
            "that lost beside them).", "",
            "| what | device ms | note |", "|---|---|---|"]
    body = []
    for r in _rows(device):
        cells = [c.strip() for c in r.strip("|").split("|")]
        cells = [c for c in cells if c != "-"] + [""] * 3
        body.append(f"| {cells[0]} | {cells[1]} | {cells[2]} |")
    peer = ["", "### Beside the peers and the CPU cores", "",
            "The sorts CuPy and torch offer, torchmetrics' AUROC on the same tensors, fastauc "
            "on the machine's 16 CPU cores (host arrays), the bootstrap on the device and the "
            "first device call in a fresh process (empty caches: CuPy compiles about fifty "
            "of its kernels with NVRTC, most of the time; warm: from CuPy's and Numba's "
            "caches, `import fastauc` included).", "",
            "| what | ms |", "|---|---|"]
    for r in _rows(peers):
        cells = [c.strip() for c in r.strip("|").split("|")]
        what = cells[0]
        if what.startswith("fastauc `") and len(cells) > 2:
            peer.append(f"| {what.replace('fastauc ', 'fastauc on the CPU cores: ', 1)} | "
                        f"{cells[2]} |")
        elif what.startswith(("`cupy.sort`", "`torch.sort`", "torchmetrics `binary_auroc",
                              "`bootstrap_ci`", "first device call")):
            peer.append(f"| {what} | {' / '.join(cells[1:])} |")
    block = "\n".join(head + body + peer + ["", END])
    with open(page) as f:
        old = f.read()
    if BEGIN in old:
        new = old[:old.index(BEGIN)] + block + old[old.index(END) + len(END):]
    else:
        new = old.rstrip("\n") + "\n\n" + block + "\n"
    with open(page, "w") as f:
        f.write(new)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", help="also write the table (markdown) here")
    parser.add_argument("--quick", action="store_true", help="1e7 only, fewer replicates")
    parser.add_argument("--parts", default=",".join(PARTS[:-1]),
                        help=f"which parts, comma-separated, of: {', '.join(PARTS)}")
    parser.add_argument("--no-cpu", action="store_true", help="no CPU timings in the rows")
    parser.add_argument("--page", nargs=3, metavar=("MACHINE", "DEVICE", "PEERS"),
                        help="write saved outputs into docs/benchmarks.md (no GPU needed)")
    args = parser.parse_args()
    if args.page:
        write_page(*args.page)
        return
    parts = set(args.parts.split(","))
    import cupy as cp

    props = cp.cuda.runtime.getDeviceProperties(0)
    print(f"device: {props['name'].decode()}, CuPy {cp.__version__}, "
          f"{os.cpu_count()} CPU cores\n", flush=True)
    print("| what | device ms | CPU ms | CPU / device |\n|---|---|---|---|", flush=True)
    t0 = time.perf_counter()
    if "parity" in parts:
        guarded("parity", lambda: parity(10**7))
    sizes = (10**7,) if args.quick else (10**7, 10**8)
    for n in sizes:
        if "peers" in parts:
            guarded(f"sorts {n}", lambda: sorts_and_peers(n))
        if "rows" in parts:
            fastauc_rows(n, cpu_too=not args.no_cpu)
    if "phases" in parts:
        guarded("AUC phases", lambda: auc_phases(sizes[-1]))
        guarded("curve phases", lambda: curve_phases(sizes[-1]))
    if "bootstrap" in parts:
        bootstrap_rows(args.quick)
    if "torch" in parts:
        guarded("torch", torch_loss_rows)
    if "first" in parts:
        guarded("first call", first_call)
    if "profile" in parts:
        guarded("profile", profiles)
    print(f"\n({time.perf_counter() - t0:.0f} s in all)")
    if args.out:
        with open(args.out, "w") as f:
            f.write("| what | device ms | CPU ms | CPU / device |\n|---|---|---|---|\n")
            for r in ROWS:
                f.write("| " + " | ".join(str(c) for c in r) + " |\n")


if __name__ == "__main__":
    main()
