"""Metrics per group from one sort of all rows: :func:`by_group`.

Monitoring and fairness work asks for the AUC of every day, country or model
version.  :func:`by_group` computes, for every group at once, the ROC AUC
with its DeLong interval, average precision, log loss (when the scores are
probabilities) and the class counts: one counting sort by group code, one
radix sort per group, one segmented sweep of the per-group distinct-score
tables (``fastauc._table.grouped_table``).  Each group's numbers equal the
single-model functions run on that group's rows.
"""

from __future__ import annotations

import dataclasses
import math
import warnings
from dataclasses import dataclass, field

import numpy as np

from . import _validation as v
from ._device import dispatch
from ._subgroups import background_extra
from ._groups import group_codes
from ._probabilities import binned_error, table_bins
from ._report_blocks import CALIBRATION_BINS, check_rates
from ._kernels.table import SEG_AP, SEG_AP_SPLIT, SEG_AREA2, SEG_FP, SEG_TP
from ._stats import delong_variance, wald_bounds
from ._sort import CHUNK_MIN
from ._table import grouped_sums, sorted_tallies
from .coords import coords
from .reliability import brier_decomposition

__all__ = ["GroupMetrics", "by_group"]

_COLUMNS = ("n", "n_pos", "n_neg", "pos_weight", "neg_weight", "auc", "auc_low", "auc_high",
            "auc_se", "average_precision", "log_loss")


@dataclass(frozen=True)
class GroupMetrics:
    """Result of :func:`by_group`: one entry per group, in sorted group order.

    Every attribute is an array of length ``len(self)``.  ``groups`` maps each
    group column's name to its labels (one column, or one per column of a
    tuple of group columns).  ``str()`` prints a table; ``to_dict()``,
    ``to_pandas()`` and ``to_polars()`` give one row per group.

    Attributes
    ----------
    groups : dict
        Group column name -> ndarray of shape (n_groups,), each group's label
        in that column.  The name is ``"group"`` for one unnamed column,
        ``"group_0"``, ``"group_1"``, ... for a tuple of them, or the column's
        own name (a pandas Series, ...).
    n : ndarray of shape (n_groups,)
        Rows in each group.
    n_pos, n_neg : ndarray of shape (n_groups,)
        Positive and negative rows.
    pos_weight, neg_weight : ndarray of shape (n_groups,)
        Total weight of the positives and of the negatives (``n_pos`` and
        ``n_neg`` when unweighted).
    auc : ndarray of shape (n_groups,)
        ROC AUC, NaN where the group has a single class.
    auc_low, auc_high : ndarray of shape (n_groups,)
        DeLong's interval at ``confidence_level``, clipped to [0, 1].
    auc_se : ndarray of shape (n_groups,)
        DeLong's standard error of the AUC.
    average_precision : ndarray of shape (n_groups,)
        Average precision (0 without positives, 1 without negatives).
    log_loss : ndarray of shape (n_groups,) or None
        Log loss; None unless every score is in [0, 1].
    confidence_level : float
        Level of the intervals, e.g. 0.95.
    weighted : bool
        Whether ``sample_weight`` was given (not in the repr).
    extra : dict of str to ndarray of shape (n_groups,)
        The columns asked of :func:`by_group` with ``at_specificity``,
        ``at_sensitivity`` and ``calibration`` (empty without them).

    See Also
    --------
    by_group : The function returning this record.
    report : Several models' reports, with ``by=`` this table for each.

    Examples
    --------
    >>> import numpy as np
    >>> from fastauc import by_group
    >>> y = np.array([0, 1, 0, 1, 0, 1, 1, 0])
    >>> s = np.array([0.1, 0.8, 0.3, 0.6, 0.7, 0.9, 0.4, 0.2])
    >>> res = by_group(y, s, (["a"] * 4 + ["b"] * 4, [1, 1, 2, 2] * 2))
    >>> len(res), res.groups["group_0"].tolist(), res.groups["group_1"].tolist()
    (4, ['a', 'a', 'b', 'b'], [1, 2, 1, 2])
    >>> res = by_group(y, s, ["a"] * 4 + ["b"] * 4)
    >>> print(res)
    group  n  n_pos  n_neg  auc     95% CI            AP      log_loss
    a      4      2      2  1.0000  [1.0000, 1.0000]  1.0000    0.2990
    b      4      2      2  0.7500  [0.0570, 1.0000]  0.8333    0.6122
    """

    groups: dict  #: {column name: labels of each group}
    n: np.ndarray  #: rows in the group
    n_pos: np.ndarray  #: positive rows
    n_neg: np.ndarray  #: negative rows
    pos_weight: np.ndarray  #: total weight of the positives (``n_pos`` when unweighted)
    neg_weight: np.ndarray  #: total weight of the negatives
    auc: np.ndarray  #: ROC AUC (NaN when the group has one class)
    auc_low: np.ndarray  #: DeLong interval, clipped to [0, 1]
    auc_high: np.ndarray
    auc_se: np.ndarray  #: DeLong standard error
    average_precision: np.ndarray
    log_loss: np.ndarray | None  #: None unless every score is in [0, 1]
    confidence_level: float = 0.95
    weighted: bool = field(default=False, repr=False)
    #: further columns asked of :func:`by_group` (operating points, calibration):
    #: name -> ndarray of shape (n_groups,), in the order asked
    extra: dict = field(default_factory=dict, repr=False)

    def __len__(self) -> int:
        """The number of groups."""
        return self.n.shape[0]

    def to_dict(self) -> dict:
        """``{column: list}`` with the group columns first (JSON-ready Python scalars;
        ``pos_weight`` and ``neg_weight`` are integers when they are counts, without
        weights)."""
        out = {name: labels.tolist() for name, labels in self.groups.items()}
        for col in _COLUMNS:
            values = getattr(self, col)
            if values is not None:
                if col in ("pos_weight", "neg_weight") and not self.weighted:
                    values = values.astype(np.int64)
                out[col] = values.tolist()
        out.update((name, values.tolist()) for name, values in self.extra.items())
        return out

    def _columns(self) -> dict:
        out = dict(self.groups)
        for col in _COLUMNS:
            values = getattr(self, col)
            if values is not None:
                out[col] = values
        out.update(self.extra)
        return out

    def to_pandas(self):
        """A pandas DataFrame, one row per group (pandas imported here)."""
        import pandas as pd

        return pd.DataFrame(self._columns())

    def to_polars(self):
        """A polars DataFrame, one row per group (polars imported here)."""
        import polars as pl

        return pl.DataFrame(self._columns())

    def __str__(self) -> str:
        return format_table(self)


def format_table(result: GroupMetrics, max_rows: int = 40) -> str:
    """Plain-text table of a :class:`GroupMetrics` (at most ``max_rows`` rows)."""
    names = list(result.groups)
    head = names + ["n", "n_pos", "n_neg", "auc", f"{result.confidence_level:.0%} CI", "AP"]
    if result.log_loss is not None:
        head.append("log_loss")
    head += list(result.extra)
    rows = []
    shown = min(len(result), max_rows)
    for i in range(shown):
        ci = (f"[{result.auc_low[i]:.4f}, {result.auc_high[i]:.4f}]"
              if not math.isnan(result.auc_low[i]) else "-")
        row = [str(result.groups[c][i]) for c in names]
        row += [str(result.n[i]), str(result.n_pos[i]), str(result.n_neg[i]),
                f"{result.auc[i]:.4f}", ci, f"{result.average_precision[i]:.4f}"]
        if result.log_loss is not None:
            row.append(f"{result.log_loss[i]:.4f}")
        row += [f"{values[i]:.4f}" for values in result.extra.values()]
        rows.append(row)
    widths = [max(len(h), *(len(r[j]) for r in rows)) if rows else len(h)
              for j, h in enumerate(head)]
    lines = ["  ".join(h.ljust(w) for h, w in zip(head, widths))]
    lines += ["  ".join(c.rjust(w) if j >= len(names) else c.ljust(w)
                        for j, (c, w) in enumerate(zip(r, widths))) for r in rows]
    if shown < len(result):
        lines.append(f"... {len(result) - shown} more groups (to_pandas() or to_dict() for all)")
    return "\n".join(lines)


@dispatch("y_score")
def by_group(y_true, y_score, groups, *, sample_weight=None, pos_label=None,
             confidence_level=0.95, dropna=False, at_specificity=None, at_sensitivity=None,
             calibration=False, background=False) -> GroupMetrics:
    """ROC AUC with its DeLong interval, AP, log loss and counts for every group.

    One sort of all rows (a counting sort by group, then each group's scores)
    and one segmented sweep give every group's numbers; each equals
    ``roc_auc_score``, ``roc_auc_ci``, ``average_precision_score`` and
    ``log_loss(..., labels=[neg, pos])`` on that group's rows (the AUC and
    the average precision are ``roc_auc_score``'s and
    ``average_precision_score``'s floats, to the last bit: those sweep
    ``2**16`` rows or more in two key ranges, which the segmented sweep
    follows for counts, and a weighted group that large is swept again that
    way).

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Binary labels; the positive class is ``pos_label`` or, by default, the
        greater of the two labels (over all rows).
    y_score : array-like of shape (n_samples,)
        Scores of the positive class (for ``predict_proba`` output, column 1;
        a 2-D array raises).
    groups : array-like of shape (n_samples,) or tuple of them
        Group labels (numbers, strings, booleans, categoricals; numpy, pandas,
        polars or pyarrow), or a tuple of such columns: one group per
        combination that occurs.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative frequency weights (DeLong's variance counts a row of
        weight 2 as two rows).
    pos_label : label, default=None
        The positive class.
    confidence_level : float, default=0.95
        Level of the DeLong intervals.
    dropna : bool, default=False
        Leave out rows whose group label is missing (NaN, None, null, NA)
        instead of raising.
    at_specificity, at_sensitivity : sequence of float, default=None
        Rates in [0, 1]: each group's sensitivity at each specificity (and
        specificity at each sensitivity), as :func:`coords` gives it (pROC's
        interpolation), in columns ``"sensitivity_at_specificity=0.9"`` and
        so on (NaN for a group with one class).
    calibration : bool, default=False
        Add each group's Brier score, its CORP decomposition
        (``miscalibration``, ``discrimination``, ``uncertainty``:
        :func:`brier_decomposition`) and its 15-bin ECE
        (:func:`calibration_error`); the scores must be probabilities.
    background : bool, default=False
        Add each group's BPSN and BNSP AUCs (:func:`subgroup_aucs`: the
        positives outside the group over its negatives, and its positives
        over the negatives outside it) with DeLong's intervals, in columns
        ``bpsn_auc``, ``bpsn_low``, ``bpsn_high``, ``bnsp_auc``, ...

    Returns
    -------
    GroupMetrics
        Arrays per column (``n``, ``n_pos``, ``n_neg``, ``pos_weight``,
        ``neg_weight``, ``auc``, ``auc_low``, ``auc_high``, ``auc_se``,
        ``average_precision``, ``log_loss``) in sorted group order, the
        columns asked by ``at_specificity``, ``at_sensitivity`` and
        ``calibration`` in ``extra``, with ``to_pandas()``, ``to_polars()``
        and ``to_dict()`` (every column).

    Warns
    -----
    UndefinedMetricWarning
        Once, counting the groups with a single class (their AUC and interval
        are NaN; their AP is 0 without positives and 1 without negatives, as
        ``average_precision_score`` gives).  A group whose rows all weigh zero
        gets NaN everywhere; a group with one row of a class (too little for
        DeLong's variance) gets its AUC with a NaN interval.

    See Also
    --------
    roc_auc_ci : One AUC with its interval.
    report : Several models on one set of rows.

    Examples
    --------
    >>> import numpy as np
    >>> from fastauc import by_group
    >>> y = np.array([0, 1, 0, 1, 0, 1, 1, 0])
    >>> s = np.array([0.1, 0.8, 0.3, 0.6, 0.7, 0.9, 0.4, 0.2])
    >>> g = np.array(["a", "a", "a", "a", "b", "b", "b", "b"])
    >>> res = by_group(y, s, g)
    >>> res.groups["group"].tolist(), res.auc.tolist()
    (['a', 'b'], [1.0, 0.75])
    >>> res.to_dict()["average_precision"]
    [1.0, 0.8333333333333333]
    """
    level = v.check_confidence_level(confidence_level)
    if not isinstance(dropna, (bool, np.bool_)):
        raise TypeError(f"dropna must be True or False, got {dropna!r}")
    rates = [("specificity", "sensitivity", check_rates(at_specificity, "at_specificity")),
             ("sensitivity", "specificity", check_rates(at_sensitivity, "at_sensitivity"))]
    if not isinstance(calibration, (bool, np.bool_)):
        raise TypeError(f"calibration must be True or False, got {calibration!r}")
    raw = v.as_array(y_score, "y_score")
    s = v.as_float_array(raw, "y_score")
    is_pos, _, w = v.binary_rows(y_true, sample_weight, pos_label, frequency=True, y_score=s)
    if calibration and s.shape[0] and (s.min() < 0 or s.max() > 1):
        raise ValueError("calibration=True needs probabilities: y_score has values outside "
                         "[0, 1]")
    gc = group_codes(groups, s.shape[0])
    res = group_metrics(is_pos, s, w, gc, level, dropna)
    if any(r[2] for r in rates) or calibration:
        res = dataclasses.replace(res, extra=_group_extras(is_pos, s, w, gc.codes, rates,
                                                           calibration))
    if background:
        res = dataclasses.replace(res, extra={**res.extra, **background_extra(
            is_pos, s, w, gc, level)})
    return res


def _group_extras(is_pos, s, w, codes, rates, calibration) -> dict:
    """Each group's operating points (:func:`coords`, pROC's interpolation) and
    calibration (:func:`brier_decomposition`, and :func:`calibration_error`'s
    15-bin ECE from the group's bin sums): the rows sorted by group once, then
    each group's rows in turn (a group with one class gets NaN rates, and its
    calibration all the same)."""
    order = np.argsort(codes, kind="stable")
    order = order[codes[order] >= 0]  # rows without a group label (dropna) left out
    sc = codes[order]
    present, starts = np.unique(sc, return_index=True)
    ends = np.r_[starts[1:], sc.shape[0]]
    cols = {}
    for given, measure, values in rates:
        for x in values:
            cols[f"{measure}_at_{given}={x:g}"] = np.full(present.shape[0], np.nan)
    if calibration:
        for name in ("brier", "miscalibration", "discrimination", "uncertainty", "ece"):
            cols[name] = np.full(present.shape[0], np.nan)
    for j, (a, b) in enumerate(zip(starts, ends)):
        r = order[a:b]
        yy, ss = is_pos[r], s[r]
        ww = w[r] if w.shape[0] else None
        for given, measure, values in rates:
            if not values:
                continue
            with warnings.catch_warnings():  # one class: NaN, counted by the AUC's warning
                warnings.simplefilter("ignore", v.UndefinedMetricWarning)
                c = coords(yy, ss, list(values), input=given, ret=measure, sample_weight=ww,
                           pos_label=True)
            for x, value in zip(values, c[measure]):
                cols[f"{measure}_at_{given}={x:g}"][j] = value
        if calibration:
            d = brier_decomposition(yy, ss, sample_weight=ww, pos_label=True)
            for name in ("brier", "miscalibration", "discrimination", "uncertainty"):
                cols[name][j] = getattr(d, name)
            wt = np.ones(r.shape[0]) if ww is None else ww
            cols["ece"][j] = binned_error(*table_bins(ss, np.where(yy, wt, 0.0),
                                                      np.where(yy, 0.0, wt), CALIBRATION_BINS),
                                          "l1")
    return cols


def _split_sweeps(auc, ap, sums, n_rows, one_class, is_pos, s, w, codes):
    """Each group's AUC and average precision as ``roc_auc_score`` and
    ``average_precision_score`` compute them from the group's rows, to the
    last bit, where the one segmented sweep can differ (``auc`` and ``ap``
    updated in place): from ``CHUNK_MIN`` rows on, ``sorted_tallies`` sums
    two key ranges apart, which changes the rounding of the
    average-precision numerator, of weighted areas (and of counts past
    2**53).  Unweighted, the segmented sweep has summed the numerator that
    way too (``SEG_AP_SPLIT``: the same terms, counts being exact).
    Weighted, the lower range starts from numpy's sum of the upper range's
    weights: those groups (and unweighted ones past 2**53 pairs) are
    gathered in row order with one radix sort of their few codes and swept
    as ``sorted_tallies`` sweeps them.
    """
    tp, fp = sums[:, SEG_TP], sums[:, SEG_FP]
    split = n_rows >= CHUNK_MIN
    if not w.shape[0]:
        counted = np.flatnonzero(split & (tp > 0))
        ap[counted] = sums[counted, SEG_AP_SPLIT] / tp[counted]
        redo = split & ~one_class & (2.0 * tp * fp >= 2.0**53)
    else:  # the average precision needs positive weight, the AUC both classes'
        redo = split & (tp > 0)
    big = np.flatnonzero(redo)
    if not big.shape[0]:
        return
    slot = np.full(auc.shape[0], -1, np.int32 if big.shape[0] < 2**15 else np.int64)
    slot[big] = np.arange(big.shape[0])
    which = slot[codes]
    rows = np.flatnonzero(which >= 0)
    code = which[rows].astype(np.int16 if big.shape[0] < 2**15 else np.int64)
    rows = rows[np.argsort(code, kind="stable")]  # each group's rows, in row order
    ends = np.cumsum(n_rows[big])
    for g, a, b in zip(big, ends - n_rows[big], ends):
        r = rows[a:b]
        t = sorted_tallies(is_pos[r], s[r], w[r] if w.shape[0] else w, curve=False)
        if t.total_pos > 0 and t.total_neg > 0:  # binary_auc's and binary_ap's floats
            auc[g] = t.area2 / (2.0 * t.total_pos * t.total_neg)
        ap[g] = t.ap_num / t.total_pos


def group_metrics(is_pos, s, w, gc, level, dropna=False, name="y_score",
                  warn=True) -> GroupMetrics:
    """``by_group`` on validated rows and their group codes ``gc`` (``report``
    codes its ``by`` once for all its models)."""
    is_pos, s, w, codes = gc.labelled(is_pos, s, w, dropna)
    n_groups = gc.n_groups
    sums, stats, rows, loss = grouped_sums(is_pos, s, w, codes, n_groups, moments=True,
                                           name=name)
    tp, fp = sums[:, SEG_TP], sums[:, SEG_FP]
    with np.errstate(divide="ignore", invalid="ignore"):
        auc = sums[:, SEG_AREA2] / (2.0 * tp * fp)
        ap = np.where(tp > 0, sums[:, SEG_AP] / tp, np.where(fp > 0, 0.0, np.nan))
    one_class = (tp == 0) | (fp == 0)
    auc[one_class] = np.nan
    _split_sweeps(auc, ap, sums, rows[:, 0], one_class, is_pos, s, w, codes)
    var = delong_variance(stats)
    se, low, high = wald_bounds(auc, var, level)
    n_in, n_pos = rows[:, 0], rows[:, 1]
    kept = n_in > 0  # integer labels are coded by offset: codes without rows are dropped
    if not kept.all():
        n_in, n_pos, tp, fp, auc, ap, low, high, se = (
            a[kept] for a in (n_in, n_pos, tp, fp, auc, ap, low, high, se))
        one_class = one_class[kept]
        loss = None if loss is None else loss[kept]
        labels = [lab[kept] for lab in gc.labels]
        n_groups = int(np.count_nonzero(kept))
    else:
        labels = gc.labels
    n_bad = int(np.count_nonzero(one_class))
    if n_bad and warn:
        v.warn_undefined(
            f"{v.ONE_CLASS} ({n_bad} of {n_groups} groups have a single class; their AUC "
            "is NaN)")
    return GroupMetrics(
        groups=dict(zip(gc.names, labels)), n=n_in, n_pos=n_pos, n_neg=n_in - n_pos,
        pos_weight=tp, neg_weight=fp, auc=auc, auc_low=low, auc_high=high, auc_se=se,
        average_precision=ap, log_loss=loss, confidence_level=level,
        weighted=bool(w.shape[0]))
