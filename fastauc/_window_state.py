"""The segments of a :class:`fastauc.Window`: each a batch (or a run of small
batches) with its distinct-score table, its rows in arrival order (to expire
the oldest of them), and the terms of the window's AUC that involve it.

A segment's table holds its rows' weights at the segment's reference clock
(``ref``): with exponential decay, a row's weight times ``2**(-(ref - c) / h)``
for its decay clock ``c``; the segment then weighs ``2**(-(now - ref) / h)``
in the window (its *scale*).  Twice the window's ROC area is

    sum_i s_i**2 A_i + sum_{i < j} s_i s_j C_ij

with ``A_i`` a segment's own twice-area and ``C_ij`` the twice-area of the
pairs across two segments (``_kernels.window``), and the class totals are
``sum_i s_i P_i`` and ``sum_i s_i N_i``: the AUC without merging the tables.
The ``C`` matrix lives in slots that segments take and give back.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from . import _validation as v
from ._kernels.window import cross_area2, cross_area2_two, table_area2
from ._parallel import map_units
from ._table import Table

__all__ = ["Crosses", "Segment", "decay_factors", "decode_spec", "duration", "encode_spec",
           "joined", "keep_rows", "kept_rows", "make_segment", "merged_table", "swapped", "table_segment",
           "time_values"]

# keys walked per unit of a new segment's cross terms (about 0.5 ms of walks):
# a window of 1e6 rows in batches of 1e4 takes 100 walks of 2e4 keys a batch
CROSS_UNIT = 1 << 18


@dataclass(eq=False)
class Segment:
    """One batch's table and rows (see the module's docstring)."""

    table: Table
    area2: float  # twice the table's own ROC area
    P: float  # its positive weight (at ``ref``)
    N: float
    n_pos: int  # rows
    n_neg: int
    ref: float  # the decay clock its weights are expressed at
    # the rows in arrival order, to expire the oldest (None: never expired):
    # (is_pos, score, weight or empty, expiry clock, decay clock or None)
    rows: tuple | None
    slot: int = -1
    _low: object = None  # the least expiry clock, once asked (the rows never change)

    @property
    def n(self) -> int:
        return self.n_pos + self.n_neg

    def low(self):
        """The least expiry clock of its rows."""
        if self._low is None:
            self._low = self.rows[3].min()
        return self._low

    def high(self):
        return self.rows[3].max()


def decay_factors(dclock, ref, half_life):
    """``2**(-(ref - c) / half_life)`` per decay clock ``c``."""
    return np.exp2(-(ref - np.asarray(dclock, np.float64)) / half_life)


def make_segment(is_pos, score, w, eclock, dclock, half_life, keep_rows=True) -> Segment:
    """A segment of rows (``w`` empty: unit weights; ``dclock`` None without decay)."""
    ref = 0.0
    weff = w
    if half_life is not None:
        ref = float(np.max(dclock))
        f = decay_factors(dclock, ref, half_life)
        weff = f if w.shape[0] == 0 else w * f
    table = Table.from_rows(is_pos, score, weff)
    n_pos = int(np.count_nonzero(is_pos))
    rows = (is_pos, score, w, eclock, dclock) if keep_rows else None
    return Segment(table, float(table_area2(table.pos, table.neg)), float(table.pos.sum()),
                   float(table.neg.sum()), n_pos, int(is_pos.shape[0]) - n_pos, ref, rows)


def table_segment(table: Table, n_pos: int, n_neg: int, ref: float, swap=False) -> Segment:
    """A segment of a table alone (a decaying window keeps no rows);
    ``swap``: its classes exchanged."""
    if swap:
        table = Table(table.keys, table.neg, table.pos)
        n_pos, n_neg = n_neg, n_pos
    return Segment(table, float(table_area2(table.pos, table.neg)), float(table.pos.sum()),
                   float(table.neg.sum()), n_pos, n_neg, ref, None)


def swapped(seg: Segment, half_life) -> Segment:
    """``seg`` with its classes exchanged (a greater label arrived)."""
    if seg.rows is None:
        return table_segment(seg.table, seg.n_pos, seg.n_neg, seg.ref, swap=True)
    is_pos, s, w, ec, dc = seg.rows
    return make_segment(~is_pos, s, w, ec, dc, half_life)


class Crosses:
    """The cross terms ``C`` of the live segments, in slots (a symmetric
    matrix that grows by doubling)."""

    def __init__(self, capacity=16):
        self.C = np.zeros((capacity, capacity))
        self.free = list(range(capacity - 1, -1, -1))

    def take(self) -> int:
        if not self.free:
            k = self.C.shape[0]
            C = np.zeros((2 * k, 2 * k))
            C[:k, :k] = self.C
            self.C = C
            self.free = list(range(2 * k - 1, k - 1, -1))
        return self.free.pop()

    def give(self, slot: int):
        self.C[slot, :] = 0.0
        self.C[:, slot] = 0.0
        self.free.append(slot)

    def add(self, seg: Segment, others):
        """Give ``seg`` a slot and its cross terms with ``others``: one merge
        walk each, in units of about ``CROSS_UNIT`` keys on the threads (the
        units, cut by the tables' sizes alone, change no value)."""
        seg.slot = self.take()
        t = seg.table
        units, unit, size = [], [], 0
        for o in others:
            self.C[seg.slot, o.slot] = self.C[o.slot, seg.slot] = 0.0
            if len(t) and len(o.table):
                unit.append(o)
                size += len(t) + len(o.table)
                if size >= CROSS_UNIT:
                    units.append(unit)
                    unit, size = [], 0
        if unit:
            units.append(unit)
        values_of = map_units(_crosses, [(t, [o.table for o in u]) for u in units]) if units \
            else []
        for unit, values in zip(units, values_of):
            for o, c in zip(unit, values):
                self.C[seg.slot, o.slot] = self.C[o.slot, seg.slot] = c

    def combine(self, a: Segment, b: Segment, fa: float, merged: Segment, others):
        """``merged`` (``fa`` times ``a`` plus ``b``) takes ``b``'s slot: its
        crosses are ``fa C[a, j] + C[b, j]``."""
        row = fa * self.C[a.slot] + self.C[b.slot]
        self.give(a.slot)
        merged.slot = b.slot
        for o in others:
            self.C[merged.slot, o.slot] = self.C[o.slot, merged.slot] = row[o.slot]

    def totals(self, segments, scales):
        """``(twice area, positive weight, negative weight)`` of the window."""
        if not segments:
            return 0.0, 0.0, 0.0
        idx = np.array([s.slot for s in segments])
        sc = np.asarray(scales, np.float64)
        own = np.array([s.area2 for s in segments])
        P = float(np.dot(sc, [s.P for s in segments]))
        N = float(np.dot(sc, [s.N for s in segments]))
        sub = self.C[np.ix_(idx, idx)]
        area2 = float(np.dot(sc * sc, own) + 0.5 * (sc @ sub @ sc))
        return area2, P, N


def _crosses(t, tables):
    """``cross_area2`` of ``t`` with each table, two walks at a time."""
    out = []
    for k in range(0, len(tables) - 1, 2):
        u, w = tables[k], tables[k + 1]
        out += cross_area2_two(t.keys, t.pos, t.neg, u.keys, u.pos, u.neg, w.keys, w.pos, w.neg)
    if len(tables) % 2:
        u = tables[-1]
        out.append(cross_area2(t.keys, t.pos, t.neg, u.keys, u.pos, u.neg))
    return out


def kept_rows(segments, half_life):
    """``(is_pos, score, weight or None)`` of a window's rows in arrival
    order, or None where it keeps no rows or decays (its weights are not
    the rows')."""
    if half_life is not None or any(s.rows is None for s in segments) or not segments:
        return None
    rows = [s.rows for s in segments]
    weighted = any(r[2].shape[0] for r in rows)
    w = (np.concatenate([r[2] if r[2].shape[0] else np.ones(r[0].shape[0]) for r in rows])
         if weighted else None)
    return np.concatenate([r[0] for r in rows]), np.concatenate([r[1] for r in rows]), w


def merged_table(segments, scales) -> Table:
    """One table of the segments' rows, each segment's weights times its scale."""
    tables = []
    for s, f in zip(segments, scales):
        t = s.table
        tables.append(t if f == 1.0 else Table(t.keys, t.pos * f, t.neg * f))
    if not tables:
        return Table(np.empty(0, np.uint64), np.empty(0), np.empty(0))
    while len(tables) > 1:  # a balanced tree of merges
        tables = [tables[i].merge(tables[i + 1]) if i + 1 < len(tables) else tables[i]
                  for i in range(0, len(tables), 2)]
    return tables[0]


def keep_rows(seg: Segment, keep: np.ndarray, half_life) -> Segment:
    """The segment of ``seg``'s rows where ``keep`` holds (arrival order kept)."""
    is_pos, score, w, ec, dc = seg.rows
    return make_segment(is_pos[keep], score[keep], w[keep] if w.shape[0] else w, ec[keep],
                        None if dc is None else dc[keep], half_life)


def joined(a: Segment, b: Segment, half_life, c_ab: float):
    """``(segment of a's and b's rows at b's reference, a's factor there)``
    (``c_ab``: their cross term)."""
    fa = 1.0 if half_life is None else float(np.exp2(-(b.ref - a.ref) / half_life))
    ta, tb = a.table, b.table
    table = Table(ta.keys, ta.pos * fa, ta.neg * fa).merge(tb) if fa != 1.0 else ta.merge(tb)
    rows = None
    if a.rows is not None and b.rows is not None:
        rows = tuple(_cat(x, y) for x, y in zip(a.rows, b.rows))
    merged = Segment(table, fa * fa * a.area2 + b.area2 + fa * c_ab, fa * a.P + b.P,
                     fa * a.N + b.N,
                     a.n_pos + b.n_pos, a.n_neg + b.n_neg, b.ref, rows)
    return merged, fa


def _cat(x, y):
    if x is None or y is None:
        return None
    if x.shape[0] == 0 and y.shape[0] == 0:
        return x
    return np.concatenate((x, y))


def time_values(time, n, name="time"):
    """``(values, kind)``: times as int64 nanoseconds (datetimes: kind "M") or
    float64 (numbers: kind "f"), one per row (a scalar: every row's)."""
    t = np.asarray(time)
    if t.ndim == 0:
        t = np.full(n, t)
    if t.ndim != 1 or t.shape[0] != n:
        raise ValueError(f"{name} must hold one time per row (or one for the batch): shape "
                         f"({n},), got {t.shape}")
    if t.dtype.kind == "O" or t.dtype.kind == "U":
        try:
            t = t.astype("datetime64[ns]")
        except (TypeError, ValueError):
            raise TypeError(f"{name} must be numbers or datetimes, got {t.dtype} values "
                            "that are neither") from None
    if t.dtype.kind == "M":
        if np.isnat(t).any():
            raise ValueError(f"{name} contains NaT: every row needs a time")
        # nanoseconds (a view when they are already: NaT is the least int64)
        ns = t if t.dtype == np.dtype("datetime64[ns]") else t.astype("datetime64[ns]")
        return ns.view(np.int64), "M"
    if t.dtype.kind in "biuf":
        t = t.astype(np.float64, copy=False)
        if not np.isfinite(t).all():
            v.raise_non_finite(name, t)
        return t, "f"
    raise TypeError(f"{name} must be numbers or datetimes, got dtype {t.dtype}")


def duration(x, name):
    """A span or half-life: a positive number, or a time delta (``timedelta``,
    ``numpy.timedelta64``, pandas ``Timedelta`` or a string pandas reads, such
    as ``"7D"``) as ``(value, kind)``: nanoseconds with kind "M"."""
    import datetime

    if isinstance(x, str):
        try:
            import pandas as pd
        except ImportError:  # pragma: no cover - pandas is installed with the extras
            raise TypeError(f"{name}={x!r}: a string needs pandas to read it; pass a "
                            "datetime.timedelta or numpy.timedelta64") from None
        x = pd.Timedelta(x)
    if isinstance(x, datetime.timedelta) or isinstance(x, np.timedelta64):
        ns = int(np.timedelta64(x, "ns").astype(np.int64))
        if ns <= 0:
            raise ValueError(f"{name} must be positive, got {x!r}")
        return float(ns), "M"
    if isinstance(x, bool) or not isinstance(x, (int, float, np.integer, np.floating)):
        raise TypeError(f"{name} must be a positive number or a time delta, got "
                        f"{type(x).__name__}")
    if not (math.isfinite(float(x)) and x > 0):
        raise ValueError(f"{name} must be a positive number, got {x!r}")
    return float(x), "f"


def encode_spec(x):
    """A parameter as JSON: None, a number, or a time delta in nanoseconds."""
    if isinstance(x, np.timedelta64):  # an np.integer too: first
        return {"ns": duration(x, "span")[0]}
    if x is None or isinstance(x, (int, float)) and not isinstance(x, bool):
        return x
    if isinstance(x, np.integer):
        return int(x)
    if isinstance(x, np.floating):
        return float(x)
    return {"ns": duration(x, "span")[0]}


def decode_spec(x):
    if isinstance(x, dict):
        return np.timedelta64(int(x["ns"]), "ns")
    return x
