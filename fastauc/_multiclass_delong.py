"""DeLong's variance of the multiclass AUCs: one-vs-rest (macro or weighted)
and Hand & Till's one-vs-one.

Both averages are linear combinations ``T = sum_m c_m U_m`` of two-class
U-statistics ``U_m``: the AUC of class ``a_m``'s scores in column ``col_m``
over class ``b_m``'s (ties one half).  With the classes as the K samples
(DeLong, DeLong & Clarke-Pearson 1988, section 3; Sen 1960), each row ``i``
of class ``c`` has the structural component

    Z_i = sum_{m: a_m = c} c_m V10_i^m + sum_{m: b_m = c} c_m V01_i^m,

its placements (``V10``: the share of class ``b_m`` below it, ``V01``: the
share of class ``a_m`` above it, ties one half), and

    Var(T) = sum_c s_c^2(Z) / n_c,    s_c^2 the variance (divisor n_c - 1)
                                      of Z over class c's rows.

With two classes this is DeLong's variance of the binary AUC.  A
one-vs-rest AUC is ``A_j = sum_{c != j} n_c / (n - n_j) U(j, c, j)``: class
``j``'s rows add ``c_j`` times their placement against the rest, another
class ``c``'s rows ``c_j n_c / (n - n_j)`` times theirs.  One-vs-one adds
each pair's two directed AUCs, ``U(a, b, a)`` and ``U(b, a, b)``, half its
weight each.  Either way, all of column ``a``'s comparisons (class ``a``'s
rows against each other class) come from one sort of the column and one
pass with a running weighted count below and a count of class ``a`` above
(``_kernels.sweeps.class_components``).  Two models on the same rows: the covariance is the same sum of
within-class covariances of their components.
"""

from __future__ import annotations

import math
from itertools import combinations

import numpy as np

from . import _validation as v
from ._delong import SMALL_DELONG
from ._kernels.sweeps import class_components
from ._sort import sort_by_class
from ._stats import ovo_average, ovr_average

__all__ = ["multiclass_components", "multiclass_covariance"]


class _Columns:
    """The score columns (each class's, contiguous), each sorted once with
    its rows' ``index << shift | class`` (one payload for every column), read
    by ``class_components``."""

    def __init__(self, codes, columns, k):
        self.shift = max(1, int(k - 1).bit_length())
        self.columns = columns
        self.payload = (np.arange(codes.shape[0], dtype=np.int64) << self.shift) | codes
        self.everyone = np.ones(codes.shape[0], bool)
        self.areas = np.zeros((k, k))  # areas[a, b]: twice the area of a over b, column a

    def add(self, a, alpha, beta, n_a, Z):
        """Column ``a``'s part of every row's component."""
        r = sort_by_class(self.everyone, self.columns[a], extra=self.payload, name="y_score")
        self.areas[a] = 0.0
        class_components(r.pk, r.px, self.shift, a, alpha, beta, float(n_a), Z, self.areas[a])


def _over(x, d):
    """``x / d``, 0 where ``d`` is 0 (an absent class compares with nothing)."""
    return np.divide(x, d, out=np.zeros(np.broadcast(x, d).shape), where=d > 0)


def multiclass_components(codes, columns, k, multi_class, average):
    """``(estimate, Z)``: the averaged AUC (``roc_auc_score``'s float: the
    same exact areas, averaged by the same functions) and each row's
    structural component ``Z`` (``codes``: the rows' classes, 0 to ``k - 1``;
    ``columns``: (k, n) scores, row ``j`` class ``j``'s, contiguous, every
    class present): one sort and one pass per column."""
    n = codes.shape[0]
    counts = np.bincount(codes, minlength=k).astype(np.float64)
    Z = np.zeros(n)
    cols = _Columns(np.asarray(codes, np.int64), columns, k)
    if multi_class == "ovr":
        weights = counts / n if average == "weighted" else np.full(k, 1.0 / k)
        for j in range(k):
            rest = n - counts[j]
            # U(j, b) weighs w_j n_b / (n - n_j): per comparison over n_b, and over n_j
            alpha = np.full(k, _over(weights[j], rest))
            beta = _over(weights[j] * counts, rest * counts[j])
            cols.add(j, alpha, beta, counts[j], Z)
        aucs = np.array([cols.areas[j].sum() / (2.0 * counts[j] * (n - counts[j]))
                         for j in range(k)])
        return ovr_average(aucs, counts, average), Z
    pairs = list(combinations(range(k), 2))
    prevalence = np.array([(counts[a] + counts[b]) / n for a, b in pairs])
    weights = prevalence / prevalence.sum() if average == "weighted" else \
        np.full(len(pairs), 1.0 / len(pairs))
    pair_weight = np.zeros((k, k))
    for (a, b), c in zip(pairs, weights):
        pair_weight[a, b] = pair_weight[b, a] = 0.5 * c  # U(a, b) and U(b, a): half each
    for a in range(k):
        cols.add(a, _over(pair_weight[a], counts), _over(pair_weight[a], counts[a]), counts[a],
                 Z)
    areas = {a: {b: float(cols.areas[a, b]) for b in range(k)} for a in range(k)}
    return ovo_average(areas, counts, list(range(k)), n, average), Z


def multiclass_covariance(codes, components, k):
    """The covariance matrix of several models' averaged AUCs from their
    components (a list of ``Z`` arrays): ``sum_c cov_c(Z_a, Z_b) / n_c``;
    NaN, with a warning, when a class has fewer than two rows."""
    m = len(components)
    counts = np.bincount(codes, minlength=k)
    if counts.min() < 2:
        v.warn_undefined(SMALL_DELONG, stacklevel=None)
        return np.full((m, m), math.nan)
    Zs = np.stack(components)
    cov = np.zeros((m, m))
    for c in range(k):
        block = Zs[:, codes == c]
        centred = block - block.mean(axis=1, keepdims=True)
        cov += (centred @ centred.T) / (counts[c] - 1.0) / counts[c]
    return cov
