"""``fastauc report FILE --stream`` against the in-memory report (issue 11).

    python benchmarks/stream_report.py [n] [decimals]

Writes a Parquet file of ``n`` rows (default 3e7; int8 labels, two float64
score columns rounded to ``decimals``, default 5, so at most 10**decimals + 1
distinct scores; ``decimals`` 0 keeps every score distinct), then runs the
report twice in fresh processes, in memory and with ``--stream``, and prints
each one's wall time (process start and the one-off import included) and peak
resident memory (``ru_maxrss`` of the ``fastauc`` process)
and whether the two JSON reports agree (to 1e-9).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time

import numpy as np

CHILD = r"""
import json, resource, subprocess, sys, time
t = time.perf_counter()
proc = subprocess.run([sys.executable, "-m", "fastauc", *sys.argv[1:]], capture_output=True,
                      text=True, check=True)
dt = time.perf_counter() - t
peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024
print(json.dumps({"seconds": dt, "peak": peak, "report": json.loads(proc.stdout)}))
"""


def write(path, n, decimals, chunk=5_000_000):
    import pyarrow as pa
    import pyarrow.parquet as pq

    rng = np.random.default_rng(0)
    writer = None
    for a in range(0, n, chunk):
        m = min(chunk, n - a)
        y = (rng.random(m) < 0.1).astype(np.int8)
        p = 1 / (1 + np.exp(-(y + rng.normal(size=m))))
        q = 1 / (1 + np.exp(-(0.5 * y + rng.normal(size=m))))
        if decimals:
            p, q = np.round(p, decimals), np.round(q, decimals)
        table = pa.table({"y": y, "p": p, "q": q})
        if writer is None:
            writer = pq.ParquetWriter(path, table.schema)
        writer.write_table(table)
    writer.close()


def run(args):
    proc = subprocess.run([sys.executable, "-c", CHILD, *args], capture_output=True,
                          text=True, check=True)
    return json.loads(proc.stdout.strip().splitlines()[-1])


def close(a, b):
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(close(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(close(x, z) for x, z in zip(a, b))
    if isinstance(a, float):
        return abs(a - b) <= 1e-9 * max(1.0, abs(a))
    return a == b


def main():
    n = int(float(sys.argv[1])) if len(sys.argv) > 1 else 30_000_000
    decimals = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "scores.parquet")
        t = time.perf_counter()
        write(path, n, decimals)
        size = os.path.getsize(path)
        print(f"wrote {n:.0e} rows ({size / 2**20:.0f} MiB) in {time.perf_counter() - t:.0f} s",
              file=sys.stderr)
        base = ["report", path, "--target", "y", "--score", "p", "--score", "q", "--json"]
        mem = run(base)
        stream = run([*base, "--stream"])
    distinct = "all distinct" if not decimals else f"rounded to {decimals} decimals"
    print(f"| report, two models, {n:.0e} rows, scores {distinct} | in memory | "
          f"{mem['seconds']:.1f} s | {mem['peak'] / 2**30:.2f} GiB |")
    print(f"| | `--stream` | {stream['seconds']:.1f} s | {stream['peak'] / 2**30:.2f} GiB |")
    print(f"| | ratio | {stream['seconds'] / mem['seconds']:.2f}x (goal <= 2x) | "
          f"{stream['peak'] / mem['peak']:.2f}x (goal <= 1/3) |")
    print(f"reports agree to 1e-9: {close(mem['report'], stream['report'])}")


if __name__ == "__main__":
    main()
