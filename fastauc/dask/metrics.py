"""Single-model metrics on Dask: AUC, AP, DeLong, Mann-Whitney, log loss, curves
and thresholds."""

from __future__ import annotations

import numpy as np

from .. import _validation as v
from .._adapters.ranges import (ap_of, auc_interval, best_of, label_meta, loss_block, loss_of,
                               mann_whitney_of, range_best, thresholds_of)
from .._stats import ALTERNATIVES as _ALTERNATIVES
from .ranges import (as_dask_array, auc_of, blocks_of, classes_of, curve_graph, load_dask,
                     range_graph, run, tallies_graph, totals_with_keys)


def roc_auc_score(y_true, y_score, *, sample_weight=None, compute=True):
    """:func:`fastauc.roc_auc_score` (binary) of dask collections, exactly.

    Examples
    --------
    >>> import dask.array as da, numpy as np
    >>> import fastauc, fastauc.dask
    >>> rng = np.random.default_rng(0)
    >>> y, s = rng.integers(0, 2, 10_000), rng.normal(size=10_000)
    >>> auc = fastauc.dask.roc_auc_score(da.from_array(y, 1000), da.from_array(s, 1000))
    >>> auc == fastauc.roc_auc_score(y, s)
    True
    """
    return run(tallies_graph(y_true, y_score, sample_weight), auc_of, compute)


def average_precision_score(y_true, y_score, *, pos_label=1, sample_weight=None,
                            compute=True):
    """:func:`fastauc.average_precision_score` (binary) of dask collections."""

    def finish(t):
        return ap_of(t, pos_label)

    return run(tallies_graph(y_true, y_score, sample_weight, positive=pos_label), finish,
                compute)


def roc_auc_ci(y_true, y_score, *, confidence_level=0.95, sample_weight=None, transform=None,
               compute=True):
    """:func:`fastauc.roc_auc_ci` (DeLong) of dask collections: the moments of
    every range's sweep add up to the whole data's."""
    level = v.check_confidence_level(confidence_level)
    v.check_choice(transform, "transform", (None, "logit"))

    def finish(t):
        return auc_interval(t, level, transform)

    return run(tallies_graph(y_true, y_score, sample_weight), finish, compute)


def mann_whitney_u(y_true, y_score, *, alternative="two-sided", use_continuity=True,
                   method="auto", sample_weight=None, compute=True):
    """:func:`fastauc.mann_whitney_u` of dask collections."""
    v.check_choice(alternative, "alternative", _ALTERNATIVES)
    v.check_choice(method, "method", ("auto", "asymptotic", "exact"))
    if use_continuity not in (True, False):
        raise ValueError(f"use_continuity must be True or False, got {use_continuity!r}")

    def finish(t):
        return mann_whitney_of(t, alternative, use_continuity, method)

    return run(tallies_graph(y_true, y_score, sample_weight), finish, compute)


def log_loss(y_true, y_proba, *, normalize=True, sample_weight=None, compute=True):
    """:func:`fastauc.log_loss` (binary: the probability of the greater label)
    of dask collections: per-partition weighted sums, added up."""
    dask, _ = load_dask()
    delayed = dask.delayed
    blocks, offsets, _ = blocks_of(y_true, y_proba, sample_weight)
    metas = [delayed(label_meta)(y) for y, _, _ in blocks]
    classes = delayed(classes_of)(metas)
    sums = [delayed(loss_block)(y, p, w, classes) for y, p, w in blocks]
    result = delayed(loss_of)(sums, normalize)
    return result.compute() if compute else result


def roc_curve(y_true, y_score, *, pos_label=None, sample_weight=None, drop_intermediate=True,
              max_points=None, compute=True):
    """:func:`fastauc.roc_curve` of dask collections: ``(fpr, tpr, thresholds)``.

    Each key range computes its points from the weight above it; the client
    receives the points (the result itself), not the rows.  ``max_points``
    thins the curve on the workers to about that many points, every one a
    point of the exact curve (then ``drop_intermediate`` applies to those).
    """
    from .._curves import roc_points

    graph = curve_graph(y_true, y_score, sample_weight, pos_label, max_points)
    result = load_dask()[0].delayed(roc_points)(graph, drop_intermediate)
    return result.compute() if compute else result


def precision_recall_curve(y_true, y_score, *, pos_label=None, sample_weight=None,
                           drop_intermediate=False, max_points=None, compute=True):
    """:func:`fastauc.precision_recall_curve` of dask collections (``max_points``
    as in :func:`roc_curve`)."""
    from .._curves import pr_points

    dtype = getattr(y_score, "dtype", None)  # a frame's column: no pass to find it
    dtype = dtype if isinstance(dtype, np.dtype) else as_dask_array(y_score, "y_score").dtype
    graph = curve_graph(y_true, y_score, sample_weight, pos_label, max_points)
    result = load_dask()[0].delayed(pr_points)(graph, drop_intermediate, dtype)
    return result.compute() if compute else result


# ---------------------------------------------------------------- thresholds

def threshold_metrics(y_true, y_score, *, sample_weight=None, pos_label=None, max_points=None,
                      compute=True):
    """:func:`fastauc.threshold_metrics` of dask collections (the confusion
    matrix at every distinct threshold; ``max_points`` as in :func:`roc_curve`)."""
    graph = curve_graph(y_true, y_score, sample_weight, pos_label, max_points)
    result = load_dask()[0].delayed(thresholds_of)(graph)
    return result.compute() if compute else result


def best_threshold(y_true, y_score, *, metric="f1", beta=1.0, sample_weight=None, cost_fp=None,
                   cost_fn=None, pos_label=None, compute=True):
    """:func:`fastauc.best_threshold` of dask collections: each key range
    finds its best threshold from the weight above it, and the best of those
    wins (the highest threshold among equals, as in memory)."""
    from .._curves import check_best_args

    code = check_best_args(metric, beta, cost_fp, cost_fn)
    dask, _ = load_dask()
    delayed = dask.delayed
    blocks, offsets, n_rows = blocks_of(y_true, y_score, sample_weight)
    g = range_graph(blocks, offsets, n_rows, positive=pos_label, rule="sklearn")
    totals = delayed(list)([delayed(totals_with_keys)(r) for r in g["ranges"]])
    bests = [delayed(range_best)(r, totals, k, code, float(beta), float(cost_fp or 0.0),
                                  float(cost_fn or 0.0)) for k, r in enumerate(g["ranges"])]

    result = delayed(best_of)(bests, metric)
    return result.compute() if compute else result
