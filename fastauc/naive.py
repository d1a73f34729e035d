"""Slow, obviously correct references, straight from the definitions.

Used by the tests as ground truth where scikit-learn has no counterpart (the
registry of comparisons in ``tests/registry.py`` names one reference for every
public function), and by the benchmarks as the baseline.  Nothing here is fast
and nothing here is clever: each function is the textbook formula, looped over
all pairs or all thresholds, in plain numpy and Python.  Conventions, as in
fastauc and scikit-learn: the greater of two labels is positive, a row is
predicted positive at threshold ``t`` when ``score >= t``, ties count one half,
``sample_weight`` multiplies each row's contribution, and a ratio whose
denominator is zero is 0 (``zero_division=0``).
"""

from __future__ import annotations

import math
from statistics import NormalDist

import numpy as np

__all__ = [
    "article_loss",
    "average_precision",
    "best_threshold",
    "binormal_fit",
    "by_group",
    "clustered_auc_variance",
    "confusion_at_thresholds",
    "coords",
    "delong_covariance",
    "delong_interval",
    "delong_test",
    "gains_table",
    "jackknife_auc",
    "lift_at",
    "log_loss",
    "multiclass_auc_covariance",
    "pairwise_auc",
    "pairwise_loss",
    "partial_auc",
    "partial_auc_proc",
    "poisson_bootstrap_counts",
    "roc_convex_hull",
    "roc_power_two",
    "smooth_roc",
    "smooth_roc_density",
    "threshold_metrics",
    "pav",
    "brier_decomposition",
    "top_positives",
    "venkatraman_statistic",
    "venkatraman_permutations",
    "cv_auc_ci",
    "cv_roc_curve",
    "expected_roc_auc",
    "subgroup_aucs",
    "auc_over_time",
]


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
    DeLong et al. (1988) exactly.  The covariance is NaN when a class weighs
    1 or less (its divisor would not be positive).  O(m * n) memory: small
    data only.

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
    if U <= 1 or V <= 1:  # no variance to estimate from a class of weight <= 1
        return aucs, np.full((k, k), np.nan)
    s10 = (d10 * u[:, None]).T @ d10 / (U - 1)
    s01 = (d01 * vw[:, None]).T @ d01 / (V - 1)
    return aucs, s10 / U + s01 / V


def clustered_auc_variance(y_true, y_scores, cluster, sample_weight=None):
    """Obuchowski's (1997) AUCs and covariance for clustered rows, from the definitions.

    Cluster ``c`` holds ``m_c`` positives and ``n_c`` negatives (weights:
    their sums).  With ``psi`` the comparison of every positive with every
    negative (ties one half), a positive's structural component is
    ``V10(x) = sum_y w_y psi(x, y) / N`` and a negative's
    ``V01(y) = sum_x w_x psi(x, y) / M``; the cluster sums are
    ``V10_c = sum_{x in c} w_x V10(x)`` and ``V01_c = sum_{y in c} w_y V01(y)``.
    With ``I10``, ``I01`` the numbers of clusters holding positives and
    negatives and ``I`` the clusters holding rows::

        S10[a, b] = I10 / ((I10 - 1) M) sum_c (V10_c^a - m_c A_a)(V10_c^b - m_c A_b)
        S01[a, b] = I01 / ((I01 - 1) N) sum_c (V01_c^a - n_c A_a)(V01_c^b - n_c A_b)
        S11[a, b] = I / (I - 1) sum_c (V10_c^a - m_c A_a)(V01_c^b - n_c A_b)
        cov[a, b] = S10 / M + S01 / N + (S11[a, b] + S11[b, a]) / (M N)

    One row per cluster gives :func:`delong_covariance`.  NaN when fewer
    than two clusters hold each class.  One Python loop per cluster: small
    data only.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
    y_scores : array-like of shape (n_samples,) or (n_samples, k)
    cluster : array-like of shape (n_samples,)
        Any hashable cluster ids.
    sample_weight : array-like of shape (n_samples,), default=None

    Returns
    -------
    aucs : ndarray of shape (k,)
    cov : ndarray of shape (k, k)

    Examples
    --------
    >>> from fastauc.naive import clustered_auc_variance
    >>> aucs, cov = clustered_auc_variance([0, 1, 0, 1], [0.5, 0.5, 0.2, 0.9],
    ...                                    ["a", "b", "c", "d"])
    >>> aucs, cov
    (array([0.875]), array([[0.03125]]))
    """
    y = np.asarray(y_true)
    S = np.asarray(y_scores, dtype=np.float64)
    if S.ndim == 1:
        S = S[:, None]
    w = np.ones(len(y)) if sample_weight is None else np.asarray(sample_weight, np.float64)
    ids = list(cluster)
    pos = y == np.unique(y)[-1]
    M, N = w[pos].sum(), w[~pos].sum()
    k = S.shape[1]
    aucs = np.empty(k)
    V = np.empty((k, len(y)))  # each row's structural component for its class
    for a in range(k):
        x, z = S[pos, a], S[~pos, a]
        psi = (x[:, None] > z[None, :]) + 0.5 * (x[:, None] == z[None, :])
        V[a, pos] = psi @ w[~pos] / N
        V[a, ~pos] = w[pos] @ psi / M
        aucs[a] = w[pos] @ V[a, pos] / M
    d10, d01 = {}, {}
    i10 = i01 = i_all = 0
    for c in dict.fromkeys(ids):
        rows = np.array([i for i, cid in enumerate(ids) if cid == c])
        p_rows, n_rows = rows[pos[rows]], rows[~pos[rows]]
        m_c, n_c = w[p_rows].sum(), w[n_rows].sum()
        i10 += m_c > 0
        i01 += n_c > 0
        i_all += (m_c + n_c) > 0
        d10[c] = np.array([w[p_rows] @ V[a, p_rows] - m_c * aucs[a] for a in range(k)])
        d01[c] = np.array([w[n_rows] @ V[a, n_rows] - n_c * aucs[a] for a in range(k)])
    if i10 <= 1 or i01 <= 1:
        return aucs, np.full((k, k), np.nan)
    s10 = sum(np.outer(d10[c], d10[c]) for c in d10) * i10 / ((i10 - 1) * M)
    s01 = sum(np.outer(d01[c], d01[c]) for c in d01) * i01 / ((i01 - 1) * N)
    s11 = sum(np.outer(d10[c], d01[c]) for c in d10) * i_all / (i_all - 1)
    return aucs, s10 / M + s01 / N + (s11 + s11.T) / (M * N)


def multiclass_auc_covariance(y_true, models, multi_class, average="macro", labels=None):
    """Multiclass AUCs (one-vs-rest or Hand & Till's one-vs-one, macro or
    weighted) of several models and their covariance, from the definitions.

    Each average is written as ``sum_m c_m U_m`` over two-class comparisons:
    ``U_m`` compares every row of class ``a_m`` with every row of class
    ``b_m`` on score column ``a_m`` (``psi = [x > z] + 1/2 [x == z]``, an
    ``n_a x n_b`` matrix).  One-vs-rest: class ``j``'s AUC is
    ``sum_{c != j} n_c / (n - n_j) U(j, c)``, averaged equally or by
    prevalence; one-vs-one: each pair of classes scores ``(U(a, b) +
    U(b, a)) / 2``, averaged equally or by the pair's prevalence
    ``(n_a + n_b) / n``.  A row's structural component ``Z`` adds
    ``c_m`` times its row mean of ``psi`` (class ``a_m``) or its column mean
    (class ``b_m``); with the classes as the samples,
    ``cov[a, b] = sum_c cov_c(Z_a, Z_b) / n_c`` (divisors ``n_c - 1``).  Two
    classes give :func:`delong_covariance`.  NaN when a class has fewer than
    two rows.  O(n^2) memory: small data only.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
    models : sequence of array-likes of shape (n_samples, n_classes)
    multi_class : {"ovr", "ovo"}
    average : {"macro", "weighted"}, default="macro"
    labels : array-like of shape (n_classes,), default=None

    Returns
    -------
    aucs : ndarray of shape (n_models,)
    cov : ndarray of shape (n_models, n_models)

    Examples
    --------
    >>> from fastauc.naive import multiclass_auc_covariance
    >>> P = [[0.6, 0.3, 0.1], [0.2, 0.5, 0.3], [0.1, 0.2, 0.7], [0.5, 0.4, 0.1],
    ...      [0.3, 0.4, 0.3], [0.2, 0.3, 0.5]]
    >>> aucs, cov = multiclass_auc_covariance([0, 1, 2, 0, 1, 2], [P], "ovo")
    >>> round(float(aucs[0]), 4)
    1.0
    """
    y = np.asarray(y_true)
    classes = np.unique(y) if labels is None else np.asarray(labels)
    codes = np.searchsorted(classes, y)
    k, n = classes.shape[0], y.shape[0]
    counts = np.array([np.sum(codes == c) for c in range(k)], np.float64)
    terms = []  # (a, b, coefficient): U(a, b) on column a
    if multi_class == "ovr":
        for j in range(k):
            wj = counts[j] / n if average == "weighted" else 1.0 / k
            terms += [(j, c, wj * counts[c] / (n - counts[j])) for c in range(k) if c != j]
    else:
        pairs = [(a, b) for a in range(k) for b in range(a + 1, k)]
        prev = np.array([(counts[a] + counts[b]) / n for a, b in pairs])
        pw = prev / prev.sum() if average == "weighted" else np.full(len(pairs), 1 / len(pairs))
        for (a, b), c in zip(pairs, pw):
            terms += [(a, b, c / 2), (b, a, c / 2)]
    aucs, Zs = [], []
    for S in models:
        S = np.asarray(S, np.float64)
        Z, est = np.zeros(n), 0.0
        for a, b, c in terms:
            ra, rb = np.flatnonzero(codes == a), np.flatnonzero(codes == b)
            x, z = S[ra, a][:, None], S[rb, a][None, :]
            psi = (x > z) + 0.5 * (x == z)
            est += c * psi.mean()
            Z[ra] += c * psi.mean(axis=1)
            Z[rb] += c * psi.mean(axis=0)
        aucs.append(est)
        Zs.append(Z)
    m = len(models)
    if counts.min() < 2:
        return np.array(aucs), np.full((m, m), np.nan)
    cov = np.zeros((m, m))
    for c in range(k):
        rows = codes == c
        for i in range(m):
            for j in range(m):
                zi, zj = Zs[i][rows], Zs[j][rows]
                cov[i, j] += np.sum((zi - zi.mean()) * (zj - zj.mean())) / (counts[c] - 1) \
                    / counts[c]
    return np.array(aucs), cov


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


# ---------------------------------------------------------------- shared helpers

def _rows(y_true, y_score, sample_weight):
    """Positives (the greater label), float scores and weights (ones by default)."""
    y = np.asarray(y_true)
    s = np.asarray(y_score, dtype=np.float64)
    w = np.ones(len(s)) if sample_weight is None else np.asarray(sample_weight, np.float64)
    classes = np.unique(y)
    pos = y == classes[-1] if len(classes) == 2 else y == 1
    return pos, s, w


def _ratio(a, b):
    """``a / b``, or 0 when ``b`` is 0 (scikit-learn's ``zero_division=0``)."""
    return a / b if b != 0 else 0.0


def _norm_sf(z):
    """Upper tail of the standard normal, ``P(Z > z) = erfc(z / sqrt 2) / 2``."""
    return 0.5 * math.erfc(z / math.sqrt(2.0))


# ---------------------------------------------------------------- thresholds

def confusion_at_thresholds(y_true, y_score, sample_weight=None):
    """The weighted confusion matrix at every distinct threshold, by counting.

    The thresholds are the distinct scores of the rows with positive weight,
    highest first (``-0.0`` and ``0.0`` are one threshold, written ``0.0``).
    At threshold ``t`` a row is predicted positive when its score is
    ``>= t``; ``tp(t)`` and ``fp(t)`` add up the weights of the positives and
    negatives so predicted.  Each threshold is a separate pass over all rows:
    O(n * n_thresholds).

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Binary labels; the greater label is positive (a single label: 1 is).
    y_score : array-like of shape (n_samples,)
    sample_weight : array-like of shape (n_samples,), default=None

    Returns
    -------
    thresholds, tp, fp : ndarray of shape (n_thresholds,)
    total_pos, total_neg : float
        The class weights.

    Examples
    --------
    >>> from fastauc.naive import confusion_at_thresholds
    >>> thr, tp, fp, p, n = confusion_at_thresholds([0, 1, 0, 1], [0.5, 0.5, 0.2, 0.9])
    >>> thr, tp, fp, p, n
    (array([0.9, 0.5, 0.2]), array([1., 2., 2.]), array([0., 1., 2.]), 2.0, 2.0)
    """
    pos, s, w = _rows(y_true, y_score, sample_weight)
    thresholds = np.unique(s[w > 0])[::-1] + 0.0
    tp = np.array([w[pos & (s >= t)].sum() for t in thresholds])
    fp = np.array([w[~pos & (s >= t)].sum() for t in thresholds])
    return thresholds, tp, fp, float(w[pos].sum()), float(w[~pos].sum())


def _metrics_at(tp, fp, total_pos, total_neg, beta=1.0):
    """Every confusion-matrix metric at one threshold (textbook formulas)."""
    tn, fn = total_neg - fp, total_pos - tp
    total = total_pos + total_neg
    precision = _ratio(tp, tp + fp)
    recall = _ratio(tp, total_pos)
    specificity = _ratio(tn, total_neg)
    b2 = beta * beta
    margins = (tp + fp) * (tp + fn) * (tn + fp) * (tn + fn)
    return {
        "tp": tp, "fp": fp, "tn": tn, "fn": fn,
        "tpr": recall, "fpr": _ratio(fp, total_neg), "tnr": specificity,
        "fnr": _ratio(fn, total_pos),
        "precision": precision, "npv": _ratio(tn, tn + fn),
        "accuracy": _ratio(tp + tn, total),
        "error_rate": 1.0 - _ratio(tp + tn, total),
        "f1": _ratio(2 * tp, 2 * tp + fp + fn),
        "fbeta": _ratio((1 + b2) * tp, (1 + b2) * tp + b2 * fn + fp),
        "mcc": _ratio(tp * tn - fp * fn, math.sqrt(margins)) if margins > 0 else 0.0,
        "youden": recall + specificity - 1.0,
        "lift": _ratio(precision, _ratio(total_pos, total)),
        "predicted_positive_rate": _ratio(tp + fp, total),
        "closest_topleft": -((1.0 - recall) ** 2 + _ratio(fp, total_neg) ** 2),
    }


def threshold_metrics(y_true, y_score, sample_weight=None, *, beta=1.0):
    """Confusion-matrix metrics at every distinct threshold, one threshold at a time.

    From :func:`confusion_at_thresholds`: ``tpr = tp / P``, ``fpr = fp / N``,
    ``precision = tp / (tp + fp)``, ``npv = tn / (tn + fn)``,
    ``f1 = 2 tp / (2 tp + fp + fn)``,
    ``mcc = (tp tn - fp fn) / sqrt((tp+fp)(tp+fn)(tn+fp)(tn+fn))`` (0 when a
    margin is empty), Youden's ``J = tpr + tnr - 1``, ``lift = precision /
    (P / (P + N))``; any ratio with a zero denominator is 0.

    Parameters
    ----------
    y_true, y_score, sample_weight
        As in :func:`confusion_at_thresholds`.
    beta : float, default=1.0
        For the ``"fbeta"`` entry.

    Returns
    -------
    dict of str to ndarray
        ``threshold`` and one array per metric (``tp``, ``fp``, ``tn``,
        ``fn``, ``tpr``, ``fpr``, ``tnr``, ``fnr``, ``precision``, ``npv``,
        ``accuracy``, ``error_rate``, ``f1``, ``fbeta``, ``mcc``, ``youden``,
        ``lift``, ``predicted_positive_rate``, ``closest_topleft`` (minus
        the squared distance to the corner (0, 1))).

    Examples
    --------
    >>> from fastauc.naive import threshold_metrics
    >>> m = threshold_metrics([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    >>> m["threshold"], m["f1"]
    (array([0.8 , 0.4 , 0.35, 0.1 ]), array([0.66666667, 0.5       , 0.8       , 0.66666667]))
    """
    thresholds, tp, fp, total_pos, total_neg = confusion_at_thresholds(
        y_true, y_score, sample_weight)
    rows = [_metrics_at(a, b, total_pos, total_neg, beta) for a, b in zip(tp, fp)]
    out = {"threshold": thresholds}
    for key in _metrics_at(0.0, 0.0, 1.0, 1.0):
        out[key] = np.array([r[key] for r in rows], dtype=np.float64)
    return out


def best_threshold(y_true, y_score, metric="f1", sample_weight=None, *, beta=1.0,
                   cost_fp=None, cost_fn=None, rtol=1e-12):
    """The first (highest) threshold whose metric is within ``rtol`` of the best.

    Every threshold of :func:`threshold_metrics` is tried.  ``"cost"`` is
    ``cost_fp * FP + cost_fn * FN`` and ``"closest_topleft"`` the squared
    distance to (0, 1), both minimised (the value returned is that cost or
    distance).  Values within ``rtol * max(1, |best|)`` of the best count as
    equally good: two thresholds that tie in exact arithmetic may differ in
    the last bit after different roundings, and the highest one is returned.

    Parameters
    ----------
    y_true, y_score, sample_weight
        As in :func:`confusion_at_thresholds`.
    metric : {"f1", "fbeta", "mcc", "youden", "accuracy", "closest_topleft", "cost"}
    beta : float, default=1.0
    cost_fp, cost_fn : float, optional
        For ``"cost"``.
    rtol : float, default=1e-12

    Returns
    -------
    threshold, value : float

    Examples
    --------
    >>> from fastauc.naive import best_threshold
    >>> t, value = best_threshold([0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.2, 0.7], "youden")
    >>> t, round(value, 6)
    (0.7, 0.666667)
    """
    m = threshold_metrics(y_true, y_score, sample_weight, beta=beta)
    if metric == "cost":
        values = -(cost_fp * m["fp"] + cost_fn * m["fn"])
    else:
        values = m[metric]
    best = float(np.max(values))
    first = int(np.flatnonzero(values >= best - rtol * max(1.0, abs(best)))[0])
    value = float(values[first])
    if metric in ("cost", "closest_topleft"):
        value = -value
    return float(m["threshold"][first]), value


# ---------------------------------------------------------------- lift and gains

def top_positives(y_true, y_score, sample_weight, x):
    """Positive weight among the top ``x`` weight, tied groups split in proportion.

    Rows are taken in decreasing score, one tied group at a time; the group
    that the cut at ``x`` falls into contributes the fraction of its weight
    that is inside, times its positive weight (the average over the orders of
    its rows).

    Parameters
    ----------
    y_true, y_score : array-like of shape (n_samples,)
    sample_weight : array-like of shape (n_samples,) or None
    x : float
        Total weight taken from the top.

    Returns
    -------
    float

    Examples
    --------
    >>> from fastauc.naive import top_positives
    >>> top_positives([1, 0, 1, 0], [0.9, 0.5, 0.5, 0.1], None, 2.0)
    1.5
    """
    pos, s, w = _rows(y_true, y_score, sample_weight)
    total_in, pos_in = 0.0, 0.0
    for t in np.unique(s)[::-1]:
        grp = s == t
        gw, gp = w[grp].sum(), w[grp & pos].sum()
        if gw == 0:
            continue
        take = min(gw, x - total_in)
        if take <= 0:
            break
        pos_in += gp * take / gw
        total_in += take
    return float(pos_in)


def lift_at(y_true, y_score, k, sample_weight=None):
    """Lift in the top fraction ``k``: the positive rate there over the overall rate.

    ``top_positives(k * W) / (k * W) / (P / W)`` with ``W`` the total weight
    and ``P`` the positive weight (see :func:`top_positives` for ties).

    Examples
    --------
    >>> from fastauc.naive import lift_at
    >>> lift_at([1, 0, 1, 0, 0, 0, 0, 0, 0, 0], [9, 8, 7, 6, 5, 4, 3, 2, 1, 0], 0.2)
    2.5
    """
    pos, _, w = _rows(y_true, y_score, sample_weight)
    total, total_pos = w.sum(), w[pos].sum()
    if total_pos <= 0:
        raise ValueError("no positive rows: lift is not defined")
    top = k * total
    return float(top_positives(y_true, y_score, sample_weight, top) / top
                 / (total_pos / total))


def gains_table(y_true, y_score, n_bins=10, sample_weight=None):
    """Gains and lift by ``n_bins`` bins of equal weight, highest scores first.

    Bin ``b`` holds the weight between ``(b - 1) W / n_bins`` and
    ``b W / n_bins`` from the top; its positives come from
    :func:`top_positives` at both edges (ties split in proportion).

    Returns
    -------
    dict of str to ndarray
        ``bin`` (1..n_bins), ``count``, ``positives``, ``rate``,
        ``cumulative_gain``, ``lift``, ``cumulative_lift`` and the scalar
        ``base_rate``.

    Examples
    --------
    >>> from fastauc.naive import gains_table
    >>> g = gains_table([1, 0, 1, 0, 0, 0, 0, 0, 0, 1], list(range(10, 0, -1)), n_bins=5)
    >>> g["positives"]
    array([1., 1., 0., 0., 1.])
    >>> g["cumulative_gain"]
    array([0.33333333, 0.66666667, 0.66666667, 0.66666667, 1.        ])
    """
    pos, _, w = _rows(y_true, y_score, sample_weight)
    total, total_pos = w.sum(), w[pos].sum()
    if total_pos <= 0:
        raise ValueError("no positive rows: gains are not defined")
    edges = [total * b / n_bins for b in range(n_bins + 1)]
    cum = np.array([top_positives(y_true, y_score, sample_weight, e) for e in edges])
    count = np.diff(edges)
    positives = np.diff(cum)
    base = total_pos / total
    rate = positives / count
    return {"bin": np.arange(1, n_bins + 1), "count": count, "positives": positives,
            "rate": rate, "cumulative_gain": cum[1:] / total_pos, "lift": rate / base,
            "cumulative_lift": cum[1:] / np.array(edges[1:]) / base, "base_rate": base}


# ---------------------------------------------------------------- ROC hull and partial area

def roc_convex_hull(y_true, y_score, sample_weight=None):
    """The upper convex hull of the ROC points and the area under it, by gift wrapping.

    The ROC points are (0, 0) and ``(fp / N, tp / P)`` at every threshold of
    :func:`confusion_at_thresholds`, in that order (left to right, bottom to
    top).  From (0, 0), the next vertex is the later point seen at the
    steepest angle (a vertical step is the steepest; of collinear points the
    farthest), until (1, 1): Jarvis's march, O(n * vertices).  Angles are
    compared on the weights ``(fp, tp)`` (exact for counts).

    Returns
    -------
    dict
        ``fpr``, ``tpr``, ``thresholds`` (``inf`` for (0, 0)) of the vertices
        from left to right, and ``auc`` (trapezoids between them).

    Examples
    --------
    >>> from fastauc.naive import roc_convex_hull
    >>> hull = roc_convex_hull([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    >>> hull["fpr"], hull["tpr"], hull["auc"]
    (array([0. , 0. , 0.5, 1. ]), array([0. , 0.5, 1. , 1. ]), 0.875)
    """
    thr, tp, fp, total_pos, total_neg = confusion_at_thresholds(y_true, y_score, sample_weight)
    if total_pos <= 0 or total_neg <= 0:
        raise ValueError("the ROC convex hull needs both classes (with positive weight)")
    x = np.concatenate(([0.0], fp / total_neg))
    y = np.concatenate(([0.0], tp / total_pos))
    t = np.concatenate(([np.inf], thr))
    # angles compared on the weights, not the rounded rates (the same turns:
    # dividing by N and P scales every cross product by 1 / (N P))
    u = np.concatenate(([0.0], fp))
    z = np.concatenate(([0.0], tp))
    keep = [0]
    while keep[-1] != len(x) - 1:
        c = keep[-1]
        best = c + 1
        for q in range(c + 2, len(x)):
            # q is seen from c at least as steeply as best (cross product >= 0)
            cross = (u[best] - u[c]) * (z[q] - z[c]) - (z[best] - z[c]) * (u[q] - u[c])
            if cross >= 0:
                best = q
        keep.append(best)
    hx, hy = x[keep], y[keep]
    area = sum((hx[j + 1] - hx[j]) * (hy[j + 1] + hy[j]) / 2.0 for j in range(len(keep) - 1))
    return {"fpr": hx, "tpr": hy, "thresholds": t[keep], "auc": float(area)}


def partial_auc(y_true, y_score, *, fpr_range=None, tpr_range=None, correct=False,
                sample_weight=None):
    """Partial area under the ROC curve by pROC's procedure (:func:`partial_auc_proc`).

    The ROC points are (0, 0) and ``(fp / N, tp / P)`` at every threshold of
    :func:`confusion_at_thresholds`.  ``fpr_range=(a, b)`` is pROC's focus on
    specificity over ``[1 - b, 1 - a]``; ``tpr_range=(a, b)`` its focus on
    sensitivity (specificity against sensitivity); neither is the full area.
    ``correct=True`` applies McClish's standardisation
    ``(1 + (A - chance) / (width - chance)) / 2``, where ``chance`` is the
    diagonal's area over the range.

    Examples
    --------
    >>> from fastauc.naive import partial_auc
    >>> y, s = [0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.2, 0.7]
    >>> round(partial_auc(y, s, fpr_range=(0, 0.5)), 6)
    0.388889
    >>> round(partial_auc(y, s, tpr_range=(0.9, 1.0), correct=True), 6)
    0.824561
    """
    _, tp, fp, total_pos, total_neg = confusion_at_thresholds(y_true, y_score, sample_weight)
    fpr = np.concatenate(([0.0], fp / total_neg))
    tpr = np.concatenate(([0.0], tp / total_pos))
    sp, se = 1.0 - fpr[::-1], tpr[::-1]  # pROC's order: specificity up, sensitivity down
    if tpr_range is not None:
        a, b = sorted(tpr_range)
        area = partial_auc_proc(se[::-1], sp[::-1], a, b)
        chance = (b - a) - (b * b - a * a) / 2.0
    else:
        a, b = (0.0, 1.0) if fpr_range is None else sorted(fpr_range)
        area = partial_auc_proc(sp, se, 1.0 - b, 1.0 - a)
        chance = (b * b - a * a) / 2.0
    if not correct:
        return float(area)
    return float((1.0 + (area - chance) / ((b - a) - chance)) / 2.0)


# ---------------------------------------------------------------- AP, log loss

def average_precision(y_true, y_score, sample_weight=None):
    """Average precision: ``sum_t (R(t) - R(t_prev)) P(t)`` over the thresholds, highest first.

    ``R(t) = tp(t) / P`` and ``P(t) = tp(t) / (tp(t) + fp(t))`` from
    :func:`confusion_at_thresholds`; no positives gives 0 and no negatives 1.

    Examples
    --------
    >>> from fastauc.naive import average_precision
    >>> round(average_precision([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8]), 6)
    0.833333
    """
    _, tp, fp, total_pos, _ = confusion_at_thresholds(y_true, y_score, sample_weight)
    if total_pos <= 0:
        return 0.0
    ap, previous = 0.0, 0.0
    for a, b in zip(tp, fp):
        ap += (a / total_pos - previous) * _ratio(a, a + b)
        previous = a / total_pos
    return float(ap)


def log_loss(y_true, y_prob, sample_weight=None):
    """Binary cross-entropy ``-sum w (y log p + (1 - y) log(1 - p)) / sum w``.

    ``p`` is clipped to ``[eps, 1 - eps]`` (float64's machine epsilon), as
    scikit-learn does.

    Examples
    --------
    >>> from fastauc.naive import log_loss
    >>> round(log_loss([0, 1, 1], [0.2, 0.7, 0.9]), 6)
    0.228393
    """
    pos, p, w = _rows(y_true, y_prob, sample_weight)
    eps = np.finfo(np.float64).eps
    p = np.clip(p, eps, 1.0 - eps)
    losses = [-math.log(pi) if yi else -math.log(1.0 - pi) for yi, pi in zip(pos, p)]
    return float(sum(wi * li for wi, li in zip(w, losses)) / w.sum())


# ---------------------------------------------------------------- DeLong, jackknife, groups

def delong_interval(y_true, y_score, sample_weight=None, confidence_level=0.95):
    """The AUC with DeLong's Wald interval ``auc ± z se``, clipped to [0, 1].

    ``se`` is the square root of :func:`delong_covariance`; it (and the
    interval) is NaN when a class weighs one or less (no variance to estimate).
    ``z`` is the normal quantile at ``(1 + confidence_level) / 2``.

    Returns
    -------
    estimate, low, high, se : float

    Examples
    --------
    >>> from fastauc.naive import delong_interval
    >>> [round(x, 4) for x in delong_interval([0, 1, 0, 1, 0, 1], [1, 2, 3, 4, 5, 6])]
    [0.6667, 0.1332, 1.0, 0.2722]
    """
    aucs, cov = delong_covariance(y_true, y_score, sample_weight)
    est = float(aucs[0])
    if math.isnan(cov[0, 0]):
        return est, math.nan, math.nan, math.nan
    se = math.sqrt(max(float(cov[0, 0]), 0.0))
    z = NormalDist().inv_cdf(0.5 + 0.5 * confidence_level)
    return est, max(0.0, est - z * se), min(1.0, est + z * se), se


def delong_test(y_true, y_score_a, y_score_b, sample_weight=None, *,
                alternative="two-sided", confidence_level=0.95):
    """DeLong's paired z test of two AUCs on the same rows.

    ``d = auc_a - auc_b``, ``var = c_aa + c_bb - 2 c_ab`` from
    :func:`delong_covariance`, ``z = d / sqrt(var)`` (0 when both are 0),
    the normal p-value for ``alternative``, and the Wald interval of ``d``
    clipped to [-1, 1] (one-sided for a one-sided alternative).

    Returns
    -------
    dict
        ``difference``, ``se``, ``statistic``, ``pvalue``, ``low``, ``high``.

    Examples
    --------
    >>> from fastauc.naive import delong_test
    >>> res = delong_test([0, 1, 0, 1, 0, 1], [1, 2, 3, 4, 5, 6], [1, 2, 3, 4, 6, 5])
    >>> round(res["difference"], 4), round(res["pvalue"], 4)
    (0.1111, 0.4795)
    """
    scores = np.column_stack((np.asarray(y_score_a, float), np.asarray(y_score_b, float)))
    aucs, cov = delong_covariance(y_true, scores, sample_weight)
    d = float(aucs[0] - aucs[1])
    var = float(cov[0, 0] + cov[1, 1] - 2.0 * cov[0, 1])
    if math.isnan(var):  # a class weighs 1 or less: no variance, no test
        return dict.fromkeys(("se", "statistic", "pvalue", "low", "high"), math.nan) | {
            "difference": d}
    se = math.sqrt(max(var, 0.0))
    if se > 0:
        z = d / se
    else:
        z = 0.0 if d == 0 else math.copysign(math.inf, d)
    p = {"greater": _norm_sf(z), "less": _norm_sf(-z),
         "two-sided": min(1.0, 2.0 * _norm_sf(abs(z)))}[alternative]
    if alternative == "two-sided":
        q = NormalDist().inv_cdf(0.5 + 0.5 * confidence_level)
        low, high = max(-1.0, d - q * se), min(1.0, d + q * se)
    else:
        q = NormalDist().inv_cdf(confidence_level)
        low, high = ((max(-1.0, d - q * se), 1.0) if alternative == "greater"
                     else (-1.0, min(1.0, d + q * se)))
    return {"difference": d, "se": se, "statistic": z, "pvalue": p, "low": low, "high": high}


_U64 = (1 << 64) - 1


def _splitmix_mix(z):
    """SplitMix64's output function (Steele, Lea & Flood 2014), on Python ints."""
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _U64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _U64
    return z ^ (z >> 31)


def poisson_bootstrap_counts(seed, replicate, n_rows, start=0):
    """The Poisson-bootstrap counts of rows ``start .. start + n_rows - 1`` in one
    replicate, from the definition (``bootstrap_ci(..., scheme="poisson")``).

    ``key = mix(seed ^ mix((replicate + 1) * G))`` and row ``i`` gets ``u =
    mix(key + (i + 1) * G)`` (all modulo 2**64, ``G = 0x9E3779B97F4A7C15``,
    ``mix`` SplitMix64's finaliser); its count is the number of ``k`` with
    ``floor(2**64 * P(X <= k)) <= u`` for ``X ~ Poisson(1)``, computed here
    with exact rationals for the partial sums of ``e**-1 = sum (-1)**j / j!``.
    ``seed`` is the 64-bit integer that ``random_state`` maps to.

    Examples
    --------
    >>> from fastauc.naive import poisson_bootstrap_counts
    >>> poisson_bootstrap_counts(12345, 0, 8)
    array([1, 2, 1, 0, 1, 0, 4, 1])
    """
    from fractions import Fraction

    golden = 0x9E3779B97F4A7C15
    # e**-1 to far beyond 2**-64: the alternating series' error is below its next term
    e_inv = sum(Fraction((-1) ** j, math.factorial(j)) for j in range(40))
    thresholds = []
    cdf, term = Fraction(0), e_inv
    for k in range(64):
        cdf += term
        t = math.floor(cdf * (1 << 64))
        if t >= _U64 or (thresholds and t == thresholds[-1]):
            break
        thresholds.append(t)
        term /= k + 1
    key = _splitmix_mix(int(seed) ^ _splitmix_mix(((replicate + 1) * golden) & _U64))
    out = np.empty(n_rows, np.int64)
    for j in range(n_rows):
        u = _splitmix_mix((key + (start + j + 1) * golden) & _U64)
        out[j] = sum(u >= t for t in thresholds)
    return out


def jackknife_auc(y_true, y_score, sample_weight=None):
    """Leave-one-out AUCs: ``pairwise_auc`` without row ``i``, for every row.

    Examples
    --------
    >>> from fastauc.naive import jackknife_auc
    >>> jackknife_auc([0, 1, 0, 1], [0.5, 0.5, 0.2, 0.9])
    array([1.  , 1.  , 0.75, 0.75])
    """
    y = np.asarray(y_true)
    s = np.asarray(y_score, np.float64)
    w = None if sample_weight is None else np.asarray(sample_weight, np.float64)
    out = np.empty(len(y))
    for i in range(len(y)):
        keep = np.arange(len(y)) != i
        out[i] = pairwise_auc(y[keep], s[keep], None if w is None else w[keep])
    return out


def by_group(y_true, y_score, groups, sample_weight=None, confidence_level=0.95):
    """Each group's AUC, DeLong interval, AP and log loss: a loop over the groups.

    For every distinct group label (sorted), the group's rows go through
    :func:`pairwise_auc`, :func:`delong_interval`, :func:`average_precision`
    and (when every score of all rows is in [0, 1]) :func:`log_loss`.  The
    positive class is the greater label over all rows.  A group with one
    class (by weight) has a NaN AUC and interval; one whose rows all weigh
    zero is NaN throughout.

    Returns
    -------
    dict of str to ndarray
        ``group``, ``auc``, ``auc_low``, ``auc_high``, ``auc_se``,
        ``average_precision`` and, for probabilities, ``log_loss``.

    Examples
    --------
    >>> from fastauc.naive import by_group
    >>> res = by_group([0, 1, 0, 1, 0, 1, 1, 0], [0.1, 0.8, 0.3, 0.6, 0.7, 0.9, 0.4, 0.2],
    ...                ["a", "a", "a", "a", "b", "b", "b", "b"])
    >>> res["auc"], res["average_precision"]
    (array([1.  , 0.75]), array([1.        , 0.83333333]))
    """
    pos, s, w = _rows(y_true, y_score, sample_weight)
    g = np.asarray(groups)
    probabilities = bool(len(s)) and s.min() >= 0.0 and s.max() <= 1.0
    keys = ("auc", "auc_low", "auc_high", "auc_se", "average_precision") + (
        ("log_loss",) if probabilities else ())
    out = {key: [] for key in keys}
    labels = np.unique(g)
    for label in labels:
        m = g == label
        yj, sj, wj = pos[m].astype(np.int64), s[m], w[m]
        row = dict.fromkeys(keys, math.nan)
        if wj.sum() > 0:
            row["average_precision"] = average_precision(yj, sj, wj)
            if probabilities:
                row["log_loss"] = log_loss(yj, sj, wj)
            if wj[yj == 1].sum() > 0 and wj[yj == 0].sum() > 0:
                row["auc"] = pairwise_auc(yj, sj, wj)
                _, low, high, se = delong_interval(yj, sj, wj, confidence_level)
                row.update(auc_low=low, auc_high=high, auc_se=se)
        for key in keys:
            out[key].append(row[key])
    res = {"group": labels}
    res.update({key: np.array(val, dtype=np.float64) for key, val in out.items()})
    return res


# ---------------------------------------------------------------- training losses

def article_loss(y_true, y_prob, sample_weight=None, groups=None):
    """The all-pairs linear loss as the article writes it, with outer products.

    ``L = 0.5 + sum_{i, j} w_i w_j (y_i - y_j) (p_j - p_i) / sum_{i, j} w_i w_j``
    over all ``N**2`` ordered pairs ``(i, j)`` (of one group, with ``groups``):
    the mean over all ordered pairs, plus one half.  O(n**2) memory.

    Examples
    --------
    >>> from fastauc.naive import article_loss
    >>> article_loss([0, 1, 0, 1], [0.2, 0.9, 0.4, 0.6])
    0.275
    """
    pos, p, w = _rows(y_true, y_prob, sample_weight)
    y = pos.astype(np.float64)
    g = np.zeros(len(y)) if groups is None else np.asarray(groups)
    pair_w = np.outer(w, w) * (g[:, None] == g[None, :])
    return float(0.5 + (pair_w * (y[:, None] - y[None, :]) * (p[None, :] - p[:, None])).sum()
                 / pair_w.sum())


def _pair_terms(loss, d, margin):
    """Loss, first and second derivative in ``d`` of each pair (arrays like
    ``d``).  The hinge losses count a pair when ``d < margin`` (strictly)."""
    if loss == "linear":
        return -d, -np.ones_like(d), np.zeros_like(d)
    gap = margin - d
    if loss == "square":
        return gap ** 2, -2.0 * gap, np.full_like(d, 2.0)
    active = d < margin
    if loss == "squared_hinge":
        return np.where(active, gap ** 2, 0.0), np.where(active, -2.0 * gap, 0.0), \
            np.where(active, 2.0, 0.0)
    if loss == "hinge":
        return np.where(active, gap, 0.0), np.where(active, -1.0, 0.0), np.zeros_like(d)
    raise ValueError(f"unknown loss {loss!r}")


def _aum_group(s, pos, w, rates):
    """AUM of one group and each row's gradient (the mean of the two one-sided
    derivatives), by counting the rows on each side of every threshold."""
    wp, wn = w[pos].sum(), w[~pos].sum()
    cp, cn = (1.0 / wp, 1.0 / wn) if rates else (1.0, 1.0)
    u = np.unique(s)
    area = 0.0
    for k in range(len(u) - 1):  # thresholds t in (u[k], u[k + 1])
        fp = w[~pos & (s >= u[k + 1])].sum() * cn
        fn = w[pos & (s <= u[k])].sum() * cp
        area += (u[k + 1] - u[k]) * min(fp, fn)
    grad = np.zeros(len(s))
    for r in range(len(s)):
        neg_r = 0.0 if pos[r] else w[r] * cn
        pos_r = w[r] * cp if pos[r] else 0.0
        fp_above = w[~pos & (s > s[r])].sum() * cn
        fn_above = w[pos & (s <= s[r])].sum() * cp
        fp_below = w[~pos & (s >= s[r])].sum() * cn
        fn_below = w[pos & (s < s[r])].sum() * cp
        right = min(fp_above + neg_r, fn_above - pos_r) - min(fp_above, fn_above)
        left = min(fp_below, fn_below) - min(fp_below - neg_r, fn_below + pos_r)
        grad[r] = (right + left) / 2.0
    return area, grad


def pairwise_loss(y_true, y_score, *, loss="squared_hinge", margin=1.0, sample_weight=None,
                  groups=None, normalize=True):
    """An all-pairs loss, its gradient and its Hessian's diagonal, pair by pair.

    Each group's positive-negative pairs ``(i, j)`` with ``d = s_i - s_j``
    and weight ``w_i w_j`` are laid out as matrices: the value is
    ``sum w_i w_j loss(d)``, row ``i``'s gradient ``w_i sum_j w_j loss'(d)``
    and row ``j``'s ``-w_j sum_i w_i loss'(d)`` (the Hessian likewise with
    ``loss''``), all divided by the total pair weight (``normalize=True``),
    by ``sum_g W_g**2 / 2`` (``"all_pairs"``, the mean over ordered pairs;
    for ``"linear"`` plus one half, as :func:`article_loss`) or by 1.  For
    ``"aum"``, each group's area under ``min(FP, FN)`` (rates with
    ``normalize=True``, then the groups' mean weighted by their pair
    weights) is integrated gap by gap between distinct scores.

    Returns
    -------
    value, gradient, hessian : float, ndarray, ndarray

    Examples
    --------
    >>> from fastauc.naive import pairwise_loss
    >>> value, grad, hess = pairwise_loss([0, 1, 0, 1], [0.2, 0.9, 0.4, 0.6], loss="hinge")
    >>> value, grad
    (0.55, array([ 0.5, -0.5,  0.5, -0.5]))
    """
    pos, s, w = _rows(y_true, y_score, sample_weight)
    g = np.zeros(len(s), np.int64) if groups is None else np.unique(groups,
                                                                    return_inverse=True)[1]
    value = 0.0
    grad = np.zeros(len(s))
    hess = np.zeros(len(s))
    pair_total = 0.0
    square_total = 0.0
    for label in np.unique(g):
        rows = np.flatnonzero(g == label)
        p, n = rows[pos[rows]], rows[~pos[rows]]
        pair_w = np.outer(w[p], w[n])
        pair_total += pair_w.sum()
        square_total += w[rows].sum() ** 2
        if pair_w.sum() == 0:
            continue
        if loss == "aum":
            area, dg = _aum_group(s[rows], pos[rows], w[rows], normalize is True)
            scale = pair_w.sum() if normalize is True else 1.0
            value += scale * area
            grad[rows] += scale * dg
            continue
        f, df, d2f = _pair_terms(loss, s[p][:, None] - s[n][None, :], margin)
        value += (pair_w * f).sum()
        grad[p] += (pair_w * df).sum(axis=1)
        grad[n] -= (pair_w * df).sum(axis=0)
        hess[p] += (pair_w * d2f).sum(axis=1)
        hess[n] += (pair_w * d2f).sum(axis=0)
    if normalize == "all_pairs":
        z = square_total / 2.0
    elif normalize is True:
        z = pair_total
    else:
        z = 1.0
    if z == 0:
        z = 1.0
    value, grad, hess = value / z, grad / z, hess / z
    if loss == "linear" and normalize == "all_pairs":
        value += 0.5
    return float(value), grad, hess


def operating_point(y_true, y_score, rule, minimum, sample_weight=None):
    """torchmetrics' operating point by a loop over the distinct thresholds.

    ``rule`` is ``"sensitivity_at_specificity"``, ``"specificity_at_sensitivity"``
    (candidates: a start point at threshold 1.0 with nothing predicted
    positive, then every distinct score; the first, i.e. highest, threshold
    of greatest value with the constraint met, else ``(0.0, 1e6)``),
    ``"precision_at_recall"`` or ``"recall_at_precision"`` (candidates: the
    distinct scores; the greatest (value, other rate, threshold) with the
    constraint met; threshold NaN when the value is 0 or nothing qualifies).
    A rate of an absent class is 0 (sensitivity, specificity) or 1 (recall).

    Parameters
    ----------
    y_true, y_score, sample_weight
        As in :func:`confusion_at_thresholds`.
    rule : str
        The operating point, named as its fastauc function.
    minimum : float
        The floor on the constrained rate.

    Returns
    -------
    value, threshold : float

    Examples
    --------
    >>> from fastauc.naive import operating_point
    >>> operating_point([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8], "precision_at_recall", 1.0)
    (0.6666666666666666, 0.35)
    """
    thresholds, tp, fp, total_pos, total_neg = confusion_at_thresholds(y_true, y_score,
                                                                       sample_weight)
    best = None
    if rule in ("sensitivity_at_specificity", "specificity_at_sensitivity"):
        points = [(1.0 if not len(thresholds) or thresholds[0] <= 1 else math.inf, 0.0, 0.0)]
        points += list(zip(thresholds, tp, fp))
        for t, tp_t, fp_t in points:
            sens = tp_t / total_pos if total_pos > 0 else 0.0
            spec = 1.0 - (fp_t / total_neg if total_neg > 0 else 0.0)
            value, other = (sens, spec) if rule == "sensitivity_at_specificity" else (spec, sens)
            if other >= minimum and (best is None or value > best[0]):
                best = (value, float(t))
        return best if best is not None else (0.0, 1e6)
    for t, tp_t, fp_t in zip(thresholds, tp, fp):
        precision = tp_t / (tp_t + fp_t)
        recall = tp_t / total_pos if total_pos > 0 else 1.0
        key = (precision, recall) if rule == "precision_at_recall" else (recall, precision)
        if key[1] >= minimum and (best is None or (*key, t) > best):
            best = (*key, float(t))
    if best is None or best[0] == 0.0:
        return (0.0 if best is None else float(best[0]), math.nan)
    return float(best[0]), best[2]


# ---------------------------------------------------------------- isotonic recalibration (CORP)

def pav(x, y, sample_weight=None):
    """Weighted isotonic (non-decreasing) regression of ``y`` on ``x`` from the
    min-max formula: ties of ``x`` pooled first (one value per distinct
    ``x``, zero-weight values left out), then the fit at the ``i``-th
    distinct value is ``max over a <= i of min over b >= i`` of the weighted
    mean of ``y`` over distinct values ``a..b`` (Barlow et al. 1972).
    Returns ``(distinct x increasing, fitted value at each)``."""
    x = np.asarray(x, np.float64)
    y = np.asarray(y, np.float64)
    w = np.ones(len(x)) if sample_weight is None else np.asarray(sample_weight, np.float64)
    keep = w > 0
    x, y, w = x[keep], y[keep], w[keep]
    xs = np.unique(x)
    sw = np.array([w[x == v].sum() for v in xs])
    swy = np.array([(w * y)[x == v].sum() for v in xs])
    m = len(xs)
    fit = np.empty(m)
    for i in range(m):
        fit[i] = max(min(swy[a: b + 1].sum() / sw[a: b + 1].sum() for b in range(i, m))
                     for a in range(i + 1))
    return xs, fit


def brier_decomposition(y_true, y_prob, sample_weight=None):
    """CORP's split of the Brier score (Dimitriadis, Gneiting and Jordan 2021),
    row by row: ``S`` the weighted mean of ``(y - q)^2``, ``r`` the isotonic
    fit of the outcomes on ``y_prob`` (:func:`pav`), ``c`` the weighted base
    rate; ``(S(p), S(p) - S(r), S(c) - S(r), S(c))``. The positive label is 1
    for labels within {-1, 0, 1}, else the greater one."""
    y = np.asarray(y_true)
    positive = 1 if set(np.unique(y).tolist()) <= {-1, 0, 1} else y.max()
    is_pos = (y == positive).astype(np.float64)
    p = np.asarray(y_prob, np.float64)
    w = np.ones(len(p)) if sample_weight is None else np.asarray(sample_weight, np.float64)
    xs, fit = pav(p, is_pos, w)
    keep = w > 0
    r = np.zeros(len(p))
    r[keep] = fit[np.searchsorted(xs, p[keep])]
    base = np.sum(w * is_pos) / np.sum(w)

    def score(q):
        return float(np.sum(w * (is_pos - q) ** 2) / np.sum(w))

    s, s_r, s_c = score(p), score(r), score(np.full(len(p), base))
    return {"brier": s, "miscalibration": s - s_r, "discrimination": s_c - s_r,
            "uncertainty": s_c}


def coords(y_true, y_score, x="all", input="threshold", ret=("threshold", "specificity",
                                                            "sensitivity"),
           sample_weight=None, r=1.0):
    """pROC's ``coords`` by its definitions, one point at a time.

    The curve's points are the midpoints between consecutive distinct scores
    (rows of zero weight left out), from ``-inf`` to ``+inf``; at each, the
    weighted positives and negatives with ``score >= threshold`` are counted.
    A rate given as ``x`` is looked up in pROC's order (thresholds
    increasing): an exact value takes the first point for a coordinate that
    grows along that order and the last otherwise; between points, the
    sensitivity and specificity are interpolated linearly.  ``r`` is pROC's
    ``best.weights`` ratio.  ``x="best"`` gives the points of greatest
    ``se + r sp``.

    Parameters
    ----------
    y_true, y_score, sample_weight
        Labels (1 positive), scores, weights.
    x : "all", "best" or sequence of float
    input : str
        pROC's canonical name of a monotone coordinate.
    ret : sequence of str
        pROC's canonical names (plus "f1" and "mcc").
    r : float

    Returns
    -------
    dict of str to list of float

    Examples
    --------
    >>> from fastauc.naive import coords
    >>> coords([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8], [0.5], input="specificity")["threshold"]
    [0.225]
    """
    y = np.asarray(y_true) == 1
    s = np.asarray(y_score, np.float64)
    w = np.ones(len(s)) if sample_weight is None else np.asarray(sample_weight, np.float64)
    y, s, w = y[w != 0], s[w != 0], w[w != 0]
    P = float(sum(w[i] for i in range(len(s)) if y[i]))
    N = float(sum(w[i] for i in range(len(s)) if not y[i]))
    u = sorted(set(s.tolist()))
    thresholds = [-math.inf]
    for a, b in zip(u[:-1], u[1:]):
        t = (a + b) / 2
        if abs(t) > 1e100:
            t = a / 2 + b / 2
        thresholds.append(b if t == a else t)
    thresholds.append(math.inf)

    def se_sp(t):
        tp = sum(w[i] for i in range(len(s)) if y[i] and s[i] >= t)
        fp = sum(w[i] for i in range(len(s)) if not y[i] and s[i] >= t)
        return tp / P, (N - fp) / N

    points = [(t,) + se_sp(t) for t in thresholds]

    def value(name, se, sp):
        tp, tn = se * P, sp * N
        fn, fp = P - tp, N - tn
        return {"sensitivity": se, "specificity": sp, "tpr": se, "recall": se, "tnr": sp,
                "tn": tn, "tp": tp, "fn": fn, "fp": fp, "fpr": 1 - sp, "1-specificity": 1 - sp,
                "fnr": fn / (tp + fn), "1-sensitivity": 1 - se}[name]

    grows = {"sensitivity": False, "tpr": False, "recall": False, "tp": False, "fp": False,
             "fpr": False, "1-specificity": False}  # along thresholds increasing
    rows = []
    if isinstance(x, str) and x == "all":
        rows = points
    elif isinstance(x, str):
        crit = [se + r * sp for _, se, sp in points]
        rows = [p for p, c in zip(points, crit) if c == max(crit)]
    elif input == "threshold":
        rows = [(t,) + se_sp(t) for t in x]
    else:
        iv = [value(input, se, sp) for _, se, sp in points]
        up = grows.get(input, True)
        for val in x:
            hits = [i for i, a in enumerate(iv) if a == val]
            if hits:
                i = hits[0] if up else hits[-1]
                rows.append(points[i])
                continue
            j = next(i for i, a in enumerate(iv) if (a > val if up else a < val))
            prop = (val - iv[j]) / (iv[j - 1] - iv[j])
            rows.append((math.nan, points[j][1] + prop * (points[j - 1][1] - points[j][1]),
                         points[j][2] + prop * (points[j - 1][2] - points[j][2])))
    out = {name: [] for name in ret}
    for t, se, sp in rows:
        tp, tn = se * P, sp * N
        fn, fp = P - tp, N - tn

        def div(a, b):
            return a / b if b != 0 else (math.nan if a == 0 else math.copysign(math.inf, a))

        acc = (tp + tn) / (P + N)
        npv, ppv = div(tn, tn + fn), div(tp, tp + fp)
        mcc_den = (tp + fp) * (tp + fn) * (tn + fp) * (tn + fn)
        vals = {"threshold": t, "specificity": sp, "sensitivity": se, "accuracy": acc,
                "tn": tn, "tp": tp, "fn": fn, "fp": fp, "npv": npv, "ppv": ppv,
                "fdr": div(fp, tp + fp), "fpr": 1 - sp, "tpr": se, "tnr": sp,
                "fnr": div(fn, tp + fn), "1-specificity": 1 - sp, "1-sensitivity": 1 - se,
                "1-accuracy": 1 - acc, "1-npv": 1 - npv, "1-ppv": 1 - ppv, "precision": ppv,
                "recall": se, "lr_pos": div(se, 1 - sp), "lr_neg": div(1 - se, sp),
                "youden": se + r * sp, "closest.topleft": (1 - se) ** 2 + r * (1 - sp) ** 2,
                "f1": 2 * tp / (2 * tp + fp + fn) if tp > 0 else 0.0,
                "mcc": (tp * tn - fp * fn) / math.sqrt(mcc_den) if mcc_den > 0 else 0.0}
        for name in ret:
            out[name].append(vals[name])
    return out


# ------------------------------------------------ Venkatraman's tests, cvAUC's interval


def _rank_first(x):
    """R's ``rank(x, ties.method="first")``: one plus the values below plus
    the equal values in earlier rows."""
    x = np.asarray(x, dtype=np.float64)
    return np.array([1 + np.sum(x < x[i]) + np.sum(x[:i] == x[i]) for i in range(len(x))])


def _approx(xs, ys, v):
    """R's ``approx(xs, ys, v, rule=1)`` at one point (``xs`` increasing):
    NaN outside, found by bisection, linear in between."""
    i, j = 0, len(xs) - 1
    if v < xs[i] or v > xs[j]:
        return math.nan
    while i < j - 1:
        ij = (i + j) // 2
        if v < xs[ij]:
            j = ij
        else:
            i = ij
    if v == xs[j]:
        return ys[j]
    if v == xs[i]:
        return ys[i]
    return ys[i] + (ys[j] - ys[i]) * ((v - xs[i]) / (xs[j] - xs[i]))


def _venkatraman_paired(r, s, pos):
    """Sum over ``x = 1..n`` of ``|(FN_s + FP_s)(x) - (FN_r + FP_r)(x)|``."""
    n = len(pos)
    total = 0
    for x in range(1, n + 1):
        err_r = np.sum(r[pos] <= x) + np.sum(r[~pos] > x)
        err_s = np.sum(s[pos] <= x) + np.sum(s[~pos] > x)
        total += abs(int(err_s) - int(err_r))
    return float(total)


def _venkatraman_unpaired(r, s, pos_r, pos_s, mp):
    def curve(rank, pos):
        xs = np.arange(1, len(rank) + 1)
        f = np.array([np.sum(rank[pos] <= x) for x in xs]) / np.sum(pos)
        g = np.array([np.sum(rank[~pos] <= x) for x in xs]) / np.sum(~pos)
        return mp * f + (1 - mp) * g, mp * f + (1 - mp) * (1 - g)

    pr, er = curve(r, pos_r)
    ps, es = curve(s, pos_s)
    x = np.sort(np.concatenate((pr, ps)))
    y = np.array([abs(_approx(pr, er, v) - _approx(ps, es, v)) for v in x])
    terms = (y[1:] + y[:-1]) * (x[1:] - x[:-1]) / 2
    return float(np.sum(terms[~np.isnan(terms)]))


def _venkatraman_input(y_true, y_score_a, y_score_b, y_true_b):
    y = np.asarray(y_true)
    pos_a = y == np.max(y)
    a = np.asarray(y_score_a, dtype=np.float64)
    b = np.asarray(y_score_b, dtype=np.float64)
    if y_true_b is None:
        return pos_a, pos_a, a, b
    yb = np.asarray(y_true_b)
    return pos_a, yb == np.max(yb), a, b


def _mixing(pos_a, pos_b):
    return (np.sum(pos_a) + np.sum(pos_b)) / (len(pos_a) + len(pos_b))


def venkatraman_statistic(y_true, y_score_a, y_score_b, *, y_true_b=None):
    """Venkatraman's statistic comparing two ROC curves, from its definition.

    Paired (``y_true_b`` None: both scores on the same rows; Venkatraman and
    Begg 1996): with ``R`` and ``S`` the ranks of the two scores (ties by row
    order) and, at each cut ``x = 1..n``, ``FN(x)`` the positives ranked at
    or below ``x`` and ``FP(x)`` the negatives ranked above it, the sum over
    ``x`` of ``|FN_S + FP_S - FN_R - FP_R|``.

    Unpaired (Venkatraman 2000): each sample's ranks give, at each cut, the
    fractions ``F`` of positives and ``G`` of negatives at or below it; with
    the mixing proportion ``mp`` (positives over rows, both samples), the
    error ``mp F + (1 - mp)(1 - G)`` as a function of the mixture quantile
    ``mp F + (1 - mp) G``; the statistic is the area between the two such
    curves, by the trapezoid rule on the union of their points (R's
    ``approx``, segments outside either curve's range left out).

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Binary labels of sample a (and of b when paired); the greater label
        is positive.
    y_score_a, y_score_b : array-like
        The two models' scores.
    y_true_b : array-like or None
        Labels of sample b (unpaired).

    Returns
    -------
    float
    """
    pos_a, pos_b, a, b = _venkatraman_input(y_true, y_score_a, y_score_b, y_true_b)
    r, s = _rank_first(a), _rank_first(b)
    if y_true_b is None:
        return _venkatraman_paired(r, s, pos_a)
    return _venkatraman_unpaired(r, s, pos_a, pos_b, _mixing(pos_a, pos_b))


def venkatraman_permutations(y_true, y_score_a, y_score_b, *, y_true_b=None,
                             n_permutations=200, rng=None):
    """The statistics of ``n_permutations`` permutations, drawn as pROC's R
    code draws them (uniform jitter of the ranks, then exchange within rows
    (paired) or a shuffle within each class of the pooled samples
    (unpaired)), with numpy's generator ``rng``."""
    rng = np.random.default_rng(rng)
    pos_a, pos_b, a, b = _venkatraman_input(y_true, y_score_a, y_score_b, y_true_b)
    r, s = _rank_first(a), _rank_first(b)
    out = np.empty(n_permutations)
    for t in range(n_permutations):
        r2 = r + rng.random(len(r)) - 0.5
        s2 = s + rng.random(len(s)) - 0.5
        if y_true_b is None:
            q = rng.random(len(r)) < 0.5
            r3 = np.where(q, r2, s)
            s3 = np.where(q, s2, r)
            out[t] = _venkatraman_paired(_rank_first(r3), _rank_first(s3), pos_a)
        else:
            for cls in (False, True):
                pool = rng.permutation(np.concatenate((r2[pos_a == cls], s2[pos_b == cls])))
                k = np.sum(pos_a == cls)
                r2[pos_a == cls], s2[pos_b == cls] = pool[:k], pool[k:]
            out[t] = _venkatraman_unpaired(_rank_first(r2), _rank_first(s2), pos_a, pos_b,
                                           _mixing(pos_a, pos_b))
    return out


def cv_auc_ci(y_true, y_score, folds, *, confidence_level=0.95, sample_weight=None, ids=None):
    """Cross-validated AUC and its influence-curve interval (LeDell, Petersen
    and van der Laan 2015; the R package cvAUC), from the definitions.

    Each fold's AUC over its pairs (ties one half); the estimate is their
    mean.  A row's influence value (the paper's (4.1), as cvAUC computes it)
    is ``(fraction of the fold's negatives scoring strictly below it - AUC_v)
    / p1`` for a positive and ``(fraction of the fold's positives scoring
    strictly above it - AUC_v) / p0`` for a negative, ``p1``, ``p0`` the
    class proportions of all rows.  ``sigma^2`` is the mean over folds of
    each fold's mean squared influence value; ``se = sqrt(sigma^2 / n)``.
    With ``ids`` (pooled repeated measures), a unit's influence value is the
    sum of its rows' over the mean rows per unit, and ``n`` is the number of
    units.  Weights are frequencies: a row of weight ``k`` counts ``k``
    times.  The interval is ``estimate -+ z se``, cut to [0, 1].

    Returns
    -------
    dict
        ``estimate``, ``se``, ``low``, ``high``, ``fold_aucs``.
    """
    y = np.asarray(y_true)
    pos = y == np.max(y)
    s = np.asarray(y_score, dtype=np.float64)
    f = np.asarray(folds)
    w = np.ones(len(y)) if sample_weight is None else np.asarray(sample_weight, np.float64)
    n = w.sum()
    w1, w0 = n / w[pos].sum(), n / w[~pos].sum()
    if ids is not None:
        ids = np.asarray(ids)
        units = [u for u in np.unique(ids) if w[ids == u].sum() > 0]
        taubar = n / len(units)
    aucs, sig = [], []
    for fold in np.unique(f):
        m = (f == fold) & (w > 0)
        if not m.any():
            continue
        fp, fs, fw = pos[m], s[m], w[m]
        tp, tn = fw[fp].sum(), fw[~fp].sum()
        if tp == 0 or tn == 0:
            raise ValueError(f"fold {fold!r} has one class only")
        auc = 0.0
        for i in np.flatnonzero(fp):
            for j in np.flatnonzero(~fp):
                auc += fw[i] * fw[j] * (1.0 if fs[i] > fs[j] else 0.5 if fs[i] == fs[j] else 0)
        auc /= tp * tn
        ic = np.empty(len(fs))
        for i in range(len(fs)):
            if fp[i]:
                ic[i] = w1 * (fw[~fp][fs[~fp] < fs[i]].sum() / tn - auc)
            else:
                ic[i] = w0 * (fw[fp][fs[fp] > fs[i]].sum() / tp - auc)
        if ids is None:
            sig.append(np.sum(fw * ic**2) / fw.sum())
        else:
            fids = ids[m]
            per = [np.sum(fw[fids == u] * ic[fids == u]) / taubar for u in np.unique(fids)]
            sig.append(np.mean(np.square(per)))
        aucs.append(auc)
    estimate = float(np.mean(aucs))
    se = math.sqrt(np.mean(sig) / (n if ids is None else len(units)))
    z = NormalDist().inv_cdf(confidence_level + (1 - confidence_level) / 2)
    return {"estimate": estimate, "se": se, "low": max(0.0, estimate - z * se),
            "high": min(1.0, estimate + z * se), "fold_aucs": np.array(aucs)}


def cv_roc_curve(y_true, y_score, folds, *, fpr=None, sample_weight=None):
    """Cross-validated ROC curve by vertical averaging, from the definitions.

    Each fold's ROC points are (weight of its negatives scoring at least
    ``t``, weight of its positives scoring at least ``t``) over the class
    weights, for every distinct score ``t``, with (0, 0) first.  At a rate
    ``x`` the fold's true positive rate is the highest of its points at
    ``x`` when there is one, else the line between the points on either
    side.  Rows of weight zero count nowhere; a fold of no weight is left
    out; a fold of one class raises.  The curve is the folds' mean at each
    rate, with their standard deviation (divisor ``k - 1``).

    Returns
    -------
    dict
        ``fpr``, ``tpr``, ``std``, ``fold_tpr``, ``fold_aucs``, ``auc``.

    Examples
    --------
    >>> from fastauc.naive import cv_roc_curve
    >>> r = cv_roc_curve([0, 1, 0, 1, 0, 1, 1, 0], [.2, .7, .4, .3, .1, .9, .8, .6],
    ...                  [0, 0, 0, 0, 1, 1, 1, 1], fpr=[0.0, 0.5, 1.0])
    >>> r["tpr"].tolist(), r["auc"]
    ([0.75, 1.0, 1.0], 0.875)
    """
    y = np.asarray(y_true)
    pos = y == np.max(y)
    s = np.asarray(y_score, dtype=np.float64)
    f = np.asarray(folds)
    w = np.ones(len(y)) if sample_weight is None else np.asarray(sample_weight, np.float64)
    grid = np.linspace(0.0, 1.0, 101) if fpr is None else np.asarray(fpr, np.float64)
    curves, aucs = [], []
    for fold in np.unique(f):
        m = (f == fold) & (w > 0)
        if not m.any():
            continue
        fp, fs, fw = pos[m], s[m], w[m]
        tp_all, tn_all = fw[fp].sum(), fw[~fp].sum()
        if tp_all == 0 or tn_all == 0:
            raise ValueError(f"fold {fold!r} has one class only")
        points = [(0.0, 0.0)]
        for t in np.unique(fs)[::-1]:
            points.append((fw[~fp & (fs >= t)].sum() / tn_all, fw[fp & (fs >= t)].sum() / tp_all))
        row = []
        for x in grid:
            at = [b for a, b in points if a == x]
            if at:
                row.append(max(at))
                continue
            left = max((p for p in points if p[0] < x), key=lambda p: (p[0], p[1]))
            right = min((p for p in points if p[0] > x), key=lambda p: (p[0], p[1]))
            row.append(left[1] + (x - left[0]) * (right[1] - left[1]) / (right[0] - left[0]))
        curves.append(row)
        aucs.append(pairwise_auc(fp.astype(int), fs, fw))
    if len(curves) < 2:
        raise ValueError("two folds or more with weight are needed")
    fold_tpr = np.array(curves)
    return {"fpr": grid, "tpr": fold_tpr.mean(axis=0), "std": fold_tpr.std(axis=0, ddof=1),
            "fold_tpr": fold_tpr, "fold_aucs": np.array(aucs), "auc": float(np.mean(aucs))}


# ------------------------------------------- binormal smoothing and study planning

def _qnorm(p):
    return -math.inf if p == 0 else math.inf if p == 1 else NormalDist().inv_cdf(p)


def _pnorm(z):
    return 0.5 * math.erfc(-z / math.sqrt(2.0))


def binormal_fit(y_true, y_score):
    """pROC's binormal fit by its definition: at every distinct score ``t``,
    sensitivity ``P(score >= t | case)`` and specificity ``P(score < t |
    control)``; the least-squares line of ``qnorm(specificity)`` on
    ``qnorm(sensitivity)`` over the points with both strictly in (0, 1).
    Returns ``(intercept, slope)``; ValueError with fewer than two points."""
    y = np.asarray(y_true)
    s = np.asarray(y_score, dtype=float)
    pos = y == np.max(y)
    xs, zs = [], []
    for t in np.unique(s):
        se = float(np.mean(s[pos] >= t))
        sp = float(np.mean(s[~pos] < t))
        if 0 < se < 1 and 0 < sp < 1:
            xs.append(_qnorm(se))
            zs.append(_qnorm(sp))
    x, z = np.array(xs), np.array(zs)
    if len(x) < 2 or np.all(x == x[0]) or np.all(z == z[0]):
        raise ValueError("ROC curve not smoothable (not enough points).")
    slope = np.sum((x - x.mean()) * (z - z.mean())) / np.sum((x - x.mean()) ** 2)
    return float(z.mean() - slope * x.mean()), float(slope)


def smooth_roc(y_true, y_score, n=512):
    """The binormal smoothed curve: ``n`` sensitivities ``i / (n - 1)``, the
    fitted specificity at each, in increasing specificity, anchored at
    (0, 1) and (1, 0); its area ``Phi(intercept / sqrt(1 + slope^2))``."""
    intercept, slope = binormal_fit(y_true, y_score)
    se, sp = [], []
    for i in range(n):
        z = _qnorm(min(i * (1.0 / (n - 1)), 1.0))
        se.append(_pnorm(z))
        sp.append(_pnorm(intercept + slope * z))
    if sp[-1] < sp[0]:
        se, sp = se[::-1], sp[::-1]
    return {"specificities": np.array([0.0, *sp, 1.0]),
            "sensitivities": np.array([1.0, *se, 0.0]),
            "auc": _pnorm(intercept / math.sqrt(1 + slope * slope))}


def smooth_roc_density(y_true, y_score, n=512, adjust=1.0, cut=3.0):
    """The density-smoothed curve by its definition: Gaussian kernels of
    bandwidth ``adjust * 0.9 min(sd, IQR / 1.34) len^-0.2`` (all the scores)
    summed at ``n`` points from ``min - cut bw`` to ``max + cut bw``, one
    density per class; at the threshold before grid point ``i``, specificity
    the controls' mass below it and sensitivity the cases' mass from it on;
    anchored at (0, 1) and (1, 0), with the trapezoidal area."""
    y = np.asarray(y_true)
    s = np.asarray(y_score, dtype=float)
    pos = y == np.max(y)
    q75, q25 = np.percentile(s, [75, 25])
    spread = min(np.std(s, ddof=1), (q75 - q25) / 1.34) or np.std(s, ddof=1) or abs(s[0]) or 1.0
    bw = adjust * 0.9 * spread * len(s) ** -0.2
    if not (np.isfinite(bw) and bw > 0):
        raise ValueError("the bandwidth must be positive and finite")
    grid = np.linspace(s.min() - cut * bw, s.max() + cut * bw, n)
    dens = [np.array([np.sum(np.exp(-0.5 * ((g - s[grp]) / bw) ** 2)) for g in grid])
            for grp in (~pos, pos)]
    if not (np.sum(dens[0]) > 0 and np.sum(dens[1]) > 0):
        raise ValueError("a class's density is zero on the whole grid")
    sp = [float(np.sum(dens[0][:i]) / np.sum(dens[0])) for i in range(n)]
    se = [float(np.sum(dens[1][i:]) / np.sum(dens[1])) for i in range(n)]
    sp, se = np.array([0.0, *sp, 1.0]), np.array([1.0, *se, 0.0])
    return {"specificities": sp, "sensitivities": se,
            "auc": float(np.sum(np.diff(sp) * (se[1:] + se[:-1]) / 2))}


def _obuchowski_fg(a, b):
    """Derivatives of the binormal full area (Obuchowski & McClish 1997, table 1)."""
    e = math.exp(-a * a / (2 * (1 + b * b)))
    return e / math.sqrt(2 * math.pi * (1 + b * b)), \
        -e * a * b / math.sqrt(2 * math.pi * (1 + b * b) ** 3)


def roc_power_two(y_true, y_score, y_score2, *, method="delong", power=None, sig_level=0.05):
    """Power (``power=None``) or cases needed of the paired two-sided test of
    two AUCs on pilot data, by the definitions: DeLong's covariance by pair
    loops (``delong_covariance``) or the binormal fits and Pearson's
    correlations in Obuchowski & McClish's formulas 4-5, scaled by the
    pilot's number of cases; then ``n = (z_a sqrt(V0) + z_b sqrt(VA))^2 /
    delta^2`` with ``V0 = 2 (v1 - c)``, ``VA = v1 + v2 - 2 c`` (returned with
    ``delta`` too)."""
    y = np.asarray(y_true)
    pos = y == np.max(y)
    m, n = int(pos.sum()), int((~pos).sum())
    if m < 2 or n < 2:
        raise ValueError("at least two cases and two controls")
    S = np.column_stack([np.asarray(y_score, float), np.asarray(y_score2, float)])
    aucs = [pairwise_auc(y, S[:, j]) for j in range(2)]
    if method == "delong":
        C = delong_covariance(y, S)[1] * m
        v1, v2, c = C[0, 0], C[1, 1], C[0, 1]
    else:
        k = n / m
        (a1, b1), (a2, b2) = binormal_fit(y, S[:, 0]), binormal_fit(y, S[:, 1])
        rs = []
        for grp in (~pos, pos):
            X = S[grp]
            if np.std(X[:, 0]) == 0 or np.std(X[:, 1]) == 0:
                raise ValueError("constant scores")
            rs.append(float(np.corrcoef(X[:, 0], X[:, 1])[0, 1]))
        rn, ra = rs
        (f1, g1), (f2, g2) = _obuchowski_fg(a1, b1), _obuchowski_fg(a2, b2)
        v1 = f1 ** 2 * (1 + b1 ** 2 / k + a1 ** 2 / 2) + g1 ** 2 * b1 ** 2 * (1 + k) / (2 * k)
        v2 = f2 ** 2 * (1 + b2 ** 2 / k + a2 ** 2 / 2) + g2 ** 2 * b2 ** 2 * (1 + k) / (2 * k)
        c = (f1 * f2 * (ra + rn * b1 * b2 / k + ra ** 2 * a1 * a2 / 2)
             + g1 * g2 * (b1 * b2 * (rn ** 2 + k * ra ** 2) / (2 * k))
             + f1 * g2 * (ra ** 2 * a1 * b2 / 2) + f2 * g1 * (ra ** 2 * a2 * b1 / 2))
    v0, va = np.float64(2 * v1 - 2 * c), np.float64(v1 + v2 - 2 * c)
    delta = np.float64(aucs[0] - aucs[1])
    za = _qnorm(1 - sig_level / 2)
    with np.errstate(all="ignore"):
        out = {"v0": float(v0), "va": float(va), "delta": float(delta)}
        if power is None:
            zb = (np.sqrt(m * delta ** 2) - za * np.sqrt(v0)) / np.sqrt(va)
            return {"power": _pnorm(float(zb)), "n_cases": float(m), **out}
        zb = _qnorm(power)
        return {"power": power,
                "n_cases": float((za * np.sqrt(v0) + zb * np.sqrt(va)) ** 2 / delta ** 2), **out}


def expected_roc_auc(y_prob, sample_weight=None):
    """``(auc, average_precision)`` expected if the probabilities are
    calibrated, from the definition: every ordered pair of rows ``(i, j)``
    (``i == j`` included) is a positive-negative pair with weight
    ``w_i p_i w_j (1 - p_j)``, concordant when ``p_i > p_j`` and half when
    they tie; the AUC is the concordant weight over all of it.  The average
    precision is :func:`average_precision` of the doubled rows (each row a
    positive of weight ``w p`` and a negative of weight ``w (1 - p)``).

    Examples
    --------
    >>> from fastauc.naive import expected_roc_auc
    >>> auc, ap = expected_roc_auc([0.2, 0.8])
    >>> round(auc, 6)
    0.8
    """
    p = np.asarray(y_prob, dtype=np.float64)
    w = np.ones_like(p) if sample_weight is None else np.asarray(sample_weight, np.float64)
    pos, neg = w * p, w * (1.0 - p)
    concordant = 0.0
    for i in range(p.shape[0]):
        kernel = (p[i] > p) + 0.5 * (p[i] == p)
        concordant += pos[i] * float(np.dot(neg, kernel))
    auc = concordant / (pos.sum() * neg.sum())
    y = np.concatenate((np.ones(p.shape[0]), np.zeros(p.shape[0])))
    ap = average_precision(y, np.concatenate((p, p)), np.concatenate((pos, neg)))
    return float(auc), ap


def subgroup_aucs(y_true, y_score, groups, sample_weight=None):
    """Per group (sorted labels): ``(label, subgroup, bpsn, bnsp)``, each an
    ``(auc, variance)`` pair from :func:`delong_covariance` on the rows it is
    defined on (NaN where they lack a class): the group's rows; the
    positives outside the group with the group's negatives; the group's
    positives with the negatives outside it (Borkan et al. 2019).

    Examples
    --------
    >>> from fastauc.naive import subgroup_aucs
    >>> out = subgroup_aucs([0, 1, 0, 1, 0, 1], [.1, .9, .8, .7, .2, .3], ["a"] * 3 + ["b"] * 3)
    >>> out[0][0], round(out[0][1][0], 6)
    ('a', 1.0)
    """
    y = np.asarray(y_true)
    pos = y == np.max(y)
    s = np.asarray(y_score, np.float64)
    g = np.asarray(groups)
    w = None if sample_weight is None else np.asarray(sample_weight, np.float64)
    out = []
    for label in np.unique(g):
        inside = g == label
        parts = []
        for rows in (inside, (~inside & pos) | (inside & ~pos), (inside & pos) | (~inside & ~pos)):
            yy, ww = pos[rows], None if w is None else w[rows]
            wt = np.ones(yy.shape[0]) if ww is None else ww
            if wt[yy].sum() <= 0 or wt[~yy].sum() <= 0:
                parts.append((np.nan, np.nan))
                continue
            aucs, cov = delong_covariance(yy, s[rows][:, None], ww)
            parts.append((float(aucs[0]), float(cov[0, 0])))
        out.append((label.item() if hasattr(label, "item") else label, *parts))
    return out


def auc_over_time(y_true, y_score, time, freq, window_periods=1, sample_weight=None):
    """Per period of numeric ``time`` (``floor(time / freq)``, from the
    earliest period to the latest): ``(auc, variance)`` of the rows of the
    ``window_periods`` periods ending with it, from
    :func:`delong_covariance` (NaN without both classes).

    Examples
    --------
    >>> from fastauc.naive import auc_over_time
    >>> out = auc_over_time([0, 1, 0, 1, 1, 0], [.1, .9, .2, .8, .3, .7], [0, 0, 0, 1, 1, 1], 1.0)
    >>> [round(a, 4) for a, _ in out]
    [1.0, 0.5]
    """
    y = np.asarray(y_true)
    pos = y == np.max(y)
    s = np.asarray(y_score, np.float64)
    t = np.asarray(time, np.float64)
    w = None if sample_weight is None else np.asarray(sample_weight, np.float64)
    period = np.floor(t / freq).astype(np.int64)
    out = []
    for p in range(period.min(), period.max() + 1):
        rows = (period > p - window_periods) & (period <= p)
        wt = np.ones(rows.sum()) if w is None else w[rows]
        yy = pos[rows]
        if wt[yy].sum() <= 0 or wt[~yy].sum() <= 0:
            out.append((np.nan, np.nan))
            continue
        aucs, cov = delong_covariance(yy, s[rows][:, None], None if w is None else w[rows])
        out.append((float(aucs[0]), float(cov[0, 0])))
    return out
