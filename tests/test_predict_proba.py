"""One model's scores given as ``predict_proba`` output: an (n, 2) array whose
rows sum to 1 (issue 36).

Every public function of the registry is run on such input.  Those that take
one model's scores raise scikit-learn's error in scikit-learn's words (its
function of the same name where there is one, else ``column_or_1d``'s), then
say which column to pass; those that take one model per column warn, naming
column 1; those that take 2-D scores legitimately are listed with the reason.
"""

import warnings

import numpy as np
import pytest
import sklearn.metrics as skm
from sklearn.utils.validation import column_or_1d

import fastauc

from .registry import BY_NAME, assert_close, close_figures, first_entries, public_functions

#: functions that take 2-D scores legitimately, and why
TAKES_2D = {
    "log_loss": "takes the probability of every class: (n, 2) is a binary classifier's "
                "predict_proba output, which scikit-learn's log_loss takes as well",
    **dict.fromkeys(("brier_score_loss", "d2_brier_score", "d2_log_loss_score"),
                    "takes the probability of every class, as scikit-learn's does"),
    "delong_omnibus": "takes k models, one per column (its own test: k >= 2 columns)",
}
#: functions that also take 2-D scores when y_true is not binary (tested below): with a
#: binary y_true, (n, 2) scores raise, as scikit-learn's do
TAKES_2D_FOR_MULTICLASS = {
    "roc_auc_score": "multiclass probabilities (multi_class='ovr'/'ovo') and multilabel scores",
    "average_precision_score": "multiclass probabilities and multilabel scores",
}
#: functions that take one model per column: predict_proba's columns are two models
#: to them, so they warn (and name the positive class's column)
MODELS_AS_COLUMNS = ("delong_covariance", "report")
#: functions whose input is not a model's scores (curve points): scikit-learn's words,
#: no advice about predict_proba
NOT_SCORES = {"auc"}
#: functions whose scores are named y_prob (scikit-learn's calibration_curve)
PROB_NAMES = dict.fromkeys(("calibration_curve", "calibration_error", "brier_decomposition",
                            "expected_roc_auc",
                            "reliability_curve", "plot_calibration"), "y_prob")
PROB_NAMES["roc_power"] = "y_score"  # two models' pilot scores, named y_score and y_score2
CLASSIFICATION = {"f1_score", "fbeta_score", "precision_score", "recall_score",
                  "precision_recall_fscore_support", "class_likelihood_ratios"}


def _proba(rng, n):
    """A binary classifier's predict_proba output: (n, 2), rows summing to 1."""
    p1 = rng.random(n)
    return np.column_stack((1.0 - p1, p1))


def _single_model_entries():
    return [pytest.param(entry, id=name) for name, entry in sorted(first_entries().items())
            if name not in TAKES_2D and name not in MODELS_AS_COLUMNS]


def _sklearn_message(entry, d):
    """scikit-learn's error for the same input: its function of the same name, else
    ``column_or_1d`` (the check its ranking functions run on one model's scores)."""
    if hasattr(skm, entry.function):
        call = lambda: entry.reference(d, None)  # noqa: E731
    else:
        call = lambda: column_or_1d(d[entry.data.score])  # noqa: E731
    with pytest.raises(ValueError) as info:
        call()
    return str(info.value)


@pytest.mark.parametrize("entry", _single_model_entries())
def test_one_model_functions_refuse_predict_proba(entry):
    rng = np.random.default_rng(0)
    d = entry.data(rng, 60)
    P = _proba(rng, 60)
    d = {**d, entry.data.score: P}
    expected = _sklearn_message(entry, d)
    try:
        with pytest.raises(ValueError) as info:
            entry(d, None)
    finally:
        close_figures()
    message = str(info.value)
    assert message.startswith(expected), (message, expected)  # scikit-learn's words first
    assert len(message) > len(expected)  # then ours
    if entry.function in NOT_SCORES:
        assert "predict_proba" not in message
    elif entry.function in CLASSIFICATION:
        assert "predict_proba" in message and "predicted labels" in message
    else:
        assert "predict_proba" in message
        name = "y_score_a" if entry.data.name == "two score columns" else "y_score"
        name = PROB_NAMES.get(entry.function, name)
        assert f"{name}[:, 1]" in message, message  # the positive class's column
    np.testing.assert_array_equal(d[entry.data.score], P)  # the input is left alone


def test_words_of_one_source():
    """The 1-D words are scikit-learn's column_or_1d's, from one place."""
    from fastauc import _validation as v

    P = _proba(np.random.default_rng(1), 5)
    with pytest.raises(ValueError) as info:
        column_or_1d(P)
    assert v.NOT_1D.format(shape=P.shape) == str(info.value)
    for call in (lambda: fastauc.roc_auc_score([0, 1, 0, 1, 1], P),
                 lambda: fastauc.bootstrap_ci([0, 1, 0, 1, 1], P),
                 lambda: fastauc.Accumulator().update([0, 1, 0, 1, 1], P)):
        with pytest.raises(ValueError) as ours:
            call()
        assert str(ours.value).startswith(str(info.value))


def test_other_2d_scores_say_what_to_pass():
    y = np.array([0, 1, 0, 1, 1])
    S = np.random.default_rng(2).random((5, 3))
    with pytest.raises(ValueError) as info:
        fastauc.roc_curve(y, S)
    message = str(info.value)
    assert message.startswith("y should be a 1d array, got an array of shape (5, 3) instead.")
    assert "3 columns" in message and "report()" in message and "predict_proba" not in message


@pytest.mark.parametrize("entry", _single_model_entries())
def test_one_column_is_one_model(entry):
    """Shape (n, 1) is 1-D, as scikit-learn's column_or_1d (and roc_auc_score) take it."""
    rng = np.random.default_rng(3)
    d = entry.data(rng, 60)
    column = {**d, entry.data.score: d[entry.data.score][:, None]}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # e.g. a group of one class: the same both ways
        try:
            assert_close(entry(column, None), entry(d, None), tol=0.0)
        finally:
            close_figures()


def test_accumulator_update_refuses_predict_proba():
    rng = np.random.default_rng(4)
    y, P = rng.integers(0, 2, 50), _proba(rng, 50)
    acc = fastauc.Accumulator().update(y, P[:, 1])
    with pytest.raises(ValueError, match=r"y should be a 1d array.*y_score\[:, 1\]"):
        acc.update(y, P)
    assert acc.n_samples == 50  # the batch that failed left the state as it was


@pytest.mark.parametrize("function", MODELS_AS_COLUMNS)
def test_models_as_columns_warn_and_name_column_1(function):
    rng = np.random.default_rng(5)
    y = rng.integers(0, 2, 200)
    p1 = np.clip(0.3 * y + 0.7 * rng.random(200), 0, 1)
    P = np.column_stack((1.0 - p1, p1))
    with pytest.warns(UserWarning, match=r"predict_proba.*y_scores\[:, 1\], the probability "
                                         r"of the greater label") as record:
        got = getattr(fastauc, function)(y, P)
    assert len(record) == 1
    assert record[0].filename == __file__  # points at the caller
    aucs = [m.auc for m in got.models] if function == "report" else list(got[0])
    # what it warns about: two "models", the second the first reversed
    assert aucs[1] == fastauc.roc_auc_score(y, p1)
    assert aucs[0] == pytest.approx(1.0 - aucs[1], abs=1e-12)


def test_report_names_column_0_when_the_smaller_label_is_positive():
    rng = np.random.default_rng(6)
    y = rng.integers(0, 2, 100)
    P = _proba(rng, 100)
    with pytest.warns(UserWarning, match=r"y_scores\[:, 0\], the probability of the smaller"):
        fastauc.report(y, P, pos_label=0)


def test_two_models_do_not_warn():
    """Two models' scores that do not sum to 1 row by row: no warning (strict pytest)."""
    d = BY_NAME["delong_covariance"].data(np.random.default_rng(7), 100)
    S = np.column_stack((1 / (1 + np.exp(-d["s"])), 1 / (1 + np.exp(-d["s2"]))))
    fastauc.report(d["y"], S)
    fastauc.delong_covariance(d["y"], S)
    # nor a predict_proba output of three classes (not a binary classifier's)
    fastauc.delong_covariance(d["y"], np.full((100, 3), 1 / 3))


def test_streamed_report_warns_too():
    from fastauc.streaming import report_stream

    rng = np.random.default_rng(8)
    y, P = rng.integers(0, 2, 90), _proba(rng, 90)
    with pytest.warns(UserWarning, match=r"y_scores\[:, 1\]"):
        report_stream(lambda: ((y[a:a + 40], P[a:a + 40], None, None) for a in (0, 40, 80)))


@pytest.mark.parametrize("function", sorted(TAKES_2D_FOR_MULTICLASS))
def test_multiclass_scores_stay_2d(function):
    """With three classes the (n, 3) probabilities are the input, as in scikit-learn."""
    entry = BY_NAME[f"{function}[{'ovr' if function == 'roc_auc_score' else 'multiclass'}]"]
    d = entry.data(np.random.default_rng(9), 60)
    assert_close(entry(d, None), entry.reference(d, None), entry.tol)


def test_log_loss_takes_predict_proba():
    rng = np.random.default_rng(10)
    y, P = rng.integers(0, 2, 80), _proba(rng, 80)
    assert fastauc.log_loss(y, P) == pytest.approx(skm.log_loss(y, P), rel=1e-12)
    assert fastauc.log_loss(y, P) == fastauc.log_loss(y, P[:, 1])


def test_every_public_function_is_covered():
    listed = {p.id for p in _single_model_entries()} | set(TAKES_2D) | set(MODELS_AS_COLUMNS)
    assert listed == set(public_functions()), listed ^ set(public_functions())
    assert set(TAKES_2D_FOR_MULTICLASS) <= listed
