"""Windows that forget exactly: the metrics of the last rows, batches or
time span of a stream, and exponential decay.

A :class:`Window` keeps each batch's distinct-score table (and its rows, to
expire the oldest of them) instead of one merged table.  Twice the ROC area
of the window is the sum of each batch's own and of the twice-areas of the
pairs across every two batches, so a new batch adds one merge walk per batch
in the window, an expired batch takes its terms away, and the AUC is a sum
of those terms: no re-sorting and no merge of the window's tables.  Every
other result merges the window's tables into one and reads it as
:class:`Accumulator` does.  See ``docs/guide/monitoring.md``.
"""

from __future__ import annotations

import json
import math
import struct
import zlib

import numpy as np

from . import _validation as v
from ._label_codec import decode_classes, decode_label, encode_classes, encode_label
from ._window_state import (Crosses, decode_spec, duration, encode_spec, joined, keep_rows,
                            kept_rows, make_segment, merged_table, swapped, table_segment,
                            time_values)
from ._accumulator_state import _unique_union
from .accumulator import Accumulator

__all__ = ["Window"]

MAGIC = b"\x89FAUCWIN"  #: the first 8 bytes of ``Window.to_bytes()``
FORMAT_VERSION = 1
_PREFIX = struct.Struct("<8sHHI")
_CRC = struct.Struct("<I")
_SMALL = 256  # batches of fewer rows wait (with one-row updates) and are sorted together
_WAIT = 1 << 14  # rows waiting at most
_MAX_SEGMENTS = 96  # then the two oldest segments are joined
_NEGLIGIBLE = 2.0 ** -100  # a decayed segment's scale below which it is dropped
_SCALARS = (int, float, bool, np.integer, np.floating, np.bool_)
_LABELS = (int, float, bool, str, np.integer, np.floating, np.bool_, np.str_)


class Window(Accumulator):
    """The binary ranking metrics of the last rows, batches or time span of a
    stream, or of all rows with exponentially decaying weights.

    Parameters
    ----------
    rows : int, default=None
        Keep the last ``rows`` rows.
    batches : int, default=None
        Keep the rows of the last ``batches`` calls to :meth:`update` (a
        one-row update is a batch).
    span : float, timedelta, numpy.timedelta64 or str, default=None
        Keep the rows whose time is within ``span`` of the latest time seen:
        those with ``time > latest - span``.  :meth:`update` then takes
        ``time=``; a time delta (or a string pandas reads, ``"7D"``) for
        datetime times, a number for numeric times.
    half_life : float, timedelta, numpy.timedelta64 or str, default=None
        Exponential decay: a row's weight is multiplied by
        ``2 ** (-age / half_life)``, its age in the window's unit (rows
        added after its batch, batches after it, or time before the latest);
        with none of ``rows``, ``batches``, ``span``, in rows, or in time
        when ``half_life`` is a time delta.
    pos_label : int, float, bool or str, default=None
        The positive class (None: the greater of the labels seen, as
        :class:`Accumulator`).

    Attributes
    ----------
    n_samples : int
        Rows in the window now.
    parameters : dict
        ``rows``, ``batches``, ``span`` and ``half_life`` as given.

    See Also
    --------
    Accumulator : All rows, mergeable: the same results.
    expected_roc_auc : The AUC expected before the labels arrive.

    Notes
    -----
    Every result equals the in-memory function's on the rows in the window
    (with their decayed weights): the AUC from the batches' own and cross
    areas (the same float as :func:`roc_auc_score` for unweighted rows: both
    are sums of whole numbers), the other results from the window's tables
    merged into one.  Batches of fewer than 256 rows (and one-row updates)
    wait and are sorted together when a result is asked or 16,384 rows
    wait.  An update costs one sort of the batch and one merge walk per batch
    in the window; expiring part of a batch (a window of rows that does not
    fall on batch boundaries, or a span that cuts a batch) sorts the rest of
    that batch again.  The rows in the window are kept (33 bytes a row) to
    expire them; a decaying window without a size keeps only tables, joining
    the oldest when there are many, and drops batches whose weight has
    decayed below ``2**-100`` of the latest.

    Examples
    --------
    >>> import numpy as np
    >>> from fastauc import Window, roc_auc_score
    >>> rng = np.random.default_rng(0)
    >>> y, s = rng.integers(0, 2, 5000), rng.normal(size=5000)
    >>> w = Window(rows=2000)
    >>> for a in range(0, 5000, 500):
    ...     _ = w.update(y[a:a + 500], s[a:a + 500])
    >>> w.n_samples, w.roc_auc() == roc_auc_score(y[-2000:], s[-2000:])
    (2000, True)
    >>> days = Window(span=np.timedelta64(7, "D"))
    >>> t = np.datetime64("2026-01-01") + np.arange(5000) // 100 * np.timedelta64(1, "D")
    >>> _ = days.update(y, s, time=t)
    >>> days.n_samples  # the last 7 days of 100 rows
    700
    """

    def __init__(self, rows=None, batches=None, span=None, half_life=None, pos_label=None):
        given = [(n, x) for n, x in (("rows", rows), ("batches", batches), ("span", span))
                 if x is not None]
        if len(given) > 1:
            raise ValueError(f"give one of rows, batches and span, got {[n for n, _ in given]}")
        self._unit, self._size, self._kind = None, None, "f"
        if given:
            name, x = given[0]
            self._unit = {"rows": "rows", "batches": "batches", "span": "time"}[name]
            if name == "span":
                self._size, self._kind = duration(x, "span")
                if self._kind == "M":
                    self._size = int(self._size)  # nanoseconds, compared exactly
            else:
                if isinstance(x, bool) or not isinstance(x, (int, np.integer)) or x < 1:
                    raise ValueError(f"{name} must be a positive integer, got {x!r}")
                self._size = float(x)
        self._half = None
        if half_life is not None:
            h, kind = duration(half_life, "half_life")
            if self._unit is None:
                self._unit, self._kind = ("time", kind) if kind == "M" else ("rows", "f")
            elif kind == "M" and self._kind != "M":
                raise ValueError("half_life is a time delta but the window is not a span of "
                                 "datetimes")
            self._half = h
        if self._unit is None:
            raise ValueError("give rows, batches, span or half_life (for all rows, "
                             "undecayed, use Accumulator)")
        self._spec = (rows, batches, span, half_life)
        super().__init__(pos_label)

    # ------------------------------------------------------------ state

    def reset(self) -> Window:
        """Forget every row (the parameters stay)."""
        super().reset()
        self._segments = []
        self._known = set()
        self._crosses = Crosses()
        self._wait = []  # (y, score, weight or None, time or None) chunks
        # one-row updates, a run of them: labels, scores, weights (None: unit) and times
        self._one = [[], [], None, None]
        self._one_start = (0, 0)  # the rows and batches seen before the run
        self._stamps = []  # the waiting chunks' clocks
        self._seen = 0  # rows ever added
        self._n_batches = 0
        self._now = -math.inf  # the latest time
        self._time_kind = None
        self._merged = None
        self._any_weights = False
        return self

    def __repr__(self) -> str:
        n_wait = self._waiting()
        return (f"Window({self._describe()}): {self.n_samples:,} rows in "
                f"{len(self._segments)} batch(es), {n_wait:,} rows waiting")

    def _describe(self):
        names = ("rows", "batches", "span", "half_life")
        return ", ".join(f"{n}={x!r}" for n, x in zip(names, self._spec) if x is not None)

    @property
    def n_samples(self) -> int:
        self._commit()
        return int(sum(s.n for s in self._segments))

    @property
    def parameters(self):
        """The window's parameters: ``{"rows": ..., "batches": ..., "span": ...,
        "half_life": ...}`` (None where not given)."""
        return dict(zip(("rows", "batches", "span", "half_life"), self._spec))

    def _clock(self):
        """The decay clock now (the latest row, batch or time)."""
        if self._unit == "rows":
            return float(self._seen - 1)
        if self._unit == "batches":
            return float(self._n_batches - 1)
        return float(self._now)

    def _scales(self):
        if self._half is None:
            return [1.0] * len(self._segments)
        now = self._clock()
        return [float(np.exp2(-(now - s.ref) / self._half)) for s in self._segments]

    # ------------------------------------------------------------ update

    def update(self, y_true, y_score, sample_weight=None, time=None) -> Window:
        """Add a batch of rows (or one row: scalars); returns ``self``.

        ``time`` (a span or a time half-life): each row's time, or one for
        the batch; datetimes (numpy, pandas, ``datetime``) or numbers.  A
        batch that fails the checks raises and leaves the window as it was.
        """
        if time is None:
            if self._unit == "time":
                raise ValueError(f"this window ({self._describe()}) needs each row's time: "
                                 "update(y_true, y_score, time=...)")
            if type(y_score) in _SCALARS and type(y_true) in _LABELS:
                one = self._one
                if sample_weight is None and one[2] is None and y_true in self._known:
                    # the common one-row update: a known label, no weight
                    s = float(y_score)
                    if s - s == 0.0 and one[0]:
                        one[0].append(y_true)
                        one[1].append(s)
                        self._n_batches += 1
                        self._seen += 1
                        if len(one[0]) >= _WAIT:
                            self._commit()
                        return self
                return self._update_one(y_true, y_score, sample_weight, None)
        elif self._unit != "time":
            raise ValueError(f"time= applies to a window of a span or a time half_life, not "
                             f"to this one ({self._describe()})")
        elif type(y_score) in _SCALARS and type(y_true) in _LABELS and np.ndim(time) == 0:
            return self._update_one(y_true, y_score, sample_weight, time)
        y = v.as_label_array(y_true, allow_empty=True)
        if y.ndim != 1:
            raise ValueError(f"y_true must be 1-D (one label per row), got shape {y.shape}")
        raw = v.as_array(y_score, "y_score")
        if y.shape[0] == 0 and raw.shape[:1] == (0,) and raw.ndim == 1:
            v.check_batch_weights(sample_weight, 0)
            return self
        s = v.as_float_array(raw, "y_score")
        n = v.check_lengths(y_true=y, y_score=s)
        w = v.check_batch_weights(sample_weight, n)
        if not np.isfinite(s).all():
            v.raise_non_finite("y_score", s)
        t = None
        if time is not None:
            t, kind = time_values(time, n)
            self._check_time_kind(kind)
        classes = _unique_union(self._classes, v.unique_labels(y))
        self._positive_of(classes)  # a third label raises, before any change
        self._add_classes(classes)
        self._dtype = raw.dtype if self._dtype is None else np.result_type(self._dtype,
                                                                           raw.dtype)
        chunk = (y, s.copy(), w.copy() if w.shape[0] else None, t)
        self._any_weights |= w.shape[0] > 0
        if n >= _SMALL:
            self._commit()
            self._push([chunk], big=True)
        else:
            self._flush_one()  # the rows wait in their order
            self._wait.append(chunk)
            self._n_batches += 1
            self._seen += n
            self._stamp_wait(n)
            if self._waiting() >= _WAIT:
                self._commit()
        return self

    def _update_one(self, y, s, sample_weight, time):
        s = float(s)
        if s - s != 0.0:  # NaN or infinite
            raise ValueError(f"y_score contains {'NaN' if s != s else 'infinity'}: 1 NaN or "
                             "infinite value, at index 0")
        if y != y:
            raise ValueError("Input y_true contains NaN.")
        one = self._one
        w = None
        if sample_weight is not None:
            w = float(sample_weight)
            if not (math.isfinite(w) and w >= 0):
                raise ValueError(f"sample_weight must be a finite number >= 0, got "
                                 f"{sample_weight!r}")
        t = None
        if time is not None:
            tv, kind = time_values(time, 1)
            self._check_time_kind(kind)
            t = tv[0].item()
        if self._classes is None or y not in self._known:
            classes = _unique_union(self._classes, v.unique_labels(np.asarray([y])))
            self._positive_of(classes)
            self._add_classes(classes)
            if self._dtype is None:
                self._dtype = np.dtype(np.float64)
        labels = one[0]
        if not labels:
            self._one_start = (self._seen, self._n_batches)
        if w is not None:
            if one[2] is None:
                one[2] = [1.0] * len(labels)
            one[2].append(w)
            self._any_weights = True
        elif one[2] is not None:
            one[2].append(1.0)
        if t is not None:
            if one[3] is None:
                one[3] = []
            one[3].append(t)
            self._now = max(self._now, t)
        labels.append(y)
        one[1].append(s)
        self._n_batches += 1
        self._seen += 1
        if len(labels) >= _WAIT:
            self._commit()
        return self

    def _flush_one(self):
        """The run of one-row updates as a waiting chunk, with its clocks."""
        labels, scores, weights, times = self._one
        if not labels:
            return
        k = len(labels)
        y = np.asarray(labels)
        if y.dtype.kind == "O":
            y = v.as_label_array(labels)
        seen0, batch0 = self._one_start
        t = None
        if self._unit == "rows":
            ec = np.arange(seen0, seen0 + k, dtype=np.float64)
        elif self._unit == "batches":
            ec = np.arange(batch0, batch0 + k, dtype=np.float64)
        else:
            t = np.asarray(times)
            ec = t.astype(np.float64) if self._time_kind == "f" else t.astype(np.int64)
        dc = None if self._half is None else ec.astype(np.float64)
        self._wait.append((y, np.asarray(scores, np.float64),
                           None if weights is None else np.asarray(weights, np.float64), t))
        self._stamps.append((ec, dc))
        self._one = [[], [], None, None]

    def _check_time_kind(self, kind):
        if self._kind == "M" and kind != "M":
            raise TypeError("this window's span is a time delta: time must be datetimes")
        if self._kind == "f" and kind == "M":
            raise TypeError("time holds datetimes: give span (and half_life) as a time "
                            "delta, e.g. numpy.timedelta64(7, 'D') or '7D'")
        if self._time_kind is not None and kind != self._time_kind:
            raise TypeError("time must be all datetimes or all numbers")
        self._time_kind = kind

    def _add_classes(self, classes):
        old = self._classes
        self._classes = classes
        self._known = set(classes.tolist())
        if old is not None and self._pos_label is None and old[-1] != classes[-1]:
            self._flip()

    def _flip(self):
        """A greater label arrived (``pos_label=None``): the positives so far
        are negatives now; every table and term is made again (the waiting
        rows then take their classes from the new labels)."""
        chunks, stamps = self._commit_rows()
        old = self._segments
        self._segments = []
        self._crosses = Crosses()
        for seg in old:
            new = swapped(seg, self._half)
            self._crosses.add(new, self._segments)
            self._segments.append(new)
        self._merged = None
        if chunks:
            self._push(chunks, stamps=stamps)

    # clocks of waiting rows: (expiry clock, decay clock) per chunk, made as they arrive
    def _stamp_wait(self, n):
        self._stamps.append(self._clocks(n, self._wait[-1][3]))

    def _clocks(self, n, t):
        """Expiry and decay clocks of the ``n`` rows just counted in."""
        if t is not None:
            self._now = max(self._now, t.max().item())  # datetimes: int nanoseconds
        if self._unit == "rows":
            ec = np.arange(self._seen - n, self._seen, dtype=np.float64)
            dc = np.full(n, float(self._seen - 1))
        elif self._unit == "batches":
            ec = np.full(n, float(self._n_batches - 1))
            dc = ec
        else:
            ec = t.astype(np.float64) if t.dtype.kind == "f" else t.astype(np.int64)
            dc = t.astype(np.float64)
        return ec, (dc if self._half is not None else None)

    def _waiting(self):
        return sum(c[0].shape[0] for c in self._wait) + len(self._one[0])

    def _push(self, chunks, big=False, stamps=None):
        """Make one segment of the chunks' rows and add it."""
        if big:
            y, s, w, t = chunks[0]
            self._n_batches += 1
            self._seen += y.shape[0]
            stamps = [self._clocks(y.shape[0], t)]
        ys = np.concatenate([c[0] for c in chunks]) if len(chunks) > 1 else chunks[0][0]
        ss = np.concatenate([c[1] for c in chunks]) if len(chunks) > 1 else chunks[0][1]
        if any(c[2] is not None for c in chunks):
            ws = np.concatenate([c[2] if c[2] is not None else np.ones(c[0].shape[0])
                                 for c in chunks])
        else:
            ws = v.EMPTY_WEIGHT
        ec = np.concatenate([st[0] for st in stamps])
        dc = None if self._half is None else np.concatenate([st[1] for st in stamps])
        is_pos = v.positive_mask(ys, self._positive_of(self._classes))
        seg = make_segment(is_pos, ss, ws, ec, dc, self._half,
                           keep_rows=self._size is not None)
        self._crosses.add(seg, self._segments)
        self._segments.append(seg)
        self._merged = None
        self._expire()
        self._compact()

    def _commit_rows(self):
        """The waiting rows as one segment (no expiry)."""
        self._flush_one()
        chunks, stamps = self._wait, self._stamps
        self._wait = []
        self._stamps = []
        return chunks, stamps

    def _commit(self):
        if not self._wait and not self._one[0]:
            return
        chunks, stamps = self._commit_rows()
        # weights: a chunk without them next to one with them counts 1 a row
        self._push(chunks, stamps=stamps)

    def _expire(self):
        if self._size is None:
            self._drop_negligible()
            return
        if self._unit == "rows":
            cut, strict = self._seen - self._size, False  # keep clock >= cut
        elif self._unit == "batches":
            cut, strict = self._n_batches - self._size, False
        else:
            cut, strict = self._now - self._size, True  # keep clock > cut
        kept = []
        changed = False
        for i, seg in enumerate(self._segments):
            if (seg.low() > cut) if strict else (seg.low() >= cut):  # every row stays
                kept.append(seg)
                continue
            keep = seg.rows[3] > cut if strict else seg.rows[3] >= cut
            changed = True
            self._crosses.give(seg.slot)
            if keep.any():
                new = keep_rows(seg, keep, self._half)
                # its crosses: with the segments kept so far and those not yet looked at
                self._crosses.add(new, kept + self._segments[i + 1:])
                kept.append(new)
        if changed:
            self._segments = kept
            self._merged = None

    def _drop_negligible(self):
        if self._half is None:
            return
        scales = self._scales()
        gone = [s for s, f in zip(self._segments, scales) if f < _NEGLIGIBLE]
        for s in gone:
            self._crosses.give(s.slot)
        if gone:
            self._segments = [s for s, f in zip(self._segments, scales) if f >= _NEGLIGIBLE]
            self._merged = None

    def _compact(self):
        """Join the two oldest batches while there are too many: a decaying
        window without a size only (a window of a size expires its oldest
        batches, and a joined batch would be cut and sorted again)."""
        limit = _MAX_SEGMENTS if self._size is None else 16 * _MAX_SEGMENTS
        while len(self._segments) > limit:
            a, b = self._segments[0], self._segments[1]
            merged, fa = joined(a, b, self._half, float(self._crosses.C[a.slot, b.slot]))
            rest = self._segments[2:]
            self._crosses.combine(a, b, fa, merged, rest)
            self._segments = [merged] + rest
            self._merged = None

    # ------------------------------------------------------------ the state read

    def _state(self):
        self._commit()
        if self._merged is None:
            self._merged = merged_table(self._segments, self._scales())
            n_pos = sum(s.n_pos for s in self._segments)
            self._rows = [sum(s.n_neg for s in self._segments), n_pos]
            self._weighted = self._any_weights or self._half is not None
            self._levels = [self._merged] if len(self._merged) else []
            self._auc = self._ap = None
        return self._merged

    def _kept_rows(self):
        return kept_rows(self._segments, self._half)

    def subtract(self, other):
        raise TypeError("a Window forgets its oldest rows itself: subtract is an Accumulator's")

    def accumulator(self) -> Accumulator:
        """An :class:`Accumulator` of the rows in the window now (their decayed
        weights): to keep them, merge them, or save them with ``to_bytes``."""
        table = self._state()
        acc = Accumulator(self._pos_label)
        if self._classes is not None and len(table):
            acc._levels = [table]
            acc._classes = self._classes
            acc._rows = list(self._rows)
            acc._weighted = self._weighted
            acc._dtype = self._dtype
        return acc

    def roc_auc(self, max_fpr=None) -> float:
        """``roc_auc_score`` of the rows in the window (with their decayed
        weights), from the batches' own and cross areas (``max_fpr``: from
        the merged table)."""
        self._commit()
        if max_fpr is None:
            area2, P, N = self._crosses.totals(self._segments, self._scales())
            if P > 0 and N > 0:
                return float(area2 / (2.0 * P * N))
        return super().roc_auc(max_fpr)

    # ------------------------------------------------------------ merging, bytes

    def merge(self, other: Window) -> Window:
        """Add the rows of ``other``'s window (a window of the same span or
        decaying by time, with the same parameters), aligned on time; returns
        ``self``.  Windows of rows or batches have no common order of their
        rows and raise: merge their :meth:`accumulator` instead."""
        if not isinstance(other, Window):
            raise TypeError(f"can only merge a Window, got {type(other).__name__}")
        if self._unit != "time" or (other._unit, other._size, other._kind, other._half) != (
                self._unit, self._size, self._kind, self._half):
            raise ValueError("only windows of the same span (or time half_life) merge: their "
                             "rows line up by time; for windows of rows or batches merge "
                             "window.accumulator() into an Accumulator")
        if other._pos_label != self._pos_label:
            raise ValueError(f"cannot merge windows with different pos_label "
                             f"({self._pos_label!r} and {other._pos_label!r})")
        other._commit()
        self._commit()
        if other._classes is None:
            return self
        if self._time_kind is not None and other._time_kind != self._time_kind:
            raise TypeError("time must be all datetimes or all numbers")
        classes = _unique_union(self._classes, other._classes)
        self._positive_of(classes)
        positive = self._positive_of(classes)
        self._add_classes(classes)
        flip = self._pos_label is None and other._classes[-1] != positive
        self._time_kind = other._time_kind
        self._now = max(self._now, other._now)
        for seg in other._segments:
            if flip:
                new = swapped(seg, self._half)
            elif seg.rows is not None:  # its own rows and table, new crosses
                new = make_segment(*seg.rows, self._half)
            else:
                new = table_segment(seg.table, seg.n_pos, seg.n_neg, seg.ref)
            self._crosses.add(new, self._segments)
            self._segments.append(new)
        self._any_weights |= other._any_weights
        self._dtype = other._dtype if self._dtype is None else np.result_type(self._dtype,
                                                                              other._dtype)
        self._merged = None
        self._expire()
        self._compact()
        return self

    def to_bytes(self) -> bytes:
        """The window (its parameters, batches and clocks) in fastauc's
        versioned binary format."""
        self._commit()
        segs = []
        arrays = []
        for seg in self._segments:
            t = seg.table
            meta = {"keys": len(t), "ref": seg.ref, "rows": None}
            arrays += [t.keys.astype("<u8"), t.pos.astype("<f8"), t.neg.astype("<f8")]
            if seg.rows is not None:
                is_pos, s, w, ec, dc = seg.rows
                meta["rows"] = int(is_pos.shape[0])
                meta["weights"] = bool(w.shape[0])
                meta["decay"] = dc is not None
                meta["clock"] = ec.dtype.str[1:]
                arrays += [is_pos.astype("u1"), s.astype("<f8")]
                arrays += [w.astype("<f8")] if w.shape[0] else []
                arrays += [ec.astype("<" + ec.dtype.str[1:])]
                arrays += [dc.astype("<f8")] if dc is not None else []
            else:
                meta.update(n_pos=seg.n_pos, n_neg=seg.n_neg)
            segs.append(meta)
        header = {
            "spec": [encode_spec(x) for x in self._spec],
            "pos_label": encode_label(self._pos_label),
            "classes": encode_classes(self._classes),
            "dtype": None if self._dtype is None else self._dtype.str,
            "seen": self._seen, "n_batches": self._n_batches,
            "now": None if self._now == -math.inf else self._now,
            "time_kind": self._time_kind, "weights": self._any_weights,
            "segments": segs,
        }
        head = json.dumps(header, separators=(",", ":"), sort_keys=True).encode()
        body = b"".join([_PREFIX.pack(MAGIC, FORMAT_VERSION, 0, len(head)), head]
                        + [a.tobytes() for a in arrays])
        return body + _CRC.pack(zlib.crc32(body))

    @classmethod
    def from_bytes(cls, data) -> Window:
        """A window from :meth:`to_bytes`' output, validated (a truncated,
        corrupted or newer state raises ``ValueError``)."""
        try:
            buf = memoryview(data).cast("B")
        except TypeError:
            raise TypeError(f"from_bytes needs a bytes-like object, got "
                            f"{type(data).__name__}") from None
        if buf.nbytes < _PREFIX.size + _CRC.size:
            raise ValueError("not a fastauc Window state: too short (truncated?)")
        magic, version, flags, head_len = _PREFIX.unpack_from(buf, 0)
        if magic != MAGIC:
            raise ValueError("not a fastauc Window state (wrong magic bytes)")
        if version > FORMAT_VERSION:
            raise ValueError(f"this Window state has format version {version}, newer than "
                             f"this fastauc reads ({FORMAT_VERSION}): upgrade fastauc")
        (crc,) = _CRC.unpack_from(buf, buf.nbytes - _CRC.size)
        if zlib.crc32(buf[:buf.nbytes - _CRC.size]) != crc:
            raise ValueError("corrupted or truncated Window state (checksum mismatch)")
        try:
            header = json.loads(bytes(buf[_PREFIX.size:_PREFIX.size + head_len]))
            win = cls(*[decode_spec(x) for x in header["spec"]],
                      pos_label=decode_label(header["pos_label"]))
            win._classes = decode_classes(header["classes"])
            win._known = set() if win._classes is None else set(win._classes.tolist())
            win._dtype = None if header["dtype"] is None else np.dtype(header["dtype"])
            win._seen, win._n_batches = int(header["seen"]), int(header["n_batches"])
            win._now = -math.inf if header["now"] is None else header["now"]
            win._time_kind, win._any_weights = header["time_kind"], bool(header["weights"])
            at = _PREFIX.size + head_len
            end = buf.nbytes - _CRC.size

            def take(dtype, m):
                nonlocal at
                size = np.dtype(dtype).itemsize * m
                if at + size > end:
                    raise ValueError("the arrays run past the end")
                a = np.frombuffer(buf, dtype, m, at).astype(np.dtype(dtype).newbyteorder("="))
                at += size
                return a

            from ._table import Table
            for meta in header["segments"]:
                m = int(meta["keys"])
                table = Table(take("<u8", m), take("<f8", m), take("<f8", m))
                if meta["rows"] is None:
                    seg = table_segment(table, int(meta["n_pos"]), int(meta["n_neg"]),
                                        float(meta["ref"]))
                else:
                    r = int(meta["rows"])
                    is_pos = take("u1", r).astype(bool)
                    s = take("<f8", r)
                    w = take("<f8", r) if meta["weights"] else v.EMPTY_WEIGHT
                    ec = take("<" + meta["clock"], r)
                    dc = take("<f8", r) if meta["decay"] else None
                    seg = make_segment(is_pos, s, w, ec, dc, win._half)
                win._crosses.add(seg, win._segments)
                win._segments.append(seg)
            if at != end:
                raise ValueError(f"{end - at} bytes left after the arrays")
        except (ValueError, KeyError, TypeError) as exc:
            raise ValueError(f"corrupted Window state ({exc})") from None
        return win

    def __reduce__(self):
        return (Window.from_bytes, (self.to_bytes(),))

    def __sizeof__(self) -> int:
        import sys

        held = 0
        for seg in self._segments:
            held += sys.getsizeof(seg.table)
            if seg.rows is not None:
                held += sum(a.nbytes for a in seg.rows if a is not None)
        return object.__sizeof__(self) + held + self._crosses.C.nbytes
