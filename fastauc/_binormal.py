"""Binormal ROC model and the closed forms of study planning.

The variance of an AUC from its binormal parameters (Obuchowski & McClish
1997, formulas 4-5 and table 1), the variance of an AUC from the AUC alone
(Obuchowski, Lieber & Wians 2004, formula 3), the sample-size equation that
links both to power and significance level, the least-squares binormal fit
of the empirical curve's points, a bracketing root finder and the area under
the empirical curve over a false-positive-rate range.  Written for
``power.py`` and ``smoothing.py``, from the papers and pROC's documented
choices (the fit of ``qnorm(specificity)`` on ``qnorm(sensitivity)``).
"""

from __future__ import annotations

import math

import numpy as np

from ._kernels.binormal import norm_cdf
from ._kernels.normal import norm_ppf as _ppf_kernel
from ._stats import norm_ppf as _norm_ppf
from ._stats import ratio
from ._table import sorted_tallies

NOT_SMOOTHABLE = "ROC curve not smoothable (not enough points)."


# ------------------------------------------------------------------ scalars

def qnorm(p: float) -> float:
    """Standard normal quantile, -inf at 0 and inf at 1."""
    if p <= 0.0:
        return -math.inf if p == 0.0 else math.nan
    if p >= 1.0:
        return math.inf if p == 1.0 else math.nan
    return _norm_ppf(p)


def pnorm(z: float) -> float:
    return 0.5 * math.erfc(-z / math.sqrt(2.0))


def qnorm_array(p: np.ndarray) -> np.ndarray:
    p = np.ascontiguousarray(p, np.float64)
    return _ppf_kernel(p, np.empty_like(p))


def pnorm_array(z: np.ndarray) -> np.ndarray:
    z = np.ascontiguousarray(z, np.float64)
    return norm_cdf(z, np.empty_like(z))


# --------------------------------------------- Obuchowski's variance formulas

def var_theta(theta: float, kappa: float) -> float:
    """Variance of the AUC times the number of cases from the AUC alone
    (Obuchowski, Lieber & Wians 2004, formula 3; ``kappa`` = controls/cases).
    At ``theta = 0.5`` it is ``0.0792 (1 + 1 / kappa)``."""
    a = qnorm(theta) * 1.414
    return 0.0099 * math.exp(-a * a / 2.0) * ((5.0 * a * a + 8.0) + (a * a + 8.0) / kappa)


def _fg(a: float, b: float, fpr=None) -> tuple[float, float]:
    """The derivatives ``f`` (in ``a``) and ``g`` (in ``b``) of the (partial)
    area of the binormal curve (Obuchowski & McClish 1997, table 1).  For a
    partial area ``fpr = (fpr1, fpr2)``; the sign of the expression in
    ``exp`` follows pROC (the paper prints the opposite)."""
    e1 = math.exp(-a * a / (2.0 * (1.0 + b * b)))
    e2 = 1.0 + b * b
    if fpr is None:
        f = e1 * (2.0 * math.pi * e2) ** -0.5
        g = -e1 * a * b * (2.0 * math.pi * e2 ** 3) ** -0.5
        return f, g
    c1, c2 = (((qnorm(x) + a * b / e2) * math.sqrt(e2)) for x in fpr)
    e3 = pnorm(c1) - pnorm(c2)
    e4 = math.exp(-c1 * c1 / 2.0) - math.exp(-c2 * c2 / 2.0)
    f = e1 * (2.0 * math.pi * e2) ** -0.5 * e3
    g = e1 / (2.0 * math.pi * e2) * (-e4) - a * b * e1 * (2.0 * math.pi * e2 ** 3) ** -0.5 * e3
    return f, g


def var_params(a: float, b: float, kappa: float, fpr=None) -> float:
    """Variance of the (partial) area times the number of cases from the
    binormal parameters (Obuchowski & McClish 1997, formula 4)."""
    f, g = _fg(a, b, fpr)
    return (f * f * (1.0 + b * b / kappa + a * a / 2.0)
            + g * g * b * b * (1.0 + kappa) / (2.0 * kappa))


def cov_params(a1, b1, a2, b2, rn, ra, kappa, fpr1=None, fpr2=None) -> float:
    """Covariance of two (partial) areas times the number of cases, with
    ``rn``/``ra`` the correlations of the two tests in the controls/cases
    (Obuchowski & McClish 1997, formula 5)."""
    f1, g1 = _fg(a1, b1, fpr1)
    f2, g2 = _fg(a2, b2, fpr2)
    return (f1 * f2 * (ra + rn * b1 * b2 / kappa + ra * ra * a1 * a2 / 2.0)
            + g1 * g2 * (b1 * b2 * (rn * rn + kappa * ra * ra) / (2.0 * kappa))
            + f1 * g2 * (ra * ra * a1 * b2 / 2.0) + f2 * g1 * (ra * ra * a2 * b1 / 2.0))


# ------------------------------------------------ the sample-size equation

def _sqrt(x: float) -> float:
    """NaN for a negative variance (a covariance above a variance), as R."""
    return math.sqrt(x) if x >= 0.0 else math.nan


def solve_n(z_alpha, z_beta, v0, va, delta) -> float:
    """Cases needed: ``(z_alpha sqrt(v0) + z_beta sqrt(va))^2 / delta^2``
    (IEEE results for a zero denominator, here and below)."""
    t = z_alpha * _sqrt(v0) + z_beta * _sqrt(va)
    return ratio(t * t, delta * delta)


def solve_z_beta(n, z_alpha, v0, va, delta) -> float:
    return ratio(_sqrt(n * delta * delta) - z_alpha * _sqrt(v0), _sqrt(va))


def solve_z_alpha(n, z_beta, v0, va, delta) -> float:
    return ratio(_sqrt(n * delta * delta) - z_beta * _sqrt(va), _sqrt(v0))


def brent_root(f, lo: float, hi: float, tol: float = 1e-12, maxiter: int = 1000) -> float:
    """A root of ``f`` in ``[lo, hi]`` by Brent's method (bisection
    safeguarding secant and inverse quadratic steps; Brent 1973, the zeroin
    that R's ``uniroot`` runs), to ``tol`` in ``x``.  An end may give an
    infinity.  Raises ValueError when ``f`` does not change sign over the
    bracket."""
    a, b = float(lo), float(hi)
    fa, fb = f(a), f(b)
    if math.isnan(fa) or math.isnan(fb) or (fa > 0.0) == (fb > 0.0) and fa != 0.0 and fb != 0.0:
        raise ValueError("f() values at end points not of opposite sign")
    if fa == 0.0:
        return a
    if fb == 0.0:
        return b
    c, fc = a, fa
    eps = 2.220446049250313e-16
    for _ in range(maxiter + 1):
        prev_step = b - a
        if abs(fc) < abs(fb):
            a, b, c = b, c, b
            fa, fb, fc = fb, fc, fb
        tol_act = 2.0 * eps * abs(b) + tol / 2.0
        new_step = (c - b) / 2.0
        if abs(new_step) <= tol_act or fb == 0.0:
            return b
        if abs(prev_step) >= tol_act and abs(fa) > abs(fb):
            cb = c - b
            if a == c:  # secant
                t1 = fb / fa
                p, q = cb * t1, 1.0 - t1
            else:  # inverse quadratic interpolation
                q, t1, t2 = fa / fc, fb / fc, fb / fa
                p = t2 * (cb * q * (q - t1) - (b - a) * (t1 - 1.0))
                q = (q - 1.0) * (t1 - 1.0) * (t2 - 1.0)
            if p > 0.0:
                q = -q
            else:
                p = -p
            if p < 0.75 * cb * q - abs(tol_act * q) / 2.0 and p < abs(prev_step * q / 2.0):
                new_step = p / q
        if abs(new_step) < tol_act:
            new_step = tol_act if new_step > 0.0 else -tol_act
        a, fa = b, fb
        b += new_step
        fb = f(b)
        if (fb > 0.0 and fc > 0.0) or (fb < 0.0 and fc < 0.0):
            c, fc = a, fa
    return b


# ------------------------------------------------ empirical curve and its fit

def empirical_points(is_pos, score, weight):
    """Sensitivity and specificity after each distinct score (descending),
    and the class totals, from one sort."""
    t = sorted_tallies(is_pos, score, weight, curve=True)
    tps, fps = t.tps[1:], t.fps[1:]
    P, N = float(t.total_pos), float(t.total_neg)
    if not (P > 0.0 and N > 0.0):
        raise ValueError("Only one class present in y_true. A ROC curve is not defined in "
                         "that case.")
    return tps / P, (N - fps) / N, P, N


def binormal_fit(se: np.ndarray, sp: np.ndarray) -> tuple[float, float]:
    """Least squares of ``qnorm(sp)`` on ``qnorm(se)`` over the points where
    both are finite: ``(intercept, slope)``.  Raises ValueError with fewer
    than two points or no spread in either coordinate."""
    zse, zsp = qnorm_array(se), qnorm_array(sp)
    keep = np.isfinite(zse) & np.isfinite(zsp)
    x, y = zse[keep], zsp[keep]
    # one point, or all on a vertical or horizontal line: no line (or a flat
    # one, whose curve is undefined at the ends)
    if x.shape[0] <= 1 or (x == x[0]).all() or (y == y[0]).all():
        raise ValueError(NOT_SMOOTHABLE)
    xm, ym = x.mean(), y.mean()
    sxx = float(np.dot(x - xm, x - xm))
    slope = float(np.dot(x - xm, y - ym)) / sxx
    return float(ym - slope * xm), slope


def binormal_auc(a: float, b: float) -> float:
    return pnorm(a / math.sqrt(1.0 + b * b))


def partial_area(fpr: np.ndarray, tpr: np.ndarray, lo: float, hi: float) -> float:
    """Area under the piecewise-linear curve ``tpr(fpr)`` (points in order,
    from (0, 0) to (1, 1)) for ``lo <= fpr <= hi``, without standardizing."""
    cum = np.concatenate(([0.0], np.cumsum(np.diff(fpr) * (tpr[1:] + tpr[:-1]) / 2.0)))

    def upto(x):
        i = int(np.searchsorted(fpr, x, side="right")) - 1
        i = min(max(i, 0), fpr.shape[0] - 2)
        x0, x1 = fpr[i], fpr[i + 1]
        y0 = tpr[i]
        yx = y0 if x1 == x0 else y0 + (tpr[i + 1] - y0) * (x - x0) / (x1 - x0)
        return float(cum[i] + (x - x0) * (y0 + yx) / 2.0)

    return upto(hi) - upto(lo)


# ------------------------------------------------------ density smoothing

def bw_nrd0(x: np.ndarray) -> float:
    """Silverman's rule of thumb as R's ``bw.nrd0``: ``0.9 min(sd, IQR / 1.34)
    n^-0.2`` (the sd, then ``|x[0]|``, then 1 where the spread is zero)."""
    with np.errstate(over="ignore", invalid="ignore"):  # huge scores: inf, caught later
        hi = float(np.std(x, ddof=1))
        q75, q25 = np.percentile(x, [75.0, 25.0])
        lo = min(hi, float(q75 - q25) / 1.34)
    if not lo:
        lo = hi or abs(float(x[0])) or 1.0
    return 0.9 * lo * x.shape[0] ** -0.2


def density_curve(dens_controls: np.ndarray, dens_cases: np.ndarray):
    """Specificities and sensitivities (before the anchors) of the curve of
    two densities on one increasing grid, a threshold between consecutive
    grid points: ``sp[i]`` is the controls' mass below point ``i``,
    ``se[i]`` the cases' mass from point ``i`` on (pROC's
    ``roc_utils_perfs_dens``, higher scores for the cases)."""
    below = np.concatenate(([0.0], np.cumsum(dens_controls)[:-1]))
    from_here = np.cumsum(dens_cases[::-1])[::-1]
    return below / dens_controls.sum(), from_here / dens_cases.sum()
