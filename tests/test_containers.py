"""Every container a user has, for every public function: the same result as numpy.

The containers (lists, tuples, (n, 1) columns, pandas Series with numpy and
nullable dtypes, pandas Categorical labels, polars Series of every numeric
and boolean dtype, pyarrow Array and ChunkedArray) are made from the same
numpy data; every public function must give exactly the result it gives on
numpy arrays of the values the container holds.  Missing values (pd.NA, None,
nulls) raise scikit-learn's NaN error.
"""

import dataclasses
import subprocess
import sys

import matplotlib
import numpy as np
import pytest

import fastauc

matplotlib.use("Agg")
pd = pytest.importorskip("pandas")
pl = pytest.importorskip("polars")
pa = pytest.importorskip("pyarrow")

N = 120
_rng = np.random.default_rng(7)
Y = _rng.integers(0, 2, N)
S = np.round(_rng.random(N), 2)  # ties
S2 = np.round(_rng.random(N), 2)
W = np.round(_rng.random(N) * 3, 1)
PRED = (S > 0.5).astype(np.int64)
GROUPS = np.arange(N) % 3  # by_group's own label containers: tests/test_groups.py

# function name -> call(y, s, s2, w, pred); s, s2 are probabilities in [0, 1]
FAST = dict(n_resamples=20, random_state=0)
CALLS = {
    "roc_auc_score": lambda y, s, s2, w, p: fastauc.roc_auc_score(y, s, sample_weight=w),
    "average_precision_score":
        lambda y, s, s2, w, p: fastauc.average_precision_score(y, s, sample_weight=w),
    "roc_curve": lambda y, s, s2, w, p: fastauc.roc_curve(y, s, sample_weight=w),
    "precision_recall_curve":
        lambda y, s, s2, w, p: fastauc.precision_recall_curve(y, s, sample_weight=w),
    "det_curve": lambda y, s, s2, w, p: fastauc.det_curve(y, s, sample_weight=w),
    "auc": lambda y, s, s2, w, p: fastauc.auc(*fastauc.roc_curve(y, s)[:2]),
    "log_loss": lambda y, s, s2, w, p: fastauc.log_loss(y, s, sample_weight=w),
    "brier_score_loss": lambda y, s, s2, w, p: fastauc.brier_score_loss(y, s, sample_weight=w),
    "d2_brier_score": lambda y, s, s2, w, p: fastauc.d2_brier_score(y, s, sample_weight=w),
    "d2_log_loss_score":
        lambda y, s, s2, w, p: fastauc.d2_log_loss_score(y, s, sample_weight=w),
    "calibration_curve": lambda y, s, s2, w, p: fastauc.calibration_curve(y, s, n_bins=4),
    "calibration_error":
        lambda y, s, s2, w, p: fastauc.calibration_error(y, s, sample_weight=w),
    "auc_over_time":
        lambda y, s, s2, w, p: fastauc.auc_over_time(y, s, GROUPS * 1.0, freq=1.0,
                                                     sample_weight=w).to_dict(),
    "subgroup_aucs":
        lambda y, s, s2, w, p: fastauc.subgroup_aucs(y, s, GROUPS, sample_weight=w).to_dict(),
    "expected_roc_auc":
        lambda y, s, s2, w, p: dataclasses.astuple(fastauc.expected_roc_auc(s, sample_weight=w))[:5],
    "reliability_curve":
        lambda y, s, s2, w, p: fastauc.reliability_curve(y, s, sample_weight=w).to_dict(),
    "brier_decomposition":
        lambda y, s, s2, w, p: fastauc.brier_decomposition(y, s, sample_weight=w).to_dict(),
    "pairwise_loss": lambda y, s, s2, w, p: fastauc.pairwise_loss(y, s, sample_weight=w),
    "pairwise_loss_gradient": lambda y, s, s2, w, p:
        fastauc.pairwise_loss_gradient(y, s, sample_weight=w, groups=GROUPS, hessian=True),
    "f1_score": lambda y, s, s2, w, p: fastauc.f1_score(y, p, sample_weight=w),
    "fbeta_score": lambda y, s, s2, w, p: fastauc.fbeta_score(y, p, beta=2, sample_weight=w),
    "precision_score": lambda y, s, s2, w, p: fastauc.precision_score(y, p, sample_weight=w),
    "recall_score": lambda y, s, s2, w, p: fastauc.recall_score(y, p, sample_weight=w),
    "precision_recall_fscore_support": lambda y, s, s2, w, p:
        fastauc.precision_recall_fscore_support(y, p, sample_weight=w),
    "threshold_metrics":
        lambda y, s, s2, w, p: fastauc.threshold_metrics(y, s, sample_weight=w).to_dict(),
    "best_threshold": lambda y, s, s2, w, p: fastauc.best_threshold(y, s, sample_weight=w),
    **{name: (lambda y, s, s2, w, p, name=name: getattr(fastauc, name)(y, s, 0.5,
                                                                      sample_weight=w))
       for name in ("sensitivity_at_specificity", "specificity_at_sensitivity",
                    "precision_at_recall", "recall_at_precision")},
    "coords": lambda y, s, s2, w, p: dict(fastauc.coords(y, s, [0.2, 0.7], input="specificity",
                                                           ret="all", sample_weight=w).columns),
    "coords_ci": lambda y, s, s2, w, p: {"replicates": fastauc.coords_ci(
        y, s, [0.5], ret="sensitivity", n_resamples=20, random_state=0,
        sample_weight=w).replicates},
    "confusion_matrix_at_thresholds": lambda y, s, s2, w, p:
        fastauc.confusion_matrix_at_thresholds(y, s, sample_weight=w),
    "metric_at_thresholds": lambda y, s, s2, w, p:
        fastauc.metric_at_thresholds(y, s, fastauc.f1_score, sample_weight=w),
    "class_likelihood_ratios": lambda y, s, s2, w, p:
        fastauc.class_likelihood_ratios(y, p, sample_weight=w),
    "gini": lambda y, s, s2, w, p: fastauc.gini(y, s, sample_weight=w),
    "lift_at": lambda y, s, s2, w, p: fastauc.lift_at(y, s, 0.1, sample_weight=w),
    "gains_table": lambda y, s, s2, w, p: fastauc.gains_table(y, s, sample_weight=w),
    "roc_convex_hull": lambda y, s, s2, w, p: fastauc.roc_convex_hull(y, s, sample_weight=w),
    "partial_auc": lambda y, s, s2, w, p:
        fastauc.partial_auc(y, s, fpr_range=(0, 0.3), sample_weight=w),
    "mann_whitney_u": lambda y, s, s2, w, p: fastauc.mann_whitney_u(y, s),
    "delong_covariance": lambda y, s, s2, w, p: fastauc.delong_covariance(y, s),
    "roc_auc_ci": lambda y, s, s2, w, p: fastauc.roc_auc_ci(y, s),
    "delong_test": lambda y, s, s2, w, p: fastauc.delong_test(y, s, s2),
    "roc_power": lambda y, s, s2, w, p: fastauc.roc_power(y, s, s2),
    "venkatraman_test": lambda y, s, s2, w, p: fastauc.venkatraman_test(
        y, s, s2, n_permutations=20, random_state=0),
    "cv_auc_ci": lambda y, s, s2, w, p: fastauc.cv_auc_ci(y, s, np.arange(len(y)) % 3,
                                                          sample_weight=w),
    "cv_roc_curve": lambda y, s, s2, w, p: fastauc.cv_roc_curve(y, s, np.arange(len(y)) % 3,
                                                                sample_weight=w),
    "delong_omnibus": lambda y, s, s2, w, p: fastauc.delong_omnibus(y, {"a": s, "b": s2},
                                                                    sample_weight=w).statistic,
    "smooth_roc": lambda y, s, s2, w, p: fastauc.smooth_roc(y, s),
    "bootstrap_ci": lambda y, s, s2, w, p: fastauc.bootstrap_ci(y, s, sample_weight=w, **FAST),
    "bootstrap_test": lambda y, s, s2, w, p: fastauc.bootstrap_test(y, s, s2, **FAST),
    "by_group": lambda y, s, s2, w, p: fastauc.by_group(y, s, GROUPS, sample_weight=w).to_dict(),
    "report":  # names given: a one-column DataFrame would name the model after its column
        lambda y, s, s2, w, p: fastauc.report(y, s, sample_weight=w, names=["m"]).to_dict(),
    "roc_confidence_band": lambda y, s, s2, w, p: fastauc.roc_confidence_band(y, s, **FAST),
    "plot_roc": lambda y, s, s2, w, p: _lines(fastauc.plot_roc(y, s, **FAST)),
    "plot_precision_recall": lambda y, s, s2, w, p: _lines(fastauc.plot_precision_recall(y, s)),
    "plot_gains": lambda y, s, s2, w, p: _lines(fastauc.plot_gains(y, s)),
    "plot_calibration": lambda y, s, s2, w, p: _lines(fastauc.plot_calibration(y, s,
                                                                                sample_weight=w)),
    "plot_det": lambda y, s, s2, w, p: _lines(fastauc.plot_det(y, s, sample_weight=w)),
    "plot_over_time": lambda y, s, s2, w, p: _lines(fastauc.plot_over_time(
        fastauc.auc_over_time(y, s, GROUPS * 1.0, freq=1.0, sample_weight=w))),
}


def _lines(fig):
    import matplotlib.pyplot as plt

    data = [line.get_xydata() for ax in fig.axes for line in ax.get_lines()]
    plt.close(fig)
    return data


def test_every_public_function_is_covered():
    from .registry import public_functions

    public = set(public_functions())  # the configuration functions take no data
    assert public <= set(CALLS), sorted(public - set(CALLS))


# container name -> (labels, scores, weights) maker, from numpy arrays
def _pl(dtype):
    return lambda a: pl.Series(a).cast(dtype)


CONTAINERS = {
    "list": (list, list, list),
    "tuple": (tuple, tuple, tuple),
    "column": (lambda a: a[:, None], lambda a: a[:, None], lambda a: a),
    "pandas": (pd.Series, pd.Series, pd.Series),
    "pandas-index": (pd.Index, pd.Index, pd.Series),
    "pandas-frame-column": (lambda a: pd.DataFrame({"y": a}), lambda a: pd.DataFrame({"s": a}),
                            pd.Series),
    "polars-frame-column": (lambda a: pl.DataFrame({"y": a}), lambda a: pl.DataFrame({"s": a}),
                            pl.Series),
    "pandas-nullable": (lambda a: pd.Series(a, dtype="Int64"),
                        lambda a: pd.Series(a, dtype="Float64"),
                        lambda a: pd.Series(a, dtype="Float64")),
    "pandas-boolean": (lambda a: pd.Series(a.astype(bool), dtype="boolean"),
                       pd.Series, pd.Series),
    "pandas-categorical": (pd.Categorical, pd.Series, pd.Series),
    "pandas-category-series": (lambda a: pd.Series(a, dtype="category"), pd.Series,
                               pd.Series),
    "polars-boolean": (lambda a: pl.Series(a.astype(bool)), pl.Series, pl.Series),
    "polars-float32": (pl.Series, _pl(pl.Float32), _pl(pl.Float32)),
    **{f"polars-{t.__name__.lower()}": (_pl(t), pl.Series, pl.Series)
       for t in (pl.Int8, pl.Int16, pl.Int32, pl.Int64, pl.UInt8, pl.UInt16, pl.UInt32,
                 pl.UInt64, pl.Float32, pl.Float64)},
    "pyarrow": (pa.array, pa.array, pa.array),
    "pyarrow-chunked": tuple(
        (lambda a: pa.chunked_array([a[: N // 3], a[N // 3:]])) for _ in range(3)),
}


try:  # tensors, also ones that require grad (read, not differentiated)
    import torch
except ImportError:  # the torch extra, not the test extra's: these containers are left out
    torch = None
if torch is not None:
    CONTAINERS["torch"] = (torch.as_tensor, torch.as_tensor, torch.as_tensor)
    CONTAINERS["torch-requires-grad"] = (
        torch.as_tensor, lambda a: torch.tensor(a, requires_grad=True), torch.as_tensor)


def _numpy_view(obj):
    """The numpy array a container holds (what the result must equal)."""
    if torch is not None and isinstance(obj, torch.Tensor):
        return obj.detach().numpy()
    if isinstance(obj, (list, tuple)):
        return np.asarray(obj)
    if isinstance(obj, pd.Categorical):
        return np.asarray(obj.categories)[obj.codes]
    if isinstance(obj, pd.Series):
        if obj.dtype.name == "category":
            return _numpy_view(obj.array)
        return obj.to_numpy(dtype=getattr(obj.dtype, "numpy_dtype", None))
    if isinstance(obj, (pd.DataFrame, pl.DataFrame)):
        return obj.to_numpy()
    if isinstance(obj, pl.Series):
        return obj.to_numpy()
    if isinstance(obj, (pa.Array, pa.ChunkedArray)):
        return obj.to_numpy()
    return np.asarray(obj)


def _same(a, b):
    if dataclasses.is_dataclass(a):
        _same(dataclasses.asdict(a), dataclasses.asdict(b))
    elif isinstance(a, dict):
        assert a.keys() == b.keys()
        for key in a:
            _same(a[key], b[key])
    elif isinstance(a, (tuple, list)):
        assert len(a) == len(b)
        for x, z in zip(a, b):
            _same(x, z)
    elif a is None or isinstance(a, str):
        assert a == b
    else:
        np.testing.assert_array_equal(np.asarray(a), np.asarray(b))


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("container", sorted(CONTAINERS))
@pytest.mark.parametrize("function", sorted(CALLS))
def test_container_gives_the_numpy_result(function, container):
    make_y, make_s, make_w = CONTAINERS[container]
    y, s, s2, w, p = make_y(Y), make_s(S), make_s(S2), make_w(W), make_y(PRED)
    ours = CALLS[function](y, s, s2, w, p)
    ref = CALLS[function](*(_numpy_view(a) for a in (y, s, s2, w, p)))
    _same(ours, ref)


def _arrays(result):
    """The arrays a result holds as itself or as the items of a tuple (what
    the dispatcher puts in the scores' library), with their positions."""
    if isinstance(result, tuple):
        return {i: a for i, a in enumerate(result) if isinstance(a, np.ndarray)}
    return {None: result} if isinstance(result, np.ndarray) else {}


def _torch_dtype(torch, a):
    return torch.from_numpy(np.empty(0, a.dtype)).dtype


@pytest.mark.parametrize("function", sorted(CALLS))
def test_tensor_scores_give_tensor_results(function):
    """scikit-learn's array-API rule, on the CPU as on the GPU: every array a
    public function returns (itself, or in a returned tuple) is a tensor when
    the scores are one, with the numpy result's dtype and values; floats
    stay floats; result objects (dataclasses, DataFrames, figures) keep
    numpy inside."""
    torch = pytest.importorskip("torch", reason="torch is not installed (the torch extra)")
    y, s, s2, w, p = (torch.as_tensor(a) for a in (Y, S, S2, W, PRED))
    ours = CALLS[function](y, s, s2, w, p)
    ref = CALLS[function](Y, S, S2, W, PRED)
    _same(ours, ref)
    assert type(ours) is type(ref) or isinstance(ref, np.ndarray)
    for at, a in _arrays(ref).items():
        t = ours if at is None else ours[at]
        assert isinstance(t, torch.Tensor) and t.device.type == "cpu", (at, type(t))
        assert t.dtype == _torch_dtype(torch, a) and not t.requires_grad
    if isinstance(ref, float):
        assert type(ours) is float


CURVES = ("roc_curve", "precision_recall_curve", "det_curve")


@pytest.mark.parametrize("dtype", ["float64", "float32", "bfloat16"])
@pytest.mark.parametrize("function", CURVES)
def test_curves_of_tensors_are_tensors(function, dtype):
    """The curves, the issue's case: CPU tensors in, CPU tensors out (as CUDA
    tensors give CUDA tensors), the rates float64 and the thresholds in the
    dtype the numpy call gives for the same values; numpy in, numpy out."""
    torch = pytest.importorskip("torch", reason="torch is not installed (the torch extra)")
    curve = getattr(fastauc, function)
    s = torch.as_tensor(S).to(getattr(torch, dtype)).requires_grad_()
    s_np = s.detach().float().numpy() if dtype == "bfloat16" else s.detach().numpy()
    y, w = torch.as_tensor(Y), torch.as_tensor(W)
    for ours, ref in ((curve(y, s, sample_weight=w), curve(Y, s_np, sample_weight=W)),
                      (curve(Y, s), curve(Y, s_np)),  # labels as numpy: the scores decide
                      (curve(y, s_np), curve(Y, s_np))):
        assert len(ours) == len(ref) == 3
        for t, a in zip(ours, ref):
            if isinstance(ours[0], np.ndarray):  # numpy scores (the third pair)
                assert type(t) is np.ndarray and t.dtype == a.dtype
            else:
                assert isinstance(t, torch.Tensor) and t.device.type == "cpu"
                assert t.dtype == _torch_dtype(torch, a)
            np.testing.assert_array_equal(np.asarray(t), a)
        assert ref[0].dtype == ref[1].dtype == np.float64
    assert isinstance(curve(y, s)[2], torch.Tensor)
    # thresholds in the scores' float dtype, as numpy's path (float32 scores: PR's are float32)
    assert curve(y, s)[2].dtype == _torch_dtype(torch, curve(Y, s_np)[2])


def test_tensor_results_are_writable_copies_of_odd_numpy_results():
    """Read-only or reversed numpy results become ordinary tensors (torch
    refuses both as they are), the values unchanged."""
    torch = pytest.importorskip("torch", reason="torch is not installed (the torch extra)")
    from fastauc._containers import in_scores_library

    frozen = np.arange(4.0)
    frozen.flags.writeable = False
    reversed_ = np.arange(5)[::-1]
    out = in_scores_library((frozen, reversed_, 0.5, None, np.array(["a"])), torch.zeros(2))
    assert isinstance(out[0], torch.Tensor) and out[0].tolist() == [0, 1, 2, 3]
    assert isinstance(out[1], torch.Tensor) and out[1].tolist() == [4, 3, 2, 1, 0]
    assert out[2:4] == (0.5, None) and isinstance(out[4], np.ndarray)  # strings stay numpy
    assert in_scores_library(frozen, np.zeros(2)) is frozen  # numpy scores: as it is
    assert in_scores_library(frozen, [0.1, 0.2]) is frozen


@pytest.mark.parametrize("container", sorted(CONTAINERS))
def test_auc_takes_every_container(container):
    # the registry's auc call gets roc_curve's arrays; here the points are containers
    make = CONTAINERS[container][1]
    x, y = np.sort(S), S2
    assert fastauc.auc(make(x), make(y)) == fastauc.auc(x, y)


@pytest.mark.parametrize("make", [
    lambda: pd.Series([0.1, np.nan, 0.3]),
    lambda: pd.Series([0.1, None, 0.3], dtype="Float64"),
    lambda: pd.Series([0.1, None, 0.3], dtype="float64[pyarrow]"),
    lambda: pd.array([0.1, None, 0.3], dtype="Float64"),
    lambda: pd.Series([0.1, pd.NA, 0.3], dtype="Float64"),
    lambda: pl.Series([0.1, None, 0.3]),
    lambda: pa.array([0.1, None, 0.3]),
    lambda: pa.chunked_array([[0.1], [None, 0.3]]),
])
@pytest.mark.parametrize("role", ["y_score", "y_true", "sample_weight"])
def test_missing_values_get_the_nan_error(make, role):
    values = make()
    y, s, w = [0, 1, 1], [0.2, 0.4, 0.6], None
    if role == "y_score":
        s = values
    elif role == "y_true":
        y = values
    else:
        w = values
    with pytest.raises(ValueError, match="contains NaN") as info:
        fastauc.roc_auc_score(y, s, sample_weight=w)
    assert "index 1" in str(info.value)


@pytest.mark.parametrize("labels", [
    pd.Series([0, None, 1], dtype="Int64"),
    pd.Series([True, None, False], dtype="boolean"),
    pd.Series(["a", None, "b"], dtype="category"),
    pl.Series([True, None, False]),
    pl.Series(["a", None, "b"], dtype=pl.Categorical),
])
def test_missing_labels_get_the_nan_error(labels):
    with pytest.raises(ValueError, match="Input y_true contains NaN"):
        fastauc.f1_score(labels, [0, 1, 1])


# string labels: container name -> maker; the reference is the numpy str array
YS = np.where(Y == 1, "pos", "neg")
PREDS = np.where(PRED == 1, "pos", "neg")
STRING_LABELS = {
    "list": list,
    "pandas-object": lambda a: pd.Series(a, dtype=object),
    "pandas-str": pd.Series,
    "pandas-string": lambda a: pd.Series(a, dtype="string"),
    "pandas-arrow-string": lambda a: pd.Series(a, dtype=pd.ArrowDtype(pa.string())),
    "pandas-categorical": pd.Categorical,
    "pandas-category-series": lambda a: pd.Series(a, dtype="category"),
    "polars-string": pl.Series,
    "polars-categorical": lambda a: pl.Series(a, dtype=pl.Categorical),
    "polars-enum": lambda a: pl.Series(a, dtype=pl.Enum(["neg", "pos"])),
    "pyarrow-string": pa.array,
    "pyarrow-dictionary": lambda a: pa.array(a).dictionary_encode(),
    "pyarrow-chunked": lambda a: pa.chunked_array([a[: N // 3], a[N // 3:]]),
}
POS = dict(pos_label="pos")
STRING_CALLS = {  # (labels, predictions) -> result; the greater label "pos" is positive
    "roc_auc_score": lambda y, p: fastauc.roc_auc_score(y, S),
    "roc_curve": lambda y, p: fastauc.roc_curve(y, S, **POS),
    "precision_recall_curve": lambda y, p: fastauc.precision_recall_curve(y, S, **POS),
    "average_precision_score":
        lambda y, p: fastauc.average_precision_score(y, S, **POS),
    "f1_score": lambda y, p: fastauc.f1_score(y, p, **POS),
    "class_likelihood_ratios": lambda y, p: fastauc.class_likelihood_ratios(y, p),
    "precision_recall_fscore_support":
        lambda y, p: fastauc.precision_recall_fscore_support(y, p),
    "threshold_metrics": lambda y, p: fastauc.threshold_metrics(y, S, **POS).to_dict(),
    "gains_table": lambda y, p: fastauc.gains_table(y, S, **POS),
    "delong_test": lambda y, p: fastauc.delong_test(y, S, S2),
    "bootstrap_ci": lambda y, p: fastauc.bootstrap_ci(y, S, **FAST),
    "report": lambda y, p: fastauc.report(y, {"a": S, "b": S2}, **POS).to_dict(),
    "plot_roc": lambda y, p: _lines(fastauc.plot_roc(y, S, **POS, **FAST)),
}


@pytest.mark.parametrize("container", sorted(STRING_LABELS))
@pytest.mark.parametrize("function", sorted(STRING_CALLS))
def test_string_labels_give_the_numpy_result(function, container):
    make = STRING_LABELS[container]
    _same(STRING_CALLS[function](make(YS), make(PREDS)), STRING_CALLS[function](YS, PREDS))


def test_polars_and_pandas_float_thresholds_keep_the_dtype():
    for s in (pl.Series(S).cast(pl.Float32), pd.Series(S, dtype="float32")):
        assert fastauc.precision_recall_curve(Y, s)[2].dtype == np.float32
    for s in (pl.Series(S), pd.Series(S, dtype="Float64")):
        assert fastauc.precision_recall_curve(Y, s)[2].dtype == np.float64


MODELS = np.column_stack([S, S2])


@pytest.mark.parametrize("form,names", [
    ({"a": S, "b": S2}, ["a", "b"]),
    (pd.DataFrame({"a": S, "b": S2}), ["a", "b"]),
    (pd.DataFrame({"a": pd.Series(S, dtype="Float64"), "b": S2}), ["a", "b"]),
    (pl.DataFrame({"a": S, "b": S2}), ["a", "b"]),
    (pa.table({"a": S, "b": S2}), ["a", "b"]),
    (pa.record_batch([pa.array(S), pa.array(S2)], names=["a", "b"]), ["a", "b"]),
    ([S, S2], None),
    ((pd.Series(S), pl.Series(S2)), None),
    ([S.tolist(), S2.tolist()], None),
])
def test_several_models_forms(form, names):
    aucs, cov = fastauc.delong_covariance(Y, form)
    ref_aucs, ref_cov = fastauc.delong_covariance(Y, MODELS)
    np.testing.assert_array_equal(aucs, ref_aucs)
    np.testing.assert_array_equal(cov, ref_cov)
    rep = fastauc.report(Y, form)
    assert [m.name for m in rep.models] == (names or ["model_1", "model_2"])
    assert [m.auc for m in rep.models] == [m.auc for m in fastauc.report(Y, MODELS).models]


def test_rows_of_scores_keep_numpy_meaning():
    rows = MODELS.tolist()  # n rows of 2 scores: a (n, 2) matrix, as numpy reads it
    np.testing.assert_array_equal(fastauc.delong_covariance(Y, rows)[0],
                                  fastauc.delong_covariance(Y, MODELS)[0])


@pytest.mark.parametrize("form", [[S[:100], S2[:100]], [S[:100].tolist(), S2[:100].tolist()],
                                  (pd.Series(S[:100]), pl.Series(S2[:100]))])
def test_models_of_the_wrong_length_are_named(form):
    # k models of 100 scores, not 2 rows: the error gives the models' length
    for call in (fastauc.delong_covariance, fastauc.report):
        with pytest.raises(ValueError, match=rf"y_true has {N}, y_scores has 100"):
            call(Y, form)


def test_several_models_bad_forms():
    with pytest.raises(ValueError, match="inconsistent numbers of samples"):
        fastauc.delong_covariance(Y, {"a": S, "b": S2[:10]})
    with pytest.raises(ValueError, match=r"y_scores\[0\] has 120, y_scores\[1\] has 10"):
        fastauc.delong_covariance(Y, [S, S2[:10]])
    with pytest.raises(ValueError, match=r"contains NaN.*\bb has"):
        fastauc.report(Y, pd.DataFrame({"a": S, "b": np.where(S > 0.5, np.nan, S2)}))
    with pytest.raises(ValueError, match=r"contains NaN.*y_scores\['a'\]"):
        fastauc.report(Y, pd.DataFrame({"a": pd.Series([np.nan] * N, dtype="Float64")}))
    with pytest.raises(ValueError, match="no models"):
        fastauc.delong_covariance(Y, {})


def test_import_does_not_load_dataframe_libraries():
    # nor does converting the input: lists, numpy arrays, several models
    code = ("import sys, numpy as np, fastauc\n"
            "fastauc.roc_auc_score([0, 1, 1], np.array([0.1, 0.4, 0.3]))\n"
            "fastauc.report([0, 1, 1], [[0.1, 0.4, 0.3], [0.2, 0.1, 0.5]])\n"
            "libraries = ('pandas', 'polars', 'pyarrow', 'sklearn')\n"
            "loaded = [m for m in libraries if m in sys.modules]\n"
            "assert not loaded, loaded\n")
    subprocess.run([sys.executable, "-c", code], check=True)
