"""The bootstrap of the ROC AUC on the device (``_kernels_cuda.resampling``).

The rows are sorted once; the replicates run in batches whose per-chunk sums
stay within ``BATCH_BYTES`` (never replicates x rows at once); each batch's
chunk sums are joined with ``xp`` (a prefix sum over the chunks), giving
each replicate's AUC.  The Poisson scheme's replicates equal the CPU path's
(unweighted, bit for bit: every sum is of whole numbers); the multinomial
scheme's are reproducible for a ``random_state`` but drawn differently from
the CPU path's (one counter-based draw per row and replicate).
"""

from __future__ import annotations

import math

import numpy as np

from .. import _validation as v
from .._resample import ROC_AUC, bootstrap_interval, check_bootstrap_args
from .._resample import _metric_code as metric_code
from .._results import BootstrapResult, BootstrapTestResult
from .._stats import ALTERNATIVES, pvalue, ratio
from . import tallies as t
from . import validation as dv
from .arrays import GPU_EXTRA, HOST

CHUNK_ROWS = 2048  # rows a thread walks for one replicate (the chunks depend on n only)
THREADS = 128  # replicates per block
BATCH_BYTES = 64 << 20  # chunk sums (and multinomial counts) of one batch of replicates


def chunk_cuts(e, first, n: int):
    """Chunk bounds: about ``CHUNK_ROWS`` rows each, moved to the next
    tie-group start (a chunk may be empty)."""
    xp = e.xp
    starts = xp.flatnonzero(first)
    parts = max(1, -(-n // CHUNK_ROWS))
    targets = (xp.arange(parts + 1, dtype=np.int64) * n) // parts
    idx = xp.searchsorted(starts, targets, "left")
    padded = xp.concatenate((starts, xp.asarray([n], dtype=starts.dtype)))
    return padded[idx].astype(np.int64)


def replicates(e, is_pos, s, w, seed, n_resamples: int, scheme: str, stratified: bool):
    """The AUC of each replicate, as a host float64 array (NaN where a class
    has no weight)."""
    try:
        from .._kernels_cuda.resampling import chunk_sums, multinomial_counts
    except ImportError as exc:
        raise ImportError(f"the device bootstrap needs numba-cuda ({exc}): {GPU_EXTRA}") \
            from exc

    xp = e.xp
    n = s.shape[0]
    order = xp.argsort(s)[::-1]
    ss = s[order]
    lab = is_pos[order].astype(np.uint8)
    first = xp.concatenate((xp.ones(1, np.uint8), (ss[1:] != ss[:-1]).astype(np.uint8)))
    rid = xp.ascontiguousarray(order.astype(np.int64))
    ws = xp.zeros(0) if w is None else xp.ascontiguousarray(w[order])
    cuts = chunk_cuts(e, first, n)
    parts = cuts.shape[0] - 1
    multinomial = scheme == "multinomial"
    per_replicate = parts * 24 + (4 * n if multinomial else 0)
    batch = max(1, min(n_resamples, BATCH_BYTES // per_replicate))
    if multinomial:
        if stratified:
            rows = xp.concatenate((xp.flatnonzero(is_pos), xp.flatnonzero(~is_pos)))
            n_pos = int(is_pos.sum())
            bounds = [0, n_pos, n] if 0 < n_pos < n else [0, n]
        else:
            rows, bounds = xp.arange(n, dtype=np.int64), [0, n]
        rows = xp.ascontiguousarray(rows.astype(np.int64))
        bounds = xp.asarray(bounds, dtype=np.int64)
    seed = np.uint64(seed)
    out = np.empty(n_resamples)
    for r0 in range(0, n_resamples, batch):
        b = min(batch, n_resamples - r0)
        sums = xp.zeros((b, parts, 3))
        counts = xp.zeros((0, 0), np.int32)
        if multinomial:
            counts = xp.zeros((b, n), np.int32)
            multinomial_counts[(-(-n // THREADS), b), THREADS](rows, bounds, seed, r0, counts)
        chunk_sums[(parts, -(-b // THREADS)), THREADS](rid, lab, first, ws, cuts, counts, seed,
                                                       r0, sums)
        out[r0:r0 + b] = e.host(_join(xp, sums))
    return out


def _join(xp, sums):
    """Each replicate's AUC from its chunks' ``(tp, fp, area2)``, in chunk
    order (whole numbers when unweighted: exact)."""
    tp, fp, a2 = sums[:, :, 0], sums[:, :, 1], sums[:, :, 2]
    above = xp.cumsum(tp, axis=1) - tp
    area2 = a2.sum(axis=1) + 2.0 * (fp * above).sum(axis=1)
    total_p, total_n = tp.sum(axis=1), fp.sum(axis=1)
    ok = (total_p > 0) & (total_n > 0)
    with np.errstate(divide="ignore", invalid="ignore"):
        return xp.where(ok, area2 / (2.0 * total_p * total_n), np.nan)


def _undefined(e, is_pos, classes, w):
    """The CPU path's warning when the AUC is undefined (a class absent or of
    zero weight in all), else None."""
    n_pos = int(is_pos.sum())
    if classes.shape[0] < 2 or n_pos in (0, is_pos.shape[0]):
        return v.ONE_CLASS
    if w is not None and not (bool((w[is_pos] > 0).any()) and bool((w[~is_pos] > 0).any())):
        return v.ZERO_WEIGHT_CLASS
    return None


def _auc(e, is_pos, s, w) -> float:
    c = t.split_classes(e, is_pos, s, w)  # the float roc_auc_score gives
    return float(t.area2(e, c) / (2.0 * c.total_pos * c.total_neg))


def _interval(values, estimate, level, method, alternative="two-sided"):
    """``(low, high, se, n_dropped)`` from replicate values (NaN: dropped)."""
    good = values[np.isfinite(values)]
    if good.shape[0] == 0:
        raise ValueError("every bootstrap replicate had a single class; use stratified=True "
                         "(scheme='multinomial')")
    low, high = bootstrap_interval(good, estimate, level, method, None, alternative)
    se = float(good.std(ddof=1)) if good.shape[0] > 1 else math.nan
    return low, high, se, int(values.shape[0] - good.shape[0])


def _checked(n_resamples, confidence_level, method, stratified, scheme, metric, max_fpr):
    """The CPU path's option checks; None where the device leaves the call to
    it (metrics other than the ROC AUC, the partial AUC, BCa)."""
    n_resamples, level, stratified = check_bootstrap_args(n_resamples, confidence_level,
                                                          method, stratified, scheme)
    code, fpr = metric_code(metric, max_fpr, method)
    if code != ROC_AUC or fpr != 1.0 or method == "bca":
        return None
    return n_resamples, level, stratified


def bootstrap_ci(e, y_true, y_score, metric, n_resamples, confidence_level, method, stratified,
                 sample_weight, random_state, max_fpr, progress, scheme):
    """``bootstrap_ci`` of the ROC AUC (percentile or basic) on the device;
    the other metrics, the partial AUC and BCa return ``HOST`` (the CPU path)."""

    checked = _checked(n_resamples, confidence_level, method, stratified, scheme, metric,
                       max_fpr)
    if checked is None:
        return HOST
    n_resamples, level, stratified = checked
    seed = v.seed_from_random_state(random_state)
    s = dv.scores(e, y_score, "y_score", keep_float32=False)
    is_pos, classes, w = dv.binary(e, y_true, sample_weight, None, rule="greater", y_score=s)
    undefined = _undefined(e, is_pos, classes, w)
    if undefined is not None:
        v.warn_undefined(undefined, stacklevel=None)
        nan = math.nan
        return BootstrapResult(nan, nan, nan, nan, method, level, n_resamples, n_resamples,
                               metric, np.full(n_resamples, nan))
    estimate = _auc(e, is_pos, s, w)
    reps = replicates(e, is_pos, s, w, seed, n_resamples, scheme, stratified)
    low, high, se, dropped = _interval(reps, estimate, level, method)
    return BootstrapResult(estimate, low, high, se, method, level, n_resamples, dropped,
                           metric, reps)


def bootstrap_test(e, y_true, y_score_a, y_score_b, metric, n_resamples, confidence_level,
                   method, stratified, alternative, sample_weight, random_state, max_fpr,
                   progress, scheme):
    """``bootstrap_test`` of two ROC AUCs on the device: each replicate's
    counts are the same for both models (keyed by input row, or counted once
    per replicate), so the difference keeps their correlation."""
    checked = _checked(n_resamples, confidence_level, method, stratified, scheme, metric,
                       max_fpr)
    v.check_choice(alternative, "alternative", ALTERNATIVES)
    if checked is None:
        return HOST
    n_resamples, level, stratified = checked
    seed = v.seed_from_random_state(random_state)
    a = dv.scores(e, y_score_a, "y_score_a", keep_float32=False)
    b = dv.scores(e, y_score_b, "y_score_b", keep_float32=False)
    is_pos, classes, w = dv.binary(e, y_true, sample_weight, None, rule="greater",
                                   y_score_a=a, y_score_b=b)
    undefined = _undefined(e, is_pos, classes, w)
    if undefined is not None:
        v.warn_undefined(undefined, stacklevel=None)
        nan = math.nan
        return BootstrapTestResult(nan, nan, nan, nan, nan, nan, nan, nan, method, alternative,
                                   level, n_resamples, n_resamples, metric,
                                   np.full((n_resamples, 2), nan))
    reps = np.stack([replicates(e, is_pos, x, w, seed, n_resamples, scheme, stratified)
                     for x in (a, b)], axis=1)
    est_a, est_b = _auc(e, is_pos, a, w), _auc(e, is_pos, b, w)
    d = est_a - est_b
    low, high, se, dropped = _interval(reps[:, 0] - reps[:, 1], d, level, method, alternative)
    z = 0.0 if d == 0.0 and se == 0.0 else ratio(d, se)
    return BootstrapTestResult(z, pvalue(z, alternative), d, low, high, se, est_a, est_b,
                               method, alternative, level, n_resamples, dropped, metric, reps)
