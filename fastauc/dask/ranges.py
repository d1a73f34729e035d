"""The range-partitioned distinct-score table of a score column on Dask: the
graph that every ``fastauc.dask`` function builds on (see the package docstring)."""

from __future__ import annotations

import math

import numpy as np

from .. import _validation as v
from .._kernels.table import merge_stats
from .._table import Table, merge_placed, table_with_rows
from ..accumulator import Accumulator

_SAMPLE = 64  # keys each partition offers as a sample for the splitters
RANGE_ROWS = 1 << 21  # rows per key range (K = rows / RANGE_ROWS, at most one per partition)


def load_dask():
    try:
        import dask
        import dask.array as da
    except ImportError:  # pragma: no cover - the extra is not installed
        raise ImportError("fastauc.dask needs dask: pip install 'fastauc[dask]'") from None
    return dask, da


def as_dask_array(x, name):
    """A 1-D dask array from a dask array, a dask Series/DataFrame column or
    anything array-like (one chunk)."""
    _, da = load_dask()
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


def _as_series(x):
    """A single-column dask frame as its column; anything else unchanged."""
    import sys

    frames = sys.modules.get("dask.dataframe")  # loaded if x is a dask frame
    if frames is not None and isinstance(x, frames.DataFrame) and len(x.columns) == 1:
        return x[x.columns[0]]
    return x


def _partition_columns(names, *parts):
    """One partition's columns as numpy arrays (a pandas extension dtype as
    object, as dask converts it); they must have the same length."""
    cols = tuple(np.asarray(p) if isinstance(p.dtype, np.dtype) else p.to_numpy(object)
                 for p in parts)
    lengths = [c.shape[0] for c in cols]
    if len(set(lengths)) > 1:
        raise ValueError(f"Found input variables with inconsistent numbers of samples: "
                         f"{lengths} ({', '.join(names)} in one partition)")
    return cols


def _partition_length(*parts):
    """The partition's length, or -1 when its columns' lengths differ."""
    lengths = {len(p) for p in parts}
    return lengths.pop() if len(lengths) == 1 else -1


def aligned_columns(columns, names):
    """Each column's delayed blocks, cut alike: ``(blocks per column, the blocks'
    global row offsets, rows)``; a ``None`` column stays ``None``.

    Columns of dask frames (Series with equal numbers of partitions) are read
    together, one task per partition (a Parquet file is read once for all of
    them, and a block's columns are never apart); anything else becomes a dask
    array cut into the first column's chunks.
    """
    present = [j for j, c in enumerate(columns) if c is not None]
    cols = [_as_series(columns[j]) for j in present]
    out = [None] * len(columns)
    lengths = None
    if all(hasattr(c, "to_dask_array") and hasattr(c, "npartitions") for c in cols) and \
            len({c.npartitions for c in cols}) == 1:
        import dask.dataframe as dd

        # the same columns read the same way (the partitions of a Parquet read
        # depend on the columns it projects): one pass for the lengths, which the
        # graph needs (the number of key ranges, global row positions)
        lengths = [int(x) for x in np.ravel(dd.map_partitions(  # a scalar for one partition
            _partition_length, *cols, meta=(None, np.int64), align_dataframes=False,
            enforce_metadata=False).compute())]
        if min(lengths, default=0) < 0:  # partitioned apart: lined up by row position below
            lengths = None
    if lengths is not None:
        import dask.dataframe as dd

        parts = dd.map_partitions(_partition_columns, [names[j] for j in present], *cols,
                                  meta=cols[0]._meta, align_dataframes=False,
                                  enforce_metadata=False).to_delayed(optimize_graph=True)
        if len(parts) != len(lengths):  # pragma: no cover - dask partitioned them apart
            raise RuntimeError("dask gave the columns' lengths and blocks in different "
                               "partitions")
        for i, j in enumerate(present):
            out[j] = [p[i] for p in parts]
    else:
        arrays = [as_dask_array(columns[j], names[j]) for j in present]
        first = arrays[0]
        for i, j in enumerate(present):
            a = arrays[i]
            if a.shape[0] != first.shape[0]:
                raise ValueError(f"Found input variables with inconsistent numbers of samples: "
                                 f"[{first.shape[0]}, {a.shape[0]}] ({names[j]} has "
                                 f"{a.shape[0]} rows, {names[present[0]]} {first.shape[0]})")
            out[j] = list(a.rechunk(first.chunks).to_delayed().ravel())
        lengths = [int(c) for c in first.chunks[0]]
    offsets = np.concatenate(([0], np.cumsum(lengths)))[:-1]
    return out, [int(o) for o in offsets], int(sum(lengths))


def blocks_of(y_true, y_score, sample_weight):
    """Aligned delayed blocks ``(y, s, w)``, their global row offsets, and the rows."""
    (s, y, w), offsets, n_rows = aligned_columns([y_score, y_true, sample_weight],
                                                 ["y_score", "y_true", "sample_weight"])
    return list(zip(y, s, w if w is not None else [None] * len(s))), offsets, n_rows


def _check_scores(s, offset):
    """NaN or infinite scores raise scikit-learn's error, naming the global row."""
    bad = ~np.isfinite(s.astype(np.float64, copy=False)) if s.dtype.kind in "fiub" else None
    if bad is not None and bad.any():
        i = int(np.argmax(bad))
        word = "NaN" if np.isnan(s[i]) else "infinity or a value too large for dtype('float64')"
        raise ValueError(f"Input y_score contains {word}. (y_score has a non-finite value at "
                         f"global row {offset + i})")


def _summary(t, classes, rows):
    """What a partition sends for the splitters and the classes: its labels, rows
    per class and a sample of its keys (the table stays where it is)."""
    step = max(1, len(t) // _SAMPLE)
    return {"classes": classes, "rows": list(rows), "sample": t.keys[::step].copy()}


def read_block(y, s, w, offset):
    """One partition's accumulator and a sample of its keys (errors name the
    global row position)."""
    s = np.asarray(s)
    _check_scores(s, offset)
    acc = Accumulator()
    try:
        acc.update(y, s, w)
    except (ValueError, TypeError) as exc:
        raise type(exc)(f"{exc} (in the partition starting at global row {offset})") from None
    t = acc._table()
    return acc, _summary(t, acc._classes, acc._rows)


def read_rows(y, s, w, offset):
    """One partition's table (positive class: its greater label) with each row's
    position in it, and the summary ``read_block`` gives: what the paired
    DeLong test needs to bring the placements back to the rows.  Validated as
    ``Accumulator.update`` validates a batch (errors name the global row)."""
    s = np.asarray(s)
    _check_scores(s, offset)
    try:
        y = v.as_label_array(y, allow_empty=True)
        s = v.as_float_array(s, "y_score") if s.shape[0] else np.empty(0)
        n = v.check_lengths(y_true=y, y_score=s)
        w = v.check_batch_weights(w, n)
        classes = v.unique_labels(y) if n else None
        if classes is not None and classes.shape[0] > 2:
            v.require_binary(classes, False)
    except (ValueError, TypeError) as exc:
        raise type(exc)(f"{exc} (in the partition starting at global row {offset})") from None
    is_pos = v.positive_mask(y, classes[-1]) if n else np.zeros(0, bool)
    table, at = table_with_rows(is_pos, np.ascontiguousarray(s, np.float64), w)
    n_pos = int(np.count_nonzero(is_pos))
    return table, _summary(table, classes, (n - n_pos, n_pos)), at


def _splitters(samples, n_ranges):
    """K - 1 distinct splitter keys, descending: quantiles of the pooled samples."""
    keys = np.unique(np.concatenate([m["sample"] for m in samples])) if samples else \
        np.empty(0)
    if keys.shape[0] <= 1 or n_ranges <= 1:
        return np.empty(0, np.uint64)
    at = (np.arange(1, n_ranges) * keys.shape[0]) // n_ranges
    return np.unique(keys[at])[::-1].astype(np.uint64)


def classes_of(parts):
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


def _cut(t, splitters, n_ranges):
    """A table cut into the key ranges (range 0 at the top); ranges the
    splitters do not reach (fewer distinct keys than ranges) stay empty."""
    asc = t.keys[::-1]
    edges = [0, *(len(t) - np.searchsorted(asc, splitters, side="left")), len(t)]
    edges += [len(t)] * (n_ranges + 1 - len(edges))
    return [Table(t.keys[a:b], t.pos[a:b], t.neg[a:b]) for a, b in zip(edges[:-1], edges[1:])]


def _pieces(acc, classes, splitters, n_ranges):
    """A partition's table oriented to the global positive class and cut into
    the key ranges (range 0 at the top)."""
    levels, _, _ = acc._aligned(classes)
    return _cut(levels[0] if levels else Table(np.empty(0, np.uint64), np.empty(0),
                                               np.empty(0)), splitters, n_ranges)


def _table_pieces(t, meta, classes, splitters, n_ranges):
    """``_pieces`` of a ``read_rows`` table: its columns swapped when its
    positive label is not the global one (as ``Accumulator._aligned`` does)."""
    if meta["classes"] is not None and meta["classes"][-1] != classes[-1]:
        t = Table(t.keys, t.neg, t.pos)
    return _cut(t, splitters, n_ranges)


def _merge_placed(*pieces):
    """One range's table from every partition's piece, and each piece's keys'
    DeLong placement numerators within the range (``merge_placed``)."""
    table, values = merge_placed(pieces)
    return table, tuple(values)


def _each(values):
    """The placements of every block, as a task with one output per block."""
    return values


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
    if sum(rows) and not any(t[0] or t[1] for t in totals):  # rows, yet no weight at all
        raise v.zero_weights_error()
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


def oriented(classes, positive, rule="greater"):
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


def tallies_graph(y_true, y_score, sample_weight, positive=None):
    """A delayed dict: the whole data's twice area, AP numerator, moments,
    class weights, classes and rows per class (oriented to ``positive``, by
    default the greater label)."""
    blocks, offsets, n_rows = blocks_of(y_true, y_score, sample_weight)
    return range_graph(blocks, offsets, n_rows, positive)["tallies"]


def range_graph(blocks, offsets, n_rows, positive=None, classes=None, rule="greater",
                track=False):
    """The delayed pieces of one score column's range-partitioned table:
    ``metas`` (per block), ``classes``, ``splitters``, ``ranges`` (per key
    range), ``totals`` and ``tallies`` (what ``_combine`` gives).

    With ``track`` (the paired DeLong test) each block also keeps every row's
    position in its table (``rows_at``) and each range, merged from all the
    blocks' pieces in one task, gives each piece its keys' placement
    numerators within the range (``values[k][b]``, range k, block b): they go
    back to the block, whose rows find theirs by position, without any lookup.
    """
    import functools

    dask, _ = load_dask()
    # pure: the same column's graph built twice (a report's pieces) is one graph
    delayed = functools.partial(dask.delayed, pure=True)
    reader = read_rows if track else read_block
    read = [delayed(reader, nout=3 if track else 2)(y, s, w, o)
            for (y, s, w), o in zip(blocks, offsets)]
    metas = [r[1] for r in read]
    n_ranges = max(1, min(len(read), -(-n_rows // RANGE_ROWS)))  # ceil
    if classes is None:
        classes = delayed(oriented)(delayed(classes_of)(metas), positive, rule)
    splitters = delayed(_splitters)(metas, n_ranges)
    ranges, values = [], []
    if track:
        pieces = [delayed(_table_pieces, nout=n_ranges)(r[0], r[1], classes, splitters,
                                                         n_ranges) for r in read]
        for k in range(n_ranges):
            merged = delayed(_merge_placed, nout=2)(*[pc[k] for pc in pieces])
            ranges.append(merged[0])
            # the blocks' placements split out by a task of their own: a merge
            # with 1 + P outputs kept its whole result (table and placements)
            # alive and counted twice until every block's share was taken,
            # and a report that spills at 1e8 took 3x longer
            split = delayed(_each, nout=len(read))(merged[1])
            values.append([split[b] for b in range(len(read))])
    else:
        pieces = [delayed(_pieces, nout=n_ranges)(r[0], classes, splitters, n_ranges)
                  for r in read]
        for k in range(n_ranges):
            level = [pc[k] for pc in pieces]
            while len(level) > 1:  # a tree of merges
                level = [delayed(_merge)(*level[i:i + 8]) for i in range(0, len(level), 8)]
            ranges.append(level[0])
    totals = delayed(list)([delayed(_totals)(r) for r in ranges])
    sweeps = [delayed(_sweep)(r, totals, k) for k, r in enumerate(ranges)]
    tallies = delayed(_combine)(sweeps, totals, classes, delayed(_rows)(metas, classes))
    return {"metas": metas, "classes": classes, "splitters": splitters, "ranges": ranges,
            "totals": totals, "tallies": tallies, "n_ranges": n_ranges, "values": values,
            "rows_at": [r[2] for r in read] if track else []}


def run(graph, finish, compute):
    dask, _ = load_dask()
    result = dask.delayed(finish)(graph)
    return result.compute() if compute else result


def auc_of(t):
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


def aucs_only(tallies):
    return np.array([t["area2"] / (2.0 * t["P"] * t["N"]) if t["P"] > 0 and t["N"] > 0
                     else np.nan for t in tallies])


def columns_of(y_scores):
    """The score columns: a 2-D dask array's columns, or a list of 1-D ones."""
    _, da = load_dask()
    if isinstance(y_scores, (list, tuple)):
        return list(y_scores)
    if hasattr(y_scores, "columns"):  # a dask DataFrame of score columns
        return [y_scores[c] for c in y_scores.columns]
    arr = y_scores if isinstance(y_scores, da.Array) else da.asarray(y_scores)
    if arr.ndim == 1:
        return [arr]
    return [arr[:, j] for j in range(arr.shape[1])]


def column_graphs(y_true, cols, sample_weight, positive, track=False):
    """``(blocks of the first column, range graphs, blocks)`` of score columns on
    the same rows: every column cut alike and oriented to the first one's
    classes (pure tasks: built twice, computed once)."""
    names = [f"score column {j}" for j in range(len(cols))]
    # the first score column's chunks cut the others (as for one column)
    (first, y, w, *scores), offsets, n_rows = aligned_columns(
        [cols[0], y_true, sample_weight, *cols[1:]],
        [names[0], "y_true", "sample_weight", *names[1:]])
    scores = [first, *scores]
    w = w if w is not None else [None] * len(y)
    graphs, col_blocks = [], []
    classes = None
    for s in scores:
        blocks = list(zip(y, s, w))
        g = range_graph(blocks, offsets, n_rows, positive=positive, classes=classes,
                        track=track)
        classes = g["classes"]  # every column oriented to the first one's classes
        graphs.append(g)
        col_blocks.append(blocks)
    return col_blocks[0], graphs, col_blocks


def range_points(table, totals, k, max_points):
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


def totals_with_keys(table):
    return float(table.pos.sum()), float(table.neg.sum()), len(table)


def _curve_tallies(points, tallies):
    """The in-memory functions' tallies (a spare slot in front) from the
    ranges' points, top range first."""
    from .._table import Tallies

    keys = np.concatenate([np.zeros(1, np.uint64)] + [p[0] for p in points])
    tps = np.concatenate([np.zeros(1)] + [p[1] for p in points])
    fps = np.concatenate([np.zeros(1)] + [p[2] for p in points])
    return Tallies(keys, tps, fps, tallies["P"], tallies["N"], tallies["area2"],
                   tallies["ap_num"], tallies["stats"])


def curve_graph(y_true, y_score, sample_weight, pos_label, max_points):
    dask, _ = load_dask()
    delayed = dask.delayed
    if max_points is not None and (isinstance(max_points, bool)
                                   or not isinstance(max_points, (int, np.integer))
                                   or max_points < 2):
        raise ValueError(f"max_points must be an integer >= 2 or None, got {max_points!r}")
    blocks, offsets, n_rows = blocks_of(y_true, y_score, sample_weight)
    g = range_graph(blocks, offsets, n_rows, positive=pos_label, rule="sklearn")
    totals = delayed(list)([delayed(totals_with_keys)(r) for r in g["ranges"]])
    points = [delayed(range_points)(r, totals, k, max_points)
              for k, r in enumerate(g["ranges"])]
    return delayed(_curve_tallies)(points, g["tallies"])
