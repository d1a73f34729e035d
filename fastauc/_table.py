"""The distinct-score table: the one engine behind every single-model metric.

A :class:`Table` holds the sorted distinct scores of a set of rows (as the
order-preserving keys of ``_kernels.sorting``, descending) with the positive
and negative weight at each.  It is built from rows with the one sort
(``_sort.sort_by_class``) and one sweep (``from_rows``), merged with another
table in one linear pass (``merge``), cut into key ranges (``cut``) and
swept (``sweep``) from the weight above a range.  Per group, rows are placed
group by group and each group sorted and swept in cache (``grouped_sums``).
See ``docs/algorithms.md``.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from . import _validation as v
from . import _warm
from ._kernels.sorting import keys_to_floats
from ._kernels.sweeps import copy_points, kept_point, sweep
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
    count_groups,
    merge_runs,
    merge_tables,
    walk_runs,
    scatter_groups,
    sweep_groups,
    sweep_table,
)
from ._parallel import map_units, row_blocks
from ._sort import CHUNK_MIN, _score_range, sort_by_class

__all__ = ["GroupSums", "Sweep", "Table", "grouped_sums", "placement_values", "sorted_runs"]

EMPTY_KEYS = np.empty(0, np.uint64)
# rows per key range of a sweep (``sweep_parts``): the ranges are swept on
# the threads from the weight above each, their sums added in range order
SWEEP_ROWS = 1 << 18
# twice the positive-negative pairs below which every partial sum of a
# sweep of counts is an integer that float64 holds exactly
EXACT_PAIRS = 1 << 53


def sorted_runs(is_pos, score, weight, name="y_score", bounds=None):
    """The one sort (``_sort.sort_by_class``) without a payload, as the
    sweeps take it: ``(pk, pw, nk, nw)``, each class's keys ascending
    (``bounds``: the scores' range, checked already)."""
    r = sort_by_class(is_pos, score, weight, name=name, alloc=sweep_buffers, bounds=bounds)
    return r.pk, r.pw, r.nk, r.nw


_SPARE = threading.local()
SPARE_MAX = 1 << 21  # elements: a thread keeps sort buffers up to 16 MiB each
# elements up to which the in-memory sweeps' sort buffers are kept by the
# calling thread (``sweep_buffers``): 1e7 rows sort in buffers of 8 to 16
# bytes a row, and their fresh pages cost 6-8% of a call on one or two threads
SWEEP_SPARE_MAX = 1 << 24


def sweep_buffers(slot, n, dtype):
    """:func:`spare` for the sorts behind the in-memory sweeps
    (``sorted_runs``: every run is consumed before the call returns), kept
    up to ``SWEEP_SPARE_MAX`` elements a slot: the calling thread keeps up to
    about 16 bytes a row of its largest call (at most 1.7e7 rows) for the
    next one, instead of touching fresh pages every call."""
    return spare(slot, n, dtype, SWEEP_SPARE_MAX)


def spare(slot, n, dtype, limit=None):
    """``n`` elements of this thread's reusable scratch buffer ``slot``
    (contents undefined; nothing returned to a caller may point into it).

    Freed arrays of this size go back to the system under a Dask nanny (it
    sets ``MALLOC_TRIM_THRESHOLD_``), and fresh memory costs a page fault per
    4 KiB, as much as the sort itself: a block's sort buffers are kept per
    thread instead, up to ``SPARE_MAX`` elements per slot, or ``limit``
    (about 40 bytes per row of the largest block, unseen by Dask's memory
    accounting: under memory pressure, memory Dask cannot spill costs more
    than the page faults, so nothing bigger or longer-lived is kept there).
    """
    if n > (SPARE_MAX if limit is None else limit):
        return np.empty(n, dtype)
    pool = _SPARE.__dict__
    buf = pool.get(slot)
    if buf is None or buf.shape[0] < n or buf.dtype != dtype:
        buf = pool[slot] = np.empty(n, dtype)
    return buf[:n]


def table_with_rows(is_pos, score, weight, name="y_score") -> tuple[Table, np.ndarray]:
    """A batch's table and each row's position in it (0 for a row of weight
    zero, which is not in it): the one sort carrying the row positions, in
    this thread only (a Dask worker's cores are busy with other blocks) and
    in this thread's spare buffers, then one walk (``walk_runs``).  NaN or
    infinity raises."""
    n = score.shape[0]
    r = sort_by_class(is_pos, score, weight, name=name, row_index=True, serial=True,
                      alloc=spare)
    m = r.pk.shape[0] + r.nk.shape[0]
    keys, pos, neg = np.empty(m, np.uint64), np.empty(m), np.empty(m)
    at = np.zeros(n, np.int64)
    g = walk_runs(r.pk, r.pw, r.nk, r.nw, keys, pos, neg, r.px, r.nx, at)
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
        m = runs[0].shape[0] + runs[2].shape[0]
        keys = np.empty(m, np.uint64)
        pos = np.empty(m, np.float64)
        neg = np.empty(m, np.float64)
        if m < CHUNK_MIN:
            g = sweep(*runs, keys, pos, neg, False, 0.0, 0.0, None, 0, True)[0]
            return cls(keys[:g], pos[:g], neg[:g])
        # key ranges (``sweep_parts``) on the threads, each written at its
        # rows' offset; the gaps that ties leave are closed (a key's weights
        # are its rows' whatever the cut: the same table for any cut)
        ranges = cut_runs(runs, sweep_parts(m))
        offs = _offsets(ranges)
        done = map_units(sweep, [
            (*r, keys[a:b], pos[a:b], neg[a:b], False, 0.0, 0.0, None, 0, True)
            for r, a, b in zip(ranges, offs[:-1], offs[1:])])
        return cls(*_compacted((keys, pos, neg), offs, [d[0] for d in done]))

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

        From ``CHUNK_MIN`` keys on, cut at quantiles of the larger table's
        keys into key ranges (``sweep_parts``) merged on the threads (cuts
        that depend on the data only, and a key's weights are added the same
        way whatever the cut: the same table whatever the threads); each
        range is written at its offset, and the gaps that equal keys leave
        are closed.
        """
        m = len(self) + len(other)
        keys, pos, neg = np.empty(m, np.uint64), np.empty(m), np.empty(m)
        if m < CHUNK_MIN:
            g = merge_tables(self.keys, self.pos, self.neg, other.keys, other.pos, other.neg,
                             keys, pos, neg)
            return Table(keys[:g], pos[:g], neg[:g])
        big = self if len(self) >= len(other) else other
        parts = sweep_parts(m)
        pivots = [big.keys[len(big) * j // parts] for j in range(1, parts)]
        c1 = [0, *[self._above(p) for p in pivots], len(self)]
        c2 = [0, *[other._above(p) for p in pivots], len(other)]
        offs = [a + b for a, b in zip(c1, c2)]
        gs = map_units(merge_tables, [
            (self.keys[a1:b1], self.pos[a1:b1], self.neg[a1:b1], other.keys[a2:b2],
             other.pos[a2:b2], other.neg[a2:b2], keys[o:e], pos[o:e], neg[o:e])
            for a1, b1, a2, b2, o, e in zip(c1[:-1], c1[1:], c2[:-1], c2[1:], offs[:-1],
                                            offs[1:])])
        return Table(*_compacted((keys, pos, neg), offs, gs))

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


    def sweep_as_rows(self) -> Sweep:
        """:meth:`sweep` of a table of counts (every row of weight one: each
        key's weights are its rows), cut where ``sorted_tallies`` cuts the
        sweep of those rows (``sweep_parts``: from ``CHUNK_MIN`` rows on, at
        quantiles of the longer class's keys) and the parts' sums added as it
        adds them: the in-memory functions' floats to the last bit, however
        the rows were batched and merged (counts add up exactly in any
        order)."""
        n_pos, n_neg = self.total_pos, self.total_neg
        parts = sweep_parts(int(n_pos + n_neg))
        if parts == 1:
            return self.sweep()
        lk, rows = (0, int(n_pos)) if n_pos >= n_neg else (1, int(n_neg))
        # counts above any key from the row blocks' sums (exact: integers)
        blocks = row_blocks(len(self))
        sums = np.array(map_units(_count_sums, [(self.pos, self.neg, a, b) for a, b in blocks]))
        prefix = np.zeros((len(blocks) + 1, 2))
        np.cumsum(sums, axis=0, out=prefix[1:])
        starts = [a for a, _ in blocks]
        arrays = (self.pos, self.neg)

        def above(g):  # (positives, negatives) of the keys before key g
            b = max(0, int(np.searchsorted(starts, g, side="right")) - 1)
            return tuple(float(prefix[b, c] + arrays[c][starts[b]:g].sum()) for c in (0, 1))

        local = {}  # a block's running counts, made once for the cuts that fall in it

        def reaching(t):  # the first key from the top with t rows of the longer class at or above it
            b = int(np.searchsorted(prefix[:, lk], t, side="left")) - 1
            if b not in local:
                local[b] = np.cumsum(arrays[lk][blocks[b][0]:blocks[b][1]])
            return blocks[b][0] + int(np.searchsorted(local[b], t - prefix[b, lk], side="left"))

        # the longer run's element e = rows * j // parts from the bottom: the
        # first key from the top with at least rows - e of its rows at or above it
        cuts = [0, *[reaching(rows - rows * j // parts) + 1 for j in range(parts - 1, 0, -1)],
                len(self)]
        e = v.EMPTY_WEIGHT
        done = map_units(sweep_table, [(self.keys, self.pos, self.neg, a, b, *above(a), e, e, e)
                                       for a, b in zip(cuts[:-1], cuts[1:])])
        area2 = ap_num = 0.0
        for _, _, a2, ap in done:  # each range from the exact counts above it
            area2 += a2
            ap_num += ap
        return Sweep(done[-1][0], done[-1][1], area2, ap_num, v.EMPTY_WEIGHT)


def _count_sums(pos, neg, a, b):
    return pos[a:b].sum(), neg[a:b].sum()


GROUP_RANGE_ROWS = 1 << 17  # rows per range of groups sorted and swept in one call


def _balanced(starts):
    """Groups ``0..G`` (group ``j``'s rows ``starts[j]:starts[j + 1]``) cut
    into ranges of about ``GROUP_RANGE_ROWS`` rows (at least two from
    ``CHUNK_MIN`` rows on; a group is never split): data-dependent only."""
    total = int(starts[-1])
    n_groups = starts.shape[0] - 1
    if total < CHUNK_MIN or n_groups < 2:
        return [(0, n_groups)]
    parts = min(n_groups, max(2, total // GROUP_RANGE_ROWS))
    at = np.searchsorted(starts, [total * j // parts for j in range(1, parts)], side="left")
    cuts = sorted({0, n_groups, *np.clip(at, 1, n_groups - 1).tolist()})
    return list(zip(cuts[:-1], cuts[1:]))


def _place_groups(is_pos, score, weight, codes, n_groups, name):
    """Rows placed group by group, each group's positives first (stable).

    Returns ``(rk, rw, row_starts, n_pos, rows, probabilities)``: the keys
    and (weighted) the weights of the rows of non-zero weight, where each
    group's rows start, how many of them are positive, (G, 2) counts of all
    rows and of positive rows per group (zero weights included), and
    whether every score is in [0, 1].

    Fixed row blocks (``_parallel.row_blocks``) are counted and placed on
    the threads; a block's rows of a group and class follow the blocks'
    before it, so the order does not depend on the threads.
    """
    bits = score.view(np.uint64)
    n = bits.shape[0]
    blocks = row_blocks(n, width=5 * n_groups)
    weighted = weight.shape[0] > 0
    parts = [(bits[a:b], is_pos[a:b], weight[a:b] if weighted else weight, codes[a:b])
             for a, b in blocks]
    counted = map_units(count_groups, [(*part, n_groups) for part in parts])
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
    # cursors per group: its positives from the start, its negatives after
    # them, each block's after the rows of the blocks before it
    at = np.column_stack((row_starts[:-1], row_starts[:-1] + n_pos))
    cursors = []
    for c in counted:
        cursors.append(at.copy())
        at += np.column_stack((c[0][:, CNT_KEPT_POS], c[0][:, CNT_KEPT] - c[0][:, CNT_KEPT_POS]))
    map_units(scatter_groups, [(*part, c, rk, rw) for part, c in zip(parts, cursors)])
    return rk, rw, row_starts, n_pos, counts[:, CNT_ROWS:CNT_POS + 1], probabilities


class GroupSums(NamedTuple):
    """What :func:`grouped_sums` returns, one row per group."""

    sums: np.ndarray  # (G, N_SEG): tp, fp, area2, ap_num, ap_num cut as split_sweep cuts
    stats: np.ndarray  # (G, N_STATS) DeLong moments, or (0, N_STATS)
    rows: np.ndarray  # (G, 2): all rows, positive rows
    log_loss: np.ndarray | None  # (G,) mean log loss when the scores are probabilities


def grouped_sums(is_pos, score, weight, codes, n_groups, *, moments=False,
                 name="y_score") -> GroupSums:
    """Every group's sweep sums, moments, row counts and, when every score is
    in [0, 1], log loss (each group's records once sorted, in cache).

    Each group's sums and moments equal those of the table of its rows alone.
    """
    rk, rw, row_starts, n_pos, rows, probabilities = _place_groups(is_pos, score, weight,
                                                                   codes, n_groups, name)
    sums = np.zeros((n_groups, N_SEG))
    stats = np.zeros((n_groups, N_STATS) if moments else (0, N_STATS))
    loss = np.zeros(n_groups if probabilities else 0)
    # each group's sweep cut as ``sorted_tallies`` cuts the sweep of its rows
    parts = np.where(rows[:, 0] < CHUNK_MIN, 1, np.maximum(2, rows[:, 0] // SWEEP_ROWS))
    map_units(sweep_groups, [(rk, rw, row_starts, n_pos, a, b, moments, sums, stats, loss,
                              parts) for a, b in _balanced(row_starts)])
    if not probabilities:
        return GroupSums(sums, stats, rows, None)
    with np.errstate(divide="ignore", invalid="ignore"):
        mean_loss = loss / (sums[:, SEG_TP] + sums[:, SEG_FP])
    return GroupSums(sums, stats, rows, mean_loss)


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
    dropped: bool = False  # the curve points were compacted by a drop rule already


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


def _moment_stats(runs, moments: bool) -> np.ndarray:
    if not moments:
        return v.EMPTY_WEIGHT
    return new_stats(weight_of(*runs[0:2]), weight_of(*runs[2:4]))


def sorted_tallies(
    is_pos, score, weight, *, curve: bool, moments: bool = False, name: str = "y_score",
    drop: int = 0
) -> Tallies:
    """Split by class and sort each class once (``_sort``), then sweep once.

    From 2**16 rows on the sweep runs in key ranges on the threads
    (``split_sweep``, ``sweep_parts``: cuts that depend on the data only).
    ``moments=True`` also accumulates the tie term and the placement moments
    (``_kernels.sweeps.N_STATS``) for the rank test and DeLong's variance.

    Unweighted rows without curves or moments are tallied by numpy
    (:func:`numpy_tallies`, the same floats) while this process's kernels
    for them are not ready yet (``_warm``): a first call does not wait for
    them to compile.
    """
    if not curve and not moments and weight.shape[0] == 0 and \
            _warm.numpy_path(_warm.tallies_family(score)):
        t = numpy_tallies(is_pos, score, name)
        if t is not None:
            return t
    runs = sorted_runs(is_pos, score, weight, name)
    if score.shape[0] >= CHUNK_MIN:
        return split_sweep(runs, moments, curve, drop, sweep_parts(score.shape[0]))
    # curves: one spare slot in front for the point that every curve adds
    m = runs[0].shape[0] + runs[2].shape[0] + 1 if curve else 0
    thr = np.empty(m, np.uint64)
    tps = np.empty(m, np.float64)
    fps = np.empty(m, np.float64)
    stats = _moment_stats(runs, moments)
    g, total_pos, total_neg, area2, ap_num, *_ = sweep(
        *runs, thr[1:], tps[1:], fps[1:], True, 0.0, 0.0, stats if moments else None, drop, True
    )
    return Tallies(thr[: g + 1], tps[: g + 1], fps[: g + 1], total_pos, total_neg, area2,
                   ap_num, stats, drop > 0)


def _warm_tallies(dtype):
    """Compile or load the sort and sweep of unweighted ``dtype`` scores:
    the kernels ``sorted_tallies(curve=False)`` runs for any size (one
    bucket, and from ``CHUNK_MIN`` rows the bucketed sort, the sort path's
    one-time choice and the split sweep)."""
    rng = np.random.default_rng(0)
    for n in (1_000, 70_000):
        is_pos = rng.random(n) < 0.3
        score = np.round(rng.standard_normal(n), 3).astype(dtype)
        sorted_tallies(is_pos, score, v.EMPTY_WEIGHT, curve=False)


_warm.WARMUPS["tallies"] = _warm_tallies


def _sequential_sum(x) -> float:
    """``x[0] + x[1] + ...`` left to right, as a sweep adds (``np.sum`` adds
    pairwise: other roundings)."""
    return float(np.cumsum(x)[-1]) if x.shape[0] else 0.0


def numpy_tallies(is_pos, score, name="y_score"):
    """:func:`sorted_tallies` of unweighted rows without curves or moments,
    from numpy's sort and searchsorted alone (nothing to compile): the same
    floats, bit for bit, or None where that cannot be promised.

    Each class is sorted by ``np.sort``.  Twice the area counts, for every
    positive, the negatives below it twice and those tied with it once
    (``searchsorted`` left and right): integers, exact in int64, and exact as
    the sweep's float sums while twice the number of pairs stays below 2**53
    (else None: the kernels answer).  The average-precision numerator is the
    sweep's own terms (``table.step``) at each distinct positive score,
    descending, added left to right, and cut where ``split_sweep`` cuts the
    sweep from ``CHUNK_MIN`` rows on (the parts' sums added in order), so
    its rounding is the kernels' too.  NaN or infinite scores raise as the sort
    does.
    """
    _score_range(score, name)
    # each class's copy sorted in place: no second copy (np.sort makes one)
    ps = score[is_pos]
    ps.sort()
    ns = score[~is_pos]
    ns.sort()
    n_pos, n_neg = ps.shape[0], ns.shape[0]
    if 2 * n_pos * n_neg >= EXACT_PAIRS:
        return None
    area2 = float(int(np.searchsorted(ns, ps, "left").sum(dtype=np.int64))
                  + int(np.searchsorted(ns, ps, "right").sum(dtype=np.int64)))
    ap_num = 0.0
    if n_pos:
        new = np.empty(n_pos, bool)
        new[0] = True
        np.not_equal(ps[1:], ps[:-1], out=new[1:])
        first = np.flatnonzero(new)  # each distinct positive score's first row
        del new
        at = ps[first][::-1]  # the distinct positive scores, descending
        fp_after = (n_neg - np.searchsorted(ns, at, "left")).astype(np.float64)
        # split_sweep's cuts: quantiles of the longer run (one part below CHUNK_MIN)
        asc = at[::-1]
        cuts = [0, *[at.shape[0] - int(np.searchsorted(asc, p, "left"))
                     for p in pivots(ps if n_pos >= n_neg else ns,
                                     sweep_parts(score.shape[0]))], at.shape[0]]
        del ps, ns  # (the first call's peak memory: the rest needs neither)
        tg = np.diff(first, append=n_pos)[::-1].astype(np.float64)
        tp_after = (n_pos - first)[::-1].astype(np.float64)
        del first
        terms = tg * (tp_after / (tp_after + fp_after))
        for a, b in zip(cuts[:-1], cuts[1:]):
            ap_num += _sequential_sum(terms[a:b])
    e_k, e_w = EMPTY_KEYS, v.EMPTY_WEIGHT
    return Tallies(e_k, e_w, e_w, float(n_pos), float(n_neg), area2, ap_num, e_w)


def sweep_parts(n: int) -> int:
    """Key ranges of the sweep of ``n`` rows (every row, whatever its
    weight): one below ``CHUNK_MIN``, then one per ``SWEEP_ROWS``, at least
    two.  A function of ``n`` alone, never of the threads: it fixes where
    sums are cut, and so every float a sweep returns."""
    return 1 if n < CHUNK_MIN else max(2, n // SWEEP_ROWS)


def pivots(longest, parts: int) -> list:
    """Where a sweep in ``parts`` key ranges cuts, from the top: the keys
    (or scores) of the ascending run ``longest`` at positions
    ``len * j // parts`` for ``j = parts - 1, ..., 1``; keys equal to a pivot
    lie in the range above it, so no tie group is split."""
    n = longest.shape[0]
    if n == 0:
        return []
    return [longest[n * j // parts] for j in range(parts - 1, 0, -1)]


def cut_runs(runs, parts: int) -> list:
    """The runs ``(pk, pw, nk, nw)`` (ascending) cut into ``parts`` key
    ranges at :func:`pivots` of the longer run (the positives' when they are
    as long): a list of such 4-tuples, from the top."""
    keys = runs[0::2]
    weights = runs[1::2]
    cuts = pivots(max(keys, key=len), parts)
    if not cuts:
        return [tuple(runs)]
    out = [[] for _ in range(len(cuts) + 1)]
    for k, w in zip(keys, weights):
        at = [k.shape[0], *np.searchsorted(k, np.array(cuts, k.dtype), "left").tolist(), 0]
        for r, part in enumerate(out):  # an empty (unit) weight array stays empty
            part += [k[at[r + 1]:at[r]], w[at[r + 1]:at[r]]]
    return [tuple(part) for part in out]


def _offsets(ranges) -> list:
    """Each range's first row in a buffer with room for every row of the ranges above."""
    offs = [0]
    for r in ranges:
        offs.append(offs[-1] + r[0].shape[0] + r[2].shape[0])
    return offs


def _compacted(arrays, offs, gs):
    """Arrays with range ``r``'s ``gs[r]`` entries written from ``offs[r]``:
    each range moved up to follow the ones before it (numpy copes with the
    overlap), and all cut to ``sum(gs)``."""
    g = 0
    for o, n in zip(offs, gs):
        if n and o != g:
            for a in arrays:
                a[g:g + n] = a[o:o + n]
        g += n
    return tuple(a[:g] for a in arrays)


def _range_weights(pk, pw, nk, nw):
    return weight_of(pk, pw), weight_of(nk, nw)


def weights_above(ranges) -> list:
    """The weight above each key range, ``[(tp0, fp0), ...]`` from the top:
    each range's weights summed by numpy (on the threads when weighted) and
    added up in range order."""
    if any(r[1].shape[0] or r[3].shape[0] for r in ranges):
        sums = map_units(_range_weights, ranges[:-1])
    else:
        sums = [_range_weights(*r) for r in ranges[:-1]]
    tp0 = fp0 = 0.0
    above = [(tp0, fp0)]
    for t, f in sums:
        tp0 += t
        fp0 += f
        above.append((tp0, fp0))
    return above


def split_sweep(runs, moments: bool, curve: bool = False, drop: int = 0,
                parts: int = 2) -> Tallies:
    """One sweep in ``parts`` key ranges (``cut_runs``) on the threads.

    The cuts are quantiles of the longest run (data-dependent only, so the
    result does not depend on the number of threads); keys equal to a cut
    go to the range above it, so no group is split.  Each range starts from
    the weight above it (``weights_above``); the ranges' sums are added and
    their moments merged in range order.  With ``curve`` every range writes
    its points into one buffer at its rows' offset, closed up afterwards.
    With ``drop`` (``sweeps.sweep``) each range drops the points of a
    ``drop_intermediate`` rule as it writes them; each range's last point,
    whose successor is the next non-empty range's first, is judged here.
    """
    ranges = cut_runs(runs, parts)
    above = weights_above(ranges)
    base = _moment_stats(runs, moments)
    offs = _offsets(ranges)
    e_k, e_w = EMPTY_KEYS, v.EMPTY_WEIGHT
    # curves: one spare slot in front for the point that every curve adds.
    # With a drop rule each range writes its few kept points at the front of
    # buffers of its own (gathered below): written at the range's offset in
    # one buffer they would be spread over it, and every page (every huge
    # page) of it would be touched
    apart = curve and drop > 0
    m = offs[-1] + 1 if curve and not apart else 0
    thr, tps, fps = np.empty(m, np.uint64), np.empty(m), np.empty(m)
    jobs, stats, own = [], [], []
    for r, (a, b) in enumerate(zip(offs[:-1], offs[1:])):
        if apart:
            own.append((np.empty(b - a, np.uint64), np.empty(b - a), np.empty(b - a)))
            out = own[-1]
        elif curve:
            out = (thr[a + 1:b + 1], tps[a + 1:b + 1], fps[a + 1:b + 1])
        else:
            out = (e_k, e_w, e_w)
        st = base.copy() if moments else None
        stats.append(st)
        jobs.append((*ranges[r], *out, True, *above[r], st, drop, a == 0))
    done = map_units(sweep, jobs)
    area2 = ap_num = 0.0
    for d in done:
        area2 += d[3]
        ap_num += d[4]
    tp, fp = done[-1][1], done[-1][2]
    if moments:
        for st in stats[1:]:
            merge_stats(stats[0], st)
    if not curve:
        return Tallies(e_k, e_w, e_w, tp, fp, area2, ap_num, stats[0] if moments else base)
    gs = [d[0] for d in done]
    if drop:
        filled = [r for r in range(len(ranges)) if offs[r + 1] > offs[r]]
        for r, nxt in zip(filled[:-1], filled[1:]):
            # range r's last point, between its predecessor (the point above
            # the range when it has one point) and the next range's first
            if done[r][9] >= 2 or offs[r] > 0:
                if not kept_point(done[r][5], done[r][6], *above[nxt], done[nxt][7],
                                  done[nxt][8], drop):
                    gs[r] -= 1
    dest = np.concatenate(([0], np.cumsum(gs))).tolist()
    if apart:  # each range's points gathered into arrays of the curve's length, on threads
        out = (np.empty(dest[-1] + 1, np.uint64), np.empty(dest[-1] + 1), np.empty(dest[-1] + 1))
        map_units(copy_points, [(*own[r], 0, *out, dest[r] + 1, gs[r])
                                for r in range(len(gs)) if gs[r]])
        return Tallies(*out, tp, fp, area2, ap_num, stats[0] if moments else base, drop > 0)
    if dest[-1] == offs[-1]:  # every row a point: no gap to close
        return Tallies(thr, tps, fps, tp, fp, area2, ap_num, stats[0] if moments else base,
                       drop > 0)
    if 2 * dest[-1] >= offs[-1]:  # most rows kept: the gaps closed in place
        g = _compacted((thr[1:], tps[1:], fps[1:]), offs, gs)[0].shape[0]
        return Tallies(thr[:g + 1], tps[:g + 1], fps[:g + 1], tp, fp, area2, ap_num,
                       stats[0] if moments else base, drop > 0)
    # few points kept (ties): each range's points gathered into arrays of the
    # curve's length, the ranges on the threads (one spare slot in front)
    out = (np.empty(dest[-1] + 1, np.uint64), np.empty(dest[-1] + 1), np.empty(dest[-1] + 1))
    map_units(copy_points, [(thr, tps, fps, offs[r] + 1, *out, dest[r] + 1, gs[r])
                            for r in range(len(gs)) if gs[r]])
    return Tallies(*out, tp, fp, area2, ap_num, stats[0] if moments else base, drop > 0)
