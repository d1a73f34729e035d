"""Every container a user has, to numpy, without importing its library.

pandas (numpy and nullable extension dtypes, ``Categorical``), polars and
pyarrow (``Array``, ``ChunkedArray``) are recognised by the module their type
comes from, and converted with their own methods; a missing value (``pd.NA``,
``None``, a polars or Arrow null) raises scikit-learn's NaN error, never a
crash or a silent cast.  A plain numpy array returns at once (the hot path at
n = 1e3 pays one ``type()`` check).

:func:`score_columns` turns the several-models input of ``report`` and
``delong_covariance`` (a 2-D array, a mapping ``{name: scores}``, a pandas or
polars DataFrame, a pyarrow Table, or a list of 1-D arrays) into names and
columns for one (n, k) matrix.
"""

from __future__ import annotations

import sys
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
    if not hasattr(x, "isna"):  # anything without pandas' missing-value API
        return np.asarray(x)
    dtype = getattr(x, "dtype", None)
    if isinstance(dtype, np.dtype) and dtype.kind in "biuf":
        return x.to_numpy()  # no NA possible beyond NaN, which validation reports
    if x.ndim == 2:  # a DataFrame: all numpy numeric columns in one go, else per column
        if all(isinstance(d, np.dtype) and d.kind in "biuf" for d in x.dtypes):
            return x.to_numpy()
        return np.column_stack([_from_pandas(x.iloc[:, j], name) for j in range(x.shape[1])])
    arr = getattr(x, "array", x)  # a Series' or Index's ExtensionArray: no Series overhead
    na = np.asarray(arr.isna())
    if na.any():
        raise _missing(name, int(np.count_nonzero(na)), int(np.argmax(na)))
    if getattr(dtype, "name", "") == "category":  # a Categorical: its values, categories' dtype
        return np.asarray(arr.categories)[np.asarray(arr.codes)]
    numpy_dtype = getattr(dtype, "numpy_dtype", None)  # nullable Int64, Float64, boolean
    if numpy_dtype is not None:
        return arr.to_numpy(dtype=numpy_dtype)
    return arr.to_numpy()


def _from_polars(x, name):
    pl = sys.modules["polars"]  # loaded, since x is one of its objects
    if isinstance(x, pl.Series):  # isinstance, not hasattr: a Series' misses are slow
        nulls = x.null_count()
        if nulls:
            raise _missing(name, nulls, int(np.argmax(x.is_null().to_numpy())))
        if isinstance(x.dtype, (pl.Categorical, pl.Enum)):
            return x.cast(pl.String).to_numpy()
        return x.to_numpy()
    if isinstance(x, pl.DataFrame):
        return np.column_stack([_from_polars(x[c], name) for c in x.columns])
    return np.asarray(x)


def _from_arrow(x, name):
    if hasattr(x, "column_names"):  # a Table or RecordBatch: one column per field
        return np.column_stack([_from_arrow(x.column(c), name) for c in x.column_names])
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

def _first_is_column(first, n: int, k: int) -> bool:
    """Does a list of ``k`` items starting with ``first`` hold one model per item?

    Decided from the first item, without converting the others (a list of
    ``n`` rows of scores must not cost ``n`` conversions).  With ``k != n``
    items, numpy's reading (``k`` rows) cannot match ``y_true``, so the items
    are models and a length mismatch is reported for them.  With ``n`` items,
    plain lists or tuples are rows (numpy's meaning, a square list of lists
    included) and so are arrays of another length (``list(matrix)``).
    """
    if isinstance(first, (str, bytes)) or np.ndim(first) != 1:
        return False
    if k != n:
        return True
    return not isinstance(first, (list, tuple)) and len(first) == n


def score_columns(y_scores, n: int, name: str = "y_scores"):
    """``(names or None, list of 1-D columns or None)`` from the several-models forms.

    A mapping gives ``{name: scores}``; a pandas or polars DataFrame or a
    pyarrow Table its column names; a list or tuple of 1-D columns (numpy
    arrays, Series, Arrow arrays, lists of length ``n``) gives one model per
    item (see :func:`_first_is_column` for how a list of rows is told
    apart).  ``(None, None)``: read ``y_scores`` as one array (1-D, or
    (n, k) with one model per column).
    """
    if isinstance(y_scores, Mapping):
        return [str(k) for k in y_scores], [to_numpy(s, f"{name}[{k!r}]")
                                            for k, s in y_scores.items()]
    lib = _library(y_scores)
    if lib in ("pandas", "polars") and hasattr(y_scores, "columns"):
        names = [str(c) for c in y_scores.columns]
        if lib == "pandas":
            return names, [to_numpy(y_scores.iloc[:, j], f"{name}[{c!r}]")
                           for j, c in enumerate(names)]
        return names, [to_numpy(y_scores[c], f"{name}[{c!r}]") for c in names]
    if lib == "pyarrow" and hasattr(y_scores, "column_names"):
        names = list(y_scores.column_names)
        return names, [to_numpy(y_scores.column(c), f"{name}[{c!r}]") for c in names]
    if isinstance(y_scores, (list, tuple)) and y_scores and _first_is_column(
            y_scores[0], n, len(y_scores)):
        return None, [to_numpy(s, f"{name}[{i}]") for i, s in enumerate(y_scores)]
    return None, None
