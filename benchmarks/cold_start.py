"""A first call in a fresh process: empty and warm Numba caches.

Each row runs a new Python process (so nothing is compiled or loaded in it)
with ``NUMBA_CACHE_DIR`` pointing at a fresh folder (empty cache) or at one
the previous rows filled (warm cache), and reports medians over ``--runs``
processes:

- ``import fastauc``;
- the first ``roc_auc_score`` on 1e6 rows (float64 scores, 10% positives),
  and which path answered it (numpy's while the kernels compile, or the
  kernels), the same float either way;
- when the kernels took over (the background warm-up finished);
- ``fastauc demo``: when it printed its first result, and its total time.

Usage: ``python benchmarks/cold_start.py [--runs 3]``; prints a markdown
table (docs/guide/deploying.md keeps the latest one).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time

FIRST_CALL = r"""
import json, sys, time
t0 = time.perf_counter()
import numpy as np
rng = np.random.default_rng(0)
n = 1_000_000
y = rng.random(n) < 0.1
s = rng.normal(size=n) + y
t1 = time.perf_counter()
import fastauc
from fastauc import _warm
t2 = time.perf_counter()
auc = fastauc.roc_auc_score(y, s)
t3 = time.perf_counter()
numpy_answered = not _warm.ready(_warm.tallies_family(s))
_warm.wait()
t4 = time.perf_counter()
again = fastauc.roc_auc_score(y, s)
t5 = time.perf_counter()
print(json.dumps({"import": t2 - t1, "first": t3 - t2, "numpy": numpy_answered,
                  "ready": t4 - t2, "warm_call": t5 - t4, "same": auc == again}))
"""


def first_call(cache):
    env = dict(os.environ, NUMBA_CACHE_DIR=cache)
    out = subprocess.run([sys.executable, "-c", FIRST_CALL], capture_output=True, text=True,
                         env=env, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def demo(cache):
    """Seconds to the demo's first result line and to its end."""
    env = dict(os.environ, NUMBA_CACHE_DIR=cache, PYTHONUNBUFFERED="1")
    t0 = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "fastauc", "demo"], stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True, env=env)
    first = None
    for line in proc.stdout:
        if first is None and line.startswith("AUC "):
            first = time.perf_counter() - t0
    if proc.wait() != 0:
        raise RuntimeError("fastauc demo failed")
    return first, time.perf_counter() - t0


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    rows = {}
    for _ in range(args.runs):
        with tempfile.TemporaryDirectory() as cache:
            for key, fn in (("empty", first_call), ("warm", first_call)):
                rows.setdefault(key, []).append(fn(cache))
        with tempfile.TemporaryDirectory() as cache:
            rows.setdefault("demo empty", []).append(demo(cache))
            rows.setdefault("demo warm", []).append(demo(cache))

    def med(key, field):
        return statistics.median(r[field] for r in rows[key])

    print("| cache | `import fastauc` | first `roc_auc_score`, 1e6 rows | answered by | "
          "kernels ready after | next call |")
    print("|---|---|---|---|---|---|")
    for key in ("empty", "warm"):
        by = "numpy" if all(r["numpy"] for r in rows[key]) else (
            "kernels" if not any(r["numpy"] for r in rows[key]) else "either")
        assert all(r["same"] for r in rows[key])
        print(f"| {key} | {med(key, 'import'):.2f} s | {med(key, 'first'):.2f} s | {by} | "
              f"{med(key, 'ready'):.2f} s | {med(key, 'warm_call') * 1e3:.0f} ms |")
    print()
    print("| cache | `fastauc demo`: first result | all done |")
    print("|---|---|---|")
    for key in ("demo empty", "demo warm"):
        firsts = statistics.median(r[0] for r in rows[key])
        totals = statistics.median(r[1] for r in rows[key])
        print(f"| {key.split()[1]} | {firsts:.1f} s | {totals:.1f} s |")
    print()
    print(f"Medians of {args.runs} fresh processes each; {platform.processor() or platform.machine()}"
          f", {os.cpu_count()} CPUs, Python {platform.python_version()}.")


if __name__ == "__main__":
    main()
