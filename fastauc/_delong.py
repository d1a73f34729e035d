"""DeLong's covariance of several AUCs on the same rows, and the paired test.

The computational core of :mod:`fastauc.delong`, shared with ``report``.
One model's variance comes from the placement moments of the sweep that
gives its AUC; several models need each row's placement in each model, from
each model's sorted layout (``_resample._layout``), and one pass over the rows
for the covariance (DeLong, DeLong & Clarke-Pearson 1988; Sun & Xu 2014).
"""

from __future__ import annotations

import math

import numpy as np

from . import _validation as v
from ._kernels.placements import placement_covariance
from ._resample import _layout, placements
from ._results import DeLongTestResult
from ._stats import delong_variance, difference_interval, pvalue, ratio
from ._table import sorted_tallies

__all__ = ["SMALL_DELONG", "class_weights", "delong_many", "delong_one", "delong_setup",
           "paired_test"]


SMALL_DELONG = ("DeLong's variance needs a total weight above one in each class; "
                 "the covariance is NaN.")


def delong_one(is_pos, s, w):
    """AUC and variance of one model from the moments of one sweep."""
    t = sorted_tallies(is_pos, s, w, curve=False, moments=True)
    auc = t.area2 / (2.0 * t.total_pos * t.total_neg)
    var = delong_variance(t.stats)
    if math.isnan(var):
        v.warn_undefined(SMALL_DELONG)
    return auc, var


def delong_many(is_pos, S, w, layouts=None):
    """AUCs and DeLong covariance of the columns of ``S`` (placements per row).

    ``layouts`` (one ``_resample._Layout`` per column, with its weights in
    layout order) saves the sort when the caller has sorted the columns
    already.
    """
    n, k = S.shape
    X = np.empty((k, n))
    aucs = np.empty(k)
    for m in range(k):
        if layouts is None:
            lay = _layout(is_pos, np.ascontiguousarray(S[:, m]), name="y_scores")
            wl = w[lay.rows] if w.shape[0] else w
        else:
            lay, wl = layouts[m]
        aucs[m] = placements(lay, wl, lay.rows, X[m])
    s10, s01, w10, w01 = placement_covariance(X, is_pos, w, aucs)
    if w10 <= 1.0 or w01 <= 1.0:
        v.warn_undefined(SMALL_DELONG)
        return aucs, np.full((k, k), np.nan)
    return aucs, s10 / (w10 - 1.0) / w10 + s01 / (w01 - 1.0) / w01


def delong_setup(y_true, y_scores, sample_weight, name):
    S = v.score_matrix(y_scores, v.n_rows(y_true), name)[1]
    is_pos, _, w = v.binary_rows(y_true, sample_weight, frequency=True, **{name: S})
    return is_pos, S, w


def class_weights(is_pos, w):
    if w.shape[0]:
        return float(w[is_pos].sum()), float(w[~is_pos].sum())
    n_pos = int(np.count_nonzero(is_pos))
    return float(n_pos), float(is_pos.shape[0] - n_pos)


def paired_test(aucs, cov, a, b, level, alternative) -> DeLongTestResult:
    """DeLong's z test of ``aucs[a] - aucs[b]`` from their covariance matrix."""
    d = float(aucs[a] - aucs[b])
    var = float(cov[a, a] + cov[b, b] - 2.0 * cov[a, b])
    se = math.sqrt(max(var, 0.0)) if not math.isnan(var) else math.nan
    z = 0.0 if d == 0.0 and se == 0.0 else ratio(d, se)
    low, high = difference_interval(d, se, level, alternative)
    return DeLongTestResult(z, pvalue(z, alternative), d, low, high, se, float(aucs[a]),
                            float(aucs[b]), alternative, level)
