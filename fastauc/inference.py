"""Inference for the AUC: the Mann-Whitney test, DeLong's intervals and test,
and a batched bootstrap.

Everything starts from one sort.  The rank test and the single-model DeLong
interval take the tie term and the placement moments from the same sweep
that gives ``roc_auc_score`` (``_sorted_tallies(moments=True)``).  Several
models on the same rows (DeLong's covariance, paired tests) and the bootstrap
sort each model once into a *layout* (positives then negatives, each by
decreasing score, with the distinct-score group boundaries); placement values
and resample counts are then applied to that layout in O(n).
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass, field
from typing import NamedTuple

import numpy as np

from . import _validation as v
from ._kernels.placements import layout_placements, placement_covariance
from ._kernels.ranks import u_null_cdf
from ._kernels.resampling import (
    AVERAGE_PRECISION,
    LOG_LOSS,
    PARTIAL_AUC,
    ROC_AUC,
    replicate_batch,
    replicate_value,
)
from ._kernels.sorting import radix_sort, split_by_class
from ._kernels.sweeps import sweep
from ._kernels.table import ST_MAX_TIE, ST_TIES
from ._parallel import map_chunks, num_threads
from ._stats import delong_variance, norm_ppf, norm_sf
from .ranking import _binary_target, _sorted_tallies

__all__ = [
    "BootstrapResult",
    "BootstrapTestResult",
    "ConfidenceInterval",
    "DeLongTestResult",
    "MannWhitneyResult",
    "bootstrap_ci",
    "bootstrap_test",
    "delong_covariance",
    "delong_test",
    "mann_whitney_u",
    "roc_auc_ci",
]

_ALTERNATIVES = ("two-sided", "less", "greater")
_EMPTY_KEYS = np.empty(0, np.uint64)
_ONE_CLASS = "Only one class is present in y_true. ROC AUC score is not defined in that case."


_norm_sf = norm_sf
_norm_ppf = norm_ppf


def _ratio(num: float, den: float) -> float:
    """``num / den`` with IEEE semantics for a zero denominator (as numpy)."""
    if den != 0.0:
        return num / den
    if num == 0.0 or math.isnan(num):
        return math.nan
    return math.copysign(math.inf, num)


def _pvalue(z: float, alternative: str) -> float:
    """p-value of a z statistic for H1: ``greater`` (z large), ``less``, two-sided."""
    if math.isnan(z):
        return math.nan
    if alternative == "greater":
        return _norm_sf(z)
    if alternative == "less":
        return _norm_sf(-z)
    return min(1.0, 2.0 * _norm_sf(abs(z)))


# ------------------------------------------------------------------ results

@dataclass(frozen=True)
class MannWhitneyResult:
    """Result of :func:`mann_whitney_u`."""

    statistic: float  #: U of the positive class (weighted pair count)
    pvalue: float
    auc: float  #: ``statistic / (n_pos * n_neg)``
    n_pos: float  #: number (total weight) of positives
    n_neg: float  #: number (total weight) of negatives
    method: str  #: "exact" or "asymptotic", the method used


@dataclass(frozen=True)
class ConfidenceInterval:
    """An AUC with a confidence interval (:func:`roc_auc_ci`)."""

    estimate: float
    low: float
    high: float
    se: float
    method: str
    confidence_level: float


@dataclass(frozen=True)
class DeLongTestResult:
    """Result of :func:`delong_test`, the paired test of two AUCs."""

    statistic: float  #: z
    pvalue: float
    difference: float  #: ``auc_a - auc_b``
    low: float  #: confidence interval of the difference
    high: float
    se: float  #: standard error of the difference
    auc_a: float
    auc_b: float
    alternative: str
    confidence_level: float


@dataclass(frozen=True)
class BootstrapResult:
    """Result of :func:`bootstrap_ci`."""

    estimate: float
    low: float
    high: float
    se: float  #: standard deviation of the replicates
    method: str
    confidence_level: float
    n_resamples: int
    n_dropped: int  #: replicates with one class only (``stratified=False``)
    metric: str
    replicates: np.ndarray = field(repr=False)  #: NaN where dropped


@dataclass(frozen=True)
class BootstrapTestResult:
    """Result of :func:`bootstrap_test`, the paired bootstrap comparison."""

    statistic: float  #: ``difference / se``
    pvalue: float
    difference: float  #: ``estimate_a - estimate_b``
    low: float  #: confidence interval of the difference
    high: float
    se: float  #: standard deviation of the replicate differences
    estimate_a: float
    estimate_b: float
    method: str
    alternative: str
    confidence_level: float
    n_resamples: int
    n_dropped: int
    metric: str
    replicates: np.ndarray = field(repr=False)  #: (n_resamples, 2): model a, model b


# ------------------------------------------------------------------ Mann-Whitney

def _exact_sf(k: int, n1: int, n2: int) -> float:
    """``P(U >= k)`` under H0 without ties (the exact distribution)."""
    mn = n1 * n2
    if k <= 0:
        return 1.0
    if k > mn:
        return 0.0
    if mn - k <= k - 1:  # upper tail by symmetry: P(U >= k) = P(U <= mn - k)
        return float(u_null_cdf(n1, n2, mn - k)[-1])
    return float(1.0 - u_null_cdf(n1, n2, k - 1)[-1])


def mann_whitney_u(
    y_true, y_score, *, alternative="two-sided", use_continuity=True, method="auto",
    sample_weight=None,
):
    """Mann-Whitney U test of the positive scores against the negative scores.

    The same test as ``scipy.stats.mannwhitneyu(x=scores of positives,
    y=scores of negatives)``, with its tie correction, continuity correction,
    alternatives and choice of method, in O(n log n) from one sort.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Binary labels; the greater label is the positive class.
    y_score : array-like of shape (n_samples,)
        Scores.
    alternative : {"two-sided", "less", "greater"}, default="two-sided"
        ``"greater"``: positives score stochastically greater than negatives
        (AUC > 1/2).
    use_continuity : bool, default=True
        Continuity correction of 1/2 (asymptotic method only).
    method : {"auto", "asymptotic", "exact"}, default="auto"
        ``"exact"`` uses the exact null distribution of U (no tie correction);
        ``"auto"`` uses it when one class has at most 8 rows and there are
        no ties, as scipy does.
    sample_weight : array-like of shape (n_samples,), default=None
        Frequency weights: a row of weight ``k`` counts as ``k`` rows, so
        integer weights give the test on repeated rows.  ``"exact"`` needs
        integer class totals.

    Returns
    -------
    MannWhitneyResult
        ``statistic`` (U of the positives), ``pvalue``, ``auc`` (U / (n_pos *
        n_neg)), ``n_pos``, ``n_neg`` and the ``method`` used.

    See Also
    --------
    roc_auc_ci, delong_test

    References
    ----------
    .. [1] Mann, H. B. and Whitney, D. R. (1947). On a test of whether one of two
       random variables is stochastically larger than the other. Annals of
       Mathematical Statistics 18, 50-60.
    .. [2] Hanley, J. A. and McNeil, B. J. (1982). The meaning and use of the area
       under a ROC curve. Radiology 143, 29-36 (U / (m n) is the AUC).

    Examples
    --------
    >>> from fastauc import mann_whitney_u
    >>> res = mann_whitney_u([1, 1, 1, 1, 1, 0, 0, 0, 0],
    ...                      [19, 22, 16, 29, 24, 20, 11, 17, 12])
    >>> res.statistic, round(res.pvalue, 6), res.auc
    (17.0, 0.111111, 0.85)
    """
    v.check_choice(alternative, "alternative", _ALTERNATIVES)
    v.check_choice(method, "method", ("auto", "asymptotic", "exact"))
    if use_continuity not in (True, False):
        raise ValueError(f"use_continuity must be True or False, got {use_continuity!r}")
    is_pos, s, w, _, _ = _binary_target(
        y_true, y_score, sample_weight, None, default_rule="greater", frequency=True
    )
    t = _sorted_tallies(is_pos, s, w, curve=False, moments=True)
    n1, n2 = t.total_pos, t.total_neg
    if n1 <= 0 or n2 <= 0:
        v.warn_undefined("Only one class is present in y_true (or one class has zero weight); "
                         "the Mann-Whitney test is not defined in that case.")
        return MannWhitneyResult(math.nan, math.nan, math.nan, n1, n2, method)
    u1 = 0.5 * t.area2
    u2 = n1 * n2 - u1
    if alternative == "greater":
        u, factor = u1, 1.0
    elif alternative == "less":
        u, factor = u2, 1.0
    else:
        u, factor = max(u1, u2), 2.0
    if method == "auto":
        ties = t.stats[ST_MAX_TIE] > 1.0
        method = "exact" if (n1 <= 8 or n2 <= 8) and not ties else "asymptotic"
    if method == "exact":
        if n1 != int(n1) or n2 != int(n2):
            raise ValueError(
                "method='exact' needs whole numbers of positives and negatives; the "
                f"weighted class totals are {n1} and {n2}"
            )
        p = _exact_sf(int(u), int(n1), int(n2))
    else:
        n = n1 + n2
        var = n1 * n2 / 12.0 * ((n + 1.0) - t.stats[ST_TIES] / (n * (n - 1.0)))
        num = u - 0.5 * n1 * n2 - (0.5 if use_continuity else 0.0)
        z = _ratio(num, math.sqrt(max(var, 0.0)))
        p = math.nan if math.isnan(z) else _norm_sf(z)
    p = min(max(p * factor, 0.0), 1.0) if not math.isnan(p) else p
    return MannWhitneyResult(float(u1), float(p), float(u1 / (n1 * n2)), float(n1), float(n2),
                             method)


# ------------------------------------------------------------------ layouts

class _Layout(NamedTuple):
    """One model's scores sorted once: see ``_kernels.resampling``."""

    rows: np.ndarray  # (n,) row at each class-layout position (positives, then negatives)
    n_pos: int
    bp: np.ndarray  # (G,) cumulative positive counts per distinct-score group (float64)
    bn: np.ndarray  # (G,) cumulative negative counts (float64)


def _layout(is_pos, score, name="y_score") -> _Layout:
    bits = score.view(np.uint64)
    e = v.EMPTY_WEIGHT
    rows = np.arange(bits.shape[0], dtype=np.int64)
    pk, _, nk, _, ph, nh, n_bad, first_bad, pidx, nidx = split_by_class(bits, is_pos, e, rows)
    if n_bad:
        v.raise_non_finite(name, score)
    pk, _, pidx = radix_sort(pk, e, pidx, ph)
    nk, _, nidx = radix_sort(nk, e, nidx, nh)
    n = bits.shape[0]
    tps = np.empty(n, np.float64)
    fps = np.empty(n, np.float64)
    g = sweep(pk, e, _EMPTY_KEYS, e, nk, e, _EMPTY_KEYS, e, _EMPTY_KEYS, tps, fps, True, 0.0,
              0.0, e)[0]
    rows = np.concatenate((pidx[::-1], nidx[::-1]))
    return _Layout(rows, pk.shape[0], tps[:g], fps[:g])


def _group_sizes(lay: _Layout):
    """Numbers of positives and of negatives in each group (int64)."""
    return (np.diff(lay.bp, prepend=0.0).astype(np.int64),
            np.diff(lay.bn, prepend=0.0).astype(np.int64))


def _merged_order(lay: _Layout):
    """Merged order (group by group, its positives then its negatives): the
    class-layout position at each merged position, and the ``code`` bytes
    (bit 0 positive, bit 1 first row of a group)."""
    n = lay.rows.shape[0]
    tpc, fpc = _group_sizes(lay)
    sizes = np.column_stack((tpc, fpc)).ravel()
    code = np.repeat(np.tile(np.array([1, 0], np.uint8), len(tpc)), sizes)
    starts = np.cumsum(tpc + fpc) - (tpc + fpc)
    merged = np.empty(n, np.int64)
    pos_at = code == 1
    merged[pos_at] = np.arange(lay.n_pos)
    merged[~pos_at] = np.arange(lay.n_pos, n)
    code[starts[starts < n]] |= 2
    return merged, code


# ------------------------------------------------------------------ DeLong

_SMALL_DELONG = ("DeLong's variance needs a total weight above one in each class; "
                 "the covariance is NaN.")


def _delong_one(is_pos, s, w):
    """AUC and variance of one model from the moments of one sweep."""
    t = _sorted_tallies(is_pos, s, w, curve=False, moments=True)
    auc = t.area2 / (2.0 * t.total_pos * t.total_neg)
    var = delong_variance(t.stats)
    if math.isnan(var):
        v.warn_undefined(_SMALL_DELONG)
    return auc, var


def _delong_many(is_pos, S, w):
    """AUCs and DeLong covariance of the columns of ``S`` (placements per row)."""
    n, k = S.shape
    X = np.empty((k, n))
    aucs = np.empty(k)
    for m in range(k):
        lay = _layout(is_pos, np.ascontiguousarray(S[:, m]), name="y_scores")
        wl = w[lay.rows] if w.shape[0] else w
        aucs[m] = layout_placements(lay.bp, lay.bn, wl, lay.n_pos, lay.rows, X[m])
    s10, s01, w10, w01 = placement_covariance(X, is_pos, w, aucs)
    if w10 <= 1.0 or w01 <= 1.0:
        v.warn_undefined(_SMALL_DELONG)
        return aucs, np.full((k, k), np.nan)
    return aucs, s10 / (w10 - 1.0) / w10 + s01 / (w01 - 1.0) / w01


def _delong_setup(y_true, y_scores, sample_weight, name):
    S = v.score_matrix(y_scores, v.n_rows(y_true), name)[1]
    is_pos, _, w = v.binary_rows(y_true, sample_weight, frequency=True, **{name: S})
    return is_pos, S, w


def _class_weights(is_pos, w):
    if w.shape[0]:
        return float(w[is_pos].sum()), float(w[~is_pos].sum())
    n_pos = int(np.count_nonzero(is_pos))
    return float(n_pos), float(is_pos.shape[0] - n_pos)


def delong_covariance(y_true, y_scores, *, sample_weight=None):
    """AUCs of one or several models on the same rows and their DeLong covariance.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Binary labels; the greater label is the positive class.
    y_scores : array-like of shape (n_samples,) or (n_samples, k)
        Scores of ``k`` models on the same rows.
    sample_weight : array-like of shape (n_samples,), default=None
        Frequency weights (see Notes).

    Returns
    -------
    aucs : ndarray of shape (k,)
    cov : ndarray of shape (k, k)
        ``cov[a, b] = S10[a, b] / m + S01[a, b] / n``, with ``S10`` and ``S01``
        the sample covariances (divisor ``m - 1``, ``n - 1``) of the
        positives' and negatives' placement values, as pROC computes them.

    Notes
    -----
    With weights, a positive's placement is the weighted share of negatives
    it outscores (ties one half), and the covariances are weighted with
    divisor ``sum(w) - 1`` and ``m = sum(w)``: unit weights give the
    unweighted result and integer weights give the result of repeating rows.
    Details in ``docs/inference.md``.

    See Also
    --------
    roc_auc_ci, delong_test

    References
    ----------
    .. [1] DeLong, E. R., DeLong, D. M. and Clarke-Pearson, D. L. (1988).
       Comparing the areas under two or more correlated receiver operating
       characteristic curves: a nonparametric approach. Biometrics 44, 837-845.
    .. [2] Sun, X. and Xu, W. (2014). Fast implementation of DeLong's algorithm
       for comparing the areas under correlated receiver operating
       characteristic curves. IEEE Signal Processing Letters 21, 1389-1393.

    Examples
    --------
    >>> from fastauc import delong_covariance
    >>> aucs, cov = delong_covariance([0, 0, 1, 1, 0, 1],
    ...                               [0.1, 0.4, 0.35, 0.8, 0.2, 0.7])
    >>> aucs
    array([0.88888889])
    >>> cov
    array([[0.02469136]])
    """
    is_pos, S, w = _delong_setup(y_true, y_scores, sample_weight, "y_scores")
    k = S.shape[1]
    total_p, total_n = _class_weights(is_pos, w)
    if total_p <= 0 or total_n <= 0:
        v.warn_undefined(_ONE_CLASS)
        return np.full(k, np.nan), np.full((k, k), np.nan)
    if k == 1:
        auc, var = _delong_one(is_pos, S[:, 0].copy(), w)
        return np.array([auc]), np.array([[var]])
    return _delong_many(is_pos, S, w)


def roc_auc_ci(y_true, y_score, *, method="delong", confidence_level=0.95, sample_weight=None,
               transform=None, **bootstrap_options):
    """ROC AUC with a confidence interval (DeLong or bootstrap).

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Binary labels; the greater label is the positive class.
    y_score : array-like of shape (n_samples,)
        Scores.
    method : {"delong", "bootstrap"}, default="delong"
        ``"delong"``: Wald interval ``auc ± z * se`` with DeLong's standard
        error, clipped to [0, 1] (as pROC's ``ci.auc``).  ``"bootstrap"``:
        :func:`bootstrap_ci` with ``metric="roc_auc"``.
    confidence_level : float, default=0.95
    sample_weight : array-like of shape (n_samples,), default=None
        Frequency weights (see :func:`delong_covariance`).
    transform : {None, "logit"}, default=None
        ``"logit"``: build the Wald interval for ``logit(auc)`` (standard
        error ``se / (auc (1 - auc))``) and map it back; it stays inside
        (0, 1) and is better near 0 or 1.  DeLong only.
    **bootstrap_options
        Passed to :func:`bootstrap_ci` (``n_resamples``, ``random_state``, ...).

    Returns
    -------
    ConfidenceInterval or BootstrapResult
        With ``estimate``, ``low``, ``high``, ``se``, ``method``,
        ``confidence_level``.

    See Also
    --------
    delong_covariance, bootstrap_ci, roc_auc_score

    References
    ----------
    .. [1] DeLong, E. R., DeLong, D. M. and Clarke-Pearson, D. L. (1988).
       Biometrics 44, 837-845.
    .. [2] Robin, X. et al. (2011). pROC: an open-source package for R and S+ to
       analyze and compare ROC curves. BMC Bioinformatics 12, 77.

    Examples
    --------
    >>> from fastauc import roc_auc_ci
    >>> ci = roc_auc_ci([0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.2, 0.7])
    >>> round(ci.estimate, 4), round(ci.low, 4), round(ci.high, 4)
    (0.8889, 0.5809, 1.0)
    """
    v.check_choice(method, "method", ("delong", "bootstrap"))
    v.check_choice(transform, "transform", (None, "logit"))
    if method == "bootstrap":
        if transform is not None:
            raise ValueError("transform applies to method='delong' only")
        return bootstrap_ci(y_true, y_score, metric="roc_auc", confidence_level=confidence_level,
                            sample_weight=sample_weight, **bootstrap_options)
    if bootstrap_options:
        raise TypeError(f"unexpected arguments for method='delong': {sorted(bootstrap_options)}")
    level = v.check_confidence_level(confidence_level)
    aucs, cov = delong_covariance(y_true, y_score, sample_weight=sample_weight)
    return _wald_interval(float(aucs[0]), float(cov[0, 0]), level, transform)


def _wald_interval(est, var, level, transform=None) -> ConfidenceInterval:
    """DeLong interval of one AUC from its variance (Wald, or Wald on the logit scale)."""
    se = math.sqrt(max(var, 0.0)) if not math.isnan(var) else math.nan
    z = _norm_ppf(0.5 + 0.5 * level)
    name = "delong" if transform is None else "delong-logit"
    if math.isnan(est) or math.isnan(se):  # no interval around an undefined estimate
        low = high = math.nan
    elif transform == "logit" and 0.0 < est < 1.0:
        centre = math.log(est / (1.0 - est))
        half = z * se / (est * (1.0 - est))
        low = 1.0 / (1.0 + math.exp(-(centre - half)))
        high = 1.0 / (1.0 + math.exp(-(centre + half)))
    elif transform == "logit":
        low = high = est
    else:
        low, high = max(0.0, est - z * se), min(1.0, est + z * se)
    return ConfidenceInterval(est, low, high, se, name, level)


def _difference_interval(d, se, level, alternative, lo_bound=-1.0, hi_bound=1.0):
    if math.isnan(d) or math.isnan(se):
        return math.nan, math.nan
    if alternative == "two-sided":
        z = _norm_ppf(0.5 + 0.5 * level)
        return max(lo_bound, d - z * se), min(hi_bound, d + z * se)
    z = _norm_ppf(level)
    if alternative == "greater":
        return max(lo_bound, d - z * se), hi_bound
    return lo_bound, min(hi_bound, d + z * se)


def delong_test(y_true, y_score_a, y_score_b, *, alternative="two-sided", confidence_level=0.95,
                sample_weight=None):
    """DeLong's paired test of two AUCs measured on the same rows.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Binary labels; the greater label is the positive class.
    y_score_a, y_score_b : array-like of shape (n_samples,)
        Scores of the two models.
    alternative : {"two-sided", "less", "greater"}, default="two-sided"
        ``"greater"``: H1 is ``auc_a > auc_b``.
    confidence_level : float, default=0.95
        Level of the interval of the difference (one-sided for one-sided
        alternatives).
    sample_weight : array-like of shape (n_samples,), default=None
        Frequency weights (see :func:`delong_covariance`).

    Returns
    -------
    DeLongTestResult
        ``statistic`` (z), ``pvalue``, ``difference`` (auc_a - auc_b), ``low``,
        ``high``, ``se``, ``auc_a``, ``auc_b``.  Identical scores give z = 0,
        p = 1.

    See Also
    --------
    delong_covariance, bootstrap_test

    References
    ----------
    .. [1] DeLong, E. R., DeLong, D. M. and Clarke-Pearson, D. L. (1988).
       Biometrics 44, 837-845.

    Examples
    --------
    >>> from fastauc import delong_test
    >>> y = [0, 0, 1, 1, 0, 1, 0, 1]
    >>> res = delong_test(y, [0.1, 0.4, 0.35, 0.8, 0.2, 0.7, 0.3, 0.9],
    ...                   [0.2, 0.1, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8])
    >>> round(res.difference, 4), round(res.statistic, 4), round(res.pvalue, 4)
    (0.25, 1.0, 0.3173)
    """
    v.check_choice(alternative, "alternative", _ALTERNATIVES)
    level = v.check_confidence_level(confidence_level)
    a = v.as_float_array(y_score_a, "y_score_a")
    b = v.as_float_array(y_score_b, "y_score_b")
    v.check_lengths(y_score_a=a, y_score_b=b)
    is_pos, S, w = _delong_setup(y_true, np.column_stack((a, b)), sample_weight, "y_scores")
    total_p, total_n = _class_weights(is_pos, w)
    if total_p <= 0 or total_n <= 0:
        v.warn_undefined(_ONE_CLASS)
        nan = math.nan
        return DeLongTestResult(nan, nan, nan, nan, nan, nan, nan, nan, alternative, level)
    aucs, cov = _delong_many(is_pos, S, w)
    return _paired_test(aucs, cov, 0, 1, level, alternative)


def _paired_test(aucs, cov, a, b, level, alternative) -> DeLongTestResult:
    """DeLong's z test of ``aucs[a] - aucs[b]`` from their covariance matrix."""
    d = float(aucs[a] - aucs[b])
    var = float(cov[a, a] + cov[b, b] - 2.0 * cov[a, b])
    se = math.sqrt(max(var, 0.0)) if not math.isnan(var) else math.nan
    z = 0.0 if d == 0.0 and se == 0.0 else _ratio(d, se)
    low, high = _difference_interval(d, se, level, alternative)
    return DeLongTestResult(z, _pvalue(z, alternative), d, low, high, se, float(aucs[a]),
                            float(aucs[b]), alternative, level)


# ------------------------------------------------------------------ bootstrap

_METRICS = ("roc_auc", "average_precision", "log_loss")
_BATCH = 16  # replicates per kernel call; fixed, so results never depend on threads
_EPS = np.finfo(np.float64).eps


class _Model(NamedTuple):
    lay: _Layout
    wl: np.ndarray  # weights in class-layout order (empty when unweighted)
    loss: np.ndarray  # per-row log loss in class-layout order (log_loss only, else empty)


def _model(is_pos, s, w, metric, name) -> _Model:
    lay = _layout(is_pos, s, name)
    wl = np.ascontiguousarray(w[lay.rows]) if w.shape[0] else w
    loss = v.EMPTY_WEIGHT
    if metric == "log_loss":
        if s.min() < 0 or s.max() > 1:
            raise ValueError(f"metric='log_loss' needs probabilities in [0, 1] in {name}")
        p = np.clip(np.where(is_pos, s, 1.0 - s), _EPS, 1.0 - _EPS)
        loss = np.ascontiguousarray(-np.log(p)[lay.rows])
    return _Model(lay, wl, loss)


def _jackknife(model: _Model, metric: str) -> np.ndarray:
    """Leave-one-row-out values of the metric, in layout order, in O(n).

    ROC AUC: removing a positive of weight ``w`` and placement ``V`` gives
    ``(P * auc - w * V) / (P - w)`` (likewise for a negative): the jackknife
    comes from the placement values, not from n AUCs.  Log loss: ``(S - w l)
    / (W - w)``.
    """
    lay, wl = model.lay, model.wl
    w = wl if wl.shape[0] else np.ones(lay.rows.shape[0])
    with np.errstate(divide="ignore", invalid="ignore"):
        if metric == "log_loss":
            total = float(w.sum())
            s = float(np.dot(w, model.loss))
            return (s - w * model.loss) / (total - w)
        n = lay.rows.shape[0]
        place = np.empty(n)
        auc = layout_placements(lay.bp, lay.bn, wl, lay.n_pos, np.arange(n), place)
        npos = lay.n_pos
        total_p, total_n = float(w[:npos].sum()), float(w[npos:].sum())
        out = np.empty_like(place)
        out[:npos] = (total_p * auc - w[:npos] * place[:npos]) / (total_p - w[:npos])
        out[npos:] = (total_n * auc - w[npos:] * place[npos:]) / (total_n - w[npos:])
    return out


def _acceleration(jack_groups) -> float:
    """BCa acceleration from jackknife values, one array per sample (stratum).

    For one sample this is Efron's ``sum d^3 / (6 (sum d^2)^1.5)`` with
    ``d = mean - theta_i``; several samples are combined as in
    ``scipy.stats.bootstrap`` (Efron & Tibshirani 1993, ch. 14).
    """
    num = den = 0.0
    for jk in jack_groups:
        jk = jk[np.isfinite(jk)]
        n = jk.shape[0]
        if n < 2:
            continue
        u = (n - 1) * (jk.mean() - jk)
        num += float(np.sum(u**3)) / n**3
        den += float(np.sum(u**2)) / n**2
    return num / (6.0 * den**1.5) if den > 0 else 0.0


def _interval(reps, estimate, level, method, jack_groups, alternative="two-sided"):
    """Bootstrap interval of ``estimate`` from the finite replicates ``reps``."""
    alpha = 1.0 - level
    if alternative == "two-sided":
        probs = [alpha / 2.0, 1.0 - alpha / 2.0]
    else:
        probs = [alpha, 1.0 - alpha]
    if method == "bca":
        b = reps.shape[0]
        z0 = _norm_ppf_or_nan((np.count_nonzero(reps < estimate)
                               + np.count_nonzero(reps <= estimate)) / (2.0 * b))
        if math.isnan(z0):
            warnings.warn("The BCa interval cannot be computed: every replicate lies on one "
                          "side of the estimate. Use method='percentile'.",
                          RuntimeWarning, stacklevel=4)
            return math.nan, math.nan
        a = _acceleration(jack_groups)
        adj = []
        for p in probs:
            zp = _norm_ppf(p)
            adj.append(1.0 - _norm_sf(z0 + (z0 + zp) / (1.0 - a * (z0 + zp))))
        probs = adj
    lo, hi = np.quantile(reps, probs)
    if method == "basic":
        lo, hi = 2.0 * estimate - hi, 2.0 * estimate - lo
    lo, hi = float(lo), float(hi)
    if alternative == "greater":
        hi = math.inf
    elif alternative == "less":
        lo = -math.inf
    return lo, hi


def _norm_ppf_or_nan(p: float) -> float:
    return _norm_ppf(p) if 0.0 < p < 1.0 else math.nan


def _metric_code(metric, max_fpr, method):
    """Kernel code of the metric and the partial-AUC bound (1 for none)."""
    v.check_choice(metric, "metric", _METRICS)
    if method == "bca" and (metric == "average_precision" or max_fpr not in (None, 1)):
        raise ValueError("method='bca' is available for metric='roc_auc' (without max_fpr) "
                         "and 'log_loss'; use 'percentile' or 'basic'")
    if max_fpr is not None:
        if metric != "roc_auc":
            raise ValueError("max_fpr (partial AUC) applies to metric='roc_auc' only")
        if isinstance(max_fpr, bool) or not isinstance(max_fpr, (int, float, np.number)) \
                or not 0 < max_fpr <= 1:
            raise ValueError(f"max_fpr must be in the range (0, 1], got {max_fpr!r}")
        if max_fpr != 1:
            return PARTIAL_AUC, float(max_fpr)
    return {"roc_auc": ROC_AUC, "average_precision": AVERAGE_PRECISION,
            "log_loss": LOG_LOSS}[metric], 1.0


class _Prepared(NamedTuple):
    models: list
    strata: np.ndarray
    where0: np.ndarray  # (n,) model 0's class-layout position of each row


def _prepare(y_true, scores, names, sample_weight, metric, stratified):
    arrays = [v.as_float_array(s, nm) for s, nm in zip(scores, names)]
    is_pos, classes, w = v.binary_rows(y_true, sample_weight, **dict(zip(names, arrays)))
    if len(classes) < 2:
        raise ValueError(
            f"y_true contains only one class ({classes[0]!r}); the bootstrap needs both")
    n = is_pos.shape[0]
    models = [_model(is_pos, s, w, metric, nm) for s, nm in zip(arrays, names)]
    n_pos = models[0].lay.n_pos
    strata = np.array([0, n_pos, n] if stratified else [0, n], np.int64)
    where0 = np.empty(n, np.int64)
    where0[models[0].lay.rows] = np.arange(n)
    return _Prepared(models, strata, where0)


def _ranks(lay: _Layout) -> np.ndarray:
    """``replicate_value``'s ranks: (2, n) int64 over the class layout."""
    bpz = np.concatenate(([0], lay.bp.astype(np.int64)))
    bnz = np.concatenate(([0], lay.bn.astype(np.int64)))
    tpc, fpc = _group_sizes(lay)
    gid_p = np.repeat(np.arange(len(tpc)), tpc)
    gid_n = np.repeat(np.arange(len(fpc)), fpc)
    return np.stack((np.concatenate((bpz[gid_p + 1], bpz[gid_n])),
                     np.concatenate((bnz[gid_p + 1], bpz[gid_n + 1]))))


def _kernel_arrays(prep: _Prepared, metric_code):
    """Per-model arrays for ``replicate_batch``, stacked (first axis = model)."""
    models = prep.models
    k, n = len(models), prep.where0.shape[0]
    merged = metric_code == PARTIAL_AUC
    src, w, loss, ranks, code = [], [], [], [], []
    for mo in models:
        lay = mo.lay
        order, code_m = _merged_order(lay) if merged else (np.arange(n), np.empty(0, np.uint8))
        src.append(prep.where0[lay.rows[order]])
        w.append(mo.wl[order] if mo.wl.shape[0] else mo.wl)
        loss.append(mo.loss[order] if mo.loss.shape[0] else mo.loss)
        ranks.append(_ranks(lay) if metric_code in (ROC_AUC, AVERAGE_PRECISION)
                     else np.empty((2, 0), np.int64))
        code.append(code_m)
    if k == 1 and not merged:  # model 0 in its own class layout: no indirection
        src = [np.empty(0, np.int64)]
    return tuple(np.ascontiguousarray(np.stack(a)) for a in (src, w, loss, ranks, code))


def _run_replicates(prep: _Prepared, metric_code, max_fpr, n_resamples, seed, progress):
    src, w, loss, ranks, code = _kernel_arrays(prep, metric_code)
    k = src.shape[0]
    n = prep.where0.shape[0]
    n_pos = prep.models[0].lay.n_pos
    out = np.empty((n_resamples, k))
    jobs = [(seed, r, out[r: r + _BATCH], prep.strata, src, n_pos, w, loss, ranks, code,
             metric_code, max_fpr) for r in range(0, n_resamples, _BATCH)]
    bar = _progress_bar(progress, n_resamples)
    wave = max(1, num_threads())
    for i in range(0, len(jobs), wave):
        map_chunks(replicate_batch, jobs[i: i + wave])
        if bar is not None:
            bar.update(sum(job[2].shape[0] for job in jobs[i: i + wave]))
    if bar is not None:
        bar.close()
    ones = np.ones(n, np.uint8)
    scratch = np.empty(n + 2)
    estimates = [float(replicate_value(ones, src[m], n_pos, w[m], loss[m], ranks[m], code[m],
                                       metric_code, max_fpr, scratch)) for m in range(k)]
    return out, estimates


def _progress_bar(progress, total):
    if not progress:
        return None
    try:
        from tqdm.auto import tqdm
    except ImportError:  # the optional extra is not installed: run without a bar
        return None
    return tqdm(total=total, desc="bootstrap", unit="replicate")


def _check_bootstrap_args(n_resamples, confidence_level, method, stratified):
    n_resamples = v.check_positive_int(n_resamples, "n_resamples")
    level = v.check_confidence_level(confidence_level)
    v.check_choice(method, "method", ("percentile", "basic", "bca"))
    if stratified not in (True, False):
        raise ValueError(f"stratified must be True or False, got {stratified!r}")
    return n_resamples, level


def _jack_groups(prep: _Prepared, jk_rows_layout0, stratified):
    if stratified:
        n_pos = prep.models[0].lay.n_pos
        return [jk_rows_layout0[:n_pos], jk_rows_layout0[n_pos:]]
    return [jk_rows_layout0]


def bootstrap_ci(y_true, y_score, *, metric="roc_auc", n_resamples=1000, confidence_level=0.95,
                 method="percentile", stratified=True, sample_weight=None, random_state=None,
                 max_fpr=None, progress=False):
    """Bootstrap confidence interval of a ranking metric, all replicates in compiled code.

    The rows are sorted once; every replicate is a vector of resample counts
    applied to the sorted tallies in O(n), and batches of replicates run on
    several threads.  No per-replicate sort and no per-replicate Python call.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Binary labels; the greater label is the positive class.
    y_score : array-like of shape (n_samples,)
        Scores (probabilities of the positive class for ``"log_loss"``).
    metric : {"roc_auc", "average_precision", "log_loss"}, default="roc_auc"
    n_resamples : int, default=1000
    confidence_level : float, default=0.95
    method : {"percentile", "basic", "bca"}, default="percentile"
        ``"bca"``: bias-corrected and accelerated (Efron 1987), with the
        acceleration from the exact leave-one-out values, computed in O(n)
        from the placement values (``"roc_auc"``) or the per-row losses
        (``"log_loss"``).
    stratified : bool, default=True
        Resample positives and negatives separately (pROC's default), so
        every replicate has both classes.  With ``False`` rows are resampled
        together; replicates with one class are dropped and counted in
        ``n_dropped``.
    sample_weight : array-like of shape (n_samples,), default=None
        Rows are resampled with their weights; a replicate is the weighted
        metric of the resampled rows.
    random_state : None, int, numpy Generator, RandomState or SeedSequence
        Seeds every replicate's own random stream: the same value gives the
        same replicates whatever the number of threads.
    max_fpr : float in (0, 1], default=None
        With ``metric="roc_auc"``, the standardised partial AUC up to this
        false positive rate (McClish), as ``roc_auc_score(max_fpr=...)``.
    progress : bool, default=False
        Show a tqdm progress bar (updated between batches of replicates)
        when the optional ``tqdm`` is installed.

    Returns
    -------
    BootstrapResult
        ``estimate`` (the metric on all rows), ``low``, ``high``, ``se`` (the
        standard deviation of the replicates), ``method``, ``n_resamples``,
        ``n_dropped`` and ``replicates`` (NaN where dropped).

    Notes
    -----
    Replicate ``r`` draws, for each stratum in turn, as many positions as the
    stratum has, uniformly with replacement, among the stratum's rows taken
    in decreasing score order (ties in decreasing row order).  It equals the
    scikit-learn metric of those rows.

    See Also
    --------
    roc_auc_ci, bootstrap_test

    References
    ----------
    .. [1] Efron, B. (1987). Better bootstrap confidence intervals. Journal of
       the American Statistical Association 82, 171-185.
    .. [2] Efron, B. and Tibshirani, R. J. (1993). An Introduction to the
       Bootstrap. Chapman & Hall.
    .. [3] Carpenter, J. and Bithell, J. (2000). Bootstrap confidence intervals:
       when, which, what? Statistics in Medicine 19, 1141-1164.

    Examples
    --------
    >>> import numpy as np
    >>> from fastauc import bootstrap_ci
    >>> rng = np.random.default_rng(0)
    >>> y = rng.integers(0, 2, 500)
    >>> s = y + rng.normal(size=500)
    >>> res = bootstrap_ci(y, s, n_resamples=200, random_state=1)
    >>> round(res.estimate, 3), res.low < res.estimate < res.high
    (0.727, True)
    """
    n_resamples, level = _check_bootstrap_args(n_resamples, confidence_level, method, stratified)
    code, fpr = _metric_code(metric, max_fpr, method)
    seed = v.seed_from_random_state(random_state)
    prep = _prepare(y_true, [y_score], ["y_score"], sample_weight, metric, stratified)
    reps, (estimate,) = _run_replicates(prep, code, fpr, n_resamples, seed, progress)
    reps = reps[:, 0]
    low, high, se, n_dropped = _summarise(
        reps, estimate, level, method, prep, lambda: _jackknife(prep.models[0], metric),
        stratified)
    return BootstrapResult(estimate, low, high, se, method, level, n_resamples, n_dropped,
                           metric, reps)


def _summarise(values, estimate, level, method, prep, jackknife, stratified,
               alternative="two-sided"):
    """Interval, standard error and number dropped, from replicate values (NaN:
    dropped); ``jackknife()`` gives the leave-one-out values for BCa."""
    good = values[np.isfinite(values)]
    if good.shape[0] == 0:
        raise ValueError("every bootstrap replicate had a single class; use stratified=True")
    groups = _jack_groups(prep, jackknife(), stratified) if method == "bca" else None
    low, high = _interval(good, estimate, level, method, groups, alternative)
    se = float(good.std(ddof=1)) if good.shape[0] > 1 else math.nan
    return low, high, se, int(values.shape[0] - good.shape[0])


def bootstrap_test(y_true, y_score_a, y_score_b, *, metric="roc_auc", n_resamples=1000,
                   confidence_level=0.95, method="percentile", stratified=True,
                   alternative="two-sided", sample_weight=None, random_state=None, max_fpr=None,
                   progress=False):
    """Paired bootstrap comparison of two models scored on the same rows.

    Each replicate resamples the rows once and evaluates both models on that
    resample, so the difference keeps the models' correlation.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Binary labels; the greater label is the positive class.
    y_score_a, y_score_b : array-like of shape (n_samples,)
        Scores of the two models.
    metric, n_resamples, confidence_level, method, stratified, sample_weight,
    random_state, max_fpr, progress
        As in :func:`bootstrap_ci`; the interval is that of the difference.
    alternative : {"two-sided", "less", "greater"}, default="two-sided"
        ``"greater"``: H1 is ``metric_a > metric_b``.

    Returns
    -------
    BootstrapTestResult
        ``difference`` (a - b on all rows), its interval ``low``/``high``,
        ``se`` (standard deviation of the replicate differences),
        ``statistic = difference / se`` and its normal ``pvalue`` (pROC's
        bootstrap test), ``estimate_a``, ``estimate_b`` and ``replicates``
        of shape (n_resamples, 2).

    See Also
    --------
    delong_test, bootstrap_ci

    References
    ----------
    .. [1] Hanley, J. A. and McNeil, B. J. (1983). A method of comparing the areas
       under receiver operating characteristic curves derived from the same
       cases. Radiology 148, 839-843.
    .. [2] Robin, X. et al. (2011). pROC. BMC Bioinformatics 12, 77.

    Examples
    --------
    >>> import numpy as np
    >>> from fastauc import bootstrap_test
    >>> rng = np.random.default_rng(0)
    >>> y = rng.integers(0, 2, 500)
    >>> a, b = y + rng.normal(size=500), y + 2 * rng.normal(size=500)
    >>> res = bootstrap_test(y, a, b, n_resamples=200, random_state=1)
    >>> res.difference > 0, res.pvalue < 0.05
    (True, True)
    """
    n_resamples, level = _check_bootstrap_args(n_resamples, confidence_level, method, stratified)
    v.check_choice(alternative, "alternative", _ALTERNATIVES)
    code, fpr = _metric_code(metric, max_fpr, method)
    seed = v.seed_from_random_state(random_state)
    prep = _prepare(y_true, [y_score_a, y_score_b], ["y_score_a", "y_score_b"], sample_weight,
                    metric, stratified)
    reps, (est_a, est_b) = _run_replicates(prep, code, fpr, n_resamples, seed, progress)
    d = est_a - est_b

    def jackknife_difference():
        jk_b = np.empty(prep.where0.shape[0])
        jk_b[prep.models[1].lay.rows] = _jackknife(prep.models[1], metric)
        return _jackknife(prep.models[0], metric) - jk_b[prep.models[0].lay.rows]

    low, high, se, n_dropped = _summarise(reps[:, 0] - reps[:, 1], d, level, method, prep,
                                          jackknife_difference, stratified, alternative)
    z = 0.0 if d == 0.0 and se == 0.0 else _ratio(d, se)
    return BootstrapTestResult(z, _pvalue(z, alternative), d, low, high, se, est_a, est_b,
                               method, alternative, level, int(reps.shape[0]), n_dropped, metric,
                               reps)
