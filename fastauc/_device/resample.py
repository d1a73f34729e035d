"""The bootstrap on the device (``_kernels_cuda.resampling``): the ROC AUC
(with ``max_fpr``, the standardised partial AUC), the average precision and
the log loss; percentile, basic and BCa intervals.

The rows are sorted once (descending score) and cut into chunks at tie-group
starts.  The replicates run in batches whose per-chunk buffers stay within
``BATCH_BYTES`` (never replicates x rows at once).  ``chunk_sums`` gives each
chunk's class weights and area from zero above; an exclusive prefix over the
chunks (``xp``) gives each chunk's start, which the average precision, the
partial AUC and the log loss read in a second walk (``chunk_values``).

The Poisson scheme's replicates equal the CPU path's (bit for bit for the
unweighted AUC: every sum is of whole numbers; the other metrics to rounding);
the multinomial scheme's are reproducible for a ``random_state`` but drawn
differently from the CPU path's (one counter-based draw per row and
replicate).  BCa's jackknife comes from the placement values (the AUC) or
the rows' losses (the log loss), on the device.
"""

from __future__ import annotations

import math

import numpy as np

from .. import _validation as v
from .._kernels.resampling import (
    AVERAGE_PRECISION,
    LOG_LOSS,
    POISSON_CDF,
    POISSON_TABLE,
    ROC_AUC,
)
from .._resample import (
    bootstrap_interval,
    check_bootstrap_args,
    undefined_message,
    undefined_result,
)
from .._resample import _metric_code as metric_code

#: the metrics whose replicates run on the device (the others: host copies)
DEVICE_METRICS = ("roc_auc", "average_precision", "log_loss")
from .._results import BootstrapResult, BootstrapTestResult
from .._stats import ALTERNATIVES, pvalue, ratio
from . import tallies as t
from . import validation as dv
from .arrays import GPU_EXTRA, HOST

CHUNK_ROWS = 2048  # rows a thread walks for one replicate (the chunks depend on n only)
THREADS = 128  # replicates per block
BATCH_BYTES = 64 << 20  # the chunk buffers of one batch of replicates
COUNTS_BYTES = 512 << 20  # the multinomial counts of one batch (int32 per row and replicate)
MAX_GRID_Y = 65535  # CUDA's limit on a grid's second dimension
EPS = np.finfo(np.float64).eps


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


class Model:
    """One model's rows sorted for the walks, its metric's per-row loss, its
    point estimate and its BCa jackknife groups (made when asked)."""

    def __init__(self, e, is_pos, s, w, code, max_fpr, name):
        xp = e.xp
        self.e, self.code, self.max_fpr = e, code, max_fpr
        self.is_pos, self.s, self.w = is_pos, s, w
        if code == LOG_LOSS:
            if float(s.min()) < 0 or float(s.max()) > 1:
                raise ValueError(f"metric='log_loss' needs probabilities in [0, 1] in {name}")
            self.row_loss = -xp.log(xp.clip(xp.where(is_pos, s, 1.0 - s), EPS, 1.0 - EPS))
        order = xp.argsort(s)[::-1]
        self.ss = ss = s[order]
        self.lab = is_pos[order].astype(np.uint8)
        self.first = xp.concatenate((xp.ones(1, np.uint8),
                                     (ss[1:] != ss[:-1]).astype(np.uint8)))
        self.rid = xp.ascontiguousarray(order.astype(np.int64))
        # unused arrays: one element (a size-0 CuPy array has a null pointer)
        self.ws = xp.zeros(1) if w is None else xp.ascontiguousarray(w[order])
        self.loss = xp.ascontiguousarray(self.row_loss[order]) if code == LOG_LOSS \
            else xp.zeros(1)
        self.cuts = chunk_cuts(e, self.first, s.shape[0])

    def estimate(self) -> float:
        """The float the in-memory function gives on all rows."""
        e, xp = self.e, self.e.xp
        if self.code == LOG_LOSS:
            wv = xp.ones(self.s.shape[0]) if self.w is None else self.w
            return float((wv * self.row_loss).sum()) / float(wv.sum())
        if self.code == AVERAGE_PRECISION:
            return t.average_precision(e, self.is_pos, self.s, self.w, self._curve())
        if self.code == ROC_AUC and self.w is None:  # from the rows sorted already
            auc = t.curve_auc(e, self._curve())
            if not math.isnan(auc):
                return auc
        return t.binary_auc(e, self.is_pos, self.s, self.w,  # (one class: its warning)
                            None if self.code == ROC_AUC else self.max_fpr)

    def _curve(self):
        """The tallies at each distinct score, from the rows' sort above."""
        return t.sorted_curve(self.e, self.ss, self.lab, None if self.w is None else self.ws)

    def jackknife(self, estimate, stratified):
        """Leave-one-row-out values, grouped for the acceleration as the CPU
        path groups them (by class when stratified)."""
        e, xp = self.e, self.e.xp
        wv = xp.ones(self.s.shape[0]) if self.w is None else self.w
        with np.errstate(divide="ignore", invalid="ignore"):
            if self.code == LOG_LOSS:
                total, s = float(wv.sum()), float((wv * self.row_loss).sum())
                jk = (s - wv * self.row_loss) / (total - wv)
                if not stratified:
                    return [jk]
                return [jk[self.is_pos], jk[~self.is_pos]]
            c = t.split_classes(e, self.is_pos, self.s, self.w, keep_order=True)
            v10, v01 = t.placements(e, c)
            pw = xp.ones(c.n_pos) if c.pos_w is None else c.pos_w
            nw = xp.ones(c.n_neg) if c.neg_w is None else c.neg_w
            jp = (c.total_pos * estimate - pw * v10) / (c.total_pos - pw)
            jn = (c.total_neg * estimate - nw * v01) / (c.total_neg - nw)
        # back to the rows' order in each class (a paired test subtracts row by row)
        jp = t.unsort(xp, c.pos_order, jp)
        jn = t.unsort(xp, c.neg_order, jn)
        return [jp, jn] if stratified else [xp.concatenate((jp, jn))]


def _kernels():
    try:
        from .._kernels_cuda import resampling
    except ImportError as exc:
        raise ImportError(f"the device bootstrap needs numba-cuda ({exc}): {GPU_EXTRA}") \
            from exc
    return resampling


def replicates(e, models, seed, n_resamples: int, scheme: str, stratified: bool):
    """Each model's value in each replicate, a host (replicates, models)
    float64 array (NaN where the metric is undefined).  The models share the
    replicates' counts: a row's Poisson count is keyed by its input position,
    and a multinomial batch's counts are drawn once."""
    k = _kernels()
    xp = e.xp
    is_pos = models[0].is_pos
    n = is_pos.shape[0]
    parts = max(m.cuts.shape[0] - 1 for m in models)
    multinomial = scheme == "multinomial"
    batch = max(1, min(n_resamples, BATCH_BYTES // (parts * 56)))
    if multinomial:
        batch = max(1, min(batch, COUNTS_BYTES // (4 * n), MAX_GRID_Y))
    if multinomial:
        n_pos = int(is_pos.sum())
        if stratified and 0 < n_pos < n:
            rows = xp.concatenate((xp.flatnonzero(is_pos), xp.flatnonzero(~is_pos)))
            bounds = xp.asarray([0, n_pos, n], dtype=np.int64)
        else:
            rows, bounds = xp.arange(n, dtype=np.int64), xp.asarray([0, n], dtype=np.int64)
        rows = xp.ascontiguousarray(rows.astype(np.int64))
    seed = np.uint64(seed)
    out = np.empty((n_resamples, len(models)))
    for r0 in range(0, n_resamples, batch):
        b = min(batch, n_resamples - r0)
        counts = xp.zeros((1, 1), np.int32)
        if multinomial:
            counts = xp.zeros((n, b), np.int32)  # (rows, replicates): a warp reads 32 at once
            tpb = e.threads(n, THREADS)
            e.launch(k.multinomial_counts, (-(-n // tpb), b), tpb, rows, bounds, seed, r0,
                    counts)
        for j, m in enumerate(models):
            out[r0:r0 + b, j] = e.host(_batch(e, k, m, counts, not multinomial, seed, r0, b))
    return out


def _batch(e, k, m: Model, counts, drawn, seed, r0, b):
    """Model ``m``'s values in replicates ``r0 .. r0 + b`` (``drawn``: Poisson
    counts drawn in the walk, else read from ``counts``)."""
    xp = e.xp
    parts = m.cuts.shape[0] - 1
    tpb = e.threads(b, THREADS)
    grid = (parts, -(-b // tpb))
    sums = xp.zeros((b, parts, 3))
    weighted = m.w is not None
    tables = (xp.asarray(POISSON_TABLE), xp.asarray(POISSON_CDF))
    e.launch(k.chunk_sums, grid, tpb, m.rid, m.lab, m.first, m.ws, weighted, m.cuts, counts,
            drawn, *tables, seed, r0, sums)
    tp, fp, a2 = sums[:, :, 0], sums[:, :, 1], sums[:, :, 2]
    total_p, total_n = tp.sum(axis=1), fp.sum(axis=1)
    ok = (total_p > 0) & (total_n > 0)
    if m.code == ROC_AUC:  # ranges add up: the area of chunk c plus its negatives x tp above
        above = xp.cumsum(tp, axis=1) - tp
        area2 = a2.sum(axis=1) + 2.0 * (fp * above).sum(axis=1)
        with np.errstate(divide="ignore", invalid="ignore"):
            return xp.where(ok, area2 / (2.0 * total_p * total_n), np.nan)
    base = xp.stack((xp.cumsum(tp, axis=1) - tp, xp.cumsum(fp, axis=1) - fp,
                     xp.broadcast_to(total_p[:, None], tp.shape),
                     xp.broadcast_to(total_n[:, None], tp.shape)), axis=2)
    base = xp.ascontiguousarray(base)
    values = xp.zeros((b, parts))
    e.launch(k.chunk_values, grid, tpb, m.rid, m.lab, m.first, m.ws, weighted, m.cuts,
            counts, drawn, *tables, seed, r0, base, m.code, float(m.max_fpr), m.loss, values)
    acc = values.sum(axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        if m.code == LOG_LOSS:
            total = total_p + total_n
            return xp.where(total > 0, acc / total, np.nan)
        if m.code == AVERAGE_PRECISION:
            return xp.where(ok, acc / total_p, np.nan)
        min_area = 0.5 * m.max_fpr * m.max_fpr  # PARTIAL_AUC: McClish's standardisation
        return xp.where(ok, 0.5 * (1.0 + (acc - min_area) / (m.max_fpr - min_area)), np.nan)


def _undefined(e, is_pos, classes, w, metric):
    """The CPU path's warning when the metric is undefined (a class absent or
    of zero weight in all), else None."""
    zero_weight = w is not None and not (bool((w[is_pos] > 0).any())
                                         and bool((w[~is_pos] > 0).any()))
    n_pos = int(is_pos.sum())
    one_class = classes.shape[0] < 2 or n_pos in (0, is_pos.shape[0])
    return undefined_message(one_class, zero_weight, metric)


def _interval(values, estimate, level, method, groups, alternative="two-sided"):
    """``(low, high, se, n_dropped)`` from replicate values (NaN: dropped)."""
    good = values[np.isfinite(values)]
    if good.shape[0] == 0:
        raise ValueError("every bootstrap replicate had a single class; use stratified=True "
                         "(scheme='multinomial')")
    low, high = bootstrap_interval(good, estimate, level, method, groups() if method == "bca"
                                   else None, alternative)
    se = float(good.std(ddof=1)) if good.shape[0] > 1 else math.nan
    return low, high, se, int(values.shape[0] - good.shape[0])


def bootstrap_ci(e, y_true, y_score, metric, n_resamples, confidence_level, method, stratified,
                 sample_weight, random_state, max_fpr, progress, scheme, at=None, cluster=None,
                 fpr_range=None, tpr_range=None, correct=False, multi_class="raise",
                 average="macro", labels=None):
    """``bootstrap_ci`` on the device (the AUC, partial AUC, average precision
    and log loss, every interval; the other metrics, ``"partial_auc"`` over a
    range, the clustered bootstrap and multiclass scores on host copies)."""
    if metric not in DEVICE_METRICS or cluster is not None or fpr_range is not None \
            or tpr_range is not None or correct is not False \
            or len(getattr(y_score, "shape", ())) == 2:
        return HOST
    n_resamples, level, stratified = check_bootstrap_args(n_resamples, confidence_level,
                                                          method, stratified, scheme)
    code, fpr = metric_code(metric, max_fpr, method, at)
    seed = v.seed_from_random_state(random_state)
    s = dv.scores(e, y_score, "y_score", keep_float32=False)
    is_pos, classes, w = dv.binary(e, y_true, sample_weight, None, rule="greater", y_score=s)
    undefined = _undefined(e, is_pos, classes, w, metric)
    if undefined is not None:
        return undefined_result(undefined, False, method, level, n_resamples, metric)
    model = Model(e, is_pos, s, w, code, fpr, "y_score")
    estimate = model.estimate()
    reps = replicates(e, [model], seed, n_resamples, scheme, stratified)[:, 0]
    low, high, se, dropped = _interval(reps, estimate, level, method,
                                       lambda: model.jackknife(estimate, stratified))
    return BootstrapResult(estimate, low, high, se, method, level, n_resamples, dropped,
                           metric, reps)


def bootstrap_test(e, y_true, y_score_a, y_score_b, metric, n_resamples, confidence_level,
                   method, stratified, alternative, sample_weight, random_state, max_fpr,
                   progress, scheme, at=None, y_true_b=None, sample_weight_b=None, margin=0.0,
                   cluster=None, fpr_range=None, tpr_range=None, correct=False,
                   multi_class="raise", average="macro", labels=None):
    """``bootstrap_test`` on the device: each replicate's counts are the same
    for both models, so the difference keeps their correlation.  The
    unpaired comparison (``y_true_b``), a non-zero ``margin``, the clustered
    bootstrap, ``"partial_auc"`` over a range and multiclass scores run on
    host copies."""
    if metric not in DEVICE_METRICS or y_true_b is not None or sample_weight_b is not None \
            or cluster is not None or fpr_range is not None or tpr_range is not None \
            or correct is not False or not (type(margin) in (int, float) and margin == 0) \
            or 2 in (len(getattr(y_score_a, "shape", ())), len(getattr(y_score_b, "shape", ()))):
        return HOST
    n_resamples, level, stratified = check_bootstrap_args(n_resamples, confidence_level,
                                                          method, stratified, scheme)
    v.check_choice(alternative, "alternative", ALTERNATIVES)
    code, fpr = metric_code(metric, max_fpr, method, at)
    seed = v.seed_from_random_state(random_state)
    a = dv.scores(e, y_score_a, "y_score_a", keep_float32=False)
    b = dv.scores(e, y_score_b, "y_score_b", keep_float32=False)
    is_pos, classes, w = dv.binary(e, y_true, sample_weight, None, rule="greater",
                                   y_score_a=a, y_score_b=b)
    undefined = _undefined(e, is_pos, classes, w, metric)
    if undefined is not None:
        return undefined_result(undefined, True, method, level, n_resamples, metric,
                                alternative)
    models = [Model(e, is_pos, x, w, code, fpr, name)
              for x, name in ((a, "y_score_a"), (b, "y_score_b"))]
    est_a, est_b = (m.estimate() for m in models)
    reps = replicates(e, models, seed, n_resamples, scheme, stratified)
    d = est_a - est_b

    def groups():  # the jackknife of the difference, row by row
        ja = models[0].jackknife(est_a, stratified)
        jb = models[1].jackknife(est_b, stratified)
        return [x - y for x, y in zip(ja, jb)]

    low, high, se, dropped = _interval(reps[:, 0] - reps[:, 1], d, level, method, groups,
                                       alternative)
    z = 0.0 if d == 0.0 and se == 0.0 else ratio(d, se)
    return BootstrapTestResult(z, pvalue(z, alternative), d, low, high, se, est_a, est_b,
                               method, alternative, level, n_resamples, dropped, metric, reps)
