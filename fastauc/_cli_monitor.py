"""``fastauc monitor``: the AUC per period of a CSV or Parquet file, with the
drift test of :func:`fastauc.auc_over_time`, in memory or read in batches
(``--stream``: one table of distinct scores per period, merged batch after
batch), and an exit status for schedulers."""

from __future__ import annotations

import json
import math
import sys

import numpy as np

from . import _over_time as ot
from . import _validation as v
from ._cli_io import CLIError, _missing, _pos_label, read_columns, record_batches
from ._table import Table

__all__ = ["monitor_parser", "run_monitor"]

EXIT_FLAGGED = 1  #: the exit status when the period watched is flagged


def monitor_parser(sub):
    m = sub.add_parser("monitor", help="the AUC per period of time of a CSV or Parquet file, "
                       "with a test of its drop (exit status 1 when flagged)")
    m.add_argument("path", help="a CSV, TSV or Parquet file")
    m.add_argument("--target", required=True, help="the label column (empty: not labelled yet)")
    m.add_argument("--score", required=True, help="the score column")
    m.add_argument("--time", required=True, help="the time column (datetimes or numbers)")
    m.add_argument("--freq", default="1D", help="the period: 1D, 1h, 15min, ... or a number "
                   "for numeric times (default 1D)")
    m.add_argument("--window", help="a sliding window of whole periods (7D: the last 7 days)")
    m.add_argument("--reference", default="first",
                   help="first (the first full window), an index (-1: the last), START,END "
                   "(times), or none")
    m.add_argument("--alternative", choices=("less", "greater", "two-sided"), default="less")
    m.add_argument("--adjust", choices=("holm", "bonferroni", "none"), default="holm")
    m.add_argument("--confidence-level", type=float, default=0.95)
    m.add_argument("--weight", help="a sample-weight column")
    m.add_argument("--pos-label", help="the positive class")
    m.add_argument("--fail-on", choices=("last", "any", "never"), default="last",
                   help="exit with status 1 when the latest period tested (any period) is "
                   "flagged")
    m.add_argument("--plot", metavar="PATH", help="write the plot of the AUC over time")
    m.add_argument("--json", action="store_true", help="print only JSON on stdout")
    m.add_argument("--stream", action="store_true",
                   help="read the file in batches: one table of distinct scores per period "
                   "(for files larger than memory; needs pyarrow)")
    return m


def _duration(text):
    """A number for numeric times, else the text (a time delta pandas reads)."""
    if text is None:
        return None
    try:
        return float(text)
    except ValueError:
        return text


def _reference(text):
    if text.lower() == "none":
        return None
    if text == "first":
        return "first"
    if "," in text:
        a, b = (x.strip() for x in text.split(",", 1))
        try:
            return float(a), float(b)
        except ValueError:
            return np.datetime64(a), np.datetime64(b)
    try:
        return int(text)
    except ValueError:
        raise CLIError(f"--reference must be first, an index, START,END or none, got {text!r}")


def _labels(values, pos_label_text):
    """Labels with the missing ones (empty, NaN, None) as None in an object array."""
    missing = _missing(values) if values.dtype.kind in "fO" else np.zeros(values.shape[0], bool)
    if values.dtype.kind in "OU":
        missing |= np.array([isinstance(x, str) and not x.strip() for x in values.tolist()],
                            bool)
    pos = _pos_label(values[~missing], pos_label_text) if pos_label_text is not None else None
    if missing.any():
        out = values.astype(object)
        out[missing] = None
        return out, pos
    return values, pos


def _in_memory(args, freq, window, reference, adjust, auc_over_time):
    cols = [args.target, args.score, args.time] + ([args.weight] if args.weight else [])
    data = read_columns(args.path, cols)
    y, pos = _labels(data[args.target], args.pos_label)
    return auc_over_time(
        y, np.asarray(data[args.score], np.float64), data[args.time], freq=freq,
        window=window, reference=reference, alternative=args.alternative,
        confidence_level=args.confidence_level, adjust=adjust,
        sample_weight=None if not args.weight else np.asarray(data[args.weight], np.float64),
        pos_label=pos)


class _Tables:
    """A period's table of distinct scores, batch after batch: tables merged
    like a binary counter (one merged with the one before it while that one
    is not larger), one table at the end."""

    def __init__(self):
        self.levels = []
        self.rows = 0

    def add(self, is_pos, s, w):
        t = Table.from_rows(is_pos, s, v.EMPTY_WEIGHT if w is None else w)
        self.rows += is_pos.shape[0]
        while self.levels and len(self.levels[-1]) <= 2 * len(t):
            t = self.levels.pop().merge(t)
        self.levels.append(t)
        return self

    def table(self):
        if not self.levels:
            return Table(np.empty(0, np.uint64), np.empty(0), np.empty(0))
        while len(self.levels) > 1:
            b = self.levels.pop()
            self.levels[-1] = self.levels[-1].merge(b)
        return self.levels[0]


def _streamed(args, freq, window, reference, adjust, auc_over_time=None):
    """The same numbers from batches: each period's rows added to its tables
    (the labelled rows; all rows' probabilities, all weight positive, for the
    expected AUC), then ``_over_time.from_tables``."""
    cols = [args.target, args.score, args.time] + ([args.weight] if args.weight else [])
    batches, _ = record_batches(args.path, cols)
    f, fkind = ot.duration(freq, "freq")
    labelled, every, rows, pos_rows = {}, {}, {}, {}
    ref_acc = _Tables() if isinstance(reference, tuple) else None
    kind = None
    lo_s, hi_s = math.inf, -math.inf
    pos = None
    for batch in batches():
        y, p = _labels(batch[args.target], args.pos_label)
        pos = p if p is not None else pos
        s = np.asarray(batch[args.score], np.float64)
        w = None if not args.weight else np.asarray(batch[args.weight], np.float64)
        t, kind = ot.time_values(batch[args.time], s.shape[0], "time")
        codes = np.floor_divide(t, int(f) if kind == "M" else f).astype(np.int64)
        missing = ot.missing_labels(y)
        if s.shape[0]:
            lo_s, hi_s = min(lo_s, float(s.min())), max(hi_s, float(s.max()))
        lab = ~missing
        is_pos, _, _ = v.binary_rows(y[lab] if missing.any() else y,
                                     None if w is None else w[lab], pos, frequency=True,
                                     y_score=s[lab])
        for c in np.unique(codes):
            here = codes == c
            hl = here[lab]
            ww = None if w is None else w[lab][hl]
            if hl.any():
                labelled.setdefault(int(c), _Tables()).add(is_pos[hl], s[lab][hl], ww)
                rows[int(c)] = rows.get(int(c), 0) + int(hl.sum())
                pos_rows[int(c)] = pos_rows.get(int(c), 0) + int(is_pos[hl].sum())
            every.setdefault(int(c), _Tables()).add(np.ones(int(here.sum()), bool), s[here],
                                                    None if w is None else w[here])
        if ref_acc is not None:
            bounds = ot.time_values(np.array(list(reference)), 2, "reference")[0]
            tl = t[lab]
            inside = (tl >= bounds[0]) & (tl < bounds[1])
            if inside.any():
                ref_acc.add(is_pos[inside], s[lab][inside],
                            None if w is None else w[lab][inside])
    if not every:
        raise v.empty_error("time", (0,))
    first, last = min(every), max(every)
    k = 1
    if window is not None:
        wv, _ = ot.duration(window, "window")
        k = int(round(wv / f))
    periods = range(first, last + 1)
    empty = _Tables()
    tables = [labelled.get(c, empty).table() for c in periods]
    probs = lo_s >= 0 and hi_s <= 1
    some_missing = sum(every[c].rows for c in every) > sum(rows.values())
    expected = [every.get(c, empty).table() for c in periods] \
        if probs and some_missing else None
    sums, n_win, n_pos, losses, exp_auc = ot.from_tables(
        tables, expected, [rows.get(c, 0) for c in periods],
        [pos_rows.get(c, 0) for c in periods], k, probs)
    step = int(f) if kind == "M" else f
    if kind == "M":
        start = (np.arange(first, last + 1, dtype=np.int64) * step).astype("datetime64[ns]")
        end = start + np.timedelta64(step, "ns")
    else:
        start = np.arange(first, last + 1) * step
        end = start + step
    ref = ot.reference_of(reference, sums, start, end, k)
    if ref is not None and ref[0] is None:
        ref = (ot.summaries([ref_acc.table()])[0], ref[1])
    return ot.finish(sums, n_win, n_pos, losses, exp_auc, start, end, k, ref,
                     args.confidence_level, args.alternative, adjust)


def _text(res, out):
    cols = ["start", "n", "auc", "low", "high", "difference", "pvalue_adjusted", "flag"]
    if res.expected_auc is not None:
        cols.insert(5, "expected_auc")
    out.write("  ".join(f"{c:>19}" if c == "start" else f"{c:>10}" for c in cols) + "\n")
    for j in range(len(res)):
        cells = []
        for c in cols:
            x = res.start[j] if c == "start" else getattr(res, c)[j]
            if c == "start":
                cells.append(f"{str(x)[:19]:>19}")
            elif c == "flag":
                cells.append(f"{'DROP' if x else '':>10}")
            elif c == "n":
                cells.append(f"{int(x):>10}")
            else:
                cells.append(f"{x:>10.4f}" if x == x else f"{'':>10}")
        out.write("  ".join(cells) + "\n")
    out.write(f"reference AUC {res.reference_auc:.4f}; {int(res.flag.sum())} of {len(res)} "
              f"periods flagged ({res.alternative}, {res.adjust or 'unadjusted'} p < "
              f"{1 - res.confidence_level:g})\n")


def run_monitor(args, auc_over_time, out=None):
    """Run ``fastauc monitor`` (``auc_over_time``: the public function, for
    the file read in memory); returns the exit status."""
    out = sys.stdout if out is None else out
    freq, window = _duration(args.freq), _duration(args.window)
    reference = _reference(args.reference)
    adjust = None if args.adjust == "none" else args.adjust
    try:
        res = (_streamed if args.stream else _in_memory)(args, freq, window, reference, adjust,
                                                         auc_over_time)
    except (TypeError, ValueError) as exc:
        raise CLIError(str(exc)) from None
    if args.json:
        d = res.to_dict()
        d["start"] = [str(x) for x in res.start]
        d["end"] = [str(x) for x in res.end]
        d["reference_auc"] = res.reference_auc
        out.write(json.dumps(d, allow_nan=True) + "\n")
    else:
        _text(res, out)
    if args.plot:
        fig = res.plot()
        fig.savefig(args.plot, dpi=110, bbox_inches="tight")
    tested = np.flatnonzero(~np.isnan(res.pvalue))  # the last period tested: the latest
    flagged = {"last": bool(res.flag[tested[-1]]) if tested.shape[0] else False,
               "any": bool(res.flag.any()), "never": False}[args.fail_on]
    return EXIT_FLAGGED if flagged else 0
