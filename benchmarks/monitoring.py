"""Monitoring a model in production: windows of a stream beside river's
RollingROCAUC, and the expected AUC before labels.

    python benchmarks/monitoring.py                       # about a minute on 2 cores
    python benchmarks/monitoring.py --quick               # 10x smaller windows
    python benchmarks/monitoring.py --page docs/benchmarks.md

Rows (one warm process; scores normal + label, 50% positives):

- a window of 1e6 rows advanced by batches of 1e4 rows: ``Window.update``
  plus ``Window.roc_auc`` per batch (median over 50 batches), beside
  river's ``RollingROCAUC.get`` on the same window (river 0.26, when it is
  installed) and ``roc_auc_score`` of the window's rows;
- a stream scored row by row into a window of 1e5 rows, the AUC asked
  every 10,000 rows: the time per row (updates and the AUC's share) and
  per AUC, beside river's ``update`` and ``get``;
- river's AUC against the exact one on a window of 1e4 rows with scores
  rounded to 3 decimals (ties);
- ``expected_roc_auc`` of 1e7 probabilities beside ``roc_auc_score``, and
  beside NannyML's CBPE (``roc_auc``, one chunk, fitted on a labelled
  reference of 1e5 rows) on the same probabilities, when NannyML is
  installed (its usage logging turned off: ``NML_DISABLE_USAGE_LOGGING``);
- ``auc_over_time`` of 1e7 rows over 365 days with a 7-day window beside one
  ``roc_auc_score`` of them;
- ``subgroup_aucs`` of 1e7 rows in 10,000 groups beside ``by_group``.
"""

from __future__ import annotations

import argparse
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

BEGIN, END = "<!-- monitoring: begin -->", "<!-- monitoring: end -->"


def _river():
    try:
        from river import metrics
    except ImportError:
        return None
    return metrics


def _data(n, seed=0):
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.5).astype(np.int64)
    return y, rng.standard_normal(n) + y


def batch_window(size, batch, steps):
    """Median seconds of update + roc_auc per batch; river's get; roc_auc_score."""
    y, s = _data(size + batch * steps)
    win = fastauc.Window(rows=size)
    for a in range(0, size, batch):
        win.update(y[a:a + batch], s[a:a + batch])
    win.roc_auc()
    times = []
    for a in range(size, size + batch * steps, batch):
        t = time.perf_counter()
        win.update(y[a:a + batch], s[a:a + batch])
        win.roc_auc()
        times.append(time.perf_counter() - t)
    end = size + batch * steps
    assert win.roc_auc() == fastauc.roc_auc_score(y[end - size:end], s[end - size:end])
    ref = best_time(lambda: fastauc.roc_auc_score(y[end - size:end], s[end - size:end]), 3)
    river = None
    metrics = _river()
    if metrics is not None:
        m = metrics.RollingROCAUC(window_size=size)
        for yy, ss in zip(y[end - size:end].tolist(), s[end - size:end].tolist()):
            m.update(yy, ss)
        river = best_time(m.get, 3)
    return float(np.median(times)), river, ref


def row_stream(size, every, rows):
    """Seconds per row (updates and AUCs), per AUC; river's per update and per get."""
    y, s = _data(size + rows, 1)
    yl, sl = y.tolist(), s.tolist()
    win = fastauc.Window(rows=size)
    for i in range(size):
        win.update(yl[i], sl[i])
    win.roc_auc()
    queries = []
    t0 = time.perf_counter()
    for i in range(size, size + rows):
        win.update(yl[i], sl[i])
        if (i + 1) % every == 0:
            t = time.perf_counter()
            win.roc_auc()
            queries.append(time.perf_counter() - t)
    per_row = (time.perf_counter() - t0) / rows
    river_update = river_get = None
    metrics = _river()
    if metrics is not None:
        m = metrics.RollingROCAUC(window_size=size)
        t = time.perf_counter()
        for i in range(size + rows):
            m.update(yl[i], sl[i])
        river_update = (time.perf_counter() - t) / (size + rows)
        river_get = best_time(m.get, 3)
    return per_row, float(np.median(queries)), river_update, river_get


def river_exactness(size=10_000):
    y, s = _data(size, 2)
    s = np.round(1 / (1 + np.exp(-s)), 3)
    metrics = _river()
    exact = fastauc.roc_auc_score(y, s)
    if metrics is None:
        return exact, None
    m = metrics.RollingROCAUC(window_size=size)
    for yy, ss in zip(y.tolist(), s.tolist()):
        m.update(yy, ss)
    return exact, m.get()


def _probabilities(n, seed=3):
    rng = np.random.default_rng(seed)
    p = rng.beta(1, 3, n)
    return p, rng.random(n) < p


def expected(n, repeats):
    p, y = _probabilities(n)
    t = best_time(lambda: fastauc.expected_roc_auc(p), repeats)
    base = best_time(lambda: fastauc.roc_auc_score(y, p), repeats)
    return t, base


def cbpe(n):
    """NannyML's CBPE estimate of the AUC of ``expected``'s probabilities
    (fitted on a calibrated, labelled reference of 1e5 rows; its estimate
    timed once) with its value and fastauc's, or None without NannyML."""
    os.environ.setdefault("NML_DISABLE_USAGE_LOGGING", "1")
    try:
        import nannyml
        import pandas as pd
    except ImportError:
        return None
    p, _ = _probabilities(n)
    pr, yr = _probabilities(100_000, seed=4)
    ref = pd.DataFrame({"p": pr, "pred": (pr >= 0.5).astype(int), "y": yr.astype(int)})
    est = nannyml.CBPE(y_pred_proba="p", y_pred="pred", y_true="y", metrics=["roc_auc"],
                       problem_type="classification_binary", chunk_number=1).fit(ref)
    ana = pd.DataFrame({"p": p, "pred": (p >= 0.5).astype(int)})
    t0 = time.perf_counter()
    res = est.estimate(ana)
    t = time.perf_counter() - t0
    value = float(res.to_df()[("roc_auc", "value")].iloc[0])
    return t, value, fastauc.expected_roc_auc(p).roc_auc, nannyml.__version__


def over_time(n, repeats):
    """``auc_over_time`` of n rows over 365 days with a 7-day window; one
    ``roc_auc_score`` of the same rows."""
    rng = np.random.default_rng(4)
    y = (rng.random(n) < 0.5).astype(np.int64)
    s = rng.standard_normal(n) + y
    t = np.datetime64("2026-01-01") + rng.integers(0, 365 * 24 * 60, n) * np.timedelta64(1, "m")
    a = best_time(lambda: fastauc.auc_over_time(y, s, t, freq="1D", window="7D"), repeats)
    b = best_time(lambda: fastauc.roc_auc_score(y, s), repeats)
    return a, b


def subgroups(n, groups, repeats):
    """``subgroup_aucs`` and ``by_group`` of n rows in ``groups`` groups."""
    rng = np.random.default_rng(5)
    g = rng.integers(0, groups, n)
    y = (rng.random(n) < 0.5).astype(np.int64)
    s = rng.standard_normal(n) + y
    a = best_time(lambda: fastauc.subgroup_aucs(y, s, g), repeats)
    b = best_time(lambda: fastauc.by_group(y, s, g), repeats)
    return a, b


def table(args):
    import numba

    size = 10**6 // (10 if args.quick else 1)
    batch = size // 100
    med, river_get, ref = batch_window(size, batch, 50)
    stream = 10**5 // (10 if args.quick else 1)
    per_row, per_auc, river_update, river_get_small = row_stream(stream, stream // 10,
                                                                 3 * stream)
    exact, river_auc = river_exactness()
    n_exp = 10**7 // (10 if args.quick else 1)
    t_exp, t_auc = expected(n_exp, args.repeats)
    nanny = cbpe(n_exp)
    t_time, t_one = over_time(n_exp, args.repeats)
    t_sub, t_by = subgroups(n_exp, 10_000 // (10 if args.quick else 1), args.repeats)
    metrics = _river()
    version = ""
    if metrics is not None:
        import river
        version = f"river {river.__version__}"

    def r(x, scale=1e3, unit="ms"):
        return "not installed" if x is None else f"{x * scale:.2f} {unit}"

    lines = [
        "| task | fastauc | river | beside |", "|---|---|---|---|",
        f"| window of {size:,} rows, batches of {batch:,}: `update` + `roc_auc` | "
        f"{_ms(med)} (median of 50) | `get`: {r(river_get)} | `roc_auc_score` of the "
        f"window: {_ms(ref)} |",
        f"| rows one at a time into a window of {stream:,}: per row, the AUC every "
        f"{stream // 10:,} rows included | {per_row * 1e6:.2f} µs | `update`: "
        f"{r(river_update, 1e6, 'µs')} | |",
        f"| the AUC of that window (`roc_auc`, `get`) | {_ms(per_auc)} | "
        f"{r(river_get_small)} | |",
        f"| AUC of 10,000 rows, scores rounded to 3 decimals | {exact:.6f} (exact) | "
        f"{'not installed' if river_auc is None else f'{river_auc:.6f}'} | |",
        f"| `expected_roc_auc` of {n_exp:,} probabilities | {_ms(t_exp)} | | "
        f"`roc_auc_score`: {_ms(t_auc)} ({t_exp / t_auc:.2f}x) |",
        f"| the same, NannyML's CBPE (`roc_auc`, one chunk) | | | " + (
            "NannyML not installed |" if nanny is None else
            f"NannyML {nanny[3]}: {_ms(nanny[0])} ({nanny[0] / t_exp:.1f}x fastauc's); its "
            f"estimate {nanny[1]:.6f}, fastauc's expected AUC {nanny[2]:.6f} |"),
        f"| `auc_over_time` of {n_exp:,} rows, 365 days, 7-day window | {_ms(t_time)} | | "
        f"`roc_auc_score`: {_ms(t_one)} ({t_time / t_one:.2f}x) |",
        f"| `subgroup_aucs` of {n_exp:,} rows, {10_000 // (10 if args.quick else 1):,} "
        f"groups | {_ms(t_sub)} | | `by_group`: {_ms(t_by)} ({t_sub / t_by:.2f}x) |",
        "",
        f"{cpu_name()}, {os.cpu_count()} cores; Python {platform.python_version()}, numpy "
        f"{np.__version__}, numba {numba.__version__}, fastauc {fastauc.__version__}"
        f"{', ' + version if version else ''}; {time.strftime('%Y-%m-%d')}. One process, "
        "warm. river's AUC is its own approximation (it does not count tied pairs one "
        "half), the others are exact; NannyML's CBPE recalibrates the probabilities on "
        "its reference (isotonic) before it estimates, so its AUC is of other numbers.",
    ]
    return lines


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="10x smaller windows and inputs")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--page", help="write the table into this markdown page's section")
    args = parser.parse_args(argv)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        lines = table(args)
    print("\n".join(lines))
    if args.page:
        _write(args.page, lines, BEGIN, END, "Monitoring: windows and the expected AUC",
               "python benchmarks/monitoring.py --page docs/benchmarks.md")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
