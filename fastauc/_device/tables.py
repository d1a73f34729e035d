"""Results of the distinct-score table on the device: the device sorts the rows
and tallies each distinct score's class weights (``tallies.curve``); the table
(one entry per distinct score) comes to the host, where the same functions as
the CPU path's finish: pROC's coordinates (``_coords``), CORP's PAV fit and the
Brier decomposition (``_reliability``), the binned calibration error
(``_probabilities``).  Anything unusual (errors, one class, string labels)
returns ``HOST``: the CPU path then answers with its own words."""

from __future__ import annotations

import numpy as np

from .._coords import _Curve, coords_of_curve
from .._curves import warn_roc_totals
from .._probabilities import binned_error, check_n_bins, check_option, table_bins
from .._reliability import binned_curve, decomposition, isotonic_curve
from .._table import Table, float_keys
from . import tallies as t
from . import validation as dv
from .arrays import HOST


def _host_curve(e, is_pos, s, w):
    """The device's tallies at every distinct score (descending), on the host:
    ``(scores, tps, fps)``, rows of zero weight left out."""
    c = t.curve(e, is_pos, s, w)
    return (np.asarray(e.host(c.thresholds), np.float64), np.asarray(e.host(c.tps), np.float64),
            np.asarray(e.host(c.fps), np.float64))


def coords(e, y_true, y_score, x, input, ret, sample_weight, pos_label, best_method,
           best_weights):
    """``coords``: the device's curve, then pROC's coordinates of it."""
    y_true = dv.labels_first(e, y_true)
    s = dv.scores(e, y_score, "y_score")
    is_pos, _, w = dv.binary(e, y_true, sample_weight, pos_label, rule="sklearn", y_score=s)
    scores, tps, fps = _host_curve(e, is_pos, s, w)
    total_p = float(tps[-1]) if tps.shape[0] else 0.0
    total_n = float(fps[-1]) if fps.shape[0] else 0.0
    curve = _Curve(scores, np.concatenate(([0.0], tps)), np.concatenate(([0.0], fps)),
                   total_p, total_n)
    if total_p <= 0 or total_n <= 0:
        warn_roc_totals(total_p, total_n)
    return coords_of_curve(curve, x, input, ret, best_method, best_weights)


def _probability_table(e, y_true, y_prob, sample_weight, pos_label, labels01=False):
    """The table of probabilities ``y_prob`` (positive weight, negative weight
    at each distinct one), or ``HOST`` where the CPU path must judge the
    input: non-finite or out-of-range probabilities, a label set other than
    two numbers (``labels01``: {0, 1} or {-1, 1}), anything that raises."""
    try:
        s = dv.scores(e, y_prob, "y_prob", keep_float32=False, finite=False)
        lo, hi = float(s.min()), float(s.max())
        if not (np.isfinite(lo) and np.isfinite(hi)) or lo < 0.0 or hi > 1.0:
            return HOST
        is_pos, classes, w = dv.binary(e, y_true, sample_weight, pos_label, rule="greater",
                                       y_prob=s)
    except (ValueError, TypeError):
        return HOST
    if classes.shape[0] != 2 or classes.dtype.kind not in "biuf":
        return HOST
    if (labels01 or pos_label is None) and classes.tolist() not in ([0, 1], [-1, 1]):
        return HOST  # the CPU path's rule for other labels, with its words
    if w is not None and bool((w < 0).any()):
        return HOST
    scores, tps, fps = _host_curve(e, is_pos, s, w)
    pos = np.diff(tps, prepend=0.0)
    neg = np.diff(fps, prepend=0.0)
    return Table(float_keys(scores), pos, neg)


def reliability_curve(e, y_true, y_prob, method, n_bins, sample_weight, pos_label):
    """``reliability_curve`` of the device's table."""
    check_option("method", method, ("isotonic", "uniform", "quantile"), "reliability_curve")
    n_bins = check_n_bins(n_bins, "reliability_curve")
    table = _probability_table(e, y_true, y_prob, sample_weight, pos_label)
    if table is HOST:
        return HOST
    return isotonic_curve(table) if method == "isotonic" else binned_curve(table, method,
                                                                           n_bins)


def brier_decomposition(e, y_true, y_prob, sample_weight, pos_label):
    """``brier_decomposition`` of the device's table."""
    table = _probability_table(e, y_true, y_prob, sample_weight, pos_label)
    return HOST if table is HOST else decomposition(table)


def calibration_error(e, y_true, y_prob, n_bins, norm, sample_weight):
    """``calibration_error`` of the device's table (its per-bin sums)."""
    n_bins = check_n_bins(n_bins, "calibration_error")
    check_option("norm", norm, ("l1", "l2", "max"), "calibration_error")
    table = _probability_table(e, y_true, y_prob, sample_weight, None, labels01=True)
    if table is HOST:
        return HOST
    return binned_error(*table_bins(table.scores, table.pos, table.neg, n_bins), norm)
