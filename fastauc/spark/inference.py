"""Paired DeLong and the Poisson bootstrap on Spark."""

from __future__ import annotations

import pickle

import numpy as np

from .. import _validation as v
from .._adapters.docstrings import spark_doc
from .._adapters.inference import (
    block_cluster_sums,
    block_covariance,
    clustered_of,
    warn_small_clusters,
    bootstrap_result,
    bootstrap_test_result,
    check_poisson,
    covariance_of,
    range_replicates,
    replicates_of,
    rows_by_range,
)
from .._adapters.ranges import (
    aucs_only,
    classes_of,
    combine,
    cut_rows_table,
    merge_placed_pieces,
    n_ranges_for,
    oriented,
    read_rows,
    rows_per_class,
    splitters_of,
    sweep,
)
from .._stats import ALTERNATIVES as _ALTERNATIVES
from . import ranges as ranges_module
from .ranges import (
    apply_in_groups,
    blob,
    chunk_batches,
    chunk_schema,
    collect,
    collect_arrow,
    joined,
    key_ranges,
    partition_columns,
    row_of_partition,
    select_scores,
    tallies_of,
)

def _score_names(y_scores):
    if isinstance(y_scores, str):
        return [y_scores]
    names = list(y_scores)
    if not names:
        raise ValueError("y_scores: at least one score column is needed")
    return names


def delong_parts(df, y_true, y_scores, sample_weight, positive=None, per_range=None,
                 cluster=None):
    """``(aucs, covariance)`` of k score columns of a Spark DataFrame; with
    ``per_range`` (a function ``(table, totals, k) -> share``, as
    ``_adapters.reports.range_report`` with its options bound), also each
    model's tallies and its ranges' shares, from the same sort:
    ``(aucs, covariance, tallies, shares)``.

    1. each partition, read once, gives per model its table with every
       row's position in it (``read_rows``), persisted with the labels and
       weights; the driver receives the summaries;
    2. per model, the tables are cut at that model's splitters and each
       (model, range) merged, giving every piece its keys' placement
       numerators within the range (``merge_placed_pieces``);
    3. the ranges' class weights (driver), each range's sweep (the AUCs);
    4. the placement numerators go back to their partition (grouped by
       partition with its rows), which adds its share of DeLong's sums
       (``block_covariance``); the driver adds them up.  With ``cluster``
       (a column name), each partition sums its rows' placements per cluster
       instead (``block_cluster_sums``) and the driver adds those up by
       cluster id into Obuchowski's covariance.
    """
    import pyarrow as pa
    from pyspark import StorageLevel
    from pyspark.sql import functions as F

    scores = _score_names(y_scores)
    k = len(scores)
    names = {"y": y_true, "w": sample_weight, "c": cluster,
             **{f"s{j}": s for j, s in enumerate(scores)}}
    sel = select_scores(df, y_true, scores, sample_weight, cluster=cluster)
    # every blob travels cut into chunks (chunk_batches): kind 0 the summaries,
    # 1 the tables, 2 the rows (labels, weights, positions in the tables)
    keys = ("part", "kind")
    size = ranges_module.CHUNK_BYTES  # read here, so the tasks all cut alike

    def read(batches):
        cols, part = partition_columns(batches, names)
        y, w = cols["y"], cols.get("w")
        read = [read_rows(y, cols[f"s{j}"], w, row_of_partition(part)) for j in range(k)]
        yield from chunk_batches(keys, [((part, 0), blob([r[1] for r in read])),
                                        ((part, 1), blob([r[0] for r in read])),
                                        ((part, 2), blob((y, w, [r[2] for r in read],
                                                          cols.get("c"))))],
                                 size)

    parts = sel.mapInArrow(read, chunk_schema(keys)).persist(StorageLevel.DISK_ONLY)
    merged = None
    try:
        got = joined([collect_arrow(parts.filter(F.col("kind") == 0))], keys)
        metas = {part: pickle.loads(b) for (part, _), b in got.items()}
        by_model = [[m[j] for m in metas.values()] for j in range(k)]
        classes = oriented(classes_of(by_model[0]), positive)
        rows = rows_per_class(by_model[0], classes)
        n_ranges = n_ranges_for(len(metas), sum(rows))
        splitters = [splitters_of(by_model[j], n_ranges) for j in range(k)]
        piece_keys = ("model", "range", "part")

        def cut_pieces(batches):
            for (part, _), data in joined(batches, keys).items():
                tables = pickle.loads(data)
                for j in range(k):
                    pieces = cut_rows_table(tables[j], metas[part][j], classes, splitters[j],
                                            n_ranges)
                    yield from chunk_batches(piece_keys, [
                        ((j, r, part), blob(piece)) for r, piece in enumerate(pieces)
                        if len(piece)], size)

        def merge(chunks):
            # in partition order, whatever order the shuffle brings them in
            pieces = joined([chunks], piece_keys)
            model, rng, _ = next(iter(pieces))
            table, values = merge_placed_pieces(*[pickle.loads(b) for b in pieces.values()])
            out = [((model, rng, -2), blob((float(table.pos.sum()), float(table.neg.sum())))),
                   ((model, rng, -1), blob(table))]
            out += [((model, rng, part), blob(x)) for (_, _, part), x in zip(pieces, values)]
            return pa.Table.from_batches(list(chunk_batches(piece_keys, out, size)))

        merged = (parts.filter(F.col("kind") == 1).coalesce(n_ranges)
                  .mapInArrow(cut_pieces, chunk_schema(piece_keys))
                  .transform(lambda d: apply_in_groups(d.groupBy("model", "range"), merge,
                                                       chunk_schema(piece_keys)))
                  .persist(StorageLevel.DISK_ONLY))
        totals = [[(0.0, 0.0)] * n_ranges for _ in range(k)]
        for (m, r, _), b in joined([collect_arrow(merged.filter(F.col("part") == -2))],
                                   piece_keys).items():
            totals[m][r] = pickle.loads(b)

        def sweeps(batches):
            out = {"model": [], "range": [], "out": []}
            for (m, r, _), b in joined(batches, piece_keys).items():
                table = pickle.loads(b)
                share = None if per_range is None else per_range(table, totals[m], r)
                out["model"].append(m)
                out["range"].append(r)
                out["out"].append(blob((sweep(table, totals[m], r), share)))
            yield pa.RecordBatch.from_pydict({"model": pa.array(out["model"], pa.int32()),
                                              "range": pa.array(out["range"], pa.int32()),
                                              "out": pa.array(out["out"], pa.binary())})

        swept = [[] for _ in range(k)]
        shares = [[] for _ in range(k)]
        ranges = merged.filter(F.col("part") == -1)
        for r in sorted(collect(ranges.mapInArrow(sweeps, "model int, range int, out binary")),
                        key=lambda r: (r.model, r.range)):
            s, share = pickle.loads(r.out)
            swept[r.model].append(s)
            shares[r.model].append(share)
        tallies = [combine(s or [(0.0, 0.0, None)], totals[j], classes, rows)
                   for j, s in enumerate(swept)]
        aucs = aucs_only(tallies)

        def covariance(chunks):
            got = joined([chunks], ("model", "range"))
            y, w, rows_at, c = pickle.loads(got.pop((-1, -1)))
            values = [[np.empty(0)] * n_ranges for _ in range(k)]
            for (m, r), b in got.items():
                values[m][r] = pickle.loads(b)
            flat = [x for per_model in values for x in per_model]
            if c is None:
                sums = block_covariance(y, w, classes, aucs, rows_at, totals, *flat)
            else:
                sums = block_cluster_sums(y, w, classes, k, rows_at, totals, c, *flat)
            return pa.table({"sums": pa.array([blob(sums)], pa.binary())})

        own_rows = parts.filter(F.col("kind") == 2).select(
            F.lit(-1).alias("model"), F.lit(-1).alias("range"), "part", "seq", "data")
        placed = merged.filter(F.col("part") >= 0)
        sums = [pickle.loads(r.sums) for r in collect(
            apply_in_groups(own_rows.unionByName(placed).groupBy("part"), covariance,
                            "sums binary"))]
        if cluster is not None:
            return warn_small_clusters(*clustered_of(sums, tallies))
        aucs, cov = covariance_of(sums, tallies)
        return (aucs, cov) if per_range is None else (aucs, cov, tallies, shares)
    finally:
        parts.unpersist()
        if merged is not None:
            merged.unpersist()


@spark_doc
def delong_covariance(df, y_true, y_scores, *, sample_weight=None, cluster=None):
    """:func:`fastauc.delong_covariance` of k score columns of a Spark
    DataFrame: ``(aucs, covariance)``, the in-memory numbers.

    Each model's table is range-partitioned as for :func:`roc_auc_score`;
    every piece of a partition's table gets its keys' placements within its
    range where the range is merged, and those go back to the partition,
    whose rows find theirs by position (kept from the one sort): each
    partition adds its share of DeLong's sums.  No task holds more than a
    partition's rows or a range's table; the driver receives sums.

    Parameters
    ----------
    {df}
    {y_true}
    {y_scores}
    {sample_weight/delong}
    {cluster/delong}

    Returns
    -------
    aucs : ndarray of shape (k,)
        Each model's AUC.
    cov : ndarray of shape (k, k)
        ``cov[a, b] = S10[a, b] / m + S01[a, b] / n``, with ``S10`` and ``S01``
        the sample covariances of the positives' and negatives' placement
        values, as pROC computes them (the in-memory numbers).

    Raises
    ------
    ValueError
        As :func:`roc_auc_score`, for each column.

    See Also
    --------
    fastauc.delong_covariance : The in-memory function.
    fastauc.dask.delong_covariance : The same on Dask.
    delong_test : The paired test of two columns.

    Examples
    --------
    >>> SESSION
    >>> df = df.withColumn("other", df.score * df.score)
    >>> aucs, cov = fastauc.spark.delong_covariance(df, "label", ["score", "other"])
    >>> ref = fastauc.delong_covariance(y, np.column_stack([s, s * s]))
    >>> bool(np.allclose(cov, ref[1], rtol=1e-12, atol=0))
    True
    """
    return delong_parts(df, y_true, y_scores, sample_weight, cluster=cluster)


@spark_doc
def delong_test(df, y_true, y_score_a, y_score_b, *, alternative="two-sided",
                confidence_level=0.95, sample_weight=None, cluster=None):
    """:func:`fastauc.delong_test` (paired) of two score columns of a Spark
    DataFrame.

    Parameters
    ----------
    {df}
    {y_true}
    {y_score_a}
    {y_score_b}
    {alternative}
    {confidence_level/difference}
    {sample_weight/delong}
    {cluster/delong}

    Returns
    -------
    result : fastauc.DeLongTestResult
        ``statistic`` (z), ``pvalue``, ``difference`` (auc_a - auc_b), ``low``,
        ``high``, ``se``, ``auc_a``, ``auc_b``.  Identical scores give z = 0,
        p = 1.

    Raises
    ------
    ValueError
        As :func:`delong_covariance`, and options outside their choices.

    See Also
    --------
    fastauc.delong_test : The in-memory function.
    fastauc.dask.delong_test : The same on Dask.

    Examples
    --------
    >>> SESSION
    >>> df = df.withColumn("other", df.score * df.score)
    >>> res = fastauc.spark.delong_test(df, "label", "score", "other")
    >>> abs(res.pvalue - fastauc.delong_test(y, s, s * s).pvalue) < 1e-12
    True
    """
    from .._delong import paired_test

    v.check_choice(alternative, "alternative", _ALTERNATIVES)
    level = v.check_confidence_level(confidence_level)
    aucs, cov = delong_parts(df, y_true, [y_score_a, y_score_b], sample_weight,
                             cluster=cluster)
    return paired_test(aucs, cov, 0, 1, level, alternative)


def replicates(df, y_true, y_score, sample_weight, seed, n_resamples, positive=None,
               scores=None, cluster=None):
    """``(tallies, every replicate's AUC)`` of one score column: the key
    ranges as for :func:`roc_auc_score`, then the rows read again, each with
    its global position (its partition's offset plus its row there), sent to
    its key range, where one task sweeps every replicate.

    The second read selects all of the call's ``scores`` (default: this one),
    so that every model of one call numbers the rows alike: a plan whose row
    order depends on the columns read (an uncached round-robin
    ``repartition(n)`` sorts the rows it deals out) gives each projection its
    own order."""
    import pyarrow as pa

    others = [c for c in dict.fromkeys(scores or ()) if c != y_score]
    names = {"y": y_true, "s": y_score, "w": sample_weight, "c": cluster}
    names.update((f"o{j}", c) for j, c in enumerate(others))
    with key_ranges(df, y_true, y_score, sample_weight, positive) as ranges:
        tallies = tallies_of(ranges)
        classes, splitters, n_ranges = ranges.classes, ranges.splitters, ranges.n_ranges
        offsets = ranges.offsets

        def split_rows(batches):
            cols, part = partition_columns(batches, names)
            pieces = rows_by_range(cols["y"], cols["s"], cols.get("w"), offsets[part], classes,
                                   splitters, n_ranges, cols.get("c"))
            ks = [k for k, p in enumerate(pieces) if p[0].shape[0]]
            if ks:
                yield pa.RecordBatch.from_pydict({
                    "range": pa.array(ks, pa.int32()),
                    "piece": pa.array([blob(pieces[k]) for k in ks], pa.binary())})

        def sums(group):
            pieces = [pickle.loads(b) for b in group.column("piece").to_pylist()]
            return pa.table({"range": pa.array([group.column("range")[0].as_py()], pa.int32()),
                             "sums": pa.array([blob(range_replicates(seed, n_resamples,
                                                                     *pieces))], pa.binary())})

        rows = select_scores(df, y_true, [y_score] + others, sample_weight,
                             aliases=["s"] + [f"o{j}" for j in range(len(others))],
                             cluster=cluster) \
            .mapInArrow(split_rows, "range int, piece binary")
        got = sorted((r.range, pickle.loads(r.sums)) for r in collect(
            apply_in_groups(rows.groupBy("range"), sums, "range int, sums binary")))
    if not got:
        raise ValueError("every bootstrap replicate had a single class")
    return tallies, replicates_of([x for _, x in got])


@spark_doc
def bootstrap_ci(df, y_true, y_score, *, metric="roc_auc", n_resamples=1000,
                 confidence_level=0.95, method="percentile", stratified=None,
                 sample_weight=None, random_state=None, scheme="poisson", cluster=None):
    """:func:`fastauc.bootstrap_ci` with ``scheme="poisson"`` of a Spark
    DataFrame's columns: every replicate equal to the in-memory one.

    A row's Poisson(1) count in replicate ``r`` is a function of the seed,
    ``r`` and the row's global position only.  Spark has no row index: the
    position is defined as the rows' order in
    ``df.select(y_true, y_score[, sample_weight]).collect()`` (partition by
    partition, each in its order), from each partition's row count (known
    after the first job, at no extra cost).  That is ``df.collect()``'s
    order too, unless the plan orders rows by columns not read: an uncached
    round-robin ``repartition(n)`` sorts the rows it deals out, so it deals
    out other rows when fewer columns are read (cache it first to fix one
    order).  The rows are then read a second time and sent, with their
    positions, to their key ranges (a shuffle of rows: 8 bytes of key, the
    label and weight, 8 bytes of position), where one task sweeps all the
    replicates.  The partitioning must be the same on both reads, as it is
    for a cached DataFrame, a table or Parquet files.

    Parameters
    ----------
    {df}
    {y_true}
    {y_score}
    {metric/bootstrap}
    {n_resamples}
    {confidence_level}
    {method/bootstrap}
    {stratified}
    {sample_weight/bootstrap}
    {random_state}
    {scheme}
    {cluster/bootstrap}

    Returns
    -------
    result : fastauc.BootstrapResult
        ``estimate`` (the AUC of all rows), ``low``, ``high``, ``se`` (the
        standard deviation of the replicates), ``method``, ``n_resamples``,
        ``n_dropped`` (replicates whose resample has no weight in a class)
        and ``replicates`` (NaN where dropped).

    Raises
    ------
    ValueError
        As :func:`roc_auc_score`, options outside their choices, and every
        replicate with a single class.

    See Also
    --------
    fastauc.bootstrap_ci : The in-memory function.
    fastauc.dask.bootstrap_ci : The same on Dask.

    Examples
    --------
    >>> SESSION
    >>> res = fastauc.spark.bootstrap_ci(df, "label", "score", n_resamples=200,
    ...                                  random_state=0)
    >>> rows = df.select("label", "score").collect()  # the order of the positions
    >>> yy, ss = np.array([r.label for r in rows]), np.array([r.score for r in rows])
    >>> ref = fastauc.bootstrap_ci(yy, ss, n_resamples=200, random_state=0, scheme="poisson")
    >>> bool(np.allclose(res.replicates, ref.replicates, rtol=1e-12))
    True
    """
    n_resamples, level = check_poisson(scheme, metric, method, n_resamples, confidence_level,
                                       stratified, "fastauc.spark")
    seed = int(v.seed_from_random_state(random_state))
    tallies, reps = replicates(df, y_true, y_score, sample_weight, seed, n_resamples,
                               cluster=cluster)
    return bootstrap_result(tallies, reps, level, method, n_resamples, metric)


@spark_doc
def bootstrap_test(df, y_true, y_score_a, y_score_b, *, metric="roc_auc", n_resamples=1000,
                   confidence_level=0.95, method="percentile", stratified=None,
                   alternative="two-sided", sample_weight=None, random_state=None,
                   scheme="poisson", cluster=None):
    """:func:`fastauc.bootstrap_test` (paired) with ``scheme="poisson"`` of
    two score columns of a Spark DataFrame.

    A row's count in a replicate depends on the seed, the replicate and the
    row's position only (see :func:`bootstrap_ci`; here the order of
    ``df.select(y_true, y_score_a, y_score_b[, sample_weight]).collect()``,
    read so for both models), so both models see the same resample, as in
    memory; each model's replicates come from its own key ranges and the
    differences are taken on the driver.

    Parameters
    ----------
    {df}
    {y_true}
    {y_score_a}
    {y_score_b}
    {metric/bootstrap}
    {n_resamples}
    {confidence_level/difference}
    {method/bootstrap}
    {stratified}
    {alternative}
    {sample_weight/bootstrap}
    {random_state}
    {scheme}
    {cluster/bootstrap}

    Returns
    -------
    result : fastauc.BootstrapTestResult
        ``difference`` (auc_a - auc_b on all rows), its interval
        ``low``/``high``, ``se`` (standard deviation of the replicate
        differences), ``statistic = difference / se`` and its normal
        ``pvalue``, ``estimate_a``, ``estimate_b`` and ``replicates`` of
        shape (n_resamples, 2).

    Raises
    ------
    ValueError
        As :func:`bootstrap_ci`.

    See Also
    --------
    fastauc.bootstrap_test : The in-memory function.
    fastauc.dask.bootstrap_test : The same on Dask.
    delong_test : DeLong's paired test.

    Examples
    --------
    >>> SESSION
    >>> df = df.withColumn("other", df.score * df.score)
    >>> res = fastauc.spark.bootstrap_test(df, "label", "score", "other", n_resamples=100,
    ...                                    random_state=1)
    >>> rows = df.select("label", "score", "other").collect()
    >>> yy, ss = np.array([r.label for r in rows]), np.array([r.score for r in rows])
    >>> ref = fastauc.bootstrap_test(yy, ss, ss * ss, n_resamples=100, random_state=1,
    ...                              scheme="poisson")
    >>> abs(res.pvalue - ref.pvalue) < 1e-12
    True
    """
    n_resamples, level = check_poisson(scheme, metric, method, n_resamples, confidence_level,
                                       stratified, "fastauc.spark")
    v.check_choice(alternative, "alternative", _ALTERNATIVES)
    seed = int(v.seed_from_random_state(random_state))
    both = [y_score_a, y_score_b]  # one projection: both models number the rows alike
    ta, ra = replicates(df, y_true, y_score_a, sample_weight, seed, n_resamples, scores=both,
                        cluster=cluster)
    tb, rb = replicates(df, y_true, y_score_b, sample_weight, seed, n_resamples, scores=both,
                        cluster=cluster)
    return bootstrap_test_result(ta, tb, ra, rb, level, method, alternative, n_resamples,
                                 metric)
