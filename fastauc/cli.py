"""The ``fastauc`` command line (optional extras are imported lazily)."""

from __future__ import annotations

import argparse
import os
import sys

import numpy as np

from ._cli_io import (_BATCH_ROWS, _PARQUET, CLIError, _missing, _need_pyarrow, _pos_label,
                      read_columns, record_batches)
from ._cli_monitor import monitor_parser, run_monitor
from ._demo import demo, make_demo_data
from .deploy import GROUPS, warmup

__all__ = ["demo", "main", "make_demo_data", "warmup"]


# the library's words for its parameters, and the report command's options for them
_OPTION_WORDS = (
    ("pos_label is not specified", "--pos-label is not given"),
    ("pass pos_label explicitly", "pass --pos-label VALUE"),
    ("pass pos_label to", "pass --pos-label VALUE to"),
    ("pass dropna=True", "pass --dropna"),
    ("calibration=True needs", "--calibration needs"),
    ("pass calibration=None to leave", "drop --calibration to leave"),
)


def _library_error(exc: Exception) -> CLIError:
    """A library error for the command line: its message with the Python
    parameters it names (``pos_label``, ``dropna=True``) given as the report
    command's options (``--pos-label``, ``--dropna``)."""
    message = str(exc)
    for words, option in _OPTION_WORDS:
        message = message.replace(words, option)
    return CLIError(message)


def _as_scores(name, values):
    try:
        arr = np.asarray(values, dtype=np.float64)
    except (TypeError, ValueError):
        raise CLIError(f"column {name!r} is not numeric") from None
    return arr


def _missing_label(values):
    """Rows whose group label is missing: NaN/NaT, None, or empty text."""
    if values.dtype.kind == "f":
        return np.isnan(values)
    if values.dtype.kind in "Mm":
        return np.isnat(values)
    if values.dtype.kind in "OU":
        return np.array([v is None or (isinstance(v, float) and v != v)
                         or (isinstance(v, str) and not v.strip()) for v in values.tolist()],
                        bool).reshape(values.shape)
    return np.zeros(values.shape[0], bool)


def _group_labels(values):
    """Group labels as read, but whole numbers (a column of integers with an empty cell
    reads as floats) as integers, so that the tables show ``3`` rather than ``3.0``."""
    if values.dtype.kind != "f" or not values.shape[0]:
        return values
    if np.all(values == np.round(values)) and np.abs(values).max() < 2.0 ** 53:
        return values.astype(np.int64)
    return values


def _available_memory() -> int:
    import os

    try:
        return os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):  # pragma: no cover - not Linux
        return 1 << 34


def _parse_bytes(text):
    units = {"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40}
    t = str(text).strip().upper().removesuffix("B").removesuffix("I")
    unit = t[-1:] if t[-1:] in units else ""
    try:
        value = float(t[:len(t) - len(unit)])
    except ValueError:
        raise CLIError(f"--memory-budget {text!r} is not a size (e.g. 4G, 500M)") from None
    return int(value * units[unit])


# bytes the in-memory report needs per row and column read (the arrays, the
# sort buffers and layouts): measured near 40 at 1e7 rows, two models
_REPORT_BYTES_PER_CELL = 48


def _rows_estimate(path, n_cols):
    """Rows of a Parquet file (its metadata), or of a CSV file (from its size)."""
    import os

    if path.lower().endswith(_PARQUET):
        _need_pyarrow("reading Parquet")
        import pyarrow.parquet as pq

        return pq.ParquetFile(path).metadata.num_rows
    return os.path.getsize(path) // max(1, 8 * n_cols)


def _should_stream(args, cols):
    """``--stream``, or a file whose in-memory report would not fit the budget
    (``--memory-budget``, by default half the available memory)."""
    import os

    if args.stream:
        return True
    if not os.path.exists(args.file):
        raise CLIError(f"no such file: {args.file}")
    budget = _parse_bytes(args.memory_budget) if args.memory_budget else \
        _available_memory() // 2
    need = _rows_estimate(args.file, len(cols)) * len(cols) * _REPORT_BYTES_PER_CELL
    return need > budget


def _clean(args, data, by_cols):
    """``(target, scores, weight, labels, keep)`` of rows read: missing values
    raise a CLIError unless ``--dropna`` (then those rows are dropped)."""
    target = data[args.target]
    scores = {c: _as_scores(c, data[c]) for c in args.score}
    weight = _as_scores(args.weight, data[args.weight]) if args.weight else None
    bad = _missing(target)
    for c in [*args.score] + ([args.weight] if args.weight else []):
        arr = weight if c == args.weight else scores[c]
        miss = _missing(arr)
        if miss.any() and not args.dropna:
            raise CLIError(f"column {c!r} has {int(miss.sum()):,} missing, NaN or infinite "
                           "values; pass --dropna to drop those rows")
        bad |= miss
    for c in by_cols:
        miss = _missing_label(data[c])
        if miss.any() and not args.dropna:
            k = int(miss.sum())
            raise CLIError(f"group column {c!r} has {k:,} missing label{'s' if k != 1 else ''}; "
                           "pass --dropna to drop those rows")
        bad |= miss
    if bad.any() and not args.dropna:
        raise CLIError(f"column {args.target!r} has {int(bad.sum()):,} missing values; pass "
                       "--dropna to drop those rows")
    keep = ~bad
    if target.dtype.kind == "O":
        target = target.astype(str)
    target = target[keep]
    S = np.column_stack([scores[c][keep] for c in args.score])
    w = weight[keep] if weight is not None else None
    labels = [_group_labels(data[c][keep]) for c in by_cols]
    return target, S, w, labels


def _stream_report(args, cols, by_cols, chosen=None):
    """The report of a file read in record batches into accumulators."""
    from .streaming import report_stream

    if args.ci == "bootstrap":
        raise CLIError("the bootstrap needs every row in memory, and this report streams "
                       "the file (--stream, or larger than --memory-budget); use --ci delong, "
                       "exact in streaming mode")
    if args.plot:
        raise CLIError("--plot needs the rows in memory; it is not available with --stream")
    read, n_rows = record_batches(args.file, cols, _BATCH_ROWS)  # the module's: tests lower it

    def batches():
        for data in read():
            target, S, w, labels = _clean(args, data, by_cols)
            groups = None if not by_cols else (labels[0] if len(labels) == 1
                                                else tuple(labels))
            yield target, S, w, groups

    first = next(iter(read()), None)  # --pos-label takes the type of the target column
    pos_label = None if first is None else _pos_label(_clean(args, first, by_cols)[0],
                                                      args.pos_label)
    bar = _progress_bar(not args.json, n_rows * (2 if len(args.score) > 1 else 1)
                        if n_rows is not None else None)
    try:
        return report_stream(batches, names=args.score, pos_label=pos_label,
                             progress=None if bar is None else bar.update, **(chosen or {}))
    except (ValueError, TypeError) as exc:
        raise _library_error(exc) from None
    finally:
        if bar is not None:
            bar.close()


def _check_cluster_bootstrap(args, where):
    if args.ci == "bootstrap" and args.scheme != "poisson":
        raise CLIError(f"--ci bootstrap on {where} needs --scheme poisson: the multinomial "
                       "scheme draws n rows from every partition at once and cannot be split "
                       "across them")


def _dask_report(args, cols, by_cols, calibration=None):
    """The report computed on a Dask cluster (``--scheduler ADDRESS``, or a
    local cluster with ``--dask``): the file (or glob) read as a dask
    DataFrame, ``fastauc.dask.report`` on it."""
    if args.plot:
        raise CLIError("--plot is not available with --dask/--scheduler yet; the cluster "
                       "report gives the intervals, the paired tests and --by")
    _check_cluster_bootstrap(args, "a cluster")
    try:
        import dask.dataframe as dd
        import distributed
    except ImportError:
        raise CLIError("--dask/--scheduler need dask: pip install 'fastauc[dask]'") from None
    from . import dask as fdask

    lower = args.file.lower()
    reader = dd.read_parquet if lower.endswith(_PARQUET) else dd.read_csv
    try:
        frame = reader(args.file, columns=list(dict.fromkeys(cols))) if reader is \
            dd.read_parquet else reader(args.file, usecols=list(dict.fromkeys(cols)))
    except (OSError, ValueError, KeyError) as exc:
        raise CLIError(f"could not read {args.file}: {exc}") from None
    if args.dropna:
        frame = frame.dropna(subset=list(dict.fromkeys(cols)))
    target = frame[args.target]
    pos_label = _pos_label(np.empty(0, target.dtype if target.dtype.kind != "O" else object),
                           args.pos_label)
    if args.scheduler:
        client = distributed.Client(args.scheduler)
    else:
        client = distributed.Client(distributed.LocalCluster(dashboard_address=None))
    weight = frame[args.weight] if args.weight else None
    groups = None
    if by_cols:
        groups = frame[by_cols[0]] if len(by_cols) == 1 else tuple(frame[c] for c in by_cols)
    try:
        options = {}
        if args.ci == "bootstrap":
            options = {"n_resamples": args.n_resamples, "random_state": args.seed,
                       "scheme": "poisson"}
        graphs = [fdask.report(frame, target=args.target, scores=args.score, weight=args.weight,
                               pos_label=pos_label, ci=args.ci, compute=False,
                               calibration=calibration, **options)]
        if groups is not None:  # each model's per-group table, in the same computation
            graphs += [fdask.by_group(target, frame[s], groups, sample_weight=weight,
                                      pos_label=pos_label, compute=False) for s in args.score]
        futures = client.compute(graphs)
        if not args.json and sys.stderr.isatty():  # dask's own progress bar, on stderr
            import contextlib

            with contextlib.redirect_stdout(sys.stderr):
                distributed.progress(futures)
        rep, *tables = client.gather(futures)
    except (ValueError, TypeError) as exc:
        raise _library_error(exc) from None
    finally:
        if not args.scheduler:
            client.cluster.close()
        client.close()
    if tables:
        from dataclasses import replace

        from .dask.report import warn_single_class

        for table in tables:  # as the in-memory report warns, once per model
            warn_single_class(table)
        rep = replace(rep, by_group=dict(zip(args.score, tables)))
    return rep


def _spark_report(args, cols, by_cols, calibration=None):
    """The report computed by Spark (``--spark [MASTER]``): the file (or
    glob, or directory) read by Spark, or the catalog table named by
    ``--spark-table``, and ``fastauc.spark.report`` on it."""
    if args.plot:
        raise CLIError("--plot is not available with --spark yet; the Spark report gives the "
                       "intervals and the paired tests")
    _check_cluster_bootstrap(args, "Spark")
    try:
        from pyspark.sql import SparkSession
    except ImportError:
        raise CLIError("--spark needs pyspark: pip install 'fastauc[spark]'") from None
    from . import spark as fspark

    builder = SparkSession.builder.appName("fastauc report")
    if args.spark:  # else the session's own master (spark-submit's, or local[*])
        builder = builder.master(args.spark)
    spark = builder.getOrCreate()
    try:
        if args.spark_table:
            frame = spark.table(args.spark_table)
        elif args.file.lower().endswith(_PARQUET) or os.path.isdir(args.file):
            frame = spark.read.parquet(args.file)
        else:
            sep = "\t" if args.file.lower().endswith(".tsv") else ","
            frame = spark.read.csv(args.file, header=True, inferSchema=True, sep=sep)
    except Exception as exc:  # Spark's AnalysisException: no such path or table
        raise CLIError(f"could not read {args.spark_table or args.file}: "
                       f"{str(exc).splitlines()[0]}") from None
    wanted = list(dict.fromkeys(cols))
    if args.dropna:
        present = [c for c in wanted if c in frame.columns]
        frame = frame.dropna(subset=present)
    kinds = dict(frame.dtypes)
    if args.target not in kinds:
        raise CLIError(f"no column {args.target!r} (columns: {', '.join(frame.columns)})")
    kind = kinds[args.target]
    sample = np.empty(0, np.float64 if kind in ("float", "double") else
                      np.bool_ if kind == "boolean" else object if kind == "string" else
                      np.int64)
    pos_label = _pos_label(sample, args.pos_label)
    options = {}
    if args.ci == "bootstrap":
        options = {"n_resamples": args.n_resamples, "random_state": args.seed,
                   "scheme": "poisson"}
    try:
        return fspark.report(frame, args.target, args.score, weight=args.weight,
                             pos_label=pos_label, ci=args.ci, by=by_cols or None,
                             calibration=calibration, **options)
    except (ValueError, TypeError) as exc:
        raise _library_error(exc) from None


def _progress_bar(show, total):
    if not show:
        return None
    try:
        from tqdm.auto import tqdm
    except ImportError:  # the optional extra is not installed: no bar
        return None
    return tqdm(total=total, unit="row", desc="reading", file=sys.stderr)


def parse_rates(text, option):
    """A comma list of rates in [0, 1] (``--at-specificity 0.9,0.95``) as a
    tuple of floats; None when the option is not given."""
    if text is None:
        return None
    parts = [t.strip() for t in str(text).split(",")]
    if not any(parts):
        raise CLIError(f"{option} needs rates in [0, 1], e.g. {option} 0.9,0.95")
    rates = []
    for t in parts:
        try:
            x = float(t)
        except ValueError:
            raise CLIError(f"{option} {text!r}: {t!r} is not a number (give rates in [0, 1], "
                           f"separated by commas, e.g. {option} 0.9,0.95)") from None
        if not 0.0 <= x <= 1.0:  # NaN fails too
            raise CLIError(f"{option} {text!r}: {t} is not a rate in [0, 1] (e.g. "
                           f"{option} 0.9,0.95)")
        rates.append(x)
    return tuple(rates)


def _chosen(args):
    """The report's operating points and calibration options, from the command line."""
    return {"at_specificity": parse_rates(getattr(args, "at_specificity", None),
                                          "--at-specificity"),
            "at_sensitivity": parse_rates(getattr(args, "at_sensitivity", None),
                                          "--at-sensitivity"),
            "calibration": getattr(args, "calibration", None)}


def _refuse_chosen_on_cluster(chosen, engine):
    """The operating points read each model's whole curve in one place: not
    on Dask or Spark (the calibration block is computed there)."""
    if chosen["at_specificity"] is not None or chosen["at_sensitivity"] is not None:
        raise CLIError(f"--at-specificity and --at-sensitivity are not available with {engine} "
                       "(they read each model's whole curve in one place); drop the engine "
                       "option to report in memory, or use --stream")


def run_report(args, out=None):
    """``fastauc report``: read, validate, report (per group with ``--by``), optionally plot."""
    import fastauc

    out = sys.stdout if out is None else out

    chosen = _chosen(args)
    by_cols = list(dict.fromkeys(args.by or []))
    cols = [args.target, *args.score] + ([args.weight] if args.weight else []) + by_cols
    if args.background and (not by_cols or args.dask or args.scheduler
                            or args.spark is not False or args.spark_table):
        raise CLIError("--background needs --by, and the report in memory or streamed (not "
                       "--dask or --spark)")
    if args.spark is not False or args.spark_table:
        if args.dask or args.scheduler:
            raise CLIError("choose one engine: --spark or --dask/--scheduler")
        _refuse_chosen_on_cluster(chosen, "--spark")
        return _print_report(args, _spark_report(args, cols, by_cols, chosen["calibration"]),
                             by_cols, out)
    if args.file is None:
        raise CLIError("a file to read is needed (or --spark-table NAME)")
    if args.dask or args.scheduler:
        _refuse_chosen_on_cluster(chosen, "--dask/--scheduler")
        return _print_report(args, _dask_report(args, cols, by_cols, chosen["calibration"]),
                             by_cols, out)
    if _should_stream(args, cols):
        rep = _stream_report(args, cols, by_cols, {**chosen, "background": args.background})
        return _print_report(args, rep, by_cols, out)
    data = read_columns(args.file, cols)
    target, S, w, labels = _clean(args, data, by_cols)
    by = None
    if by_cols:
        by = labels[0] if len(labels) == 1 else tuple(labels)
    classes = np.unique(target)
    if classes.shape[0] < 2:
        raise CLIError(f"the target column {args.target!r} has only one class "
                       f"({classes[0] if classes.shape[0] else 'no rows'}); a report needs both")
    if classes.shape[0] > 2 and args.pos_label is None:
        raise CLIError(f"the target column {args.target!r} has {classes.shape[0]} classes; "
                       "pass --pos-label VALUE to score one class against the rest")
    pos_label = _pos_label(target, args.pos_label)
    if pos_label is not None and classes.shape[0] > 2:
        target = target == pos_label
        pos_label = True
    options = {}
    if args.ci == "bootstrap":
        options = {"n_resamples": args.n_resamples, "random_state": args.seed,
                   "progress": not args.json, "scheme": args.scheme}
    try:
        rep = fastauc.report(target, S, sample_weight=w, ci=args.ci, names=args.score,
                             pos_label=pos_label, by=by, plot=args.plot, plot_seed=args.seed,
                             background=args.background, **chosen, **options)
    except (ValueError, TypeError) as exc:
        raise _library_error(exc) from None
    return _print_report(args, rep, by_cols, out)


def _print_report(args, rep, by_cols, out):
    import json
    from dataclasses import replace

    if by_cols:  # the tables' group columns take the file's column names
        rep = replace(rep, by_group={
            name: replace(g, groups=dict(zip(by_cols, g.groups.values())))
            for name, g in rep.by_group.items()})
    if args.json:
        print(json.dumps(rep.to_dict(), allow_nan=False), file=out)
    else:
        print(f"{args.spark_table or args.file}: target {args.target!r}", file=out)
        print(rep, file=out)
        if args.plot:
            print(f"plot written to {args.plot}", file=out)
    return 0


def _report_parser(sub):
    r = sub.add_parser("report", help="evaluate score columns of a CSV or Parquet file",
                       description="AUC with a confidence interval, Gini, average precision, "
                       "log loss, the calibration of probabilities, best thresholds, lift, "
                       "chosen operating points and paired DeLong tests.")
    r.add_argument("file", nargs="?", help="a .csv, .tsv or .parquet file (with --spark: "
                   "also a glob or a directory of Parquet files)")
    r.add_argument("--target", required=True, help="the label column")
    r.add_argument("--score", required=True, action="append",
                   help="a score column (repeat for several models)")
    r.add_argument("--weight", help="a sample-weight column")
    r.add_argument("--pos-label", help="the positive class (needed unless labels are 0/1, "
                   "-1/1 or true/false)")
    r.add_argument("--ci", choices=("delong", "bootstrap"), default="delong")
    r.add_argument("--n-resamples", type=int, default=1000, help="bootstrap replicates")
    r.add_argument("--seed", type=int, default=0, help="bootstrap random seed")
    r.add_argument("--scheme", choices=("multinomial", "poisson"), default="multinomial",
                   help="bootstrap resampling: stratified multinomial (pROC's) or Poisson "
                        "counts per row (faster on tens of millions of rows)")
    r.add_argument("--plot", metavar="PATH", help="write ROC, precision-recall and gains "
                   "plots to this PNG (needs matplotlib: pip install 'fastauc[plot]')")
    r.add_argument("--by", action="append", metavar="COL",
                   help="a group column: also print each model's metrics per group (repeat "
                   "for combinations of several columns)")
    r.add_argument("--at-specificity", metavar="RATES",
                   help="also report each model's sensitivity at these specificities, a comma "
                   "list of rates in [0, 1] (e.g. 0.9,0.95), with an interval (Wilson's with "
                   "--ci delong, the bootstrap's with --ci bootstrap) and the threshold")
    r.add_argument("--at-sensitivity", metavar="RATES",
                   help="also report each model's specificity at these sensitivities (a comma "
                   "list of rates in [0, 1]), likewise")
    r.add_argument("--calibration", action=argparse.BooleanOptionalAction, default=None,
                   help="the calibration block (Brier score, its miscalibration, "
                   "discrimination and uncertainty, and the 15-bin ECE): by default for score "
                   "columns of probabilities (all in [0, 1]); --calibration for every column "
                   "(an error for scores outside [0, 1]), --no-calibration never")
    r.add_argument("--background", action="store_true",
                   help="with --by: each group's BPSN and BNSP AUCs (in memory or "
                        "--stream; not --dask or --spark)")
    r.add_argument("--json", action="store_true", help="print only JSON on stdout")
    r.add_argument("--dropna", action="store_true",
                   help="drop rows with a missing target, score, weight or group label")
    r.add_argument("--stream", action="store_true",
                   help="read the file in record batches into accumulators: memory grows "
                   "with the distinct scores, not the rows (DeLong intervals and paired tests "
                   "stay exact; needs pyarrow); automatic for files larger than the budget")
    r.add_argument("--dask", action="store_true",
                   help="compute the report on a local Dask cluster (needs fastauc[dask]); "
                   "FILE may be a glob of Parquet or CSV files")
    r.add_argument("--scheduler", metavar="ADDRESS",
                   help="compute the report on the Dask cluster at this scheduler address")
    r.add_argument("--spark", nargs="?", const=None, default=False, metavar="MASTER",
                   help="compute the report with Spark (needs fastauc[spark]): on MASTER "
                        "(local[4], spark://host:7077, yarn...), else the session's default")
    r.add_argument("--spark-table", metavar="NAME",
                   help="with Spark, report on this catalog table (db.table) instead of a file")
    r.add_argument("--device", choices=("auto", "cpu", "cuda"), default="auto",
                   help="where the bootstrap intervals (--ci bootstrap) compute: cuda runs "
                   "them on the GPU (needs fastauc[gpu]; docs/guide/gpu.md), the rest of the "
                   "report stays on the CPU cores")
    r.add_argument("--memory-budget", metavar="SIZE",
                   help="stream files whose in-memory report would need more than this "
                   "(e.g. 8G; default: half the available memory)")
    return r


def main(argv=None):
    from . import __version__

    parser = argparse.ArgumentParser(prog="fastauc", description=__doc__)
    parser.add_argument("--version", action="version", version=f"fastauc {__version__}")
    sub = parser.add_subparsers(dest="command")
    d = sub.add_parser("demo", help="score built-in synthetic data and compare timings")
    d.add_argument("--n", type=int, default=1_000_000, help="rows (default 1e6)")
    wu = sub.add_parser("warmup", help="compile (or load from the cache) every kernel now")
    wu.add_argument("--jobs", type=int, default=None,
                    help="processes compiling at once (default: the CPUs this process may "
                    "use, FASTAUC_NUM_THREADS if set)")
    wu.add_argument("--groups", nargs="+", choices=list(GROUPS), default=None, metavar="NAME",
                    help="warm only these families of calls (default: all): "
                    f"{', '.join(GROUPS)}; 'training' is the all-pairs losses and the "
                    "training metrics' tables (fastauc.torch on the CPU)")
    _report_parser(sub)
    monitor_parser(sub)
    args = parser.parse_args(argv)
    try:
        if args.command == "warmup":
            from ._parallel import num_threads

            if args.jobs is not None and args.jobs < 1:
                raise CLIError("--jobs must be at least 1")
            warmup(groups=args.groups,
                   jobs=num_threads() if args.jobs is None else args.jobs)
            return 0
        if args.command == "demo":
            if args.n < 1000:
                parser.error("--n must be at least 1000")
            return demo(n=args.n)
        if args.command == "monitor":
            from .monitoring import auc_over_time

            return run_monitor(args, auc_over_time)
        if args.command == "report":
            if args.n_resamples < 1:
                raise CLIError("--n-resamples must be at least 1")
            from ._config import config_context

            with config_context(device=args.device):
                return run_report(args)
    except CLIError as exc:
        parser.exit(2, f"fastauc: error: {exc}\n")
    parser.print_help()
    return 0
