"""Batches, merges and files larger than memory: the mergeable distinct-score table.

An :class:`Accumulator` holds the distinct-score table of every row it has
seen (``_table.Table``: the distinct scores, descending, with the positive and
the negative weight at each), built from each batch with the one sort and
merged in one linear pass.  Any sequence of ``update`` and ``merge`` calls
gives the same table as the rows put together, so every result equals the
in-memory function's on the concatenated rows (up to the order of floating
additions; exactly, for counts).  See ``docs/guide/larger_than_memory.md``.
"""

from __future__ import annotations

import dataclasses
import json
import struct
import zlib

import numpy as np

from . import _validation as v
from ._kernels.sorting import keys_to_floats
from ._accumulator_state import (_bounded, _check_cells, _check_table, _compact, _concatenated,
                                 _from_header, _same_label, _subtraction, _unique_union, staged)
from ._cells import Cells
from ._label_codec import encode_classes, encode_label
from ._sort import CHUNK_MIN
from ._table import Table, sorted_tallies
from .calibration import brier_score_loss, calibration_error
from .coords import coords
from .coords_intervals import coords_ci
from .bootstrap import bootstrap_test
from .delong import delong_test, roc_auc_ci
from .losses import log_loss
from .ranking import average_precision_score, det_curve, precision_recall_curve, roc_auc_score
from .ranking import roc_curve
from .ranktests import mann_whitney_u
from .reliability import brier_decomposition, reliability_curve
from .report import report
from .thresholds import best_threshold, partial_auc, threshold_metrics

__all__ = ["Accumulator"]

MAGIC = b"\x89FASTAUC"  #: the first 8 bytes of ``to_bytes()``
FORMAT_VERSION = 1  #: the version ``to_bytes()`` writes and the newest ``from_bytes()`` reads
_PREFIX = struct.Struct("<8sHHI")  # magic, version, flags, header length
_CRC = struct.Struct("<I")
_ENDIAN = {"keys": "<u8", "pos": "<f8", "neg": "<f8", "lo": "<u8", "level": "|u1"}
_SORT_ROWS = 1 << 23  # rows of smaller batches gathered before one sort


class Accumulator:
    """Exact, mergeable state for the binary ranking metrics, fed in batches.

    Parameters
    ----------
    pos_label : int, float, bool or str, default=None
        The positive class.  ``None``: the greater of the (at most two) labels
        seen, as ``roc_auc_score``; results whose in-memory function needs
        labels {0, 1} or {-1, 1} then apply that rule to the labels seen.
    max_groups : int >= 2, default=None
        Bound the state to this many distinct scores: when the table would
        pass it, adjacent scores are merged into dyadic key ranges of about
        equal weight (a score is never split).  The AUC then comes with
        certified bounds (:meth:`auc_bounds`, width about ``1 / max_groups``
        and at most ``4 / max_groups`` after merging similar shards) and
        :meth:`roc_auc` is their midpoint; the curves and threshold metrics
        keep the exact points at the ranges' least scores; results that need
        every score raise.  Accumulators merge only with the same value.

    Attributes
    ----------
    n_samples : int
        Rows seen (zero-weight rows included).
    n_groups : int
        Distinct scores held: the state's size is O(n_groups), whatever the
        number of rows.
    exact : bool
        True unless a bounded accumulator merged scores into ranges: every
        result is then the in-memory function's on the rows seen.

    See Also
    --------
    roc_auc_score, average_precision_score : The in-memory functions whose
        numbers :meth:`roc_auc` and :meth:`average_precision` give.
    roc_auc_ci : DeLong's interval, which :meth:`roc_auc_ci` gives from the state.
    fastauc.streaming.report_stream : A whole :class:`Report` of batches larger
        than memory, built on accumulators.

    Notes
    -----
    Each ``update`` sorts its batch once into a table; tables are merged like
    an LSM tree (a table is merged with the one before it while that one is
    at most twice as large), so n rows in any batches cost O(n log n) in all
    and the state holds O(log n) tables until a result merges them into one.
    Results come from that one table: the ROC AUC and average precision from
    one sweep; the other results from the in-memory functions run on the
    table's rows (one row per distinct score and class, weighted by the
    class's weight there), which give the same numbers as the original rows:
    every metric here depends on the rows only through those weights.  Its
    interval is DeLong's; ``bootstrap_test`` resamples unweighted rows as counted.

    Examples
    --------
    >>> import numpy as np
    >>> from fastauc import Accumulator, roc_auc_score
    >>> rng = np.random.default_rng(0)
    >>> y, s = rng.integers(0, 2, 1000), rng.normal(size=1000)
    >>> acc = Accumulator()
    >>> for a in range(0, 1000, 300):
    ...     _ = acc.update(y[a:a + 300], s[a:a + 300])
    >>> acc.n_samples, acc.roc_auc() == roc_auc_score(y, s)
    (1000, True)
    >>> other = Accumulator().update(y, s)
    >>> acc.merge(other).n_samples
    2000
    >>> Accumulator.from_bytes(acc.to_bytes()).roc_auc() == acc.roc_auc()
    True
    """

    def __init__(self, pos_label=None, max_groups=None):
        if max_groups is not None:
            if isinstance(max_groups, bool) or not isinstance(max_groups, (int, np.integer)):
                raise TypeError(f"max_groups must be an integer or None, got {max_groups!r}")
            if max_groups < 2:
                raise ValueError(f"max_groups must be at least 2, got {max_groups}")
            max_groups = int(max_groups)
        self._max_groups = max_groups
        if pos_label is not None and not isinstance(pos_label, (bool, int, float, str,
                                                                 np.generic)):
            raise TypeError(f"pos_label must be a label (bool, int, float or str) or None, "
                            f"got {type(pos_label).__name__}")
        if isinstance(pos_label, np.generic):
            pos_label = pos_label.item()
        self._pos_label = pos_label
        self.reset()

    # ------------------------------------------------------------ state

    def reset(self) -> Accumulator:
        """Forget every row (``pos_label`` stays)."""
        self._levels: list[Table] = []
        # batches smaller than _SORT_ROWS wait here (copies: (is_pos, score, weight),
        # views of self._stage from STAGE_FROM rows on) and are sorted together: one
        # sort of 2**23 rows costs far less than eighty of 1e5 and their tables' merges
        self._pending, self._stage = [], None
        self._classes: np.ndarray | None = None
        self._rows = [0, 0]  # rows counted as negative, as positive
        self._weighted = False
        self._dtype = None
        self._auc = None  # roc_auc_score of the rows, when they were sorted at once
        self._ap = None  # and average_precision_score
        return self

    @property
    def pos_label(self):
        return self._pos_label

    @property
    def n_samples(self) -> int:
        return self._rows[0] + self._rows[1]

    @property
    def n_groups(self) -> int:
        return len(self._state())

    @property
    def exact(self) -> bool:
        state = self._state()
        return not isinstance(state, Cells) or state.exact

    @property
    def max_groups(self):
        return self._max_groups

    def __repr__(self) -> str:
        waiting = sum(p[0].shape[0] for p in self._pending)
        return (f"Accumulator(pos_label={self._pos_label!r}): {self.n_samples:,} rows, "
                f"{sum(len(t) for t in self._levels):,} keys in {len(self._levels)} table(s), "
                f"{waiting:,} rows waiting to be sorted")

    def _positive_of(self, classes: np.ndarray):
        """The positive label for the classes seen (``pos_label``, or the greater)."""
        if self._pos_label is not None:
            return self._pos_label
        if classes.shape[0] > 2:
            raise ValueError(
                f"multiclass format is not supported (y_true has {classes.shape[0]} classes "
                f"{v._fmt_classes(classes)} in the rows seen so far, but the accumulator "
                "holds a binary target; pass pos_label to treat one class as positive)")
        return classes[-1]

    def _aligned(self, classes: np.ndarray):
        """``(levels, pending, rows)`` with ``pos`` (and ``rows[1]``) the weight
        (rows) of ``classes``' positive: with ``pos_label=None`` a greater label
        seen later turns the earlier positives into negatives (table views
        swapped, waiting rows' classes flipped in new arrays)."""
        if self._pos_label is not None or self._classes is None \
                or self._classes[-1] == classes[-1]:
            return list(self._levels), list(self._pending), list(self._rows)
        return ([dataclasses.replace(t, pos=t.neg, neg=t.pos) for t in self._levels],
                [(~p, sc, w) for p, sc, w in self._pending], self._rows[::-1])

    def _commit(self, levels, pending, classes, rows, weighted, dtype):
        if sum(p[0].shape[0] for p in pending) >= _SORT_ROWS:
            levels = levels + [Table.from_rows(*_concatenated(pending))]
            pending, self._stage = [], None  # (its views may live on in merged accumulators)
        if self._max_groups is not None:  # one bounded table
            levels = [_bounded(levels, self._max_groups)] if levels else []
        self._levels = _compact(levels)
        self._pending = pending
        self._classes = classes
        self._rows = rows
        self._weighted = weighted
        self._dtype = dtype
        self._auc = None
        self._ap = None

    def update(self, y_true, y_score, sample_weight=None) -> Accumulator:
        """Add a batch of rows; returns ``self``.

        Validated as the in-memory functions validate their input (NaN or
        infinite scores, labels that are not classes, lengths, weights); a
        batch that fails raises and leaves the state as it was.  With
        ``pos_label=None`` a third distinct label raises.  Tensors (also ones
        that require grad) and CUDA arrays (PyTorch, CuPy, JAX) are read
        through host copies; the table lives on the host
        (:class:`fastauc.torch.BinaryAUROC` keeps it on the scores' device).
        """
        y = v.as_label_array(y_true, allow_empty=True)
        if y.ndim != 1:
            raise ValueError(f"y_true must be 1-D (one label per row), got shape {y.shape}")
        raw = v.as_array(y_score, "y_score")
        if y.shape[0] == 0 and raw.shape[:1] == (0,) and raw.ndim == 1:
            v.check_batch_weights(sample_weight, 0)
            return self  # an empty batch (the end of a stream): nothing to add
        s = v.as_float_array(raw, "y_score")
        n = v.check_lengths(y_true=y, y_score=s)
        w = v.check_batch_weights(sample_weight, n)
        classes = _unique_union(self._classes, v.unique_labels(y))
        positive = self._positive_of(classes)
        is_pos = v.positive_mask(y, positive)
        levels, pending, rows = self._aligned(classes)
        if n >= _SORT_ROWS or self._max_groups is not None:
            levels.append(Table.from_rows(is_pos, s, w))  # NaN/inf scores raise here
        else:
            if not np.isfinite(s).all():
                v.raise_non_finite("y_score", s)
            # copies (the caller may reuse its arrays for the next batch)
            self._stage = staged(self._stage, pending, _SORT_ROWS, is_pos, s, w)
        n_pos = int(np.count_nonzero(is_pos))
        dtype = raw.dtype if self._dtype is None else np.result_type(self._dtype, raw.dtype)
        self._commit(levels, pending, classes, [rows[0] + n - n_pos, rows[1] + n_pos],
                     self._weighted or w.shape[0] > 0, dtype)
        return self

    def merge(self, other: Accumulator) -> Accumulator:
        """Add the rows of ``other`` (left unchanged); returns ``self``."""
        if not isinstance(other, Accumulator):
            raise TypeError(f"can only merge an Accumulator, got {type(other).__name__}")
        if not _same_label(self._pos_label, other._pos_label):
            raise ValueError(f"cannot merge accumulators with different pos_label "
                             f"({self._pos_label!r} and {other._pos_label!r})")
        if self._max_groups != other._max_groups:
            raise ValueError(f"cannot merge accumulators with different max_groups "
                             f"({self._max_groups!r} and {other._max_groups!r})")
        if other._classes is None:
            return self
        classes = _unique_union(self._classes, other._classes)
        self._positive_of(classes)  # a third label raises
        (mine, wait_a, rows_a) = self._aligned(classes)
        (theirs, wait_b, rows_b) = other._aligned(classes)
        dtype = other._dtype if self._dtype is None else np.result_type(self._dtype,
                                                                         other._dtype)
        self._commit(mine + theirs, wait_a + wait_b, classes,
                     [rows_a[0] + rows_b[0], rows_a[1] + rows_b[1]],
                     self._weighted or other._weighted, dtype)
        return self

    def subtract(self, other: Accumulator) -> Accumulator:
        """Take away the rows of ``other``, rows this accumulator contains (an
        expired batch, a day to leave out); ``other`` is left unchanged;
        returns ``self``.

        Each of ``other``'s scores must be here with at least its weight in
        each class, and its rows per class at most these.  Counts are
        exact: the table is the one of the rows left.  Weights are sums: a
        score's weight left is this sum minus ``other``'s, the rows' weights
        added in another order than the rows left would add them, so within
        a few ulps of the weight it had (exact for integer weights); a
        score left within 64 ulps of it counts as empty.  The bounded mode
        (``max_groups``) keeps ranges, not scores, and cannot take rows
        away: it raises.

        Examples
        --------
        >>> from fastauc import Accumulator, roc_auc_score
        >>> y, s = [0, 1, 0, 1, 1, 0], [0.2, 0.9, 0.4, 0.5, 0.3, 0.6]
        >>> week = Accumulator().update(y, s)
        >>> monday = Accumulator().update(y[:2], s[:2])
        >>> week.subtract(monday).roc_auc() == roc_auc_score(y[2:], s[2:])
        True
        """
        if not isinstance(other, Accumulator):
            raise TypeError(f"can only subtract an Accumulator, got {type(other).__name__}")
        left = _subtraction(self, other)
        if left is not None:
            table, rows = left
            self._commit([table] if len(table) else [], [], self._classes, rows,
                         self._weighted, self._dtype)
        return self

    def _table(self, ranges=False) -> Table:
        """The one table of every row (waiting rows sorted, the levels merged, kept
        as the one level).  A bounded table with ranges raises, unless
        ``ranges``: each range then stands at its least score (the curves are
        exact at those thresholds)."""
        state = self._state()
        if isinstance(state, Cells):
            if not (ranges or state.exact):
                raise ValueError(
                    "this result needs every distinct score, but the accumulator merged "
                    f"scores into ranges to stay within max_groups={self._max_groups}: "
                    "use roc_auc() and auc_bounds(), or the curves and threshold metrics "
                    "(exact at the thresholds they return)")
            return state.table()
        return state

    def _state(self):
        """The one table (a ``Cells`` in bounded mode) of every row; when every row
        was waiting, also their AUC as ``roc_auc_score`` sums it (from ``CHUNK_MIN``
        weighted rows on, in two key ranges: other roundings than the table's)."""
        if self._pending:
            alone = not self._levels
            is_pos, s, w = _concatenated(self._pending)
            self._levels = _compact(self._levels + [Table.from_rows(is_pos, s, w)])
            self._pending, self._stage = [], None
            if alone and w.shape[0] and s.shape[0] >= CHUNK_MIN and (
                    w[is_pos] > 0).any() and (w[~is_pos] > 0).any():
                t = sorted_tallies(is_pos, s, w, curve=False)
                self._auc = float(t.area2 / (2.0 * t.total_pos * t.total_neg))
                self._ap = float(max(0.0, t.ap_num / t.total_pos))
        if not self._levels:
            return Table(np.empty(0, np.uint64), np.empty(0), np.empty(0))
        while len(self._levels) > 1:
            b = self._levels.pop()
            self._levels[-1] = self._levels[-1].merge(b)
        return self._levels[0]

    # ------------------------------------------------------------ bytes

    def to_bytes(self) -> bytes:
        """The state in fastauc's versioned binary format (``docs/guide/larger_than_memory.md``)."""
        t = self._state()
        cells = isinstance(t, Cells)
        header = {
            "pos_label": encode_label(self._pos_label),
            "max_groups": self._max_groups,
            "classes": encode_classes(self._classes),
            "rows": list(self._rows),
            "weighted": self._weighted,
            "dtype": None if self._dtype is None else self._dtype.str,
            "n_keys": len(t),
            "cells": cells,
        }
        head = json.dumps(header, separators=(",", ":"), sort_keys=True).encode()
        arrays = [t.keys.astype("<u8"), t.pos.astype("<f8"), t.neg.astype("<f8")]
        if cells:
            arrays += [t.lo.astype("<u8"), t.level.astype("u1")]
        body = b"".join([_PREFIX.pack(MAGIC, FORMAT_VERSION, 0, len(head)), head]
                        + [a.tobytes() for a in arrays])
        return body + _CRC.pack(zlib.crc32(body))

    @classmethod
    def from_bytes(cls, data) -> Accumulator:
        """An accumulator from ``to_bytes()``'s output, validated.

        Raises ``ValueError`` for anything that is not a complete, intact
        state of a version this fastauc reads (truncated, corrupted, or
        written by a newer version).
        """
        try:
            buf = memoryview(data).cast("B")
        except TypeError:
            raise TypeError(f"from_bytes needs a bytes-like object, got "
                            f"{type(data).__name__}") from None
        if buf.nbytes < _PREFIX.size + _CRC.size:
            raise ValueError(f"not a fastauc Accumulator state: {buf.nbytes} bytes is too "
                             "short (truncated?)")
        magic, version, flags, head_len = _PREFIX.unpack_from(buf, 0)
        if magic != MAGIC:
            raise ValueError("not a fastauc Accumulator state (wrong magic bytes)")
        if version > FORMAT_VERSION:
            raise ValueError(f"this Accumulator state has format version {version}, newer "
                             f"than this fastauc reads ({FORMAT_VERSION}): upgrade fastauc")
        if version < 1 or flags != 0:
            raise ValueError(f"corrupted Accumulator state (version {version}, flags {flags})")
        (crc,) = _CRC.unpack_from(buf, buf.nbytes - _CRC.size)
        if zlib.crc32(buf[:buf.nbytes - _CRC.size]) != crc:
            raise ValueError("corrupted or truncated Accumulator state (checksum mismatch)")
        start = _PREFIX.size
        if start + head_len > buf.nbytes - _CRC.size:
            raise ValueError("corrupted Accumulator state (header runs past the end)")
        try:
            header = json.loads(bytes(buf[start:start + head_len]))
            acc = _from_header(cls, header)
            m = header["n_keys"]
        except (ValueError, KeyError, TypeError) as exc:
            raise ValueError(f"corrupted Accumulator state (header: {exc})") from None
        body = start + head_len
        cells = header.get("cells") is True
        width = 33 if cells else 24
        if buf.nbytes - _CRC.size - body != width * m:
            raise ValueError(f"corrupted Accumulator state ({m} keys need {width * m} "
                             f"bytes, found {buf.nbytes - _CRC.size - body})")
        names = ("keys", "pos", "neg", "lo", "level") if cells else ("keys", "pos", "neg")
        arrays = {name: np.frombuffer(buf, _ENDIAN[name], m, body + 8 * m * i).astype(
            _ENDIAN[name][1:]) for i, name in enumerate(names)}
        table = Table(arrays["keys"], arrays["pos"], arrays["neg"])
        if cells:
            table = Cells(arrays["keys"], arrays["lo"], arrays["level"], table.pos, table.neg)
            _check_cells(table)
        elif acc._max_groups is not None and m > acc._max_groups:
            raise ValueError(f"corrupted Accumulator state ({m} keys, max_groups "
                             f"{acc._max_groups})")
        _check_table(table, acc._rows, acc._weighted)
        acc._levels = [table] if m else []
        return acc

    def __sizeof__(self) -> int:
        """Bytes held (the tables and the waiting rows): what ``sys.getsizeof``
        and dask's memory accounting see."""
        import sys

        waiting = sum(a.nbytes for batch in self._pending for a in batch)
        return object.__sizeof__(self) + waiting + sum(sys.getsizeof(t) for t in self._levels)

    def __reduce__(self):
        return (Accumulator.from_bytes, (self.to_bytes(),))

    # ------------------------------------------------------------ results

    def _sweep(self):
        """``(table, sweep)`` when both classes have weight and ``pos`` is the
        positive class of every rule; else None (the in-memory path then
        raises or warns as scikit-learn does)."""
        t = self._table()
        if not len(t):
            return None
        sw = t.sweep()
        if sw.tp <= 0 or sw.fp <= 0:
            return None
        return t, sw

    def _rows_of(self, ranges=False):
        """The table as rows: ``(y, score, weight, pos_label)`` to hand to an
        in-memory function (one row per distinct score and class, a zero-weight
        row for a class present with no weight)."""
        t = self._table(ranges)
        if self._classes is None:
            raise ValueError("the accumulator has no rows yet: call update() first")
        scores = keys_to_floats(t.keys, np.empty_like(t.keys))
        if self._dtype is not None and self._dtype.kind == "f":
            scores = scores.astype(self._dtype)
        parts_s, parts_w, parts_c = [], [], []
        for cls, weights, n_rows in ((True, t.pos, self._rows[1]), (False, t.neg, self._rows[0])):
            keep = weights > 0
            if n_rows and not keep.any():
                keep = np.zeros(len(t), bool)
                keep[0] = True
            parts_s.append(scores[keep])
            parts_w.append(weights[keep])
            parts_c.append(np.full(int(np.count_nonzero(keep)), cls))
        is_pos = np.concatenate(parts_c)
        s = np.concatenate(parts_s)
        w = np.concatenate(parts_w)
        if self._pos_label is not None:
            return is_pos, s, w, True
        classes = self._classes
        y = np.where(is_pos, classes[-1], classes[0])
        return y, s, w, None

    def _call(self, fn, pos_label_default=None, uses_pos_label=True, ranges=False, **kwargs):
        y, s, w, pos = self._rows_of(ranges)
        if uses_pos_label:
            kwargs["pos_label"] = pos_label_default if pos is None else pos
        return fn(y, s, sample_weight=w, **kwargs)

    def roc_auc(self, max_fpr=None) -> float:
        """``roc_auc_score`` of the rows seen (``max_fpr``: McClish's
        standardised partial AUC).  Once a bounded accumulator merged scores
        into ranges: the midpoint of :meth:`auc_bounds`.  ``roc_auc_score``'s
        float for the rows in the order added, to the last bit: unweighted, and
        weighted while the rows are sorted at once (under 2**23 in all); tables
        sorted apart (or restored by :meth:`from_bytes`) add tied weights batch by
        batch, another rounding."""
        if max_fpr is None and not self.exact:
            low, high = self.auc_bounds()
            if low == low:  # both classes have weight
                return 0.5 * (low + high)
            return float(self._call(roc_auc_score, uses_pos_label=False, ranges=True))
        done = self._sweep() if max_fpr is None else None
        if done is not None:
            return float(done[1].auc if self._auc is None else self._auc)
        return float(self._call(roc_auc_score, uses_pos_label=False, max_fpr=max_fpr))

    def auc_bounds(self):
        """``(low, high)``: certified bounds of the ROC AUC of the rows seen.

        ``low`` counts every positive-negative pair ordered by the table (in
        different ranges, or tied on one score, one half) and ``high`` adds
        the pairs inside ranges of several scores, the only unknown ones.
        Equal while the table is exact; NaN when a class has no weight.
        """
        state = self._state()
        if isinstance(state, Cells) and not state.exact:
            return state.auc_bounds()
        auc = self.roc_auc()
        return auc, auc

    def average_precision(self) -> float:
        """``average_precision_score`` of the rows seen."""
        done = self._sweep()
        binary01 = self._classes is not None and \
            self._classes.tolist() in ([0, 1], [-1, 1], [False, True])
        if done is not None and (self._pos_label is not None or binary01):
            if self._ap is not None:
                return self._ap
            if not self._weighted:  # counts: cut where the in-memory sweep cuts
                sw = done[0].sweep_as_rows()
                return float(max(0.0, sw.ap_num / sw.tp))
            return float(max(0.0, done[1].average_precision))
        return float(self._call(average_precision_score, pos_label_default=1))

    def roc_curve(self, drop_intermediate=True):
        """``roc_curve``: ``(fpr, tpr, thresholds)``."""
        return self._call(roc_curve, ranges=True, drop_intermediate=drop_intermediate)

    def precision_recall_curve(self, drop_intermediate=False):
        """``precision_recall_curve``: ``(precision, recall, thresholds)``."""
        return self._call(precision_recall_curve, ranges=True,
                          drop_intermediate=drop_intermediate)

    def det_curve(self, drop_intermediate=False):
        """``det_curve``: ``(fpr, fnr, thresholds)``."""
        return self._call(det_curve, ranges=True, drop_intermediate=drop_intermediate)

    def log_loss(self) -> float:
        """``log_loss`` of the rows seen (the scores must be probabilities of
        the positive class)."""
        return float(self._call(log_loss, uses_pos_label=False))

    def roc_auc_ci(self, confidence_level=0.95, transform=None):
        """DeLong's interval of the AUC (``roc_auc_ci(method="delong")``); the
        bootstrap needs the rows, which an accumulator does not keep."""
        return self._call(roc_auc_ci, uses_pos_label=False, method="delong",
                          confidence_level=confidence_level, transform=transform)

    def delong_test(self, other, alternative="two-sided", confidence_level=0.95, margin=0.0):
        """DeLong's unpaired test of this AUC against ``other``'s (an
        accumulator or a :class:`Window` of other rows: two periods, two
        windows of a stream): :func:`delong_test` with ``y_true_b=``, pROC's
        test, on the two sets of rows.  The bootstrap needs the rows."""
        if not isinstance(other, Accumulator):
            raise TypeError(f"delong_test compares with an Accumulator or a Window, got "
                            f"{type(other).__name__}")
        y, s, w, pos = self._rows_of()
        yb, sb, wb, _ = other._rows_of()
        if pos is None:  # both sides' labels to one positive class: this one's rule
            positive = self._positive_of(self._classes)
            y, yb = y == positive, yb == positive
        return delong_test(y, s, sb, y_true_b=yb, sample_weight=w, sample_weight_b=wb,
                           alternative=alternative, confidence_level=confidence_level,
                           margin=margin)

    def bootstrap_test(self, other, *, n_resamples=1000, confidence_level=0.95,
                       method="percentile", stratified=None, alternative="two-sided",
                       random_state=None, scheme="multinomial", margin=0.0):
        """The unpaired bootstrap test of this AUC against ``other``'s (an
        accumulator or a :class:`Window` of other rows): :func:`bootstrap_test`
        with ``y_true_b=``, pROC's unpaired bootstrap, each side's rows
        resampled on their own.

        The rows resampled: a window's own (``rows=``, ``batches=`` and
        ``span=`` windows keep them), else the table's, each score's count
        per class repeated (the rows seen, when unweighted).  Weighted rows
        summed per score (an accumulator's, a decaying window's) cannot be
        resampled as rows: ``ValueError`` (:meth:`delong_test` needs none).

        Examples
        --------
        >>> import numpy as np
        >>> from fastauc import Accumulator
        >>> rng = np.random.default_rng(0)
        >>> y1, y2 = rng.integers(0, 2, 500), rng.integers(0, 2, 500)
        >>> old = Accumulator().update(y1, y1 + rng.normal(size=500))
        >>> new = Accumulator().update(y2, y2 + 2 * rng.normal(size=500))
        >>> res = old.bootstrap_test(new, random_state=0)
        >>> bool(res.pvalue < 0.01), round(res.difference, 3)
        (True, 0.179)
        """
        if not isinstance(other, Accumulator):
            raise TypeError(f"bootstrap_test compares with an Accumulator or a Window, got "
                            f"{type(other).__name__}")
        a, b = self._resampled_rows(), other._resampled_rows()
        return bootstrap_test(a[0], a[1], b[1], y_true_b=b[0], sample_weight=a[2],
                              sample_weight_b=b[2], n_resamples=n_resamples,
                              confidence_level=confidence_level, method=method,
                              stratified=stratified, alternative=alternative,
                              random_state=random_state, scheme=scheme, margin=margin)

    def _kept_rows(self):
        """The rows themselves, where they are kept (a :class:`Window`'s)."""
        return None

    def _resampled_rows(self):
        """``(is_pos, score, weight or None)``: the rows a bootstrap resamples."""
        if self._classes is None:
            raise ValueError("the accumulator has no rows yet: call update() first")
        kept = self._kept_rows()
        if kept is not None:
            return kept
        y, s, w, pos = self._rows_of()
        if self._weighted:  # known once the table is read (a window's)
            raise ValueError(
                "bootstrap_test resamples rows, and this accumulator of weighted rows keeps "
                "only their weights summed per score (as a decaying window does): use "
                "delong_test, or fastauc.bootstrap_test on the rows")
        is_pos = y if pos is not None else y == self._positive_of(self._classes)
        counts = w.astype(np.int64)  # unweighted: each score's rows per class, exact
        return np.repeat(is_pos, counts), np.repeat(s, counts), None

    def mann_whitney_u(self, alternative="two-sided", use_continuity=True, method="auto"):
        """``mann_whitney_u`` of the rows seen."""
        return self._call(mann_whitney_u, uses_pos_label=False, alternative=alternative,
                          use_continuity=use_continuity, method=method)

    def threshold_metrics(self):
        """``threshold_metrics``: the confusion matrix at every distinct threshold."""
        return self._call(threshold_metrics, ranges=True)

    def best_threshold(self, metric="f1", beta=1.0, cost_fp=None, cost_fn=None):
        """``best_threshold`` of the rows seen."""
        return self._call(best_threshold, ranges=True, metric=metric, beta=beta,
                          cost_fp=cost_fp, cost_fn=cost_fn)

    def partial_auc(self, fpr_range=None, tpr_range=None, correct=False):
        """``partial_auc`` of the rows seen."""
        return self._call(partial_auc, fpr_range=fpr_range, tpr_range=tpr_range,
                          correct=correct)

    def coords(self, x="all", input="threshold", ret=("threshold", "specificity", "sensitivity"),
               best_method="youden", best_weights=(1.0, 0.5)):
        """:func:`fastauc.coords` of the rows seen (pROC's coordinates)."""
        return self._call(coords, x=x, input=input, ret=ret, best_method=best_method,
                          best_weights=best_weights)

    def coords_ci(self, x, input="threshold", ret=None, method="wilson", confidence_level=0.95,
                  best_method="youden", best_weights=(1.0, 0.5)):
        """:func:`fastauc.coords_ci` of the rows seen, by a binomial method
        (``"wilson"``, ``"clopper-pearson"``, ``"agresti-coull"``): the
        bootstrap needs the rows, which an accumulator does not keep."""
        if method == "bootstrap":
            raise ValueError("coords_ci(method='bootstrap') needs the rows, which an "
                             "Accumulator does not keep: use a binomial method ('wilson', "
                             "'clopper-pearson', 'agresti-coull') or fastauc.coords_ci on "
                             "the rows")
        return self._call(coords_ci, x=x, input=input, ret=ret, method=method,
                          confidence_level=confidence_level, best_method=best_method,
                          best_weights=best_weights)

    def brier_score_loss(self) -> float:
        """``brier_score_loss`` of the rows seen (the scores must be
        probabilities of the positive class)."""
        return float(self._call(brier_score_loss))

    def calibration_error(self, n_bins=15, norm="l1") -> float:
        """``calibration_error`` (torchmetrics' binned ECE, RMS or MCE) of the rows seen."""
        return float(self._call(calibration_error, uses_pos_label=False, n_bins=n_bins,
                                norm=norm))

    def calibration_curve(self, n_bins=5, strategy="uniform"):
        """``calibration_curve``: ``(prob_true, prob_pred)`` of the rows seen
        (``reliability_curve``'s bins, which take the table's weights)."""
        r = self.reliability_curve(method=strategy, n_bins=n_bins)
        return r.prob_true, r.prob_pred

    def reliability_curve(self, method="isotonic", n_bins=10):
        """``reliability_curve`` (CORP's PAV fit, or bins) of the rows seen."""
        return self._call(reliability_curve, method=method, n_bins=n_bins)

    def brier_decomposition(self):
        """``brier_decomposition`` (CORP) of the rows seen."""
        return self._call(brier_decomposition)

    def report(self, confidence_level=0.95, name=None):
        """``report`` of one model (DeLong's interval), with the rows seen."""
        rep = self._call(report, names=None if name is None else [name],
                         confidence_level=confidence_level)
        return dataclasses.replace(rep, n_samples=self.n_samples, weighted=self._weighted)
