"""Bounded tables: the distinct-score table with keys merged into dyadic ranges.

See ``_kernels.cells`` for the cells and ``docs/guide/larger_than_memory.md`` for the
bound.  ``Cells`` is what an ``Accumulator(max_groups=G)`` keeps once its
table would pass ``G`` keys.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ._kernels.cells import absorb, bounds, compress, range_ends
from ._table import Table

__all__ = ["Cells"]


@dataclass(frozen=True)
class Cells:
    """Disjoint dyadic key ranges, descending: each with the greatest and the
    least key of its rows, its level and its positive and negative weight."""

    keys: np.ndarray  # uint64: the greatest key of each cell's rows
    lo: np.ndarray  # uint64: the least key
    level: np.ndarray  # uint8: leading key bits the cell fixes (64: one key)
    pos: np.ndarray
    neg: np.ndarray

    def __sizeof__(self) -> int:  # as ``Table.__sizeof__``
        return object.__sizeof__(self) + sum(a.nbytes for a in (self.keys, self.lo, self.level,
                                                                self.pos, self.neg))

    @classmethod
    def from_table(cls, t) -> Cells:
        if isinstance(t, Cells):
            return t
        return cls(t.keys, t.keys, np.full(len(t), 64, np.uint8), t.pos, t.neg)

    def __len__(self) -> int:
        return self.keys.shape[0]

    @property
    def exact(self) -> bool:
        """True while no cell holds two distinct scores."""
        return bool((self.lo == self.keys).all())

    def table(self) -> Table:
        """Each cell as one key, its least score: the exact table when ``exact``;
        otherwise the curve points at the cells' least scores are still exact."""
        return Table(self.lo, self.pos, self.neg)

    def merge(self, other: Cells) -> Cells:
        """The cells of both: a cell absorbs the finer cells inside its range."""
        cat = [np.concatenate((a, b)) for a, b in zip(self._arrays(), other._arrays())]
        hi, lo, level, pos, neg = cat
        ends = np.empty(hi.shape[0], np.uint64)
        range_ends(hi, level, ends)
        # by decreasing upper end, a coarser cell before the finer ones it holds
        order = np.lexsort((level, ~ends))
        return _run(absorb, [a[order] for a in cat])

    def compressed(self, max_groups: int) -> Cells:
        """At most ``max_groups`` cells: the coarsest dyadic cells whose mass
        (``pos / P + neg / N``) is within a budget, from ``2 / max_groups`` up
        (by a quarter at a time) until they are few enough."""
        if len(self) <= max_groups:
            return self
        total_p, total_n = float(self.pos.sum()), float(self.neg.sum())
        budget = 2.0 / max_groups
        while True:
            out = _run(compress, self._arrays(), total_p, total_n, budget)
            if len(out) <= max_groups:
                return out
            budget *= 1.25

    def auc_bounds(self):
        """``(low, high)`` of the ROC AUC of the rows, NaN if a class has no weight."""
        ordered, unknown, total_p, total_n = bounds(self.lo, self.keys, self.pos, self.neg)
        if total_p <= 0 or total_n <= 0:
            return float("nan"), float("nan")
        pairs = total_p * total_n
        return ordered / pairs, (ordered + unknown) / pairs

    def _arrays(self):
        return self.keys, self.lo, self.level, self.pos, self.neg


def _run(kernel, arrays, *args) -> Cells:
    n = arrays[0].shape[0]
    out = (np.empty(n, np.uint64), np.empty(n, np.uint64), np.empty(n, np.uint8),
           np.empty(n), np.empty(n))
    g = kernel(*arrays, *args, *out)
    return Cells(*(a[:g] for a in out))
