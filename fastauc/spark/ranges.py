"""The range-partitioned distinct-score table of a score column on Spark:
the jobs every ``fastauc.spark`` function builds on (see the package
docstring).  The steps are ``fastauc._adapters.ranges``'s, as on Dask; only
the way they run is Spark's: Arrow batches through ``mapInArrow`` and
``groupBy().applyInArrow``, nothing but the DataFrame API."""

from __future__ import annotations

import pickle

import numpy as np

from .._adapters.ranges import (
    classes_of,
    combine,
    cut_rows_table,
    merge_tables,
    n_ranges_for,
    oriented,
    read_table,
    rows_per_class,
    splitters_of,
    sweep,
)

NUMERIC = ("tinyint", "smallint", "int", "bigint", "float", "double")
LABELS = NUMERIC + ("boolean", "string")


def load_spark():
    try:
        import pyarrow  # noqa: F401 - mapInArrow hands over Arrow batches
        from pyspark.sql import functions as F
    except ImportError:  # pragma: no cover - the extra is not installed
        raise ImportError("fastauc.spark needs pyspark and pyarrow: "
                          "pip install 'fastauc[spark]'") from None
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
    F = load_spark()
    fields = {f.name: f for f in df.schema.fields}
    wanted = [("y_true", label, LABELS), ("y_score", score, NUMERIC)]
    if weight is not None:
        wanted.append(("sample_weight", weight, NUMERIC))
    cols = []
    for (role, name, allowed), alias in zip(wanted, ("y", "s", "w")):
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
    return df.select(*cols)


def _where(part):
    return lambda i: f"row {i} of Spark partition {part}"


def _partition():
    from pyspark import TaskContext

    ctx = TaskContext.get()
    return ctx.partitionId() if ctx is not None else 0


def partition_arrays(batches, names):
    """The Arrow batches of one partition as numpy arrays (``y``, ``s``, and
    ``w`` or None); a null raises, naming the column and the row."""
    import pyarrow as pa

    batches = list(batches)
    part = _partition()
    if not batches:
        return np.empty(0), np.empty(0), None, part
    table = pa.Table.from_batches(batches).combine_chunks()
    out = []
    for col in ("y", "s", "w"):
        if col not in table.column_names:
            out.append(None)
            continue
        arr = table.column(col)
        if arr.null_count:
            i = int(np.flatnonzero(arr.is_null().to_numpy(zero_copy_only=False))[0])
            role = {"y": "y_true", "s": "y_score", "w": "sample_weight"}[col]
            raise ValueError(f"{role} (column {names[col]!r}) has a null at row {i} of Spark "
                             f"partition {part}: drop or fill the nulls first")
        out.append(arr.to_numpy(zero_copy_only=False))
    return out[0], out[1], out[2], part


def collect(df):
    """``df.collect()``, an error raised in a Python worker raised again here
    as what it was (a ``ValueError`` or ``TypeError`` with its message),
    instead of Spark's wrapper of the worker's traceback."""
    from pyspark.errors import PythonException

    try:
        return df.collect()
    except PythonException as exc:
        text = str(exc)
        for kind in (ValueError, TypeError):
            head = f"{kind.__name__}: "
            lines = [line for line in text.splitlines() if line.startswith(head)]
            if lines:
                raise kind(lines[-1][len(head):]) from None
        raise


def _blob(obj):
    return pickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL)


def tallies(df, label, score, weight=None, positive=None, rule="greater"):
    """What ``_adapters.ranges.combine`` gives for one score column of a
    Spark DataFrame: the twice area, AP numerator, DeLong moments, class
    weights, classes and rows per class, oriented to ``positive`` (by default
    the greater label).  Four jobs, each partition read and sorted once (its
    table persisted until the ranges are merged); the driver receives a
    summary per partition (64 keys), the class weights per key range and each
    range's sums, never the rows or the distinct scores."""
    import pyarrow as pa

    names = {"y": label, "s": score, "w": weight}
    sel = select_columns(df, label, score, weight)

    # 1. per partition: validated and sorted once into its table (kept,
    # persisted, for the cut: the source is read and sorted once), summarised
    def read_tables(batches):
        y, s, w, part = partition_arrays(batches, names)
        table, meta = read_table(y, s, w, _where(part))
        yield pa.RecordBatch.from_pydict({"meta": pa.array([_blob(meta)], pa.binary()),
                                          "table": pa.array([_blob(table)], pa.binary())})

    from pyspark import StorageLevel

    tables = sel.mapInArrow(read_tables, "meta binary, table binary") \
        .persist(StorageLevel.MEMORY_AND_DISK)
    try:
        return _tallies_of(tables, positive, rule)
    finally:
        tables.unpersist()


def _tallies_of(tables, positive, rule):
    """``tallies`` from the persisted per-partition tables and summaries."""
    import pyarrow as pa
    from pyspark import StorageLevel

    metas = [pickle.loads(r.meta) for r in collect(tables.select("meta"))]
    classes = oriented(classes_of(metas), positive, rule)
    rows = rows_per_class(metas, classes)
    n_ranges = n_ranges_for(len(metas), sum(rows))
    splitters = splitters_of(metas, n_ranges)

    # 2. per partition: its table cut at the splitters; per key range: the
    # pieces merged (a shuffle of tables, not of rows)
    def cut_pieces(batches):
        ks, blobs = [], []
        for batch in batches:
            for meta, table in zip(batch.column("meta").to_pylist(),
                                   batch.column("table").to_pylist()):
                pieces = cut_rows_table(pickle.loads(table), pickle.loads(meta), classes,
                                        splitters, n_ranges)
                for k, piece in enumerate(pieces):
                    if len(piece):
                        ks.append(k)
                        blobs.append(_blob(piece))
        if ks:
            yield pa.RecordBatch.from_pydict({"range": pa.array(ks, pa.int32()),
                                              "piece": pa.array(blobs, pa.binary())})

    def merge_range(pieces):
        tables = [pickle.loads(b) for b in pieces.column("piece").to_pylist()]
        t = merge_tables(*tables)
        return pa.table({"range": pa.array([pieces.column("range")[0].as_py()], pa.int32()),
                         "P": [float(t.pos.sum())], "N": [float(t.neg.sum())],
                         "table": pa.array([_blob(t)], pa.binary())})

    merged = (tables.mapInArrow(cut_pieces, "range int, piece binary")
              .groupBy("range")
              .applyInArrow(merge_range, "range int, P double, N double, table binary")
              .persist(StorageLevel.MEMORY_AND_DISK))
    try:
        totals = [(0.0, 0.0)] * n_ranges
        for r in collect(merged.select("range", "P", "N")):
            totals[r.range] = (r.P, r.N)

        # 3. per key range: swept from the weight above it
        def sweep_ranges(batches):
            for batch in batches:
                ks = batch.column("range").to_pylist()
                out = [_blob(sweep(pickle.loads(b), totals, k))
                       for k, b in zip(ks, batch.column("table").to_pylist())]
                yield pa.RecordBatch.from_pydict({"range": pa.array(ks, pa.int32()),
                                                  "sweep": pa.array(out, pa.binary())})

        swept = sorted((r.range, pickle.loads(r.sweep)) for r in
                       collect(merged.mapInArrow(sweep_ranges, "range int, sweep binary")))
    finally:
        merged.unpersist()
    if not swept:  # rows, but every one of zero weight: no range has a key
        swept = [(0, (0.0, 0.0, None))]
    return combine([s for _, s in swept], totals, classes, rows)
