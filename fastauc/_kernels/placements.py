"""DeLong's placement values and their covariance, from a sorted layout.

A layout (see ``resampling``) holds the positives then the negatives, each
by decreasing score, and ``bp[g]``/``bn[g]``, the numbers of positives and
negatives in the distinct-score groups ``0..g`` (float64 counts, as the sweep
writes them).  A positive's placement is the weighted share of negatives it
outscores, ties counting one half; a negative's is the weighted share of
positives above it, ties one half (DeLong, DeLong & Clarke-Pearson 1988; the
midrank form of Sun & Xu 2014).  Both are constant within a group, so one
pass over the groups gives every row's value.
"""

from __future__ import annotations

import numpy as np

from .._jit import jit


@jit
def _range_weight(w, start, stop):
    if w.shape[0] == 0:
        return float(stop - start)
    total = 0.0
    for p in range(start, stop):
        total += w[p]
    return total


@jit
def layout_placements(bp, bn, w, n_pos, rows, out, g_lo, g_hi, total_p, total_n):
    """Write the placement value of each row of groups ``g_lo:g_hi`` to
    ``out[rows[p]]``; return their ``sum tg * V10`` (the AUC times ``total_p``
    over all groups).

    ``w`` holds the weights in layout order (empty: unit weights); the class
    totals are those of the whole layout.  Groups are independent once the
    weight above ``g_lo`` is known, so two ranges of groups can be written on
    two threads (they write disjoint rows of ``out``).
    """
    ip = int(bp[g_lo - 1]) if g_lo > 0 else 0
    ineg = n_pos + (int(bn[g_lo - 1]) if g_lo > 0 else 0)
    tp = _range_weight(w, 0, ip)  # positive weight above the range
    fp = _range_weight(w, n_pos, ineg)  # negative weight above the range
    acc = 0.0  # sum of tg * V10
    for g in range(g_lo, g_hi):
        p_end = int(bp[g])
        n_end = n_pos + int(bn[g])
        tg = _range_weight(w, ip, p_end)
        fg = _range_weight(w, ineg, n_end)
        v10 = ((total_n - fp - fg) + 0.5 * fg) / total_n
        v01 = (tp + 0.5 * tg) / total_p
        for p in range(ip, p_end):
            out[rows[p]] = v10
        for p in range(ineg, n_end):
            out[rows[p]] = v01
        acc += tg * v10
        tp += tg
        fp += fg
        ip = p_end
        ineg = n_end
    return acc


@jit
def placement_covariance(X, is_pos, w, aucs):
    """Weighted sums of cross-products of centred placements, per class.

    ``X`` is (k, n): model ``m``'s placement of row ``i``.  Returns
    ``(S10, S01, W10, W01)``: ``S10[a, b] = sum_pos w_i (X_ai - A_a)(X_bi - A_b)``,
    likewise over the negatives, and the class weights.  Centring on the AUC
    first (two passes in effect) avoids cancellation.
    """
    k, n = X.shape
    s10 = np.zeros((k, k))
    s01 = np.zeros((k, k))
    w10 = 0.0
    w01 = 0.0
    weighted = w.shape[0] > 0
    d = np.empty(k)
    for i in range(n):
        wi = w[i] if weighted else 1.0
        if wi == 0.0:
            continue
        for a in range(k):
            d[a] = X[a, i] - aucs[a]
        target = s10 if is_pos[i] else s01
        for a in range(k):
            da = wi * d[a]
            for b in range(a, k):
                target[a, b] += da * d[b]
        if is_pos[i]:
            w10 += wi
        else:
            w01 += wi
    for a in range(k):
        for b in range(a):
            s10[a, b] = s10[b, a]
            s01[a, b] = s01[b, a]
    return s10, s01, w10, w01


@jit
def group_weights(bp, bn, wl, n_pos):
    """Each group's positive and negative weight, from a layout (weights ``wl``
    in layout order; ``bp``/``bn`` the cumulative counts per group)."""
    g_count = bp.shape[0]
    pos = np.empty(g_count, np.float64)
    neg = np.empty(g_count, np.float64)
    ip = 0
    ineg = n_pos
    for g in range(g_count):
        p_end = int(bp[g])
        n_end = n_pos + int(bn[g])
        pos[g] = _range_weight(wl, ip, p_end)
        neg[g] = _range_weight(wl, ineg, n_end)
        ip = p_end
        ineg = n_end
    return pos, neg
