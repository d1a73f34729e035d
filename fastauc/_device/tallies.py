"""The device's one sort and sweep, from array primitives (sort, argsort,
searchsorted, cumsum: CUB's radix sort and scans under CuPy), written once
against the namespace ``xp`` (CuPy on a GPU, numpy under the simulator).

- **AUC and placements**: each class sorted apart (one partition by class,
  then a sort of each part: on an H200 at 1e8 rows, faster than one sort of
  64-bit keys holding score and label, or one sort of all scores and the
  smaller class's midranks, which benchmarks/gpu_benchmark.py times); ``searchsorted`` of one
  class's scores in the other's gives, for every row, the other class's
  weight below it and tied with it.  Unweighted, twice the area is an int64
  sum (``2 * below + tied`` over the positives): exact, and the float the CPU
  sweep adds up, to the last bit.  Weighted, float64 sums of weight times
  cumulative weight.
- **Curves**: unweighted float32 scores, one sort of 64-bit keys (score
  bits and label: no argsort, no gather by its order); else one argsort of
  all rows (descending), each distinct score's last row ending a tie group,
  where the cumulative positive and negative weight are read (int64 counts
  unweighted: exact).
"""

from __future__ import annotations

import math
import warnings
from typing import NamedTuple

import numpy as np

from .. import _validation as v
from .._curves import NO_POSITIVE_PR, warn_roc_totals


class Classes(NamedTuple):
    """Each class's scores sorted ascending, with their weights (None:
    unweighted) and cumulative weights from below (a leading 0); with
    ``keep_order``, each class's sort order (positions among the class's
    rows in input order, for :func:`unsort`)."""

    pos: object
    neg: object
    pos_w: object
    neg_w: object
    pos_cum: object  # None unweighted
    neg_cum: object
    total_pos: float
    total_neg: float
    n_pos: int
    n_neg: int
    pos_order: object = None
    neg_order: object = None


def _sorted(xp, s, w, keep_order):
    """``(sorted s, its weights, their cumulative sums, the order)``: an
    unweighted part without its order is sorted in place (no index)."""
    if w is None and not keep_order:
        s.sort()
        return s, None, None, None
    order = xp.argsort(s)
    if w is None:
        return s[order], None, None, order
    ws = w[order]
    cum = xp.concatenate((xp.zeros(1), xp.cumsum(ws)))
    return s[order], ws, cum, order


def partition(e, is_pos, s, w, n_pos: int):
    """``(scores, weights)``: the positives' rows first, then the negatives',
    each class in input order (``weights`` None unweighted)."""
    from .._kernels_cuda import sorting

    xp = e.xp
    n = s.shape[0]
    ahead = xp.cumsum(is_pos, dtype=np.int32 if n < 2**31 else np.int64)
    out_s = xp.empty_like(s)
    out_w = xp.empty(n if w is not None else 1, np.float64)
    threads = e.threads(n, sorting.THREADS)
    e.launch(sorting.partition, e.blocks(n, threads), threads, s,
             out_w if w is None else w, is_pos.view(np.uint8), ahead, n_pos, w is not None,
             out_s, out_w)
    return out_s, (None if w is None else out_w)


def split_classes(e, is_pos, s, w, keep_order: bool = False) -> Classes:
    """Sort each class's scores once (``s`` float32 or float64): one
    partition by class, then each part sorted (in place, unweighted without
    ``keep_order``; else by its argsort, whose order is kept)."""
    xp = e.xp
    n_pos = e.count(is_pos)
    part_s, part_w = partition(e, is_pos, s, w, n_pos)
    pw_in = None if w is None else part_w[:n_pos]
    nw_in = None if w is None else part_w[n_pos:]
    ps, pw, pc, po = _sorted(xp, part_s[:n_pos], pw_in, keep_order)
    ns, nw, nc, no = _sorted(xp, part_s[n_pos:], nw_in, keep_order)
    if w is None:
        tp, tn = float(n_pos), float(s.shape[0] - n_pos)
    else:
        tp, tn = float(pc[-1]), float(nc[-1])
    return Classes(ps, ns, pw, nw, pc, nc, tp, tn, int(ps.shape[0]), int(ns.shape[0]), po, no)


def area2(e, c: Classes) -> float:
    """Twice the ROC area in weight units (ties one half): the CPU sweep's
    ``area2`` (bit for bit unweighted)."""
    if c.pos_w is None:
        return area2_sorted(e, c.pos, c.neg)
    if c.n_pos == 0 or c.n_neg == 0:
        return 0.0
    xp = e.xp
    lo = xp.searchsorted(c.neg, c.pos, "left")
    hi = xp.searchsorted(c.neg, c.pos, "right")
    return float((c.pos_w * (c.neg_cum[lo] + c.neg_cum[hi])).sum())


def area2_sorted(e, pos, neg) -> float:
    """Twice the area of unweighted classes given sorted (ascending): an
    exact count, the CPU's float."""
    if pos.shape[0] == 0 or neg.shape[0] == 0:
        return 0.0
    xp = e.xp
    lo = xp.searchsorted(neg, pos, "left")
    hi = xp.searchsorted(neg, pos, "right")
    return float(int(lo.sum(dtype=np.int64) + hi.sum(dtype=np.int64)))  # one synchronisation


def placements(e, c: Classes):
    """DeLong's placement values: each positive's share of the negative
    weight below it (ties one half), each negative's share of the positive
    weight above it, in the classes' sorted orders."""
    xp = e.xp
    lo = xp.searchsorted(c.neg, c.pos, "left")
    hi = xp.searchsorted(c.neg, c.pos, "right")
    plo = xp.searchsorted(c.pos, c.neg, "left")
    phi = xp.searchsorted(c.pos, c.neg, "right")
    if c.pos_w is None:
        v10 = (lo + hi) / (2.0 * c.total_neg)
        v01 = ((c.n_pos - phi) + 0.5 * (phi - plo)) / c.total_pos
    else:
        v10 = (0.5 * (c.neg_cum[lo] + c.neg_cum[hi])) / c.total_neg
        above = c.total_pos - c.pos_cum[phi]
        v01 = (above + 0.5 * (c.pos_cum[phi] - c.pos_cum[plo])) / c.total_pos
    return v10, v01


def unsort(xp, order, sorted_values):
    """Values given in a class's sorted order put back in the class's input
    order (``order``: :class:`Classes`' ``pos_order`` or ``neg_order``)."""
    out = xp.empty_like(sorted_values)
    out[order] = sorted_values
    return out


class Curve(NamedTuple):
    """Distinct scores, descending, with the cumulative positive and negative
    weight down to each (float64), and the tie groups' sizes in rows."""

    thresholds: object
    tps: object
    fps: object
    group_rows: object


CURVE_KEYS = True  # unweighted float32: one sort of 64-bit keys (the benchmark compares)


def curve(e, is_pos, s, w) -> Curve:
    """The tallies at every distinct score (rows of zero weight left out, as
    scikit-learn's curves do): unweighted float32 scores from one sort of
    64-bit keys (:func:`keys_curve`), others by an argsort."""
    xp = e.xp
    if w is None and s.dtype == np.float32 and CURVE_KEYS:
        return keys_curve(e, is_pos, s)
    if w is not None:
        keep = w != 0
        is_pos, s, w = is_pos[keep], s[keep], w[keep]
    order = xp.argsort(s)[::-1]
    return sorted_curve(e, s[order], is_pos[order], None if w is None else w[order])


def keys_curve(e, is_pos, s) -> Curve:
    """:func:`curve` of unweighted float32 scores (none subnormal): each
    row's key holds its score's bits and its label; one sort of the keys,
    one pass marks the tie groups' starts and reads the labels, a prefix
    count of the positives, and one pass over the groups writes the points
    (``_kernels_cuda.sorting``).  Counts are exact integers."""
    from .._kernels_cuda import sorting as k

    xp = e.xp
    n = s.shape[0]
    threads = e.threads(n, k.THREADS)
    blocks = e.blocks(n, threads)
    keys = xp.empty(n, np.uint64)
    e.launch(k.make_keys, blocks, threads, s.view(np.uint32), is_pos.view(np.uint8), keys)
    keys.sort()
    first = xp.empty(n, np.uint8)
    lab = xp.empty(n, np.uint8)
    e.launch(k.group_starts, blocks, threads, keys, first, lab)
    positives = xp.cumsum(lab, dtype=np.int32 if n < 2**31 else np.int64)
    starts = xp.flatnonzero(first)
    m = starts.shape[0]
    tps, fps = xp.empty(m), xp.empty(m)
    bits, rows = xp.empty(m, np.uint32), xp.empty(m, np.int64)
    group_threads = e.threads(m, k.THREADS)
    e.launch(k.curve_points, e.blocks(m, group_threads), group_threads, keys, positives, starts,
             int(positives[-1]), tps, fps, bits, rows)
    return Curve(bits.view(np.float32).astype(np.float64), tps, fps, rows)


def sorted_curve(e, ss, lab, ws) -> Curve:
    """:func:`curve` of rows already sorted by score, descending (``lab``
    their classes, bool or 1/0; ``ws`` their weights or None).  Rows of zero weight add
    nothing to the tallies (only points where nothing changes)."""
    xp = e.xp
    n = ss.shape[0]
    ends = xp.flatnonzero(ss[1:] != ss[:-1]) if n > 1 else xp.zeros(0, np.int64)
    ends = xp.concatenate((ends, xp.asarray([n - 1]))) if n else ends
    if ws is None:
        tps_i = xp.cumsum(lab, dtype=np.int64)[ends]
        tps = tps_i.astype(np.float64)
        fps = (ends + 1 - tps_i).astype(np.float64)
    else:
        tps = xp.cumsum(xp.where(lab, ws, 0.0))[ends]
        fps = xp.cumsum(xp.where(lab, 0.0, ws))[ends]
    rows = xp.diff(ends, prepend=-1)
    return Curve(ss[ends].astype(np.float64) + 0.0, tps, fps, rows)


def drop_points(e, tps, fps, second_difference: bool):
    """Indices kept by a ``drop_intermediate`` rule (the CPU kernel's, which
    is scikit-learn's): ROC keeps the corners (a non-zero second difference
    of ``fps`` or ``tps``), PR and DET the points whose ``tps`` differs from a
    neighbour's; the ends always."""
    xp = e.xp
    m = tps.shape[0]
    if m <= 2:
        return xp.arange(m)
    if second_difference:
        inner = xp.logical_or(xp.diff(fps, 2) != 0, xp.diff(tps, 2) != 0)
    else:
        d = xp.diff(tps) != 0
        inner = xp.logical_or(d[:-1], d[1:])
    keep = xp.concatenate((xp.ones(1, bool), inner, xp.ones(1, bool)))
    return xp.flatnonzero(keep)


# ------------------------------------------------------------------ metrics of one model

def binary_auc(e, is_pos, s, w, max_fpr):
    """``_curves.binary_auc`` on the device: the same float (unweighted, to the
    last bit), NaN with scikit-learn's warning for one class."""
    n_pos = e.count(is_pos)
    if n_pos == 0 or n_pos == is_pos.shape[0]:
        v.warn_undefined(v.ONE_CLASS, stacklevel=None)
        return math.nan
    if max_fpr is None or max_fpr == 1:
        c = split_classes(e, is_pos, s, w)
        if c.total_pos <= 0 or c.total_neg <= 0:
            v.warn_undefined(v.ZERO_WEIGHT_CLASS, stacklevel=None)
            return math.nan
        return float(area2(e, c) / (2.0 * c.total_pos * c.total_neg))
    fpr, tpr, _ = roc(e, is_pos, s, w, True)
    partial = band_area(e, fpr, tpr, float(max_fpr))
    min_area = 0.5 * max_fpr**2
    return float(0.5 * (1 + (partial - min_area) / (max_fpr - min_area)))


def curve_auc(e, c: Curve) -> float:
    """The AUC of an unweighted :class:`Curve` from exact counts: in
    descending score order twice the area is ``sum_g pos_g (2 neg_below_g +
    neg_g)`` over the tie groups, an int64 sum, so the float is
    :func:`binary_auc`'s (and the CPU's) to the last bit.  NaN for one class
    (the caller warns)."""
    xp = e.xp
    tps = c.tps.astype(np.int64)
    fps = c.fps.astype(np.int64)
    total_p = int(tps[-1]) if tps.shape[0] else 0
    total_n = int(fps[-1]) if fps.shape[0] else 0
    if total_p == 0 or total_n == 0:
        return math.nan
    pos_g = xp.diff(tps, prepend=0)
    neg_g = xp.diff(fps, prepend=0)
    area2 = int((pos_g * (2 * (total_n - fps) + neg_g)).sum(dtype=np.int64))
    return float(area2 / (2.0 * total_p * total_n))


def band_area(e, fpr, tpr, hi):
    """Area under the ROC polyline over ``0 <= fpr <= hi`` (trapezoids, the
    segment that crosses ``hi`` interpolated): ``_kernels.table.band_area``."""
    xp = e.xp
    a = xp.clip(fpr[:-1], 0.0, hi)
    b = xp.clip(fpr[1:], 0.0, hi)
    run = fpr[1:] - fpr[:-1]
    with np.errstate(divide="ignore", invalid="ignore"):
        slope = xp.where(run > 0, (tpr[1:] - tpr[:-1]) / run, 0.0)
    ya = tpr[:-1] + slope * (a - fpr[:-1])
    yb = tpr[:-1] + slope * (b - fpr[:-1])
    return float((0.5 * (b - a) * (ya + yb)).sum())


def roc(e, is_pos, s, w, drop):
    xp = e.xp
    c = curve(e, is_pos, s, w)
    tps, fps, thr = c.tps, c.fps, c.thresholds
    if drop:
        keep = drop_points(e, tps, fps, True)
        tps, fps, thr = tps[keep], fps[keep], thr[keep]
    total_p = float(tps[-1]) if tps.shape[0] else 0.0
    total_n = float(fps[-1]) if fps.shape[0] else 0.0
    warn_roc_totals(total_p, total_n)
    zero = xp.zeros(1)
    with np.errstate(divide="ignore", invalid="ignore"):
        fpr = xp.concatenate((zero, fps)) / total_n
        tpr = xp.concatenate((zero, tps)) / total_p
    thr = xp.concatenate((xp.full(1, np.inf), thr))
    return fpr, tpr, thr


def average_precision(e, is_pos, s, w, c=None) -> float:
    """``_curves.binary_ap`` on the device (the step terms of every distinct
    score with positives, in float64), with scikit-learn's warning when there
    is no positive; ``c``: the rows' :class:`Curve`, when made already."""
    xp = e.xp
    c = curve(e, is_pos, s, w) if c is None else c
    total_p = float(c.tps[-1]) if c.tps.shape[0] else 0.0
    if total_p == 0:
        warnings.warn(NO_POSITIVE_PR, UserWarning, stacklevel=v.caller_stacklevel())
        return 0.0
    tg = xp.diff(c.tps, prepend=0.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = xp.where(tg > 0, tg * (c.tps / (c.tps + c.fps)), 0.0)
    return float(max(0.0, float(terms.sum()) / total_p))
