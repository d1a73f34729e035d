"""Rows by class, and float32 scores without a flush to zero.

- ``partition``: the stable partition of rows by class, one scan
  (``xp.cumsum`` of the labels) and one scatter, for the two boolean
  gathers (two scans, two scatters, two host synchronisations) it replaces.
- ``find_subnormal``, ``widen`` and ``narrow``: CuPy compiles its kernels
  with ``-ftz=true``, so its float32 comparisons and conversions read a
  subnormal score as zero, where the CPU path orders it.  Scores with a
  subnormal are widened to float64 here (numba-cuda keeps subnormals),
  exactly, and float32 results narrowed here.
- ``make_keys``, ``group_starts`` and ``curve_points``: the curve of
  unweighted float32 scores from one sort of 64-bit keys (score bits and
  label), for an argsort and two gathers by its order.
"""

from __future__ import annotations

import numpy as np

from . import cuda

THREADS = 256  # threads per block (fewer for small inputs)


@cuda.jit(cache=True)
def partition(s, w, label, ahead, n_pos, weighted, out_s, out_w):
    """Positives' scores (and weights, when ``weighted``) to
    ``out_s[:n_pos]``, negatives' to ``out_s[n_pos:]``, each class in input
    order; ``ahead[i]``: the positives among rows ``0..i`` (inclusive)."""
    for i in range(cuda.grid(1), s.shape[0], cuda.gridsize(1)):
        c = ahead[i]
        j = c - 1 if label[i] else n_pos + i - c
        out_s[j] = s[i]
        if weighted:
            out_w[j] = w[i]


@cuda.jit(cache=True)
def find_subnormal(bits, found):
    """``found[0] = 1`` when a float32 (its bits ``bits``, uint32) is
    subnormal, ``found[1] = 1`` when one is NaN or infinite: integer tests,
    which no flush of subnormals to zero touches."""
    for i in range(cuda.grid(1), bits.shape[0], cuda.gridsize(1)):
        b = bits[i]
        exponent = b & 0x7F800000
        if exponent == 0 and (b & 0x007FFFFF) != 0:
            found[0] = 1
        elif exponent == 0x7F800000:
            found[1] = 1


@cuda.jit(cache=True)
def widen(src, dst):
    """``dst[i] = src[i]``: float32 to float64 exactly, subnormals kept (the
    conversion CuPy compiles flushes them to zero)."""
    for i in range(cuda.grid(1), src.shape[0], cuda.gridsize(1)):
        dst[i] = src[i]


_SIGN = np.uint64(0x80000000)
_LOW32 = np.uint64(0xFFFFFFFF)


@cuda.jit(cache=True)
def make_keys(bits, label, keys):
    """``keys[i]``: float32 bits ``bits[i]`` (uint32, no subnormal) as an
    unsigned integer in the scores' order (``-0.0`` as ``0.0``), shifted up
    one bit, plus ``label[i]`` (uint8, 0 or 1): one sort of these orders the
    rows by score, each tie group's negatives first."""
    for i in range(cuda.grid(1), bits.shape[0], cuda.gridsize(1)):
        u = np.uint64(bits[i])
        if u == _SIGN:  # -0.0 ties with 0.0
            u = np.uint64(0)
        if u >= _SIGN:  # negative: the larger the magnitude, the smaller the key
            u = _LOW32 - u
        else:
            u = u + _SIGN
        keys[i] = u * np.uint64(2) + np.uint64(label[i])


@cuda.jit(cache=True)
def group_starts(keys, first, label):
    """For sorted ``keys``: ``first[i] = 1`` where a tie group (a score)
    starts, and ``label[i]``, the row's class (the keys' low bit)."""
    for i in range(cuda.grid(1), keys.shape[0], cuda.gridsize(1)):
        k = keys[i]
        label[i] = np.uint8(k & np.uint64(1))
        if i == 0 or (keys[i - 1] >> np.uint64(1)) != (k >> np.uint64(1)):
            first[i] = 1
        else:
            first[i] = 0


@cuda.jit(cache=True)
def curve_points(keys, positives, starts, n_pos, tps, fps, bits, rows):
    """The curve's points, descending, from the ascending groups: group
    ``g`` (rows ``starts[g]`` up to the next start) is point ``m - 1 - g``,
    with the positives and negatives at or above its score (``positives``:
    the inclusive prefix count of positives in sorted order), its score's
    float32 bits and its rows."""
    m = starts.shape[0]
    n = keys.shape[0]
    for g in range(cuda.grid(1), m, cuda.gridsize(1)):
        a = starts[g]
        below = positives[a - 1] if a > 0 else 0
        tp = n_pos - below
        k = m - 1 - g
        tps[k] = tp
        fps[k] = (n - a) - tp
        rows[k] = (starts[g + 1] if g + 1 < m else n) - a
        u = keys[a] >> np.uint64(1)
        if u >= _SIGN:
            bits[k] = np.uint32(u - _SIGN)
        else:
            bits[k] = np.uint32(_LOW32 - u)


@cuda.jit(cache=True)
def narrow(src, dst):
    """``dst[i] = src[i]``: float64 to float32, rounded to nearest, subnormal
    results kept (CuPy's conversion flushes them to zero)."""
    for i in range(cuda.grid(1), src.shape[0], cuda.gridsize(1)):
        dst[i] = src[i]
