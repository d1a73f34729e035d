"""scikit-learn's target checks for metrics of a fixed prediction (predicted
labels, not scores): shared by ``classification`` and ``likelihood_ratios``."""

from __future__ import annotations

import numpy as np

from . import _validation as v

_TARGETS = ("binary", "multiclass", "multilabel-indicator")


def _fmt_values(classes):
    return str(np.asarray(classes))


def _scores_detail(yp, type_pred) -> str:
    """Our detail after scikit-learn's words when ``y_pred`` holds scores, not labels."""
    if yp.ndim == 2 and v.looks_like_proba(yp):
        return (" (y_pred has 2 columns whose rows sum to 1, like the output of "
                "predict_proba: these metrics take predicted labels, such as model.predict(X) "
                "or y_proba[:, 1] >= threshold)")
    if type_pred == "continuous":
        return (" (y_pred holds continuous values: these metrics take predicted labels, "
                "such as y_score >= threshold; ranking metrics such as roc_auc_score take "
                "the scores)")
    return ""


def check_targets(y_true, y_pred, sample_weight):
    """scikit-learn's target checks for a fixed prediction.

    Returns ``(y_type, present, yt, yp, w)``: ``y_type`` is "binary",
    "multiclass" or "multilabel-indicator"; ``present`` the sorted labels of
    both (column indices for indicator matrices, whose ``yt``/``yp`` are bool).
    """
    yt = v.as_label_array(y_true, "y_true", allow_empty=True)
    yp = v.as_label_array(y_pred, "y_pred", allow_empty=True)
    n = v.check_lengths(y_true=yt, y_pred=yp)
    (type_true, yt, cls_true), (type_pred, yp, cls_pred) = (
        v.target_type(yt, "y_true"), v.target_type(yp, "y_pred"))
    if n == 0:
        raise ValueError("Found empty input array (e.g., `y_true` or `y_pred`) while a minimum "
                         "of 1 sample is required.")
    w = v.check_sample_weight(sample_weight, n, names=("y_true", "y_pred"))
    types = {type_true, type_pred}
    if types == {"binary", "multiclass"}:
        types = {"multiclass"}
    if len(types) > 1:
        raise ValueError(f"Classification metrics can't handle a mix of {type_true} and "
                         f"{type_pred} targets{_scores_detail(yp, type_pred)}")
    y_type = types.pop()
    if y_type not in _TARGETS:
        raise ValueError(f"{y_type} is not supported")
    if y_type == "multilabel-indicator":
        if yt.shape[1] != yp.shape[1]:
            raise ValueError("Multi-label binary indicator input with different numbers of "
                             f"labels ({yt.shape[1]} columns in y_true, {yp.shape[1]} in "
                             "y_pred)")
        return y_type, np.arange(yt.shape[1]), yt, yp, w
    if (cls_true.dtype.kind in "UO") != (cls_pred.dtype.kind in "UO"):
        raise ValueError("Mix of label input types (string and number); Got "
                         f"{_fmt_values(cls_true)} and {_fmt_values(cls_pred)}.")
    present = np.union1d(cls_true, cls_pred)
    if y_type == "binary" and present.shape[0] > 2:
        y_type = "multiclass"
    return y_type, present, yt, yp, w
