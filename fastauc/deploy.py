"""Getting a machine ready: every kernel compiled, or loaded from Numba's
cache, before the first real call.

Used by ``fastauc warmup`` (and ``fastauc demo``), by
``fastauc.dask.warm_workers`` on every Dask worker, and meant for a
Docker build or a cluster's start-up script.
"""

from __future__ import annotations

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


def _delong(fastauc, y, p, q, w, k, P):
    for yy, ww in _variants(y, w):
        fastauc.roc_auc_ci(yy, p, sample_weight=ww)
    fastauc.mann_whitney_u(y, p)
    fastauc.delong_test(y, p, q)


def _thresholds(fastauc, y, p, q, w, k, P):
    for yy, ww in _variants(y, w):
        fastauc.threshold_metrics(yy, p, sample_weight=ww)
        fastauc.best_threshold(yy, p, sample_weight=ww)
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


def _report(fastauc, y, p, q, w, k, P):
    fastauc.report(y, np.column_stack((p, q)))


def _multiclass(fastauc, y, p, q, w, k, P):
    fastauc.roc_auc_score(k, P, multi_class="ovr")
    fastauc.roc_auc_score(k, P, multi_class="ovo")


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


#: The common calls by family, each compiled for the signatures real calls
#: use (integer and boolean labels, weights, float32 scores).
GROUPS = {
    "ranking": _ranking,
    "log_loss": _log_loss,
    "delong": _delong,
    "thresholds": _thresholds,
    "groups": _groups,
    "bootstrap": _bootstrap,
    "report": _report,
    "multiclass": _multiclass,
    "large": _large,
}


def _run_groups(names):
    import warnings

    import fastauc

    from . import _warm

    data = _data()
    with warnings.catch_warnings(), _warm.kernels_only():
        warnings.simplefilter("ignore")
        for name in names:
            GROUPS[name](fastauc, *data)
        for dtype in (np.float64, np.float32):  # the first calls' numpy path gives way
            _warm.warm(("tallies", np.dtype(dtype).str))
        _warm.warm(("checks",))  # and the checks' numpy passes


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
        groups while this process compiles its own, then this process loads
        the children's (Numba compiles one function at a time per process,
        so a machine's other cores would otherwise idle).  Kernels that two
        groups share may be compiled by two processes.

    Returns
    -------
    seconds : float
        How long it took.

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
    jobs = max(1, min(int(jobs), len(names)))
    parts = _parts(names, jobs)
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


if __name__ == "__main__":  # a child of warmup(jobs=...): compile these groups
    _run_groups(sys.argv[1:])
