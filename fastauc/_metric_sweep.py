"""A metric of thresholded scores at many thresholds from one sweep.

A metric of the predicted labels ``y_score >= t`` is, for the metrics named in
``SWEPT_METRICS`` (scikit-learn's and fastauc's functions of those names), a
function of the four cells of the confusion matrix at ``t``: the sweep's
cumulative tp and fp give them at every threshold at once.  Any other metric
(or option) is called once per threshold, as scikit-learn does
(``each_threshold``).  Used by ``operating_points.metric_at_thresholds`` and by
``fastauc.sklearn``'s threshold-tuning scorer.
"""

from __future__ import annotations

import functools
import math
import numbers
import sys
import warnings

import numpy as np

from . import _validation as v
from ._curves import threshold_tallies
from ._likelihood import LR_NEG_UNDEFINED, LR_POS_UNDEFINED, NO_PREDICTED_POSITIVE
from ._likelihood import check_replace

#: the metrics read from the sweep, by function name (scikit-learn's and fastauc's)
SWEPT_METRICS = ("accuracy_score", "balanced_accuracy_score", "precision_score",
                 "recall_score", "f1_score", "fbeta_score", "jaccard_score",
                 "matthews_corrcoef", "cohen_kappa_score", "class_likelihood_ratios")
#: the modules whose functions of those names are known (fastauc's, scikit-learn's)
_MODULES = ("fastauc.classification", "fastauc.likelihood_ratios",
            "sklearn.metrics._classification")
_PRF = ("precision_score", "recall_score", "f1_score", "fbeta_score", "jaccard_score")
_OPTIONS = {  # the keyword arguments each swept metric may be given (besides sample_weight)
    "accuracy_score": ("normalize",),
    "balanced_accuracy_score": ("adjusted",),
    "precision_score": ("labels", "pos_label", "average", "zero_division"),
    "recall_score": ("labels", "pos_label", "average", "zero_division"),
    "f1_score": ("labels", "pos_label", "average", "zero_division"),
    "fbeta_score": ("beta", "labels", "pos_label", "average", "zero_division"),
    "jaccard_score": ("labels", "pos_label", "average", "zero_division"),
    "matthews_corrcoef": (),
    "cohen_kappa_score": ("labels", "weights", "replace_undefined_by"),
    "class_likelihood_ratios": ("labels", "replace_undefined_by"),
}
NEEDS_BOTH_CLASSES = ("balanced_accuracy_score", "matthews_corrcoef", "cohen_kappa_score",
                       "class_likelihood_ratios")


def _metric_name(func):
    """The name in ``SWEPT_METRICS`` of scikit-learn's or fastauc's function
    ``func`` (or of ``fastauc.sklearn``'s wrapper of fastauc's), else None."""
    if type(func).__module__ == "fastauc.sklearn" and hasattr(func, "fast"):
        func = func.fast
    name = getattr(func, "__name__", None)
    if name not in SWEPT_METRICS:
        return None
    module_name = getattr(func, "__module__", None)
    module = sys.modules.get(module_name) if module_name in _MODULES else None
    if module is not None and getattr(module, name, None) is func:
        return name
    return None


def swept_metric(metric_func, metric_params, weighted):
    """``(name, keyword arguments)`` when ``metric_func`` (or a
    ``functools.partial`` of it with keywords only) is a swept metric called
    with options that keep its binary meaning; else None."""
    kwargs = dict(metric_params or {})
    func = metric_func
    while isinstance(func, functools.partial):
        if func.args:
            return None
        kwargs = {**func.keywords, **kwargs}
        func = func.func
    name = _metric_name(func)
    if name is None:
        return None
    if "sample_weight" in kwargs and not weighted:
        return None  # scikit-learn passes these weights unsorted: keep its behaviour
    kwargs.pop("sample_weight", None)
    if any(k not in _OPTIONS[name] for k in kwargs):
        return None
    if kwargs.get("labels") is not None:
        return None
    if name in _PRF:
        if kwargs.get("average", "binary") != "binary":
            return None
        pos = kwargs.get("pos_label", 1)
        if isinstance(pos, (bool, np.bool_)) or not isinstance(pos, numbers.Real) \
                or pos not in (0, 1):
            return None
        zd = kwargs.get("zero_division", "warn")
        if not (isinstance(zd, str) and zd == "warn") and not (
                isinstance(zd, numbers.Real) and not isinstance(zd, (bool, np.bool_))
                and (zd in (0, 1) or (zd is np.nan and name != "jaccard_score"))):
            return None
        if name == "fbeta_score":
            beta = kwargs.get("beta")
            if isinstance(beta, (bool, np.bool_)) or not isinstance(beta, numbers.Real) \
                    or not beta >= 0:
                return None
    for flag in ("normalize", "adjusted"):
        if flag in kwargs and not isinstance(kwargs[flag], (bool, np.bool_)):
            return None
    if name == "cohen_kappa_score":
        weights = kwargs.get("weights")
        if weights is not None and not (isinstance(weights, str)
                                        and weights in ("linear", "quadratic")):
            return None
        r = kwargs.get("replace_undefined_by", np.nan)
        if r is not np.nan and not (isinstance(r, numbers.Real) and -1.0 <= r <= 1.0):
            return None
    if name == "class_likelihood_ratios":
        try:
            kwargs["replace"] = check_replace(kwargs.get("replace_undefined_by", np.nan))
        except ValueError:
            return None
    return name, kwargs


def binary_rows(y_true, y_score, sample_weight):
    """``(y_true, y_score, weights)`` as arrays when the sweep can answer: 1-d
    numbers, labels in {0, 1}, finite scores, non-negative finite weights with
    one non-zero; else None (scikit-learn's loop decides, or raises)."""
    try:
        yt = _column(y_true, "y_true")
        ys = _column(y_score, "y_score")
        w = None if sample_weight is None else _column(sample_weight, "sample_weight")
    except Exception:  # noqa: BLE001 - whatever is refused here, the loop reports
        return None
    if yt.ndim != 1 or ys.ndim != 1 or yt.shape != ys.shape or yt.shape[0] == 0:
        return None
    if yt.dtype.kind not in "biuf" or ys.dtype.kind not in "iuf":
        return None
    if ys.dtype.kind == "f" and not np.isfinite(ys).all():
        return None
    if not ((yt == 0) | (yt == 1)).all():
        return None
    if w is not None:
        if w.shape != yt.shape or w.dtype.kind not in "iuf":
            return None
        if w.dtype.kind == "f" and not np.isfinite(w).all():
            return None
        if (w < 0).any() or not (w > 0).any():
            return None
    return yt, ys, w


def _warn_once(message, category=None):
    warnings.warn(message, category or v.undefined_metric_warning(),
                  stacklevel=v.caller_stacklevel())


def _divide(num, den, zero_division, message):
    """``num / den``, ``zero_division`` where ``den`` is 0 (0 with one
    warning for "warn")."""
    zero = den == 0
    with np.errstate(divide="ignore", invalid="ignore"):
        out = num / np.where(zero, 1.0, den)
    if zero.any():
        warn = isinstance(zero_division, str)
        out[zero] = 0.0 if warn else float(zero_division)
        if warn and message is not None:
            _warn_once(message)
    return out


def _prf_message(metric, modifier):
    return (f"{metric} is ill-defined and being set to 0.0 due to no {modifier} samples. Use "
            "`zero_division` parameter to control this behavior.")


def swept_values(name, kw, tp, fp, total_p, total_n):
    """The metric at every threshold from the cumulative tp and fp (see
    ``swept_metric`` for the options)."""
    fn = total_p - tp
    tn = total_n - fp
    if name in _PRF:
        zd = kw.get("zero_division", "warn")
        if kw.get("pos_label", 1) == 1:
            hit, predicted, true, wrong_pred, missed = tp, tp + fp, total_p, fp, fn
        else:
            hit, predicted, true, wrong_pred, missed = tn, tn + fn, total_n, fn, fp
        true = np.full_like(tp, true)
        if name == "jaccard_score":
            return _divide(hit, hit + wrong_pred + missed, zd,
                           _prf_message("Jaccard", "true or predicted"))
        if name == "precision_score":
            return _divide(hit, predicted, zd, _prf_message("Precision", "predicted"))
        if name == "recall_score":
            return _divide(hit, true, zd, _prf_message("Recall", "true"))
        beta = 1.0 if name == "f1_score" else kw["beta"]
        if np.isposinf(beta):
            return _divide(hit, true, zd, None)
        if beta == 0:
            return _divide(hit, predicted, zd, None)
        b2 = beta**2
        return _divide((1 + b2) * hit, b2 * true + predicted, zd,
                       _prf_message("F-score", "true nor predicted"))
    if name == "accuracy_score":
        correct = tp + tn
        if kw.get("normalize", True):
            return correct / (total_p + total_n)
        return correct
    # the metrics below have both classes in y_true (``NEEDS_BOTH_CLASSES``)
    if name == "balanced_accuracy_score":
        score = (tn / (tn + fp) + tp / (fn + tp)) / 2
        if kw.get("adjusted", False):
            score = (score - 0.5) / 0.5
        return score
    if name == "matthews_corrcoef":
        t0, t1 = tn + fp, fn + tp
        p0, p1 = tn + fn, fp + tp
        n = p0 + p1
        cov_ytyp = (tn + tp) * n - (t0 * p0 + t1 * p1)
        cov_ypyp = n**2 - (p0 * p0 + p1 * p1)
        cov_ytyt = n**2 - (t0 * t0 + t1 * t1)
        prod = cov_ypyp * cov_ytyt
        with np.errstate(divide="ignore", invalid="ignore"):
            out = cov_ytyp / np.sqrt(prod)
        out[prod == 0] = 0.0
        return out
    if name == "cohen_kappa_score":
        sum0_0, sum0_1 = tn + fn, fp + tp  # predicted
        sum1_0, sum1_1 = tn + fp, fn + tp  # true
        total = sum0_0 + sum0_1
        expected = sum0_0 * sum1_1 / total + sum0_1 * sum1_0 / total
        return 1 - (fp + fn) / expected
    # class_likelihood_ratios
    replace = kw["replace"]
    support_neg = tn + fp
    support_pos = tp + fn
    with np.errstate(divide="ignore", invalid="ignore"):
        pos = tp * support_neg / (fp * support_pos)
        neg = fn * support_neg / (tn * support_pos)
    no_fp = fp == 0
    if no_fp.any():
        if (no_fp & (tp == 0)).any():  # nothing predicted positive (only off the sweep)
            _warn_once(NO_PREDICTED_POSITIVE)
        if (no_fp & (tp != 0)).any():
            _warn_once(LR_POS_UNDEFINED)
        pos[no_fp] = math.nan if replace is None else replace[0]
    if (tn == 0).any():
        _warn_once(LR_NEG_UNDEFINED)
        neg[tn == 0] = math.nan if replace is None else replace[1]
    return np.column_stack((pos, neg))


def check_metric_args(metric_func, metric_params):
    if not callable(metric_func):
        raise v.InvalidParameterError(
            "The 'metric_func' parameter of metric_at_thresholds must be a callable. Got "
            f"{metric_func!r} instead.")
    if metric_params is not None and not isinstance(metric_params, dict):
        raise v.InvalidParameterError(
            "The 'metric_params' parameter of metric_at_thresholds must be an instance of "
            f"'dict' or None. Got {metric_params!r} instead.")


def _column(x, name):
    """Any array-like (pandas, polars, pyarrow included) as numpy; an (n, 1)
    column raveled."""
    a = v.as_array(x, name)
    if a.ndim == 2 and a.shape[1] == 1:
        a = a.ravel()
    return a


def _as_column(x, name):
    a = _column(x, name)
    if a.ndim != 1:  # scikit-learn's words, then what to pass (a predict_proba output...)
        raise v.not_1d_error(name, a, scores=name == "y_score")
    if a.dtype.kind in "fc":
        v.check_finite(a, name)
    return a


def each_threshold(y_true, y_score, metric_func, sample_weight, metric_params):
    """scikit-learn's loop: rows of non-zero weight sorted by decreasing score
    (stable), ``metric_func`` called at each distinct score."""
    yt = _as_column(y_true, "y_true")
    ys = _as_column(y_score, "y_score")
    w = None if sample_weight is None else _as_column(sample_weight, "sample_weight")
    if w is not None and w.dtype not in (np.float32, np.float64):
        w = w.astype(np.float64)  # scikit-learn's ``_check_sample_weight``
    n = v.check_lengths(y_true=yt, y_score=ys, sample_weight=w)
    if n == 0:
        raise v.empty_error("y_true", yt.shape)
    if w is not None:
        keep = w != 0
        if not keep.any():
            raise v.zero_weights_error()
        yt, ys, w = yt[keep], ys[keep], w[keep]
        n = ys.shape[0]
    order = n - 1 - np.argsort(ys[::-1], kind="stable")[::-1]
    ys, yt = ys[order], yt[order]
    params = dict(metric_params or {})
    if w is not None:
        params["sample_weight"] = w[order]
    idx = np.concatenate((np.flatnonzero(np.diff(ys)), [n - 1]))
    thresholds = ys[idx]
    values = [metric_func(yt, (ys >= t).astype(np.int32), **params) for t in thresholds]
    return np.asarray(values), thresholds


def _label_index(classes, label):
    """The index of ``label`` in the two sorted ``classes``, or None."""
    try:
        hit = np.flatnonzero(classes == label)
    except Exception:  # noqa: BLE001 - labels that do not compare: not ours to answer
        return None
    return int(hit[0]) if hit.shape == (1,) else None


def curve_scores(score_func, kwargs, y_true, y_score, thresholds, classes, pos_label):
    """scikit-learn's ``_CurveScorer`` scores (without its sign) from one sweep.

    At threshold ``t`` the scorer predicts ``classes[q]`` where
    ``y_score >= t`` (``q`` the index of ``pos_label``, 1 when it is None) and
    the other class elsewhere, and calls ``score_func(y_true, y_pred,
    **kwargs)``.  Returns the values at every ``t`` of ``thresholds`` when
    ``score_func`` with ``kwargs`` is a swept metric of these labels, else
    None (the caller then calls ``score_func`` per threshold)."""
    params = dict(kwargs)
    w = params.pop("sample_weight", None)
    classes = np.asarray(classes)
    t = np.asarray(thresholds)
    if classes.ndim != 1 or classes.shape[0] != 2 or t.ndim != 1 or \
            t.dtype.kind not in "iuf" or np.isnan(t).any():
        return None
    q = 1 if pos_label is None else _label_index(classes, pos_label)
    if q is None:
        return None
    name = _metric_name(_unwrapped(score_func))
    if name is None or name == "class_likelihood_ratios":
        return None  # a pair per threshold: the tuner takes one number
    if name in _PRF:
        k = _label_index(classes, params.get("pos_label", 1))
        if k is None:
            return None
        params["pos_label"] = k if q == 1 else 1 - k
    swept = swept_metric(score_func, params, False)
    if swept is None:
        return None
    yt = np.asarray(y_true)
    if yt.ndim != 1:
        return None
    try:
        idx = np.clip(np.searchsorted(classes, yt), 0, 1)
        if not np.array_equal(classes[idx], yt):
            return None
    except Exception:  # noqa: BLE001
        return None
    if q == 0:
        idx = 1 - idx
    rows = binary_rows(idx, y_score, w)
    if rows is None:
        return None
    name, kw = swept
    yt01, ys, w = rows
    thr, tps, fps, total_p, total_n = threshold_tallies(yt01, ys, w, 1)
    if name in NEEDS_BOTH_CLASSES and not (total_p > 0 and total_n > 0):
        return None
    above = np.searchsorted(-thr, -t.astype(np.float64), side="right")
    tps = np.concatenate(([0.0], np.asarray(tps, np.float64)))
    fps = np.concatenate(([0.0], np.asarray(fps, np.float64)))
    return np.asarray(swept_values(name, kw, tps[above], fps[above], total_p, total_n),
                      np.float64)


def _unwrapped(func):
    while isinstance(func, functools.partial):
        func = func.func
    return func
