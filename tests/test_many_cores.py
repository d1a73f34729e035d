"""Units cut by data size: the same numbers for any thread count.

The unit sizes are shrunk through the module constants (row blocks, sort
ranges, buckets, sweep ranges, group ranges), so that 1e5 rows make dozens
of units and two cores exercise what sixty-four would; every family's
results are then compared with ``==`` (floats to the last bit) across
thread counts 1, 2, 3, 7 and 64, and with the units run in a shuffled order.
"""

import collections

import numpy as np
import pytest
from sklearn import metrics as skm

import fastauc
from fastauc import _pairwise, _parallel, _resample, _sort, _table, _validation
from tests.compare import exact_bits

N = 100_000


@pytest.fixture
def small_units(monkeypatch):
    """Units of about 2,000 rows: 48 row blocks, 48 sort ranges, about 100
    buckets a class, 48 sweep ranges at 1e5 rows."""
    monkeypatch.setattr(_parallel, "BLOCK_ROWS", 1 << 11)
    monkeypatch.setattr(_parallel, "MAX_BLOCKS", 64)
    monkeypatch.setattr(_sort, "SORT_RANGE_ROWS", 1 << 11)
    monkeypatch.setattr(_sort, "BUCKET_ROWS", 1 << 10)
    monkeypatch.setattr(_table, "SWEEP_ROWS", 1 << 11)
    monkeypatch.setattr(_table, "GROUP_RANGE_ROWS", 1 << 11)
    monkeypatch.setattr(_pairwise, "MERGE_ROWS", 1 << 11)
    monkeypatch.setattr(_pairwise, "MERGE_MAX_PARTS", 64)
    monkeypatch.setattr(_validation, "CHECK_BLOCKS_FROM", 0)
    monkeypatch.setattr(_resample, "UNIT_ROWS", 1)


def _data(kind, seed=0):
    """Labels, two score columns, weights and group codes with the edge cases
    the units meet: ties across block edges, a first stretch of one class
    only, zero weights at block edges, -0.0 and +0.0, non-dyadic weights."""
    rng = np.random.default_rng(seed)
    y = (rng.random(N) < 0.3).astype(np.int64)
    y[:6000] = 0  # the first blocks hold negatives only
    s = np.round(rng.standard_normal(N) + y, 2)
    s[rng.random(N) < 0.02] = 0.0
    s[rng.random(N) < 0.02] = -0.0
    s2 = np.round(rng.standard_normal(N) + 0.5 * y, 1)
    if kind == "equal":
        s = np.full(N, 0.25)
    elif kind == "float32":
        s = s.astype(np.float32)
    w = np.round(rng.random(N) * 3, 1) + 0.1  # tenths: not dyadic
    w[:: 1 << 11] = 0.0  # at every block edge
    w[1::997] = 0.0
    groups = rng.integers(0, 40, N)
    return y, s, s2, w, groups


def _accumulated(y, s, w):
    acc = fastauc.Accumulator()
    for a in range(0, N, 9_000):
        acc.update(y[a:a + 9_000], s[a:a + 9_000], None if w is None else w[a:a + 9_000])
    return acc.roc_auc(), acc.average_precision(), acc.roc_auc_ci()


def _multiclass(y, s, seed=1):
    rng = np.random.default_rng(seed)
    labels = rng.integers(0, 4, N)
    raw = np.round(rng.random((N, 4)) + np.eye(4)[labels] * 0.3, 2)
    proba = raw / raw.sum(axis=1, keepdims=True)
    return (fastauc.roc_auc_score(labels, proba, multi_class="ovr"),
            fastauc.roc_auc_score(labels, proba, multi_class="ovr", average="weighted"),
            fastauc.roc_auc_score(labels, proba, multi_class="ovo"))


FAMILIES = {
    "auc": lambda y, s, s2, w, g: (fastauc.roc_auc_score(y, s),
                                   fastauc.roc_auc_score(y > 0, s),
                                   fastauc.roc_auc_score(y, s, max_fpr=0.3)),
    "auc_weighted": lambda y, s, s2, w, g: fastauc.roc_auc_score(y, s, sample_weight=w),
    "average_precision": lambda y, s, s2, w, g: (
        fastauc.average_precision_score(y, s),
        fastauc.average_precision_score(y, s, sample_weight=w)),
    "curves": lambda y, s, s2, w, g: (fastauc.roc_curve(y, s), fastauc.roc_curve(y, s, sample_weight=w),
                                      fastauc.precision_recall_curve(y, s, sample_weight=w),
                                      fastauc.det_curve(y, s)),
    "delong": lambda y, s, s2, w, g: (fastauc.roc_auc_ci(y, s),
                                      fastauc.roc_auc_ci(y, s, sample_weight=w),
                                      fastauc.delong_test(y, s, s2),
                                      fastauc.delong_covariance(y, np.column_stack([s, s2]),
                                                                sample_weight=w)),
    "report": lambda y, s, s2, w, g: (fastauc.report(y, np.column_stack([s, s2])),
                                      fastauc.report(y, np.column_stack([s, s2]),
                                                     sample_weight=w)),
    "by_group": lambda y, s, s2, w, g: (fastauc.by_group(y, s, g),
                                        fastauc.by_group(y, s, g, sample_weight=w)),
    "accumulator": lambda y, s, s2, w, g: (_accumulated(y, s, None), _accumulated(y, s, w)),
    "pairwise": lambda y, s, s2, w, g: (
        fastauc.pairwise_loss_gradient(y, s, hessian=True),
        fastauc.pairwise_loss_gradient(y, s, sample_weight=w, loss="square"),
        fastauc.pairwise_loss_gradient(y, s, groups=g)),
    "multiclass": lambda y, s, s2, w, g: _multiclass(y, s),
    "bootstrap": lambda y, s, s2, w, g: (
        fastauc.bootstrap_ci(y, s, n_resamples=24, random_state=3),
        fastauc.bootstrap_ci(y, s, n_resamples=24, random_state=3, sample_weight=w,
                             scheme="poisson"),
        fastauc.roc_auc_ci(y, s, method="bootstrap", n_resamples=24, random_state=4)),
    "rank_test": lambda y, s, s2, w, g: fastauc.mann_whitney_u(y, s),
}


def _run(family, kind):
    return exact_bits(FAMILIES[family](*_data(kind)))


@pytest.mark.parametrize("kind", ["ties", "float32", "equal"])
@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_same_bits_for_any_thread_count_and_unit_order(family, kind, small_units, monkeypatch):
    monkeypatch.setenv("FASTAUC_NUM_THREADS", "1")
    base = _run(family, kind)
    for threads in ("2", "3", "7", "64"):
        monkeypatch.setenv("FASTAUC_NUM_THREADS", threads)
        assert _run(family, kind) == base, f"{family} {kind}: {threads} threads"
    monkeypatch.setattr(_parallel, "SHUFFLE", 12345)
    assert _run(family, kind) == base, f"{family} {kind}: units shuffled"


def test_small_units_match_scikit_learn(small_units):
    """Dozens of sweep ranges and blocks: the curves' points (with the drop
    rule judged where ranges meet) and the areas are scikit-learn's."""
    y, s, _, w, _ = _data("ties")
    for weights in (None, w):
        got, want = fastauc.roc_curve(y, s, sample_weight=weights), skm.roc_curve(
            y, s, sample_weight=weights)
        for a, b in zip(got, want):
            np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-12)
        got = fastauc.precision_recall_curve(y, s, sample_weight=weights)
        want = skm.precision_recall_curve(y, s, sample_weight=weights)
        for a, b in zip(got, want):
            np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-12)
        assert fastauc.roc_auc_score(y, s, sample_weight=weights) == pytest.approx(
            skm.roc_auc_score(y, s, sample_weight=weights), rel=1e-12)
        assert fastauc.average_precision_score(y, s, sample_weight=weights) == pytest.approx(
            skm.average_precision_score(y, s, sample_weight=weights), rel=1e-12)


@pytest.mark.parametrize("loss", ["squared_hinge", "hinge"])
def test_small_units_pairwise_merge_parts(loss, small_units, monkeypatch):
    """The hinge losses' merge in 48 parts gives the one-part merge's value
    and gradient (to rounding: the parts' sums are added apart)."""
    y, s, _, w, g = _data("ties")
    many = fastauc.pairwise_loss_gradient(y, s, loss=loss, sample_weight=w, groups=g % 3,
                                          hessian=True)
    monkeypatch.setattr(_pairwise, "MERGE_ROWS", 1 << 40)
    monkeypatch.setattr(_pairwise, "CHUNK_MIN", 1 << 40)
    one = fastauc.pairwise_loss_gradient(y, s, loss=loss, sample_weight=w, groups=g % 3,
                                         hessian=True)
    assert many[0] == pytest.approx(one[0], rel=1e-12)
    for a, b in zip(many[1:], one[1:]):
        np.testing.assert_allclose(a, b, rtol=1e-10, atol=1e-15)


def test_small_units_same_floats_across_functions(small_units):
    """With dozens of sweep ranges, the functions that mimic the sweep's cuts
    (the numpy first-call path, the Accumulator's table, by_group's segmented
    sweep, the bootstrap's walk, report) still give roc_auc_score's and
    average_precision_score's floats to the last bit."""
    from fastauc import _warm

    y, s, _, w, _ = _data("ties")
    auc, ap = fastauc.roc_auc_score(y, s), fastauc.average_precision_score(y, s)
    with _warm.deferred():
        assert _table.numpy_tallies(y > 0, s).ap_num / np.count_nonzero(y) == ap
    acc = fastauc.Accumulator()
    for a in range(0, N, 7_000):
        acc.update(y[a:a + 7_000], s[a:a + 7_000])
    assert (acc.roc_auc(), acc.average_precision()) == (auc, ap)
    g = fastauc.by_group(y, s, np.zeros(N, np.int64))
    assert (g.auc[0], g.average_precision[0]) == (auc, ap)
    r = fastauc.report(y, s).to_dict()
    assert r["models"][0]["auc"] == auc
    assert r["models"][0]["average_precision"] == ap
    assert fastauc.report(y, s, sample_weight=w).to_dict()["models"][0][
        "average_precision"] == fastauc.average_precision_score(y, s, sample_weight=w)
    lay = _resample._layout(y > 0, s, w=w)
    assert len(lay.cut) == N >> 11
    assert lay.auc == fastauc.roc_auc_score(y, s, sample_weight=w)


def test_plans_do_not_read_the_thread_count(small_units, monkeypatch):
    """Every unit plan (how many units each parallel step has) is the same at
    1 and at 64 threads, and the planning functions run with the thread
    count unreadable."""
    y, s, s2, w, g = _data("ties")
    # the one choice that is the host's per thread count by design: the
    # unweighted sort's path (``_sort.method``, measured and remembered per
    # thread count); both paths' plans are checked, each at 1 and 64 threads
    plans = []
    for threads, path in (("1", "radix"), ("64", "radix"), ("1", "numpy"), ("64", "numpy")):
        monkeypatch.setenv("FASTAUC_SORT", path)
        monkeypatch.setenv("FASTAUC_NUM_THREADS", threads)
        monkeypatch.setattr(_parallel, "TRACE", [])
        for family in FAMILIES:
            FAMILIES[family](y, s, s2, w, g)
        # (units of one call that map units run in their thread, and record
        # them in whatever order the units ran: compared as a multiset)
        plans.append(collections.Counter(_parallel.TRACE))
    assert plans[0] == plans[1] and plans[2] == plans[3]
    assert max(units for _, units in plans[0]) >= 30
    monkeypatch.delenv("FASTAUC_SORT")

    def no_threads():
        raise AssertionError("a plan read the thread count")

    starts = np.arange(0, N + 1, 100, dtype=np.int64)
    runs = _sort.sort_by_class(y > 0, s, serial=True)
    run4 = (runs.pk, runs.pw, runs.nk, runs.nw)
    rows = _sort.sort_by_class(y > 0, s, row_index=True, serial=True)
    monkeypatch.setattr(_parallel, "num_threads", no_threads)
    assert len(_parallel.row_blocks(N)) == N >> 11
    assert len(_sort._segment_ranges(starts, _sort._sort_ranges(N))) == N >> 11
    assert len(_table.cut_runs(run4, _table.sweep_parts(N))) == N >> 11
    assert len(_table._balanced(starts)) == N >> 11
    assert _resample._canonical_cuts(rows, w, _table.sweep_parts(N))[2][-1][0] > 0


def test_cgroup_quota(tmp_path, monkeypatch):
    """A container's CPU quota bounds the default thread count."""
    (tmp_path / "cpu.max").write_text("200000 100000\n")
    assert _parallel.cgroup_quota(str(tmp_path)) == 2
    (tmp_path / "cpu.max").write_text("150000 100000\n")
    assert _parallel.cgroup_quota(str(tmp_path)) == 2  # 1.5 CPUs: rounded up
    (tmp_path / "cpu.max").write_text("max 100000\n")
    assert _parallel.cgroup_quota(str(tmp_path)) is None
    v1 = tmp_path / "v1"
    (v1 / "cpu").mkdir(parents=True)
    (v1 / "cpu" / "cpu.cfs_quota_us").write_text("300000\n")
    (v1 / "cpu" / "cpu.cfs_period_us").write_text("100000\n")
    assert _parallel.cgroup_quota(str(v1)) == 3
    (v1 / "cpu" / "cpu.cfs_quota_us").write_text("-1\n")
    assert _parallel.cgroup_quota(str(v1)) is None
    assert _parallel.cgroup_quota(str(tmp_path / "missing")) is None
    monkeypatch.delenv("FASTAUC_NUM_THREADS", raising=False)
    monkeypatch.setattr(_parallel, "cgroup_quota", lambda: 1)
    monkeypatch.setattr(_parallel, "_cpus", None)
    assert _parallel.num_threads() == 1
    monkeypatch.setattr(_parallel, "_cpus", None)


def test_bad_thread_count(monkeypatch):
    monkeypatch.setenv("FASTAUC_NUM_THREADS", "many")
    with pytest.raises(ValueError, match="FASTAUC_NUM_THREADS"):
        _parallel.num_threads()


def test_first_failing_unit_raises(monkeypatch):
    """Several failing units: the first one's error, for any thread count."""
    def unit(k):
        if k in (5, 9):
            raise ValueError(f"unit {k}")
        return k

    for threads in ("1", "3", "64"):
        monkeypatch.setenv("FASTAUC_NUM_THREADS", threads)
        with pytest.raises(ValueError, match="unit 5"):
            _parallel.map_units(unit, [(k,) for k in range(40)])
        assert _parallel.map_units(unit, [(k,) for k in range(5)]) == list(range(5))


@pytest.mark.parametrize("labels", [[0, 1], [0.0, 1.0], [1, 2], [0], [1], [-1, 1], [0, 1, 2],
                                    [0.0, 0.5, 1.0]])
def test_labels_and_their_ones_in_one_pass(labels, small_units):
    """``classes_and_ones``: scikit-learn's classes, and the mask ``y == 1``
    (made in the same pass) exactly when the labels are the integers {0, 1}."""
    y = np.array(labels)[np.random.default_rng(3).integers(0, len(labels), N)]
    if 0.5 in labels:  # not class labels: scikit-learn's error, as unique_labels raises it
        with pytest.raises(ValueError, match="continuous format is not supported"):
            _validation.classes_and_ones(y)
        return
    classes, ones = _validation.classes_and_ones(y)
    np.testing.assert_array_equal(classes, np.unique(y))
    if y.dtype.kind == "i" and sorted(set(labels)) == [0, 1]:
        np.testing.assert_array_equal(ones, y == 1)
        assert ones.dtype == bool
    else:
        assert ones is None
    want = skm.roc_auc_score(y == y.max(), np.arange(N) % 7) if len(set(labels)) == 2 else None
    if want is not None:
        assert fastauc.roc_auc_score(y, np.arange(N) % 7) == pytest.approx(want, rel=1e-12)
