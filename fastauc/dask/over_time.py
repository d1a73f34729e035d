"""``auc_over_time`` on Dask: per block, one table of distinct scores per
period; the tables dealt to buckets of consecutive periods (each with the
window's earlier periods), whose windows are merged and swept there; the
client receives one row of numbers per period (``_adapters.over_time``)."""

from __future__ import annotations

from .. import _validation as v
from .._adapters.docstrings import dask_doc
from .._adapters.over_time import (assemble, block_stats, block_tables, bucket_sums, merged,
                                   plan, split_buckets)
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
    p = plan(stats, freq, window, pos_label, expected, reference, len(s))
    blocks = [delayed(block_tables, nout=3)(yy, ss, ww, tt, p.step, p.first, p.positive, p.want,
                                            p.ref_bounds)
              for yy, ss, ww, tt in zip(y, s, w, t)]
    n_b = len(p.bounds) - 1
    split = [delayed(split_buckets, nout=n_b)(b, p.bounds, p.k) for b in blocks]
    buckets = [delayed(bucket_sums)(p.k, p.bounds[b], p.bounds[b + 1], p.probs, p.want,
                                    *[sp[b] for sp in split]) for b in range(n_b)]
    ref_table = delayed(merged)([b[2] for b in blocks]) if p.ref_bounds is not None else None

    def finish(parts, ref_t):
        return assemble(parts, ref_t, p, reference, level, alternative, adjust)

    result = delayed(finish)(buckets, ref_table)
    return result.compute() if compute else result
