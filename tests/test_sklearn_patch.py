"""fastauc.sklearn: scorers and patching scikit-learn's model selection."""

import copy
import pickle

import numpy as np
import pytest
import sklearn.metrics as skm
from sklearn.datasets import make_classification, make_multilabel_classification
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import _scorer
from sklearn.model_selection import cross_validate
from sklearn.neighbors import KNeighborsClassifier

import fastauc
import fastauc.sklearn as fs

BINARY = make_classification(n_samples=300, n_features=5, random_state=0)
MULTICLASS = make_classification(n_samples=300, n_features=6, n_informative=4, n_classes=3,
                                 random_state=0)
MULTILABEL = make_multilabel_classification(n_samples=200, n_features=5, n_classes=3,
                                            random_state=0)


def _problem(name):
    if name.startswith("roc_auc_ov") or name in ("neg_log_loss",) or name.endswith(
            ("_macro", "_micro", "_weighted")) and not name.startswith("roc"):
        X, y = MULTICLASS
    else:
        X, y = BINARY
    return X, y


@pytest.fixture
def counting(monkeypatch):
    """Count calls of fastauc's own functions behind the scorers."""
    calls = {}
    for name in fs.FUNCTIONS:
        metric = fs._metric(name)
        real = metric.fast

        def counted(*args, __real=real, __name=name, **kwargs):
            calls[__name] = calls.get(__name, 0) + 1
            return __real(*args, **kwargs)

        monkeypatch.setattr(metric, "fast", counted)
    return calls


def _cv_scores(X, y, scoring, estimator=None):
    est = estimator or LogisticRegression(max_iter=500)
    return cross_validate(est, X, y, cv=3, scoring=scoring)["test_score"]


SCORER_CASES = [n for n in fs.SCORERS if not n.endswith("_samples")]


@pytest.mark.parametrize("name", SCORER_CASES)
def test_scores_equal_and_fastauc_called(name, counting):
    X, y = _problem(name)
    reference = _cv_scores(X, y, name)
    assert not counting
    with fs.patched():
        patched = _cv_scores(X, y, name)
    direct = _cv_scores(X, y, fs.get_scorer(name))
    np.testing.assert_allclose(patched, reference, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(direct, reference, rtol=1e-12, atol=1e-12)
    func = _scorer._SCORERS[name]._score_func.__name__
    assert counting.get(func, 0) == 6  # 3 folds patched + 3 with get_scorer
    assert fs.fallback_counts().get(func, 0) == 0


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.UndefinedMetricWarning")
@pytest.mark.parametrize("name", [n for n in fs.SCORERS if n.endswith("_samples")])
def test_samples_scorers_on_multilabel(name, counting):
    X, Y = MULTILABEL
    est = KNeighborsClassifier().fit(X, Y)
    theirs = skm.get_scorer(name)(est, X, Y)
    assert fs.get_scorer(name)(est, X, Y) == pytest.approx(theirs, rel=1e-12)
    with fs.patched():
        assert skm.get_scorer(name)(est, X, Y) == pytest.approx(theirs, rel=1e-12)
    assert sum(counting.values()) == 2


def test_patch_restores_exact_objects():
    functions = {n: getattr(skm, n) for n in fs.FUNCTIONS}
    scorers = dict(_scorer._SCORERS)
    fs.patch()
    fs.patch()  # idempotent
    try:
        assert fs.is_patched()
        for n in fs.FUNCTIONS:
            assert getattr(skm, n) is fs._metric(n)
        assert _scorer._SCORERS["roc_auc"]._score_func is fs._metric("roc_auc_score")
        # get_scorer deep-copies: the copy still scores with fastauc
        assert skm.get_scorer("roc_auc")._score_func is fs._metric("roc_auc_score")
        assert copy.deepcopy(_scorer._SCORERS["f1"])._score_func is fs._metric("f1_score")
    finally:
        fs.unpatch()
    fs.unpatch()  # no-op
    assert not fs.is_patched()
    assert all(getattr(skm, n) is f for n, f in functions.items())
    assert _scorer._SCORERS == scorers
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


def test_patched_functions_fall_back_to_sklearn():
    sparse = pytest.importorskip("scipy.sparse")
    yt = np.array([[1, 0, 1], [0, 1, 1], [1, 1, 0], [0, 0, 1]])
    yp = np.array([[1, 1, 1], [0, 1, 0], [1, 0, 0], [0, 0, 1]])
    original = fs._ORIGINAL_FUNCTIONS
    before = fs.fallback_counts()
    y, s, w = [0, 1, 1, 0], [0.1, 0.6, 0.4, 0.3], [1.0, 2.0, -0.5, 1.0]
    with fs.patched():
        # sparse input goes to scikit-learn directly
        ours_sparse = skm.f1_score(sparse.csr_array(yt), sparse.csr_array(yp), average="micro")
        # negative weights: fastauc refuses them, scikit-learn computes a number
        ours_negative = skm.roc_auc_score(y, s, sample_weight=w)
        # invalid for both: scikit-learn's own error
        with pytest.raises(ValueError, match="^Input contains NaN"):
            skm.roc_curve([0, 1, 1], [0.1, np.nan, 0.3])
    assert ours_sparse == original["f1_score"](yt, yp, average="micro")
    assert ours_negative == original["roc_auc_score"](y, s, sample_weight=w)
    after = fs.fallback_counts()
    for name in ("f1_score", "roc_auc_score", "roc_curve"):
        assert after[name] == before.get(name, 0) + 1


def test_invalid_input_raises_sklearns_exception_type():
    from sklearn.utils._param_validation import InvalidParameterError

    with fs.patched():
        with pytest.raises(InvalidParameterError):
            skm.f1_score([0, 1], [0, 1], average="median")


def test_scorer_pickles_as_fastauc():
    scorer = pickle.loads(pickle.dumps(fs.get_scorer("roc_auc")))
    assert scorer._score_func is fs._metric("roc_auc_score")
    assert scorer._score_func.fast is fastauc.roc_auc_score


def test_n_jobs_workers_score_with_fastauc():
    X, y = BINARY
    reference = cross_validate(LogisticRegression(), X, y, cv=3, scoring="roc_auc")
    with fs.patched():
        parallel = cross_validate(LogisticRegression(), X, y, cv=3, scoring="roc_auc",
                                  n_jobs=2)
    np.testing.assert_allclose(parallel["test_score"], reference["test_score"], rtol=1e-12)


def test_unknown_names():
    with pytest.raises(ValueError, match="roc_auc"):
        fs.get_scorer("accuracy")
    with pytest.raises(ValueError, match="FUNCTIONS"):
        fs._metric("accuracy_score")
