"""A/B timing of two fastauc builds on the rows of docs/benchmarks.md.

Only fastauc's own calls are timed (the "fastauc" column of the page), never
its peers (scikit-learn, scipy, pandas, polars, LightGBM, XGBoost, the naive
reference): those do not change between two builds of fastauc.  The data and
the calls are those of ``benchmarks/run_benchmarks.py`` (fixed seeds, the
same in both builds).

    git worktree add /tmp/old <commit>    # the build to compare with
    python benchmarks/ab_rows.py --roots /tmp/old . --rounds 2
    python benchmarks/ab_rows.py --roots OLD NEW --rounds 3 --only bootstrap
    python benchmarks/ab_rows.py --roots OLD NEW --rounds 1 --quick   # smoke test

The parent alternates the builds: for each round, for each root in turn, it
starts a fresh child process (``--child ROOT``) which puts ROOT first on
``sys.path``, imports that root's ``fastauc``, sets ``fastauc._warm.MODE =
"kernels"`` (the first-call numpy paths never answer), builds the data once,
calls every row once (compile or load the kernels), then times each row: the
best of ``--repeat`` (3) timings, of 2 for a row whose warm-up call took over
1 s.  A per-call row times ``number`` calls in one timing (about 1e6 rows in
all, as run_benchmarks does) and reports the time of one call.  The child
prints one JSON line a row: ``{"row": label, "ms": best}`` (or ``"missing"``
when the build lacks the call, ``"error"`` when the call raised).

The parent prints a markdown table, row | first root's median ms | second
root's median ms | ratio second/first | all values, sorted by the ratio
(largest first); a ratio over 1.10 is flagged.

Left out: the LightGBM/XGBoost objective rows, the first-call/empty-cache
rows, the 1e8 memory rows and the cross_validate scoring row (its time is
mostly scikit-learn's scorer machinery).  ``--quick`` divides every n (and the
group count) by 100, at least 1,000 rows; the labels keep the page's n.
A full child takes 65-85 s on a 2-core machine; a quick one about 15 s
once the Numba cache of both builds is warm.
"""

from __future__ import annotations

import argparse
import gc
import importlib
import json
import math
import os
import statistics
import subprocess
import sys
import tempfile
import time
import warnings
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import best_time, data  # noqa: E402 (benchmarks/common.py: no fastauc import)

SLOW_S = 1.0  # a row whose warm-up call takes longer is timed best of 2


# ---------------------------------------------------------------- the child


class Ctx:
    """The child's state: the fastauc module, the sizes and the data sets,
    each built once on first use (only those the selected rows need)."""

    def __init__(self, fastauc, quick, tmpdir):
        self.fa = fastauc
        self.quick = quick
        self.tmpdir = tmpdir
        self._data = {}

    def n(self, n):
        """``n``, or ``n / 100`` (at least 1,000) with ``--quick``."""
        return max(n // 100, 1000) if self.quick else n

    def groups(self, k):
        return max(k // 100, 10) if self.quick else k

    def get(self, key):
        if key not in self._data:
            self._data[key] = DATASETS[key](self)
        return self._data[key]


def _uniform(n, pos_rate=0.1, seed=0):
    """run_benchmarks.data: uniform scores, int64 labels, uniform weights."""
    return data(n, pos_rate, seed)


def _issue(n, seed=0):
    """run_benchmarks.issue_data: 10% positives, scores normal + label."""
    import numpy as np

    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.1).astype(np.int64)
    return y, rng.standard_normal(n) + y


def ds_uniform(c):
    """sklearn_rows, inference_rows, threshold_rows, group_rows, accumulator_rows."""
    import numpy as np

    n = c.n(10**7)
    y, s, w = _uniform(n)
    return {"y": y, "s": s, "w": w, "p": np.clip(s, 1e-6, 1 - 1e-6)}


def ds_inference_s2(c):
    """inference_rows' second model for delong_test."""
    import numpy as np

    d = c.get("uniform")
    n = d["s"].shape[0]
    return np.clip(d["s"] + 0.3 * np.random.default_rng(1).random(n), 0, 1)


def ds_report_two(c):
    """threshold_rows' two models for report."""
    import numpy as np

    d = c.get("uniform")
    s = d["s"]
    s2 = np.clip(s + np.random.default_rng(1).normal(0.0, 0.3, s.shape[0]), 0.0, 1.0)
    return np.column_stack((s, s2))


def ds_parquet(c):
    """threshold_rows' Parquet file of (y, s)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    d = c.get("uniform")
    path = os.path.join(c.tmpdir, "bench.parquet")
    pq.write_table(pa.table({"y": d["y"], "s": d["s"]}), path)
    return path


def ds_boot(c):
    """inference_rows' bootstrap data (1e6 rows)."""
    y, s, _ = _uniform(c.n(10**6))
    return {"y": y, "s": s, "s_rev": s[::-1].copy()}


def ds_groups(c):
    """group_rows: 10,000 group ids (rng 7) over the uniform data."""
    import numpy as np

    n = c.get("uniform")["y"].shape[0]
    return np.random.default_rng(7).integers(0, c.groups(10_000), n)


def ds_small_uniform(c):
    """model_selection_rows' per-call data (1,000 rows)."""
    import numpy as np

    y, s, _ = _uniform(1000)
    return {"y": y, "s": s, "p": np.clip(s, 1e-6, 1 - 1e-6),
            "pred": (s > 0.5).astype(np.int64)}


def ds_naive(c):
    """naive_row: half positives, 1e5 rows."""
    y, s, _ = _uniform(c.n(10**5), pos_rate=0.5)
    return {"y": y, "s": s}


def ds_issue(c):
    """host_rows: issue_data(1e7) and its float32/bool/rounded variants."""
    import numpy as np

    y, s = _issue(c.n(10**7))
    return {"y": y, "s": s, "yb": y.astype(bool), "s32": s.astype(np.float32),
            "p3": np.round(1.0 / (1.0 + np.exp(-s)), 3),
            "w": np.random.default_rng(1).random(y.shape[0])}


def ds_issue_small(c):
    """host_rows' per-call data at 1e3, 1e4, 1e5, 1e6 (seed 2)."""
    return {m: _issue(c.n(m), seed=2) for m in (10**3, 10**4, 10**5, 10**6)}


def ds_multiclass(c):
    """host_rows' 10-class probabilities (1e6 rows)."""
    import numpy as np

    n, k = c.n(10**6), 10
    rng = np.random.default_rng(0)
    ym = rng.integers(0, k, n)
    logits = rng.normal(size=(n, k))
    logits[np.arange(n), ym] += 1.0
    P = np.exp(logits)
    P /= P.sum(1, keepdims=True)
    return {"y": ym, "P": P}


def ds_merge(c):
    """accumulator_rows: two accumulators of half the rows each, sorted."""
    d = c.get("uniform")
    y, s = d["y"], d["s"]
    half = y.shape[0] // 2
    a = c.fa.Accumulator().update(y[:half], s[:half])
    b = c.fa.Accumulator().update(y[half:], s[half:])
    a.n_groups, b.n_groups  # sorted into one table each before the timing
    return a, b


def ds_training(c):
    """training_rows: rng 0, scores normal + label, 10,000 groups, then the
    AUCLinearClassifier's 20 features (1e6 rows) from the same generator."""
    import numpy as np

    n, n_boost = c.n(10**7), c.n(10**6)
    rng = np.random.default_rng(0)
    y = (rng.random(n) < 0.1).astype(np.int64)
    s = rng.standard_normal(n) + y
    groups = rng.integers(0, c.groups(10_000), n)
    X = rng.standard_normal((n_boost, 20))
    yl = (X[:, :5].sum(axis=1) + 2 * rng.standard_normal(n_boost) > 3).astype(np.int64)
    m = c.n(10**5)
    return {"y": y, "s": s, "groups": groups, "X": X, "yl": yl, "y5": y[:m], "s5": s[:m]}


DATASETS = {
    "uniform": ds_uniform, "inference_s2": ds_inference_s2, "report_two": ds_report_two,
    "parquet": ds_parquet, "boot": ds_boot, "groups": ds_groups,
    "small_uniform": ds_small_uniform, "naive": ds_naive, "issue": ds_issue,
    "issue_small": ds_issue_small, "multiclass": ds_multiclass, "merge": ds_merge,
    "training": ds_training,
}


class Row:
    """One timed call: ``make(ctx)`` returns the zero-argument function to
    time (it builds or fetches its data); ``needs`` names the attributes of
    fastauc it calls (dotted; a submodule is imported); ``number`` calls a
    timing (the time of one is reported), ``gap`` seconds between timings,
    ``warm`` seconds of untimed calls before each timing, ``env`` set around
    the warm-up and the timings."""

    def __init__(self, label, make, needs, number=1, gap=0.0, warm=0.0, env=None):
        self.label, self.make, self.needs = label, make, needs
        self.number, self.gap, self.warm, self.env = number, gap, warm, env or {}


def _per_call_number(n):
    """About 1e6 rows a timing, as run_benchmarks' per-call rows."""
    return max(1, 10**6 // n)


def rows_table():
    """Every row, in the page's order."""
    R = []

    def add(label, make, needs, **kw):
        R.append(Row(label, make, needs, **kw))

    # The scikit-learn functions (sklearn_rows: uniform scores, 1e7)
    U = "uniform"
    add("roc_auc_score 1e7 (uniform)",
        lambda c: (lambda d: lambda: c.fa.roc_auc_score(d["y"], d["s"]))(c.get(U)),
        ["roc_auc_score"])
    def plain_rows(key, tag, names):
        """Each named function on the data set's labels and scores, then the
        weighted AUC."""
        for name in names:
            add(f"{name} 1e7 ({tag})",
                lambda c, name=name: (lambda d, f=getattr(c.fa, name): lambda: f(
                    d["y"], d["s"]))(c.get(key)), [name])
        add(f"roc_auc_score sample_weight 1e7 ({tag})",
            lambda c: (lambda d: lambda: c.fa.roc_auc_score(d["y"], d["s"],
                                                            sample_weight=d["w"]))(
                c.get(key)), ["roc_auc_score"])

    plain_rows(U, "uniform", ("roc_curve", "average_precision_score", "precision_recall_curve"))
    add("log_loss 1e7 (uniform, clipped)",
        lambda c: (lambda d: lambda: c.fa.log_loss(d["y"], d["p"]))(c.get(U)), ["log_loss"])
    # per call at 1e3 (small_n_row and model_selection_rows: data(1000))
    for name, arg in (("roc_auc_score", "s"), ("average_precision_score", "s"),
                      ("roc_curve", "s"), ("precision_recall_curve", "s"),
                      ("log_loss", "p"), ("f1_score", "pred")):
        add(f"{name} per call 1e3 (uniform)",
            lambda c, name=name, arg=arg: (
                lambda d, f=getattr(c.fa, name): lambda: f(d["y"], d[arg]))(
                    c.get("small_uniform")),
            [name], number=_per_call_number(1000), gap=0.2)
    # naive_row: roc_auc_score at 1e5, half positives
    add("roc_auc_score 1e5 (uniform, half positives; naive row)",
        lambda c: (lambda d: lambda: c.fa.roc_auc_score(d["y"], d["s"]))(c.get("naive")),
        ["roc_auc_score"], number=10, gap=0.2)

    # Confidence intervals and tests (inference_rows)
    add("mann_whitney_u 1e7 (uniform)",
        lambda c: (lambda d: lambda: c.fa.mann_whitney_u(d["y"], d["s"]))(c.get(U)),
        ["mann_whitney_u"])
    add("roc_auc_ci (DeLong) 1e7 (uniform)",
        lambda c: (lambda d: lambda: c.fa.roc_auc_ci(d["y"], d["s"]))(c.get(U)),
        ["roc_auc_ci"])
    add("delong_test (two models) 1e7 (uniform)",
        lambda c: (lambda d, s2: lambda: c.fa.delong_test(d["y"], d["s"], s2))(
            c.get(U), c.get("inference_s2")), ["delong_test"])
    for method in ("percentile", "bca"):
        add(f"bootstrap_ci 1000 replicates {method} 1e6 (uniform)",
            lambda c, method=method: (lambda d: lambda: c.fa.bootstrap_ci(
                d["y"], d["s"], n_resamples=1000, method=method, random_state=0))(
                    c.get("boot")), ["bootstrap_ci"])
    add("bootstrap_test 1000 replicates 1e6 (uniform)",
        lambda c: (lambda d: lambda: c.fa.bootstrap_test(
            d["y"], d["s"], d["s_rev"], n_resamples=1000, random_state=0))(c.get("boot")),
        ["bootstrap_test"])

    # Thresholds and reports (threshold_rows)
    add("threshold_metrics 1e7 (uniform)",
        lambda c: (lambda d: lambda: c.fa.threshold_metrics(d["y"], d["s"]))(c.get(U)),
        ["threshold_metrics"])
    add("threshold_metrics then .f1 and .mcc 1e7 (uniform)",
        lambda c: (lambda d: lambda: (lambda m: (m.f1, m.mcc))(
            c.fa.threshold_metrics(d["y"], d["s"])))(c.get(U)), ["threshold_metrics"])
    add("best_threshold (F1) 1e7 (uniform)",
        lambda c: (lambda d: lambda: c.fa.best_threshold(d["y"], d["s"]))(c.get(U)),
        ["best_threshold"])
    add("report one model DeLong 1e7 (uniform)",
        lambda c: (lambda d: lambda: c.fa.report(d["y"], d["s"]))(c.get(U)), ["report"])
    add("report two models DeLong + paired test 1e7 (uniform)",
        lambda c: (lambda d, two: lambda: c.fa.report(d["y"], two))(
            c.get(U), c.get("report_two")), ["report"])
    add("cli.read_columns Parquet 2 columns 1e7 (uniform)",
        lambda c: (lambda path, f=importlib.import_module(c.fa.__name__ + ".cli").read_columns:
                   lambda: f(path, ["y", "s"]))(c.get("parquet")),
        ["cli.read_columns"])

    # Metrics per group (group_rows)
    add("by_group 10,000 groups 1e7 (uniform)",
        lambda c: (lambda d, g: lambda: c.fa.by_group(d["y"], d["s"], g))(
            c.get(U), c.get("groups")), ["by_group"])

    # Against numpy's sort ... (host_rows: issue_data, scores normal + label)
    I = "issue"
    for label, yk, sk in (("f64 scores int64 labels", "y", "s"),
                          ("f32 scores bool labels", "yb", "s32"),
                          ("probabilities rounded to 3 decimals", "y", "p3")):
        add(f"roc_auc_score {label} 1e7 (normal+y)",
            lambda c, yk=yk, sk=sk: (lambda d: lambda: c.fa.roc_auc_score(d[yk], d[sk]))(
                c.get(I)), ["roc_auc_score"])
    plain_rows(I, "normal+y", ("average_precision_score", "roc_curve", "precision_recall_curve"))
    for m in (10**3, 10**4, 10**5, 10**6):
        add(f"roc_auc_score per call {m:.0e} (normal+y)",
            lambda c, m=m: (lambda d: lambda: c.fa.roc_auc_score(*d))(c.get("issue_small")[m]),
            ["roc_auc_score"], number=_per_call_number(m), gap=0.2)
    add("roc_auc_score 1 thread (FASTAUC_NUM_THREADS=1) 1e7 (normal+y) [compared-with col]",
        lambda c: (lambda d: lambda: c.fa.roc_auc_score(d["y"], d["s"]))(c.get(I)),
        ["roc_auc_score"], env={"FASTAUC_NUM_THREADS": "1"})
    for scheme in ("multinomial", "poisson"):
        add(f"bootstrap_ci(scheme='{scheme}') setup 1 replicate 1e7 (normal+y)",
            lambda c, scheme=scheme: (lambda d: lambda: c.fa.bootstrap_ci(
                d["y"], d["s"], n_resamples=1, method="percentile", scheme=scheme))(c.get(I)),
            ["bootstrap_ci"])
    for mc in ("ovr", "ovo"):
        add(f"roc_auc_score(multi_class='{mc}') 10 classes 1e6",
            lambda c, mc=mc: (lambda d: lambda: c.fa.roc_auc_score(d["y"], d["P"],
                                                                    multi_class=mc))(
                c.get("multiclass")), ["roc_auc_score"])

    # Batches and merges (accumulator_rows: uniform data)
    def fed(c):
        d = c.get(U)
        y, s = d["y"], d["s"]
        n = y.shape[0]
        batch = n // 100

        def run():
            acc = c.fa.Accumulator()
            for a in range(0, n, batch):
                acc.update(y[a:a + batch], s[a:a + batch])
            return acc.roc_auc()
        return run

    add("Accumulator 100 batches of 1e5 then roc_auc() 1e7 (uniform)", fed,
        ["Accumulator.update", "Accumulator.roc_auc"])
    add("Accumulator.merge two halves 1e7 (uniform)",
        lambda c: (lambda ab: lambda: c.fa.Accumulator().merge(ab[0]).merge(ab[1]).n_groups)(
            c.get("merge")), ["Accumulator.merge", "Accumulator.n_groups"])
    add("Accumulator().update(1e6 rows).roc_auc() (uniform)",
        lambda c: (lambda d, m=c.n(10**6): lambda: c.fa.Accumulator().update(
            d["y"][:m], d["s"][:m]).roc_auc())(c.get(U)),
        ["Accumulator.update", "Accumulator.roc_auc"])

    # Training for AUC (training_rows: scores normal + label)
    T = "training"
    add("pairwise_loss_gradient(squared_hinge, hessian=True) 1e7 (normal+y)",
        lambda c: (lambda d: lambda: c.fa.pairwise_loss_gradient(d["y"], d["s"], hessian=True))(
            c.get(T)), ["pairwise_loss_gradient"])
    add("pairwise_loss_gradient hessian=True 10,000 groups 1e7 (normal+y)",
        lambda c: (lambda d: lambda: c.fa.pairwise_loss_gradient(
            d["y"], d["s"], groups=d["groups"], hessian=True))(c.get(T)),
        ["pairwise_loss_gradient"])
    add("pairwise_loss_gradient hessian=True per call 1e5 (normal+y)",
        lambda c: (lambda d: lambda: c.fa.pairwise_loss_gradient(d["y5"], d["s5"],
                                                                  hessian=True))(c.get(T)),
        ["pairwise_loss_gradient"], number=10, gap=0.2, warm=0.3)
    add("AUCLinearClassifier().fit 20 features 1e6",
        lambda c: (lambda d: lambda: c.fa.AUCLinearClassifier().fit(d["X"], d["yl"]))(
            c.get(T)), ["AUCLinearClassifier"], gap=0.5)
    return R


def _has(fa, dotted):
    obj = fa
    for i, part in enumerate(dotted.split(".")):
        if not hasattr(obj, part):
            if i == 0:  # perhaps a submodule not imported yet
                try:
                    obj = importlib.import_module(f"{fa.__name__}.{part}")
                    continue
                except ImportError:
                    return False
            return False
        obj = getattr(obj, part)
    return True


class _Env:
    def __init__(self, env):
        self.env, self.old = env, {}

    def __enter__(self):
        for k, v in self.env.items():
            self.old[k] = os.environ.get(k)
            os.environ[k] = v

    def __exit__(self, *exc):
        for k, v in self.old.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


def _emit(obj):
    print(json.dumps(obj), flush=True)


def child(root, only, quick, repeat):
    root = str(Path(root).resolve())
    sys.path.insert(0, root)
    import numpy as np  # noqa: F401  (before fastauc, as any user)

    t_start = time.perf_counter()
    import fastauc

    t_import = time.perf_counter() - t_start
    where = str(Path(fastauc.__file__).resolve())
    if not where.startswith(root + os.sep):
        raise SystemExit(f"imported fastauc from {where}, not from {root}")
    warm_mod = importlib.import_module("fastauc._warm")
    has_mode = hasattr(warm_mod, "MODE")
    warm_mod.MODE = "kernels"
    warnings.simplefilter("ignore")  # small groups with one class, and the like

    rows = [r for r in rows_table() if not only or only.lower() in r.label.lower()]
    info = {"root": root, "fastauc": where, "import_s": round(t_import, 3),
            "warm_MODE_existed": has_mode, "quick": quick, "repeat": repeat,
            "env": {k: v for k, v in os.environ.items() if k.startswith(("FASTAUC", "NUMBA"))}}
    try:
        from fastauc import _parallel, _sort

        info["threads"] = _parallel.num_threads()
        info["sort_path"] = _sort.method()
    except Exception as exc:  # an older build: informative only
        info["sort_path"] = f"unknown ({type(exc).__name__})"
    _emit({"info": info})

    with tempfile.TemporaryDirectory() as tmpdir:
        ctx = Ctx(fastauc, quick, tmpdir)
        t0 = time.perf_counter()
        ready = []  # (row, fn, warm-up seconds)
        for r in rows:
            missing = [name for name in r.needs if not _has(fastauc, name)]
            if missing:
                _emit({"row": r.label, "missing": ", ".join(missing)})
                continue
            try:
                fn = r.make(ctx)
            except Exception as exc:
                _emit({"row": r.label, "error": f"data: {type(exc).__name__}: {exc}"})
                continue
            ready.append((r, fn))
        t_data = time.perf_counter() - t0
        warmed = []
        t0 = time.perf_counter()
        for r, fn in ready:  # compile or load every kernel first
            try:
                with _Env(r.env):
                    t = time.perf_counter()
                    fn()
                    warmed.append((r, fn, time.perf_counter() - t))
            except Exception as exc:
                _emit({"row": r.label, "error": f"{type(exc).__name__}: {exc}"[:300]})
        t_warm = time.perf_counter() - t0
        t0 = time.perf_counter()
        for r, fn, first in warmed:
            gc.collect()
            reps = max(1, repeat - 1) if first > SLOW_S else repeat
            with _Env(r.env):
                t = best_time(fn, reps, number=r.number, gap=r.gap, warm=r.warm)
            _emit({"row": r.label, "ms": t * 1e3, "repeat": reps, "number": r.number})
        _emit({"info": {"data_s": round(t_data, 1), "warmup_s": round(t_warm, 1),
                        "timing_s": round(time.perf_counter() - t0, 1)}})
    return 0


# --------------------------------------------------------------- the parent


def _names(roots):
    names = [Path(r).resolve().name or str(r) for r in roots]
    return names if len(set(names)) == len(names) else [str(r) for r in roots]


def _fmt(ms):
    return f"{ms:.4g}"


def parent(args):
    roots = [str(Path(r).resolve()) for r in args.roots]
    if len(roots) != 2:
        raise SystemExit("--roots takes two roots: the base build, then the new one")
    for r in roots:
        if not (Path(r) / "fastauc" / "__init__.py").exists():
            raise SystemExit(f"no fastauc package under {r}")
    names = _names(roots)
    me = str(Path(__file__).resolve())
    results = {r: {} for r in roots}  # root -> label -> [ms per round]
    status = {r: {} for r in roots}   # root -> label -> "missing ..."/"error ..."
    order = []
    for rnd in range(args.rounds):
        for root, name in zip(roots, names):
            cmd = [sys.executable, me, "--child", root, "--repeat", str(args.repeat)]
            if args.only:
                cmd += ["--only", args.only]
            if args.quick:
                cmd.append("--quick")
            t0 = time.perf_counter()
            proc = subprocess.run(cmd, cwd=root, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                  text=True)
            wall = time.perf_counter() - t0
            infos = []
            for line in proc.stdout.splitlines():
                if not line.startswith("{"):
                    continue
                try:
                    obj = json.loads(line)
                except ValueError:
                    continue
                if "info" in obj:
                    infos.append(obj["info"])
                    continue
                label = obj.get("row")
                if label is None:
                    continue
                if label not in order:
                    order.append(label)
                if "ms" in obj:
                    results[root].setdefault(label, []).append(obj["ms"])
                else:
                    status[root][label] = ("missing: " + obj["missing"] if "missing" in obj
                                           else "error: " + obj.get("error", "?"))
            merged = {k: v for d in infos for k, v in d.items() if k != "env"}
            print(f"round {rnd + 1}/{args.rounds}, {name}: {wall:.1f} s, exit {proc.returncode}; "
                  + ", ".join(f"{k}={v}" for k, v in merged.items()
                              if k in ("import_s", "threads", "sort_path", "data_s",
                                       "warmup_s", "timing_s", "warm_MODE_existed")),
                  flush=True)
            if proc.returncode:
                print("  child stderr (tail):\n  " + "\n  ".join(
                    proc.stderr.strip().splitlines()[-15:]), flush=True)

    a, b = roots
    table = []
    for label in order:
        va, vb = results[a].get(label, []), results[b].get(label, [])
        ma = statistics.median(va) if va else None
        mb = statistics.median(vb) if vb else None
        ratio = mb / ma if ma and mb else None
        table.append((label, ma, mb, ratio, va, vb))
    table.sort(key=lambda t: (t[3] is None, -(t[3] or 0.0)))

    def cell(m, root, label):
        return _fmt(m) if m is not None else status[root].get(label, "no value")

    print()
    print(f"A/B of fastauc: {names[0]} = {a}, {names[1]} = {b}; {args.rounds} round(s), "
          f"best of {args.repeat} per child (of 2 for rows over {SLOW_S:g} s)"
          + ("; --quick: n / 100" if args.quick else "") + "; times in ms (per call)")
    print()
    print(f"| row | {names[0]} median ms | {names[1]} median ms | ratio {names[1]}/{names[0]} "
          "| all values |")
    print("|---|---|---|---|---|")
    flagged = []
    for label, ma, mb, ratio, va, vb in table:
        if ratio is None:
            rtxt = "—"
        elif ratio > 1.10:
            rtxt = f"**{ratio:.3f} (> 1.10)**"
            flagged.append(label)
        else:
            rtxt = f"{ratio:.3f}"
        allv = (f"{names[0]}: {', '.join(_fmt(v) for v in va) or '—'}; "
                f"{names[1]}: {', '.join(_fmt(v) for v in vb) or '—'}")
        print(f"| {label} | {cell(ma, a, label)} | {cell(mb, b, label)} | {rtxt} | {allv} |")
    ratios = [t[3] for t in table if t[3]]
    print()
    if ratios:
        geo = math.exp(sum(math.log(r) for r in ratios) / len(ratios))
        print(f"{len(ratios)} rows compared; geometric mean ratio {names[1]}/{names[0]}: "
              f"{geo:.3f}; {len(flagged)} over 1.10" + (":" if flagged else "."))
        for label in flagged:
            print(f"  - {label}")
    else:
        print("no rows compared")
    return 0


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--roots", nargs="+", help="the base build's root, then the new one's")
    ap.add_argument("--rounds", type=int, default=2, help="child processes per root (2)")
    ap.add_argument("--only", default=None, help="rows whose label holds TEXT (any case)")
    ap.add_argument("--quick", action="store_true", help="every n / 100 (a smoke test)")
    ap.add_argument("--repeat", type=int, default=3,
                    help="timings a row, the best kept (3; one fewer for rows over 1 s)")
    ap.add_argument("--child", metavar="ROOT", help=argparse.SUPPRESS)
    ap.add_argument("--list", action="store_true", help="print the rows' labels and exit")
    args = ap.parse_args(argv)
    if args.list:
        for r in rows_table():
            if not args.only or args.only.lower() in r.label.lower():
                print(r.label)
        return 0
    if args.child:
        return child(args.child, args.only, args.quick, args.repeat)
    if not args.roots:
        ap.error("--roots is required")
    return parent(args)


if __name__ == "__main__":
    raise SystemExit(main())
