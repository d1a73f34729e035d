"""The bootstrap of the multiclass AUCs (one-vs-rest, macro or weighted, and
Hand & Till's one-vs-one): each score column sorted once, every replicate a
vector of counts over the rows in class order and one pass per column
(``_kernels.multiclass``).  Stratified, a replicate draws each class's size
of rows from that class; otherwise all rows together (a replicate that
misses a class is dropped, as the binary bootstrap drops one-class
replicates).  Several models on the same rows read the same counts."""

from __future__ import annotations

import threading
from typing import NamedTuple

import numpy as np

from . import _validation as v
from ._kernels.multiclass import class_layout, multiclass_batch, multiclass_wide
from ._kernels.resampling import draw_buffer
from ._multiclass_input import multiclass_checked
from ._parallel import map_units
from ._resample import _progress_bar, batch_size
from ._sort import sort_by_class

__all__ = ["ABSENT_CLASS", "Layout", "check_options", "layout", "replicates"]

ABSENT_CLASS = ("A class of labels has no rows in y_true. The bootstrap of the multiclass ROC "
                "AUC is not defined in that case.")


class Layout(NamedTuple):
    """Rows in class order and each model's sorted columns (see
    ``_kernels.multiclass``)."""

    rows: np.ndarray  # (n,) the input row at each layout position
    bounds: np.ndarray  # (k + 1,) each class's first position
    orders: np.ndarray  # (m, n) per model, each class's positions by decreasing score
    ranks: np.ndarray  # (m, k, n, 2) per model and column: class rows above / at or above
    ovo: bool
    weighted: bool


def check_options(metric, method, sample_weight, cluster, **unsupported):
    """The bootstrap options a multiclass AUC takes: ``metric="roc_auc"``,
    the percentile or basic interval, no weights, clusters or ranges."""
    if metric != "roc_auc":
        raise ValueError(f"multiclass scores (three columns or more) have metric='roc_auc' "
                         f"only, got metric={metric!r}")
    if method == "bca":
        raise ValueError("method='bca' is not available for multiclass scores (no "
                         "leave-one-out values); use 'percentile' or 'basic'")
    if sample_weight is not None or cluster is not None:
        raise ValueError("the bootstrap of multiclass scores takes no sample_weight or "
                         "cluster")
    given = sorted(name for name, value in unsupported.items()
                   if value is not None and value is not False)
    if given:
        raise ValueError(f"{', '.join(given)} apply to binary scores, not to multiclass scores "
                         "(three columns or more)")


def layout(y_true, scores, multi_class, average, labels) -> Layout | None:
    """The layout of the rows and of every model's columns, after
    ``roc_auc_score``'s checks (its order, its words); None when a class of
    ``labels`` has no rows."""
    if average not in ("macro", "weighted"):
        raise ValueError(f"average={average!r} has no bootstrap of the multiclass AUC here; use "
                         "'macro' or 'weighted'")
    checked = [multiclass_checked(y_true, S, multi_class, average, labels) for S in scores]
    y, _, classes = checked[0]
    k = classes.shape[0]
    codes = np.searchsorted(classes, y).astype(np.int64)
    sizes = np.bincount(codes, minlength=k)
    if sizes.min() == 0:
        return None
    n = codes.shape[0]
    rows = np.argsort(codes, kind="stable")
    where = np.empty(n, np.int64)
    where[rows] = np.arange(n)
    bounds = np.concatenate(([0], np.cumsum(sizes))).astype(np.int64)
    shift = max(1, int(k - 1).bit_length())
    payload = (where << shift) | codes
    everyone = np.ones(n, bool)
    m = len(scores)
    index = np.int32 if n < 2**31 else np.int64
    orders = np.empty((m, n), index)
    ranks = np.zeros((m, k, n, 2), index)

    def column(j, a):
        r = sort_by_class(everyone, checked[j][1][a], extra=payload, name="y_score")
        class_layout(r.pk, r.px, shift, a, bounds[a], sizes[a], orders[j], ranks[j, a])

    map_units(column, [(j, a) for j in range(m) for a in range(k)])
    return Layout(rows, bounds, orders, ranks, multi_class == "ovo", average == "weighted")


def replicates(lay: Layout, n_resamples, seed, stratified, scheme, progress) -> np.ndarray:
    """(n_resamples, m) replicate AUCs of the models (NaN: a replicate
    without some class)."""
    n = lay.rows.shape[0]
    k = lay.bounds.shape[0] - 1
    m = lay.orders.shape[0]
    poisson = scheme == "poisson"
    strata = lay.bounds if stratified else np.array([0, n], np.int64)
    out = np.empty((n_resamples, m))
    wrapped = np.zeros(n_resamples, np.bool_)
    size = batch_size(n * k)
    starts = list(range(0, n_resamples, size))
    bar = _progress_bar(progress, n_resamples)
    lock = threading.Lock()
    spare = threading.local()

    def scratch():
        buf = getattr(spare, "buf", None)
        if buf is None:
            buf = spare.buf = (np.zeros(n, np.uint8), np.empty(n + 1), np.empty((k, k)),
                               np.empty(k), draw_buffer(n))
        return buf

    def batch(r0):
        r1 = min(n_resamples, r0 + size)
        cnt, prefix, area2, tot, draws = scratch()
        multiclass_batch(seed, r0, out[r0:r1], strata, lay.rows, lay.bounds, lay.orders,
                         lay.ranks, lay.ovo, lay.weighted, poisson, cnt, prefix, area2, tot,
                         draws, wrapped[r0:r1])
        if bar is not None:
            with lock:
                bar.update(r1 - r0)

    map_units(batch, [(r0,) for r0 in starts])
    if bar is not None:
        bar.close()
    for r in np.flatnonzero(wrapped):  # a row drawn 256 times or more: int64 counts
        _, prefix, area2, tot, _ = scratch()
        multiclass_wide(seed, int(r), out[r], strata, lay.bounds, lay.orders, lay.ranks,
                        lay.ovo, lay.weighted, prefix, area2, tot, draw_buffer(n, 8))
    return out


def absent_class_warning():
    v.warn_undefined(ABSENT_CLASS, stacklevel=None)
