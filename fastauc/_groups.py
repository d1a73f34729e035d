"""Group labels to dense integer codes, without importing a dataframe library.

``group_codes`` turns one column of group labels (numpy, list, pandas,
polars or pyarrow; numbers, strings, booleans, categoricals) or a tuple of
such columns (their combinations) into ``codes`` (int64, ``0..G-1`` in the
sorted order of the labels, ``-1`` for a row with a missing label) and the
labels of each code.  Integer labels with a compact range are coded with one
``bincount`` (O(n)); pandas columns with pandas' own ``factorize`` (hashing);
anything else with ``np.unique``.
"""

from __future__ import annotations

import sys

import numpy as np


__all__ = ["GroupCodes", "group_codes"]


class GroupCodes:
    """Dense codes of the rows and the labels of each code."""

    __slots__ = ("codes", "labels", "names", "n_missing", "first_missing")

    def __init__(self, codes, labels, names, n_missing, first_missing):
        self.codes = codes  # int64 (n,), -1 where a label is missing
        self.labels = labels  # list of 1-D arrays (one per column), length G each
        self.names = names  # list of column names
        self.n_missing = n_missing
        self.first_missing = first_missing

    @property
    def n_groups(self) -> int:
        return self.labels[0].shape[0]

    def labelled(self, is_pos, s, w, dropna=True):
        """``(is_pos, s, w, codes)`` of the rows with a group label; a
        missing label without ``dropna`` raises the error that names it."""
        if not self.n_missing:
            return is_pos, s, w, self.codes
        if not dropna:
            raise ValueError(
                f"groups has {self.n_missing} missing label"
                f"{'s' if self.n_missing != 1 else ''} (NaN/None/null), first at index "
                f"{self.first_missing}; pass dropna=True to leave those rows out")
        keep = self.codes >= 0
        return is_pos[keep], s[keep], w[keep] if w.shape[0] else w, self.codes[keep]


def _library(x) -> str:
    return type(x).__module__.partition(".")[0]


def _dense_ints(values: np.ndarray):
    """Codes ``values - min`` of an integer array with a compact range, and the
    labels ``min..max`` (some may have no row: callers drop empty groups);
    ``None`` when the range is too wide."""
    if values.dtype == np.uint64 and values.max() > np.iinfo(np.int64).max:
        return None
    as64 = values.astype(np.int64, copy=False)
    lo, hi = int(as64.min()), int(as64.max())  # numpy's SIMD reductions
    span = hi - lo + 1
    if span > max(2 * values.shape[0], 1 << 16):
        return None
    codes = as64 - lo if lo else as64
    return codes, np.arange(lo, hi + 1).astype(values.dtype)


def _code_values(values: np.ndarray):
    """``(codes, distinct sorted values)`` of a 1-D array without missing values."""
    if values.shape[0] and values.dtype.kind in "iub":
        dense = _dense_ints(values.view(np.uint8) if values.dtype.kind == "b" else values)
        if dense is not None:
            codes, uniq = dense
            return codes, uniq.astype(values.dtype)
    try:
        uniq, codes = np.unique(values, return_inverse=True)
    except TypeError as exc:  # mixed types in an object array
        raise TypeError(f"groups: labels of mixed types cannot be sorted ({exc})") from None
    return codes.reshape(-1).astype(np.int64, copy=False), uniq


def _column(x, name):
    """``(codes with -1 for missing, labels, column name, has_missing)`` of one column."""
    lib = _library(x)
    col_name = getattr(x, "name", None)
    if lib == "pandas" and hasattr(x, "isna"):
        pd = sys.modules["pandas"]
        if x.ndim != 1:
            raise ValueError(f"{name} must be 1-D (a column), got shape {x.shape}")
        codes, uniques = pd.factorize(x, sort=True, use_na_sentinel=True)
        codes = np.asarray(codes, np.int64)
        return codes, np.asarray(uniques), col_name, bool((codes < 0).any())
    if lib == "polars" and hasattr(x, "is_null"):
        pl = sys.modules["polars"]
        missing = x.is_null().to_numpy()
        if isinstance(x.dtype, (pl.Categorical, pl.Enum)):
            x = x.cast(pl.String)
        present = x.drop_nulls().to_numpy()  # the dtype of the labels, not float-with-NaN
        return _with_missing(present, missing, name) + (col_name, bool(missing.any()))
    if lib == "pyarrow" and hasattr(x, "is_null"):
        missing = np.asarray(x.is_null())
        present = np.asarray(x.drop_null().to_numpy(zero_copy_only=False))
        return _with_missing(present, missing, name) + (None, bool(missing.any()))
    values = np.asarray(x)
    if values.ndim != 1:
        raise ValueError(f"{name} must be 1-D (one label per row), got shape {values.shape}")
    missing = None
    if values.dtype.kind == "f":
        missing = np.isnan(values)
    elif values.dtype.kind == "O":
        missing = np.fromiter((v is None or v != v for v in values), bool, values.shape[0])
    elif values.dtype.kind in "Mm":
        missing = np.isnat(values)
    if missing is not None and missing.any():
        return _with_missing(values[~missing], missing, name) + (None, True)
    return _code_values(values) + (None, False)


def _with_missing(present, missing, name):
    """Codes of all rows from the labels of the rows that are not missing."""
    if present.ndim != 1:
        raise ValueError(f"{name} must be 1-D (one label per row), got shape {present.shape}")
    if not missing.any():
        return _code_values(present)
    codes = np.full(missing.shape[0], -1, np.int64)
    c, labels = _code_values(present)
    codes[~missing] = c
    return codes, labels


def group_codes(groups, n: int) -> GroupCodes:
    """Codes of ``groups`` (one column, or a tuple of columns) for ``n`` rows.

    A code may have no row (integer labels are coded by their offset from the
    smallest, so the labels in between are codes too); callers drop the
    groups without rows.
    """
    columns = list(groups) if isinstance(groups, tuple) else [groups]
    if not columns:
        raise ValueError("groups is an empty tuple; give at least one column of labels")
    parts = []
    for j, col in enumerate(columns):
        name = "groups" if len(columns) == 1 else f"groups[{j}]"
        codes, labels, col_name, has_missing = _column(col, name)
        if codes.shape[0] != n:
            raise ValueError(
                "Found input variables with inconsistent numbers of samples: "
                f"[{n}, {codes.shape[0]}] (y_true has {n} rows, {name} {codes.shape[0]})")
        parts.append((codes, labels, str(col_name) if col_name is not None else None,
                      has_missing))
    names = [p[2] or ("group" if len(parts) == 1 else f"group_{j}")
             for j, p in enumerate(parts)]
    missing = None
    if any(p[3] for p in parts):
        missing = np.zeros(n, bool)
        for p in parts:
            missing |= p[0] < 0
    n_missing = 0 if missing is None else int(np.count_nonzero(missing))
    first = int(np.argmax(missing)) if n_missing else -1
    if len(parts) == 1:
        return GroupCodes(parts[0][0], [parts[0][1]], names, n_missing, first)
    # combinations: mixed-radix number of the per-column codes, then the present ones
    if np.prod([float(p[1].shape[0]) for p in parts]) >= 2.0 ** 62:
        raise ValueError(f"groups: {len(parts)} columns have too many label combinations "
                         "to number (2**62 or more)")
    combined = np.zeros(n, np.int64)
    for codes, labels, _, _ in parts:
        combined = combined * labels.shape[0] + np.maximum(codes, 0)
    if n_missing:
        keep = ~missing
        dense, present = _code_values(combined[keep])
        codes = np.full(n, -1, np.int64)
        codes[keep] = dense
    else:
        codes, present = _code_values(combined)
    labels = []
    rest = present
    for _, col_labels, _, _ in reversed(parts):
        size = col_labels.shape[0]
        labels.append(col_labels[rest % size])
        rest = rest // size
    return GroupCodes(codes, labels[::-1], names, n_missing, first)
