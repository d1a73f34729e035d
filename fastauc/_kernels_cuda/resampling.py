"""Bootstrap replicates on the device: the Poisson and multinomial schemes.

The rows are sorted once (descending score, ``_device.resample``) and cut
into *chunks* at tie-group starts.  Thread ``(c, r)`` walks chunk ``c`` for
replicate ``r``: the threads of a warp are consecutive replicates of one
chunk, so they read the same rows (one broadcast load) and each draws its own
counts.  A chunk's sums are ``(tp, fp, area2)`` counted from zero weight
above, as ``_kernels.resampling.poisson_range_sums``; the caller joins them
in chunk order: ``area2 = sum_c area2_c + 2 fp_c * (tp above c)``.

The Poisson count of input row ``i`` in replicate ``r`` is the CPU's
``poisson_count(replicate_state(seed, r), i)`` (the same functions, compiled
for the device; the tables passed as arrays), so the replicates equal the
CPU path's.  The multinomial
scheme's draws are counted first (``multinomial_counts``: each draw a
counter-based uniform index in its stratum, ``uniform_pick``, added with an
atomic) into a
(rows, replicates) int32 block of a batch of replicates, which the same walk
reads instead of drawing.
"""

from __future__ import annotations

import numpy as np

from .._kernels.resampling import (
    AVERAGE_PRECISION,
    LOG_LOSS,
    poisson_count_in,
    replicate_state,
    uniform_pick,
)
from .._kernels.table import segment_area
from . import cuda

# the CPU's Poisson count, compiled for the device from the same source (its
# tables are arguments: under the simulator they are the kernel's arrays)
poisson_count_on_device = cuda.jit(device=True)(poisson_count_in.py_func)

@cuda.jit(device=True)
def _resampled(i, r, key, rid, w, weighted, counts, drawn, table, cdf):
    """Sorted row ``i``'s resampled weight in replicate ``r`` (key ``key``):
    its Poisson count, or its multinomial count, times its weight."""
    if drawn:
        x = float(poisson_count_on_device(table, cdf, key, rid[i]))
    else:
        x = float(counts[rid[i], r])
    if weighted:
        x *= w[i]
    return x


@cuda.jit(cache=True)
def chunk_sums(rid, lab, first, w, weighted, cuts, counts, drawn, table, cdf, seed, r0, out):
    """``out[r, c] = (tp, fp, area2)`` of chunk ``c`` in replicate ``r0 + r``.

    ``rid`` (the rows' input positions), ``lab`` (1 = positive), ``first``
    (1 = first row of a tie group) and ``w`` (read when ``weighted``) are in
    sorted order; chunk ``c`` is rows ``cuts[c]:cuts[c + 1]``.  ``drawn``:
    Poisson counts drawn here; else ``counts``, the multinomial counts,
    (rows, batch), rows in input order (a warp's 32 replicates of a row side
    by side); ``table``/``cdf`` the Poisson tables
    (``POISSON_TABLE``, ``POISSON_CDF``).  (Unused arrays are passed with one
    element, not empty: a CuPy array of size 0 has a null pointer, which
    some numba-cuda versions cannot launch with.)
    """
    r = cuda.blockIdx.y * cuda.blockDim.x + cuda.threadIdx.x
    c = cuda.blockIdx.x
    if r >= out.shape[0]:
        return
    key = np.uint64(replicate_state(seed, r0 + r))  # (uint64: the simulator calls Python)
    tp = 0.0
    fp = 0.0
    tg = 0.0
    fg = 0.0
    area2 = 0.0
    lo = cuts[c]
    for i in range(lo, cuts[c + 1]):
        if first[i] and i > lo:  # close the tie group above
            area2 += fg * (2.0 * tp + tg)
            tp += tg
            fp += fg
            tg = 0.0
            fg = 0.0
        x = _resampled(i, r, key, rid, w, weighted, counts, drawn, table, cdf)
        if lab[i]:
            tg += x
        else:
            fg += x
    area2 += fg * (2.0 * tp + tg)
    out[r, c, 0] = tp + tg
    out[r, c, 1] = fp + fg
    out[r, c, 2] = area2


@cuda.jit(cache=True)
def chunk_values(rid, lab, first, w, weighted, cuts, counts, drawn, table, cdf, seed, r0, base,
                 metric, max_fpr, loss, out):
    """The second walk, for the metrics a chunk cannot sum from zero above:
    ``out[r, c]`` is chunk ``c``'s share of replicate ``r0 + r``'s

    - ``AVERAGE_PRECISION``: the numerator, ``tg * tp / (tp + fp)`` at each
      tie group with positive weight, ``tp`` and ``fp`` the weights down to
      and including it;
    - ``PARTIAL_AUC``: the ROC polyline's area over ``FPR <= max_fpr``
      (``segment_area``, one segment per tie group);
    - ``LOG_LOSS``: the resampled weight times ``loss`` (a row's log loss).

    ``base[r, c] = (tp0, fp0, P, N)``: the weights of the chunks above and the
    replicate's class totals (``chunk_sums`` first).  Arrays as ``chunk_sums``'.
    """
    r = cuda.blockIdx.y * cuda.blockDim.x + cuda.threadIdx.x
    c = cuda.blockIdx.x
    if r >= out.shape[0]:
        return
    key = np.uint64(replicate_state(seed, r0 + r))  # (uint64: the simulator calls Python)
    tp = base[r, c, 0]
    fp = base[r, c, 1]
    total_p = base[r, c, 2]
    total_n = base[r, c, 3]
    tg = 0.0
    fg = 0.0
    acc = 0.0
    lo = cuts[c]
    hi = cuts[c + 1]
    for i in range(lo, hi + 1):
        if metric != LOG_LOSS and (i == hi or (first[i] and i > lo)):  # close a tie group
            if tg > 0.0 or fg > 0.0:
                if metric == AVERAGE_PRECISION:
                    if tg > 0.0:
                        acc += tg * ((tp + tg) / ((tp + tg) + (fp + fg)))
                else:  # PARTIAL_AUC
                    acc += segment_area(fp / total_n, tp / total_p, (fp + fg) / total_n,
                                        (tp + tg) / total_p, 0.0, max_fpr)
            tp += tg
            fp += fg
            tg = 0.0
            fg = 0.0
        if i == hi:
            break
        x = _resampled(i, r, key, rid, w, weighted, counts, drawn, table, cdf)
        if metric == LOG_LOSS:
            acc += x * loss[i]
        elif lab[i]:
            tg += x
        else:
            fg += x
    out[r, c] = acc


@cuda.jit(cache=True)
def multinomial_counts(rows, starts, seed, r0, counts):
    """Replicate ``r0 + r``'s draws, counted into ``counts[:, r]`` (zeroed).

    Stratum ``k`` holds input rows ``rows[starts[k]:starts[k + 1]]`` and
    draws its size of them uniformly with replacement (``uniform_pick``)."""
    j = cuda.grid(1)
    r = cuda.blockIdx.y
    n = rows.shape[0]
    if j >= n:
        return
    k = 0
    while starts[k + 1] <= j:
        k += 1
    lo = starts[k]
    pick = lo + uniform_pick(seed, r0 + r, j, starts[k + 1] - lo)
    cuda.atomic.add(counts, (rows[pick], r), 1)
