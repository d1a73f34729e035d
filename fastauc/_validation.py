"""Turn user input into clean contiguous arrays, or raise a clear error.

Everything a kernel receives comes through here: 1-D float64 C-contiguous
scores, bool masks for the positive class, float64 weights (an empty array
stands for "no weights").  Inputs are never modified: arrays are converted
with ``np.asarray`` and copied only when the dtype, byte order, layout or
write flag requires it.
"""

from __future__ import annotations

import warnings

import numpy as np

EMPTY_WEIGHT = np.empty(0, np.float64)


class UndefinedMetricWarning(UserWarning):
    """A metric is undefined for the input (for example only one class is
    present); the function returns NaN, as scikit-learn does."""


def warn_undefined(message: str) -> None:
    warnings.warn(message, UndefinedMetricWarning, stacklevel=3)


def _asarray(x, name: str) -> np.ndarray:
    if x is None:
        raise TypeError(f"{name} must be array-like, got None")
    if isinstance(x, (str, bytes)) or np.isscalar(x):
        raise TypeError(f"{name} must be array-like, got a scalar {x!r}")
    try:
        arr = np.asarray(x)
    except Exception as exc:  # pragma: no cover - exotic containers
        raise TypeError(f"{name} could not be converted to an array: {exc}") from exc
    return arr


def _kernel_ready(arr: np.ndarray) -> np.ndarray:
    """C-contiguous, native float64, writable (one Numba signature)."""
    arr = np.ascontiguousarray(arr, dtype=np.float64)
    if not arr.flags.writeable:
        arr = arr.copy()
    return arr


def as_float_array(x, name: str, *, ndim=(1,)) -> np.ndarray:
    """Numeric array-like -> float64 array (1-D; (n, 1) columns are raveled).

    ``ndim`` lists the accepted dimensionalities (``(1,)`` or ``(1, 2)``).
    """
    arr = _asarray(x, name)
    if arr.dtype.kind not in "biuf":
        if arr.dtype.kind == "c":
            raise TypeError(f"{name} must be real numbers, got complex dtype {arr.dtype}")
        if arr.dtype.kind == "O":
            try:
                arr = arr.astype(np.float64)
            except (TypeError, ValueError):
                raise TypeError(
                    f"{name} must be numeric, got values of dtype object that are not numbers"
                ) from None
        else:
            raise TypeError(f"{name} must be numeric, got dtype {arr.dtype}")
    if arr.ndim == 2 and arr.shape[1] == 1 and 1 in ndim and 2 not in ndim:
        arr = arr[:, 0]
    if arr.ndim not in ndim:
        shapes = " or ".join({1: "(n_samples,)", 2: "(n_samples, n_columns)"}[d] for d in ndim)
        raise ValueError(f"{name} must have shape {shapes}, got an array of shape {arr.shape}")
    if arr.shape[0] == 0:
        raise ValueError(f"{name} is empty: at least one sample is required")
    return _kernel_ready(arr)


def check_finite(arr: np.ndarray, name: str) -> None:
    """Raise if ``arr`` has NaN or infinite values (counted, first position)."""
    finite = np.isfinite(arr)
    if not finite.all():
        raise_non_finite(name, int(arr.size - np.count_nonzero(finite)),
                         np.unravel_index(int(np.argmin(finite)), arr.shape))


def raise_non_finite(name: str, count: int, first) -> None:
    if isinstance(first, tuple) and len(first) == 1:
        first = first[0]
    first = tuple(int(i) for i in first) if isinstance(first, tuple) else int(first)
    raise ValueError(
        f"{name} contains {count} NaN or infinite value{'s' if count != 1 else ''} "
        f"(first at index {first}); remove or impute them first"
    )


def check_lengths(**arrays) -> int:
    """All arrays have the same number of rows; return it."""
    items = [(k, v) for k, v in arrays.items() if v is not None]
    lengths = {k: (v.shape[0] if hasattr(v, "shape") else len(v)) for k, v in items}
    if len(set(lengths.values())) > 1:
        desc = ", ".join(f"{k} has {n}" for k, n in lengths.items())
        raise ValueError(f"inconsistent numbers of samples: {desc}")
    return next(iter(lengths.values()))


def check_sample_weight(sample_weight, n: int) -> np.ndarray:
    """None -> empty array; otherwise a finite, non-negative float64 (n,) array."""
    if sample_weight is None:
        return EMPTY_WEIGHT
    w = as_float_array(sample_weight, "sample_weight")
    if w.shape[0] != n:
        raise ValueError(
            f"sample_weight has {w.shape[0]} samples but y_true and y_score have {n}"
        )
    finite = np.isfinite(w)
    if not finite.all():
        raise_non_finite("sample_weight", int(n - np.count_nonzero(finite)), int(np.argmin(finite)))
    negative = w < 0
    if negative.any():
        raise ValueError(
            f"sample_weight contains {int(np.count_nonzero(negative))} negative value(s) "
            f"(first at index {int(np.argmax(negative))}); weights must be >= 0"
        )
    if not (w > 0).any():
        raise ValueError("sample_weight sums to zero: at least one weight must be positive")
    return w


# ---------------------------------------------------------------- labels

def as_label_array(y, name: str = "y_true") -> np.ndarray:
    arr = _asarray(y, name)
    if arr.ndim == 2 and arr.shape[1] == 1:
        arr = arr[:, 0]
    if arr.ndim == 0 or arr.shape[0] == 0:
        raise ValueError(f"{name} is empty: at least one sample is required")
    if arr.dtype.kind == "c":
        raise TypeError(f"{name} must hold class labels, got complex dtype {arr.dtype}")
    if arr.dtype.kind == "f":
        nan = np.isnan(arr)
        if nan.any():
            raise ValueError(
                f"{name} contains {int(np.count_nonzero(nan))} NaN label(s) "
                f"(first at index {int(np.argmax(nan.ravel()))})"
            )
        if np.isinf(arr).any():
            raise ValueError(f"{name} contains infinite labels")
    return arr


def unique_labels(y: np.ndarray, name: str = "y_true") -> np.ndarray:
    """Sorted distinct labels, fast for numeric binary labels (no sort)."""
    if y.dtype.kind == "b":
        lo, hi = bool(y.min()), bool(y.max())
        return np.array([lo, hi] if lo != hi else [lo])
    if y.dtype.kind in "iuf":
        lo, hi = y.min(), y.max()
        if lo == hi:
            classes = np.array([lo])
        elif y.size == np.count_nonzero(y == lo) + np.count_nonzero(y == hi):
            classes = np.array([lo, hi])
        else:
            classes = np.unique(y)
    else:
        try:
            classes = np.unique(y)
        except TypeError as exc:
            raise TypeError(f"{name} mixes label types that cannot be compared: {exc}") from None
    if classes.dtype.kind == "f" and np.any(classes != np.floor(classes)):
        raise ValueError(
            f"{name} looks continuous (float values {classes[:5]} are not class labels); "
            "a binary target with two classes is expected"
        )
    return classes


def _fmt_classes(classes) -> str:
    shown = ", ".join(repr(c.item() if hasattr(c, "item") else c) for c in classes[:10])
    more = f", ... ({len(classes)} in all)" if len(classes) > 10 else ""
    return "{" + shown + more + "}"


def resolve_pos_label(classes: np.ndarray, pos_label):
    """scikit-learn's rule for ``pos_label=None`` (labels {0,1} or {-1,1})."""
    if pos_label is not None:
        return pos_label
    ok = classes.dtype.kind not in "OUS" and len(classes) <= 2 and any(
        len(classes) == len(ref) and np.all(classes == np.array(ref))
        for ref in ([0, 1], [-1, 1], [0], [-1], [1])
    )
    if not ok:
        raise ValueError(
            f"y_true takes value in {_fmt_classes(classes)} and pos_label is not specified: "
            "either make y_true take value in {0, 1} or {-1, 1} or pass pos_label explicitly."
        )
    return 1


def require_binary(classes: np.ndarray, pos_label_given: bool, name: str = "y_true") -> None:
    if len(classes) > 2 and not pos_label_given:
        raise ValueError(
            f"{name} has {len(classes)} classes {_fmt_classes(classes)} but a binary "
            "target is required here; pass pos_label to treat one class as positive"
        )


def positive_mask(y: np.ndarray, pos_label) -> np.ndarray:
    """Bool (n,) array: True where ``y == pos_label``."""
    mask = np.asarray(y == pos_label)
    if mask.shape != y.shape:  # comparison of incompatible types
        mask = np.zeros(y.shape, bool)
    return np.ascontiguousarray(mask, dtype=bool)


def binary_rows(y_true, sample_weight=None, pos_label=None, *, rule="greater", **arrays):
    """Validate a binary target and the arrays that go with it (same length).

    ``rule`` says what ``pos_label=None`` means: ``"greater"`` takes the
    greater label (``roc_auc_score``'s rule), ``"sklearn"`` needs labels
    {0, 1} or {-1, 1} (the curves' rule).  Returns ``(is_pos, classes,
    weight)``; a single class is allowed here (callers decide).
    """
    y = as_label_array(y_true)
    if y.ndim != 1:
        raise ValueError(f"y_true must have shape (n_samples,), got {y.shape}")
    n = check_lengths(y_true=y, **arrays)
    w = check_sample_weight(sample_weight, n)
    classes = unique_labels(y)
    require_binary(classes, pos_label is not None)
    if pos_label is None and rule == "greater":
        pos_label = classes[-1]
    else:
        pos_label = resolve_pos_label(classes, pos_label)
    return positive_mask(y, pos_label), classes, w


def check_multilabel_indicator(y: np.ndarray, name: str = "y_true") -> np.ndarray:
    """2-D 0/1 indicator matrix -> bool array, or raise."""
    if y.dtype.kind == "b":
        return y
    if y.dtype.kind not in "iuf" or not np.all((y == 0) | (y == 1)):
        raise ValueError(
            f"{name} is 2-D, so it must be a multilabel indicator matrix of 0/1 values"
        )
    return y.astype(bool)


def check_choice(value, name: str, options) -> None:
    if value not in options:
        raise ValueError(f"{name} must be one of {tuple(options)}, got {value!r}")


def check_confidence_level(confidence_level) -> float:
    if isinstance(confidence_level, bool) or not isinstance(
        confidence_level, (int, float, np.integer, np.floating)
    ):
        raise TypeError(f"confidence_level must be a number, got {confidence_level!r}")
    if not 0.0 < float(confidence_level) < 1.0:
        raise ValueError(f"confidence_level must be in (0, 1), got {confidence_level!r}")
    return float(confidence_level)


def check_positive_int(value, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{name} must be an integer, got {value!r}")
    if value < 1:
        raise ValueError(f"{name} must be at least 1, got {value!r}")
    return int(value)


def seed_from_random_state(random_state) -> np.uint64:
    """A 64-bit seed from None, an int, a SeedSequence, a Generator or a RandomState."""
    if isinstance(random_state, np.random.RandomState):
        return np.uint64(random_state.randint(0, 2**63 - 1, dtype=np.int64))
    if isinstance(random_state, bool) or not (
        random_state is None
        or isinstance(random_state, (int, np.integer, np.random.SeedSequence,
                                     np.random.Generator))
    ):
        raise TypeError(
            "random_state must be None, an int, a numpy SeedSequence, Generator or "
            f"RandomState, got {random_state!r}"
        )
    if isinstance(random_state, (int, np.integer)) and random_state < 0:
        raise ValueError(f"random_state must be non-negative, got {random_state!r}")
    rng = np.random.default_rng(random_state)
    return rng.integers(0, 2**64, dtype=np.uint64, endpoint=False)
