"""Getting a machine ready: every kernel compiled, or loaded from Numba's
cache, before the first real call.

Used by ``fastauc warmup`` (and ``fastauc demo``), by
``fastauc.dask.warm_workers`` on every Dask worker, and meant for a
Docker build or a cluster's start-up script.
"""

from __future__ import annotations

import sys
import time

import numpy as np

__all__ = ["warmup"]


def warmup(out=None):
    """Compile every kernel the common calls use, or load it from Numba's cache.

    The first call of each function in a new installation compiles its
    kernels (seconds); afterwards they load from ``__pycache__`` in a few
    milliseconds.  ``fastauc warmup`` does that once, for example in a
    Docker build or after ``pip install``; ``fastauc demo`` runs it first.
    Returns the seconds it took.
    """
    import warnings

    import fastauc

    t0 = time.perf_counter()
    n = 70_000  # above the size where rows are cut in two halves
    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, n)
    p = np.round(rng.random(n), 3)
    q = np.round(np.clip(p + 0.1 * rng.standard_normal(n), 0, 1), 3)
    w = rng.random(n)
    k = rng.integers(0, 3, n)
    P = rng.dirichlet(np.ones(3), n)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for yy, ww in ((y, None), (y.astype(bool), None), (y, w)):
            fastauc.roc_auc_score(yy, p, sample_weight=ww)
            fastauc.average_precision_score(yy, p, sample_weight=ww)
            fastauc.roc_curve(yy, p, sample_weight=ww)
            fastauc.precision_recall_curve(yy, p, sample_weight=ww)
            fastauc.log_loss(yy, p, sample_weight=ww)
            fastauc.roc_auc_ci(yy, p, sample_weight=ww)
            fastauc.threshold_metrics(yy, p, sample_weight=ww)
            fastauc.best_threshold(yy, p, sample_weight=ww)
            fastauc.by_group(yy, p, k, sample_weight=ww)
        fastauc.roc_auc_score(y, p, max_fpr=0.5)
        fastauc.det_curve(y, p)
        fastauc.mann_whitney_u(y, p)
        fastauc.delong_test(y, p, q)
        fastauc.partial_auc(y, p, fpr_range=(0, 0.2))
        fastauc.gains_table(y, p)
        fastauc.bootstrap_ci(y, p, n_resamples=20)
        fastauc.bootstrap_ci(y, p, n_resamples=20, method="percentile", sample_weight=w)
        fastauc.bootstrap_test(y, p, q, n_resamples=20)
        fastauc.bootstrap_ci(y, p, n_resamples=20, scheme="poisson")
        fastauc.report(y, np.column_stack((p, q)))
        fastauc.roc_auc_score(k, P, multi_class="ovr")
        fastauc.roc_auc_score(k, P, multi_class="ovo")
    elapsed = time.perf_counter() - t0
    print(f"fastauc {fastauc.__version__}: kernels compiled or loaded in {elapsed:.1f} s",
          file=sys.stdout if out is None else out)
    return elapsed
