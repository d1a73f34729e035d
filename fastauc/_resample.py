"""The sorted layout of a model's rows and the bootstrap's replicate machinery.

A *layout* holds one model's rows sorted once: positives then negatives, each
by decreasing score, with the distinct-score group boundaries.  DeLong's
placement values (several models on the same rows) and the bootstrap's
resample counts are applied to it in O(n).  ``bootstrap`` and ``plots`` (the
ROC confidence band) share the replicate runner here.
"""

from __future__ import annotations

import math
import threading
import warnings
from functools import cached_property
from typing import NamedTuple

import numpy as np

from . import _validation as v
from ._kernels.placements import layout_placements, walk_rows
from ._kernels.resampling import (
    AVERAGE_PRECISION,
    ECE,
    ECE_BINS,
    LOG_LOSS,
    PARTIAL_AUC,
    PARTIAL_FPR,
    PARTIAL_TPR,
    PREC_AT_REC,
    REC_AT_PREC,
    ROC_AUC,
    SENS_AT_SPEC,
    SPEC_AT_SENS,
    draw_buffer,
    poisson_batch,
    replicate_batch,
    replicate_wide,
)
from ._kernels.losses import log_loss_sum
from ._operating import operating_point
from ._probabilities import binned_error, linspace_edges, table_bins
from ._kernels.placements import group_weights
from ._kernels.table import sweep_table
from ._kernels.resampling import layout_ranks, mix
from ._kernels.table import band_area
from ._parallel import map_units
from ._stats import norm_ppf as _norm_ppf
from ._stats import norm_sf as _norm_sf
from ._sort import CHUNK_MIN, sort_by_class
from ._table import Table, _compacted, pivots, sorted_tallies, sweep_parts
from ._curves import binary_ap, binary_auc


class _Layout(NamedTuple):
    """One model's scores sorted once: see ``_kernels.resampling``."""

    #: (n,) row at each class-layout position (positives, then negatives); None
    #: when the caller needs no rows (one unweighted model: the sort then moves
    #: keys only)
    rows: np.ndarray | None
    n_pos: int
    #: (G,) cumulative positive counts per distinct-score group (``count_dtype``)
    bp: np.ndarray
    bn: np.ndarray  # (G,) cumulative negative counts
    keys: np.ndarray  # (G,) the distinct scores' keys, descending (empty: not kept)
    #: the ROC AUC of the rows with the weights walked (``roc_auc_score``'s
    #: float, to the last bit); NaN when a class has no weight
    auc: float = math.nan
    #: where ``sorted_tallies`` cuts its sweep of the rows with the weights
    #: walked: each key range's ``(first group, tp0, fp0)`` from the top,
    #: ``tp0``/``fp0`` the weights above it (numpy's sums, added in range
    #: order); empty below ``CHUNK_MIN`` rows, where it sweeps them in one range
    cut: tuple = ()

    @property
    def size(self) -> int:
        """Rows in the layout (every row, whatever its weight)."""
        return self.n_pos + (int(self.bn[-1]) if self.bn.shape[0] else 0)


def _layout(is_pos, score, name="y_score", rows=True, keys=True, w=v.EMPTY_WEIGHT) -> _Layout:
    """Sort one model's rows (all of them, whatever their weight) into a layout
    (with ``rows=False``, one without the rows' indices; with ``keys=False``,
    one without the distinct scores); its ``auc`` is that of weights ``w``
    (they need ``rows``)."""
    return layouts(is_pos, [score], [name], w, rows=rows, keys=keys)[0]


def layouts(is_pos, scores, names, w=v.EMPTY_WEIGHT, X=None, rows=True, keys=True,
            layout=True):
    """The layouts of several models on the same rows, one sort per column.

    Each column gets the one sort (``_sort.sort_by_class``) with each row's
    index carried along (every row, whatever its weight); one walk of the two
    classes' runs from their tops (``walk_rows``) gives the layout's groups.
    One column's sort uses the threads; several columns go in two fixed
    halves, each column sorted and walked whole in one thread.  With ``X``
    ((k, n) float64) the same walk writes each row's DeLong placement in
    model ``m`` to ``X[m]``
    (weights ``w`` in row order) and ``(layouts, aucs)`` is returned.  With
    ``rows=False`` (no ``w``, no ``X``) the sort carries no row indices and
    the layouts have none; with ``keys=False`` they hold no distinct scores
    (the bootstrap needs the groups' sizes only: 8 bytes a row less); with
    ``layout=False`` (and ``X``) only the placements and the AUCs are made
    (the layouts are None).  Each AUC (and each layout's ``auc``) is
    ``roc_auc_score``'s float for the column and the weights ``w``, to the
    last bit: the walk adds up the sweep's terms in the sweep's order, from
    the same cut (see :func:`_walk`).
    """
    n = is_pos.shape[0]
    if X is None:  # no placements: their divisors are not needed
        total_p = total_n = 1.0
    elif w.shape[0]:
        total_p, total_n = float(w[is_pos].sum()), float(w[~is_pos].sum())
    else:
        total_p, total_n = float(np.count_nonzero(is_pos)), float(n - np.count_nonzero(is_pos))
    jobs = [(is_pos, score, name, rows, keys, layout, w, total_p, total_n,
             v.EMPTY_WEIGHT if X is None else X[m])
            for m, (score, name) in enumerate(zip(scores, names))]
    if len(jobs) == 1:  # one column: its sort and its walk use the threads
        walked = [_sort_and_walk(*jobs[0])]
    else:  # several: one column a unit, each sorted and walked whole in one thread
        walked = map_units(_sort_and_walk, jobs)
    lays = [lay for lay, _ in walked]
    if X is None:
        return lays
    return lays, np.array([auc for _, auc in walked])


def _sort_and_walk(is_pos, score, name, rows, keys, layout, w, total_p, total_n, out):
    r = sort_by_class(is_pos, score, name=name, row_index=rows)
    return _walk(r, w, total_p, total_n, out, keys, layout)


def count_dtype(n: int):
    """The layout's cumulative counts: int32 below 2**31 rows (half the bytes of
    the float64 counts a sweep writes: 8 bytes a row less for every layout,
    which at 1e8 rows is memory a call no longer has to touch), else int64."""
    return np.int32 if n < 2**31 else np.int64


def _canonical_cuts(r, w, parts):
    """Where ``sorted_tallies`` cuts these rows' sweep into ``parts`` key
    ranges, and the weights above each: ``(at_p, at_n, above)``, each
    range's bounds in the runs ``r.pk`` and ``r.nk`` from the top
    (``[len, ..., 0]``: range ``k`` is ``at[k + 1]:at[k]``) and its
    ``(tp0, fp0)``.

    The sweep's runs hold the rows of non-zero weight only (the sort leaves
    the others out) and ``_table.split_sweep`` cuts them at ``_table.pivots``
    of the longer one, with the weight above each range as numpy sums each
    range's weights in key order, added up in range order
    (``_table.weights_above``); the walk's runs hold every row, so the same
    cuts and the same sums are taken here over the rows of non-zero weight,
    and the two add up the same terms to the same floats.
    """
    every = not w.shape[0] or float(w.min()) > 0.0  # every row in the sweep's runs too
    if every:
        longest = r.pk if r.pk.shape[0] >= r.nk.shape[0] else r.nk
        cuts = pivots(longest, parts)
    else:
        wp, wn = w[r.px], w[r.nx]  # the runs' weights, in key order
        kept_p, kept_n = np.flatnonzero(wp != 0.0), np.flatnonzero(wn != 0.0)
        keys, kept = (r.pk, kept_p) if kept_p.shape[0] >= kept_n.shape[0] else (r.nk, kept_n)
        cuts = pivots(keys[kept], parts)
    at_p = [r.pk.shape[0], *np.searchsorted(r.pk, np.array(cuts, np.uint64)).tolist(), 0]
    at_n = [r.nk.shape[0], *np.searchsorted(r.nk, np.array(cuts, np.uint64)).tolist(), 0]
    tp0 = fp0 = 0.0
    above = [(tp0, fp0)]
    for k in range(len(cuts)):
        (a_p, b_p), (a_n, b_n) = (at_p[k + 1], at_p[k]), (at_n[k + 1], at_n[k])
        if not w.shape[0]:
            tp0 += float(b_p - a_p)
            fp0 += float(b_n - a_n)
        elif every:  # the range's weights in key order, as the sweep's runs hold them
            tp0 += float(w[r.px[a_p:b_p]].sum())
            fp0 += float(w[r.nx[a_n:b_n]].sum())
        else:
            tp0 += float(wp[kept_p[np.searchsorted(kept_p, a_p):np.searchsorted(kept_p, b_p)]]
                         .sum())
            fp0 += float(wn[kept_n[np.searchsorted(kept_n, a_n):np.searchsorted(kept_n, b_n)]]
                         .sum())
        above.append((tp0, fp0))
    return at_p, at_n, above


def _walk(r, w, total_p, total_n, out, with_keys=True, layout=True):
    """The layout of one model's sorted runs (``walk_rows``) and its AUC.  From
    ``CHUNK_MIN`` rows on, the runs are cut where ``sorted_tallies`` cuts its
    sweep (:func:`_canonical_cuts`: cuts that depend on the data only; a tie
    group is never split) and the key ranges walked on the threads, each
    starting from the weights above it; each range's groups are written
    after room for every row of the ranges above and moved up when those
    had ties.  ``layout=False``: the placements ``out`` and the AUC
    only (no layout: None).  The AUC is ``area2 / (2 P N)`` from the walk's
    sums, which are the sweep's: ``roc_auc_score``'s float."""
    n = r.pk.shape[0] + r.nk.shape[0]
    m = n if layout else 0
    keys = np.empty(m if with_keys else 0, np.uint64)
    bp = np.empty(m, count_dtype(n))
    bn = np.empty(m, count_dtype(n))
    cut = ()
    parts = sweep_parts(n)
    if parts == 1:
        g, area2, tp, fp = walk_rows(r.pk, r.px, r.nk, r.nx, w, total_p, total_n, out, keys,
                                     bp, bn, np.zeros(4))
    else:
        at_p, at_n, above = _canonical_cuts(r, w, parts)
        jobs, offs = [], [0]
        for k, (tp0, fp0) in enumerate(above):
            (a_p, b_p), (a_n, b_n) = (at_p[k + 1], at_p[k]), (at_n[k + 1], at_n[k])
            o, e = offs[-1], offs[-1] + (b_p - a_p) + (b_n - a_n)
            offs.append(e)
            # (rows and keys: slices of an empty array are empty)
            jobs.append((r.pk[a_p:b_p], r.px[a_p:b_p], r.nk[a_n:b_n], r.nx[a_n:b_n], w,
                         total_p, total_n, out, keys[o:e], bp[o:e], bn[o:e],
                         np.array([tp0, fp0, r.pk.shape[0] - b_p, r.nk.shape[0] - b_n],
                                  np.float64)))
        done = map_units(walk_rows, jobs)
        gs = [d[0] for d in done]
        area2 = 0.0
        for d in done:
            area2 += d[1]
        tp, fp = done[-1][2], done[-1][3]
        g = sum(gs)
        if layout:  # ties above a cut: close the gaps
            _compacted((keys, bp, bn) if with_keys else (bp, bn), offs, gs)
        starts = np.cumsum([0] + gs[:-1]).tolist()
        cut = tuple((g0, tp0, fp0) for g0, (tp0, fp0) in zip(starts, above))
    auc = area2 / (2.0 * tp * fp) if tp > 0 and fp > 0 else math.nan
    if not layout:
        return None, auc
    order = np.concatenate((r.px[::-1], r.nx[::-1])) if r.px.shape[0] + r.nx.shape[0] else None
    return _Layout(order, r.pk.shape[0], bp[:g], bn[:g], keys[:g], auc, cut), auc


def layout_order_placements(lay: _Layout, wl, out=None):
    """Each layout position's DeLong placement value (layout order) and the AUC.

    ``out`` (float64, one longer than the rows) is written when given."""
    n = lay.size
    if wl.shape[0]:
        pos_w, neg_w = group_weights(lay.bp, lay.bn, wl, lay.n_pos)
        total_p, total_n = float(wl[:lay.n_pos].sum()), float(wl[lay.n_pos:].sum())
    else:  # the counts come from the cumulative ones in the kernel
        pos_w = neg_w = v.EMPTY_WEIGHT
        total_p, total_n = float(lay.n_pos), float(n - lay.n_pos)
    out = np.empty(n + 1) if out is None else out
    area = layout_placements(lay.bp, lay.bn, pos_w, neg_w, lay.n_pos, out, total_p, total_n)
    return out[:n], area / total_p


def layout_table(lay: _Layout, wl) -> Table:
    """The distinct-score table of a layout's rows, weights ``wl`` in layout order.

    Unweighted: the group sizes.  Weighted: each group's weight per class; a
    score held only by rows of weight zero is left out (it adds no threshold,
    as in scikit-learn).
    """
    return _cut_table(lay, wl)[0]


def _cut_ranges(lay: _Layout):
    """``lay.cut`` as ``[(first group, tp0, fp0), ...]`` (one range from the top when empty)."""
    return list(lay.cut) or [(0, 0.0, 0.0)]


def _cut_table(lay: _Layout, wl):
    """``layout_table(lay, wl)`` and where each of ``lay.cut``'s key ranges
    starts in it."""
    firsts = [c[0] for c in _cut_ranges(lay)]
    if not wl.shape[0]:
        return (Table(lay.keys, np.diff(lay.bp, prepend=0.0), np.diff(lay.bn, prepend=0.0)),
                firsts)
    pos, neg = group_weights(lay.bp, lay.bn, wl, lay.n_pos)
    keep = (pos > 0) | (neg > 0)
    if keep.all():
        return Table(lay.keys, pos, neg), firsts
    kept = np.concatenate(([0], np.cumsum(keep)))
    return Table(lay.keys[keep], pos[keep], neg[keep]), [int(kept[f]) for f in firsts]


def layout_table_ap(lay: _Layout, wl) -> tuple[Table, float]:
    """``layout_table(lay, wl)`` and the average precision of the rows with
    weights ``wl``, which must be those ``lay`` was walked with: its sweep
    cut where ``sorted_tallies`` cuts (``lay.cut``), the keys above the cut
    swept from the top and those below from the weights above, the two
    numerators added, over the positive weight the lower sweep ends with:
    ``average_precision_score``'s float, to the last bit.  The table's keys
    are summed per class in the sweep's order (a tie's rows from the last,
    ``group_weights``), so its terms are the sweep's; NaN without positive
    weight."""
    table, firsts = _cut_table(lay, wl)
    pos, neg, e = table.pos, table.neg, v.EMPTY_WEIGHT
    ends = firsts[1:] + [pos.shape[0]]
    tp = ap_num = 0.0
    for a, b, (_, tp0, fp0) in zip(firsts, ends, _cut_ranges(lay)):
        tp, _, _, ap = sweep_table(table.keys, pos, neg, a, b, tp0, fp0, e, e, e)
        ap_num += ap
    return table, ap_num / tp if tp > 0 else math.nan


def _group_sizes(lay: _Layout):
    """Numbers of positives and of negatives in each group (int64)."""
    return (np.diff(lay.bp, prepend=0.0).astype(np.int64),
            np.diff(lay.bn, prepend=0.0).astype(np.int64))


def _merged_order(lay: _Layout):
    """Merged order (group by group, its positives then its negatives): the
    class-layout position at each merged position, and the ``code`` bytes
    (bit 0 positive, bit 1 first row of a group)."""
    n = lay.rows.shape[0]
    tpc, fpc = _group_sizes(lay)
    sizes = np.column_stack((tpc, fpc)).ravel()
    code = np.repeat(np.tile(np.array([1, 0], np.uint8), len(tpc)), sizes)
    starts = np.cumsum(tpc + fpc) - (tpc + fpc)
    merged = np.empty(n, np.int64)
    pos_at = code == 1
    merged[pos_at] = np.arange(lay.n_pos)
    merged[~pos_at] = np.arange(lay.n_pos, n)
    code[starts[starts < n]] |= 2
    return merged, code


_METRICS = ("roc_auc", "average_precision", "log_loss", "brier", "ece", "partial_auc",
            "sensitivity_at_specificity",
            "specificity_at_sensitivity", "precision_at_recall", "recall_at_precision")
#: the operating points: metric -> (kernel code, the name of its floor in the
#: in-memory function)
OPERATING_POINTS = {"sensitivity_at_specificity": (SENS_AT_SPEC, "min_specificity"),
                    "specificity_at_sensitivity": (SPEC_AT_SENS, "min_sensitivity"),
                    "precision_at_recall": (PREC_AT_REC, "min_recall"),
                    "recall_at_precision": (REC_AT_PREC, "min_precision")}
#: metrics swept group by group in merged order (their replicates need the rows' order)
MERGED_CODES = (PARTIAL_AUC, SENS_AT_SPEC, SPEC_AT_SENS, PREC_AT_REC, REC_AT_PREC,
                PARTIAL_FPR, PARTIAL_TPR)
#: metrics that are a weighted mean of a per-row loss
ROW_LOSSES = ("log_loss", "brier")
#: metrics of probabilities (checked in [0, 1]; ``_Model.loss`` holds a per-row value)
PROBABILITY_METRICS = ROW_LOSSES + ("ece",)


_BATCH = 16  # replicates per kernel call at most (each replicate its own stream: the
# results never depend on how they are batched, nor on the threads)
UNIT_ROWS = 1 << 20  # rows of replicates a unit of the bootstrap is given (``batch_size``)


def batch_size(n: int) -> int:
    """Replicates per unit (per kernel call) of ``n`` rows: about ``UNIT_ROWS``
    rows' worth, from 1 to ``_BATCH``; a function of the rows alone.  One
    replicate a unit from 2**20 rows (200 replicates of 1e6 rows: 200 units,
    not 13, for 16 or 64 threads to share), 16 below 2**16 (the call's cost
    stays small next to the replicates')."""
    return max(1, min(_BATCH, UNIT_ROWS // max(1, n)))


_EPS = np.finfo(np.float64).eps


class _Model(NamedTuple):
    lay: _Layout
    wl: np.ndarray  # weights in class-layout order (empty when unweighted)
    loss: np.ndarray  # per-row log loss in class-layout order (log_loss only, else empty)


def _model(is_pos, s, w, metric, name, rows=True, keys=True) -> _Model:
    lay = _layout(is_pos, s, name, rows or w.shape[0] > 0 or metric in PROBABILITY_METRICS,
                  keys, w)
    wl = np.ascontiguousarray(w[lay.rows]) if w.shape[0] else w
    loss = v.EMPTY_WEIGHT
    if metric in PROBABILITY_METRICS:
        if s.min() < 0 or s.max() > 1:
            raise ValueError(f"metric={metric!r} needs probabilities in [0, 1] in {name}")
        if metric == "ece":  # the probability itself (its bin: _kernel_arrays)
            row_loss = s
        elif metric == "brier":  # the squared error, as brier_score_loss sums it
            row_loss = (s - is_pos) ** 2
        else:
            row_loss = -np.log(np.clip(np.where(is_pos, s, 1.0 - s), _EPS, 1.0 - _EPS))
        loss = np.ascontiguousarray(row_loss[lay.rows])
    return _Model(lay, wl, loss)


def _jackknife(model: _Model, metric: str) -> np.ndarray:
    """Leave-one-row-out values of the metric, in layout order, in O(n).

    ROC AUC: removing a positive of weight ``w`` and placement ``V`` gives
    ``(P * auc - w * V) / (P - w)`` (likewise for a negative): the jackknife
    comes from the placement values, not from n AUCs.  Log loss: ``(S - w l)
    / (W - w)``.
    """
    lay, wl = model.lay, model.wl
    w = wl if wl.shape[0] else np.ones(lay.size)
    with np.errstate(divide="ignore", invalid="ignore"):
        if metric in ROW_LOSSES:
            total = float(w.sum())
            s = float(np.dot(w, model.loss))
            return (s - w * model.loss) / (total - w)
        place, auc = layout_order_placements(lay, wl)
        npos = lay.n_pos
        total_p, total_n = float(w[:npos].sum()), float(w[npos:].sum())
        out = np.empty_like(place)
        out[:npos] = (total_p * auc - w[:npos] * place[:npos]) / (total_p - w[:npos])
        out[npos:] = (total_n * auc - w[npos:] * place[npos:]) / (total_n - w[npos:])
    return out


def _acceleration(jack_groups) -> float:
    """BCa acceleration from jackknife values, one array per sample (stratum).

    For one sample this is Efron's ``sum d^3 / (6 (sum d^2)^1.5)`` with
    ``d = mean - theta_i``; several samples are combined as in
    ``scipy.stats.bootstrap`` (Efron & Tibshirani 1993, ch. 14).
    """
    num = den = 0.0
    for jk in jack_groups:
        jk = jk[np.isfinite(jk)]
        n = jk.shape[0]
        if n < 2:
            continue
        u = (n - 1) * (jk.mean() - jk)
        num += float(np.sum(u**3)) / n**3
        den += float(np.sum(u**2)) / n**2
    return num / (6.0 * den**1.5) if den > 0 else 0.0


def _norm_ppf_or_nan(p: float) -> float:
    return _norm_ppf(p) if 0.0 < p < 1.0 else math.nan


def check_range(r, name):
    """``(lo, hi)`` of a partial-AUC range: two different numbers in [0, 1]
    (``partial_auc``'s rule and words)."""
    try:
        lo, hi = sorted(float(x) for x in r)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be a pair of numbers in [0, 1], got {r!r}") from None
    if not (0.0 <= lo < hi <= 1.0):
        shown = tuple(v.plain(x) for x in r) if isinstance(r, (tuple, list)) else r
        raise ValueError(f"{name} must be two different numbers in [0, 1], got {shown!r}")
    return lo, hi


class PartialRange(NamedTuple):
    """``metric="partial_auc"``'s range: ``focus`` ``"fpr"`` or ``"tpr"``,
    its bounds, and whether McClish's correction is applied."""

    focus: str
    lo: float
    hi: float
    correct: bool

    @property
    def code(self) -> int:
        return PARTIAL_FPR if self.focus == "fpr" else PARTIAL_TPR

    def corrected(self, area):
        """McClish's standardisation of ``area`` (a float or an array) when
        ``correct``, as ``partial_auc`` computes it; else ``area``."""
        if not self.correct:
            return area
        lo, hi = self.lo, self.hi
        if self.focus == "tpr":
            chance = (hi - lo) - (hi * hi - lo * lo) / 2.0
        else:
            chance = (hi * hi - lo * lo) / 2.0
        return (1.0 + (area - chance) / ((hi - lo) - chance)) / 2.0


def partial_range(metric, fpr_range, tpr_range, correct, max_fpr, at, method):
    """The checked :class:`PartialRange` of ``metric="partial_auc"`` (None for
    the other metrics, which take no range)."""
    if metric != "partial_auc":
        if fpr_range is not None or tpr_range is not None:
            raise ValueError("fpr_range and tpr_range apply to metric='partial_auc' only")
        if correct is not False:
            raise ValueError("correct= applies to metric='partial_auc' only")
        return None
    if max_fpr is not None:
        raise ValueError("metric='partial_auc' takes fpr_range=(0, max_fpr), not max_fpr")
    if at is not None:
        raise ValueError("at= is the floor of an operating-point metric, not of "
                         "metric='partial_auc'")
    if method == "bca":
        raise ValueError("method='bca' is not available for metric='partial_auc' (no "
                         "jackknife in O(n)); use 'percentile' or 'basic'")
    if not isinstance(correct, (bool, np.bool_)):
        raise TypeError(f"correct must be True or False, got {correct!r}")
    if fpr_range is not None and tpr_range is not None:
        raise ValueError("give fpr_range or tpr_range, not both")
    if tpr_range is not None:
        return PartialRange("tpr", *check_range(tpr_range, "tpr_range"), bool(correct))
    lo, hi = (0.0, 1.0) if fpr_range is None else check_range(fpr_range, "fpr_range")
    return PartialRange("fpr", lo, hi, bool(correct))


def partial_estimate(rows: Rows, j: int, rng: PartialRange) -> float:
    """``partial_auc`` of model ``j`` on all rows (its tallies and its
    ``band_area``: the same float); NaN when a class has no weight."""
    t = sorted_tallies(rows.is_pos, rows.scores[j], rows.w, curve=True)
    tps, fps = t.tps[1:], t.fps[1:]
    total_p, total_n = float(t.total_pos), float(t.total_neg)
    if total_p <= 0 or total_n <= 0:
        return math.nan
    fpr = np.concatenate(([0.0], fps / total_n))
    tpr = np.concatenate(([0.0], tps / total_p))
    if rng.focus == "tpr":
        area = band_area(tpr, 1.0 - fpr, rng.lo, rng.hi)
    else:
        area = band_area(fpr, tpr, rng.lo, rng.hi)
    return float(rng.corrected(area))


#: set b's seed in an unpaired comparison: ``SplitMix64(seed ^ B_STREAM)``'s
#: finaliser (the first 64 bits of the fractional part of sqrt(2))
B_STREAM = np.uint64(0x6A09E667F3BCC908)


def second_seed(seed) -> np.uint64:
    """The seed of the second data set's replicates in an unpaired comparison:
    SplitMix64's finaliser of ``seed ^ B_STREAM``: a stream of its own, a
    function of ``seed`` alone."""
    return np.uint64(mix(np.uint64(seed) ^ B_STREAM))


class Clusters(NamedTuple):
    """``cluster=``'s ids: each row's cluster index (into the sorted distinct
    ids), the number of clusters, and each row's key (a 64-bit hash of its
    cluster's id) that the Poisson scheme's counts are keyed by."""

    index: np.ndarray  # (n,) int64
    size: int
    key: np.ndarray  # (n,) int64
    ids: np.ndarray  # (size,) the distinct ids, sorted


def _id_keys(ids: np.ndarray) -> np.ndarray:
    """A 64-bit key of each distinct cluster id, from its value alone (so that
    a cluster has the same Poisson counts however the rows are split): an
    integer (or a float with an integer value) is its own key, another float
    its bits, anything else the BLAKE2b hash of its ``str``."""
    kind = ids.dtype.kind
    if kind in "biu":
        return ids.astype(np.uint64).view(np.int64) if kind == "u" else ids.astype(np.int64)
    if kind == "f":
        f = ids.astype(np.float64)
        whole = (f == np.round(f)) & (np.abs(f) < 2.0**63)
        keys = f.view(np.int64).copy()
        keys[whole] = f[whole].astype(np.int64)
        return keys
    import hashlib

    return np.array([int.from_bytes(hashlib.blake2b(str(x).encode(), digest_size=8).digest(),
                                    "little", signed=True) for x in ids.tolist()], np.int64)


def cluster_ids(cluster, n: int) -> Clusters:
    """Checked cluster ids of ``n`` rows (one per row, any hashable type that
    sorts, no NaN)."""
    c = np.asarray(v.as_array(cluster, "cluster"))
    if c.ndim != 1 or c.shape[0] != n:
        raise ValueError(f"cluster must hold one id per row: shape ({n},), got {c.shape}")
    if c.dtype.kind == "f" and np.isnan(c).any():
        raise ValueError("cluster contains NaN")
    if c.dtype.kind == "c":
        raise TypeError("cluster ids must be integers, strings or real numbers, not complex")
    try:
        ids, index = np.unique(c, return_inverse=True)
    except TypeError:
        raise TypeError("cluster ids must be of one type that sorts (e.g. all integers or "
                        "all strings)") from None
    index = index.reshape(-1).astype(np.int64)
    return Clusters(index, int(ids.shape[0]), _id_keys(ids)[index], ids)


def _metric_code(metric, max_fpr, method, at=None):
    """Kernel code of the metric and its parameter: the partial-AUC bound (1
    for none), or an operating point's floor ``at``."""
    v.check_choice(metric, "metric", _METRICS)
    if metric == "partial_auc":  # (its range: ``partial_range``)
        return PARTIAL_FPR, 1.0
    if metric in OPERATING_POINTS:
        if at is None or isinstance(at, (bool, np.bool_)) or \
                not isinstance(at, (int, float, np.number)) or not 0.0 <= at <= 1.0:
            raise ValueError(f"metric={metric!r} needs at=, the floor on "
                             f"{OPERATING_POINTS[metric][1][4:]} (a number in [0, 1]), got "
                             f"{v.plain(at)!r}")
        if max_fpr is not None:
            raise ValueError("max_fpr (partial AUC) applies to metric='roc_auc' only")
        if method == "bca":
            raise ValueError(f"method='bca' is not available for metric={metric!r} (no "
                             "jackknife in O(n)); use 'percentile' or 'basic'")
        return OPERATING_POINTS[metric][0], float(at)
    if at is not None:
        raise ValueError(f"at= is the floor of an operating-point metric "
                         f"({', '.join(OPERATING_POINTS)}), not of metric={metric!r}")
    if method == "bca" and (metric in ("average_precision", "ece") or
                            max_fpr not in (None, 1)):
        raise ValueError("method='bca' is available for metric='roc_auc' (without max_fpr), "
                         "'log_loss' and 'brier'; use 'percentile' or 'basic'")
    if max_fpr is not None:
        if metric != "roc_auc":
            raise ValueError("max_fpr (partial AUC) applies to metric='roc_auc' only")
        if isinstance(max_fpr, bool) or not isinstance(max_fpr, (int, float, np.number)) \
                or not 0 < max_fpr <= 1:
            raise ValueError(f"max_fpr must be in the range (0, 1], got {v.plain(max_fpr)!r}")
        if max_fpr != 1:
            return PARTIAL_AUC, float(max_fpr)
    return {"roc_auc": ROC_AUC, "average_precision": AVERAGE_PRECISION,
            "log_loss": LOG_LOSS, "brier": LOG_LOSS, "ece": ECE}[metric], 1.0


class _Prepared:
    """Models sorted for the bootstrap, and the resampling strata (with
    ``clusters``, one stratum of the clusters: a replicate draws clusters)."""

    def __init__(self, models, strata, clusters=None):
        self.models = models
        self.strata = strata
        self.n = models[0].lay.size
        self.clusters = clusters

    @cached_property
    def where0(self) -> np.ndarray:
        """(n,) model 0's class-layout position of each row (several models only)."""
        where0 = np.empty(self.n, np.int64)
        where0[self.models[0].lay.rows] = np.arange(self.n)
        return where0


class Rows(NamedTuple):
    """The bootstrap's validated input."""

    is_pos: np.ndarray
    classes: np.ndarray
    w: np.ndarray
    scores: list  #: one float64 (n,) array per model


def bootstrap_rows(y_true, scores, names, sample_weight) -> Rows:
    """Validated labels, weights and one model's scores per name (each 1-D:
    ``predict_proba``'s two columns raise scikit-learn's error)."""
    arrays = [v.as_float_array(s, nm) for s, nm in zip(scores, names)]
    is_pos, classes, w = v.binary_rows(y_true, sample_weight, **dict(zip(names, arrays)))
    return Rows(is_pos, classes, w, arrays)


def undefined(rows: Rows, metric: str):
    """The warning to give when the metric is undefined on these rows (a class
    absent, or of zero weight in all), else None: scikit-learn's words for
    ``roc_auc_score``, the rule of every inference function."""
    w = rows.w
    zero_weight = bool(w.shape[0]) and not ((w[rows.is_pos] > 0).any()
                                            and (w[~rows.is_pos] > 0).any())
    return undefined_message(rows.classes.shape[0] < 2, zero_weight, metric)


def undefined_result(why: str, test: bool, method, level, n_resamples, metric,
                     alternative="two-sided"):
    """The all-NaN result of ``bootstrap_ci`` (``test`` False) or
    ``bootstrap_test`` on rows where the metric is undefined, after the
    warning ``why``."""
    from ._results import BootstrapResult, BootstrapTestResult

    v.warn_undefined(why, stacklevel=None)
    nan = math.nan
    if test:
        return BootstrapTestResult(nan, nan, nan, nan, nan, nan, nan, nan, method, alternative,
                                   level, n_resamples, n_resamples, metric,
                                   np.full((n_resamples, 2), nan))
    return BootstrapResult(nan, nan, nan, nan, method, level, n_resamples, n_resamples, metric,
                           np.full(n_resamples, nan))


def undefined_message(one_class: bool, zero_weight: bool, metric: str):
    """:func:`undefined`'s words, from what it found."""
    if one_class:
        return v.ONE_CLASS if metric == "roc_auc" else (
            f"Only one class is present in y_true. The bootstrap of {metric} is not defined "
            "in that case.")
    if zero_weight:
        return v.ZERO_WEIGHT_CLASS if metric == "roc_auc" else (
            f"All samples of one class have zero weight. The bootstrap of {metric} is not "
            "defined in that case.")
    return None


def prepare_rows(rows: Rows, names, metric, stratified, row_index=True, keys=True,
                 clusters: Clusters | None = None) -> _Prepared:
    """Models sorted for the bootstrap from validated rows (see :func:`_prepare`);
    with ``clusters`` a replicate draws whole clusters (not stratified)."""
    models = [_model(rows.is_pos, s, rows.w, metric, nm, row_index or clusters is not None,
                     keys) for s, nm in zip(rows.scores, names)]
    if clusters is not None:
        return _Prepared(models, np.array([0, clusters.size], np.int64), clusters)
    return _prepared(models, stratified)


def point_estimate(rows: Rows, j: int, model: _Model, metric: str, max_fpr: float) -> float:
    """Model ``j``'s metric on all rows: the float the in-memory function
    returns (``roc_auc_score``, ``average_precision_score``, ``log_loss``),
    to the last bit.  The ROC AUC comes from the model's sort (its layout's
    walk); the partial AUC and the average precision from their own sweep."""
    s = rows.scores[j]
    w = rows.w if rows.w.shape[0] else None
    if metric in OPERATING_POINTS:
        return operating_point(metric, rows.is_pos, s, max_fpr, w, True)[0]
    if metric == "brier":  # brier_score_loss's mean of the squared errors
        return float(np.average((s - rows.is_pos) ** 2, weights=w))
    if metric == "ece":  # calibration_error's, from its bin sums
        ww = np.ones(s.shape[0]) if w is None else w
        return binned_error(*table_bins(s, np.where(rows.is_pos, ww, 0.0),
                                        np.where(rows.is_pos, 0.0, ww), ECE_BINS), "l1")
    if metric == "log_loss":
        total, total_w = log_loss_sum(s[:, None], rows.is_pos.view(np.uint8).astype(np.int64),
                                      rows.w)
        return float(total / total_w)
    if metric == "average_precision":
        return binary_ap(rows.is_pos, s, rows.w)
    if isinstance(max_fpr, PartialRange):  # metric="partial_auc"
        return partial_estimate(rows, j, max_fpr)
    if max_fpr != 1.0:
        return binary_auc(rows.is_pos, s, rows.w, max_fpr)
    return float(model.lay.auc)


def _prepare(y_true, scores, names, sample_weight, metric, stratified, rows=True, keys=True):
    """Models sorted for the bootstrap; ``rows=False`` when the caller needs no
    row indices (one model, the multinomial scheme, no partial AUC): an
    unweighted ROC AUC or AP model is then sorted by its keys alone.
    ``keys=False`` when it needs no distinct scores (the replicates do not:
    only the plots' tables do).  A single class raises (the ROC band needs
    both)."""
    validated = bootstrap_rows(y_true, scores, names, sample_weight)
    if validated.classes.shape[0] < 2:
        only = validated.classes[0]
        # the plots pass the positives' mask: say which class that is, not "False"
        only = (("the positive class" if only else "the negative class")
                if validated.classes.dtype.kind == "b" else repr(v.plain(only)))
        raise ValueError(f"y_true contains only one class ({only}); the bootstrap needs both")
    return prepare_rows(validated, names, metric, stratified, rows, keys)


def _prepared(models, stratified) -> _Prepared:
    lay = models[0].lay
    n = lay.size
    return _Prepared(models, np.array([0, lay.n_pos, n] if stratified else [0, n], np.int64))


def prepared_from_layout(lay: _Layout, wl, stratified=True) -> _Prepared:
    """A model already sorted (``report``'s layouts), ready for the ROC band."""
    return _prepared([_Model(lay, wl, v.EMPTY_WEIGHT)], stratified)


_INDEX = np.int32


def _ranks(lay: _Layout) -> np.ndarray:
    """``replicate_value``'s ranks: (2, n) int64 over the class layout."""
    n = lay.size
    # rows back to back, a spare slot last; int32 when they fit: half the
    # bytes every replicate streams
    out = np.empty(2 * n + 1, _INDEX if n < 2**31 else np.int64)
    n_groups = lay.bp.shape[0]
    parts = min(max(1, n_groups), sweep_parts(n))  # ranges of groups, by the data alone
    cuts = [n_groups * j // parts for j in range(parts + 1)]
    map_units(layout_ranks, [(lay.bp, lay.bn, lay.n_pos, out, a, b)
                              for a, b in zip(cuts[:-1], cuts[1:])])
    return out[:2 * n].reshape(2, n)


def _kernel_arrays(prep: _Prepared, metric_code, poisson=False, bounds=(0.0, 1.0)):
    """Per-model arrays for ``replicate_batch`` (or ``poisson_batch``), stacked
    (first axis = model).  The first one is ``src`` (each position's model-0
    class-layout position) for the multinomial scheme, ``rid`` (each position's
    input row) for the Poisson one; with clusters, each position's cluster
    index (multinomial: the counts are the clusters') or its cluster's key
    (Poisson: the count is the cluster's).  ``bounds``: the range of
    ``PARTIAL_FPR`` and ``PARTIAL_TPR``, carried in ``loss``."""
    clusters = prep.clusters
    models = prep.models
    k, n = len(models), prep.n
    merged = metric_code in MERGED_CODES
    first, w, loss, ranks, code = [], [], [], [], []
    for mo in models:
        lay = mo.lay
        order, code_m = _merged_order(lay) if merged else (None, np.empty(0, np.uint8))
        if clusters is not None:
            at = lay.rows if order is None else lay.rows[order]
            first.append((clusters.key if poisson else clusters.index)[at])
        elif poisson:
            first.append(lay.rows if order is None else lay.rows[order])
        elif k > 1 or merged:
            first.append(prep.where0[lay.rows if order is None else lay.rows[order]])
        else:  # model 0 in its own class layout needs no map (the identity)
            first.append(None)
        w.append(_reordered(mo.wl, order))
        if metric_code in (PARTIAL_FPR, PARTIAL_TPR):
            loss.append(np.array(bounds, np.float64))
        else:
            loss.append(_reordered(mo.loss, order))
        if metric_code in (ROC_AUC, AVERAGE_PRECISION):
            ranks.append(_ranks(lay))
        elif metric_code == ECE:  # each position's bin, as calibration_error bins it
            bins = np.searchsorted(linspace_edges(ECE_BINS), mo.loss, side="right") - 1
            ranks.append(np.stack((bins, bins)).astype(_INDEX if n < 2**31 else np.int64))
        else:
            ranks.append(np.empty((2, 0), _INDEX if n < 2**31 else np.int64))
        code.append(code_m)
    if first[0] is None:
        first = [np.empty(0, np.int64)]
    # one model: a view with a leading axis, not a copy
    return tuple(np.ascontiguousarray(a[0][None] if k == 1 else np.stack(a))
                 for a in (first, w, loss, ranks, code))


def _reordered(a, order):
    return a[order] if a.shape[0] and order is not None else a


SCHEMES = ("multinomial", "poisson")


def _run_replicates(prep: _Prepared, metric_code, max_fpr, n_resamples, seed, progress,
                    scheme="multinomial", bounds=(0.0, 1.0)):
    poisson = scheme == "poisson"
    first, w, loss, ranks, code = _kernel_arrays(prep, metric_code, poisson, bounds)
    k = w.shape[0]
    n = prep.n
    drawn = int(prep.strata[-1])  # positions a multinomial replicate counts (rows or clusters)
    n_pos = prep.models[0].lay.n_pos
    out = np.empty((n_resamples, k))
    size = batch_size(n)
    if poisson:
        kernel = poisson_batch
        jobs = [(seed, r, out[r: r + size], first, n_pos, w, loss, ranks, code,
                 metric_code, max_fpr) for r in range(0, n_resamples, size)]
    else:
        kernel = replicate_batch
        jobs = [(seed, r, out[r: r + size], prep.strata, first, n_pos, w, loss, ranks, code,
                 metric_code, max_fpr) for r in range(0, n_resamples, size)]
    bar = _progress_bar(progress, n_resamples)
    lock = threading.Lock()
    # the multinomial kernel flags the replicates whose uint8 counts wrapped
    wrapped = np.zeros(n_resamples, np.bool_)
    flags = [() if poisson else (wrapped[job[1]: job[1] + job[2].shape[0]],) for job in jobs]
    spare = threading.local()  # one set of buffers a thread, reused job after job

    def batch(job, flag):
        buf = getattr(spare, "buf", None)
        if buf is None:
            buf = spare.buf = (np.zeros(n if poisson else drawn, np.uint8),
                               np.empty(n + 2)) + (() if poisson else (draw_buffer(drawn),))
        kernel(*job, *buf, *flag)
        if bar is not None:
            with lock:
                bar.update(job[2].shape[0])
        return buf

    # the batches are the units (``batch_size`` replicates each), taken in turn
    used = map_units(batch, list(zip(jobs, flags)))
    if bar is not None:
        bar.close()
    for r in np.flatnonzero(wrapped):  # a row drawn 256 times or more: int64 counts
        replicate_wide(seed, int(r), out[r], prep.strata, first, n_pos, w, loss, ranks, code,
                       metric_code, max_fpr, used[0][1], draw_buffer(drawn, 8))
    return out  # (the point estimates: ``point_estimate``, the in-memory functions' floats)


def _progress_bar(progress, total):
    if not progress:
        return None
    try:
        from tqdm.auto import tqdm
    except ImportError:  # the optional extra is not installed: run without a bar
        return None
    return tqdm(total=total, desc="bootstrap", unit="replicate")


def bootstrap_interval(reps, estimate, level, method, jack_groups, alternative="two-sided"):
    """Bootstrap interval of ``estimate`` from the finite replicates ``reps``."""
    alpha = 1.0 - level
    if alternative == "two-sided":
        probs = [alpha / 2.0, 1.0 - alpha / 2.0]
    else:
        probs = [alpha, 1.0 - alpha]
    if method == "bca":
        b = reps.shape[0]
        z0 = _norm_ppf_or_nan((np.count_nonzero(reps < estimate)
                               + np.count_nonzero(reps <= estimate)) / (2.0 * b))
        if math.isnan(z0):
            warnings.warn("The BCa interval cannot be computed: every replicate lies on one "
                          "side of the estimate. Use method='percentile'.",
                          RuntimeWarning, stacklevel=v.caller_stacklevel())
            return math.nan, math.nan
        a = _acceleration(jack_groups)
        adj = []
        for p in probs:
            zp = _norm_ppf(p)
            adj.append(1.0 - _norm_sf(z0 + (z0 + zp) / (1.0 - a * (z0 + zp))))
        probs = adj
    lo, hi = np.quantile(reps, probs)
    if method == "basic":
        lo, hi = 2.0 * estimate - hi, 2.0 * estimate - lo
    lo, hi = float(lo), float(hi)
    if alternative == "greater":
        hi = math.inf
    elif alternative == "less":
        lo = -math.inf
    return lo, hi


def check_bootstrap_args(n_resamples, confidence_level, method, stratified, scheme):
    """Checked ``(n_resamples, level, stratified)``; ``stratified=None`` is True
    for the multinomial scheme and False (the only choice) for the Poisson one."""
    n_resamples = v.check_positive_int(n_resamples, "n_resamples")
    level = v.check_confidence_level(confidence_level)
    v.check_choice(method, "method", ("percentile", "basic", "bca"))
    v.check_choice(scheme, "scheme", SCHEMES)
    if stratified not in (None, True, False):
        raise ValueError(f"stratified must be True, False or None, got {stratified!r}")
    if scheme == "poisson":
        if stratified:
            raise ValueError("scheme='poisson' draws an independent count for every row, so "
                             "the class sizes vary from replicate to replicate: it cannot "
                             "be stratified; leave stratified=None (or False), or use "
                             "scheme='multinomial'")
        return n_resamples, level, False
    return n_resamples, level, stratified is not False
