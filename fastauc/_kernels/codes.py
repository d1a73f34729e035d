"""Group codes: the range of integer labels in one pass."""

from __future__ import annotations

from .._jit import jit


@jit
def int_range(values):
    """``(min, max)`` of a non-empty int64 array."""
    lo = values[0]
    hi = values[0]
    for i in range(values.shape[0]):
        x = values[i]
        if x < lo:
            lo = x
        elif x > hi:
            hi = x
    return lo, hi
