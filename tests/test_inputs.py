"""Inputs as users pass them: lists, layouts, byte orders, read-only, Series."""

import numpy as np
import pytest
import sklearn.metrics as skm

import fastauc


class SeriesLike:
    """Minimal stand-in for a pandas/polars Series: only ``__array__``."""

    def __init__(self, values):
        self._values = np.asarray(values)

    def __array__(self, dtype=None, copy=None):
        return self._values if dtype is None else self._values.astype(dtype)

    def __len__(self):
        return len(self._values)


def variants(a):
    yield "list", a.tolist()
    yield "strided", np.repeat(a, 2)[::2]
    big = a.astype(a.dtype.newbyteorder(">"))
    yield "big-endian", big
    ro = a.copy()
    ro.flags.writeable = False
    yield "read-only", ro
    yield "series-like", SeriesLike(a)
    yield "column", a.reshape(-1, 1)


@pytest.mark.parametrize("which", ["y_true", "y_score"])
def test_input_variants(rng, which):
    y = rng.integers(0, 2, 300)
    s = np.round(rng.random(300), 2)
    ref = skm.roc_auc_score(y, s)
    ref_curve = skm.roc_curve(y, s)
    for label, x in variants(y if which == "y_true" else s):
        args = (x, s) if which == "y_true" else (y, x)
        assert abs(fastauc.roc_auc_score(*args) - ref) <= 1e-12, label
        for a, b in zip(fastauc.roc_curve(*args), ref_curve):
            np.testing.assert_allclose(a, b, rtol=0, atol=1e-12, err_msg=label)


def test_pandas_series_if_installed(rng):
    pd = pytest.importorskip("pandas")
    y = rng.integers(0, 2, 300)
    s = rng.random(300)
    assert fastauc.roc_auc_score(pd.Series(y), pd.Series(s)) == pytest.approx(
        skm.roc_auc_score(y, s), abs=1e-12)


def test_results_do_not_depend_on_threads(rng, monkeypatch):
    n = 300_000  # above the two-chunk threshold
    y = rng.integers(0, 2, n)
    s = rng.standard_normal(n)
    w = rng.random(n)
    results = []
    for threads in ("1", "2", "4"):
        monkeypatch.setenv("FASTAUC_NUM_THREADS", threads)
        results.append((fastauc.roc_auc_score(y, s, sample_weight=w),
                        fastauc.average_precision_score(y, s, sample_weight=w),
                        fastauc.roc_curve(y, s, sample_weight=w)[1]))
    for r in results[1:]:
        assert r[0] == results[0][0] and r[1] == results[0][1]
        np.testing.assert_array_equal(r[2], results[0][2])


def test_multiclass_does_not_depend_on_threads(rng, monkeypatch):
    """The classes run in two fixed halves, one per thread, each AUC whole in
    its thread: the same numbers with one thread or several."""
    n, k = 40_000, 5
    y = rng.integers(0, k, n)
    S = np.round(rng.random((n, k)), 3)
    S /= S.sum(axis=1, keepdims=True)
    results = []
    for threads in ("1", "2", "3"):
        monkeypatch.setenv("FASTAUC_NUM_THREADS", threads)
        results.append([fastauc.roc_auc_score(y, S, multi_class=mc, average=avg)
                        for mc, avg in (("ovr", None), ("ovr", "weighted"), ("ovo", "macro"))])
    for r in results[1:]:
        np.testing.assert_array_equal(r[0], results[0][0])
        assert r[1:] == results[0][1:]
    np.testing.assert_allclose(results[0][0], skm.roc_auc_score(y, S, multi_class="ovr",
                                                                average=None), rtol=0, atol=1e-12)
    assert results[0][2] == pytest.approx(skm.roc_auc_score(y, S, multi_class="ovo"), abs=1e-12)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("case", ["normal", "nan", "negative nan", "inf", "-inf", "zeros",
                                  "negative", "subnormal"])
def test_row_block_minmax_of_floats_equals_numpy(dtype, case, rng):
    """The checks' least and greatest float come from the floats' integer
    keys in row blocks on the threads: numpy's values, NaN when any is NaN."""
    from fastauc import _validation

    x = rng.standard_normal(300_000).astype(dtype)  # past the size of row blocks
    if case in ("nan", "negative nan"):
        x[12_345] = np.nan if case == "nan" else -np.nan
    elif case in ("inf", "-inf"):
        x[7] = np.inf if case == "inf" else -np.inf
    elif case == "zeros":
        x = np.abs(x)
        x[3], x[4] = -0.0, 0.0
    elif case == "negative":
        x = -np.abs(x) - 1
    elif case == "subnormal":
        x = x * (dtype(1e-40) if dtype == np.float32 else 1e-310)
    got = _validation.minmax(x)
    if case.endswith("nan"):
        assert np.isnan(got[0]) and np.isnan(got[1])
    else:
        assert got == (x.min(), x.max()) and all(type(g) is np.dtype(dtype).type for g in got)
