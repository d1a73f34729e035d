"""The ROC curve's coordinates on the distinct-score table: the one
implementation behind :func:`fastauc.coords`, :func:`fastauc.coords_ci`,
``Accumulator.coords`` and the Dask and Spark ``coords``.

Every value is a function of the sorted distinct scores with the cumulative
class weights (the table the other ranking functions sweep), written once in
``_kernels/coords.py``: the point estimate, each bootstrap replicate, and the
engines that build the table elsewhere (``Accumulator``, Dask, Spark) call the
same functions.
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass

import numpy as np

from . import _validation as v
from ._curves import floats_in_place, unweighted_columns, warn_roc_totals
from ._kernels import coords as K
from ._kernels.sorting import keys_to_floats
from ._sort import CHUNK_MIN
from ._table import sorted_runs, sorted_tallies, sweep_parts

__all__ = ["Coords", "coords_of_curve", "coords_of_tallies"]

RET_NAMES = K.RET_NAMES
_ALIASES = {"t": "threshold", "topleft": "closest.topleft", "closest_topleft": "closest.topleft",
            "npe": "1-npv", "ppe": "1-ppv", "lr+": "lr_pos", "lr-": "lr_neg",
            "error_rate": "1-accuracy"}
_INPUTS = {"threshold": K.IN_THRESHOLD, "sensitivity": K.IN_SENSITIVITY,
           "tpr": K.IN_SENSITIVITY, "recall": K.IN_SENSITIVITY,
           "specificity": K.IN_SPECIFICITY, "tnr": K.IN_SPECIFICITY, "tn": K.IN_TN,
           "tp": K.IN_TP, "fn": K.IN_FN, "fp": K.IN_FP, "fpr": K.IN_FPR,
           "1-specificity": K.IN_FPR, "fnr": K.IN_FNR, "1-sensitivity": K.IN_ONE_MINUS_SE}
_BEST = {"youden": K.BEST_YOUDEN, "closest.topleft": K.BEST_TOPLEFT,
         "topleft": K.BEST_TOPLEFT, "closest_topleft": K.BEST_TOPLEFT}


# ---------------------------------------------------------------- results

@dataclass(frozen=True, eq=False)
class Coords:
    """Coordinates of ROC curve points: one array per requested coordinate.

    Read a column as ``c["sensitivity"]`` or ``c.sensitivity`` (names that
    are not Python identifiers, such as ``"1-specificity"``, by item only);
    iterate over the names; ``to_frame()`` gives a pandas DataFrame with the
    columns in the order asked (pROC's data frame).

    Attributes
    ----------
    columns : dict of str to ndarray of shape (n_points,)
        The coordinates, in the order of ``ret``.

    See Also
    --------
    coords : Computes them.
    coords_ci : Their confidence intervals.

    Examples
    --------
    >>> from fastauc import coords
    >>> c = coords([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8], [0.5], input="specificity")
    >>> c.threshold, c.sensitivity
    (array([0.225]), array([1.]))
    """

    columns: dict

    def __getitem__(self, name):
        return self.columns[_canonical_ret(name, "ret")]

    def __getattr__(self, name):
        cols = self.__dict__.get("columns")
        if cols is not None:
            key = _ALIASES.get(name, name)
            if key in cols:
                return cols[key]
        raise AttributeError(name)

    def __iter__(self):
        return iter(self.columns)

    def __len__(self) -> int:
        return len(self.columns)

    def keys(self):
        """The coordinates' names, in the order asked."""
        return self.columns.keys()

    @property
    def n_points(self) -> int:
        """Number of points (rows)."""
        return len(next(iter(self.columns.values()))) if self.columns else 0

    def to_frame(self):
        """A pandas DataFrame, one column per coordinate (needs pandas)."""
        import pandas as pd

        return pd.DataFrame(self.columns)

    def __repr__(self) -> str:
        body = ", ".join(f"{k}={np.array2string(np.asarray(a), precision=4, threshold=8)}"
                         for k, a in self.columns.items())
        return f"Coords({body})"


# ---------------------------------------------------------------- arguments

def _canonical_ret(name, what, valid=RET_NAMES):
    """pROC's matching of a coordinate name: exact, an alias, or a unique prefix."""
    if not isinstance(name, str):
        raise TypeError(f"{what} must be a string or a sequence of strings, got {name!r}")
    key = _ALIASES.get(name, name)
    if key in valid:
        return key
    hits = [c for c in valid if c.startswith(key)]
    if len(hits) == 1:
        return hits[0]
    why = "is ambiguous" if hits else "is not a valid coordinate"
    raise ValueError(f"{what}={name!r} {why}: valid coordinates are "
                     f"{', '.join(repr(c) for c in valid)} (pROC's names; "
                     f"aliases {', '.join(repr(a) for a in _ALIASES)})")


def _ret_codes(ret, default):
    if ret is None:
        ret = default
    if isinstance(ret, str):
        ret = [ret]
    ret = list(ret)
    if not ret:
        raise ValueError("ret must name at least one coordinate")
    if "all" in ret:
        if len(ret) > 1:
            raise ValueError("ret='all' can't be used with other 'ret' options.")
        ret = list(RET_NAMES)
    names = [_canonical_ret(r, "ret") for r in ret]
    return names, np.array([RET_NAMES.index(n) for n in names], np.int64)


def _input_code(input):
    name = _canonical_ret(input, "input", ("threshold",) + RET_NAMES[1:])
    if name not in _INPUTS:
        raise ValueError(f"Coordinate '{name}' is not monotone and cannot be used as input. "
                         f"Valid inputs: {', '.join(repr(k) for k in _INPUTS)}.")
    return name, _INPUTS[name]


def _best_args(best_method, best_weights):
    if best_method not in _BEST:
        raise ValueError(f"best_method must be 'youden' or 'closest.topleft', got "
                         f"{best_method!r}")
    try:
        w = np.asarray(best_weights, np.float64)
    except (TypeError, ValueError):
        w = np.empty(0)
    if w.shape != (2,) or not np.all(np.isfinite(w)):
        raise ValueError(f"'best_weights' must be a numeric vector of length 2, got "
                         f"{best_weights!r}")
    if not (0.0 < w[1] < 1.0):
        raise ValueError(f"prevalence ('best_weights[1]') must be in the interval ]0,1[, got "
                         f"{w[1]!r}")
    if w[0] <= 0.0:
        raise ValueError(f"the relative cost ('best_weights[0]') must be positive, got {w[0]!r}")
    return _BEST[best_method], float((1.0 - w[1]) / (w[0] * w[1]))


def _x_values(x, what="x"):
    if isinstance(x, str):
        raise AssertionError  # strings are handled by the callers
    if isinstance(x, (numbers.Real, np.number)) and not isinstance(x, (bool, np.bool_)):
        x = [x]
    try:
        xs = np.asarray(x, dtype=np.float64)
    except (TypeError, ValueError):
        raise ValueError(f"'{what}' must be a numeric or character vector, got {x!r}") from None
    if xs.ndim != 1:
        raise ValueError(f"'{what}' must be one-dimensional, got shape {xs.shape}")
    if xs.shape[0] == 0:
        raise ValueError(f"Numeric '{what}' has length 0")
    if np.isnan(xs).any():
        raise ValueError(f"'{what}' contains NaN")
    return xs


# ---------------------------------------------------------------- the table's coordinates

class _Curve:
    """A curve: its distinct scores (descending) with cumulative class weights
    (``tpc[k]``, ``fpc[k]``: the ``k`` highest scores, ``k = 0 .. G``)."""

    def __init__(self, scores, tpc, fpc, total_p, total_n):
        self.scores = scores
        self.tpc = tpc
        self.fpc = fpc
        self.P = float(total_p)
        self.N = float(total_n)

    @classmethod
    def from_tallies(cls, scores, tps, fps, total_p, total_n):
        """From ``threshold_tallies``-style arrays (no leading point), groups
        without weight left out (a table built elsewhere may keep them)."""
        tps = np.asarray(tps, np.float64)
        fps = np.asarray(fps, np.float64)
        keep = np.diff(tps, prepend=0.0) + np.diff(fps, prepend=0.0) > 0
        if not keep.all():
            scores, tps, fps = scores[keep], tps[keep], fps[keep]
        return cls(np.ascontiguousarray(scores, np.float64), np.concatenate(([0.0], tps)),
                   np.concatenate(([0.0], fps)), total_p, total_n)

    @property
    def G(self) -> int:
        return self.scores.shape[0]

    def k_at(self, xs):
        """For each threshold, how many distinct scores are ``>= x``."""
        return self.G - np.searchsorted(self.scores[::-1], xs, side="left")

    def _all_thresholds(self):
        """pROC's threshold of every point k = 0 .. G, vectorised."""
        s = self.scores
        lo, hi = s[1:], s[:-1]
        with np.errstate(over="ignore", invalid="ignore"):
            t = (lo + hi) / 2.0
            big = np.abs(t) > 1e100
            t[big] = lo[big] / 2.0 + hi[big] / 2.0
        t = np.where(t == lo, hi, t)
        return np.concatenate(([np.inf], t, [-np.inf])) if s.shape[0] else np.array([np.inf])

    def at_points(self, ks, codes, r, thr=None):
        """The coordinates of points ``ks`` (pROC's formulas, vectorised)."""
        ks = np.asarray(ks, np.int64)
        with np.errstate(divide="ignore", invalid="ignore"):
            se = self.tpc[ks] / self.P
            sp = (self.N - self.fpc[ks]) / self.N
        if thr is None:
            thr = self._all_thresholds()[ks]
        return _measures_vec(thr, se, sp, self.P, self.N, r, codes)


def _measures_vec(thr, se, sp, P, N, r, codes):
    """``_kernels.coords.measures`` of every point (the replicates' function)."""
    out = np.empty((se.shape[0], codes.shape[0]))
    with np.errstate(divide="ignore", invalid="ignore"):
        K.measures_many(np.ascontiguousarray(thr, np.float64), se, sp, float(P), float(N),
                        float(r), codes, out)
    return out


def _local_maxima(se, sp):
    """pROC's local maxima of the curve (``roc_utils_max_thresholds_idx``), the
    points in pROC's order (specificity increasing)."""
    n = se.shape[0]
    pair = np.column_stack((sp, se))
    _, first = np.unique(pair, axis=0, return_index=True)
    keep = np.zeros(n, bool)
    keep[first] = True
    idx = np.flatnonzero(keep)
    s, p = se[idx], sp[idx]
    m = idx.shape[0]
    if m == 1:
        lm = np.array([True])
    elif m == 2:
        lm = np.array([s[0] > s[1], p[1] > p[0]])
    else:
        lm = np.zeros(m, bool)
        lm[0] = s[0] > s[1]
        i = np.arange(1, m - 1)
        lm[1:-1] = ((p[i] > p[i - 1]) & (s[i] > s[i + 1])) | ((p[i] > p[i - 1]) & (s[i] == 0)) \
            | ((s[i] > s[i - 1]) & (p[i] == 1))
        lm[-1] = p[-1] > p[-2]
    out = np.zeros(n, bool)
    out[idx] = lm
    return out


def coords_of_curve(curve: _Curve, x, input, ret, best_method, best_weights,
                    default_ret=("threshold", "specificity", "sensitivity")) -> Coords:
    """``coords`` of a curve built elsewhere (an in-memory sort, an
    ``Accumulator``'s table, a Dask or Spark table): the one implementation."""
    names, codes = _ret_codes(ret, default_ret)
    in_name, in_code = _input_code(input)
    method, r = _best_args(best_method, best_weights)
    G = curve.G
    if isinstance(x, str):
        what = x.replace("_", " ")
        if what in ("local maximas", "local maxima"):
            what = "local maxima"
        if what not in ("all", "best", "local maxima"):
            raise ValueError(f"x={x!r}: a string x must be 'all', 'local maxima' or 'best'")
        ks = np.arange(G, -1, -1)  # pROC's order: thresholds increasing
        if what == "best":
            buf = np.empty(G + 1, np.int64)
            with np.errstate(divide="ignore", invalid="ignore"):
                n = K.best_points(curve.tpc, curve.fpc, curve.P, curve.N,
                                  method, r, buf)
            ks = buf[:n]
        elif what == "local maxima":
            with np.errstate(divide="ignore", invalid="ignore"):
                se = curve.tpc[ks] / curve.P
                sp = (curve.N - curve.fpc[ks]) / curve.N
            ks = ks[_local_maxima(se, sp)]
        out = curve.at_points(ks, codes, r)
    else:
        xs = _x_values(x)
        if in_code == K.IN_THRESHOLD:
            ks = curve.k_at(xs)
            out = curve.at_points(ks, codes, r, thr=xs)
        else:
            out = np.empty((xs.shape[0], codes.shape[0]))
            res = np.empty(3)
            defined = curve.P > 0 and curve.N > 0
            for i in range(xs.shape[0]):
                if not defined:
                    out[i] = np.nan
                    continue
                if not K.locate(curve.tpc, curve.fpc, curve.P, curve.N, in_code, xs[i], res):
                    lo = K.input_value(in_code, curve.tpc[0], curve.fpc[0], curve.P, curve.N)
                    hi = K.input_value(in_code, curve.tpc[G], curve.fpc[G], curve.P, curve.N)
                    raise ValueError(f"Input {in_name} ({xs[i]:g}) not in range "
                                     f"({min(lo, hi):g}-{max(lo, hi):g}): x given as "
                                     f"{in_name} must lie on the curve")
                thr = math.nan if res[0] < 0 else K.point_threshold(
                    curve.scores, curve.tpc, curve.fpc, int(res[0]))
                out[i] = _measures_vec(np.array([thr]), np.array([res[1]]), np.array([res[2]]),
                                       curve.P, curve.N, r, codes)[0]
    return Coords({nm: np.ascontiguousarray(out[:, j]) for j, nm in enumerate(names)})


def _curve_of_tallies(t, compact) -> _Curve:
    """The curve of ``Tallies`` with curves (a spare slot in front); ``compact``
    leaves out keys without weight (a table merged elsewhere may keep them;
    the in-memory sweep never does, and its keys, its own, become the
    scores in place)."""
    t.tps[0] = 0.0  # the spare slot in front: point 0, nothing predicted positive
    t.fps[0] = 0.0
    scores = (keys_to_floats(t.thr_keys[1:], np.empty_like(t.thr_keys[1:])) if compact
              else floats_in_place(t.thr_keys[1:]))
    tps, fps = np.asarray(t.tps, np.float64), np.asarray(t.fps, np.float64)
    if compact:
        keep = (np.diff(tps) != 0) | (np.diff(fps) != 0)
        if not keep.all():
            keep = np.concatenate(([True], keep))
            scores, tps, fps = scores[keep[1:]], tps[keep], fps[keep]
    return _Curve(scores, tps, fps, t.total_pos, t.total_neg)


def _curve(y_true, y_score, sample_weight, pos_label) -> _Curve:
    """One sort and sweep of the rows (rows of zero weight make no point)."""
    is_pos, s, w, _, _ = v.binary_target(y_true, y_score, sample_weight, pos_label,
                                        default_rule="sklearn")
    if w.shape[0] == 0 and s.shape[0] >= CHUNK_MIN:  # the columns alone, no sums
        runs = sorted_runs(is_pos, s, w)
        _, fps, _, tps, scores = unweighted_columns(runs, sweep_parts(s.shape[0]),
                                                    complements=False, front=1)
        tps[0] = fps[0] = 0.0
        return _Curve(scores[1:], tps, fps, runs[0].shape[0], runs[2].shape[0])
    return _curve_of_tallies(sorted_tallies(is_pos, s, w, curve=True), compact=False)


def coords_of_tallies(t, x="all", input="threshold",
                      ret=("threshold", "specificity", "sensitivity"), best_method="youden",
                      best_weights=(1.0, 0.5)) -> Coords:
    """:func:`coords` of the curve tallies an engine built (the Dask and Spark
    ranges' points, with a spare slot in front), with the in-memory
    function's warning for one class."""
    curve = _curve_of_tallies(t, compact=True)
    if curve.P <= 0 or curve.N <= 0:
        warn_roc_totals(curve.P, curve.N)
    return coords_of_curve(curve, x, input, ret, best_method, best_weights)


