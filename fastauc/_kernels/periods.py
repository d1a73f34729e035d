"""``auc_over_time``'s kernels: each row's period and the sort's payload, and
the sweep of all rows that gives every window's AUC sums at once."""

from __future__ import annotations

import numpy as np

from .._jit import jit
from .sorting import bits_to_float, key_to_float_bits

__all__ = ["block_period_weights", "payload_of", "periods_of", "window_sweep"]


@jit(inline="always")
def _class_weights(payload, x, expected, key):
    """A row's positive and negative weight: its class's, or (``expected``)
    ``x p`` and ``x (1 - p)`` with ``p`` its score."""
    if expected:
        a = x * bits_to_float(key_to_float_bits(key))
        return a, x - a
    if payload & 1:
        return x, 0.0
    return 0.0, x


@jit
def window_sweep(keys, payload, pw, k, PW, NW, expected, area, sv10, sv01, ap, lo, hi, PA, NA):
    """Every window's AUC sums in one sweep of all rows (``keys`` ascending,
    read from the top; ``payload`` = ``period << 1 | is_pos``; ``pw`` their
    weights, empty: unit).  Window ``j`` holds periods ``j - k + 1 .. j``;
    ``PW``/``NW`` are its positive and negative weight.  The sweep keeps, per
    window, the positive and negative weight above the current score
    (``k`` windows updated per row), so a row reads its placement in each of
    its ``k`` windows at once:

    - ``area[j]``: the window's pair weight (a positive above a negative,
      ties one half), so its AUC is ``area / (PW NW)``;
    - ``sv10[j]``/``sv01[j]``: the sums of ``w (raw - W / 2)**2`` of the
      positives' (negatives') raw placements (the other class's weight below
      (above), ties one half), for DeLong's variance;
    - ``ap[j]``: the sum of ``w`` times the precision at the row's score.

    ``expected``: each row (weight ``x``, probability ``p`` its score) is a
    positive of weight ``x p`` and a negative of weight ``x (1 - p)`` (the
    expected AUC; only ``area`` is kept).

    Only rows ``lo:hi`` are swept (a block that does not cut a run of tied
    scores), from ``PA``/``NA``: each window's positive and negative weight
    above them (updated in place)."""
    m = PW.shape[0]
    weighted = pw.shape[0] > 0
    PT = np.zeros(m)  # weight at the current score, per window
    NT = np.zeros(m)
    i = hi - 1
    while i >= lo:
        key = keys[i]
        j0 = i - 1
        while j0 >= lo and keys[j0] == key:
            j0 -= 1
        if j0 == i - 1 and not expected:
            # a score of one row (the common case): no tie within the windows
            x = pw[i] if weighted else 1.0
            per = payload[i] >> 1
            top = min(per + k, m)
            if payload[i] & 1:
                for j in range(per, top):
                    raw = NW[j] - NA[j]
                    area[j] += x * raw
                    d = raw - 0.5 * NW[j]
                    sv10[j] += x * d * d
                    tp = PA[j] + x
                    ap[j] += x * (tp / (tp + NA[j]))
                    PA[j] = tp
            else:
                for j in range(per, top):
                    raw = PA[j]
                    d = raw - 0.5 * PW[j]
                    sv01[j] += x * d * d
                    NA[j] += x
            i = j0
            continue
        # the tie group is rows j0 + 1 .. i: its weights, per window
        for q in range(j0 + 1, i + 1):
            per = payload[q] >> 1
            a, b = _class_weights(payload[q], pw[q] if weighted else 1.0, expected, key)
            for j in range(per, min(per + k, m)):
                PT[j] += a
                NT[j] += b
        for q in range(j0 + 1, i + 1):
            per = payload[q] >> 1
            a, b = _class_weights(payload[q], pw[q] if weighted else 1.0, expected, key)
            for j in range(per, min(per + k, m)):
                if a > 0.0:
                    raw = NW[j] - NA[j] - 0.5 * NT[j]
                    area[j] += a * raw
                    if not expected:
                        d = raw - 0.5 * NW[j]
                        sv10[j] += a * d * d
                        tp = PA[j] + PT[j]
                        ap[j] += a * (tp / (tp + NA[j] + NT[j]))
                if b > 0.0 and not expected:
                    raw = PA[j] + 0.5 * PT[j]
                    d = raw - 0.5 * PW[j]
                    sv01[j] += b * d * d
        for q in range(j0 + 1, i + 1):
            per = payload[q] >> 1
            for j in range(per, min(per + k, m)):
                PA[j] += PT[j]
                NA[j] += NT[j]
                PT[j] = 0.0
                NT[j] = 0.0
        i = j0


@jit
def periods_of(t, origin, step, out, exact_floats):
    """Each integer time's period: ``(t - origin) // step`` (``t >= origin``).
    With ``exact_floats`` (every ``t - origin`` below 2**50, exact as a
    float) the quotient is the float quotient's floor, corrected by one where
    its rounding crossed an integer: a float division instead of a 64-bit
    integer one (several times slower)."""
    if not exact_floats:
        for i in range(t.shape[0]):
            out[i] = (t[i] - origin) // step
        return out
    inv = 1.0 / step
    for i in range(t.shape[0]):
        d = t[i] - origin
        q = np.int64(np.float64(d) * inv)
        r = d - q * step
        q += np.int64(r >= step) - np.int64(r < 0)
        out[i] = q
    return out


@jit
def payload_of(codes, is_pos, out, rows, pos_rows):
    """``code << 1 | is_pos`` per row (the sort's payload), and each period's
    rows and positive rows."""
    for i in range(codes.shape[0]):
        c = codes[i]
        p = 1 if is_pos[i] else 0
        out[i] = (c << 1) | p
        rows[c] += 1
        pos_rows[c] += p
    return out


@jit
def block_period_weights(keys, payload, pw, cuts, n_per, out):
    """``out[b, c, q]``: class ``c``'s weight of period ``q`` among rows
    ``cuts[b]:cuts[b + 1]``."""
    weighted = pw.shape[0] > 0
    for b in range(cuts.shape[0] - 1):
        for q in range(cuts[b], cuts[b + 1]):
            x = pw[q] if weighted else 1.0
            out[b, payload[q] & 1, payload[q] >> 1] += x
