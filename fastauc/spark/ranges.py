"""The range-partitioned distinct-score table of a score column on Spark:
the jobs every ``fastauc.spark`` function builds on (see the package
docstring).  The steps are ``fastauc._adapters.ranges``'s, as on Dask; only
the way they run is Spark's: Arrow batches through ``mapInArrow`` and
``groupBy().applyInArrow``, nothing but the DataFrame API."""

from __future__ import annotations

import io
import pickle
from contextlib import contextmanager
from typing import NamedTuple

import numpy as np

from .._adapters.ranges import (
    check_max_points,
    classes_of,
    combine,
    combine_areas,
    curve_tallies,
    cut_rows_table,
    merge_tables,
    n_ranges_for,
    oriented,
    range_points,
    read_table,
    rows_per_class,
    splitters_of,
    sweep,
)
from .._table import Table

NUMERIC = ("tinyint", "smallint", "int", "bigint", "float", "double")
LABELS = NUMERIC + ("boolean", "string")


def load_spark():
    try:
        import pyarrow  # noqa: F401 - mapInArrow hands over Arrow batches
        from pyspark.sql import functions as F
    except ImportError:  # pragma: no cover - the extra is not installed
        raise ImportError("fastauc.spark needs pyspark and pyarrow: "
                          'pip install "fastauc[spark]"') from None
    return F


def _kind(field):
    """The column's type as Spark's simple string (``decimal(10,2)``, ``double``...)."""
    return field.dataType.simpleString()


def select_columns(df, label, score, weight=None):
    """``df`` reduced to the columns ``y``, ``s`` (and ``w``), checked against
    the schema before any job starts: a missing column, a score or weight
    that is not numeric, or a label that is neither numeric, boolean nor a
    string raises a ``ValueError`` naming the column.  Decimal columns are
    cast to double (numpy's float of a ``Decimal``, as in memory)."""
    return select_scores(df, label, [score], weight, aliases=["s"])


def select_scores(df, label, scores, weight=None, aliases=None, groups=(), cluster=None):
    """``select_columns`` of several score columns (``s0``, ``s1``... unless
    ``aliases`` names them), of group columns (``g0``, ``g1``...: any type,
    nulls allowed) and of a cluster column (``c``: any type, no nulls)."""
    F = load_spark()
    fields = {f.name: f for f in df.schema.fields}
    aliases = aliases or [f"s{j}" for j in range(len(scores))]
    wanted = [("y_true", label, LABELS, "y")]
    wanted += [("y_score", s, NUMERIC, a) for s, a in zip(scores, aliases)]
    if weight is not None:
        wanted.append(("sample_weight", weight, NUMERIC, "w"))
    cols = []
    for role, name, allowed, alias in wanted:
        if not isinstance(name, str):
            raise TypeError(f"{role} must be a column name (str), got {type(name).__name__}")
        if name not in fields:
            raise ValueError(f"{role}: no column {name!r} in the DataFrame (its columns: "
                             f"{', '.join(map(repr, fields))})")
        kind = _kind(fields[name])
        if kind.startswith("decimal"):
            cols.append(F.col(name).cast("double").alias(alias))
            continue
        if kind not in allowed:
            what = "a number, a boolean or a string" if role == "y_true" else "numeric"
            raise ValueError(f"{role}: column {name!r} has type {kind}; it must be {what}")
        cols.append(F.col(name).alias(alias))
    for j, name in enumerate(groups):
        if name not in fields:
            raise ValueError(f"groups: no column {name!r} in the DataFrame (its columns: "
                             f"{', '.join(map(repr, fields))})")
        cols.append(F.col(name).alias(f"g{j}"))
    if cluster is not None:
        if not isinstance(cluster, str):
            raise TypeError(f"cluster must be a column name (str), got {type(cluster).__name__}")
        if cluster not in fields:
            raise ValueError(f"cluster: no column {cluster!r} in the DataFrame (its columns: "
                             f"{', '.join(map(repr, fields))})")
        cols.append(F.col(cluster).alias("c"))
    return df.select(*cols)


def row_of_partition(part):
    return lambda i: f"row {i} of Spark partition {part}"


def _partition():
    from pyspark import TaskContext

    ctx = TaskContext.get()
    return ctx.partitionId() if ctx is not None else 0


def partition_arrays(batches, names):
    """The Arrow batches of one partition as numpy arrays (``y``, ``s``, and
    ``w`` or None); a null raises, naming the column and the row."""
    cols, part = partition_columns(batches, names)
    return cols["y"], cols["s"], cols.get("w"), part


def partition_columns(batches, names):
    """``({alias: array}, partition)`` of one partition's Arrow batches, for
    the aliases in ``names`` (alias -> the user's column name); a null
    raises, naming the column, the partition and the row."""
    import pyarrow as pa

    batches = list(batches)
    part = _partition()
    if not batches:
        return {a: np.empty(0) for a, name in names.items() if name is not None}, part
    table = pa.Table.from_batches(batches).combine_chunks()
    out = {}
    for col in table.column_names:
        arr = table.column(col)
        if arr.null_count and not col.startswith("g"):  # a group's null: a missing label
            i = int(np.flatnonzero(arr.is_null().to_numpy(zero_copy_only=False))[0])
            role = {"y": "y_true", "w": "sample_weight", "c": "cluster"}.get(col, "y_score")
            raise ValueError(f"{role} (column {names[col]!r}) has a null at row {i} of Spark "
                             f"partition {part}: drop or fill the nulls first")
        out[col] = arr.to_numpy(zero_copy_only=False)
    return out, part


ARROW_GROUPS = True  # use groupBy().applyInArrow where pyspark has it (4.0 on)


def apply_in_groups(grouped, fn, schema):
    """``grouped.applyInArrow(fn, schema)``: ``fn`` takes and returns a
    ``pyarrow.Table``.  pyspark 3.5 has only ``applyInPandas``: there the
    group arrives as a pandas frame, is handed to ``fn`` as Arrow, and its
    result goes back as pandas."""
    if ARROW_GROUPS and hasattr(grouped, "applyInArrow"):
        return grouped.applyInArrow(fn, schema)

    def in_pandas(frame):
        import pyarrow as pa

        return fn(pa.Table.from_pandas(frame, preserve_index=False)).to_pandas()

    return grouped.applyInPandas(in_pandas, schema)


def collect(df):
    """``df.collect()``, an error raised in a Python worker raised again here
    as what it was (a ``ValueError`` or ``TypeError`` with its message),
    instead of Spark's wrapper of the worker's traceback."""
    return _worker_errors(df.collect)


def collect_arrow(df):
    """``df.toArrow()`` (pyspark 4), the collected rows as a table on 3.5;
    worker errors raised as in ``collect``."""
    if hasattr(df, "toArrow"):
        return _worker_errors(df.toArrow)
    import pyarrow as pa

    rows = collect(df)
    if not rows:
        return pa.table({name: [] for name in df.columns})
    return pa.Table.from_pylist([r.asDict() for r in rows])


def _worker_errors(fn):
    from pyspark.errors import PythonException

    try:
        return fn()
    except PythonException as exc:
        text = str(exc)
        for kind in (ValueError, TypeError):
            head = f"{kind.__name__}: "
            lines = [line for line in text.splitlines() if line.startswith(head)]
            if lines:
                raise kind(lines[-1][len(head):]) from None
        raise


def _narrow(x):
    """A table's class weights in the narrowest unsigned integer type that
    holds them exactly (unit weights: counts, mostly 0 and 1), else as they are."""
    if x.shape[0] == 0:
        return x
    hi = x.max()
    for dtype in (np.uint8, np.uint16, np.uint32):
        if hi <= np.iinfo(dtype).max:
            small = x.astype(dtype)
            return small if np.array_equal(small, x) else x
    return x


def _widened(keys, pos, neg):
    return Table(keys, pos.astype(np.float64, copy=False), neg.astype(np.float64, copy=False))


class _Packer(pickle.Pickler):
    def reducer_override(self, obj):
        if type(obj) is Table:
            return _widened, (obj.keys, _narrow(obj.pos), _narrow(obj.neg))
        return NotImplemented


def blob(obj):
    """``obj`` pickled, its tables' weights narrowed when they are counts:
    10 bytes a distinct score instead of 24 (the tables are what the jobs
    move and persist; JVM-Python transfers cost about 0.3 s per 100 MB here)."""
    buf = io.BytesIO()
    _Packer(buf, protocol=pickle.HIGHEST_PROTOCOL).dump(obj)
    return buf.getvalue()


CHUNK_BYTES = 4 << 20  # a binary cell's size at most: larger blobs travel cut


def chunk_batches(keys, items, size=None):
    """Arrow record batches of the int columns ``keys``, ``seq`` and
    ``data``: each ``(key values, bytes)`` of ``items`` cut into chunks of at
    most ``size`` bytes (default ``CHUNK_BYTES``; ``seq`` numbers them), a
    few chunks a batch.

    A partition's table or rows are hundreds of MB at 1e8 rows: in one cell,
    Spark copies them whole into one array on the executor's heap (and the
    columnar cache builds a buffer of the whole partition), which runs a 4 GiB
    executor out of memory.  Cut, no array is larger than a chunk (and the
    cache's batches stop at 4 MiB)."""
    import pyarrow as pa

    size = size or CHUNK_BYTES
    names = [*keys, "seq", "data"]
    cols = {c: [] for c in names}

    def batch():
        out = pa.RecordBatch.from_pydict({
            c: pa.array(cols[c], pa.binary() if c == "data" else pa.int32()) for c in names})
        for c in names:
            cols[c].clear()
        return out

    for values, data in items:
        for i, start in enumerate(range(0, max(len(data), 1), size)):
            for c, x in zip(keys, values):
                cols[c].append(x)
            cols["seq"].append(i)
            cols["data"].append(data[start:start + size])
            if len(cols["data"]) == 8:
                yield batch()
    if cols["data"]:
        yield batch()


def chunk_schema(keys):
    """The Spark schema of ``chunk_batches(keys, ...)``."""
    return ", ".join([f"{c} int" for c in keys] + ["seq int", "data binary"])


def joined(batches, keys):
    """``{key values: bytes}`` of chunks (Arrow batches or tables with the
    columns of ``chunk_batches``), each blob's chunks put together in order,
    whatever order they arrive in; keys in ascending order."""
    parts = {}
    for b in batches:
        cols = [b.column(c).to_pylist() for c in keys]
        for *key, i, data in zip(*cols, b.column("seq").to_pylist(),
                                 b.column("data").to_pylist()):
            parts.setdefault(tuple(key), []).append((i, data))
    return {key: b"".join(d for _, d in sorted(parts[key])) for key in sorted(parts)}


def read_tables(df, label, score, weight=None):
    """Job 1: each partition validated and sorted once into its table, kept
    with its summary (a persisted DataFrame of one row per partition:
    ``meta``, ``table``; the caller unpersists it)."""
    import pyarrow as pa
    from pyspark import StorageLevel

    names = {"y": label, "s": score, "w": weight}
    sel = select_columns(df, label, score, weight)

    def read(batches):
        y, s, w, part = partition_arrays(batches, names)
        table, meta = read_table(y, s, w, row_of_partition(part))
        yield pa.RecordBatch.from_pydict({"part": pa.array([part], pa.int32()),
                                          "n": pa.array([len(y)], pa.int64()),
                                          "meta": pa.array([blob(meta)], pa.binary()),
                                          "table": pa.array([blob(table)], pa.binary())})

    return sel.mapInArrow(read, "part int, n long, meta binary, table binary").persist(
        StorageLevel.MEMORY_AND_DISK)


class Ranges(NamedTuple):
    """One score column's key ranges, merged and persisted: ``merged`` has a
    row per non-empty range (``range``, ``P``, ``N``, ``K`` keys, ``table``);
    ``totals[k]`` is range k's ``(P, N, K)``; ``splitters`` cut the keys
    into the ranges; ``offsets[p]`` is the global position of partition
    p's first row (the rows in partition order, then in their order there:
    the order ``df.collect()`` gives)."""

    merged: object
    totals: list
    classes: np.ndarray
    rows: list
    n_ranges: int
    splitters: np.ndarray
    offsets: dict
    areas: list  # each range's twice area swept from zero (``combine_areas``)


@contextmanager
def key_ranges(df, label, score, weight=None, positive=None, rule="greater", keep=True):
    """The range-partitioned table of a score column (:class:`Ranges`), kept
    while the ``with`` block runs: three jobs (read and sort each partition
    once; cut and merge per key range; the ranges' totals).  The driver
    receives a summary per partition (64 keys) and the totals per range,
    never the rows or the distinct scores.  With ``keep`` False only the
    ranges' totals and areas are computed: the merged tables are neither
    sent back to Spark nor persisted (``merged`` is then None)."""
    import pyarrow as pa
    from pyspark import StorageLevel

    tables = read_tables(df, label, score, weight)
    merged = None
    try:
        got = collect(tables.select("part", "n", "meta"))
        metas = [pickle.loads(r.meta) for r in got]
        ends = np.cumsum([r.n for r in got])
        offsets = {r.part: int(e - r.n) for r, e in zip(got, ends)}
        classes = oriented(classes_of(metas), positive, rule)
        rows = rows_per_class(metas, classes)
        n_ranges = n_ranges_for(len(metas), sum(rows))
        splitters = splitters_of(metas, n_ranges)

        # each partition's table cut at the splitters; per key range, the
        # pieces merged (a shuffle of tables, not of rows)
        def cut_pieces(batches):
            ks, parts, blobs = [], [], []
            for batch in batches:
                for part, meta, table in zip(batch.column("part").to_pylist(),
                                             batch.column("meta").to_pylist(),
                                             batch.column("table").to_pylist()):
                    pieces = cut_rows_table(pickle.loads(table), pickle.loads(meta), classes,
                                            splitters, n_ranges)
                    for k, piece in enumerate(pieces):
                        if len(piece):
                            ks.append(k)
                            parts.append(part)
                            blobs.append(blob(piece))
            if ks:
                yield pa.RecordBatch.from_pydict({"range": pa.array(ks, pa.int32()),
                                                  "part": pa.array(parts, pa.int32()),
                                                  "piece": pa.array(blobs, pa.binary())})

        def merge_range(pieces):
            # in partition order, whatever order the shuffle brings them in:
            # the same sums, to the bit, on every run and retry
            blobs = pieces.column("piece").to_pylist()
            order = np.argsort(pieces.column("part").to_numpy(), kind="stable")
            t = merge_tables(*[pickle.loads(blobs[i]) for i in order])
            return pa.table({"range": pa.array([pieces.column("range")[0].as_py()], pa.int32()),
                             "P": [float(t.pos.sum())], "N": [float(t.neg.sum())],
                             "K": pa.array([len(t)], pa.int64()),
                             "A": [float(t.sweep().area2)],
                             "table": pa.array([blob(t) if keep else b""], pa.binary())})

        # in about one task per range: a Python task costs tens of ms on its
        # own, and cutting a table is a search per splitter (64 partitions of
        # a small table: 6 s a call before, as many tasks as partitions)
        merged = (tables.coalesce(n_ranges)
                  .mapInArrow(cut_pieces, "range int, part int, piece binary")
                  .transform(lambda d: apply_in_groups(
                      d.groupBy("range"), merge_range,
                      "range int, P double, N double, K long, A double, table binary")))
        if keep:
            merged = merged.persist(StorageLevel.MEMORY_AND_DISK)
        totals = [(0.0, 0.0, 0)] * n_ranges
        areas = [0.0] * n_ranges
        for r in collect(merged.select("range", "P", "N", "K", "A")):
            totals[r.range] = (r.P, r.N, r.K)
            areas[r.range] = r.A
        tables.unpersist()  # the merged ranges are computed (and kept)
        yield Ranges(merged if keep else None, totals, classes, rows, n_ranges, splitters,
                     offsets, areas)
    finally:
        tables.unpersist()
        if merged is not None and keep:
            merged.unpersist()


def per_range(ranges, fn, *args, stream=False):
    """``[(k, fn(table, totals, k, *args))]`` for every non-empty range k,
    in range order (top first), each computed where its range is.

    With ``stream`` (results as large as a curve: 24 bytes a distinct score)
    each result is cut into chunks, the chunks spread over partitions of
    about an eighth of ``spark.driver.maxResultSize`` each, and the
    partitions fetched one at a time (``toLocalIterator``): no job returns
    more than the driver allows, however long the curve."""
    import pyarrow as pa

    totals = ranges.totals
    limit = result_limit(ranges.merged.sparkSession)
    chunk = max(1 << 16, min(64 << 20, limit // 32))

    def run(batches):
        for batch in batches:
            ks = batch.column("range").to_pylist()
            out = [blob(fn(pickle.loads(b), totals, k, *args))
                   for k, b in zip(ks, batch.column("table").to_pylist())]
            if not stream:
                yield pa.RecordBatch.from_pydict({"range": pa.array(ks, pa.int32()),
                                                  "chunk": pa.array([0] * len(ks), pa.int32()),
                                                  "out": pa.array(out, pa.binary())})
                continue
            for k, data in zip(ks, out):
                pieces = [data[i:i + chunk] for i in range(0, len(data), chunk)]
                yield pa.RecordBatch.from_pydict({
                    "range": pa.array([k] * len(pieces), pa.int32()),
                    "chunk": pa.array(list(range(len(pieces))), pa.int32()),
                    "out": pa.array(pieces, pa.binary())})

    df = ranges.merged.mapInArrow(run, "range int, chunk int, out binary")
    if not stream:
        return sorted((r.range, pickle.loads(r.out)) for r in collect(df))
    from pyspark.sql import functions as F

    expected = sum(24 * t[2] + 4096 for t in totals)  # a curve's bytes, about
    n_parts = max(1, -(-expected * 4 // chunk) // 16)  # about 4 chunks a partition
    spread = df.repartition(n_parts, F.col("range") * (1 << 20) + F.col("chunk"))
    parts = {}
    for r in local_rows(spread):
        parts.setdefault(r.range, []).append((r.chunk, r.out))
    return [(k, pickle.loads(b"".join(b for _, b in sorted(parts[k])))) for k in sorted(parts)]


_UNITS = {"b": 1, "k": 1 << 10, "kb": 1 << 10, "m": 1 << 20, "mb": 1 << 20, "g": 1 << 30,
          "gb": 1 << 30, "t": 1 << 40, "tb": 1 << 40, "p": 1 << 50, "pb": 1 << 50}


def result_limit(spark):
    """``spark.driver.maxResultSize`` in bytes (Spark's default 1g; 0, no
    limit, taken as 4 GiB)."""
    text = str(spark.conf.get("spark.driver.maxResultSize", "1g")).strip().lower()
    digits = text.rstrip("bkmgtp")
    size = int(digits) * _UNITS.get(text[len(digits):] or "b", 1)
    return size if size > 0 else 4 << 30


def local_rows(df):
    """``df.toLocalIterator()`` as a list, worker errors raised as in ``collect``."""
    return _worker_errors(lambda: list(df.toLocalIterator()))


def tallies_of(ranges):
    """What ``_adapters.ranges.combine`` gives: the twice area, AP numerator,
    DeLong moments, class weights, classes and rows per class."""
    swept = [s for _, s in per_range(ranges, sweep)]
    if not swept:  # rows, but every one of zero weight: no range has a key
        swept = [(0.0, 0.0, None)]
    return combine(swept, ranges.totals, ranges.classes, ranges.rows)


def auc_tallies(df, label, score, weight=None):
    """The tallies ``auc_of`` needs, without the sweeps' job: the ranges'
    areas from zero, put together on the driver (``combine_areas``)."""
    with key_ranges(df, label, score, weight, keep=False) as ranges:
        return combine_areas(ranges.areas, ranges.totals, ranges.classes, ranges.rows)


def tallies(df, label, score, weight=None, positive=None, rule="greater"):
    """``tallies_of`` one score column of a Spark DataFrame, oriented to
    ``positive`` (by default the greater label): four jobs, each partition
    read and sorted once."""
    with key_ranges(df, label, score, weight, positive, rule) as ranges:
        return tallies_of(ranges)


def curve(df, label, score, weight, pos_label, max_points):
    """``curve_tallies`` of a score column (scikit-learn's rule for the
    positive class): the ranges' points, thinned on the executors to about
    ``max_points`` when given, streamed back with the sweeps' sums."""
    check_max_points(max_points)
    with key_ranges(df, label, score, weight, pos_label, "sklearn") as ranges:
        out = per_range(ranges, _points_and_sweep, max_points, stream=True)
        swept = [s for _, (_, s) in out] or [(0.0, 0.0, None)]
        t = combine(swept, ranges.totals, ranges.classes, ranges.rows)
        return curve_tallies([p for _, (p, _) in out], t)


def _points_and_sweep(table, totals, k, max_points):
    return range_points(table, totals, k, max_points), sweep(table, totals, k)
