"""The CPU path's input rules, for arrays on the device.

Each check is a few reductions on the device (min, max, all-finite).  Where
one fails, or the input is of a kind the device does not hold (string
labels, object arrays), the CPU path's own validation runs on host copies:
it raises the same exception with the same words, or (for labels the device
cannot compare) gives the answer, which then moves to the device.  The rules
and messages live once, in ``fastauc._validation``.
"""

from __future__ import annotations

import math

import numpy as np

from .. import _validation as v


def _stand_in(n: int) -> np.ndarray:
    """A zero-copy host array of ``n`` rows, for the CPU checks of lengths."""
    return np.broadcast_to(np.empty(1), (n,))


def labels_first(e, y_true):
    """The label checks the CPU path makes before it reads the scores (its
    errors come in the same order): host labels get the CPU rules whole;
    device labels, the empty and 0-d checks."""
    from .arrays import cuda_device

    if cuda_device(y_true) is None:
        return v.as_label_array(y_true, allow_empty=False)
    y = e.asarray(y_true, "y_true")
    if y.ndim == 0 or y.shape[0] == 0:
        v.as_label_array(e.host(y))
    return y


def scores(e, x, name: str, *, ndim=(1,), keep_float32: bool = True, finite: bool = True):
    """``v.as_float_array``'s rules on the device: float64 (float32 kept
    with ``keep_float32``; float16 and bfloat16 widened to float32, exactly),
    1-D (or 2-D when ``ndim`` allows it), non-empty and (``finite``) finite."""
    arr = e.asarray(x, name)
    kind = np.dtype(arr.dtype).kind
    if arr.ndim == 2 and arr.shape[1] == 1 and 2 not in ndim:
        arr = arr[:, 0]
    if kind not in "biuf" or arr.ndim not in ndim or arr.shape[0] == 0:
        v.as_float_array(e.host(arr), name, ndim=ndim)  # raises the CPU path's error
        raise AssertionError("unreachable")  # pragma: no cover
    arr = as_float(e, arr, keep_float32)
    if finite:
        check_finite(e, arr, name)
    return arr


def _kernel(e, kernel, n: int, *args):
    from .._kernels_cuda import sorting

    threads = e.threads(n, sorting.THREADS)
    e.launch(getattr(sorting, kernel), e.blocks(n, threads), threads, *args)


def as_float(e, arr, keep_float32: bool):
    """A contiguous float64 device array of ``arr`` (float32 kept with
    ``keep_float32``, unless one is subnormal), converted exactly: float32
    through numba-cuda (CuPy's conversion flushes subnormals to zero)."""
    xp = e.xp
    if arr.dtype != np.float32:
        return xp.ascontiguousarray(arr, dtype=np.float64)
    arr = xp.ascontiguousarray(arr)
    flat = arr.reshape(-1)
    if keep_float32:
        found = xp.zeros(2, np.int32)
        _kernel(e, "find_subnormal", flat.shape[0], flat.view(np.uint32), found)
        subnormal, non_finite = (int(x) for x in e.host(found))
        if not subnormal:
            e.finite = (arr, not non_finite)  # check_finite reads it: no second pass
            return arr
    wide = xp.empty(flat.shape[0], np.float64)
    _kernel(e, "widen", flat.shape[0], flat, wide)
    return wide.reshape(arr.shape)


def as_float32(e, arr):
    """A float64 device array as float32, rounded to nearest, subnormal
    results kept (through numba-cuda: CuPy's conversion flushes them)."""
    flat = e.xp.ascontiguousarray(arr).reshape(-1)
    out = e.xp.empty(flat.shape[0], np.float32)
    _kernel(e, "narrow", flat.shape[0], flat, out)
    return out.reshape(arr.shape)


def check_finite(e, arr, name: str) -> None:
    """The CPU path's error for NaN or infinite scores: nothing to do where
    :func:`as_float`'s scan of these float32 scores found them finite; else
    one float64 sum (finite exactly when every entry is, unless float64
    entries overflow it: then the entries are looked at)."""
    known = getattr(e, "finite", None)
    if known is not None and known[0] is arr and known[1]:
        return
    if math.isfinite(float(arr.sum(dtype=np.float64))):
        return
    if not bool(e.xp.isfinite(arr).all()):  # the CPU sort's error, for the first
        host = e.host(arr)  # column with a NaN or an infinity (score columns are sorted apart)
        if host.ndim == 2:
            host = host[:, int(np.argmin(np.isfinite(host).all(axis=0)))]
        v.raise_non_finite(name, host)


def weights(e, sample_weight, n: int, names, frequency: bool):
    """``v.check_sample_weight`` on the device: None for no weights, else a
    finite, non-negative float64 array with a positive entry.  Weights whose
    total float64 cannot carry go through the CPU rule (scaled by a power of
    two, or refused for frequency weights)."""
    if sample_weight is None:
        return None
    w = e.asarray(sample_weight, "sample_weight")
    if w.ndim != 1 or w.shape[0] != n or np.dtype(w.dtype).kind not in "biuf":
        v.check_sample_weight(e.host(w), n, names=names, frequency=frequency)
        raise AssertionError("unreachable")  # pragma: no cover
    w = as_float(e, w, False)
    low, top = float(w.min()), float(w.max())
    safe = math.isfinite(low) and math.isfinite(top) and low >= 0 and top > 0
    if not (safe and v._SAFE_TOTAL[0] < top and top * n < v._SAFE_TOTAL[1]):
        checked = v.check_sample_weight(e.host(w), n, names=names, frequency=frequency)
        return e.xp.asarray(checked)  # raised above, or rescaled by a power of two
    return w


def labels(e, y_true, n: int):
    """The labels as a 1-D numeric device array of ``n`` rows, or None where
    the CPU path must judge them (strings, 2-D, NaN, another length)."""
    y = e.asarray(y_true, "y_true")
    if y.ndim == 2 and y.shape[1] == 1:
        y = y[:, 0]
    if np.dtype(y.dtype).kind not in "biuf" or y.ndim != 1 or y.shape[0] != n:
        return None
    if np.dtype(y.dtype).kind == "f" and not bool(e.xp.isfinite(y).all()):
        return None
    return y


def binary(e, y_true, sample_weight, pos_label, *, rule: str, frequency: bool = False,
           classes=None, **arrays):
    """``v.binary_rows`` for the device: ``(is_pos, classes, w)``, ``is_pos`` a
    bool device array, ``classes`` the sorted distinct labels (numpy), ``w``
    a float64 device array or None.  ``arrays`` (name -> device array) give
    the row count the labels must have; ``classes``, the classes of labels
    the caller checked already (``y_true`` is then :func:`labels`' array:
    no second pass over it)."""
    names = ("y_true", *arrays)
    n = next(iter(arrays.values())).shape[0]
    if len({a.shape[0] for a in arrays.values()}) > 1:  # the CPU path's error
        v.check_lengths(y_true=_stand_in(v.n_rows(y_true)),
                        **{k: _stand_in(a.shape[0]) for k, a in arrays.items()})
    y = labels(e, y_true, n) if classes is None else y_true
    if y is None:  # the CPU rules: they raise with their words, or give the mask
        y = e.asarray(y_true, "y_true")
        stand_ins = {k: _stand_in(a.shape[0]) for k, a in arrays.items()}
        host_w = None if sample_weight is None else e.host(e.asarray(sample_weight,
                                                                     "sample_weight"))
        is_pos, classes, w = v.binary_rows(e.host(y), host_w, pos_label, rule=rule,
                                           frequency=frequency, **stand_ins)
        return e.xp.asarray(is_pos), classes, (None if sample_weight is None
                                               else e.xp.asarray(w))
    w = weights(e, sample_weight, n, names, frequency)
    classes = classes_of(e, y) if classes is None else classes
    v.require_binary(classes, pos_label is not None)
    if pos_label is None and rule == "greater":
        pos_label = classes[-1]
    else:
        pos_label = v.resolve_pos_label(classes, pos_label)
    return equal(e, y, pos_label), classes, w


def classes_of(e, y) -> np.ndarray:
    """Sorted distinct labels of a numeric device array, as numpy: two
    reductions when the least and greatest are all there is."""
    xp = e.xp
    dtype = np.dtype(y.dtype)
    if dtype.kind == "b":  # one count (remembered: the sweep reads it again)
        n_true = e.count(y)
        if 0 < n_true < y.size:
            return np.array([False, True])
        return np.array([n_true > 0])
    lo, hi = y.min(), y.max()
    lo_h, hi_h = e.host(lo).item(), e.host(hi).item()
    if lo_h == hi_h:
        classes = np.array([lo_h], dtype)
    elif int(bool(xp.logical_or(y == lo, y == hi).all())):
        classes = np.array([lo_h, hi_h], dtype)
    else:
        classes = e.host(xp.unique(y))
    return v.unique_labels(classes)  # continuous floats raise the CPU path's error


def equal(e, y, pos_label):
    """The positive mask ``y == pos_label`` on the device."""
    if np.dtype(y.dtype).kind == "b":
        return y if bool(pos_label) else ~y
    try:
        mask = y == pos_label
    except TypeError:
        mask = None
    if getattr(mask, "shape", None) != y.shape:  # a label of another type: nothing
        return e.xp.zeros(y.shape[0], bool)  # matches, as on the CPU
    return mask


def looks_like_proba(e, S) -> bool:
    """``v.looks_like_proba`` on the device (the first rows, then all)."""
    if S.ndim != 2 or S.shape[1] != 2 or S.shape[0] == 0:
        return False
    xp = e.xp
    for rows in (S[:64], S):
        gap = xp.abs(rows[:, 0].astype(np.float64) + rows[:, 1] - 1.0)
        if not bool((gap <= v._SUMS_TO_ONE).all()):
            return False
    return bool(S.min() >= 0) and bool(S.max() <= 1)
