"""Every registry entry against its reference (tests/registry.py).

Seeded data (plain and tie-heavy, with and without weights) for every entry;
hypothesis' small tie-heavy binary problems (tests/strategies.py) for every
entry whose data derives from a binary problem.
"""

import warnings

import numpy as np
import pytest
from hypothesis import assume, given, settings

import fastauc

from .registry import (
    INTEGER_WEIGHT_VALUES,
    REGISTRY,
    WEIGHT_VALUES,
    assert_close,
    close_figures,
    first_entries,
    public_functions,
)
from .strategies import binary_problems

SEEDS = (0, 1, 2)
REFERENCED = [c for c in REGISTRY if c.reference is not None]


def _quiet(fn, *args):
    try:
        with warnings.catch_warnings(), np.errstate(all="ignore"):
            warnings.simplefilter("ignore")
            return fn(*args)
    finally:
        close_figures()


def _weights(entry, rng, n):
    if entry.integer_weights:
        values = INTEGER_WEIGHT_VALUES
    elif entry.positive_weights:
        values = [v for v in WEIGHT_VALUES if v > 0]
    else:
        values = WEIGHT_VALUES
    w = rng.choice(values, n)
    w[:3] = 1.0  # the rows that hold every class keep some weight
    return w


def _has_weight_in_both_classes(d, w):
    if w is None or "y" not in d or d["y"].ndim != 1 or len(np.unique(d["y"])) != 2:
        return True
    pos = d["y"] == d["y"].max()
    return w[pos].sum() > 0 and w[~pos].sum() > 0


def test_every_public_function_has_an_entry():
    assert set(first_entries()) == set(public_functions()), sorted(
        set(public_functions()) ^ set(first_entries()))


def test_every_entry_without_a_reference_says_why():
    for c in REGISTRY:
        assert c.reference is not None or c.reason, c.name
        assert c.tol == 1e-12 or c.reason, c.name  # a looser tolerance is explained


def test_every_weighted_function_is_registered_as_weighted():
    import inspect

    for name, c in first_entries().items():
        takes = "sample_weight" in inspect.signature(getattr(fastauc, name)).parameters
        weighted = any(e.weights for e in REGISTRY if e.function == name)
        assert takes == weighted, name


CASES = [(c, ties, weighted) for c in REFERENCED for ties in (False, True)
         for weighted in ((False, True) if c.weights else (False,))]


@pytest.mark.parametrize("entry,ties,weighted", CASES,
                         ids=[f"{c.name}-{'ties' if t else 'plain'}-{'w' if w else 'nw'}"
                              for c, t, w in CASES])
def test_against_reference(entry, ties, weighted):
    for seed in SEEDS[:1] if entry.slow else SEEDS:
        rng = np.random.default_rng(seed)
        d = entry.data(rng, 60, ties)
        n = len(next(iter(d.values())))
        w = _weights(entry, rng, n) if weighted else None
        ours = _quiet(entry, d, w)
        ref = _quiet(entry.reference, d, w)
        assert_close(ours, ref, entry.tol, f"{entry.name} seed={seed}")


def _check_problem(entry, problem):
    y, s, w = problem
    if not entry.weights:
        w = None
    elif w is not None and entry.integer_weights:
        w = np.floor(w)
    elif w is not None and entry.positive_weights:
        w = np.where(w > 0, w, 1.0)
    d = entry.data.from_binary(y, s)
    if (w is not None and w.sum() == 0) or not _has_weight_in_both_classes(d, w):
        return False
    try:
        ref = _quiet(entry.reference, d, w)
    except ValueError:  # undefined for the reference (e.g. no positive in a lift)
        with pytest.raises(ValueError):
            _quiet(entry, d, w)
        return True
    assert_close(_quiet(entry, d, w), ref, entry.tol, entry.name)
    return True


def _by_kind(slow):
    kinds = {}
    for c in REFERENCED:
        if c.data.from_binary is not None and c.slow == slow:
            kinds.setdefault(c.data.name, []).append(c)
    return kinds


FAST_KINDS, SLOW_KINDS = _by_kind(False), _by_kind(True)


# one problem, every entry of a kind: hypothesis draws (and shrinks) once per example
@pytest.mark.parametrize("kind", sorted(FAST_KINDS))
@given(problem=binary_problems(min_size=4, max_size=40))
def test_against_reference_on_tie_heavy_problems(kind, problem):
    checked = [_check_problem(entry, problem) for entry in FAST_KINDS[kind]]
    assume(any(checked))


@pytest.mark.parametrize("kind", sorted(SLOW_KINDS))
@settings(max_examples=6)  # figures, resampling and whole reports: a few examples each
@given(problem=binary_problems(min_size=8, max_size=40))
def test_slow_entries_against_reference_on_tie_heavy_problems(kind, problem):
    checked = [_check_problem(entry, problem) for entry in SLOW_KINDS[kind]]
    assume(any(checked))
