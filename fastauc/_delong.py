"""DeLong's covariance of several AUCs on the same rows, and the paired test.

The computational core of :mod:`fastauc.delong`, shared with ``report``.
One model's variance comes from the placement moments of the sweep that
gives its AUC; several models need each row's placement in each model, from
each model's sorted layout (``_resample.layouts``), and one pass over the rows
for the covariance (DeLong, DeLong & Clarke-Pearson 1988; Sun & Xu 2014).
"""

from __future__ import annotations

import math

import numpy as np

from . import _validation as v
from ._kernels.placements import placement_covariance
from ._parallel import map_units, row_blocks
from ._resample import layouts
from ._results import DeLongTestResult
from ._stats import delong_variance, difference_interval, pvalue, ratio
from ._table import sorted_tallies

__all__ = ["SMALL_DELONG", "class_weights", "covariance_from_sums", "delong_many", "delong_one",
           "delong_setup", "paired_test", "placement_cov"]


SMALL_DELONG = ("DeLong's variance needs a total weight above one in each class; "
                 "the covariance is NaN.")


_EPS = float(np.finfo(np.float64).eps)

def delong_one(is_pos, s, w):
    """AUC and variance of one model from the moments of one sweep."""
    t = sorted_tallies(is_pos, s, w, curve=False, moments=True)
    auc = t.area2 / (2.0 * t.total_pos * t.total_neg)
    var = delong_variance(t.stats)
    if math.isnan(var):
        v.warn_undefined(SMALL_DELONG)
    return auc, var


def delong_many(is_pos, columns, w, names=None):
    """AUCs and DeLong covariance of several score columns (placements per row).

    ``columns`` are contiguous float64 (or float32) 1-D arrays.  Each is
    sorted once with its rows (``_sort.sort_by_class``) and one walk per
    column (``walk_rows``, through ``_resample.layouts``, which spreads the
    columns over the threads) writes every row's placement; then one pass
    over the rows gives the covariance.
    """
    k, n = len(columns), is_pos.shape[0]
    names = ["y_scores"] * k if names is None else names
    X = np.empty((k, n))
    _, aucs = layouts(is_pos, columns, names, w, X, keys=False, layout=False)
    return aucs, placement_cov(X, is_pos, w, aucs)


def placement_cov(X, is_pos, w, aucs):
    """DeLong's covariance from every row's placements ``X`` ((k, n)): the
    sums over fixed row blocks (``_parallel.row_blocks``) on the threads,
    added in block order."""
    parts = map_units(placement_covariance, [(X, is_pos, w, aucs, a, b)
                                             for a, b in row_blocks(is_pos.shape[0])])
    return covariance_from_sums(sum(p[0] for p in parts), sum(p[1] for p in parts))


def covariance_from_sums(s, ws, warn=True):
    """DeLong's k x k covariance from ``placement_covariance``'s sums (added up
    over any split of the rows): ``s`` (2, k, k) upper triangles, ``ws`` the
    class weights; NaN (with a warning) when a class weighs one or less."""
    k = s.shape[1]
    w10, w01 = ws
    if w10 <= 1.0 or w01 <= 1.0:
        if warn:
            v.warn_undefined(SMALL_DELONG, stacklevel=None)
        return np.full((k, k), np.nan)
    cov = s[0] / (w10 - 1.0) / w10 + s[1] / (w01 - 1.0) / w01
    return np.triu(cov) + np.triu(cov, 1).T


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
    if abs(var) <= 8.0 * _EPS * (abs(cov[a, a]) + abs(cov[b, b])):
        # zero up to the rounding of its terms (the models place every row
        # alike): so is a difference of two AUCs (in [0, 1]) at rounding level
        var = 0.0
        if abs(d) <= 8.0 * _EPS:
            d = 0.0
    se = math.sqrt(max(var, 0.0)) if not math.isnan(var) else math.nan
    z = 0.0 if d == 0.0 and se == 0.0 else ratio(d, se)
    low, high = difference_interval(d, se, level, alternative)
    return DeLongTestResult(z, pvalue(z, alternative), d, low, high, se, float(aucs[a]),
                            float(aucs[b]), alternative, level)
