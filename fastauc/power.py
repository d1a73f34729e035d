"""Planning a study: power and sample size of AUC tests (pROC's power.roc.test).

One AUC against a fixed null value, or two AUCs against each other, through
the sample-size equation ``n_cases = (z_alpha sqrt(V0) + z_beta sqrt(VA))^2
/ delta^2`` (Obuchowski & McClish 1997, formula 2; Obuchowski, Lieber &
Wians 2004, formula 2), solved for whichever of the sample size, the power,
the significance level or the AUC is left out.  The variances ``V0`` (under
the null hypothesis) and ``VA`` (under the alternative), per case, come from
pilot data (DeLong's placements, or the binormal fit of the pilot curves),
from binormal parameters, or from the AUC alone.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ._device import dispatch
from . import _binormal as bn
from . import _validation as v
from ._delong import class_weights, delong_setup
from .bootstrap import bootstrap_ci, bootstrap_test
from .delong import delong_covariance

__all__ = ["PowerResult", "roc_power"]

_ALTERNATIVES = ("two-sided", "one-sided")
_METHODS = ("delong", "obuchowski", "bootstrap")
_PARAM_KEYS = ("a1", "b1", "a2", "b2", "rn", "ra", "delta")
_ONE_NONE = "One of 'power', 'sig_level', 'auc', or both 'n_cases' and 'n_controls' must be None."
_SIZES = "'n_cases' and 'n_controls' (or one of these with 'kappa') or 'auc' must be provided."


@dataclass(frozen=True)
class PowerResult:
    """Result of :func:`roc_power`: a study's size, power and level.

    Attributes
    ----------
    n_cases, n_controls : float
        Number of cases (positives) and controls (negatives), not rounded:
        round them up for a study.
    power : float
        Probability of rejecting the null hypothesis when the alternative
        holds.
    sig_level : float
        Significance level (type I error rate) of the test; two-sided
        levels are the sum of both tails.
    auc : float
        The AUC under the alternative (one curve), or the first curve's.
    auc2 : float
        The second curve's AUC (NaN for one curve or binormal parameters).
    delta : float
        The difference the test must detect: ``auc - auc0``, ``auc - auc2``
        or the ``delta`` of the binormal parameters.
    kappa : float
        ``n_controls / n_cases``.
    v0, va : float
        Variance of the AUC (or of the difference) times the number of
        cases, under the null and the alternative hypotheses.
    solved : str
        What was solved for: ``"n"``, ``"power"``, ``"sig_level"`` or
        ``"auc"``.
    alternative : str
        ``"two-sided"`` or ``"one-sided"``.
    method : str
        Where the variances came from: ``"obuchowski"``, ``"delong"`` or
        ``"bootstrap"``.

    See Also
    --------
    roc_power : The function returning this record.

    Examples
    --------
    >>> from fastauc import roc_power
    >>> r = roc_power(auc=0.8, power=0.9)  # cases (and as many controls) to show AUC > 0.5
    >>> round(r.n_cases, 2), r.solved
    (16.62, 'n')
    """

    n_cases: float
    n_controls: float
    power: float
    sig_level: float
    auc: float
    auc2: float
    delta: float
    kappa: float
    v0: float
    va: float
    solved: str
    alternative: str
    method: str


# --------------------------------------------------------------- validation

def _number(x, name):
    if x is None:
        return None
    if isinstance(x, (bool, np.bool_)) or not isinstance(x, (int, float, np.integer, np.floating)):
        raise TypeError(f"'{name}' must be a real number or None, got {type(x).__name__}.")
    x = float(x)
    if math.isnan(x):
        raise ValueError(f"'{name}' must not be NaN.")
    return x


def _check_numbers(n_cases, n_controls, kappa, power, sig_level, auc, auc0):
    n_cases, n_controls, kappa = (_number(n_cases, "n_cases"), _number(n_controls, "n_controls"),
                                  _number(kappa, "kappa"))
    power, sig_level = _number(power, "power"), _number(sig_level, "sig_level")
    auc, auc0 = _number(auc, "auc"), _number(auc0, "auc0")
    for x, name in ((n_cases, "n_cases"), (n_controls, "n_controls"), (kappa, "kappa")):
        if x is not None and x < 0:
            raise ValueError(f"'{name}' must be positive")
    for x, name in ((power, "power"), (sig_level, "sig_level")):
        if x is not None and not 0.0 <= x <= 1.0:
            raise ValueError(f"'{name}' must range from 0 to 1")
    if auc is not None and not 0.0 <= auc <= 1.0:
        raise ValueError("'auc' must range from 0 to 1")
    if auc0 is None or not 0.0 < auc0 < 1.0:
        raise ValueError("'auc0' must be strictly between 0 and 1")
    return n_cases, n_controls, kappa, power, sig_level, auc, auc0


def _choice(x, name, choices):
    if x not in choices:
        raise ValueError(f"'{name}' must be one of {', '.join(map(repr, choices))}; got {x!r}.")
    return x


def _fpr_range(r, name="fpr_range"):
    if r is None:
        return None
    try:
        lo, hi = (float(x) for x in r)
    except (TypeError, ValueError):
        raise ValueError(f"'{name}' must be a pair (low, high) of false positive rates") from None
    if not 0.0 <= lo < hi <= 1.0:
        raise ValueError(f"'{name}' must satisfy 0 <= low < high <= 1; got ({lo}, {hi}).")
    return lo, hi


# ----------------------------------------------------------------- solving

def _finish(solved, n_cases, kappa, power, sig_level, v0, va, delta, two_sided):
    """Solve the sample-size equation for the one unknown; sig_level is one
    tail here and doubled back for a two-sided test."""
    if solved == "n":
        n_cases = bn.solve_n(bn.qnorm(1.0 - sig_level), bn.qnorm(power), v0, va, delta)
    elif solved == "power":
        power = bn.pnorm(bn.solve_z_beta(n_cases, bn.qnorm(1.0 - sig_level), v0, va, delta))
    else:
        sig_level = bn.pnorm(-bn.solve_z_alpha(n_cases, bn.qnorm(power), v0, va, delta))
    if two_sided:
        sig_level *= 2.0
    return n_cases, kappa * n_cases, power, sig_level


def _solve_auc(n_cases, kappa, power, sig_level, auc0, tol=1e-12):
    """The AUC that n_cases detect against auc0 (one curve, Obuchowski 2004);
    pROC's ``uniroot`` stops at ``tol = 2.2e-16 ** 0.25``."""
    za, zb = bn.qnorm(1.0 - sig_level), bn.qnorm(power)
    v0 = bn.var_theta(auc0, kappa)

    def excess(x):
        if x == auc0:
            return math.inf
        return (za * math.sqrt(v0) + zb * math.sqrt(bn.var_theta(x, kappa))) ** 2 \
            / (x - auc0) ** 2 - n_cases

    try:
        return bn.brent_root(excess, auc0, 1.0 - 1e-16, tol=tol)
    except ValueError as e:
        raise ValueError(f"AUC could not be solved: {e}") from None


def _unknown(power, sig_level):
    """With pilot data or binormal parameters: what is solved for."""
    if power is None and sig_level is None:
        raise ValueError("'sig_level' or 'power' must be provided.")
    return "power" if power is None else "sig_level" if sig_level is None else "n"


def _sizes(n_cases, n_controls, kappa):
    """Complete the sample size from kappa, as pROC."""
    if n_controls is None and n_cases is not None and kappa is not None:
        n_controls = kappa * n_cases
    elif n_cases is None and n_controls is not None and kappa is not None:
        n_cases = n_controls / kappa
    return n_cases, n_controls


def _one_curve(auc, auc0, n_cases, n_controls, kappa, power, sig_level, two_sided, va=None,
               method="obuchowski"):
    """One AUC against auc0 (Obuchowski, Lieber & Wians 2004); ``va`` given:
    the alternative's variance from pilot data instead of formula 3."""
    if kappa is None:
        kappa = 1.0
    n_cases, n_controls = _sizes(n_cases, n_controls, kappa)
    half = sig_level / 2.0 if (two_sided and sig_level is not None) else sig_level
    have_n = n_cases is not None and n_controls is not None
    if auc is None:
        if not have_n:
            raise ValueError(_SIZES)
        if power is None:
            raise ValueError("'power' or 'auc' must be provided.")
        if half is None:
            raise ValueError("'sig_level' or 'auc' must be provided.")
        kappa = n_controls / n_cases
        auc = _solve_auc(n_cases, kappa, power, half, auc0)
        v0, va = bn.var_theta(auc0, kappa), bn.var_theta(auc, kappa)
        return PowerResult(n_cases, n_controls, power, sig_level, auc, math.nan, auc - auc0,
                           kappa, v0, va, "auc", "two-sided" if two_sided else "one-sided",
                           method)
    if n_cases is None and n_controls is None:
        if power is None:
            raise ValueError(_SIZES)
        if half is None:
            raise ValueError("'sig_level' or 'n_cases' and 'n_controls' must be provided.")
        solved = "n"
    elif power is None:
        if not have_n:
            raise ValueError(_SIZES)
        if half is None:
            raise ValueError("'sig_level' or 'power' must be provided.")
        solved = "power"
    elif half is None:
        if not have_n:
            raise ValueError(_SIZES)
        solved = "sig_level"
    else:
        raise ValueError(_ONE_NONE)
    if solved != "n":
        kappa = n_controls / n_cases
    v0 = bn.var_theta(auc0, kappa)
    if va is None:
        va = bn.var_theta(auc, kappa)
    n_cases, n_controls, power, sig_level = _finish(solved, n_cases, kappa, power, half, v0, va,
                                                    auc - auc0, two_sided)
    return PowerResult(n_cases, n_controls, power, sig_level, auc, math.nan, auc - auc0, kappa,
                       v0, va, solved, "two-sided" if two_sided else "one-sided", method)


def _two_curves(auc1, auc2, var1, var2, cov12, n_cases, n_controls, kappa, power, sig_level,
                two_sided, method, delta=None):
    """Two AUCs: V0 = 2 (var1 - cov), VA = var1 + var2 - 2 cov (per case)."""
    solved = _unknown(power, sig_level)
    if solved == "n" and (n_cases is not None or n_controls is not None):
        raise ValueError(_ONE_NONE)
    if solved != "n":
        n_cases, n_controls = _sizes(n_cases, n_controls, kappa)
        if n_cases is None or n_controls is None:
            raise ValueError(_SIZES)
        kappa = n_controls / n_cases
    half = sig_level / 2.0 if (two_sided and sig_level is not None) else sig_level
    v0 = 2.0 * var1 - 2.0 * cov12
    va = var1 + var2 - 2.0 * cov12
    if delta is None:
        delta = auc1 - auc2
    n_cases, n_controls, power, sig_level = _finish(solved, n_cases, kappa, power, half, v0, va,
                                                    delta, two_sided)
    return PowerResult(n_cases, n_controls, power, sig_level, auc1, auc2, delta, kappa, v0, va,
                       solved, "two-sided" if two_sided else "one-sided", method)


# ------------------------------------------------------------ pilot data

def _pilot(y_true, y_score, y_score2):
    """Validated pilot rows: is_pos, the score columns (n, 1 or 2), class sizes."""
    if y_score2 is None:
        is_pos, S, _ = delong_setup(y_true, y_score, None, "y_score")
    else:
        a = v.as_float_array(y_score, "y_score")
        b = v.as_float_array(y_score2, "y_score2")
        v.check_finite(a, "y_score")
        v.check_finite(b, "y_score2")
        is_pos, _, _ = v.binary_rows(y_true, None, frequency=True, y_score=a, y_score2=b)
        S = np.column_stack([a, b])
    n_pos, n_neg = class_weights(is_pos, np.empty(0))
    if n_pos < 2 or n_neg < 2:
        raise ValueError("Pilot data need at least two cases (positives) and two controls "
                         f"(negatives); got {n_pos:g} and {n_neg:g}.")
    return is_pos, S, n_pos, n_neg


def _curve_summary(is_pos, s, fpr_range):
    """AUC (or partial AUC over fpr_range) and binormal fit of one pilot curve."""
    se, sp, _, _ = bn.empirical_points(is_pos, s, np.empty(0))
    a, b = bn.binormal_fit(se, sp)
    fpr = np.concatenate(([0.0], 1.0 - sp))
    tpr = np.concatenate(([0.0], se))
    lo, hi = fpr_range if fpr_range is not None else (0.0, 1.0)
    return bn.partial_area(fpr, tpr, lo, hi), a, b


def _correlation(X, who):
    """Pearson's correlation of the two columns of X."""
    d = X - X.mean(axis=0)
    sxx, syy = float(d[:, 0] @ d[:, 0]), float(d[:, 1] @ d[:, 1])
    if not (sxx > 0.0 and syy > 0.0):
        raise ValueError(f"A test's scores are constant in the {who}: the correlation of the "
                         "two tests is undefined (method='obuchowski').")
    return float(d[:, 0] @ d[:, 1]) / math.sqrt(sxx * syy)


def _covvar_obuchowski(is_pos, S, n_pos, n_neg, fpr_range):
    k = n_neg / n_pos
    pauc1, a1, b1 = _curve_summary(is_pos, np.ascontiguousarray(S[:, 0]), fpr_range)
    pauc2, a2, b2 = _curve_summary(is_pos, np.ascontiguousarray(S[:, 1]), fpr_range)
    ra = _correlation(S[is_pos], "cases")
    rn = _correlation(S[~is_pos], "controls")
    var1 = bn.var_params(a1, b1, k, fpr_range)
    var2 = bn.var_params(a2, b2, k, fpr_range)
    cov12 = bn.cov_params(a1, b1, a2, b2, rn, ra, k, fpr_range, fpr_range)
    return pauc1, pauc2, var1, var2, cov12


@dispatch("y_score", "y_score2")
def roc_power(y_true=None, y_score=None, y_score2=None, *, y_true2=None, auc=None, auc0=0.5,
              binormal=None, n_cases=None, n_controls=None, kappa=None, power=None,
              sig_level=0.05, alternative="two-sided", method=None, fpr_range=None,
              n_resamples=2000, stratified=True, random_state=None):
    """Power, sample size or significance level of a test of ROC AUCs.

    pROC's ``power.roc.test``.  Three ways in:

    - **one curve** against the null AUC ``auc0``: give ``auc`` (or pilot
      data ``y_true, y_score``, whose AUC is taken) with the variance of
      Obuchowski, Lieber & Wians (2004);
    - **two curves** from pilot data ``y_true, y_score, y_score2`` (paired:
      both scores on the same rows) or ``y_true, y_score`` and ``y_true2,
      y_score2`` (unpaired: the covariance is zero), with DeLong's variances
      of the pilot AUCs or Obuchowski & McClish's binormal ones;
    - **two curves from binormal parameters** ``binormal={"a1", "b1", "a2",
      "b2", "rn", "ra", "delta"}`` (Obuchowski & McClish 1997).

    Exactly one of the sample size (``n_cases`` and ``n_controls``), the
    ``power``, the ``sig_level`` and (one curve, no pilot data) the ``auc``
    is None, and is solved for.  With pilot data the sample size defaults to
    the pilot's and is solved for when both ``power`` and ``sig_level`` are
    given.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,), default=None
        Pilot labels; the greater label is the positive class (the cases).
    y_score : array-like of shape (n_samples,), default=None
        Pilot scores of the first test (higher: more likely a case).
    y_score2 : array-like of shape (n_samples,) or (n_samples2,), default=None
        Pilot scores of the second test: on the rows of ``y_true`` (paired)
        or on those of ``y_true2`` (unpaired).
    y_true2 : array-like of shape (n_samples2,), default=None
        Labels of the second test's pilot rows (unpaired designs only).
    auc : float, default=None
        One curve: the AUC under the alternative hypothesis (None: solved
        for, or taken from pilot data).
    auc0 : float, default=0.5
        One curve: the AUC under the null hypothesis.  Its variance is
        formula 3 of Obuchowski et al. (2004) at ``auc0``; at 0.5 that is
        pROC's ``0.0792 (1 + 1 / kappa)``.
    binormal : dict, default=None
        Binormal parameters of two correlated tests: ``a1, b1, a2, b2``
        (the binormal intercepts and slopes), ``rn, ra`` (the correlations
        of the two tests' results in the controls and the cases), ``delta``
        (the difference of (partial) AUCs to detect); optional ``fpr_range``
        (both tests) or ``fpr_range1``, ``fpr_range2``: partial areas.
    n_cases, n_controls : float, default=None
        Sample size: cases (positives) and controls (negatives); one of
        them may be given with ``kappa``.
    kappa : float, default=None
        ``n_controls / n_cases`` of the planned study (None: the pilot's
        ratio, or 1 without pilot data).
    power : float in [0, 1], default=None
        Power of the test (None: solved for).
    sig_level : float in [0, 1], default=0.05
        Significance level (None: solved for).
    alternative : {"two-sided", "one-sided"}, default="two-sided"
        A two-sided level is split over both tails.
    method : {"delong", "obuchowski", "bootstrap"}, default=None
        Where the variances of pilot data come from: DeLong's placements
        (the default for two curves), the binormal fit of each pilot curve
        (Obuchowski & McClish 1997; the default for one curve, whose null
        variance is always Obuchowski's), or the variances and covariance
        of bootstrap replicates of the pilot AUCs (:func:`bootstrap_test`).
    fpr_range : (float, float), default=None
        Two curves from pilot data, ``method="obuchowski"`` or
        ``"bootstrap"``: compare the partial areas over false positive
        rates in this range (not standardized).
    n_resamples : int, default=2000
        ``method="bootstrap"``: number of replicates (pROC's ``boot.n``).
    stratified : bool, default=True
        ``method="bootstrap"``: resample cases and controls separately
        (pROC's ``boot.stratified``).
    random_state : None, int or numpy Generator, default=None
        ``method="bootstrap"``: the seed of the replicates.

    Returns
    -------
    result : PowerResult
        All the quantities, the solved one included: ``n_cases``,
        ``n_controls``, ``power``, ``sig_level``, ``auc`` (``auc2``),
        ``delta``, ``kappa`` and the variances ``v0``, ``va``.

    Raises
    ------
    ValueError
        When not exactly one quantity is unknown (pROC's words), a
        probability is outside [0, 1], a size is negative, pilot data have
        fewer than two cases or controls, a pilot curve cannot be fitted
        (``method="obuchowski"``), or the AUC has no solution.

    See Also
    --------
    smooth_roc : The binormal fit used for ``method="obuchowski"``.
    delong_covariance : The DeLong variances used for ``method="delong"``.
    delong_test : The test whose power this plans (two paired curves).

    Notes
    -----
    The sample-size equation is

    .. math:: n_{cases} = \\frac{(z_{\\alpha} \\sqrt{V_0} + z_{\\beta}
              \\sqrt{V_A})^2}{\\delta^2}

    with ``V0``, ``VA`` the variances of the AUC (or of the difference of
    two AUCs) times the number of cases.  Two curves: ``VA = var1 + var2 -
    2 cov`` and ``V0 = 2 (var1 - cov)`` (the first curve taken as the null).
    DeLong's pilot variances are scaled by the pilot's number of cases and
    do not depend on ``kappa``, as in pROC; the bootstrap ones likewise
    (and they change with ``random_state``).  The root for ``auc`` is found
    by Brent's method to 1e-12.

    References
    ----------
    .. [1] Obuchowski, N. A. and McClish, D. K. (1997). Sample size
       determination for diagnostic accuracy studies involving binormal ROC
       curve indices. Statistics in Medicine 16, 1529-1542.
    .. [2] Obuchowski, N. A., Lieber, M. L. and Wians, F. H. (2004). ROC
       curves in Clinical Chemistry: uses, misuses, and possible solutions.
       Clinical Chemistry 50, 1118-1125.
    .. [3] Hanley, J. A. and McNeil, B. J. (1982). The meaning and use of
       the area under a receiver operating characteristic (ROC) curve.
       Radiology 143, 29-36.
    .. [4] DeLong, E. R., DeLong, D. M. and Clarke-Pearson, D. L. (1988).
       Comparing the areas under two or more correlated receiver operating
       characteristic curves: a nonparametric approach. Biometrics 44,
       837-845.
    .. [5] Robin, X. et al. (2011). pROC: an open-source package for R and
       S+ to analyze and compare ROC curves. BMC Bioinformatics 12, 77.

    Examples
    --------
    Power of 41 cases and 72 controls to show an AUC of 0.73 is above 0.5:

    >>> from fastauc import roc_power
    >>> res = roc_power(auc=0.73, n_cases=41, n_controls=72)
    >>> round(res.power, 6)
    0.989745

    Cases needed for 95% power, 1.7 controls per case:

    >>> res = roc_power(auc=0.73, power=0.95, kappa=1.7)
    >>> round(res.n_cases, 3), round(res.n_controls, 3)
    (29.67, 50.439)

    Two correlated tests from binormal parameters, partial areas:

    >>> params = dict(a1=2.6, b1=1, a2=1.9, b2=1, rn=0.6, ra=0.6, delta=0.037,
    ...               fpr_range=(0, 0.2))
    >>> round(roc_power(binormal=params, power=0.8).n_cases, 4)
    107.0238
    """
    two_sided = _choice(alternative, "alternative", _ALTERNATIVES) == "two-sided"
    if method is not None:
        _choice(method, "method", _METHODS)
    boot = dict(n_resamples=n_resamples, stratified=stratified, random_state=random_state)
    n_cases, n_controls, kappa, power, sig_level, auc, auc0 = _check_numbers(
        n_cases, n_controls, kappa, power, sig_level, auc, auc0)
    fpr_range = _fpr_range(fpr_range)

    if binormal is not None:
        if y_true is not None or y_score is not None or y_score2 is not None or auc is not None:
            raise ValueError("Give either 'binormal' parameters or pilot data or 'auc', not both.")
        if method not in (None, "obuchowski"):
            raise ValueError("Binormal parameters use method='obuchowski'.")
        return _from_params(binormal, n_cases, n_controls, kappa, power, sig_level, two_sided)

    if y_true is None and y_score is None:
        if y_score2 is not None or y_true2 is not None:
            raise ValueError("'y_score2' needs 'y_true' and 'y_score' (pilot data).")
        if fpr_range is not None:
            raise ValueError("'fpr_range' applies to two curves (pilot data or binormal "
                             "parameters), not to one AUC.")
        if method in ("delong", "bootstrap"):
            raise ValueError(f"method={method!r} needs pilot data ('y_true', 'y_score').")
        return _one_curve(auc, auc0, n_cases, n_controls, kappa, power, sig_level, two_sided)
    if y_true is None or y_score is None:
        raise ValueError("Pilot data need both 'y_true' and 'y_score'.")
    if auc is not None:
        raise ValueError("'auc' is taken from the pilot data; do not give both.")

    if y_score2 is None:
        if y_true2 is not None:
            raise ValueError("'y_true2' needs 'y_score2'.")
        return _pilot_one(y_true, y_score, auc0, n_cases, n_controls, kappa, power,
                          sig_level, two_sided, method or "obuchowski", fpr_range, boot)
    return _pilot_two(y_true, y_score, y_score2, y_true2, n_cases, n_controls, kappa, power,
                      sig_level, two_sided, method or "delong", fpr_range, boot)


def _pilot_one(y_true, y_score, auc0, n_cases, n_controls, kappa, power, sig_level, two_sided,
               method, fpr_range, boot):
    if fpr_range is not None:
        raise ValueError("'fpr_range' applies to two curves, not to one AUC.")
    is_pos, S, n_pos, n_neg = _pilot(y_true, y_score, None)
    aucs, cov = delong_covariance(is_pos, S[:, 0])
    auc = float(aucs[0])
    va = float(cov[0, 0]) * n_pos if method == "delong" else None
    if method == "bootstrap":
        r = bootstrap_ci(is_pos, S[:, 0], **boot)
        va = _replicate_cov(r.replicates[:, None])[0, 0] * n_pos
    if kappa is None:
        kappa = n_neg / n_pos
    if power is not None and sig_level is not None:
        if n_cases is not None or n_controls is not None:
            raise ValueError(_ONE_NONE)
    elif n_cases is None and n_controls is None:
        n_cases, n_controls = n_pos, n_neg
    return _one_curve(auc, auc0, n_cases, n_controls, kappa, power, sig_level, two_sided,
                      va=va, method=method)


def _replicate_cov(R):
    """Sample covariance (divisor k - 1) of the finite bootstrap replicates."""
    R = R[np.isfinite(R).all(axis=1)]
    if R.shape[0] < 2:
        raise ValueError("Fewer than two bootstrap replicates are defined: no variance.")
    return np.atleast_2d(np.cov(R, rowvar=False, ddof=1))


def _bootstrap_two(is_pos, S, y_true2, S2, fpr_range, boot):
    metric = "roc_auc" if fpr_range is None else "partial_auc"
    kw = dict(metric=metric, fpr_range=fpr_range, **boot)
    if S2 is None:
        r = bootstrap_test(is_pos, S[:, 0], S[:, 1], **kw)
    else:
        r = bootstrap_test(is_pos, S[:, 0], S2[:, 0], y_true_b=y_true2, **kw)
    C = _replicate_cov(r.replicates)
    return r.estimate_a, r.estimate_b, C


def _pilot_two(y_true, y_score, y_score2, y_true2, n_cases, n_controls, kappa, power,
               sig_level, two_sided, method, fpr_range, boot):
    if method == "delong" and fpr_range is not None:
        raise ValueError("'fpr_range' (partial areas) needs method='obuchowski' or "
                         "'bootstrap'.")
    if y_true2 is None:
        is_pos, S, n_pos, n_neg = _pilot(y_true, y_score, y_score2)
        if method == "bootstrap":
            auc1, auc2, C = _bootstrap_two(is_pos, S, None, None, fpr_range, boot)
            var1, var2, cov12 = C[0, 0] * n_pos, C[1, 1] * n_pos, C[0, 1] * n_pos
        elif method == "delong":
            aucs, cov = delong_covariance(is_pos, S)
            auc1, auc2 = float(aucs[0]), float(aucs[1])
            var1, var2, cov12 = cov[0, 0] * n_pos, cov[1, 1] * n_pos, cov[0, 1] * n_pos
        else:
            auc1, auc2, var1, var2, cov12 = _covvar_obuchowski(is_pos, S, n_pos, n_neg,
                                                                fpr_range)
    else:
        is_pos, S, n_pos, n_neg = _pilot(y_true, y_score, None)
        is_pos2, S2, n_pos2, n_neg2 = _pilot(y_true2, y_score2, None)
        if method == "bootstrap":
            auc1, auc2, C = _bootstrap_two(is_pos, S, is_pos2, S2, fpr_range, boot)
            var1, var2 = C[0, 0] * n_pos, C[1, 1] * n_pos2
        elif method == "delong":
            a1, c1 = delong_covariance(is_pos, S[:, 0])
            a2, c2 = delong_covariance(is_pos2, S2[:, 0])
            auc1, auc2 = float(a1[0]), float(a2[0])
            var1, var2 = float(c1[0, 0]) * n_pos, float(c2[0, 0]) * n_pos2
        else:
            auc1, p1, q1 = _curve_summary(is_pos, np.ascontiguousarray(S[:, 0]), fpr_range)
            auc2, p2, q2 = _curve_summary(is_pos2, np.ascontiguousarray(S2[:, 0]), fpr_range)
            var1 = bn.var_params(p1, q1, n_neg / n_pos, fpr_range)
            var2 = bn.var_params(p2, q2, n_neg2 / n_pos2, fpr_range)
        cov12 = 0.0
    if kappa is None:
        kappa = n_neg / n_pos
    if (power is None or sig_level is None) and n_cases is None and n_controls is None:
        n_cases, n_controls = n_pos, n_neg
    return _two_curves(auc1, auc2, float(var1), float(var2), float(cov12), n_cases, n_controls,
                       kappa, power, sig_level, two_sided, method)


def _from_params(params, n_cases, n_controls, kappa, power, sig_level, two_sided):
    if not hasattr(params, "keys"):
        raise TypeError("'binormal' must be a dict of binormal parameters.")
    p = {str(k).lower(): v for k, v in params.items()}
    missing = [k for k in _PARAM_KEYS if k not in p]
    if missing:
        raise ValueError(f"Missing parameter(s): {', '.join(missing)}")
    unknown = set(p) - set(_PARAM_KEYS) - {"fpr_range", "fpr_range1", "fpr_range2"}
    if unknown:
        raise ValueError(f"Unknown binormal parameter(s): {', '.join(sorted(unknown))}")
    a1, b1, a2, b2, rn, ra, delta = (_number(p[k], k) for k in _PARAM_KEYS)
    if not (-1.0 <= rn <= 1.0 and -1.0 <= ra <= 1.0):
        raise ValueError("Correlations 'rn' and 'ra' must range from -1 to 1.")
    f1 = _fpr_range(p.get("fpr_range1", p.get("fpr_range")), "fpr_range1")
    f2 = _fpr_range(p.get("fpr_range2", p.get("fpr_range")), "fpr_range2")
    if (f1 is None) != (f2 is None):
        raise ValueError("Give partial ranges for both tests or for neither.")
    if kappa is None:
        kappa = 1.0
    solved = _unknown(power, sig_level)
    if solved != "n" and n_cases is None and n_controls is None:
        raise ValueError(_SIZES)
    if solved != "n":
        n_cases, n_controls = _sizes(n_cases, n_controls, kappa)
        kappa = n_controls / n_cases
    var1 = bn.var_params(a1, b1, kappa, f1)
    var2 = bn.var_params(a2, b2, kappa, f2)
    cov12 = bn.cov_params(a1, b1, a2, b2, rn, ra, kappa, f1, f2)
    return _two_curves(math.nan, math.nan, var1, var2, cov12, n_cases, n_controls, kappa,
                       power, sig_level, two_sided, "obuchowski", delta=delta)
