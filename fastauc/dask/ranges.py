"""The range-partitioned distinct-score table of a score column on Dask: the
graph that every ``fastauc.dask`` function builds on (see the package docstring)."""

from __future__ import annotations

import math

import numpy as np

from .._adapters import ranges as _ranges
from .._adapters.ranges import (
    RANGE_ROWS,
    auc_of,
    aucs_only,
    check_max_points,
    classes_of,
    combine,
    curve_tallies,
    cut_block,
    cut_rows_table,
    each,
    merge_placed_pieces,
    merge_tables,
    n_ranges_for,
    oriented,
    range_points,
    rows_per_class,
    splitters_of,
    sweep,
    totals_of,
    totals_with_keys,
)

# what fastauc.dask's modules take from here (the engine-neutral steps are
# fastauc._ranges's; only the graphs are Dask's)
__all__ = ["RANGE_ROWS", "aligned_columns", "as_dask_array", "auc_of", "aucs_only",
           "blocks_of", "classes_of", "column_graphs", "columns_of", "curve_graph",
           "load_dask", "oriented", "range_graph", "range_points", "read_block", "run",
           "tallies_graph", "totals_with_keys"]


def _at_row(offset):
    return lambda i: f"global row {offset + i}"


def read_block(y, s, w, offset):
    """``_ranges.read_block`` of the block at global row ``offset``."""
    return _ranges.read_block(y, s, w, _at_row(offset))


def read_rows(y, s, w, offset):
    """``_ranges.read_rows`` of the block at global row ``offset``."""
    return _ranges.read_rows(y, s, w, _at_row(offset))


def load_dask():
    try:
        import dask
        import dask.array as da
    except ImportError:  # pragma: no cover - the extra is not installed
        raise ImportError('fastauc.dask needs dask: pip install "fastauc[dask]"') from None
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


def blocks_of(y_true, y_score, sample_weight, cluster=None):
    """Aligned delayed blocks ``(y, s, w)``, their global row offsets, and the
    rows; with ``cluster``, also its blocks, cut alike (a fourth item)."""
    (s, y, w, c), offsets, n_rows = aligned_columns(
        [y_score, y_true, sample_weight, cluster], ["y_score", "y_true", "sample_weight",
                                                    "cluster"])
    blocks = list(zip(y, s, w if w is not None else [None] * len(s)))
    return (blocks, offsets, n_rows) if cluster is None else (blocks, offsets, n_rows, c)


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
    range), ``totals`` and ``tallies`` (what ``combine`` gives).

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
    n_ranges = n_ranges_for(len(read), n_rows)
    if classes is None:
        classes = delayed(oriented)(delayed(classes_of)(metas), positive, rule)
    splitters = delayed(splitters_of)(metas, n_ranges)
    ranges, values = [], []
    if track:
        pieces = [delayed(cut_rows_table, nout=n_ranges)(r[0], r[1], classes, splitters,
                                                         n_ranges) for r in read]
        for k in range(n_ranges):
            merged = delayed(merge_placed_pieces, nout=2)(*[pc[k] for pc in pieces])
            ranges.append(merged[0])
            # the blocks' placements split out by a task of their own: a merge
            # with 1 + P outputs kept its whole result (table and placements)
            # alive and counted twice until every block's share was taken,
            # and a report that spills at 1e8 took 3x longer
            split = delayed(each, nout=len(read))(merged[1])
            values.append([split[b] for b in range(len(read))])
    else:
        pieces = [delayed(cut_block, nout=n_ranges)(r[0], classes, splitters, n_ranges)
                  for r in read]
        for k in range(n_ranges):
            level = [pc[k] for pc in pieces]
            while len(level) > 1:  # a tree of merges
                level = [delayed(merge_tables)(*level[i:i + 8]) for i in range(0, len(level), 8)]
            ranges.append(level[0])
    totals = delayed(list)([delayed(totals_of)(r) for r in ranges])
    sweeps = [delayed(sweep)(r, totals, k) for k, r in enumerate(ranges)]
    tallies = delayed(combine)(sweeps, totals, classes, delayed(rows_per_class)(metas, classes))
    return {"metas": metas, "classes": classes, "splitters": splitters, "ranges": ranges,
            "totals": totals, "tallies": tallies, "n_ranges": n_ranges, "values": values,
            "rows_at": [r[2] for r in read] if track else []}


def run(graph, finish, compute):
    dask, _ = load_dask()
    result = dask.delayed(finish)(graph)
    return result.compute() if compute else result


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


def column_graphs(y_true, cols, sample_weight, positive, track=False, cluster=None):
    """``(blocks of the first column, range graphs, blocks)`` of score columns on
    the same rows: every column cut alike and oriented to the first one's
    classes (pure tasks: built twice, computed once); with ``cluster``, also
    its blocks, cut alike (a fourth item)."""
    names = [f"score column {j}" for j in range(len(cols))]
    # the first score column's chunks cut the others (as for one column)
    (first, y, w, c, *scores), offsets, n_rows = aligned_columns(
        [cols[0], y_true, sample_weight, cluster, *cols[1:]],
        [names[0], "y_true", "sample_weight", "cluster", *names[1:]])
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
    if cluster is not None:
        return col_blocks[0], graphs, col_blocks, c
    return col_blocks[0], graphs, col_blocks


def curve_graph(y_true, y_score, sample_weight, pos_label, max_points):
    dask, _ = load_dask()
    delayed = dask.delayed
    check_max_points(max_points)
    blocks, offsets, n_rows = blocks_of(y_true, y_score, sample_weight)
    g = range_graph(blocks, offsets, n_rows, positive=pos_label, rule="sklearn")
    totals = delayed(list)([delayed(totals_with_keys)(r) for r in g["ranges"]])
    points = [delayed(range_points)(r, totals, k, max_points)
              for k, r in enumerate(g["ranges"])]
    return delayed(curve_tallies)(points, g["tallies"])
