"""fastauc.torch's curve metrics: torchmetrics' ``BinaryROC``,
``BinaryPrecisionRecallCurve``, the four operating points
(``BinarySensitivityAtSpecificity``...) and ``BinaryCalibrationError`` on
the state of :class:`fastauc.torch.BinaryAUROC` (pending rows appended, one
sorted run kept as rows or as the distinct-score table, runs gathered under
DDP: ``_torch_metrics._TableMetric``).

Every result is a function of the merged table's columns (float64 keys,
descending, with each key's positive and negative weight) and their
cumulative sums: the exact curves are the cumulative weights at every key,
torchmetrics' binned curves (``thresholds`` given) the cumulative weights at
the given thresholds (a ``searchsorted`` in the keys: no second state), the
operating points torchmetrics' selection rules on those points (the rules of
:mod:`fastauc.operating_points`, written here on the cumulative weights, in
torch, so that a CUDA table stays on its device), and the calibration error
:func:`fastauc.calibration_error` of the table read as weighted rows.

As torchmetrics does, a batch with a score outside [0, 1] is taken for logits
and put through a sigmoid (in its dtype, before anything is kept), unless
``normalization=None``: the keys are then torchmetrics' ``preds``, and the
thresholds it reports are the same numbers.
"""

from __future__ import annotations

import math
import numbers

import numpy as np
import torch

from ._torch_metrics import F64, _TableMetric

__all__ = [
    "BinaryCalibrationError",
    "BinaryPrecisionAtFixedRecall",
    "BinaryPrecisionRecallCurve",
    "BinaryROC",
    "BinaryRecallAtFixedPrecision",
    "BinarySensitivityAtSpecificity",
    "BinarySpecificityAtSensitivity",
]

#: the threshold reported when no threshold meets a ROC constraint (torchmetrics')
NO_ROC_THRESHOLD = 1e6
NO_SAMPLES = ("No samples to concatenate: {name}.compute() needs at least one row (with "
              "weight); it came before any update, after reset(), or every row was ignored")
# torchmetrics' warnings, in its words
NO_NEGATIVE_ROC = ("No negative samples in targets, false positive value should be "
                   "meaningless. Returning zero tensor in false positive score")
NO_POSITIVE_ROC = ("No positive samples in targets, true positive value should be "
                   "meaningless. Returning zero tensor in true positive score")
NO_POSITIVE_PR = ("No positive samples found in target, recall is undefined. Setting recall "
                  "to one for all thresholds.")


# ------------------------------------------------------------------ arguments

def _binned_thresholds(thresholds):
    """torchmetrics' ``thresholds`` argument checked and as its tensor
    (``_adjust_threshold_arg``: an int is ``torch.linspace(0, 1, n)``, a list
    ``torch.tensor(list)``), or ``None`` for the exact curve."""
    if thresholds is None:
        return None
    if isinstance(thresholds, bool) or not isinstance(thresholds, (int, list, torch.Tensor)):
        raise ValueError("Expected argument `thresholds` to either be an integer, list of floats "
                         f"or tensor of floats, but got {thresholds!r}")
    if isinstance(thresholds, int):
        if thresholds < 2:
            raise ValueError("If argument `thresholds` is an integer, expected it to be larger "
                             f"than 1, but got {thresholds}")
        return torch.linspace(0, 1, thresholds)
    if isinstance(thresholds, list):
        if not all(isinstance(t, float) and 0 <= t <= 1 for t in thresholds):
            raise ValueError("If argument `thresholds` is a list, expected all elements to be "
                             f"floats in the [0,1] range, but got {thresholds}")
        return torch.tensor(thresholds)
    if thresholds.ndim != 1 or not thresholds.is_floating_point():
        raise ValueError("If argument `thresholds` is an tensor, expected the tensor to be 1d "
                         f"and floating point, got shape {tuple(thresholds.shape)} and "
                         f"{thresholds.dtype}")
    return thresholds.detach().clone()


def _check_minimum(value, name):
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real) or \
            not 0.0 <= float(value) <= 1.0:
        raise ValueError(f"Expected argument `{name}` to be an float in the [0,1] range, but "
                         f"got {value!r}")
    return float(value)


def _check_common(ignore_index, kwargs, name):
    if ignore_index is not None and (isinstance(ignore_index, bool) or
                                     not isinstance(ignore_index, int)):
        raise ValueError("Expected argument `ignore_index` to either be `None` or an integer, "
                         f"but got {ignore_index!r}")
    if kwargs.get("max_groups") is not None:
        raise ValueError(f"{name} does not take max_groups: its result needs every distinct "
                         "score (BinaryAUROC(max_groups=...) bounds the state of the AUC)")


def _sigmoid_if_logits(preds, target, sample_weight, ignore_index):
    """torchmetrics' ``_binary_precision_recall_curve_format``: the ignored
    rows left out, then ``normalize_logits_if_needed(preds, "sigmoid")``:
    the sigmoid of the rows kept, in their dtype, when one is outside
    [0, 1] (of the same tensor as torchmetrics': torch's vectorised sigmoid
    may round a value one unit apart at another position)."""
    x = preds.detach().reshape(-1)
    if ignore_index is not None and isinstance(target, torch.Tensor) and \
            target.numel() == x.numel():
        target = target.reshape(-1)
        keep = target != ignore_index
        if not bool(keep.all()):
            if sample_weight is not None:
                w = torch.as_tensor(sample_weight, device=x.device).reshape(-1)
                if w.shape[0] == x.shape[0]:  # (else update's check raises)
                    sample_weight = w[keep]
            x, target = x[keep], target[keep]
    if x.numel() and not bool(((x >= 0) & (x <= 1)).all()):
        x = x.sigmoid()
    return x, target, sample_weight


# ------------------------------------------------------------------ the table's points

def _cumulative(p, q):
    """Cumulative weights from the top, with the class totals (floats)."""
    tps, fps = torch.cumsum(p, 0), torch.cumsum(q, 0)
    return tps, fps, (float(tps[-1]) if tps.numel() else 0.0), \
        (float(fps[-1]) if fps.numel() else 0.0)


def _at_thresholds(keys, p, q, thresholds):
    """The positive and negative weight with ``score >= t`` for each given
    threshold (any order), and the class totals: torchmetrics' binned
    confusion matrices, from the table."""
    t = thresholds.to(device=keys.device, dtype=F64)
    zero = torch.zeros(1, dtype=F64, device=keys.device)
    cp = torch.cat((zero, torch.cumsum(p, 0)))
    cq = torch.cat((zero, torch.cumsum(q, 0)))
    above = keys.shape[0] - torch.searchsorted(keys.flip(0).contiguous(), t, right=False)
    return cp[above], cq[above], float(cp[-1]), float(cq[-1])


def _ratio(x, total):
    """``x / total``, zeros when ``total`` is 0 (torchmetrics' ``_safe_divide``)."""
    return x / total if total > 0 else torch.zeros_like(x)


def _first_max(value, allowed, thr):
    """The first greatest ``value`` among ``allowed`` (``torch.argmax``'s
    first index) and its threshold, or ``(0.0, 1e6)`` when none is allowed:
    torchmetrics' ``_sensitivity_at_specificity`` rule."""
    idx = torch.nonzero(allowed).reshape(-1)
    if idx.numel() == 0:
        return _pair(0.0, NO_ROC_THRESHOLD, value.device)
    j = idx[torch.argmax(value[idx])]
    return value[j].to(F64), thr[j].to(F64)


def _lexmax(first, second, allowed, thr):
    """Among ``allowed`` (``first`` defined), the greatest ``(first, second,
    threshold)``; threshold NaN when nothing is allowed or the best
    ``first`` is 0: torchmetrics' ``_recall_at_precision`` and
    ``_precision_at_recall`` rules."""
    idx = torch.nonzero(allowed & ~torch.isnan(first)).reshape(-1)
    if idx.numel() == 0:
        return _pair(0.0, math.nan, first.device)
    idx = idx[first[idx] == first[idx].max()]
    idx = idx[second[idx] == second[idx].max()]
    j = idx[torch.argmax(thr[idx])]
    best = first[j].to(F64)
    return best, (thr[j].to(F64) if float(best) != 0.0 else
                  torch.tensor(math.nan, dtype=F64, device=first.device))


def _pair(value, threshold, device):
    return (torch.tensor(value, dtype=F64, device=device),
            torch.tensor(threshold, dtype=F64, device=device))


# ------------------------------------------------------------------ the metrics

class _SweepMetric(_TableMetric):
    """The state of :class:`fastauc.torch.BinaryAUROC`; a result from the
    table's keys and class weights (``_result``), torchmetrics' sigmoid on
    batches of logits."""

    higher_is_better = None

    def __init__(self, thresholds=None, ignore_index=None, validate_args=True,
                 normalization="sigmoid", **kwargs):
        _check_common(ignore_index, kwargs, type(self).__name__)
        kwargs.pop("max_groups", None)
        if normalization not in (None, "sigmoid"):
            raise ValueError(f"normalization must be 'sigmoid' or None for a binary metric, got "
                             f"{normalization!r}")
        binned = _binned_thresholds(thresholds)
        super().__init__(ignore_index=ignore_index, validate_args=validate_args, **kwargs)
        self.normalization = normalization
        if binned is None:
            self.thresholds = None
        else:
            self.register_buffer("thresholds", binned, persistent=False)

    def update(self, preds, target, sample_weight=None):
        """Append a batch: ``preds`` (probabilities, or logits: torchmetrics'
        sigmoid rule, see ``normalization``), ``target`` (0/1 or bool) and an
        optional ``sample_weight``; O(batch), nothing sorted."""
        super().update(preds, target, sample_weight)

    def _rows(self, preds, target, sample_weight=None):
        if self.normalization is not None and isinstance(preds, torch.Tensor) and \
                preds.is_floating_point():
            preds, target, sample_weight = _sigmoid_if_logits(preds, target, sample_weight,
                                                              self.ignore_index)
        return super()._rows(preds, target, sample_weight)

    def compute(self):
        return self._value(*self._table())

    def _value(self, keys, p, q, batch=False):
        if self.thresholds is None and keys.numel() == 0:
            raise ValueError(NO_SAMPLES.format(name=type(self).__name__))
        return self._result(keys, p, q, batch)

    def _result(self, keys, p, q, batch):
        raise NotImplementedError

    # the curves, exact (every key) or binned (``thresholds``)

    def _roc(self, keys, p, q, batch):
        """torchmetrics' ``_binary_roc_compute``: (fpr, tpr, thresholds),
        thresholds descending."""
        if self.thresholds is not None:
            tp, fp, total_p, total_n = _at_thresholds(keys, p, q, self.thresholds)
            return (_ratio(fp, total_n).flip(0), _ratio(tp, total_p).flip(0),
                    self.thresholds.to(device=keys.device, dtype=F64).flip(0))
        tps, fps, total_p, total_n = _cumulative(p, q)
        zero = torch.zeros(1, dtype=F64, device=keys.device)
        start = 1.0 if float(keys[0]) <= 1.0 else math.inf  # (scores above 1: normalization=None)
        thr = torch.cat((torch.full((1,), start, dtype=F64, device=keys.device), keys))
        if total_n <= 0:
            self._undefined(NO_NEGATIVE_ROC, batch, UserWarning)
        if total_p <= 0:
            self._undefined(NO_POSITIVE_ROC, batch, UserWarning)
        return (torch.cat((zero, _ratio(fps, total_n))), torch.cat((zero, _ratio(tps, total_p))),
                thr)

    def _pr(self, keys, p, q, batch):
        """torchmetrics' ``_binary_precision_recall_curve_compute``:
        (precision, recall, thresholds), thresholds ascending, the end point
        (precision 1, recall 0) last."""
        one = torch.ones(1, dtype=F64, device=keys.device)
        if self.thresholds is not None:
            tp, fp, total_p, _ = _at_thresholds(keys, p, q, self.thresholds)
            return (torch.cat((tp / (tp + fp), one)), torch.cat((tp / total_p, 0.0 * one)),
                    self.thresholds.to(device=keys.device, dtype=F64))
        tps, fps, total_p, _ = _cumulative(p, q)
        precision = tps / (tps + fps)
        if total_p <= 0:
            self._undefined(NO_POSITIVE_PR, batch, UserWarning)
            recall = torch.ones_like(tps)
        else:
            recall = tps / total_p
        return (torch.cat((precision.flip(0), one)), torch.cat((recall.flip(0), 0.0 * one)),
                keys.flip(0))


_CURVE_PARAMETERS = """thresholds : int, list of float or 1-d tensor, default=None
        None: the exact curve, a point at every distinct score.  Otherwise
        torchmetrics' binned curve at these thresholds (an int ``n``:
        ``torch.linspace(0, 1, n)``; a list of floats in [0, 1]; a tensor),
        computed from the same exact state (the weight above each threshold
        read off the table), so a metric can give both.
    ignore_index : int, default=None
        Rows whose target equals this value are left out (before the sigmoid
        rule looks at the batch).
    validate_args : bool, default=True
        Check every batch as :class:`BinaryAUROC` does (floating-point
        ``preds``, finite scores, 0/1 or bool targets, finite non-negative
        weights); ``False`` skips these checks.  The constructor's arguments
        are checked either way.
    normalization : {"sigmoid", None}, default="sigmoid"
        torchmetrics' rule: a batch with a score outside [0, 1] is taken for
        logits and put through a sigmoid in its dtype (so large logits may
        tie at 1.0, as in torchmetrics).  None: scores kept as given."""

_STATE_NOTES = """The state is :class:`BinaryAUROC`'s: ``update(preds, target,
    sample_weight=None)`` appends the batch (O(batch), nothing sorted),
    ``compute`` sorts what came since the last one once and merges it with
    the sorted run, and DDP gathers each rank's one sorted run; ``forward``
    gives the batch's result at the cost of the batch.  Values are float64
    tensors on the state's device, computed from exact counts (weights
    summed in float64): torchmetrics' float32 rates are these rounded to
    float32 (a specificity, which it computes as ``1 - fpr`` in float32,
    may differ in the last float32 unit), thresholds are the (widened)
    scores torchmetrics reports.
    ``max_groups`` is refused (the result needs every distinct score)."""


class BinaryROC(_SweepMetric):
    """The ROC curve of everything ``update`` saw, exact, on the state of
    :class:`BinaryAUROC`.

    torchmetrics' ``BinaryROC``: ``compute()`` returns ``(fpr, tpr,
    thresholds)``, thresholds descending; exact (``thresholds=None``), a
    first point ``(0, 0)`` at threshold 1.0 (``inf`` when a score exceeds 1:
    ``normalization=None`` on logits), then a point per distinct score; a
    rate of a class without weight is 0, with torchmetrics' warning.
    ``compute()`` before any row raises torchmetrics' ``ValueError`` (no
    samples), after its warning.

    Parameters
    ----------
    {curve}
    **kwargs
        torchmetrics' ``Metric`` keyword arguments: ``sync_on_compute``,
        ``dist_sync_on_step``, ``compute_on_cpu``, ``process_group``...

    Notes
    -----
    {notes}

    See Also
    --------
    BinaryPrecisionRecallCurve : The precision-recall curve on the same state.
    BinaryAUROC : The area under this curve.
    fastauc.roc_curve : The in-memory function (scikit-learn's conventions).
    torchmetrics.classification.BinaryROC : The metric this one replaces.

    Examples
    --------
    >>> import torch
    >>> from fastauc.torch import BinaryROC
    >>> metric = BinaryROC()
    >>> metric.update(torch.tensor([0.1, 0.4]), torch.tensor([0, 0]))
    >>> metric.update(torch.tensor([0.35, 0.8]), torch.tensor([1, 1]))
    >>> fpr, tpr, thresholds = metric.compute()
    >>> fpr.tolist(), tpr.tolist()
    ([0.0, 0.0, 0.5, 0.5, 1.0], [0.0, 0.5, 0.5, 1.0, 1.0])
    >>> [round(t, 2) for t in thresholds.tolist()]
    [1.0, 0.8, 0.4, 0.35, 0.1]
    >>> fpr, tpr, thresholds = BinaryROC(thresholds=3)(torch.tensor([0.1, 0.4, 0.35, 0.8]),
    ...                                                torch.tensor([0, 0, 1, 1]))
    >>> fpr.tolist(), tpr.tolist(), thresholds.tolist()
    ([0.0, 0.0, 1.0], [0.0, 0.5, 1.0], [1.0, 0.5, 0.0])
    """

    def _result(self, keys, p, q, batch):
        return self._roc(keys, p, q, batch)

    def plot(self, curve=None, score=None, ax=None):
        """torchmetrics' plot of the curve (``compute()``'s unless ``curve``
        is given; ``score=True``: its trapezoidal area in the legend);
        returns ``(figure, axes)``.  Needs matplotlib."""
        return _plot_curve(self, curve, score, ax, False)


class BinaryPrecisionRecallCurve(_SweepMetric):
    """The precision-recall curve of everything ``update`` saw, exact, on the
    state of :class:`BinaryAUROC`.

    torchmetrics' ``BinaryPrecisionRecallCurve``: ``compute()`` returns
    ``(precision, recall, thresholds)``, thresholds ascending, one point per
    distinct score and the end point (precision 1, recall 0) last; without
    positives the recall is 1, with torchmetrics' warning.  Binned
    (``thresholds`` given), a threshold above every score has precision NaN,
    as in torchmetrics.  ``compute()`` before any row raises torchmetrics'
    ``ValueError`` (no samples), after its warning.

    Parameters
    ----------
    {curve}
    **kwargs
        torchmetrics' ``Metric`` keyword arguments: ``sync_on_compute``,
        ``dist_sync_on_step``, ``compute_on_cpu``, ``process_group``...

    Notes
    -----
    {notes}

    See Also
    --------
    BinaryROC : The ROC curve on the same state.
    BinaryAveragePrecision : The step area under this curve.
    fastauc.precision_recall_curve : The in-memory function.
    torchmetrics.classification.BinaryPrecisionRecallCurve : The metric this one replaces.

    Examples
    --------
    >>> import torch
    >>> from fastauc.torch import BinaryPrecisionRecallCurve
    >>> metric = BinaryPrecisionRecallCurve()
    >>> metric.update(torch.tensor([0.0, 0.5, 0.7, 0.8]), torch.tensor([0, 1, 1, 0]))
    >>> precision, recall, thresholds = metric.compute()
    >>> [round(x, 4) for x in precision.tolist()], recall.tolist()
    ([0.5, 0.6667, 0.5, 0.0, 1.0], [1.0, 1.0, 0.5, 0.0, 0.0])
    >>> [round(t, 2) for t in thresholds.tolist()]
    [0.0, 0.5, 0.7, 0.8]
    """

    def _result(self, keys, p, q, batch):
        return self._pr(keys, p, q, batch)

    def plot(self, curve=None, score=None, ax=None):
        """torchmetrics' plot of the curve, recall along x (``compute()``'s
        unless ``curve`` is given; ``score=True``: its trapezoidal area in
        the legend); returns ``(figure, axes)``.  Needs matplotlib."""
        return _plot_curve(self, curve, score, ax, True)


def _plot_curve(metric, curve, score, ax, pr):
    """torchmetrics' ``plot`` of a ROC (``pr=False``) or precision-recall curve."""
    from torchmetrics.utilities.plot import plot_curve

    points = curve or metric.compute()
    if pr:  # recall along x
        points = (points[1], points[0], points[2])
    area = None
    if not curve and score is True:
        area = torch.trapezoid(points[1], points[0]) * (-1.0 if pr else 1.0)
    names = ("Recall", "Precision") if pr else ("False positive rate", "True positive rate")
    return plot_curve(points, score=area, ax=ax, label_names=names, name=type(metric).__name__)


class _OperatingPoint(_SweepMetric):
    """``compute()``: ``(value, threshold)``, a rule on a curve's points."""

    higher_is_better = True
    _minimum = ""  # the constructor argument's name

    def __init__(self, minimum, thresholds=None, ignore_index=None, validate_args=True,
                 normalization="sigmoid", **kwargs):
        minimum = _check_minimum(minimum, self._minimum)
        super().__init__(thresholds=thresholds, ignore_index=ignore_index,
                         validate_args=validate_args, normalization=normalization,
                         **kwargs)
        setattr(self, self._minimum, minimum)

    def _roc_rule(self, keys, p, q, batch, sensitivity_first):
        fpr, tpr, thr = self._roc(keys, p, q, batch)
        spec = 1.0 - fpr
        minimum = getattr(self, self._minimum)
        if sensitivity_first:
            return _first_max(tpr, spec >= minimum, thr)
        return _first_max(spec, tpr >= minimum, thr)

    def _pr_rule(self, keys, p, q, batch, precision_first):
        precision, recall, thr = self._pr(keys, p, q, batch)
        n = thr.shape[0]  # the end point has no threshold
        precision, recall = precision[:n], recall[:n]
        minimum = getattr(self, self._minimum)
        if precision_first:
            return _lexmax(precision, recall, recall >= minimum, thr)
        return _lexmax(recall, precision, precision >= minimum, thr)


_POINT_PARAMETERS = _CURVE_PARAMETERS.replace(
    "None: the exact curve, a point at every distinct score.",
    "None: every distinct score is a candidate threshold (exact).").replace(
    "binned curve at these thresholds", "binned candidates")


class BinarySensitivityAtSpecificity(_OperatingPoint):
    """The highest sensitivity at a minimum specificity, and its threshold,
    of everything ``update`` saw, on the state of :class:`BinaryAUROC`.

    torchmetrics' ``BinarySensitivityAtSpecificity``: ``compute()`` returns
    ``(sensitivity, threshold)``; the candidates are the ROC points of
    :class:`BinaryROC` (exact: the start point at threshold 1.0 and every
    distinct score), the first of greatest sensitivity (the highest
    threshold) among those with ``specificity >= min_specificity``;
    ``(0.0, 1e6)`` when none qualifies.  The rule of
    :func:`fastauc.sensitivity_at_specificity`, on the table.

    Parameters
    ----------
    min_specificity : float
        The lowest specificity allowed, in [0, 1].
    {point}
    **kwargs
        torchmetrics' ``Metric`` keyword arguments.

    Notes
    -----
    {notes}

    See Also
    --------
    BinarySpecificityAtSensitivity : The converse constraint.
    fastauc.sensitivity_at_specificity : The in-memory function.
    torchmetrics.classification.BinarySensitivityAtSpecificity : The metric this one replaces.

    Examples
    --------
    >>> import torch
    >>> from fastauc.torch import BinarySensitivityAtSpecificity
    >>> metric = BinarySensitivityAtSpecificity(min_specificity=0.5)
    >>> metric.update(torch.tensor([0.1, 0.4, 0.35, 0.8]), torch.tensor([0, 0, 1, 1]))
    >>> value, threshold = metric.compute()
    >>> value.item(), round(threshold.item(), 2)
    (1.0, 0.35)
    """

    _minimum = "min_specificity"

    def __init__(self, min_specificity, thresholds=None, ignore_index=None, validate_args=True,
                 normalization="sigmoid", **kwargs):
        super().__init__(min_specificity, thresholds, ignore_index, validate_args,
                         normalization, **kwargs)

    def _result(self, keys, p, q, batch):
        return self._roc_rule(keys, p, q, batch, True)


class BinarySpecificityAtSensitivity(_OperatingPoint):
    """The highest specificity at a minimum sensitivity, and its threshold,
    of everything ``update`` saw, on the state of :class:`BinaryAUROC`.

    torchmetrics' ``BinarySpecificityAtSensitivity``: ``compute()`` returns
    ``(specificity, threshold)``; the candidates are the ROC points of
    :class:`BinaryROC`, the first of greatest specificity among those with
    ``sensitivity >= min_sensitivity``; ``(0.0, 1e6)`` when none qualifies.
    The rule of :func:`fastauc.specificity_at_sensitivity`, on the table.

    Parameters
    ----------
    min_sensitivity : float
        The lowest sensitivity (recall) allowed, in [0, 1].
    {point}
    **kwargs
        torchmetrics' ``Metric`` keyword arguments.

    Notes
    -----
    {notes}

    See Also
    --------
    BinarySensitivityAtSpecificity : The converse constraint.
    fastauc.specificity_at_sensitivity : The in-memory function.
    torchmetrics.classification.BinarySpecificityAtSensitivity : The metric this one replaces.

    Examples
    --------
    >>> import torch
    >>> from fastauc.torch import BinarySpecificityAtSensitivity
    >>> metric = BinarySpecificityAtSensitivity(min_sensitivity=1.0)
    >>> metric.update(torch.tensor([0.1, 0.4, 0.35, 0.8]), torch.tensor([0, 0, 1, 1]))
    >>> value, threshold = metric.compute()
    >>> value.item(), round(threshold.item(), 2)
    (0.5, 0.35)
    """

    _minimum = "min_sensitivity"

    def __init__(self, min_sensitivity, thresholds=None, ignore_index=None, validate_args=True,
                 normalization="sigmoid", **kwargs):
        super().__init__(min_sensitivity, thresholds, ignore_index, validate_args,
                         normalization, **kwargs)

    def _result(self, keys, p, q, batch):
        return self._roc_rule(keys, p, q, batch, False)


class BinaryPrecisionAtFixedRecall(_OperatingPoint):
    """The highest precision at a minimum recall, and its threshold, of
    everything ``update`` saw, on the state of :class:`BinaryAUROC`.

    torchmetrics' ``BinaryPrecisionAtFixedRecall``: ``compute()`` returns
    ``(precision, threshold)``; the candidates are the points of
    :class:`BinaryPrecisionRecallCurve` that have a threshold (exact: every
    distinct score), the greatest ``(precision, recall, threshold)`` among
    those with ``recall >= min_recall``; the threshold is NaN when none
    qualifies or the best precision is 0.  The rule of
    :func:`fastauc.precision_at_recall`, on the table.  (Binned, a threshold
    above every score, of precision NaN, is not a candidate; torchmetrics'
    ``max`` over such points depends on their order.)

    Parameters
    ----------
    min_recall : float
        The lowest recall allowed, in [0, 1].
    {point}
    **kwargs
        torchmetrics' ``Metric`` keyword arguments.

    Notes
    -----
    {notes}

    See Also
    --------
    BinaryRecallAtFixedPrecision : The converse constraint.
    fastauc.precision_at_recall : The in-memory function.
    torchmetrics.classification.BinaryPrecisionAtFixedRecall : The metric this one replaces.

    Examples
    --------
    >>> import torch
    >>> from fastauc.torch import BinaryPrecisionAtFixedRecall
    >>> metric = BinaryPrecisionAtFixedRecall(min_recall=0.9)
    >>> metric.update(torch.tensor([0.1, 0.4, 0.35, 0.8, 0.2, 0.7]),
    ...               torch.tensor([0, 0, 1, 1, 0, 1]))
    >>> value, threshold = metric.compute()
    >>> value.item(), round(threshold.item(), 2)
    (0.75, 0.35)
    """

    _minimum = "min_recall"

    def __init__(self, min_recall, thresholds=None, ignore_index=None, validate_args=True,
                 normalization="sigmoid", **kwargs):
        super().__init__(min_recall, thresholds, ignore_index, validate_args,
                         normalization, **kwargs)

    def _result(self, keys, p, q, batch):
        return self._pr_rule(keys, p, q, batch, True)


class BinaryRecallAtFixedPrecision(_OperatingPoint):
    """The highest recall at a minimum precision, and its threshold, of
    everything ``update`` saw, on the state of :class:`BinaryAUROC`.

    torchmetrics' ``BinaryRecallAtFixedPrecision``: ``compute()`` returns
    ``(recall, threshold)``; the candidates are the points of
    :class:`BinaryPrecisionRecallCurve` that have a threshold, the greatest
    ``(recall, precision, threshold)`` among those with ``precision >=
    min_precision``; the threshold is NaN when none qualifies or the best
    recall is 0.  The rule of :func:`fastauc.recall_at_precision`, on the
    table.

    Parameters
    ----------
    min_precision : float
        The lowest precision allowed, in [0, 1].
    {point}
    **kwargs
        torchmetrics' ``Metric`` keyword arguments.

    Notes
    -----
    {notes}

    See Also
    --------
    BinaryPrecisionAtFixedRecall : The converse constraint.
    fastauc.recall_at_precision : The in-memory function.
    torchmetrics.classification.BinaryRecallAtFixedPrecision : The metric this one replaces.

    Examples
    --------
    >>> import torch
    >>> from fastauc.torch import BinaryRecallAtFixedPrecision
    >>> metric = BinaryRecallAtFixedPrecision(min_precision=0.8)
    >>> metric.update(torch.tensor([0.1, 0.4, 0.35, 0.8, 0.2, 0.7]),
    ...               torch.tensor([0, 0, 1, 1, 0, 1]))
    >>> value, threshold = metric.compute()
    >>> round(value.item(), 4), round(threshold.item(), 2)
    (0.6667, 0.7)
    """

    _minimum = "min_precision"

    def __init__(self, min_precision, thresholds=None, ignore_index=None, validate_args=True,
                 normalization="sigmoid", **kwargs):
        super().__init__(min_precision, thresholds, ignore_index, validate_args,
                         normalization, **kwargs)

    def _result(self, keys, p, q, batch):
        return self._pr_rule(keys, p, q, batch, False)


_CALIBRATION_NORMS = ("l1", "l2", "max")


class BinaryCalibrationError(_SweepMetric):
    """The calibration error (ECE, RMS or MCE) of everything ``update`` saw,
    on the state of :class:`BinaryAUROC`.

    torchmetrics' ``BinaryCalibrationError``: the probabilities cut into
    ``n_bins`` equally wide bins (closed on the left, 1 in a bin of its own),
    then ``sum_b prop_b |acc_b - conf_b|`` (``"l1"``), its root-mean-square
    (``"l2"``) or the largest gap (``"max"``).  The value is
    :func:`fastauc.calibration_error` of the table (each distinct
    probability with its positive and negative weight), a float64 tensor.
    As torchmetrics does, a batch with a value outside [0, 1] is taken for
    logits and put through a sigmoid.  ``compute()`` before any row raises
    torchmetrics' ``ValueError`` (no samples), after its warning.

    Parameters
    ----------
    n_bins : int, default=15
        Number of equally wide bins (at least 1).
    norm : {"l1", "l2", "max"}, default="l1"
        Which calibration error.
    ignore_index : int, default=None
        Rows whose target equals this value are left out.
    validate_args : bool, default=True
        Check every batch as :class:`BinaryAUROC` does; ``False`` skips
        these checks.  The constructor's arguments are checked either way.
    **kwargs
        torchmetrics' ``Metric`` keyword arguments.

    Notes
    -----
    The state is :class:`BinaryAUROC`'s (appended rows, one sorted run,
    runs gathered under DDP; ``forward`` gives the batch's error).
    torchmetrics sums in the probabilities' dtype: on float32 ones its value
    differs from this float64 one by float32 rounding (about 1e-6), and a
    float32 probability that equals a bin edge rounded to float32 may fall
    in the other bin.

    See Also
    --------
    fastauc.calibration_error : The in-memory function.
    fastauc.calibration_curve : The per-bin frequencies and mean probabilities.
    torchmetrics.classification.BinaryCalibrationError : The metric this one replaces.

    Examples
    --------
    >>> import torch
    >>> from fastauc.torch import BinaryCalibrationError
    >>> metric = BinaryCalibrationError(n_bins=3)
    >>> metric.update(torch.tensor([0.1, 0.2, 0.3, 0.4]), torch.tensor([0, 0, 0, 1]))
    >>> metric.update(torch.tensor([0.65, 0.7, 0.8, 0.9]), torch.tensor([1, 1, 1, 1]))
    >>> round(metric.compute().item(), 6)
    0.2
    """

    higher_is_better = False

    def __init__(self, n_bins=15, norm="l1", ignore_index=None, validate_args=True,
                 **kwargs):
        if isinstance(n_bins, bool) or not isinstance(n_bins, int) or n_bins < 1:
            raise ValueError(f"Expected argument `n_bins` to be an integer larger than 0, but "
                             f"got {n_bins!r}")
        if norm not in _CALIBRATION_NORMS:
            raise ValueError(f"Expected argument `norm` to be one of {_CALIBRATION_NORMS}, but "
                             f"got {norm!r}")
        super().__init__(ignore_index=ignore_index, validate_args=validate_args,
                         normalization="sigmoid", **kwargs)  # torchmetrics': always
        self.n_bins, self.norm = n_bins, norm

    def _result(self, keys, p, q, batch):
        from ._probabilities import binned_error, table_bins

        k, pos, neg = (x.detach().cpu().numpy().astype(np.float64) for x in (keys, p, q))
        value = binned_error(*table_bins(k, pos, neg, self.n_bins), self.norm)
        return torch.tensor(value, dtype=F64, device=keys.device)


for _cls in (BinaryROC, BinaryPrecisionRecallCurve):
    _cls.__doc__ = _cls.__doc__.format(curve=_CURVE_PARAMETERS, notes=_STATE_NOTES)
for _cls in (BinarySensitivityAtSpecificity, BinarySpecificityAtSensitivity,
             BinaryPrecisionAtFixedRecall, BinaryRecallAtFixedPrecision):
    _cls.__doc__ = _cls.__doc__.format(point=_POINT_PARAMETERS, notes=_STATE_NOTES)
del _cls
