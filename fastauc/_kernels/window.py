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

from .._jit import jit

__all__ = ["cross_area2", "table_area2"]


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


@jit
def cross_area2(ka, pa, na, kb, pb, nb):
    """Twice the area of the pairs across tables ``a`` and ``b`` (keys
    descending): a's positives over b's negatives and b's positives over
    a's negatives, a tie one half.  One merge walk from the top."""
    i = 0
    j = 0
    ma = ka.shape[0]
    mb = kb.shape[0]
    tpa = 0.0  # a's positive weight above the current key
    tpb = 0.0
    area2 = 0.0
    while i < ma or j < mb:
        if j >= mb or (i < ma and ka[i] > kb[j]):
            area2 += na[i] * 2.0 * tpb
            tpa += pa[i]
            i += 1
        elif i >= ma or kb[j] > ka[i]:
            area2 += nb[j] * 2.0 * tpa
            tpb += pb[j]
            j += 1
        else:  # the same key in both: its cross pairs tie
            area2 += na[i] * (2.0 * tpb + pb[j]) + nb[j] * (2.0 * tpa + pa[i])
            tpa += pa[i]
            tpb += pb[j]
            i += 1
            j += 1
    return area2
