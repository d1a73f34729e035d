"""DeLong's placement values and their covariance, from a sorted layout.

A layout (see ``resampling``) holds the positives then the negatives, each
by decreasing score, and ``bp[g]``/``bn[g]``, the numbers of positives and
negatives in the distinct-score groups ``0..g`` (int32 counts; int64 from
2**31 rows).  A positive's placement is the weighted share of negatives it
outscores, ties counting one half; a negative's is the weighted share of
positives above it, ties one half (DeLong, DeLong & Clarke-Pearson 1988; the
midrank form of Sun & Xu 2014).  Both are constant within a group, so one
pass over the groups gives every row's value.
"""

from __future__ import annotations

import numpy as np

from .._jit import jit
from .table import step


@jit
def _range_weight(w, start, stop):
    if w.shape[0] == 0:
        return float(stop - start)
    total = 0.0
    for p in range(start, stop):
        total += w[p]
    return total


@jit
def layout_placements(bp, bn, pos_w, neg_w, n_pos, out, total_p, total_n):
    """Write the placement value of every layout position to ``out[:n]``; return
    ``sum tg * V10`` over the groups (the AUC times ``total_p``).

    ``pos_w``/``neg_w`` hold each group's weight per class (empty when
    unweighted: the counts, differences of ``bp``/``bn``), ``out`` has one
    spare slot at ``n``.  The placements go out
    in layout order, sequentially: each group writes its value at the next
    position of each class whether or not it has rows there (a group without
    positives leaves a value the next group with positives overwrites; past
    the end it goes to the spare slot), so the walk has no branch that
    depends on the data, which is what makes it fast on continuous scores.
    """
    n = out.shape[0] - 1
    weighted = pos_w.shape[0] > 0
    ip = 0
    ineg = n_pos
    tp = 0.0  # weight above the group
    fp = 0.0
    acc = 0.0  # sum of tg * V10
    for g in range(bp.shape[0]):
        tg = pos_w[g] if weighted else bp[g] - ip
        fg = neg_w[g] if weighted else bn[g] - (ineg - n_pos)
        v10 = ((total_n - fp - fg) + 0.5 * fg) / total_n
        v01 = (tp + 0.5 * tg) / total_p
        p_end = int(bp[g])
        n_end = n_pos + int(bn[g])
        out[ip if ip < n_pos else n] = v10
        out[ineg] = v01
        for q in range(ip + 1, p_end):
            out[q] = v10
        for q in range(ineg + 1, n_end):
            out[q] = v01
        acc += tg * v10
        tp += tg
        fp += fg
        ip = p_end
        ineg = n_end
    return acc


@jit
def walk_rows(pk, px, nk, nx, w, total_p, total_n, out, keys_out, bp_out, bn_out, above):
    """One walk of a model's sorted runs: every row's placement, and the layout.

    ``pk``/``nk`` are the positives' and the negatives' keys ascending, with
    their rows ``px``/``nx`` (``_sort.sort_by_class`` with the row indices as
    payload, every row kept); ``w`` the weights in row order (empty: unit).
    The runs are walked together from the top one distinct score at a time.
    With ``out`` not empty each row gets its class's placement value at its
    score in ``out[row]`` (the values of ``layout_placements``, without a
    layout or a scatter).  With ``bp_out`` not empty the layout's groups are
    written: ``bp_out``/``bn_out``, the cumulative numbers of positive and
    negative rows down to each, and (unless ``keys_out`` is empty) the
    distinct keys, descending.
    ``above`` (float64 (4,)) starts the walk below rows already walked: their
    positive and negative weights and numbers of rows (zeros from the top; a
    lower key range walked on its own thread starts from the range above it).
    Returns ``(groups, area2, tp, fp)``: twice the ROC area in weight units of
    the range walked, accumulated as the sweep accumulates it (``table.step``
    key by key, from the weights above), and the weights down to the last key
    walked.  From the same weights above, ``area2 / (2 tp fp)`` is the
    sweep's AUC to the last bit (``_resample._walk`` sees to that).
    """
    weighted = w.shape[0] > 0
    place = out.shape[0] > 0
    layout = bp_out.shape[0] > 0
    keyed = keys_out.shape[0] > 0
    i = pk.shape[0] - 1
    j = nk.shape[0] - 1
    tp = above[0]
    fp = above[1]
    cp = np.int64(above[2]) + pk.shape[0] - 1
    cn = np.int64(above[3]) + nk.shape[0] - 1
    area2 = 0.0
    g = 0
    while i >= 0 or j >= 0:
        if j < 0 or (i >= 0 and pk[i] >= nk[j]):
            k = pk[i]
        else:
            k = nk[j]
        i0 = i
        tg = 0.0
        while i >= 0 and pk[i] == k:
            tg += w[px[i]] if weighted else 1.0
            i -= 1
        j0 = j
        fg = 0.0
        while j >= 0 and nk[j] == k:
            fg += w[nx[j]] if weighted else 1.0
            j -= 1
        v10 = ((total_n - fp - fg) + 0.5 * fg) / total_n
        v01 = (tp + 0.5 * tg) / total_p
        if place:
            for q in range(i + 1, i0 + 1):
                out[px[q]] = v10
            for q in range(j + 1, j0 + 1):
                out[nx[q]] = v01
        if layout:
            if keyed:
                keys_out[g] = k
            bp_out[g] = cp - i
            bn_out[g] = cn - j
        a, _ = step(tp, fp, tg, fg)  # the sweep's arithmetic, in the sweep's order
        area2 += a
        tp += tg
        fp += fg
        g += 1
    return g, area2, tp, fp


@jit
def placement_covariance(X, is_pos, w, aucs, lo, hi):
    """Weighted sums of cross-products of centred placements, per class, over
    rows ``lo:hi``.

    ``X`` is (k, n): model ``m``'s placement of row ``i``.  Returns
    ``(S, W)``: ``S[0, a, b] = sum_pos w_i (X_ai - A_a)(X_bi - A_b)`` for
    ``a <= b``, ``S[1]`` the same over the negatives, ``W`` the class weights.
    Centring on the AUC first (two passes in effect) avoids cancellation.
    Row ranges are independent: the caller adds them in a fixed order.
    """
    k = X.shape[0]
    s = np.zeros((2, k, k))
    ws = np.zeros(2)
    weighted = w.shape[0] > 0
    d = np.empty(k)
    for i in range(lo, hi):
        wi = w[i] if weighted else 1.0
        c = 0 if is_pos[i] else 1
        for a in range(k):
            d[a] = X[a, i] - aucs[a]
        for a in range(k):
            da = wi * d[a]
            for b in range(a, k):
                s[c, a, b] += da * d[b]
        ws[c] += wi
    return s, ws


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


@jit
def row_placements(vals, ends, below, above, total_n, total_p, at, is_pos, w, flags, keyvals,
                   out):
    """Each row's DeLong placement in a block, from its table keys' values.

    ``vals`` holds, key by key of the block's table (descending) and range
    by range (range ``r``: ``ends[r]:ends[r + 1]``), what ``merge_runs``
    wrote: where the key has positive weight its negative weight below
    within the range (ties one half), then where it has negative weight the
    positive weight above within the range (ties one half).  Which keys hold
    which class comes from the rows (row ``i`` is key ``at[i]``; rows of
    weight zero are in no key), into ``flags`` (scratch of the rows'
    length); ``below[r]``/``above[r]`` (the negative weight of the ranges
    below, the positive weight of those above) complete the values, divided
    by ``total_n``/``total_p``, into ``keyvals`` (scratch, (2, rows)).
    ``out[i]`` receives row ``i``'s placement for its class (a row of weight
    zero: a finite value; it adds nothing).  Returns how many values were
    read (``ends[-1]`` unless the rows and ``vals`` disagree).
    """
    n = at.shape[0]
    weighted = w.shape[0] > 0
    for i in range(n):
        flags[i] = 0
    n_keys = 0
    for i in range(n):
        if weighted and w[i] == 0.0:
            continue
        j = at[i]
        flags[j] |= 1 if is_pos[i] else 2
        n_keys = max(n_keys, j + 1)
    r = 0
    f = 0
    total = ends[ends.shape[0] - 1]
    for j in range(n_keys):
        while r < ends.shape[0] - 2 and f >= ends[r + 1]:
            r += 1
        v10 = 0.0
        v01 = 0.0
        if flags[j] & 1 and f < total:
            v10 = (vals[f] + below[r]) / total_n
            f += 1
        if flags[j] & 2 and f < total:
            v01 = (vals[f] + above[r]) / total_p
            f += 1
        keyvals[0, j] = v10
        keyvals[1, j] = v01
    if n_keys == 0 and n > 0:  # rows of weight zero only: they point at key 0
        keyvals[0, 0] = 0.0
        keyvals[1, 0] = 0.0
    for i in range(n):
        out[i] = keyvals[0, at[i]] if is_pos[i] else keyvals[1, at[i]]
    return f