"""Bounded tables: distinct scores merged into dyadic key ranges ("cells").

A cell is a dyadic interval of the 64-bit key space: the keys whose top
``level`` bits equal those of its ``hi`` key (``level`` 64: one key).  It
stores the greatest and the least key of its rows (``hi``, ``lo``) and the
positive and negative weight of its rows.  Cells of one table are disjoint
and sorted by decreasing key.  Any two dyadic intervals are nested or
disjoint, so tables built on different shards merge by letting a cell absorb
the finer cells inside it: the result is again disjoint dyadic cells, and no
pair of rows ever changes from "ordered" to "unknown" except inside a cell.

``compress`` keeps the coarsest cells whose normalised mass
``pos / P + neg / N`` is at most ``budget`` (never splitting a cell, never
merging keys of different top-level prefixes); ``absorb`` merges two sorted
tables; ``bounds`` gives the ROC area's certified bounds.
"""

from __future__ import annotations

import numpy as np

from .._jit import jit

FULL = np.uint64(0xFFFFFFFFFFFFFFFF)


@jit
def span(level):
    """Mask of the low key bits a cell of ``level`` leaves free."""
    if level >= 64:
        return np.uint64(0)
    if level <= 0:
        return FULL
    return (np.uint64(1) << np.uint64(64 - level)) - np.uint64(1)


@jit
def common_level(a, b):
    """Number of leading bits keys ``a`` and ``b`` share (64 if equal): the
    level of the smallest dyadic cell holding both."""
    x = a ^ b
    lev = 64
    while x:
        x >>= np.uint64(1)
        lev -= 1
    return lev


@jit
def range_ends(hi, level, out):
    """Upper end of each cell's dyadic range into ``out``."""
    for i in range(hi.shape[0]):
        out[i] = hi[i] | span(level[i])


@jit
def _first_zero(hi, a, b, bit):
    """First index in ``[a, b)`` whose key has ``bit`` clear (keys descending and
    sharing the bits above ``bit``: the set ones come first); ``b`` if none."""
    one = np.uint64(1)
    shift = np.uint64(bit)
    while a < b:
        mid = (a + b) // 2
        if (hi[mid] >> shift) & one:
            a = mid + 1
        else:
            b = mid
    return a


@jit
def compress(hi, lo, level, pos, neg, total_p, total_n, budget,
             out_hi, out_lo, out_level, out_pos, out_neg):
    """Coarsest dyadic cells of mass ``<= budget``, from the top; returns their
    number (``out_*`` have room for every input cell).

    A key range sharing the top ``L`` bits is kept as one cell when its mass
    is within the budget, or when it is a single input cell (never split);
    otherwise it is split on the next bit.  The mass of a range is
    ``sum pos / total_p + sum neg / total_n`` (a class of no weight counts 0).
    """
    n = hi.shape[0]
    inv_p = 1.0 / total_p if total_p > 0 else 0.0
    inv_n = 1.0 / total_n if total_n > 0 else 0.0
    mass = np.empty(n + 1)
    mass[0] = 0.0
    for i in range(n):
        mass[i + 1] = mass[i] + pos[i] * inv_p + neg[i] * inv_n
    # explicit stack of (start, stop, level); the upper part is popped first
    stack = np.empty((2 * 65 + 2, 3), np.int64)
    top = 0
    if n > 0:
        stack[0, 0], stack[0, 1], stack[0, 2] = 0, n, 0
        top = 1
    g = 0
    while top > 0:
        top -= 1
        a, b, lev = stack[top, 0], stack[top, 1], stack[top, 2]
        if b - a == 1:
            out_hi[g], out_lo[g], out_level[g] = hi[a], lo[a], level[a]
            out_pos[g], out_neg[g] = pos[a], neg[a]
            g += 1
            continue
        if mass[b] - mass[a] <= budget:
            sp = 0.0
            sn = 0.0
            for i in range(a, b):
                sp += pos[i]
                sn += neg[i]
            # the smallest dyadic cell holding the range (at least ``lev`` deep):
            # the tighter the cell, the less it absorbs when tables merge
            out_hi[g], out_lo[g] = hi[a], lo[b - 1]
            out_level[g] = common_level(hi[a], lo[b - 1])
            out_pos[g], out_neg[g] = sp, sn
            g += 1
            continue
        s = _first_zero(hi, a, b, 63 - lev)
        if s == a or s == b:  # every key on one side of this bit: go one bit deeper
            stack[top, 0], stack[top, 1], stack[top, 2] = a, b, lev + 1
            top += 1
        else:
            stack[top, 0], stack[top, 1], stack[top, 2] = s, b, lev + 1
            stack[top + 1, 0], stack[top + 1, 1], stack[top + 1, 2] = a, s, lev + 1
            top += 2
    return g


@jit
def absorb(hi, lo, level, pos, neg, out_hi, out_lo, out_level, out_pos, out_neg):
    """Merge cells sorted by decreasing upper end of their dyadic range (a
    coarser cell before the cells it contains): a cell inside the current one
    is absorbed into it.  Returns the number of cells written."""
    n = hi.shape[0]
    g = -1
    cur_lo_end = np.uint64(0)
    cur_hi_end = np.uint64(0)
    for i in range(n):
        m = span(level[i])
        start = hi[i] & ~m
        end = hi[i] | m
        if g >= 0 and start >= cur_lo_end and end <= cur_hi_end:
            out_hi[g] = max(out_hi[g], hi[i])
            out_lo[g] = min(out_lo[g], lo[i])
            out_pos[g] += pos[i]
            out_neg[g] += neg[i]
            continue
        g += 1
        out_hi[g], out_lo[g], out_level[g] = hi[i], lo[i], level[i]
        out_pos[g], out_neg[g] = pos[i], neg[i]
        cur_lo_end = start
        cur_hi_end = end
    return g + 1


@jit
def bounds(lo, hi, pos, neg):
    """``(ordered, unknown, total_p, total_n)`` in weight units, from the top:
    ``ordered`` counts every positive-negative pair in different cells with the
    positive above (1 each) and the pairs tied on one key (1/2 each);
    ``unknown`` the pairs inside cells holding several scores."""
    total_p = 0.0
    total_n = 0.0
    for g in range(pos.shape[0]):
        total_p += pos[g]
        total_n += neg[g]
    ordered = 0.0
    unknown = 0.0
    above_p = 0.0
    for g in range(pos.shape[0]):
        if lo[g] == hi[g]:
            ordered += neg[g] * (above_p + 0.5 * pos[g])
        else:
            ordered += neg[g] * above_p
            unknown += neg[g] * pos[g]
        above_p += pos[g]
    return ordered, unknown, total_p, total_n
