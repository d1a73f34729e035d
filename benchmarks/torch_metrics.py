"""fastauc.torch's BinaryAUROC against torchmetrics' in a training loop's
pattern, on CPU tensors: every update of an epoch, compute at its end, the
per-step forward (what Lightning logs), and the state's bytes.

    python benchmarks/torch_metrics.py            # 1e5, 1e6, 1e7 rows
    python benchmarks/torch_metrics.py --rows 1e6 --repeats 3
    python benchmarks/torch_metrics.py --page docs/benchmarks.md  # the page's section

Scores are normal plus the label, 3% positives, float32; batches of 1024
rows (8192 at 1e7 rows); forward steps of 512 rows over a whole epoch (1e5
and 1e6 rows).  Each figure is the best of ``--repeats`` runs, one process,
warm (kernels compiled before timing).  The table is markdown, with the
machine and versions under it; docs/benchmarks.md holds its latest output.
"""

from __future__ import annotations

import argparse
import gc
import platform
import time
import warnings

import numpy as np
import torch
from common import cpu_name  # benchmarks/common.py


def _state_bytes(metric) -> int:
    total = 0
    for x in metric.metric_state.values():
        for t in (x if isinstance(x, list) else [x]):
            total += t.numel() * t.element_size()
    return total


def _data(n: int, seed: int = 0):
    g = torch.Generator().manual_seed(seed)
    y = (torch.rand(n, generator=g) < 0.03).to(torch.int64)
    s = torch.randn(n, generator=g) + y
    return y, s


def _epoch(make, y, s, batch):
    """(seconds of all updates, seconds of compute, value, bytes before and after compute)."""
    metric = make()
    gc.collect()
    t0 = time.perf_counter()
    for a in range(0, s.shape[0], batch):
        metric.update(s[a:a + batch], y[a:a + batch])
    t1 = time.perf_counter()
    before = _state_bytes(metric)
    value = float(metric.compute())
    t2 = time.perf_counter()
    return t1 - t0, t2 - t1, value, before, _state_bytes(metric)


def _forward(make, y, s, step):
    """Mean seconds of one forward step over an epoch."""
    metric = make()
    gc.collect()
    t0 = time.perf_counter()
    for a in range(0, s.shape[0], step):
        metric(s[a:a + step], y[a:a + step])
    return (time.perf_counter() - t0) / -(-s.shape[0] // step)


def _best(fn, repeats):
    runs = [fn() for _ in range(repeats)]
    return [min(r[i] for r in runs) if isinstance(runs[0][i], float) and i < 2 else runs[0][i]
            for i in range(len(runs[0]))]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=float, nargs="*", default=[1e5, 1e6, 1e7])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--page", help="write the table into this markdown page's section")
    args = parser.parse_args(argv)

    import torchmetrics
    from torchmetrics.classification import BinaryAUROC as TorchmetricsAUROC

    import fastauc
    from fastauc.torch import BinaryAUROC

    ours, theirs = BinaryAUROC, lambda: TorchmetricsAUROC(thresholds=None)
    y, s = _data(4096, seed=1)  # warm: compile fastauc's kernels before timing
    for make in (ours, theirs):
        _epoch(make, y, s, 1024)
        _forward(make, y, s, 512)
    rows = []
    for n in (int(r) for r in args.rows):
        batch = 8192 if n >= 10**7 else 1024
        y, s = _data(n)
        exact = fastauc.roc_auc_score(y.numpy(), s.numpy())
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            a = _best(lambda: _epoch(ours, y, s, batch), args.repeats)
            b = _best(lambda: _epoch(theirs, y, s, batch), args.repeats)
            if n <= 10**6:
                fa = min(_forward(ours, y, s, 512) for _ in range(args.repeats))
                fb = min(_forward(theirs, y, s, 512) for _ in range(args.repeats))
            else:
                fa = fb = None
        rows.append((n, batch, a, b, fa, fb, exact))

    lines = ["| rows (batch) | updates: fastauc / torchmetrics | ratio | compute: fastauc / "
             "torchmetrics | ratio | forward per 512-row step | ratio | state MB before "
             "compute (after) | AUC error: fastauc / torchmetrics |",
             "|---|---|---|---|---|---|---|---|---|"]
    for n, batch, a, b, fa, fb, exact in rows:
        fwd = (f"{fa * 1e3:.3f} / {fb * 1e3:.3f} ms", f"{fa / fb:.2f}") if fa else ("", "")
        lines.append(
            f"| {n:.0e} ({batch}) | {a[0]:.3f} / {b[0]:.3f} s | {a[0] / b[0]:.2f} | "
            f"{a[1] * 1e3:.1f} / {b[1] * 1e3:.1f} ms | {a[1] / b[1]:.2f} | {fwd[0]} | {fwd[1]} | "
            f"{a[3] / 1e6:.1f} ({a[4] / 1e6:.1f}) / {b[3] / 1e6:.1f} ({b[4] / 1e6:.1f}) | "
            f"{abs(a[2] - exact):.1e} / {abs(b[2] - exact):.1e} |")
    lines.append("")
    lines.append(
        f"{cpu_name()}, {torch.get_num_threads()} torch threads; Python "
        f"{platform.python_version()}, torch {torch.__version__}, torchmetrics "
        f"{torchmetrics.__version__}, numpy {np.__version__}, fastauc {fastauc.__version__}; "
        f"{time.strftime('%Y-%m-%d')}. CPU tensors, float32 scores (normal + label), 3% "
        f"positives; best of {args.repeats}. A ratio is fastauc's time over torchmetrics'.")
    print("\n".join(lines))
    if args.page:
        _write_section(args.page, lines)


BEGIN, END = "<!-- torch_metrics: begin -->", "<!-- torch_metrics: end -->"


def _write_section(path, lines):
    """The page's section between the markers (appended when absent)."""
    section = "\n".join([
        BEGIN, "## fastauc.torch's metrics in a training loop", "",
        "`fastauc.torch.BinaryAUROC` against torchmetrics' `BinaryAUROC` (`thresholds=None`, "
        "exact mode), as an epoch uses them: every `update` of the epoch, `compute` at its end, "
        "`forward` per step (the value Lightning logs; the mean over an epoch of 512-row "
        "steps), and the bytes of each metric's state tensors. Generated by `python "
        "benchmarks/torch_metrics.py --page docs/benchmarks.md` (one process, warm). "
        "Do not edit by hand.", "", *lines, END])
    with open(path) as f:
        text = f.read()
    if BEGIN in text:
        head, rest = text.split(BEGIN, 1)
        text = head + section + rest.split(END, 1)[1]
    else:
        text = text.rstrip("\n") + "\n\n" + section + "\n"
    with open(path, "w") as f:
        f.write(text)

if __name__ == "__main__":
    main()
