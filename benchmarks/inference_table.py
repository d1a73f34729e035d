"""Comparing models and planning studies: the times of the unpaired, clustered
and curve tests beside the calls they extend, and the coverage of the
clustered intervals in a simulation.

    python benchmarks/inference_table.py                     # a few minutes on 2 cores
    python benchmarks/inference_table.py --quick             # 100x fewer rows, 40 data sets
    python benchmarks/inference_table.py --page docs/benchmarks.md

Times (best of ``--repeats`` in one warm process; 10% positives, scores
normal + label): the unpaired ``delong_test`` (two data sets of n rows) over
two ``roc_auc_score`` calls; ``roc_auc_ci`` with ``cluster=`` (10^5 clusters)
over ``roc_auc_ci``; ``venkatraman_test`` with 2000 permutations, paired and
unpaired (n / 100 rows); ``roc_auc_ci`` of multiclass scores (10 classes, n / 10
rows) over ``roc_auc_score``; ``roc_power`` solving for the power and for the
sample size.

Coverage: ``--sets`` data sets of clustered binormal data (300 patients of 1
to 8 units; a patient's label, 30% positive, is each unit's with probability
0.85; score = label + patient effect + unit noise, both standard normal),
each given three 95% intervals of the AUC: DeLong's ignoring the clusters,
Obuchowski's clustered DeLong, and the cluster bootstrap (500 replicates).
The true AUC is the between-patient one, Phi(1 / 2) (pairs of one patient,
well under 1% of the pairs of two classes, are left out of it).  With 400
sets a coverage's Monte Carlo standard error is about 1.1 points.
"""

from __future__ import annotations

import argparse
import math
import os
import platform
import sys
import time
import warnings
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import best_time, cpu_name  # noqa: E402 (benchmarks/common.py)
from operating_points import _ms, write_section as _write  # noqa: E402

import fastauc  # noqa: E402

BEGIN, END = "<!-- inference: begin -->", "<!-- inference: end -->"


def _data(n, seed):
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.1).astype(np.int64)
    return y, rng.standard_normal(n) + y, rng.standard_normal(n) + 0.8 * y


def _timed(fn, repeats):
    fn()  # warm: kernels compiled or loaded
    return best_time(fn, repeats)


def timing_rows(n, repeats):
    """``(call, n, seconds, base call, base seconds, ratio words)``."""
    y, a, b = _data(n, 0)
    y2, a2, _ = _data(n, 1)
    rows = []
    t = _timed(lambda: fastauc.delong_test(y, a, a2, y_true_b=y2), repeats)
    base = _timed(lambda: (fastauc.roc_auc_score(y, a), fastauc.roc_auc_score(y2, a2)), repeats)
    rows.append(("`delong_test`, unpaired (two data sets)", n, t,
                 "two `roc_auc_score`", base, f"{t / base:.2f}x"))
    clusters = np.random.default_rng(2).integers(0, max(2, n // 100), n)
    t = _timed(lambda: fastauc.roc_auc_ci(y, a, cluster=clusters), repeats)
    base = _timed(lambda: fastauc.roc_auc_ci(y, a), repeats)
    rows.append((f"`roc_auc_ci`, {max(2, n // 100):,} clusters", n, t, "`roc_auc_ci`", base,
                 f"{t / base:.2f}x"))
    m = max(1000, n // 100)
    ym, am, bm = y[:m], a[:m], b[:m]
    t = _timed(lambda: fastauc.venkatraman_test(ym, am, bm, random_state=0), 1)
    rows.append(("`venkatraman_test`, paired, 2000 permutations", m, t, "", None, ""))
    t = _timed(lambda: fastauc.venkatraman_test(ym, am, bm, y_true_b=y2[:m], random_state=0), 1)
    rows.append(("`venkatraman_test`, unpaired, 2000 permutations", m, t, "", None, ""))
    m = max(1000, n // 10)  # multiclass: 10 classes, a tenth of the rows
    rng = np.random.default_rng(3)
    k = rng.integers(0, 10, m)
    raw = rng.random((m, 10)) + np.eye(10)[k]
    P = raw / raw.sum(axis=1, keepdims=True)
    for mc in ("ovr", "ovo"):
        t = _timed(lambda: fastauc.roc_auc_ci(k, P, multi_class=mc), repeats)
        base = _timed(lambda: fastauc.roc_auc_score(k, P, multi_class=mc), repeats)
        rows.append((f"`roc_auc_ci`, multiclass `{mc}`, 10 classes", m, t,
                     f"`roc_auc_score` `{mc}`", base, f"{t / base:.2f}x"))
        t = _timed(lambda: fastauc.bootstrap_ci(k, P, multi_class=mc, n_resamples=200,
                                                random_state=0), 1)
        rows.append((f"`bootstrap_ci`, multiclass `{mc}`, 10 classes, 200 replicates", m, t,
                     f"`roc_auc_score` `{mc}`", base, f"{t / base:.1f}x"))
    t = _timed(lambda: fastauc.roc_power(auc=0.73, n_cases=41, n_controls=72), repeats)
    rows.append(("`roc_power`, power of one AUC (binormal)", 113, t, "", None, ""))
    t = _timed(lambda: fastauc.roc_power(auc=0.73, power=0.95, kappa=1.7), repeats)
    rows.append(("`roc_power`, cases and controls for a power", 0, t, "", None, ""))
    return rows


def clustered_set(rng, n_clusters=300):
    """Patients (clusters) of 1 to 8 units: a patient's label (30% positive)
    is each unit's with probability 0.85; score = label + patient effect +
    unit noise, both standard normal."""
    sizes = rng.integers(1, 9, n_clusters)
    cluster = np.repeat(np.arange(n_clusters), sizes)
    n = cluster.shape[0]
    patient = rng.random(n_clusters) < 0.3
    y = np.where(rng.random(n) < 0.85, patient[cluster], ~patient[cluster]).astype(np.int64)
    if y.min() == y.max():
        y[0] = 1 - y[0]
    s = y + rng.standard_normal(n_clusters)[cluster] + rng.standard_normal(n)
    return y, s, cluster


def coverage(sets, resamples):
    """The share of ``sets`` data sets whose interval holds the true AUC."""
    truth = 0.5 * (1.0 + math.erf(0.5 / math.sqrt(2.0)))  # Phi(1/2)
    rng = np.random.default_rng(7)
    hits = {"naive": 0, "clustered": 0, "bootstrap": 0}
    for k in range(sets):
        y, s, cluster = clustered_set(rng)
        intervals = {
            "naive": fastauc.roc_auc_ci(y, s),
            "clustered": fastauc.roc_auc_ci(y, s, cluster=cluster),
            "bootstrap": fastauc.bootstrap_ci(y, s, cluster=cluster, n_resamples=resamples,
                                              random_state=k),
        }
        for name, r in intervals.items():
            hits[name] += bool(r.low <= truth <= r.high)
    return truth, {name: h / sets for name, h in hits.items()}


def table(rows, truth, shares, args):
    import numba

    lines = ["| call | rows | time | beside | its time | ratio |", "|---|---|---|---|---|---|"]
    for name, n, t, base, t_base, ratio in rows:
        lines.append(f"| {name} | {n:,} | {_ms(t)} | {base} | {_ms(t_base)} | {ratio} |"
                     if n else f"| {name} | | {_ms(t)} | {base} | {_ms(t_base)} | {ratio} |")
    lines += ["", f"{cpu_name()}, {os.cpu_count()} cores; Python {platform.python_version()}, "
              f"numpy {np.__version__}, numba {numba.__version__}, fastauc "
              f"{fastauc.__version__}; {time.strftime('%Y-%m-%d')}. One process, warm; best of "
              f"{args.repeats} (the permutation tests: one call). 10% positives, scores normal "
              "+ label.", "",
              f"Coverage of 95% intervals of the AUC, {args.sets} data sets of clustered "
              "binormal data (300 patients of 1 to 8 units; a patient's label, 30% positive, "
              "is each unit's with probability 0.85; score = label + patient effect + unit "
              "noise, both standard normal; true AUC "
              f"Phi(1/2) = {truth:.4f}):", "",
              "| interval | coverage |", "|---|---|",
              f"| DeLong, clusters ignored | {100 * shares['naive']:.1f}% |",
              f"| DeLong with `cluster=` (Obuchowski) | {100 * shares['clustered']:.1f}% |",
              f"| `bootstrap_ci` with `cluster=`, {args.resamples} replicates | "
              f"{100 * shares['bootstrap']:.1f}% |"]
    return lines


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="100x fewer rows, 40 data sets")
    parser.add_argument("--n", type=float, default=1e7, help="rows of the timed calls")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--sets", type=int, default=None, help="data sets (400; 40 --quick)")
    parser.add_argument("--resamples", type=int, default=500)
    parser.add_argument("--page", help="write the tables into this markdown page's section")
    args = parser.parse_args(argv)
    n = int(args.n) // (100 if args.quick else 1)
    args.sets = args.sets or (40 if args.quick else 400)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        rows = timing_rows(n, args.repeats)
        truth, shares = coverage(args.sets, args.resamples)
    lines = table(rows, truth, shares, args)
    print("\n".join(lines))
    if args.page:
        _write(args.page, lines, BEGIN, END, "Comparing models and planning studies",
               "python benchmarks/inference_table.py --page docs/benchmarks.md")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
