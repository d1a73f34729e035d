"""Cumulative tallies from the one sort: the confusion matrix at every threshold,
cumulative gains and lift.

Shared by ``thresholds`` (the public functions), ``report`` and ``plots``.
"""

from __future__ import annotations

import warnings

import numpy as np

from . import _validation as v
from ._kernels.sorting import keys_to_floats
from ._kernels.thresholds import confusion_sweep, top_positives
from ._parallel import map_units, row_blocks
from ._results import GainsTable
from ._kernels.sweeps import drop_intermediate as _drop_intermediate
from . import _parallel
from ._kernels.sweeps import finish_curve, finish_points, reverse_points
from ._kernels.table import band_area, cumulative_range
from ._table import Tallies, _offsets, cut_runs, sorted_tallies, weights_above
from ._table import _compacted as close_gaps


NO_POSITIVE_PR = "No positive class found in y_true, recall is set to one for all thresholds."


def threshold_tallies(y_true, y_score, sample_weight, pos_label, keys=False):
    """Distinct thresholds (descending) with cumulative tp/fp, and the class totals.

    ``keys=True`` leaves the thresholds as their sort keys (for a caller that
    needs one of them: ``keys_to_floats`` on it)."""
    is_pos, s, w, _, _ = v.binary_target(y_true, y_score, sample_weight, pos_label,
                                        default_rule="sklearn")
    t = sorted_tallies(is_pos, s, w, curve=True)
    thr = t.thr_keys[1:] if keys else floats_in_place(t.thr_keys[1:])
    return thr, t.tps[1:], t.fps[1:], float(t.total_pos), float(t.total_neg)


def unweighted_columns(runs, parts, complements=True, front=0):
    """``(tns, fps, fns, tps, thresholds)`` of unweighted runs at every
    distinct key, descending, merged in the key ranges of ``split_sweep`` on
    the threads by ``confusion_sweep``: the columns and nothing else (no
    sums; the class totals are the runs' lengths, exact; the scores written
    as such).  ``complements=False`` leaves ``tns`` and ``fns`` empty;
    ``front`` spare slots lead every column.  Ties leave gaps, closed
    afterwards (the columns copied into arrays of their length when fewer
    than half the rows are keys)."""
    ranges = cut_runs(runs, parts)
    above = weights_above(ranges)
    offs = _offsets(ranges)
    total_p, total_n = float(runs[0].shape[0]), float(runs[2].shape[0])
    m = front + offs[-1]
    mc = m if complements else 0
    cols = (np.empty(mc), np.empty(m), np.empty(mc), np.empty(m), np.empty(m, np.uint64))
    body = tuple(c[front:] if c.shape[0] else c for c in cols)
    gs = map_units(confusion_sweep, [
        (r[0], r[2], *above[k], total_p, total_n, body[4][a:b], *(c[a:b] for c in body[:4]))
        for k, (r, a, b) in enumerate(zip(ranges, offs[:-1], offs[1:]))])
    g = sum(gs)
    if g < offs[-1]:
        close_gaps(tuple(c for c in body if c.shape[0]), offs, gs)
        cols = tuple(c[:front + g] if c.shape[0] else c for c in cols)
        if 2 * g < offs[-1]:
            cols = tuple(c.copy() for c in cols)
    return (*cols[:4], cols[4].view(np.float64))


def floats_in_place(keys):
    """The scores of sort keys, written over them in row blocks on the
    threads: ``keys`` (uint64) viewed as float64."""
    map_units(keys_to_floats, [(keys[a:b], keys[a:b]) for a, b in row_blocks(keys.shape[0])])
    return keys.view(np.float64)


def table_tallies(table):
    """``threshold_tallies``' tuple from a distinct-score table (no sort), with the
    thresholds as their sort keys (``keys_to_floats`` gives the scores)."""
    tps = np.cumsum(table.pos)
    fps = np.cumsum(table.neg)
    total_p = float(tps[-1]) if tps.shape[0] else 0.0
    total_n = float(fps[-1]) if fps.shape[0] else 0.0
    return table.keys, tps, fps, total_p, total_n


def layout_tallies(lay, wl, table):
    """``table_tallies(table)`` for the table of layout ``lay``: unweighted, the
    layout's cumulative counts are the tallies already (no second pass; as
    float64, what the threshold kernels take)."""
    if wl.shape[0]:
        return table_tallies(table)
    return (lay.keys, as_float64(lay.bp), as_float64(lay.bn),
            float(lay.bp[-1]) if lay.bp.shape[0] else 0.0,
            float(lay.bn[-1]) if lay.bn.shape[0] else 0.0)


def cumulative_sums(tps, fps, firsts):
    """``sweep_table`` of a whole table given by its cumulative weights (the
    tallies at each key, from the top): ``(area2, ap_num)``, each key's
    weights the differences (exact for counts).  The key ranges starting at
    ``firsts`` (the first 0) are summed apart on the threads, from the
    tallies above each, and the sums added in range order, as
    ``_table.split_sweep`` adds its key ranges': with counts, where each
    range starts from the exact counts above it, these are
    ``sorted_tallies``' floats when the ranges are where it cuts
    (``_resample._Layout.cut``)."""
    ends = list(firsts[1:]) + [tps.shape[0]]
    parts = map_units(cumulative_range, [(tps, fps, a, b) for a, b in zip(firsts, ends)])
    area2 = ap_num = 0.0
    for a, p in parts:
        area2 += a
        ap_num += p
    return area2, ap_num


def as_float64(x):
    """``x.astype(np.float64)``, in row blocks on the threads."""
    out = np.empty(x.shape[0])
    map_units(_copy_into, [(x, out, a, b) for a, b in row_blocks(x.shape[0])])
    return out


def _copy_into(x, out, a, b):
    out[a:b] = x[a:b]


def _require_positives(total_p):
    if total_p <= 0:
        raise ValueError("y_true has no positive rows (with positive weight); lift and gains "
                         "are not defined")


def cumulative_from(tps, fps, total_p, total_n):
    """The cumulative gains curve from ``(0, 0)``: weight and positive weight at
    each group end (from the top), for drawing."""
    _require_positives(total_p)
    cw = np.concatenate(([0.0], tps + fps))
    cp = np.concatenate(([0.0], tps))
    return cw, cp, total_p, total_p + total_n


def gains(tps, fps, total_p, total_n, n_bins):
    """The gains table from the cumulative tallies (a tied group cut by a bin
    edge counts in proportion: ``_kernels.thresholds.top_positives``)."""
    _require_positives(total_p)
    total = total_p + total_n
    edges = total * np.arange(n_bins + 1) / n_bins
    cum_pos = top_positives(tps, fps, edges)
    cum_pos[0] = 0.0
    count = np.diff(edges)
    positives = np.diff(cum_pos)
    base = total_p / total
    rate = positives / count
    return GainsTable(np.arange(1, n_bins + 1), count, positives, rate, cum_pos[1:] / total_p,
                      rate / base, cum_pos[1:] / edges[1:] / base, base)


def lifts(tps, fps, total_p, total_n, fractions):
    """Lift in the top fraction ``k`` of the rows for each ``k``, from the
    cumulative tallies (without building the gains curve)."""
    _require_positives(total_p)
    total = total_p + total_n
    top = np.asarray(fractions, np.float64) * total
    pos = top_positives(tps, fps, top)
    return {k: float(p / t / (total_p / total)) for k, p, t in zip(fractions, pos, top)}


def binary_auc(is_pos, score, weight, max_fpr=None) -> float:
    """The ROC AUC of validated rows, ``roc_auc_score``'s binary case: the one
    sort and the one sweep (``sorted_tallies``), ``area2 / (2 P N)``.  Every
    AUC fastauc reports from rows is this float, to the last bit (what
    computes it another way, as DeLong's walk, uses the same arithmetic).
    NaN, with scikit-learn's warning, when a class is absent or weighs zero;
    ``max_fpr``: McClish's standardised partial AUC."""
    n_pos = int(np.count_nonzero(is_pos))
    if n_pos == 0 or n_pos == is_pos.shape[0]:
        v.warn_undefined(v.ONE_CLASS)
        return float("nan")
    if max_fpr is None or max_fpr == 1:
        t = sorted_tallies(is_pos, score, weight, curve=False)
        if t.total_pos <= 0 or t.total_neg <= 0:
            v.warn_undefined(v.ZERO_WEIGHT_CLASS)
            return float("nan")
        return float(t.area2 / (2.0 * t.total_pos * t.total_neg))
    fpr, tpr, _ = roc_points(sorted_tallies(is_pos, score, weight, curve=True), True)
    partial_auc = band_area(fpr, tpr, 0.0, float(max_fpr))
    min_area = 0.5 * max_fpr**2
    max_area = max_fpr
    return float(0.5 * (1 + (partial_auc - min_area) / (max_area - min_area)))


def binary_ap(is_pos, score, weight) -> float:
    """Average precision of validated rows (``average_precision_score``'s binary case)."""
    t = sorted_tallies(is_pos, score, weight, curve=False)
    if t.total_pos == 0:
        warnings.warn(NO_POSITIVE_PR, UserWarning, stacklevel=v.caller_stacklevel())
        return 0.0
    return float(max(0.0, t.ap_num / t.total_pos))


def _compacted(t: Tallies, drop: bool, second_difference: bool) -> int:
    """Apply a drop_intermediate rule to the tallies ``[1:]``; return their count."""
    m = t.tps.shape[0] - 1
    if drop and m > 2 and not t.dropped:
        m = _drop_intermediate(t.tps[1:], t.fps[1:], t.thr_keys[1:], second_difference)
    return m


def roc_points(t: Tallies, drop: bool):
    m = _compacted(t, drop, True)
    warn_roc_totals(t.tps[m], t.fps[m])
    _finish(t, m, False)
    return _owned(t.fps[: m + 1], t.tps[: m + 1], t.thr_keys[: m + 1].view(np.float64))


NO_NEGATIVE_ROC = "No negative samples in y_true, false positive value should be meaningless"
NO_POSITIVE_ROC = "No positive samples in y_true, true positive value should be meaningless"


def warn_roc_totals(total_p, total_n, stacklevel=None):
    """scikit-learn's ``roc_curve`` warnings when a class has no weight."""
    if total_n <= 0:
        v.warn_undefined(NO_NEGATIVE_ROC, stacklevel)
    if total_p <= 0:
        v.warn_undefined(NO_POSITIVE_ROC, stacklevel)


def _finish(t: Tallies, m: int, pr: bool):
    """``finish_points`` over ``[0, m]`` (and for PR ``reverse_points``), in
    row blocks on the threads, in place."""
    if m + 1 < _parallel.BLOCKS_FROM:  # a small curve: one call, no lists, no threads
        finish_curve(t.tps, t.fps, t.thr_keys, m, pr)
        return
    total_p, total_n = float(t.tps[m]), float(t.fps[m])
    blocks = row_blocks(m + 1)
    map_units(finish_points, [(t.tps, t.fps, t.thr_keys, total_p, total_n, a, b, pr, False)
                              for a, b in blocks])
    if pr:
        map_units(reverse_points, [(t.tps, t.fps, t.thr_keys, m, a, b)
                                   for a, b in row_blocks(m // 2 + 1)])


def _owned(*arrays):
    """The curve's arrays, copied out of the sweep's row-length buffers when
    ``drop_intermediate`` left less than half of them, so that the caller
    does not hold 24 bytes a row for the curve it keeps."""
    if arrays[0].base is not None and 2 * arrays[0].shape[0] < arrays[0].base.shape[0]:
        return tuple(a.copy() for a in arrays)
    return arrays


def pr_points(t: Tallies, drop: bool, raw_dtype):
    """``precision_recall_curve``'s arrays from the tallies (scikit-learn's
    warning and recall convention when there is no positive)."""
    m = _compacted(t, drop, False)
    no_positive = t.tps[m] == 0
    _finish(t, m, True)
    precision, recall, thresholds = _owned(t.fps[: m + 1], t.tps[: m + 1],
                                           t.thr_keys[1:m + 1].view(np.float64))
    if no_positive:
        warnings.warn(NO_POSITIVE_PR, UserWarning, stacklevel=v.caller_stacklevel())
        recall[:-1] = 1.0
    if raw_dtype.kind in "iuf":
        thresholds = thresholds.astype(raw_dtype, copy=False)
    return precision, recall, thresholds


def det_points(tps, fps, thr, xp=np):
    """``det_curve``'s arrays from the tallies (the point (0, 0) first, any
    drop rule applied): scikit-learn's slice from the last point of zero
    false positives to the first of all the positives, reversed; ``xp`` the
    arrays' namespace (numpy, or CuPy on the device)."""
    fns = tps[-1] - tps
    first = int(xp.searchsorted(fps, fps[0], side="right")) - 1
    last = int(xp.searchsorted(tps, tps[-1])) + 1
    sl = slice(first, last)
    return fps[sl][::-1] / fps[-1], fns[sl][::-1] / tps[-1], thr[sl][::-1]


def check_best_args(metric, beta, cost_fp, cost_fn) -> int:
    """``best_threshold``'s options checked; the metric's kernel code."""
    from ._kernels.thresholds import CODES, FBETA

    v.check_choice(metric, "metric", tuple(CODES))
    code = CODES[metric]
    if metric == "cost":
        if cost_fp is None or cost_fn is None:
            raise ValueError("metric='cost' needs both cost_fp and cost_fn")
        for name, c in (("cost_fp", cost_fp), ("cost_fn", cost_fn)):
            if not np.isfinite(c) or c < 0:
                raise ValueError(f"{name} must be a finite non-negative number, got "
                                 f"{v.plain(c)!r}")
    elif cost_fp is not None or cost_fn is not None:
        raise ValueError("cost_fp and cost_fn apply to metric='cost' only")
    if code == FBETA and not (np.isfinite(beta) and beta > 0):
        raise ValueError(f"beta must be a positive number, got {v.plain(beta)!r}")
    return code
