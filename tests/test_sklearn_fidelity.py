"""Drop-in fidelity: scikit-learn's error types and words, its warning classes,
and the input forms it accepts (multilabel, ``average="samples"``, ``labels``,
``zero_division``) give the same results.

The full run of scikit-learn's own test files against fastauc lives in
``benchmarks/sklearn_conformance.py`` (75 s); these are the fast checks.
"""

import itertools
import subprocess
import sys
import warnings

import numpy as np
import pytest
import sklearn.exceptions
import sklearn.metrics as skm
from hypothesis import given
from hypothesis import strategies as st

import fastauc

from .conftest import sklearn_call

# every reference comparison here holds on both sort paths (fastauc._sort)
pytestmark = pytest.mark.usefixtures("each_sort_path")

Y = np.array([0, 1, 0, 1, 1])
S = np.array([0.1, 0.8, 0.3, 0.6, 0.9])
P3 = np.full((4, 3), 1 / 3)

# (function name, args, kwargs): scikit-learn raises; fastauc must raise the same
# type (or a subclass) with scikit-learn's message inside its own.
SKLEARN_ERRORS = [
    ("roc_auc_score", ([], []), {}),
    ("log_loss", ([], []), {}),
    ("roc_auc_score", (Y, [0.1, np.nan, 0.3, 0.4, 0.5]), {}),
    ("roc_curve", (Y, [0.1, np.inf, 0.3, 0.4, 0.5]), {}),
    ("roc_auc_score", ([0, np.nan, 1, 1, 0], S), {}),
    ("f1_score", ([0, np.nan], [0, 1]), {}),
    ("roc_auc_score", (Y, S[:4]), {}),
    ("roc_auc_score", (Y, S), {"sample_weight": [1, 1, 1]}),
    ("f1_score", ([0, 1, 1], [0, 1, 0]), {"sample_weight": [1, 2]}),
    ("log_loss", ([0, 1, 1], [0.2, 0.7]), {}),
    ("roc_auc_score", (Y, S), {"sample_weight": [1, np.nan, 1, 1, 1]}),
    ("roc_auc_score", (Y, S), {"sample_weight": np.zeros(5)}),
    ("f1_score", ([0, 1, 1], [0, 1, 0]), {"sample_weight": np.ones((3, 2))}),
    ("roc_curve", ([0, 1, 2, 1, 0], S), {}),
    ("precision_recall_curve", ([0, 1, 2, 1, 0], S), {}),
    ("det_curve", ([0, 1, 2, 1, 0], S), {}),
    ("roc_curve", ([1, 2, 2, 1, 1], S), {}),
    ("roc_auc_score", ([0, 1, 2, 1, 0], S), {}),
    ("roc_auc_score", ([0.5, 1.5, 0.5, 1.5, 0.5], S), {}),
    ("roc_curve", ([0.5, 1.5, 0.5, 1.5, 0.5], S), {}),
    ("roc_auc_score", (Y, np.column_stack([1 - S, S])), {}),
    ("roc_auc_score", (Y, list("abcde")), {}),
    ("roc_auc_score", (Y, S + 1j), {}),
    ("log_loss", (Y, [0.1, 0.2, 1.2, 0.3, 0.4]), {}),
    ("log_loss", ([1, 1, 1], [0.1, 0.2, 0.3]), {}),
    ("log_loss", ([0, 0], [0.2, 0.3]), {"labels": [0]}),
    ("log_loss", (["a", "b"], [0.2, 0.3]), {"labels": ["a", "c"]}),
    ("average_precision_score", (Y, S), {"pos_label": 3}),
    ("average_precision_score", (np.array([[0, 1, 2], [1, 2, 0]]), np.ones((2, 3))), {}),
    ("roc_auc_score", ([b"a", b"b", b"a", b"b", b"a"], S), {}),
    ("roc_curve", ([b"a", b"b", b"a", b"b", b"a"], S), {}),
    ("f1_score", ([b"a", b"b"], [b"a", b"b"]), {}),
    ("roc_auc_score", ([[0, 1], [1]], [0.1, 0.2]), {}),
    ("f1_score", ([[0, 1], [1]], [[0, 1], [1]]), {}),
    ("f1_score", ([[0, 1], [1, 2]], [[0, 1], [1, 2]]), {}),
    ("auc", ([2, 1, 3, 4], [5, 6, 7, 8]), {}),
    ("auc", ([1], [1]), {}),
    ("f1_score", ([0, 1, 1], ["a", "b", "a"]), {}),
    ("f1_score", ([0, 1, 1], [0.1, 0.2, 0.3]), {}),
    ("f1_score", ([0, 1, 2], [0, 1, 2]), {}),
    ("f1_score", ([[0, 1], [1, 1]], [[0, 1], [1, 0]]), {}),
    ("f1_score", ([], []), {}),
    ("f1_score", (["a", "b"], ["a", "b"]), {}),
    ("f1_score", ([0, 1], [0, 1]), {"average": "samples"}),
    ("f1_score", ([[0, 1], [1, 1]], [[0, 1, 1], [1, 0, 1]]), {"average": "macro"}),
    ("f1_score", ([[0, 1], [1, 1]], [[0, 1], [1, 0]]), {"labels": [2], "average": "macro"}),
    ("roc_auc_score", ([0, 1, 2, 0], P3), {"multi_class": "ovo", "sample_weight": [1] * 4}),
    ("roc_auc_score", ([0, 1, 1, 0], P3), {"multi_class": "ovr"}),
    ("roc_auc_score", ([0, 1, 2, 0], np.full((4, 3), 0.2)), {"multi_class": "ovr"}),
]


def _error(fn, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            fn(*args, **kwargs)
        except Exception as exc:  # noqa: BLE001 - the point is to capture it
            return exc
    raise AssertionError(f"{fn.__name__} did not raise")


@pytest.mark.parametrize("name,args,kwargs", SKLEARN_ERRORS,
                         ids=[f"{c[0]}-{i}" for i, c in enumerate(SKLEARN_ERRORS)])
def test_sklearn_error_type_and_words(name, args, kwargs):
    theirs = _error(getattr(skm, name), *args, **kwargs)
    ours = _error(getattr(fastauc, name), *args, **kwargs)
    assert isinstance(ours, type(theirs).__mro__[1] if type(theirs).__name__ ==
                      "InvalidParameterError" else type(theirs)), (ours, theirs)
    # the first line: scikit-learn appends the whole array to a few messages
    assert str(theirs).splitlines()[0] in str(ours), (str(theirs), str(ours))


@pytest.mark.parametrize("call", [
    lambda: fastauc.f1_score([0, 1], [0, 1], average="median"),
    lambda: fastauc.recall_score([0, 1], [1, 1], zero_division=2),
    lambda: fastauc.fbeta_score([0, 1], [1, 1], beta=-1),
])
def test_invalid_parameters_are_value_and_type_errors(call):
    with pytest.raises(ValueError, match="parameter") as info:
        call()
    assert isinstance(info.value, TypeError)


def test_undefined_metric_warning_is_sklearns():
    with pytest.warns(sklearn.exceptions.UndefinedMetricWarning, match="Only one class"):
        fastauc.roc_auc_score([1, 1, 1], [0.1, 0.2, 0.3])
    with pytest.warns(fastauc.UndefinedMetricWarning, match="ill-defined"):
        fastauc.precision_score([0, 0], [0, 0])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        warnings.filterwarnings("ignore", category=sklearn.exceptions.UndefinedMetricWarning)
        assert np.isnan(fastauc.roc_auc_score([0, 0], [0.1, 0.2]))


def test_warning_bridge_does_not_import_sklearn():
    code = (
        "import sys, warnings, fastauc\n"
        "assert 'sklearn' not in sys.modules\n"
        "with warnings.catch_warnings(record=True) as rec:\n"
        "    warnings.simplefilter('always')\n"
        "    fastauc.roc_auc_score([1, 1], [0.1, 0.2])\n"
        "assert rec[0].category is fastauc.UndefinedMetricWarning\n"
        "assert 'sklearn' not in sys.modules\n"
        "from sklearn.exceptions import UndefinedMetricWarning as SK\n"
        "with warnings.catch_warnings(record=True) as rec:\n"
        "    warnings.simplefilter('always')\n"
        "    fastauc.roc_auc_score([1, 1], [0.1, 0.2])\n"
        "assert issubclass(rec[0].category, SK)\n"
        "assert issubclass(rec[0].category, fastauc.UndefinedMetricWarning)\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_log_loss_row_sum_warning_matches():
    p = [[0.2, 0.7], [0.6, 0.5]]
    with pytest.warns(UserWarning, match="The y_prob values do not sum to one"):
        theirs = skm.log_loss([0, 1], p)
    with pytest.warns(UserWarning, match="The y_prob values do not sum to one"):
        assert fastauc.log_loss([0, 1], p) == pytest.approx(theirs, rel=1e-12)


# ---------------------------------------------------------------- multilabel

AVERAGES = [None, "micro", "macro", "weighted", "samples"]
PRF = ["precision_recall_fscore_support", "f1_score", "precision_score", "recall_score"]


def _same(ours, theirs):
    if isinstance(theirs, tuple):
        assert len(ours) == len(theirs)
        for a, b in zip(ours, theirs):
            _same(a, b)
    elif theirs is None:
        assert ours is None
    else:
        np.testing.assert_allclose(ours, theirs, rtol=1e-12, atol=1e-12)


@st.composite
def indicator_pairs(draw):
    n = draw(st.integers(1, 12))
    k = draw(st.integers(2, 5))
    cells = st.lists(st.integers(0, 1), min_size=n * k, max_size=n * k)
    yt = np.array(draw(cells)).reshape(n, k)
    yp = np.array(draw(cells)).reshape(n, k)
    w = draw(st.none() | st.lists(st.sampled_from([0.0, 0.5, 1.0, 3.0]), min_size=n,
                                  max_size=n).filter(lambda ws: sum(ws) > 0))
    return yt, yp, w


@given(indicator_pairs(), st.sampled_from(AVERAGES), st.sampled_from(PRF),
       st.sampled_from(["warn", 0.0, 1.0, np.nan]), st.booleans())
def test_multilabel_matches_sklearn(data, average, name, zero_division, use_labels):
    yt, yp, w = data
    kwargs = {"average": average, "sample_weight": w, "zero_division": zero_division}
    if use_labels:
        kwargs["labels"] = [yt.shape[1] - 1, 0]
    theirs = sklearn_call(getattr(skm, name), yt, yp, **kwargs)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", fastauc.UndefinedMetricWarning)
        ours = getattr(fastauc, name)(yt, yp, **kwargs)
    _same(ours, theirs)


def test_multilabel_warnings_match_sklearn():
    yt = np.array([[1, 0, 0], [0, 0, 0]])
    yp = np.array([[0, 0, 0], [0, 1, 0]])
    for average in AVERAGES:
        with warnings.catch_warnings(record=True) as theirs:
            warnings.simplefilter("always")
            skm.precision_recall_fscore_support(yt, yp, average=average)
        with warnings.catch_warnings(record=True) as ours:
            warnings.simplefilter("always")
            fastauc.precision_recall_fscore_support(yt, yp, average=average)
        assert [str(w.message) for w in ours] == [str(w.message) for w in theirs]
        assert all(issubclass(w.category, sklearn.exceptions.UndefinedMetricWarning)
                   for w in ours)


@pytest.mark.parametrize("labels,zero_division,average", list(itertools.product(
    [None, [2, 0], [0, 1, 2, 3]], ["warn", 0.0, 1.0, np.nan],
    [None, "micro", "macro", "weighted", "binary"])))
def test_multiclass_labels_and_zero_division(labels, zero_division, average):
    yt = np.array([0, 1, 2, 2, 1, 0, 2])
    yp = np.array([0, 2, 2, 2, 0, 0, 1])
    if average == "binary":
        yt, yp = yt % 2, yp % 2
    kwargs = {"labels": labels, "zero_division": zero_division, "average": average}
    theirs = sklearn_call(skm.precision_recall_fscore_support, yt, yp, **kwargs)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ours = fastauc.precision_recall_fscore_support(yt, yp, **kwargs)
    _same(ours, theirs)


def test_sparse_indicator_input():
    sparse = pytest.importorskip("scipy.sparse")
    yt = np.array([[1, 0, 1], [0, 1, 1], [1, 1, 0]])
    yp = np.array([[1, 1, 1], [0, 1, 0], [0, 1, 0]])
    for average in ["micro", "macro", "samples"]:
        ours = fastauc.f1_score(sparse.csr_array(yt), sparse.csr_array(yp), average=average)
        assert ours == pytest.approx(skm.f1_score(yt, yp, average=average), rel=1e-12)


@given(indicator_pairs(), st.booleans())
def test_multilabel_log_loss_matches_sklearn(data, normalize):
    yt, _, w = data
    rng = np.random.default_rng(yt.size)
    p = rng.random(yt.shape)
    theirs = sklearn_call(skm.log_loss, yt, p, sample_weight=w, normalize=normalize)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        ours = fastauc.log_loss(yt, p, sample_weight=w, normalize=normalize)
    assert ours == pytest.approx(theirs, rel=1e-12)


def test_scalar_sample_weight_refused_like_sklearn():
    for m in (skm, fastauc):
        with pytest.raises(ValueError, match="'sample_weight' parameter") as info:
            m.f1_score([0, 1, 1, 0], [0, 1, 0, 0], sample_weight=2.0)
        assert isinstance(info.value, TypeError)


# ------------------------------------------------------- weights at the edges

@pytest.mark.parametrize("scale", [1e308, 1e200, 1e-300, 5e-324])
def test_scale_free_results_survive_extreme_weights(scale, rng):
    y = rng.integers(0, 2, 500)
    s = rng.random(500).round(2)
    w = np.full(500, scale)
    assert fastauc.roc_auc_score(y, s, sample_weight=w) == pytest.approx(
        fastauc.roc_auc_score(y, s), rel=1e-12)
    assert fastauc.average_precision_score(y, s, sample_weight=w) == pytest.approx(
        fastauc.average_precision_score(y, s), rel=1e-12)
    for ours, ref in zip(fastauc.roc_curve(y, s, sample_weight=w), fastauc.roc_curve(y, s)):
        np.testing.assert_allclose(ours, ref, rtol=1e-12)
    m = fastauc.threshold_metrics(y, s, sample_weight=w)
    np.testing.assert_allclose(m.f1, fastauc.threshold_metrics(y, s).f1, rtol=1e-12)
    assert fastauc.partial_auc(y, s, sample_weight=w, fpr_range=(0, 0.5)) == pytest.approx(
        fastauc.partial_auc(y, s, fpr_range=(0, 0.5)), rel=1e-12)


def test_power_of_two_rescaling_is_exact(rng):
    y = rng.integers(0, 2, 300)
    s = rng.random(300)
    w = rng.random(300) + 0.5
    assert (fastauc.roc_auc_score(y, s, sample_weight=w * 2.0**1020)
            == fastauc.roc_auc_score(y, s, sample_weight=w))


@pytest.mark.parametrize("call", [
    lambda y, s, w: fastauc.roc_auc_ci(y, s, sample_weight=w),
    lambda y, s, w: fastauc.delong_covariance(y, s, sample_weight=w),
    lambda y, s, w: fastauc.delong_test(y, s, -s, sample_weight=w),
    lambda y, s, w: fastauc.mann_whitney_u(y, s, sample_weight=w),
    lambda y, s, w: fastauc.report(y, s, sample_weight=w),
])
def test_frequency_weights_that_overflow_raise(call):
    y = np.array([0, 1, 0, 1, 1])
    s = np.array([0.1, 0.8, 0.3, 0.6, 0.9])
    with pytest.raises(ValueError, match="sample_weight sums to inf.*frequency weights"):
        call(y, s, np.full(5, 1e308))


def test_no_interval_around_an_undefined_estimate():
    with pytest.warns(fastauc.UndefinedMetricWarning):
        ci = fastauc.roc_auc_ci([1, 1, 1], [0.1, 0.2, 0.3])
    assert np.isnan(ci.estimate) and np.isnan(ci.low) and np.isnan(ci.high)
