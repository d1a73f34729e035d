"""Turn user input into clean contiguous arrays, or raise a clear error.

Everything a kernel receives comes through here: 1-D float64 C-contiguous
scores, bool masks for the positive class, float64 weights (an empty array
stands for "no weights").  Inputs are never modified: arrays are converted
with ``np.asarray`` and copied only when the dtype, byte order, layout or
write flag requires it.
"""

from __future__ import annotations

import math
import os
import sys
import warnings

import numpy as np

from . import _warm
from ._containers import score_columns, sklearn_input_name, to_numpy
from ._parallel import map_units, row_blocks

EMPTY_WEIGHT = np.empty(0, np.float64)


class InvalidParameterError(ValueError, TypeError):
    """A parameter has a value or type the function does not take (both a
    ValueError and a TypeError, like scikit-learn's class of the same name)."""


class UndefinedMetricWarning(UserWarning):
    """A metric is undefined for the input, and a conventional value is returned.

    As in scikit-learn: an AUC of rows with one class only is NaN; a
    precision, recall or F-score with a zero denominator is 0 (or
    ``zero_division``).  The message says which case it is.

    When scikit-learn has been imported, the warnings fastauc emits are of a
    subclass of this class and of ``sklearn.exceptions.UndefinedMetricWarning``,
    so filters and ``pytest.warns`` written for either see them.

    See Also
    --------
    roc_auc_score : Warns and returns NaN when ``y_true`` has one class.
    precision_recall_fscore_support : Warns where ``zero_division="warn"``
        replaces an undefined ratio.
    by_group : Warns once for all the groups with a single class.

    Examples
    --------
    >>> import warnings
    >>> from fastauc import UndefinedMetricWarning, roc_auc_score
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     auc = roc_auc_score([1, 1, 1], [0.2, 0.5, 0.9])
    >>> auc
    nan
    >>> issubclass(caught[0].category, UndefinedMetricWarning)
    True
    >>> print(caught[0].message)
    Only one class is present in y_true. ROC AUC score is not defined in that case.

    To silence it:

    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore", UndefinedMetricWarning)
    ...     roc_auc_score([1, 1, 1], [0.2, 0.5, 0.9])
    nan
    """


_bridged: list = []


def undefined_metric_warning() -> type:
    """The class to emit: fastauc's, joined with scikit-learn's when it is loaded.

    Code that filters or expects scikit-learn's class has imported it, so
    looking in ``sys.modules`` (not importing scikit-learn) is enough and keeps
    ``import fastauc`` free of scikit-learn.
    """
    sk = sys.modules.get("sklearn.exceptions")
    if sk is None:
        return UndefinedMetricWarning
    if not _bridged:
        _bridged.append(type("UndefinedMetricWarning",
                             (UndefinedMetricWarning, sk.UndefinedMetricWarning),
                             {"__module__": __name__, "__doc__": UndefinedMetricWarning.__doc__}))
    return _bridged[0]


_PACKAGE = os.path.dirname(os.path.abspath(__file__)) + os.sep


def caller_stacklevel() -> int:
    """The ``stacklevel`` of the first frame outside fastauc, as seen from the
    function that calls this one (Python 3.12's ``skip_file_prefixes``): a
    warning then points at the user's line however deep the call."""
    frame, level = sys._getframe(2), 2
    while frame is not None and frame.f_code.co_filename.startswith(_PACKAGE):
        frame, level = frame.f_back, level + 1
    return level


def warn_undefined(message: str, stacklevel: int | None = 3) -> None:
    """An :class:`UndefinedMetricWarning`; ``stacklevel=None``: at the user's line."""
    if stacklevel is None:
        stacklevel = caller_stacklevel()
    warnings.warn(message, undefined_metric_warning(), stacklevel=stacklevel)


# scikit-learn's words for a ROC AUC with one class (``roc_auc_score``); every
# function that reports an AUC or an interval of it warns with them and returns NaN
ONE_CLASS = "Only one class is present in y_true. ROC AUC score is not defined in that case."
ZERO_WEIGHT_CLASS = ("All samples of one class have zero weight. ROC AUC score is not "
                     "defined in that case.")


ONE_CLASS_DET = ("Only one class is present in y_true. Detection error tradeoff curve is not "
                 "defined in that case.")
AVERAGES = (None, "micro", "macro", "weighted", "samples")


def check_average(average, options=AVERAGES) -> None:
    if average not in options:
        raise ValueError(f"average must be one of {options}, got {average!r}")


def check_auc_options(average, max_fpr, multi_class) -> None:
    """``roc_auc_score``'s option checks (scikit-learn's words)."""
    check_average(average)
    if max_fpr is not None and not (0 < max_fpr <= 1):
        raise ValueError(f"max_fpr must be in the range (0, 1], got {plain(max_fpr)!r}")
    if multi_class not in ("raise", "ovr", "ovo"):
        raise ValueError(f"multi_class must be 'raise', 'ovr' or 'ovo', got {multi_class!r}")


def multiclass_auc_classes(labels, y_classes, n_cols: int, average, multi_class) -> np.ndarray:
    """``roc_auc_score``'s multiclass options checked (scikit-learn's words):
    the classes that index the score columns (``labels``, or ``y_classes``,
    the sorted distinct labels of ``y_true``)."""
    options = (("micro",) if multi_class == "ovr" else ()) + ("macro", "weighted", None)
    if average not in options:
        raise ValueError(f"average must be one of {options} for multiclass problems")
    if average is None and multi_class == "ovo":
        raise NotImplementedError("average=None is not implemented for multi_class='ovo'.")
    if labels is None:
        if len(y_classes) != n_cols:
            raise ValueError(
                "Number of classes in y_true not equal to the number of columns in "
                f"'y_score' ({len(y_classes)} classes, {n_cols} columns)"
            )
        return y_classes
    labels = np.asarray(labels)
    classes = np.unique(labels)
    if len(classes) != len(labels):
        raise ValueError("Parameter 'labels' must be unique")
    if not np.array_equal(classes, labels):
        raise ValueError("Parameter 'labels' must be ordered")
    if len(classes) != n_cols:
        raise ValueError(
            f"Number of given labels, {len(classes)}, not equal to the number of "
            f"columns in 'y_score', {n_cols}"
        )
    if len(np.setdiff1d(y_classes, classes)):
        raise ValueError("'y_true' contains labels not in parameter 'labels'")
    return classes


ROW_SUM_RTOL = float(np.sqrt(np.finfo(np.float64).eps))  # log_loss's rows summing to one


def warn_row_sums() -> None:
    """``log_loss``'s warning for rows of ``y_proba`` that do not sum to one."""
    warnings.warn("The y_prob values do not sum to one. Make sure to pass probabilities.",
                  UserWarning, stacklevel=caller_stacklevel())


def log_loss_classes(labels, y_classes) -> np.ndarray:
    """``log_loss``'s classes: ``labels`` (checked against ``y_classes``, the
    sorted distinct labels of ``y_true``) or ``y_classes``; scikit-learn's
    errors and warning."""
    if labels is None:
        if len(y_classes) == 1:
            raise ValueError(
                f"y_true contains only one label ({y_classes[0]}). Please provide the list of "
                "all expected class labels explicitly through the labels argument.")
        return y_classes
    given = labels
    labels = np.asarray(labels)
    classes = np.unique(labels)
    if not np.array_equal(classes, labels):
        warnings.warn(
            f"Labels passed were {given}. But this function assumes labels are "
            "ordered lexicographically. Pass the ordered "
            f"labels={classes.tolist()} and ensure that the columns of y_prob "
            "correspond to this ordering.", UserWarning, stacklevel=caller_stacklevel())
    missing = np.setdiff1d(y_classes, classes)
    if len(missing):
        raise ValueError(f"y_true contains values {set(missing.tolist())} not belonging "
                         f"to the passed labels {given}.")
    if len(classes) == 1:
        raise ValueError("The labels array needs to contain at least two labels, got "
                         f"{classes}.")
    return classes


def check_log_loss_columns(p_cols: int, classes, labels_given: bool) -> None:
    """``log_loss``: as many probability columns as classes (one column: two)."""
    n_cols = 2 if p_cols == 1 else p_cols
    if n_cols == len(classes):
        return
    if not labels_given:
        raise ValueError(
            f"y_true and y_proba contain different number of classes: {len(classes)} vs "
            f"{n_cols}. Please provide the true labels explicitly through the labels "
            f"argument. Classes found in y_true: {classes}")
    raise ValueError("The number of classes in labels is different from that in "
                     f"y_proba. Classes found in labels: {classes}")


def undefined_auc(is_pos: np.ndarray) -> str:
    """Why the AUC of rows with a class of no weight is undefined, in
    ``roc_auc_score``'s words: a class absent, or weighing zero in all."""
    n_pos = int(np.count_nonzero(is_pos))
    return ONE_CLASS if n_pos in (0, is_pos.shape[0]) else ZERO_WEIGHT_CLASS


def plain(x):
    """A numpy scalar as the Python value it holds (``0``, not ``np.int64(0)``), for
    messages; anything else unchanged."""
    return x.item() if isinstance(x, np.generic) else x


# ---------------------------------------------------------------- one model's scores

#: scikit-learn's words (``sklearn.utils.validation.column_or_1d``) for scores
#: that are not one column; :func:`not_1d_error` adds what to pass instead
NOT_1D = "y should be a 1d array, got an array of shape {shape} instead."


#: ``np.allclose(row_sums, 1)``'s tolerance (rtol 1e-5, atol 1e-8), which scikit-learn
#: applies to multiclass probabilities
_SUMS_TO_ONE = 1e-5 + 1e-8


def looks_like_proba(S: np.ndarray) -> bool:
    """True for an (n, 2) array whose rows all sum to 1 (``np.allclose``'s default
    tolerance, scikit-learn's for multiclass probabilities) with values in
    [0, 1]: what ``predict_proba`` of a binary classifier returns.  Two models'
    scores are told apart on their first rows (no pass over all of them)."""
    if S.ndim != 2 or S.shape[1] != 2 or S.shape[0] == 0 or S.dtype.kind not in "biuf":
        return False
    for rows in (S[:64], S):  # a sample first: scores of two models fail it at once
        with np.errstate(invalid="ignore", over="ignore"):
            gap = np.add(rows[:, 0], rows[:, 1], dtype=np.float64)
            gap -= 1.0
            np.abs(gap, out=gap)
            if not (gap <= _SUMS_TO_ONE).all():  # NaN is not close either
                return False
    return bool(S.min() >= 0 and S.max() <= 1)


def proba_advice(name: str, positive: int = 1) -> str:
    """What to pass instead of a whole ``predict_proba`` output."""
    which = ("the probability of the greater label, classes_[1]" if positive == 1 else
             "the probability of the smaller label, classes_[0], the pos_label here")
    return (f"{name} has 2 columns whose rows sum to 1, like the output of predict_proba: "
            f"pass the positive class's column, {name}[:, {positive}], {which}")


def not_1d_error(name: str, arr: np.ndarray, *, scores: bool = True) -> ValueError:
    """scikit-learn's error for input that must be 1-D, then what ``name`` must be.

    ``scores``: the input is one model's scores (the advice names the
    positive class's column of a ``predict_proba`` output, and the functions
    that take several models); otherwise plain values (curve points).
    """
    if scores and looks_like_proba(arr):
        detail = proba_advice(name)
    elif scores and arr.ndim == 2:
        detail = (f"{name} must hold one model's scores, shape (n_samples,), got "
                  f"{arr.shape[1]} columns; report() and delong_covariance() take one "
                  "column per model")
    else:
        detail = f"{name} must be 1-D"
    return ValueError(f"{NOT_1D.format(shape=arr.shape)} ({detail})")


def warn_if_proba(S: np.ndarray, name: str, positive: int = 1) -> None:
    """Warn when the several-models input ``S`` ((n, k)) looks like one model's
    ``predict_proba`` output: its columns would be scored as two models (the
    warning points at the user's line)."""
    if looks_like_proba(S):
        warn_proba(name, positive)


def warn_proba(name: str, positive: int = 1, stacklevel: int | None = None) -> None:
    """The warning of :func:`warn_if_proba` (for callers that saw the columns
    in parts); ``stacklevel`` None: at the user's line."""
    if stacklevel is None:
        stacklevel = caller_stacklevel() - 1
    warnings.warn(
        f"{proba_advice(name, positive)}. Its 2 columns are scored as two models: column "
        f"{1 - positive} ranks the rows in the reverse order of column {positive} (its "
        f"AUC is 1 minus column {positive}'s).", UserWarning, stacklevel=stacklevel + 1)


def as_array(x, name: str) -> np.ndarray:
    """Any array-like (pandas, polars, pyarrow included) -> numpy array, unconverted dtype."""
    if type(x) is np.ndarray:
        return x
    if x is None:
        raise InvalidParameterError(f"The '{name}' parameter must be an array-like. Got None "
                                    "instead.")
    if isinstance(x, (str, bytes)) or np.isscalar(x):
        raise InvalidParameterError(f"The '{name}' parameter must be an array-like. Got "
                                    f"{x!r} instead.")
    try:
        return to_numpy(x, name)
    except ValueError as exc:
        if "inhomogeneous" not in str(exc) and "sequence" not in str(exc):
            raise  # a missing value: scikit-learn's NaN error
        raise TypeError(f"{name} could not be converted to an array: {exc}") from exc
    except TypeError as exc:  # pragma: no cover - exotic containers
        raise TypeError(f"{name} could not be converted to an array: {exc}") from exc


def _kernel_ready(arr: np.ndarray, keep_float32: bool = False) -> np.ndarray:
    """C-contiguous, native float64 (or float32 when it is and ``keep_float32``),
    writable: one or two Numba signatures."""
    dtype = np.float32 if keep_float32 and arr.dtype == np.float32 else np.float64
    arr = np.ascontiguousarray(arr, dtype=dtype)
    if not arr.flags.writeable:
        arr = arr.copy()
    return arr


def wide(arr: np.ndarray) -> np.ndarray:
    """``arr`` as float64 (a float32 array kept by ``keep_float32``, widened)."""
    return arr if arr.dtype == np.float64 else arr.astype(np.float64)


def as_float_array(x, name: str, *, ndim=(1,), keep_float32: bool = False) -> np.ndarray:
    """Numeric array-like -> float64 array (1-D; (n, 1) columns are raveled).

    ``ndim`` lists the accepted dimensionalities (``(1,)`` or ``(1, 2)``).
    ``keep_float32``: float32 scores stay float32 (the sort reads them as
    32-bit keys: no widened copy, half the bytes sorted).
    """
    arr = as_array(x, name)
    if arr.dtype.kind not in "biuf":
        if arr.dtype.kind == "c":
            raise ValueError(f"Complex data not supported ({name} has dtype {arr.dtype})")
        if arr.dtype.kind == "O":
            try:
                arr = arr.astype(np.float64)
            except (TypeError, ValueError):
                raise ValueError(
                    f"Unable to convert array of bytes/strings into decimal numbers with "
                    f"dtype='numeric' ({name} must be numeric, got values of dtype object "
                    "that are not numbers)") from None
        else:
            raise ValueError(
                "dtype='numeric' is not compatible with arrays of bytes/strings.Convert your "
                f"data to numeric values explicitly instead. ({name} must be numeric, got "
                f"dtype {arr.dtype})")
    if arr.ndim == 2 and arr.shape[1] == 1 and 1 in ndim and 2 not in ndim:
        arr = arr[:, 0]  # a column: 1-D, as scikit-learn's column_or_1d takes it
    if arr.ndim not in ndim:
        if 2 not in ndim:
            raise not_1d_error(name, arr)
        shapes = " or ".join({1: "(n_samples,)", 2: "(n_samples, n_columns)"}[d] for d in ndim)
        raise ValueError(f"{name} must have shape {shapes}, got an array of shape {arr.shape}")
    if arr.shape[0] == 0:
        raise empty_error(name, arr.shape)
    return _kernel_ready(arr, keep_float32)


def n_rows(x) -> int:
    """Rows of an array-like before conversion (-1 when it has no length)."""
    try:
        return len(x)
    except TypeError:
        return -1


def score_matrix(y_scores, n: int, name: str = "y_scores"):
    """Several models' scores -> ``(names or None, float64 (n, k) array)``.

    Takes a 1-D or (n, k) array, a mapping ``{name: scores}``, a pandas or
    polars DataFrame (column names become model names) or a list of k 1-D
    arrays of length n (see :func:`fastauc._containers.score_columns`).
    """
    names, columns = score_columns(y_scores, n, name)
    if columns is None:
        S = as_float_array(y_scores, name, ndim=(1, 2))
        return None, (S[:, None] if S.ndim == 1 else S)
    if not columns:
        raise ValueError(f"{name} holds no models")
    S = np.empty((columns[0].shape[0], len(columns)), np.float64)
    for j, col in enumerate(columns):
        label = f"{name}[{names[j]!r}]" if names else f"{name}[{j}]"
        col = as_float_array(col, label)
        if col.shape[0] != S.shape[0]:
            raise _inconsistent({f"{name}[0]": S.shape[0], label: col.shape[0]})
        S[:, j] = col
    return names, S


def check_finite(arr: np.ndarray, name: str) -> None:
    """Raise if ``arr`` has NaN or infinite values (scikit-learn's words, then ours)."""
    if not np.isfinite(arr).all():
        raise_non_finite(name, arr)


def raise_non_finite(name: str, arr: np.ndarray) -> None:
    """scikit-learn's "Input y contains NaN." (or infinity), then the count and
    the first position."""
    finite = np.isfinite(arr)
    count = int(arr.size - np.count_nonzero(finite))
    first = np.unravel_index(int(np.argmin(finite)), arr.shape)
    first = int(first[0]) if len(first) == 1 else tuple(int(i) for i in first)
    what = "NaN" if np.isnan(arr).any() else (
        f"infinity or a value too large for {np.dtype(np.float64)!r}")
    raise ValueError(
        f"Input {sklearn_input_name(name)}contains {what}. ({name} has {count} NaN or infinite "
        f"value{'s' if count != 1 else ''}, first at index {first}; remove or impute them "
        "first)"
    )


def _inconsistent(lengths: dict) -> ValueError:
    desc = ", ".join(f"{k} has {n}" for k, n in lengths.items())
    return ValueError("Found input variables with inconsistent numbers of samples: "
                      f"{list(lengths.values())} ({desc})")


def check_lengths(**arrays) -> int:
    """All arrays have the same number of rows; return it."""
    lengths = {k: (v.shape[0] if hasattr(v, "shape") else len(v))
               for k, v in arrays.items() if v is not None}
    if len(set(lengths.values())) > 1:
        raise _inconsistent(lengths)
    return next(iter(lengths.values()))


# Weight sums outside this range are rescaled by a power of two (exact) for the
# results that do not depend on the scale of the weights; products of two sums
# then stay far from float64's overflow and underflow.
_SAFE_TOTAL = (2.0**-400, 2.0**400)


def zero_weights_error() -> ValueError:
    """scikit-learn's error for weights that are all zero, with our detail."""
    return ValueError("Sample weights must contain at least one non-zero number. "
                      "(sample_weight sums to zero: at least one weight must be positive)")


def check_sample_weight(sample_weight, n: int, *, names=("y_true", "y_score"),
                        frequency: bool = False) -> np.ndarray:
    """None -> empty array; otherwise a finite, non-negative float64 (n,) array.

    Weights whose total is too large or too small for float64 arithmetic are
    scaled by a power of two (results invariant to the scale do not change,
    not even in the last bit); with ``frequency=True`` (weights that count
    rows: DeLong, Mann-Whitney) such weights raise instead.
    """
    if sample_weight is None:
        return EMPTY_WEIGHT
    ndim = np.ndim(sample_weight)
    if ndim == 0:
        raise InvalidParameterError("The 'sample_weight' parameter must be an array-like or "
                                    f"None. Got {sample_weight!r} instead.")
    if ndim != 1:
        raise ValueError(f"Sample weights must be 1D array or scalar, got {ndim}D array. "
                         "Expected either a scalar value or a 1D array of length "
                         f"{n}. (sample_weight has shape {np.shape(sample_weight)})")
    w = as_float_array(sample_weight, "sample_weight")
    if w.shape[0] != n:
        raise _inconsistent({**dict.fromkeys(names, n), "sample_weight": w.shape[0]})
    low, top = (float(x) for x in minmax(w))  # NaN or inf show up in one of them
    if not (math.isfinite(low) and math.isfinite(top)):
        raise_non_finite("sample_weight", w)
    if low < 0:
        negative = w < 0
        raise ValueError(
            f"sample_weight contains {int(np.count_nonzero(negative))} negative value(s) "
            f"(first at index {int(np.argmax(negative))}); weights must be >= 0"
        )
    if top == 0:
        raise zero_weights_error()
    if top > _SAFE_TOTAL[0] and top * n < _SAFE_TOTAL[1]:  # top <= total <= top * n
        return w
    with np.errstate(over="ignore"):
        total = float(w.sum())
    if not _SAFE_TOTAL[0] < total < _SAFE_TOTAL[1]:
        if frequency:
            raise ValueError(
                f"sample_weight sums to {total!r}, outside the range float64 arithmetic "
                f"handles for frequency weights ({_SAFE_TOTAL[0]:.3g} to "
                f"{_SAFE_TOTAL[1]:.3g}); this result depends on the scale of the weights "
                "(they count rows), so rescale them to the counts they stand for"
            )
        w = np.ldexp(w, -int(np.frexp(top)[1]))  # exact: multiplies by a power of two
    return w


# ---------------------------------------------------------------- labels

_LEGACY_MULTILABEL = (
    "You appear to be using a legacy multi-label data representation. Sequence of "
    "sequences are no longer supported; use a binary array or sparse matrix instead - the "
    "MultiLabelBinarizer transformer can convert to this format."
)
_BYTES_LABELS = ("Support for labels represented as bytes is not supported. Convert the "
                 "labels to a string or integer format.")


def check_batch_weights(sample_weight, n: int) -> np.ndarray:
    """None -> empty; otherwise finite, non-negative float64 (n,).  Unlike the
    in-memory check, a batch may weigh zero in all (other batches may not)."""
    if sample_weight is None:
        return EMPTY_WEIGHT
    if np.ndim(sample_weight) != 1:
        raise ValueError("sample_weight must be a 1-D array-like of one weight per row, got "
                         f"shape {np.shape(sample_weight)}")
    if np.shape(sample_weight)[0] == 0:
        w = np.empty(0)
    else:
        w = as_float_array(sample_weight, "sample_weight")
    if w.shape[0] != n:
        raise _inconsistent({"y_true": n, "y_score": n, "sample_weight": w.shape[0]})
    if n and not np.isfinite(w).all():
        raise_non_finite("sample_weight", w)
    if n and float(w.min()) < 0:
        negative = w < 0
        raise ValueError(
            f"sample_weight contains {int(np.count_nonzero(negative))} negative value(s) "
            f"(first at index {int(np.argmax(negative))}); weights must be >= 0")
    return w


def empty_error(name: str, shape) -> ValueError:
    return ValueError(f"Found array with 0 sample(s) (shape={shape}) while a minimum of 1 is "
                      f"required. ({name} is empty: at least one sample is required)")


def _is_sequence(x) -> bool:
    return isinstance(x, (list, tuple, np.ndarray)) and not isinstance(x, str)


def as_label_array(y, name: str = "y_true", *, allow_empty: bool = False) -> np.ndarray:
    """Labels -> array (1-D, or 2-D for indicator matrices); (n, 1) columns are raveled.

    Raises scikit-learn's errors for bytes labels, the legacy sequence-of-sequences
    multilabel format, NaN/inf labels and (unless ``allow_empty``) empty input.
    """
    if type(y).__module__.startswith("scipy.sparse"):  # indicator matrices: densify
        y = y.toarray()
    try:
        arr = as_array(y, name)
    except TypeError:
        if isinstance(y, (list, tuple)) and any(_is_sequence(r) for r in y):
            raise ValueError(f"{_LEGACY_MULTILABEL} ({name} is a ragged sequence of "
                             "sequences)") from None
        raise
    if arr.ndim == 2 and arr.shape[1] == 1:
        arr = arr[:, 0]
    if arr.ndim == 0 or (arr.shape[0] == 0 and not allow_empty):
        raise empty_error(name, arr.shape)
    kind = arr.dtype.kind
    if kind == "S" or (kind == "O" and arr.size and isinstance(arr.flat[0], bytes)):
        raise TypeError(f"{_BYTES_LABELS} ({name} holds bytes)")
    if kind == "O" and arr.ndim == 1 and arr.size and _is_sequence(arr[0]):
        raise ValueError(f"{_LEGACY_MULTILABEL} ({name} is a sequence of sequences)")
    if kind == "c":
        raise TypeError(f"{name} must hold class labels, got complex dtype {arr.dtype}")
    if kind == "f" and not np.isfinite(arr).all():
        raise_non_finite(name, arr)
    return arr


def is_continuous(classes: np.ndarray) -> bool:
    return classes.dtype.kind == "f" and bool(np.any(classes != np.floor(classes)))


def unique_labels(y: np.ndarray, name: str = "y_true", bounds=None) -> np.ndarray:
    """Sorted distinct labels, fast for numeric binary labels (no sort).

    Continuous float values raise scikit-learn's "continuous format is not
    supported"; labels that cannot be compared raise its "Mix of label input
    types (string and number)".  ``bounds``: the least and greatest label
    when a pass already found them (numeric ``y``).
    """
    classes = distinct(y, name, bounds)
    if is_continuous(classes):
        raise ValueError(
            f"continuous format is not supported ({name} looks continuous: float values "
            f"{classes[:5]} are not class labels; a binary target is expected)"
        )
    return classes


def distinct(y: np.ndarray, name: str = "y_true", bounds=None) -> np.ndarray:
    """Sorted distinct values of a 1-D label array (no sort for two numeric
    values); ``bounds``, when given, are its least and greatest value."""
    if y.dtype.kind == "b":
        lo, hi = (bool(x) for x in minmax(y))
        return np.array([lo, hi] if lo != hi else [lo])
    if y.dtype.kind in "iuf":
        lo, hi = minmax(y) if bounds is None else bounds
        if lo == hi:
            return np.array([lo])
        if y.dtype.kind in "iu" and int(hi) - int(lo) == 1:  # no integer lies between them
            return np.array([lo, hi])
        if y.size == np.count_nonzero(y == lo) + np.count_nonzero(y == hi):
            return np.array([lo, hi])
        if np.can_cast(y.dtype, np.intp) and 0 <= lo and hi < _COUNTED_LABELS:
            # small class codes: counted in row blocks on the threads (no sort)
            size = int(hi) + 1
            counts = sum(map_units(_bincount, [(y[a:b], size)
                                               for a, b in _check_blocks(y.size)]))
            return np.flatnonzero(counts).astype(y.dtype)
        return np.unique(y)
    try:
        return np.unique(y)
    except TypeError as exc:
        raise ValueError(f"Mix of label input types (string and number); {name} mixes "
                         f"label types that cannot be compared: {exc}") from None


def target_type(y: np.ndarray, name: str = "y_true"):
    """scikit-learn's ``type_of_target`` for an array from :func:`as_label_array`.

    Returns ``(type, y, classes)``: indicator matrices come back as bool
    (nonzero is a label), ``classes`` are the sorted distinct values of a 1-D
    target (None for 2-D).
    """
    if y.ndim == 1:
        if y.shape[0] == 0:
            return "binary", y, y
        if y.dtype.kind == "O" and not isinstance(y[0], str):
            return "unknown", y, None
        classes = distinct(y, name)
        if is_continuous(classes):
            return "continuous", y, classes
        return ("multiclass" if classes.shape[0] > 2 else "binary"), y, classes
    if y.ndim != 2 or 0 in y.shape or y.dtype.kind not in "biuf":
        return "unknown", y, None
    if y.dtype.kind == "b":
        return "multilabel-indicator", y, None
    values = np.unique(y)
    integral = y.dtype.kind in "iu" or not is_continuous(values)
    if values.shape[0] < 3 and integral:
        return "multilabel-indicator", y != 0, None
    if not integral:
        if not np.isfinite(values).all():
            raise_non_finite(name, y)
        return "continuous-multioutput", y, None
    return "multiclass-multioutput", y, None


def _fmt_classes(classes) -> str:
    shown = ", ".join(repr(c.item() if hasattr(c, "item") else c) for c in classes[:10])
    more = f", ... ({len(classes)} in all)" if len(classes) > 10 else ""
    return "{" + shown + more + "}"


def resolve_pos_label(classes: np.ndarray, pos_label):
    """scikit-learn's rule for ``pos_label=None`` (labels {0,1} or {-1,1})."""
    if pos_label is not None:
        return pos_label
    ok = classes.dtype.kind in "biuf" and classes.tolist() in ([0, 1], [-1, 1], [0], [-1], [1])
    if not ok:
        raise ValueError(
            f"y_true takes value in {_fmt_classes(classes)} and pos_label is not specified: "
            "either make y_true take value in {0, 1} or {-1, 1} or pass pos_label explicitly."
        )
    return 1


def require_binary(classes: np.ndarray, pos_label_given: bool, name: str = "y_true") -> None:
    if len(classes) > 2 and not pos_label_given:
        raise ValueError(
            f"multiclass format is not supported ({name} has {len(classes)} classes "
            f"{_fmt_classes(classes)} but a binary target is required here; pass pos_label "
            "to treat one class as positive)"
        )


_MIN_MAX_TYPES = (np.dtype(np.float64), np.dtype(np.float32), np.dtype(np.int64),
                  np.dtype(np.bool_))
# rows from which the checks run in row blocks on the threads (below, one
# pass in the calling thread costs less than waking the threads)
CHECK_BLOCKS_FROM = 1 << 18


_CHECKS = ("checks",)  # the ``_warm`` family of the checks' kernels


def _check_blocks(n: int) -> list:
    return row_blocks(n) if n >= CHECK_BLOCKS_FROM else [(0, n)]


def _checks_ready() -> bool:
    """Whether the checks' kernels are compiled or loaded; while they are
    not (a first call on an empty cache), numpy checks the rows, and
    ``_warm`` compiles them in the background, as for the first call's
    sort (``_table.numpy_tallies``)."""
    return not _warm.numpy_path(_CHECKS)


def warm_checks():
    """Compile or load the checks' kernels for the dtypes they take."""
    from ._kernels.sorting import key_min_max, min_max

    for dtype in _MIN_MAX_TYPES:
        if dtype.kind == "f":
            key_min_max(np.zeros(4, np.uint64 if dtype.itemsize == 8 else np.uint32))
        else:
            min_max(np.zeros(4, np.uint8 if dtype == np.bool_ else dtype), None)
    min_max(np.zeros(4, np.int64), np.empty(4, bool))


_warm.WARMUPS["checks"] = lambda: warm_checks()


def minmax(x: np.ndarray):
    """``(x.min(), x.max())`` of a 1-D numeric array (NaN propagates), in
    row blocks on the threads, each block one pass of a kernel
    (``_kernels.sorting.min_max``; numpy's reductions for other dtypes)."""
    if x.shape[0] < CHECK_BLOCKS_FROM or x.ndim != 1 or x.dtype not in _MIN_MAX_TYPES or \
            not x.flags.c_contiguous or not _checks_ready():
        return x.min(), x.max()
    blocks = _check_blocks(x.shape[0])
    from ._kernels.sorting import key_min_max, min_max

    if x.dtype.kind == "f":
        return _float_minmax(x, blocks, key_min_max)
    data = x.view(np.uint8) if x.dtype == np.bool_ else x
    parts = map_units(min_max, [(data[a:b], None) for a, b in blocks])
    if any(bad for _, _, bad in parts):
        nan = x.dtype.type(np.nan)
        return nan, nan
    lo = min(p[0] for p in parts)
    hi = max(p[1] for p in parts)
    return x.dtype.type(lo), x.dtype.type(hi)


def _float_minmax(x, blocks, kernel):
    """:func:`minmax` of floats from the least and the greatest of their
    order-preserving integer keys (``_kernels.sorting.float_key``: integer
    minima vectorise where float ones with NaN checks do not; 1e7 float64
    on one thread: 4.5 against 14.8 ms).  A NaN's key lies beyond the
    infinities' (below -inf's with the sign bit set, above +inf's without),
    so one comparison of each end finds it; -0.0 comes back as 0.0."""
    width = x.dtype.itemsize * 8
    bits = x.view(np.uint64 if width == 64 else np.uint32)
    parts = map_units(kernel, [(bits[a:b],) for a, b in blocks])
    lo = min(int(p[0]) for p in parts)
    hi = max(int(p[1]) for p in parts)
    sign = 1 << (width - 1)
    inf = (0x7FF << 52) if width == 64 else (0xFF << 23)  # +inf's bits
    if lo < (~(inf | sign) & ((1 << width) - 1)) or hi > (inf | sign):
        nan = x.dtype.type(np.nan)
        return nan, nan
    def value(key):
        b = key ^ sign if key & sign else ~key & ((1 << width) - 1)
        return np.array(b, np.uint64 if width == 64 else np.uint32).view(x.dtype)[()]

    return value(lo), value(hi)


def _equal(y, label, out):
    np.equal(y, label, out=out)


_COUNTED_LABELS = 1 << 16  # integer labels below this are counted, not sorted


def _bincount(y, size):
    return np.bincount(y, minlength=size)


def classes_and_ones(y: np.ndarray, name: str = "y_true"):
    """``(unique_labels(y), ones)``: ``ones`` is the mask ``y == 1`` when the
    labels are {0, 1} of an int64 array of ``CHECK_BLOCKS_FROM`` rows or
    more (integers: least 0 and greatest 1 leave no other label), made in
    the pass that finds the least and greatest label (row blocks on the
    threads), else None."""
    if not (y.shape[0] >= CHECK_BLOCKS_FROM and y.ndim == 1 and y.dtype == np.int64
            and y.flags.c_contiguous) or not _checks_ready():
        return unique_labels(y, name), None
    from ._kernels.sorting import min_max

    ones = np.empty(y.shape[0], bool)
    parts = map_units(min_max, [(y[a:b], ones[a:b]) for a, b in _check_blocks(y.shape[0])])
    lo, hi = y.dtype.type(min(p[0] for p in parts)), y.dtype.type(max(p[1] for p in parts))
    if lo == 0 and hi == 1:
        return np.array([0, 1], y.dtype), ones
    return unique_labels(y, name, (lo, hi)), None


def positive_mask(y: np.ndarray, pos_label) -> np.ndarray:
    """Bool (n,) array: True where ``y == pos_label`` (``y`` itself when it is
    a contiguous bool array and ``pos_label`` is True: callers only read it)."""
    if y.dtype.kind == "b" and y.ndim == 1 and y.flags.c_contiguous and (
            pos_label is True or (isinstance(pos_label, np.bool_) and pos_label)):
        return y
    blocks = _check_blocks(y.shape[0]) if y.ndim == 1 and y.shape[0] >= CHECK_BLOCKS_FROM \
        else [(0, 0)]
    if len(blocks) > 1 and y.dtype.kind in "biuf" and isinstance(
            pos_label, (bool, int, float, np.bool_, np.integer, np.floating)):
        mask = np.empty(y.shape[0], bool)  # numbers: compared in row blocks on the threads
        map_units(_equal, [(y[a:b], pos_label, mask[a:b]) for a, b in blocks])
        return mask
    mask = np.asarray(y == pos_label)
    if mask.shape != y.shape:  # comparison of incompatible types
        mask = np.zeros(y.shape, bool)
    return np.ascontiguousarray(mask, dtype=bool)


def binary_rows(y_true, sample_weight=None, pos_label=None, *, rule="greater",
                frequency=False, **arrays):
    """Validate a binary target and the arrays that go with it (same length).

    ``rule`` says what ``pos_label=None`` means: ``"greater"`` takes the
    greater label (``roc_auc_score``'s rule), ``"sklearn"`` needs labels
    {0, 1} or {-1, 1} (the curves' rule).  Returns ``(is_pos, classes,
    weight)``; a single class is allowed here (callers decide).  ``frequency``
    is passed to :func:`check_sample_weight`.
    """
    return _binary_rows_of(_binary_y(y_true), sample_weight, pos_label, rule, frequency,
                           arrays)


def _binary_y(y_true) -> np.ndarray:
    y = as_label_array(y_true)
    if y.ndim != 1:
        raise ValueError(
            f"{target_type(y)[0]} format is not supported (y_true has shape {y.shape}; a "
            "binary target of shape (n_samples,) is required by this function)"
        )
    return y


def _binary_rows_of(y, sample_weight, pos_label, rule, frequency, arrays):
    n = check_lengths(y_true=y, **arrays)
    w = check_sample_weight(sample_weight, n, names=("y_true", *arrays), frequency=frequency)
    classes, ones = classes_and_ones(y)
    require_binary(classes, pos_label is not None)
    if pos_label is None and rule == "greater":
        pos_label = classes[-1]
    else:
        pos_label = resolve_pos_label(classes, pos_label)
    if ones is not None and pos_label == 1:
        return ones, classes, w
    return positive_mask(y, pos_label), classes, w


def check_multilabel_indicator(y: np.ndarray, name: str = "y_true") -> np.ndarray:
    """2-D indicator matrix -> bool array, or scikit-learn's "... format is not supported"."""
    kind, y, _ = target_type(y, name)
    if kind != "multilabel-indicator":
        raise ValueError(f"{kind} format is not supported ({name} is 2-D, so it must be a "
                         "multilabel indicator matrix of 0/1 values)")
    return y


def check_choice(value, name: str, options) -> None:
    if value not in options:
        raise ValueError(f"{name} must be one of {tuple(options)}, got {plain(value)!r}")


def check_confidence_level(confidence_level) -> float:
    if isinstance(confidence_level, bool) or not isinstance(
        confidence_level, (int, float, np.integer, np.floating)
    ):
        raise TypeError(f"confidence_level must be a number, got {plain(confidence_level)!r}")
    if not 0.0 < float(confidence_level) < 1.0:
        raise ValueError(f"confidence_level must be in (0, 1), got {plain(confidence_level)!r}")
    return float(confidence_level)


def check_positive_int(value, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{name} must be an integer, got {plain(value)!r}")
    if value < 1:
        raise ValueError(f"{name} must be at least 1, got {plain(value)!r}")
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
        raise ValueError(f"random_state must be non-negative, got {plain(random_state)!r}")
    rng = np.random.default_rng(random_state)
    return rng.integers(0, 2**64, dtype=np.uint64, endpoint=False)


def binary_target(y_true, y_score, sample_weight, pos_label, *, default_rule: str,
                  frequency: bool = False, keep_float32: bool = False):
    """Validate a binary problem with one score column.

    Returns ``(is_pos, score, weight, classes, dtype)``: :func:`binary_rows`'
    answer with the scores as float64 (float32 ones kept with
    ``keep_float32``, for callers that only sort them) and their original
    dtype.  ``default_rule`` is ``binary_rows``' ``rule``.
    """
    y = _binary_y(y_true)
    raw = as_array(y_score, "y_score")
    s = as_float_array(raw, "y_score", keep_float32=keep_float32)
    is_pos, classes, w = _binary_rows_of(y, sample_weight, pos_label, default_rule, frequency,
                                         {"y_score": s})
    return is_pos, s, w, classes, raw.dtype
