"""The report's optional blocks: each model's operating points at chosen
rates (pROC's coordinates with their intervals) and the calibration block
of probabilities (the Brier score, its CORP decomposition and the expected
calibration error), computed by the public functions that define them."""

from __future__ import annotations

import numbers

import numpy as np

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


def calibration_block(y01, p, sw):
    """The Brier score with its CORP split and the 15-bin ECE of probabilities ``p``."""
    from .calibration import calibration_error
    from .reliability import brier_decomposition

    d = brier_decomposition(y01, p, sample_weight=sw)
    ece = calibration_error(y01, p, n_bins=CALIBRATION_BINS, norm="l1", sample_weight=sw)
    return {"brier": float(d.brier), "miscalibration": float(d.miscalibration),
            "discrimination": float(d.discrimination), "uncertainty": float(d.uncertainty),
            "ece": float(ece)}


def operating_points(y01, p, sw, rates, level, interval, boot=None):
    """The points of ``rates`` (``(given, measure, values)`` triples) of one
    model (labels ``y01``, scores ``p``, weights ``sw``): each value and its
    threshold as :func:`~fastauc.coords` gives them, and its interval as
    :func:`~fastauc.coords_ci` gives it: Wilson's (``interval="wilson"``),
    or the bootstrap's with the options ``boot``."""
    from .coords import coords
    from .coords_intervals import coords_ci

    out = []
    for given, measure, values in rates:
        if not values:
            continue
        x = list(values)
        est = coords(y01, p, x, input=given, ret=[measure, "threshold"], sample_weight=sw)
        if interval == "wilson":
            res = coords_ci(y01, p, x, input=given, ret=[measure], method="wilson",
                            confidence_level=level, sample_weight=sw)
        else:
            res = coords_ci(y01, p, x, input=given, ret=[measure], method="bootstrap",
                            confidence_level=level, sample_weight=sw, **(boot or {}))
        for i, rate in enumerate(values):
            out.append({"given": given, "rate": rate, "measure": measure,
                        "value": float(est[measure][i]), "low": float(res.low[measure][i]),
                        "high": float(res.high[measure][i]), "interval": interval,
                        "threshold": float(est["threshold"][i])})
    return out


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
