"""``auc_over_time`` on Spark: the Dask adapter's plan (``_adapters.over_time``)
with a DataFrame's partitions as the blocks and a shuffle by bucket of
periods."""

from __future__ import annotations

import pickle

import numpy as np

from .. import _validation as v
from .._adapters.docstrings import spark_doc
from .._adapters.over_time import (assemble, block_stats, block_tables, bucket_sums, merged,
                                   plan, split_buckets)
from .._stats import ALTERNATIVES as _ALTERNATIVES
from .ranges import apply_in_groups, blob, collect, load_spark, partition_columns, select_scores


def _columns(df, y_true, y_score, time, sample_weight):
    """The label (nulls allowed: not labelled yet), score, weight and time
    columns, the names checked before any job (the label and the time go as
    group columns, which keep nulls and any type)."""
    sel = select_scores(df, y_true, [y_score], sample_weight, aliases=["s"],
                        groups=[time, y_true])
    return sel.drop("y")


@spark_doc
def auc_over_time(df, y_true, y_score, time, *, freq, window=None, reference="first",
                  adjust="holm", expected="auto", alternative="less", confidence_level=0.95,
                  sample_weight=None, pos_label=None):
    """:func:`fastauc.auc_over_time` of a Spark DataFrame's columns: the same
    periods, windows, intervals and tests.

    A first job reads each partition's labels and time and score ranges; a
    second folds each partition's rows into one table of distinct scores per
    period and sends the tables to buckets of consecutive periods (each with
    the ``window / freq - 1`` periods before it), where the windows are
    merged and swept; the driver receives one row of numbers per period.

    Parameters
    ----------
    {df}
    {y_true}
    {y_score}
    time : str
        The time column (timestamps, dates or numbers).
    freq, window, reference, adjust, expected
        As :func:`fastauc.auc_over_time` (``reference`` a period index,
        ``"first"``, a ``(start, end)`` pair or None).
    {alternative/over_time}
    {confidence_level/over_time}
    {sample_weight/delong}
    {pos_label/greater}

    Returns
    -------
    fastauc.AUCOverTime
        The in-memory function's record (equal to it to rounding).

    See Also
    --------
    fastauc.auc_over_time : The in-memory function.
    fastauc.dask.auc_over_time : The same on Dask.

    Examples
    --------
    >>> SESSION
    >>> from pyspark.sql import functions as F
    >>> days = df.withColumn("day", (F.monotonically_increasing_id() % 5).cast("double"))
    >>> res = fastauc.spark.auc_over_time(days, "label", "score", "day", freq=1.0)
    >>> len(res), res.start.tolist()
    (5, [0.0, 1.0, 2.0, 3.0, 4.0])
    """
    import pyarrow as pa

    level = v.check_confidence_level(confidence_level)
    v.check_choice(alternative, "alternative", _ALTERNATIVES)
    v.check_choice(adjust, "adjust", ("holm", "bonferroni", None))
    v.check_choice(expected, "expected", ("auto", True, False))
    load_spark()
    names = {"s": y_score, "w": sample_weight, "g0": time, "g1": y_true}
    sel = _columns(df, y_true, y_score, time, sample_weight)

    def read(batches):
        c, part = partition_columns(batches, names)
        return c["g1"], c["s"], c.get("w"), c["g0"], part

    def stats_job(batches):  # job 1: each partition's labels and ranges
        y, s, _, t, part = read(batches)
        st = block_stats(y, s, t, f"Spark partition {part}")
        yield pa.RecordBatch.from_pydict({"meta": pa.array([blob(st)], pa.binary())})

    stats = [pickle.loads(r.meta) for r in collect(sel.mapInArrow(stats_job, "meta binary"))]
    p = plan(stats, freq, window, pos_label, expected, reference, len(stats))
    k, bounds = p.k, p.bounds

    def tables_job(batches):  # job 2: each partition's tables, dealt to buckets
        y, s, w, t, part = read(batches)
        if not len(s):
            return
        tables = block_tables(y, s, w, t, p.step, p.first, p.positive, p.want, p.ref_bounds)
        pieces = split_buckets(tables, bounds, k)
        keys = [b for b, piece in enumerate(pieces) if piece[0] or piece[1]]
        if tables[2] is not None:
            keys.append(-1)
        yield pa.RecordBatch.from_pydict({
            "bucket": pa.array(keys, pa.int32()), "part": pa.array([part] * len(keys), pa.int32()),
            "data": pa.array([blob(pieces[b] if b >= 0 else tables[2]) for b in keys],
                             pa.binary())})

    def bucket_job(group):
        b = group.column("bucket")[0].as_py()
        order = np.argsort(group.column("part").to_numpy(), kind="stable")
        data = group.column("data").to_pylist()
        items = [pickle.loads(data[i]) for i in order]
        out = merged(items) if b < 0 else bucket_sums(k, bounds[b], bounds[b + 1], p.probs,
                                                       p.want, *items)
        return pa.table({"bucket": pa.array([b], pa.int32()), "out": pa.array([blob(out)],
                                                                                pa.binary())})

    grouped = sel.mapInArrow(tables_job, "bucket int, part int, data binary").groupBy("bucket")
    got = {r.bucket: pickle.loads(r.out) for r in collect(
        apply_in_groups(grouped, bucket_job, "bucket int, out binary"))}
    return assemble([got.get(b) for b in range(len(bounds) - 1)], got.get(-1), p, reference,
                    level, alternative, adjust)
