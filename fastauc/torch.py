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
"""

from __future__ import annotations

import types
import warnings

import numpy as np
import torch
from torchmetrics import Metric

from . import _validation as v
from ._containers import _from_torch
from ._device.tallies import band_area
from ._curves import NO_POSITIVE_PR
from ._stats import wald_interval
from .pairwise import pairwise_loss_gradient

__all__ = ["BinaryAUROC", "BinaryAveragePrecision", "PairwiseAUCLoss", "pairwise_loss"]


# ------------------------------------------------------------------ the loss

def _host(x):
    """A tensor as numpy (CPU tensors without a copy), anything else as is."""
    return _from_torch(x) if isinstance(x, torch.Tensor) else x


def _check_scores(y_score):
    if not isinstance(y_score, torch.Tensor):
        raise TypeError(f"y_score must be a torch.Tensor (the scores autograd differentiates), "
                        f"got {type(y_score).__name__}")
    if not y_score.is_floating_point():
        raise TypeError(f"y_score must be a floating-point tensor (autograd differentiates in "
                        f"it), got {y_score.dtype}")
    if y_score.ndim == 2 and y_score.shape[1] == 1:
        return y_score[:, 0]
    if y_score.ndim != 1:
        raise ValueError(f"y_score must have shape (n_samples,) or (n_samples, 1), got "
                         f"{tuple(y_score.shape)}: one score per row (no batch dimension)")
    return y_score


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
        with warnings.catch_warnings():  # a batch without a pair: 0, said in the docstring
            warnings.filterwarnings("ignore", category=v.undefined_metric_warning())
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
    path (docs/gpu.md): no host copy.

    A batch without a positive-negative pair (one class, or one class of zero
    weight) gives 0 and a zero gradient, as the numpy function, but without
    its ``UndefinedMetricWarning``: a training loop is not flooded with one
    warning per step.

    Parameters
    ----------
    y_true : tensor or array-like of shape (n_samples,)
    y_score : tensor of shape (n_samples,) or (n_samples, 1)
        Floating-point scores (logits or probabilities).
    loss, margin, sample_weight, pos_label, groups, normalize
        As :func:`fastauc.pairwise_loss`.

    Returns
    -------
    loss : 0-d tensor

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
    flat = _check_scores(y_score)
    _same_device(flat, y_true=y_true, sample_weight=sample_weight, groups=groups)
    options = dict(loss=loss, margin=margin, pos_label=pos_label, normalize=normalize)
    return _PairwiseLoss.apply(y_score, y_true, sample_weight, groups, options)


class PairwiseAUCLoss(torch.nn.Module):
    """:func:`pairwise_loss` as an ``nn.Module``: ``PairwiseAUCLoss()(y_score, y_true)``.

    Parameters
    ----------
    loss, margin, normalize, pos_label
        As :func:`fastauc.pairwise_loss`.

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
        return pairwise_loss(y_true, y_score, loss=self.loss, margin=self.margin,
                             normalize=self.normalize, pos_label=self.pos_label,
                             sample_weight=sample_weight, groups=groups)

    def extra_repr(self) -> str:
        return f"loss={self.loss!r}, margin={self.margin}, normalize={self.normalize!r}"


# ------------------------------------------------------------------ the metrics

def _table(keys, pos, neg, pos_w, neg_w):
    """The table with its duplicate keys merged (sorted ascending)."""
    if keys.numel() == 0:
        return keys, pos, neg, pos_w, neg_w
    uniq, inverse = torch.unique(keys, sorted=True, return_inverse=True)

    def add(x):
        return torch.zeros(uniq.shape[0], dtype=x.dtype, device=x.device).index_add_(
            0, inverse, x)

    return uniq, add(pos), add(neg), add(pos_w), add(neg_w)


_STATES = ("keys", "pos", "neg", "pos_w", "neg_w")
_TORCH = types.SimpleNamespace(xp=torch)  # torch as the array namespace of _device.tallies
_CELL_STATES = ("cell_hi", "cell_lo", "cell_level", "cell_pos", "cell_neg", "cell_sizes")
_DTYPES = (torch.float64, torch.int64, torch.int64, torch.float64, torch.float64)


class _TableMetric(Metric):
    """The distinct-score table as a torchmetrics state: ``keys`` (float64
    scores, ascending), the int64 counts ``pos``/``neg`` and float64 weights
    ``pos_w``/``neg_w`` at each.  ``update`` folds a batch in; the DDP sync
    concatenates the ranks' tables (``dist_reduce_fx="cat"``), which
    ``compute`` merges: every rank gets the all-data value."""

    is_differentiable = False
    higher_is_better = True
    full_state_update = False

    def __init__(self, ignore_index=None, validate_args=True, **kwargs):
        super().__init__(**kwargs)
        self.ignore_index = ignore_index
        self.validate_args = validate_args
        # lists (of one merged table per rank): the sync gathers tables of
        # different lengths and concatenates them
        for name in _STATES:
            self.add_state(name, default=[], dist_reduce_fx="cat")
        self.add_state("weighted", default=torch.zeros((), dtype=torch.int64),
                       dist_reduce_fx="sum")

    def _state(self):
        """The table's five tensors (several ranks' tables concatenated after
        a sync, so keys may repeat)."""
        out = []
        for name, dtype in zip(_STATES, _DTYPES):
            x = getattr(self, name)
            if isinstance(x, list):
                x = torch.cat(x) if x else torch.zeros(0, dtype=dtype, device=self.device)
            out.append(x)
        return out

    @property
    def n_distinct(self) -> int:
        """Rows of the table: the distinct scores seen (this rank's until a sync)."""
        return int(_table(*self._state())[0].shape[0])

    def update(self, preds, target, sample_weight=None):
        """Fold a batch in: ``preds`` (scores: logits or probabilities, used
        as given: no sigmoid), ``target`` (0/1 or bool) and optional weights."""
        preds = preds.detach().reshape(-1)
        target = target.detach().reshape(-1)
        if preds.shape[0] != target.shape[0]:
            raise ValueError(f"preds and target have different numbers of rows: "
                             f"{preds.shape[0]} and {target.shape[0]}")
        keep = None
        if self.ignore_index is not None:
            keep = target != self.ignore_index
            preds, target = preds[keep], target[keep]
        if self.validate_args:
            if not preds.is_floating_point():
                raise TypeError(f"preds must be floating point, got {preds.dtype}")
            if not bool(torch.isfinite(preds).all()):
                raise ValueError("Input preds contains NaN or infinity (remove or impute them "
                                 "first)")
            if target.numel() and not bool(((target == 0) | (target == 1)).all()):
                raise ValueError("target must hold 0/1 (or bool) labels; got values "
                                 f"{torch.unique(target)[:5].tolist()}")
        is_pos = target.to(torch.bool)
        if sample_weight is None:
            w = torch.ones(preds.shape[0], dtype=torch.float64, device=preds.device)
        else:
            w = sample_weight.detach().reshape(-1).to(torch.float64)
            if keep is not None:
                w = w[keep]
            if w.shape[0] != preds.shape[0] or bool((w < 0).any()) or \
                    not bool(torch.isfinite(w).all()):
                raise ValueError("sample_weight must be finite, non-negative and one per row")
            self.weighted += 1
        one = torch.ones_like(w, dtype=torch.int64)
        zero = torch.zeros_like(one)
        keys, pos, neg, pos_w, neg_w = self._state()
        self._fold(*_table(torch.cat((keys, preds.to(torch.float64) + 0.0)),  # -0.0 -> 0.0
                           torch.cat((pos, torch.where(is_pos, one, zero))),
                           torch.cat((neg, torch.where(is_pos, zero, one))),
                           torch.cat((pos_w, torch.where(is_pos, w, 0.0))),
                           torch.cat((neg_w, torch.where(is_pos, 0.0, w)))))

    def _fold(self, keys, pos, neg, pos_w, neg_w):
        """Keep the merged table (the bounded metric folds it into its cells)."""
        for name, x in zip(_STATES, (keys, pos, neg, pos_w, neg_w)):
            setattr(self, name, [x])

    def _descending(self):
        """The merged table, distinct scores descending, with the class
        weights as float64 (counts when no batch had weights)."""
        keys, pos, neg, pos_w, neg_w = _table(*self._state())
        if int(self.weighted) == 0:
            pos_w, neg_w = pos.to(torch.float64), neg.to(torch.float64)
        return keys.flip(0), pos_w.flip(0), neg_w.flip(0)


class BinaryAUROC(_TableMetric):
    """Exact ROC AUC of everything ``update`` saw, in training loops.

    The constructor takes torchmetrics' ``BinaryAUROC`` arguments but
    ``thresholds`` (this one is exact): ``max_fpr`` (McClish's standardised
    partial AUC), ``ignore_index``, ``validate_args`` and the ``Metric``
    keyword arguments (``sync_on_compute``, ``dist_sync_on_step``...).  The
    state is the distinct-score table, so memory grows with the distinct
    scores, not the rows; counts are int64 and weights float64 (no float32
    sums), scores are ranked as given (no sigmoid: large logits do not tie).
    Under DDP the ranks' tables are merged, and every rank computes the
    all-data AUC.  ``update`` takes an optional ``sample_weight``.

    ``max_groups`` bounds the state as :class:`fastauc.Accumulator` does:
    once the table would pass that many rows, scores are merged into ranges
    (the host keeps these cells: at most ``max_groups`` rows), ``compute``
    gives the midpoint of the certified :meth:`auc_bounds` (width about
    ``1 / max_groups``), and the interval and ``max_fpr`` need the exact
    table.

    Examples
    --------
    >>> import torch
    >>> from fastauc.torch import BinaryAUROC
    >>> metric = BinaryAUROC()
    >>> metric.update(torch.tensor([0.1, 0.4]), torch.tensor([0, 0]))
    >>> metric.update(torch.tensor([0.35, 0.8]), torch.tensor([1, 1]))
    >>> metric.compute().item()
    0.75
    >>> ci = metric.delong_interval()  # fastauc.roc_auc_ci's, from the table
    >>> round(ci.low, 3), round(ci.se, 4)
    (0.057, 0.3536)
    """

    def __init__(self, max_fpr=None, ignore_index=None, validate_args=True, max_groups=None,
                 **kwargs):
        if max_fpr is not None and not (isinstance(max_fpr, (int, float)) and 0 < max_fpr <= 1):
            raise ValueError(f"max_fpr must be in the range (0, 1], got {max_fpr!r}")
        if max_groups is not None:
            if isinstance(max_groups, bool) or not isinstance(max_groups, int):
                raise TypeError(f"max_groups must be an integer or None, got {max_groups!r}")
            if max_groups < 2:
                raise ValueError(f"max_groups must be at least 2, got {max_groups}")
        super().__init__(ignore_index=ignore_index, validate_args=validate_args, **kwargs)
        self.max_fpr = max_fpr
        self.max_groups = max_groups
        if max_groups is not None:  # the bounded table: Accumulator's cells
            for name in _CELL_STATES:
                self.add_state(name, default=[], dist_reduce_fx="cat")

    def _fold(self, keys, pos, neg, pos_w, neg_w):
        if self.max_groups is None:
            return super()._fold(keys, pos, neg, pos_w, neg_w)
        from ._cells import Cells
        from ._table import float_keys

        # this batch's table as cells (host: at most max_groups + a batch of rows)
        order = torch.argsort(keys, descending=True)
        k = float_keys(keys[order].cpu().numpy())
        weights = (pos_w, neg_w) if int(self.weighted) else (pos.to(torch.float64),
                                                               neg.to(torch.float64))
        p, q = (x[order].cpu().numpy() for x in weights)
        cells = self._cells().merge(Cells(k, k.copy(), np.full(k.shape[0], 64, np.uint8), p, q))
        cells = cells.compressed(self.max_groups)
        for name, x in zip(_CELL_STATES, (cells.keys.view(np.int64), cells.lo.view(np.int64),
                                          cells.level.astype(np.int64), cells.pos, cells.neg,
                                          np.array([len(cells)], np.int64))):
            setattr(self, name, [torch.from_numpy(np.ascontiguousarray(x)).to(self.device)])

    def _cells(self):
        """The bounded table of every rank (each rank's cells merged)."""
        from ._cells import Cells

        empty = Cells(*(np.zeros(0, t) for t in (np.uint64, np.uint64, np.uint8, np.float64,
                                                  np.float64)))
        parts = [torch.cat(x).cpu().numpy() if isinstance(x, list) and x else
                 (x.cpu().numpy() if isinstance(x, torch.Tensor) else None)
                 for x in (getattr(self, n) for n in _CELL_STATES)]
        if parts[0] is None:
            return empty
        hi, lo, level, pos, neg, sizes = parts
        out, start = empty, 0
        for size in sizes.tolist():
            end = start + size
            out = out.merge(Cells(hi[start:end].view(np.uint64), lo[start:end].view(np.uint64),
                                  level[start:end].astype(np.uint8), pos[start:end],
                                  neg[start:end]))
            start = end
        return out.compressed(self.max_groups)

    def auc_bounds(self):
        """``(low, high)``: certified bounds of the AUC of all the data (every
        rank's, under DDP), as :meth:`fastauc.Accumulator.auc_bounds`; equal
        while the table is exact."""
        with self.sync_context():
            if self.max_groups is not None:
                cells = self._cells()
                if not cells.exact:
                    return cells.auc_bounds()
            auc = float(self._value())
        return auc, auc

    def _parts(self):
        """Each distinct score's class weights, descending, their running sums
        and the class totals."""
        if self.max_groups is None:
            _, p, q = self._descending()
        else:  # the cells, which the callers checked are exact
            cells = self._cells()
            p = torch.from_numpy(np.ascontiguousarray(cells.pos))
            q = torch.from_numpy(np.ascontiguousarray(cells.neg))
        tp = torch.cumsum(p, 0)
        fp = torch.cumsum(q, 0)
        total_p = float(tp[-1]) if tp.numel() else 0.0
        total_n = float(fp[-1]) if fp.numel() else 0.0
        return p, q, tp, fp, total_p, total_n

    def compute(self):
        """The AUC (NaN when a class has no weight, with scikit-learn's
        warning); once a bounded table merged scores into ranges, the
        midpoint of :meth:`auc_bounds`."""
        return self._value()

    def _value(self):
        if self.max_groups is not None:
            cells = self._cells()
            if not cells.exact:
                if self.max_fpr not in (None, 1):
                    raise ValueError("max_fpr needs the exact table: this metric merged "
                                     f"scores into ranges to stay within max_groups="
                                     f"{self.max_groups}")
                low, high = cells.auc_bounds()
                return torch.tensor(0.5 * (low + high), dtype=torch.float64)
        p, q, tp, fp, total_p, total_n = self._parts()
        if total_p <= 0 or total_n <= 0:
            v.warn_undefined(v.ONE_CLASS, stacklevel=None)
            return torch.tensor(float("nan"), dtype=torch.float64)
        if self.max_fpr is None or self.max_fpr == 1:
            area2 = (q * (2.0 * (tp - p) + p)).sum()
            return area2 / (2.0 * total_p * total_n)
        fpr = torch.cat((torch.zeros(1, dtype=torch.float64, device=fp.device), fp / total_n))
        tpr = torch.cat((torch.zeros(1, dtype=torch.float64, device=tp.device), tp / total_p))
        hi = float(self.max_fpr)
        partial = band_area(_TORCH, fpr, tpr, hi)  # the device path's, in torch
        min_area = 0.5 * hi * hi
        return torch.tensor(0.5 * (1.0 + (partial - min_area) / (hi - min_area)),
                            dtype=torch.float64)

    def delong_interval(self, confidence_level=0.95):
        """DeLong's interval of the AUC of all the data (every rank's, under
        DDP) from the table, as :func:`fastauc.roc_auc_ci` gives it
        (frequency weights)."""
        level = v.check_confidence_level(confidence_level)
        with self.sync_context():
            return self._interval(level)

    def _interval(self, level):
        if self.max_groups is not None and not self._cells().exact:
            raise ValueError("DeLong's interval needs the exact table: this metric merged "
                             f"scores into ranges to stay within max_groups={self.max_groups} "
                             "(auc_bounds() gives certified bounds instead)")
        p, q, tp, fp, total_p, total_n = self._parts()
        if total_p <= 0 or total_n <= 0:
            v.warn_undefined(v.ONE_CLASS, stacklevel=None)
            return wald_interval(float("nan"), float("nan"), level)
        auc = float((q * (2.0 * (tp - p) + p)).sum()) / (2.0 * total_p * total_n)
        v10 = ((total_n - fp) + 0.5 * q) / total_n  # a positive here: negatives below
        v01 = ((tp - p) + 0.5 * p) / total_p  # a negative here: positives above
        if total_p <= 1 or total_n <= 1:
            return wald_interval(auc, float("nan"), level)
        s10 = float((p * (v10 - auc) ** 2).sum()) / (total_p - 1.0)
        s01 = float((q * (v01 - auc) ** 2).sum()) / (total_n - 1.0)
        return wald_interval(auc, s10 / total_p + s01 / total_n, level)


class BinaryAveragePrecision(_TableMetric):
    """Exact average precision (scikit-learn's step sum) on the same state as
    :class:`BinaryAUROC`.

    Examples
    --------
    >>> import torch
    >>> from fastauc.torch import BinaryAveragePrecision
    >>> metric = BinaryAveragePrecision()
    >>> metric.update(torch.tensor([0.1, 0.4, 0.35, 0.8]), torch.tensor([0, 0, 1, 1]))
    >>> round(metric.compute().item(), 6)
    0.833333
    """

    def compute(self):
        _, p, q = self._descending()
        tp = torch.cumsum(p, 0)
        fp = torch.cumsum(q, 0)
        total_p = float(tp[-1]) if tp.numel() else 0.0
        if total_p <= 0:
            warnings.warn(NO_POSITIVE_PR, UserWarning, stacklevel=2)
            return torch.tensor(0.0, dtype=torch.float64)
        terms = torch.where(p > 0, p * (tp / torch.where(tp + fp > 0, tp + fp, 1.0)), 0.0)
        return terms.sum() / total_p
