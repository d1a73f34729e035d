"""Getting a machine ready: every kernel compiled, or loaded from Numba's
cache, before the first real call.

Used by ``fastauc warmup`` (and ``fastauc demo``), by
``fastauc.dask.warm_workers`` on every Dask worker, and meant for a
Docker build or a cluster's start-up script.
"""

from __future__ import annotations

import functools
import os
import subprocess
import sys
import time

import numpy as np

__all__ = ["GROUPS", "warmup"]

WARM_ROWS = 70_000  # above the size where rows are cut in two halves


def _data():
    rng = np.random.default_rng(0)
    n = WARM_ROWS
    y = rng.integers(0, 2, n)
    p = np.round(rng.random(n), 3)
    q = np.round(np.clip(p + 0.1 * rng.standard_normal(n), 0, 1), 3)
    w = rng.random(n)
    k = rng.integers(0, 3, n)
    P = rng.dirichlet(np.ones(3), n)
    return y, p, q, w, k, P


def _variants(y, w):
    """Integer labels, boolean labels, weights: the signatures calls compile."""
    return ((y, None), (y.astype(bool), None), (y, w))


def _ranking(fastauc, y, p, q, w, k, P):
    for yy, ww in _variants(y, w):
        fastauc.roc_auc_score(yy, p, sample_weight=ww)
        fastauc.average_precision_score(yy, p, sample_weight=ww)
        fastauc.roc_curve(yy, p, sample_weight=ww)
        fastauc.precision_recall_curve(yy, p, sample_weight=ww)
    fastauc.roc_auc_score(y, p.astype(np.float32))
    fastauc.roc_auc_score(y, p, max_fpr=0.5)
    fastauc.det_curve(y, p)


def _log_loss(fastauc, y, p, q, w, k, P):
    for yy, ww in _variants(y, w):
        fastauc.log_loss(yy, p, sample_weight=ww)


def _calibration(fastauc, y, p, q, w, k, P):
    for yy, ww in _variants(y, w):
        fastauc.brier_score_loss(yy, p, sample_weight=ww)
        fastauc.calibration_error(yy, p, sample_weight=ww)
        fastauc.calibration_curve(yy, p)
        fastauc.reliability_curve(yy, p, sample_weight=ww)
        fastauc.brier_decomposition(yy, p, sample_weight=ww)
    fastauc.calibration_curve(y, p, strategy="quantile")
    fastauc.reliability_curve(y, p, method="quantile")
    fastauc.d2_brier_score(y, p)
    fastauc.d2_log_loss_score(y, p)
    fastauc.expected_roc_auc(p, sample_weight=w)
    fastauc.brier_score_loss(y, p.astype(np.float32))


def _planning(fastauc, y, p, q, w, k, P):
    """Study planning and binormal smoothing (the normal-distribution kernels)."""
    fastauc.roc_power(y, p, q)
    fastauc.roc_power(y, p, q, method="obuchowski")
    fastauc.smooth_roc(y, p)
    fastauc.smooth_roc(y, p, method="density")


def _delong(fastauc, y, p, q, w, k, P):
    for yy, ww in _variants(y, w):
        fastauc.roc_auc_ci(yy, p, sample_weight=ww)
    fastauc.mann_whitney_u(y, p)
    fastauc.delong_test(y, p, q)
    fastauc.venkatraman_test(y, p, q, n_permutations=2)
    fastauc.venkatraman_test(y, p, q, y_true_b=y, n_permutations=2)
    for ww in (None, w):
        fastauc.cv_auc_ci(y, p, np.arange(len(y)) % 3, sample_weight=ww)
        fastauc.cv_auc_ci(y, p, np.arange(len(y)) % 3, sample_weight=ww,
                          pooled=np.arange(len(y)) % 12)
        fastauc.cv_roc_curve(y, p, np.arange(len(y)) % 3, sample_weight=ww)
    half = len(y) // 2  # two samples, clusters, k models: the unpaired t and chi-square tails
    fastauc.delong_test(y, p, q[:half], y_true_b=y[:half])
    clusters = np.arange(len(y)) // 4
    for yy, ww in _variants(y, w):
        fastauc.roc_auc_ci(yy, p, cluster=clusters, sample_weight=ww)
    fastauc.roc_auc_ci(y, p, cluster=clusters.astype(np.int32))  # also string ids' codes
    fastauc.delong_omnibus(y, np.column_stack((p, q, p * q)))


def _thresholds(fastauc, y, p, q, w, k, P):
    for yy, ww in _variants(y, w):
        fastauc.threshold_metrics(yy, p, sample_weight=ww)
        fastauc.best_threshold(yy, p, sample_weight=ww)
        fastauc.sensitivity_at_specificity(yy, p, 0.9, sample_weight=ww)
        fastauc.recall_at_precision(yy, p, 0.5, sample_weight=ww)
        fastauc.confusion_matrix_at_thresholds(yy, p, sample_weight=ww)
        fastauc.coords(yy, p, [0.5, 0.9], input="specificity", ret="all", sample_weight=ww)
        fastauc.coords(yy, p, "best", sample_weight=ww)
        fastauc.coords_ci(yy, p, [0.9], input="specificity", n_resamples=20, sample_weight=ww)
        fastauc.coords_ci(yy, p, "best", n_resamples=20, sample_weight=ww, best_policy="omit")
    fastauc.coords_ci(y, p, [0.5], method="clopper-pearson")
    fastauc.partial_auc(y, p, fpr_range=(0, 0.2))
    fastauc.gains_table(y, p)


def _groups(fastauc, y, p, q, w, k, P):
    for yy, ww in _variants(y, w):
        fastauc.by_group(yy, p, k, sample_weight=ww)


def _bootstrap(fastauc, y, p, q, w, k, P):
    fastauc.bootstrap_ci(y, p, n_resamples=20)
    fastauc.bootstrap_ci(y, p, n_resamples=20, method="percentile", sample_weight=w)
    fastauc.bootstrap_test(y, p, q, n_resamples=20)
    fastauc.bootstrap_ci(y, p, n_resamples=20, scheme="poisson")
    # a partial AUC over a range, the unpaired test, clusters (both schemes)
    fastauc.bootstrap_ci(y, p, n_resamples=20, metric="partial_auc", tpr_range=(0.5, 1.0))
    fastauc.bootstrap_test(y, p, q, n_resamples=20, y_true_b=y, sample_weight_b=w)
    fastauc.bootstrap_ci(y, p, n_resamples=20, cluster=k)
    fastauc.bootstrap_test(y, p, q, n_resamples=20, cluster=k, scheme="poisson")


def _report(fastauc, y, p, q, w, k, P):
    fastauc.report(y, np.column_stack((p, q)))


def _multiclass(fastauc, y, p, q, w, k, P):
    fastauc.roc_auc_score(k, P, multi_class="ovr")
    fastauc.roc_auc_score(k, P, multi_class="ovo")
    fastauc.roc_auc_ci(k, P, multi_class="ovr")  # the components' pass per column
    for scheme in ("multinomial", "poisson"):  # the bootstrap's layout and replicates
        fastauc.bootstrap_ci(k[:2000], P[:2000], multi_class="ovo", n_resamples=2,
                             random_state=0, scheme=scheme)


def _monitoring(fastauc, y, p, q, w, k, P):
    """Windows: rows with one-row updates, a span of datetimes, decay."""
    t = np.datetime64("2026-01-01") + np.arange(y.shape[0]) // 1000 * np.timedelta64(1, "h")
    for win, kw in ((fastauc.Window(rows=20_000), {}),
                    (fastauc.Window(span="1D", half_life="6h"), {"time": t})):
        for a in range(0, y.shape[0], 10_000):
            win.update(y[a:a + 10_000], p[a:a + 10_000], sample_weight=w[a:a + 10_000],
                       **{k_: x[a:a + 10_000] for k_, x in kw.items()})
        win.roc_auc()
        win.average_precision()
    for yy, ww in _variants(y, w):
        fastauc.auc_over_time(yy, p, t, freq="1h", window="3h", sample_weight=ww)
    fastauc.auc_over_time(np.where(np.arange(y.shape[0]) % 5 == 0, np.nan, y), p,
                          np.arange(y.shape[0]) / 1000.0, freq=1.0)  # expected AUCs
    fastauc.subgroup_aucs(y, p, np.arange(y.shape[0]) % 7, sample_weight=w)
    fastauc.subgroup_aucs(y, p, np.arange(y.shape[0]) % 7)
    one = fastauc.Window(rows=500, half_life=100.0)
    for i in range(300):
        one.update(int(y[i]), float(p[i]))
    one.roc_auc()


def _large(fastauc, y, p, q, w, k, P):
    """What large inputs add: the row-blocked checks (from 2**18 rows: their
    kernels directly), and on distinct scores long curves finished and
    reversed in blocks, few kept points gathered, report's sums over key
    ranges."""
    from . import _validation

    _validation.warm_checks()
    s = np.random.default_rng(1).random(WARM_ROWS)
    for yy, ww in _variants(y, w):
        fastauc.roc_curve(yy, s, sample_weight=ww)
        fastauc.precision_recall_curve(yy, s, sample_weight=ww)
    fastauc.report(y, np.column_stack((s, p)))


def _training_sizes():
    """Rows for the training group: one bucket of the sort, then above each
    row count where the losses and the tables take another path
    (``_sort.CHUNK_MIN``: the bucketed sort, the hinge merge cut into parts
    on the threads, the tables built and merged in key ranges;
    ``_sort.DIRECT_ROWS``: the sort by group carries slots, not rows)."""
    from . import _sort

    return 300, _sort.CHUNK_MIN + 4_464, _sort.DIRECT_ROWS + 1


def _training_part(fastauc, y, p, q, w, k, P, *, dtype, weighted):
    """The training group's calls on ``dtype`` scores, weighted or not (the
    four parts compile different signatures of the kernels: keys of the
    score's width, weights or none).

    - ``pairwise_loss_gradient`` (and ``pairwise_loss``: the same kernels)
      for every loss, as ``fastauc.torch`` calls it on the CPU (numpy arrays
      over the tensors' memory: float32 scores stay float32), with and
      without groups, at each size of :func:`_training_sizes` (the largest
      for a hinge loss and the AUM only: the other losses take no sort, and
      the two hinge losses share their merge); float, integer and boolean
      labels on the smallest (the labels change the checks, not the kernels);
    - the distinct-score tables that the training metrics keep: built from
      rows, merged, swept, below and above ``CHUNK_MIN`` keys; unweighted,
      also swept as rows, their keys read back as scores and their sorted
      runs kept as rows (``_kernels.table.collapse_rows`` and
      ``expand_rows``); and, in the float64 part, the bounded cells of
      ``Accumulator(max_groups=...)``.
    """
    from . import _pairwise, _validation
    from ._kernels.sorting import keys_to_floats
    from ._kernels.table import collapse_rows, expand_rows
    from ._table import Table, float_keys

    rng = np.random.default_rng(2)
    small, middle, large = _training_sizes()
    for n in (small, middle, large):
        labels = rng.random(n) < 0.3
        s = np.round(rng.standard_normal(n) + labels, 3).astype(dtype)
        weight = rng.random(n) if weighted else None
        codes = rng.integers(0, 5, n)
        for label in ((labels.astype(dtype), labels.astype(np.int64), labels) if n == small
                      else (labels.astype(dtype),)):
            for loss in _pairwise.LOSSES if n < large else ("squared_hinge", "aum"):
                for gg in (None, codes):
                    fastauc.pairwise_loss_gradient(label, s, loss=loss, sample_weight=weight,
                                                   groups=gg)
        if n == small:
            fastauc.pairwise_loss(labels, s, loss="aum", sample_weight=weight)
        if n == large:
            continue
        # a batch's table of distinct scores (as many keys as rows, so that
        # the middle size's merge passes CHUNK_MIN keys) merged with another
        ww = weight if weighted else _validation.EMPTY_WEIGHT
        distinct = (rng.standard_normal(n) + labels).astype(dtype)
        table = Table.from_rows(labels, distinct, ww).merge(Table.from_rows(labels, s, ww))
        table.sweep()
        table.sweep(moments=True)
        if not weighted:
            table.sweep_as_rows()
            float_keys(keys_to_floats(table.keys, np.empty_like(table.keys)))
    if weighted:
        return
    # the metrics' sorted run kept as rows (a score per row, uint8 labels):
    # rows to a table of counts, and back
    rows = np.sort(np.round(rng.standard_normal(small), 1).astype(dtype))[::-1].copy()
    labels = (rng.random(small) < 0.3).astype(np.uint8)
    keys, pos, neg = np.empty(small, np.uint64), np.empty(small), np.empty(small)
    g = collapse_rows(rows, labels, keys.view(np.float64), keys, pos, neg)
    expand_rows(keys_to_floats(keys[:g], np.empty(g, np.uint64)), pos[:g], neg[:g],
                np.empty(small, dtype), np.empty(small, np.uint8))
    if dtype == np.float64:
        bounded = fastauc.Accumulator(max_groups=64)
        for _ in range(3):  # cells merged and compressed
            labels = rng.random(small) < 0.3
            bounded.update(labels, rng.standard_normal(small) + labels)
        bounded.auc_bounds()


#: Groups in parts that ``warmup(jobs=...)`` deals to its processes as it
#: deals groups (named ``"group:i"``): the parts compile different kernels'
#: signatures, so that the processes do not compile the same ones.
_SPLIT = {
    "training": [functools.partial(_training_part, dtype=dtype, weighted=weighted)
                 for dtype in (np.float64, np.float32) for weighted in (False, True)],
}


def _training(fastauc, y, p, q, w, k, P):
    """What a training loop calls on the CPU, numpy only (torch is not
    needed): the all-pairs losses and the training metrics' tables, on
    float64 and float32 scores, with and without weights (the parts of
    :func:`_training_part`).  The boosting objectives (``fastauc.objectives``)
    are not here: their float32 gradient buffers make a dozen other
    compilations of the merge and the AUM's walk."""
    for part in _SPLIT["training"]:
        part(fastauc, y, p, q, w, k, P)


GROUPS = {
    "ranking": _ranking,
    "log_loss": _log_loss,
    "calibration": _calibration,
    "delong": _delong,
    "planning": _planning,
    "thresholds": _thresholds,
    "groups": _groups,
    "bootstrap": _bootstrap,
    "report": _report,
    "multiclass": _multiclass,
    "monitoring": _monitoring,
    "large": _large,
    "training": _training,
}
"""The families of calls :func:`warmup` compiles, by name (a dict of name to
the function that makes the calls; ``fastauc warmup --groups NAME ...``).

:meta hide-value:

Each family's calls run on 70,000 rows, compiled for the signatures real
calls use (integer and boolean labels, weights, float32 scores).

- ``"ranking"``: ROC AUC (also float32 scores and ``max_fpr``), average
  precision, the ROC, precision-recall and DET curves;
- ``"log_loss"``: the binary log loss;
- ``"delong"``: DeLong's interval and paired test, the Mann-Whitney test;
  the unpaired test, the clustered interval and the omnibus test;
- ``"thresholds"``: threshold metrics, best thresholds, partial AUC, gains;
- ``"groups"``: :func:`fastauc.by_group`;
- ``"bootstrap"``: bootstrap intervals and tests (both schemes);
- ``"report"``: :func:`fastauc.report` of two models;
- ``"multiclass"``: one-vs-rest and one-vs-one AUC, their intervals and bootstrap;
- ``"monitoring"``: :class:`fastauc.Window` (rows, a span of datetimes, decay),
  :func:`fastauc.auc_over_time`, :func:`fastauc.subgroup_aucs`;
- ``"large"``: the paths of inputs from 2**18 rows and of long curves;
- ``"training"``: the all-pairs losses and the training metrics' tables
  (what ``fastauc.torch`` calls on the CPU), numpy only.

See Also
--------
warmup : Compile (or load) these families.

Examples
--------
>>> from fastauc.deploy import GROUPS
>>> "training" in GROUPS, "ranking" in GROUPS
(True, True)
"""


def _run_groups(names):
    import warnings

    import fastauc

    from . import _warm

    data = _data()
    with warnings.catch_warnings(), _warm.kernels_only():
        warnings.simplefilter("ignore")
        for name in names:
            group, _, i = name.partition(":")
            (_SPLIT[group][int(i)] if i else GROUPS[group])(fastauc, *data)
        for dtype in (np.float64, np.float32):  # the first calls' numpy path gives way
            _warm.warm(("tallies", np.dtype(dtype).str))
        _warm.warm(("checks",))  # and the checks' numpy passes


def _units(names):
    """The groups ``names`` with those of ``_SPLIT`` as their parts."""
    return [u for g in names
            for u in ([f"{g}:{i}" for i in range(len(_SPLIT[g]))] if g in _SPLIT else [g])]


def _parts(names, jobs):
    """``names`` dealt into ``jobs`` parts, round robin."""
    return [list(names[i::jobs]) for i in range(jobs) if names[i::jobs]]


def warmup(out=None, *, groups=None, jobs=1):
    """Compile every kernel the common calls use, or load it from Numba's cache.

    The first call of each function in a new installation compiles its
    kernels (seconds); afterwards they load from the cache (``__pycache__``
    beside the package, or ``NUMBA_CACHE_DIR``) in milliseconds.
    ``fastauc warmup`` does that once, for example in a Docker build, a
    notebook's first cell or a cluster's start-up script; ``fastauc demo``
    runs the part it needs.

    Parameters
    ----------
    out : file-like, default=None
        Where the one line saying how long it took goes (standard output).
    groups : sequence of str, default=None
        The families of calls to warm (keys of :data:`GROUPS`); all by default.
    jobs : int, default=1
        Compile in this many processes at once: ``jobs - 1`` child processes
        (``python -m fastauc.deploy``) fill the cache with their share of the
        groups (the training group's four parts dealt separately) while this
        process compiles its own, then this process loads the children's
        (Numba compiles one function at a time per process, so a machine's
        other cores would otherwise idle).  Kernels that two groups share
        may be compiled by two processes.

    Returns
    -------
    seconds : float
        How long it took.

    Raises
    ------
    ValueError
        A name in ``groups`` that is not a key of :data:`GROUPS`.
    RuntimeError
        A child process (``jobs > 1``) that failed.

    See Also
    --------
    GROUPS : The families of calls.
    fastauc.dask.warm_workers : The same on every Dask worker.
    fastauc.spark.warm_executors : The same in Spark's executors.

    Examples
    --------
    >>> from fastauc.deploy import warmup
    >>> import io
    >>> warmup(io.StringIO(), groups=["log_loss"]) >= 0
    True
    """
    import fastauc

    names = list(GROUPS) if groups is None else list(groups)
    unknown = [g for g in names if g not in GROUPS]
    if unknown:
        raise ValueError(f"unknown warm-up groups {unknown}; choose from {list(GROUPS)}")
    t0 = time.perf_counter()
    units = _units(names) if int(jobs) > 1 else names
    jobs = max(1, min(int(jobs), len(units)))
    parts = _parts(units, jobs)
    children = [subprocess.Popen([sys.executable, "-m", "fastauc.deploy", *part],
                                 stdout=subprocess.DEVNULL, env=dict(os.environ))
                for part in parts[1:]]
    _run_groups(parts[0])
    failed = [c.args[3:] for c in children if c.wait() != 0]
    if children:
        _run_groups([g for part in parts[1:] for g in part])  # load what they compiled
    elapsed = time.perf_counter() - t0
    if failed:
        raise RuntimeError(f"fastauc warm-up failed in a child process for groups {failed}")
    print(f"fastauc {fastauc.__version__}: kernels compiled or loaded in {elapsed:.1f} s",
          file=sys.stdout if out is None else out)
    return elapsed


if __name__ == "__main__":  # a child of warmup(jobs=...): compile these groups or parts
    _run_groups(sys.argv[1:])
