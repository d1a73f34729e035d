"""torchmetrics' operating-point rules on the threshold sweep: the one copy
that ``operating_points`` (the public functions) and the bootstrap's point
estimates use.  Each rule returns ``(value, threshold)``."""

from __future__ import annotations

import math

import numpy as np

from . import _validation as v
from ._curves import threshold_tallies, unweighted_columns
from ._kernels.thresholds import confusion_range
from ._sort import CHUNK_MIN
from ._table import sorted_runs, sorted_tallies, sweep_parts
from ._parallel import map_units, row_blocks

#: the threshold reported when no threshold meets a ROC constraint (torchmetrics')
NO_ROC_THRESHOLD = 1e6


def rates(y_true, y_score, sample_weight, pos_label):
    """The sweep's thresholds (descending) with tp and fp, and the class weights."""
    thr, tps, fps, total_p, total_n = threshold_tallies(y_true, y_score, sample_weight,
                                                        pos_label)
    return thr, np.asarray(tps, np.float64), np.asarray(fps, np.float64), total_p, total_n


def confusion_at_thresholds(y_true, y_score, sample_weight, pos_label):
    """``(tns, fps, fns, tps, thresholds)`` at every distinct score.

    Unweighted rows from ``CHUNK_MIN`` on: ``unweighted_columns`` (the
    columns and nothing else, from the sweep's key ranges on the threads).
    Otherwise
    the sweep's tallies, and one pass in row blocks on the threads that
    turns its keys into scores in place and writes the weights below each
    threshold (``N - fp``, ``P - tp`` with the last tallies, as scikit-learn
    takes them).  The thresholds have the scores' dtype, as scikit-learn's
    (float32, integers)."""
    is_pos, s, w, _, raw_dtype = v.binary_target(y_true, y_score, sample_weight, pos_label,
                                                 default_rule="sklearn")
    if w.shape[0] == 0 and s.shape[0] >= CHUNK_MIN:
        out = unweighted_columns(sorted_runs(is_pos, s, w), sweep_parts(s.shape[0]))
    else:
        t = sorted_tallies(is_pos, s, w, curve=True)
        keys, tps, fps = t.thr_keys[1:], t.tps[1:], t.fps[1:]
        tns, fns = np.empty_like(fps), np.empty_like(tps)
        if tps.shape[0]:
            map_units(confusion_range, [(keys, tps, fps, tns, fns, a, b)
                                        for a, b in row_blocks(tps.shape[0])])
        out = tns, fps, fns, tps, keys.view(np.float64)
    if raw_dtype.kind in "iuf":
        out = (*out[:4], out[4].astype(raw_dtype, copy=False))
    return out


def roc_points(y_true, y_score, sample_weight, pos_label):
    """torchmetrics' ROC points: a start point (nothing predicted positive) at
    threshold 1.0 (``inf`` when a score exceeds 1), then every distinct score;
    a rate of an absent class is 0."""
    thr, tps, fps, total_p, total_n = rates(y_true, y_score, sample_weight, pos_label)
    start = 1.0 if thr.shape[0] == 0 or thr[0] <= 1.0 else math.inf
    thr = np.concatenate(([start], thr))
    tpr = np.concatenate(([0.0], tps / total_p if total_p > 0 else np.zeros_like(tps)))
    fpr = np.concatenate(([0.0], fps / total_n if total_n > 0 else np.zeros_like(fps)))
    return thr, tpr, 1.0 - fpr


def first_max(value, allowed, thr):
    """The highest threshold of greatest ``value`` among ``allowed`` (torch.argmax's
    first index), or (0.0, 1e6) when nothing is allowed."""
    idx = np.flatnonzero(allowed)
    if idx.shape[0] == 0:
        return (0.0, NO_ROC_THRESHOLD)
    j = idx[np.argmax(value[idx])]
    return float(value[j]), float(thr[j])


def pr_points(y_true, y_score, sample_weight, pos_label):
    """torchmetrics' precision-recall points with a threshold (the end point
    (recall 0, precision 1) has none): recall is 1 everywhere without positives."""
    thr, tps, fps, total_p, _ = rates(y_true, y_score, sample_weight, pos_label)
    precision = tps / (tps + fps)
    recall = tps / total_p if total_p > 0 else np.ones_like(tps)
    return thr, precision, recall


def lexmax(first, second, allowed, thr):
    """The highest threshold maximising ``(first, second)`` lexicographically among
    ``allowed``; threshold NaN when ``first`` is 0 there or nothing is allowed."""
    idx = np.flatnonzero(allowed)
    if idx.shape[0] == 0:
        return 0.0, math.nan
    idx = idx[first[idx] == first[idx].max()]
    j = idx[np.argmax(second[idx])]  # thresholds descend: the first is the highest
    best = float(first[j])
    return best, (float(thr[j]) if best != 0.0 else math.nan)




def operating_point(metric, y_true, y_score, minimum, sample_weight=None, pos_label=None):
    """``(value, threshold)`` of the operating-point function named ``metric``."""
    if metric in ("sensitivity_at_specificity", "specificity_at_sensitivity"):
        thr, sens, spec = roc_points(y_true, y_score, sample_weight, pos_label)
        if metric == "sensitivity_at_specificity":
            return first_max(sens, spec >= minimum, thr)
        return first_max(spec, sens >= minimum, thr)
    thr, precision, recall = pr_points(y_true, y_score, sample_weight, pos_label)
    if metric == "precision_at_recall":
        return lexmax(precision, recall, recall >= minimum, thr)
    return lexmax(recall, precision, precision >= minimum, thr)
