"""Checks of a binary target with one column of predicted probabilities,
then its distinct-probability table: what ``reliability`` builds on.

The checks and their words are scikit-learn's (``brier_score_loss``), as
``calibration`` raises them for its binary Brier score; this module holds
them outside a public module so that any family of probability metrics can
import them (``calibration``'s private copies can import these instead).
"""

from __future__ import annotations

import numpy as np

from . import _validation as v
from ._table import Table

__all__ = ["binary_probability_rows", "binary_probability_table", "check_n_bins", "check_option",
           "check_range"]


def check_option(name, value, options, func):
    """scikit-learn's parameter error for a str option outside ``options``."""
    if not isinstance(value, str) or value not in options:
        shown = "{" + ", ".join(repr(o) for o in options) + "}"
        raise v.InvalidParameterError(f"The '{name}' parameter of {func} must be a str among "
                                      f"{shown}. Got {value!r} instead.")
    return value


def check_n_bins(n_bins, func):
    """scikit-learn's parameter error for ``n_bins`` not an int >= 1."""
    if isinstance(n_bins, bool) or not isinstance(n_bins, (int, np.integer)) or n_bins < 1:
        raise v.InvalidParameterError(f"The 'n_bins' parameter of {func} must be an int in the "
                                      f"range [1, inf). Got {n_bins!r} instead.")
    return int(n_bins)


def check_range(p, words="less than"):
    """scikit-learn's errors for probabilities outside [0, 1] (its binary
    check says "less than", its multiclass one "lower than")."""
    _check_bounds(p.min(), p.max(), words)


def _check_bounds(lo, hi, words="less than"):
    if hi > 1:
        raise ValueError(f"y_prob contains values greater than 1: {hi} (y_proba must be "
                         "probabilities)")
    if lo < 0:
        raise ValueError(f"y_prob contains values {words} 0: {lo} (y_proba must be "
                         "probabilities)")


def binary_pos_label(classes, pos_label):
    """The positive class: ``pos_label``; else 1 for labels {0, 1} or
    {-1, 1} (or one of them), else the greater numeric label; string labels
    need ``pos_label`` (scikit-learn's ``brier_score_loss``)."""
    if pos_label is not None:
        return pos_label
    if classes.dtype.kind in "OUS":
        return v.resolve_pos_label(classes, None)  # raises unless {0, 1} or {-1, 1}
    if classes.tolist() in ([0, 1], [-1, 1], [0], [-1], [1]):
        return 1
    return classes[-1]


def binary_probability_rows(y_true, y_prob, sample_weight, pos_label, name="y_prob",
                            bounds=False):
    """scikit-learn's checks of a binary target and one probability column
    (in its order: finite, lengths, weights, a binary target, [0, 1]);
    ``(is_pos, p, w)`` as ``Table.from_rows`` and ``sorted_runs`` take them,
    and with ``bounds`` the probabilities' range, ``(lo, hi)``, after them."""
    p = v.as_float_array(y_prob, name)
    y = v.as_label_array(y_true)
    lo, hi = v.minmax(p) if p.shape[0] else (0.0, 0.0)  # one pass: NaN, inf, range
    if not (np.isfinite(lo) and np.isfinite(hi)):
        v.raise_non_finite(name, p)
    n = v.check_lengths(**{name: p, "y_true": y})
    w = v.check_sample_weight(sample_weight, n, names=(name, "y_true"))
    ones = None
    if y.ndim == 1 and y.dtype.kind in "biuf" and n:  # classes and the 1s in one pass
        classes, ones = v.classes_and_ones(y)
        kind = "continuous" if v.is_continuous(classes) else (
            "multiclass" if classes.shape[0] > 2 else "binary")
    else:
        kind, y, classes = v.target_type(y)
    if kind != "binary":
        raise ValueError(f"The type of the target inferred from y_true is {kind} but should be "
                         f"binary according to the shape of {name}.")
    _check_bounds(lo, hi)
    pos_label = binary_pos_label(classes, pos_label)
    is_pos = ones if ones is not None and pos_label == 1 else v.positive_mask(y, pos_label)
    return (is_pos, p, w, (float(lo), float(hi))) if bounds else (is_pos, p, w)


def binary_probability_table(y_true, y_prob, sample_weight, pos_label, name="y_prob") -> Table:
    """:func:`binary_probability_rows`, then the table of the rows (rows of
    zero weight left out)."""
    is_pos, p, w = binary_probability_rows(y_true, y_prob, sample_weight, pos_label, name)
    return Table.from_rows(is_pos, p, w, name=name)


def linspace_edges(n_bins):
    """``n_bins + 1`` equally spaced edges from 0 to 1 as ``torch.linspace``
    rounds them on one element at a time: ``i * step`` in the lower half,
    ``1 - (n_bins - i) * step`` in the upper half (``calibration_error``'s)."""
    step = 1.0 / n_bins
    i = np.arange(n_bins + 1, dtype=np.float64)
    return np.where(i < (n_bins + 1) // 2, step * i, 1.0 - step * (n_bins - i))


def table_bins(probs, pos, neg, n_bins):
    """``calibration_error``'s per-bin sums of a distinct-score table (the
    probabilities ``probs`` with their class weights): ``(weight, weighted
    probability, positive weight)`` in ``n_bins + 1`` bins closed on the left,
    1 alone in the last."""
    idx = np.searchsorted(linspace_edges(n_bins), probs, side="right") - 1
    tot = pos + neg
    n = n_bins + 1
    return np.stack((np.bincount(idx, tot, n), np.bincount(idx, tot * probs, n),
                     np.bincount(idx, pos, n)))


def binned_error(total, sums, true, norm):
    """The calibration error of per-bin sums: the gaps between each bin's
    frequency and mean probability, averaged by weight (``"l1"``), their
    root mean square (``"l2"``) or the largest (``"max"``)."""
    kept = total != 0
    gap = np.abs(true[kept] - sums[kept]) / total[kept]
    prop = total[kept] / total.sum()
    if norm == "l1":
        return float(gap @ prop)
    if norm == "max":
        return float(gap.max())
    return float(np.sqrt(np.square(gap) @ prop))
