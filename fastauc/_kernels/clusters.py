"""Kernels of the DeLong family beyond one sample: cluster sums of placements
(Obuchowski 1997) and the chi-square tail of the omnibus test (no scipy).
"""

from __future__ import annotations

import math

import numpy as np

from .._jit import jit
from .table import step


@jit
def offset_codes(ids, lo, out):
    """Integer cluster ids minus ``lo`` into ``out`` (int32 or int64): codes
    ``0..span - 1`` (a value that occurs in no row is a cluster with no rows,
    which adds nothing)."""
    for i in range(ids.shape[0]):
        out[i] = ids[i] - lo
    return out


@jit
def gammaincc(a, x):
    """The regularised upper incomplete gamma function ``Q(a, x)`` (series
    below ``a + 1``, Lentz's continued fraction above)."""
    if math.isnan(x) or math.isnan(a):
        return math.nan
    if x <= 0.0:
        return 1.0
    if math.isinf(x):
        return 0.0
    lg = -x + a * math.log(x) - math.lgamma(a)
    if x < a + 1.0:
        ap = a
        term = 1.0 / a
        total = term
        for _ in range(100000):
            ap += 1.0
            term *= x / ap
            total += term
            if abs(term) < abs(total) * 1e-17:
                break
        return 1.0 - total * math.exp(lg)
    tiny = 1e-300
    b = x + 1.0 - a
    c = 1.0 / tiny
    d = 1.0 / b
    h = d
    for i in range(1, 100000):
        an = -i * (i - a)
        b += 2.0
        d = an * d + b
        if abs(d) < tiny:
            d = tiny
        c = b + an / c
        if abs(c) < tiny:
            c = tiny
        d = 1.0 / d
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < 1e-16:
            break
    return math.exp(lg) * h


@jit(boundscheck=False)
def cluster_walk(pk, pw, px, nk, nw, nx, bp, bn, tp0s, fp0s, r0, r1, offset, total_p, total_n,
                 acc, area, tps, fps):
    """Per-cluster sums of DeLong's placements from one model's sorted runs.

    ``pk``/``nk`` are the classes' keys ascending with their weights
    ``pw``/``nw`` (empty: unit) and cluster codes ``px``/``nx``
    (``_sort.sort_by_class`` with the codes as payload; cluster
    ``px[q] - offset``).  Key ranges
    ``r0..r1 - 1`` are walked from the top, range ``r`` holding
    ``pk[bp[r + 1]:bp[r]]`` and ``nk[bn[r + 1]:bn[r]]`` and starting from the
    weights above it ``tp0s[r]``/``fp0s[r]`` (the cuts and sums of
    ``_table.split_sweep``).  Each row adds to its cluster's four sums
    ``acc[4 c:4 c + 4]`` (flat, one cache line a cluster): its weight times its
    placement value (those of ``placements.walk_rows``) to column 0
    (positives) or 2 (negatives), its weight to column 1 or 3.  Twice the
    area of range ``r`` goes to ``area[r]``, accumulated as the sweep
    accumulates it (``table.step``), and the weights below it to
    ``tps[r]``/``fps[r]``.
    """
    pweighted = pw.shape[0] > 0
    nweighted = nw.shape[0] > 0
    inv_n = 1.0 / total_n
    inv_p = 1.0 / total_p
    for r in range(r0, r1):
        i = bp[r] - 1
        i_stop = bp[r + 1]
        j = bn[r] - 1
        j_stop = bn[r + 1]
        tp = tp0s[r]
        fp = fp0s[r]
        area2 = 0.0
        while i >= i_stop or j >= j_stop:
            if j >= j_stop and (i < i_stop or nk[j] > pk[i]):
                # a key of negatives only (tg = 0): their value is known before
                # the scan, so one loop sums the weight and adds the values
                k = nk[j]
                val01 = tp * inv_p
                fg = 0.0
                while j >= j_stop and nk[j] == k:
                    wq = nw[j] if nweighted else 1.0
                    c = nx[j] - offset
                    acc[4 * c + 2] += wq * val01
                    acc[4 * c + 3] += wq
                    fg += wq
                    j -= 1
                area2 += fg * (2.0 * tp + 0.0)  # table.step's area term with tg = 0
                fp += fg
                continue
            k = pk[i]
            if j < j_stop or nk[j] != k:
                # a key of positives only (fg = 0: no area, as table.step has it)
                val10 = (total_n - fp) * inv_n
                tg = 0.0
                while i >= i_stop and pk[i] == k:
                    wq = pw[i] if pweighted else 1.0
                    c = px[i] - offset
                    acc[4 * c] += wq * val10
                    acc[4 * c + 1] += wq
                    tg += wq
                    i -= 1
                tp += tg
                continue
            i0 = i
            tg = 0.0
            while i >= i_stop and pk[i] == k:
                tg += pw[i] if pweighted else 1.0
                i -= 1
            j0 = j
            fg = 0.0
            while j >= j_stop and nk[j] == k:
                fg += nw[j] if nweighted else 1.0
                j -= 1
            val10 = ((total_n - fp - fg) + 0.5 * fg) * inv_n
            val01 = (tp + 0.5 * tg) * inv_p
            for q in range(i + 1, i0 + 1):
                c = px[q] - offset
                wq = pw[q] if pweighted else 1.0
                acc[4 * c] += wq * val10
                acc[4 * c + 1] += wq
            for q in range(j + 1, j0 + 1):
                c = nx[q] - offset
                wq = nw[q] if nweighted else 1.0
                acc[4 * c + 2] += wq * val01
                acc[4 * c + 3] += wq
            a, _ = step(tp, fp, tg, fg)
            area2 += a
            tp += tg
            fp += fg
        area[r] = area2
        tps[r] = tp
        fps[r] = fp
