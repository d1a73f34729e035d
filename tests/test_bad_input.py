"""Bad input: the error type and the words the message must contain.

Two tables: ``GENERIC`` spoils the registry's data (tests/registry.py) of
every public function in the same ways (NaN/inf scores, length mismatch, NaN
labels, a third class, empty input, bad weights); ``CASES`` are each
function's own option errors.
"""

import warnings

import numpy as np
import pytest

import fastauc

from .registry import close_figures, first_entries, public_functions

Y = np.array([0, 1, 0, 1, 1])
S = np.array([0.1, 0.8, 0.3, 0.6, 0.9])

CASES = [
    # (call, error type, words that must appear)
    (lambda: fastauc.roc_auc_score(Y, [0.1, np.nan, 0.3, np.nan, 0.9]), ValueError,
     ["y_score", "2 NaN or infinite", "index 1"]),
    (lambda: fastauc.roc_curve(Y, [0.1, 0.2, np.inf, 0.3, 0.9]), ValueError,
     ["y_score", "1 NaN or infinite", "index 2"]),
    (lambda: fastauc.roc_auc_score(Y, S[:4]), ValueError, ["y_true has 5", "y_score has 4"]),
    (lambda: fastauc.roc_auc_score([], []), ValueError, ["empty"]),
    (lambda: fastauc.roc_auc_score(Y, S, sample_weight=[1, 1, np.nan, 1, 1]), ValueError,
     ["sample_weight", "NaN or infinite", "index 2"]),
    (lambda: fastauc.roc_auc_score(Y, S, sample_weight=[1, -1, 1, 1, 1]), ValueError,
     ["sample_weight", "negative", "index 1"]),
    (lambda: fastauc.roc_auc_score(Y, S, sample_weight=[1, 1, 1]), ValueError,
     ["sample_weight", "3", "5"]),
    (lambda: fastauc.roc_auc_score(Y, S, sample_weight=np.zeros(5)), ValueError,
     ["sample_weight", "zero"]),
    (lambda: fastauc.roc_curve([0, 1, 2, 1, 0], S), ValueError, ["3 classes", "binary"]),
    (lambda: fastauc.roc_curve([1, 2, 2, 1, 1], S), ValueError, ["pos_label", "{1, 2}"]),
    (lambda: fastauc.roc_auc_score([0, 1, 2, 1, 0], S), ValueError, ["multi_class", "3 classes"]),
    (lambda: fastauc.roc_auc_score([0.5, 1.5, 0.5, 1.5, 0.5], S), ValueError, ["continuous"]),
    (lambda: fastauc.roc_auc_score([0, 1, 2, 0],
                                   [[.5, .2, .2], [.1, .8, .1], [.2, .2, .6], [.3, .3, .3]],
                                   multi_class="ovr"), ValueError, ["sum up to 1"]),
    (lambda: fastauc.roc_auc_score([0, 1, 2, 0],
                                   [[.5, .3, .2], [.1, .8, .1], [.2, np.nan, .6], [.3, .3, .4]],
                                   multi_class="ovo"), ValueError, ["NaN"]),
    (lambda: fastauc.roc_auc_score([0, 1, 2, 0],
                                   [[.5, .3, .2], [.1, .8, .1], [.2, .2, np.inf], [.3, .3, .4]],
                                   multi_class="ovr"), ValueError, ["infinity"]),
    (lambda: fastauc.roc_auc_score(Y, S, max_fpr=0), ValueError, ["max_fpr", "(0, 1]"]),
    (lambda: fastauc.roc_auc_score(Y, S, max_fpr=1.5), ValueError, ["max_fpr", "(0, 1]"]),
    (lambda: fastauc.roc_auc_score(Y, S, average="median"), ValueError, ["average"]),
    (lambda: fastauc.roc_auc_score(Y, np.column_stack([1 - S, S])), ValueError,
     ["shape (5, 2)", "positive class"]),
    (lambda: fastauc.roc_auc_score(Y, ["a", "b", "c", "d", "e"]), ValueError,
     ["dtype='numeric' is not compatible with arrays of bytes/strings", "y_score"]),
    (lambda: fastauc.roc_auc_score(Y, None), TypeError, ["y_score", "None"]),
    (lambda: fastauc.roc_auc_score(Y, S + 1j), ValueError, ["Complex data not supported"]),
    (lambda: fastauc.roc_auc_score([0, np.nan, 1, 1, 0], S), ValueError,
     ["Input y_true contains NaN.", "index 1"]),
    (lambda: fastauc.log_loss(Y, [0.1, 0.2, 1.2, 0.3, 0.4]), ValueError, ["greater than 1"]),
    (lambda: fastauc.log_loss(Y, [0.1, -0.2, 0.2, 0.3, 0.4]), ValueError, ["lower than 0"]),
    (lambda: fastauc.log_loss([1, 1, 1], [0.1, 0.2, 0.3]), ValueError, ["only one label"]),
    (lambda: fastauc.log_loss(Y, [0.1, np.nan, 0.2, 0.3, 0.4]), ValueError,
     ["y_proba", "NaN"]),
    (lambda: fastauc.average_precision_score(Y, S, pos_label=3), ValueError,
     ["pos_label=3", "not a valid label"]),
    # inference
    (lambda: fastauc.mann_whitney_u(Y, S, alternative="bigger"), ValueError,
     ["alternative", "two-sided"]),
    (lambda: fastauc.mann_whitney_u(Y, S, method="permutation"), ValueError, ["method"]),
    (lambda: fastauc.mann_whitney_u(Y, [0.1, np.inf, 0.3, 0.6, 0.9]), ValueError,
     ["y_score", "NaN or infinite", "index 1"]),
    (lambda: fastauc.mann_whitney_u(Y, S, method="exact", sample_weight=[1, .5, 1, 1, 1]),
     ValueError, ["exact", "whole numbers"]),
    (lambda: fastauc.delong_covariance(Y, np.ones((4, 2))), ValueError,
     ["y_true has 5", "y_scores has 4"]),
    (lambda: fastauc.delong_covariance(Y, np.ones((5, 2, 2))), ValueError, ["y_scores"]),
    (lambda: fastauc.delong_test(Y, S, S[:4]), ValueError, ["y_score_a has 5", "y_score_b has 4"]),
    (lambda: fastauc.delong_test(Y, S, [0.1, 0.2, np.nan, 0.3, 0.4]), ValueError,
     ["NaN or infinite"]),
    (lambda: fastauc.roc_auc_ci(Y, S, confidence_level=95), ValueError,
     ["confidence_level", "(0, 1)"]),
    (lambda: fastauc.roc_auc_ci(Y, S, method="wald"), ValueError, ["method", "delong"]),
    (lambda: fastauc.roc_auc_ci(Y, S, n_resamples=10), TypeError, ["n_resamples", "delong"]),
    (lambda: fastauc.roc_auc_ci(Y, S, transform="probit"), ValueError, ["transform"]),
    (lambda: fastauc.bootstrap_ci(Y, S, n_resamples=0), ValueError, ["n_resamples", "at least 1"]),
    (lambda: fastauc.bootstrap_ci(Y, S, n_resamples=10.5), TypeError, ["n_resamples", "integer"]),
    (lambda: fastauc.bootstrap_ci(Y, S, metric="f1"), ValueError, ["metric", "roc_auc"]),
    (lambda: fastauc.bootstrap_ci(Y, S, method="studentized"), ValueError, ["method", "bca"]),
    (lambda: fastauc.bootstrap_ci(Y, S, metric="average_precision", max_fpr=0.5), ValueError,
     ["max_fpr", "roc_auc"]),
    (lambda: fastauc.bootstrap_ci(Y, S, max_fpr=0), ValueError, ["max_fpr", "(0, 1]"]),
    (lambda: fastauc.bootstrap_ci(Y, S, metric="average_precision", method="bca"), ValueError,
     ["bca", "percentile"]),
    (lambda: fastauc.bootstrap_ci(Y, S + 1, metric="log_loss"), ValueError,
     ["log_loss", "probabilities"]),
    (lambda: fastauc.bootstrap_ci(Y, S, random_state="seed"), TypeError, ["random_state"]),
    (lambda: fastauc.bootstrap_ci(Y, S, random_state=-1), ValueError, ["random_state"]),
    (lambda: fastauc.bootstrap_ci(Y, S, sample_weight=[1, 1, -1, 1, 1]), ValueError,
     ["sample_weight", "negative"]),
    (lambda: fastauc.bootstrap_test(Y, S, S, alternative="up"), ValueError, ["alternative"]),
    (lambda: fastauc.bootstrap_test(Y, S, S[:3]), ValueError, ["y_score_b has 3"]),
]




# ---------------------------------------------------------------- the generic table

def _spoil(a, index, value):
    a = a.astype(np.float64)  # a copy
    a[(index,) + (0,) * (a.ndim - 1)] = value
    return a


def _with(d, key, value):
    return {**d, key: value}


# name -> (applies to the entry?, spoil (entry, d, w) -> (d, w), error type, words)
MUTATIONS = {
    "nan score": (lambda c: True,
                  lambda c, d, w: (_with(d, c.data.score, _spoil(d[c.data.score], 1, np.nan)), w),
                  ValueError, ["contains NaN", "1 NaN or infinite value", "index 1"]),
    "inf score": (lambda c: True,
                  lambda c, d, w: (_with(d, c.data.score, _spoil(d[c.data.score], 2, np.inf)), w),
                  ValueError, ["infinity", "1 NaN or infinite value", "index 2"]),
    "short labels": (lambda c: True,  # one row fewer in y_true (or x) than in the rest
                     lambda c, d, w: (_with(d, next(iter(d)), d[next(iter(d))][:-1]), w),
                     ValueError, ["inconsistent numbers of samples", "has 7"]),
    "nan label": (lambda c: "y" in c.data.labels,
                  lambda c, d, w: (_with(d, "y", _spoil(d["y"], 1, np.nan)), w),
                  ValueError, ["y_true", "NaN", "index 1"]),
    "third class": (lambda c: c.data.binary,
                    lambda c, d, w: (_with(d, "y", np.where(np.arange(8) == 3, 2, d["y"])), w),
                    ValueError, None),  # the words: the entry's ``bad_labels``
    "empty": (lambda c: True,
              lambda c, d, w: ({k: a[:0] for k, a in d.items()}, None),
              ValueError, ["empty"]),
    "nan weight": (lambda c: c.weights, lambda c, d, w: (d, _spoil(w, 2, np.nan)),
                   ValueError, ["sample_weight", "NaN", "index 2"]),
    "negative weight": (lambda c: c.weights, lambda c, d, w: (d, _spoil(w, 1, -1.0)),
                        ValueError, ["sample_weight", "negative", "index 1"]),
    "short weight": (lambda c: c.weights, lambda c, d, w: (d, w[:3]),
                     ValueError, ["inconsistent numbers of samples", "sample_weight has 3"]),
    "zero weights": (lambda c: c.weights, lambda c, d, w: (d, np.zeros_like(w)),
                     ValueError, ["sample_weight sums to zero"]),
}

GENERIC = [pytest.param(entry, name, id=f"{function}-{name}")
           for function, entry in sorted(first_entries().items())
           for name, (applies, *_) in MUTATIONS.items()
           if applies(entry) and entry.bad_words.get(name, ()) is not None]


@pytest.mark.parametrize("entry,mutation", GENERIC)
def test_generic_bad_input_message(entry, mutation):
    _, spoil, exc, words = MUTATIONS[mutation]
    d, w = spoil(entry, entry.data(np.random.default_rng(0), 8), np.ones(8))
    try:
        with pytest.raises(exc) as info, warnings.catch_warnings():
            warnings.simplefilter("ignore")
            entry(d, w if entry.weights else None)
    finally:
        close_figures()  # a plot opens its figure before it checks its input
    message = str(info.value)
    for word in entry.bad_words.get(mutation, words or ("3 classes", "binary")):
        assert word in message, (word, message)


def test_every_public_function_is_in_the_generic_table():
    covered = {p.values[0].function for p in GENERIC}
    assert covered == set(public_functions()), set(public_functions()) ^ covered


@pytest.mark.parametrize("call,exc,words", CASES)
def test_bad_input_message(call, exc, words):
    with pytest.raises(exc) as info:
        call()
    message = str(info.value)
    for word in words:
        assert word in message, (word, message)


def test_inputs_are_never_modified(rng):
    y = rng.integers(0, 2, 100_000)
    s = rng.standard_normal(100_000)
    s[::7] = -0.0
    w = rng.random(100_000)
    copies = [a.copy() for a in (y, s, w)]
    fastauc.roc_auc_score(y, s, sample_weight=w)
    fastauc.roc_curve(y, s, sample_weight=w)
    fastauc.precision_recall_curve(y, s, sample_weight=w, drop_intermediate=True)
    fastauc.det_curve(y, s, sample_weight=w, drop_intermediate=True)
    fastauc.log_loss(y, 1 / (1 + np.exp(-s)), sample_weight=w)
    fastauc.mann_whitney_u(y, s, sample_weight=w)
    fastauc.delong_test(y, s, -s, sample_weight=w)
    fastauc.bootstrap_test(y, s, -s, sample_weight=w, n_resamples=5, random_state=0)
    fastauc.bootstrap_ci(y, 1 / (1 + np.exp(-s)), metric="log_loss", method="bca",
                         n_resamples=5, random_state=0)
    for a, b in zip((y, s, w), copies):
        np.testing.assert_array_equal(a, b)
        assert np.signbit(a).sum() == np.signbit(b).sum()
