"""The :class:`~fastauc.Accumulator`'s private helpers: batches copied
together, tables compacted (the LSM levels), bounded cells, and the checks of
a state restored from bytes."""

from __future__ import annotations

import numpy as np

from . import _validation as v
from ._cells import Cells
from ._kernels.cells import range_ends
from ._kernels.sorting import keys_to_floats
from ._label_codec import decode_classes, decode_label
from ._parallel import map_units
from ._table import Table, float_keys

#: batches from this many rows on are copied into a :class:`Stage`
STAGE_FROM = 1 << 16


class Stage:
    """Columns that an accumulator's waiting batches are copied into, end to
    end: the rows then sorted together are views of one buffer per column
    (:func:`_concatenated` copies nothing), and the copies land in numpy's
    large buffers (huge pages where the system grants them) instead of a
    fresh allocation a batch.  Rows are only ever written above ``used``, so
    a view handed out (``merge`` gives the other accumulator's waiting rows
    to this one) never changes; an accumulator that sorts its rows lets its
    stage go."""

    def __init__(self, rows: int, dtype, weighted: bool):
        self.used = 0
        self.is_pos = np.empty(rows, bool)
        self.score = np.empty(rows, dtype)
        self.weight = np.empty(rows) if weighted else None

    def fits(self, n: int, dtype, weighted: bool) -> bool:
        return (self.score.dtype == dtype and (self.weight is not None) == weighted
                and self.used + n <= self.score.shape[0])

    def put(self, is_pos, score, weight):
        """Copy a batch in; returns its ``(is_pos, score, weight)`` views."""
        a = self.used
        b = self.used = a + score.shape[0]
        self.is_pos[a:b] = is_pos
        self.score[a:b] = score
        if self.weight is None:
            return self.is_pos[a:b], self.score[a:b], v.EMPTY_WEIGHT
        self.weight[a:b] = weight
        return self.is_pos[a:b], self.score[a:b], self.weight[a:b]


def staged(stage, pending, sort_rows, is_pos, s, w):
    """Append the batch's copy to the waiting rows ``pending``: in the
    accumulator's stage from ``STAGE_FROM`` rows on (a new stage when it has
    no room, sized for the rows up to the next sort of ``sort_rows``), else
    in fresh arrays.  Returns the stage."""
    n, weighted = s.shape[0], w.shape[0] > 0
    if n < STAGE_FROM:
        pending.append((is_pos.copy(), s.copy(), w.copy()))
        return stage
    if stage is None or not stage.fits(n, s.dtype, weighted):
        waiting = sum(p[0].shape[0] for p in pending)
        stage = Stage(max(sort_rows - waiting, 0) + n, s.dtype, weighted)
    pending.append(stage.put(is_pos, s, w))
    return stage


def _address(a) -> int:
    return a.__array_interface__["data"][0]


def _joined(parts):
    """``parts`` as one array when they lie end to end in one buffer (a
    stage's views, in order), else None."""
    base = parts[0].base
    if base is None or base.ndim != 1 or not base.flags.c_contiguous:
        return None
    step = base.itemsize
    first = at = _address(parts[0])
    for p in parts:
        if p.base is not base or _address(p) != at or p.strides != (step,):
            return None
        at += p.shape[0] * step
    start = (first - _address(base)) // step
    return base[start:start + (at - first) // step]


def _concatenated(pending):
    """The waiting batches' ``(is_pos, score, weight)`` as one set of rows:
    views of a stage's buffers when the batches lie there end to end, else
    copies."""
    weighted = any(w.shape[0] for _, _, w in pending)
    joined = [_joined([b[i] for b in pending]) for i in (0, 1, 2) if i < 2 or weighted]
    if all(j is not None for j in joined):
        return joined[0], joined[1], joined[2] if weighted else v.EMPTY_WEIGHT
    starts = np.concatenate(([0], np.cumsum([p.shape[0] for p, _, _ in pending]))).tolist()
    n = starts[-1]
    is_pos = np.empty(n, bool)
    s = np.empty(n, np.result_type(*[sc.dtype for _, sc, _ in pending]))
    w = np.empty(n) if weighted else v.EMPTY_WEIGHT
    # one batch a unit, copied into place on the threads
    map_units(_copy_batch, [(batch, a, b, is_pos, s, w)
                            for batch, a, b in zip(pending, starts[:-1], starts[1:])])
    return is_pos, s, w


def _copy_batch(batch, a, b, is_pos, s, w):
    p, sc, wb = batch
    is_pos[a:b] = p
    s[a:b] = sc
    if w.shape[0]:
        w[a:b] = wb if wb.shape[0] else 1.0


def _bounded(levels, max_groups: int) -> Cells:
    """The levels as one bounded table of at most ``max_groups`` cells."""
    cells = Cells.from_table(levels[0])
    for t in levels[1:]:
        cells = cells.merge(Cells.from_table(t))
    return cells.compressed(max_groups)


def _compact(levels: list[Table]) -> list[Table]:
    """LSM rule: largest first; the last table is merged into the one before it
    while that one is at most twice as large.  Empty tables are dropped."""
    levels = sorted((t for t in levels if len(t)), key=len, reverse=True)
    while len(levels) > 1 and len(levels[-2]) <= 2 * len(levels[-1]):
        b = levels.pop()
        levels[-1] = levels[-1].merge(b)
        levels.sort(key=len, reverse=True)
    return levels


def _same_label(a, b) -> bool:
    if a is None or b is None:
        return a is None and b is None
    return type(a) is type(b) and a == b


def _from_header(cls, header: dict):
    if not isinstance(header, dict):
        raise ValueError("the header is not an object")
    max_groups = header["max_groups"]
    if max_groups is not None and (type(max_groups) is not int or max_groups < 2):
        raise ValueError(f"max_groups must be null or an integer >= 2, got {max_groups!r}")
    if type(header["cells"]) is not bool or (header["cells"] and max_groups is None):
        raise ValueError("cells must be true or false, and true only with max_groups")
    acc = cls(decode_label(header["pos_label"]), max_groups=max_groups)
    classes = decode_classes(header["classes"])
    rows = header["rows"]
    if not (isinstance(rows, list) and len(rows) == 2
            and all(type(r) is int and r >= 0 for r in rows)):
        raise ValueError(f"rows must be two non-negative counts, got {rows!r}")
    weighted = header["weighted"]
    if type(weighted) is not bool:
        raise ValueError("weighted must be true or false")
    dtype = None if header["dtype"] is None else np.dtype(header["dtype"])
    m = header["n_keys"]
    if type(m) is not int or m < 0:
        raise ValueError(f"n_keys must be a non-negative integer, got {m!r}")
    if (classes is None) != (sum(rows) == 0) or (classes is None) != (dtype is None):
        raise ValueError("classes, rows and dtype disagree on whether rows were seen")
    if classes is not None and acc._pos_label is None and classes.shape[0] > 2:
        raise ValueError("more than two classes without pos_label")
    if m > sum(rows):
        raise ValueError(f"{m} distinct scores from {sum(rows)} rows")
    acc._classes, acc._rows, acc._weighted, acc._dtype = classes, list(rows), weighted, dtype
    return acc


def _check_cells(c: Cells):
    """Cells read from bytes: levels in 0..64, each cell's least key in its
    dyadic range and not above its greatest, the ranges disjoint, descending."""
    if not (c.level <= 64).all():
        raise ValueError("corrupted Accumulator state (a cell level above 64)")
    ends = np.empty(len(c), np.uint64)
    range_ends(c.keys, c.level, ends)
    starts = np.empty(len(c), np.uint64)
    range_ends(~c.keys, c.level, starts)
    starts = ~starts  # the lower end: the free bits cleared
    if not ((c.lo <= c.keys).all() and (c.lo >= starts).all()):
        raise ValueError("corrupted Accumulator state (a cell's scores outside its range)")
    if len(c) > 1 and not (ends[1:] < starts[:-1]).all():
        raise ValueError("corrupted Accumulator state (cells overlap or are not descending)")
    _check_keys(c.lo)


def _check_keys(keys):
    scores = keys_to_floats(keys, np.empty_like(keys))
    if not np.isfinite(scores).all() or not (float_keys(scores) == keys).all():
        raise ValueError("corrupted Accumulator state (a score is not a finite number)")


def _check_table(t, rows, weighted):
    """A table read from bytes must be one ``Table.from_rows`` could make."""
    keys = t.keys
    if keys.shape[0] and not (keys[:-1] > keys[1:]).all():
        raise ValueError("corrupted Accumulator state (scores not strictly descending)")
    _check_keys(keys)
    for name, a in (("positive", t.pos), ("negative", t.neg)):
        if not (np.isfinite(a).all() and (a >= 0).all()):
            raise ValueError(f"corrupted Accumulator state ({name} weights must be finite "
                             "and non-negative)")
    if not weighted:
        counts = (t.pos.sum(), t.neg.sum())
        if (t.pos != np.floor(t.pos)).any() or (t.neg != np.floor(t.neg)).any() \
                or counts != (rows[1], rows[0]):
            raise ValueError("corrupted Accumulator state (unweighted counts do not add up "
                             "to the rows)")


def _unique_union(a: np.ndarray | None, b: np.ndarray) -> np.ndarray:
    """Sorted distinct labels of both arrays (scikit-learn's error for a mix of
    strings and numbers)."""
    if a is None:
        return b
    if (a.dtype.kind in "biuf") != (b.dtype.kind in "biuf"):
        raise ValueError(
            "Mix of label input types (string and number); this batch's labels "
            f"{v._fmt_classes(b)} cannot be compared with the labels seen so far "
            f"{v._fmt_classes(a)}")
    return np.unique(np.concatenate((a, b)))


# a key's weight left within this many ulps of its former weight above zero
# counts as zero (weighted sums: the rows' weights added in another order)
SUBTRACT_ULPS = 64


def _subtraction(acc, other):
    """``(table, rows)`` of accumulator ``acc`` without ``other``'s rows
    (None: ``other`` has none), or ``ValueError`` with the reason; neither
    accumulator changes (``other``'s rows read as ``acc``'s classes)."""
    if not _same_label(acc._pos_label, other._pos_label):
        raise ValueError(f"cannot subtract accumulators with different pos_label "
                         f"({acc._pos_label!r} and {other._pos_label!r})")
    if acc._max_groups is not None or other._max_groups is not None:
        raise ValueError("subtract needs every distinct score: an accumulator with "
                         "max_groups keeps ranges of scores, which cannot take rows away")
    if other._classes is None:
        return None
    if acc._classes is None or np.setdiff1d(other._classes, acc._classes).shape[0]:
        raise ValueError("subtract takes away rows this accumulator contains, and the "
                         "other holds labels it has not seen")
    levels, pending, rows_b = other._aligned(acc._classes)
    if pending:
        levels = levels + [Table.from_rows(*_concatenated(pending))]
    theirs = levels[0]
    for t in levels[1:]:
        theirs = theirs.merge(t)
    rows = [acc._rows[0] - rows_b[0], acc._rows[1] - rows_b[1]]
    if min(rows) < 0:
        raise ValueError("subtract takes away rows this accumulator contains, and the "
                         "other holds more rows of a class than it does")
    return _subtracted(acc._state(), theirs, acc._weighted or other._weighted), rows


def _subtracted(t: Table, part: Table, weighted: bool) -> Table:
    """``t`` without the rows of ``part``, a table of rows ``t`` contains:
    each of ``part``'s keys found in ``t`` and its weights taken away (exact
    for counts; for weights, a key left within ``SUBTRACT_ULPS`` ulps of its
    former weight is empty), the keys left without weight dropped."""
    if len(part) == 0:
        return t
    asc = t.keys[::-1]
    at = np.minimum(np.searchsorted(asc, part.keys), max(len(t) - 1, 0))
    if len(t) == 0 or not np.array_equal(asc[at], part.keys):
        raise ValueError("subtract takes away rows this accumulator contains, and the other "
                         "holds scores it has not seen")
    at = len(t) - 1 - at  # the index in t's descending order
    out = []
    for mine, theirs in ((t.pos, part.pos), (t.neg, part.neg)):
        left = mine.copy()
        left[at] -= theirs
        slack = SUBTRACT_ULPS * np.finfo(np.float64).eps * mine if weighted else 0.0
        if (left < -slack).any():
            raise ValueError("subtract takes away rows this accumulator contains, and the "
                             "other holds more weight at some score than it does")
        left[left <= slack] = 0.0
        out.append(left)
    keep = (out[0] > 0) | (out[1] > 0)
    return Table(t.keys[keep], out[0][keep], out[1][keep])
