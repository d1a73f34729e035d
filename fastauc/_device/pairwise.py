"""The all-pairs losses on the device, without groups (``pairwise_loss`` and
``pairwise_loss_gradient``; ``groups`` and ``loss="aum"`` go to the CPU).

Each class is sorted once.  A positive ``i`` pairs with the negatives scored
above ``s_i - margin`` (the hinges' active pairs): one ``searchsorted`` in
the sorted negatives and suffix sums of their weight, and of their weighted
scores and squares about the negatives' mean ``c`` (centred, so the squares
cancel less), give its value, gradient and Hessian terms.  A negative ``j``
pairs with the positives scored below ``s_j + margin``, from the positives'
prefix sums.  The linear and square losses are closed forms of the class
sums.  Everything is float64; the results agree with the CPU's merge to
about 1e-12 of the loss.
"""

from __future__ import annotations

import numpy as np

from .._pairwise import _warn_no_pairs, check_params
from . import validation as dv
from .arrays import HOST


def _cumulative(xp, x):
    return xp.concatenate((xp.zeros(1), xp.cumsum(x)))


def terms(e, y_true, y_score, loss, margin, sample_weight, pos_label, groups, normalize):
    """``_pairwise.pairwise_terms``' ``(value, grad, hess)`` on the device, or
    ``HOST``."""
    margin, normalize = check_params(loss, margin, normalize)
    if groups is not None or loss == "aum":
        return HOST
    xp = e.xp
    y_true = dv.labels_first(e, y_true)
    s = dv.scores(e, y_score, "y_score", keep_float32=False)
    is_pos, _, w = dv.binary(e, y_true, sample_weight, pos_label, rule="greater", y_score=s)
    n = s.shape[0]
    wv = xp.ones(n) if w is None else w
    wp, wn = float(wv[is_pos].sum()), float(wv[~is_pos].sum())
    pairs = wp * wn
    if normalize == "all_pairs":
        z = (wp + wn) ** 2 / 2.0
    else:
        z = pairs if normalize is True else 1.0
    one = (np.array([wp]), np.array([wn]), lambda: np.array([n > 0]), False)
    if pairs == 0.0 or z == 0.0:
        _warn_no_pairs(*one)
        value = 0.5 if loss == "linear" and normalize == "all_pairs" and z > 0 else 0.0
        return value, xp.zeros(n), xp.zeros(n)
    ps, pw = s[is_pos], wv[is_pos]
    ns, nw = s[~is_pos], wv[~is_pos]
    mean_p = float((pw * ps).sum()) / wp
    mean_n = float((nw * ns).sum()) / wn
    grad = xp.zeros(n)
    hess = xp.zeros(n)
    if loss == "linear":
        value = pairs * (mean_n - mean_p) / z
        grad[is_pos] = -pw * wn / z
        grad[~is_pos] = nw * wp / z
    elif loss == "square":
        m2n = float((nw * (ns - mean_n) ** 2).sum())
        a = margin - ps + mean_n  # each positive's mean difference to the negatives
        value = float((pw * (wn * a * a + m2n)).sum()) / z
        grad[is_pos] = -2.0 * pw * wn * a / z
        grad[~is_pos] = 2.0 * nw * wp * (margin - mean_p + ns) / z
        hess[is_pos] = 2.0 * pw * wn / z
        hess[~is_pos] = 2.0 * nw * wp / z
    else:
        value = _hinge(xp, loss == "squared_hinge", margin, z, is_pos, ps, pw, ns, nw, mean_n,
                       mean_p, grad, hess)
    if loss == "linear" and normalize == "all_pairs":
        value += 0.5
    _warn_no_pairs(*one)
    return float(value), grad, hess


def _hinge(xp, squared, margin, z, is_pos, ps, pw, ns, nw, c, cp, grad, hess):
    """The hinge losses' value, with the gradient and Hessian written in row
    order (``grad``/``hess``)."""
    order = xp.argsort(ns)
    nss, nws = ns[order], nw[order]
    d = nss - c
    W, S1, S2 = (_cumulative(xp, x) for x in (nws, nws * d, nws * d * d))
    k = xp.searchsorted(nss, ps - margin, "right")  # negatives above s_i - margin
    wa, s1a, s2a = W[-1] - W[k], S1[-1] - S1[k], S2[-1] - S2[k]
    a = margin - ps + c
    if squared:
        value = float((pw * (wa * a * a + 2.0 * a * s1a + s2a)).sum()) / z
        grad[is_pos] = -2.0 * pw * (wa * a + s1a) / z
        hess[is_pos] = 2.0 * pw * wa / z
    else:
        value = float((pw * (wa * a + s1a)).sum()) / z
        grad[is_pos] = -pw * wa / z
    order = xp.argsort(ps)
    pss, pws = ps[order], pw[order]
    P, Q = _cumulative(xp, pws), _cumulative(xp, pws * (pss - cp))
    k = xp.searchsorted(pss, ns + margin, "left")  # positives below s_j + margin
    wb, qb = P[k], Q[k]
    if squared:
        grad[~is_pos] = 2.0 * nw * (wb * (margin - cp + ns) - qb) / z
        hess[~is_pos] = 2.0 * nw * wb / z
    else:
        grad[~is_pos] = nw * wb / z
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
