"""scikit-learn's weight invariances for every weighted entry of the registry.

For every entry with ``weights=True`` (tests/registry.py): weights of ones ==
no weights; integer weights == repeated rows; a zero weight == the row
removed; all weights scaled by a constant == the same result; shuffled rows
== the same result.  An entry lists the invariances that hold for it and, for
each, the parts of its result that must not change (frequency weights: the
point estimates are scale-free, variances and p-values are not; resampling
methods draw rows, not weight); ``notes`` says why the others do not hold.
"""

import warnings

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from .registry import (
    INVARIANCES,
    WEIGHT_VALUES,
    WEIGHTED,
    assert_close,
    close_figures,
    select,
)
from .strategies import binary_problems

# every reference comparison here holds on both sort paths (fastauc._sort)
pytestmark = pytest.mark.usefixtures("each_sort_path")

TOL = 1e-12
SCALES = [0.5, 2.0, 4.0, 1024.0]


def _run(entry, d, w):
    try:
        with warnings.catch_warnings(), np.errstate(all="ignore"):
            warnings.simplefilter("ignore")
            return entry(d, w)
    finally:
        close_figures()


def problems(data, weights=None):
    """A raw problem: hypothesis' binary problem ``(y, s, w)`` where the data derives
    from one (tests/strategies.py), else ``(seed, n, ties)`` (multiclass, multilabel)."""
    if data.from_binary is not None:
        return binary_problems(min_size=4, max_size=40, weights=weights)
    return st.tuples(st.integers(0, 2**32 - 1), st.integers(8, 40), st.booleans(),
                     st.just(bool(weights)))


def _materialize(entry, raw):
    """``(d, w)`` for one entry from a raw problem."""
    if entry.data.from_binary is not None:
        y, s, w = raw
        return entry.data.from_binary(y, s), w
    seed, n, ties, weights = raw
    rng = np.random.default_rng(seed)
    d = entry.data(rng, n, ties)
    w = None
    if weights:
        w = rng.choice(WEIGHT_VALUES, n)
        w[:3] = 1.0
    return d, w


def _n(d):
    return len(next(iter(d.values())))


def _rows(d, idx):
    return {k: a[idx] for k, a in d.items()}


def _label_sets(d, keys):
    out = []
    for k in keys:
        a = d[k]
        cols = a.T if a.ndim == 2 else [a]
        out.append([tuple(np.unique(c).tolist()) for c in cols])
    return out


def _both_classes_weigh(entry, d, w):
    """Binary data whose weights leave a class empty is left out (as scikit-learn's
    invariance tests do): several functions are undefined there."""
    if w is None or not entry.data.binary:
        return True
    pos = d["y"] == d["y"].max()
    return w[pos].sum() > 0 and w[~pos].sum() > 0


def _check(entry, invariance, expected_args, actual_args):
    """``entry(*actual_args)`` equals ``entry(*expected_args)`` on the parts that must."""
    if not _both_classes_weigh(entry, *expected_args):
        return False
    try:
        expected = _run(entry, *expected_args)
    except ValueError:  # undefined here (e.g. the hull with one class): nothing to compare
        return False
    actual = _run(entry, *actual_args)
    keys = entry.invariances[invariance]
    assert_close(select(actual, keys), select(expected, keys), TOL,
                 f"{entry.name}: {invariance}")
    return True


def _groups(invariance, slow):
    """Entries with this invariance, by the problem they are made from: one drawn
    problem checks them all (every binary kind derives from one binary problem)."""
    out = {}
    for c in WEIGHTED:
        if invariance in c.invariances and c.slow == slow:
            key = "binary problems" if c.data.from_binary is not None else c.data.name
            out.setdefault(key, []).append(c)
    return out


def _params(invariance, slow=False):
    return [pytest.param(entries, id=kind)
            for kind, entries in sorted(_groups(invariance, slow).items())]


def test_every_weighted_entry_has_its_invariances_or_says_why():
    for c in WEIGHTED:
        assert set(c.invariances) <= set(INVARIANCES), c.name
        assert "unit" in c.invariances, c.name  # holds for every weighted function
        missing = set(INVARIANCES) - set(c.invariances)
        partial = {k for k, keys in c.invariances.items() if keys is not None}
        assert not (missing or partial) or c.notes, (c.name, missing, partial)


def test_every_public_weighted_function_is_covered():
    import inspect

    import fastauc

    weighted = {n for n in fastauc.__all__ if callable(getattr(fastauc, n))
                and not isinstance(getattr(fastauc, n), type)
                and "sample_weight" in inspect.signature(getattr(fastauc, n)).parameters}
    assert weighted == {c.function for c in WEIGHTED}, weighted ^ {c.function for c in WEIGHTED}


# ---------------------------------------------------------------- the invariances

def unit(entry, raw):
    d, _ = _materialize(entry, raw)
    return _check(entry, "unit", (d, None), (d, np.ones(_n(d))))


def repeat(entry, raw, reps):
    d, _ = _materialize(entry, raw)
    w = np.array(reps[: _n(d)], dtype=float)
    idx = np.repeat(np.arange(_n(d)), w.astype(int))
    return _check(entry, "repeat", (_rows(d, idx), None), (d, w))


def zero(entry, raw, i):
    d, _ = _materialize(entry, raw)
    i = i % _n(d)
    keep = np.arange(_n(d)) != i
    removed = _rows(d, keep)
    if _label_sets(removed, entry.data.labels) != _label_sets(d, entry.data.labels):
        return False  # the row held the last of a class (or group): a different problem
    w = np.ones(_n(d))
    w[i] = 0.0
    return _check(entry, "zero", (removed, None), (d, w))


def scale(entry, raw, c):
    d, w = _materialize(entry, raw)
    return _check(entry, "scale", (d, w), (d, w * c))


def shuffle(entry, raw, seed):
    d, w = _materialize(entry, raw)
    perm = np.random.default_rng(seed).permutation(_n(d))
    return _check(entry, "shuffle", (d, w), (_rows(d, perm), None if w is None else w[perm]))


REPS = st.lists(st.integers(1, 4), min_size=40, max_size=40)
SEED = st.integers(0, 2**32 - 1)


FEW = settings(max_examples=5)  # figures, resampling and whole reports: a few examples


def _all(check, entries, *args):
    """Run one invariance for every entry; the example counts if any entry was defined."""
    return any([check(entry, *args) for entry in entries])


def _data(entries):
    return entries[0].data


@pytest.mark.parametrize("entries", _params("unit"))
@given(data=st.data())
def test_unit_weights_equal_no_weights(entries, data):
    assume(_all(unit, entries, data.draw(problems(_data(entries), weights=False))))


@pytest.mark.parametrize("entries", _params("repeat"))
@given(data=st.data(), reps=REPS)
def test_integer_weights_equal_repeated_rows(entries, data, reps):
    assume(_all(repeat, entries, data.draw(problems(_data(entries), weights=False)), reps))


@pytest.mark.parametrize("entries", _params("zero"))
@given(data=st.data(), i=st.integers(0, 39))
def test_zero_weight_equals_removed_row(entries, data, i):
    assume(_all(zero, entries, data.draw(problems(_data(entries), weights=False)), i))


@pytest.mark.parametrize("entries", _params("scale"))
@given(data=st.data(), c=st.sampled_from(SCALES))
def test_scaled_weights_same_result(entries, data, c):
    assume(_all(scale, entries, data.draw(problems(_data(entries), weights=True)), c))


@pytest.mark.parametrize("entries", _params("shuffle"))
@given(data=st.data(), seed=SEED)
def test_shuffled_rows_same_result(entries, data, seed):
    assume(_all(shuffle, entries, data.draw(problems(_data(entries))), seed))


@pytest.mark.parametrize("entries", _params("unit", slow=True))
@FEW
@given(data=st.data())
def test_slow_entries_unit_weights(entries, data):
    assume(_all(unit, entries, data.draw(problems(_data(entries), weights=False))))


@pytest.mark.parametrize("entries", _params("repeat", slow=True))
@FEW
@given(data=st.data(), reps=REPS)
def test_slow_entries_repeated_rows(entries, data, reps):
    assume(_all(repeat, entries, data.draw(problems(_data(entries), weights=False)), reps))


@pytest.mark.parametrize("entries", _params("zero", slow=True))
@FEW
@given(data=st.data(), i=st.integers(0, 39))
def test_slow_entries_zero_weight(entries, data, i):
    assume(_all(zero, entries, data.draw(problems(_data(entries), weights=False)), i))


@pytest.mark.parametrize("entries", _params("scale", slow=True))
@FEW
@given(data=st.data(), c=st.sampled_from(SCALES))
def test_slow_entries_scaled_weights(entries, data, c):
    assume(_all(scale, entries, data.draw(problems(_data(entries), weights=True)), c))


@pytest.mark.parametrize("entries", _params("shuffle", slow=True))
@FEW
@given(data=st.data(), seed=SEED)
def test_slow_entries_shuffled_rows(entries, data, seed):
    assume(_all(shuffle, entries, data.draw(problems(_data(entries))), seed))


# ---------------------------------------------------------------- the exceptions are real

def _whole_invariance_holds(entry, invariance, d, w, rng):
    """Whether the invariance holds for the entry's whole result on one problem."""
    n = _n(d)
    if invariance == "unit":
        a, b = (d, None), (d, np.ones(n))
    elif invariance == "repeat":
        reps = rng.integers(1, 4, n).astype(float)
        a, b = (_rows(d, np.repeat(np.arange(n), reps.astype(int))), None), (d, reps)
    elif invariance == "zero":
        w0 = np.ones(n)
        w0[n // 2] = 0.0
        a, b = (_rows(d, np.arange(n) != n // 2), None), (d, w0)
    elif invariance == "scale":
        a, b = (d, w), (d, 4.0 * w)
    else:
        perm = rng.permutation(n)
        a, b = (d, w), (_rows(d, perm), w[perm])
    try:
        assert_close(_run(entry, *b), _run(entry, *a), TOL)
    except AssertionError:
        return False
    return True


EXCEPTIONS = [pytest.param(c, k, id=f"{c.name}-{k}") for c in WEIGHTED for k in INVARIANCES
              if c.invariances.get(k, "missing") is not None]


@pytest.mark.parametrize("entry,invariance", EXCEPTIONS)
def test_documented_exceptions_do_not_hold(entry, invariance):
    """Each invariance an entry leaves out (or holds only in part) fails for its whole
    result on some tie-heavy problem: the notes are not stale."""
    holds = []
    for seed in range(3):
        rng = np.random.default_rng(seed)
        d = entry.data(rng, 40, True)
        w = rng.choice([0.5, 1.0, 2.0, 3.25], _n(d))
        holds.append(_whole_invariance_holds(entry, invariance, d, w, rng))
    assert not all(holds), f"{entry.name}: {invariance} holds: list it in the registry"
