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
from ._kernels.sorting import keys_to_floats
from ._kernels.table import find_sorted, merge_stats
from ._stats import delong_variance, mann_whitney_result, wald_interval
from ._stats import ALTERNATIVES as _ALTERNATIVES
from ._table import Table, placement_values
from .accumulator import Accumulator
from .losses import log_loss as _log_loss

__all__ = ["average_precision_score", "bootstrap_ci", "delong_covariance", "delong_test",
           "log_loss", "mann_whitney_u", "precision_recall_curve", "roc_auc_ci", "roc_auc_score",
           "roc_curve", "best_threshold", "by_group", "report", "threshold_metrics"]

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
        # partition lengths are found later, on the array (``compute_chunk_sizes``):
        # ``lengths=True`` can disagree with a frame whose partitions the
        # optimizer fuses
        if not isinstance(x.dtype, np.dtype):  # a pandas extension dtype (strings...)
            x = x.astype(object)  # what dask would convert it to, with a warning
        x = x.to_dask_array()
    elif not isinstance(x, da.Array):
        x = da.from_array(np.asarray(x), chunks=-1)
    if x.ndim == 2 and x.shape[1] == 1:
        x = x[:, 0]
    if x.ndim != 1:
        raise ValueError(f"{name} must be 1-D, got shape {x.shape}")
    if any(math.isnan(c) for c in x.chunks[0]):  # a Series: its partitions' lengths
        x = x.compute_chunk_sizes()
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
    # the table stays where it is; only this small summary travels
    meta = {"classes": acc._classes, "rows": list(acc._rows), "sample": t.keys[::step].copy()}
    return acc, meta


def _splitters(samples, n_ranges):
    """K - 1 distinct splitter keys, descending: quantiles of the pooled samples."""
    keys = np.unique(np.concatenate([m["sample"] for m in samples])) if samples else \
        np.empty(0)
    if keys.shape[0] <= 1 or n_ranges <= 1:
        return np.empty(0, np.uint64)
    at = (np.arange(1, n_ranges) * keys.shape[0]) // n_ranges
    return np.unique(keys[at])[::-1].astype(np.uint64)


def _classes(parts):
    """The labels of every partition (sorted; a mix of types raises as in memory)."""
    seen = [m["classes"] for m in parts if m["classes"] is not None]
    if not seen:
        raise ValueError("Found array with 0 sample(s) (shape=(0,)) while a minimum of 1 is "
                         "required. (y_true is empty: at least one sample is required)")
    kinds = {c.dtype.kind in "biuf" for c in seen}
    if len(kinds) > 1:
        raise ValueError("Mix of label input types (string and number)")
    classes = np.unique(np.concatenate(seen))
    v.require_binary(classes, False)
    return classes


def _pieces(acc, classes, splitters):
    """A partition's table oriented to the global positive class and cut into
    the key ranges (range 0 at the top)."""
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


def _rows(metas, classes):
    """Rows per class (negative, positive), each partition oriented to ``classes``
    (as ``Accumulator._aligned``: a partition whose greater label is not the
    positive one has its two counts the other way round)."""
    total = [0, 0]
    for m in metas:
        rows = m["rows"]
        if m["classes"] is not None and m["classes"][-1] != classes[-1]:
            rows = rows[::-1]
        total = [total[0] + rows[0], total[1] + rows[1]]
    return total


def _oriented(classes, positive, rule="greater"):
    """The classes with the positive one last (the one ``Accumulator._aligned``
    makes positive): the greater label unless ``positive`` is given; with
    ``rule="sklearn"`` a missing ``positive`` needs labels {0, 1} or {-1, 1}
    (scikit-learn's error otherwise), as the in-memory curves."""
    if rule == "sklearn":
        positive = v.resolve_pos_label(classes, positive)
    if positive is None or positive not in classes.tolist() or positive == classes[-1]:
        return classes
    return np.array([c for c in classes.tolist() if c != positive] + [positive],
                    dtype=classes.dtype)


def _tallies_graph(y_true, y_score, sample_weight, positive=None):
    """A delayed dict: the whole data's twice area, AP numerator, moments,
    class weights, classes and rows per class (oriented to ``positive``, by
    default the greater label)."""
    blocks, offsets, n_rows = _blocks(y_true, y_score, sample_weight)
    return _range_graph(blocks, offsets, n_rows, positive)["tallies"]


def _range_graph(blocks, offsets, n_rows, positive=None, classes=None, rule="greater"):
    """The delayed pieces of one score column's range-partitioned table:
    ``parts`` (per block), ``classes``, ``splitters``, ``ranges`` (per key
    range), ``totals`` and ``tallies`` (what ``_combine`` gives)."""
    import functools

    dask, _ = _dask()
    # pure: the same column's graph built twice (a report's pieces) is one graph
    delayed = functools.partial(dask.delayed, pure=True)
    read = [delayed(_read_block, nout=2)(y, s, w, o) for (y, s, w), o in zip(blocks, offsets)]
    accs, metas = [r[0] for r in read], [r[1] for r in read]
    n_ranges = max(1, min(len(accs), -(-n_rows // RANGE_ROWS)))  # ceil
    if classes is None:
        classes = delayed(_oriented)(delayed(_classes)(metas), positive, rule)
    splitters = delayed(_splitters)(metas, n_ranges)
    pieces = [delayed(_pieces, nout=n_ranges)(a, classes, splitters) for a in accs]
    ranges = []
    for k in range(n_ranges):
        level = [pc[k] for pc in pieces]
        while len(level) > 1:  # a tree of merges
            level = [delayed(_merge)(*level[i:i + 8]) for i in range(0, len(level), 8)]
        ranges.append(level[0])
    totals = delayed(list)([delayed(_totals)(r) for r in ranges])
    sweeps = [delayed(_sweep)(r, totals, k) for k, r in enumerate(ranges)]
    tallies = delayed(_combine)(sweeps, totals, classes, delayed(_rows)(metas, classes))
    return {"metas": metas, "classes": classes, "splitters": splitters, "ranges": ranges,
            "totals": totals, "tallies": tallies, "n_ranges": n_ranges}


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


def _label_meta(y):
    """A block's distinct labels (None when empty), for the log loss."""
    y = v.as_label_array(y, allow_empty=True)
    return {"classes": v.unique_labels(y) if y.shape[0] else None}


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
    metas = [delayed(_label_meta)(y) for y, _, _ in blocks]
    classes = delayed(_classes)(metas)
    sums = [delayed(_loss_block)(y, p, w, classes) for y, p, w in blocks]

    def finish(parts_sums):
        loss = sum(a for a, _ in parts_sums)
        weight = sum(b for _, b in parts_sums)
        return float(loss / weight) if normalize else float(loss)

    result = delayed(finish)(sums)
    return result.compute() if compute else result


# ---------------------------------------------------------------- paired DeLong

def _lookup(table, totals, k):
    """Range k's placement lookup: its keys ascending with each key's DeLong
    placement for a positive (negative weight below, ties one half, over N)
    and for a negative (positive weight above, ties one half, over P)."""
    tp0 = sum(t[0] for t in totals[:k])
    fp0 = sum(t[1] for t in totals[:k])
    big_p = sum(t[0] for t in totals)
    big_n = sum(t[1] for t in totals)
    v10, v01 = placement_values(table, tp0, fp0, big_p, big_n)
    return table.keys[::-1].copy(), v10[::-1].copy(), v01[::-1].copy()


def _row_ranges(s, splitters, n_ranges):
    """The rows of each key range (0 at the top) with their keys, each piece in
    increasing key order: a range's lookups then walk its table forwards
    instead of jumping about it (one cache miss per lookup otherwise)."""
    from ._table import float_keys

    keys = float_keys(np.asarray(s, np.float64))
    order = np.argsort(keys)
    sorted_keys = keys[order]
    # ascending keys: the lowest range (K - 1) first; splitters are descending
    cuts = np.searchsorted(sorted_keys, splitters[::-1], side="left")
    edges = np.concatenate(([0], cuts, [keys.shape[0]]))
    pieces = [(order[a:b], sorted_keys[a:b]) for a, b in zip(edges[:-1], edges[1:])]
    return pieces[::-1]


def _place(rows_keys, lookup):
    """Placements (both kinds) of some rows' keys in their range's table."""
    idx, keys = rows_keys
    asc, v10, v01 = lookup
    if not asc.shape[0]:  # only rows of weight zero here: they add nothing
        return idx, np.zeros(idx.shape[0]), np.zeros(idx.shape[0])
    # a score held only by rows of weight zero is not in the table: any value
    # will do for them (weight zero), the nearest key's is taken
    at = np.empty(keys.shape[0], np.int64)
    find_sorted(asc, keys, at)
    return idx, v10[at], v01[at]


def _block_covariance(y, w, classes, aucs, *placed):
    """A block's share of DeLong's sums: ``placed`` holds, model by model, the
    (rows, V10, V01) pieces of every range; the kernel adds up the products."""
    from ._kernels.placements import placement_covariance

    y = np.asarray(y)
    n = y.shape[0]
    k = aucs.shape[0]
    is_pos = v.positive_mask(y, classes[-1])
    X = np.empty((k, n))
    n_ranges = len(placed) // k
    for m in range(k):
        for idx, v10, v01 in placed[m * n_ranges:(m + 1) * n_ranges]:
            X[m, idx] = np.where(is_pos[idx], v10, v01)
    ww = v.EMPTY_WEIGHT if w is None else np.ascontiguousarray(w, np.float64)
    return placement_covariance(X, is_pos, ww, aucs, 0, n)


def _covariance_of(parts_sums, tallies):
    from ._delong import covariance_from_sums

    aucs = _aucs_only(tallies)
    return aucs, covariance_from_sums(sum(p[0] for p in parts_sums),
                                      sum(p[1] for p in parts_sums))


def _aucs_only(tallies):
    return np.array([t["area2"] / (2.0 * t["P"] * t["N"]) if t["P"] > 0 and t["N"] > 0
                     else np.nan for t in tallies])


def _columns(y_scores):
    """The score columns: a 2-D dask array's columns, or a list of 1-D ones."""
    _, da = _dask()
    if isinstance(y_scores, (list, tuple)):
        return list(y_scores)
    if hasattr(y_scores, "columns"):  # a dask DataFrame of score columns
        return [y_scores[c] for c in y_scores.columns]
    arr = y_scores if isinstance(y_scores, da.Array) else da.asarray(y_scores)
    if arr.ndim == 1:
        return [arr]
    return [arr[:, j] for j in range(arr.shape[1])]


def _column_graphs(y_true, cols, sample_weight, positive):
    """``(blocks of the first column, range graphs, blocks)`` of score columns on
    the same rows: every column cut into the first one's chunks and oriented to
    its classes (pure tasks: built twice, computed once)."""
    first_blocks, offsets, n_rows = _blocks(y_true, cols[0], sample_weight)
    chunks = _as_dask_array(cols[0], "y_scores").chunks
    graphs, col_blocks = [], []
    classes = None
    for j, col in enumerate(cols):
        c = _as_dask_array(col, "y_scores")
        if c.shape[0] != n_rows:
            raise ValueError(f"Found input variables with inconsistent numbers of samples: "
                             f"[{n_rows}, {c.shape[0]}] (score column {j})")
        blocks = [(y, s, w) for (y, _, w), s in zip(first_blocks,
                                                   c.rechunk(chunks).to_delayed().ravel())]
        g = _range_graph(blocks, offsets, n_rows, positive=positive, classes=classes)
        classes = g["classes"]  # every column oriented to the first one's classes
        graphs.append(g)
        col_blocks.append(blocks)
    return first_blocks, graphs, col_blocks


def _delong_graph(y_true, y_scores, sample_weight, positive=None):
    """Delayed ``(aucs, covariance)`` of k score columns on the same rows."""
    dask, _ = _dask()
    delayed = dask.delayed
    first_blocks, graphs, col_blocks = _column_graphs(y_true, _columns(y_scores),
                                                      sample_weight, positive)
    classes = graphs[0]["classes"]
    tallies = [g["tallies"] for g in graphs]
    aucs = delayed(_aucs_only)(tallies)
    lookups = [[delayed(_lookup)(r, g["totals"], k) for k, r in enumerate(g["ranges"])]
               for g in graphs]  # one per model and range
    sums = []
    for b, (y, _, w) in enumerate(first_blocks):
        placed = []
        for g, blocks, look in zip(graphs, col_blocks, lookups):
            split = delayed(_row_ranges, nout=g["n_ranges"])(blocks[b][1], g["splitters"],
                                                              g["n_ranges"])
            placed += [delayed(_place)(split[k], look[k]) for k in range(g["n_ranges"])]
        sums.append(delayed(_block_covariance)(y, w, classes, aucs, *placed))
    return delayed(_covariance_of)(sums, tallies)


def delong_covariance(y_true, y_scores, *, sample_weight=None, compute=True):
    """:func:`fastauc.delong_covariance` of k score columns held by Dask:
    ``(aucs, covariance)``.

    Each model's table is range-partitioned as for :func:`roc_auc_score`;
    every row's placement under each model is looked up in the range that
    holds its score (the rows of a block travel to their ranges' lookups and
    their placements come back to the block), and each block adds its share
    of DeLong's sums, so no task holds more than a block's rows or a range's
    table.
    """
    graph = _delong_graph(y_true, y_scores, sample_weight)
    return graph.compute() if compute else graph


def delong_test(y_true, y_score_a, y_score_b, *, alternative="two-sided",
                confidence_level=0.95, sample_weight=None, compute=True):
    """:func:`fastauc.delong_test` (paired) of two score columns held by Dask."""
    from ._delong import paired_test

    v.check_choice(alternative, "alternative", _ALTERNATIVES)
    level = v.check_confidence_level(confidence_level)
    dask, _ = _dask()
    graph = _delong_graph(y_true, [y_score_a, y_score_b], sample_weight)
    result = dask.delayed(lambda ac: paired_test(ac[0], ac[1], 0, 1, level, alternative))(graph)
    return result.compute() if compute else result


# ---------------------------------------------------------------- Poisson bootstrap

def _rows_by_range(y, s, w, offset, classes, splitters, n_ranges):
    """A block's rows split by key range: ``(keys, is_pos, w, global row id)``."""
    from ._table import float_keys

    y = np.asarray(y)
    keys = float_keys(np.asarray(s, np.float64))
    is_pos = v.positive_mask(y, classes[-1])
    ww = None if w is None else np.asarray(w, np.float64)
    rid = np.arange(offset, offset + keys.shape[0], dtype=np.int64)
    rk = splitters.shape[0] - np.searchsorted(splitters[::-1], keys, side="right")
    out = []
    for k in range(n_ranges):
        m = rk == k
        out.append((keys[m], is_pos[m], v.EMPTY_WEIGHT if ww is None else ww[m], rid[m]))
    return out


def _range_replicates(seed, n_resamples, *pieces):
    """One key range's ``(tp, fp, area2)`` for every replicate, from its rows."""
    from ._kernels.resampling import poisson_range_sums

    keys = np.concatenate([p[0] for p in pieces])
    is_pos = np.concatenate([p[1] for p in pieces])
    rid = np.concatenate([p[3] for p in pieces])
    weighted = any(p[2].shape[0] for p in pieces)
    w = np.concatenate([p[2] for p in pieces]) if weighted else v.EMPTY_WEIGHT
    order = np.argsort(~keys, kind="stable")  # decreasing key
    out = np.empty((n_resamples, 3))
    poisson_range_sums(keys[order], is_pos[order], w[order] if weighted else w,
                       rid[order], np.uint64(seed), 0, out)
    return out


def _replicates_of(sums):
    """Every replicate's AUC from the ranges' sums (top range first); NaN
    where a class has no resampled weight."""
    n_resamples = sums[0].shape[0]
    tp_above = np.zeros(n_resamples)
    area2 = np.zeros(n_resamples)
    fp = np.zeros(n_resamples)
    for part in sums:
        area2 += part[:, 2] + 2.0 * part[:, 1] * tp_above
        tp_above += part[:, 0]
        fp += part[:, 1]
    with np.errstate(divide="ignore", invalid="ignore"):
        reps = area2 / (2.0 * tp_above * fp)
    reps[(tp_above <= 0) | (fp <= 0)] = np.nan
    return reps


def bootstrap_ci(y_true, y_score, *, metric="roc_auc", n_resamples=1000,
                 confidence_level=0.95, method="percentile", stratified=None,
                 sample_weight=None, random_state=None, scheme="poisson", compute=True):
    """:func:`fastauc.bootstrap_ci` with ``scheme="poisson"`` on Dask.

    Every row's Poisson(1) count in replicate ``r`` is a function of the
    seed, ``r`` and the row's global position, so each replicate equals the
    in-memory ``bootstrap_ci(..., scheme="poisson")`` replicate, bit for bit
    with unit weights, whatever the partitioning and the workers.  The rows of
    each key range meet in one task, which sweeps all the replicates; the
    ranges' sums combine as the AUC's do (the weight above a range, per
    replicate).  The multinomial scheme cannot be split across partitions
    (a replicate draws n rows from all of them) and raises.
    """
    from ._resample import bootstrap_interval, check_bootstrap_args
    from ._results import BootstrapResult

    if scheme != "poisson":
        raise ValueError("fastauc.dask.bootstrap_ci supports scheme='poisson' only: the "
                         "multinomial scheme draws n rows from every partition at once and "
                         "cannot be split across them; pass scheme='poisson'")
    n_resamples, level, _ = check_bootstrap_args(n_resamples, confidence_level, method,
                                                  stratified, scheme)
    if metric != "roc_auc":
        raise ValueError("fastauc.dask.bootstrap_ci computes metric='roc_auc' for now")
    if method == "bca":
        raise ValueError("method='bca' needs the jackknife over all rows; use 'percentile' "
                         "or 'basic' on Dask")
    seed = int(v.seed_from_random_state(random_state))
    dask, _ = _dask()
    delayed = dask.delayed
    blocks, offsets, n_rows = _blocks(y_true, y_score, sample_weight)
    g = _range_graph(blocks, offsets, n_rows)
    k = g["n_ranges"]
    split = [delayed(_rows_by_range, nout=k)(y, s, w, o, g["classes"], g["splitters"], k)
             for (y, s, w), o in zip(blocks, offsets)]
    sums = [delayed(_range_replicates)(seed, n_resamples, *[sp[j] for sp in split])
            for j in range(k)]

    def finish(tallies, reps):
        estimate = _auc_of(tallies)
        good = reps[np.isfinite(reps)]
        if good.shape[0] == 0:
            raise ValueError("every bootstrap replicate had a single class")
        low, high = bootstrap_interval(good, estimate, level, method, None)
        se = float(good.std(ddof=1)) if good.shape[0] > 1 else math.nan
        return BootstrapResult(estimate, low, high, se, method, level, n_resamples,
                               int(reps.shape[0] - good.shape[0]), metric, reps)

    result = delayed(finish)(g["tallies"], delayed(_replicates_of)(sums))
    return result.compute() if compute else result


# ---------------------------------------------------------------- curves

def _range_points(table, totals, k, max_points):
    """Range k's curve points: its keys with the cumulative class weights from
    the top of the data (its ``tp0``/``fp0`` plus its own), thinned to about
    ``max_points * share`` points when ``max_points`` is given (every point
    kept is a point of the exact curve; the range's last point is kept)."""
    tp0 = sum(t[0] for t in totals[:k])
    fp0 = sum(t[1] for t in totals[:k])
    tps = tp0 + np.cumsum(table.pos)
    fps = fp0 + np.cumsum(table.neg)
    keys = table.keys
    if max_points is not None and keys.shape[0]:
        n_keys = sum(t[2] for t in totals)
        step = max(1, -(-n_keys // max_points))
        keep = np.arange(step - 1, keys.shape[0], step)
        if not keep.shape[0] or keep[-1] != keys.shape[0] - 1:
            keep = np.append(keep, keys.shape[0] - 1)
        keys, tps, fps = keys[keep], tps[keep], fps[keep]
    return keys, tps, fps


def _totals_with_keys(table):
    return float(table.pos.sum()), float(table.neg.sum()), len(table)


def _curve_tallies(points, tallies):
    """The in-memory functions' tallies (a spare slot in front) from the
    ranges' points, top range first."""
    from ._table import Tallies

    keys = np.concatenate([np.zeros(1, np.uint64)] + [p[0] for p in points])
    tps = np.concatenate([np.zeros(1)] + [p[1] for p in points])
    fps = np.concatenate([np.zeros(1)] + [p[2] for p in points])
    return Tallies(keys, tps, fps, tallies["P"], tallies["N"], tallies["area2"],
                   tallies["ap_num"], tallies["stats"])


def _curve_graph(y_true, y_score, sample_weight, pos_label, max_points):
    dask, _ = _dask()
    delayed = dask.delayed
    if max_points is not None and (isinstance(max_points, bool)
                                   or not isinstance(max_points, (int, np.integer))
                                   or max_points < 2):
        raise ValueError(f"max_points must be an integer >= 2 or None, got {max_points!r}")
    blocks, offsets, n_rows = _blocks(y_true, y_score, sample_weight)
    g = _range_graph(blocks, offsets, n_rows, positive=pos_label, rule="sklearn")
    totals = delayed(list)([delayed(_totals_with_keys)(r) for r in g["ranges"]])
    points = [delayed(_range_points)(r, totals, k, max_points)
              for k, r in enumerate(g["ranges"])]
    return delayed(_curve_tallies)(points, g["tallies"])


def roc_curve(y_true, y_score, *, pos_label=None, sample_weight=None, drop_intermediate=True,
              max_points=None, compute=True):
    """:func:`fastauc.roc_curve` of dask collections: ``(fpr, tpr, thresholds)``.

    Each key range computes its points from the weight above it; the client
    receives the points (the result itself), not the rows.  ``max_points``
    thins the curve on the workers to about that many points, every one a
    point of the exact curve (then ``drop_intermediate`` applies to those).
    """
    from ._curves import roc_points

    graph = _curve_graph(y_true, y_score, sample_weight, pos_label, max_points)
    result = _dask()[0].delayed(roc_points)(graph, drop_intermediate)
    return result.compute() if compute else result


def precision_recall_curve(y_true, y_score, *, pos_label=None, sample_weight=None,
                           drop_intermediate=False, max_points=None, compute=True):
    """:func:`fastauc.precision_recall_curve` of dask collections (``max_points``
    as in :func:`roc_curve`)."""
    from ._curves import pr_points

    dtype = _as_dask_array(y_score, "y_score").dtype
    graph = _curve_graph(y_true, y_score, sample_weight, pos_label, max_points)
    result = _dask()[0].delayed(pr_points)(graph, drop_intermediate, dtype)
    return result.compute() if compute else result


# ---------------------------------------------------------------- thresholds

def threshold_metrics(y_true, y_score, *, sample_weight=None, pos_label=None, max_points=None,
                      compute=True):
    """:func:`fastauc.threshold_metrics` of dask collections (the confusion
    matrix at every distinct threshold; ``max_points`` as in :func:`roc_curve`)."""
    from ._results import ThresholdMetrics

    def finish(t):
        thr = keys_to_floats(t.thr_keys[1:], np.empty_like(t.thr_keys[1:]))
        return ThresholdMetrics(thr, t.tps[1:], t.fps[1:], float(t.total_pos),
                                float(t.total_neg))

    graph = _curve_graph(y_true, y_score, sample_weight, pos_label, max_points)
    result = _dask()[0].delayed(finish)(graph)
    return result.compute() if compute else result


def _range_best(table, totals, k, code, beta, cost_fp, cost_fn):
    """The best point of range k: ``(value, key)``, or None for an empty range."""
    from ._kernels.thresholds import best_index

    if not len(table):
        return None
    keys, tps, fps = _range_points(table, totals, k, None)
    big_p = sum(t[0] for t in totals)
    big_n = sum(t[1] for t in totals)
    i, best = best_index(tps, fps, big_p, big_n, code, beta, cost_fp, cost_fn)
    return float(best), keys[i]


def best_threshold(y_true, y_score, *, metric="f1", beta=1.0, sample_weight=None, cost_fp=None,
                   cost_fn=None, pos_label=None, compute=True):
    """:func:`fastauc.best_threshold` of dask collections: each key range
    finds its best threshold from the weight above it, and the best of those
    wins (the highest threshold among equals, as in memory)."""
    from ._curves import check_best_args
    from .thresholds import BestThreshold

    code = check_best_args(metric, beta, cost_fp, cost_fn)
    dask, _ = _dask()
    delayed = dask.delayed
    blocks, offsets, n_rows = _blocks(y_true, y_score, sample_weight)
    g = _range_graph(blocks, offsets, n_rows, positive=pos_label, rule="sklearn")
    totals = delayed(list)([delayed(_totals_with_keys)(r) for r in g["ranges"]])
    bests = [delayed(_range_best)(r, totals, k, code, float(beta), float(cost_fp or 0.0),
                                  float(cost_fn or 0.0)) for k, r in enumerate(g["ranges"])]

    def finish(candidates):
        value, key = None, None
        for c in candidates:  # top range first: a later one must be strictly better
            if c is not None and (value is None or c[0] > value):
                value, key = c
        threshold = keys_to_floats(np.array([key], np.uint64), np.empty(1, np.uint64))[0]
        if metric in ("cost", "closest_topleft"):
            value = -value
        return BestThreshold(float(threshold), float(value), metric)

    result = delayed(finish)(bests)
    return result.compute() if compute else result


# ---------------------------------------------------------------- report

def _range_report(table, totals, k, codes, fractions):
    """Range k's share of a report: each best-threshold metric's best point
    ``(value, key, tp, fp)`` (None when the range is empty) and, for each top
    fraction whose edge falls in the range, the positive weight above it."""
    from ._kernels.thresholds import best_index, top_positives

    if not len(table):
        return [None] * len(codes), {}
    keys, tps, fps = _range_points(table, totals, k, None)
    big_p = sum(t[0] for t in totals)
    big_n = sum(t[1] for t in totals)
    bests = []
    for code in codes:
        i, best = best_index(tps, fps, big_p, big_n, code, 1.0, 0.0, 0.0)
        bests.append((float(best), keys[i], float(tps[i]), float(fps[i])))
    tp0 = sum(t[0] for t in totals[:k])
    fp0 = sum(t[1] for t in totals[:k])
    above, here = tp0 + fp0, float(tps[-1] + fps[-1])
    edges = {f: f * (big_p + big_n) for f in fractions}
    inside = {f: x for f, x in edges.items() if above < x <= here}
    lifts = {}
    if inside:
        xs = np.array(list(inside.values()))
        pos = top_positives(np.r_[tp0, tps], np.r_[fp0, fps], xs)
        lifts = dict(zip(inside, pos.tolist()))
    return bests, lifts


def _prob_loss_block(y, p, w, classes):
    """A block's log-loss sums ``(loss, weight)`` with ``p`` the probability of
    the positive class (as ``report``), or None when a score is not one."""
    from ._kernels.losses import log_loss_sum

    p = np.ascontiguousarray(p, np.float64)
    if not p.shape[0]:
        return 0.0, 0.0
    if p.min() < 0 or p.max() > 1:
        return None
    cls = v.positive_mask(np.asarray(y), classes[-1]).view(np.uint8).astype(np.int64)
    ww = v.EMPTY_WEIGHT if w is None else np.ascontiguousarray(w, np.float64)
    loss, weight = log_loss_sum(p.reshape(-1, 1), cls, ww)
    return float(loss), float(weight)


def _model_section(name, tallies, parts, level, codes_names, fractions, losses):
    """One model's :class:`~fastauc.ModelReport` from its ranges' shares."""
    from ._results import ThresholdMetrics
    from .report import ModelReport

    auc = _auc_of(tallies)
    var = delong_variance(tallies["stats"]) if not math.isnan(auc) else math.nan
    interval = wald_interval(auc, var, level)
    big_p, big_n = tallies["P"], tallies["N"]
    ap = float(max(0.0, tallies["ap_num"] / big_p)) if big_p > 0 else 0.0
    best = {}
    for j, metric in enumerate(codes_names):
        chosen = None
        for bests, _ in parts:
            c = bests[j]
            if c is not None and (chosen is None or c[0] > chosen[0]):
                chosen = c
        value, key, tp, fp = chosen
        thr = keys_to_floats(np.array([key], np.uint64), np.empty(1, np.uint64))
        point = ThresholdMetrics(thr, np.array([tp]), np.array([fp]), big_p, big_n)
        best[metric] = {"threshold": float(thr[0]), "value": float(value)}
        best[metric].update({key_: float(getattr(point, key_)[0]) for key_ in _AT_THRESHOLD})
    total = big_p + big_n
    lift = {}
    for f in fractions:
        pos = next((lifts[f] for _, lifts in parts if f in lifts), big_p)
        lift[f] = float(pos / (f * total) / (big_p / total))
    log_loss = None
    if losses is not None and all(x is not None for x in losses):
        weight = sum(b for _, b in losses)
        log_loss = float(sum(a for a, _ in losses) / weight) if weight else None
    return ModelReport(name, interval.estimate, interval.low, interval.high, interval.se,
                       2.0 * interval.estimate - 1.0, ap, log_loss, best, lift)


_AT_THRESHOLD = ("tp", "fp", "tn", "fn", "precision", "recall", "specificity", "f1", "mcc",
                 "youden", "accuracy", "predicted_positive_rate")


def report(y_true, y_scores=None, *, target=None, scores=None, weight=None, sample_weight=None,
           names=None, pos_label=None, confidence_level=0.95, compute=True):
    """:func:`fastauc.report` (DeLong) of data held by Dask.

    ``report(y, [s1, s2], ...)`` with dask arrays or Series, or
    ``report(ddf, target="y", scores=["p", "q"], weight="w")`` with a dask
    DataFrame.  Each model's AUC, DeLong interval, Gini, average precision,
    log loss (when its scores are probabilities), best thresholds by F1, MCC
    and Youden and lifts at 1/5/10% come from its key ranges (each range's
    best points and lift edges, from the weight above it); the paired tests
    from :func:`delong_covariance`.  One graph: each column is read and
    sorted once.
    """
    from ._delong import paired_test
    from ._kernels.thresholds import CODES
    from .report import BEST_METRICS, LIFT_FRACTIONS, Comparison, Report

    if target is not None:
        frame = y_true
        if scores is None:
            raise ValueError("report(ddf, target=...) needs scores=[column, ...]")
        y_true = frame[target]
        cols = [frame[c] for c in scores]
        sample_weight = frame[weight] if weight is not None else sample_weight
        names = list(scores) if names is None else names
    else:
        cols = _columns(y_scores)
    level = v.check_confidence_level(confidence_level)
    k = len(cols)
    names = [f"model_{j + 1}" for j in range(k)] if names is None else list(names)
    if len(names) != k:
        raise ValueError(f"names has {len(names)} entries for {k} score columns")
    dask, _ = _dask()
    delayed = dask.delayed
    codes = [CODES[m] for m in BEST_METRICS]
    _, graphs, col_blocks = _column_graphs(y_true, cols, sample_weight, pos_label)
    classes = graphs[0]["classes"]
    sections = []
    for j, (g, blocks) in enumerate(zip(graphs, col_blocks)):
        totals = delayed(list)([delayed(_totals_with_keys)(r) for r in g["ranges"]])
        parts = [delayed(_range_report)(r, totals, kk, codes, LIFT_FRACTIONS)
                 for kk, r in enumerate(g["ranges"])]
        losses = [delayed(_prob_loss_block)(y, s, w, classes) for y, s, w in blocks]
        sections.append(delayed(_model_section)(names[j], g["tallies"], parts, level,
                                                BEST_METRICS, LIFT_FRACTIONS, losses))
    tallies0 = graphs[0]["tallies"]
    cov = _delong_graph(y_true, cols, sample_weight, pos_label) if k > 1 else None

    def finish(models, t0, ac):
        comparisons = []
        if ac is not None:
            aucs, cov_ = ac
            for a in range(k):
                for b in range(a + 1, k):
                    t = paired_test(aucs, cov_, a, b, level, "two-sided")
                    comparisons.append(Comparison(names[a], names[b], t.difference, t.low,
                                                  t.high, t.se, t.statistic, t.pvalue))
        n = int(sum(t0["rows"]))
        return Report(models, comparisons, n, float(t0["P"]), float(t0["N"]), "delong", level,
                      weighted=sample_weight is not None)

    result = delayed(finish)(sections, tallies0, cov)
    return result.compute() if compute else result


# ---------------------------------------------------------------- per group

def _group_accumulators(y, s, w, groups, n_buckets, dropna):
    """A block's rows per group, one accumulator each, split into buckets of
    groups (a group's bucket from a checksum of its label: the same on every
    worker)."""
    import zlib

    from .streaming import feed_groups

    cols = [np.asarray(c) for c in groups]
    y = np.asarray(y)
    s = np.asarray(s, np.float64)
    keep = np.ones(y.shape[0], bool)
    for c in cols:
        missing = _missing_labels(c)
        if missing.any():
            if not dropna:
                raise ValueError(f"groups has {int(missing.sum())} missing label(s) "
                                 "(NaN/None/null); pass dropna=True to leave those rows out")
            keep &= ~missing
    if not keep.all():
        y, s, cols = y[keep], s[keep], [c[keep] for c in cols]
        w = None if w is None else np.asarray(w)[keep]
    accs = {}
    if y.shape[0]:
        feed_groups(accs, y, s.reshape(-1, 1), w,
                       tuple(cols) if len(cols) > 1 else cols[0], None)
    buckets = [{} for _ in range(n_buckets)]
    for key, (acc,) in accs.items():
        buckets[zlib.crc32(repr(key).encode()) % n_buckets][key] = acc
    return buckets


def _missing_labels(c):
    if c.dtype.kind == "f":
        return np.isnan(c)
    if c.dtype.kind == "O":
        return np.array([x is None or (isinstance(x, float) and x != x) for x in c], bool)
    return np.zeros(c.shape[0], bool)


def _bucket_metrics(positive, level, n_cols, *dicts):
    """One bucket's groups: accumulators merged across blocks, then
    ``by_group`` on their tables' rows (the positive class given: a bucket may
    hold one class only), with the true row counts."""
    import dataclasses

    from .groups import by_group as _by_group

    merged = {}
    for d in dicts:
        for key, acc in d.items():
            if key in merged:
                merged[key].merge(acc)
            else:
                merged[key] = Accumulator().merge(acc)
    if not merged:
        return None
    keys = sorted(merged, key=lambda k: tuple(k))
    ys, ss, ws, labels = [], [], [], [[] for _ in range(n_cols)]
    for key in keys:
        y, sc, w, _ = merged[key]._rows_of()
        ys.append(y)
        ss.append(sc)
        ws.append(w)
        for c in range(n_cols):
            labels[c] += [key[c]] * y.shape[0]
    arrays = [np.array(lab) for lab in labels]
    result = _by_group(np.concatenate(ys), np.concatenate(ss),
                       arrays[0] if n_cols == 1 else tuple(arrays),
                       sample_weight=np.concatenate(ws), pos_label=positive,
                       confidence_level=level)
    ordered = list(zip(*(lab.tolist() for lab in result.groups.values())))
    rows = []
    for key in ordered:
        acc = merged[key]
        r = acc._rows
        if acc._classes is not None and acc._classes[-1] != positive:
            r = r[::-1]  # this group's greater label is not the positive class
        rows.append(r)
    n_neg = np.array([r[0] for r in rows], np.int64)
    n_pos = np.array([r[1] for r in rows], np.int64)
    weighted = any(acc._weighted for acc in merged.values())
    return dataclasses.replace(result, n=n_pos + n_neg, n_pos=n_pos, n_neg=n_neg,
                               weighted=weighted)


def _concat_metrics(parts, names):
    """The buckets' tables as one, groups in sorted order (as in memory)."""
    import dataclasses

    parts = [p for p in parts if p is not None]
    if not parts:
        raise ValueError("no rows in any group")
    first = parts[0]
    labels = [np.concatenate([list(p.groups.values())[c] for p in parts])
              for c in range(len(first.groups))]
    order = np.lexsort(labels[::-1])
    fields = {}
    for f in dataclasses.fields(first):
        value = getattr(first, f.name)
        if isinstance(value, np.ndarray):
            fields[f.name] = np.concatenate([getattr(p, f.name) for p in parts])[order]
        elif f.name == "log_loss":
            ok = all(p.log_loss is not None for p in parts)
            fields[f.name] = np.concatenate([p.log_loss for p in parts])[order] if ok else None
    fields["groups"] = dict(zip(names, (lab[order] for lab in labels)))
    fields["weighted"] = any(p.weighted for p in parts)
    return dataclasses.replace(first, **fields)


def by_group(y_true, y_score, groups, *, sample_weight=None, pos_label=None,
             confidence_level=0.95, dropna=False, compute=True):
    """:func:`fastauc.by_group` of dask collections: every group's AUC with its
    DeLong interval, AP, log loss and counts, exactly.

    Each block keeps one accumulator per group; the groups are dealt into
    buckets by a checksum of their label (the same on every worker), each
    bucket merges its groups' accumulators from all blocks and computes their
    rows of the table; the client puts the buckets' rows in group order.
    ``groups`` is a dask array or Series, or a tuple of them.
    """
    level = v.check_confidence_level(confidence_level)
    dask, _ = _dask()
    delayed = dask.delayed
    blocks, offsets, n_rows = _blocks(y_true, y_score, sample_weight)
    chunks = _as_dask_array(y_score, "y_score").chunks
    cols = groups if isinstance(groups, tuple) else (groups,)
    group_blocks = [_as_dask_array(c, "groups").rechunk(chunks).to_delayed().ravel()
                    for c in cols]
    names = ["group"] if len(cols) == 1 else [f"group_{i}" for i in range(len(cols))]
    metas = [delayed(_read_block, nout=2)(y, s, w, o)[1] for (y, s, w), o in
             zip(blocks, offsets)]
    positive = delayed(lambda c: c[-1])(delayed(_oriented)(delayed(_classes)(metas),
                                                           pos_label))
    n_buckets = max(1, min(len(blocks), -(-n_rows // RANGE_ROWS)))
    split = [delayed(_group_accumulators, nout=n_buckets)(
        y, s, w, tuple(gb[b] for gb in group_blocks), n_buckets, dropna)
        for b, (y, s, w) in enumerate(blocks)]
    buckets = [delayed(_bucket_metrics)(positive, level, len(cols), *[sp[j] for sp in split])
               for j in range(n_buckets)]
    result = delayed(_concat_metrics)(buckets, names)
    return result.compute() if compute else result
