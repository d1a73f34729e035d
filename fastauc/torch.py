"""PyTorch: the all-pairs AUC losses with autograd, and exact AUROC metrics.

``pip install "fastauc[torch]"`` (torch and torchmetrics).  Imported only
when used: ``import fastauc.torch``.

- :func:`pairwise_loss` and :class:`PairwiseAUCLoss`: the losses of
  :func:`fastauc.pairwise_loss` (the article's linear all-pairs loss among
  them) as a 0-d tensor that autograd differentiates in the scores, in
  O(n log n) (O(n) for the linear and square losses) instead of n**2 pairs.
- :class:`BinaryAUROC` and :class:`BinaryAveragePrecision`: torchmetrics
  metrics whose state is the distinct-score table (each distinct score with
  its positive and negative count and weight), exact at any number of rows,
  merged across processes under DDP (no all-gather of raw predictions).
- :class:`BinaryROC`, :class:`BinaryPrecisionRecallCurve`, the operating
  points (:class:`BinarySensitivityAtSpecificity`,
  :class:`BinarySpecificityAtSensitivity`,
  :class:`BinaryPrecisionAtFixedRecall`,
  :class:`BinaryRecallAtFixedPrecision`) and
  :class:`BinaryCalibrationError`: torchmetrics' curve metrics on the same
  state, exact, or binned at given thresholds from the same table.
"""

from __future__ import annotations

import numpy as np
import torch

from ._containers import _from_torch
from ._pairwise import QUIET_NO_PAIRS
from .pairwise import pairwise_loss_gradient

__all__ = [
    "BinaryAUROC",
    "BinaryAveragePrecision",
    "BinaryCalibrationError",
    "BinaryPrecisionAtFixedRecall",
    "BinaryPrecisionRecallCurve",
    "BinaryROC",
    "BinaryRecallAtFixedPrecision",
    "BinarySensitivityAtSpecificity",
    "BinarySpecificityAtSensitivity",
    "PairwiseAUCLoss",
    "pairwise_loss",
]


# ------------------------------------------------------------------ the loss

def _host(x):
    """A tensor as numpy (CPU tensors without a copy), anything else as is."""
    return _from_torch(x) if isinstance(x, torch.Tensor) else x


def _check_scores(y_score, y_true=None, order="pairwise_loss(y_true, y_score)"):
    if not isinstance(y_score, torch.Tensor):
        raise TypeError(f"y_score must be a torch.Tensor (the scores autograd differentiates), "
                        f"got {type(y_score).__name__}{_swap_hint(y_true, order)}")
    if not y_score.is_floating_point():
        raise TypeError(f"y_score must be a floating-point tensor (autograd differentiates in "
                        f"it), got {y_score.dtype}{_swap_hint(y_true, order)}")
    if y_score.ndim == 2 and y_score.shape[1] == 1:
        return y_score[:, 0]
    if y_score.ndim != 1:
        raise ValueError(f"y_score must have shape (n_samples,) or (n_samples, 1), got "
                         f"{tuple(y_score.shape)}: one score per row (no batch dimension)")
    return y_score


def _swap_hint(y_true, order):
    """The hint when the labels look like the scores: a float tensor that
    requires grad, or floats that are not all 0/1."""
    if not isinstance(y_true, torch.Tensor) or not y_true.is_floating_point():
        return ""
    if y_true.requires_grad or not bool(((y_true == 0) | (y_true == 1)).all()):
        return f"; did you swap y_true and y_score? The order is {order}"
    return ""


def _same_device(y_score, **others):
    for name, x in others.items():
        if isinstance(x, torch.Tensor) and x.device != y_score.device:
            raise ValueError(f"{name} is on {x.device} and y_score on {y_score.device}; put "
                             "them on one device")


class _PairwiseLoss(torch.autograd.Function):
    """Value in the forward pass, the O(n log n) gradient kept for the
    backward pass (labels, weights and groups are constants)."""

    @staticmethod
    def forward(ctx, y_score, y_true, sample_weight, groups, options):
        flat = _check_scores(y_score)
        score = flat.detach()
        quiet = QUIET_NO_PAIRS.set(True)  # a batch without a pair: 0, said in the docstring
        try:
            if score.device.type == "cpu":  # float32 and float64: the tensor's memory
                if score.dtype not in (torch.float32, torch.float64):
                    score = score.to(torch.float32)  # float16, bfloat16: widened, exactly
                value, grad = pairwise_loss_gradient(
                    _host(y_true), score.numpy(),
                    sample_weight=_host(sample_weight), groups=_host(groups), **options)
                grad = torch.from_numpy(np.ascontiguousarray(grad))
            else:  # CUDA: the device path (fastauc's dispatcher), torch tensors back
                value, grad = pairwise_loss_gradient(y_true, score.to(torch.float64),
                                                     sample_weight=sample_weight,
                                                     groups=groups, **options)
                grad = torch.as_tensor(grad, device=score.device)
        finally:
            QUIET_NO_PAIRS.reset(quiet)
        ctx.save_for_backward(grad.to(y_score.dtype).reshape(y_score.shape))
        return torch.tensor(value, dtype=y_score.dtype, device=y_score.device)

    @staticmethod
    def backward(ctx, grad_output):
        (grad,) = ctx.saved_tensors
        return grad_output * grad, None, None, None, None


def pairwise_loss(y_true, y_score, *, loss="squared_hinge", margin=1.0, sample_weight=None,
                  pos_label=None, groups=None, normalize=True):
    """:func:`fastauc.pairwise_loss` as a differentiable 0-d tensor.

    Same arguments, defaults and value as the numpy function; the result is
    on ``y_score``'s device, in its dtype, and ``backward()`` gives
    ``y_score`` the exact gradient, computed in O(n log n) (O(n) for
    ``"linear"`` and ``"square"``).  ``y_true``, ``sample_weight`` and
    ``groups`` are constants (tensors or arrays).  CPU tensors reach the
    Numba kernels without a copy (float32 and float64; float16 and bfloat16
    are widened to float32, exactly); CUDA tensors take fastauc's device
    path (docs/guide/gpu.md): no host copy.

    A batch without a positive-negative pair (one class, or one class of zero
    weight) gives 0 and a zero gradient, as the numpy function, but without
    its ``UndefinedMetricWarning``: a training loop is not flooded with one
    warning per step.

    Parameters
    ----------
    y_true : tensor or array-like of shape (n_samples,)
        Binary labels; the greater label is positive unless ``pos_label``
        says otherwise.  A constant: no gradient flows to it.
    y_score : tensor of shape (n_samples,) or (n_samples, 1)
        Floating-point scores (logits or probabilities), on any device; the
        gradient flows to it.
    loss : {"squared_hinge", "square", "hinge", "linear", "aum"}, default="squared_hinge"
        The surrogate of the pairwise step, as in :func:`fastauc.pairwise_loss`.
    margin : float, default=1.0
        Finite, > 0 for the hinge losses, >= 0 otherwise (unused by
        ``"linear"`` and ``"aum"``).
    sample_weight : tensor or array-like of shape (n_samples,), default=None
        Non-negative row weights; a pair weighs ``w_i * w_j``.  A constant.
    pos_label : int, float, bool or str, default=None
        The label of the positive class (default: the greater label).
    groups : tensor or array-like of shape (n_samples,), default=None
        A query id per row: only pairs within a group count, summed over the
        groups.  A constant.
    normalize : {True, False, "all_pairs"}, default=True
        ``True`` divides by the total pair weight, ``False`` gives the raw
        weighted sum, ``"all_pairs"`` the mean over all ``N**2`` ordered pairs
        (as in :func:`fastauc.pairwise_loss`).

    Returns
    -------
    loss : 0-d tensor
        The loss, on ``y_score``'s device and in its dtype, differentiable in
        ``y_score``.

    Raises
    ------
    TypeError
        ``y_score`` not a floating-point tensor (with a hint when the labels
        look like the scores: the order is ``(y_true, y_score)``).
    ValueError
        ``y_score`` of another shape, tensors on different devices, and what
        :func:`fastauc.pairwise_loss` refuses.

    See Also
    --------
    PairwiseAUCLoss : The same as an ``nn.Module``.
    fastauc.pairwise_loss : The numpy function (value only).
    fastauc.pairwise_loss_gradient : The value with its gradient and Hessian, in numpy.

    Examples
    --------
    >>> import torch
    >>> from fastauc.torch import pairwise_loss
    >>> s = torch.tensor([0.2, 0.9, 0.4, 0.6], dtype=torch.float64, requires_grad=True)
    >>> value = pairwise_loss(torch.tensor([0, 1, 0, 1]), s, loss="squared_hinge")
    >>> value.backward()
    >>> round(value.item(), 6), s.grad.tolist()
    (0.335, [0.45, -0.4, 0.65, -0.7])
    """
    flat = _check_scores(y_score, y_true)
    _same_device(flat, y_true=y_true, sample_weight=sample_weight, groups=groups)
    options = dict(loss=loss, margin=margin, pos_label=pos_label, normalize=normalize)
    return _PairwiseLoss.apply(y_score, y_true, sample_weight, groups, options)


class PairwiseAUCLoss(torch.nn.Module):
    """:func:`pairwise_loss` as an ``nn.Module``: ``PairwiseAUCLoss()(y_score, y_true)``.

    Called as a criterion, torch's way: ``criterion(y_score, y_true,
    sample_weight=None, groups=None)``, scores first (the functions take
    labels first, as scikit-learn does).

    Parameters
    ----------
    loss : {"squared_hinge", "square", "hinge", "linear", "aum"}, default="squared_hinge"
        The surrogate of the pairwise step, as in :func:`fastauc.pairwise_loss`.
    margin : float, default=1.0
        Finite, > 0 for the hinge losses, >= 0 otherwise (unused by
        ``"linear"`` and ``"aum"``).
    normalize : {True, False, "all_pairs"}, default=True
        ``True`` divides by the total pair weight, ``False`` gives the raw
        weighted sum, ``"all_pairs"`` the mean over all ``N**2`` ordered pairs.
    pos_label : int, float, bool or str, default=None
        The label of the positive class (default: the greater label).

    See Also
    --------
    pairwise_loss : The function this module calls.
    fastauc.pairwise_loss : The numpy function (value only).

    Examples
    --------
    >>> import torch
    >>> from fastauc.torch import PairwiseAUCLoss
    >>> criterion = PairwiseAUCLoss(loss="linear", normalize="all_pairs")
    >>> s = torch.tensor([0.2, 0.9, 0.4, 0.6], requires_grad=True)
    >>> round(criterion(s, torch.tensor([0, 1, 0, 1])).item(), 6)  # the article's L
    0.275
    """

    def __init__(self, loss="squared_hinge", margin=1.0, normalize=True, pos_label=None):
        super().__init__()
        self.loss, self.margin, self.normalize, self.pos_label = loss, margin, normalize, \
            pos_label

    def forward(self, y_score, y_true, sample_weight=None, groups=None):
        _check_scores(y_score, y_true, order="PairwiseAUCLoss()(y_score, y_true): torch's, "
                      "scores first")
        return pairwise_loss(y_true, y_score, loss=self.loss, margin=self.margin,
                             normalize=self.normalize, pos_label=self.pos_label,
                             sample_weight=sample_weight, groups=groups)

    def extra_repr(self) -> str:
        return f"loss={self.loss!r}, margin={self.margin}, normalize={self.normalize!r}"


# ------------------------------------------------------------------ the metrics

_METRICS = ("BinaryAUROC", "BinaryAveragePrecision")
_CURVES = ("BinaryCalibrationError", "BinaryPrecisionAtFixedRecall",
           "BinaryPrecisionRecallCurve", "BinaryROC", "BinaryRecallAtFixedPrecision",
           "BinarySensitivityAtSpecificity", "BinarySpecificityAtSensitivity")


def __getattr__(name):
    """The metrics, imported on first use: they import torchmetrics (about a
    second), which the losses do not need."""
    if name in _METRICS:
        from . import _torch_metrics

        return getattr(_torch_metrics, name)
    if name in _CURVES:
        from . import _torch_curves

        return getattr(_torch_curves, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__():
    return sorted(list(globals()) + list(_METRICS) + list(_CURVES))
