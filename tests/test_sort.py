"""The one sort layer (``fastauc._sort``): every path, width and payload gives
the stable per-class order that numpy's stable argsort defines."""

import json
import warnings
from unittest import mock

import numpy as np
import pytest
import sklearn.metrics as skm
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import fastauc
from fastauc import _sort
from fastauc._kernels.sorting import keys_to_floats
from fastauc._table import float_keys

EMPTY = np.empty(0)
NO_PAYLOAD = np.empty(0, np.int64)

# values that stress the keys: signed zeros, subnormals, extremes, ties
SPECIAL = [0.0, -0.0, 5e-324, -5e-324, 1e-310, 1.5, -1.5, 2.0, 1e300, -1e300,
           np.finfo(np.float32).tiny / 4, 3.4e38, -3.4e38, 0.1, 0.30000001]


def reference(is_pos, score, weight, extra):
    """Each class's rows of non-zero weight in numpy's stable order."""
    s64 = score.astype(np.float64)
    keep = weight != 0 if weight.shape[0] else np.ones(score.shape[0], bool)
    out = []
    for cls in (True, False):
        rows = np.flatnonzero((is_pos == cls) & keep)
        rows = rows[np.argsort(s64[rows], kind="stable")]
        out += [float_keys(s64[rows]), weight[rows] if weight.shape[0] else EMPTY,
                extra[rows] if extra.shape[0] else extra[:0]]
    return out


def check(is_pos, score, weight=EMPTY, extra=NO_PAYLOAD, path=None):
    got = _sort.sort_by_class(is_pos, score, weight, extra, path=path)
    for a, b in zip(got, reference(is_pos, score, weight, extra)):
        np.testing.assert_array_equal(a, b)
        assert a.dtype == b.dtype
    return got


@st.composite
def rows(draw, max_size=300):
    n = draw(st.integers(1, max_size))
    pool = draw(st.lists(st.sampled_from(SPECIAL) | st.floats(-1e6, 1e6, width=32),
                         min_size=1, max_size=12))
    dtype = draw(st.sampled_from([np.float64, np.float32]))
    if dtype == np.float32:  # no overflow to infinity
        pool = [x for x in pool if abs(x) <= 3.4e38] or [0.0]
    score = np.array(draw(st.lists(st.sampled_from(pool), min_size=n, max_size=n)), dtype)
    is_pos = draw(hnp.arrays(np.bool_, n))
    return is_pos, score


@settings(max_examples=150, deadline=None)
@given(rows(), st.booleans(), st.sampled_from([None, np.int32, np.int64]))
def test_radix_path_is_a_stable_sort_per_class(problem, weighted, payload):
    is_pos, score = problem
    n = score.shape[0]
    rng = np.random.default_rng(n)
    weight = rng.choice([0.0, 0.5, 1.0, 3.0], n) if weighted else EMPTY
    extra = np.arange(n, dtype=payload) if payload else NO_PAYLOAD
    check(is_pos, score, weight, extra, path="radix")


@settings(max_examples=60, deadline=None)
@given(rows(), st.booleans())
def test_row_index_payload_is_each_rows_index(problem, weighted):
    is_pos, score = problem
    n = score.shape[0]
    weight = np.random.default_rng(n).choice([0.0, 1.0, 2.5], n) if weighted else EMPTY
    got = _sort.sort_by_class(is_pos, score, weight, row_index=True)
    ref = reference(is_pos, score, weight, np.arange(n, dtype=np.int32))
    for a, b in zip(got, ref):
        np.testing.assert_array_equal(a, b)
        assert a.dtype == b.dtype


@settings(max_examples=100, deadline=None)
@given(rows(), st.sampled_from([1, 3, 16]), st.booleans(), st.booleans())
def test_many_buckets_give_the_same_stable_sort(problem, bucket_rows, weighted, payload):
    """Small inputs take the one-bucket kernel; with tiny buckets the same rows
    go through bins, buckets, the scatter and the segment sorts instead."""
    is_pos, score = problem
    n = score.shape[0]
    weight = np.random.default_rng(n).choice([0.0, 0.5, 2.0], n) if weighted else EMPTY
    extra = np.arange(n, dtype=np.int32) if payload else NO_PAYLOAD
    with mock.patch.object(_sort, "BUCKET_ROWS", bucket_rows):
        check(is_pos, score, weight, extra, path="radix")
        got = _sort.sort_by_class(is_pos, score, weight, row_index=True)
    for a, b in zip(got, reference(is_pos, score, weight, np.arange(n, dtype=np.int32))):
        np.testing.assert_array_equal(a, b)


@settings(max_examples=100, deadline=None)
@given(rows(), st.sampled_from(["key", "value"]), st.sampled_from([2, 5, 40]), st.booleans())
def test_key_bins_and_value_bins_give_the_same_stable_sort(problem, bins, bucket_rows,
                                                           weighted):
    """Buckets cut from bins of the key range or of the values (whichever the
    sample prefers, forced here both ways) sort the same."""
    is_pos, score = problem
    n = score.shape[0]
    weight = np.random.default_rng(n).choice([0.0, 0.5, 2.0], n) if weighted else EMPTY
    with mock.patch.object(_sort, "BINS", bins), \
            mock.patch.object(_sort, "BUCKET_ROWS", bucket_rows):
        check(is_pos, score, weight, np.arange(n, dtype=np.int64), path="radix")


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_rows_tied_on_the_bits_sorted_first_are_finished(dtype, rng):
    """The in-cache radix sorts only the high bits that spread the rows and
    finishes the runs tied on them: short runs by insertion, long ones (a
    cluster of close scores among spread ones) by sorting their low bits."""
    tiny = np.finfo(dtype).eps
    spread = rng.standard_normal(6000)
    long_run = 1.0 + rng.integers(0, 300, 400) * tiny  # shares all but its low bytes
    short_runs = np.repeat(rng.standard_normal(50), 3) + rng.integers(0, 8, 150) * tiny
    score = rng.permutation(np.concatenate([spread, long_run, short_runs])).astype(dtype)
    n = score.shape[0]
    is_pos = rng.random(n) < 0.4
    weight = rng.random(n)
    check(is_pos, score, path="radix")
    check(is_pos, score, weight, np.arange(n, dtype=np.int32), path="radix")
    with mock.patch.object(_sort, "BUCKET_ROWS", 1000):  # the same through buckets
        check(is_pos, score, weight, np.arange(n, dtype=np.int32), path="radix")


@pytest.mark.parametrize("n", [300, 3000, _sort.CHUNK_MIN + 777])
@pytest.mark.parametrize("weighted", [False, True])
def test_short_segments_sorted_by_value_codes(n, weighted, rng):
    """The groups' segments of up to ``VALUE_ROWS`` float64 rows sort by a
    16-bit code of their values, then by key: scores straddling zero, a span
    past the float range (no code can be formed: the radix sort instead),
    clusters that share one code (finished by key, by insertion or by the
    radix sort when long), signed zeros and denormals."""
    n_groups = 3 if n < 1000 else 40  # segments of about 50 to 500 rows
    cases = {
        "straddling zero": rng.standard_normal(n),
        "past the float range": rng.choice([-1.7e308, 1.7e308, 0.0, 1.0], n) * rng.random(n),
        "one code": np.where(rng.random(n) < 0.5, 0.5 + rng.integers(0, 50, n) * 1e-15,
                             rng.random(n) * 1e6),
        "zeros and denormals": rng.choice([-0.0, 0.0, 5e-324, -5e-324, 1e-310, 1.0], n),
    }
    for score in cases.values():
        is_pos = rng.random(n) < 0.4
        codes = rng.integers(0, n_groups, n)
        weight = rng.choice([0.0, 1.0, 2.5], n) if weighted else EMPTY
        runs, p_starts, n_starts, placement = _sort.sort_by_group(is_pos, score, weight, codes,
                                                                  n_groups)
        keep = weight != 0 if weighted else np.ones(n, bool)
        for cls, keys, w, x in ((True, runs.pk, runs.pw, runs.px),
                                (False, runs.nk, runs.nw, runs.nx)):
            rows = np.flatnonzero((is_pos == cls) & keep)
            order = np.lexsort((np.arange(rows.shape[0]), float_keys(score[rows]), codes[rows]))
            rows = rows[order]  # stable: by group, then by key (-0.0 ties +0.0)
            np.testing.assert_array_equal(keys, float_keys(score[rows]))
            if weighted:
                np.testing.assert_array_equal(w, weight[rows])
            if placement.slot_of is None:  # the payload is the rows' indices
                np.testing.assert_array_equal(x, rows)


@settings(max_examples=100, deadline=None)
@given(rows(), st.sampled_from([1, 3, 16, 1 << 18]))
def test_numpy_path_gives_the_same_runs(problem, bucket_rows):
    """np.sort's buckets (tiny ones here: many per class, ties across their
    edges) sort as the radix path does."""
    is_pos, score = problem
    with mock.patch.object(_sort, "NUMPY_BUCKET_ROWS", bucket_rows):
        a = check(is_pos, score, path="numpy")
    b = _sort.sort_by_class(is_pos, score, path="radix")
    for x, y in zip(a, b):
        np.testing.assert_array_equal(x, y)


@pytest.mark.parametrize("kind", ["normal", "uniform", "rounded", "one value", "narrow band",
                                  "signed", "float32"])
def test_large_inputs_many_buckets(kind, rng):
    """Sizes past the two-thread threshold: many buckets, oversized bins,
    ties across bucket edges; both paths and one thread give the same."""
    n = 300_000
    is_pos = rng.random(n) < 0.1
    score = {
        "normal": lambda: rng.standard_normal(n) + is_pos,
        "uniform": lambda: rng.random(n),
        "rounded": lambda: np.round(rng.random(n), 3),
        "one value": lambda: np.full(n, 0.25),
        # 99% of the rows in one tiny range: one bin far above the bucket size
        "narrow band": lambda: np.where(rng.random(n) < 0.99, 0.5 + rng.random(n) * 1e-9,
                                        rng.standard_normal(n)),
        "signed": lambda: np.round(rng.standard_normal(n), 1) * 1e-300,
        "float32": lambda: (rng.standard_normal(n) + is_pos).astype(np.float32),
    }[kind]()
    w = rng.random(n)
    w[::5] = 0.0
    rows_ = np.arange(n, dtype=np.int32)
    check(is_pos, score, path="radix")
    check(is_pos, score, path="numpy")
    with mock.patch.object(_sort, "NUMPY_BUCKET_ROWS", 1 << 13):  # dozens of buckets
        check(is_pos, score, path="numpy")
    check(is_pos, score, w, rows_, path="radix")
    got = _sort.sort_by_class(is_pos, score, w, row_index=True)
    for a, b in zip(got, reference(is_pos, score, w, rows_)):
        np.testing.assert_array_equal(a, b)


def test_serial_and_threaded_runs_are_identical(monkeypatch, rng):
    n = 200_000
    is_pos = rng.random(n) < 0.3
    score = np.round(rng.standard_normal(n), 2)
    w = rng.random(n)
    a = _sort.sort_by_class(is_pos, score, w, np.arange(n))
    b = _sort.sort_by_class(is_pos, score, w, np.arange(n), serial=True)
    monkeypatch.setenv("FASTAUC_NUM_THREADS", "1")
    c = _sort.sort_by_class(is_pos, score, w, np.arange(n))
    for x, y, z in zip(a, b, c):
        np.testing.assert_array_equal(x, y)
        np.testing.assert_array_equal(x, z)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
@pytest.mark.parametrize("n", [10, 100_000])
def test_non_finite_scores_raise_sklearns_error(dtype, bad, n):
    score = np.linspace(0, 1, n).astype(dtype)
    score[n // 3] = bad
    is_pos = np.arange(n) % 2 == 0
    word = "NaN" if np.isnan(bad) else "infinity"
    with pytest.raises(ValueError, match=f"Input contains {word}.*first at index {n // 3}"):
        _sort.sort_by_class(is_pos, score)


def test_numpy_path_refuses_weights_and_payloads():
    with pytest.raises(ValueError, match="no weights and no payload"):
        _sort.sort_by_class(np.ones(3, bool), np.ones(3), np.ones(3), path="numpy")


@pytest.mark.parametrize("n", [1000, 100_000])
def test_public_results_do_not_depend_on_the_path(monkeypatch, n, rng):
    """Both paths give the same runs, so every metric is bit-for-bit the same."""
    y = rng.random(n) < 0.2
    s = np.round(rng.standard_normal(n), 2).astype(np.float32)
    calls = {
        "auc": lambda: fastauc.roc_auc_score(y, s),
        "ap": lambda: fastauc.average_precision_score(y, s),
        "roc": lambda: fastauc.roc_curve(y, s),
        "pr": lambda: fastauc.precision_recall_curve(y, s),
        "pauc": lambda: fastauc.roc_auc_score(y, s, max_fpr=0.2),
        "ci": lambda: fastauc.roc_auc_ci(y, s).se,
    }
    got = {}
    for path in _sort.METHODS:
        monkeypatch.setenv("FASTAUC_SORT", path)
        got[path] = {k: f() for k, f in calls.items()}
    for k in calls:
        a, b = got["radix"][k], got["numpy"][k]
        for x, z in zip(a, b) if isinstance(a, tuple) else [(a, b)]:
            np.testing.assert_array_equal(x, z)
    assert got["radix"]["auc"] == pytest.approx(skm.roc_auc_score(y, s), abs=1e-12)


def test_float32_scores_sort_as_32_bit_keys_and_agree_with_sklearn(rng):
    n = 100_000
    y = rng.random(n) < 0.1
    s = (rng.standard_normal(n) + y).astype(np.float32)
    assert fastauc.roc_auc_score(y, s) == pytest.approx(skm.roc_auc_score(y, s), abs=1e-12)
    fpr, tpr, thr = fastauc.roc_curve(y, s)
    rf, rt, rth = skm.roc_curve(y, s)
    np.testing.assert_allclose(fpr, rf, atol=1e-12)
    np.testing.assert_allclose(tpr, rt, atol=1e-12)
    np.testing.assert_array_equal(thr[1:], rth[1:].astype(np.float64))
    p, r, t = fastauc.precision_recall_curve(y, s)
    assert t.dtype == np.float32
    rp, rr, rtt = skm.precision_recall_curve(y, s)
    np.testing.assert_allclose(p, rp, atol=1e-12)
    np.testing.assert_array_equal(t, rtt)
    assert fastauc.average_precision_score(y, s) == pytest.approx(
        skm.average_precision_score(y, s), abs=1e-12)


def test_method_env_override_and_bad_value(monkeypatch):
    monkeypatch.setenv("FASTAUC_SORT", "numpy")
    assert _sort.method() == "numpy"
    monkeypatch.setenv("FASTAUC_SORT", "quick")
    with pytest.raises(ValueError, match="FASTAUC_SORT must be one of"):
        _sort.method()


def test_calibration_is_measured_once_and_remembered(monkeypatch, tmp_path):
    """Measured once per thread count, remembered per host, numpy and thread count."""
    monkeypatch.delenv("FASTAUC_SORT", raising=False)
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    monkeypatch.setenv("FASTAUC_NUM_THREADS", "2")
    monkeypatch.setattr(_sort, "_choice", {})
    timed = []
    real = _sort.calibrate

    def small(n=1 << 12, repeat=1):
        timed.append(n)
        return real(1 << 12, repeat)

    monkeypatch.setattr(_sort, "calibrate", small)
    first = _sort.method()
    assert first in _sort.METHODS and len(timed) == 1
    saved = json.loads((tmp_path / "fastauc_sort_choice.json").read_text())
    assert saved["by_threads"]["2"]["method"] == first
    assert set(saved["by_threads"]["2"]["seconds"]) == set(_sort.METHODS)
    assert saved["host"] == _sort._host()
    monkeypatch.setattr(_sort, "_choice", {})  # a new process: read, not timed again
    assert _sort.method() == first and len(timed) == 1
    # another thread count is measured, and kept beside the first
    monkeypatch.setenv("FASTAUC_NUM_THREADS", "5")
    assert _sort.method() in _sort.METHODS and len(timed) == 2
    saved = json.loads((tmp_path / "fastauc_sort_choice.json").read_text())
    assert set(saved["by_threads"]) == {"2", "5"}
    # another host (or numpy) measures afresh
    saved["host"] = "another CPU"
    (tmp_path / "fastauc_sort_choice.json").write_text(json.dumps(saved))
    monkeypatch.setattr(_sort, "_choice", {})
    _sort.method()
    assert len(timed) == 3


@pytest.mark.parametrize("kind", ["continuous", "rounded", "few values", "one class run",
                                  "weighted"])
def test_curves_dropped_while_swept_equal_sklearn(kind, rng):
    """drop_intermediate applied as the (split) sweep writes the points: the
    same points as scikit-learn's, also where the two key ranges meet."""
    n = 150_000
    y = (rng.random(n) < 0.3).astype(int)
    s = {"continuous": lambda: rng.standard_normal(n) + y,
         "rounded": lambda: np.round(rng.standard_normal(n) + y, 2),
         "few values": lambda: rng.integers(0, 7, n).astype(float),
         # long runs of one class around the middle: collinear points at the cut
         "one class run": lambda: np.where(np.abs(np.arange(n) - n / 2) < 5000,
                                           np.arange(n) * 1.0, rng.random(n) * n),
         "weighted": lambda: np.round(rng.random(n), 3)}[kind]()
    if kind == "one class run":
        y[np.abs(np.arange(n) - n / 2) < 5000] = 1
    w = rng.choice([0.0, 0.5, 2.0], n) if kind == "weighted" else None
    for ours, theirs in ((fastauc.roc_curve, skm.roc_curve),
                         (fastauc.precision_recall_curve, skm.precision_recall_curve)):
        got = ours(y, s, sample_weight=w, drop_intermediate=True)
        ref = theirs(y, s, sample_weight=w, drop_intermediate=True)
        for a, b in zip(got, ref):
            assert a.shape == b.shape
            np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-12)


@settings(max_examples=150, deadline=None)
@given(rows(max_size=60), st.booleans())
def test_split_sweeps_drop_points_as_sklearn_does(problem, weighted):
    """Small inputs swept in two key ranges (the split lowered to 4 rows), so
    that the rule is judged across the ranges' meeting point on many shapes."""
    import fastauc._table as T

    is_pos, score = problem
    n = score.shape[0]
    if is_pos.all() or not is_pos.any():
        return
    y = is_pos.astype(int)
    w = np.random.default_rng(n).choice([0.5, 1.0, 2.0], n) if weighted else None
    with mock.patch.object(T, "CHUNK_MIN", 4):
        for ours, theirs in ((fastauc.roc_curve, skm.roc_curve),
                             (fastauc.precision_recall_curve, skm.precision_recall_curve)):
            got = ours(y, score, sample_weight=w, drop_intermediate=True)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                ref = theirs(y, score, sample_weight=w, drop_intermediate=True)
            for a, b in zip(got, ref):
                assert a.shape == b.shape
                np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("n", [500, _sort.CHUNK_MIN + 777])
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("n_groups", [None, 37])
@pytest.mark.parametrize("slots", [False, True])
def test_sort_by_group_is_a_stable_sort_by_group_then_score(n, weighted, n_groups, slots, rng,
                                                            monkeypatch):
    """Each class's rows by group, then by score (stable), with their slots,
    which the placement maps back to the rows; past the two-thread threshold
    the halves are scattered on two threads (one group: ``sort_by_class``,
    in one bucket at 500 rows, in many past it).  Small inputs carry the
    rows' indices (the slots are the rows); ``slots`` forces the slots of
    larger ones."""
    if slots:
        monkeypatch.setattr(_sort, "DIRECT_ROWS", 0)
    is_pos = rng.random(n) < 0.3
    score = np.round(rng.standard_normal(n), 2)
    codes = None if n_groups is None else rng.integers(0, n_groups, n)
    weight = rng.choice([0.0, 1.0, 2.5], n) if weighted else EMPTY
    runs, p_starts, n_starts, placement = _sort.sort_by_group(is_pos, score, weight, codes,
                                                              n_groups or 1)
    keep = weight != 0 if weighted else np.ones(n, bool)
    # each row's slot, through the placement: values per slot come back per row
    per_slot, at = placement.buffer()
    step, lag = (2, 1) if at is None else at  # None: side by side
    assert not per_slot.any() and per_slot.shape == (2 * placement.slots,)
    at = np.arange(placement.slots) * step
    per_slot[at] = np.arange(placement.slots)
    per_slot[at[np.concatenate([runs.px, runs.nx])] + lag] = -1.0  # slots of rows in runs
    slot_of, minus_one = placement.to_rows(per_slot)
    assert slot_of.flags.c_contiguous and minus_one.flags.c_contiguous
    np.testing.assert_array_equal(minus_one, np.where(keep, -1.0, 0.0))
    row_of = np.full(placement.slots, -1)
    row_of[slot_of[keep].astype(np.int64)] = np.flatnonzero(keep)
    group = np.zeros(n, np.int64) if codes is None else codes
    for cls, keys, w, x, starts in ((True, runs.pk, runs.pw, runs.px, p_starts),
                                    (False, runs.nk, runs.nw, runs.nx, n_starts)):
        rows = np.flatnonzero((is_pos == cls) & keep)
        rows = rows[np.lexsort((score[rows], group[rows]))]  # stable: by group, then score
        np.testing.assert_array_equal(row_of[x], rows)
        np.testing.assert_array_equal(keys, float_keys(score[rows]))
        if weighted:
            np.testing.assert_array_equal(w, weight[rows])
        np.testing.assert_array_equal(np.diff(starts),
                                      np.bincount(group[rows], minlength=n_groups or 1))


@pytest.mark.parametrize("n_groups", [None, 37])
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_counting_in_the_calling_thread_changes_nothing(n_groups, dtype, rng):
    """``count_here`` (the boosting objectives: the sort's counting and
    scatter passes in the calling thread) gives the very same runs, starts
    and placement, with weights, groups and both layouts of the payload."""
    n = 3 * _sort.CHUNK_MIN + 11
    is_pos = rng.random(n) < 0.2
    score = np.round(rng.standard_normal(n), 3).astype(dtype)
    weight = rng.choice([0.0, 1.0, 2.5], n)
    codes = None if n_groups is None else rng.integers(0, n_groups, n)
    a = _sort.sort_by_class(is_pos, score, weight, row_index=True)
    b = _sort.sort_by_class(is_pos, score, weight, row_index=True, count_here=True)
    for x, y in zip(a, b):
        np.testing.assert_array_equal(x, y)
    for direct in (True, False):
        with mock.patch.object(_sort, "DIRECT_ROWS", n if direct else 0):
            a = _sort.sort_by_group(is_pos, score, weight, codes, n_groups or 1)
            b = _sort.sort_by_group(is_pos, score, weight, codes, n_groups or 1,
                                    count_here=True)
        for x, y in zip((*a[0], *a[1:3]), (*b[0], *b[1:3])):
            np.testing.assert_array_equal(x, y)
        assert a[3].slots == b[3].slots
        if a[3].slot_of is None:
            assert b[3].slot_of is None
        else:
            np.testing.assert_array_equal(a[3].slot_of, b[3].slot_of)


@pytest.mark.parametrize("n_groups", [None, 37])
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("n", [300, 3 * _sort.CHUNK_MIN + 11])
def test_sorted_values_are_the_keys_values(n, n_groups, dtype, rng):
    """``values=True`` (the all-pairs losses: the sorting threads write the
    scores' float64 bits) gives each sorted key's value, the rest unchanged:
    one bucket, many buckets, groups (their short segments sorted by
    ``by_value``), and the numpy path."""
    is_pos = rng.random(n) < 0.2
    score = np.round(rng.standard_normal(n), 3).astype(dtype)
    score[::7] = -0.0  # one tie with +0.0, which comes back as +0.0
    weight = rng.choice([0.0, 1.0, 2.5], n)
    codes = None if n_groups is None else rng.integers(0, n_groups, n)

    def check(keyed, valued):
        for i, (x, y) in enumerate(zip(keyed, valued)):
            if i % 3 == 0:  # pk, nk
                x = keys_to_floats(x, np.empty_like(x))
                y = y.view(np.float64)
            np.testing.assert_array_equal(x, y)

    check(_sort.sort_by_class(is_pos, score, weight, row_index=True),
          _sort.sort_by_class(is_pos, score, weight, row_index=True, values=True))
    check(_sort.sort_by_class(is_pos, score, path="numpy"),
          _sort.sort_by_class(is_pos, score, path="numpy", values=True))
    a = _sort.sort_by_group(is_pos, score, weight, codes, n_groups or 1)
    b = _sort.sort_by_group(is_pos, score, weight, codes, n_groups or 1, values=True)
    check(a[0], b[0])
    for x, y in zip(a[1:3], b[1:3]):
        np.testing.assert_array_equal(x, y)


@pytest.mark.parametrize("n_codes", [1, 37, 1 << 20])
def test_class_code_payload_in_blocks_equals_one_pass(n_codes, rng):
    """The payload and the counts per code from row blocks on the threads
    (few codes) or one pass (many): each row's ``code << 1 | is_pos``, and
    numpy's counts."""
    from fastauc._kernels.periods import payload_of

    n = 300_000
    codes = rng.integers(0, n_codes, n)
    is_pos = rng.random(n) < 0.3
    payload, rows, pos_rows = _sort.class_code_payload(codes, is_pos, n_codes)
    ref = np.empty(n, payload.dtype)
    ref_rows, ref_pos = np.zeros(n_codes, np.int64), np.zeros(n_codes, np.int64)
    payload_of(codes, is_pos, ref, ref_rows, ref_pos)
    np.testing.assert_array_equal(payload, ref)
    np.testing.assert_array_equal(payload, (codes << 1) | is_pos)
    np.testing.assert_array_equal(rows, np.bincount(codes, minlength=n_codes))
    np.testing.assert_array_equal(pos_rows, np.bincount(codes[is_pos], minlength=n_codes))
    np.testing.assert_array_equal(ref_rows, rows)
    np.testing.assert_array_equal(ref_pos, pos_rows)
