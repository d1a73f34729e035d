"""Coordinates of the ROC curve's points (pROC's ``coords``), and their bootstrap.

A curve is given by its cumulative class weights from the top: ``tpc[k]`` and
``fpc[k]`` are the weights of the positives and negatives among the ``k``
highest distinct scores (``k = 0 .. G``: point ``k`` predicts positive the
scores ``>= scores[k - 1]``).  A group whose weights do not move the
cumulative ones (a replicate's group drawn zero times) makes no point of its
own.

Every value here is computed as pROC computes it from the sensitivity
``se = tp / P`` and the specificity ``sp = (N - fp) / N`` (its
``roc_utils_calc_coords``), so values match to the last bit where pROC's do.
"""

from __future__ import annotations

import math

import numpy as np

from .._jit import jit
from .resampling import count_draws, uniform_pick

# what ``x`` is given as (the monotone coordinates pROC accepts as input)
IN_THRESHOLD = 0
IN_SENSITIVITY = 1  # also tpr, recall
IN_SPECIFICITY = 2  # also tnr
IN_TN = 3
IN_TP = 4
IN_FN = 5
IN_FP = 6
IN_FPR = 7  # also 1-specificity
IN_FNR = 8
IN_ONE_MINUS_SE = 9

# the coordinates returned (pROC's ``ret`` names, then f1 and mcc)
RET_NAMES = ("threshold", "specificity", "sensitivity", "accuracy", "tn", "tp", "fn", "fp",
             "npv", "ppv", "fdr", "fpr", "tpr", "tnr", "fnr", "1-specificity",
             "1-sensitivity", "1-accuracy", "1-npv", "1-ppv", "precision", "recall",
             "lr_pos", "lr_neg", "youden", "closest.topleft", "f1", "mcc")

BEST_YOUDEN = 0
BEST_TOPLEFT = 1

POLICY_STOP = 0  # a replicate with several best points: flagged (the caller raises)
POLICY_OMIT = 1  # ... NaN
POLICY_RANDOM = 2  # ... one of them, drawn from the replicate's stream


@jit
def input_value(code, tp, fp, P, N):
    """The coordinate ``code`` at a point, computed as pROC computes it."""
    se = tp / P
    sp = (N - fp) / N
    if code == IN_SENSITIVITY:
        return se
    if code == IN_SPECIFICITY:
        return sp
    if code == IN_TN:
        return sp * N
    if code == IN_TP:
        return se * P
    if code == IN_FN:
        return P - se * P
    if code == IN_FP:
        return N - sp * N
    if code == IN_FPR:
        return 1.0 - sp
    if code == IN_FNR:
        t = se * P
        return (P - t) / (t + (P - t))
    return 1.0 - se  # IN_ONE_MINUS_SE


@jit
def increasing(code):
    """Whether the coordinate grows with ``k`` (more rows predicted positive)."""
    return code in (IN_SENSITIVITY, IN_TP, IN_FP, IN_FPR)


@jit
def locate(tpc, fpc, P, N, code, value, res):
    """pROC's rule for a coordinate given as input: ``res = (k, se, sp)``.

    The point where the coordinate equals ``value`` (among several, the one of
    highest sensitivity for a coordinate that falls as the threshold rises, the
    highest specificity otherwise: pROC's first/last in its order), ``k`` its
    index; else the sensitivity and specificity interpolated linearly between
    the two points around it, ``k = -1``.  Returns False when ``value`` is out
    of the coordinate's range (``res`` NaN)."""
    G = tpc.shape[0] - 1
    up = increasing(code)
    lo_v = input_value(code, tpc[0], fpc[0], P, N)
    hi_v = input_value(code, tpc[G], fpc[G], P, N)
    vmin = min(lo_v, hi_v)
    vmax = max(lo_v, hi_v)
    if not (vmin <= value <= vmax):
        res[0] = -2.0
        res[1] = np.nan
        res[2] = np.nan
        return False
    # increasing: the first k with iv >= value; decreasing: the last with iv >= value
    a = 0
    b = G + 1
    if up:
        while a < b:
            m = (a + b) >> 1
            if input_value(code, tpc[m], fpc[m], P, N) < value:
                a = m + 1
            else:
                b = m
        k = a  # iv[k] >= value, iv[k - 1] < value
        if k <= G and input_value(code, tpc[k], fpc[k], P, N) == value:
            _exact(tpc, fpc, P, N, k, res)
            return True
        lo = k - 1
    else:
        while a < b:
            m = (a + b) >> 1
            if input_value(code, tpc[m], fpc[m], P, N) >= value:
                a = m + 1
            else:
                b = m
        k = a - 1  # the last with iv >= value
        if k >= 0 and input_value(code, tpc[k], fpc[k], P, N) == value:
            _exact(tpc, fpc, P, N, k, res)
            return True
        lo = k
    # interpolate between point lo and lo + 1 (pROC's idx.next and idx.next - 1)
    v0 = input_value(code, tpc[lo], fpc[lo], P, N)
    v1 = input_value(code, tpc[lo + 1], fpc[lo + 1], P, N)
    se0 = tpc[lo] / P
    se1 = tpc[lo + 1] / P
    sp0 = (N - fpc[lo]) / N
    sp1 = (N - fpc[lo + 1]) / N
    prop = (value - v0) / (v1 - v0)
    res[0] = -1.0
    res[1] = se0 + prop * (se1 - se0)
    res[2] = sp0 + prop * (sp1 - sp0)
    return True


@jit
def _exact(tpc, fpc, P, N, k, res):
    res[0] = k
    res[1] = tpc[k] / P
    res[2] = (N - fpc[k]) / N


@jit
def criterion(se, sp, method, r):
    """pROC's optimality criterion (``roc_utils_optim_crit``): ``se + r sp``
    (Youden) or minus the weighted squared distance to the top-left corner."""
    if method == BEST_YOUDEN:
        return se + r * sp
    return -((1.0 - se) ** 2 + r * (1.0 - sp) ** 2)


@jit
def has_weight(tpc, fpc, g):
    """Whether group ``g`` has weight (a replicate's groups drawn zero times do
    not make a point of their own)."""
    return tpc[g + 1] != tpc[g] or fpc[g + 1] != fpc[g]


@jit
def best_points(tpc, fpc, P, N, method, r, out):
    """The points of greatest ``criterion`` (exactly equal values tie), into
    ``out`` by decreasing ``k`` (pROC's increasing threshold); returns how
    many.  Only the curve's own points count: point 0 and every ``k`` whose
    group ``k - 1`` has weight."""
    G = tpc.shape[0] - 1
    best = -np.inf
    n = 0
    for k in range(G, -1, -1):
        if k > 0 and not has_weight(tpc, fpc, k - 1):
            continue
        c = criterion(tpc[k] / P, (N - fpc[k]) / N, method, r)
        if c > best:
            best = c
            n = 0
        if c == best:
            out[n] = k
            n += 1
    return n


@jit
def midpoint(lo, hi):
    """pROC's threshold between two consecutive distinct scores: their mean
    (halves added when it would overflow); the upper score when rounding
    gives the lower one (the rule "positive when score >= threshold" then
    still separates them)."""
    t = (lo + hi) / 2.0
    if abs(t) > 1e100:
        t = lo / 2.0 + hi / 2.0
    if t == lo:
        t = hi
    return t


@jit
def point_threshold(scores, tpc, fpc, k):
    """pROC's threshold of point ``k``: ``+inf`` when no group above it has
    weight (``k = 0``), ``-inf`` when none below has, else the midpoint between
    the lowest score with weight predicted positive and the next one below."""
    G = scores.shape[0]
    i = k - 1
    while i >= 0 and not has_weight(tpc, fpc, i):
        i -= 1
    if i < 0:
        return np.inf
    j = k
    while j < G and not has_weight(tpc, fpc, j):
        j += 1
    if j == G:
        return -np.inf
    return midpoint(scores[j], scores[i])


@jit
def measures(thr, se, sp, P, N, r, codes, out):
    """pROC's ``roc_utils_calc_coords`` (plus F1 and the MCC) of one point,
    the coordinates ``codes`` into ``out``."""
    tp = se * P
    fn = P - tp
    tn = sp * N
    fp = N - tn
    npv = tn / (tn + fn)
    ppv = tp / (tp + fp)
    acc = (tp + tn) / (P + N)
    for j in range(codes.shape[0]):
        c = codes[j]
        if c == 0:
            v = thr
        elif c == 1:
            v = sp
        elif c == 2:
            v = se
        elif c == 3:
            v = acc
        elif c == 4:
            v = tn
        elif c == 5:
            v = tp
        elif c == 6:
            v = fn
        elif c == 7:
            v = fp
        elif c == 8:
            v = npv
        elif c == 9:
            v = ppv
        elif c == 10:
            v = fp / (tp + fp)
        elif c == 11:
            v = 1.0 - sp
        elif c == 12:
            v = se
        elif c == 13:
            v = sp
        elif c == 14:
            v = fn / (tp + fn)
        elif c == 15:
            v = 1.0 - sp
        elif c == 16:
            v = 1.0 - se
        elif c == 17:
            v = 1.0 - acc
        elif c == 18:
            v = 1.0 - npv
        elif c == 19:
            v = 1.0 - ppv
        elif c == 20:
            v = ppv
        elif c == 21:
            v = se
        elif c == 22:
            v = se / (1.0 - sp)
        elif c == 23:
            v = (1.0 - se) / sp
        elif c == 24:
            v = se + r * sp
        elif c == 25:
            v = (1.0 - se) ** 2 + r * (1.0 - sp) ** 2
        elif c == 26:
            v = 2.0 * tp / (2.0 * tp + fp + fn) if tp > 0.0 else 0.0
        else:
            den = (tp + fp) * (tp + fn) * (tn + fp) * (tn + fn)
            v = (tp * tn - fp * fn) / math.sqrt(den) if den > 0.0 else 0.0
        out[j] = v


@jit
def measures_many(thr, se, sp, P, N, r, codes, out):
    """``measures`` of every point ``i`` into ``out[i]``."""
    for i in range(se.shape[0]):
        measures(thr[i], se[i], sp[i], P, N, r, codes, out[i])


@jit
def evaluate(tpc, fpc, scores, P, N, input_code, xs, kx, best, method, r, codes, policy, seed,
             rep, out, ks, res):
    """One curve's coordinates ``codes`` at every ``xs`` into ``out`` (len(xs),
    len(codes)): the replicates' work (the point estimate takes the same
    functions).  ``kx``: each threshold's ``k`` (input threshold).  ``best``:
    the criterion's best point (``policy`` for ties).  Returns False when
    ``policy`` is to stop and the best point is not unique."""
    if P <= 0.0 or N <= 0.0:
        out[:] = np.nan
        return True
    if best:
        n = best_points(tpc, fpc, P, N, method, r, ks)
        if n > 1:
            if policy == POLICY_STOP:
                out[:] = np.nan
                return False
            if policy == POLICY_OMIT:
                out[:] = np.nan
                return True
            k = ks[uniform_pick(seed, rep, 0, n)]
        else:
            k = ks[0]
        measures(point_threshold(scores, tpc, fpc, k), tpc[k] / P, (N - fpc[k]) / N, P, N, r,
                 codes, out[0])
        return True
    for i in range(xs.shape[0]):
        if input_code == IN_THRESHOLD:
            k = kx[i]
            measures(xs[i], tpc[k] / P, (N - fpc[k]) / N, P, N, r, codes, out[i])
            continue
        if not locate(tpc, fpc, P, N, input_code, xs[i], res):
            out[i] = np.nan
            continue
        thr = np.nan if res[0] < 0 else point_threshold(scores, tpc, fpc, int(res[0]))
        measures(thr, res[1], res[2], P, N, r, codes, out[i])
    return True


@jit
def _class_prefix(cnt, w, lo, hi, out):
    """``out[i] = `` the resampled weight of class-layout positions ``lo .. lo +
    i - 1`` (``out[0] = 0``); returns the total.  Branch-free and streaming."""
    acc = 0.0
    out[0] = 0.0
    if w.shape[0] > 0:
        for p in range(lo, hi):
            acc += cnt[p] * w[p]
            out[p - lo + 1] = acc
    else:
        for p in range(lo, hi):
            acc += cnt[p]
            out[p - lo + 1] = acc
    return acc


@jit
def _replicate_curve(cnt, w, bp, bn, n_pos, cp, cn, tpc, fpc):
    """The replicate's cumulative class weights per group from its counts in
    the class layout (positives ``[0, n_pos)`` then negatives, each by
    decreasing score; ``bp``/``bn`` the groups' cumulative class sizes): a
    prefix sum per class, then each group's end read from it (no branch on
    the data: a group is as likely to hold a positive as a negative)."""
    n = cnt.shape[0]
    tp = _class_prefix(cnt, w, 0, n_pos, cp)
    fp = _class_prefix(cnt, w, n_pos, n, cn)
    tpc[0] = 0.0
    fpc[0] = 0.0
    for g in range(bp.shape[0]):
        tpc[g + 1] = cp[bp[g]]
        fpc[g + 1] = cn[bn[g]]
    return tp, fp


@jit
def coords_batch(seed, r_start, out, strata, w, bp, bn, n_pos, scores, input_code, xs, kx,
                 best, method, r, codes, policy, small, draws, scratch, wrapped, stopped):
    """Replicates ``r_start ..`` of ``coords``: ``out`` is (n_replicates,
    len(xs), len(codes)); ``small`` uint8 counts, ``draws`` scratch for the
    draws, ``scratch`` (``scratch_size``) for the curve, ``wrapped`` flags
    the replicates whose counts wrapped (redone by ``coords_wide``),
    ``stopped`` those with several best points under ``POLICY_STOP``."""
    G = scores.shape[0]
    n = small.shape[0]
    cp = scratch[:n_pos + 1]
    cn = scratch[n_pos + 1:n + 2]
    tpc = scratch[n + 2:n + G + 3]
    fpc = scratch[n + G + 3:n + 2 * G + 4]
    ks = np.empty(G + 1, np.int64)
    res = np.empty(3)
    for i in range(out.shape[0]):
        rep = r_start + i
        ok = count_draws(seed, rep, strata, small, draws)
        wrapped[i] = not ok
        if ok:
            P, N = _replicate_curve(small, w, bp, bn, n_pos, cp, cn, tpc, fpc)
            stopped[i] = not evaluate(tpc, fpc, scores, P, N, input_code, xs, kx, best,
                                      method, r, codes, policy, seed, rep, out[i], ks, res)
        small[:] = 0


def scratch_size(n, G):
    """Floats of scratch ``coords_batch`` needs for ``n`` rows in ``G`` groups."""
    return n + 2 * G + 4


@jit
def coords_wide(seed, rep, out_row, strata, w, bp, bn, n_pos, scores, input_code, xs, kx, best,
                method, r, codes, policy, draws):
    """Replicate ``rep`` with int64 counts (after a uint8 count wrapped);
    returns False as ``evaluate`` does."""
    G = scores.shape[0]
    n = strata[-1]
    wide = np.zeros(n, np.int64)
    count_draws(seed, rep, strata, wide, draws)
    tpc = np.empty(G + 1)
    fpc = np.empty(G + 1)
    P, N = _replicate_curve(wide, w, bp, bn, n_pos, np.empty(n_pos + 1),
                            np.empty(n - n_pos + 1), tpc, fpc)
    return evaluate(tpc, fpc, scores, P, N, input_code, xs, kx, best, method, r, codes,
                    policy, seed, rep, out_row, np.empty(G + 1, np.int64), np.empty(3))


@jit
def _betacf(a, b, x):
    """Continued fraction of the regularised incomplete beta function (modified
    Lentz's method)."""
    tiny = 1e-300
    qab = a + b
    qap = a + 1.0
    qam = a - 1.0
    c = 1.0
    d = 1.0 - qab * x / qap
    if abs(d) < tiny:
        d = tiny
    d = 1.0 / d
    h = d
    for m in range(1, 10000):
        m2 = 2 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1.0 + aa * d
        if abs(d) < tiny:
            d = tiny
        c = 1.0 + aa / c
        if abs(c) < tiny:
            c = tiny
        d = 1.0 / d
        h *= d * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1.0 + aa * d
        if abs(d) < tiny:
            d = tiny
        c = 1.0 + aa / c
        if abs(c) < tiny:
            c = tiny
        d = 1.0 / d
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < 1e-16:
            break
    return h


@jit
def betainc(a, b, x):
    """The regularised incomplete beta function ``I_x(a, b)``."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    lbt = (math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b)
           + a * math.log(x) + b * math.log1p(-x))
    bt = math.exp(lbt)
    if x < (a + 1.0) / (a + b + 2.0):
        return bt * _betacf(a, b, x) / a
    return 1.0 - bt * _betacf(b, a, 1.0 - x) / b


@jit
def betaincinv(a, b, p):
    """``x`` with ``I_x(a, b) = p`` (bisection to the last bit: the function is
    increasing in ``x``)."""
    lo = 0.0
    hi = 1.0
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        if mid <= lo or mid >= hi:
            break
        if betainc(a, b, mid) < p:
            lo = mid
        else:
            hi = mid
    return 0.5 * (lo + hi)


@jit
def clopper_pearson(k, n, alpha, out):
    """Clopper-Pearson's interval of ``k`` successes in ``n`` trials (each
    array entry), level ``1 - alpha``, into ``out`` (2, len(k))."""
    for i in range(k.shape[0]):
        ki = k[i]
        ni = n[i]
        if not (ni > 0.0) or ki != ki:
            out[0, i] = np.nan
            out[1, i] = np.nan
            continue
        out[0, i] = 0.0 if ki <= 0.0 else betaincinv(ki, ni - ki + 1.0, alpha / 2.0)
        out[1, i] = 1.0 if ki >= ni else betaincinv(ki + 1.0, ni - ki, 1.0 - alpha / 2.0)
