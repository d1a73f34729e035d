"""The engine-neutral half of the exact metrics on a cluster: range
partitioning on the score key (``docs/guide/dask_spark.md``).

``fastauc.dask`` and ``fastauc.spark`` run the same steps, each on its own
engine; the steps themselves are plain functions of numpy arrays and
:class:`~fastauc._table.Table` objects, here:

1. ``read_block``/``read_rows``: one partition validated and sorted once
   into its distinct-score table, with a summary (labels, rows per class, a
   sample of its keys);
2. ``classes_of``, ``oriented``, ``splitters_of``: the labels of the whole
   data and K - 1 splitter keys from the pooled samples (no tie split);
3. ``cut_block``/``cut_rows_table``: a partition's table cut at the splitters;
   ``merge_tables``/``merge_placed_pieces``: one range's pieces merged;
4. ``totals_of``, ``sweep``, ``combine``: each range swept from the weight
   above it, the ranges' sums added up (``auc_of`` and the other finishers).
"""

from __future__ import annotations

import math

import numpy as np

from .. import _validation as v
from .._kernels.sorting import keys_to_floats
from .._kernels.table import merge_stats
from .._stats import delong_variance, mann_whitney_result, wald_interval
from .._table import Table, merge_placed, table_with_rows
from ..accumulator import Accumulator

SAMPLE = 64  # keys each partition offers as a sample for the splitters
RANGE_ROWS = 1 << 21  # rows per key range (K = rows / RANGE_ROWS, at most one per partition)


def n_ranges_for(n_blocks, n_rows):
    """K: about one key range per ``RANGE_ROWS`` rows, at most one per block."""
    return max(1, min(n_blocks, -(-n_rows // RANGE_ROWS)))


def check_scores(s, where):
    """NaN or infinite scores raise scikit-learn's error, naming the row:
    ``where(i)`` says where row ``i`` of the block is (a global row position
    on Dask, a partition and row on Spark)."""
    bad = ~np.isfinite(s.astype(np.float64, copy=False)) if s.dtype.kind in "fiub" else None
    if bad is not None and bad.any():
        i = int(np.argmax(bad))
        word = "NaN" if np.isnan(s[i]) else "infinity or a value too large for dtype('float64')"
        raise ValueError(f"Input y_score contains {word}. (y_score has a non-finite value at "
                         f"{where(i)})")


def summary(t, classes, rows):
    """What a partition sends for the splitters and the classes: its labels, rows
    per class and a sample of its keys (the table stays where it is)."""
    step = max(1, len(t) // SAMPLE)
    return {"classes": classes, "rows": list(rows), "sample": t.keys[::step].copy()}


def read_block(y, s, w, where):
    """One partition's accumulator and a sample of its keys (errors name the
    row: ``where(i)`` says where the block's row ``i`` is; ``where(0)`` is
    where the block starts)."""
    s = np.asarray(s)
    check_scores(s, where)
    acc = Accumulator()
    try:
        acc.update(y, s, w)
    except (ValueError, TypeError) as exc:
        raise type(exc)(f"{exc} (in the partition starting at {where(0)})") from None
    t = acc._table()
    return acc, summary(t, acc._classes, acc._rows)


def read_table(y, s, w, where):
    """``read_block``'s table (positive class: the block's greater label, as
    ``cut_rows_table`` takes it) and summary."""
    acc, meta = read_block(y, s, w, where)
    return acc._table(), meta


def read_rows(y, s, w, where):
    """One partition's table (positive class: its greater label) with each row's
    position in it, and the summary ``read_block`` gives: what the paired
    DeLong test needs to bring the placements back to the rows.  Validated as
    ``Accumulator.update`` validates a batch (errors name the row, as
    ``read_block``'s)."""
    s = np.asarray(s)
    check_scores(s, where)
    try:
        y = v.as_label_array(y, allow_empty=True)
        s = v.as_float_array(s, "y_score") if s.shape[0] else np.empty(0)
        n = v.check_lengths(y_true=y, y_score=s)
        w = v.check_batch_weights(w, n)
        classes = v.unique_labels(y) if n else None
        if classes is not None and classes.shape[0] > 2:
            v.require_binary(classes, False)
    except (ValueError, TypeError) as exc:
        raise type(exc)(f"{exc} (in the partition starting at {where(0)})") from None
    is_pos = v.positive_mask(y, classes[-1]) if n else np.zeros(0, bool)
    table, at = table_with_rows(is_pos, np.ascontiguousarray(s, np.float64), w)
    n_pos = int(np.count_nonzero(is_pos))
    return table, summary(table, classes, (n - n_pos, n_pos)), at


def splitters_of(samples, n_ranges):
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


def cut(t, splitters, n_ranges):
    """A table cut into the key ranges (range 0 at the top); ranges the
    splitters do not reach (fewer distinct keys than ranges) stay empty."""
    asc = t.keys[::-1]
    edges = [0, *(len(t) - np.searchsorted(asc, splitters, side="left")), len(t)]
    edges += [len(t)] * (n_ranges + 1 - len(edges))
    return [Table(t.keys[a:b], t.pos[a:b], t.neg[a:b]) for a, b in zip(edges[:-1], edges[1:])]


def cut_block(acc, classes, splitters, n_ranges):
    """A partition's table oriented to the global positive class and cut into
    the key ranges (range 0 at the top)."""
    levels, _, _ = acc._aligned(classes)
    return cut(levels[0] if levels else Table(np.empty(0, np.uint64), np.empty(0),
                                               np.empty(0)), splitters, n_ranges)


def cut_rows_table(t, meta, classes, splitters, n_ranges):
    """``cut_block`` of a ``read_rows`` table: its columns swapped when its
    positive label is not the global one (as ``Accumulator._aligned`` does)."""
    if meta["classes"] is not None and meta["classes"][-1] != classes[-1]:
        t = Table(t.keys, t.neg, t.pos)
    return cut(t, splitters, n_ranges)


def merge_placed_pieces(*pieces):
    """One range's table from every partition's piece, and each piece's keys'
    DeLong placement numerators within the range (``merge_placed``)."""
    table, values = merge_placed(pieces)
    return table, tuple(values)


def each(values):
    """The placements of every block, as a task with one output per block."""
    return values


def merge_tables(*tables):
    out = tables[0]
    for t in tables[1:]:
        out = out.merge(t)
    return out


def totals_of(table):
    return float(table.pos.sum()), float(table.neg.sum())


def sweep(table, totals, k):
    """Range k's sweep from the weight above it, with DeLong's moments."""
    tp0 = sum(t[0] for t in totals[:k])
    fp0 = sum(t[1] for t in totals[:k])
    big_p = tp0 + sum(t[0] for t in totals[k:])
    big_n = fp0 + sum(t[1] for t in totals[k:])
    sw = table.sweep(tp0, fp0, moments=True, totals=(big_p, big_n))
    return sw.area2, sw.ap_num, sw.stats


def combine(sweeps, totals, classes, rows):
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


def combine_areas(areas, totals, classes, rows):
    """``combine``'s AUC part without a sweep from the weight above: each
    range's twice area swept from zero (``areas[k]``, computed where it was
    merged) plus, for every negative in it, twice the positive weight of the
    ranges above (no tie spans two ranges).  Enough for ``auc_of``."""
    if sum(rows) and not any(t[0] or t[1] for t in totals):  # rows, yet no weight at all
        raise v.zero_weights_error()
    area2 = tp_above = 0.0
    for a, t in zip(areas, totals):
        area2 += a + 2.0 * tp_above * t[1]
        tp_above += t[0]
    return {"area2": area2, "P": sum(t[0] for t in totals), "N": sum(t[1] for t in totals),
            "classes": classes, "rows": rows}


def rows_per_class(metas, classes):
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


def auc_of(t):
    (neg_rows, pos_rows), big_p, big_n = t["rows"], t["P"], t["N"]
    if pos_rows == 0 or neg_rows == 0:
        v.warn_undefined(v.ONE_CLASS, stacklevel=2)
        return math.nan
    if big_p <= 0 or big_n <= 0:
        v.warn_undefined(v.ZERO_WEIGHT_CLASS, stacklevel=2)
        return math.nan
    return float(t["area2"] / (2.0 * big_p * big_n))


def aucs_only(tallies):
    return np.array([t["area2"] / (2.0 * t["P"] * t["N"]) if t["P"] > 0 and t["N"] > 0
                     else np.nan for t in tallies])


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


def curve_tallies(points, tallies):
    """The in-memory functions' tallies (a spare slot in front) from the
    ranges' points, top range first."""
    from .._table import Tallies

    keys = np.concatenate([np.zeros(1, np.uint64)] + [p[0] for p in points])
    tps = np.concatenate([np.zeros(1)] + [p[1] for p in points])
    fps = np.concatenate([np.zeros(1)] + [p[2] for p in points])
    # the class weights are the curve's last point (as in memory, where the
    # sweep's sums are): the ranges' totals added up may differ in the last bit
    big_p, big_n = (tps[-1], fps[-1]) if tps.shape[0] > 1 else (tallies["P"], tallies["N"])
    return Tallies(keys, tps, fps, float(big_p), float(big_n), tallies["area2"],
                   tallies["ap_num"], tallies["stats"])


def ap_of(t, pos_label):
    """Average precision from the tallies (scikit-learn's checks and warning)."""
    classes = t["classes"]
    if pos_label not in classes.tolist():
        raise ValueError(f"pos_label={pos_label} is not a valid label. It should be one "
                         f"of {np.sort(classes)}")
    if t["P"] == 0:
        import warnings

        warnings.warn("No positive class found in y_true, recall is set to one for all "
                      "thresholds which leads to a flat precision-recall curve with "
                      "average precision 0.", UserWarning, stacklevel=3)
        return 0.0
    return float(max(0.0, t["ap_num"] / t["P"]))


def auc_interval(t, level, transform):
    """DeLong's interval for the AUC from the tallies' moments."""
    auc = auc_of(t)
    var = delong_variance(t["stats"]) if not math.isnan(auc) else math.nan
    if math.isnan(var) and not math.isnan(auc):
        v.warn_undefined("DeLong's variance needs a total weight above one in each class; "
                         "the covariance is NaN.", stacklevel=3)
    return wald_interval(auc, var, level, transform)


def mann_whitney_of(t, alternative, use_continuity, method):
    """The Mann-Whitney U test from the tallies."""
    return mann_whitney_result(t["area2"], t["P"], t["N"], t["stats"], alternative,
                               use_continuity, method, 0 in t["rows"])


def check_max_points(max_points):
    if max_points is not None and (isinstance(max_points, bool)
                                   or not isinstance(max_points, (int, np.integer))
                                   or max_points < 2):
        raise ValueError(f"max_points must be an integer >= 2 or None, got {max_points!r}")
    return max_points


def thresholds_of(t):
    """:class:`~fastauc.ThresholdMetrics` from ``curve_tallies``' result."""
    from .._results import ThresholdMetrics

    thr = keys_to_floats(t.thr_keys[1:], np.empty_like(t.thr_keys[1:]))
    return ThresholdMetrics(thr, t.tps[1:], t.fps[1:], float(t.total_pos), float(t.total_neg))


def range_best(table, totals, k, code, beta, cost_fp, cost_fn):
    """The best point of range k: ``(value, key)``, or None for an empty range."""
    from .._kernels.thresholds import best_index

    if not len(table):
        return None
    keys, tps, fps = range_points(table, totals, k, None)
    big_p = sum(t[0] for t in totals)
    big_n = sum(t[1] for t in totals)
    i, best = best_index(tps, fps, big_p, big_n, code, beta, cost_fp, cost_fn)
    return float(best), keys[i]


def best_of(candidates, metric):
    """:class:`~fastauc.BestThreshold` from the ranges' ``range_best``, top
    range first: a later one must be strictly better (the highest threshold
    among equals, as in memory)."""
    from ..thresholds import BestThreshold

    value, key = None, None
    for c in candidates:
        if c is not None and (value is None or c[0] > value):
            value, key = c
    threshold = keys_to_floats(np.array([key], np.uint64), np.empty(1, np.uint64))[0]
    if metric in ("cost", "closest_topleft"):
        value = -value
    return BestThreshold(float(threshold), float(value), metric)


def label_meta(y):
    """A block's distinct labels (None when empty), for the log loss."""
    y = v.as_label_array(y, allow_empty=True)
    return {"classes": v.unique_labels(y) if y.shape[0] else None}


def loss_block(y, p, w, labels):
    """A block's summed log loss and its total weight."""
    from ..losses import log_loss

    y = np.asarray(y)
    if y.shape[0] == 0:
        return 0.0, 0.0
    ww = None if w is None else np.asarray(w, np.float64)
    total = float(ww.sum()) if ww is not None else float(y.shape[0])
    if total == 0:
        return 0.0, 0.0
    return float(log_loss(y, p, normalize=False, sample_weight=ww, labels=labels)), total


def loss_of(parts_sums, normalize):
    """The log loss from the blocks' ``loss_block`` sums."""
    loss = sum(a for a, _ in parts_sums)
    weight = sum(b for _, b in parts_sums)
    if weight == 0:
        raise v.zero_weights_error()
    return float(loss / weight) if normalize else float(loss)


def table_rows_of(t):
    """The distinct-score table of ``curve_tallies``' result as weighted rows
    ``(y, score, weight)``: one row per distinct score and class with weight
    (label 1 the positive class), what the in-memory calibration functions
    take with ``sample_weight``."""
    keys = t.thr_keys[1:]
    s = keys_to_floats(keys, np.empty_like(keys))
    tps = np.asarray(t.tps, np.float64)
    fps = np.asarray(t.fps, np.float64)
    pos = tps[1:] - np.concatenate(([0.0], tps[1:-1]))
    neg = fps[1:] - np.concatenate(([0.0], fps[1:-1]))
    w = np.concatenate((pos, neg))
    keep = w > 0
    y = np.concatenate((np.ones(s.shape[0], np.int8), np.zeros(s.shape[0], np.int8)))
    return y[keep], np.concatenate((s, s))[keep], w[keep]
