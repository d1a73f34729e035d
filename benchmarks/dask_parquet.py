"""fastauc.dask on rows read from Parquet on disk (issue 12's 1e8-row run).

    python benchmarks/dask_parquet.py generate DIR [n] [files]
    python benchmarks/dask_parquet.py run DIR [--in-memory]

``generate`` writes ``n`` rows (default 1e8) into ``files`` Parquet files
(default 100): a label ``y`` (int8, 10% positives) and two models' scores
``p`` and ``q`` (float64, every score distinct, ``q`` correlated with ``p``).
``run`` starts a LocalCluster of 2 worker processes (one thread each) with a
4 GiB memory limit each, reads the files with ``dask.dataframe.read_parquet``
(nothing is persisted: every call reads the files again) and times
``roc_auc_score``, ``roc_auc_ci`` and a two-model ``report``, with the bytes
the workers sent each other per row; ``--in-memory`` then loads the columns
whole and times the in-memory functions on them, and checks the values agree.
"""

from __future__ import annotations

import sys
import time
import warnings
from pathlib import Path

import numpy as np


def generate(out: Path, n: int, files: int) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    out.mkdir(parents=True, exist_ok=True)
    rows = -(-n // files)
    for f in range(files):
        rng = np.random.default_rng(f)
        m = min(rows, n - f * rows)
        y = (rng.random(m) < 0.1).astype(np.int8)
        p = rng.random(m) + 0.2 * y  # a model with some skill
        q = np.clip(p + 0.3 * rng.random(m), 0, None)  # a second, correlated one
        pq.write_table(pa.table({"y": y, "p": p, "q": q}), out / f"part-{f:04d}.parquet",
                       row_group_size=1 << 20)
    print(f"wrote {n:,} rows in {files} files to {out}")


def _sent(client) -> int:
    """Bytes the workers have sent each other so far."""
    return sum(client.run(lambda dask_worker: dask_worker.transfer_outgoing_bytes_total)
               .values())


def run(src: Path, in_memory: bool) -> None:
    import dask.dataframe as dd
    import distributed

    import fastauc.dask as fd

    warnings.simplefilter("ignore")
    rows = {}
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  memory_limit="4GiB", dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        ddf = dd.read_parquet(str(src / "*.parquet"))
        n = int(ddf.map_partitions(len).sum().compute())
        fd.roc_auc_score(ddf["y"].partitions[0], ddf["p"].partitions[0])  # workers load kernels
        calls = {
            "roc_auc_score": lambda: fd.roc_auc_score(ddf["y"], ddf["p"]),
            "roc_auc_ci": lambda: fd.roc_auc_ci(ddf["y"], ddf["p"]),
            "report (two models, DeLong)": lambda: fd.report(ddf, target="y", scores=["p", "q"]),
        }
        for name, call in calls.items():
            before = _sent(client)
            t = time.perf_counter()
            value = call()
            rows[name] = (time.perf_counter() - t, (_sent(client) - before) / n, value)
            print(f"{name}: {rows[name][0]:.1f} s, {rows[name][1]:.1f} bytes sent between "
                  f"workers per row", flush=True)
        peak = client.run(lambda dask_worker: dask_worker.monitor.range_query(0)["memory"])
        peak_gib = max(max(m) for m in peak.values() if m) / 2 ** 30 if peak else float("nan")
    memory = {}
    if in_memory:
        import pyarrow.parquet as pq

        import fastauc

        t = pq.read_table(src, columns=["y", "p", "q"])
        y, p, q = (t.column(c).to_numpy() for c in ("y", "p", "q"))
        del t
        for name, call in {
            "roc_auc_score": lambda: fastauc.roc_auc_score(y, p),
            "roc_auc_ci": lambda: fastauc.roc_auc_ci(y, p),
            "report (two models, DeLong)": lambda: fastauc.report(
                y, np.column_stack([p, q]), names=["p", "q"], ci="delong"),
        }.items():
            t0 = time.perf_counter()
            value = call()
            memory[name] = (time.perf_counter() - t0, value)
    print(f"\n| {n:.0e} rows from Parquet, LocalCluster of 2 workers x 4 GiB | fastauc.dask | "
          "in memory (loaded whole) | bytes between workers per row |")
    print("|---|---|---|---|")
    for name, (secs, per_row, _) in rows.items():
        mem = f"{memory[name][0]:.1f} s" if name in memory else "not run"
        print(f"| `{name}` | {secs:.1f} s | {mem} | {per_row:.1f} |")
    print(f"workers' peak memory (monitor): {peak_gib:.2f} GiB")
    if memory:
        a, b = rows["roc_auc_score"][2], memory["roc_auc_score"][1]
        ci_a, ci_b = rows["roc_auc_ci"][2], memory["roc_auc_ci"][1]
        ra, rb = rows["report (two models, DeLong)"][2], memory["report (two models, DeLong)"][1]
        same = (abs(a - b) <= 1e-12 and abs(ci_a.low - ci_b.low) <= 1e-12
                and all(abs(x.auc - y.auc) <= 1e-12 and abs(x.auc_low - y.auc_low) <= 1e-12
                        for x, y in zip(ra.models, rb.models))
                and all(abs(x.pvalue - y.pvalue) <= 1e-12
                        for x, y in zip(ra.comparisons, rb.comparisons)))
        print(f"values agree with the in-memory ones to 1e-12: {same}")


def main() -> None:
    cmd, where = sys.argv[1], Path(sys.argv[2])
    if cmd == "generate":
        n = int(float(sys.argv[3])) if len(sys.argv) > 3 else 100_000_000
        files = int(sys.argv[4]) if len(sys.argv) > 4 else 100
        generate(where, n, files)
    else:
        run(where, "--in-memory" in sys.argv)


if __name__ == "__main__":
    main()
