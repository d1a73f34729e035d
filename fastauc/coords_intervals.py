"""Confidence intervals of ROC coordinates (pROC's ``ci.coords``): the
stratified bootstrap, one pass over the sorted rows per replicate, and the
binomial intervals in closed form.  The coordinates themselves come from
:mod:`fastauc.coords`, the same functions the replicates call.
"""

from __future__ import annotations

import numbers
import threading
import warnings
from dataclasses import dataclass

import numpy as np

from . import _validation as v
from ._curves import layout_tallies
from ._device import dispatch
from ._kernels import coords as K
from ._kernels.resampling import draw_buffer
from ._kernels.sorting import keys_to_floats
from ._parallel import map_units
from ._resample import _prepare, batch_size, layout_table
from ._stats import norm_ppf
from ._coords import (
    _INPUTS,
    Coords,
    _best_args,
    _Curve,
    _curve,
    _input_code,
    _ret_codes,
    _x_values,
    coords_of_curve,
)

__all__ = ["CoordsCI", "coords_ci"]

_POLICIES = {"stop": K.POLICY_STOP, "omit": K.POLICY_OMIT, "random": K.POLICY_RANDOM}
_CI_METHODS = ("bootstrap", "wilson", "clopper-pearson", "agresti-coull")


@dataclass(frozen=True, eq=False)
class CoordsCI:
    """Confidence intervals of ROC coordinates (pROC's ``ci.coords``).

    Attributes
    ----------
    estimate : Coords
        The coordinates of all rows (:func:`coords`).
    low, high : Coords
        The interval's bounds, same shape.
    median : Coords or None
        The replicates' median (the middle column pROC prints); None for the
        binomial methods.
    method : str
        ``"bootstrap"``, ``"wilson"``, ``"clopper-pearson"`` or ``"agresti-coull"``.
    confidence_level : float
        Level of the intervals.
    n_resamples : int
        Bootstrap replicates (0 for a binomial method).
    n_dropped : int
        Replicates without a value (a class drawn with no weight).
    replicates : ndarray of shape (n_resamples, n_points, n_coords) or None
        Every replicate's coordinates (NaN where undefined).

    See Also
    --------
    coords_ci : Computes them.

    Examples
    --------
    >>> import numpy as np
    >>> from fastauc import coords_ci
    >>> rng = np.random.default_rng(0)
    >>> y = rng.integers(0, 2, 400)
    >>> s = y + rng.normal(size=400)
    >>> ci = coords_ci(y, s, [0.9], input="specificity", ret="sensitivity",
    ...                n_resamples=200, random_state=0)
    >>> bool(ci.low["sensitivity"][0] < ci.estimate["sensitivity"][0] < ci.high["sensitivity"][0])
    True
    """

    estimate: Coords
    low: Coords
    high: Coords
    median: Coords | None
    method: str
    confidence_level: float
    n_resamples: int
    n_dropped: int
    replicates: np.ndarray | None

    def to_frame(self):
        """A long pandas DataFrame: one row per point and coordinate, with
        ``estimate``, ``low``, ``high`` (needs pandas)."""
        import pandas as pd

        rows = []
        for name in self.estimate.columns:
            for i in range(self.estimate.n_points):
                rows.append({"point": i, "coordinate": name,
                             "estimate": self.estimate.columns[name][i],
                             "low": self.low.columns[name][i],
                             "high": self.high.columns[name][i]})
        return pd.DataFrame(rows)

    def __repr__(self) -> str:
        lines = [f"CoordsCI(method={self.method!r}, confidence_level={self.confidence_level}, "
                 f"n_resamples={self.n_resamples})"]
        for name, est in self.estimate.columns.items():
            lo, hi = self.low.columns[name], self.high.columns[name]
            cells = ", ".join(f"{e:.4g} [{a:.4g}, {b:.4g}]" for e, a, b in
                              zip(est[:6], lo[:6], hi[:6]))
            lines.append(f"  {name}: {cells}{', ...' if est.shape[0] > 6 else ''}")
        return "\n".join(lines)


# ---------------------------------------------------------------- intervals

_PROPORTIONS = {  # coordinate -> (successes, trials) from tp, fp, tn, fn, or a complement
    "specificity": ("tn", "N"), "sensitivity": ("tp", "P"), "accuracy": ("tp+tn", "P+N"),
    "npv": ("tn", "tn+fn"), "ppv": ("tp", "tp+fp"), "precision": ("tp", "tp+fp"),
    "fdr": ("fp", "tp+fp"), "fpr": ("fp", "N"), "tpr": ("tp", "P"), "tnr": ("tn", "N"),
    "fnr": ("fn", "P"), "recall": ("tp", "P"), "1-specificity": ("fp", "N"),
    "1-sensitivity": ("fn", "P"), "1-accuracy": ("fp+fn", "P+N"), "1-npv": ("fn", "tn+fn"),
    "1-ppv": ("fp", "tp+fp")}
_COUNTS = {"tp": "P", "fn": "P", "tn": "N", "fp": "N"}


def _binomial(k, n, level, method):
    """Intervals of proportions ``k / n`` (arrays), closed form."""
    alpha = 1.0 - level
    z = norm_ppf(1.0 - alpha / 2.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        if method == "clopper-pearson":
            out = np.empty((2, k.shape[0]))
            K.clopper_pearson(np.ascontiguousarray(k, np.float64),
                              np.ascontiguousarray(n, np.float64), alpha, out)
            return out[0], out[1]
        if method == "wilson":
            p = k / n
            den = 1.0 + z * z / n
            centre = (p + z * z / (2.0 * n)) / den
            half = z * np.sqrt(p * (1.0 - p) / n + z * z / (4.0 * n * n)) / den
            return np.clip(centre - half, 0.0, 1.0), np.clip(centre + half, 0.0, 1.0)
        # Agresti-Coull: the Wald interval of (k + z^2/2) / (n + z^2)
        nt = n + z * z
        pt = (k + z * z / 2.0) / nt
        half = z * np.sqrt(pt * (1.0 - pt) / nt)
        return np.clip(pt - half, 0.0, 1.0), np.clip(pt + half, 0.0, 1.0)


def _binomial_coords(curve, x, in_code, names, codes, level, method, r, est):
    """The binomial intervals: each proportion's successes and trials at the
    points of ``est`` (from its sensitivity and specificity)."""
    full, fcodes = _ret_codes(["sensitivity", "specificity"], None)
    pts = coords_of_curve(curve, x, _INPUTS_NAME[in_code], full, "youden", (1.0, 0.5))
    se, sp = pts.columns["sensitivity"], pts.columns["specificity"]
    P, N = curve.P, curve.N
    tp, tn = se * P, sp * N
    fp, fn = N - tn, P - tp
    parts = {"tp": tp, "fp": fp, "tn": tn, "fn": fn, "P": np.full_like(tp, P),
             "N": np.full_like(tp, N), "tp+tn": tp + tn, "P+N": np.full_like(tp, P + N),
             "tn+fn": tn + fn, "tp+fp": tp + fp, "fp+fn": fp + fn}
    low, high = {}, {}
    for nm in names:
        e = est.columns[nm]
        if nm == "threshold":
            low[nm], high[nm] = e.copy(), e.copy()
        elif nm in _PROPORTIONS:
            kk, nn = _PROPORTIONS[nm]
            low[nm], high[nm] = _binomial(parts[kk], parts[nn], level, method)
        elif nm in _COUNTS:
            tot = P if _COUNTS[nm] == "P" else N
            a, b = _binomial(parts[nm], np.full_like(tp, tot), level, method)
            low[nm], high[nm] = a * tot, b * tot
        else:
            raise ValueError(f"method={method!r} gives intervals of proportions and counts "
                             f"only; {nm!r} is neither (use method='bootstrap')")
    return Coords(low), Coords(high)


_INPUTS_NAME = {code: name for name, code in reversed(list(_INPUTS.items()))}


def _check_level(confidence_level):
    if isinstance(confidence_level, (bool, np.bool_)) or \
            not isinstance(confidence_level, numbers.Real) or \
            not 0.0 < float(confidence_level) < 1.0:
        raise ValueError(f"confidence_level must be a number in (0, 1), got "
                         f"{confidence_level!r}")
    return float(confidence_level)


@dispatch("y_score")
def coords_ci(y_true, y_score, x, *, input="threshold", ret=None, method="bootstrap",
              n_resamples=2000, confidence_level=0.95, stratified=True, sample_weight=None,
              pos_label=None, random_state=None, best_method="youden", best_weights=(1.0, 0.5),
              best_policy="stop"):
    """Confidence intervals of ROC coordinates (pROC's ``ci.coords``, ``ci.se``,
    ``ci.sp``, ``ci.thresholds``), bootstrap or binomial.

    The bootstrap sorts the rows once; each replicate resamples them (by class
    when ``stratified``, as pROC does), accumulates its curve in one pass and
    evaluates every point with the same functions as :func:`coords`:
    thresholds stay fixed, rates are found again on the replicate's curve
    (``ci.se``: sensitivity at fixed specificities), ``x="best"`` is the
    replicate's best point.  The binomial methods give closed-form intervals
    of each proportion at the points (the threshold taken as fixed).

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Binary labels.
    y_score : array-like of shape (n_samples,)
        Scores; higher means more likely positive.
    x : "best" or array-like of float
        The points, as in :func:`coords` (``"all"`` and ``"local maxima"``
        are not available, as in pROC).
    input : str, default="threshold"
        What ``x`` holds, as in :func:`coords`.
    ret : str or sequence of str, default=None
        The coordinates (as in :func:`coords`); None: threshold, specificity
        and sensitivity, without the threshold unless ``input="threshold"``
        or ``x="best"`` (pROC's default).
    method : {"bootstrap", "wilson", "clopper-pearson", "agresti-coull"}, default="bootstrap"
        Percentile bootstrap (pROC), or a binomial interval of each
        proportion (Wilson's score interval; Clopper-Pearson's exact one;
        Agresti-Coull's), and of each count as its total times the
        proportion's interval.
    n_resamples : int, default=2000
        Bootstrap replicates (pROC's ``boot.n``).
    confidence_level : float, default=0.95
        Level of the intervals, in (0, 1).
    stratified : bool, default=True
        Resample positives and negatives separately (pROC's
        ``boot.stratified``); else together (replicates with one class give
        NaN and are counted in ``n_dropped``).
    sample_weight : array-like of shape (n_samples,), default=None
        Rows are resampled with their weights.  The binomial methods treat
        weights as frequencies (the trials are the weighted totals).
    pos_label : int, float, bool or str, default=None
        The positive class; None: scikit-learn's rule (labels {0, 1} or {-1, 1}).
    random_state : None, int, numpy Generator, RandomState or SeedSequence, default=None
        Seeds every replicate's own stream: the same value gives the same
        intervals whatever the number of threads.
    best_method : {"youden", "closest.topleft"}, default="youden"
        As in :func:`coords`.
    best_weights : tuple of 2 floats, default=(1.0, 0.5)
        As in :func:`coords`.
    best_policy : {"stop", "omit", "random"}, default="stop"
        With ``x="best"``, a replicate whose best point is not unique: raise
        (pROC's default), give NaN, or take one of them at random (from the
        replicate's own stream).

    Returns
    -------
    CoordsCI
        ``estimate`` (:func:`coords` of all rows), ``low``, ``high``,
        ``median`` (bootstrap), ``method``, ``confidence_level``,
        ``n_resamples``, ``n_dropped`` and ``replicates``.

    Raises
    ------
    ValueError
        As :func:`coords`; ``x="all"`` or ``"local maxima"``; ``"threshold"``
        in ``ret`` unless ``x="best"`` or ``input="threshold"`` (pROC's
        rule); a binomial method for a coordinate that is not a proportion or
        a count; a replicate with several best points under
        ``best_policy="stop"``; one class in ``y_true``.

    See Also
    --------
    coords : The coordinates themselves.
    roc_confidence_band : A pointwise band of the whole ROC curve.
    bootstrap_ci : Bootstrap intervals of the AUC and other metrics.

    Notes
    -----
    Percentile intervals from the replicates' quantiles (R's type 7, pROC's),
    NaN replicates left out.  Binomial: Wilson (1927), Clopper and Pearson
    (1934), Agresti and Coull (1998); with ``input`` a rate, the point's
    threshold is treated as known, which ignores the uncertainty of choosing
    it on the same data (the bootstrap does not).

    References
    ----------
    .. [1] Robin, X. et al. (2011). pROC: an open-source package for R and S+
       to analyze and compare ROC curves. BMC Bioinformatics 12, 77.
    .. [2] Wilson, E. B. (1927). Probable inference, the law of succession, and
       statistical inference. JASA 22, 209-212.
    .. [3] Clopper, C. J. and Pearson, E. S. (1934). The use of confidence or
       fiducial limits illustrated in the case of the binomial. Biometrika 26, 404-413.
    .. [4] Agresti, A. and Coull, B. A. (1998). Approximate is better than
       "exact" for interval estimation of binomial proportions. The American
       Statistician 52, 119-126.

    Examples
    --------
    >>> import numpy as np
    >>> from fastauc import coords_ci
    >>> rng = np.random.default_rng(0)
    >>> y = rng.integers(0, 2, 1000)
    >>> s = y + rng.normal(size=1000)
    >>> ci = coords_ci(y, s, [0.8, 0.9], input="specificity", ret="sensitivity",
    ...                n_resamples=500, random_state=0)
    >>> ci.estimate.sensitivity.round(3)
    array([0.62 , 0.404])
    >>> bool(np.all(ci.low.sensitivity < ci.high.sensitivity))
    True
    >>> w = coords_ci(y, s, [0.5], ret=["sensitivity", "specificity"], method="wilson")
    >>> w.low.sensitivity.round(3), w.high.sensitivity.round(3)
    (array([0.689]), array([0.764]))
    """
    if method not in _CI_METHODS:
        raise ValueError(f"method must be one of {', '.join(repr(m) for m in _CI_METHODS)}, "
                         f"got {method!r}")
    level = _check_level(confidence_level)
    in_name, in_code = _input_code(input)
    best = isinstance(x, str)
    if best:
        what = x.replace("_", " ")
        if what in ("all", "local maxima", "local maximas"):
            raise ValueError("'all' and 'local maximas' are not available for confidence "
                             "intervals: give x numbers or 'best'.")
        if what != "best":
            raise ValueError(f"x={x!r}: a string x must be 'best'")
    else:
        xs = _x_values(x)
    default = ("threshold", "specificity", "sensitivity") if in_code == K.IN_THRESHOLD or \
        best else ("specificity", "sensitivity")
    names, codes = _ret_codes(ret, default)
    if "threshold" in names and not (best or in_code == K.IN_THRESHOLD):
        raise ValueError("'threshold' output is only supported for best ROC point "
                         "('x = \"best\"') or if \"threshold\" was given as input.")
    method_b, r = _best_args(best_method, best_weights)
    if best_policy not in _POLICIES:
        raise ValueError(f"best_policy must be 'stop', 'omit' or 'random', got {best_policy!r}")
    if method != "bootstrap":
        curve = _curve(y_true, y_score, sample_weight, pos_label)
        if curve.P <= 0 or curve.N <= 0:
            raise ValueError("y_true contains only one class (or one class has zero weight); "
                             "the intervals need both")
        est = coords_of_curve(curve, x, in_name, names, best_method, best_weights)
        low, high = _binomial_coords(curve, x, in_code, names, codes, level, method, r, est)
        return CoordsCI(est, low, high, None, method, level, 0, 0, None)
    n_resamples = _positive_int(n_resamples)
    if not isinstance(stratified, (bool, np.bool_)):
        raise ValueError(f"stratified must be True or False, got {stratified!r}")
    is_pos = v.binary_rows(y_true, pos_label=pos_label, rule="sklearn")[0]
    prep = _prepare(is_pos, [y_score], ["y_score"], sample_weight, "roc_auc", bool(stratified))
    model = prep.models[0]
    table = layout_table(model.lay, model.wl)
    keys, tps, fps, P, N = layout_tallies(model.lay, model.wl, table)
    if P <= 0 or N <= 0:
        raise ValueError("one class of y_true has zero weight in all; the intervals need both")
    est = coords_of_curve(_Curve.from_tallies(keys_to_floats(keys, np.empty_like(keys)), tps,
                                                fps, P, N), x,
                          in_name, names, best_method, best_weights)
    # the replicates walk every group of the layout (zero-weight ones too)
    scores = keys_to_floats(model.lay.keys, np.empty_like(model.lay.keys))
    seed = v.seed_from_random_state(random_state)
    if best:
        xs_k = np.zeros(1)
        kx = np.zeros(1, np.int64)
    else:
        xs_k = xs
        kx = scores.shape[0] - np.searchsorted(scores[::-1], xs, side="left")
    m = 1 if best else xs_k.shape[0]
    reps = _replicates(prep, scores, in_code, xs_k, kx, best, method_b, r, codes,
                       _POLICIES[best_policy], seed, n_resamples, m)
    alpha = 1.0 - level
    dropped = np.all(np.isnan(reps), axis=(1, 2))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # a point NaN in every replicate
        q = np.nanquantile(reps, [alpha / 2.0, 0.5, 1.0 - alpha / 2.0], axis=0)
    cols = lambda a: Coords({nm: np.ascontiguousarray(a[:, j]) for j, nm in enumerate(names)})  # noqa: E731
    return CoordsCI(est, cols(q[0]), cols(q[2]), cols(q[1]), "bootstrap", level, n_resamples,
                    int(dropped.sum()), reps)


def _positive_int(n):
    if isinstance(n, (bool, np.bool_)) or not isinstance(n, numbers.Integral) or n < 1:
        raise ValueError(f"n_resamples must be a positive integer, got {n!r}")
    return int(n)


def _replicates(prep, scores, in_code, xs, kx, best, method, r, codes, policy, seed,
                n_resamples, m):
    model = prep.models[0]
    lay, w = model.lay, model.wl
    n = int(prep.strata[-1])
    out = np.empty((n_resamples, m, codes.shape[0]))
    wrapped = np.zeros(n_resamples, np.bool_)
    stopped = np.zeros(n_resamples, np.bool_)
    xs = np.ascontiguousarray(xs, np.float64)
    kx = np.ascontiguousarray(kx, np.int64)
    size = batch_size(n)
    spare = threading.local()  # one set of buffers a thread, reused unit after unit
    layout = (w, lay.bp, lay.bn, lay.n_pos, scores, in_code, xs, kx, best, method, r, codes,
              policy)

    def unit(r0):
        buf = getattr(spare, "buf", None)
        if buf is None:
            buf = spare.buf = (np.zeros(n, np.uint8), draw_buffer(n),
                               np.empty(K.scratch_size(n, scores.shape[0])))
        K.coords_batch(seed, r0, out[r0: r0 + size], prep.strata, *layout, *buf,
                       wrapped[r0: r0 + size], stopped[r0: r0 + size])

    with np.errstate(divide="ignore", invalid="ignore"):
        # units of ``batch_size`` replicates, taken in turn: each replicate its
        # own stream, so nothing depends on the threads
        map_units(unit, [(r0,) for r0 in range(0, n_resamples, size)])
        for rep in np.flatnonzero(wrapped):  # a row drawn 256 times or more: int64 counts
            stopped[rep] = not K.coords_wide(seed, int(rep), out[rep], prep.strata, *layout,
                                             draw_buffer(n, 8))
    if stopped.any():
        raise ValueError('More than one "best" threshold was found, aborting. Change '
                         "'best_policy' to alter this behavior "
                         f"({int(stopped.sum())} of {n_resamples} replicates had ties).")
    return out
