"""Slow, obviously correct references, straight from the definitions.

Used by the tests as ground truth where scikit-learn has no counterpart, and by
the benchmarks as the baseline.  Nothing here is fast and nothing here is
clever: each function is the textbook formula over all pairs.
"""

from __future__ import annotations

import numpy as np

__all__ = ["delong_covariance", "pairwise_auc", "partial_auc_proc"]


def pairwise_auc(y_true, y_score, sample_weight=None, *, block=1 << 20):
    """AUC from its definition over all positive-negative pairs.

    ``AUC = sum_{i in pos, j in neg} w_i w_j [s_i > s_j] + 1/2 [s_i == s_j]``
    divided by ``sum_i w_i * sum_j w_j``.  O(n_pos * n_neg) time; positives are
    compared in chunks of about ``block / n_neg`` rows, so memory stays
    O(n + block).

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Binary labels; the greater of the two values is the positive class.
    y_score : array-like of shape (n_samples,)
        Scores.
    sample_weight : array-like of shape (n_samples,), default=None
        Pair ``(i, j)`` has weight ``w_i * w_j``.
    block : int, default=2**20
        About how many pairs are compared at once.

    Returns
    -------
    auc : float

    Examples
    --------
    >>> from fastauc.naive import pairwise_auc
    >>> pairwise_auc([0, 1, 0, 1], [0.5, 0.5, 0.2, 0.9])
    0.875
    """
    y = np.asarray(y_true)
    s = np.asarray(y_score, dtype=np.float64)
    w = np.ones(len(s)) if sample_weight is None else np.asarray(sample_weight, np.float64)
    classes = np.unique(y)
    if len(classes) != 2:
        raise ValueError(f"pairwise_auc needs exactly two classes, got {classes}")
    pos = y == classes[1]
    sp, wp = s[pos], w[pos]
    sn, wn = s[~pos], w[~pos]
    chunk_size = max(1, block // max(1, len(sn)))
    total = 0.0
    for start in range(0, len(sp), chunk_size):
        a = sp[start:start + chunk_size, None]
        wa = wp[start:start + chunk_size, None]
        wins = (a > sn[None, :]) + 0.5 * (a == sn[None, :])
        total += float((wa * wins * wn[None, :]).sum())
    return float(total / (wp.sum() * wn.sum()))


def delong_covariance(y_true, y_scores, sample_weight=None):
    """DeLong's AUCs and covariance from the full comparison matrix.

    For every model, ``psi[i, j] = [x_i > y_j] + 1/2 [x_i == y_j]`` over all
    positives ``i`` and negatives ``j`` (an ``m x n`` matrix).  Placement values
    are its weighted row and column means, ``V10 = psi @ v / sum(v)`` and
    ``V01 = u @ psi / sum(u)``; the covariance is
    ``S10 / sum(u) + S01 / sum(v)`` with the weighted sample covariances of the
    placements (divisors ``sum(u) - 1``, ``sum(v) - 1``).  Unit weights are
    DeLong et al. (1988) exactly.  O(m * n) memory: small data only.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Binary labels; the greater label is positive.
    y_scores : array-like of shape (n_samples,) or (n_samples, k)
    sample_weight : array-like of shape (n_samples,), default=None

    Returns
    -------
    aucs : ndarray of shape (k,)
    cov : ndarray of shape (k, k)

    Examples
    --------
    >>> from fastauc.naive import delong_covariance
    >>> aucs, cov = delong_covariance([0, 1, 0, 1], [0.5, 0.5, 0.2, 0.9])
    >>> aucs, cov
    (array([0.875]), array([[0.03125]]))
    """
    y = np.asarray(y_true)
    S = np.asarray(y_scores, dtype=np.float64)
    if S.ndim == 1:
        S = S[:, None]
    w = np.ones(len(y)) if sample_weight is None else np.asarray(sample_weight, np.float64)
    pos = y == np.unique(y)[-1]
    u, vw = w[pos], w[~pos]
    U, V = u.sum(), vw.sum()
    k = S.shape[1]
    v10 = np.empty((pos.sum(), k))
    v01 = np.empty(((~pos).sum(), k))
    for m in range(k):
        x, z = S[pos, m], S[~pos, m]
        psi = (x[:, None] > z[None, :]) + 0.5 * (x[:, None] == z[None, :])
        v10[:, m] = psi @ vw / V
        v01[:, m] = u @ psi / U
    aucs = u @ v10 / U
    d10 = v10 - aucs
    d01 = v01 - aucs
    s10 = (d10 * u[:, None]).T @ d10 / (U - 1)
    s01 = (d01 * vw[:, None]).T @ d01 / (V - 1)
    return aucs, s10 / U + s01 / V


def partial_auc_proc(sp, se, lower, upper):
    """pROC's partial area, step by step as its documentation describes.

    ``sp``/``se`` are every ROC point sorted by increasing specificity (ties
    by decreasing sensitivity).  The trapezoids of the points inside
    ``[lower, upper]`` (on the ``sp`` axis) are summed, and at each end that
    is not a point the curve is interpolated linearly between the last point
    outside and the first inside.  For the sensitivity focus pass the points
    reversed with the axes swapped.  Small data only (plain Python loops).

    Examples
    --------
    >>> partial_auc_proc([0.0, 0.5, 1.0], [1.0, 1.0, 0.0], 0.5, 1.0)
    0.25
    """
    x = [float(a) for a in sp]
    y = [float(b) for b in se]
    inside = [i for i in range(len(x)) if lower <= x[i] <= upper]
    area = 0.0
    for i, j in zip(inside[:-1], inside[1:]):
        area += (x[j] - x[i]) * (y[i] + y[j]) / 2.0

    def interpolate(at, i_lo, i_hi):
        t = (at - x[i_lo]) / (x[i_hi] - x[i_lo])
        return y[i_lo] + t * (y[i_hi] - y[i_lo])

    if not inside:  # the whole range lies between two points
        hi = next(i for i in range(len(x)) if x[i] >= upper)
        lo = hi - 1
        return (upper - lower) * (interpolate(upper, lo, hi) + interpolate(lower, lo, hi)) / 2.0
    if x[inside[-1]] != upper:  # interpolate to the upper end
        out = next(i for i in range(len(x)) if x[i] >= upper)
        last = out - 1
        area += (upper - x[last]) * (y[last] + interpolate(upper, last, out)) / 2.0
    if x[inside[0]] != lower:  # and to the lower end
        first = next(i for i in range(len(x)) if x[i] > lower)
        before = first - 1
        area += (x[first] - lower) * (y[first] + interpolate(lower, before, first)) / 2.0
    return area
