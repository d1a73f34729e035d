"""Smoothed ROC curves (pROC's smooth.roc): the binormal fit of the empirical curve."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ._device import dispatch
from . import _binormal as bn
from . import _validation as v
from ._kernels.binormal import gaussian_density

__all__ = ["SmoothROC", "smooth_roc"]


@dataclass(frozen=True)
class SmoothROC:
    """Result of :func:`smooth_roc`: a smoothed ROC curve.

    Attributes
    ----------
    specificities : ndarray of shape (n + 2,)
        Specificities of the smoothed curve, increasing from 0 to 1.
    sensitivities : ndarray of shape (n + 2,)
        Sensitivities of the smoothed curve, decreasing from 1 to 0.
    auc : float
        Area under the smoothed curve: ``Phi(a / sqrt(1 + b^2))``.
    a, b : float
        The binormal parameters: ``Phi^-1(TPR) = a + b Phi^-1(FPR)``
        (``a = (mu1 - mu0) / sigma1``, ``b = sigma0 / sigma1`` for normal
        scores).
    intercept, slope : float
        The least-squares fit ``Phi^-1(specificity) = intercept + slope
        Phi^-1(sensitivity)`` that gives them (pROC's model coefficients):
        ``a = -intercept / slope``, ``b = -1 / slope``.
    method : str
        ``"binormal"`` or ``"density"``.
    bandwidth : float
        The kernel bandwidth of ``method="density"`` (NaN otherwise, and
        when both densities were given as arrays).

    See Also
    --------
    smooth_roc : The function returning this record.

    Notes
    -----
    With ``method="density"`` the binormal attributes ``a``, ``b``,
    ``intercept`` and ``slope`` are NaN, and ``auc`` is the trapezoidal area
    of the drawn points.

    Examples
    --------
    >>> import numpy as np
    >>> from fastauc import smooth_roc
    >>> rng = np.random.default_rng(0)
    >>> y = rng.integers(0, 2, 500)
    >>> sm = smooth_roc(y, y + rng.normal(size=500))
    >>> round(sm.auc, 3), sm.method, sm.specificities.shape
    (0.73, 'binormal', (514,))
    """

    specificities: np.ndarray
    sensitivities: np.ndarray
    auc: float
    a: float
    b: float
    intercept: float
    slope: float
    method: str
    bandwidth: float = math.nan

    def __repr__(self):
        if self.method == "density":
            return (f"SmoothROC(method='density', auc={self.auc!r}, "
                    f"bandwidth={self.bandwidth!r}, n_points={self.specificities.shape[0]})")
        return (f"SmoothROC(method={self.method!r}, auc={self.auc!r}, a={self.a!r}, "
                f"b={self.b!r}, n_points={self.specificities.shape[0]})")


def _grid_curve(intercept, slope, n):
    """pROC's curve: sensitivities ``Phi(Phi^-1(i / (n - 1)))`` (R's ``seq``:
    ``i * (1 / (n - 1))``, capped at 1), specificities from the fit, in
    increasing specificity, anchored at (0, 1) and (1, 0)."""
    z = bn.qnorm_array(np.minimum(np.arange(n) * (1.0 / (n - 1)), 1.0))
    se = bn.pnorm_array(z)
    sp = bn.pnorm_array(intercept + slope * z)
    if np.any(sp[1:] < sp[:-1]):
        se, sp = se[::-1], sp[::-1]
    return (np.concatenate(([0.0], sp, [1.0])), np.concatenate(([1.0], se, [0.0])))


def _densities(is_pos, s, n, bw, adjust, cut, density_controls, density_cases):
    """Each class's density on one grid: given arrays, or callables
    ``f(scores, grid)``, or Gaussian kernel sums (bandwidth from the pooled
    scores, R's ``bw.nrd0`` by default)."""
    given = [d for d in (density_controls, density_cases) if d is not None]
    if len(given) == 2 and all(not callable(d) for d in given):
        dc = v.as_float_array(density_controls, "density_controls")
        dk = v.as_float_array(density_cases, "density_cases")
        bandwidth = math.nan
    else:
        if isinstance(bw, str):
            if bw != "nrd0":
                raise ValueError(f"'bw' must be 'nrd0' or a positive number; got {bw!r}.")
            if s.shape[0] < 2:
                raise ValueError("need at least 2 points to select a bandwidth automatically")
            bandwidth = bn.bw_nrd0(np.concatenate((s[~is_pos], s[is_pos])))
        else:
            bandwidth = float(bw)
        bandwidth *= float(adjust)
        if not (math.isfinite(bandwidth) and bandwidth > 0.0):
            raise ValueError(f"The bandwidth must be positive and finite; got {bandwidth!r}.")
        lo, hi = float(s.min()) - cut * bandwidth, float(s.max()) + cut * bandwidth
        grid = np.linspace(lo, hi, n)

        def one(d, scores, name):
            if d is None:
                return gaussian_density(np.ascontiguousarray(scores), grid, bandwidth,
                                        np.empty(n))
            if callable(d):
                out = d(scores.copy(), grid.copy())
                return v.as_float_array(getattr(out, "y", out), f"{name}(scores, grid)")
            return v.as_float_array(d, name)

        dc = one(density_controls, s[~is_pos], "density_controls")
        dk = one(density_cases, s[is_pos], "density_cases")
    if dc.shape[0] != dk.shape[0]:
        raise ValueError("Length of 'density_controls' and 'density_cases' differ "
                         f"({dc.shape[0]} and {dk.shape[0]}).")
    for d, name in ((dc, "density_controls"), (dk, "density_cases")):
        v.check_finite(d, name)
        if (d < 0).any() or not d.sum() > 0:
            raise ValueError(f"{name} must be non-negative with a positive sum (a kernel "
                             "density is zero on the whole grid when the bandwidth is far "
                             "below the grid's spacing: raise n or bw).")
    return dc, dk, bandwidth


@dispatch("y_score")
def smooth_roc(y_true, y_score, *, method="binormal", n=512, bw="nrd0", adjust=1.0, cut=3.0,
               density=None, density_controls=None, density_cases=None, pos_label=None):
    """Smoothed ROC curve: the binormal fit, or kernel densities of each class.

    pROC's ``smooth.roc``.  ``method="binormal"``: the least-squares line of
    ``Phi^-1(specificity)`` on ``Phi^-1(sensitivity)`` over the empirical
    curve's points (one per distinct score, those with both coordinates
    strictly between 0 and 1), drawn on ``n`` sensitivities evenly spaced
    over [0, 1].  ``method="density"``: each class's density on a grid of
    ``n`` scores, the curve of thresholds between grid points.  Both are
    anchored at (0, 1) and (1, 0).

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Binary labels.
    y_score : array-like of shape (n_samples,)
        Scores, higher for the positive class.
    method : {"binormal", "density"}, default="binormal"
        The smoothing.
    n : int, default=512
        Number of points of the smoothed curve before the two anchors.
    bw : "nrd0" or float, default="nrd0"
        ``method="density"``: the Gaussian kernel's bandwidth, or R's rule
        of thumb ``bw.nrd0`` on all the scores.
    adjust : float, default=1.0
        ``method="density"``: a factor on the bandwidth.
    cut : float, default=3.0
        ``method="density"``: the grid spans the scores and ``cut``
        bandwidths on each side.
    density : callable or array-like of shape (n,), default=None
        ``method="density"``: both classes' density (see the next two).
    density_controls, density_cases : callable or array-like of shape (n,), default=None
        ``method="density"``: the negatives' and the positives' density,
        either its values on the grid, or a function ``f(scores, grid)``
        of the class's scores and the grid (returning the values, or an
        object with the values as ``.y``).  None: the Gaussian kernel
        density, summed exactly.
    pos_label : int, float, bool or str, default=None
        The positive class; None: the greater label, as for
        :func:`roc_auc_score`.

    Returns
    -------
    curve : SmoothROC
        ``specificities``, ``sensitivities`` (``n + 2`` points), ``auc``;
        binormal: ``a``, ``b``, ``intercept``, ``slope``; density:
        ``bandwidth``.

    Raises
    ------
    ValueError
        When the binormal fit has fewer than two points strictly inside the
        unit square ("ROC curve not smoothable (not enough points).", pROC's
        words), ``y_true`` is not binary or has one class, ``n < 2``, or the
        densities are negative, not finite or of different lengths.

    See Also
    --------
    roc_curve : The empirical curve.
    roc_power : Uses the binormal fit for ``method="obuchowski"``.

    Notes
    -----
    The binormal area is ``Phi(a / sqrt(1 + b^2))`` (the same from
    ``intercept`` and ``slope``), not the trapezoids of the drawn points;
    the density curve's area is its trapezoids.  Ordinary least squares on
    the empirical points is pROC's simple fit; maximum likelihood (Metz's
    ROCFIT) weighs the points differently and gives other values.  R's
    ``density()``, pROC's default density, bins the scores on a grid and
    convolves by FFT, an approximation of the exact kernel sum computed
    here: its curve agrees with this one to the binning's accuracy, not to
    the last digit.

    References
    ----------
    .. [1] Metz, C. E., Herman, B. A. and Shen, J.-H. (1998). Maximum
       likelihood estimation of receiver operating characteristic (ROC)
       curves from continuously-distributed data. Statistics in Medicine 17,
       1033-1053.
    .. [2] Hanley, J. A. and McNeil, B. J. (1982). The meaning and use of
       the area under a receiver operating characteristic (ROC) curve.
       Radiology 143, 29-36.
    .. [3] Zou, K. H., Hall, W. J. and Shapiro, D. E. (1997). Smooth
       non-parametric receiver operating characteristic (ROC) curves for
       continuous diagnostic tests. Statistics in Medicine 16, 2143-2156.
    .. [4] Silverman, B. W. (1986). Density Estimation for Statistics and
       Data Analysis. Chapman & Hall (the bandwidth rule).
    .. [5] Robin, X. et al. (2011). pROC: an open-source package for R and
       S+ to analyze and compare ROC curves. BMC Bioinformatics 12, 77.

    Examples
    --------
    >>> from fastauc import smooth_roc
    >>> curve = smooth_roc([0, 0, 1, 0, 1, 1, 0, 1], [1, 2, 3, 4, 5, 6, 7, 8], n=5)
    >>> curve.sensitivities
    array([1.  , 1.  , 0.75, 0.5 , 0.25, 0.  , 0.  ])
    >>> round(curve.auc, 6), round(curve.a, 4), round(curve.b, 4)
    (0.702779, 2.0235, 3.6667)
    >>> dens = smooth_roc([0, 0, 1, 0, 1, 1, 0, 1], [1, 2, 3, 4, 5, 6, 7, 8],
    ...                   method="density")
    >>> round(dens.auc, 4), round(dens.bandwidth, 4)
    (0.7115, 1.4545)
    """
    if method not in ("binormal", "density"):
        raise ValueError(f"'method' must be 'binormal' or 'density'; got {method!r}.")
    if isinstance(n, (bool, np.bool_)) or not isinstance(n, (int, np.integer)):
        raise TypeError(f"'n' must be an integer, got {type(n).__name__}.")
    if n < 2:
        raise ValueError(f"'n' must be at least 2; got {n}.")
    is_pos, s, w, _, _ = v.binary_target(y_true, y_score, None, pos_label,
                                         default_rule="greater")
    if method == "density":
        if not (is_pos.any() and not is_pos.all()):
            raise ValueError("Only one class present in y_true. A ROC curve is not defined "
                             "in that case.")
        if density is not None:
            density_controls = density if density_controls is None else density_controls
            density_cases = density if density_cases is None else density_cases
        dc, dk, bandwidth = _densities(is_pos, s, int(n), bw, adjust, cut, density_controls,
                                       density_cases)
        sp, se = bn.density_curve(dc, dk)
        specificities = np.concatenate(([0.0], sp, [1.0]))
        sensitivities = np.concatenate(([1.0], se, [0.0]))
        area = float(np.sum(np.diff(specificities)
                            * (sensitivities[1:] + sensitivities[:-1]) / 2.0))
        nan = math.nan
        return SmoothROC(specificities, sensitivities, area, nan, nan, nan, nan, "density",
                         bandwidth)
    se, sp, _, _ = bn.empirical_points(is_pos, s, w)
    intercept, slope = bn.binormal_fit(se, sp)
    specificities, sensitivities = _grid_curve(intercept, slope, int(n))
    a = -intercept / slope if slope != 0.0 else math.nan
    b = -1.0 / slope if slope != 0.0 else math.nan
    return SmoothROC(specificities, sensitivities, bn.binormal_auc(intercept, slope), a, b,
                     intercept, slope, "binormal")
