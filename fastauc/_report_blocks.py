"""The report's optional blocks: each model's operating points at chosen
rates (pROC's coordinates with their intervals) and the calibration block
of probabilities (the Brier score, its CORP decomposition and the expected
calibration error), computed by the public functions that define them."""

from __future__ import annotations

import math
import numbers

import numpy as np

from ._kernels.losses import log_loss_sum
from ._parallel import map_each

#: the operating points' inputs: the rate given and the rate read off the curve there
OPERATING_INPUTS = (("specificity", "sensitivity"), ("sensitivity", "specificity"))
CALIBRATION_BINS = 15  #: bins of the report's expected calibration error
_INTERVAL_NAMES = {"wilson": "Wilson", "bootstrap": "bootstrap"}


def check_rates(rates, name):
    """``at_specificity`` / ``at_sensitivity``: None (none), a rate, or a
    sequence of rates in [0, 1], as a tuple of floats."""
    if rates is None:
        return ()
    if isinstance(rates, (numbers.Real, np.number)) or isinstance(rates, str):
        rates = [rates]
    try:
        rates = list(rates)
    except TypeError:
        raise TypeError(f"{name} must be a rate in [0, 1] or a sequence of them, got "
                        f"{rates!r}") from None
    out = []
    for x in rates:
        if isinstance(x, (bool, np.bool_)) or not isinstance(x, (numbers.Real, np.number)):
            raise TypeError(f"{name} must hold numbers (rates in [0, 1]), got {x!r}")
        if not 0.0 <= float(x) <= 1.0:  # NaN fails too
            raise ValueError(f"{name} must hold rates in [0, 1], got {float(x)!r}")
        out.append(float(x))
    return tuple(out)


def check_calibration(calibration):
    """``calibration``: None (for probabilities), True or False."""
    if calibration is None or isinstance(calibration, (bool, np.bool_)):
        return None if calibration is None else bool(calibration)
    raise ValueError(f"calibration must be None (for probabilities), True or False, got "
                     f"{calibration!r}")


def is_probability(c):
    """Every score in [0, 1] (and some score): the calibration block applies."""
    return bool(c.shape[0]) and bool(c.min() >= 0.0) and bool(c.max() <= 1.0)


#: p-values below this are printed as ``p < 1e-300``: a normal tail this far
#: out is at the edge of float64 (it underflows to 0 past z of about 38.5), so
#: the digits say nothing beyond the bound
P_FLOOR = 1e-300


def log_losses(is_pos, columns, w):
    """Each column's log loss (None unless its scores are probabilities), the
    columns in two fixed halves on two threads."""
    cls = is_pos.view(np.uint8).astype(np.int64)
    return map_each(_column_loss, columns, cls, w)


def _column_loss(c, cls, w):
    if c.shape[0] and c.min() >= 0.0 and c.max() <= 1.0:
        return float(np.divide(*log_loss_sum(c.reshape(-1, 1), cls, w)))
    return None


def group_table_dict(result) -> dict:
    """A :class:`~fastauc.GroupMetrics`' ``to_dict()`` with labels JSON can
    hold (dates and other objects as text)."""
    d = result.to_dict()
    for name, labels in result.groups.items():
        if labels.dtype.kind in "Mm":
            d[name] = labels.astype(str).tolist()
        elif labels.dtype.kind == "O":
            d[name] = [x if x is None or isinstance(x, (str, int, float, bool)) else str(x)
                       for x in d[name]]
    return d


def comparison_lines(comparisons, omnibus, k, pct):
    """The report's lines of its tests: the omnibus chi-square (three models
    or more) and each pair's paired DeLong test (with Holm's adjusted p-value
    when there are several pairs)."""
    out = []
    if omnibus is not None:
        out += ["", f"DeLong's test of equal AUCs ({k} models): chi-square = "
                f"{omnibus['statistic']:.3f}, df = {omnibus['df']:g}, "
                f"{format_pvalue(omnibus['pvalue'])}"]
    if comparisons:
        several = len(comparisons) > 1
        out += ["", f"Paired DeLong tests ({pct} CI of the AUC difference"
                + ("; Holm's adjusted p over all pairs" if several else "") + "):"]
        for c in comparisons:
            out.append(f"  {c['a']} - {c['b']}: {c['difference']:+.4f} "
                       f"[{c['low']:+.4f}, {c['high']:+.4f}], z = {c['statistic']:.3f}, "
                       f"{format_pvalue(c['pvalue'])}"
                       + (f", Holm {format_pvalue(c['pvalue_holm'])}" if several else ""))
    return out


def format_pvalue(p) -> str:
    """``"p = 0.0123"``: three significant digits, or ``"p < 1e-300"`` below
    :data:`P_FLOOR` (an underflowed p-value is 0.0, not a zero probability)."""
    if p is None or p != p:
        return "p = nan"
    return f"p < {P_FLOOR:.0e}" if p < P_FLOOR else f"p = {p:.3g}"


def _plain(x):
    """JSON-ready: numpy scalars to Python, NaN/inf to None."""
    if isinstance(x, dict):
        return {str(k): _plain(val) for k, val in x.items()}
    if isinstance(x, (list, tuple)):
        return [_plain(val) for val in x]
    if isinstance(x, (np.floating, float)):
        x = float(x)
        return x if math.isfinite(x) else None
    if isinstance(x, np.integer):
        return int(x)
    if isinstance(x, np.bool_):
        return bool(x)
    return x


def operating_table(m, pct):
    """A model's operating points: the rate given, the other rate there with
    its interval, and the threshold."""
    kinds = sorted({_INTERVAL_NAMES.get(p["interval"], p["interval"])
                    for p in m.operating_points})
    ci = f"{pct} CI ({', '.join(kinds)})"
    out = [f"{m.name}: operating points",
           f"  {'given':<20}{'value':<22}{ci:<22}threshold"]
    for p in m.operating_points:
        low, high = p["low"], p["high"]
        interval = "-" if low is None or high is None or low != low or high != high \
            else f"{low:.4f}-{high:.4f}"
        thr = p["threshold"]
        thr = "interpolated" if thr is None or thr != thr else f"{thr:.6g}"
        out.append(f"  {p['given'] + ' ' + format(p['rate'], '.4g'):<20}"
                   f"{p['measure'] + ' ' + format(p['value'], '.4f'):<22}{interval:<22}{thr}")
    return out
