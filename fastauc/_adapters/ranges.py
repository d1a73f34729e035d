"""The engine-neutral half of the exact metrics on a cluster: range
partitioning on the score key (``docs/scaling.md``).

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
                               use_continuity, method)


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


def _outside(totals):
    """Per key range, the negative weight of the ranges below it and the
    positive weight of those above (suffix and prefix sums of the totals)."""
    below = np.zeros(len(totals))
    above = np.zeros(len(totals))
    for k in range(len(totals) - 1, 0, -1):
        below[k - 1] = below[k] + totals[k][1]
    for k in range(1, len(totals)):
        above[k] = above[k - 1] + totals[k - 1][0]
    return below, above


def block_covariance(y, w, classes, aucs, rows_at, totals, *values):
    """A block's share of DeLong's sums: ``values`` holds, model by model, the
    placement numerators of the block's table keys within every range (top
    range first: the table's order; per key, only those its classes need);
    the weight outside each range (from the ranges' ``totals``) completes
    them, each row takes its key's value for its class (through ``rows_at``,
    its position in the table) and the kernel adds up the products."""
    from .._kernels.placements import placement_covariance, row_placements

    y = np.asarray(y)
    n = y.shape[0]
    k = aucs.shape[0]
    is_pos = v.positive_mask(y, classes[-1])
    ww = v.EMPTY_WEIGHT if w is None else np.ascontiguousarray(w, np.float64)
    X = np.empty((k, n))
    first = 0
    for m in range(k):
        mine = values[first:first + len(totals[m])]
        first += len(totals[m])
        ends = np.cumsum([0] + [p.shape[0] for p in mine]).astype(np.int64)
        if not ends[-1]:  # a block without weight: zeros add nothing
            X[m] = 0.0
            continue
        below, above = _outside(totals[m])
        read = row_placements(np.concatenate(mine), ends, below, above,
                              sum(t[1] for t in totals[m]), sum(t[0] for t in totals[m]),
                              rows_at[m], is_pos, ww, np.empty(n, np.uint8),
                              np.empty((2, n)), X[m])
        if read != ends[-1]:  # pragma: no cover - a bug, not bad input
            raise RuntimeError(f"the block's keys took {read} placement values of "
                               f"{ends[-1]}")
    return placement_covariance(X, is_pos, ww, aucs, 0, n)


def covariance_of(parts_sums, tallies):
    from .._delong import covariance_from_sums

    aucs = aucs_only(tallies)
    return aucs, covariance_from_sums(sum(p[0] for p in parts_sums),
                                      sum(p[1] for p in parts_sums))


# ---------------------------------------------------------------- Poisson bootstrap

def rows_by_range(y, s, w, offset, classes, splitters, n_ranges):
    """A block's rows split by key range: ``(keys, is_pos, w, global row id)``
    each (the rows of block starting at global row ``offset``)."""
    from .._table import float_keys

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


def range_replicates(seed, n_resamples, *pieces):
    """One key range's ``(tp, fp, area2)`` for every replicate, from its rows
    (in decreasing key, ties by row id: the same order whatever order the
    pieces come in)."""
    from .._kernels.resampling import poisson_range_sums

    keys = np.concatenate([p[0] for p in pieces])
    is_pos = np.concatenate([p[1] for p in pieces])
    rid = np.concatenate([p[3] for p in pieces])
    weighted = any(p[2].shape[0] for p in pieces)
    w = np.concatenate([p[2] for p in pieces]) if weighted else v.EMPTY_WEIGHT
    order = np.lexsort((rid, ~keys))  # decreasing key, then row id
    out = np.empty((n_resamples, 3))
    poisson_range_sums(keys[order], is_pos[order], w[order] if weighted else w,
                       rid[order], np.uint64(seed), 0, out)
    return out


def replicates_of(sums):
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


def replicate_interval(estimate, reps, level, method, alternative):
    """``(estimate, low, high, se, dropped)`` from the replicates (NaN: dropped)."""
    from .._resample import bootstrap_interval

    good = reps[np.isfinite(reps)]
    if good.shape[0] == 0:
        raise ValueError("every bootstrap replicate had a single class")
    low, high = bootstrap_interval(good, estimate, level, method, None, alternative)
    se = float(good.std(ddof=1)) if good.shape[0] > 1 else math.nan
    return estimate, low, high, se, int(reps.shape[0] - good.shape[0])


def check_poisson(scheme, metric, method, n_resamples, confidence_level, stratified,
                  engine="fastauc.dask"):
    """The bootstrap's options on a cluster: the Poisson scheme, the AUC,
    no BCa (its jackknife needs all rows at once)."""
    from .._resample import check_bootstrap_args

    if scheme != "poisson":
        raise ValueError(f"{engine} bootstraps with scheme='poisson' only: the multinomial "
                         "scheme draws n rows from every partition at once and cannot be "
                         "split across them; pass scheme='poisson'")
    n_resamples, level, _ = check_bootstrap_args(n_resamples, confidence_level, method,
                                                  stratified, scheme)
    if metric != "roc_auc":
        raise ValueError(f"{engine} bootstraps metric='roc_auc' for now")
    if method == "bca":
        raise ValueError(f"method='bca' needs the jackknife over all rows; use 'percentile' "
                         f"or 'basic' on {engine}")
    return n_resamples, level


def bootstrap_result(tallies, reps, level, method, n_resamples, metric):
    """:class:`~fastauc.BootstrapResult` from the tallies and the replicates."""
    from .._results import BootstrapResult

    estimate, low, high, se, n_dropped = replicate_interval(auc_of(tallies), reps, level,
                                                            method, "two-sided")
    return BootstrapResult(estimate, low, high, se, method, level, n_resamples, n_dropped,
                           metric, reps)


def bootstrap_test_result(ta, tb, ra, rb, level, method, alternative, n_resamples, metric):
    """:class:`~fastauc.BootstrapTestResult` of two models' tallies and replicates."""
    from .._results import BootstrapTestResult
    from .._stats import pvalue, ratio

    est_a, est_b = auc_of(ta), auc_of(tb)
    d, low, high, se, n_dropped = replicate_interval(est_a - est_b, ra - rb, level, method,
                                                     alternative)
    z = 0.0 if d == 0.0 and se == 0.0 else ratio(d, se)
    return BootstrapTestResult(z, pvalue(z, alternative), d, low, high, se, est_a, est_b,
                               method, alternative, level, n_resamples, n_dropped, metric,
                               np.column_stack((ra, rb)))


# ---------------------------------------------------------------- reports

def range_report(table, totals, k, codes, fractions):
    """Range k's share of a report: each best-threshold metric's best point
    ``(value, key, tp, fp)`` (None when the range is empty) and, for each top
    fraction whose edge falls in the range, the positive weight above it."""
    from .._kernels.thresholds import best_index, top_positives

    if not len(table):
        return [None] * len(codes), {}
    keys, tps, fps = range_points(table, totals, k, None)
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





def prob_loss_block(y, p, w, classes):
    """A block's log-loss sums ``(loss, weight)`` with ``p`` the probability of
    the positive class (as ``report``), or None when a score is not one."""
    from .._kernels.losses import log_loss_sum

    p = np.ascontiguousarray(p, np.float64)
    if not p.shape[0]:
        return 0.0, 0.0
    if p.min() < 0 or p.max() > 1:
        return None
    cls = v.positive_mask(np.asarray(y), classes[-1]).view(np.uint8).astype(np.int64)
    ww = v.EMPTY_WEIGHT if w is None else np.ascontiguousarray(w, np.float64)
    loss, weight = log_loss_sum(p.reshape(-1, 1), cls, ww)
    return float(loss), float(weight)





def model_section(name, tallies, parts, level, codes_names, fractions, losses, boot=None):
    """One model's :class:`~fastauc.ModelReport` from its ranges' shares; the
    interval DeLong's, or the bootstrap's ``boot`` when given."""
    from .._results import ThresholdMetrics
    from ..report import ModelReport

    auc = auc_of(tallies)
    if boot is not None:
        interval = boot
    else:
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





def report_of(models, t0, ac, names, level, ci, weighted):
    """The :class:`~fastauc.Report` from the models' sections, the first
    model's tallies and ``(aucs, covariance)`` (None for one model)."""
    from .._delong import paired_test
    from ..report import Comparison, Report

    comparisons = []
    if ac is not None:
        aucs, cov = ac
        k = len(names)
        for a in range(k):
            for b in range(a + 1, k):
                t = paired_test(aucs, cov, a, b, level, "two-sided")
                comparisons.append(Comparison(names[a], names[b], t.difference, t.low, t.high,
                                              t.se, t.statistic, t.pvalue))
    n = int(sum(t0["rows"]))
    return Report(models, comparisons, n, float(t0["P"]), float(t0["N"]), ci, level,
                  weighted=weighted)


def boot_interval(tallies, reps, level, method):
    """A model's bootstrap :class:`~fastauc.ConfidenceInterval` (the report's)."""
    from .._results import ConfidenceInterval

    estimate, low, high, se, _ = replicate_interval(auc_of(tallies), reps, level, method,
                                                    "two-sided")
    return ConfidenceInterval(estimate, low, high, se, f"bootstrap ({method})", level)


# ---------------------------------------------------------------- per group

def group_accumulators(y, s, w, groups, n_buckets, dropna):
    """A block's rows per group, one accumulator each, split into buckets of
    groups (a group's bucket from a checksum of its label: the same on every
    worker)."""
    import zlib

    from ..streaming import feed_groups

    cols = [np.asarray(c) for c in groups]
    y = np.asarray(y)
    s = np.asarray(s, np.float64)
    keep = np.ones(y.shape[0], bool)
    for c in cols:
        missing = missing_labels(c)
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


def missing_labels(c):
    if c.dtype.kind == "f":
        return np.isnan(c)
    if c.dtype.kind == "O":
        return np.array([x is None or (isinstance(x, float) and x != x) for x in c], bool)
    return np.zeros(c.shape[0], bool)


def bucket_metrics(positive, level, n_cols, *dicts):
    """One bucket's groups: accumulators merged across blocks, then
    ``by_group`` on their tables' rows (the positive class given: a bucket may
    hold one class only), with the true row counts."""
    import dataclasses

    from .._groups import group_codes
    from ..groups import group_metrics

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
    y_all = np.concatenate(ys)
    # no warning here (the client warns once, counting every group), and no
    # warnings.catch_warnings either: it swaps process-wide state, which
    # races with the other threads of a threaded worker
    result = group_metrics(v.positive_mask(y_all, positive), np.concatenate(ss),
                           np.concatenate(ws), group_codes(arrays[0] if n_cols == 1
                                                           else tuple(arrays), y_all.shape[0]),
                           level, warn=False)
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


def concat_metrics(parts, names):
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


def warn_single_class(table):
    """As in memory: one warning on the client, counting every group."""
    one_class = (table.pos_weight == 0) | (table.neg_weight == 0)
    if one_class.any():
        v.warn_undefined(
            f"Only one class is present in y_true. ROC AUC score is not defined in that case. "
            f"({int(one_class.sum())} of {one_class.shape[0]} groups have a single class; "
            f"their AUC is NaN)", stacklevel=3)
