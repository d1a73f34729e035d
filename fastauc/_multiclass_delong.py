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
class ``c``'s rows ``c_j n_c / (n - n_j)`` times theirs (each placement from
one sort of column ``j``, ``_resample.layouts``).  One-vs-one adds each
pair's two directed AUCs, ``U(a, b, a)`` and ``U(b, a, b)``, on the pair's
rows.  Two models on the same rows: the covariance is the same sum of
within-class covariances of their components.
"""

from __future__ import annotations

import math
from itertools import combinations

import numpy as np

from . import _validation as v
from ._delong import SMALL_DELONG
from ._resample import layouts

__all__ = ["multiclass_components", "multiclass_covariance"]


def _placements(is_pos, column):
    """Every row's DeLong placement in one binary problem (``V10`` for the
    positives, ``V01`` for the negatives)."""
    X = np.empty((1, is_pos.shape[0]))
    layouts(is_pos, [np.ascontiguousarray(column, dtype=np.float64)], ["y_score"],
            v.EMPTY_WEIGHT, X, keys=False, layout=False)
    return X[0]


def multiclass_components(codes, S, k, multi_class, average):
    """Each row's structural component ``Z`` of the averaged AUC (``codes``:
    the rows' classes, 0 to ``k - 1``; ``S``: (n, k) scores, column ``j``
    class ``j``'s)."""
    n = codes.shape[0]
    counts = np.bincount(codes, minlength=k).astype(np.float64)
    Z = np.zeros(n)
    if multi_class == "ovr":
        weights = counts / n if average == "weighted" else np.full(k, 1.0 / k)
        for j in range(k):
            is_pos = codes == j
            rest = n - counts[j]
            scale = np.where(is_pos, 1.0, counts[codes] / rest if rest else 0.0)
            Z += weights[j] * scale * _placements(is_pos, S[:, j])
        return Z
    pairs = list(combinations(range(k), 2))
    prevalence = np.array([(counts[a] + counts[b]) / n for a, b in pairs])
    weights = prevalence / prevalence.sum() if average == "weighted" else \
        np.full(len(pairs), 1.0 / len(pairs))
    for (a, b), c in zip(pairs, weights):
        rows = np.flatnonzero((codes == a) | (codes == b))
        sub = codes[rows]
        for top in (a, b):  # U(a, b, column a) and U(b, a, column b): half each
            Z[rows] += 0.5 * c * _placements(sub == top, S[rows, top])
    return Z


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
