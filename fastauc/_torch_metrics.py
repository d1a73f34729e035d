"""fastauc.torch's metrics: torchmetrics ``Metric`` classes on the
distinct-score table (imported on first use: torchmetrics takes a second to
import).

The state, as torchmetrics list states (``dist_reduce_fx="cat"``):

- **pending rows**, appended by ``update`` as they come (amortised O(batch)):
  ``score`` (the scores' dtype: float32, or float64), ``label`` (uint8 0/1)
  and ``weight`` (float64, or an empty tensor for a batch without weights);
- **sorted runs**, built from the pending rows when ``compute``, a sync or
  ``n_distinct`` asks (one sort of the pending rows, then linear merges with
  the runs already sorted: nothing sorted twice).  A run is kept in the
  smaller of two forms: *rows* (``rows_keys`` descending in the scores'
  dtype, a key repeated per row, with ``rows_label``: the scores' bytes and
  one byte a row, for unweighted rows) or *table* (``table_keys``, distinct
  and descending, with the float64 class weights ``table_pos`` and
  ``table_neg``: smaller where scores tie, and for weighted rows).  ``runs``
  holds each run's (rows, table entries).

A sync (DDP) first builds this rank's one run, so ranks exchange runs, never
unsorted rows, in the smaller form; every rank then merges the runs and
computes the all-data value.  The bounded metric (``max_groups``) folds its
pending rows into :class:`fastauc._cells.Cells` instead, once they pass a
fixed number (``_bounded_rows``), so its memory stays bounded.

On CPU tensors the sort and merges are fastauc's Numba kernels
(``_table.Table``), reading the tensors' memory; on other devices
(CUDA) the same steps are torch operations (sort, searchsorted, index_add)
on the device.  Every value is then computed once, in torch, from the
merged table's class weights.
"""

from __future__ import annotations

import types
import warnings

import numpy as np
import torch
from torchmetrics import Metric
from torchmetrics.utilities.exceptions import TorchMetricsUserError

from . import _validation as v
from ._cells import Cells
from ._curves import NO_POSITIVE_PR
from ._device.tallies import band_area
from ._kernels.sorting import keys_to_floats
from ._stats import wald_interval
from ._kernels.table import collapse_rows, expand_rows
from ._table import Table, float_keys

__all__ = ["BinaryAUROC", "BinaryAveragePrecision"]

F64 = torch.float64
_PENDING = ("score", "label", "weight")
_RUNS = ("rows_keys", "rows_label", "table_keys", "table_pos", "table_neg", "runs")
_CELL_STATES = ("cell_hi", "cell_lo", "cell_level", "cell_pos", "cell_neg", "cell_sizes")
_HOST_SCORES = (torch.float32, torch.float64)
_HOST_LABELS = (torch.bool, torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64,
                torch.float32, torch.float64)
_NO_WEIGHT = torch.empty(0, dtype=F64)  # a batch without weights (never written to)
# fastauc's Numba kernels for CPU tensors; False: torch operations on every
# device (what CUDA tensors take; the tests run it on the CPU too)
HOST_KERNELS = True


class _Engine:
    """How one device builds and merges tables; a table is engine-specific,
    ``columns`` gives it as float64 tensors (keys, pos, neg), descending."""

    @classmethod
    def merge(cls, tables):
        """The tables merged by a balanced tree of the engine's linear merges."""
        while len(tables) > 1:
            tables = [cls._merge2(tables[i], tables[i + 1]) if i + 1 < len(tables)
                      else tables[i] for i in range(0, len(tables), 2)]
        return tables[0]


class _Numba(_Engine):
    """CPU tensors: ``_table.Table`` (uint64 keys, descending) from the
    tensors' memory."""

    @staticmethod
    def rows(score, label, weight):
        w = v.EMPTY_WEIGHT if weight is None else weight.numpy()
        return Table.from_rows(label.numpy().view(np.bool_), score.numpy(), w)

    @staticmethod
    def sorted_rows(keys, label):
        """A rows-form run (keys descending, repeated per row) as a table."""
        n = keys.shape[0]
        out = np.empty(n, np.uint64)
        pos, neg = np.empty(n), np.empty(n)
        g = collapse_rows(keys.numpy(), label.numpy(), out.view(np.float64), out, pos, neg)
        if 2 * g < n:  # ties: free the rest
            return Table(out[:g].copy(), pos[:g].copy(), neg[:g].copy())
        return Table(out[:g], pos[:g], neg[:g])

    @staticmethod
    def expand(t, n, key_dtype):
        """A table of counts (``n`` rows) as rows: (keys, uint8 labels)."""
        scores = keys_to_floats(t.keys, np.empty_like(t.keys))
        keys = np.empty(n, np.float32 if key_dtype == torch.float32 else np.float64)
        labels = np.empty(n, np.uint8)
        expand_rows(scores, t.pos, t.neg, keys, labels)
        return torch.from_numpy(keys), torch.from_numpy(labels)

    @staticmethod
    def totals(t):
        """(rows, keys) of a table of counts."""
        return int(t.pos.sum() + t.neg.sum()), len(t)

    @staticmethod
    def table(keys, pos, neg):
        return Table(float_keys(keys.numpy()), pos.numpy(), neg.numpy())

    @staticmethod
    def _merge2(a, b):
        return a.merge(b)

    @staticmethod
    def columns(t):
        keys = keys_to_floats(t.keys, np.empty_like(t.keys))
        return tuple(torch.from_numpy(x) for x in (keys, t.pos, t.neg))


class _Torch(_Engine):
    """Any device: a table is (keys float64 descending, pos, neg) tensors."""

    @staticmethod
    def _collapse(keys, pos, neg):
        """Sorted keys (descending, repeats adjacent) to distinct keys."""
        if keys.numel() == 0:
            return keys, pos, neg
        uniq, inverse = torch.unique_consecutive(keys, return_inverse=True)

        def add(x):
            return torch.zeros(uniq.shape[0], dtype=F64, device=x.device).index_add_(
                0, inverse, x)

        return uniq, add(pos), add(neg)

    @classmethod
    def rows(cls, score, label, weight):
        if weight is not None:  # a row of weight zero is a row removed (as Table's)
            kept = weight > 0
            score, label, weight = score[kept], label[kept], weight[kept]
        keys, order = torch.sort(score.to(F64) + 0.0, descending=True)  # -0.0 as 0.0
        lab = label[order].to(torch.bool)
        w = torch.ones_like(keys) if weight is None else weight[order]
        return cls._collapse(keys, torch.where(lab, w, 0.0), torch.where(lab, 0.0, w))

    @classmethod
    def sorted_rows(cls, keys, label):
        lab = label.to(F64)
        return cls._collapse(keys.to(F64) + 0.0, lab, 1.0 - lab)

    @staticmethod
    def table(keys, pos, neg):
        return keys.to(F64) + 0.0, pos, neg

    @classmethod
    def _merge2(cls, a, b):
        """Two tables merged by position (searchsorted: no sort)."""
        ka, kb = a[0], b[0]
        if ka.numel() == 0 or kb.numel() == 0:
            return a if kb.numel() == 0 else b
        up_a, up_b = ka.flip(0), kb.flip(0)  # ascending, for searchsorted
        # descending: a key of a goes after b's greater keys, b's after a's
        # greater or equal ones
        at_a = torch.arange(ka.shape[0], device=ka.device) + (
            kb.shape[0] - torch.searchsorted(up_b, ka, right=True))
        at_b = torch.arange(kb.shape[0], device=kb.device) + (
            ka.shape[0] - torch.searchsorted(up_a, kb, right=False))
        out = []
        for xa, xb in zip(a, b):
            x = torch.empty(ka.shape[0] + kb.shape[0], dtype=F64, device=ka.device)
            x[at_a] = xa
            x[at_b] = xb
            out.append(x)
        return cls._collapse(*out)

    @staticmethod
    def columns(t):
        return t

    @staticmethod
    def expand(t, n, key_dtype):
        keys, pos, neg = t
        if n == keys.shape[0]:  # every score distinct: a row each
            return keys.to(key_dtype), (pos > 0).to(torch.uint8)
        both = torch.stack((pos, neg), 1).reshape(-1).to(torch.int64)
        label = torch.tensor([1, 0], dtype=torch.uint8, device=keys.device).repeat(
            keys.shape[0])
        return (torch.repeat_interleave(keys.to(key_dtype), (pos + neg).to(torch.int64)),
                torch.repeat_interleave(label, both))

    @staticmethod
    def totals(t):
        return int((t[1] + t[2]).sum()), t[0].shape[0]


def _engine(device):
    return _Numba if HOST_KERNELS and device.type == "cpu" else _Torch


def _cat(parts, dtype=None):
    """A state's tensors as one (a list's non-empty tensors; a tensor after a
    sync); ``None`` when empty."""
    if isinstance(parts, torch.Tensor):
        parts = [parts]
    parts = [x for x in parts if x.numel()]
    if not parts:
        return None
    x = parts[0] if len(parts) == 1 else torch.cat(parts)
    return x if dtype is None else x.to(dtype)


def _key_dtype(*tensors):
    """float64 if any of the scores or keys is, else float32."""
    return F64 if any(x is not None and x.dtype == F64 for x in tensors) else torch.float32


class _TableMetric(Metric):
    """The state and its life: pending rows, sorted runs (module docstring)."""

    is_differentiable = False
    higher_is_better = True
    full_state_update = False

    def __init__(self, ignore_index=None, validate_args=True, max_groups=None, **kwargs):
        if max_groups is not None:
            if isinstance(max_groups, bool) or not isinstance(max_groups, int):
                raise TypeError(f"max_groups must be an integer or None, got {max_groups!r}")
            if max_groups < 2:
                raise ValueError(f"max_groups must be at least 2, got {max_groups}")
        super().__init__(**kwargs)
        self.ignore_index = ignore_index
        self.validate_args = validate_args
        self.max_groups = max_groups
        for name in _PENDING + _RUNS:
            self.add_state(name, default=[], dist_reduce_fx="cat")
        if max_groups is not None:
            for name in _CELL_STATES:
                self.add_state(name, default=[], dist_reduce_fx="cat")
        self.add_state("weighted", default=torch.zeros((), dtype=torch.int64),
                       dist_reduce_fx="sum")
        self._waiting = [0]  # pending rows (a list: no Module.__setattr__ per update)
        # (the runs state object, its table's columns) of the last run built:
        # a compute after a sync's build does not read the run back
        self._memo = [None]

    # ------------------------------------------------------------ rows in

    def _rows(self, preds, target, sample_weight=None):
        """A batch as (scores, uint8 labels, float64 weights or None): new
        tensors (the caller's are never kept), validated."""
        if not isinstance(preds, torch.Tensor) or not isinstance(target, torch.Tensor):
            raise TypeError(f"preds and target must be torch tensors, got "
                            f"{type(preds).__name__} and {type(target).__name__}")
        preds = preds.detach().reshape(-1)
        target = target.detach().reshape(-1)
        if preds.shape[0] != target.shape[0]:
            raise ValueError(f"preds and target have different numbers of rows: "
                             f"{preds.shape[0]} and {target.shape[0]}")
        if self.validate_args and not preds.is_floating_point():
            hint = (" (did you swap them? update takes (preds, target))"
                    if target.is_floating_point() else "")
            raise TypeError(f"preds must be floating point (scores: logits or probabilities), "
                            f"got {preds.dtype}{hint}")
        w = None
        if sample_weight is not None:
            if not isinstance(sample_weight, torch.Tensor):
                sample_weight = torch.as_tensor(sample_weight, device=preds.device)
            w = sample_weight.detach().reshape(-1)
            if w.shape[0] != preds.shape[0]:
                raise ValueError(f"sample_weight has {w.shape[0]} values for "
                                 f"{preds.shape[0]} rows: one weight per row")
        if self.ignore_index is not None:
            keep = target != self.ignore_index
            if not bool(keep.all()):
                preds, target = preds[keep], target[keep]
                w = None if w is None else w[keep]
        if preds.device.type == "cpu" and preds.dtype in _HOST_SCORES and \
                target.dtype in _HOST_LABELS:  # numpy on the tensors' memory: fewer calls
            return self._host_rows(preds.numpy(), target.numpy(), w)
        if self.validate_args:
            if preds.numel() and not bool(torch.isfinite(preds).all()):
                raise ValueError("Input preds contains NaN or infinity (remove or impute them "
                                 "first)")
            if target.numel() and target.dtype != torch.bool:
                ok = (((target == 0) | (target == 1)).all() if target.is_floating_point()
                      else _in_01(target))
                if not bool(ok):
                    raise ValueError("target must hold 0/1 (or bool) labels; got values "
                                     f"{torch.unique(target)[:5].tolist()}")
            if w is not None and w.numel() and not bool(
                    (torch.isfinite(w) & (w >= 0)).all()):
                raise ValueError("sample_weight must be finite and non-negative")
        dtype = F64 if preds.dtype == F64 else torch.float32  # float16, bfloat16: exact
        score = preds.to(dtype, copy=True)
        label = target.to(torch.uint8, copy=True)
        if w is not None:
            w = w.to(F64, copy=True)
        return score, label, w

    def _host_rows(self, x, t, w):
        """``_rows`` for CPU tensors of the common dtypes, in numpy."""
        if self.validate_args and x.shape[0]:
            if not (np.isfinite(x.min()) and np.isfinite(x.max())):  # NaN propagates
                raise ValueError("Input preds contains NaN or infinity (remove or impute them "
                                 "first)")
            if t.dtype != np.bool_ and not (t.min() >= 0 and t.max() <= 1 and (
                    t.dtype.kind != "f" or ((t == 0) | (t == 1)).all())):
                raise ValueError("target must hold 0/1 (or bool) labels; got values "
                                 f"{np.unique(t)[:5].tolist()}")
            if w is not None and w.numel() and not bool((torch.isfinite(w) & (w >= 0)).all()):
                raise ValueError("sample_weight must be finite and non-negative")
        score = torch.from_numpy(x.copy())
        label = torch.from_numpy(t.astype(np.uint8))
        return score, label, None if w is None else w.to(F64, copy=True)

    def update(self, preds, target, sample_weight=None):
        """Append a batch: ``preds`` (scores: logits or probabilities, ranked
        as given: no sigmoid), ``target`` (0/1 or bool) and optional
        ``sample_weight``; O(batch), nothing sorted."""
        self._append(*self._rows(preds, target, sample_weight))

    def _append(self, score, label, w):
        self.score.append(score)
        self.label.append(label)
        if w is None:
            self.weight.append(_NO_WEIGHT if score.device.type == "cpu" else
                               score.new_empty(0, dtype=F64))
        else:
            self.weight.append(w)
            self.weighted += 1
        self._waiting[0] += score.shape[0]
        if self.max_groups is not None and self._waiting[0] >= self._bounded_rows():
            self._compact()

    def _bounded_rows(self):
        """Pending rows a bounded metric keeps before folding them into its cells."""
        return max(8 * self.max_groups, 1 << 16)

    def forward(self, *args, **kwargs):
        """The batch's value (what Lightning logs each step), the batch
        appended to the state: the cost of the batch, not of the rows seen."""
        if self._is_synced:
            raise TorchMetricsUserError(
                "The Metric shouldn't be synced when performing ``forward``. HINT: Did you "
                "forget to call ``unsync`` ?.")
        if self.dist_sync_on_step:  # the batch's value over every rank: torchmetrics' way
            return super().forward(*args, **kwargs)
        rows = self._rows(*args, **kwargs)
        score, label, w = rows
        eng = _engine(score.device)
        value = self._value(*eng.columns(eng.rows(score, label, w)), batch=True)
        self._append(*rows)
        self._update_count += 1
        self._computed = None
        if self.compute_on_cpu:
            self._move_list_states_to_cpu()
        self._forward_cache = value
        return value

    def _reduce_states(self, incoming_state):
        super()._reduce_states(incoming_state)  # merge_state: the lists joined
        self._computed = None  # (torchmetrics' merge_state keeps the value cached before it)
        self._waiting[0] = sum(x.shape[0] for x in self.score)
        if self.max_groups is not None and self._waiting[0] >= self._bounded_rows():
            self._compact()

    def reset(self):
        super().reset()
        self._waiting[0] = 0
        self._memo[0] = None

    # ------------------------------------------------------------ the runs

    def _pending(self):
        """The pending rows as three tensors (``None`` when there are none)."""
        scores, weights = self.score, self.weight
        if isinstance(scores, torch.Tensor):  # synced: every rank's (none: built before)
            scores, weights = [scores], [weights]
        if not any(x.numel() for x in scores):
            return None
        score = _cat(scores, _key_dtype(*scores))
        label = _cat(self.label, torch.uint8)
        w = None
        if any(x.numel() for x in weights):  # a batch without weights weighs 1 a row
            w = torch.cat([x if x.numel() else torch.ones(s.shape[0], dtype=F64,
                                                             device=s.device)
                           for s, x in zip(scores, weights)])
        return score, label, w

    def _run_tables(self, eng):
        """Each sorted run as the engine's table."""
        runs = _cat(self.runs)
        if runs is None:
            return []
        rk, rl = _cat(self.rows_keys), _cat(self.rows_label, torch.uint8)
        tk, tp, tn = _cat(self.table_keys), _cat(self.table_pos, F64), \
            _cat(self.table_neg, F64)
        out, r, t = [], 0, 0
        for n_rows, n_table in runs.reshape(-1, 2).tolist():
            if n_rows:
                out.append(eng.sorted_rows(rk[r:r + n_rows], rl[r:r + n_rows]))
            if n_table:
                out.append(eng.table(tk[t:t + n_table], tp[t:t + n_table], tn[t:t + n_table]))
            r, t = r + n_rows, t + n_table
        return out

    def _device_of_state(self):
        for name in ("score", "rows_keys", "table_keys", "runs"):
            x = getattr(self, name)
            if isinstance(x, torch.Tensor):
                return x.device
            if x:
                return x[0].device
        return self.device

    def _compact(self):
        """Sort the pending rows once and merge them with the sorted runs
        into one run (or, bounded, into the cells).  Returns the merged
        table's columns (float64 keys, pos, neg), or ``None`` when there was
        nothing to merge."""
        pending = self._pending()
        runs = _cat(self.runs)
        n_runs = 0 if runs is None else runs.numel() // 2
        if pending is None and (n_runs <= 1 or self.max_groups is not None or (
                self._memo[0] is not None and self._memo[0][0] is self.runs)):
            return None  # (the runs' table is _memo's)
        device = pending[0].device if pending is not None else self._device_of_state()
        eng = _engine(device)
        key_dtype = _key_dtype(None if pending is None else pending[0],
                               _cat(self.rows_keys), _cat(self.table_keys))
        tables = self._run_tables(eng)
        if pending is not None:
            tables.append(eng.rows(*pending))
        for name in _PENDING:
            setattr(self, name, [])
        self._waiting[0] = 0
        merged = eng.merge(tables)
        columns = tuple(x.to(device) for x in eng.columns(merged))
        if self._is_synced and self.max_groups is None:  # every rank's: for this result only
            self._memo[0] = (self.runs, columns)
        elif self.max_groups is not None:
            self._fold_cells(columns)
        else:
            self._store(eng, merged, columns, key_dtype, device)
            self._memo[0] = (self.runs, columns)  # the run just stored, as a table
        return columns

    def _store(self, eng, merged, columns, key_dtype, device):
        """One run, in the smaller form: rows (scores' bytes + 1 a row) when
        every weight is a count, else the table (keys + 16 bytes a key)."""
        keys, pos, neg = columns
        width = torch.empty(0, dtype=key_dtype).element_size()
        rows = None
        if int(self.weighted) == 0 and keys.numel():
            n, d = eng.totals(merged)
            if n * (width + 1) <= d * (width + 16):
                rows = tuple(x.to(device) for x in eng.expand(merged, n, key_dtype))
        empty_k = torch.empty(0, dtype=key_dtype, device=device)
        empty_f = torch.empty(0, dtype=F64, device=device)
        if rows is not None:
            parts = (rows[0], rows[1], empty_k, empty_f, empty_f)
        else:
            parts = (empty_k, torch.empty(0, dtype=torch.uint8, device=device),
                     keys.to(key_dtype), pos, neg)
        for name, x in zip(_RUNS, parts):
            setattr(self, name, [x])
        self.runs = [torch.tensor([parts[0].shape[0], parts[2].shape[0]], dtype=torch.int64,
                                  device=device)]

    def _table(self):
        """The merged table of every row (every rank's, in a sync):
        (keys, pos, neg) float64 tensors, descending."""
        columns = self._compact()
        if columns is not None:
            return columns
        memo = self._memo[0]
        if memo is not None and memo[0] is self.runs:  # the state is that run still
            return memo[1]
        device = self._device_of_state()
        eng = _engine(device)
        tables = self._run_tables(eng)
        if not tables:
            empty = torch.empty(0, dtype=F64, device=device)
            return empty, empty, empty
        return eng.columns(eng.merge(tables))

    # ------------------------------------------------------------ DDP

    def sync(self, dist_sync_fn=None, process_group=None, should_sync=True,
             distributed_available=None):
        """Build this rank's one run (the smaller form), then torchmetrics'
        sync gathers the ranks' runs."""
        if self._is_synced and should_sync:
            raise TorchMetricsUserError("The Metric has already been synced.")
        self._compact()
        available = distributed_available or self.distributed_available_fn
        if should_sync and callable(available) and available() and \
                torch.distributed.is_available() and torch.distributed.is_initialized():
            self._agree(process_group or self.process_group)
        super().sync(dist_sync_fn=dist_sync_fn, process_group=process_group,
                     should_sync=should_sync, distributed_available=distributed_available)

    def _agree(self, group):
        """Every rank's runs in one key dtype (float64 if any rank's scores
        were), and every state a tensor of its dtype (an empty one on a rank
        without rows), so that the gathered tensors agree."""
        local = 8 if _key_dtype(_cat(self.rows_keys), _cat(self.table_keys)) == F64 else 4
        width = torch.tensor([local], dtype=torch.int64, device=self._device_of_state())
        torch.distributed.all_reduce(width, op=torch.distributed.ReduceOp.MAX, group=group)
        keys = F64 if int(width) == 8 else torch.float32
        dtypes = dict(zip(_RUNS, (keys, torch.uint8, keys, F64, F64, torch.int64)))
        if self.max_groups is not None:
            dtypes.update(zip(_CELL_STATES, (torch.int64,) * 3 + (F64,) * 2 + (torch.int64,)))
        for name, dtype in dtypes.items():
            x = _cat(getattr(self, name), dtype)
            setattr(self, name, [x if x is not None else
                                 torch.empty(0, dtype=dtype, device=width.device)])

    def _synced(self):
        """The sync of a result other than ``compute`` (the interval, the
        bounds), under the same settings as ``compute``'s
        (``sync_on_compute``, ``dist_sync_fn``)."""
        return self.sync_context(dist_sync_fn=self.dist_sync_fn, should_sync=self._to_sync,
                                 should_unsync=self._should_unsync)

    # ------------------------------------------------------------ the bounded table

    def _fold_cells(self, columns):
        keys, pos, neg = (x.cpu().numpy() for x in columns)
        k = float_keys(keys)
        cells = self._cells().merge(Cells(k, k.copy(), np.full(k.shape[0], 64, np.uint8),
                                          np.ascontiguousarray(pos), np.ascontiguousarray(neg)))
        cells = cells.compressed(self.max_groups)
        device = self._device_of_state()
        for name, x in zip(_CELL_STATES, (cells.keys.view(np.int64), cells.lo.view(np.int64),
                                          cells.level.astype(np.int64), cells.pos, cells.neg,
                                          np.array([len(cells)], np.int64))):
            setattr(self, name, [torch.from_numpy(np.ascontiguousarray(x)).to(device)])

    def _cells(self):
        """The bounded table of every rank (each rank's cells merged)."""
        empty = Cells(*(np.zeros(0, t) for t in (np.uint64, np.uint64, np.uint8, np.float64,
                                                  np.float64)))
        parts = [_cat(getattr(self, n)) for n in _CELL_STATES]
        if parts[-1] is None:
            return empty
        hi, lo, level, pos, neg, sizes = (x.cpu().numpy() for x in parts)
        out, start = empty, 0
        for size in sizes.tolist():
            end = start + size
            out = out.merge(Cells(hi[start:end].view(np.uint64), lo[start:end].view(np.uint64),
                                  level[start:end].astype(np.uint8), pos[start:end],
                                  neg[start:end]))
            start = end
        return out.compressed(self.max_groups)

    def _exact_cells(self):
        """The bounded metric's cells once compacted, or ``None`` while they are exact."""
        self._compact()
        cells = self._cells()
        return None if cells.exact else cells

    # ------------------------------------------------------------ results

    @property
    def n_distinct(self) -> int:
        """Distinct scores held (of rows with weight: a row of weight zero
        counts as removed): this rank's until a sync (every rank's in one); for a bounded metric that merged scores into ranges, the
        ranges (at most ``max_groups``)."""
        if self.max_groups is not None:
            self._compact()
            return len(self._cells())
        return int(self._table()[0].shape[0])

    def _class_weights(self):
        """Each distinct score's class weights (float64, descending)."""
        if self.max_groups is not None:
            self._compact()
            cells = self._cells()
            return (torch.from_numpy(np.ascontiguousarray(cells.pos)),
                    torch.from_numpy(np.ascontiguousarray(cells.neg)))
        _, p, q = self._table()
        return p, q

    def compute(self):
        return self._value(None, *self._class_weights())

    def _value(self, keys, p, q, batch=False):
        raise NotImplementedError

    def _undefined(self, message, batch, category=None):
        """A class without weight: the warning (``UndefinedMetricWarning`` by
        default), at the user's line, unless no row came at all (torchmetrics
        then already warned that compute came before update)."""
        if batch or self.update_called or _cat(self.runs) is not None:
            warnings.warn(message, category or v.undefined_metric_warning(),
                          stacklevel=v.caller_stacklevel())


def _in_01(target):
    lo, hi = torch.aminmax(target)
    return (lo >= 0) & (hi <= 1)


def _divide(x, d: float):
    """``x / d`` rounded as IEEE division (the CPU path's float): on CUDA,
    torch divides by a Python number as a multiplication by its reciprocal,
    a rounding away; by a tensor on ``x``'s device, it divides."""
    return x / torch.tensor(d, dtype=x.dtype, device=x.device)


def _totals(p, q):
    tp, fp = torch.cumsum(p, 0), torch.cumsum(q, 0)
    total_p = float(tp[-1]) if tp.numel() else 0.0
    total_n = float(fp[-1]) if fp.numel() else 0.0
    return tp, fp, total_p, total_n


class BinaryAUROC(_TableMetric):
    """Exact ROC AUC of everything ``update`` saw, in training loops.

    The constructor takes torchmetrics' ``BinaryAUROC`` arguments but
    ``thresholds`` (this one is exact).  ``update`` appends the batch
    (O(batch): the scores in their dtype and one byte a label); ``compute``
    sorts what came since the last ``compute`` once and merges it with what
    was sorted before, keeping the smaller of the sorted rows and the
    distinct-score table (see Notes).  Scores are ranked as given (no
    sigmoid: large logits do not tie), counts are exact and weights summed
    in float64.  Under DDP each rank's sorted state is gathered and every
    rank computes the all-data AUC.  ``update`` takes an optional
    ``sample_weight``.  ``forward`` (a training step's logged value) returns
    the batch's AUC at the cost of the batch.

    ``compute`` before any ``update`` returns NaN with torchmetrics' warning
    (compute before update); a class without rows or weight gives NaN with
    scikit-learn's ``UndefinedMetricWarning``, as ``roc_auc_score``.

    Parameters
    ----------
    max_fpr : float in (0, 1], default=None
        If given, McClish's standardised partial AUC over ``FPR <= max_fpr``,
        as :func:`fastauc.roc_auc_score` gives it; needs the exact table.
    ignore_index : int, default=None
        Rows whose target equals this value are left out.
    validate_args : bool, default=True
        Check every batch: floating-point ``preds``, finite scores, 0/1 or
        bool targets, finite non-negative weights.  ``False`` skips these
        checks (the tensors' types and lengths are checked anyway).
    max_groups : int, default=None
        Bound the state as :class:`fastauc.Accumulator` does (at least 2):
        once the table would pass that many rows, scores are merged into
        ranges (at most ``max_groups`` of them, plus up to ``max(8 *
        max_groups, 65536)`` rows waiting to be folded in), ``compute`` gives
        the midpoint of the certified :meth:`auc_bounds` (width about
        ``1 / max_groups``), and :meth:`delong_interval` and ``max_fpr`` need
        the exact table.  None: exact, the state grows with the distinct
        scores.
    **kwargs
        torchmetrics' ``Metric`` keyword arguments: ``sync_on_compute``,
        ``dist_sync_on_step``, ``compute_on_cpu``, ``process_group``...

    Notes
    -----
    State in bytes, for n rows with d distinct scores: pending rows take the
    scores' bytes plus one (5 a row for float32 scores; torchmetrics'
    ``BinaryAUROC`` keeps 12: float32 scores and int64 targets); once sorted,
    ``min(n * (b + 1), d * (b + 16))`` with ``b`` the scores' bytes (the
    table where ties make it smaller; weighted rows always as the table).

    See Also
    --------
    BinaryAveragePrecision : The average precision on the same state.
    fastauc.roc_auc_score : The in-memory function.
    fastauc.Accumulator : The same table outside torch, with ``max_groups``.
    torchmetrics.classification.BinaryAUROC : The metric this one replaces.

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
        super().__init__(ignore_index=ignore_index, validate_args=validate_args,
                         max_groups=max_groups, **kwargs)
        self.max_fpr = max_fpr

    def auc_bounds(self):
        """``(low, high)``: certified bounds of the AUC of all the data (every
        rank's, under DDP), as :meth:`fastauc.Accumulator.auc_bounds`; equal
        while the table is exact."""
        with self._synced():
            if self.max_groups is not None:
                cells = self._exact_cells()
                if cells is not None:
                    return cells.auc_bounds()
            auc = float(self._value(None, *self._class_weights()))
        return auc, auc

    def compute(self):
        """The AUC (NaN when a class has no weight, with scikit-learn's
        warning); once a bounded table merged scores into ranges, the
        midpoint of :meth:`auc_bounds`."""
        if self.max_groups is not None:
            cells = self._exact_cells()
            if cells is not None:
                if self.max_fpr not in (None, 1):
                    raise ValueError("max_fpr needs the exact table: this metric merged "
                                     f"scores into ranges to stay within max_groups="
                                     f"{self.max_groups}")
                low, high = cells.auc_bounds()
                return torch.tensor(0.5 * (low + high), dtype=F64)
        return super().compute()

    def _value(self, keys, p, q, batch=False):
        tp, fp, total_p, total_n = _totals(p, q)
        if total_p <= 0 or total_n <= 0:
            self._undefined(v.ONE_CLASS, batch)
            return torch.tensor(float("nan"), dtype=F64, device=p.device)
        if self.max_fpr is None or self.max_fpr == 1:
            # twice the area: sum over keys of q * (2 * positives above + p)
            area2 = 2.0 * torch.dot(q, tp) - torch.dot(q, p)
            return _divide(area2, 2.0 * total_p * total_n)
        zero = torch.zeros(1, dtype=F64, device=fp.device)
        fpr = torch.cat((zero, _divide(fp, total_n)))
        tpr = torch.cat((zero, _divide(tp, total_p)))
        hi = float(self.max_fpr)
        partial = band_area(_TORCH_XP, fpr, tpr, hi)  # the device path's, in torch
        min_area = 0.5 * hi * hi
        return torch.tensor(0.5 * (1.0 + (partial - min_area) / (hi - min_area)), dtype=F64,
                            device=p.device)

    def delong_interval(self, confidence_level=0.95):
        """DeLong's interval of the AUC of all the data (every rank's, under
        DDP) from the table, as :func:`fastauc.roc_auc_ci` gives it
        (frequency weights)."""
        level = v.check_confidence_level(confidence_level)
        with self._synced():
            if self.max_groups is not None and self._exact_cells() is not None:
                raise ValueError("DeLong's interval needs the exact table: this metric "
                                 "merged scores into ranges to stay within max_groups="
                                 f"{self.max_groups} (auc_bounds() gives certified bounds "
                                 "instead)")
            return self._interval(*self._class_weights(), level)

    def _interval(self, p, q, level):
        tp, fp, total_p, total_n = _totals(p, q)
        if total_p <= 0 or total_n <= 0:
            self._undefined(v.ONE_CLASS, False)
            return wald_interval(float("nan"), float("nan"), level)
        auc = float(2.0 * torch.dot(q, tp) - torch.dot(q, p)) / (2.0 * total_p * total_n)
        v10 = ((total_n - fp) + 0.5 * q) / total_n  # a positive here: negatives below
        v01 = ((tp - p) + 0.5 * p) / total_p  # a negative here: positives above
        if total_p <= 1 or total_n <= 1:
            return wald_interval(auc, float("nan"), level)
        s10 = float((p * (v10 - auc) ** 2).sum()) / (total_p - 1.0)
        s01 = float((q * (v01 - auc) ** 2).sum()) / (total_n - 1.0)
        return wald_interval(auc, s10 / total_p + s01 / total_n, level)


class BinaryAveragePrecision(_TableMetric):
    """Exact average precision (scikit-learn's step sum) on the same state as
    :class:`BinaryAUROC` (appended rows, sorted runs; ``forward`` at the
    cost of the batch).

    ``update(preds, target, sample_weight=None)`` as for
    :class:`BinaryAUROC`; ``compute`` gives 0, with a warning, while no
    positive has weight (as :func:`fastauc.average_precision_score`).

    Parameters
    ----------
    ignore_index : int, default=None
        Rows whose target equals this value are left out.
    validate_args : bool, default=True
        Check every batch: floating-point ``preds``, finite scores, 0/1 or
        bool targets, finite non-negative weights.  ``False`` skips these
        checks (the tensors' types and lengths are checked anyway).
    **kwargs
        torchmetrics' ``Metric`` keyword arguments: ``sync_on_compute``,
        ``dist_sync_on_step``, ``compute_on_cpu``, ``process_group``...

    See Also
    --------
    BinaryAUROC : The AUC on the same state.
    fastauc.average_precision_score : The in-memory function.
    torchmetrics.classification.BinaryAveragePrecision : The metric this one replaces.

    Examples
    --------
    >>> import torch
    >>> from fastauc.torch import BinaryAveragePrecision
    >>> metric = BinaryAveragePrecision()
    >>> metric.update(torch.tensor([0.1, 0.4, 0.35, 0.8]), torch.tensor([0, 0, 1, 1]))
    >>> round(metric.compute().item(), 6)
    0.833333
    """

    def __init__(self, ignore_index=None, validate_args=True, **kwargs):
        super().__init__(ignore_index=ignore_index, validate_args=validate_args, **kwargs)

    def _value(self, keys, p, q, batch=False):
        tp, fp, total_p, _ = _totals(p, q)
        if total_p <= 0:
            self._undefined(NO_POSITIVE_PR, batch, UserWarning)
            return torch.tensor(0.0, dtype=F64, device=p.device)
        seen = tp + fp  # (0 only above the first positive, where p is 0)
        return _divide(torch.dot(p, tp / torch.where(seen > 0, seen, 1.0)), total_p)


_TORCH_XP = types.SimpleNamespace(xp=torch)  # torch as the array namespace of _device.tallies
