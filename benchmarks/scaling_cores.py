"""How fastauc's calls scale with the thread count, and that they agree to the bit.

Each row of the table is one call on the same data (n = 1e7 rows, 10%
positives, scores normal + label, unless the row says otherwise), timed at
``FASTAUC_NUM_THREADS`` = 1, 2, 4, 8, 16 and all usable CPUs (best of
``--repeat``, milliseconds, in one process: the environment variable is read
at each call).  Every result is also compared with the one-thread result
bit for bit; a difference is printed and makes the exit status 1.

Usage::

    python benchmarks/scaling_cores.py                 # the table (about 3 minutes on 16 cores)
    python benchmarks/scaling_cores.py --threads 2,16  # oversubscribed on a 2-core machine
    python benchmarks/scaling_cores.py --big           # also roc_auc_score at 1e8 (float32 + bool)
    python benchmarks/scaling_cores.py --phases        # where the float64 AUC's time goes
    python benchmarks/scaling_cores.py --page out16.txt out2.txt  # saved outputs -> docs

``--page`` writes saved outputs of this script (a run on a lent machine, a
run here) into docs/benchmarks.md's "Every core" section, which
``run_benchmarks.py`` keeps when it rewrites the page, and the first one's
table into docs/guide/deploying.md (and README.md, where it has them)
between ``<!-- cores -->`` markers.

The header names the CPU, numpy's SIMD features, the versions and the sort
path chosen at each thread count; docs/benchmarks.md keeps the latest table.
"""

from __future__ import annotations

import argparse
import collections
import os
import platform
import sys
import time
import warnings
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import fastauc  # noqa: E402
from fastauc import _parallel, _sort, _warm  # noqa: E402
from fastauc._demo import _best_time  # noqa: E402
from tests.compare import exact_bits  # noqa: E402


def _cpu() -> str:
    return _sort._host().split("|")[0]  # the CPU model, as the sort-path choice keys it


def _simd() -> str:
    try:
        from numpy._core._multiarray_umath import __cpu_features__ as feats
    except ImportError:  # pragma: no cover - older numpy layouts
        return "unknown"
    keys = ("SSE42", "AVX2", "FMA3", "AVX512F", "AVX512_SKX", "AVX512_ICL", "AVX512_SPR",
            "NEON", "ASIMD", "SVE")
    return ",".join(k for k in keys if feats.get(k)) or "none"


def make_rows(n: int, seed: int = 0):
    """``{label: callable}``: the calls of the table, on data made once."""
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.1
    yi = y.astype(np.int64)
    s = rng.standard_normal(n) + y
    s32 = s.astype(np.float32)
    s2 = rng.standard_normal(n) + 0.7 * y
    w = rng.random(n)
    two = np.column_stack([s, s2])
    groups = rng.integers(0, 10_000, n)
    batches = [(yi[a:a + n // 100], s[a:a + n // 100]) for a in range(0, n, n // 100)]
    m = 1_000_000
    classes = rng.integers(0, 10, m)
    raw = rng.random((m, 10)) + np.eye(10)[classes]
    proba = raw / raw.sum(axis=1, keepdims=True)
    yb, sb = yi[:m], s[:m]

    def accumulated():
        acc = fastauc.Accumulator()
        for yy, ss in batches:
            acc.update(yy, ss)
        return acc.roc_auc()

    return {
        "`roc_auc_score` float64": lambda: fastauc.roc_auc_score(yi, s),
        "`roc_auc_score` float32 + bool": lambda: fastauc.roc_auc_score(y, s32),
        "`roc_auc_score` weighted": lambda: fastauc.roc_auc_score(yi, s, sample_weight=w),
        "`roc_curve`": lambda: fastauc.roc_curve(yi, s),
        "`precision_recall_curve`": lambda: fastauc.precision_recall_curve(yi, s),
        "`average_precision_score`": lambda: fastauc.average_precision_score(yi, s),
        "`roc_auc_ci`": lambda: fastauc.roc_auc_ci(yi, s),
        "`delong_test`, 2 models": lambda: fastauc.delong_test(yi, s, s2),
        "`report`, 2 models": lambda: fastauc.report(yi, two),
        "`by_group`, 10,000 groups": lambda: fastauc.by_group(yi, s, groups),
        "`Accumulator`, 100 batches": accumulated,
        "`pairwise_loss_gradient` (Hessian)": lambda: fastauc.pairwise_loss_gradient(
            yi, s, hessian=True),
        "multiclass ovr, 1e6 x 10": lambda: fastauc.roc_auc_score(classes, proba,
                                                                  multi_class="ovr"),
        "`bootstrap_ci`, 200 replicates, 1e6": lambda: fastauc.bootstrap_ci(
            yb, sb, n_resamples=200, random_state=0),
    }


def best(fn, repeat):
    """``(seconds, result)``: the least time of ``repeat`` calls, and a result."""
    out, seconds = _best_time(fn, repeat)
    return seconds, out


BEGIN, END = "<!-- scaling_cores: begin -->", "<!-- scaling_cores: end -->"
PAGE = Path(__file__).resolve().parent.parent / "docs" / "benchmarks.md"
README = Path(__file__).resolve().parent.parent / "README.md"
GUIDE = Path(__file__).resolve().parent.parent / "docs" / "guide" / "deploying.md"
README_BEGIN, README_END = "<!-- cores -->", "<!-- /cores -->"


def _replace_between(text, begin, end, block):
    if begin in text and end in text:
        head, rest = text.split(begin, 1)
        return head + begin + "\n" + block + end + rest.split(end, 1)[1]
    return text


def write_page(outputs, page=PAGE):
    """The saved outputs as the page's "Every core" section (replaced, or added at the end)."""
    parts = [BEGIN, "## Every core", "",
             "How one call scales with `FASTAUC_NUM_THREADS` on the same data, and that its "
             "result is the same to the last bit at every thread count. Generated by "
             "`python benchmarks/scaling_cores.py` (one run per block, each in one process; "
             "`--page` puts saved runs here). Do not edit by hand.", ""]
    for path in outputs:
        text = Path(path).read_text().strip().splitlines()
        body = [line for line in text if not line.startswith("fastauc: compiling")]
        parts += [line if line.startswith("|") or not line.strip() else f"{line}  "
                  for line in body] + [""]
    parts.append(END)
    section = "\n".join(parts) + "\n"
    old = page.read_text()
    if BEGIN in old and END in old:
        head, rest = old.split(BEGIN, 1)
        new = head + section.rstrip("\n") + rest.split(END, 1)[1]
    else:
        new = old.rstrip("\n") + "\n\n" + section
    page.write_text(new)
    # the README's table: the first saved run's CPU line and table
    first = Path(outputs[0]).read_text().splitlines()
    cpu = next((line for line in first if line.startswith("CPU: ")), "")
    table = [line for line in first if line.startswith("|")]
    block = (f"{cpu.removeprefix('CPU: ')}; n = 1e7 rows unless a row says otherwise, best of "
             "3, ms ([docs/benchmarks.md](docs/benchmarks.md#every-core); "
             "`benchmarks/scaling_cores.py`):\n\n" + "\n".join(table) + "\n")
    extra = [line for line in first if line.startswith(("scikit-learn's", "`roc_auc_score` at 1e8"))]
    if extra:
        block += "\n" + "  \n".join(extra) + "\n"
    for doc in (README, GUIDE):  # the same block in both, links relative to each
        if doc.exists():
            text = (block if doc is README
                    else block.replace("](docs/benchmarks.md", "](../benchmarks.md")
                    .replace("[docs/benchmarks.md]", "[benchmarks.md]"))
            doc.write_text(_replace_between(doc.read_text(), README_BEGIN, README_END, text))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=float, default=1e7)
    parser.add_argument("--threads", default=None,
                        help="comma-separated thread counts (default 1,2,4,8,16 and all CPUs)")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--only", default=None, help="rows whose label contains this text")
    parser.add_argument("--big", action="store_true",
                        help="also roc_auc_score at 1e8 rows, float32 + bool")
    parser.add_argument("--numpy-sort", action="store_true",
                        help="also the float64 AUC with FASTAUC_SORT=numpy")
    parser.add_argument("--page", nargs="+", default=None, metavar="SAVED_OUTPUT",
                        help="write saved outputs of this script into docs/benchmarks.md")
    parser.add_argument("--sklearn", action="store_true",
                        help="also scikit-learn's roc_auc_score on the float64 row (once)")
    parser.add_argument("--phases", nargs="?", const="", default=None,
                        help="the wall time of each parallel step of the rows whose labels "
                             "contain one of these comma-separated texts (default: every "
                             "row), and the rest")
    args = parser.parse_args(argv)
    if args.page:
        write_page(args.page)
        return 0
    warnings.simplefilter("ignore")  # by_group's one-class groups: NaN, as documented
    _warm.MODE = "kernels"  # time the compiled kernels, never the first-call path
    cpus = _parallel.usable_cpus()
    if args.threads:
        counts = [int(t) for t in args.threads.split(",")]
    else:
        counts = sorted({t for t in (1, 2, 4, 8, 16) if t <= cpus} | {cpus})
    rows = make_rows(int(args.n))
    if args.numpy_sort:
        auc = rows["`roc_auc_score` float64"]
        rows["`roc_auc_score` float64, numpy sort path"] = lambda: _with_sort("numpy", auc)
    if args.only:
        rows = {k: f for k, f in rows.items() if args.only in k}
    env = os.environ.get("FASTAUC_NUM_THREADS")
    choices = {}
    for t in counts:
        os.environ["FASTAUC_NUM_THREADS"] = str(t)
        choices[t] = _sort.method()  # calibrated (once per thread count) before timing
    os.environ["FASTAUC_NUM_THREADS"] = str(max(counts))
    for fn in rows.values():  # compile or load every kernel first
        fn()
    print(f"CPU: {_cpu()} ({cpus} usable CPUs); numpy {np.__version__} "
          f"(SIMD: {_simd()}); numba {_numba_version()}; Python {platform.python_version()}")
    print("sort path for unweighted keys by thread count: "
          + ", ".join(f"{t}: {c}" for t, c in choices.items()))
    print(f"n = {int(args.n):.0e} rows unless the row says otherwise; best of {args.repeat}, ms\n")
    head = "| call | " + " | ".join(str(t) for t in counts) + f" | {max(counts)} vs 1 |"
    if 8 in counts and max(counts) > 8:
        head += f" {max(counts)} vs 8 |"
    print(head)
    print("|---" * (head.count("|") - 1) + "|")
    failed = False
    for label, fn in rows.items():
        times, first = [], None
        for t in counts:
            os.environ["FASTAUC_NUM_THREADS"] = str(t)
            seconds, out = best(fn, args.repeat)
            times.append(seconds)
            bits = exact_bits(out)
            if first is None:
                first = bits
            elif bits != first:
                failed = True
                print(f"DIFFERENT RESULT: {label} at {t} threads", file=sys.stderr)
        cells = " | ".join(f"{1e3 * x:.0f}" if x >= 0.01 else f"{1e3 * x:.1f}" for x in times)
        line = f"| {label} | {cells} | {times[0] / times[-1]:.1f}x |"
        if 8 in counts and max(counts) > 8:
            line += f" {times[counts.index(8)] / times[-1]:.2f}x |"
        print(line, flush=True)
    if args.phases is not None:
        print()
        wanted = args.phases.split(",")
        for label in rows:
            if any(w in label for w in wanted):
                for t in (counts[0], counts[-1]):
                    os.environ["FASTAUC_NUM_THREADS"] = str(t)
                    print(f"{label}, {t} threads: {phases(rows[label])}")
    if args.sklearn:
        from sklearn.metrics import roc_auc_score as sk_auc

        rng = np.random.default_rng(0)  # the float64 row's data, drawn as make_rows draws it
        y = rng.random(int(args.n)) < 0.1
        yi, s = y.astype(np.int64), rng.standard_normal(int(args.n)) + y
        t0 = time.perf_counter()
        sk = sk_auc(yi, s)
        t_sk = time.perf_counter() - t0
        os.environ["FASTAUC_NUM_THREADS"] = str(max(counts))
        t_fa, mine = best(lambda: fastauc.roc_auc_score(yi, s), args.repeat)
        print(f"\nscikit-learn's roc_auc_score, float64 row: {1e3 * t_sk:.0f} ms "
              f"({t_sk / t_fa:.0f}x fastauc's {1e3 * t_fa:.0f} ms at {max(counts)} threads); "
              f"same AUC: {abs(sk - mine) <= 1e-12}")
    if args.big:
        rng = np.random.default_rng(1)
        big = 100_000_000
        y = rng.random(big) < 0.1
        s = (rng.standard_normal(big, dtype=np.float32) + y).astype(np.float32)
        os.environ["FASTAUC_NUM_THREADS"] = str(max(counts))
        fastauc.roc_auc_score(y, s)
        seconds, _ = best(lambda: fastauc.roc_auc_score(y, s), args.repeat)
        print(f"\n`roc_auc_score` at 1e8 rows, float32 + bool, {max(counts)} threads: "
              f"{1e3 * seconds:.0f} ms")
    if env is None:
        os.environ.pop("FASTAUC_NUM_THREADS", None)
    else:
        os.environ["FASTAUC_NUM_THREADS"] = env
    print("\nevery result equal to the one-thread result, bit for bit"
          if not failed else "\nSOME RESULTS DIFFER (see above)")
    return 1 if failed else 0


def phases(fn, repeat=3):
    """The call's time and each parallel step's wall time (``map_units``
    calls by unit function, outermost calls only), best of ``repeat``."""
    import fastauc as package

    original = _parallel.map_units
    spent = collections.defaultdict(float)
    depth = [0]

    def timed(unit, arg_tuples):
        depth[0] += 1
        t0 = time.perf_counter()
        try:
            return original(unit, arg_tuples)
        finally:
            depth[0] -= 1
            if depth[0] == 0:
                spent[f"{getattr(unit, '__name__', 'unit')} x{len(arg_tuples)}"] += (
                    time.perf_counter() - t0)

    modules = [m for name, m in sys.modules.items()
               if name.startswith(package.__name__) and m is not None]
    patched = [(m, a) for m in modules for a in ("map_units",)
               if getattr(m, a, None) is original]
    best_total, best_spent = float("inf"), {}
    try:
        for m, a in patched:
            setattr(m, a, timed)
        for _ in range(repeat):
            spent.clear()
            t0 = time.perf_counter()
            fn()
            total = time.perf_counter() - t0
            if total < best_total:
                best_total, best_spent = total, dict(spent)
    finally:
        for m, a in patched:
            setattr(m, a, original)
    rest = best_total - sum(best_spent.values())
    steps = sorted(best_spent.items(), key=lambda kv: -kv[1])
    return (f"{1e3 * best_total:.1f} ms: " + ", ".join(f"{k} {1e3 * v:.1f}" for k, v in steps)
            + f", outside them {1e3 * rest:.1f}")


def _with_sort(path, fn):
    old = os.environ.get("FASTAUC_SORT")
    os.environ["FASTAUC_SORT"] = path
    try:
        return fn()
    finally:
        if old is None:
            del os.environ["FASTAUC_SORT"]
        else:
            os.environ["FASTAUC_SORT"] = old


def _numba_version() -> str:
    import numba

    return numba.__version__


if __name__ == "__main__":
    sys.exit(main())
