"""Bootstrap replicates of the multiclass AUCs (one-vs-rest and Hand & Till's
one-vs-one) from one sort per score column.

The rows are held in the *class layout*: class 0's rows, then class 1's, ...
(``bounds[c]:bounds[c + 1]``), so a stratified replicate's strata are the
classes and a replicate's counts ``cnt`` are one vector in that order.  For
column ``a`` (class ``a``'s scores), ``order[bounds[a] + i]`` is the layout
position of the class-``a`` row of ``i``-th highest score in that column,
and ``ranks[a, p] = (above, at_or_above)``, for a row of another class at
layout position ``p``, the numbers of class-``a`` rows scoring strictly
above it and at or above it in column ``a``.  A replicate then needs, per
column, the prefix sums ``C`` of class ``a``'s counts in that order and one
pass over the other classes' rows: twice the area of class ``a`` over class
``b`` in column ``a`` is ``sum_{p in b} cnt[p] (C[above_p] + C[at_or_above_p])``
(a tied pair counts one half).  These areas, and each class's count, give
every two-class AUC the averages are made of.  O(n) per column, no sort.
"""

from __future__ import annotations

import numpy as np

from .._jit import jit
from .resampling import count_draws, poisson_count, replicate_state

__all__ = ["class_layout", "multiclass_batch", "multiclass_value", "multiclass_wide"]


@jit
def class_layout(keys, payload, shift, a, lo, n_a, order, ranks):
    """Column ``a``'s part of the layout: ``keys`` the column sorted ascending,
    ``payload`` their rows' ``layout position << shift | class``.  Writes
    ``order[lo: lo + n_a]`` (class ``a``'s positions, decreasing score; tied
    rows in any order) and ``ranks[p]`` for the other classes' positions."""
    n = keys.shape[0]
    mask = (1 << shift) - 1
    seen_a = 0  # class a's rows at or below the current tie group
    i = 0
    while i < n:
        key = keys[i]
        j = i
        ta = 0
        while j < n and keys[j] == key:
            if payload[j] & mask == a:
                ta += 1
            j += 1
        above = n_a - seen_a - ta
        t = 0
        for q in range(i, j):
            p = payload[q] >> shift
            if payload[q] & mask == a:
                order[lo + above + t] = p
                t += 1
            else:
                ranks[p, 0] = above
                ranks[p, 1] = above + ta
        seen_a += ta
        i = j


@jit
def multiclass_value(cnt, bounds, order, ranks, ovo, weighted, prefix, area2, tot):
    """The averaged multiclass AUC of one replicate (counts ``cnt`` in the
    class layout); NaN when a class has no count.  ``prefix`` (n + 1
    floats), ``area2`` (k, k) and ``tot`` (k) are scratch.  ``ovo``: Hand
    and Till's one-vs-one, else one-vs-rest; ``weighted``: scikit-learn's
    ``average="weighted"`` (prevalence weights), else its macro average."""
    k = bounds.shape[0] - 1
    total = 0.0
    for c in range(k):
        s = 0.0
        for p in range(bounds[c], bounds[c + 1]):
            s += cnt[p]
        tot[c] = s
        total += s
    for c in range(k):
        if tot[c] == 0.0:
            return np.nan
    for a in range(k):
        lo = bounds[a]
        n_a = bounds[a + 1] - lo
        prefix[0] = 0.0
        for i in range(n_a):
            prefix[i + 1] = prefix[i] + cnt[order[lo + i]]
        for b in range(k):
            if b == a:
                area2[a, b] = 0.0
                continue
            s = 0.0
            for p in range(bounds[b], bounds[b + 1]):
                x = cnt[p]
                if x != 0:
                    s += x * (prefix[ranks[a, p, 0]] + prefix[ranks[a, p, 1]])
            area2[a, b] = s
    num = 0.0
    den = 0.0
    if not ovo:
        for a in range(k):
            s = 0.0
            for b in range(k):
                s += area2[a, b]
            auc = s / (2.0 * tot[a] * (total - tot[a]))
            wt = tot[a] if weighted else 1.0
            num += wt * auc
            den += wt
        return num / den
    for a in range(k):
        for b in range(a + 1, k):
            both = tot[a] * tot[b]
            auc = (area2[a, b] / (2.0 * both) + area2[b, a] / (2.0 * both)) / 2.0
            wt = (tot[a] + tot[b]) / total if weighted else 1.0
            num += wt * auc
            den += wt
    return num / den


@jit
def multiclass_batch(seed, r_start, out, strata, rows, bounds, orders, ranks, ovo, weighted,
                     poisson, cnt, prefix, area2, tot, draws, wrapped):
    """Replicates ``r_start .. r_start + len(out)`` of ``m`` models (``out``
    (n_replicates, m); ``orders[j]``, ``ranks[j]``: model ``j``'s layout;
    every model reads the same counts).  Multinomial: each stratum (class,
    or all rows) draws its size of positions (``count_draws``) into the
    uint8 ``cnt`` (zeros, left zero); a replicate whose count wrapped is
    flagged in ``wrapped`` and redone by ``multiclass_wide``.  Poisson: the
    count of the row at layout position ``p`` is that of input row
    ``rows[p]``, a function of the seed, the replicate and the row alone."""
    for r in range(out.shape[0]):
        if poisson:
            key = replicate_state(seed, r_start + r)
            for p in range(rows.shape[0]):
                cnt[p] = poisson_count(key, rows[p])
            ok = True
        else:
            ok = count_draws(seed, r_start + r, strata, cnt, draws)
        wrapped[r] = not ok
        if ok:
            for j in range(out.shape[1]):
                out[r, j] = multiclass_value(cnt, bounds, orders[j], ranks[j], ovo, weighted,
                                             prefix, area2, tot)
        cnt[:] = 0


@jit
def multiclass_wide(seed, r, out_row, strata, bounds, orders, ranks, ovo, weighted, prefix,
                    area2, tot, draws):
    """Multinomial replicate ``r`` with int64 counts (after a uint8 count
    wrapped); ``draws`` is ``draw_buffer(n, 8)``."""
    wide = np.zeros(strata[-1], np.int64)
    count_draws(seed, r, strata, wide, draws)
    for j in range(out_row.shape[0]):
        out_row[j] = multiclass_value(wide, bounds, orders[j], ranks[j], ovo, weighted, prefix,
                                      area2, tot)
