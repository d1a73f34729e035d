"""Operating points, thresholds and calibration: fastauc against scikit-learn,
torchmetrics and its own ``roc_auc_score``.

    python benchmarks/operating_points.py                 # the full sizes (a few minutes)
    python benchmarks/operating_points.py --quick         # 100x fewer rows, for a smoke test
    python benchmarks/operating_points.py --only coords calibration_error
    python benchmarks/operating_points.py --page docs/benchmarks.md   # the page's section

Rows (``--only`` takes these keys): ``coords`` (``coords`` at 100 specificities,
over one ``roc_auc_score``), ``confusion`` (``confusion_matrix_at_thresholds``
against scikit-learn's), ``calibration_curve`` (uniform and quantile bins
against ``sklearn.calibration.calibration_curve``), ``calibration_error``
(l1, l2 and max against torchmetrics' ``binary_calibration_error`` on CPU
tensors, 15 bins), ``brier`` (``brier_score_loss`` against scikit-learn's),
``reliability`` (``reliability_curve``, isotonic, and ``brier_decomposition``,
over one ``roc_auc_score``), ``metric_at_thresholds`` (F1 at every threshold
against scikit-learn's ``metric_at_thresholds``) and ``coords_ci`` (bootstrap
bands of sensitivity at 50 specificities over one ``bootstrap_ci``).

Data: 10% positives, scores normal + label (float64); the probabilities are
their logistic sigmoid (distinct values almost everywhere).  fastauc is warmed
up first (its kernels compiled or loaded), then each figure is the best of
``--repeats`` calls in this one process; a peer call that takes more than
``--slow`` seconds is timed once.  scikit-learn's ``metric_at_thresholds``
calls the metric once per distinct score (10^5 calls of ``f1_score`` on 10^5
rows: many minutes), so its time is its loop over 50 thresholds, scaled to the
number of thresholds (the one sort it does besides is left out: the estimate
is low).  A row whose fastauc function this build lacks is listed as not run.
Goals are printed on the console only; the table shows the measurements.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time
import traceback
import warnings
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import best_time, cpu_name  # noqa: E402 (benchmarks/common.py)

import fastauc  # noqa: E402

KEYS = ("coords", "confusion", "calibration_curve", "calibration_error", "brier", "reliability",
        "metric_at_thresholds", "coords_ci")

#: (words, met) of every goal checked, for the console summary
VERDICTS = []
#: peers timed once (slower than ``--slow``) or estimated, for the footnote
ONCE = []
NOT_RUN = "not run"


def _data(n, seed=0):
    """10% positives, scores normal + label, their sigmoid as probabilities."""
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.1).astype(np.int64)
    s = rng.standard_normal(n) + y
    return y, s, 1.0 / (1.0 + np.exp(-s))


def _have(*names):
    """The names this build of fastauc lacks."""
    return [name for name in names if not hasattr(fastauc, name)]


def _ours(fn, repeats):
    """Warm-up call, then the best of ``repeats``."""
    fn()
    return best_time(fn, repeats)


def _peer(label, fn, repeats, slow):
    """A peer's best of ``repeats`` after a warm-up call, or the warm-up's own
    time when that is over ``slow`` s (then timed once)."""
    t0 = time.perf_counter()
    fn()
    once = time.perf_counter() - t0
    if once > slow:
        ONCE.append(f"{label} ({once:.0f} s, timed once)")
        return once
    return best_time(fn, repeats)


def _verdict(words, met):
    VERDICTS.append((words, met))
    print(f"goal {'met' if met else 'NOT MET'}: {words}", flush=True)


def _faster(name, n, t_ours, t_peer, peer, goal=None):
    x = t_peer / t_ours
    if goal is not None:
        _verdict(f"{name} (n = {n:.0e}): {x:,.1f}x faster than {peer} (goal >= {goal:,}x)",
                 x >= goal)
    return (name, n, t_ours, peer, t_peer, f"{x:,.{2 if x < 10 else 1}f}x faster")


def _ratio(name, n, t_ours, t_base, base, what, goal=None):
    x = t_ours / t_base
    if goal is not None:
        _verdict(f"{name} (n = {n:.0e}): {x:.2f}x {what} (goal <= {goal})", x <= goal)
    return (name, n, t_ours, base, t_base, f"{x:.2f}x {what}")


def _skipped(name, n, missing):
    print(f"not run: {name}: fastauc.{', fastauc.'.join(missing)} not in this build",
          flush=True)
    return (name, n, NOT_RUN, "", None, f"`fastauc.{'`, `fastauc.'.join(missing)}` "
            "not in this build")


def _guarded(name, n, make_row):
    """The row, or a not-run row when fastauc's call fails (an API still moving)."""
    try:
        return make_row()
    except Exception as error:  # noqa: BLE001 - reported, the other rows go on
        traceback.print_exc()
        return (name, n, NOT_RUN, "", None, f"failed: {type(error).__name__}")


# ---------------------------------------------------------------- rows

def coords_rows(n, a):
    name = "`coords`, 100 specificities: threshold, sensitivity, specificity"
    if missing := _have("coords"):
        return [_skipped(name, n, missing)]
    y, s, _ = _data(n)
    x = np.linspace(0, 1, 100)

    def row():
        t = _ours(lambda: fastauc.coords(y, s, x=x, input="specificity",
                                         ret=("threshold", "sensitivity", "specificity")),
                  a.repeats)
        t_auc = _ours(lambda: fastauc.roc_auc_score(y, s), a.repeats)
        return _ratio(name, n, t, t_auc, "one `fastauc.roc_auc_score`", "one AUC", 1.3)
    return [_guarded(name, n, row)]


def confusion_rows(n, a):
    import sklearn.metrics as skm

    name = "`confusion_matrix_at_thresholds`"
    if missing := _have("confusion_matrix_at_thresholds"):
        return [_skipped(name, n, missing)]
    y, s, _ = _data(n)

    def row():
        t = _ours(lambda: fastauc.confusion_matrix_at_thresholds(y, s), a.repeats)
        t_sk = _peer("scikit-learn's confusion_matrix_at_thresholds",
                     lambda: skm.confusion_matrix_at_thresholds(y, s), a.repeats, a.slow)
        return _faster(name, n, t, t_sk, "scikit-learn", 20)
    return [_guarded(name, n, row)]


def calibration_curve_rows(n, a):
    from sklearn.calibration import calibration_curve

    y, _, p = _data(n)
    rows = []
    for strategy, goal in (("uniform", 10), ("quantile", None)):
        name = f"`calibration_curve`, 5 bins, {strategy}"

        def row(strategy=strategy, goal=goal, name=name):
            t = _ours(lambda: fastauc.calibration_curve(y, p, strategy=strategy), a.repeats)
            t_sk = _peer(f"scikit-learn's calibration_curve ({strategy})",
                         lambda: calibration_curve(y, p, strategy=strategy), a.repeats, a.slow)
            return _faster(name, n, t, t_sk, "scikit-learn", goal)
        rows.append(_guarded(name, n, row))
    return rows


def calibration_error_rows(n, a):
    try:
        import torch
        from torchmetrics.functional.classification import binary_calibration_error
    except ImportError:
        print("not run: calibration_error: torch and torchmetrics are not installed")
        return []
    y, _, p = _data(n)
    yt, pt = torch.from_numpy(y), torch.from_numpy(p)
    rows = []
    for norm in ("l1", "l2", "max"):
        name = f"`calibration_error`, 15 bins, {norm}"

        def row(norm=norm, name=name):
            t = _ours(lambda: fastauc.calibration_error(y, p, n_bins=15, norm=norm), a.repeats)
            t_tm = _peer(f"torchmetrics' binary_calibration_error ({norm})",
                         lambda: binary_calibration_error(pt, yt, n_bins=15, norm=norm),
                         a.repeats, a.slow)
            return _faster(name, n, t, t_tm, "torchmetrics (CPU tensors)", 10)
        rows.append(_guarded(name, n, row))
    return rows


def brier_rows(n, a):
    import sklearn.metrics as skm

    y, _, p = _data(n)
    name = "`brier_score_loss`"

    def row():
        t = _ours(lambda: fastauc.brier_score_loss(y, p), a.repeats)
        t_sk = _peer("scikit-learn's brier_score_loss", lambda: skm.brier_score_loss(y, p),
                     a.repeats, a.slow)
        return _faster(name, n, t, t_sk, "scikit-learn")
    return [_guarded(name, n, row)]


def reliability_rows(n, a):
    y, _, p = _data(n)
    rows = []
    for name, fn, calls in (
            ("`reliability_curve`, isotonic", "reliability_curve",
             lambda: fastauc.reliability_curve(y, p, method="isotonic")),
            ("`brier_decomposition`", "brier_decomposition",
             lambda: fastauc.brier_decomposition(y, p))):
        if missing := _have(fn):
            rows.append(_skipped(name, n, missing))
            continue

        def row(name=name, calls=calls):
            t = _ours(calls, a.repeats)
            t_auc = _ours(lambda: fastauc.roc_auc_score(y, p), a.repeats)
            return _ratio(name, n, t, t_auc, "one `fastauc.roc_auc_score`", "one AUC", 1.5)
        rows.append(_guarded(name, n, row))
    return rows


def _sklearn_metric_loop(y, s, metric, thresholds):
    """scikit-learn's ``metric_at_thresholds`` loop over these thresholds."""
    return [metric(y, (s >= t).astype(np.int32)) for t in thresholds]


def metric_at_thresholds_rows(n, a):
    import sklearn.metrics as skm

    name = "`metric_at_thresholds`, F1 at every threshold"
    if missing := _have("metric_at_thresholds"):
        return [_skipped(name, n, missing)]
    y, s, _ = _data(n)

    def row():
        t = _ours(lambda: fastauc.metric_at_thresholds(y, s, skm.f1_score), a.repeats)
        thresholds = np.unique(s)[::-1]
        sample = thresholds[np.linspace(0, thresholds.shape[0] - 1, 50).astype(np.intp)]
        t0 = time.perf_counter()
        _sklearn_metric_loop(y, s, skm.f1_score, sample)
        per = (time.perf_counter() - t0) / sample.shape[0]
        if per * thresholds.shape[0] <= a.slow:
            t_sk = _peer("scikit-learn's metric_at_thresholds",
                         lambda: skm.metric_at_thresholds(y, s, skm.f1_score), a.repeats, a.slow)
            peer = "scikit-learn"
        else:
            t_sk = per * thresholds.shape[0]
            ONCE.append(f"scikit-learn's metric_at_thresholds (estimated: 50 of its "
                        f"{thresholds.shape[0]:,} `f1_score` calls timed, scaled)")
            peer = "scikit-learn (estimated)"
        return _faster(name, n, t, t_sk, peer, 1000)
    return [_guarded(name, n, row)]


def coords_ci_rows(n, a):
    name = (f"`coords_ci`, bootstrap, {a.resamples} resamples, sensitivity at 50 "
            "specificities")
    if missing := _have("coords_ci"):
        return [_skipped(name, n, missing)]
    y, s, _ = _data(n)
    x = np.linspace(0.05, 0.95, 50)

    def row():
        t = _ours(lambda: fastauc.coords_ci(y, s, x=x, input="specificity", ret="sensitivity",
                                            method="bootstrap", n_resamples=a.resamples),
                  a.repeats)
        t_ci = _ours(lambda: fastauc.bootstrap_ci(y, s, n_resamples=a.resamples), a.repeats)
        return _ratio(name, n, t, t_ci, f"one `fastauc.bootstrap_ci` ({a.resamples} "
                      "resamples)", "one bootstrap_ci", 2)
    return [_guarded(name, n, row)]


#: key -> (rows function, rows at full size, rows with --quick)
ROWS = {
    "coords": (coords_rows, 10**7, 10**5),
    "confusion": (confusion_rows, 10**7, 10**5),
    "calibration_curve": (calibration_curve_rows, 10**7, 10**5),
    "calibration_error": (calibration_error_rows, 10**7, 10**5),
    "brier": (brier_rows, 10**7, 10**5),
    "reliability": (reliability_rows, 10**7, 10**5),
    "metric_at_thresholds": (metric_at_thresholds_rows, 10**5, 10**3),
    "coords_ci": (coords_ci_rows, 10**6, 10**4),
}

HEADER = ["| function | n | fastauc | compared with | its time | result |",
          "|---|---|---|---|---|---|"]


def _ms(seconds):
    if seconds is None:
        return ""
    if isinstance(seconds, str):
        return seconds
    ms = seconds * 1e3
    return f"{ms:,.0f} ms" if ms >= 100 else f"{ms:.3g} ms"


def table(rows, args):
    import numba
    import sklearn

    lines = list(HEADER)
    for name, n, t_ours, peer, t_peer, result in rows:
        lines.append(f"| {name} | {n:.0e} | {_ms(t_ours)} | {peer} | {_ms(t_peer)} | {result} |")
    try:
        import torch
        import torchmetrics
        torch_words = (f", torch {torch.__version__} ({torch.get_num_threads()} threads), "
                       f"torchmetrics {torchmetrics.__version__}")
    except ImportError:
        torch_words = ""
    once = f" Timed once or estimated: {'; '.join(ONCE)}." if ONCE else ""
    lines += ["", (
        f"{cpu_name()}, {os.cpu_count()} cores; Python {platform.python_version()}, numpy "
        f"{np.__version__}, numba {numba.__version__}, scikit-learn {sklearn.__version__}"
        f"{torch_words}, fastauc {fastauc.__version__}; {time.strftime('%Y-%m-%d')}. "
        f"10% positives, scores normal + label (float64), probabilities their sigmoid; one "
        f"process, warm; best of {args.repeats}.{once} \"Nx faster\" is the other library's "
        "time over fastauc's; \"Nx one AUC\" is fastauc's time over its `roc_auc_score` on "
        "the same rows.")]
    return lines


BEGIN, END = "<!-- operating_points: begin -->", "<!-- operating_points: end -->"


def write_section(path, lines, begin=BEGIN, end=END,
                  title="Operating points, thresholds and calibration",
                  command="python benchmarks/operating_points.py --page docs/benchmarks.md"):
    """The page's section between the markers (appended when absent;
    ``run_benchmarks.py`` keeps it when it rewrites the page)."""
    section = "\n".join([
        begin, f"## {title}", "",
        f"Generated by `{command}` (one process, warm). Do not edit by hand.", "", *lines, end])
    with open(path) as f:
        text = f.read()
    if begin in text:
        head, rest = text.split(begin, 1)
        text = head + section + rest.split(end, 1)[1]
    else:
        text = text.rstrip("\n") + "\n\n" + section + "\n"
    with open(path, "w") as f:
        f.write(text)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="100x fewer rows")
    parser.add_argument("--only", nargs="+", choices=KEYS, help="these rows only")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--resamples", type=int, default=None,
                        help="bootstrap resamples of the coords_ci row (1000; 100 with --quick)")
    parser.add_argument("--slow", type=float, default=20.0,
                        help="a peer call over this many seconds is timed once")
    parser.add_argument("--page", help="write the table into this markdown page's section")
    args = parser.parse_args(argv)
    if args.resamples is None:
        args.resamples = 100 if args.quick else 1000
    rows = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for key in args.only or KEYS:
            fn, full, quick = ROWS[key]
            rows += fn(quick if args.quick else full, args)
    lines = table(rows, args)
    print("\n".join(lines))
    missed = [words for words, met in VERDICTS if not met]
    print(f"\nGoals: {len(VERDICTS) - len(missed)} of {len(VERDICTS)} met"
          + (" (--quick: the goals are for the full sizes)" if args.quick else "")
          + (", not met:" if missed else "."))
    for words in missed:
        print(f"  {words}")
    if args.page:
        write_section(args.page, lines)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
