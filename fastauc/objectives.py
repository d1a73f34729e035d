"""Objectives and evaluation metrics for LightGBM and XGBoost.

Gradient boosting fits each tree to the gradient and Hessian of a loss in
the current scores.  :func:`lightgbm_objective` and :func:`xgboost_objective`
give those of an all-pairs loss (:func:`fastauc.pairwise_loss_gradient`), in
O(n log n) per round, with the data set's weights and query groups; the
metrics give fastauc's AUC, average precision, partial AUC or a pairwise loss
for early stopping.  Neither library is imported here: the callables only
read the data set they are handed (``pip install "fastauc[boost]"`` installs
both).

A model trained on a pairwise loss outputs margins that rank, not
probabilities: ``predict`` of ``lgb.train``/``xgb.train`` models gives raw
scores, and ``LGBMClassifier.predict_proba`` says it returns raw scores for a
custom objective.  Pick an operating point on held-out data with
:func:`fastauc.best_threshold` or :func:`fastauc.threshold_metrics`.
"""

from __future__ import annotations

import warnings

import numpy as np

from . import _validation as v
from .groups import by_group
from ._pairwise import check_params, pairwise_terms
from .pairwise import pairwise_loss
from .ranking import average_precision_score, roc_auc_score

__all__ = ["lightgbm_metric", "lightgbm_objective", "xgboost_metric", "xgboost_objective"]

METRICS = ("roc_auc", "average_precision", "partial_auc", "pairwise_loss")
_QUADRATIC = ("square", "squared_hinge")


def _codes_from_sizes(sizes, n):
    """Group codes from consecutive group sizes (LightGBM's ``get_group``)."""
    if sizes is None or len(sizes) == 0:
        return None
    sizes = np.asarray(sizes, np.int64)
    if sizes.sum() != n:
        raise ValueError(f"the data set's groups cover {int(sizes.sum())} rows, not {n}")
    return np.repeat(np.arange(sizes.shape[0]), sizes)


def _codes_from_pointers(ptr, n):
    """Group codes from XGBoost's ``group_ptr`` (first row of each group)."""
    if ptr is None or len(ptr) < 2:
        return None
    return _codes_from_sizes(np.diff(np.asarray(ptr, np.int64)), n)


def _scores(preds):
    """The libraries' scores, flat: XGBoost's float32 margins stay float32
    (sorted as 32-bit keys; the terms are computed in float64 all the same)."""
    preds = np.asarray(preds).reshape(-1)
    return preds if preds.dtype == np.float32 else preds.astype(np.float64, copy=False)


def _none_if_empty(w):
    """The weights as float64 (the libraries keep float32), None for none."""
    if w is None:
        return None
    w = np.asarray(w, np.float64)
    return None if w.size == 0 else w


class _Objective:
    """Gradient and Hessian of an all-pairs loss for a boosting round.

    The loss is the pair-normalised one (``normalize=True``) times half the
    rows' total weight, so the Hessian is about one a row, as log loss's is;
    the scale changes neither the trees' directions nor the Newton steps,
    only how the libraries' thresholds on the Hessian (``min_child_weight``,
    ``min_sum_hessian_in_leaf``) and the L2 penalty compare with it.  Losses
    whose second derivative is 0 (``linear``, ``hinge``, ``aum``) get the
    square loss's Hessian ``2 w_i W_other / W_pairs`` (positive for every row
    with a pair), which makes each Newton step a gradient step scaled per
    class; ``square`` and ``squared_hinge`` get their own (0 for a row with
    no active pair).

    Both arrays are float32, each entry the float64 one rounded once: the
    libraries keep gradients in float32 and would convert them anyway, and
    the kernels' writes to scattered rows move half the bytes.
    """

    # LightGBM's Python package hands the arrays' data pointers to C (and
    # asserts they are contiguous); XGBoost reads them through the array
    # interface, strides included (``XGBoostObjective``)
    _interleaved = False

    def __init__(self, loss, margin):
        self.margin, _ = check_params(loss, margin, True)
        self.loss = loss

    def __repr__(self):
        return f"{type(self).__name__}(loss={self.loss!r}, margin={self.margin!r})"

    def gradient(self, y_true, preds, weight=None, groups=None):
        """``(grad, hess)`` in row order for scores ``preds``."""
        preds = _scores(preds)
        weight = _none_if_empty(weight)
        with warnings.catch_warnings():  # queries of one class are common in ranking
            warnings.simplefilter("ignore", v.UndefinedMetricWarning)
            total = float(np.sum(weight)) if weight is not None else float(preds.shape[0])
            _, grad, hess = pairwise_terms(y_true, preds, self.loss, self.margin, weight, None,
                                           groups, True,
                                           square_hessian=self.loss not in _QUADRATIC,
                                           factor=total / 2.0 if total > 0 else 1.0,
                                           count_here=True,  # (the library's threads spin)
                                           dtype=np.float32, interleaved=self._interleaved)
        return grad, hess


class LightGBMObjective(_Objective):
    """A LightGBM objective (see :func:`lightgbm_objective`)."""

    def __call__(self, a, b, weight=None, group=None):
        if hasattr(b, "get_label"):  # lgb.train: (preds, train_set)
            preds, data = a, b
            y = data.get_label()
            return self.gradient(y, preds, data.get_weight(),
                                 _codes_from_sizes(data.get_group(), len(y)))
        # LGBMClassifier: (y_true, y_pred, weight, group)
        return self.gradient(a, b, weight, _codes_from_sizes(group, len(a)))


class XGBoostObjective(_Objective):
    """An XGBoost objective (see :func:`xgboost_objective`)."""

    # each row's two entries side by side (one cache line a row for the
    # kernels' scattered writes; at 1e6 rows, 1.7 against 2.5 ms of writes)
    _interleaved = True

    def __call__(self, a, b, sample_weight=None):
        if hasattr(b, "get_uint_info"):  # xgb.train: (preds, dtrain)
            preds, data = a, b
            y = data.get_label()
            return self.gradient(y, preds, data.get_weight(),
                                 _codes_from_pointers(data.get_uint_info("group_ptr"), len(y)))
        return self.gradient(a, b, sample_weight)  # XGBClassifier: (y_true, y_pred)


def lightgbm_objective(loss="squared_hinge", margin=1.0):
    """An all-pairs loss as a LightGBM objective.

    Parameters
    ----------
    loss : {"squared_hinge", "square", "hinge", "linear", "aum"}, default="squared_hinge"
        The all-pairs surrogate, as in :func:`fastauc.pairwise_loss`.
    margin : float, default=1.0
        The margin of the hinge and square losses: finite, > 0 for the hinge
        losses, >= 0 otherwise (unused by ``"linear"`` and ``"aum"``).

    Returns
    -------
    objective : callable
        For ``lgb.train(params={"objective": objective}, ...)`` (called with
        the scores and the training ``Dataset``, whose weights and query
        groups it reads) and ``LGBMClassifier(objective=objective)`` (called
        with labels, scores, weights and groups).  Returns the gradient and
        Hessian described in the notes.

    Notes
    -----
    The loss is normalised by the total pair weight and multiplied by half
    the total weight, so the Hessian is about one a row.  Losses with no
    second derivative (``linear``, ``hinge``, ``aum``) pass the square
    loss's Hessian, which is positive for every row that has a pair.  Rows in
    query groups of one class get a zero gradient (no warning here).  Both
    arrays are float32 (each entry the float64 value rounded once), the
    precision LightGBM and XGBoost keep gradients in.  The model's outputs
    are margins, not probabilities.

    See Also
    --------
    lightgbm_metric : fastauc's metrics for early stopping.
    fastauc.pairwise_loss_gradient : The gradient computed.

    Examples
    --------
    >>> import numpy as np
    >>> from fastauc.objectives import lightgbm_objective
    >>> objective = lightgbm_objective("squared_hinge")
    >>> grad, hess = objective(np.array([0, 1, 0, 1]), np.zeros(4), None, None)
    >>> grad, hess
    (array([ 2., -2.,  2., -2.], dtype=float32), array([2., 2., 2., 2.], dtype=float32))
    """
    return LightGBMObjective(loss, margin)


def xgboost_objective(loss="squared_hinge", margin=1.0):
    """An all-pairs loss as an XGBoost objective.

    Parameters
    ----------
    loss : {"squared_hinge", "square", "hinge", "linear", "aum"}, default="squared_hinge"
        The all-pairs surrogate, as in :func:`fastauc.pairwise_loss`.
    margin : float, default=1.0
        The margin of the hinge and square losses: finite, > 0 for the hinge
        losses, >= 0 otherwise (unused by ``"linear"`` and ``"aum"``).

    Returns
    -------
    objective : callable
        For ``xgb.train(params, dtrain, obj=objective)`` (reads the
        ``DMatrix``'s weights and ``qid`` groups) and
        ``XGBClassifier(objective=objective)`` (called with labels, scores
        and ``sample_weight``).  Gradient and Hessian as for
        :func:`lightgbm_objective`.

    See Also
    --------
    xgboost_metric : fastauc's metrics for early stopping.
    lightgbm_objective : The same loss for LightGBM (its Notes hold for both).
    fastauc.pairwise_loss_gradient : The gradient computed.

    Examples
    --------
    >>> import numpy as np
    >>> from fastauc.objectives import xgboost_objective
    >>> grad, hess = xgboost_objective("hinge")(np.array([0, 1, 0, 1]), np.zeros(4))
    >>> grad, hess
    (array([ 1., -1.,  1., -1.], dtype=float32), array([2., 2., 2., 2.], dtype=float32))
    """
    return XGBoostObjective(loss, margin)


class _Metric:
    """fastauc's metric of the scores, per query group when there are groups
    (the mean over the groups that have both classes)."""

    def __init__(self, metric, max_fpr, loss, margin):
        v.check_choice(metric, "metric", METRICS)
        if metric == "partial_auc" and not (max_fpr is not None and 0 < max_fpr <= 1):
            raise ValueError(f"metric='partial_auc' needs max_fpr in (0, 1], got {max_fpr!r}")
        if metric == "pairwise_loss":
            check_params(loss, margin, True)
        self.metric, self.max_fpr, self.loss, self.margin = metric, max_fpr, loss, margin
        self.name = {"roc_auc": "fastauc_auc", "average_precision": "fastauc_ap",
                     "partial_auc": "fastauc_pauc",
                     "pairwise_loss": f"fastauc_{loss}"}[metric]
        self.higher_better = metric != "pairwise_loss"

    def __repr__(self):
        return f"{type(self).__name__}(metric={self.metric!r})"

    def value(self, y_true, preds, weight=None, groups=None):
        preds = _scores(preds)
        weight = _none_if_empty(weight)
        if self.metric == "pairwise_loss":
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", v.UndefinedMetricWarning)
                return pairwise_loss(y_true, preds, loss=self.loss, margin=self.margin,
                                     sample_weight=weight, groups=groups)
        if groups is None:
            return self._one(y_true, preds, weight)
        y_true = np.asarray(y_true)
        if self.metric in ("roc_auc", "average_precision"):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", v.UndefinedMetricWarning)
                res = by_group(y_true, preds, groups, sample_weight=weight)
            both = (res.pos_weight > 0) & (res.neg_weight > 0)
            col = res.auc if self.metric == "roc_auc" else res.average_precision
            return float(np.mean(col[both])) if both.any() else float("nan")
        values = []
        for g in np.unique(groups):
            rows = groups == g
            if len(np.unique(y_true[rows])) == 2:
                values.append(self._one(y_true[rows], preds[rows],
                                        None if weight is None else weight[rows]))
        return float(np.mean(values)) if values else float("nan")

    def _one(self, y, s, w):
        if self.metric == "average_precision":
            return float(average_precision_score(y, s, sample_weight=w))
        return float(roc_auc_score(y, s, sample_weight=w,
                                   max_fpr=self.max_fpr if self.metric == "partial_auc"
                                   else None))


class LightGBMMetric(_Metric):
    """A LightGBM evaluation metric (see :func:`lightgbm_metric`)."""

    def __call__(self, a, b, weight=None, group=None):
        if hasattr(b, "get_label"):  # lgb.train feval: (preds, dataset)
            y = b.get_label()
            value = self.value(y, a, b.get_weight(), _codes_from_sizes(b.get_group(), len(y)))
        else:  # LGBMClassifier eval_metric: (y_true, y_pred, weight, group)
            value = self.value(a, b, weight, _codes_from_sizes(group, len(a)))
        return self.name, value, self.higher_better


class XGBoostMetric(_Metric):
    """An XGBoost evaluation metric (see :func:`xgboost_metric`)."""

    def __call__(self, a, b, sample_weight=None):
        if hasattr(b, "get_uint_info"):  # xgb.train custom_metric: (preds, dtrain)
            y = b.get_label()
            return self.name, self.value(
                y, a, b.get_weight(), _codes_from_pointers(b.get_uint_info("group_ptr"), len(y)))
        return self.value(a, b, sample_weight)  # XGBClassifier eval_metric: sklearn-style

    @property
    def __name__(self):  # XGBClassifier names a callable metric by its __name__
        return self.name


def lightgbm_metric(metric="roc_auc", *, max_fpr=None, loss="squared_hinge", margin=1.0):
    """fastauc's AUC, average precision, partial AUC or a pairwise loss as a
    LightGBM evaluation metric.

    Parameters
    ----------
    metric : {"roc_auc", "average_precision", "partial_auc", "pairwise_loss"}, default="roc_auc"
        The value reported (higher is better, but for ``"pairwise_loss"``):
        :func:`fastauc.roc_auc_score`, :func:`fastauc.average_precision_score`,
        the partial AUC up to ``max_fpr``, or :func:`fastauc.pairwise_loss`.
    max_fpr : float in (0, 1], default=None
        For ``metric="partial_auc"`` (required there): McClish's standardised
        partial AUC, as ``roc_auc_score(max_fpr=...)``.
    loss : {"squared_hinge", "square", "hinge", "linear", "aum"}, default="squared_hinge"
        For ``metric="pairwise_loss"``: the surrogate, as in
        :func:`fastauc.pairwise_loss`.
    margin : float, default=1.0
        For ``metric="pairwise_loss"``: the margin of the hinge and square
        losses.

    Returns
    -------
    metric : callable
        For ``lgb.train(feval=metric)`` and ``LGBMClassifier.fit(...,
        eval_metric=metric)``: returns ``(name, value, is_higher_better)``.
        Weighted by the data set's weights; with query groups, the mean of
        the groups' values over the groups that have both classes.

    Raises
    ------
    ValueError
        An unknown ``metric``, ``"partial_auc"`` without a ``max_fpr`` in
        (0, 1], and for ``"pairwise_loss"`` a ``loss`` or ``margin`` that
        :func:`fastauc.pairwise_loss` refuses.

    See Also
    --------
    lightgbm_objective : An all-pairs loss as LightGBM's objective.
    xgboost_metric : The same metrics for XGBoost.

    Examples
    --------
    >>> import numpy as np
    >>> from fastauc.objectives import lightgbm_metric
    >>> lightgbm_metric("roc_auc")(np.array([0, 1, 0, 1]), np.array([0.1, 0.8, 0.3, 0.2]),
    ...                            None, None)
    ('fastauc_auc', 0.75, True)
    """
    return LightGBMMetric(metric, max_fpr, loss, margin)


def xgboost_metric(metric="roc_auc", *, max_fpr=None, loss="squared_hinge", margin=1.0):
    """fastauc's AUC, average precision, partial AUC or a pairwise loss as an
    XGBoost evaluation metric.

    Parameters
    ----------
    metric : {"roc_auc", "average_precision", "partial_auc", "pairwise_loss"}, default="roc_auc"
        The value reported (higher is better, but for ``"pairwise_loss"``):
        :func:`fastauc.roc_auc_score`, :func:`fastauc.average_precision_score`,
        the partial AUC up to ``max_fpr``, or :func:`fastauc.pairwise_loss`.
    max_fpr : float in (0, 1], default=None
        For ``metric="partial_auc"`` (required there): McClish's standardised
        partial AUC, as ``roc_auc_score(max_fpr=...)``.
    loss : {"squared_hinge", "square", "hinge", "linear", "aum"}, default="squared_hinge"
        For ``metric="pairwise_loss"``: the surrogate, as in
        :func:`fastauc.pairwise_loss`.
    margin : float, default=1.0
        For ``metric="pairwise_loss"``: the margin of the hinge and square
        losses.

    Returns
    -------
    metric : callable
        For ``xgb.train(custom_metric=metric)`` (returns ``(name, value)``;
        reads the weights and ``qid`` groups of the ``DMatrix``) and
        ``XGBClassifier(eval_metric=metric)`` (returns the value).  XGBoost
        minimises a custom metric when early stopping unless told otherwise:
        pass ``xgboost.callback.EarlyStopping(..., maximize=True)`` for the
        AUC metrics.

    Raises
    ------
    ValueError
        As :func:`lightgbm_metric`.

    See Also
    --------
    xgboost_objective : An all-pairs loss as XGBoost's objective.
    lightgbm_metric : The same metrics for LightGBM.

    Examples
    --------
    >>> import numpy as np
    >>> from fastauc.objectives import xgboost_metric
    >>> xgboost_metric("average_precision")(np.array([0, 1, 0, 1]),
    ...                                     np.array([0.1, 0.8, 0.3, 0.2]))
    0.8333333333333333
    """
    return XGBoostMetric(metric, max_fpr, loss, margin)
