"""``auc_over_time`` on Dask: per block, one table of distinct scores per
period; the tables dealt to buckets of consecutive periods (each with the
window's earlier periods), whose windows are merged and swept there; the
client receives one row of numbers per period (``_adapters.over_time``)."""

from __future__ import annotations

import numpy as np

from .. import _over_time as ot
from .. import _validation as v
from .._adapters.docstrings import dask_doc
from .._adapters.over_time import (block_stats, block_tables, bucket_sums, merged,
                                   origin_and_periods, split_buckets)
from .._adapters.ranges import oriented
from .._stats import ALTERNATIVES as _ALTERNATIVES
from .ranges import aligned_columns, load_dask


@dask_doc
def auc_over_time(y_true, y_score, time, *, freq, window=None, reference="first", adjust="holm",
                  expected="auto", alternative="less", confidence_level=0.95,
                  sample_weight=None, pos_label=None, compute=True):
    """:func:`fastauc.auc_over_time` of dask collections: the same periods,
    windows, intervals and tests.

    A first pass reads each block's labels and time and score ranges; then
    each block folds its rows into one table of distinct scores per period,
    the tables go to buckets of consecutive periods (each bucket also gets
    the ``window / freq - 1`` periods before it, which its first windows
    reach back to), and each bucket merges and sweeps its windows.  No task
    holds more than a block's rows or a bucket's tables.

    Parameters
    ----------
    {y_true}
    {y_score}
    time : dask array or Series, or array-like
        Each row's time (datetimes or numbers), in any order.
    freq, window, reference, adjust, expected
        As :func:`fastauc.auc_over_time` (``reference`` a period index,
        ``"first"``, a ``(start, end)`` pair or None).
    {alternative/over_time}
    {confidence_level/over_time}
    {sample_weight/delong}
    {pos_label/greater}
    {compute}

    Returns
    -------
    result : fastauc.AUCOverTime or dask.delayed.Delayed
        The in-memory function's record (equal to it to rounding).  A
        ``Delayed`` of it when ``compute=False`` (the first pass runs at
        the call).

    See Also
    --------
    fastauc.auc_over_time : The in-memory function.

    Examples
    --------
    >>> import dask.array as da, numpy as np
    >>> import fastauc, fastauc.dask
    >>> rng = np.random.default_rng(0)
    >>> t = rng.random(20_000) * 10.0                  # ten "days"
    >>> y = rng.integers(0, 2, 20_000)
    >>> s = y * (1.5 - 0.1 * t) + rng.normal(size=20_000)
    >>> res = fastauc.dask.auc_over_time(*(da.from_array(x, 4000) for x in (y, s, t)),
    ...                                  freq=1.0, window=2.0)
    >>> ref = fastauc.auc_over_time(y, s, t, freq=1.0, window=2.0)
    >>> bool(np.allclose(res.auc, ref.auc, rtol=1e-12)), res.flag.tolist() == ref.flag.tolist()
    (True, True)
    """
    level = v.check_confidence_level(confidence_level)
    v.check_choice(alternative, "alternative", _ALTERNATIVES)
    v.check_choice(adjust, "adjust", ("holm", "bonferroni", None))
    v.check_choice(expected, "expected", ("auto", True, False))
    dask, _ = load_dask()
    delayed = dask.delayed
    (s, y, w, t), offsets, n_rows = aligned_columns(
        [y_score, y_true, sample_weight, time], ["y_score", "y_true", "sample_weight", "time"])
    w = w if w is not None else [None] * len(s)
    stats = dask.compute(*[delayed(block_stats)(yy, ss, tt, o)
                           for yy, ss, tt, o in zip(y, s, t, offsets)])
    if all(st["t"] is None for st in stats):
        raise v.empty_error("y_score", (0,))
    kinds = {st["kind"] for st in stats if st["kind"] is not None}
    # the periods: the in-memory function's own checks of freq and window
    f, fkind = ot.duration(freq, "freq")
    probe = np.array([0.0]) if kinds == {"f"} else np.array([0], "datetime64[ns]")
    *_, k, kind = ot.periods(probe, 1, freq, window)
    step = int(f) if kind == "M" else f
    first, n_per = origin_and_periods(stats, step)
    classes = oriented(np.unique(np.concatenate([st["classes"] for st in stats
                                                 if st["classes"] is not None])), pos_label)
    v.require_binary(classes, pos_label is not None)
    lo_s = min(st["s"][0] for st in stats if st["s"] is not None)
    hi_s = max(st["s"][1] for st in stats if st["s"] is not None)
    probs = lo_s >= 0 and hi_s <= 1
    missing = any(st["missing"] for st in stats)
    if expected is True and not probs:
        raise ValueError("expected AUCs need probabilities: y_score has values outside [0, 1]")
    want = expected is True or (expected == "auto" and missing and probs)
    if kind == "M":
        start = ((first + np.arange(n_per, dtype=np.int64)) * step).astype("datetime64[ns]")
        end = start + np.timedelta64(step, "ns")
    else:
        start = (first + np.arange(n_per)) * step
        end = start + step
    ref_bounds = None
    if isinstance(reference, tuple) and len(reference) == 2:
        ref_bounds = ot.time_values(np.array(list(reference), dtype=start.dtype), 2,
                                    "reference")[0]
    blocks = [delayed(block_tables, nout=3)(yy, ss, ww, tt, step, first, classes[-1], want,
                                            ref_bounds)
              for yy, ss, ww, tt in zip(y, s, w, t)]
    n_b = max(1, min(len(blocks), n_per))
    bounds = [n_per * b // n_b for b in range(n_b + 1)]
    split = [delayed(split_buckets, nout=n_b)(b, bounds, k) for b in blocks]
    buckets = [delayed(bucket_sums)(k, bounds[b], bounds[b + 1], probs, want,
                                    *[sp[b] for sp in split]) for b in range(n_b)]
    ref_table = delayed(merged)([b[2] for b in blocks]) if ref_bounds is not None else None

    def finish(parts, ref_t):
        sums = np.concatenate([p[0] for p in parts])
        n_win = np.concatenate([p[1] for p in parts])
        n_pos = np.concatenate([p[2] for p in parts])
        losses = np.concatenate([p[3] for p in parts]) if probs else None
        exp_auc = np.concatenate([p[4] for p in parts]) if want else None
        ref = ot.reference_of(reference, sums, start, end, k)
        if ref is not None and ref[0] is None:
            if ref_t is None:
                raise ValueError(f"reference={reference!r} holds no labelled row")
            ref = (ot.summaries([ref_t])[0], ref[1])
        return ot.finish(sums, n_win, n_pos, losses, exp_auc, start, end, k, ref, level,
                         alternative, adjust)

    result = delayed(finish)(buckets, ref_table)
    return result.compute() if compute else result
