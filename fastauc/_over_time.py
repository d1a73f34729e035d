"""The machinery of ``auc_over_time``: periods of a time column, and every
window's AUC, DeLong variance and average precision from one sort of all
rows and one sweep that keeps each window's weight above the current score
(``_kernels.periods.window_sweep``)."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from . import _validation as v
from ._delong import bonferroni, holm, unpaired_test
from ._kernels.periods import block_period_weights, periods_of, window_sweep
from ._parallel import map_units, row_blocks
from ._sort import class_code_payload, sort_by_class, tie_blocks
from ._stats import delong_variance, wald_bounds
from ._window_state import duration, time_values

__all__ = ["AUCOverTime", "compared", "finish", "from_tables", "missing_labels", "periods",
           "reference_of", "summaries", "window_log_loss", "window_sums"]

_COLUMNS = ("n", "n_pos", "n_neg", "auc", "low", "high", "se", "average_precision",
            "log_loss", "expected_auc", "difference", "statistic", "pvalue", "pvalue_adjusted",
            "flag")


@dataclass(frozen=True)
class AUCOverTime:
    """Result of :func:`fastauc.auc_over_time`: one entry per period, in time order.

    Attributes
    ----------
    start, end : ndarray of shape (n_periods,)
        Each period's start and end (datetime64 or float); its window is the
        rows with ``end - window <= time < end``.
    n, n_pos, n_neg : ndarray
        Labelled rows in the window, positive and negative.
    auc, low, high, se : ndarray
        The window's ROC AUC with DeLong's interval (NaN without both classes).
    average_precision : ndarray
        The window's average precision.
    log_loss : ndarray or None
        The window's log loss (None unless the scores are probabilities).
    expected_auc : ndarray or None
        The AUC expected from the window's probabilities
        (:func:`fastauc.expected_roc_auc`, unlabelled rows included), or None.
    difference, statistic, pvalue, pvalue_adjusted : ndarray
        The window's AUC minus the reference's, DeLong's unpaired statistic
        and p-value (pROC's test: Student's t, Welch's degrees of freedom),
        and the p-value adjusted over the periods tested (NaN for the
        reference's own window and those sharing rows with it).
    flag : ndarray of bool
        The adjusted p-value is below ``1 - confidence_level`` and the
        difference points the way of ``alternative``.
    reference_auc : float
        The reference's AUC.
    confidence_level, alternative, adjust : float, str, str or None
        The options used.

    See Also
    --------
    fastauc.auc_over_time : The function returning this record.
    fastauc.plot_over_time : Its plot.

    Examples
    --------
    >>> import numpy as np
    >>> from fastauc import auc_over_time
    >>> rng = np.random.default_rng(0)
    >>> t = np.arange(6000) / 1000.0                 # six "days"
    >>> y = rng.integers(0, 2, 6000)
    >>> s = y * (1.0 - 0.15 * t) + rng.normal(size=6000)   # the model degrades
    >>> res = auc_over_time(y, s, t, freq=1.0)
    >>> res.auc.round(2).tolist()
    [0.73, 0.73, 0.67, 0.63, 0.59, 0.55]
    >>> res.flag.tolist()
    [False, False, True, True, True, True]
    """

    start: np.ndarray
    end: np.ndarray
    n: np.ndarray
    n_pos: np.ndarray
    n_neg: np.ndarray
    auc: np.ndarray
    low: np.ndarray
    high: np.ndarray
    se: np.ndarray
    average_precision: np.ndarray
    log_loss: np.ndarray | None
    expected_auc: np.ndarray | None
    difference: np.ndarray
    statistic: np.ndarray
    pvalue: np.ndarray
    pvalue_adjusted: np.ndarray
    flag: np.ndarray
    reference_auc: float
    confidence_level: float
    alternative: str
    adjust: str | None

    def __len__(self) -> int:
        return self.n.shape[0]

    def to_dict(self) -> dict:
        """``{column: list}`` (``start``, ``end``, then the columns; JSON-ready
        except datetimes, which stay numpy datetime64)."""
        out = {"start": self.start.tolist(), "end": self.end.tolist()}
        for col in _COLUMNS:
            values = getattr(self, col)
            if values is not None:
                out[col] = values.tolist()
        return out

    def to_pandas(self):
        """A pandas DataFrame, one row per period."""
        import pandas as pd

        cols = {"start": self.start, "end": self.end}
        cols.update((c, getattr(self, c)) for c in _COLUMNS if getattr(self, c) is not None)
        return pd.DataFrame(cols)

    def plot(self, ax=None):
        """:func:`fastauc.plot_over_time` of this record."""
        from ._plotting import draw_over_time

        return draw_over_time(self, ax)


def missing_labels(y):
    """Which labels are missing (NaN, None, NA): rows whose label has not
    arrived."""
    if y.dtype.kind == "f":
        return np.isnan(y)
    if y.dtype.kind == "O":
        return np.array([x is None or x != x for x in y.tolist()], bool)
    return np.zeros(y.shape[0], bool)


def periods(time, n, freq, window):
    """``(codes, start, end, k, kind)``: each row's period (0 the earliest),
    the periods' starts and ends, and the periods per window."""
    raw = np.asarray(time)
    unit = 1  # nanoseconds per unit of a datetime64 column read as it is
    if raw.ndim == 1 and raw.dtype.kind == "M" and raw.shape[0] == n:
        name, count = np.datetime_data(raw.dtype)
        if name not in ("generic", "Y", "M"):  # fixed-length units only
            unit = int(np.timedelta64(count, name) // np.timedelta64(1, "ns"))
    if unit > 1:  # NaT is int64's least value: the range's pass below finds it
        t, kind = raw.view(np.int64), "M"  # in the column's own unit: no conversion
    else:
        t, kind = time_values(time, n, "time")
    f, fkind = duration(freq, "freq")
    if kind == "M" and fkind != "M":
        raise TypeError("time holds datetimes: give freq (and window) as a time delta, e.g. "
                        "'1D' or numpy.timedelta64(1, 'D')")
    if kind == "f" and fkind == "M":
        raise TypeError("time holds numbers: give freq (and window) as numbers")
    k = 1
    if window is not None:
        wv, wkind = duration(window, "window")
        if wkind != fkind:
            raise TypeError("window and freq must both be time deltas or both numbers")
        ratio = wv / f
        if abs(ratio - round(ratio)) > 1e-9 * max(1.0, ratio) or round(ratio) < 1:
            raise ValueError(f"window must be a whole number of periods (freq): got {window!r} "
                             f"for freq={freq!r}")
        k = int(round(ratio))
    if n == 0:
        raise v.empty_error("time", (0,))
    if kind == "M":
        step_ns = int(f)
        if step_ns % unit:  # a period shorter than the column's unit, or not a multiple
            t, unit = t * unit, 1
        step = step_ns // unit
        lo, hi = v.minmax(t)
        if int(lo) == np.iinfo(np.int64).min:
            raise ValueError("time contains NaT: every row needs a time")
        origin = (int(lo) // step) * step
        codes = np.empty(n, np.int64)
        map_units(periods_of, [(t[a:b], origin, step, codes[a:b], int(hi) - origin < 1 << 50)
                               for a, b in row_blocks(n)])
        n_per = (int(hi) - origin) // step + 1
        starts = ((origin + np.arange(n_per, dtype=np.int64) * step) * unit).astype(
            "datetime64[ns]")
        ends = starts + np.timedelta64(step_ns, "ns")
    else:
        origin = math.floor(float(t.min()) / f) * f
        codes = np.floor((t - origin) / f).astype(np.int64)
        n_per = int(codes.max()) + 1
        starts = origin + np.arange(n_per) * f
        ends = starts + f
    return np.asarray(codes, np.int64), starts, ends, k, kind


def _window_totals(per_period, k):
    """Each window's sum of its ``k`` periods' values."""
    c = np.concatenate(([0.0], np.cumsum(per_period)))
    j = np.arange(per_period.shape[0])
    return c[j + 1] - c[np.maximum(0, j - k + 1)]


def window_sums(is_pos, s, w, codes, n_per, k, expected=False, bounds=None):
    """``(sums, rows, positive rows)``: per window ``sums`` = ``(auc,
    variance, average precision, positive weight, negative weight)`` (an
    (n_per, 5) array; ``expected``: the expected AUC of the probabilities
    ``s``, the other columns NaN) and its rows: one sort of all rows and one
    sweep that keeps, per window, the weight above the current score
    (``_kernels.periods.window_sweep``).  ``bounds``: a range holding every
    score, checked finite already (the sort's buckets are cut in it)."""
    n = s.shape[0]
    out = np.full((n_per, 5), np.nan)
    payload, rows, pos_rows = class_code_payload(codes, is_pos, n_per)
    n_win = _window_totals(rows, k).astype(np.int64)
    n_pos = _window_totals(pos_rows, k).astype(np.int64)
    if expected:
        ww = w if w.shape[0] else np.ones(n)
        P_per = np.bincount(codes, ww * s, n_per)
        N_per = np.bincount(codes, ww, n_per) - P_per
    elif w.shape[0]:
        P_per = np.bincount(codes, np.where(is_pos, w, 0.0), n_per)
        N_per = np.bincount(codes, w, n_per) - P_per
    else:
        P_per = pos_rows.astype(np.float64)
        N_per = (rows - pos_rows).astype(np.float64)
    PW, NW = _window_totals(P_per, k), _window_totals(N_per, k)
    out[:, 3], out[:, 4] = PW, NW
    if n == 0:
        return out, n_win, n_pos
    runs = sort_by_class(np.ones(n, bool), s, w, extra=payload, name="y_score", bounds=bounds)
    keys, pay, pw = runs.pk, runs.px, runs.pw
    # blocks of the sorted rows, each swept from the weight above it, on the threads
    cuts = tie_blocks(keys)
    nb = cuts.shape[0] - 1
    per = np.zeros((nb, 2, n_per))
    map_units(block_period_weights, [(keys, pay, pw, cuts[b:b + 2], n_per, per[b:b + 1])
                                     for b in range(nb)])
    above = np.cumsum(per[::-1], axis=0)[::-1]  # weight of the blocks at and above each
    sums = np.zeros((nb, 4, n_per))
    starts = []
    for b in range(nb):
        higher = above[b + 1] if b + 1 < nb else np.zeros((2, n_per))
        starts.append((_window_totals(higher[1], k), _window_totals(higher[0], k)))
    map_units(window_sweep, [(keys, pay, pw, k, PW, NW, expected, sums[b, 0], sums[b, 1],
                              sums[b, 2], sums[b, 3], int(cuts[b]), int(cuts[b + 1]),
                              starts[b][0], starts[b][1]) for b in range(nb)])
    area, sv10, sv01, ap = sums.sum(axis=0)  # the blocks' sums added in block order
    ok = (PW > 0) & (NW > 0)
    with np.errstate(divide="ignore", invalid="ignore"):
        auc = np.where(ok, area / (PW * NW), np.nan)
        out[:, 0] = auc
        if not expected:
            m10 = sv10 / (NW * NW) - PW * (auc - 0.5) ** 2
            m01 = sv01 / (PW * PW) - NW * (auc - 0.5) ** 2
            var = m10 / (PW - 1.0) / PW + m01 / (NW - 1.0) / NW
            out[:, 1] = np.where(ok & (PW > 1) & (NW > 1), np.maximum(var, 0.0), np.nan)
            out[:, 2] = np.where(PW > 0, np.maximum(0.0, ap / PW), np.nan)
    return out, n_win, n_pos


def window_log_loss(is_pos, p, w, codes, n_per, k):
    """Each window's log loss (probabilities clipped as scikit-learn clips them)."""
    eps = np.finfo(np.float64).eps
    q = np.clip(p, eps, 1.0 - eps)
    loss = np.where(is_pos, -np.log(q), -np.log1p(-q))
    ww = w if w.shape[0] else np.ones(p.shape[0])
    total = _window_totals(np.bincount(codes, ww * loss, n_per), k)
    weight = _window_totals(np.bincount(codes, ww, n_per), k)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(weight > 0, total / weight, np.nan)


def summaries(tables):
    """``(auc, variance, average precision, positive weight, negative weight)``
    of each table (``window_sums``' columns), from one sweep with moments."""
    out = np.full((len(tables), 5), np.nan)
    for j, t in enumerate(tables):
        sw = t.sweep(moments=True)
        out[j, 3], out[j, 4] = sw.tp, sw.fp
        if sw.tp > 0 and sw.fp > 0:
            out[j, 0] = sw.area2 / (2.0 * sw.tp * sw.fp)
            out[j, 1] = delong_variance(sw.stats)
        if sw.tp > 0:
            out[j, 2] = max(0.0, sw.ap_num / sw.tp)
    return out


def compared(sums, ref, testable, level, alternative, adjust):
    """Each window against the reference ``ref`` (a ``summaries`` row):
    ``(difference, statistic, pvalue, adjusted, flag)``."""
    m = sums.shape[0]
    diff, stat, pv = (np.full(m, np.nan) for _ in range(3))
    for j in np.flatnonzero(testable):
        a = sums[j]
        if math.isnan(a[0]) or math.isnan(ref[0]):
            continue
        r = unpaired_test(a[0], a[1], a[3] + a[4], ref[0], ref[1], ref[3] + ref[4], level,
                          alternative)
        diff[j], stat[j], pv[j] = r.difference, r.statistic, r.pvalue
    adjusted = {"holm": holm, "bonferroni": bonferroni, None: np.asarray}[adjust](pv)
    adjusted = np.asarray(adjusted, np.float64)
    alpha = 1.0 - level
    with np.errstate(invalid="ignore"):
        way = {"less": diff < 0, "greater": diff > 0, "two-sided": diff == diff}[alternative]
        flag = (adjusted < alpha) & way
    return diff, stat, pv, adjusted, flag


def interval(sums, level):
    """``(se, low, high)`` of each window's AUC."""
    return wald_bounds(sums[:, 0], sums[:, 1], level)


def reference_of(reference, sums, start, end, k):
    """``(summary row, (start, end))`` of the reference, None without one;
    for a ``(start, end)`` pair of times the row is None (the caller sums
    the rows in it)."""
    n_per = start.shape[0]
    if reference is None:
        return None
    if isinstance(reference, str):
        v.check_choice(reference, "reference", ("first",))
        j = min(k - 1, n_per - 1)
    elif isinstance(reference, (int, np.integer)) and not isinstance(reference, bool):
        j = int(reference) if reference >= 0 else n_per + int(reference)
        if not 0 <= j < n_per:
            raise ValueError(f"reference={reference} is not a period: there are {n_per}")
    elif isinstance(reference, tuple) and len(reference) == 2:
        return None, (np.asarray(reference[0], dtype=start.dtype),
                      np.asarray(reference[1], dtype=start.dtype))
    else:
        raise ValueError(f"reference must be 'first', a period index, a (start, end) pair or "
                         f"None, got {reference!r}")
    return sums[j], (start[max(0, j - k + 1)], end[j])


def finish(sums, n_win, n_pos, losses, exp_auc, start, end, k, ref, level, alternative,
           adjust) -> AUCOverTime:
    """The record from the windows' sums and the reference (``reference_of``'s):
    the intervals, the tests of the windows that share no row with the
    reference, the adjusted p-values and the flags."""
    n_per = start.shape[0]
    if ref is not None:
        ref_row, (r0, r1) = ref
        w_start = start[np.maximum(0, np.arange(n_per) - k + 1)]
        testable = (end <= r0) | (w_start >= r1)
        diff, stat, pv, adj, flag = compared(sums, ref_row, testable, level, alternative,
                                             adjust)
        ref_auc = float(ref_row[0])
    else:
        diff = stat = pv = adj = np.full(n_per, np.nan)
        flag = np.zeros(n_per, bool)
        ref_auc = math.nan
    se, low, high = interval(sums, level)
    bad = int(np.count_nonzero(np.isnan(sums[:, 0]) & (n_win > 0)))
    if bad:
        v.warn_undefined(f"{v.ONE_CLASS} ({bad} of {n_per} windows hold a single class; their "
                         "AUC is NaN)", stacklevel=None)
    return AUCOverTime(start, end, n_win, n_pos, n_win - n_pos, sums[:, 0], low, high, se,
                       sums[:, 2], losses, exp_auc, diff, stat, pv, adj, flag, ref_auc, level,
                       alternative, adjust)


def _merged(tables):
    tables = [t for t in tables if len(t)]
    if not tables:
        return None
    while len(tables) > 1:  # a balanced tree of merges
        tables = [tables[i].merge(tables[i + 1]) if i + 1 < len(tables) else tables[i]
                  for i in range(0, len(tables), 2)]
    return tables[0]


def from_tables(tables, expected_tables, rows, pos_rows, k, probs):
    """``window_sums``' and ``window_log_loss``' numbers from each period's
    table of distinct scores (what :class:`~fastauc.Accumulator` keeps of a
    stream read in batches): each window's table the merge of its periods',
    swept once with DeLong's moments.  ``expected_tables``: each period's
    table of probabilities with all weight counted positive, or None."""
    n_per = len(tables)
    sums = np.full((n_per, 5), np.nan)
    losses = np.full(n_per, np.nan) if probs else None
    exp_auc = None if expected_tables is None else np.full(n_per, np.nan)
    eps = np.finfo(np.float64).eps
    for j in range(n_per):
        lo = max(0, j - k + 1)
        t = _merged(tables[lo:j + 1])
        if t is None:
            sums[j, 3:] = 0.0
        else:
            sums[j] = summaries([t])[0]
            if probs and sums[j, 3] + sums[j, 4] > 0:
                p = np.clip(t.scores, eps, 1.0 - eps)
                losses[j] = float(np.dot(t.pos, -np.log(p)) + np.dot(t.neg, -np.log1p(-p))) / (
                    sums[j, 3] + sums[j, 4])
        if exp_auc is not None:
            e = _merged(expected_tables[lo:j + 1])
            if e is not None:
                p = e.scores
                sw = type(e)(e.keys, p * e.pos, (1.0 - p) * e.pos).sweep()
                if sw.tp > 0 and sw.fp > 0:
                    exp_auc[j] = sw.auc
    n_win = _window_totals(np.asarray(rows, np.float64), k).astype(np.int64)
    n_pos = _window_totals(np.asarray(pos_rows, np.float64), k).astype(np.int64)
    return sums, n_win, n_pos, losses, exp_auc
