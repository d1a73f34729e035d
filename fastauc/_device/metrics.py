"""The public functions' device implementations (``DEVICE``: name -> function).

Each takes the :class:`~.arrays.Engine` and the public function's bound
arguments; it checks options with the CPU path's own helpers, validates with
``_device.validation`` and computes with ``_device.tallies`` (and, for the
bootstrap, ``_device.resample``).  A case the device does not compute
(multilabel targets, a score mapping) returns ``HOST``: the dispatcher then
runs the CPU path on host copies.
"""

from __future__ import annotations

import functools
import math
import warnings

import numpy as np

from .. import _validation as v
from .._curves import NO_POSITIVE_PR, det_points
from .._delong import SMALL_DELONG, covariance_from_sums, paired_test
from .._results import DeLongTestResult
from .._stats import mann_whitney_result, ovo_average, ovr_average, wald_interval
from .._kernels.table import N_STATS, ST_MAX_TIE, ST_TIES
from . import tallies as t
from . import validation as dv
from .arrays import HOST
from .pairwise import pairwise_loss, pairwise_loss_gradient
from .resample import bootstrap_ci, bootstrap_test
from .tables import brier_decomposition, calibration_error, coords, reliability_curve



# ------------------------------------------------------------------ AUC

def _indicator(e, y):
    """A 2-D label array as the CPU path's multilabel indicator (bool: nonzero
    is a label), or None where the CPU path must judge it (three values or
    more, fractions, NaN: its errors)."""
    xp = e.xp
    kind = np.dtype(y.dtype).kind
    if y.ndim != 2 or 0 in y.shape or kind not in "biuf":
        return None
    if kind == "b":
        return y
    if kind == "f" and not bool(xp.isfinite(y).all()):
        return None
    lo, hi = y.min(), y.max()
    if not bool(xp.logical_or(y == lo, y == hi).all()):
        return None
    if kind == "f" and any(float(x) != math.floor(float(x)) for x in (lo, hi)):
        return None
    return y != 0


def _multilabel(e, y, y_score, sample_weight):
    """``ranking._multilabel_input`` on the device: ``(Y, S, w)``, or None
    where the CPU path raises (its checks, in its order, on host copies)."""
    Y = _indicator(e, y)
    if Y is None:
        return None
    S = dv.scores(e, y_score, "y_score", ndim=(1, 2), keep_float32=False, finite=False)
    if S.shape != Y.shape or not bool(e.xp.isfinite(S).all()):
        return None
    return Y, S, dv.weights(e, sample_weight, Y.shape[0], ("y_true", "y_score"), False)


def _average_columns(e, metric, Y, S, average, w):
    """``ranking._average_binary`` on the device: ``metric(is_pos, scores,
    weights)`` of each column of the indicator ``Y`` and scores ``S``,
    averaged by scikit-learn's rules ("micro": all cells as one binary
    problem).  ``average="samples"`` (a metric per row) is left to the CPU
    path (``HOST``)."""
    xp = e.xp
    n, k = Y.shape
    if average == "samples":
        return HOST
    if average == "micro":
        return metric(xp.ascontiguousarray(Y.reshape(-1)), xp.ascontiguousarray(S.reshape(-1)),
                      None if w is None else xp.repeat(w, k))
    scores = np.array([metric(xp.ascontiguousarray(Y[:, j]), xp.ascontiguousarray(S[:, j]), w)
                       for j in range(k)])
    counts = e.host(Y.sum(axis=0) if w is None else (Y * w[:, None]).sum(axis=0))
    result = ovr_average(scores, counts.astype(np.float64), average)
    return e.out(xp.asarray(result)) if isinstance(result, np.ndarray) else result


def _label_matrix(e, y_true):
    """The labels on the device when they are 2-D with several columns (a
    multilabel indicator, or what the CPU path will refuse), else None."""
    shape = getattr(y_true, "shape", None)
    if shape is None:  # a list or another host container
        try:
            shape = np.shape(y_true)
        except ValueError:  # ragged: the CPU path's error
            return None
    if len(shape) != 2 or shape[1] < 2:
        return None
    return e.asarray(y_true, "y_true")


def roc_auc_score(e, y_true, y_score, average, sample_weight, max_fpr, multi_class, labels):
    v.check_auc_options(average, max_fpr, multi_class)
    y_true = dv.labels_first(e, y_true)
    Y = _label_matrix(e, y_true)
    if Y is not None:
        checked = _multilabel(e, Y, y_score, sample_weight)
        if checked is None:
            return HOST
        return _average_columns(e, lambda p, s, w: t.binary_auc(e, p, s, w, max_fpr),
                                *checked[:2], average, checked[2])
    S = dv.scores(e, y_score, "y_score", ndim=(1, 2), finite=False)
    y = dv.labels(e, y_true, S.shape[0])
    if y is None:
        return HOST  # multilabel, or labels the CPU path judges
    classes = dv.classes_of(e, y)
    if len(classes) > 2 or (S.ndim == 2 and S.shape[1] > 2):
        return _multiclass_auc(e, y, S, classes, labels, multi_class, average, sample_weight,
                               max_fpr)
    if S.ndim == 2:
        if S.shape[1] != 1:
            return HOST  # the CPU path's error
        S = S[:, 0]
    dv.check_finite(e, S, "y_score")
    is_pos, classes, w = dv.binary(e, y, sample_weight, None, rule="greater", classes=classes,
                                   y_score=S)
    if len(classes) < 2:
        v.warn_undefined(v.ONE_CLASS, stacklevel=None)
        return math.nan
    return t.binary_auc(e, is_pos, S, w, max_fpr)


def _multiclass_auc(e, y, S, y_classes, labels, multi_class, average, sample_weight, max_fpr):
    """One-vs-rest and one-vs-one (Hand & Till) on the device: each class's
    (or pair's) AUC as the binary case computes it, averaged by the CPU
    path's rules (``"micro"``: every cell of the one-vs-rest indicator as one
    binary problem).  Anything the CPU path would refuse goes to it
    (``HOST``), so its errors come with its words."""
    xp = e.xp
    ovo = multi_class == "ovo"
    if (max_fpr is not None and max_fpr != 1.0) or multi_class == "raise" or S.ndim != 2 \
            or (ovo and sample_weight is not None):
        return HOST
    n, k = S.shape
    w = None if ovo else dv.weights(e, sample_weight, n, ("y_true", "y_score"), False)
    totals = S.sum(axis=1)
    if not bool(xp.isfinite(totals).all()) or \
            not bool((xp.abs(1.0 - totals) <= 1e-8 + 1e-5 * xp.abs(totals)).all()):
        return HOST  # NaN or rows that are not probabilities: the CPU path's errors
    classes = v.multiclass_auc_classes(labels, y_classes, k, average, multi_class)
    if not ovo:  # each class's column against its indicator ("micro": all cells as one)
        return _average_columns(e, lambda p, s, ww: t.binary_auc(e, p, s, ww, None),
                                _one_vs_rest(e, y, classes), S, average, w)
    columns = [xp.ascontiguousarray(S[:, j]) for j in range(k)]
    encoded = xp.searchsorted(xp.asarray(classes), y)
    counts = e.host(xp.bincount(encoded, minlength=k)).astype(np.float64)
    present = np.flatnonzero(counts)
    rows = {int(a): xp.flatnonzero(encoded == a) for a in present}  # each class's rows, once
    areas = {int(a): {} for a in present}
    for a in present:
        col = columns[a]
        mine = xp.sort(col[rows[int(a)]])  # class a's scores in its own column
        for b in present:
            if a != b:  # class a's column: a's rows over b's (each pair O(n_a + n_b))
                areas[int(a)][int(b)] = t.area2_sorted(e, mine, xp.sort(col[rows[int(b)]]))
    return ovo_average(areas, counts, [int(a) for a in present], n, average)


def _one_vs_rest(e, y, classes):
    """The (n, k) indicator ``y == classes[j]`` on the device."""
    return e.xp.stack([dv.equal(e, y, c) for c in classes.tolist()], axis=1)


# ------------------------------------------------------------------ curves

def _target(e, y_true, y_score, sample_weight, pos_label):
    y_true = dv.labels_first(e, y_true)
    s = dv.scores(e, y_score, "y_score")
    is_pos, classes, w = dv.binary(e, y_true, sample_weight, pos_label, rule="sklearn",
                                   y_score=s)
    return is_pos, s, w, classes


def roc_curve(e, y_true, y_score, pos_label, sample_weight, drop_intermediate):
    is_pos, s, w, _ = _target(e, y_true, y_score, sample_weight, pos_label)
    return tuple(e.out(a) for a in t.roc(e, is_pos, s, w, drop_intermediate))


def precision_recall_curve(e, y_true, y_score, pos_label, sample_weight, drop_intermediate):
    raw = getattr(y_score, "dtype", None)
    is_pos, s, w, _ = _target(e, y_true, y_score, sample_weight, pos_label)
    xp = e.xp
    c = t.curve(e, is_pos, s, w)
    tps, fps, thr = c.tps, c.fps, c.thresholds
    if drop_intermediate:
        keep = t.drop_points(e, tps, fps, False)
        tps, fps, thr = tps[keep], fps[keep], thr[keep]
    total_p = float(tps[-1]) if tps.shape[0] else 0.0
    with np.errstate(divide="ignore", invalid="ignore"):
        precision = xp.concatenate(((tps / (tps + fps))[::-1], xp.ones(1)))
        recall = xp.concatenate(((tps / total_p)[::-1], xp.zeros(1)))
    if total_p == 0:
        warnings.warn(NO_POSITIVE_PR, UserWarning, stacklevel=v.caller_stacklevel())
        recall = xp.concatenate((xp.ones(recall.shape[0] - 1), xp.zeros(1)))
    thr = thr[::-1]
    kind = np.dtype(s.dtype)
    if raw is not None and np.dtype(_numpy_dtype(raw)).kind in "iuf":
        target = _numpy_dtype(raw) if np.dtype(_numpy_dtype(raw)).itemsize >= 4 else kind
        thr = dv.as_float32(e, thr) if np.dtype(target) == np.float32 and \
            thr.dtype == np.float64 else thr.astype(target)
    return e.out(xp.ascontiguousarray(precision)), e.out(xp.ascontiguousarray(recall)), \
        e.out(xp.ascontiguousarray(thr))


def _numpy_dtype(dtype):
    """A numpy dtype for a numpy, CuPy or torch dtype (bfloat16: float32)."""
    try:
        return np.dtype(dtype)
    except TypeError:
        name = str(dtype).replace("torch.", "")
        return np.dtype("float32" if name == "bfloat16" else name)


def det_curve(e, y_true, y_score, pos_label, sample_weight, drop_intermediate):
    is_pos, s, w, classes = _target(e, y_true, y_score, sample_weight, pos_label)
    xp = e.xp
    c = t.curve(e, is_pos, s, w)
    zero = xp.zeros(1)
    tps = xp.concatenate((zero, c.tps))
    fps = xp.concatenate((zero, c.fps))
    thr = xp.concatenate((xp.full(1, np.inf), c.thresholds))
    if drop_intermediate and tps.shape[0] > 2:
        keep = t.drop_points(e, tps, fps, False)
        tps, fps, thr = tps[keep], fps[keep], thr[keep]
    if classes.shape[0] != 2:
        raise ValueError(v.ONE_CLASS_DET)
    return tuple(e.out(xp.ascontiguousarray(a)) for a in det_points(tps, fps, thr, xp))


def average_precision_score(e, y_true, y_score, average, pos_label, sample_weight):
    v.check_average(average)
    y_true = dv.labels_first(e, y_true)
    metric = functools.partial(t.average_precision, e)
    Y = _label_matrix(e, y_true)
    if Y is not None:  # multilabel
        checked = _multilabel(e, Y, y_score, sample_weight) if pos_label == 1 else None
        if checked is None:
            return HOST  # the CPU path's errors
        return _average_columns(e, metric, *checked[:2], average, checked[2])
    S = dv.scores(e, y_score, "y_score", ndim=(1, 2), finite=False)
    y = dv.labels(e, y_true, S.shape[0])
    if y is None:
        return HOST  # labels the CPU path judges
    w = dv.weights(e, sample_weight, S.shape[0], ("y_true", "y_score"), False)
    classes = dv.classes_of(e, y)
    if len(classes) > 2:  # multiclass: one-vs-rest columns
        if S.ndim != 2 or pos_label != 1 or S.shape[1] != len(classes) \
                or not bool(e.xp.isfinite(S).all()):
            return HOST  # the CPU path's errors
        return _average_columns(e, metric, _one_vs_rest(e, y, classes), S, average, w)
    if S.ndim == 2 or (len(classes) == 2 and pos_label not in classes.tolist()):
        return HOST  # scikit-learn's errors
    dv.check_finite(e, S, "y_score")
    return t.average_precision(e, dv.equal(e, y, pos_label), S, w)


def log_loss(e, y_true, y_proba, normalize, sample_weight, labels, y_pred):
    if not (isinstance(y_pred, str) and y_pred == "deprecated"):
        return HOST  # the deprecated argument: the CPU path warns
    xp = e.xp
    P = dv.scores(e, y_proba, "y_proba", ndim=(1, 2), keep_float32=False, finite=False)
    if not bool(xp.isfinite(P).all()) or float(P.max()) > 1 or float(P.min()) < 0:
        return HOST  # the CPU path's errors
    n = P.shape[0]
    eps = np.finfo(np.float64).eps
    Y = _label_matrix(e, y_true)
    if Y is not None:  # a multilabel indicator: -sum_l y_il log p_il per row
        Y = _indicator(e, Y)
        if Y is None or Y.shape[0] != n or P.ndim != 2 or P.shape[1] != Y.shape[1]:
            return HOST  # the CPU path's errors
        w = dv.weights(e, sample_weight, n, ("y_proba", "y_true"), False)
        if not bool(xp.isclose(P.sum(axis=1), 1.0, rtol=v.ROW_SUM_RTOL).all()):
            v.warn_row_sums()
        terms = -(Y * xp.log(xp.clip(P, eps, 1.0 - eps))).sum(axis=1)
        return _total(terms, w, n, normalize)
    y = dv.labels(e, y_true, n)
    if y is None:
        return HOST  # labels the CPU path judges
    w = dv.weights(e, sample_weight, n, ("y_proba", "y_true"), False)
    classes = v.log_loss_classes(labels, dv.classes_of(e, y))
    P = P[:, None] if P.ndim == 1 else P
    if P.shape[1] > 1 and not bool(xp.isclose(P.sum(axis=1), 1.0, rtol=v.ROW_SUM_RTOL).all()):
        v.warn_row_sums()
    v.check_log_loss_columns(P.shape[1], classes, labels is not None)
    if P.shape[1] == 1:  # the probability of the greater class
        p = xp.where(dv.equal(e, y, classes[1]), P[:, 0], 1.0 - P[:, 0])
    else:
        p = P[xp.arange(n), xp.searchsorted(xp.asarray(classes), y)]
    return _total(-xp.log(xp.clip(p, eps, 1.0 - eps)), w, n, normalize)


def _total(terms, w, n, normalize):
    """The rows' losses summed (weighted), or their (weighted) mean."""
    total = float((terms * w).sum()) if w is not None else float(terms.sum())
    if not normalize:
        return total
    return total / (float(w.sum()) if w is not None else float(n))


# ------------------------------------------------------------------ DeLong and ranks

def _columns(e, y_scores, name):
    S = dv.scores(e, y_scores, name, ndim=(1, 2), keep_float32=False)
    return S[:, None] if S.ndim == 1 else S


def _delong(e, is_pos, S, w):
    """AUCs (each the float ``roc_auc_score`` gives) and DeLong's covariance
    of the score columns of ``S``, NaN with the CPU path's warnings."""
    k = S.shape[1]
    xp = e.xp
    wp = None if w is None else w[is_pos]
    wn = None if w is None else w[~is_pos]
    n_pos = e.count(is_pos)
    if w is None:
        total_p, total_n = float(n_pos), float(is_pos.shape[0] - n_pos)
    else:
        total_p, total_n = float(wp.sum()), float(wn.sum())
    if total_p <= 0 or total_n <= 0:
        v.warn_undefined(v.ONE_CLASS if n_pos in (0, is_pos.shape[0])
                         else v.ZERO_WEIGHT_CLASS, stacklevel=None)
        return np.full(k, np.nan), np.full((k, k), np.nan)
    aucs = np.empty(k)
    d10, d01 = [], []
    for j in range(k):
        c = t.split_classes(e, is_pos, xp.ascontiguousarray(S[:, j]), w, keep_order=k > 1)
        aucs[j] = t.area2(e, c) / (2.0 * c.total_pos * c.total_neg)
        v10, v01 = t.placements(e, c)
        if k > 1:  # back to the rows' order within each class, where models pair
            v10, v01 = t.unsort(xp, c.pos_order, v10), t.unsort(xp, c.neg_order, v01)
        else:  # one model: its sorted order, with the weights in that order
            wp, wn = c.pos_w, c.neg_w
        d10.append(v10 - aucs[j])
        d01.append(v01 - aucs[j])
    sums = np.empty((2, k, k))
    for c_, (d, wc) in enumerate(((xp.stack(d10), wp), (xp.stack(d01), wn))):
        dw = d if wc is None else d * wc
        sums[c_] = e.host(dw @ d.T)
    cov = covariance_from_sums(np.stack([np.triu(s) for s in sums]), (total_p, total_n),
                               warn=False)
    if np.isnan(cov).any():
        v.warn_undefined(SMALL_DELONG, stacklevel=None)
    return aucs, cov


def delong_covariance(e, y_true, y_scores, sample_weight, cluster=None):
    if cluster is not None:  # Obuchowski's clustered covariance: the CPU path
        return HOST
    S = _columns(e, y_scores, "y_scores")
    is_pos, _, w = dv.binary(e, y_true, sample_weight, None, rule="greater", frequency=True,
                             y_scores=S)
    if dv.looks_like_proba(e, S):
        v.warn_proba("y_scores")
    aucs, cov = _delong(e, is_pos, S, w)
    return aucs, cov


def roc_auc_ci(e, y_true, y_score, method, confidence_level, sample_weight, transform,
               bootstrap_options, cluster=None, multi_class="raise", average="macro",
               labels=None):
    if method != "delong" or cluster is not None or len(getattr(y_score, "shape", ())) == 2:
        return HOST  # bootstrap, clustered or multiclass: the CPU path
    v.check_choice(transform, "transform", (None, "logit"))
    if bootstrap_options:
        raise TypeError(f"unexpected arguments for method='delong': {sorted(bootstrap_options)}")
    level = v.check_confidence_level(confidence_level)
    s = dv.scores(e, y_score, "y_score", keep_float32=False)
    is_pos, _, w = dv.binary(e, y_true, sample_weight, None, rule="greater", frequency=True,
                             y_score=s)
    aucs, cov = _delong(e, is_pos, s[:, None], w)
    return wald_interval(float(aucs[0]), float(cov[0, 0]), level, transform)


def delong_test(e, y_true, y_score_a, y_score_b, alternative, confidence_level, sample_weight,
                margin=0.0, y_true_b=None, sample_weight_b=None, cluster=None,
                multi_class="raise", average="macro", labels=None):
    if y_true_b is not None or sample_weight_b is not None or cluster is not None or margin \
            or len(getattr(y_score_a, "shape", ())) == 2:
        return HOST  # unpaired, clustered, with a margin or multiclass: the CPU path
    v.check_choice(alternative, "alternative", ("two-sided", "less", "greater"))
    level = v.check_confidence_level(confidence_level)
    a = dv.scores(e, y_score_a, "y_score_a", keep_float32=False)
    b = dv.scores(e, y_score_b, "y_score_b", keep_float32=False)
    is_pos, _, w = dv.binary(e, y_true, sample_weight, None, rule="greater", frequency=True,
                             y_score_a=a, y_score_b=b)
    aucs, cov = _delong(e, is_pos, e.xp.stack((a, b), axis=1), w)
    if np.isnan(aucs).any():
        nan = math.nan
        return DeLongTestResult(nan, nan, nan, nan, nan, nan, nan, nan, alternative, level)
    return paired_test(aucs, cov, 0, 1, level, alternative)


def mann_whitney_u(e, y_true, y_score, alternative, use_continuity, method, sample_weight):
    v.check_choice(alternative, "alternative", ("two-sided", "less", "greater"))
    v.check_choice(method, "method", ("auto", "asymptotic", "exact"))
    if use_continuity not in (True, False):
        raise ValueError(f"use_continuity must be True or False, got {use_continuity!r}")
    y_true = dv.labels_first(e, y_true)
    s = dv.scores(e, y_score, "y_score", keep_float32=False)
    is_pos, _, w = dv.binary(e, y_true, sample_weight, None, rule="greater", frequency=True,
                             y_score=s)
    c = t.split_classes(e, is_pos, s, w)
    stats = np.zeros(N_STATS)
    curve = t.curve(e, is_pos, s, w)
    ties = curve.tps - e.xp.concatenate((e.xp.zeros(1), curve.tps[:-1])) + \
        curve.fps - e.xp.concatenate((e.xp.zeros(1), curve.fps[:-1]))
    if ties.shape[0]:
        stats[ST_TIES] = float(((ties * ties - 1.0) * ties).sum())
        stats[ST_MAX_TIE] = float(ties.max())
    return mann_whitney_result(t.area2(e, c), c.total_pos, c.total_neg, stats, alternative,
                               use_continuity, method, c.n_pos in (0, is_pos.shape[0]))


DEVICE = {f.__name__: f for f in (
    roc_auc_score, roc_curve, precision_recall_curve, det_curve, average_precision_score,
    log_loss,
    delong_covariance, roc_auc_ci, delong_test, mann_whitney_u, bootstrap_ci, bootstrap_test,
    pairwise_loss, pairwise_loss_gradient, coords, reliability_curve, brier_decomposition,
    calibration_error)}
