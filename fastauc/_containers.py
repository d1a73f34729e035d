"""Every container a user has, to numpy, without importing its library.

pandas (numpy and nullable extension dtypes, ``Categorical``), polars and
pyarrow (``Array``, ``ChunkedArray``) are recognised by the module their type
comes from, and converted with their own methods; a missing value (``pd.NA``,
``None``, a polars or Arrow null) raises scikit-learn's NaN error, never a
crash or a silent cast.  A plain numpy array returns at once (the hot path at
n = 1e3 pays one ``type()`` check).

The way back, :func:`in_scores_library`: the dispatcher (``fastauc._device``)
hands every public function's result to it, so that array results come back
in the scores' library and device (torch tensors for a tensor, on the CPU
path as on the GPU), whichever engine computed them.

:func:`score_columns` turns the several-models input of ``report`` and
``delong_covariance`` (a 2-D array, a mapping ``{name: scores}``, a pandas or
polars DataFrame, a pyarrow Table, or a list of 1-D arrays) into names and
columns for one (n, k) matrix.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping

import numpy as np

__all__ = ["cuda_device", "in_scores_library", "score_columns", "to_host", "to_numpy"]


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


_DLPACK_CUDA = (2, 13)  # kDLCUDA, kDLCUDAManaged


def cuda_device(x):
    """The CUDA device ordinal ``x`` lives on, or None when it is not a CUDA
    array (numpy arrays, lists, host tensors, scalars).  A CUDA array is a
    PyTorch CUDA tensor, a CuPy array, or any object with
    ``__cuda_array_interface__`` or a DLPack device of type CUDA (JAX); none
    of these libraries is imported to find out."""
    if x is None or type(x) is np.ndarray or isinstance(x, (list, tuple, int, float, str)):
        return None
    lib = _library(x)
    if lib == "torch":
        if not getattr(x, "is_cuda", False):
            return None
        return x.device.index or 0
    if lib == "cupy":
        return int(x.device.id)
    dl = getattr(x, "__dlpack_device__", None)  # JAX, and most array libraries
    if dl is not None:
        try:
            kind, ordinal = dl()
        except Exception:  # noqa: BLE001 - not a DLPack array after all
            return None
        return int(ordinal) if int(kind) in _DLPACK_CUDA else None
    try:  # an instance attribute: a host array of such a library has none
        x.__cuda_array_interface__
    except Exception:  # noqa: BLE001 - AttributeError, or a library's own error
        return None
    return 0


def _from_torch(t):
    """A tensor's values as numpy: detached (a tensor that requires grad is
    read, not differentiated), bfloat16 widened to float32 (exact), a host
    copy of a CUDA tensor, a view of a CPU one."""
    t = t.detach()
    if str(t.dtype) == "torch.bfloat16":
        t = t.float()
    return t.cpu().numpy()


def to_host(x):
    """A CUDA array as a numpy array (a copy); anything else unchanged."""
    return x if cuda_device(x) is None else _host_copy(x)


def _host_copy(x):
    """A CUDA array's host copy, by its library."""
    lib = _library(x)
    if lib == "torch":
        return _from_torch(x)
    if lib == "cupy":
        return x.get()
    if lib in ("jax", "jaxlib"):
        return np.asarray(x)  # JAX copies to the host itself (no CuPy needed)
    import cupy

    return cupy.asnumpy(cupy.asarray(x))


def _torch_home(scores):
    """numpy array -> tensor on the device of the tensor ``scores``."""
    torch = sys.modules["torch"]  # loaded, since scores is one of its tensors
    device = scores.device

    def home(a):
        if not a.flags.writeable or any(step < 0 for step in a.strides):
            a = a.copy()  # torch.from_numpy takes neither (a warning, an error)
        t = torch.from_numpy(a)
        return t if device.type == "cpu" else t.to(device)

    return home


def _cupy_home(scores):
    """numpy array -> CuPy array on the GPU of the CuPy array ``scores``."""
    cupy = sys.modules["cupy"]
    ordinal = int(scores.device.id)

    def home(a):
        with cupy.cuda.Device(ordinal):
            return cupy.asarray(a)

    return home


_HOMES = {"torch": _torch_home, "cupy": _cupy_home}


def in_scores_library(result, scores):
    """``result`` with its numpy arrays (``result`` itself, or the items of a
    returned tuple) in the library and on the device of ``scores``, as
    scikit-learn's array-API rule has it: a torch tensor's results are
    tensors on its device, CPU or CUDA, a CuPy array's are CuPy arrays.  For
    scores of any other kind (numpy, lists, pandas, polars, pyarrow; JAX,
    whose float64 needs ``jax_enable_x64``), and for floats, ``None`` and
    result objects (dataclasses, DataFrames, figures), ``result`` as it is.
    The numpy values are kept: dtype (float64 rates, thresholds in the
    scores' float dtype) and bits."""
    if type(scores) is np.ndarray:  # the hot path: one check
        return result
    make = _HOMES.get(_library(scores))
    if make is None:
        return result
    home = make(scores)

    def back(a):
        return home(a) if isinstance(a, np.ndarray) and a.dtype.kind in "biuf" else a

    if type(result) is tuple:  # a curve's arrays; (value, gradient); a band
        return tuple(back(a) for a in result)
    return back(result)


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
    if lib == "torch":  # CPU tensors (also ones that require grad), and CUDA ones
        return _from_torch(x)
    if cuda_device(x) is not None:  # CuPy, JAX or another library's CUDA array: a host copy
        return _host_copy(x)
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
