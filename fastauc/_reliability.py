"""The CORP reliability curve, the binned curves and the Brier decomposition
of a distinct-probability table (``_table.Table``): what ``reliability``
returns and what the reliability band of ``_plotting`` resamples."""

from __future__ import annotations

import numpy as np

from ._kernels.pav import pav_pool, pav_runs
from ._parallel import map_units
from ._results import BrierDecomposition, ReliabilityCurve
from ._table import Table, cut_runs, sorted_runs, sweep_parts, weight_of

__all__ = ["band", "binned_curve", "decomposition", "decomposition_of_rows", "isotonic_curve",
           "isotonic_curve_of_rows", "points"]


def _pav(t: Table):
    """``(scores, start, bpos, btot, bsx, sse, total_pos, total_neg)`` of a
    table: its keys, ascending, as blocks of one key pooled by ``pav_pool``."""
    scores = t.scores[::-1]
    pos = t.pos[::-1]
    neg = t.neg[::-1]
    start = np.arange(len(t))
    bpos = np.ascontiguousarray(pos)
    btot = pos + neg
    bsx = btot * scores
    g = pav_pool(start, bpos, btot, bsx)
    sse = float(np.sum(pos * np.square(1.0 - scores) + neg * np.square(scores)))
    return scores, start[:g], bpos[:g], btot[:g], bsx[:g], sse, t.total_pos, t.total_neg


def isotonic_curve(t: Table) -> ReliabilityCurve:
    """The CORP curve of a table (the bootstrap band's replicates)."""
    scores, start, bpos, btot, bsx, _, _, _ = _pav(t)
    return _curve(scores, start, bpos, btot, bsx)


def _pav_rows(is_pos, p, w, scores, bounds=None):
    """PAV straight from the one sort's runs (``_kernels.pav.pav_runs``): no
    table is written; the distinct scores go to ``scores`` (ascending) unless
    it is empty.  ``(n_keys, start, bpos, btot, bsx, sse, total_pos, total_neg)``."""
    runs = sorted_runs(is_pos, p, w, name="y_prob", bounds=bounds)
    n = runs[0].shape[0] + runs[2].shape[0]
    start = np.empty(n, np.int64)
    bpos, btot, bsx = np.empty(n), np.empty(n), np.empty(n)
    # key ranges (``sweep_parts``: a function of n alone) pooled on the
    # threads, each at its rows' offset, then their blocks pooled in order
    ranges = cut_runs(runs, sweep_parts(n))[::-1]  # ascending
    offs = np.cumsum([0] + [r[0].shape[0] + r[2].shape[0] for r in ranges]).tolist()
    store = scores.shape[0] > 0
    done = map_units(pav_runs, [
        (*r, scores[a:b] if store else scores, start[a:b], bpos[a:b], btot[a:b], bsx[a:b])
        for r, a, b in zip(ranges, offs[:-1], offs[1:])])
    tp, tn = weight_of(runs[0], runs[1]), weight_of(runs[2], runs[3])
    if len(done) == 1:
        m, g, sse = done[0]
        return m, start[:g], bpos[:g], btot[:g], bsx[:g], sse, tp, tn
    keys_before = np.cumsum([0] + [d[0] for d in done]).tolist()
    parts = [slice(a, a + d[1]) for a, d in zip(offs, done)]
    start = np.concatenate([start[s] + k for s, k in zip(parts, keys_before)])
    bpos, btot, bsx = (np.concatenate([a[s] for s in parts]) for a in (bpos, btot, bsx))
    g = pav_pool(start, bpos, btot, bsx)
    if store:  # each range's scores moved up to follow the ones before (no copy
        # where every row's score is distinct: the ranges already touch)
        for a, k, d in zip(offs, keys_before, done):
            if a != k and d[0]:
                scores[k:k + d[0]] = scores[a:a + d[0]]
    sse = 0.0
    for d in done:  # in range order: the same sum whatever the threads
        sse += d[2]
    return keys_before[-1], start[:g], bpos[:g], btot[:g], bsx[:g], sse, tp, tn


def _curve(scores, start, bpos, btot, bsx):
    """The record of PAV blocks over ``scores`` (ascending)."""
    m = scores.shape[0]
    end = np.empty(start.shape[0], np.int64)
    end[:-1] = start[1:]
    end[-1:] = m
    freq = bpos / btot
    return ReliabilityCurve("isotonic", bsx / btot, freq, btot, scores[start],
                            scores[end - 1], scores)


def isotonic_curve_of_rows(is_pos, p, w, bounds=None) -> ReliabilityCurve:
    """:func:`isotonic_curve` of the rows' table, without writing the table
    (``bounds``: the probabilities' range, checked already)."""
    scores = np.empty(is_pos.shape[0])
    m, start, bpos, btot, bsx, _, _, _ = _pav_rows(is_pos, p, w, scores, bounds)
    # heavy ties: a copy of the distinct scores, not a view that keeps a row's room each
    return _curve(scores[:m].copy() if 2 * m < scores.shape[0] else scores[:m],
                  start, bpos, btot, bsx)


def decomposition_of_rows(is_pos, p, w, bounds=None) -> BrierDecomposition:
    """:func:`decomposition` of the rows' table, without writing the table
    (``bounds``: the probabilities' range, checked already)."""
    _, _, bpos, btot, _, sse, tp, tn = _pav_rows(is_pos, p, w, np.empty(0), bounds)
    return _split(bpos, btot, sse, tp, tn)


def _order_statistics(asc, counts, k):
    """The ``k``-th smallest rows (0-based) of a table in ascending order."""
    return asc[np.minimum(np.searchsorted(np.cumsum(counts), k, side="right"),
                          asc.shape[0] - 1)]


def _percentile_edges(asc, counts, n_bins):
    """``np.percentile(rows, linspace(0, 1, n_bins + 1) * 100)`` (numpy's
    "linear" method) from the table, without the rows; weights count as
    repeated rows."""
    n = float(counts.sum())
    q = np.linspace(0, 1, n_bins + 1) * 100 / 100
    virtual = (n - 1) * q
    prev = np.floor(virtual)
    gamma = virtual - prev
    top = virtual >= n - 1
    prev = np.where(top, n - 1, prev)
    a = _order_statistics(asc, counts, prev)
    b = _order_statistics(asc, counts, np.minimum(prev + 1, n - 1))
    diff = b - a
    out = a + diff * gamma
    late = gamma >= 0.5
    out[late] = (b - diff * (1 - gamma))[late]
    out[top] = a[top]
    return out


def binned_curve(t: Table, method, n_bins) -> ReliabilityCurve:
    scores = t.scores[::-1]
    pos = t.pos[::-1]
    tot = pos + t.neg[::-1]
    if method == "quantile":
        edges = _percentile_edges(scores, tot, n_bins)
    else:
        edges = np.linspace(0.0, 1.0, n_bins + 1)
    # scikit-learn's bins: (edges[i], edges[i + 1]], the first also edges[0]
    ids = np.searchsorted(edges[1:-1], scores)
    total = np.bincount(ids, tot, n_bins)
    kept = np.flatnonzero(total)
    total = total[kept]
    sums = np.bincount(ids, tot * scores, n_bins)[kept]
    true = np.bincount(ids, pos, n_bins)[kept] / total
    first = np.searchsorted(ids, kept, side="left")
    last = np.searchsorted(ids, kept, side="right") - 1
    return ReliabilityCurve(method, sums / total, true, total, scores[first], scores[last],
                            scores)


def decomposition(t: Table) -> BrierDecomposition:
    _, _, bpos, btot, _, sse, tp, tn = _pav(t)
    return _split(bpos, btot, sse, tp, tn)


def _split(bpos, btot, sse, tp, tn) -> BrierDecomposition:
    """CORP's split from the PAV blocks, the Brier sum and the class totals."""
    total = tp + tn
    brier = sse / total
    recal = float(np.sum(bpos * (btot - bpos) / btot)) / total
    unc = tp * tn / total / total
    return BrierDecomposition(float(brier), float(brier - recal), float(unc - recal),
                              float(unc))


def points(curve: ReliabilityCurve):
    """The drawn polyline of a curve: each PAV block as a flat segment from
    its lowest to its highest probability, consecutive blocks joined (the
    CORP diagram), or the bins' (mean probability, frequency) points."""
    if curve.method == "isotonic":
        return np.column_stack((curve.low, curve.high)).ravel(), np.repeat(curve.prob_true, 2)
    return curve.prob_pred, curve.prob_true


def band(t: Table, method, n_bins, n_rows, grid, n_resamples, level, seed):
    """Pointwise bootstrap band of the drawn curve at ``grid``: each replicate
    draws ``n_rows`` rows from the table's (weighted) rows, builds its curve
    with the same method and reads it at the grid values within its range;
    the ``(1 -+ level) / 2`` quantiles of the replicates (NaN where none
    reaches)."""
    import warnings

    rng = np.random.default_rng(seed)
    weight = np.concatenate((t.pos, t.neg))
    pvals = weight / weight.sum()
    m = len(t)
    out = np.full((n_resamples, grid.shape[0]), np.nan)
    for r in range(n_resamples):  # replicates, each a pass over the table
        counts = rng.multinomial(n_rows, pvals).astype(np.float64)
        pos, neg = counts[:m], counts[m:]
        keep = (pos + neg) > 0
        rt = Table(t.keys[keep], pos[keep], neg[keep])
        curve = isotonic_curve(rt) if method == "isotonic" else binned_curve(rt, method, n_bins)
        x, y = points(curve)
        inside = (grid >= x[0]) & (grid <= x[-1])
        out[r, inside] = np.interp(grid[inside], x, y)
    alpha = 1.0 - level
    with warnings.catch_warnings():  # a grid value no replicate reaches: NaN
        warnings.simplefilter("ignore", RuntimeWarning)
        low, high = np.nanquantile(out, [alpha / 2, 1 - alpha / 2], axis=0)
    return low, high
