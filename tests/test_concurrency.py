"""Eight Python threads at once, and a forked child after the parent."""

import multiprocessing as mp
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest

import fastauc


def _data(seed, n=1_000_000):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    return y, np.round(rng.standard_normal(n) + 0.5 * y, 3), rng.random(n)


def test_eight_threads_same_as_sequential():
    data = [_data(seed) for seed in range(8)]
    expected = [fastauc.roc_auc_score(y, s, sample_weight=w) for y, s, w in data]
    with ThreadPoolExecutor(max_workers=8) as ex:
        got = list(ex.map(lambda d: fastauc.roc_auc_score(d[0], d[1], sample_weight=d[2]),
                          data))
    assert got == expected


def _child(queue):
    y, s, w = _data(1, 200_000)
    queue.put((fastauc.roc_auc_score(y, s), fastauc.roc_auc_score(y, s, sample_weight=w)))


@pytest.mark.filterwarnings("ignore:This process.*fork:DeprecationWarning")
def test_forked_child_after_parent():
    y, s, w = _data(1, 200_000)
    parent = (fastauc.roc_auc_score(y, s), fastauc.roc_auc_score(y, s, sample_weight=w))
    ctx = mp.get_context("fork")
    queue = ctx.Queue()
    proc = ctx.Process(target=_child, args=(queue,))
    proc.start()
    child = queue.get(timeout=120)
    proc.join(timeout=60)
    assert proc.exitcode == 0
    assert child == parent


def test_inference_from_eight_threads_same_as_sequential():
    data = [_data(seed, 100_000) for seed in range(8)]

    def run(d):
        y, s, w = d
        boot = fastauc.bootstrap_ci(y, s, sample_weight=w, n_resamples=40, random_state=1)
        return (fastauc.roc_auc_ci(y, s, sample_weight=w).se,
                fastauc.mann_whitney_u(y, s).pvalue,
                fastauc.delong_test(y, s, -s).statistic,
                tuple(boot.replicates))

    expected = [run(d) for d in data]
    with ThreadPoolExecutor(max_workers=8) as ex:
        got = list(ex.map(run, data))
    assert got == expected


def test_groups_and_report_from_eight_threads_same_as_sequential():
    """by_group and report (layouts, placements on two threads each) from eight
    threads at once give the sequential numbers."""
    data = [_data(seed, 100_000) for seed in range(8)]
    groups = np.arange(100_000) % 97

    def run(d):
        y, s, w = d
        g = fastauc.by_group(y, s, groups, sample_weight=w)
        r = fastauc.report(y, np.column_stack((s, s[::-1])), sample_weight=w)
        return (g.auc.tolist(), g.auc_se.tolist(), r.models[0].auc, r.models[1].auc_se,
                r.comparisons[0].pvalue)

    expected = [run(d) for d in data]
    with ThreadPoolExecutor(max_workers=8) as ex:
        got = list(ex.map(run, data))
    assert got == expected


def test_pairwise_gradients_from_eight_threads_same_as_sequential():
    """The all-pairs sorts borrow each thread's spare buffers: eight threads
    at once (one group, many groups, weights; both row layouts, below and
    above ``DIRECT_ROWS``) give the sequential arrays, and no call's result
    is changed by a later call."""
    from fastauc._sort import DIRECT_ROWS

    cases = [(_data(seed, 300_000), None) for seed in range(4)]
    cases += [(_data(seed, 300_000), np.arange(300_000) % 101) for seed in range(4, 6)]
    cases += [(_data(seed, DIRECT_ROWS + 5_000), None) for seed in range(6, 8)]

    def run(case):
        (y, s, w), groups = case
        return fastauc.pairwise_loss_gradient(y, s, sample_weight=w, groups=groups,
                                              hessian=True)

    expected = [run(c) for c in cases]
    kept = [(v, g.copy(), h.copy()) for v, g, h in expected]
    with ThreadPoolExecutor(max_workers=8) as ex:
        got = list(ex.map(run, cases * 2))
    for (v, g, h), (v0, g0, h0) in zip(got, expected * 2):
        assert v == v0
        np.testing.assert_array_equal(g, g0)
        np.testing.assert_array_equal(h, h0)
    for (v, g, h), (v0, g0, h0) in zip(expected, kept):
        np.testing.assert_array_equal(g, g0)
        np.testing.assert_array_equal(h, h0)


@pytest.mark.parametrize("threads", ["1", "2", "3"])
def test_report_and_delong_covariance_same_at_any_thread_count(threads, monkeypatch):
    """The per-model phases run on threads (layouts, table numbers, placement
    scatter, the covariance in two row halves): nothing depends on how many."""
    rng = np.random.default_rng(5)
    n = 150_000  # above the two-chunk size
    y = rng.integers(0, 2, n)
    w = rng.random(n)
    S = np.column_stack([np.round(y + rng.normal(size=n) * k, 2) for k in (1.0, 2.0, 3.0)])
    base = (fastauc.report(y, S).to_dict(), fastauc.report(y, S, sample_weight=w).to_dict(),
            fastauc.delong_covariance(y, S, sample_weight=w))
    monkeypatch.setenv("FASTAUC_NUM_THREADS", threads)
    again = (fastauc.report(y, S).to_dict(), fastauc.report(y, S, sample_weight=w).to_dict(),
             fastauc.delong_covariance(y, S, sample_weight=w))
    assert again[:2] == base[:2]
    np.testing.assert_array_equal(again[2][1], base[2][1])


@pytest.mark.parametrize("threads", ["2", "3", "64"])
def test_units_that_map_units_never_wait_forever(threads, monkeypatch):
    """A unit that maps units itself (report's per-model phase calling the
    sort and the sweep), three levels deep, from eight Python threads at
    once, on a pool that is busy: every call ends with its results in order."""
    from fastauc._parallel import map_units

    monkeypatch.setenv("FASTAUC_NUM_THREADS", threads)

    def inner(i, j):
        return sum(map_units(lambda a, b, c: a * b + c, [(i, j, k) for k in range(5)]))

    def outer(i):
        return sum(map_units(inner, [(i, j) for j in range(4)]))

    want = [sum(sum(i * j + k for k in range(5)) for j in range(4)) for i in range(6)]
    with ThreadPoolExecutor(max_workers=8) as ex:
        got = list(ex.map(lambda _: map_units(outer, [(i,) for i in range(6)]), range(16)))
    assert got == [want] * 16


def test_map_units_gives_each_call_its_result_in_order():
    """``map_units``: every call once, results in order whichever thread
    took it (one held up takes fewer), an error reaches the caller, and
    nested calls give theirs."""
    import threading
    import time

    from fastauc._parallel import map_units

    seen = []

    def call(k, delay):
        seen.append((k, threading.get_ident()))
        time.sleep(delay)
        return k * k

    delays = [0.02 if k == 0 else 0.001 for k in range(12)]  # the first call holds a thread
    assert map_units(call, [(k, d) for k, d in enumerate(delays)]) == [k * k for k in range(12)]
    assert sorted(k for k, _ in seen) == list(range(12))
    assert map_units(lambda k: map_units(lambda j: j + k, [(1,), (2,)]),
                      [(10,), (20,), (30,)]) == [[11, 12], [21, 22], [31, 32]]

    def fail(k):
        if k == 3:
            raise ValueError("call 3")
        return k

    with pytest.raises(ValueError, match="call 3"):
        map_units(fail, [(k,) for k in range(6)])
