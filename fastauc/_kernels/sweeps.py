"""The sweep: one pass over the merged, descending distinct scores.

Both classes arrive sorted ascending (``sorting.radix_sort``).  Walking them
from the top like the merge step of merge sort visits each distinct score once
with its positive weight ``tp_g`` and negative weight ``fp_g``.  From these
tallies the sweep accumulates

- twice the ROC area in count units, ``sum_g fp_g * (2 * TP_before + tp_g)``
  (a tied positive/negative pair counts one half: the trapezoid rule);
- the average-precision numerator, ``sum_g tp_g * TP_g / (TP_g + FP_g)``;
- optionally the cumulative tallies ``TP_g``, ``FP_g`` and the threshold key
  of every group, which are the points of the ROC, PR and DET curves.

Counts and weights are accumulated in float64, exact for integer counts up
to 2**53.
"""

from __future__ import annotations

import numpy as np

from .._jit import jit


@jit
def sweep(pos_keys, pos_w, neg_keys, neg_w, thr_out, tps_out, fps_out):
    """Merge-sweep two ascending key arrays from the top.

    ``pos_w``/``neg_w`` may be empty (unit weights).  When ``thr_out`` is
    non-empty (length >= number of distinct keys) the per-group threshold key
    and cumulative ``TP``/``FP`` are written to the three output arrays.

    Returns ``(n_groups, total_pos, total_neg, area2, ap_num)``.
    """
    store = thr_out.shape[0] > 0
    wp = pos_w.shape[0] > 0
    wn = neg_w.shape[0] > 0
    i = pos_keys.shape[0] - 1
    j = neg_keys.shape[0] - 1
    tp = 0.0
    fp = 0.0
    area2 = 0.0
    ap_num = 0.0
    g = 0
    while i >= 0 or j >= 0:
        if j < 0 or (i >= 0 and pos_keys[i] >= neg_keys[j]):
            k = pos_keys[i]
        else:
            k = neg_keys[j]
        tg = 0.0
        while i >= 0 and pos_keys[i] == k:
            tg += pos_w[i] if wp else 1.0
            i -= 1
        fg = 0.0
        while j >= 0 and neg_keys[j] == k:
            fg += neg_w[j] if wn else 1.0
            j -= 1
        area2 += fg * (2.0 * tp + tg)
        tp += tg
        fp += fg
        if tg > 0.0:
            ap_num += tg * (tp / (tp + fp))
        if store:
            thr_out[g] = k
            tps_out[g] = tp
            fps_out[g] = fp
        g += 1
    return g, tp, fp, area2, ap_num


@jit
def drop_intermediate(tps, fps, thr, second_difference):
    """Compact curve points in place; return how many are kept.

    ``second_difference=True`` is scikit-learn's ``roc_curve`` rule: keep the
    ends and every point where the second difference of ``fps`` or ``tps`` is
    non-zero (a corner).  ``False`` is the PR/DET rule: keep the ends and every
    point whose ``tps`` differs from its predecessor's or its successor's.
    """
    n = tps.shape[0]
    if n <= 2:
        return n
    keep = np.zeros(n, np.bool_)
    keep[0] = True
    keep[n - 1] = True
    for i in range(1, n - 1):
        if second_difference:
            d2f = (fps[i + 1] - fps[i]) - (fps[i] - fps[i - 1])
            d2t = (tps[i + 1] - tps[i]) - (tps[i] - tps[i - 1])
            keep[i] = d2f != 0.0 or d2t != 0.0
        else:
            keep[i] = (tps[i] - tps[i - 1]) != 0.0 or (tps[i + 1] - tps[i]) != 0.0
    m = 0
    for i in range(n):
        if keep[i]:
            tps[m] = tps[i]
            fps[m] = fps[i]
            thr[m] = thr[i]
            m += 1
    return m
