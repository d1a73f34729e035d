"""The one sort layer: "sort these scores by class, with or without a payload".

Every metric reaches the sort through :func:`sort_by_class`: the
distinct-score table (``_table``), the sweeps behind the ranking functions,
the row layouts of DeLong and the bootstrap (``_resample``) and the
multiclass one-vs-one pairs.  It returns each class's keys ascending (one run
per class) with the rows' weights and an optional integer payload (row
indices, group codes) permuted along; rows of weight zero are left out.

Two exact paths give the same runs, so nothing a caller computes depends on
which one ran:

- ``"radix"`` (the default, and the only one with weights or a payload): the
  rows bucketed by key range and each bucket radix-sorted in cache
  (``_kernels.sorting``).  The rows are counted and scattered in fixed row
  blocks (``_parallel.row_blocks``: up to 32, by the rows alone), a block's
  rows of a bucket following the blocks' before it, so the layout is the
  same for any number of threads; then the buckets, cut into row-balanced
  ranges (one per ``SORT_RANGE_ROWS`` rows, at least two from 2**16 rows on,
  no cap), are sorted a range at a time.  Blocks and ranges are taken in
  turn by however many threads there are (``_parallel.map_units``); they
  depend on the rows only, never on the threads.
- ``"numpy"``: the rows counted and scattered as for the radix path, into
  buckets of about ``NUMPY_BUCKET_ROWS`` rows, each sorted by ``np.sort``
  (numpy releases the GIL), the buckets taken in turn by the threads.  numpy's SIMD sorts (x86-simd-sort,
  Highway's VQSort) beat the radix sort on some CPUs and lose badly on
  others (AVX-512 on AMD Zen 4, whose compress-store is microcoded).

One caller needs no sorted run of the whole: the clustered DeLong variance
of unweighted rows (``_delong._bucket_sums``) has :func:`bucket_tagged`
count and scatter the rows as above, both classes into one segment a
bucket, each row's class and cluster id in a 32-bit tag, and sorts each
bucket as words of key bits and position (:func:`sort_bucket`) right before
it walks it in cache.

:func:`method` picks the path for unweighted keys without a payload: the
``FASTAUC_SORT`` environment variable (``radix`` or ``numpy``) when set,
otherwise a one-time timing of both on 2**20 rows, remembered per CPU,
numpy version, thread count and version of the two paths in a file beside
Numba's cache (both paths' units take every thread there is).
"""

from __future__ import annotations

import json
import os
import platform
import threading
import time
from pathlib import Path
from typing import NamedTuple

import numpy as np

from . import _validation as v
from ._kernels.sorting import (
    DIGIT_MAX,
    TABLE_ROWS,
    VALUE_ROWS,
    add_blocks,
    bin_counts,
    bucket_counts,
    group_counts,
    keys_to_floats,
    pack_keys,
    scatter_groups,
    scatter_rows,
    scatter_tagged,
    sort_packed,
    sort_segments,
    sort_small,
    tagged_counts,
    take_slots,
    widen_keys,
)
from ._kernels.periods import payload_of
from ._parallel import map_units, num_threads, row_blocks

__all__ = ["ClassRuns", "Placement", "TaggedBuckets", "bucket_tagged", "method", "sort_bucket",
           "sort_by_class", "sort_by_group"]

CHUNK_MIN = 1 << 16  # rows below which one thread does everything
DIRECT_ROWS = 1 << 20  # rows up to which sort_by_group carries row indices, not slots
# rows per range of segments the sorting threads take in turn
# (``map_units``; a thread held up by another library's spinning thread
# sorts fewer of them): about 20 microseconds of call per range
SORT_RANGE_ROWS = 1 << 17
BUCKET_ROWS = 1 << 15  # rows per bucket: a bucket and its scratch stay in L2
# rows per bucket of the numpy path: buckets cut in key ranges, each sorted by
# np.sort, taken in turn by the threads, so that a large class is sorted on
# all of them.  1e7 rows, 10% positives, 2 threads: one np.sort per class
# (the class on a thread) 142 ms; buckets of 2**17 rows 99 ms, 2**18 83 ms
# (the scatter into half as many buckets 41 -> 24 ms), 2**19 85 ms
NUMPY_BUCKET_ROWS = 1 << 18
SAMPLE_ROWS = 2048  # rows sampled to choose key or value bins
BINS = None  # "key" or "value" forces the kind of bins (tests); None: sampled
EMPTY_INTS = np.empty(0, np.int64)
METHODS = ("radix", "numpy")
PATHS_VERSION = 2  # a remembered choice between paths of another version is measured again


class ClassRuns(NamedTuple):
    """Each class's rows sorted by ascending key (``-0.0`` as ``+0.0``)."""

    pk: np.ndarray  # uint64 keys of the positives (``_kernels.sorting.float_key``)
    pw: np.ndarray  # their weights (empty when unweighted)
    px: np.ndarray  # their payload (empty without one)
    nk: np.ndarray  # the negatives' keys, weights and payload
    nw: np.ndarray
    nx: np.ndarray


class Placement(NamedTuple):
    """Where a sort put each row before sorting its segments: the payload of
    a sort with ``positions`` is each row's *slot* (its position then), and
    :meth:`to_rows` brings values computed per slot back to row order in one
    gather (each read requested well ahead) instead of writing each value to
    a random row.  For a sort in one bucket, and for one that carried the
    rows' indices, the slots are the rows (``slot_of`` None)."""

    slots: int  # rows of the array to_rows takes
    slot_of: np.ndarray | None  # each row's slot (-1: weight zero); None: the row itself

    def buffer(self, dtype=np.float64, interleaved=False):
        """``(out, at)``: a zeroed buffer for two values per slot and where
        they go (``_kernels.pairwise.put``: slot ``r``'s first value at
        ``r * at[0]``, its second ``at[1]`` further; ``at`` None: side by
        side, a layout the kernels are compiled for).  Side by side per slot
        (one cache line a slot for :meth:`to_rows`' gather), or, when the
        slots are the rows, the two columns back to back unless
        ``interleaved``: then :meth:`to_rows` returns them as they are, with
        no pass at all.  ``dtype``: float64, or float32 for the boosting
        libraries, which keep gradients in float32 (half the bytes for the
        kernels' scattered writes)."""
        at = (1, self.slots) if self.slot_of is None and not interleaved else None
        return np.zeros(2 * self.slots, dtype), at

    def to_rows(self, out, interleaved=False):
        """The two values of each row in row order, from :meth:`buffer`'s
        ``out`` (same ``interleaved``): two contiguous arrays, or, when the
        slots are the rows and ``interleaved``, two strided views of
        ``out``.  Rows of weight zero (in no run) get 0, or what their slot
        holds when the slots are the rows (a caller writing the runs' slots
        only leaves them at 0)."""
        m = self.slots
        if self.slot_of is None:
            return (out[0::2], out[1::2]) if interleaved else (out[:m], out[m:])
        n = self.slot_of.shape[0]
        a, b = np.empty(n, out.dtype), np.empty(n, out.dtype)
        src = out.reshape(m, 2)
        map_units(take_slots, [(self.slot_of[r0:r1], src, a[r0:r1], b[r0:r1])
                               for r0, r1 in row_blocks(n)])
        return a, b


def _bits(score):
    if score.dtype == np.float32:
        return score.view(np.uint32)
    return score.view(np.uint64)


def _bins(n: int) -> int:
    """Number of bins: about one per 1,024 rows, a power of two from 2 to
    2**16 (at least 2, so that the shift stays below 64): fine enough to cut
    buckets of ``BUCKET_ROWS``, few enough for each row block's histogram
    (8 bytes a bin) to stay in L2 and to be added up in a few milliseconds
    at 1e7 rows (one per 256 rows, 2**16 bins at 1e7: 4 MiB more to count
    into, add and reduce a call)."""
    return 1 << min(16, max(1, (n >> 10).bit_length()))


def _fresh(slot, n, dtype):
    return np.empty(n, dtype)


def _serial(fn, arg_tuples):
    return [fn(*args) for args in arg_tuples]


def sort_by_class(is_pos, score, weight=v.EMPTY_WEIGHT, extra=EMPTY_INTS, name="y_score",
                  *, row_index=False, positions=False, path=None, serial=False, alloc=_fresh,
                  count_here=False, values=False, bounds=None):
    """Split rows by class and sort each class by score, ascending and stable.

    Parameters
    ----------
    is_pos : bool array (n,)
    score : float64 or float32 array (n,), C-contiguous
        float32 scores are sorted as 32-bit keys and widened when written.
    weight : float64 array (n,) or (0,) for unit weights
        Rows of weight zero are left out (as scikit-learn does).
    extra : int32 or int64 array (n,) or (0,)
        A payload carried with each row (group codes, class codes).
    row_index : bool
        Carry each row's index instead (int32 below 2**31 rows, else int64),
        made as the rows are read rather than read from an array.
    positions : bool
        Carry each row's slot (:class:`Placement`) instead, and return
        ``(runs, placement)``: values computed in sorted order can then be
        written per slot, near each other, and brought back to row order in
        one pass.
    name : str
        The input's name in the error for NaN or infinite scores.
    path : {"radix", "numpy"} or None
        Force a path (tests); None takes :func:`method`'s choice where it
        applies (no weights, no payload; from ``CHUNK_MIN`` rows on unless
        ``FASTAUC_SORT`` forces it) and the radix path elsewhere.
    serial : bool
        Run every chunk in this thread (the chunks, and so the result, stay
        the same).
    alloc : callable ``(slot, n, dtype) -> array``
        Where the row-sized buffers come from (``_table.spare`` lends a
        thread's reusable ones); the runs returned, and the placement's
        slots, are views of them.
    count_here : bool
        Count and scatter the rows in this thread, and sort the buckets on
        two as usual (the chunks, and so the result, stay the same).  For
        the boosting objectives: they are called right after the library's
        own parallel loop, whose OpenMP workers spin on a core for a few
        milliseconds before they sleep, and the two passes then shared two
        cores with a spinning thread and waited on each other.  In the
        calling thread they took XGBoost's rounds (1e6 x 20, 30 rounds,
        alternated runs) from 59.3-64.3 to 56.4-57.7 ms, LightGBM's from
        74.9-82.0 to 65.8-76.8 ms.
    values : bool
        The runs' ``pk``/``nk`` hold the sorted scores' float64 bits (view
        them as float64) instead of their keys: converted by the sorting
        threads, for callers that compute with the scores.
    bounds : (float, float) or None
        The least and the greatest score, when the caller has checked them
        already (finite): no second pass over the scores for them.
    """
    run = _serial if serial else map_units
    front = _serial if count_here else run
    bits = _bits(score)
    n = bits.shape[0]
    weighted = weight.shape[0] > 0
    with_extra = extra.shape[0] > 0 or row_index or positions
    if positions:
        path = "radix"
    if path is None:  # the choice pays from 2**16 rows on; a forced path applies to all
        free = not weighted and not with_extra
        path = method() if free and (n >= CHUNK_MIN or "FASTAUC_SORT" in os.environ) else "radix"
    if path == "numpy" and (weighted or with_extra):
        raise ValueError("the numpy sort path takes no weights and no payload")
    x_dtype = (np.int32 if n < 2**31 else np.int64) if row_index or positions else extra.dtype
    if path == "radix" and n <= BUCKET_ROWS:  # one bucket: the whole sort in one call
        runs = _sort_small(bits, is_pos, weight if weighted else None,
                           extra if extra.shape[0] else None, with_extra, x_dtype, name, score,
                           alloc, values)
        return (runs, Placement(n, None)) if positions else runs
    nbins = _bins(n)
    vlo, vhi = _score_range(score, name) if bounds is None else bounds
    lo, shift, scale = _binning(score, nbins, vlo, vhi)
    blocks = row_blocks(n)
    # the kernels take None for no weights and for no payload (or the row index)
    parts = [(bits[a:b], score[a:b], is_pos[a:b], weight[a:b] if weighted else None,
              extra[a:b] if extra.shape[0] else None, a) for a, b in blocks]
    # each block's rows per (class, bin), row 1 the positives (int32: a block
    # has fewer than 2**31 rows; half the bytes to clear and to add up)
    hists = np.zeros((len(blocks), 2, nbins), np.int32)
    front(bin_counts, [(p[0], p[1], *p[2:4], lo, shift, vlo, scale, h)
                       for p, h in zip(parts, hists)])
    # the histograms' bookkeeping on threads only when they are large (a
    # function of the sizes): below, waking the threads costs more (1e7 rows,
    # 16 threads: 2.1 ms for 1M entries on threads)
    book = front if hists.size >= 1 << 22 else _serial
    total = _block_total(hists, book)
    lut, firsts = _buckets(total, _bucket_rows(n) if path == "radix" else _numpy_bucket_rows(n))
    counts = np.empty((len(blocks), 2, firsts.shape[0]), np.int64)
    book(bucket_counts, [(h, firsts, c) for h, c in zip(hists, counts)])
    starts, cursors, n_pos = _segments(counts)
    m = int(starts[-1])
    keys = alloc("keys", m, bits.dtype)
    w = alloc("weights", m, np.float64) if weighted else None
    x = alloc("payload", m, x_dtype) if with_extra else None
    # with positions the payload is numbered in cache by the segment sort,
    # and each row's slot is written in row order
    slot_of = alloc("slots", n, x_dtype) if positions else None
    front(scatter_rows, [(*p, lo, shift, vlo, scale, lut, c, keys, w,
                          None if positions else x, None if slot_of is None else slot_of[a:b])
                         for p, c, (a, b) in zip(parts, cursors, blocks)])
    out = keys if keys.dtype == np.uint64 else alloc("wide", m, np.uint64)
    if path == "numpy":
        run(_sort_segments_numpy, [(keys, out, values, starts, a, b)
                                   for a, b in _segment_ranges(starts, _sort_ranges(m))])
    else:
        share, n_ranges = (_serial, 1) if serial else (map_units, _sort_ranges(m))
        share(_sort_range, [(keys, w, x, starts, a, b, out, alloc, positions, False, values)
                            for a, b in _segment_ranges(starts, n_ranges)])
    runs = _class_runs(out, w, x, n_pos, x_dtype)
    return (runs, Placement(m, slot_of)) if positions else runs


def sort_by_group(is_pos, score, weight, codes, n_groups, alloc=_fresh, count_here=False,
                  values=False):
    """Each class's rows sorted by group, and by score within each group.

    ``codes``: int64 (n,) group codes in ``[0, n_groups)``, or None for one
    group.  Rows go to their (class, group) segment in one scatter pass and
    every segment is sorted in one ``sort_segments`` call, so many small
    groups sort in cache (one group takes :func:`sort_by_class`).  Returns
    ``(runs, p_starts, n_starts, placement)``: :class:`ClassRuns` whose
    payload places each row (:class:`Placement`), each class's first row of
    each group (``n_groups + 1`` each), and the placement.

    Up to ``DIRECT_ROWS`` rows the payload is the rows' indices (a caller's
    array of results per row stays in cache, and writing to random rows of
    it is cheaper than a gather afterwards); above, the rows' slots.
    ``alloc``: where the row-sized buffers come from, as for
    :func:`sort_by_class` (the runs and the placement are views of them);
    ``count_here`` and ``values`` as there.
    """
    n = score.shape[0]
    direct = n <= DIRECT_ROWS
    if codes is None:
        if direct:
            runs = sort_by_class(is_pos, score, weight, row_index=True, alloc=alloc,
                                 count_here=count_here, values=values)
            placement = Placement(n, None)
        else:
            runs, placement = sort_by_class(is_pos, score, weight, positions=True, alloc=alloc,
                                            count_here=count_here, values=values)
        return (runs, np.array([0, runs.pk.shape[0]], np.int64),
                np.array([0, runs.nk.shape[0]], np.int64), placement)
    weighted = weight.shape[0] > 0
    bits = _bits(score)
    # fixed row blocks (as sort_by_class), fewer when there are many groups
    # (a histogram a block); the segments are the (class, group) pairs
    blocks = row_blocks(n, width=2 * n_groups)
    parts = [(is_pos[a:b], weight[a:b] if weighted else None, codes[a:b]) for a, b in blocks]
    hists = np.zeros((len(blocks), 2, n_groups), np.int64)  # row 1: positives
    front = _serial if count_here else map_units
    if sum(front(group_counts, [(score[a:b], *p, h)
                                for (a, b), p, h in zip(blocks, parts, hists)])):
        v.raise_non_finite("y_score", score)
    starts, cursors, p = _segments(hists)
    m = int(starts[-1])
    keys = alloc("keys", m, bits.dtype)
    w = alloc("weights", m, np.float64) if weighted else None
    x_dtype = np.int32 if n < 2**31 else np.int64
    x = alloc("payload", m, x_dtype)
    slot_of = None if direct else alloc("slots", n, x_dtype)
    front(scatter_groups, [(bits[a:b], *q, a, c, keys, w, x if direct else None,
                            None if direct else slot_of[a:b])
                           for (a, b), q, c in zip(blocks, parts, cursors)])
    out = keys if keys.dtype == np.uint64 else alloc("wide", m, np.uint64)
    map_units(_sort_range, [(keys, w, x, starts, a, b, out, alloc, not direct, True, values)
                            for a, b in _segment_ranges(starts, _sort_ranges(m))])
    # each class's groups start where its segments do, less the class's start
    return (_class_runs(out, w, x, p, x_dtype), starts[:n_groups + 1].copy(),
            starts[n_groups:] - p, Placement(n, None) if direct else Placement(m, slot_of))


def _block_total(hists, run):
    """The blocks' histograms (B, 2, K) added up (int64 (2, K)), in column
    ranges on the threads (exact: integers)."""
    b, _, k = hists.shape
    total = np.empty((2, k), np.int64)
    if b == 1:
        total[...] = hists[0]
        return total
    cuts = [k * j // b for j in range(b + 1)]
    run(add_blocks, [(hists, c0, c1, total) for c0, c1 in zip(cuts[:-1], cuts[1:]) if c1 > c0])
    return total


def _segments(counts):
    """The segments' layout from each block's rows per (class, segment)
    (int64 (B, 2, K), row 1 the positives): ``(starts, cursors, n_pos)``,
    the positives' segments first, each block's cursors (2, K) indexed by
    ``[is_pos, segment]``; a block's rows of a segment follow the blocks'
    before it, so the layout never depends on the threads."""
    both = counts.sum(axis=0)
    k = both.shape[1]
    starts = np.zeros(2 * k + 1, np.int64)
    np.cumsum(both[::-1].reshape(-1), out=starts[1:])
    first = starts[:-1].reshape(2, k)[::-1]
    cursors = np.cumsum(counts, axis=0)
    cursors -= counts  # the rows of the blocks before each block
    cursors += first
    return starts, list(cursors), int(both[1].sum())


def _class_runs(out, w, x, n_pos, x_dtype):
    """:class:`ClassRuns` of sorted keys ``out`` split at ``n_pos`` (weights
    and payload None when not carried)."""
    w = v.EMPTY_WEIGHT if w is None else w
    x = np.empty(0, x_dtype) if x is None else x
    return ClassRuns(out[:n_pos], w[:n_pos], x[:n_pos], out[n_pos:], w[n_pos:], x[n_pos:])


def _buckets(hist, target):
    """Consecutive bins joined into buckets: a bin starts a new bucket when the
    rows of the bins before it pass another multiple of ``target`` (so a bucket
    has fewer than ``target`` rows plus its last bin's; None: one bucket).
    Returns each bin's bucket and each bucket's first bin."""
    nbins = hist.shape[1]
    if target is None:
        return np.zeros(nbins, np.int64), np.zeros(1, np.int64)
    rows = hist[0] + hist[1]
    tier = (np.cumsum(rows) - rows) // target
    new = np.empty(nbins, bool)
    new[0] = True
    np.not_equal(tier[1:], tier[:-1], out=new[1:])
    return np.cumsum(new) - 1, np.flatnonzero(new)


def _bucket_rows(n):
    """Rows per bucket: ``BUCKET_ROWS``, or fewer (down to an eighth of it)
    below 16 such buckets, so that the two threads' ranges of buckets still
    balance (1e5 rows in buckets of 6,250 instead of 32,768: 1.27 -> 1.16 ms
    an AUC, 1.77 -> 1.60 ms a gradient; from about 5e5 rows on the full size
    is faster)."""
    return max(1, BUCKET_ROWS >> 3, min(BUCKET_ROWS, n >> 4))


def _numpy_bucket_rows(n):
    """Rows per bucket of the numpy path: ``NUMPY_BUCKET_ROWS``, or a
    quarter of the rows (at least 8,192) when that is fewer, so that the
    threads share a few buckets of each class instead of one taking the
    larger class whole (1e5 rows, 10% positives, two threads: 2.1 -> 1.6 ms
    a ``roc_auc_score``).  From 2**20 rows on (where :func:`calibrate`
    times the paths) the buckets are ``NUMPY_BUCKET_ROWS``."""
    return min(NUMPY_BUCKET_ROWS, max(1 << 13, n >> 2))


def _tables():
    return np.empty((TABLE_ROWS, 1 << DIGIT_MAX), np.int64)


def _values():
    """``by_value``'s scratch: the values and their codes (two halves)."""
    return np.empty(VALUE_ROWS), np.empty(2 * VALUE_ROWS, np.uint32)


def _sort_small(bits, is_pos, weight, extra, with_extra, x_dtype, name, score, alloc, values):
    """``sort_by_class`` of at most ``BUCKET_ROWS`` rows: one kernel call."""
    n = bits.shape[0]
    _score_range(score, name)  # NaN or infinity raises
    keys = alloc("keys", n, bits.dtype)
    out = keys if keys.dtype == np.uint64 else alloc("wide", n, np.uint64)
    w = None if weight is None else alloc("weights", n, np.float64)
    x = alloc("payload", n, x_dtype) if with_extra else None
    tk = alloc("scratch keys 0", n, bits.dtype)
    tw = None if w is None else alloc("scratch weights 0", n, np.float64)
    tx = None if x is None else alloc("scratch payload 0", n, x_dtype)
    n_pos, m = sort_small(bits, is_pos, weight, extra, keys, w, x, tk, tw, tx, out,
                          np.empty(3, np.int64), _tables(), None, None, False, values)
    w = v.EMPTY_WEIGHT if w is None else w
    x = np.empty(0, x_dtype) if x is None else x
    return ClassRuns(out[:n_pos], w[:n_pos], x[:n_pos], out[n_pos:m], w[n_pos:m], x[n_pos:m])


def _score_range(score, name):
    """The least and the greatest score (0.0 for none); NaN or infinite
    scores raise scikit-learn's error."""
    if score.shape[0] == 0:
        return 0.0, 0.0
    lo, hi = v.minmax(score)  # NaN propagates
    if not (np.isfinite(lo) and np.isfinite(hi)):
        v.raise_non_finite(name, score)
    return float(lo), float(hi)


def _sample_range(score, name):
    """The least and the greatest score of the strided sample that
    :func:`_binning` takes (the whole of a short array); a sample with NaN
    or infinity raises, as :func:`_score_range` does."""
    sample = score[::max(1, score.shape[0] // SAMPLE_ROWS)]
    lo, hi = sample.min(), sample.max()
    if not (np.isfinite(lo) and np.isfinite(hi)):
        v.raise_non_finite(name, score)
    return float(lo), float(hi)


def _binning(score, nbins, vlo, vhi):
    """``(lo, shift, scale)`` for ``bin_counts``: bins of equal width in the
    key range, or (``scale`` > 0) in the values.

    Keys are near-logarithmic in the value (each binade gets the same key
    width), so key bins suit scores spread over orders of magnitude, while
    scores around zero (a normal margin, say) fill a few key bins among
    thousands spent on the binades near zero, and their buckets outgrow the
    cache; value bins suit those.  The choice is the one whose bins hold a
    strided sample of the rows more evenly (a smaller sum of squared
    counts).  It only decides where buckets are cut, never the order."""
    lo, hi = _key_of(score.dtype.type(vlo)), _key_of(score.dtype.type(vhi))
    shift = max(0, (hi - lo).bit_length() - (nbins.bit_length() - 1))
    span = vhi - vlo
    if nbins <= 2 or not (0.0 < span < np.inf) or BINS == "key":
        return np.uint64(lo), np.uint64(shift), 0.0
    scale = nbins / span
    if BINS == "value":
        return np.uint64(lo), np.uint64(shift), scale
    # the sample binned both ways by the sort's own kernel (row 0: every row)
    sample = np.ascontiguousarray(score[::max(1, score.shape[0] // SAMPLE_ROWS)])
    is_neg = np.zeros(sample.shape[0], bool)
    spread = []
    for kind_scale in (0.0, scale):
        hist = np.zeros((2, nbins), np.int32)
        bin_counts(_bits(sample), sample, is_neg, None, np.uint64(lo), np.uint64(shift), vlo,
                   kind_scale, hist)
        spread.append(np.dot(hist[0], hist[0]))
    return np.uint64(lo), np.uint64(shift), (scale if spread[1] <= spread[0] else 0.0)


def _key_of(x) -> int:
    """``float_key`` (or the float32 key) of one number, as a Python int."""
    width = x.dtype.itemsize * 8
    bits = int(np.asarray(x).view(np.uint32 if width == 32 else np.uint64))
    sign = 1 << (width - 1)
    if bits == sign:  # -0.0
        return sign
    return (~bits & ((1 << width) - 1)) if bits > sign else bits | sign


def _sort_ranges(m):
    """Ranges of segments for ``map_units``: one below ``CHUNK_MIN`` rows,
    then one per ``SORT_RANGE_ROWS`` rows, at least two (each range costs a
    kernel call, about 20 microseconds).  Rows only, never threads."""
    return 1 if m < CHUNK_MIN else max(2, m // SORT_RANGE_ROWS)


def _segment_ranges(starts, parts: int):
    """Segments cut into up to ``parts`` ranges of about equal rows (each cut
    at the segment boundary nearest its share of the rows, either side of
    it; data-dependent only)."""
    n_seg = starts.shape[0] - 1
    if parts < 2 or n_seg < 2:
        return [(0, n_seg)]
    cuts = [0]
    for k in range(1, parts):
        share = starts[-1] * k / parts
        cut = int(np.searchsorted(starts, share, side="left"))
        cut = min(max(cut, 1), n_seg - 1)
        if cut > 1 and abs(starts[cut - 1] - share) < abs(starts[cut] - share):
            cut -= 1
        if cut > cuts[-1]:
            cuts.append(cut)
    cuts.append(n_seg)
    return list(zip(cuts[:-1], cuts[1:]))


def _sort_segments_numpy(keys, out, values, starts, first, last):
    """``np.sort`` of each segment ``first:last`` of ``keys`` in place, then,
    while it is in cache, its float32 keys widened into ``out`` (``out`` not
    ``keys``) or its keys turned into the scores' bits (``values``)."""
    wide = out is not keys
    for i in range(first, last):
        a, b = starts[i], starts[i + 1]
        if b - a > 1:
            keys[a:b].sort()
        if wide:
            widen_keys(keys[a:b], out[a:b], values)
        elif values:
            keys_to_floats(out[a:b], out[a:b])


def _sort_range(keys, w, x, starts, first, last, out, alloc, number=False, short=False,
                values=False):
    """Sort segments ``first:last`` with scratch as long as the longest of
    them (one set of scratch buffers a thread: ``alloc`` lends the calling
    thread's, and a thread sorts one range at a time) (``number``: the payload is the rows' slots;
    ``short``: the segments are mostly short, the groups of ``sort_by_group``,
    and those of float64 keys are sorted by ``by_value``; ``values``: write
    the values' bits, ``sort_by_class``)."""
    longest = int(np.max(np.diff(starts[first:last + 1]))) if last > first else 0
    tk = alloc("scratch keys 0", longest, keys.dtype)
    tw = None if w is None else alloc("scratch weights 0", longest, np.float64)
    tx = None if x is None else alloc("scratch payload 0", longest, x.dtype)
    v, codes = _values() if short else (None, None)
    sort_segments(keys, w, x, starts, first, last, tk, tw, tx, out, _tables(), v, codes, number,
                  values)


# ----------------------------------------------------------------- the choice

_choice: dict = {}  # thread count -> path
_choice_lock = threading.Lock()


def _host() -> str:
    """What the choice depends on: the CPU model, numpy's SIMD features, numpy."""
    model = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    try:
        from numpy._core._multiarray_umath import __cpu_features__ as feats
        simd = ",".join(sorted(k for k, on in feats.items() if on))
    except ImportError:  # pragma: no cover - older numpy layouts
        simd = ""
    return f"{model}|{simd}|numpy {np.__version__}|paths {PATHS_VERSION}"


def _choice_file() -> Path:
    base = os.environ.get("NUMBA_CACHE_DIR")
    root = Path(base) if base else Path(__file__).resolve().parent / "__pycache__"
    return root / "fastauc_sort_choice.json"


def calibrate(n: int = 1 << 20, repeat: int = 2) -> dict:
    """Time both paths on ``n`` unweighted rows (fixed seed) at this thread
    count; the faster wins."""
    rng = np.random.default_rng(12345)
    is_pos = rng.random(n) < 0.1
    score = rng.standard_normal(n) + is_pos
    seconds = {}
    for p in METHODS:
        sort_by_class(is_pos, score, path=p)  # compile or load first
        best = float("inf")
        for _ in range(repeat):
            t0 = time.perf_counter()
            sort_by_class(is_pos, score, path=p)
            best = min(best, time.perf_counter() - t0)
        seconds[p] = best
    return {"host": _host(), "seconds": seconds, "method": min(seconds, key=seconds.get)}


def method() -> str:
    """The sort path for unweighted keys without a payload on this host."""
    global _choice
    forced = os.environ.get("FASTAUC_SORT")
    if forced:
        if forced not in METHODS:
            raise ValueError(f"FASTAUC_SORT must be one of {METHODS}, got {forced!r}")
        return forced
    threads = num_threads()
    found = _choice.get(threads)
    if found is not None:
        return found
    with _choice_lock:
        if threads not in _choice:
            _choice[threads] = _remembered_or_measured(threads)
    return _choice[threads]


def _remembered_or_measured(threads: int) -> str:
    path = _choice_file()
    host = _host()
    saved = {}
    try:
        saved = json.loads(path.read_text())
        if saved.get("host") != host or not isinstance(saved.get("by_threads"), dict):
            saved = {}
        found = saved.get("by_threads", {}).get(str(threads), {}).get("method")
        if found in METHODS:
            return found
    except (OSError, ValueError, AttributeError):
        saved = {}
    result = calibrate()
    by_threads = dict(saved.get("by_threads", {}))
    by_threads[str(threads)] = {"seconds": result["seconds"], "method": result["method"]}
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(json.dumps({"host": host, "by_threads": by_threads}))
        os.replace(tmp, path)
    except OSError:  # a read-only install: measured again in the next process
        pass
    return result["method"]


def class_code_payload(codes, is_pos, n_codes):
    """The payload ``code << 1 | is_pos`` of each row (int32 below 2**30
    codes) with each code's rows and positive rows, in row blocks on the
    threads (each block counting into its own row of counts while the codes
    are few: 2**22 counts in all; one pass in this thread otherwise)."""
    n = codes.shape[0]
    payload = np.empty(n, np.int64 if n_codes >= 1 << 30 else np.int32)
    blocks = row_blocks(n)
    if len(blocks) < 2 or len(blocks) * n_codes > 1 << 22:
        rows, pos_rows = np.zeros(n_codes, np.int64), np.zeros(n_codes, np.int64)
        payload_of(codes, is_pos, payload, rows, pos_rows)
        return payload, rows, pos_rows
    counts = np.zeros((2, len(blocks), n_codes), np.int64)
    map_units(payload_of, [(codes[a:b], is_pos[a:b], payload[a:b], counts[0, i], counts[1, i])
                           for i, (a, b) in enumerate(blocks)])
    rows, pos_rows = counts.sum(axis=1)
    return payload, rows, pos_rows


def tie_blocks(keys):
    """Where blocks of sorted ``keys`` start, and the end (int64): the row
    blocks' cuts (``row_blocks``: sizes of the data alone), each moved up past
    the run of keys tied with the one before it, so that no run is cut."""
    m = keys.shape[0]
    cuts = [0]
    for _, b in row_blocks(m)[:-1]:
        while b < m and keys[b] == keys[b - 1]:
            b += 1
        if cuts[-1] < b < m:
            cuts.append(b)
    return np.array(cuts + [m], np.int64)


# ------------------------------------------------------ tagged rows, one run

class TaggedBuckets(NamedTuple):
    """Rows scattered by :func:`bucket_tagged`: ``keys`` and ``tags`` in
    buckets of ascending key ranges, bucket ``j`` at ``starts[j]:starts[j +
    1]`` (both classes, unsorted), with ``pos_below[j]``/``neg_below[j]`` the
    rows of each class in the buckets before it; ``ranges``: runs of buckets
    of about ``SORT_RANGE_ROWS`` rows, the units of work; ``ids``: the least
    and the greatest id."""
    keys: np.ndarray
    tags: np.ndarray
    starts: np.ndarray
    pos_below: np.ndarray
    neg_below: np.ndarray
    ranges: list
    ids: tuple


def bucket_tagged(is_pos, score, ids, name="y_score", alloc=_fresh):
    """The unweighted rows counted and scattered as :func:`sort_by_class`
    does, but both classes into one segment a key bucket, each row's payload
    a tag (uint32): the low 31 bits of its integer id shifted left once, its
    class in the low bit (``scatter_tagged``).  For a caller that sorts and
    walks each bucket in cache (:func:`sort_bucket`) and needs no sorted run
    of the whole; the ids' range comes with the buckets, so that the caller
    reads the ids once."""
    bits = _bits(score)
    n = bits.shape[0]
    nbins = _bins(n)
    # the bins' range from a sample, not a pass: rows beyond it go to the
    # end bins, and the counting pass finds NaN and infinity
    vlo, vhi = _sample_range(score, name)
    lo, shift, scale = _binning(score, nbins, vlo, vhi)
    blocks = row_blocks(n)
    parts = [(bits[a:b], score[a:b], is_pos[a:b], ids[a:b]) for a, b in blocks]
    hists = np.zeros((len(blocks), 2, nbins), np.int32)
    if sum(map_units(tagged_counts, [(p[0], p[1], p[2], lo, shift, vlo, scale, h)
                                     for p, h in zip(parts, hists)])):
        v.raise_non_finite(name, score)
    total = _block_total(hists, map_units if hists.size >= 1 << 22 else _serial)
    lut, firsts = _buckets(total, _bucket_rows(n))
    k = firsts.shape[0]
    counts = np.empty((len(blocks), 2, k), np.int64)
    for h, c in zip(hists, counts):
        bucket_counts(h, firsts, c)
    per_class = counts.sum(axis=0)
    rows = counts.sum(axis=1)  # (blocks, buckets)
    starts = np.zeros(k + 1, np.int64)
    np.cumsum(rows.sum(axis=0), out=starts[1:])
    cursors = np.cumsum(rows, axis=0) - rows + starts[:-1]
    keys = alloc("keys", n, bits.dtype)
    tags = alloc("tags", n, np.uint32)
    ranges = map_units(scatter_tagged, [(*p, lo, shift, vlo, scale, lut, c, keys, tags)
                                        for p, c in zip(parts, cursors)])
    below = np.cumsum(per_class, axis=1) - per_class
    return TaggedBuckets(keys, tags, starts, below[1], below[0],
                         _segment_ranges(starts, _sort_ranges(n)),
                         (min(r[0] for r in ranges), max(r[1] for r in ranges)))


def sort_bucket(keys, a, b, packed, tmp, tables, numpy: bool):
    """Bucket ``a:b`` of ``keys`` as sorted words placing its rows
    (``pack_keys``; returns its ``(ib, exact)``): ``np.sort`` on the hosts
    where the numpy path wins, else the radix sort (``tmp``, ``tables``:
    scratch)."""
    words = packed[:b - a]
    packing = pack_keys(keys, a, b, words)
    if numpy:
        words.sort()
    else:
        sort_packed(words, tmp, tables)
    return packing
