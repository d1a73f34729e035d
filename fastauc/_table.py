"""The distinct-score table: the one engine behind every single-model metric.

A :class:`Table` holds the sorted distinct scores of a set of rows (as the
order-preserving keys of ``_kernels.sorting``, descending) with the positive
and negative weight at each.  It is built from rows with one radix sort per
class (``from_rows``), merged with another table in one linear pass
(``merge``), cut into key ranges (``cut``) and swept (``sweep``) from the
weight above a range.  A :class:`GroupedTable` is one table per group, back
to back, built from one counting sort by group and one sort per group
(``grouped_table``), and swept segment by segment.  See
``docs/algorithms.md``.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from . import _validation as v
from ._kernels.sorting import N_DIGITS, keys_to_floats, radix_sort, split_by_class
from ._kernels.sweeps import sweep
from ._kernels.table import (
    merge_stats,
    CNT_KEPT,
    CNT_KEPT_POS,
    CNT_POS,
    CNT_ROWS,
    N_SEG,
    SEG_FP,
    SEG_TP,
    N_STATS,
    ST_TOTAL_NEG,
    ST_TOTAL_POS,
    compact_segments,
    count_groups,
    merge_runs,
    merge_tables,
    walk_runs,
    scatter_groups,
    sweep_groups,
    sweep_segments,
    sweep_table,
)
from ._parallel import map_chunks

__all__ = ["GroupSums", "GroupedTable", "Sweep", "Table", "grouped_sums", "grouped_table",
           "placement_values", "sorted_runs"]

CHUNK_MIN = 1 << 16  # rows below which one chunk (one thread) is used
EMPTY_KEYS = np.empty(0, np.uint64)
EMPTY_INTS = np.empty(0, np.int64)


def _sort_buffers(n, weighted, extra):
    """Buffers for sorting ``n`` rows: keys, weights and payload, twice (the
    radix passes go back and forth)."""
    keys, tmp_k = np.empty(n, np.uint64), np.empty(n, np.uint64)
    w, tmp_w = (np.empty(n), np.empty(n)) if weighted else (v.EMPTY_WEIGHT,) * 2
    x, tmp_x = (np.empty(n, extra.dtype), np.empty(n, extra.dtype)) if extra.shape[0] else (
        extra, extra)
    return keys, tmp_k, w, tmp_w, x, tmp_x


def _sort_chunk(bits, is_pos, weight, extra, buffers):
    # the buffers come from numpy, which asks the kernel for huge pages: memory
    # allocated inside compiled code gets 4 KiB pages, and their page faults
    # cost more than the sort on a large input
    keys, tmp_k, w, tmp_w, x, tmp_x = buffers
    hist = np.zeros((2, N_DIGITS, 256), np.int64)
    offset = np.empty(256, np.int64)
    n_pos, n_neg, n_bad, _ = split_by_class(bits, is_pos, weight, extra, keys, w, x, hist)
    if n_bad:
        return None
    runs = []
    for a, b, h in ((0, n_pos, hist[0]), (n_pos, n_pos + n_neg, hist[1])):
        wa, tw = (w[a:b], tmp_w[a:b]) if w.shape[0] else (w, w)
        xa, tx = (x[a:b], tmp_x[a:b]) if x.shape[0] else (x, x)
        runs += radix_sort(keys[a:b], wa, xa, h, tmp_k[a:b], tw, tx, offset)
    return tuple(runs)


def sorted_runs(is_pos, score, weight, name="y_score", extra=EMPTY_INTS, scratch=None):
    """The one sort: each class's keys (and weights) ascending, in up to two runs.

    Returns ``(pk1, pw1, pk2, pw2, nk1, nw1, nk2, nw2)``, or with an int64
    payload ``extra`` per row (group codes) ``(pk1, pw1, px1, pk2, ...)``, the
    payload after each run's weights.  Rows are cut into two fixed halves
    (for n >= 2**16) sorted on two threads; a sweep merges the runs, so
    nothing depends on the number of threads.  NaN or infinite scores raise
    scikit-learn's error.

    ``scratch`` (a list) lends the sort buffers to the next call on rows of
    the same size: empty, it receives them; filled, they are sorted into
    (the runs of the call before are overwritten).
    """
    bits = score.view(np.uint64)
    n = bits.shape[0]
    cuts = [0, n // 2, n] if n >= CHUNK_MIN else [0, n]
    weighted = weight.shape[0] > 0
    with_extra = extra.shape[0] > 0
    if scratch:
        buffers = scratch
    else:
        buffers = [_sort_buffers(b - a, weighted, extra) for a, b in zip(cuts[:-1], cuts[1:])]
        if scratch is not None:
            scratch += buffers
    chunks = [(bits[a:b], is_pos[a:b], weight[a:b] if weighted else weight,
               extra[a:b] if with_extra else extra, buf)
              for (a, b), buf in zip(zip(cuts[:-1], cuts[1:]), buffers)]
    runs = map_chunks(_sort_chunk, chunks)
    if any(r is None for r in runs):
        v.raise_non_finite(name, score)
    if len(runs) == 1:
        runs.append((EMPTY_KEYS, v.EMPTY_WEIGHT, extra[:0]) * 2)
    (pk1, pw1, px1, nk1, nw1, nx1), (pk2, pw2, px2, nk2, nw2, nx2) = runs
    if with_extra:
        return pk1, pw1, px1, pk2, pw2, px2, nk1, nw1, nx1, nk2, nw2, nx2
    return pk1, pw1, pk2, pw2, nk1, nw1, nk2, nw2


_SPARE = threading.local()
SPARE_MAX = 1 << 21  # elements: a thread keeps sort buffers up to 16 MiB each


def spare(slot, n, dtype):
    """``n`` elements of this thread's reusable scratch buffer ``slot``
    (contents undefined; nothing returned to a caller may point into it).

    Freed arrays of this size go back to the system under a Dask nanny (it
    sets ``MALLOC_TRIM_THRESHOLD_``), and fresh memory costs a page fault per
    4 KiB, as much as the sort itself: a block's sort buffers are kept per
    thread instead, up to ``SPARE_MAX`` elements per slot (about 40 bytes per
    row of the largest block, unseen by Dask's memory accounting: under
    memory pressure, memory Dask cannot spill costs more than the page
    faults, so nothing bigger or longer-lived is kept).
    """
    if n > SPARE_MAX:
        return np.empty(n, dtype)
    pool = _SPARE.__dict__
    buf = pool.get(slot)
    if buf is None or buf.shape[0] < n or buf.dtype != dtype:
        buf = pool[slot] = np.empty(n, dtype)
    return buf[:n]


def _iota(n):
    """``np.arange(n)`` (int64) from this thread's spare, never written to."""
    pool = _SPARE.__dict__
    buf = pool.get("iota")
    if n > SPARE_MAX:
        return np.arange(n, dtype=np.int64)
    if buf is None or buf.shape[0] < n:
        buf = pool["iota"] = np.arange(n, dtype=np.int64)
    return buf[:n]


def table_with_rows(is_pos, score, weight, name="y_score") -> tuple[Table, np.ndarray]:
    """A batch's table and each row's position in it (0 for a row of weight
    zero, which is not in it): one radix sort carrying the row positions, one
    walk (``walk_runs``).  One thread: sorting two halves on two threads and
    merging their tables costs more CPU than it saves in time, and a Dask
    worker's cores are busy with other blocks.  ``score`` is float64; NaN or
    infinity raises."""
    n = score.shape[0]
    extra = _iota(n)
    weighted = weight.shape[0] > 0
    buffers = (spare("keys", n, np.uint64), spare("keys2", n, np.uint64),
               *((spare("f", n, np.float64), spare("f2", n, np.float64)) if weighted
                 else (v.EMPTY_WEIGHT, v.EMPTY_WEIGHT)),
               spare("i", n, np.int64), spare("i2", n, np.int64))
    runs = _sort_chunk(score.view(np.uint64), is_pos, weight, extra, buffers)
    if runs is None:
        v.raise_non_finite(name, score)
    pk, pw, px, nk, nw, nx = runs
    m = pk.shape[0] + nk.shape[0]
    keys, pos, neg = np.empty(m, np.uint64), np.empty(m), np.empty(m)
    at = np.zeros(n, np.int64)
    g = walk_runs(pk, pw, nk, nw, keys, pos, neg, px, nx, at)
    return _trimmed(keys, pos, neg, g), at


def _trimmed(keys, pos, neg, g) -> Table:
    """The table of the first ``g`` keys; copied when ties left most of the
    buffers unused, so that they are freed (and sizes tell the truth)."""
    if 2 * g < keys.shape[0]:
        return Table(keys[:g].copy(), pos[:g].copy(), neg[:g].copy())
    return Table(keys[:g], pos[:g], neg[:g])


def merge_placed(tables) -> tuple[Table, list]:
    """The table of several tables' rows and, for each of them, its keys'
    DeLong placement numerators in it, from one kernel (``merge_runs``: the
    keys merged by a balanced tree of linear merges, the weights added up
    once).  Each table gets a 1-D array: key by key, where the key has
    positive weight the negative weight below it (ties one half), then where
    it has negative weight the positive weight above it (ties one half)."""
    counts = [np.count_nonzero(t.pos) + np.count_nonzero(t.neg) for t in tables]
    starts = np.concatenate(([0], np.cumsum([len(t) for t in tables]))).astype(np.int64)
    m = int(starts[-1])
    keys = np.concatenate([t.keys for t in tables])  # overwritten by the merge
    pos = np.concatenate([t.pos for t in tables])
    neg = np.concatenate([t.neg for t in tables])
    out_k, out_p, out_n = np.empty(m, np.uint64), np.empty(m), np.empty(m)
    vals = np.empty(sum(counts))
    g = merge_runs(keys, pos, neg, starts, out_k, out_p, out_n, vals,
                   np.empty(m, np.uint64), np.empty(m, np.int64), np.empty(m, np.int64))
    cuts = np.concatenate(([0], np.cumsum(counts))).astype(np.int64)
    return (_trimmed(out_k, out_p, out_n, g),
            [vals[a:b] for a, b in zip(cuts[:-1], cuts[1:])])


def float_keys(x: np.ndarray) -> np.ndarray:
    """``sorting.float_key`` of a float64 array, in numpy (``-0.0`` -> ``+0.0``'s key)."""
    bits = np.ascontiguousarray(x, np.float64).view(np.uint64)
    sign = np.uint64(0x8000000000000000)
    keys = np.where(bits >= sign, ~bits, bits | sign)
    keys[bits == sign] = sign
    return keys


class Sweep(NamedTuple):
    """What a sweep of a table (or of a key range of it) accumulates."""

    tp: float  # positive weight down to the last key swept (the total, from the top)
    fp: float
    area2: float  # twice the ROC area in weight units
    ap_num: float  # average precision times the positive weight
    stats: np.ndarray  # N_STATS moments, or empty

    @property
    def auc(self) -> float:
        return self.area2 / (2.0 * self.tp * self.fp)

    @property
    def average_precision(self) -> float:
        return self.ap_num / self.tp


def new_stats(total_pos: float, total_neg: float) -> np.ndarray:
    stats = np.zeros(N_STATS)
    stats[ST_TOTAL_POS] = total_pos
    stats[ST_TOTAL_NEG] = total_neg
    return stats


@dataclass(frozen=True)
class Table:
    """Distinct scores (keys, descending) with the positive and negative weight at each."""

    keys: np.ndarray  # uint64
    pos: np.ndarray  # float64
    neg: np.ndarray  # float64

    @classmethod
    def from_rows(cls, is_pos, score, weight, name="y_score") -> Table:
        runs = sorted_runs(is_pos, score, weight, name)
        m = sum(r.shape[0] for r in runs[0::2])
        keys = np.empty(m, np.uint64)
        pos = np.empty(m, np.float64)
        neg = np.empty(m, np.float64)
        if m < CHUNK_MIN:
            g = sweep(*runs, keys, pos, neg, False, 0.0, 0.0, None)[0]
            return cls(keys[:g], pos[:g], neg[:g])
        # two key ranges on two threads, the lower one written after room for
        # the upper one; the gap that ties leave is closed
        upper, lower = _split_runs(runs)
        u = sum(k.shape[0] for k in upper[0::2])
        (g_u, *_), (g_l, *_) = map_chunks(sweep, [
            (*upper, keys[:u], pos[:u], neg[:u], False, 0.0, 0.0, None),
            (*lower, keys[u:], pos[u:], neg[u:], False, 0.0, 0.0, None)])
        return cls(*_closed((keys, pos, neg), g_u, u, g_l))

    def __len__(self) -> int:
        return self.keys.shape[0]

    def __sizeof__(self) -> int:
        # what dask's memory accounting and scheduling see (``dask.sizeof``
        # falls back to ``sys.getsizeof``): the arrays, not the 56-byte wrapper
        return object.__sizeof__(self) + self.keys.nbytes + self.pos.nbytes + self.neg.nbytes

    @property
    def total_pos(self) -> float:
        return float(self.pos.sum())

    @property
    def total_neg(self) -> float:
        return float(self.neg.sum())

    @property
    def scores(self) -> np.ndarray:
        """The distinct scores as float64, descending (``-0.0`` as ``+0.0``)."""
        return keys_to_floats(self.keys, np.empty_like(self.keys))

    def merge(self, other: Table) -> Table:
        """The table of both tables' rows.

        From ``CHUNK_MIN`` keys on, cut at the median key of the larger table
        into an upper and a lower key range merged on two threads (a cut that
        depends on the data only: the same table whatever the threads); the
        lower range is written after room for all of the upper one, and the
        gap that equal keys leave is closed.
        """
        m = len(self) + len(other)
        keys, pos, neg = np.empty(m, np.uint64), np.empty(m), np.empty(m)
        if m < CHUNK_MIN:
            g = merge_tables(self.keys, self.pos, self.neg, other.keys, other.pos, other.neg,
                             keys, pos, neg)
            return Table(keys[:g], pos[:g], neg[:g])
        big = self if len(self) >= len(other) else other
        pivot = big.keys[len(big) // 2]
        c1, c2 = self._above(pivot), other._above(pivot)
        u = c1 + c2
        g_u, g_l = map_chunks(merge_tables, [
            (self.keys[:c1], self.pos[:c1], self.neg[:c1], other.keys[:c2], other.pos[:c2],
             other.neg[:c2], keys[:u], pos[:u], neg[:u]),
            (self.keys[c1:], self.pos[c1:], self.neg[c1:], other.keys[c2:], other.pos[c2:],
             other.neg[c2:], keys[u:], pos[u:], neg[u:])])
        return Table(*_closed((keys, pos, neg), g_u, u, g_l))

    def _above(self, key) -> int:
        """Number of keys greater than ``key`` (keys are descending)."""
        return len(self) - int(np.searchsorted(self.keys[::-1], key, side="right"))

    def cut(self, scores) -> list:
        """Cut at the given scores into key ranges, each with the weight above it.

        ``scores`` (any order) become boundaries: a range holds the keys from
        one boundary (included) down to the next (excluded).  Returns
        ``[(part, tp_above, fp_above), ...]`` from the top; sweeping every part
        from its weight above and adding the sums gives the whole table's.
        """
        bkeys = float_keys(np.unique(np.asarray(scores, np.float64)))[::-1]
        asc = self.keys[::-1]  # ascending view: searchsorted finds each boundary
        idx = [len(self) - int(np.searchsorted(asc, k, side="left")) for k in bkeys]
        edges = [0, *idx, len(self)]
        parts = []
        tp = fp = 0.0
        for a, b in zip(edges[:-1], edges[1:]):
            part = Table(self.keys[a:b], self.pos[a:b], self.neg[a:b])
            parts.append((part, tp, fp))
            tp += float(part.pos.sum())
            fp += float(part.neg.sum())
        return parts

    def sweep(self, tp0: float = 0.0, fp0: float = 0.0, *, moments=False,
              totals=None) -> Sweep:
        """Sweep from the weight above (``tp0``, ``fp0``).

        ``moments`` needs the class totals of the whole table this range belongs
        to (``totals``; by default this table's own).
        """
        stats = v.EMPTY_WEIGHT
        if moments:
            tot = totals if totals is not None else (self.total_pos, self.total_neg)
            stats = new_stats(*tot)
        e = v.EMPTY_WEIGHT
        tp, fp, area2, ap_num = sweep_table(self.keys, self.pos, self.neg, 0, len(self),
                                            tp0, fp0, stats, e, e)
        return Sweep(tp, fp, area2, ap_num, stats)


@dataclass(frozen=True)
class GroupedTable:
    """One table per group, back to back: group ``j`` is ``starts[j]:starts[j + 1]``."""

    keys: np.ndarray
    pos: np.ndarray
    neg: np.ndarray
    starts: np.ndarray  # int64 (n_groups + 1,)

    @property
    def n_groups(self) -> int:
        return self.starts.shape[0] - 1

    def group(self, j: int) -> Table:
        a, b = self.starts[j], self.starts[j + 1]
        return Table(self.keys[a:b], self.pos[a:b], self.neg[a:b])

    def sweep(self, *, moments=False):
        """Every group's ``(tp, fp, area2, ap_num)`` (rows of an (G, 4) array)
        and, with ``moments``, its ``N_STATS`` moments (G, N_STATS)."""
        g = self.n_groups
        sums = np.zeros((g, N_SEG))
        stats = np.zeros((g, N_STATS) if moments else (0, N_STATS))
        map_chunks(sweep_segments, [
            (self.keys, self.pos, self.neg, self.starts, a, b, moments, sums, stats)
            for a, b in _balanced(self.starts)])
        return sums, stats


def _balanced(starts, parts=2):
    """Cut groups ``0..G`` into ``parts`` ranges of about equal rows (data-dependent)."""
    total = int(starts[-1])
    if total < CHUNK_MIN or starts.shape[0] <= 2:
        return [(0, starts.shape[0] - 1)]
    cut = int(np.searchsorted(starts, total // parts, side="left"))
    cut = min(max(cut, 1), starts.shape[0] - 2)
    return [(0, cut), (cut, starts.shape[0] - 1)]


def _place_groups(is_pos, score, weight, codes, n_groups, name):
    """Rows placed group by group, each group's positives first (stable).

    Returns ``(rk, rw, row_starts, n_pos, rows, probabilities)``: the keys
    and (weighted) the weights of the rows of non-zero weight, where each
    group's rows start, how many of them are positive, (G, 2) counts of all
    rows and of positive rows per group (zero weights included), and
    whether every score is in [0, 1].

    Two fixed halves of the rows are counted and placed on two threads; the
    second half's rows of a group and class follow the first half's, so the
    order does not depend on the threads.
    """
    bits = score.view(np.uint64)
    n = bits.shape[0]
    halves = [(0, n // 2), (n // 2, n)] if n >= CHUNK_MIN else [(0, n)]
    weighted = weight.shape[0] > 0
    parts = [(bits[a:b], is_pos[a:b], weight[a:b] if weighted else weight, codes[a:b])
             for a, b in halves]
    counted = map_chunks(count_groups, [(*part, n_groups) for part in parts])
    if any(c[1] for c in counted):
        v.raise_non_finite(name, score)
    counts = sum(c[0] for c in counted)
    probabilities = n > 0 and min(c[3] for c in counted) >= 0.0 and max(
        c[4] for c in counted) <= 1.0
    row_starts = np.zeros(n_groups + 1, np.int64)
    np.cumsum(counts[:, CNT_KEPT], out=row_starts[1:])
    n_pos = counts[:, CNT_KEPT_POS]
    m = int(row_starts[-1])
    rk = np.empty(m, np.uint64)
    rw = np.empty(m if weighted else 0, np.float64)
    # cursors per group: its positives from the start, its negatives after them
    at = np.column_stack((row_starts[:-1], row_starts[:-1] + n_pos))
    cursors = [at]
    if len(parts) == 2:
        first = counted[0][0]
        cursors.append(at + np.column_stack((first[:, CNT_KEPT_POS],
                                             first[:, CNT_KEPT] - first[:, CNT_KEPT_POS])))
    map_chunks(scatter_groups, [(*part, c, rk, rw) for part, c in zip(parts, cursors)])
    return rk, rw, row_starts, n_pos, counts[:, CNT_ROWS:CNT_POS + 1], probabilities


class GroupSums(NamedTuple):
    """What :func:`grouped_sums` returns, one row per group."""

    sums: np.ndarray  # (G, N_SEG): tp, fp, area2, ap_num
    stats: np.ndarray  # (G, N_STATS) DeLong moments, or (0, N_STATS)
    rows: np.ndarray  # (G, 2): all rows, positive rows
    log_loss: np.ndarray | None  # (G,) mean log loss when the scores are probabilities


def grouped_sums(is_pos, score, weight, codes, n_groups, *, moments=False,
                 name="y_score") -> GroupSums:
    """Every group's sweep sums, moments, row counts and, when every score is
    in [0, 1], log loss (each group's records once sorted, in cache).

    The same sums and moments as ``grouped_table(...).sweep(moments=moments)``,
    without writing the tables out.
    """
    rk, rw, row_starts, n_pos, rows, probabilities = _place_groups(is_pos, score, weight,
                                                                   codes, n_groups, name)
    sums = np.zeros((n_groups, N_SEG))
    stats = np.zeros((n_groups, N_STATS) if moments else (0, N_STATS))
    loss = np.zeros(n_groups if probabilities else 0)
    e = v.EMPTY_WEIGHT
    map_chunks(sweep_groups, [(rk, rw, row_starts, n_pos, a, b, moments, sums, stats, EMPTY_KEYS,
                               e, e, EMPTY_INTS, loss) for a, b in _balanced(row_starts)])
    if not probabilities:
        return GroupSums(sums, stats, rows, None)
    with np.errstate(divide="ignore", invalid="ignore"):
        mean_loss = loss / (sums[:, SEG_TP] + sums[:, SEG_FP])
    return GroupSums(sums, stats, rows, mean_loss)


def grouped_table(is_pos, score, weight, codes, n_groups, name="y_score") -> GroupedTable:
    """The per-group tables of rows with group ``codes`` (int64, 0..n_groups-1)."""
    rk, rw, row_starts, n_pos, _, _ = _place_groups(is_pos, score, weight, codes, n_groups, name)
    m = rk.shape[0]
    out_k = np.empty(m, np.uint64)
    out_p = np.empty(m, np.float64)
    out_n = np.empty(m, np.float64)
    n_keys = np.empty(n_groups, np.int64)
    sums = np.zeros((n_groups, N_SEG))
    stats = np.zeros((0, N_STATS))
    map_chunks(sweep_groups, [(rk, rw, row_starts, n_pos, a, b, False, sums, stats, out_k, out_p,
                               out_n, n_keys, v.EMPTY_WEIGHT) for a, b in _balanced(row_starts)])
    starts = compact_segments(out_k, out_p, out_n, row_starts, n_keys)
    g = int(starts[-1])
    return GroupedTable(out_k[:g], out_p[:g], out_n[:g], starts)


# ------------------------------------------------------------ one model, from rows

class Tallies(NamedTuple):
    """Result of one sort and one sweep (curves only when asked for)."""

    # curves only; slot 0 is spare, [1:] are the distinct scores, descending
    thr_keys: np.ndarray  # uint64 keys of the distinct scores
    tps: np.ndarray  # cumulative positive weight at each threshold
    fps: np.ndarray  # cumulative negative weight at each threshold
    total_pos: float
    total_neg: float
    area2: float  # 2 * ROC area in weight units
    ap_num: float  # average precision times total_pos
    stats: np.ndarray  # sweeps.N_STATS moments when asked for, else empty


def placement_values(table, tp0, fp0, total_p, total_n):
    """Each key's DeLong placement values ``(V10, V01)``, keys descending: a
    positive's is the negative weight below its score (ties one half) over
    ``total_n``, a negative's the positive weight above it over ``total_p``;
    ``tp0``/``fp0`` is the weight above the table (a key range of a larger
    one).  NaN where a class has no weight."""
    neg_above = fp0 + np.cumsum(table.neg) - table.neg
    pos_above = tp0 + np.cumsum(table.pos) - table.pos
    with np.errstate(divide="ignore", invalid="ignore"):
        v10 = (total_n - neg_above - 0.5 * table.neg) / total_n
        v01 = (pos_above + 0.5 * table.pos) / total_p
    return v10, v01


def weight_of(keys, w) -> float:
    """Total weight of a run (its length when unweighted)."""
    return float(w.sum()) if w.shape[0] else float(keys.shape[0])


def _moment_stats(runs4, moments: bool) -> np.ndarray:
    if not moments:
        return v.EMPTY_WEIGHT
    return new_stats(weight_of(*runs4[0:2]) + weight_of(*runs4[2:4]),
                     weight_of(*runs4[4:6]) + weight_of(*runs4[6:8]))


def sorted_tallies(
    is_pos, score, weight, *, curve: bool, moments: bool = False, name: str = "y_score"
) -> Tallies:
    """Split by class and radix-sort each class once, then sweep once.

    Rows are cut into two fixed halves (for n >= 2**16) sorted on two threads;
    the sweep merges the runs, so the result does not depend on the threads.
    ``moments=True`` also accumulates the tie term and the placement moments
    (``_kernels.sweeps.N_STATS``) for the rank test and DeLong's variance.
    """
    runs4 = sorted_runs(is_pos, score, weight, name)
    n = score.shape[0]
    pk1, _, pk2, _, nk1, _, nk2, _ = runs4
    if n >= CHUNK_MIN:
        return split_sweep(runs4, moments, curve)
    # curves: one spare slot in front for the point that every curve adds
    m = pk1.shape[0] + pk2.shape[0] + nk1.shape[0] + nk2.shape[0] + 1 if curve else 0
    thr = np.empty(m, np.uint64)
    tps = np.empty(m, np.float64)
    fps = np.empty(m, np.float64)
    stats = _moment_stats(runs4, moments)
    g, total_pos, total_neg, area2, ap_num = sweep(
        *runs4, thr[1:], tps[1:], fps[1:], True, 0.0, 0.0, stats if moments else None
    )
    return Tallies(thr[: g + 1], tps[: g + 1], fps[: g + 1], total_pos, total_neg, area2,
                    ap_num, stats)


def _closed(arrays, g_u, u, g_l):
    """Arrays with an upper part of ``g_u`` entries written at the front and a
    lower part of ``g_l`` written from ``u`` on: the lower part moved up to
    follow the upper one (numpy copes with the overlap), and both cut to
    ``g_u + g_l``."""
    if g_u < u:
        for a in arrays:
            a[g_u:g_u + g_l] = a[u:u + g_l]
    return tuple(a[:g_u + g_l] for a in arrays)


def _split_runs(runs4):
    """The four sorted runs cut at the median key of the longest one: the upper
    parts (keys at or above it: a group is never split) and the lower ones."""
    keys = runs4[0::2]
    weights = runs4[1::2]
    longest = max(keys, key=len)
    pivot = longest[len(longest) // 2]
    upper, lower = [], []
    for k, w in zip(keys, weights):
        c = int(np.searchsorted(k, pivot, side="left"))
        upper += [k[c:], w[c:]]  # an empty (unit) weight array stays empty
        lower += [k[:c], w[:c]]
    return upper, lower


def split_sweep(runs4, moments: bool, curve: bool = False) -> Tallies:
    """One sweep in two key ranges on two threads: the upper and lower keys.

    The cut is the median key of the longest run (data-dependent only, so the
    result does not depend on the number of threads); keys equal to it all go
    to the upper part, so no group is split.  The lower sweep starts from the
    weight of the upper part; the two parts' moments are merged afterwards.
    With ``curve`` both parts write their curve points into one buffer, the
    lower part after room for every row of the upper part, closed up when the
    upper part had ties.
    """
    upper, lower = _split_runs(runs4)
    tp0 = weight_of(*upper[0:2]) + weight_of(*upper[2:4])
    fp0 = weight_of(*upper[4:6]) + weight_of(*upper[6:8])
    stats_u = _moment_stats(runs4, moments)
    stats_l = stats_u.copy()
    e_k, e_w = EMPTY_KEYS, v.EMPTY_WEIGHT
    n_u = sum(k.shape[0] for k in upper[0::2])
    m = n_u + sum(k.shape[0] for k in lower[0::2]) + 1 if curve else 0
    # curves: one spare slot in front for the point that every curve adds
    thr, tps, fps = np.empty(m, np.uint64), np.empty(m), np.empty(m)
    out_u = (thr[1:n_u + 1], tps[1:n_u + 1], fps[1:n_u + 1]) if curve else (e_k, e_w, e_w)
    out_l = (thr[n_u + 1:], tps[n_u + 1:], fps[n_u + 1:]) if curve else (e_k, e_w, e_w)
    (g_u, _, _, area_u, ap_u), (g_l, tp, fp, area_l, ap_l) = map_chunks(
        sweep,
        [(*upper, *out_u, True, 0.0, 0.0, stats_u if moments else None),
         (*lower, *out_l, True, tp0, fp0, stats_l if moments else None)],
    )
    if moments:
        merge_stats(stats_u, stats_l)
    if not curve:
        return Tallies(e_k, e_w, e_w, tp, fp, area_u + area_l, ap_u + ap_l, stats_u)
    # one spare slot in front: close the gap in the arrays after it
    _closed((thr[1:], tps[1:], fps[1:]), g_u, n_u, g_l)
    g = g_u + g_l
    return Tallies(thr[:g + 1], tps[:g + 1], fps[:g + 1], tp, fp, area_u + area_l,
                   ap_u + ap_l, stats_u)
