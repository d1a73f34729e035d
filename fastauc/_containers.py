"""Every container a user has, to numpy, without importing its library.

pandas (numpy and nullable extension dtypes, ``Categorical``), polars and
pyarrow (``Array``, ``ChunkedArray``) are recognised by the module their type
comes from, and converted with their own methods; a missing value (``pd.NA``,
``None``, a polars or Arrow null) raises scikit-learn's NaN error, never a
crash or a silent cast.  A plain numpy array returns at once (the hot path at
n = 1e3 pays one ``type()`` check).

:func:`score_columns` turns the several-models input of ``report`` and
``delong_covariance`` (a 2-D array, a mapping ``{name: scores}``, a pandas or
polars DataFrame, or a list of 1-D arrays) into names and one (n, k) matrix.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

__all__ = ["score_columns", "to_numpy"]


def sklearn_input_name(name: str) -> str:
    """scikit-learn names labels and weights in "Input ... contains NaN.", not scores."""
    return f"{name} " if name in ("y_true", "y_pred", "sample_weight") else ""


def _missing(name: str, count: int, first) -> ValueError:
    return ValueError(
        f"Input {sklearn_input_name(name)}contains NaN. ({name} has {count} missing value"
        f"{'s' if count != 1 else ''} (NA/None/null), first at index {first}; remove or "
        "impute them first)"
    )


def _library(x) -> str:
    return type(x).__module__.partition(".")[0]


def to_numpy(x, name: str):
    """numpy view (or copy) of ``x``; anything unknown goes through ``np.asarray``."""
    if type(x) is np.ndarray:
        return x
    lib = _library(x)
    if lib == "pandas":
        return _from_pandas(x, name)
    if lib == "polars":
        return _from_polars(x, name)
    if lib == "pyarrow":
        return _from_arrow(x, name)
    return np.asarray(x)


def _from_pandas(x, name):
    if not hasattr(x, "isna"):  # an Index, an array: their own __array__
        return np.asarray(x)
    na = np.asarray(x.isna())
    if na.any():
        flat = na.ravel() if na.ndim == 1 else na.any(axis=1)
        raise _missing(name, int(na.sum()), int(np.argmax(flat)))
    if x.ndim == 2:
        return np.column_stack([_from_pandas(x.iloc[:, j], name) for j in range(x.shape[1])])
    dtype = x.dtype
    if getattr(dtype, "name", "") == "category":
        cat = x.cat if hasattr(x, "cat") else x  # a Series, or a Categorical itself
        return np.asarray(cat.categories)[np.asarray(cat.codes)]
    numpy_dtype = getattr(dtype, "numpy_dtype", None)  # nullable Int64, Float64, boolean
    if numpy_dtype is not None:
        return x.to_numpy(dtype=numpy_dtype)
    return x.to_numpy()


def _from_polars(x, name):
    if hasattr(x, "null_count") and not hasattr(x, "columns"):  # Series
        nulls = x.null_count()
        if nulls:
            raise _missing(name, nulls, int(np.argmax(x.is_null().to_numpy())))
        if x.dtype.__class__.__name__ in ("Categorical", "Enum"):
            return x.cast(str).to_numpy()
        return x.to_numpy()
    if hasattr(x, "columns"):  # DataFrame
        return np.column_stack([_from_polars(x[c], name) for c in x.columns])
    return np.asarray(x)


def _from_arrow(x, name):
    nulls = getattr(x, "null_count", 0)
    if nulls:
        mask = x.is_null()
        mask = mask.to_numpy(zero_copy_only=False) if hasattr(mask, "to_numpy") else mask
        raise _missing(name, int(nulls), int(np.argmax(np.asarray(mask))))
    if str(getattr(x, "type", "")).startswith("dictionary"):
        x = x.cast(x.type.value_type)
    if hasattr(x, "to_numpy"):
        try:
            return x.to_numpy(zero_copy_only=False)
        except TypeError:  # ChunkedArray.to_numpy takes no zero_copy_only
            return x.to_numpy()
    return np.asarray(x)


# ------------------------------------------------------------- several models

def _is_column(x) -> bool:
    return not isinstance(x, (str, bytes)) and np.ndim(to_numpy(x, "y_scores")) == 1 \
        if hasattr(x, "__len__") else False


def score_columns(y_scores, n: int, name: str = "y_scores"):
    """``(names or None, list of 1-D columns)`` from the several-models forms.

    A mapping gives ``{name: scores}``; a pandas or polars DataFrame its column
    names; a list or tuple whose items are 1-D columns of length ``n`` (numpy
    arrays, Series, lists) gives one model per item, as does a 2-D array's
    columns.  A list of ``n`` rows of scores (numpy's reading) stays rows when
    its items do not have length ``n``, or when they are plain lists or tuples
    of length ``n == k`` (a square list of lists keeps numpy's meaning).
    """
    if isinstance(y_scores, Mapping):
        return [str(k) for k in y_scores], [to_numpy(s, f"{name}[{k!r}]")
                                            for k, s in y_scores.items()]
    columns = getattr(y_scores, "columns", None)
    if columns is not None and _library(y_scores) in ("pandas", "polars"):
        names = [str(c) for c in columns]
        if _library(y_scores) == "pandas":
            return names, [to_numpy(y_scores.iloc[:, j], f"{name}[{c!r}]")
                           for j, c in enumerate(names)]
        return names, [to_numpy(y_scores[c], f"{name}[{c!r}]") for c in names]
    if isinstance(y_scores, (list, tuple)) and y_scores and all(
            _is_column(s) for s in y_scores):
        lengths = {len(s) for s in y_scores}
        arrays_given = not all(isinstance(s, (list, tuple)) for s in y_scores)
        if lengths == {n} and (len(y_scores) != n or arrays_given):
            return None, [to_numpy(s, f"{name}[{i}]") for i, s in enumerate(y_scores)]
    return None, None
