"""The AUC of a window of batches without merging their tables.

Twice the ROC area of rows made of several batches is the sum of each
batch's own (``table_area2``) and, for every two batches, the twice area of
their pairs across the two (``cross_area2``): a positive of one above a
negative of the other counts 2, a tie 1.  A window keeps each batch's own
and its crosses with the others; a new batch adds its own and one cross per
batch in the window (a merge walk of two tables), an expired batch takes
its terms away, and the AUC is their sum over the two class totals.
"""

from __future__ import annotations

import numpy as np

from .._jit import jit

__all__ = ["cross_area2", "cross_area2_two", "table_area2"]


@jit
def table_area2(pos, neg):
    """Twice the ROC area of one table (keys descending): each negative
    weight times twice the positive weight above it plus that tied."""
    tp = 0.0
    area2 = 0.0
    for g in range(pos.shape[0]):
        area2 += neg[g] * (2.0 * tp + pos[g])
        tp += pos[g]
    return area2


@jit(inline="always")
def _cross_step(ka, pa, na, kb, pb, nb, i, j, tpa, tpb, area2):
    """One step of :func:`cross_area2`'s walk while both tables have keys:
    the greater key taken (both at a tie) without a branch on the
    comparison, a term not taken added as 0.0."""
    ge = ka[i] >= kb[j]  # a's key is taken (both at a tie)
    le = ka[i] <= kb[j]
    tie = ge and le  # the same key in both: its cross pairs tie
    a_at = pa[i]
    b_at = pb[j]
    ca = na[i] * (2.0 * tpb + (b_at if tie else 0.0))
    cb = nb[j] * (2.0 * tpa + (a_at if tie else 0.0))
    area2 += (ca if ge else 0.0) + (cb if le else 0.0)
    tpa += a_at if ge else 0.0
    tpb += b_at if le else 0.0
    return i + np.int64(ge), j + np.int64(le), tpa, tpb, area2


@jit(inline="always")
def _cross_rest(ka, pa, na, kb, pb, nb, i, j, tpa, tpb, area2):
    """:func:`cross_area2`'s walk from keys ``i``, ``j`` to the end."""
    while i < ka.shape[0] and j < kb.shape[0]:
        i, j, tpa, tpb, area2 = _cross_step(ka, pa, na, kb, pb, nb, i, j, tpa, tpb, area2)
    while i < ka.shape[0]:
        area2 += na[i] * 2.0 * tpb
        i += 1
    while j < kb.shape[0]:
        area2 += nb[j] * 2.0 * tpa
        j += 1
    return area2


@jit
def cross_area2(ka, pa, na, kb, pb, nb):
    """Twice the area of the pairs across tables ``a`` and ``b`` (keys
    descending): a's positives over b's negatives and b's positives over
    a's negatives, a tie one half.  One merge walk from the top.

    While both tables have keys left, each step takes the greater key (both
    when they tie) without a branch on the comparison: the two tables'
    keys interleave at random, and a branch on which comes next is
    mispredicted about every other step (2x slower at 1e4 keys each).  A
    term not taken is added as 0.0, so the sums are the branching walk's
    to the bit."""
    return _cross_rest(ka, pa, na, kb, pb, nb, 0, 0, 0.0, 0.0, 0.0)


@jit
def cross_area2_two(ka, pa, na, kb, pb, nb, kc, pc, nc):
    """``(cross_area2(a, b), cross_area2(a, c))``, the two walks taken a step
    each in turn: each step waits on its keys' loads, and the other walk's
    step fills that wait (1.4x the throughput of one walk at 1e4 keys).
    Each walk's sums are its own walk's, to the bit."""
    i = j = i2 = j2 = 0
    tpa = tpb = area_b = tpa2 = tpc = area_c = 0.0
    while i < ka.shape[0] and j < kb.shape[0] and i2 < ka.shape[0] and j2 < kc.shape[0]:
        i, j, tpa, tpb, area_b = _cross_step(ka, pa, na, kb, pb, nb, i, j, tpa, tpb, area_b)
        i2, j2, tpa2, tpc, area_c = _cross_step(ka, pa, na, kc, pc, nc, i2, j2, tpa2, tpc,
                                                area_c)
    return (_cross_rest(ka, pa, na, kb, pb, nb, i, j, tpa, tpb, area_b),
            _cross_rest(ka, pa, na, kc, pc, nc, i2, j2, tpa2, tpc, area_c))
