"""The engine-neutral half of ``auc_over_time`` on a cluster: each block's rows
folded into one table of distinct scores per period (labelled rows; and,
for the expected AUC, all rows' probabilities with all their weight
positive), the blocks' tables dealt to buckets of consecutive periods (each
with the ``window - 1`` periods before it), and each bucket's windows
merged and swept (``_over_time.from_tables``): no task holds more than a
block's rows or a bucket's tables, and the client receives one row of
numbers per period."""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from .. import _over_time as ot
from .. import _validation as v
from .._over_time import from_tables
from .._table import Table
from .._window_state import time_values

__all__ = ["Plan", "assemble", "block_stats", "block_tables", "bucket_sums", "merged", "plan",
           "split_buckets"]


def _missing(y):
    y = np.asarray(y)
    return y, ot.missing_labels(y)


def block_stats(y, s, t, where):
    """A block's labels (the labelled rows'), time and score ranges, time
    kind and whether some labels are missing (the first pass)."""
    y, missing = _missing(y)
    s = v.as_float_array(np.asarray(s), "y_score") if len(s) else np.empty(0)
    n = s.shape[0]
    if y.shape[0] != n:
        raise ValueError(f"Found input variables with inconsistent numbers of samples: "
                         f"[{y.shape[0]}, {n}] (in the partition starting at {where})")
    if not n:
        return {"classes": None, "t": None, "s": None, "kind": None, "missing": False}
    if not np.isfinite(s).all():
        v.raise_non_finite("y_score", s)
    tv, kind = time_values(t, n, "time")
    lab = y[~missing] if missing.any() else y
    classes = v.unique_labels(v.as_label_array(lab)) if lab.shape[0] else None
    return {"classes": classes, "t": (tv.min().item(), tv.max().item()), "kind": kind,
            "s": (float(s.min()), float(s.max())), "missing": bool(missing.any())}


def block_tables(y, s, w, t, step, origin, positive, want_expected, ref_bounds):
    """``(labelled, expected, reference)``: per period (0 the earliest) the
    block's table of labelled rows with its rows and positives; per period
    the table of all rows' probabilities (all weight positive), or None; the
    table of the labelled rows in ``ref_bounds`` (a time range), or None."""
    y, missing = _missing(y)
    s = np.asarray(s, np.float64)
    n = s.shape[0]
    w = v.check_batch_weights(w, n) if w is not None else v.EMPTY_WEIGHT
    tv, kind = time_values(t, n, "time")
    codes = (np.floor_divide(tv, step) if kind == "M" else np.floor(tv / step)).astype(
        np.int64) - origin
    lab = ~missing
    is_pos = v.positive_mask(y[lab], positive) if lab.any() else np.zeros(0, bool)
    sl, cl = s[lab], codes[lab]
    wl = w[lab] if w.shape[0] else w
    labelled = {}
    for c in np.unique(cl):
        here = cl == c
        labelled[int(c)] = (Table.from_rows(is_pos[here], sl[here],
                                            wl[here] if wl.shape[0] else wl),
                            int(here.sum()), int(is_pos[here].sum()))
    expected = None
    if want_expected:
        expected = {}
        for c in np.unique(codes):
            here = codes == c
            expected[int(c)] = Table.from_rows(np.ones(int(here.sum()), bool), s[here],
                                               w[here] if w.shape[0] else w)
    ref = None
    if ref_bounds is not None:
        tl = tv[lab]
        inside = (tl >= ref_bounds[0]) & (tl < ref_bounds[1])
        if inside.any():
            ref = Table.from_rows(is_pos[inside], sl[inside], wl[inside] if wl.shape[0] else wl)
    return labelled, expected, ref


def split_buckets(tables, bounds, k):
    """A block's tables dealt to the buckets: bucket ``b`` (periods
    ``bounds[b]:bounds[b + 1]``) gets the periods ``bounds[b] - k + 1`` to
    ``bounds[b + 1] - 1`` (its windows reach back ``k - 1`` periods)."""
    labelled, expected, _ = tables
    out = []
    for b in range(len(bounds) - 1):
        lo, hi = bounds[b] - k + 1, bounds[b + 1]
        out.append(({p: x for p, x in labelled.items() if lo <= p < hi},
                    None if expected is None else
                    {p: x for p, x in expected.items() if lo <= p < hi}))
    return out


def merged(tables):
    """One table of several (a balanced tree of merges); None for none."""
    tables = [t for t in tables if t is not None and len(t)]
    if not tables:
        return None
    while len(tables) > 1:
        tables = [tables[i].merge(tables[i + 1]) if i + 1 < len(tables) else tables[i]
                  for i in range(0, len(tables), 2)]
    return tables[0]


def bucket_sums(k, p0, p1, probs, want_expected, *pieces):
    """``from_tables``' numbers of periods ``p0:p1`` from the blocks' pieces."""
    lo = max(0, p0 - k + 1)
    empty = Table(np.empty(0, np.uint64), np.empty(0), np.empty(0))
    tables, expected, rows, pos_rows = [], [] if want_expected else None, [], []
    for p in range(lo, p1):
        got = [piece[0][p] for piece in pieces if p in piece[0]]
        t = merged([g[0] for g in got])
        tables.append(t if t is not None else empty)
        rows.append(sum(g[1] for g in got))
        pos_rows.append(sum(g[2] for g in got))
        if want_expected:
            e = merged([piece[1][p] for piece in pieces if p in piece[1]])
            expected.append(e if e is not None else empty)
    sums, n_win, n_pos, losses, exp_auc = from_tables(tables, expected, rows, pos_rows, k,
                                                      probs)
    keep = slice(p0 - lo, None)
    return (sums[keep], n_win[keep], n_pos[keep], None if losses is None else losses[keep],
            None if exp_auc is None else exp_auc[keep])


def origin_and_periods(stats, step):
    """The first period's index and the number of periods, from the blocks' time ranges."""
    lo = min(st["t"][0] for st in stats if st["t"] is not None)
    hi = max(st["t"][1] for st in stats if st["t"] is not None)
    if isinstance(lo, int):
        first, last = lo // step, hi // step
    else:
        first, last = math.floor(lo / step), math.floor(hi / step)
    return int(first), int(last - first + 1)


class Plan(NamedTuple):
    """What the first pass settles: the periods and windows, the positive
    class, whether the scores are probabilities and the expected AUC is
    wanted, the reference's time range, and the buckets of periods."""

    k: int
    kind: str
    step: object
    first: int
    start: np.ndarray
    end: np.ndarray
    positive: object
    probs: bool
    want: bool
    ref_bounds: np.ndarray | None
    bounds: list


def plan(stats, freq, window, pos_label, expected, reference, n_blocks) -> Plan:
    """The :class:`Plan` from the blocks' ``block_stats`` (the in-memory
    function's checks of ``freq`` and ``window``, its label rules)."""
    from .ranges import oriented

    if all(st["t"] is None for st in stats):
        raise v.empty_error("y_score", (0,))
    kinds = {st["kind"] for st in stats if st["kind"] is not None}
    f, _ = ot.duration(freq, "freq")
    probe = np.array([0.0]) if kinds == {"f"} else np.array([0], "datetime64[ns]")
    *_, k, kind = ot.periods(probe, 1, freq, window)
    step = int(f) if kind == "M" else f
    first, n_per = origin_and_periods(stats, step)
    seen = [st["classes"] for st in stats if st["classes"] is not None]
    classes = oriented(np.unique(np.concatenate(seen)), pos_label)
    v.require_binary(classes, pos_label is not None)
    lo_s = min(st["s"][0] for st in stats if st["s"] is not None)
    hi_s = max(st["s"][1] for st in stats if st["s"] is not None)
    probs = lo_s >= 0 and hi_s <= 1
    if expected is True and not probs:
        raise ValueError("expected AUCs need probabilities: y_score has values outside [0, 1]")
    want = expected is True or (expected == "auto" and probs
                                and any(st["missing"] for st in stats))
    if kind == "M":
        start = ((first + np.arange(n_per, dtype=np.int64)) * step).astype("datetime64[ns]")
        end = start + np.timedelta64(step, "ns")
    else:
        start = (first + np.arange(n_per)) * step
        end = start + step
    ref_bounds = None
    if isinstance(reference, tuple) and len(reference) == 2:
        ref_bounds = ot.time_values(np.array(list(reference), dtype=start.dtype), 2,
                                    "reference")[0]
    n_b = max(1, min(n_blocks, n_per))
    return Plan(k, kind, step, first, start, end, classes[-1], probs, want, ref_bounds,
                [n_per * b // n_b for b in range(n_b + 1)])


def assemble(parts, ref_table, p: Plan, reference, level, alternative, adjust):
    """:class:`~fastauc.AUCOverTime` from the buckets' ``bucket_sums`` (None
    for a bucket no block reached: its periods hold no rows) and the
    reference's table (a time range's)."""
    filled = []
    for b, part in enumerate(parts):
        if part is None:
            m = p.bounds[b + 1] - p.bounds[b]
            sums = np.full((m, 5), np.nan)
            sums[:, 3:] = 0.0
            part = (sums, np.zeros(m, np.int64), np.zeros(m, np.int64),
                    np.full(m, np.nan) if p.probs else None,
                    np.full(m, np.nan) if p.want else None)
        filled.append(part)
    sums = np.concatenate([x[0] for x in filled])
    n_win = np.concatenate([x[1] for x in filled])
    n_pos = np.concatenate([x[2] for x in filled])
    losses = np.concatenate([x[3] for x in filled]) if p.probs else None
    exp_auc = np.concatenate([x[4] for x in filled]) if p.want else None
    ref = ot.reference_of(reference, sums, p.start, p.end, p.k)
    if ref is not None and ref[0] is None:
        if ref_table is None:
            raise ValueError(f"reference={reference!r} holds no labelled row")
        ref = (ot.summaries([ref_table])[0], ref[1])
    return ot.finish(sums, n_win, n_pos, losses, exp_auc, p.start, p.end, p.k, ref, level,
                     alternative, adjust)
