"""Multiclass scores checked as ``roc_auc_score`` checks them (its order, its
words): shared by ``roc_auc_score`` and the multiclass intervals."""

from __future__ import annotations

import numpy as np

from . import _validation as v
from ._kernels.matrix import columns_and_checks
from ._parallel import map_units, row_blocks

__all__ = ["checked_columns", "multiclass_checked", "multiclass_scores", "need_multi_class"]


def multiclass_checked(y_true, y_score, multi_class, average, labels):
    """``roc_auc_score``'s checks of multiclass input, in its order and with
    its words (for the multiclass intervals): ``(y, columns, classes)``,
    ``columns`` each class's scores, contiguous."""
    v.check_auc_options(average, None, multi_class)
    y = v.as_label_array(y_true)
    if y.ndim == 2:
        raise ValueError("multilabel y_true has no multiclass interval: one column at a time")
    S = v.as_float_array(y_score, "y_score", ndim=(1, 2), keep_float32=True)
    v.check_lengths(y_true=y, y_score=S)
    y_classes, _ = v.classes_and_ones(y)
    if S.ndim == 2:
        S = v.wide(S)
    if multi_class == "raise":
        need_multi_class(y_classes, S)
    columns, classes = checked_columns(y, S, labels, multi_class, average, y_classes)
    return y, columns, classes


def need_multi_class(y_classes, S):
    raise ValueError(
        "multi_class must be in ('ovo', 'ovr') (y_true has "
        f"{len(y_classes)} classes and y_score has shape {S.shape}: choose 'ovr' or 'ovo' "
        "for multiclass targets)"
    )


def checked_columns(y, S, labels, multi_class, average, y_classes):
    """Multiclass scores' shape, finiteness and row sums checked, as columns;
    and the classes of the columns."""
    if S.ndim != 2:
        raise ValueError(
            "`y_score` needs to be of shape `(n_samples, n_classes)`, since `y_true` "
            f"contains multiple classes. Got `y_score.shape={S.shape}`."
        )
    columns = np.empty((S.shape[1], S.shape[0]))  # each class's scores, contiguous
    S = np.ascontiguousarray(S)
    # fixed row blocks on the threads: counts and flags combine in any order
    checked = map_units(columns_and_checks, [(S[a:b], columns[:, a:b])
                                             for a, b in row_blocks(S.shape[0])])
    n_bad = sum(bad for bad, _ in checked)
    sums_to_one = all(ok for _, ok in checked)
    if n_bad:
        v.check_finite(S, "y_score")
    if not sums_to_one:
        raise ValueError(
            "Target scores need to be probabilities for multiclass roc_auc, i.e. they "
            "should sum up to 1.0 over classes"
        )
    classes = v.multiclass_auc_classes(labels, y_classes, S.shape[1], average, multi_class)
    return columns, classes


def multiclass_scores(y_score) -> bool:
    """Whether ``y_score`` holds three score columns or more (a multiclass
    model's probabilities)."""
    shape = getattr(y_score, "shape", None)
    if shape is None:
        try:
            shape = np.shape(y_score)
        except ValueError:  # ragged: the binary path's error
            return False
    return len(shape) == 2 and shape[1] > 2
