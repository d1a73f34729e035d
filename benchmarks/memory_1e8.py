"""Peak memory and time of the 1e8-row calls (issue 10), one process each.

    python benchmarks/memory_1e8.py [n]

Each function runs in a fresh process on int64 labels and float64 scores (1.49
GiB at n = 1e8); the peak resident memory of the call is read from
``/proc/self/status`` (``VmHWM``, reset to the current size just before the
call), so what the inputs took before does not count.  Linux only.
"""

from __future__ import annotations

import subprocess
import sys

CHILD = r"""
import sys, time, numpy as np, fastauc
fn, n = sys.argv[1], int(sys.argv[2])
rng = np.random.default_rng(0)
y = (rng.random(n) < 0.1).astype(np.int64)
s = rng.random(n)
getattr(fastauc, fn)(y[:1000], s[:1000])
def status(key):
    for line in open("/proc/self/status"):
        if line.startswith(key):
            return int(line.split()[1]) * 1024
open("/proc/self/clear_refs", "w").write("5")  # peak := current
base = status("VmRSS")
t = time.perf_counter()
out = getattr(fastauc, fn)(y, s)
dt = time.perf_counter() - t
extra = status("VmHWM") - base
ret = sum(a.nbytes for a in out) if isinstance(out, tuple) else 0
inp = y.nbytes + s.nbytes
print(f"| `{fn}` | {n:.0e} | {dt:.1f} s | {extra / 2**30:.2f} GiB | {extra / inp:.2f}x | "
      f"{(extra - ret) / inp:.2f}x |")
"""


def main():
    n = int(float(sys.argv[1])) if len(sys.argv) > 1 else 10**8
    print("| function | n | time | peak extra memory | / input bytes | beyond the returned "
          "arrays / input bytes (goal <= 2x) |")
    print("|---|---|---|---|---|---|")
    for fn in ("roc_auc_score", "roc_auc_ci", "roc_curve"):
        subprocess.run([sys.executable, "-c", CHILD, fn, str(n)], check=True)


if __name__ == "__main__":
    main()
