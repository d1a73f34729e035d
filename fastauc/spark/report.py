"""Reports on Spark: every model's AUC with its interval, average precision,
log loss, best thresholds and lift, and the paired DeLong tests."""

from __future__ import annotations

import dataclasses
import functools
import pickle

import numpy as np

from .. import _validation as v
from .._adapters.docstrings import spark_doc
from .._adapters.inference import boot_interval, report_bootstrap
from .._adapters.ranges import classes_of, label_meta
from .._adapters.reports import (model_section, prob_loss_block, range_report,
                                 refuse_chosen_options, report_of)
from .inference import delong_parts, replicates
from .ranges import (
    apply_in_groups,
    blob,
    collect,
    key_ranges,
    partition_arrays,
    partition_columns,
    per_range,
    select_scores,
    tallies_of,
)


def _losses(df, target, scores, weight, classes):
    """Each model's per-partition log-loss sums ``(loss, weight)`` of its score
    column as the positive class's probability (None where a score is not
    one): one pass over the rows for every column."""
    import pyarrow as pa

    names = {"y": target, "w": weight, **{f"s{j}": s for j, s in enumerate(scores)}}

    def sums(batches):
        c, _ = partition_columns(batches, names)
        out = [prob_loss_block(c["y"], c[f"s{j}"], c.get("w"), classes)
               for j in range(len(scores))]
        yield pa.RecordBatch.from_pydict({"out": pa.array([blob(out)], pa.binary())})

    per_part = [pickle.loads(r.out) for r in collect(
        select_scores(df, target, scores, weight).mapInArrow(sums, "out binary"))]
    return [[p[j] for p in per_part] for j in range(len(scores))]


@spark_doc
def report(df, target, scores, *, weight=None, names=None, pos_label=None,
           confidence_level=0.95, ci="delong", by=None, at_specificity=None,
           at_sensitivity=None, calibration=None, **bootstrap_options):
    """:func:`fastauc.report` of a Spark DataFrame's columns: the in-memory
    report, model by model, and the paired tests of every pair.

    Each partition is read and every score column sorted once: the models'
    key ranges (as for :func:`roc_auc_score`) give each one's AUC, interval,
    average precision, best thresholds and lift, each range from the weight
    above it, and, with several models, the same sort gives the comparisons
    (:func:`delong_covariance`, placements carried back to the rows by
    position).  The log losses are sums per partition, one pass for every
    column.

    Parameters
    ----------
    {df}
    target : str
        The label column: two distinct values, the greater one positive
        unless ``pos_label`` is given.
    scores : str or list of str
        The score columns, one per model (and the models' default names).
    weight : str, default=None
        A column of non-negative (frequency) weights.
    {names}
    {pos_label/greater}
    {confidence_level/report}
    {ci}
    by : str or list of str, default=None
        Group columns: ``report.by_group`` then holds each model's
        :func:`by_group` table (DeLong intervals at ``confidence_level``),
        computed first (so that a null group label fails before the
        report's jobs), one :func:`by_group` call per model.
    at_specificity, at_sensitivity : None
        Not available on Spark (the in-memory report's operating points read
        each model's whole curve): anything but None raises.
    calibration : bool or None, default=None
        The calibration block of :func:`fastauc.report` (Brier score, its
        CORP decomposition, the 15-bin calibration error), from each key
        range's table: PAV blocks, Brier sums and bins, pooled on the
        driver.  None: for the models whose scores are probabilities (all in
        [0, 1]); True: for every model (other scores raise); False: never.
    {**bootstrap_options}

    Returns
    -------
    report : fastauc.Report
        ``models`` (one :class:`fastauc.ModelReport` each) and
        ``comparisons`` (the paired DeLong test of every pair of models);
        with ``by``, ``by_group`` (model name -> :class:`fastauc.GroupMetrics`,
        its ``groups`` keyed by the column names); ``str(report)`` is a
        table, ``report.to_dict()`` JSON-ready types.

    Raises
    ------
    ValueError
        Before any job: a missing or non-numeric column, ``names`` of another
        length, a ``confidence_level`` outside (0, 1), a ``ci`` other than
        "delong" or "bootstrap", bootstrap options :func:`bootstrap_ci`
        refuses, a missing ``by`` column, ``at_specificity`` or
        ``at_sensitivity``, a ``calibration`` other than None, True or
        False.  From the jobs: as
        :func:`roc_auc_score` (nulls, NaN, three labels, bad weights), naming
        the column, the partition and the row; a null group label.
    TypeError
        ``bootstrap_options`` with ``ci="delong"``, or unknown options.

    See Also
    --------
    fastauc.report : The in-memory function.
    fastauc.dask.report : The same on Dask.

    Examples
    --------
    >>> SESSION
    >>> df = df.withColumn("other", df.score * df.score)
    >>> r = fastauc.spark.report(df, "label", ["score", "other"])
    >>> ref = fastauc.report(y, np.column_stack([s, s * s]), names=["score", "other"])
    >>> [m.name for m in r.models]
    ['score', 'other']
    >>> all(abs(m.auc_high - n.auc_high) < 1e-12 for m, n in zip(r.models, ref.models))
    True
    >>> r.models[0].best["f1"] == ref.models[0].best["f1"]
    True
    >>> half = (df.score > 0).cast("int").alias("half")
    >>> r = fastauc.spark.report(df.select("*", half), "label", "score", by="half")
    >>> ref = fastauc.report(y, s, names=["score"], by=(s > 0).astype(int))
    >>> bool(np.allclose(r.by_group["score"].auc, ref.by_group["score"].auc, rtol=1e-12))
    True
    """
    from .._kernels.thresholds import CODES
    from ..report import BEST_METRICS, LIFT_FRACTIONS

    calibration = refuse_chosen_options(at_specificity, at_sensitivity, calibration,
                                        "fastauc.spark")
    scores = [scores] if isinstance(scores, str) else list(scores)
    if not scores:
        raise ValueError("scores: at least one score column is needed")
    names = list(scores) if names is None else list(names)
    if len(names) != len(scores):
        raise ValueError(f"names has {len(names)} entries for {len(scores)} score columns")
    level = v.check_confidence_level(confidence_level)
    boot = report_bootstrap(ci, level, bootstrap_options, "fastauc.spark")
    by = [] if by is None else [by] if isinstance(by, str) else list(by)
    select_scores(df, target, scores, weight, groups=by)  # every column, before any job
    groups = {}
    if by:
        # one group column read per model (as in memory: one warning per model
        # when some groups have a single class)
        groups = {name: by_group(df, target, s, by, sample_weight=weight,
                                 pos_label=pos_label, confidence_level=level)
                  for name, s in zip(names, scores)}
    codes = [CODES[m] for m in BEST_METRICS]
    share = functools.partial(range_report, codes=codes, fractions=LIFT_FRACTIONS,
                              calibration=calibration is not False)
    ac = None
    if len(scores) > 1:  # one sort of every column gives the comparisons and the sections
        *ac, tallies, parts = delong_parts(df, target, scores, weight, pos_label, share)
        classes = tallies[0]["classes"]
    else:
        with key_ranges(df, target, scores[0], weight, pos_label) as ranges:
            tallies = [tallies_of(ranges)]
            parts = [[p for _, p in per_range(ranges, share)]]
            classes = ranges.classes
    losses = _losses(df, target, scores, weight, classes)
    sections = []
    for j, (name, score) in enumerate(zip(names, scores)):
        interval = None
        if boot is not None:
            n_resamples, seed, method = boot
            _, reps = replicates(df, target, score, weight, seed, n_resamples, pos_label,
                                  scores)
            interval = boot_interval(tallies[j], reps, level, method)
        sections.append(model_section(name, tallies[j], parts[j], level, BEST_METRICS,
                                      LIFT_FRACTIONS, losses[j], interval, calibration))
    rep = report_of(sections, tallies[0], ac, names, level, ci, weight is not None)
    return dataclasses.replace(rep, by_group=groups) if groups else rep


@spark_doc
def by_group(df, y_true, y_score, groups, *, sample_weight=None, pos_label=None,
             confidence_level=0.95, dropna=False):
    """:func:`fastauc.by_group` of a Spark DataFrame: every group's AUC with
    its DeLong interval, AP, log loss and counts, the in-memory numbers.

    A first job reads each partition's labels (the positive class and the
    rows); a second feeds each partition's rows to one accumulator per group
    and sends each group's accumulator to a bucket chosen by a checksum of
    its label (about one bucket per 2**21 rows); each bucket merges its
    groups' accumulators from every partition (in partition order) and
    computes their metrics.  The driver receives the table.

    Parameters
    ----------
    {df}
    {y_true/pos_label}
    {y_score}
    {groups}
    {sample_weight/delong}
    {pos_label/greater}
    {confidence_level/groups}
    {dropna}

    Returns
    -------
    table : fastauc.GroupMetrics
        Arrays per column (``n``, ``n_pos``, ``n_neg``, ``pos_weight``,
        ``neg_weight``, ``auc``, ``auc_low``, ``auc_high``, ``auc_se``,
        ``average_precision``, ``log_loss``) in sorted group order.

    Raises
    ------
    ValueError
        Before any job: a missing column, a ``confidence_level`` outside
        (0, 1).  From the jobs: as :func:`roc_auc_score`, and a missing group
        label without ``dropna=True``.

    Warns
    -----
    UndefinedMetricWarning
        Once, counting the groups with a single class (their AUC is NaN).

    See Also
    --------
    fastauc.by_group : The in-memory function.
    fastauc.dask.by_group : The same on Dask.

    Examples
    --------
    >>> SESSION
    >>> from pyspark.sql import functions as F
    >>> df = df.withColumn("half", (F.col("score") > 0.5).cast("int"))
    >>> g = (s > 0.5).astype(int)
    >>> res = fastauc.spark.by_group(df, "label", "score", "half")
    >>> ref = fastauc.by_group(y, s, g)
    >>> res.groups["half"].tolist(), res.n.tolist() == ref.n.tolist()
    ([0, 1], True)
    >>> bool(np.allclose(res.auc, ref.auc, rtol=1e-12, atol=0))
    True
    """
    import pyarrow as pa

    from .._adapters.ranges import n_ranges_for, oriented
    from .._adapters.reports import (
        bucket_metrics,
        concat_metrics,
        group_accumulators,
        warn_single_class,
    )

    level = v.check_confidence_level(confidence_level)
    cols = [groups] if isinstance(groups, str) else list(groups)
    if not cols:
        raise ValueError("groups: at least one group column is needed")
    names = {"y": y_true, "s": y_score, "w": sample_weight,
             **{f"g{j}": c for j, c in enumerate(cols)}}
    sel = select_scores(df, y_true, [y_score], sample_weight, aliases=["s"], groups=cols)

    def labels(batches):  # job 1: each partition's labels and rows
        y, _, _, _ = partition_arrays(batches, names)
        yield pa.RecordBatch.from_pydict({"n": pa.array([len(y)], pa.int64()),
                                          "meta": pa.array([blob(label_meta(y))], pa.binary())})

    got = collect(sel.mapInArrow(labels, "n long, meta binary"))
    positive = oriented(classes_of([pickle.loads(r.meta) for r in got]), pos_label)[-1]
    n_buckets = n_ranges_for(len(got), sum(r.n for r in got))

    def split(batches):  # job 2: each partition's groups, bucketed
        c, part = partition_columns(batches, names)
        buckets = group_accumulators(c["y"], c["s"], c.get("w"),
                                     tuple(c[f"g{j}"] for j in range(len(cols))), n_buckets,
                                     dropna)
        ks = [k for k, b in enumerate(buckets) if b]
        if ks:
            yield pa.RecordBatch.from_pydict({
                "bucket": pa.array(ks, pa.int32()), "part": pa.array([part] * len(ks), pa.int32()),
                "accs": pa.array([blob(buckets[k]) for k in ks], pa.binary())})

    def metrics(group):
        order = np.argsort(group.column("part").to_numpy(), kind="stable")
        accs = group.column("accs").to_pylist()
        out = bucket_metrics(positive, level, len(cols), *[pickle.loads(accs[i]) for i in order])
        return pa.table({"bucket": pa.array([group.column("bucket")[0].as_py()], pa.int32()),
                         "out": pa.array([blob(out)], pa.binary())})

    grouped = sel.mapInArrow(split, "bucket int, part int, accs binary").groupBy("bucket")
    parts = sorted((r.bucket, pickle.loads(r.out)) for r in collect(
        apply_in_groups(grouped, metrics, "bucket int, out binary")))
    table = concat_metrics([p for _, p in parts], cols)
    warn_single_class(table)
    return table
