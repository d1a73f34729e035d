"""Kernels of the DeLong family beyond one sample: cluster sums of placements
(Obuchowski 1997) and the chi-square tail of the omnibus test (no scipy).
"""

from __future__ import annotations

import math

import numpy as np

from .._jit import jit
from .sorting import ID_BITS, prefetch, radix_sort
from .table import step

AHEAD = 16  # rows ahead whose cluster's sums the walk requests (scattered, in L2 or L3)


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


@jit(boundscheck=False)
def bucket_sums(packed, ib, exact, keys, tags, a, base, pos_below, neg_below, total_p, acc, sk,
                sx, tk, tx, tables):
    """Obuchowski's sums for the unweighted rows of one key bucket, as
    integers: cluster ``c``'s negatives add twice their placements and their
    number to ``acc[2 c:2 c + 2]``, its positives the same to ``acc[2 K + 2
    c:2 K + 2 c + 2]`` (``acc``: 4 K int64).  One class's half is 16 bytes a
    cluster: where one class has most of the rows, its sums stay in L2.

    ``packed``: the bucket's words from ``sorting.pack_keys`` (``ib``
    position bits; ``exact``: their high bits are the keys' distances whole)
    sorted, which place rows ``keys[a + j]``/``tags[a + j]`` (``tags``: the
    low 31 bits of the cluster id shifted left once, the class in the low
    bit; the cluster's code is its id minus the least id, whose low 31 bits
    are ``base``).
    ``pos_below``/``neg_below``: the rows of each class in the buckets
    below.  A positive with ``C`` negatives below its key and ``D`` at or
    below it adds ``C + D`` (``2 N`` times its placement, ties counting one
    half); a negative with ``A``/``B`` positives below/at or below adds
    ``2 P - A - B`` (``P`` = ``total_p``).  Integers: exact, in any order.
    ``sk``/``sx``/``tk``/``tx``: scratch as long as ``packed``; ``tables``:
    the radix sort's.  Without ``exact`` the keys are read back, and if some
    came out of order (they differ only in the bits not kept) the bucket is
    sorted again by key.  Returns twice the bucket's Mann-Whitney count (the
    sum of the positives' values)."""
    m = packed.shape[0]
    if m == 0:
        return 0
    half = acc.shape[0] // 2
    up = np.uint64(ib)
    mask = (np.uint64(1) << up) - np.uint64(1)
    if exact:  # the words order and tie the rows: their high bits serve as keys
        for i in range(m):
            sk[i] = packed[i] >> up
            sx[i] = tags[a + np.int64(packed[i] & mask)]
    else:
        ordered = True
        for i in range(m):
            j = a + np.int64(packed[i] & mask)
            sk[i] = keys[j]
            sx[i] = tags[j]
            if i > 0 and sk[i] < sk[i - 1]:
                ordered = False
        if not ordered:
            if radix_sort(sk[:m], None, sx[:m], tk, None, tx, tables[:-1], tables[-1]):
                sk[:m] = tk[:m]
                sx[:m] = tx[:m]
    # one pass up the keys, a tie group at a time (its last row reached):
    # the rows of each class below the group give its values
    two_p = 2 * total_p
    nb2 = 2 * neg_below
    pb2 = 2 * pos_below
    below_p = 0
    below_n = 0
    area2 = 0
    g0 = 0
    for i in range(m):
        if i + AHEAD < m:  # the sums of a cluster a few rows on, requested early
            ta = np.int64(sx[i + AHEAD])
            prefetch(acc, 2 * (((ta >> 1) - base) & ID_BITS) + (ta & 1) * half)
        if i + 1 < m and sk[i + 1] == sk[i]:
            continue
        if g0 == i:  # a key of one row
            t = np.int64(sx[i])
            p = t & 1
            vp = nb2 + 2 * below_n
            vn = two_p - pb2 - 2 * below_p
            area2 += vp if p else 0
            o = 2 * (((t >> 1) - base) & ID_BITS) + p * half
            acc[o] += vp if p else vn
            acc[o + 1] += 1
            below_p += p
            below_n += 1 - p
            g0 = i + 1
            continue
        gp = 0
        for q in range(g0, i + 1):
            gp += sx[q] & 1
        gn = i + 1 - g0 - gp
        vp = nb2 + 2 * below_n + gn
        vn = two_p - pb2 - 2 * below_p - gp
        for q in range(g0, i + 1):
            t = np.int64(sx[q])
            p = t & 1
            area2 += vp if p else 0
            o = 2 * (((t >> 1) - base) & ID_BITS) + p * half
            acc[o] += vp if p else vn
            acc[o + 1] += 1
        below_p += gp
        below_n += gn
        g0 = i + 1
    return area2
