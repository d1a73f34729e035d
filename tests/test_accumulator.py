"""Accumulator: any batching and any merge tree give the in-memory results on the
concatenated rows; failed updates change nothing; the byte format is validated."""

import pickle
import struct
import warnings
import zlib

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import fastauc
import fastauc._accumulator_state as S
import fastauc.accumulator as A
from fastauc import Accumulator
from fastauc.accumulator import FORMAT_VERSION, MAGIC

from .strategies import binary_problems

TOL = 1e-12


def _quiet(fn, *args, **kwargs):
    """``(result, warning categories)``, or ``(exception type, message)`` if it raised."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            out = fn(*args, **kwargs)
        except (ValueError, TypeError) as exc:
            return type(exc), str(exc).split(" (")[0]
    return out, sorted({w.category.__name__ for w in caught})


def _same(a, b, tol=TOL):
    """Results equal to ``tol``: floats, arrays (same shape), tuples and dataclasses."""
    if isinstance(a, tuple) and not hasattr(a, "_fields") and not hasattr(a, "__dataclass_fields__"):
        assert isinstance(b, tuple) and len(a) == len(b), (a, b)
        for x, z in zip(a, b):
            _same(x, z, tol)
        return
    if isinstance(a, type):
        assert a is b
        return
    if hasattr(a, "__dataclass_fields__"):
        assert type(a) is type(b)
        for name in a.__dataclass_fields__:
            _same(getattr(a, name), getattr(b, name), tol)
        return
    if isinstance(a, dict):
        assert a.keys() == b.keys()
        for k in a:
            _same(a[k], b[k], tol)
        return
    if isinstance(a, list) and a and not isinstance(a[0], (int, float, np.number)):
        assert isinstance(b, list) and len(a) == len(b)
        for x, z in zip(a, b):
            _same(x, z, tol)
        return
    if isinstance(a, (list, np.ndarray)):
        a, b = np.asarray(a), np.asarray(b)
        assert a.shape == b.shape, (a, b)
        if a.dtype.kind in "fc":
            np.testing.assert_allclose(a, b, rtol=tol, atol=tol)
        else:
            np.testing.assert_array_equal(a, b)
        return
    if isinstance(a, float) or isinstance(b, float):
        if np.isnan(a):
            assert np.isnan(b)
        else:
            assert b == pytest.approx(a, rel=tol, abs=tol)
        return
    assert a == b, (a, b)


# every result method and the in-memory call it must equal
RESULTS = {
    "roc_auc": (lambda acc: acc.roc_auc(),
                lambda y, s, w, p: fastauc.roc_auc_score(y, s, sample_weight=w)),
    "roc_auc_max_fpr": (lambda acc: acc.roc_auc(max_fpr=0.4),
                        lambda y, s, w, p: fastauc.roc_auc_score(y, s, sample_weight=w,
                                                                 max_fpr=0.4)),
    "average_precision": (lambda acc: acc.average_precision(),
                          lambda y, s, w, p: fastauc.average_precision_score(
                              y, s, sample_weight=w, **({} if p is None else {"pos_label": p}))),
    "roc_curve": (lambda acc: acc.roc_curve(),
                  lambda y, s, w, p: fastauc.roc_curve(y, s, sample_weight=w, pos_label=p)),
    "roc_curve_all": (lambda acc: acc.roc_curve(drop_intermediate=False),
                      lambda y, s, w, p: fastauc.roc_curve(y, s, sample_weight=w, pos_label=p,
                                                           drop_intermediate=False)),
    "pr_curve": (lambda acc: acc.precision_recall_curve(),
                 lambda y, s, w, p: fastauc.precision_recall_curve(y, s, sample_weight=w,
                                                                   pos_label=p)),
    "det_curve": (lambda acc: acc.det_curve(drop_intermediate=True),
                  lambda y, s, w, p: fastauc.det_curve(y, s, sample_weight=w, pos_label=p,
                                                       drop_intermediate=True)),
    "roc_auc_ci": (lambda acc: acc.roc_auc_ci(),
                   lambda y, s, w, p: fastauc.roc_auc_ci(y, s, sample_weight=w)),
    "mann_whitney_u": (lambda acc: acc.mann_whitney_u(),
                       lambda y, s, w, p: fastauc.mann_whitney_u(y, s, sample_weight=w)),
    "threshold_metrics": (lambda acc: acc.threshold_metrics(),
                          lambda y, s, w, p: fastauc.threshold_metrics(y, s, sample_weight=w,
                                                                       pos_label=p)),
    "best_threshold": (lambda acc: acc.best_threshold("mcc"),
                       lambda y, s, w, p: fastauc.best_threshold(y, s, metric="mcc",
                                                                 sample_weight=w, pos_label=p)),
    "coords": (lambda acc: acc.coords([0.3, 0.8], input="specificity", ret="all"),
               lambda y, s, w, p: fastauc.coords(y, s, [0.3, 0.8], input="specificity", ret="all",
                                                 sample_weight=w, pos_label=p)),
    "coords_best": (lambda acc: acc.coords("best", ret=["threshold", "youden", "f1"]),
                    lambda y, s, w, p: fastauc.coords(y, s, "best", sample_weight=w, pos_label=p,
                                                      ret=["threshold", "youden", "f1"])),
    "coords_ci": (lambda acc: acc.coords_ci([0.0, 0.5], ret=["sensitivity", "ppv", "tp"]),
                  lambda y, s, w, p: fastauc.coords_ci(y, s, [0.0, 0.5], method="wilson",
                                                       ret=["sensitivity", "ppv", "tp"],
                                                       sample_weight=w, pos_label=p)),
    "partial_auc": (lambda acc: acc.partial_auc(fpr_range=(0, 0.3), correct=True),
                    lambda y, s, w, p: fastauc.partial_auc(y, s, fpr_range=(0, 0.3),
                                                           correct=True, sample_weight=w,
                                                           pos_label=p)),
}


# the calibration results: scores squashed into probabilities, labels {0, 1}
CALIBRATION = {
    "brier_score_loss": (lambda acc: acc.brier_score_loss(),
                         lambda y, p, w: fastauc.brier_score_loss(y, p, sample_weight=w)),
    "calibration_error": (lambda acc: acc.calibration_error(n_bins=10, norm="l2"),
                          lambda y, p, w: fastauc.calibration_error(y, p, n_bins=10, norm="l2",
                                                                    sample_weight=w)),
    "calibration_curve": (lambda acc: acc.calibration_curve(n_bins=4),
                          lambda y, p, w: fastauc.calibration_curve(y, p, n_bins=4)),
    "calibration_curve_quantile": (
        lambda acc: acc.calibration_curve(n_bins=3, strategy="quantile"),
        lambda y, p, w: fastauc.calibration_curve(y, p, n_bins=3, strategy="quantile")),
    "reliability_curve": (lambda acc: acc.reliability_curve(),
                          lambda y, p, w: fastauc.reliability_curve(y, p, sample_weight=w)),
    "brier_decomposition": (lambda acc: acc.brier_decomposition(),
                            lambda y, p, w: fastauc.brier_decomposition(y, p, sample_weight=w)),
}


@pytest.mark.parametrize("name", CALIBRATION)
@pytest.mark.parametrize("weighted", [False, True])
def test_calibration_results_equal_in_memory(name, weighted):
    rng = np.random.default_rng(7)
    y = rng.integers(0, 2, 400)
    p = np.round(1 / (1 + np.exp(-(y + rng.normal(size=400)))), 2)  # tied probabilities
    if weighted and name.startswith("calibration_curve"):
        return  # scikit-learn's calibration_curve takes no weights
    w = rng.choice([0.0, 0.5, 1.0, 2.0], 400) if weighted else None
    acc = Accumulator()
    for a in range(0, 400, 130):
        acc.update(y[a:a + 130], p[a:a + 130], None if w is None else w[a:a + 130])
    ours, ref = CALIBRATION[name]
    _same(ours(acc), ref(y, p, w))
    back = Accumulator.from_bytes(acc.to_bytes())  # and from its bytes
    _same(ours(back), ref(y, p, w))


def _positive_target(y, pos_label):
    """What the in-memory functions without pos_label see: y itself, or y == pos_label."""
    return y if pos_label is None else (y == pos_label)


def _check_all(acc, y, s, w, pos_label=None, names=RESULTS):
    for name in names:
        ours, ref = RESULTS[name]
        if pos_label is not None and name in ("roc_auc", "roc_auc_max_fpr", "roc_auc_ci",
                                              "mann_whitney_u"):
            expected = _quiet(ref, _positive_target(y, pos_label), s, w, None)
        else:
            expected = _quiet(ref, y, s, w, pos_label)
        got = _quiet(ours, acc)
        try:
            _same(got, expected)
        except AssertionError as exc:
            raise AssertionError(f"{name}: {got} != {expected}") from exc


def _batches(draw, n):
    cuts = sorted(draw(st.lists(st.integers(0, n), max_size=6)))
    edges = [0, *cuts, n]
    return list(zip(edges[:-1], edges[1:]))


def _fed(y, s, w, parts, pos_label=None):
    acc = Accumulator(pos_label=pos_label)
    for a, b in parts:
        acc.update(y[a:b], s[a:b], None if w is None else w[a:b])
    return acc


class _Setting:
    """``module.name = value`` inside the block, the old value back after it."""

    def __init__(self, module, name, value):
        self.module, self.name, self.value = module, name, value

    def __enter__(self):
        self.saved = getattr(self.module, self.name)
        setattr(self.module, self.name, self.value)

    def __exit__(self, *exc):
        setattr(self.module, self.name, self.saved)


def _SortRows(rows):
    """Batches of at least ``rows`` rows are sorted at once (the default waits for
    2**23): small values exercise the tables' LSM merges on small data."""
    return _Setting(A, "_SORT_ROWS", rows)


def _StageFrom(rows):
    """Batches of at least ``rows`` rows are copied into the accumulator's stage."""
    return _Setting(S, "STAGE_FROM", rows)


@given(binary_problems(both_classes=False), st.data(), st.sampled_from([1, 5, 1 << 21]),
       st.sampled_from([1, 1 << 16]))
def test_any_batches_and_merge_tree_equal_in_memory(problem, data, sort_rows, stage_from):
    """``stage_from`` 1: every batch is copied into its accumulator's stage."""
    y, s, w = problem
    parts = _batches(data.draw, len(y))
    with _SortRows(sort_rows), _StageFrom(stage_from):
        # a random merge tree: each part its own accumulator, merged pairwise at random
        accs = [_fed(y, s, w, [p]) for p in parts]
        # and a stream: the parts one after the other into one accumulator
        stream = _fed(y, s, w, parts)
        while len(accs) > 1:
            i = data.draw(st.integers(0, len(accs) - 2))
            accs[i].merge(accs.pop(i + 1))
    for acc in (accs[0], stream):
        _check_all(acc, y, s, w)
        assert acc.n_samples == len(y)


@pytest.mark.parametrize("stage_from", [8, 1 << 16])
def test_refilled_bool_labels_and_scores_are_copied(stage_from, rng):
    """The caller refills one pair of arrays for each batch: the rows kept are
    the batch's (bool labels were once kept by reference: the last batch's
    labels then stood for every waiting batch's)."""
    y = rng.random(400) < 0.3
    s = rng.normal(size=400) + y
    acc, yb, sb = Accumulator(), np.empty(100, bool), np.empty(100)
    with _StageFrom(stage_from):
        for k in range(0, 400, 100):
            yb[:], sb[:] = y[k:k + 100], s[k:k + 100]
            acc.update(yb, sb)
    assert acc.roc_auc() == fastauc.roc_auc_score(y, s)


def test_staged_batches_are_copies_sorted_without_another_copy(rng):
    """Batches from ``STAGE_FROM`` rows on are copied into the accumulator's
    stage, end to end: the caller may refill its arrays after ``update`` (bool
    labels too), the rows waiting for the sort are one view of each of the
    stage's buffers, and views that a merge gave another accumulator stay as
    they were while this one goes on filling its stage."""
    y = rng.random(400) < 0.3
    s = np.round(rng.normal(size=400) + y, 2)
    w = rng.random(400)
    with _StageFrom(8), _SortRows(1000):
        for ww in (None, w):
            acc, other = Accumulator(), Accumulator()
            yb, sb, wb = np.empty(50, bool), np.empty(50), np.empty(50)
            for k in range(0, 200, 50):  # one set of arrays, refilled for each batch
                yb[:], sb[:], wb[:] = y[k:k + 50], s[k:k + 50], w[k:k + 50]
                acc.update(yb, sb, None if ww is None else wb)
            is_pos, sc, wt = S._concatenated(acc._pending)
            assert sc.base is acc._stage.score and is_pos.base is acc._stage.is_pos
            np.testing.assert_array_equal(is_pos, y[:200])
            np.testing.assert_array_equal(sc, s[:200])
            if ww is not None:
                assert wt.base is acc._stage.weight
                np.testing.assert_array_equal(wt, w[:200])
            other.update(y[200:300], s[200:300], None if ww is None else w[200:300])
            acc.merge(other)  # acc now holds views of other's stage
            other.update(y[300:], s[300:], None if ww is None else w[300:])
            _check_all(acc, y[:300], s[:300], None if ww is None else w[:300])
            _check_all(other, y[200:], s[200:], None if ww is None else w[200:])
        # float32, then float64 batches, then weights: a new stage each time
        acc = Accumulator()
        acc.update(y[:100], s[:100].astype(np.float32))
        acc.update(y[100:200], s[100:200]).update(y[200:], s[200:], np.ones(200))
        ss = np.r_[s[:100].astype(np.float32).astype(np.float64), s[100:]]
        _check_all(acc, y, ss, None)


@given(binary_problems(max_size=40), st.data(), st.sampled_from([0, 1]))
def test_pos_label_given(problem, data, pos_label):
    y, s, w = problem
    acc = _fed(y, s, w, _batches(data.draw, len(y)), pos_label=pos_label)
    _check_all(acc, y, s, w, pos_label=pos_label)


def test_string_labels_greater_rule_and_the_curves_error(rng):
    y = np.where(rng.integers(0, 2, 300) == 1, "sick", "well")
    s = np.round(rng.normal(size=300), 1)
    acc = Accumulator()
    # the first batch holds only the greater label, the second only the smaller
    order = np.argsort(y == "sick", kind="stable")
    y, s = y[order], s[order]
    acc.update(y[:100], s[:100]).update(y[100:], s[100:])
    _check_all(acc, y, s, None)  # roc_curve etc. raise scikit-learn's pos_label error
    with pytest.raises(ValueError, match="pos_label is not specified"):
        acc.roc_curve()
    assert acc.roc_auc() == fastauc.roc_auc_score(y, s)
    named = Accumulator(pos_label="sick").update(y, s)
    _check_all(named, y, s, None, pos_label="sick")


def test_label_order_across_batches_swaps_the_classes(rng):
    y = rng.integers(0, 2, 200)
    s = rng.normal(size=200) + y
    for first in (0, 1):
        acc = Accumulator()
        acc.update(y[y == first], s[y == first])  # one class only
        one = _quiet(acc.roc_auc)
        assert np.isnan(one[0]) and one[1] == ["UndefinedMetricWarning"]
        acc.update(y[y != first], s[y != first])
        yy = np.r_[y[y == first], y[y != first]]
        ss = np.r_[s[y == first], s[y != first]]
        _check_all(acc, yy, ss, None)


def test_float32_scores_keep_their_dtype(rng):
    y = rng.integers(0, 2, 500)
    s = rng.random(500).astype(np.float32)
    acc = Accumulator().update(y[:200], s[:200]).update(y[200:], s[200:])
    fpr, tpr, thr = acc.roc_curve()
    ref = fastauc.roc_curve(y, s)
    assert thr.dtype == ref[2].dtype
    _same((fpr, tpr, thr), ref)
    mixed = Accumulator().update(y, s).update(y, s.astype(np.float64))
    assert mixed.roc_curve()[2].dtype == np.float64


def test_log_loss_and_report(rng):
    n = 2000
    y = rng.integers(0, 2, n)
    p = np.round(1 / (1 + np.exp(-(y + rng.normal(size=n)))), 2)
    w = rng.choice([0.0, 0.5, 1.0, 2.0], n)
    acc = _fed(y, p, w, [(0, 500), (500, 1300), (1300, n)])
    assert acc.log_loss() == pytest.approx(fastauc.log_loss(y, p, sample_weight=w), rel=TOL)
    ours, ref = acc.report(), fastauc.report(y, p, sample_weight=w)
    _same(ours, ref)
    assert str(ours) == str(ref)
    unweighted = _fed(y, p, None, [(0, 700), (700, n)])
    _same(unweighted.report(), fastauc.report(y, p))
    with pytest.raises(ValueError, match="probabilit|y_prob|\\[0, 1\\]"):
        Accumulator().update(y, p * 3 - 1).log_loss()


def test_many_small_updates_keep_few_tables(rng):
    acc = Accumulator()
    y = rng.integers(0, 2, 20_000)
    s = rng.random(20_000)
    with _SortRows(100):  # every batch its own table: the LSM rule keeps O(log n)
        for a in range(0, 20_000, 100):
            acc.update(y[a:a + 100], s[a:a + 100])
            assert len(acc._levels) <= 2 * np.log2(a / 100 + 2) + 1
    assert acc.roc_auc() == pytest.approx(fastauc.roc_auc_score(y, s), abs=TOL)
    assert acc.n_groups == len(np.unique(s))


def _state(acc):
    return acc.to_bytes() if acc.n_samples else b""


@pytest.mark.parametrize("bad", [
    (lambda acc: acc.update([0, 1], [0.1, np.nan]), ValueError, "NaN"),
    (lambda acc: acc.update([0, 1], [0.1, np.inf]), ValueError, "infinity"),
    (lambda acc: acc.update([0, 1, 1], [0.1, 0.2]), ValueError, "inconsistent numbers"),
    (lambda acc: acc.update([0, 1], [0.1, 0.2], [1.0, -1.0]), ValueError, "negative"),
    (lambda acc: acc.update([0, 1], [0.1, 0.2], [1.0]), ValueError, "inconsistent numbers"),
    (lambda acc: acc.update([0, 2], [0.1, 0.2]), ValueError, "multiclass"),
    (lambda acc: acc.update(["a", "b"], [0.1, 0.2]), ValueError, "Mix of label input types"),
    (lambda acc: acc.update([0.5, 1.0], [0.1, 0.2]), ValueError, "continuous"),
    (lambda acc: acc.update([[0, 1]], [[0.1, 0.2]]), ValueError, None),
    (lambda acc: acc.merge(Accumulator(pos_label=1)), ValueError, "different pos_label"),
    (lambda acc: acc.merge(Accumulator().update([2, 3], [0.1, 0.2])), ValueError,
     "multiclass"),
    (lambda acc: acc.merge("state"), TypeError, "Accumulator"),
])
@pytest.mark.parametrize("sort_rows", [1, 1 << 21])
def test_failed_update_or_merge_leaves_the_state_unchanged(bad, sort_rows, rng):
    fn, exc, match = bad
    y = rng.integers(0, 2, 100)
    s = rng.normal(size=100)
    with _SortRows(sort_rows):
        acc = Accumulator().update(y[:60], s[:60])
        acc.update(y[60:], s[60:])  # rows waiting to be sorted (or a second table)
        state = (list(acc._levels), list(acc._pending), list(acc._rows))
        with pytest.raises(exc, match=match):
            fn(acc)
    assert (acc._levels, acc._pending, acc._rows) == state
    assert acc.roc_auc() == fastauc.roc_auc_score(y, s)


def test_empty_batches_and_empty_state():
    acc = Accumulator().update([], [])
    assert acc.n_samples == 0 and acc.n_groups == 0
    with pytest.raises(ValueError, match="no rows"):
        acc.roc_curve()
    assert Accumulator.from_bytes(acc.to_bytes()).n_samples == 0
    assert acc.merge(Accumulator()).n_samples == 0
    acc.update([0, 1], [0.2, 0.7]).reset()
    assert acc.n_samples == 0


def test_merge_leaves_other_unchanged_and_self_merge(rng):
    y = rng.integers(0, 2, 300)
    s = np.round(rng.normal(size=300), 1)
    a = Accumulator().update(y[:100], s[:100])
    b = Accumulator().update(y[100:], s[100:])
    b_before = b.to_bytes()
    a.merge(b)
    assert b.to_bytes() == b_before
    assert a.roc_auc() == pytest.approx(fastauc.roc_auc_score(y, s), abs=TOL)
    twice = Accumulator().update(y, s)
    twice.merge(twice)
    assert twice.n_samples == 600
    assert twice.roc_auc() == pytest.approx(fastauc.roc_auc_score(np.r_[y, y], np.r_[s, s]))


# ------------------------------------------------------------------ bytes

def _sample_state(rng, **kw):
    y = np.where(rng.integers(0, 2, 60) == 1, "yes", "no")
    s = np.round(rng.normal(size=60), 1)
    w = rng.choice([0.0, 0.5, 2.0], 60)
    return Accumulator(**kw).update(y[:30], s[:30], w[:30]).update(y[30:], s[30:], w[30:])


@pytest.mark.parametrize("kw", [{}, {"pos_label": "yes"}])
def test_bytes_and_pickle_round_trip_mid_stream(kw, rng):
    acc = _sample_state(rng, **kw)
    for copy in (Accumulator.from_bytes(acc.to_bytes()), pickle.loads(pickle.dumps(acc))):
        assert copy.pos_label == acc.pos_label and copy.n_samples == acc.n_samples
        assert copy.to_bytes() == acc.to_bytes()
        more_y, more_s = np.array(["yes", "no", "no"]), np.array([0.3, 0.1, 2.0])
        copy.update(more_y, more_s)
        ref = Accumulator(**kw).merge(acc).update(more_y, more_s)
        _same((copy.roc_auc(), copy.roc_auc_ci()), (ref.roc_auc(), ref.roc_auc_ci()))
    assert acc.to_bytes()[:8] == MAGIC


def test_truncated_bytes_are_rejected(rng):
    data = _sample_state(rng).to_bytes()
    for cut in range(len(data)):
        with pytest.raises(ValueError):
            Accumulator.from_bytes(data[:cut])


def test_corrupted_bytes_are_rejected(rng):
    data = bytearray(_sample_state(rng).to_bytes())
    for i in range(len(data)):
        for bit in (0, 3, 7):
            bad = bytearray(data)
            bad[i] ^= 1 << bit
            with pytest.raises(ValueError):
                Accumulator.from_bytes(bytes(bad))


def _resealed(body: bytes) -> bytes:
    """A body with a valid checksum: the semantic checks must catch what it holds."""
    return body + struct.pack("<I", zlib.crc32(body))


def _rebuilt(header, keys, pos, neg, version=FORMAT_VERSION):
    import json

    head = json.dumps(header).encode()
    body = (struct.pack("<8sHHI", MAGIC, version, 0, len(head)) + head
            + np.asarray(keys, "<u8").tobytes() + np.asarray(pos, "<f8").tobytes()
            + np.asarray(neg, "<f8").tobytes())
    return _resealed(body)


@pytest.mark.parametrize("change, match", [
    (lambda h, k, p, n: (h, k[::-1], p, n), "descending"),
    (lambda h, k, p, n: (h, k, -p, n), "non-negative"),
    (lambda h, k, p, n: (h, k, p * np.nan, n), "finite"),
    (lambda h, k, p, n: ({**h, "n_keys": h["n_keys"] + 1}, k, p, n), "keys need"),
    (lambda h, k, p, n: ({**h, "rows": [1, 2]}, k, p, n), "distinct scores|add up"),
    (lambda h, k, p, n: ({**h, "rows": [-1, 2]}, k, p, n), "rows"),
    (lambda h, k, p, n: ({**h, "pos_label": {"type": "int", "value": "x"}}, k, p, n),
     "label"),
    (lambda h, k, p, n: ({**h, "classes": {"dtype": "<i8", "values": [2, 1]}}, k, p, n),
     "sorted"),
    (lambda h, k, p, n: ({**h, "classes": {"dtype": "<i8", "values": [0, 1, 2]}}, k, p, n),
     "two classes"),
    (lambda h, k, p, n: ({k2: v for k2, v in h.items() if k2 != "weighted"}, k, p, n),
     "weighted"),
    (lambda h, k, p, n: (h, np.full_like(k, 0xFFF8000000000001), p[:1].repeat(len(k)), n),
     "descending|finite"),
    (lambda h, k, p, n: (h, k, p + 0.5, n), "add up"),
])
def test_resealed_but_inconsistent_states_are_rejected(change, match, rng):
    import json

    y = rng.integers(0, 2, 50)
    s = np.round(rng.normal(size=50), 1)
    data = Accumulator().update(y, s).to_bytes()
    head_len = struct.unpack_from("<I", data, 12)[0]
    header = json.loads(data[16:16 + head_len])
    m = header["n_keys"]
    body = np.frombuffer(data, np.uint8, len(data) - 20 - head_len, 16 + head_len)
    keys = body[:8 * m].view("<u8")
    pos, neg = body[8 * m:16 * m].view("<f8"), body[16 * m:].view("<f8")
    assert Accumulator.from_bytes(_rebuilt(header, keys, pos, neg)).roc_auc() == \
        fastauc.roc_auc_score(y, s)
    with pytest.raises(ValueError, match=match):
        Accumulator.from_bytes(_rebuilt(*change(header, keys.copy(), pos.copy(), neg.copy())))


def test_newer_version_and_foreign_bytes(rng):
    acc = Accumulator().update([0, 1], [0.2, 0.4])
    data = acc.to_bytes()
    newer = _resealed(data[:8] + struct.pack("<H", FORMAT_VERSION + 1) + data[10:-4])
    with pytest.raises(ValueError, match="newer"):
        Accumulator.from_bytes(newer)
    with pytest.raises(ValueError, match="magic"):
        Accumulator.from_bytes(pickle.dumps(acc.roc_auc()) + b"\0" * 20)
    with pytest.raises(TypeError, match="bytes-like"):
        Accumulator.from_bytes("not bytes")


# ------------------------------------------------------------------ large tables

def _reference_table(y, s, w):
    """Distinct scores (descending) with each class's weight: numpy's unique."""
    ww = np.ones(len(y)) if w is None else w
    keys, inv = np.unique(-s, return_inverse=True)
    pos = np.bincount(inv, weights=ww * (y == 1), minlength=len(keys))
    neg = np.bincount(inv, weights=ww * (y == 0), minlength=len(keys))
    return -keys, pos, neg


@pytest.mark.parametrize("decimals", [2, 4, None])
@pytest.mark.parametrize("weighted", [False, True])
def test_two_thread_table_builds_and_merges_equal_numpy(decimals, weighted, rng, monkeypatch):
    """Tables of >= 2**16 rows are built and merged in two key ranges on two
    threads; ties across the cut must add up, and one thread gives the same."""
    from fastauc._table import Table

    n = 300_000
    y = rng.integers(0, 2, n)
    s = rng.random(n) if decimals is None else np.round(rng.random(n), decimals)
    w = rng.choice([0.5, 1.0, 3.0], n) if weighted else None
    ref = _reference_table(y, s, w)
    built = []
    for threads in ("2", "1"):
        monkeypatch.setenv("FASTAUC_NUM_THREADS", threads)
        whole = Table.from_rows(y == 1, s, np.empty(0) if w is None else w)
        half = n // 3
        a = Table.from_rows(y[:half] == 1, s[:half], np.empty(0) if w is None else w[:half])
        b = Table.from_rows(y[half:] == 1, s[half:], np.empty(0) if w is None else w[half:])
        for t in (whole, a.merge(b), b.merge(a)):
            np.testing.assert_array_equal(t.scores, ref[0])
            np.testing.assert_allclose(t.pos, ref[1], rtol=1e-12)
            np.testing.assert_allclose(t.neg, ref[2], rtol=1e-12)
        built.append(whole)
    np.testing.assert_array_equal(built[0].pos, built[1].pos)
    acc = Accumulator()
    for lo in range(0, n, 70_000):
        acc.update(y[lo:lo + 70_000], s[lo:lo + 70_000], None if w is None else w[lo:lo + 70_000])
    assert acc.n_groups == len(ref[0])
    assert acc.roc_auc() == pytest.approx(fastauc.roc_auc_score(y, s, sample_weight=w), abs=TOL)


@given(binary_problems(), st.integers(1, 6))
def test_tables_with_row_positions_and_tracked_merges(problem, parts):
    """``table_with_rows``: the table ``Table.from_rows`` builds, with each row
    of positive weight pointing at its score's key; ``merge_placed``: the
    merged table, and each input key's DeLong placement numerators in it."""
    from fastauc._table import Table, float_keys, merge_placed, table_with_rows

    y, s, w = problem
    ww = np.empty(0) if w is None else w
    table, at = table_with_rows(y == 1, s, ww)
    held = np.ones(len(s), bool) if w is None else w > 0  # rows of weight zero: no key
    ref = _reference_table(y[held], s[held], None if w is None else w[held])
    np.testing.assert_array_equal(table.scores, ref[0])
    np.testing.assert_allclose(table.pos, ref[1], rtol=1e-12)
    np.testing.assert_allclose(table.neg, ref[2], rtol=1e-12)
    np.testing.assert_array_equal(table.keys[at[held]], float_keys(s)[held])
    cuts = np.linspace(0, len(s), parts + 1).astype(int)
    pieces = [Table.from_rows(y[a:b] == 1, s[a:b], ww[a:b] if w is not None else ww)
              for a, b in zip(cuts[:-1], cuts[1:])]
    merged, values = merge_placed(pieces)
    np.testing.assert_array_equal(merged.keys, table.keys)
    np.testing.assert_allclose(merged.pos, table.pos, rtol=1e-12)
    np.testing.assert_allclose(merged.neg, table.neg, rtol=1e-12)
    # per key, where it has positive weight its negative weight below (ties
    # one half), then where it has negative weight the positive weight above
    # (ties one half) in the merged table, by definition
    for piece, vals in zip(pieces, values):
        expected = []
        for key, p, q in zip(piece.keys, piece.pos, piece.neg):
            tie = merged.keys == key
            if p > 0:
                expected.append(merged.neg[merged.keys < key].sum() + 0.5 * merged.neg[tie].sum())
            if q > 0:
                expected.append(merged.pos[merged.keys > key].sum() + 0.5 * merged.pos[tie].sum())
        np.testing.assert_allclose(vals, expected, rtol=1e-12, atol=1e-12)


# ------------------------------------------------------------------ bounded mode

def _curve_points(fpr, tpr):
    return {(round(float(a), 12), round(float(b), 12)) for a, b in zip(fpr, tpr)}


@given(binary_problems(both_classes=True), st.data(), st.integers(2, 12))
def test_bounded_auc_is_certified_and_curve_points_are_exact(problem, data, max_groups):
    y, s, w = problem
    parts = _batches(data.draw, len(y))
    accs = [_fed_bounded(y, s, w, [p], max_groups) for p in parts]
    while len(accs) > 1:
        i = data.draw(st.integers(0, len(accs) - 2))
        accs[i].merge(accs.pop(i + 1))
    acc = accs[0]
    assert acc.n_groups <= max(max_groups, 1)
    true, _ = _quiet(fastauc.roc_auc_score, y, s, sample_weight=w)
    (low, high), _ = _quiet(acc.auc_bounds)
    if np.isnan(true):
        assert np.isnan(low) and np.isnan(high)
        return
    assert low - 1e-12 <= true <= high + 1e-12
    assert acc.roc_auc() == pytest.approx(0.5 * (low + high), abs=1e-15)
    if acc.exact:
        assert low == high == pytest.approx(true, abs=TOL)
    # every point of the bounded ROC curve is a point of the exact one
    fpr, tpr, _ = acc.roc_curve(drop_intermediate=False)
    ref = fastauc.roc_curve(y, s, sample_weight=w, drop_intermediate=False)
    assert _curve_points(fpr, tpr) <= _curve_points(ref[0], ref[1])


def _fed_bounded(y, s, w, parts, max_groups):
    acc = Accumulator(max_groups=max_groups)
    for a, b in parts:
        acc.update(y[a:b], s[a:b], None if w is None else w[a:b])
    return acc


@pytest.mark.parametrize("max_groups", [16, 64, 256])
@pytest.mark.parametrize("prevalence", [0.5, 0.1])
def test_bounded_width_after_merging_similar_shards(max_groups, prevalence, rng):
    """Eight shards of similar data, each bounded, merged in a tree: the width
    of the certified interval stays within 4 / max_groups."""
    shards, ys, ss = [], [], []
    for _ in range(8):
        y = (rng.random(50_000) < prevalence).astype(int)
        s = rng.normal(size=50_000) + y
        ys.append(y)
        ss.append(s)
        acc = Accumulator(max_groups=max_groups)
        for a in range(0, 50_000, 10_000):
            acc.update(y[a:a + 10_000], s[a:a + 10_000])
        shards.append(acc)
    while len(shards) > 1:
        shards = [shards[i].merge(shards[i + 1]) for i in range(0, len(shards), 2)]
    acc = shards[0]
    low, high = acc.auc_bounds()
    true = fastauc.roc_auc_score(np.concatenate(ys), np.concatenate(ss))
    assert low <= true <= high
    assert not acc.exact and acc.n_groups <= max_groups
    assert high - low <= 4 / max_groups


def test_bounded_results_that_need_exact_scores_raise(rng):
    y = rng.integers(0, 2, 500)
    s = rng.normal(size=500)
    acc = Accumulator(max_groups=8).update(y, s)
    assert not acc.exact and acc.n_groups <= 8
    for call in (acc.average_precision, acc.log_loss, acc.roc_auc_ci, acc.mann_whitney_u,
                 acc.report, lambda: acc.roc_auc(max_fpr=0.5),
                 lambda: acc.partial_auc(fpr_range=(0, 0.5))):
        with pytest.raises(ValueError, match="max_groups=8"):
            call()
    with pytest.raises(ValueError, match="different max_groups"):
        acc.merge(Accumulator().update(y, s))
    # while the table fits, a bounded accumulator is exact and answers everything
    small = Accumulator(max_groups=1000).update(y, s)
    assert small.exact and small.auc_bounds()[0] == small.auc_bounds()[1]
    assert small.average_precision() == pytest.approx(fastauc.average_precision_score(y, s))
    with pytest.raises(ValueError, match="at least 2"):
        Accumulator(max_groups=1)
    with pytest.raises(TypeError, match="integer"):
        Accumulator(max_groups=2.5)


def test_bounded_bytes_round_trip_and_checks(rng):
    import json

    y = rng.integers(0, 2, 400)
    s = rng.normal(size=400)
    acc = Accumulator(max_groups=10).update(y[:200], s[:200]).update(y[200:], s[200:])
    copy = Accumulator.from_bytes(acc.to_bytes())
    assert copy.max_groups == 10 and copy.auc_bounds() == acc.auc_bounds()
    assert pickle.loads(pickle.dumps(acc)).to_bytes() == acc.to_bytes()
    data = acc.to_bytes()
    head_len = struct.unpack_from("<I", data, 12)[0]
    header = json.loads(data[16:16 + head_len])
    m = header["n_keys"]
    start = 16 + head_len
    arrays = [np.frombuffer(data, dt, m, start + 8 * m * i).copy()
              for i, dt in enumerate(("<u8", "<f8", "<f8", "<u8", "u1"))]

    def sealed(arrs, hdr=header):
        head = json.dumps(hdr).encode()
        body = struct.pack("<8sHHI", MAGIC, FORMAT_VERSION, 0, len(head)) + head + b"".join(
            a.tobytes() for a in arrs)
        return _resealed(body)

    assert Accumulator.from_bytes(sealed(arrays)).auc_bounds() == acc.auc_bounds()
    overlap = [a.copy() for a in arrays]
    overlap[4][:] = 0  # every cell claims the whole key space
    lo_out = [a.copy() for a in arrays]
    lo_out[3][0] = lo_out[0][0] + np.uint64(1)  # least key above the greatest
    for bad in (overlap, lo_out):
        with pytest.raises(ValueError, match="corrupted"):
            Accumulator.from_bytes(sealed(bad))
    with pytest.raises(ValueError, match="corrupted"):
        Accumulator.from_bytes(sealed(arrays, {**header, "max_groups": None}))


def test_sizeof_counts_the_arrays(rng):
    """``sys.getsizeof`` (which dask's memory accounting and scheduler use for
    objects it does not know) sees the tables and the waiting rows."""
    import sys

    from fastauc._table import Table

    n = 50_000
    y, s = rng.integers(0, 2, n), rng.random(n)
    acc = Accumulator().update(y, s)
    assert sys.getsizeof(acc) >= 9 * n  # waiting: classes (bool) and scores
    table = acc._table()
    assert sys.getsizeof(table) >= 24 * len(table) == 24 * n
    assert sys.getsizeof(acc) >= 24 * n
    assert sys.getsizeof(Table(s[:0].view(np.uint64), s[:0], s[:0])) < 200
    bounded = Accumulator(max_groups=16).update(y, s)
    assert 0 < sys.getsizeof(bounded) < 24 * n


@pytest.mark.parametrize("weighted", [False, True])
def test_table_with_rows_on_many_rows(weighted, rng):
    """A large batch: the table ``Table.from_rows`` builds (ties add up), every
    row of positive weight pointing at its key, rows of weight zero (half of
    them) harmless."""
    from fastauc._table import Table, float_keys, table_with_rows

    n = 150_000
    y = rng.integers(0, 2, n) == 1
    s = np.round(rng.random(n), 3)
    w = np.empty(0)
    if weighted:
        w = rng.choice([0.0, 0.5, 2.0], n)
        w[: n // 2] = 0.0  # the first half weighs nothing
    table, at = table_with_rows(y, s, w)
    ref = Table.from_rows(y, s, w)
    np.testing.assert_array_equal(table.keys, ref.keys)
    np.testing.assert_allclose(table.pos, ref.pos, rtol=1e-12)
    np.testing.assert_allclose(table.neg, ref.neg, rtol=1e-12)
    held = w > 0 if weighted else np.ones(n, bool)
    np.testing.assert_array_equal(table.keys[at[held]], float_keys(s)[held])
    assert at.min() >= 0 and at.max() < len(table)


def test_tables_with_many_ties_keep_no_buffer_of_every_row(rng):
    """A table of few distinct scores from many rows is copied out of its
    sort buffers: the buffers are freed and ``sys.getsizeof`` tells the truth."""
    import sys

    from fastauc._table import Table, merge_placed, table_with_rows

    n = 100_000
    y, s = rng.integers(0, 2, n) == 1, np.round(rng.random(n), 1)
    table, _ = table_with_rows(y, s, np.empty(0))
    merged, _ = merge_placed([table, Table.from_rows(y, s, np.empty(0))])
    assert table.keys.base is None and table.pos.base is None and table.neg.base is None
    for t in (table, merged):  # the merge's buffers hold 22 keys: kept, a small waste
        assert len(t) == 11
        assert sys.getsizeof(t) < 1000


def test_scratch_kept_per_thread_is_never_in_a_result(rng):
    """``table_with_rows`` sorts in buffers each thread keeps for the next
    call: a later call (same sizes, other data) leaves every earlier result
    (and the merge's built on them) as it was, and buffers past
    ``SPARE_MAX`` are not kept."""
    from fastauc import _table
    from fastauc._table import merge_placed, table_with_rows

    def results(seed):
        r = np.random.default_rng(seed)
        y, s = r.integers(0, 2, 5000) == 1, r.random(5000)
        table, at = table_with_rows(y, s, r.random(5000))
        merged, values = merge_placed([table, table_with_rows(y, s[::-1].copy(),
                                                              np.empty(0))[0]])
        return [table.keys, table.pos, table.neg, at, merged.keys, merged.pos, *values]

    first = results(1)
    kept = [a.copy() for a in first]
    results(2)
    for a, b in zip(first, kept):
        np.testing.assert_array_equal(a, b)
    big = _table.spare("test", _table.SPARE_MAX + 1, np.float64)
    assert "test" not in _table._SPARE.__dict__ and big.shape[0] == _table.SPARE_MAX + 1


def test_coords_ci_bootstrap_needs_rows():
    acc = Accumulator().update([0, 1, 0, 1], [0.1, 0.2, 0.3, 0.4])
    with pytest.raises(ValueError, match="needs the rows"):
        acc.coords_ci([0.5], method="bootstrap")
    ci = acc.coords_ci([0.25], ret="sensitivity", method="clopper-pearson")
    assert ci.method == "clopper-pearson" and ci.estimate.sensitivity[0] == 0.5


def _same_table(a, b):
    ta, tb = a._table(), b._table()
    np.testing.assert_array_equal(ta.keys, tb.keys)
    np.testing.assert_array_equal(ta.pos, tb.pos)
    np.testing.assert_array_equal(ta.neg, tb.neg)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**31), st.integers(1, 3), st.sampled_from([None, "integer", "float"]))
def test_subtract_leaves_the_table_of_the_rows_left(seed, digits, weights):
    """Counts and integer weights: the table of the rows left, exactly, and
    their AUC; float weights within the stated ulps of it.  ``other`` is
    unchanged."""
    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 400))
    y = rng.integers(0, 2, n)
    s = np.round(rng.normal(size=n) + y, digits)
    w = {None: None, "integer": rng.integers(1, 4, n).astype(float),
         "float": rng.random(n) + 0.1}[weights]
    cut = int(rng.integers(0, n + 1))
    kw = (lambda a, b: {}) if w is None else (lambda a, b: {"sample_weight": w[a:b]})
    whole = fastauc.Accumulator(pos_label=1)  # the rows left may hold one class
    for a in range(0, n, 37):  # batches, and some rows waiting
        whole.update(y[a:a + 37], s[a:a + 37], **kw(a, a + 37))
    part = fastauc.Accumulator(pos_label=1).update(y[:cut], s[:cut], **kw(0, cut))
    before = part.to_bytes()
    left = fastauc.Accumulator(pos_label=1).update(y[cut:], s[cut:], **kw(cut, n))
    whole.subtract(part)
    assert part.to_bytes() == before
    assert whole.n_samples == n - cut
    if weights != "float":
        _same_table(whole, left)
        if len(set(y[cut:].tolist())) == 2:
            assert whole.roc_auc() == fastauc.roc_auc_score(y[cut:], s[cut:],
                                                            sample_weight=kw(cut, n).get(
                                                                "sample_weight"))
    else:
        t, ref = whole._table(), left._table()
        np.testing.assert_array_equal(t.keys, ref.keys)
        np.testing.assert_allclose(t.pos, ref.pos, rtol=1e-13, atol=1e-13)
        np.testing.assert_allclose(t.neg, ref.neg, rtol=1e-13, atol=1e-13)


def test_subtract_refuses_rows_it_does_not_contain():
    y, s = np.array([0, 1, 0, 1]), np.array([0.1, 0.8, 0.3, 0.6])
    acc = fastauc.Accumulator().update(y, s)
    before = acc.to_bytes()
    for other, words in (
            (fastauc.Accumulator().update([1], [0.5]), "scores it has not seen"),
            (fastauc.Accumulator().update([1, 1], [0.8, 0.8]), "more"),
            (fastauc.Accumulator().update([2], [0.8]), "labels it has not seen"),
            (fastauc.Accumulator(pos_label=1).update([1], [0.8]), "pos_label"),
            (fastauc.Accumulator(max_groups=8).update([1], [0.8]), "max_groups")):
        with pytest.raises(ValueError, match=words):
            acc.subtract(other)
        assert acc.to_bytes() == before
    with pytest.raises(TypeError, match="Accumulator"):
        acc.subtract((y, s))
    with pytest.raises(TypeError, match="forgets"):
        fastauc.Window(rows=3).update(y, s).subtract(acc)
    assert acc.subtract(fastauc.Accumulator()) is acc
    # the other's only label is the greater one here: its rows are negatives
    acc.subtract(fastauc.Accumulator().update([0], [0.3]))
    assert acc.n_samples == 3 and acc.roc_auc() == 1.0
