"""Exact metrics on Dask: range partitioning on the score key.

The same numbers as the in-memory functions, for any partitioning and any
number of workers; no step gathers the rows or the distinct scores on one
machine (``docs/scaling.md``).  Needs the ``dask`` extra
(``pip install 'fastauc[dask]'``); imported only when used.

The graph, for a score column in P partitions:

1. each partition is validated (errors name the global row position) and
   sorted once into its distinct-score table (an ``Accumulator``), and
   offers a few of its keys as a sample;
2. the pooled samples give K - 1 splitter keys (K about P): key ranges of
   about equal size, a score never split across two;
3. each partition's table is cut at the splitters, and the pieces of every
   range are merged (a tree of linear merges): range k's table holds every
   distinct score of the range, with its weight per class;
4. each range's class totals give, by suffix sums, the weight above it
   (``tp0``, ``fp0``), and each range is swept from there; the ranges' twice
   areas, average-precision numerators and DeLong moments add up exactly.

Functions take dask arrays, dask Series, or anything ``dask.array.asarray``
takes; ``compute=False`` returns a ``dask.delayed`` object instead of the
value.  The current ``distributed`` client runs the graph, or dask's local
scheduler when there is none.
"""

from __future__ import annotations

import math

import numpy as np

from . import _validation as v
from ._kernels.table import merge_stats
from ._stats import delong_variance, mann_whitney_result, wald_interval
from ._stats import ALTERNATIVES as _ALTERNATIVES
from ._table import Table
from .accumulator import Accumulator
from .losses import log_loss as _log_loss

__all__ = ["average_precision_score", "log_loss", "mann_whitney_u", "roc_auc_ci",
           "roc_auc_score"]

_SAMPLE = 64  # keys each partition offers as a sample for the splitters
RANGE_ROWS = 1 << 21  # rows per key range (K = rows / RANGE_ROWS, at most one per partition)


def _dask():
    try:
        import dask
        import dask.array as da
    except ImportError:  # pragma: no cover - the extra is not installed
        raise ImportError("fastauc.dask needs dask: pip install 'fastauc[dask]'") from None
    return dask, da


def _as_dask_array(x, name):
    """A 1-D dask array from a dask array, a dask Series/DataFrame column or
    anything array-like (one chunk)."""
    _, da = _dask()
    if hasattr(x, "to_dask_array"):  # dask Series (and single-column frames)
        x = x.to_dask_array(lengths=True)
    elif not isinstance(x, da.Array):
        x = da.from_array(np.asarray(x), chunks=-1)
    if x.ndim == 2 and x.shape[1] == 1:
        x = x[:, 0]
    if x.ndim != 1:
        raise ValueError(f"{name} must be 1-D, got shape {x.shape}")
    return x


def _blocks(y_true, y_score, sample_weight):
    """Aligned delayed blocks ``(y, s, w)``, their global row offsets, and the rows."""
    s = _as_dask_array(y_score, "y_score")
    y = _as_dask_array(y_true, "y_true")
    if any(math.isnan(c) for c in s.chunks[0]) or any(math.isnan(c) for c in y.chunks[0]):
        s, y = s.compute_chunk_sizes(), y.compute_chunk_sizes()
    if y.shape[0] != s.shape[0]:
        raise ValueError(f"Found input variables with inconsistent numbers of samples: "
                         f"[{y.shape[0]}, {s.shape[0]}] (y_true has {y.shape[0]} rows, "
                         f"y_score {s.shape[0]})")
    y = y.rechunk(s.chunks)
    w = None
    if sample_weight is not None:
        w = _as_dask_array(sample_weight, "sample_weight")
        if any(math.isnan(c) for c in w.chunks[0]):
            w = w.compute_chunk_sizes()
        if w.shape[0] != s.shape[0]:
            raise ValueError(f"Found input variables with inconsistent numbers of samples: "
                             f"[{y.shape[0]}, {w.shape[0]}] (sample_weight has {w.shape[0]} "
                             f"rows for {y.shape[0]})")
        w = w.rechunk(s.chunks).to_delayed().ravel()
    offsets = np.concatenate(([0], np.cumsum(s.chunks[0])))[:-1]
    ys, ss = y.to_delayed().ravel(), s.to_delayed().ravel()
    ws = w if w is not None else [None] * len(ss)
    return list(zip(ys, ss, ws)), [int(o) for o in offsets], int(s.shape[0])


def _read_block(y, s, w, offset):
    """One partition's accumulator and a sample of its keys (errors name the
    global row position)."""
    s = np.asarray(s)
    bad = ~np.isfinite(s.astype(np.float64, copy=False)) if s.dtype.kind in "fiub" else None
    if bad is not None and bad.any():
        i = int(np.argmax(bad))
        word = "NaN" if np.isnan(s[i]) else "infinity or a value too large for dtype('float64')"
        raise ValueError(f"Input y_score contains {word}. (y_score has a non-finite value at "
                         f"global row {offset + i})")
    acc = Accumulator()
    try:
        acc.update(y, s, w)
    except (ValueError, TypeError) as exc:
        raise type(exc)(f"{exc} (in the partition starting at global row {offset})") from None
    t = acc._table()
    step = max(1, len(t) // _SAMPLE)
    return acc, t.keys[::step].copy()


def _splitters(samples, n_ranges):
    """K - 1 distinct splitter keys, descending: quantiles of the pooled samples."""
    keys = np.unique(np.concatenate([sm for _, sm in samples])) if samples else np.empty(0)
    if keys.shape[0] <= 1 or n_ranges <= 1:
        return np.empty(0, np.uint64)
    at = (np.arange(1, n_ranges) * keys.shape[0]) // n_ranges
    return np.unique(keys[at])[::-1].astype(np.uint64)


def _classes(parts):
    """The labels of every partition (sorted; a mix of types raises as in memory)."""
    seen = [acc._classes for acc, _ in parts if acc._classes is not None]
    if not seen:
        raise ValueError("Found array with 0 sample(s) (shape=(0,)) while a minimum of 1 is "
                         "required. (y_true is empty: at least one sample is required)")
    kinds = {c.dtype.kind in "biuf" for c in seen}
    if len(kinds) > 1:
        raise ValueError("Mix of label input types (string and number)")
    classes = np.unique(np.concatenate(seen))
    v.require_binary(classes, False)
    return classes


def _pieces(part, classes, splitters):
    """A partition's table oriented to the global positive class and cut into
    the key ranges (range 0 at the top)."""
    acc, _ = part
    levels, _, _ = acc._aligned(classes)
    t = levels[0] if levels else Table(np.empty(0, np.uint64), np.empty(0), np.empty(0))
    asc = t.keys[::-1]
    edges = [0, *(len(t) - np.searchsorted(asc, splitters, side="left")), len(t)]
    return [Table(t.keys[a:b], t.pos[a:b], t.neg[a:b]) for a, b in zip(edges[:-1], edges[1:])]


def _merge(*tables):
    out = tables[0]
    for t in tables[1:]:
        out = out.merge(t)
    return out


def _totals(table):
    return float(table.pos.sum()), float(table.neg.sum())


def _sweep(table, totals, k):
    """Range k's sweep from the weight above it, with DeLong's moments."""
    tp0 = sum(t[0] for t in totals[:k])
    fp0 = sum(t[1] for t in totals[:k])
    big_p = tp0 + sum(t[0] for t in totals[k:])
    big_n = fp0 + sum(t[1] for t in totals[k:])
    sw = table.sweep(tp0, fp0, moments=True, totals=(big_p, big_n))
    return sw.area2, sw.ap_num, sw.stats


def _combine(sweeps, totals, classes, rows):
    stats = None
    area2 = ap = 0.0
    for a2, apn, st in sweeps:
        area2 += a2
        ap += apn
        if stats is None:
            stats = st.copy()
        else:
            merge_stats(stats, st)
    return {"area2": area2, "ap_num": ap, "stats": stats,
            "P": sum(t[0] for t in totals), "N": sum(t[1] for t in totals),
            "classes": classes, "rows": rows}


def _rows(parts, classes):
    """Rows per class (negative, positive), each partition oriented to ``classes``."""
    rows = [acc._aligned(classes)[2] for acc, _ in parts]
    return [sum(r[i] for r in rows) for i in (0, 1)]


def _oriented(classes, positive):
    """The classes with the positive one last (the one ``Accumulator._aligned``
    makes positive): the greater label unless ``positive`` is given."""
    if positive is None or positive not in classes.tolist() or positive == classes[-1]:
        return classes
    return np.array([c for c in classes.tolist() if c != positive] + [positive],
                    dtype=classes.dtype)


def _tallies_graph(y_true, y_score, sample_weight, positive=None):
    """A delayed dict: the whole data's twice area, AP numerator, moments,
    class weights, classes and rows per class (oriented to ``positive``, by
    default the greater label)."""
    dask, _ = _dask()
    delayed = dask.delayed
    blocks, offsets, n_rows = _blocks(y_true, y_score, sample_weight)
    parts = [delayed(_read_block)(y, s, w, o) for (y, s, w), o in zip(blocks, offsets)]
    n_ranges = max(1, min(len(parts), -(-n_rows // RANGE_ROWS)))  # ceil
    classes = delayed(_oriented)(delayed(_classes)(parts), positive)
    splitters = delayed(_splitters)(parts, n_ranges)
    pieces = [delayed(_pieces, nout=n_ranges)(p, classes, splitters) for p in parts]
    ranges = []
    for k in range(n_ranges):
        level = [pc[k] for pc in pieces]
        while len(level) > 1:  # a tree of merges
            level = [delayed(_merge)(*level[i:i + 8]) for i in range(0, len(level), 8)]
        ranges.append(level[0])
    totals = delayed(list)([delayed(_totals)(r) for r in ranges])
    sweeps = [delayed(_sweep)(r, totals, k) for k, r in enumerate(ranges)]
    return delayed(_combine)(sweeps, totals, classes, delayed(_rows)(parts, classes))


def _run(graph, finish, compute):
    dask, _ = _dask()
    result = dask.delayed(finish)(graph)
    return result.compute() if compute else result


def _auc_of(t):
    (neg_rows, pos_rows), big_p, big_n = t["rows"], t["P"], t["N"]
    if pos_rows == 0 or neg_rows == 0:
        v.warn_undefined("Only one class is present in y_true. ROC AUC score is not defined "
                         "in that case.", stacklevel=2)
        return math.nan
    if big_p <= 0 or big_n <= 0:
        v.warn_undefined("All samples of one class have zero weight. ROC AUC score is not "
                         "defined in that case.", stacklevel=2)
        return math.nan
    return float(t["area2"] / (2.0 * big_p * big_n))


def roc_auc_score(y_true, y_score, *, sample_weight=None, compute=True):
    """:func:`fastauc.roc_auc_score` (binary) of dask collections, exactly.

    Examples
    --------
    >>> import dask.array as da, numpy as np
    >>> import fastauc, fastauc.dask
    >>> rng = np.random.default_rng(0)
    >>> y, s = rng.integers(0, 2, 10_000), rng.normal(size=10_000)
    >>> auc = fastauc.dask.roc_auc_score(da.from_array(y, 1000), da.from_array(s, 1000))
    >>> auc == fastauc.roc_auc_score(y, s)
    True
    """
    return _run(_tallies_graph(y_true, y_score, sample_weight), _auc_of, compute)


def average_precision_score(y_true, y_score, *, pos_label=1, sample_weight=None,
                            compute=True):
    """:func:`fastauc.average_precision_score` (binary) of dask collections."""

    def finish(t):
        classes = t["classes"]
        if pos_label not in classes.tolist():
            raise ValueError(f"pos_label={pos_label} is not a valid label. It should be one "
                             f"of {np.sort(classes)}")
        if t["P"] == 0:
            import warnings

            warnings.warn("No positive class found in y_true, recall is set to one for all "
                          "thresholds which leads to a flat precision-recall curve with "
                          "average precision 0.", UserWarning, stacklevel=2)
            return 0.0
        return float(max(0.0, t["ap_num"] / t["P"]))

    return _run(_tallies_graph(y_true, y_score, sample_weight, positive=pos_label), finish,
                compute)


def roc_auc_ci(y_true, y_score, *, confidence_level=0.95, sample_weight=None, transform=None,
               compute=True):
    """:func:`fastauc.roc_auc_ci` (DeLong) of dask collections: the moments of
    every range's sweep add up to the whole data's."""
    level = v.check_confidence_level(confidence_level)
    v.check_choice(transform, "transform", (None, "logit"))

    def finish(t):
        auc = _auc_of(t)
        var = delong_variance(t["stats"]) if not math.isnan(auc) else math.nan
        if math.isnan(var) and not math.isnan(auc):
            v.warn_undefined("DeLong's variance needs a total weight above one in each class; "
                             "the covariance is NaN.", stacklevel=2)
        return wald_interval(auc, var, level, transform)

    return _run(_tallies_graph(y_true, y_score, sample_weight), finish, compute)


def mann_whitney_u(y_true, y_score, *, alternative="two-sided", use_continuity=True,
                   method="auto", sample_weight=None, compute=True):
    """:func:`fastauc.mann_whitney_u` of dask collections."""
    v.check_choice(alternative, "alternative", _ALTERNATIVES)
    v.check_choice(method, "method", ("auto", "asymptotic", "exact"))
    if use_continuity not in (True, False):
        raise ValueError(f"use_continuity must be True or False, got {use_continuity!r}")

    def finish(t):
        return mann_whitney_result(t["area2"], t["P"], t["N"], t["stats"], alternative,
                                   use_continuity, method)

    return _run(_tallies_graph(y_true, y_score, sample_weight), finish, compute)


def _loss_block(y, p, w, labels):
    y = np.asarray(y)
    if y.shape[0] == 0:
        return 0.0, 0.0
    ww = None if w is None else np.asarray(w, np.float64)
    total = float(ww.sum()) if ww is not None else float(y.shape[0])
    if total == 0:
        return 0.0, 0.0
    return float(_log_loss(y, p, normalize=False, sample_weight=ww, labels=labels)), total


def log_loss(y_true, y_proba, *, normalize=True, sample_weight=None, compute=True):
    """:func:`fastauc.log_loss` (binary: the probability of the greater label)
    of dask collections: per-partition weighted sums, added up."""
    dask, _ = _dask()
    delayed = dask.delayed
    blocks, offsets, _ = _blocks(y_true, y_proba, sample_weight)
    parts = [delayed(_read_block)(y, s, w, o) for (y, s, w), o in zip(blocks, offsets)]
    classes = delayed(_classes)(parts)
    sums = [delayed(_loss_block)(y, p, w, classes) for y, p, w in blocks]

    def finish(parts_sums):
        loss = sum(a for a, _ in parts_sums)
        weight = sum(b for _, b in parts_sums)
        return float(loss / weight) if normalize else float(loss)

    result = delayed(finish)(sums)
    return result.compute() if compute else result
