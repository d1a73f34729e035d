"""fastauc.sklearn: scorers and patching scikit-learn's model selection."""

import copy
import functools
import os
import pickle
import warnings

import joblib
import numpy as np
import pytest
import sklearn.metrics as skm
from sklearn.datasets import make_classification, make_multilabel_classification
from sklearn.linear_model import LogisticRegression, LogisticRegressionCV
from sklearn.metrics import _scorer
from sklearn.model_selection import (
    GridSearchCV,
    TunedThresholdClassifierCV,
    cross_validate,
)
from sklearn.neighbors import KNeighborsClassifier

import fastauc
import fastauc.sklearn as fs

BINARY = make_classification(n_samples=300, n_features=5, random_state=0)
MULTICLASS = make_classification(n_samples=300, n_features=6, n_informative=4, n_classes=3,
                                 random_state=0)
MULTILABEL = make_multilabel_classification(n_samples=200, n_features=5, n_classes=3,
                                            random_state=0)


def _problem(name):
    """Multiclass data for the scorers that average over classes, binary otherwise."""
    multiclass = (name.startswith("roc_auc_ov") or name == "neg_log_loss"
                  or name.endswith(("_macro", "_micro", "_weighted")))
    return MULTICLASS if multiclass else BINARY


@pytest.fixture
def counting(monkeypatch):
    """Count the calls that reach fastauc's own functions behind the patch and scorers.

    The scorers hold ``fs._metric(name)`` (one object per name); replacing its
    ``fast`` attribute counts every call that scikit-learn's scorer makes.
    """
    calls = {}
    for name in fs.FUNCTIONS:
        metric = fs._metric(name)

        def counted(*args, __real=metric.fast, __name=name, **kwargs):
            calls[__name] = calls.get(__name, 0) + 1
            return __real(*args, **kwargs)

        monkeypatch.setattr(metric, "fast", counted)
    return calls


def _cv_scores(X, y, scoring, **kwargs):
    return cross_validate(LogisticRegression(max_iter=500), X, y, cv=3, scoring=scoring,
                          **kwargs)["test_score"]


def _fallbacks(name):
    return fs.fallback_counts().get(name, 0)


SCORER_CASES = [n for n in fs.SCORERS if not n.endswith("_samples")]


@pytest.mark.parametrize("name", SCORER_CASES)
def test_scores_equal_and_fastauc_called(name, counting):
    X, y = _problem(name)
    func = fs._SPECS[name][0]
    before = _fallbacks(func)
    reference = _cv_scores(X, y, name)
    assert not counting  # unpatched: scikit-learn's scorer, fastauc not reached
    with fs.patched():
        patched = _cv_scores(X, y, name)
    direct = _cv_scores(X, y, fs.get_scorer(name))
    np.testing.assert_allclose(patched, reference, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(direct, reference, rtol=1e-12, atol=1e-12)
    assert counting == {func: 6}  # 3 folds patched + 3 with get_scorer
    assert _fallbacks(func) == before  # fastauc computed them, no fallback


# ``*_samples`` scorers need multilabel targets, which LogisticRegression cannot fit:
# score a fitted multilabel KNeighborsClassifier directly instead of cross_validate.
@pytest.mark.filterwarnings("ignore::sklearn.exceptions.UndefinedMetricWarning")
@pytest.mark.parametrize("name", [n for n in fs.SCORERS if n.endswith("_samples")])
def test_samples_scorers_on_multilabel(name, counting):
    X, Y = MULTILABEL
    est = KNeighborsClassifier().fit(X, Y)
    func = fs._SPECS[name][0]
    before = _fallbacks(func)
    theirs = skm.get_scorer(name)(est, X, Y)
    assert fs.get_scorer(name)(est, X, Y) == pytest.approx(theirs, rel=1e-12)
    with fs.patched():
        assert skm.get_scorer(name)(est, X, Y) == pytest.approx(theirs, rel=1e-12)
    assert counting == {func: 2}
    assert _fallbacks(func) == before


def test_scorers_copy_scikit_learns_settings():
    for name in fs.SCORERS:
        ours, theirs = fs.get_scorer(name), skm.get_scorer(name)
        assert ours._score_func is fs._metric(theirs._score_func.__name__)
        assert ours._response_method == theirs._response_method
        assert ours._sign == theirs._sign
        assert ours._kwargs == theirs._kwargs
    assert fs.get_scorer_names() == sorted(fs.SCORERS)
    assert set(fs.SCORERS) <= set(skm.get_scorer_names())


def test_other_model_selection_tools_see_the_patch(counting):
    X, y = BINARY
    grid = dict(param_grid={"C": [0.1, 1.0]}, cv=3, scoring="f1")
    tuned = dict(cv=3, scoring="f1", thresholds=10)
    ref_grid = GridSearchCV(LogisticRegression(), **grid).fit(X, y).cv_results_
    ref_tuned = TunedThresholdClassifierCV(LogisticRegression(), **tuned).fit(X, y)
    with fs.patched():
        ours_grid = GridSearchCV(LogisticRegression(), **grid).fit(X, y).cv_results_
        assert counting == {"f1_score": 6}
        # the tuner builds its curve scorer from the registry's scorer function
        ours_tuned = TunedThresholdClassifierCV(LogisticRegression(), **tuned).fit(X, y)
        assert counting["f1_score"] > 6
    np.testing.assert_allclose(ours_grid["mean_test_score"], ref_grid["mean_test_score"],
                               rtol=1e-12)
    assert ours_tuned.best_threshold_ == ref_tuned.best_threshold_
    assert ours_tuned.best_score_ == pytest.approx(ref_tuned.best_score_, rel=1e-12)


def test_patch_restores_exact_objects():
    functions = {n: getattr(skm, n) for n in fs.FUNCTIONS}
    scorers = dict(_scorer._SCORERS)
    fs.unpatch()  # not patched: a no-op
    assert all(getattr(skm, n) is f for n, f in functions.items())
    fs.patch()
    fs.patch()  # idempotent
    try:
        assert fs.is_patched()
        for n in fs.FUNCTIONS:
            assert getattr(skm, n) is fs._metric(n)
        assert _scorer._SCORERS["roc_auc"]._score_func is fs._metric("roc_auc_score")
        # get_scorer deep-copies the registry's scorer: the copy still scores with fastauc
        assert skm.get_scorer("roc_auc")._score_func is fs._metric("roc_auc_score")
        assert copy.deepcopy(_scorer._SCORERS["f1"])._score_func is fs._metric("f1_score")
    finally:
        fs.unpatch()
    fs.unpatch()  # no-op
    assert not fs.is_patched()
    assert all(getattr(skm, n) is f for n, f in functions.items())
    assert _scorer._SCORERS.keys() == scorers.keys()
    assert all(_scorer._SCORERS[n] is s for n, s in scorers.items())


def test_context_manager_restores_on_error_and_nests():
    original = skm.roc_auc_score
    with pytest.raises(RuntimeError):
        with fs.patched():
            assert skm.roc_auc_score is not original
            raise RuntimeError
    assert skm.roc_auc_score is original
    with fs.patched():
        with fs.patched():
            pass
        assert fs.is_patched()  # the inner block found it patched: leaves it
    assert not fs.is_patched()
    assert skm.roc_auc_score is original


def test_patched_functions_fall_back_to_sklearn():
    sparse = pytest.importorskip("scipy.sparse")
    yt = np.array([[1, 0, 1], [0, 1, 1], [1, 1, 0], [0, 0, 1]])
    yp = np.array([[1, 1, 1], [0, 1, 0], [1, 0, 0], [0, 0, 1]])
    original = fs._ORIGINAL_FUNCTIONS
    names = ("f1_score", "roc_auc_score", "roc_curve")
    before = {n: _fallbacks(n) for n in names}
    y, s, w = [0, 1, 1, 0], [0.1, 0.6, 0.4, 0.3], [1.0, 2.0, -0.5, 1.0]
    with fs.patched():
        # a scipy.sparse multilabel indicator goes to scikit-learn directly
        ours_sparse = skm.f1_score(sparse.csr_array(yt), sparse.csr_array(yp), average="micro")
        # negative weights: fastauc refuses them, scikit-learn computes a number
        ours_negative = skm.roc_auc_score(y, s, sample_weight=w)
        # invalid for both: scikit-learn's own error (fastauc's names y_score)
        with pytest.raises(ValueError, match="^Input contains NaN"):
            skm.roc_curve([0, 1, 1], [0.1, np.nan, 0.3])
    assert ours_sparse == original["f1_score"](yt, yp, average="micro")
    assert ours_negative == original["roc_auc_score"](y, s, sample_weight=w)
    assert {n: _fallbacks(n) - before[n] for n in names} == dict.fromkeys(names, 1)


def test_invalid_input_raises_sklearns_exception_type():
    from sklearn.utils._param_validation import InvalidParameterError

    before = _fallbacks("f1_score")
    with fs.patched():
        with pytest.raises(InvalidParameterError) as info:
            skm.f1_score([0, 1], [0, 1], average="median")
    assert type(info.value) is InvalidParameterError  # scikit-learn's, not fastauc's
    assert _fallbacks("f1_score") == before + 1


def test_scorer_pickles_as_fastauc():
    scorer = pickle.loads(pickle.dumps(fs.get_scorer("roc_auc")))
    assert scorer._score_func is fs._metric("roc_auc_score")
    assert scorer._score_func.fast is fastauc.roc_auc_score


def _log_call(path, who, func, *args, **kwargs):
    with open(path, "a") as fh:
        fh.write(f"{who} {os.getpid()}\n")
    return func(*args, **kwargs)


def _record_calls_in_worker(path):
    """loky initializer: log which roc_auc function each call in this worker reaches."""
    metric = fs._metric("roc_auc_score")
    metric.fast = functools.partial(_log_call, path, "fastauc", metric.fast)
    theirs = _scorer._SCORERS["roc_auc"]  # the worker's (unpatched) registry
    theirs._score_func = functools.update_wrapper(
        functools.partial(_log_call, path, "sklearn", theirs._score_func), theirs._score_func)


def _worker_state():
    return os.getpid(), fs.is_patched(), skm.roc_auc_score.__module__


def test_n_jobs_workers_score_with_fastauc(tmp_path, counting):
    """What the module docstring says about loky workers, checked in the workers."""
    X, y = BINARY
    log = tmp_path / "calls.log"
    calls = lambda: [line.split() for line in log.read_text().splitlines()]  # noqa: E731
    reference = cross_validate(LogisticRegression(), X, y, cv=3, scoring="roc_auc")
    log.touch()
    with joblib.parallel_config(backend="loky", initializer=_record_calls_in_worker,
                                initargs=(str(log),)):
        with fs.patched():
            parallel = cross_validate(LogisticRegression(), X, y, cv=3, scoring="roc_auc",
                                      n_jobs=2)
            states = joblib.Parallel(n_jobs=2)(joblib.delayed(_worker_state)()
                                               for _ in range(2))
            assert not counting  # nothing was scored in this process
            # the scorer was resolved here and pickled: the workers called fastauc
            assert [who for who, _ in calls()] == ["fastauc"] * 3
            assert str(os.getpid()) not in {pid for _, pid in calls()}
            # ... although the workers themselves are not patched
            assert all(pid != os.getpid() and not patched
                       and module == "sklearn.metrics._ranking"
                       for pid, patched, module in states)
            # LogisticRegressionCV sends the *string* and resolves it in the worker
            log.write_text("")
            with warnings.catch_warnings():  # scikit-learn 1.9's notices of new defaults
                warnings.simplefilter("ignore", FutureWarning)
                LogisticRegressionCV(Cs=2, cv=3, scoring="roc_auc", n_jobs=2).fit(X, y)
            assert {who for who, _ in calls()} == {"sklearn"}
    np.testing.assert_allclose(parallel["test_score"], reference["test_score"], rtol=1e-12)


def test_unknown_names():
    with pytest.raises(ValueError, match="roc_auc.*average_precision"):
        fs.get_scorer("accuracy")
    with pytest.raises(ValueError, match="FUNCTIONS"):
        fs._metric("accuracy_score")
