"""Print (and write to docs/benchmarks.md) the speed tables of fastauc vs its peers.

Everything is measured in this one process: fastauc is warmed up first
(compiled or loaded from the cache), then the best of several repeats is kept;
scikit-learn and the naive reference are timed the same way with fewer
repeats because they are slow.  "Nx faster" is the other library's time over
fastauc's; "Nx one AUC" (or another fastauc call) is fastauc's time over that
call's.  The speed and memory goals of ``tests/registry.py`` (``GOALS``) are
checked and their verdicts printed on the console; the page shows the
measurements only.

    python benchmarks/run_benchmarks.py            # full table + plot (a few minutes)
    python benchmarks/run_benchmarks.py --quick    # smaller n, for a smoke test
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import fastauc  # noqa: E402
from fastauc import _parallel, _sort  # noqa: E402
from common import best_time, cpu_name, data  # noqa: E402 (benchmarks/common.py)
from fastauc.naive import pairwise_auc  # noqa: E402
from tests.registry import GOALS  # noqa: E402


#: (the row and the goal's words with the measurement, met) of every goal
#: checked in this run, for the console summary (``goal_summary``)
VERDICTS = []

#: what a row compared with a fixed bound (seconds) shows as its comparison
NONE = "—"


def result_text(goal, x):
    """The page's words for measurement ``x`` of ``goal``: the measurement
    alone, as ``Goal.describe`` words it less its "(goal ...)" (the page
    speaks to users; the verdicts go to the console)."""
    if goal.kind == "faster":  # two decimals near a bound such as 1.7x
        return f"{x:,.{2 if x < 10 else 1}f}x faster"
    if goal.kind == "ratio":
        return f"{x:.2f}x {goal.what}"
    return f"{x:.2f} s"


def check(name, n, key, x):
    """Judge measurement ``x`` against ``GOALS[key]`` (tests/registry.py) and
    print the verdict on the console (never on the page)."""
    goal = GOALS[key]
    met = goal.met(x)
    _verdict(f"{name} (n = {float(n):.0e}): {goal.describe(x)}", met)
    return x


def _verdict(words, met):
    VERDICTS.append((words, met))
    print(f"goal {'met' if met else 'NOT MET'}: {words}", flush=True)


def judged(name, n, t_ours, t_peer, peer, key, measured=None):
    """A table row (name, n, fastauc, compared with, its time, result) for a
    measurement checked against ``GOALS[key]``; the verdict goes to the
    console only.  A goal in seconds compares with nothing on the page:
    pass ``t_peer`` and ``peer`` as None."""
    goal = GOALS[key]
    x = check(name, n, key, goal.measure(t_ours, t_peer) if measured is None else measured)
    if goal.kind == "seconds":
        t_peer = peer = NONE
    return (name, n, t_ours, t_peer, peer, result_text(goal, x))


def goal_summary():
    """The goals this run missed, for the end of the console output."""
    missed = [words for words, met in VERDICTS if not met]
    lines = [f"Goals: {len(VERDICTS) - len(missed)} of {len(VERDICTS)} met"
             + (", not met:" if missed else ".")]
    lines += [f"  {words}" for words in missed]
    return "\n".join(lines)


# repeats of each timed fastauc call (the best is kept): the benchmark machines
# are shared, and a call's time varies by up to 1.5x from run to run
REPEAT = 5


def sklearn_rows(n, repeat_fast, repeat_slow):
    import sklearn.metrics as skm

    y, s, w = data(n)
    p = np.clip(s, 1e-6, 1 - 1e-6)
    cases = [
        ("roc_auc_score", lambda m: m.roc_auc_score(y, s)),
        ("roc_auc_score with sample_weight", lambda m: m.roc_auc_score(y, s, sample_weight=w)),
        ("roc_curve", lambda m: m.roc_curve(y, s)),
        ("average_precision_score", lambda m: m.average_precision_score(y, s)),
        ("precision_recall_curve", lambda m: m.precision_recall_curve(y, s)),
        ("log_loss", lambda m: m.log_loss(y, p)),
    ]
    rows = []
    for name, call in cases:
        call(fastauc)  # warm-up
        t_ours = best_time(lambda: call(fastauc), repeat_fast)
        t_sk = best_time(lambda: call(skm), repeat_slow)
        rows.append(_first_row(f"`{name}`", n, t_ours, t_sk, "scikit-learn", name))
    return rows


def _first_row(name, n, t_ours, t_peer, peer, key):
    """A row of the first table: times in ms to 3 and 4 significant digits,
    the ratio to one decimal; the goal's verdict on the console."""
    ratio = check(name, n, key, GOALS[key].measure(t_ours, t_peer))
    return (name, f"{n:.0e}", f"{t_ours * 1e3:.3g} ms", f"{t_peer * 1e3:.4g} ms", peer,
            f"{ratio:,.1f}x faster")


def small_n_row(repeat):
    import sklearn.metrics as skm

    y, s, _ = data(1000)
    fastauc.roc_auc_score(y, s)
    t_ours = best_time(lambda: fastauc.roc_auc_score(y, s), repeat, number=200)
    t_sk = best_time(lambda: skm.roc_auc_score(y, s), repeat, number=20)
    return _first_row("`roc_auc_score` per call", 1000, t_ours, t_sk, "scikit-learn", "per call")


def model_selection_rows(n_rows, cv, repeat):
    """Rows (table layout) for scoring inside scikit-learn's model selection."""
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import cross_validate

    import fastauc.sklearn

    rng = np.random.default_rng(0)
    X = rng.standard_normal((n_rows, 5))
    y = (X @ np.array([1.0, -0.5, 0.25, 0.0, 0.1]) + rng.standard_normal(n_rows) > 1.0)

    def scoring_seconds(rows=n_rows):
        res = cross_validate(LogisticRegression(), X[:rows], y[:rows], cv=cv,
                             scoring="roc_auc")
        return float(np.sum(res["score_time"])), res["test_score"]

    scoring_seconds(2000)  # warm-up: both paths loaded and compiled first
    t_sk, ref = scoring_seconds()
    with fastauc.sklearn.patched():
        scoring_seconds(2000)
        t_ours, ours = scoring_seconds()
    assert np.allclose(ours, ref, rtol=1e-12, atol=1e-12)
    rows = [(f"`cross_validate(LogisticRegression(), X, y, cv={cv}, scoring=\"roc_auc\")`, "
             "time in scoring, patched", n_rows, t_ours, t_sk, "unpatched (scikit-learn)",
             f"{t_sk / t_ours:.1f}x less scoring time")]
    y3, s3, w3 = data(1000)
    p3 = np.clip(s3, 1e-6, 1 - 1e-6)
    pred = (s3 > 0.5).astype(np.int64)
    import sklearn.metrics as skm

    for name, args in (("roc_auc_score", (y3, s3)), ("average_precision_score", (y3, s3)),
                       ("roc_curve", (y3, s3)), ("precision_recall_curve", (y3, s3)),
                       ("log_loss", (y3, p3)), ("f1_score", (y3, pred))):
        ours_fn, their_fn = getattr(fastauc, name), getattr(skm, name)
        ours_fn(*args)
        t_o = best_time(lambda: ours_fn(*args), repeat, number=200)
        t_s = best_time(lambda: their_fn(*args), repeat, number=20)
        rows.append(judged(f"`{name}` per call", 1000, t_o, t_s, "scikit-learn", "per call"))
    return rows


def naive_row(n):
    y, s, _ = data(n, pos_rate=0.5)
    fastauc.roc_auc_score(y, s)
    t_ours = best_time(lambda: fastauc.roc_auc_score(y, s), 5)
    t_naive = best_time(lambda: pairwise_auc(y, s), 1)
    return _first_row("`roc_auc_score`", n, t_ours, t_naive,
                      "`fastauc.naive.pairwise_auc` (the O(n^2) definition)", "naive")


def inference_rows(n_big, n_boot, n_resamples, repeat):
    """Rows (name, n, fastauc s, its time s, compared with, result) for inference."""
    import scipy.stats as ss
    import sklearn.metrics as skm

    rows = []
    y, s, _ = data(n_big)
    fastauc.mann_whitney_u(y[:1000], s[:1000])
    t_ours = best_time(lambda: fastauc.mann_whitney_u(y, s), repeat)
    t_sp = best_time(lambda: ss.mannwhitneyu(s[y == 1], s[y == 0]), 1)
    rows.append(judged("`mann_whitney_u`", n_big, t_ours, t_sp, "`scipy.stats.mannwhitneyu`",
                       "mann_whitney_u"))

    fastauc.roc_auc_ci(y[:1000], s[:1000])
    t_ci = best_time(lambda: fastauc.roc_auc_ci(y, s), repeat)
    t_auc = best_time(lambda: fastauc.roc_auc_score(y, s), repeat)
    rows.append(judged("`roc_auc_ci` (DeLong)", n_big, t_ci, t_auc, "`fastauc.roc_auc_score`",
                       "roc_auc_ci"))

    s2 = np.clip(s + 0.3 * np.random.default_rng(1).random(n_big), 0, 1)
    fastauc.delong_test(y[:1000], s[:1000], s2[:1000])
    t_test = best_time(lambda: fastauc.delong_test(y, s, s2), repeat)
    rows.append(judged("`delong_test` (two models)", n_big, t_test, 2 * t_auc,
                       "two `fastauc.roc_auc_score` calls", "delong_test"))

    y, s, _ = data(n_boot)
    pos, neg = np.flatnonzero(y == 1), np.flatnonzero(y == 0)
    rng = np.random.default_rng(0)

    def sklearn_loop(k):
        for _ in range(k):
            idx = np.concatenate((rng.choice(pos, len(pos)), rng.choice(neg, len(neg))))
            skm.roc_auc_score(y[idx], s[idx])

    skm.roc_auc_score(y[:1000], s[:1000])
    n_loop = 20
    t_loop = best_time(lambda: sklearn_loop(n_loop), 1) / n_loop * n_resamples
    fastauc.bootstrap_ci(y[:1000], s[:1000], n_resamples=20)
    for method in ("percentile", "bca"):
        t_boot = best_time(lambda: fastauc.bootstrap_ci(y, s, n_resamples=n_resamples,
                                                        method=method, random_state=0),
                           max(1, repeat // 2))
        rows.append(judged(f"`bootstrap_ci`, {n_resamples} replicates, {method}", n_boot,
                           t_boot, t_loop, f"scikit-learn loop ({n_loop} timed, scaled)",
                           "bootstrap_ci" if n_resamples < 1000 else "bootstrap 1000"))
    t_bt = best_time(lambda: fastauc.bootstrap_test(y, s, s[::-1].copy(),
                                                    n_resamples=n_resamples, random_state=0), 1)
    rows.append((f"`bootstrap_test`, {n_resamples} replicates", n_boot, t_bt, 2 * t_loop,
                 "scikit-learn loop, both models", f"{2 * t_loop / t_bt:,.0f}x faster"))
    return rows


def threshold_rows(n_big, repeat, tmpdir):
    """Rows for thresholds and reports (same layout as ``inference_rows``)."""
    rows = []
    y, s, _ = data(n_big)
    fastauc.roc_curve(y[:1000], s[:1000])
    t_curve = best_time(lambda: fastauc.roc_curve(y, s), repeat)
    for name, call, goal in (
            ("`threshold_metrics`", lambda: fastauc.threshold_metrics(y, s),
             "threshold_metrics"),
            ("`threshold_metrics`, then `.f1` and `.mcc`",
             lambda: (lambda m: (m.f1, m.mcc))(fastauc.threshold_metrics(y, s)), None),
            ("`best_threshold` (F1)", lambda: fastauc.best_threshold(y, s), "best_threshold")):
        call()
        t = best_time(call, repeat)
        rows.append(judged(name, n_big, t, t_curve, "`fastauc.roc_curve`", goal) if goal else
                    (name, n_big, t, t_curve, "`fastauc.roc_curve`",
                     f"{t / t_curve:.2f}x roc_curve"))
    fastauc.report(y[:1000], s[:1000])
    t_rep = best_time(lambda: fastauc.report(y, s), repeat)
    rows.append(judged("`report`, one model, DeLong", n_big, t_rep, None, None, "report"))
    s2 = np.clip(s + np.random.default_rng(1).normal(0.0, 0.3, s.shape[0]), 0.0, 1.0)
    two = np.column_stack((s, s2))
    fastauc.report(y[:1000], two[:1000])
    t_two = best_time(lambda: fastauc.report(y, two), repeat)
    t_auc = best_time(lambda: fastauc.roc_auc_score(y, s), repeat)
    rows.append(judged("`report`, two models, DeLong + paired test", n_big, t_two, 2 * t_auc,
                       "two `roc_auc_score` calls", "report two models"))
    try:
        import pyarrow as pa
        import pyarrow.parquet as pq
    except ImportError:
        return rows
    from fastauc.cli import read_columns

    path = os.path.join(tmpdir, "bench.parquet")
    pq.write_table(pa.table({"y": y, "s": s}), path)
    t_read = best_time(lambda: read_columns(path, ["y", "s"]), repeat)
    rows.append(("read a Parquet file (2 columns)", n_big, t_read, t_rep,
                 "`report` on it", f"{t_read / t_rep:.2f}x the report"))
    return rows


def group_rows(n, n_groups, repeat):
    """``by_group`` against one global AUC, polars-ds and pandas groupby-apply (issue 9)."""
    import warnings

    rng = np.random.default_rng(7)
    y, s, _ = data(n)
    g = rng.integers(0, n_groups, n)
    fastauc.roc_auc_score(y[:1000], s[:1000])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the warm-up's small groups have one class
        fastauc.by_group(y[:10000], s[:10000], g[:10000])
        t_grp = best_time(lambda: fastauc.by_group(y, s, g), repeat)
    t_auc = best_time(lambda: fastauc.roc_auc_score(y, s), repeat)
    label = f"`by_group`, {n_groups:,} groups, AUC + AP + DeLong CI + log loss"
    rows = [judged(label, n, t_grp, t_auc, "one global `roc_auc_score`", "by_group")]
    try:
        import polars as pl
        import polars_ds as pds

        df = pl.DataFrame({"y": y, "s": s, "g": g})
        t_pds = best_time(lambda: df.group_by("g").agg(pds.query_roc_auc("y", "s")), 1)
        rows.append(judged(label, n, t_grp, t_pds, "polars-ds `group_by().agg(query_roc_auc)` "
                           "(AUC only)", "by_group polars-ds"))
    except ImportError:
        pass
    import pandas as pd
    import sklearn.metrics as skm

    frame = pd.DataFrame({"y": y, "s": s, "g": g})
    t_pd = best_time(lambda: frame.groupby("g").apply(
        lambda d: skm.roc_auc_score(d["y"], d["s"]), include_groups=False), 1)
    rows.append(judged(label, n, t_grp, t_pd, "pandas `groupby().apply(sklearn roc_auc_score)` "
                       "(AUC only)", "by_group pandas"))
    return rows


def issue_data(n, seed=0):
    """The data of issue 21's measurements: 10% positives, scores normal + label."""
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.1).astype(np.int64)
    return y, rng.standard_normal(n) + y


def _subprocess_sort(n, dtype, disable):
    """``np.sort`` of ``n`` scores in a fresh process with numpy's ``disable``d
    CPU features (None when this numpy refuses them)."""
    code = ("import json,time,numpy as np; x=np.random.default_rng(0).standard_normal("
            f"{n})"
            f".astype(np.{dtype}); np.sort(x[:1000]); b=9e9\n"
            "for _ in range(3):\n t=time.perf_counter(); np.sort(x); "
            "b=min(b,time.perf_counter()-t)\nprint(json.dumps(b))")
    env = dict(os.environ, NPY_DISABLE_CPU_FEATURES=disable)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    return json.loads(out.stdout.strip().splitlines()[-1]) if out.returncode == 0 else None


def host_rows(n_big, n_boot, repeat):
    """Rows for issue 21 (full speed on every host), on the issue's data."""
    import sklearn.metrics as skm

    rows = []
    y, s = issue_data(n_big)
    yb = y.astype(bool)
    s32 = s.astype(np.float32)
    p3 = np.round(1.0 / (1.0 + np.exp(-s)), 3)
    w = np.random.default_rng(1).random(n_big)
    t_copy = best_time(lambda: s.copy(), repeat)
    cases = (("float64 scores, int64 labels", y, s), ("float32 scores, bool labels", yb, s32),
             ("probabilities rounded to 3 decimals", y, p3))
    for label, yy, ss in cases:
        np.sort(ss[:1000])
        fastauc.roc_auc_score(yy[:1000], ss[:1000])
        t_sort = best_time(lambda: np.sort(ss), repeat)
        t_auc = best_time(lambda: fastauc.roc_auc_score(yy, ss), repeat)
        rows.append((f"`np.sort(scores)`, {label} (the yardstick)", n_big, t_sort, t_copy,
                     "a copy of the scores", f"{t_sort / t_copy:.1f}x one memory pass"))
        rows.append(judged(f"`roc_auc_score`, {label}", n_big, t_auc, t_sort,
                           "one `np.sort` of the scores", "auc vs np.sort"))
    # what numpy's sort does on this host without its AVX-512 dispatch (it is
    # slow on AMD Zen 4, whose compress-store is microcoded): a fresh process
    off = "X86_V4 AVX512_ICL AVX512_SPR"
    t_avx2 = _subprocess_sort(n_big, "float64", off)
    if t_avx2 is not None:
        t_auc = best_time(lambda: fastauc.roc_auc_score(y, s), repeat)
        rows.append(("`roc_auc_score`, float64 scores, int64 labels", n_big, t_auc, t_avx2,
                     f"`np.sort` in a process with `NPY_DISABLE_CPU_FEATURES=\"{off}\"`",
                     f"{t_auc / t_avx2:.2f}x that sort (numpy's sort without AVX-512)"))
    t_auc = best_time(lambda: fastauc.roc_auc_score(y, s), repeat)
    t_sk = best_time(lambda: skm.roc_auc_score(y, s), 1)
    rows.append(judged("`roc_auc_score`", n_big, t_auc, t_sk, "scikit-learn", "auc vs sklearn"))
    for peer, call in _auc_peers(y, s):
        t = best_time(call, repeat)
        rows.append(("`roc_auc_score`", n_big, t_auc, t, peer, f"{t / t_auc:.1f}x faster"))
    for name, ours, theirs in (
            ("average_precision_score", lambda: fastauc.average_precision_score(y, s),
             lambda: skm.average_precision_score(y, s)),
            ("roc_curve", lambda: fastauc.roc_curve(y, s), lambda: skm.roc_curve(y, s)),
            ("precision_recall_curve", lambda: fastauc.precision_recall_curve(y, s),
             lambda: skm.precision_recall_curve(y, s)),
            ("roc_auc_score` with `sample_weight", lambda: fastauc.roc_auc_score(
                y, s, sample_weight=w), lambda: skm.roc_auc_score(y, s, sample_weight=w))):
        ours()
        rows.append(judged(f"`{name}`", n_big, best_time(ours, repeat), best_time(theirs, 1),
                           "scikit-learn", "curve vs sklearn"))
    for m in (10**3, 10**4, 10**5, 10**6):
        ym, sm = issue_data(m, seed=2)
        fastauc.roc_auc_score(ym, sm)
        number = max(1, 10**6 // m)  # about 1e6 rows a timing: small n are noisy
        t_o = best_time(lambda: fastauc.roc_auc_score(ym, sm), 10, number=number, gap=0.2)
        t_s = best_time(lambda: skm.roc_auc_score(ym, sm), 3, number=max(1, number // 10))
        rows.append(judged("`roc_auc_score` per call", m, t_o, t_s, "scikit-learn", "auc per n"))
    old = os.environ.get("FASTAUC_NUM_THREADS")
    os.environ["FASTAUC_NUM_THREADS"] = "1"
    try:
        t_one = best_time(lambda: fastauc.roc_auc_score(y, s), repeat)
    finally:
        if old is None:
            del os.environ["FASTAUC_NUM_THREADS"]
        else:
            os.environ["FASTAUC_NUM_THREADS"] = old
    rows.append(judged("`roc_auc_score`, 2 threads", n_big, t_auc, t_one,
                       "the same on 1 thread (`FASTAUC_NUM_THREADS=1`)", "threads"))
    fastauc.bootstrap_ci(y[:1000], s[:1000], n_resamples=20)
    fastauc.bootstrap_ci(y[:1000], s[:1000], n_resamples=20, scheme="poisson")
    for scheme in ("multinomial", "poisson"):
        t1 = best_time(lambda: fastauc.bootstrap_ci(y, s, n_resamples=1, method="percentile",
                                                    scheme=scheme), repeat)
        rows.append(judged(f"`bootstrap_ci(scheme='{scheme}')` setup (1 replicate)", n_big, t1,
                           t_auc, "one `roc_auc_score`", "bootstrap setup"))
    rng = np.random.default_rng(0)
    k = 10
    ym = rng.integers(0, k, n_boot)
    logits = rng.normal(size=(n_boot, k))
    logits[np.arange(n_boot), ym] += 1.0
    P = np.exp(logits)
    P /= P.sum(1, keepdims=True)
    for mc in ("ovr", "ovo"):
        fastauc.roc_auc_score(ym[:1000], P[:1000], multi_class=mc)
        t = best_time(lambda: fastauc.roc_auc_score(ym, P, multi_class=mc), repeat)
        t_ref = best_time(lambda: skm.roc_auc_score(ym, P, multi_class=mc), 1)
        rows.append(judged(f"`roc_auc_score(multi_class='{mc}')`, {k} classes", n_boot, t, t_ref,
                           "scikit-learn", mc))
    cold_auc, cold_boot = cold_start()
    rows.append(judged("first `roc_auc_score` (1e6 rows) in a new process, empty Numba cache",
                       10**6, cold_auc, None, None, "cold auc"))
    rows.append(judged("first `bootstrap_ci` (1e6 rows, 100 replicates), empty Numba cache",
                       10**6, cold_boot, None, None, "cold bootstrap"))
    return rows


def _auc_peers(y, s):
    peers = []
    try:
        from sklearnex.metrics import roc_auc_score as dal_auc

        dal_auc(y[:1000], s[:1000])
        peers.append(("scikit-learn-intelex (oneDAL)", lambda: dal_auc(y, s)))
    except ImportError:
        pass
    try:
        import polars as pl
        import polars_ds as pds

        df = pl.DataFrame({"y": y, "s": s})
        peers.append(("polars-ds `query_roc_auc`",
                      lambda: df.select(pds.query_roc_auc("y", "s"))))
    except ImportError:
        pass
    return peers


def cold_start():
    """Seconds of the first ``roc_auc_score`` and of the first ``bootstrap_ci`` in a
    new process whose Numba cache (and so the sort-path choice beside it) is empty."""
    import tempfile

    code = ("import json,time,sys,numpy as np; import fastauc; "
            "rng=np.random.default_rng(0); y=(rng.random(10**6)<0.1).astype(np.int64); "
            "s=rng.standard_normal(10**6)+y; t=time.perf_counter(); "
            "getattr(fastauc, sys.argv[1])(y, s, **json.loads(sys.argv[2])); "
            "print(json.dumps(time.perf_counter()-t))")
    out = []
    for fn, kw in (("roc_auc_score", {}), ("bootstrap_ci", {"n_resamples": 100})):
        with tempfile.TemporaryDirectory() as cache:
            env = dict(os.environ, NUMBA_CACHE_DIR=cache)
            env.pop("FASTAUC_SORT", None)
            res = subprocess.run([sys.executable, "-c", code, fn, json.dumps(kw)],
                                 capture_output=True, text=True, check=True, cwd=ROOT, env=env)
            out.append(json.loads(res.stdout.strip().splitlines()[-1]))
    return out


MEMORY_CHILD = r"""
import json, sys, time, numpy as np, fastauc
fn, n = sys.argv[1], int(sys.argv[2])
rng = np.random.default_rng(0)
y = rng.random(n) < 0.1
s = rng.standard_normal(n) + y
kw = {"n_resamples": 1, "method": "percentile"} if fn == "bootstrap_ci" else {}
getattr(fastauc, fn)(y[:1000], s[:1000], **kw)
def status(key):
    for line in open("/proc/self/status"):
        if line.startswith(key):
            return int(line.split()[1]) * 1024
open("/proc/self/clear_refs", "w").write("5")  # peak := current
base = status("VmRSS")
t = time.perf_counter()
out = getattr(fastauc, fn)(y, s, **kw)
dt = time.perf_counter() - t
extra = status("VmHWM") - base
ret = sum(a.nbytes for a in out) if isinstance(out, tuple) else 0
print(json.dumps([dt, extra, ret, y.nbytes + s.nbytes]))
"""


def memory_rows(n):
    """Peak memory of the large calls, one fresh process each (Linux: VmHWM)."""
    res = {}
    for fn in ("roc_auc_score", "roc_auc_ci", "roc_curve", "bootstrap_ci"):
        out = subprocess.run([sys.executable, "-c", MEMORY_CHILD, fn, str(n)],
                             capture_output=True, text=True, check=True, cwd=ROOT)
        res[fn] = json.loads(out.stdout.strip().splitlines()[-1])
    t_auc, _, _, inp = res["roc_auc_score"]
    gib = 2**30
    size = f"{inp / gib:.2f} GiB"
    rows = [("`roc_auc_score`: peak memory beyond the input", n,
             f"{res['roc_auc_score'][1] / gib:.2f} GiB", size, "the input",
             f"{res['roc_auc_score'][1] / inp:.2f}x the input's bytes")]
    dt, extra, _, _ = res["roc_auc_ci"]
    rows.append(judged("`roc_auc_ci`: peak memory beyond the input", n, f"{extra / gib:.2f} GiB",
                       size, "the input", "memory roc_auc_ci", extra / inp))
    dt, extra, ret, _ = res["roc_curve"]
    rows.append(judged("`roc_curve`: peak memory beyond input and output", n,
                       f"{(extra - ret) / gib:.2f} GiB", size, "the input", "memory roc_curve",
                       (extra - ret) / inp))
    dt, extra, _, _ = res["bootstrap_ci"]
    rows.append(judged("`bootstrap_ci`, 1 replicate: peak memory beyond the input", n,
                       f"{extra / gib:.2f} GiB", size, "the input", "memory bootstrap",
                       extra / inp))
    rows.append(judged("`bootstrap_ci`, 1 replicate: time", n, dt, t_auc, "one `roc_auc_score`",
                       "time bootstrap 1e8"))
    return rows


def virtual_machine():
    """Whether the CPU says it runs under a hypervisor (Linux; False elsewhere)."""
    try:
        with open("/proc/cpuinfo") as fh:
            return any(line.startswith("flags") and " hypervisor" in line for line in fh)
    except OSError:
        return False


def host_line():
    """The CPU, the SIMD features numpy reports, and the sort path fastauc chose."""
    cpu = cpu_name()
    try:
        from numpy._core._multiarray_umath import __cpu_features__ as feats

        simd = ", ".join(k for k in ("AVX2", "AVX512F", "AVX512_SKX", "AVX512_ICL", "AVX512_SPR",
                                     "X86_V3", "X86_V4", "NEON", "ASIMD", "SVE")
                         if feats.get(k))
    except ImportError:
        simd = "unknown"
    saved = {}
    try:
        saved = json.loads(_sort._choice_file().read_text())
    except (OSError, ValueError):
        pass
    choice = _sort.method()
    seconds = saved.get("by_threads", {}).get(str(_parallel.num_threads()), {}).get("seconds", {})
    timing = ", ".join(f"{k} {v * 1e3:.1f} ms" for k, v in seconds.items())
    return (f"{cpu}; numpy's SIMD features: {simd or 'none'}; fastauc's sort path for "
            f"unweighted keys: {choice}" + (f" (calibration on 2**20 rows: {timing})"
                                            if timing else ""))


def accumulator_rows(n_big, repeat):
    """Rows for the mergeable accumulator (issue 11)."""
    rows = []
    y, s, _ = data(n_big)
    fastauc.roc_auc_score(y[:1000], s[:1000])
    fastauc.Accumulator().update(y[:1000], s[:1000]).roc_auc()
    t_auc = best_time(lambda: fastauc.roc_auc_score(y, s), repeat)
    batch = n_big // 100

    def fed():
        acc = fastauc.Accumulator()
        for a in range(0, n_big, batch):
            acc.update(y[a:a + batch], s[a:a + batch])
        return acc.roc_auc()

    t_fed = best_time(fed, repeat)
    rows.append(judged(f"`Accumulator`: 100 batches of {batch:.0e}, then `roc_auc()`", n_big,
                       t_fed, t_auc, "one `roc_auc_score` on all rows", "accumulator batches"))
    half = n_big // 2
    a = fastauc.Accumulator().update(y[:half], s[:half])
    b = fastauc.Accumulator().update(y[half:], s[half:])
    a.n_groups, b.n_groups  # sorted into one table each before the timing

    def merged():
        return fastauc.Accumulator().merge(a).merge(b).n_groups

    t_merge = best_time(merged, repeat)
    rows.append(judged(f"`Accumulator.merge`, two of {a.n_groups:.1e} distinct scores", n_big,
                       t_merge, t_auc, "one `roc_auc_score` on all rows", "accumulator merge"))
    m = 10**6
    t_one = best_time(lambda: fastauc.roc_auc_score(y[:m], s[:m]), repeat)
    t_upd = best_time(lambda: fastauc.Accumulator().update(y[:m], s[:m]).roc_auc(), repeat)
    rows.append(("`Accumulator().update(1e6 rows).roc_auc()`", m, t_upd, t_one,
                 "one `roc_auc_score`", f"{t_upd / t_one:.2f}x one AUC"))
    return rows


def training_rows(n, n_naive, n_boost, rounds, repeat):
    """Issue 22: the all-pairs losses against one AUC and against the O(n**2)
    definition, gradient boosting with fastauc's objective against the built-in
    one, and AUCLinearClassifier against LogisticRegression."""
    import warnings

    from sklearn.linear_model import LogisticRegression

    from fastauc import naive

    rng = np.random.default_rng(0)
    y = (rng.random(n) < 0.1).astype(np.int64)
    s = rng.standard_normal(n) + y
    groups = rng.integers(0, 10_000, n)
    fastauc.roc_auc_score(y[:1000], s[:1000])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", fastauc.UndefinedMetricWarning)
        for g in (None, groups[:1000]):
            fastauc.pairwise_loss_gradient(y[:1000], s[:1000], groups=g, hessian=True)
        t_auc = best_time(lambda: fastauc.roc_auc_score(y, s), repeat)
        t_grad = best_time(lambda: fastauc.pairwise_loss_gradient(y, s, hessian=True), repeat)
        t_groups = best_time(lambda: fastauc.pairwise_loss_gradient(y, s, groups=groups,
                                                                    hessian=True), repeat)
    rows = [judged("`pairwise_loss_gradient(loss=\"squared_hinge\", hessian=True)`", n, t_grad,
                   t_auc, "one `roc_auc_score`", "pairwise gradient"),
            judged("the same with 10,000 groups", n, t_groups, t_auc, "one `roc_auc_score`",
                   "pairwise gradient groups")]
    # the O(n**2) definition at n_naive rows (best of 3, as one call is noisy
    # here), times (1e5 / n_naive)**2 for 1e5: at 1e5 its pair matrices
    # would take tens of GiB
    yn, sn = y[:n_naive], s[:n_naive]
    t_naive = best_time(lambda: naive.pairwise_loss(yn, sn), 3) * (10**5 / n_naive) ** 2
    y5, s5 = y[:10**5], s[:10**5]
    # about 1e6 rows a timing, as the other per-call rows: one 2 ms call is noisy
    # here; each timing after 0.3 s of calls, as in a training loop (best_time)
    t_5 = best_time(lambda: fastauc.pairwise_loss_gradient(y5, s5, hessian=True), 10,
                    number=10, gap=0.2, warm=0.3)
    rows.append(judged(f"`pairwise_loss_gradient` vs `naive.pairwise_loss` (naive timed at "
                       f"{n_naive:.0e} rows, times {(10**5 / n_naive) ** 2:.0f})", 10**5, t_5,
                       t_naive, "`naive.pairwise_loss`", "pairwise naive"))
    rows += boosting_rows(n_boost, rounds)
    X = rng.standard_normal((n_boost, 20))
    yl = (X[:, :5].sum(axis=1) + 2 * rng.standard_normal(n_boost) > 3).astype(np.int64)
    # best of three, 0.5 s apart: a single fit here now and then falls in one
    # of the host's slow spells (measured: 3.8 s against 0.8-1.0 s)
    t_ours = best_time(lambda: fastauc.AUCLinearClassifier().fit(X, yl), 3, gap=0.5)
    t_lr = best_time(lambda: LogisticRegression(solver="lbfgs").fit(X, yl), 3, gap=0.5)
    rows.append(judged("`AUCLinearClassifier().fit`, 20 features", n_boost, t_ours, t_lr,
                       "`LogisticRegression(solver=\"lbfgs\").fit`", "linear classifier"))
    return rows


def boosting_rows(n, rounds):
    """LightGBM and XGBoost, ``rounds`` rounds on n x 20 float32 features, 2 threads,
    with fastauc's squared-hinge objective against the library's own log loss."""
    try:
        import lightgbm as lgb
        import xgboost as xgb
    except ImportError:
        return []
    from fastauc.objectives import lightgbm_objective, xgboost_objective

    rng = np.random.default_rng(0)
    X = rng.standard_normal((n, 20)).astype(np.float32)
    y = (X[:, :5].sum(axis=1) + 2 * rng.standard_normal(n) > 3).astype(np.float64)
    data = lgb.Dataset(X, y, free_raw_data=False).construct()

    dtrain = xgb.DMatrix(X, y, nthread=2)

    def lgb_train(objective):
        return lambda k: lgb.train({"objective": objective, "verbose": -1, "num_threads": 2},
                                   data, k)

    def xgb_train(**kw):
        params = {"tree_method": "hist", "nthread": 2, **kw.pop("params", {})}
        return lambda k: xgb.train(params, dtrain, k, **kw)

    trainers = [lgb_train("binary"), lgb_train(lightgbm_objective("squared_hinge")),
                xgb_train(params={"objective": "binary:logistic"}),
                xgb_train(obj=xgboost_objective("squared_hinge"))]
    # each warmed up by one round (fastauc's first call in a process loads its
    # compiled kernels, about 0.5 s here; XGBoost's first training sketches
    # the DMatrix's quantiles, about 1.3 s), then the four timed in turn,
    # three times, the best of each: a 5 s training varies by 25% here
    for train in trainers:
        train(1)
    best = [float("inf")] * len(trainers)
    for _ in range(3):
        best = [min(b, best_time(lambda: train(rounds), 1)) for b, train in zip(best, trainers)]
    t_lgb, t_lgb_ours, t_xgb, t_xgb_ours = best
    return [judged(f"LightGBM, {rounds} rounds x 20 features, `lightgbm_objective()`", n,
                   t_lgb_ours, t_lgb, "`objective=\"binary\"`", "lightgbm objective"),
            judged(f"XGBoost, {rounds} rounds x 20 features, `xgboost_objective()`", n,
                   t_xgb_ours, t_xgb, "`binary:logistic`", "xgboost objective")]


HEADER = ["| function | n | fastauc | compared with | its time | result |",
          "|---|---|---|---|---|---|"]


def _goal_table(title, rows):
    """A titled table of rows (name, n, fastauc, compared with, its time,
    result): measurements only, no goals (those go to the console)."""
    lines = ["", title, "", *HEADER]
    for name, n, t_ours, t_peer, peer, result in rows:
        n = n if isinstance(n, str) else f"{n:.0e}"
        lines.append(f"| {name} | {n} | {_ms(t_ours)} | {peer} | {_ms(t_peer)} | {result} |")
    return lines


def _ms(seconds):
    if isinstance(seconds, str):  # already formatted (memory, say)
        return seconds
    ms = seconds * 1e3
    return f"{ms:,.0f} ms" if ms >= 100 else f"{ms:.3g} ms"


def subprocess_seconds(code):
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd=ROOT)
    return json.loads(out.stdout.strip().splitlines()[-1])


def startup_and_memory(n):
    imp = subprocess_seconds(
        "import time,json; t=time.perf_counter(); import fastauc; "
        "print(json.dumps(time.perf_counter()-t))")
    first = subprocess_seconds(
        "import time,json,numpy as np; import fastauc; "
        "rng=np.random.default_rng(0); y=(rng.random(10**6)<0.1).astype(np.int64); "
        "s=rng.random(10**6); t=time.perf_counter(); fastauc.roc_auc_score(y,s); "
        "print(json.dumps(time.perf_counter()-t))")
    # VmHWM (the peak resident set of this process image) rather than
    # ru_maxrss, which a child inherits from a large parent across fork+exec
    hwm = ("int(next(l.split()[1] for l in open('/proc/self/status') "
           "if l.startswith('VmHWM')))")
    mem = subprocess_seconds(
        "import json,numpy as np; import fastauc; "
        f"n={n}; y=np.zeros(n,np.int64); y[::10]=1; s=np.random.default_rng(0).random(n); "
        "fastauc.roc_auc_score(y[:1000],s[:1000]); "
        f"base={hwm}; "
        "fastauc.roc_auc_score(y,s); "
        f"peak={hwm}; "
        "print(json.dumps([(peak-base)*1024, y.nbytes+s.nbytes, s.nbytes]))")
    return imp, first, mem


def plot(path, sizes, repeat):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import sklearn.metrics as skm

    t_fast, t_sk, t_naive, naive_sizes = [], [], [], []
    for n in sizes:
        y, s, _ = data(n, pos_rate=0.5)
        fastauc.roc_auc_score(y, s)
        t_fast.append(best_time(lambda: fastauc.roc_auc_score(y, s), repeat))
        t_sk.append(best_time(lambda: skm.roc_auc_score(y, s), 1 if n >= 10**6 else repeat))
        if n <= 10**5:
            naive_sizes.append(n)
            t_naive.append(best_time(lambda: pairwise_auc(y, s), 1))
    fig, ax = plt.subplots(figsize=(6, 4.2))
    ax.loglog(sizes, t_fast, "o-", label="fastauc.roc_auc_score")
    ax.loglog(sizes, t_sk, "s-", label="sklearn roc_auc_score")
    ax.loglog(naive_sizes, t_naive, "^-", label="fastauc.naive.pairwise_auc")
    ax.set_xlabel("n (rows, half positive)")
    ax.set_ylabel("seconds (best of repeats)")
    ax.set_title("ROC AUC: time against n")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    return list(zip(sizes, t_fast, t_sk))


#: the tables' titles, the same with ``--only-*`` and in the full run
TITLES = {
    "first": "The scikit-learn functions:",
    "inference": "Confidence intervals and tests:",
    "reports": "Thresholds and reports:",
    "model selection": "Inside scikit-learn's model selection, and per call at 1,000 rows:",
    "groups": "Metrics per group:",
    "host": "Against numpy's sort and other libraries, by size, threads and classes (data: 10% "
            "positives, scores normal + label):",
    "memory": "Memory at {rows} rows (bool labels, float64 scores: 9 bytes of input a row; peak "
              "resident memory of the call):",
    "accumulator": "Batches and merges:",
    "training": "Training for AUC (scores normal + label, 10% positives; rank:pairwise and the "
                "held-out AUC table: benchmarks/training_table.py, docs/guide/training.md):",
}


def intro(date, quick=False):
    """The page's first paragraph: the run, the machine, how to read the ratios."""
    cores = os.cpu_count()
    kind = "virtual machine" if virtual_machine() else "machine"
    slow = ("scikit-learn best of 3 at n = 1e5" if quick else
            "scikit-learn best of 1 at n = 1e7 because each call takes seconds")
    return (
        "How long fastauc takes next to scikit-learn, scipy and other libraries. Every figure "
        "on this page comes from one run of `benchmarks/run_benchmarks.py` on "
        f"{date}, on a {cores}-core {cpu_name()} {kind} (details at the end), in one process: "
        f"fastauc warmed up first, best of {REPEAT}; {slow}. \"Nx faster\" is the other "
        "library's time divided by fastauc's; \"Nx one AUC\" (or another fastauc call) is "
        "fastauc's time divided by that call's. Data: uniform scores, 10% positives (the "
        "naive row: half positives) unless a table says otherwise. The scikit-learn bootstrap "
        "loop draws stratified resamples with numpy and calls `roc_auc_score` on each; 20 are "
        "timed and the time is scaled to the number of replicates. Timings on these shared "
        f"{cores}-core machines vary by 20-50% from run to run. Do not edit by hand: rerun "
        "the script.")


def _training(quick):
    return training_rows(10**5 if quick else 10**7, 2000 if quick else 2 * 10**4,
                         10**5 if quick else 10**6, 100, REPEAT)


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true", help="n = 1e5 instead of 1e7")
    ap.add_argument("--no-write", action="store_true", help="print only")
    ap.add_argument("--only-model-selection", action="store_true",
                    help="print the model-selection and per-call rows only")
    ap.add_argument("--only-groups", action="store_true", help="print the by_group rows only")
    ap.add_argument("--only-reports", action="store_true",
                    help="print the thresholds and report rows only")
    ap.add_argument("--only-host", action="store_true",
                    help="print the rows against numpy's sort and other libraries, by size, "
                    "threads and classes only")
    ap.add_argument("--only-memory", action="store_true",
                    help="print the 1e8-row memory rows only (1e6 with --quick)")
    ap.add_argument("--only-accumulator", action="store_true",
                    help="print the accumulator rows only")
    ap.add_argument("--only-training", action="store_true",
                    help="print the training rows only")
    args = ap.parse_args(argv)

    def only(key, rows, title=None):
        print("\n".join(_goal_table(title or TITLES[key], rows)))
        print("\n" + goal_summary())
        return 0

    if args.only_training:
        return only("training", _training(args.quick))
    if args.only_accumulator:
        return only("accumulator", accumulator_rows(10**5 if args.quick else 10**7, 3))
    if args.only_host:
        print(host_line())
        return only("host", host_rows(10**5 if args.quick else 10**7,
                                      10**4 if args.quick else 10**6, 3))
    if args.only_memory:
        return only("memory", memory_rows(10**6 if args.quick else 10**8),
                    TITLES["memory"].format(rows="1e6" if args.quick else "1e8"))
    if args.only_reports:
        import tempfile

        with tempfile.TemporaryDirectory() as tmpdir:
            rows = threshold_rows(10**5 if args.quick else 10**7, 3, tmpdir)
        return only("reports", rows)
    if args.only_groups:
        n = 10**5 if args.quick else 10**7
        return only("groups", group_rows(n, 100 if args.quick else 10_000, 3))
    ms_rows = model_selection_rows(2 * 10**5 if args.quick else 2 * 10**6, 20, 5)
    if args.only_model_selection:
        return only("model selection", ms_rows)
    big = 10**5 if args.quick else 10**7
    rows = sklearn_rows(big, repeat_fast=5, repeat_slow=1 if not args.quick else 3)
    rows.append(small_n_row(5))
    rows.append(naive_row(10**4 if args.quick else 10**5))
    inf_rows = inference_rows(big, 10**5 if args.quick else 10**6,
                              100 if args.quick else 1000, REPEAT)
    import tempfile

    with tempfile.TemporaryDirectory() as tmpdir:
        thr_rows = threshold_rows(big, REPEAT, tmpdir)
    imp, first, (extra, input_bytes, score_bytes) = startup_and_memory(big)
    lines = _goal_table(TITLES["first"], rows)[1:]  # the intro's blank line precedes it
    lines += _goal_table(TITLES["inference"], inf_rows)
    lines += _goal_table(TITLES["reports"], thr_rows)
    lines += _goal_table(TITLES["model selection"], ms_rows)
    lines += _goal_table(TITLES["groups"], group_rows(big, 100 if args.quick else 10_000, REPEAT))
    lines += _goal_table(TITLES["host"], host_rows(big, 10**4 if args.quick else 10**6, REPEAT))
    lines += _goal_table(TITLES["memory"].format(rows="1e6" if args.quick else "1e8"),
                         memory_rows(10**6 if args.quick else 10**8))
    lines += _goal_table(TITLES["accumulator"], accumulator_rows(big, REPEAT))
    lines += _goal_table(TITLES["training"], _training(args.quick))
    # startup and memory: their goals live here, not in tests/registry.py
    _verdict(f"`import fastauc`: {imp:.3f} s (goal < 1 s)", imp < 1.0)
    _verdict(f"first `roc_auc_score` on 1e6 rows, warm cache: {first:.3f} s (goal < 1 s)",
             first < 1.0)
    _verdict(f"peak extra memory of `roc_auc_score` at n = {big:.0e}: "
             f"{extra / score_bytes:.2f}x the scores' bytes (goal < 2.5x)",
             extra / score_bytes < 2.5)
    lines += [
        "",
        f"- `import fastauc`: {imp:.3f} s",
        f"- first `roc_auc_score` on 1e6 rows in a new process, warm cache: {first:.3f} s",
        f"- peak extra memory of `roc_auc_score` at n = {big:.0e}: {extra / 2**20:.0f} MiB = "
        f"{extra / input_bytes:.2f}x the input's bytes (int64 labels + float64 scores), "
        f"{extra / score_bytes:.2f}x the scores' bytes",
    ]
    png = ROOT / "docs" / "benchmark_scaling.png"
    if not args.no_write:
        sizes = [10**3, 10**4, 10**5, 10**6] + ([] if args.quick else [10**7])
        curve = plot(png, sizes, 3)
        lines += ["", "Time against n (half positives), log-log:", "",
                  "![ROC AUC time against n](benchmark_scaling.png)", "",
                  "| n | fastauc | scikit-learn | ratio |", "|---|---|---|---|"]
        lines += [f"| {n:.0e} | {a * 1e3:.3g} ms | {b * 1e3:.4g} ms | {b / a:,.1f}x |"
                  for n, a, b in curve]
    import numba
    import sklearn

    date = time.strftime('%Y-%m-%d')
    footer = (f"\nMachine: {host_line()}; {os.cpu_count()} cores; Python "
              f"{platform.python_version()}, "
              f"numpy {np.__version__}, numba {numba.__version__}, scikit-learn "
              f"{sklearn.__version__}, fastauc {fastauc.__version__}. Generated by "
              f"`python benchmarks/run_benchmarks.py` on {date}.")
    table = "\n".join(lines) + "\n" + footer + "\n"
    page = "# Benchmarks\n\n" + intro(date, args.quick) + "\n\n" + table
    print(page)
    print(goal_summary())
    if not args.no_write:
        target = ROOT / "docs" / "benchmarks.md"
        kept = _kept_section(target.read_text() if target.exists() else "")
        target.write_text(page + ("\n" + kept + "\n" if kept else ""))
    return 0


def _kept_section(old: str) -> str:
    """The sections other scripts wrote into the page between their markers
    (``<!-- NAME: begin -->`` ... ``<!-- NAME: end -->``: ``scaling_cores.py
    --page``, ``torch_metrics.py --page``, ``operating_points.py --page``;
    their own runs, often on another machine), kept in order when the page
    is rewritten."""
    kept = []
    for match in re.finditer(r"<!-- ([\w-]+): begin -->", old):
        end = f"<!-- {match.group(1)}: end -->"
        rest = old[match.start():]
        if end in rest:
            kept.append(rest.split(end, 1)[0] + end)
    return "\n\n".join(kept)

if __name__ == "__main__":
    raise SystemExit(main())
