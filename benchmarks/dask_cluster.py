"""fastauc.dask on a LocalCluster of 2 worker processes, 1e7 rows persisted (issue 12).

    python benchmarks/dask_cluster.py [n] [partitions]

Prints each call's time (best of 3; the bootstrap once) against the
in-memory call on the same rows, and checks that the values agree.
"""

from __future__ import annotations

import sys
import time
import warnings

import numpy as np


def best(fn, repeat=3):
    out, t_best = None, float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        out = fn()
        t_best = min(t_best, time.perf_counter() - t)
    return t_best, out


def main():
    import dask.array as da
    import distributed

    import fastauc
    import fastauc.dask as fd

    n = int(float(sys.argv[1])) if len(sys.argv) > 1 else 10_000_000
    parts = int(sys.argv[2]) if len(sys.argv) > 2 else 20
    rng = np.random.default_rng(0)
    y = (rng.random(n) < 0.1).astype(np.int8)
    s = rng.random(n)
    s2 = np.clip(s + 0.3 * rng.random(n), 0, 1)
    warnings.simplefilter("ignore")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        Y, S, S2 = (da.from_array(a, chunks=-(-n // parts)).persist() for a in (y, s, s2))
        distributed.wait([Y, S, S2])
        fd.roc_auc_score(Y[:1000], S[:1000])  # workers load the kernels
        fd.delong_test(Y[:1000], S[:1000], S2[:1000])
        t_mem, auc = best(lambda: fastauc.roc_auc_score(y, s))
        t_auc, d_auc = best(lambda: fd.roc_auc_score(Y, S))
        t_ci, _ = best(lambda: fd.roc_auc_ci(Y, S))
        t_test, _ = best(lambda: fd.delong_test(Y, S, S2))
        t_boot, _ = best(lambda: fd.bootstrap_ci(Y, S, n_resamples=100), 1)
        t_mem_boot, _ = best(lambda: fastauc.bootstrap_ci(y, s, n_resamples=100,
                                                          scheme="poisson"), 1)
        # a worker process killed mid-computation: dask reruns its tasks elsewhere
        import os
        import signal

        pids = client.run(os.getpid)
        future = client.compute(fd.roc_auc_score(Y, S, compute=False))
        time.sleep(0.4)
        victim = sorted(pids.values())[0]
        os.kill(victim, signal.SIGKILL)
        killed_auc = future.result()
        client.close()
    print(f"| n = {n:.0e}, {parts} partitions, LocalCluster of 2 worker processes | time | "
          "compared with | ratio |")
    print("|---|---|---|---|")
    print(f"| `fastauc.dask.roc_auc_score` | {t_auc:.2f} s | in memory {t_mem:.2f} s | "
          f"{t_auc / t_mem:.1f}x (goal <= 10x) |")
    print(f"| `fastauc.dask.roc_auc_ci` | {t_ci:.2f} s | dask `roc_auc_score` | "
          f"{t_ci / t_auc:.1f}x (goal <= 3x) |")
    print(f"| `fastauc.dask.delong_test` | {t_test:.2f} s | dask `roc_auc_score` | "
          f"{t_test / t_auc:.1f}x (goal <= 3x) |")
    print(f"| `fastauc.dask.bootstrap_ci`, 100 Poisson replicates | {t_boot:.2f} s | in memory "
          f"{t_mem_boot:.2f} s | {t_boot / t_mem_boot:.1f}x |")
    print(f"values agree: {abs(d_auc - auc) <= 1e-12}")
    print(f"a worker process killed (SIGKILL) 0.4 s into roc_auc_score: the call returned "
          f"{killed_auc!r}, {'the same value' if killed_auc == d_auc else 'a DIFFERENT value'}")


if __name__ == "__main__":
    main()
