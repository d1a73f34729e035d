"""The all-pairs losses on the device (``pairwise_loss`` and
``pairwise_loss_gradient``).

Only pairs of one group count (one group when ``groups`` is None).  The
linear and square losses are closed forms of each group's class sums.  For
the hinges, each class is sorted once by (group, score): a row's key is its
group times ``D + 1`` plus the rank of its score among the ``D`` distinct
scores (int64, exact; without groups the scores themselves).  A positive
``i`` pairs with its group's negatives scored above ``s_i - margin`` (the
hinges' active pairs): ``searchsorted`` bounds that key range in the sorted
negatives, and their prefix sums of weight, and of weighted scores and
squares about the group's negative mean (centred, so the squares cancel
less), give its value, gradient and Hessian terms.  A negative ``j`` pairs
with its group's positives below ``s_j + margin``, from the positives'
prefix sums.  AUM (an area over thresholds, not a sum over pairs) walks the
distinct (group, score) levels with prefix and suffix sums (``_aum``).
Everything is float64; the results agree with the CPU's merge
to about 1e-15 of the loss in the tests.
"""

from __future__ import annotations

import numpy as np

from .._groups import group_codes
from .._pairwise import _warn_no_pairs, check_params
from .arrays import HOST, cuda_device
from . import validation as dv


def _cumulative(xp, x):
    return xp.concatenate((xp.zeros(1), xp.cumsum(x)))


def _from_end(xp, x):
    """``out[p] = x[p] + x[p + 1] + ...`` (``out[len(x)] = 0``)."""
    return xp.concatenate((xp.cumsum(x[::-1])[::-1], xp.zeros(1)))


def _codes(e, groups, n):
    """``(codes, n_groups)`` on the device (codes None: one group), or None
    where the CPU path must judge the groups (missing values, several
    columns, labels the device does not hold)."""
    if groups is None:
        return None, 1
    xp = e.xp
    if cuda_device(groups) is not None or (e.simulated and isinstance(groups, np.ndarray)
                                           and groups.dtype.kind in "biu"):
        g = e.asarray(groups, "groups")
        if g.ndim != 1 or g.shape[0] != n or np.dtype(g.dtype).kind not in "biu":
            return None
        labels, codes = xp.unique(g, return_inverse=True)
        return codes.reshape(-1).astype(np.int64), int(labels.shape[0])
    gc = group_codes(groups, n)  # the CPU rules (and errors)
    if gc.n_missing:
        return None
    return e.xp.asarray(gc.codes.astype(np.int64)), int(gc.n_groups)


def terms(e, y_true, y_score, loss, margin, sample_weight, pos_label, groups, normalize):
    """``_pairwise.pairwise_terms``' ``(value, grad, hess)`` on the device, or
    ``HOST``."""
    margin, normalize = check_params(loss, margin, normalize)
    xp = e.xp
    y_true = dv.labels_first(e, y_true)
    s = dv.scores(e, y_score, "y_score", keep_float32=False)
    is_pos, _, w = dv.binary(e, y_true, sample_weight, pos_label, rule="greater", y_score=s)
    n = s.shape[0]
    coded = _codes(e, groups, n)
    if coded is None:
        return HOST
    codes, n_groups = coded
    code = xp.zeros(n, np.int64) if codes is None else codes
    wv = xp.ones(n) if w is None else w

    def by_group(x, mask):
        if x.shape[0] == 0:  # (CuPy's bincount raises on an empty array)
            return xp.zeros(n_groups)
        return xp.bincount(code[mask], weights=x, minlength=n_groups).astype(np.float64)

    wp_g, wn_g = by_group(wv[is_pos], is_pos), by_group(wv[~is_pos], ~is_pos)
    wp_h, wn_h = e.host(wp_g), e.host(wn_g)
    pairs = float(np.dot(wp_h, wn_h))
    if normalize == "all_pairs":
        z = float(np.dot(wp_h + wn_h, wp_h + wn_h)) / 2.0
    else:
        z = pairs if normalize is True else 1.0

    def present():
        return e.host(xp.bincount(code, minlength=n_groups)) > 0

    grouped = groups is not None
    if pairs == 0.0 or z == 0.0:
        _warn_no_pairs(wp_h, wn_h, present, grouped)
        value = 0.5 if loss == "linear" and normalize == "all_pairs" and z > 0 else 0.0
        return value, xp.zeros(n), xp.zeros(n)
    ps, pw, pc = s[is_pos], wv[is_pos], code[is_pos]
    ns, nw, nc = s[~is_pos], wv[~is_pos], code[~is_pos]
    with np.errstate(divide="ignore", invalid="ignore"):  # groups without a class: 0
        mean_p = xp.where(wp_g > 0, by_group(pw * ps, is_pos) / wp_g, 0.0)
        mean_n = xp.where(wn_g > 0, by_group(nw * ns, ~is_pos) / wn_g, 0.0)
    grad = xp.zeros(n)
    hess = xp.zeros(n)
    if loss == "linear":
        value = float((wp_g * wn_g * (mean_n - mean_p)).sum()) / z
        grad[is_pos] = -pw * wn_g[pc] / z
        grad[~is_pos] = nw * wp_g[nc] / z
    elif loss == "square":
        m2n = by_group(nw * (ns - mean_n[nc]) ** 2, ~is_pos)
        a = margin - ps + mean_n[pc]  # each positive's mean difference to its negatives
        value = float((pw * (wn_g[pc] * a * a + m2n[pc])).sum()) / z
        grad[is_pos] = -2.0 * pw * wn_g[pc] * a / z
        grad[~is_pos] = 2.0 * nw * wp_g[nc] * (margin - mean_p[nc] + ns) / z
        hess[is_pos] = 2.0 * pw * wn_g[pc] / z
        hess[~is_pos] = 2.0 * nw * wp_g[nc] / z
    elif loss == "aum":
        value = _aum(xp, normalize is True, s, is_pos, wv, code, wp_g, wn_g, grouped, grad)
    else:
        keys = _Keys(xp, s, code, grouped)
        value = _hinge(xp, loss == "squared_hinge", margin, z, is_pos, keys, ps, pw, pc, ns, nw,
                       nc, n_groups, grad, hess)
    if loss == "linear" and normalize == "all_pairs":
        value += 0.5
    _warn_no_pairs(wp_h, wn_h, present, grouped)
    return float(value), grad, hess


class _Keys:
    """Sort keys by (group, score), and the key ranges of a group's scores
    above or below a threshold."""

    def __init__(self, xp, s, code, grouped):
        self.xp, self.grouped = xp, grouped
        if grouped:
            self.distinct = xp.unique(s)
            self.base = self.distinct.shape[0] + 1

    def of(self, s, code):
        if not self.grouped:
            return s
        return code * self.base + self.xp.searchsorted(self.distinct, s, "left")

    def above(self, t, code):
        """Key bounds of the group's scores ``> t``: ``[lo, hi)``."""
        if not self.grouped:
            return t, None
        q = self.xp.searchsorted(self.distinct, t, "right")
        return code * self.base + q, (code + 1) * self.base

    def below(self, t, code):
        """Key bounds of the group's scores ``< t``."""
        if not self.grouped:
            return None, t
        q = self.xp.searchsorted(self.distinct, t, "left")
        return code * self.base, code * self.base + q


def _range(xp, sorted_keys, lo, hi, side_lo):
    """Positions bounding the keys from ``lo`` (None: the start) to below
    ``hi`` (None: the end)."""
    if lo is None:
        a = xp.zeros(hi.shape[0], np.int64)
    else:
        a = xp.searchsorted(sorted_keys, lo, side_lo)
    if hi is None:
        return a, xp.full(a.shape[0], sorted_keys.shape[0], np.int64)
    return a, xp.searchsorted(sorted_keys, hi, "left")


def _group_bounds(xp, keys, sorted_keys, code, grouped):
    """Each query's group's positions ``[lo, hi)`` in ``sorted_keys``."""
    n = sorted_keys.shape[0]
    if not grouped:
        m = code.shape[0]
        return xp.zeros(m, np.int64), xp.full(m, n, np.int64)
    return (xp.searchsorted(sorted_keys, code * keys.base, "left"),
            xp.searchsorted(sorted_keys, (code + 1) * keys.base, "left"))


def _settle(xp, sorted_keys, vals, at, lo, hi, active, suffix):
    """Move ``at`` to the exact edge of the active pairs, the CPU merge's
    test ``s_pos - s_neg < margin`` (``active(vals)``), where ``searchsorted``
    on ``s -+ margin`` rounded the other way (within an ulp): a whole tie
    group at a time.  ``suffix``: the active rows are ``[at, hi)``, else
    ``[lo, at)``."""
    top = sorted_keys.shape[0] - 1
    for _ in range(2):
        prev = xp.clip(at - 1, 0, top)
        prev_in = at > lo
        move = prev_in & (active(vals[prev]) if suffix else ~active(vals[prev]))
        at = xp.where(move, xp.searchsorted(sorted_keys, sorted_keys[prev], "left"), at)
        cur = xp.clip(at, 0, top)
        cur_in = at < hi
        move = cur_in & (~active(vals[cur]) if suffix else active(vals[cur]))
        at = xp.where(move, xp.searchsorted(sorted_keys, sorted_keys[cur], "right"), at)
    return at


def _medians(xp, keys, sorted_keys, sorted_scores, n_groups):
    """Each group's middle score in (group, score) order (0 for a group
    without rows)."""
    n = sorted_keys.shape[0]
    if not keys.grouped:
        return sorted_scores[n // 2: n // 2 + 1] if n else xp.zeros(1)
    bounds = xp.searchsorted(sorted_keys, xp.arange(n_groups + 1, dtype=np.int64) * keys.base,
                             "left")
    mid = xp.clip((bounds[:-1] + bounds[1:]) // 2, 0, max(n - 1, 0))
    return xp.where(bounds[1:] > bounds[:-1], sorted_scores[mid] if n else 0.0, 0.0)


def _hinge(xp, squared, margin, z, is_pos, keys, ps, pw, pc, ns, nw, nc, n_groups, grad, hess):
    """The hinge losses' value, with the gradient and Hessian written in row
    order (``grad``/``hess``).  The sums are about each group's median score
    of the class (``_medians``: far from outliers, and the same whatever the
    order of the rows)."""
    nk = keys.of(ns, nc)
    order = xp.argsort(nk)
    nks, nws = nk[order], nw[order]
    c = _medians(xp, keys, nks, ns[order], n_groups)
    d = ns[order] - c[nc[order]]
    # sums from the end (a positive's negatives are a suffix of its group's: no
    # large excluded prefix subtracted, without groups not even a later group)
    W, S1, S2 = (_from_end(xp, x) for x in (nws, nws * d, nws * d * d))
    # a positive's negatives: its group's, scored above s_i - margin ("right":
    # a negative at exactly s_i - margin adds 0)
    lo, hi = keys.above(ps - margin, pc)
    a, b = _range(xp, nks, lo, hi, "left" if keys.grouped else "right")
    g_lo, g_hi = _group_bounds(xp, keys, nks, pc, keys.grouped)
    a = _settle(xp, nks, ns[order], a, g_lo, g_hi,
                lambda v: ps - v < margin, True)
    wa, s1a, s2a = W[a] - W[b], S1[a] - S1[b], S2[a] - S2[b]
    u = margin - ps + c[pc]
    if squared:
        value = float((pw * (wa * u * u + 2.0 * u * s1a + s2a)).sum()) / z
        grad[is_pos] = -2.0 * pw * (wa * u + s1a) / z
        hess[is_pos] = 2.0 * pw * wa / z
    else:
        value = float((pw * (wa * u + s1a)).sum()) / z
        grad[is_pos] = -pw * wa / z
    pk = keys.of(ps, pc)
    order = xp.argsort(pk)
    pks, pws = pk[order], pw[order]
    cp = _medians(xp, keys, pks, ps[order], n_groups)
    P, Q = _cumulative(xp, pws), _cumulative(xp, pws * (ps[order] - cp[pc[order]]))
    # a negative's positives: its group's, scored below s_j + margin
    lo, hi = keys.below(ns + margin, nc)
    a, b = _range(xp, pks, lo, hi, "left")
    g_lo, g_hi = _group_bounds(xp, keys, pks, nc, keys.grouped)
    b = _settle(xp, pks, ps[order], b, g_lo, g_hi, lambda u: u - ns < margin, False)
    wb, qb = P[b] - P[a], Q[b] - Q[a]
    if squared:
        grad[~is_pos] = 2.0 * nw * (wb * (margin - cp[nc] + ns) - qb) / z
        hess[~is_pos] = 2.0 * nw * wb / z
    else:
        grad[~is_pos] = nw * wb / z
    return value


def _aum(xp, rates, s, is_pos, w, code, wp_g, wn_g, grouped, grad):
    """The AUM loss (``_kernels.pairwise.aum_groups``' area under
    ``min(FP(t), FN(t))`` of each group, and each row's gradient, the mean of
    its two one-sided derivatives) from one sort by (group, score): each
    distinct (group, score) is a level; its positive and negative weight,
    and the positives' weight below it and the negatives' above it within
    its group (prefix and suffix sums), give the gaps' heights and every
    row's derivatives.  A group without a pair adds nothing (zero
    gradient); ``rates``: FP and FN as rates of the group's class weights,
    each group's area weighted by its share of the pairs."""
    key = _Keys(xp, s, code, grouped).of(s, code)
    order = xp.argsort(key)
    k, pos, ws = key[order], is_pos[order], w[order]
    starts = xp.concatenate((xp.ones(1, bool), k[1:] != k[:-1]))
    level = xp.cumsum(starts) - 1  # each sorted row's level
    first = xp.flatnonzero(starts)
    n_levels = first.shape[0]
    pu = xp.bincount(level, weights=xp.where(pos, ws, 0.0), minlength=n_levels)
    nu = xp.bincount(level, weights=xp.where(pos, 0.0, ws), minlength=n_levels)
    g = code[order][first]  # each level's group and score
    u = s[order][first]
    g_first = xp.concatenate((xp.ones(1, bool), g[1:] != g[:-1]))
    g_last = xp.concatenate((g_first[1:], xp.ones(1, bool)))
    # the positives' weight below a level, within its group: a prefix sum less
    # the group's start; the negatives' above it: a sum from the end less what
    # lies beyond the group (exact zeros at the group's ends)
    below = _cumulative(xp, pu)
    fn_below = below[:-1] - below[xp.flatnonzero(g_first)][xp.cumsum(g_first) - 1]
    above = _from_end(xp, nu)
    after = above[1:][xp.flatnonzero(g_last)]  # beyond each group's last level
    fp_gt = above[1:] - after[xp.cumsum(g_first) - 1]
    fn_le, fp_ge = fn_below + pu, fp_gt + nu
    paired = (wp_g > 0) & (wn_g > 0)
    with np.errstate(divide="ignore", invalid="ignore"):
        cp = xp.where(paired, 1.0 / wp_g, 0.0) if rates else paired.astype(np.float64)
        cn = xp.where(paired, 1.0 / wn_g, 0.0) if rates else paired.astype(np.float64)
    if rates:
        pairs = wp_g * wn_g
        scale = pairs / pairs.sum()
    else:
        scale = xp.ones(wp_g.shape[0])
    cp, cn, c = cp[g], cn[g], scale[g]
    m_above = xp.minimum(fp_gt * cn, fn_le * cp)
    m_below = xp.minimum(fp_ge * cn, fn_below * cp)
    gap = xp.where(g_last[:-1], 0.0, u[1:] - u[:-1])  # to the group's next level
    value = float((c[:-1] * m_above[:-1] * gap).sum())
    # each row's two one-sided derivatives, at its level
    at = level
    fp_gt, fp_ge, fn_le, fn_below = fp_gt[at], fp_ge[at], fn_le[at], fn_below[at]
    cp, cn, c, m_above, m_below = cp[at], cn[at], c[at], m_above[at], m_below[at]
    right = xp.where(pos, xp.minimum(fp_gt * cn, (fn_le - ws) * cp),
                     xp.minimum((fp_gt + ws) * cn, fn_le * cp)) - m_above
    left = m_below - xp.where(pos, xp.minimum(fp_ge * cn, (fn_below + ws) * cp),
                              xp.minimum((fp_ge - ws) * cn, fn_below * cp))
    grad[order] = c * 0.5 * (right + left)
    return value


def pairwise_loss(e, y_true, y_score, loss, margin, sample_weight, pos_label, groups,
                  normalize):
    out = terms(e, y_true, y_score, loss, margin, sample_weight, pos_label, groups, normalize)
    return out if out is HOST else out[0]


def pairwise_loss_gradient(e, y_true, y_score, loss, margin, sample_weight, pos_label, groups,
                           normalize, hessian):
    out = terms(e, y_true, y_score, loss, margin, sample_weight, pos_label, groups, normalize)
    if out is HOST:
        return HOST
    value, grad, hess = out
    return (value, e.out(grad), e.out(hess)) if hessian else (value, e.out(grad))
