"""The background AUCs of subgroups (Borkan et al. 2019) from one sort.

BPSN (background positive, subgroup negative) is the AUC of the positives
outside a group over the group's negatives; BNSP (background negative,
subgroup positive) the AUC of the group's positives over the negatives
outside it.  Each needs, for the group's rows, the placements among all
rows (``placed_by_group``: a negative's positive weight above and tied, a
positive's negative weight below and tied) minus those within the group, and for
DeLong's variance the sum over all the background rows of their squared
placement among the group's rows: a step function of the score with steps
at the group's own scores, so that sum is read off the overall placements
at the group's scores, one piece between each two of them
(``background_aucs``).  Everything is a walk of the group's rows: O(n) over
all groups after the one sort.
"""

from __future__ import annotations

import numpy as np

from .._jit import jit

__all__ = ["background_aucs", "block_group_counts", "placed_by_group"]


@jit
def block_group_counts(payload, pw, cuts, counts, class_w):
    """Per block of rows ``cuts[b]:cuts[b + 1]``: each group's rows
    (``counts[b, g]``) and the block's negative and positive weight
    (``class_w[b]``)."""
    weighted = pw.shape[0] > 0
    for b in range(cuts.shape[0] - 1):
        for q in range(cuts[b], cuts[b + 1]):
            counts[b, payload[q] >> 1] += 1
            class_w[b, payload[q] & 1] += pw[q] if weighted else 1.0


@jit
def placed_by_group(keys, payload, pw, starts, gk, gpos, gw, gX, gT, lo, hi, below_p,
                    below_n, total_p):
    """The rows (``keys`` ascending, ``payload`` their ``group << 1 |
    is_pos``, ``pw`` their weights, empty: unit) with their placements among
    all rows, laid out by group (a stable counting sort: group ``g``'s next
    row goes to ``starts[g]``, which advances; still ascending).  A negative
    gets the positive weight strictly above its score (``gX``) and at it
    (``gT``), a positive the negative weight strictly below it and at it.
    Only rows ``lo:hi`` (a block that cuts no run of tied scores), from the
    weights below them ``below_p``/``below_n`` (``total_p``: all the
    positive weight): blocks run on the threads, each with its own
    ``starts``."""
    n = hi
    weighted = pw.shape[0] > 0
    cursor = starts
    i = lo
    while i < n:
        j = i
        tp = 0.0
        tn = 0.0
        while j < n and keys[j] == keys[i]:
            x = pw[j] if weighted else 1.0
            if payload[j] & 1:
                tp += x
            else:
                tn += x
            j += 1
        above_p = total_p - below_p - tp
        for q in range(i, j):
            g = payload[q] >> 1
            p = cursor[g]
            cursor[g] = p + 1
            gk[p] = keys[q]
            c = payload[q] & 1
            gpos[p] = c
            if weighted:
                gw[p] = pw[q]
            if c:
                gX[p] = below_n
                gT[p] = tn
            else:
                gX[p] = above_p
                gT[p] = tp
        below_p += tp
        below_n += tn
        i = j


@jit
def _group_totals(is_pos, w, a, b):
    weighted = w.shape[0] > 0
    pg = 0.0
    ng = 0.0
    for q in range(a, b):
        x = w[q] if weighted else 1.0
        if is_pos[q]:
            pg += x
        else:
            ng += x
    return pg, ng


@jit
def _walk(keys, is_pos, w, X, T, a, b, pg, ng, P, N, c_bpsn, c_bnsp, out):
    """One pass over a group's rows ``a:b`` (ascending score): the two AUCs'
    pair weights (``out[0:2]``) and the sums of the squared placements' distances
    from the centres ``c_bpsn``/``c_bnsp`` (``out[2:6]``).  ``out``: bpsn_num, bnsp_num, bpsn_s10, bpsn_s01,
    bnsp_s10, bnsp_s01, then the group's own AUC's: its pair weight and the
    sums of its positives' (negatives') squared placements within the group
    (``out[6:9]``; the centres ``c_bpsn``, ``c_bnsp``)."""
    weighted = w.shape[0] > 0
    p_bg = P - pg
    n_bg = N - ng
    # an empty class makes its AUC undefined (the caller's NaN): its terms are zeros
    inv_pg = 1.0 / pg if pg > 0.0 else 0.0
    inv_ng = 1.0 / ng if ng > 0.0 else 0.0
    inv_pbg = 1.0 / p_bg if p_bg > 0.0 else 0.0
    inv_nbg = 1.0 / n_bg if n_bg > 0.0 else 0.0
    below_gn = 0.0  # the group's negative weight below the current key
    below_gp = 0.0
    i = a
    prev_key_pos = False  # the previous key of the group had positives (BNSP pieces)
    prev_key_neg = False
    prev_A = 0.0  # A and TA at the previous key with group negatives
    prev_B = 0.0  # B and TB at the previous key with group positives
    prev_TB = 0.0
    s_all_pos = 0.0  # sum over all positives of w (V10 - c)^2, BPSN
    s_all_neg = 0.0  # sum over all negatives of w (V01 - c)^2, BNSP
    s_g_pos = 0.0  # the same over the group's own positives / negatives
    s_g_neg = 0.0
    num_bpsn = 0.0
    num_bnsp = 0.0
    num_g = 0.0  # the group's own pair weight
    s01_bpsn = 0.0
    s10_bnsp = 0.0
    while i < b:
        j = i
        gp = 0.0
        gn = 0.0
        while j < b and keys[j] == keys[i]:
            x = w[j] if weighted else 1.0
            if is_pos[j]:
                gp += x
            else:
                gn += x
            j += 1
        # a negative and a positive row of the group at this key (their
        # placements give the overall weights at the key)
        rn = -1
        rp = -1
        for r in range(i, j):
            if is_pos[r]:
                rp = r
            else:
                rn = r
        above_gp = pg - below_gp - gp  # the group's positive weight above the key
        # the group's rows at this key
        for r in range(i, j):
            x = w[r] if weighted else 1.0
            if is_pos[r]:
                # BNSP: its placement among the background negatives
                raw = X[r] - below_gn + 0.5 * (T[r] - gn)
                v10 = raw * inv_nbg
                num_bnsp += x * raw
                d = v10 - c_bnsp
                s10_bnsp += x * d * d
                # BPSN: a group positive, left out of the background positives
                u = (below_gn + 0.5 * gn) * inv_ng - c_bpsn
                s_g_pos += x * u * u
            else:
                raw = X[r] - above_gp + 0.5 * (T[r] - gp)
                v01 = raw * inv_pbg
                num_bpsn += x * raw
                d = v01 - c_bpsn
                s01_bpsn += x * d * d
                raw_g = above_gp + 0.5 * gp
                num_g += x * raw_g
                u = raw_g * inv_pg - c_bnsp
                s_g_neg += x * u * u
        if rn >= 0:
            # BPSN: all positives from the previous group-negative key up to here
            a_k = X[rn]  # positive weight above the key, and at it
            ta_k = T[rn]
            if prev_key_neg:
                between = prev_A - a_k - ta_k
            else:
                between = P - a_k - ta_k  # every positive below this key
            u = below_gn * inv_ng - c_bpsn
            s_all_pos += between * u * u
            u = (below_gn + 0.5 * gn) * inv_ng - c_bpsn
            s_all_pos += ta_k * u * u
            prev_A = a_k
            prev_key_neg = True
        if rp >= 0:
            # BNSP: all negatives between the previous group-positive key and here
            b_k = X[rp]  # negative weight below the key, and at it
            tb_k = T[rp]
            if prev_key_pos:
                between = b_k - prev_B - prev_TB
            else:
                between = b_k
            u = (above_gp + gp) * inv_pg - c_bnsp
            s_all_neg += between * u * u
            u = (above_gp + 0.5 * gp) * inv_pg - c_bnsp
            s_all_neg += tb_k * u * u
            prev_B = b_k
            prev_TB = tb_k
            prev_key_pos = True
        below_gp += gp
        below_gn += gn
        i = j
    # the positives above the group's highest negative key: placement 1
    if prev_key_neg:
        u = 1.0 - c_bpsn
        s_all_pos += prev_A * u * u
    else:
        u = 0.0 - c_bpsn
        s_all_pos += P * u * u
    # the negatives above the group's highest positive key: placement 0
    if prev_key_pos:
        u = 0.0 - c_bnsp
        s_all_neg += (N - prev_B - prev_TB) * u * u
    else:
        u = 1.0 - c_bnsp
        s_all_neg += N * u * u
    out[2] = s_all_pos - s_g_pos
    out[3] = s01_bpsn
    out[4] = s10_bnsp
    out[5] = s_all_neg - s_g_neg
    out[0] = num_bpsn
    out[1] = num_bnsp
    out[6] = num_g
    out[7] = s_g_pos
    out[8] = s_g_neg


@jit(inline="always")
def _spread(squares, weight, d2):
    """``sum w (V - AUC)^2`` from ``squares`` = ``sum w (V - 1/2)^2`` and
    ``d2`` = ``(AUC - 1/2)^2``; a difference within rounding of the squares
    (every placement the same: an AUC of 0 or 1, say) is 0, as the
    variance's own sums about the mean give, not the rounding left over."""
    m2 = squares - weight * d2
    return 0.0 if m2 <= 16.0 * 2.220446049250313e-16 * squares else m2


@jit
def background_aucs(keys, is_pos, w, X, T, starts, P, N, g0, g1, out):
    """Groups ``g0:g1`` (rows ``starts[g]:starts[g + 1]`` of the arrays, each
    group's rows in ascending score: ``keys``, class, weight and overall
    placements ``X``, ``T``, as ``placed_by_group`` lays them out): ``out[g]`` =
    (bpsn_auc, bpsn_var, bnsp_auc, bnsp_var, group positive weight, group
    negative weight, subgroup auc, subgroup var), NaN where undefined.
    DeLong's variances with frequency weights (divisor the weight minus
    one)."""
    sums = np.empty(9)
    nan = np.nan
    for g in range(g0, g1):
        a = starts[g]
        b = starts[g + 1]
        pg, ng = _group_totals(is_pos, w, a, b)
        p_bg = P - pg
        n_bg = N - ng
        out[g, 4] = pg
        out[g, 5] = ng
        # one walk: the pair weights, and the squared placements about 1/2
        _walk(keys, is_pos, w, X, T, a, b, pg, ng, P, N, 0.5, 0.5, sums)
        # the pair weight over the pairs, as roc_auc_score divides it
        bpsn = sums[0] / (p_bg * ng) if p_bg > 0.0 and ng > 0.0 else nan
        bnsp = sums[1] / (pg * n_bg) if pg > 0.0 and n_bg > 0.0 else nan
        out[g, 0] = bpsn
        out[g, 2] = bnsp
        out[g, 1] = nan
        out[g, 3] = nan
        if bpsn == bpsn and p_bg > 1.0 and ng > 1.0:
            d2 = (bpsn - 0.5) ** 2  # sum w (V - AUC)^2 = sum w (V - 1/2)^2 - W (AUC - 1/2)^2
            out[g, 1] = (_spread(sums[2], p_bg, d2) / (p_bg - 1.0) / p_bg
                         + _spread(sums[3], ng, d2) / (ng - 1.0) / ng)
        if bnsp == bnsp and pg > 1.0 and n_bg > 1.0:
            d2 = (bnsp - 0.5) ** 2
            out[g, 3] = (_spread(sums[4], pg, d2) / (pg - 1.0) / pg
                         + _spread(sums[5], n_bg, d2) / (n_bg - 1.0) / n_bg)
        sub = sums[6] / (pg * ng) if pg > 0.0 and ng > 0.0 else nan
        out[g, 6] = sub
        out[g, 7] = nan
        if sub == sub and pg > 1.0 and ng > 1.0:
            d2 = (sub - 0.5) ** 2
            out[g, 7] = (_spread(sums[7], pg, d2) / (pg - 1.0) / pg
                         + _spread(sums[8], ng, d2) / (ng - 1.0) / ng)
