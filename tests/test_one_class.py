"""One class in y_true: one rule for every inference function (issue 36).

scikit-learn's ``roc_auc_score`` warns (``UndefinedMetricWarning``, "Only one
class is present in y_true. ROC AUC score is not defined in that case.") and
returns NaN; so do ``roc_auc_ci``, ``delong_test``, ``delong_covariance``,
``mann_whitney_u``, ``bootstrap_ci`` and ``bootstrap_test``, with every number
of their result NaN.  Messages show plain values (``0``, not ``np.int64(0)``).
"""

import math
import warnings

import numpy as np
import pytest
import sklearn.exceptions
import sklearn.metrics as skm

import fastauc

S = np.array([0.1, 0.8, 0.3, 0.6, 0.9, 0.4])
LABELS = {"zeros": np.zeros(6, np.int64), "ones": np.ones(6, np.int64),
          "strings": np.array(["sick"] * 6), "bools": np.ones(6, bool)}


def _sklearn_words(y):
    with pytest.warns(sklearn.exceptions.UndefinedMetricWarning) as record:
        assert math.isnan(skm.roc_auc_score(y, S))
    return str(record[0].message)


def _numbers(result):
    if isinstance(result, tuple):  # delong_covariance
        return np.concatenate([np.ravel(a) for a in result])
    fields = ("estimate", "low", "high", "se", "statistic", "pvalue", "difference", "auc_a",
              "auc_b", "estimate_a", "estimate_b", "auc")
    return np.array([getattr(result, f) for f in fields if hasattr(result, f)], float)


CALLS = {
    "roc_auc_ci": lambda y, w: fastauc.roc_auc_ci(y, S, sample_weight=w),
    "roc_auc_ci[logit]": lambda y, w: fastauc.roc_auc_ci(y, S, sample_weight=w,
                                                         transform="logit"),
    "roc_auc_ci[bootstrap]": lambda y, w: fastauc.roc_auc_ci(y, S, method="bootstrap",
                                                             sample_weight=w, n_resamples=20),
    "delong_test": lambda y, w: fastauc.delong_test(y, S, S[::-1], sample_weight=w),
    "delong_covariance": lambda y, w: fastauc.delong_covariance(
        y, np.column_stack((S, S[::-1])), sample_weight=w),
    "mann_whitney_u": lambda y, w: fastauc.mann_whitney_u(y, S, sample_weight=w),
    **{f"bootstrap_ci[{m}, {sc}]": (lambda y, w, m=m, sc=sc: fastauc.bootstrap_ci(
        y, S, metric=m, scheme=sc, sample_weight=w, n_resamples=20, random_state=0))
       for m in ("roc_auc", "average_precision", "log_loss") for sc in ("multinomial", "poisson")},
    "bootstrap_ci[bca]": lambda y, w: fastauc.bootstrap_ci(y, S, method="bca", sample_weight=w,
                                                           n_resamples=20),
    "bootstrap_ci[max_fpr]": lambda y, w: fastauc.bootstrap_ci(y, S, max_fpr=0.5,
                                                               sample_weight=w, n_resamples=20),
    "bootstrap_test": lambda y, w: fastauc.bootstrap_test(y, S, S[::-1], sample_weight=w,
                                                          n_resamples=20),
}


#: the calls whose metric is the ROC AUC: scikit-learn's words for roc_auc_score, whole
#: (the others say which test or metric is undefined after the same first sentence)
ROC = {name for name in CALLS if name != "mann_whitney_u" and not (
    name.startswith("bootstrap_ci[") and ("precision" in name or "log_loss" in name))}


@pytest.mark.parametrize("labels", sorted(LABELS))
@pytest.mark.parametrize("name", sorted(CALLS))
def test_one_class_warns_and_gives_nan(name, labels):
    y = LABELS[labels]
    words = _sklearn_words(y)
    with pytest.warns(fastauc.UndefinedMetricWarning) as record:
        result = CALLS[name](y, None)
    messages = [str(r.message) for r in record]
    assert len(messages) == 1, messages  # once, not once per layer
    assert messages[0].startswith("Only one class is present in y_true.")
    if name in ROC:
        assert messages[0] == words, (messages[0], words)  # scikit-learn's words
    # the warning is scikit-learn's class too, for filters written for either
    assert issubclass(record[0].category, sklearn.exceptions.UndefinedMetricWarning)
    assert record[0].filename == __file__  # it points at the caller's line
    assert np.isnan(_numbers(result)).all(), result
    if hasattr(result, "replicates"):
        assert np.isnan(result.replicates).all()
        assert result.n_dropped == result.n_resamples == 20


@pytest.mark.parametrize("name", sorted(CALLS))
def test_a_class_of_zero_weight_warns_and_gives_nan(name):
    y = np.array([0, 1, 0, 1, 1, 0])
    w = np.where(y == 1, 0.0, 1.0)
    with pytest.warns(fastauc.UndefinedMetricWarning) as record:
        assert math.isnan(fastauc.roc_auc_score(y, S, sample_weight=w))
    words = str(record[0].message)  # roc_auc_score's (scikit-learn warns, in other words)
    with pytest.warns(fastauc.UndefinedMetricWarning) as record:
        result = CALLS[name](y, w)
    messages = [str(r.message) for r in record]
    assert len(messages) == 1, messages
    assert messages[0].startswith("All samples of one class have zero weight.")
    if name in ROC:
        assert messages[0] == words, (messages[0], words)
    assert np.isnan(_numbers(result)).all(), result


def test_bootstrap_result_of_one_class_reads_plainly():
    with pytest.warns(fastauc.UndefinedMetricWarning):
        res = fastauc.bootstrap_ci(np.zeros(6, int), S, n_resamples=5)
    assert "estimate=nan" in repr(res) and "n_dropped=5" in repr(res)


def test_two_classes_are_unchanged():
    """Both classes: no warning (strict pytest), the estimate is roc_auc_score's."""
    y = np.array([0, 1, 0, 1, 1, 0])
    res = fastauc.bootstrap_ci(y, S, n_resamples=50, random_state=0)
    assert res.estimate == fastauc.roc_auc_score(y, S)
    assert not math.isnan(res.low)


# ------------------------------------------------------------------ plain values in messages

NUMPY_SCALARS = [
    (lambda: fastauc.report(np.zeros(6, np.int64), S), "y_true has only one class (0)"),
    (lambda: fastauc.roc_confidence_band(np.zeros(6, np.int64), S),
     "y_true contains only one class (the negative class)"),
    (lambda: fastauc._resample._prepare(np.zeros(6, np.int64), [S], ["y_score"], None,
                                        "roc_auc", True), "y_true contains only one class (0)"),
    (lambda: fastauc.report([0, 1, 0, 1, 1, 0], S, pos_label=np.int64(3)), "pos_label=3 "),
    (lambda: fastauc.roc_auc_ci([0, 1, 0, 1, 1, 0], S, confidence_level=np.float64(95)),
     "got 95.0"),
    (lambda: fastauc.roc_auc_score([0, 1, 0, 1, 1, 0], S, max_fpr=np.float64(2)), "got 2.0"),
    (lambda: fastauc.bootstrap_ci([0, 1, 0, 1, 1, 0], S, max_fpr=np.float64(2)), "got 2.0"),
    (lambda: fastauc.bootstrap_ci([0, 1, 0, 1, 1, 0], S, n_resamples=np.int64(0)), "got 0"),
    (lambda: fastauc.lift_at([0, 1, 0, 1, 1, 0], S, np.float64(2)), "got 2.0"),
    (lambda: fastauc.partial_auc([0, 1, 0, 1, 1, 0], S,
                                 fpr_range=(np.float64(0.5), np.float64(0.5))),
     "got (0.5, 0.5)"),
    (lambda: fastauc.best_threshold([0, 1, 0, 1, 1, 0], S, metric="cost",
                                    cost_fp=np.float64(-1), cost_fn=1), "got -1.0"),
    (lambda: fastauc.bootstrap_ci([0, 1, 0, 1, 1, 0], S, random_state=np.int64(-1)),
     "got -1"),
]


@pytest.mark.parametrize("call,words", NUMPY_SCALARS)
def test_messages_show_plain_values(call, words):
    with pytest.raises(ValueError) as info, warnings.catch_warnings():
        warnings.simplefilter("ignore")
        call()
    message = str(info.value)
    assert words in message, (words, message)
    assert "np." not in message and "numpy" not in message, message
