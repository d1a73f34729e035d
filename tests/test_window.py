"""fastauc.Window: every result equal to the in-memory function on the rows in
the window (with their decayed weights), for any batch sizes, one-row
updates, byte round trips, pickling and merges."""

from __future__ import annotations

import pickle

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import fastauc
from fastauc import Window


def _stream(seed, n, digits):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    s = rng.normal(size=n) + 0.7 * y
    if digits is not None:
        s = np.round(s, digits)
    return rng, y, s, np.round(rng.random(n) * 4, 1)


def _check(win, y, s, w=None, exact=True):
    """The window's results against the in-memory functions on its rows."""
    ref = fastauc.roc_auc_score(y, s, sample_weight=w)
    if exact:
        assert win.roc_auc() == ref
    else:
        assert win.roc_auc() == pytest.approx(ref, rel=1e-12, abs=1e-14)
    assert win.average_precision() == pytest.approx(
        fastauc.average_precision_score(y, s, sample_weight=w), rel=1e-12, abs=1e-14)
    for a, b in zip(win.roc_curve(), fastauc.roc_curve(y, s, sample_weight=w)):
        np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-14)
    ww = np.ones(len(y)) if w is None else w
    if min(ww[y == 1].sum(), ww[y == 0].sum()) > 1:  # DeLong's variance is defined
        ci, ref_ci = win.roc_auc_ci(), fastauc.roc_auc_ci(y, s, sample_weight=w)
        assert ci.se == pytest.approx(ref_ci.se, rel=1e-9)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**31), size=st.integers(1, 400),
       digits=st.sampled_from([None, 0, 1]), weighted=st.booleans(),
       sizes=st.lists(st.integers(0, 300), min_size=1, max_size=12))
def test_rows_window_equals_its_last_rows(seed, size, digits, weighted, sizes):
    n = sum(sizes)
    rng, y, s, w = _stream(seed, n, digits)
    win = Window(rows=size)
    a = 0
    for b in sizes:
        win.update(y[a:a + b], s[a:a + b], sample_weight=w[a:a + b] if weighted else None)
        a += b
    lo = max(0, n - size)
    assert win.n_samples == n - lo
    if len(set(y[lo:n].tolist())) == 2 and (not weighted or (
            w[lo:n][y[lo:n] == 1].sum() > 0 and w[lo:n][y[lo:n] == 0].sum() > 0)):
        _check(win, y[lo:n], s[lo:n], w[lo:n] if weighted else None, exact=not weighted)


def test_one_row_updates_and_batches_mixed(rng):
    _, y, s, _ = _stream(1, 20000, 1)
    win = Window(rows=1200)
    a = 0
    for step in range(60):
        if step % 3 == 0:  # one row
            win.update(int(y[a]), float(s[a]))
            a += 1
        else:
            b = int(rng.integers(1, 400))
            win.update(y[a:a + b], s[a:a + b])
            a += b
        if step % 7 == 6:
            lo = max(0, a - 1200)
            assert win.roc_auc() == fastauc.roc_auc_score(y[lo:a], s[lo:a])
    lo = max(0, a - 1200)
    _check(win, y[lo:a], s[lo:a])


def test_batches_window(rng):
    _, y, s, w = _stream(2, 20000, 1)
    win = Window(batches=4)
    bounds = []
    a = 0
    for b in rng.integers(1, 900, 30):
        win.update(y[a:a + b], s[a:a + b], sample_weight=w[a:a + b])
        bounds.append((a, a + b))
        a += b
        lo = bounds[-4:][0][0]
        assert win.n_samples == a - lo
        assert win.roc_auc() == pytest.approx(
            fastauc.roc_auc_score(y[lo:a], s[lo:a], sample_weight=w[lo:a]), rel=1e-12)
    _check(win, y[lo:a], s[lo:a], w[lo:a], exact=False)


@pytest.mark.parametrize("datetimes", [True, False])
def test_span_window_of_unsorted_times(datetimes, rng):
    _, y, s, _ = _stream(3, 30000, 2)
    hours = rng.integers(0, 40 * 24, 30000)  # not in order within or across batches
    if datetimes:
        t = np.datetime64("2026-03-01T00") + hours * np.timedelta64(1, "h")
        win = Window(span="7D")
    else:
        t = hours / 24.0
        win = Window(span=7.0)
    order = np.argsort(hours + rng.integers(-30, 30, 30000), kind="stable")  # mostly in order
    y, s, t, hours = y[order], s[order], t[order], hours[order]
    a = 0
    latest = -1
    for b in rng.integers(1, 1200, 25):
        win.update(y[a:a + b], s[a:a + b], time=t[a:a + b])
        latest = max(latest, hours[a:a + b].max())
        a += b
        if datetimes:
            keep = hours[:a] > latest - 7 * 24
        else:  # the window's own arithmetic: times in days, latest - 7.0
            keep = t[:a] > latest / 24.0 - 7.0
        assert win.n_samples == keep.sum()
        assert win.roc_auc() == fastauc.roc_auc_score(y[:a][keep], s[:a][keep])
    _check(win, y[:a][keep], s[:a][keep])


@pytest.mark.parametrize("kind", ["rows", "batches", "time"])
def test_exponential_decay(kind, rng):
    _, y, s, w = _stream(4, 20000, 1)
    if kind == "time":
        win = Window(half_life=np.timedelta64(36, "h"))
    elif kind == "batches":
        win = Window(half_life=3.0, batches=1000)
    else:
        win = Window(half_life=800.0)
    bounds = []
    t0 = np.datetime64("2026-01-01T00")
    a = 0
    for k, b in enumerate(rng.integers(1, 700, 25)):
        if kind == "time":
            t = t0 + (k * 6 + rng.integers(0, 6, b)) * np.timedelta64(1, "h")
            win.update(y[a:a + b], s[a:a + b], sample_weight=w[a:a + b], time=t)
            bounds.append(t)
        else:
            win.update(y[a:a + b], s[a:a + b], sample_weight=w[a:a + b])
        bounds.append((a, a + b)) if kind != "time" else None
        a += b
    if kind == "time":
        times = np.concatenate(bounds)
        age = (times.max() - times) / np.timedelta64(36, "h")
    elif kind == "batches":
        age = np.concatenate([np.full(e - b, len(bounds) - 1 - i)
                              for i, (b, e) in enumerate(bounds)]) / 3.0
    else:
        age = np.concatenate([np.full(e - b, a - e) for b, e in bounds]) / 800.0
    decayed = w[:a] * 0.5 ** age
    _check(win, y[:a], s[:a], decayed, exact=False)


def test_decay_without_size_joins_old_batches(rng, monkeypatch):
    from fastauc import window as wmod

    monkeypatch.setattr(wmod, "_MAX_SEGMENTS", 4)
    _, y, s, _ = _stream(5, 6000, 1)
    win = Window(half_life=1500.0)
    bounds, a = [], 0
    for b in rng.integers(256, 600, 12):
        win.update(y[a:a + b], s[a:a + b])
        bounds.append((a, a + b))
        a += b
        assert len(win._segments) <= 4
    age = np.concatenate([np.full(e - b, a - e) for b, e in bounds]) / 1500.0
    _check(win, y[:a], s[:a], 0.5 ** age, exact=False)


def test_bytes_pickle_and_accumulator(rng):
    _, y, s, w = _stream(6, 8000, 1)
    for win in (Window(rows=3000), Window(batches=3, half_life=2.0),
                Window(span=np.timedelta64(2, "D"))):
        for a in range(0, 8000, 700):
            kw = {"time": np.datetime64("2026-01-01") + a // 700 * np.timedelta64(12, "h")} \
                if win.parameters["span"] is not None else {}
            win.update(y[a:a + 700], s[a:a + 700], sample_weight=w[a:a + 700], **kw)
        for back in (Window.from_bytes(win.to_bytes()), pickle.loads(pickle.dumps(win))):
            assert back.roc_auc() == win.roc_auc()
            assert back.n_samples == win.n_samples
            assert back.average_precision() == win.average_precision()
            kw = {"time": np.datetime64("2026-01-10")} if win.parameters["span"] is not None else {}
            back.update(y[:300], s[:300], **kw)  # goes on from where it was
        acc = win.accumulator()
        assert acc.roc_auc() == pytest.approx(win.roc_auc(), rel=1e-12)
    data = Window(rows=10).update([0, 1], [0.1, 0.2]).to_bytes()
    with pytest.raises(ValueError, match="checksum"):
        Window.from_bytes(data[:-5] + b"xxxxx")
    with pytest.raises(ValueError, match="magic"):
        Window.from_bytes(b"\x00" * 40)


def test_merge_span_windows_of_two_workers(rng):
    _, y, s, _ = _stream(7, 12000, 1)
    hours = np.sort(rng.integers(0, 20 * 24, 12000))
    t = np.datetime64("2026-01-01T00") + hours * np.timedelta64(1, "h")
    shard = rng.integers(0, 2, 12000).astype(bool)
    a, b = Window(span="3D"), Window(span="3D")
    for lo in range(0, 12000, 1000):
        sl = slice(lo, lo + 1000)
        for win, mask in ((a, shard[sl]), (b, ~shard[sl])):
            win.update(y[sl][mask], s[sl][mask], time=t[sl][mask])
    a.merge(b)
    keep = hours > hours.max() - 72
    assert a.n_samples == keep.sum()
    assert a.roc_auc() == fastauc.roc_auc_score(y[keep], s[keep])
    with pytest.raises(ValueError, match="only windows of the same span"):
        Window(rows=5).merge(Window(rows=5))


def test_greater_label_later_and_one_class(rng):
    win = Window(rows=100)
    win.update([0, 0, 0], [0.1, 0.2, 0.3])
    with pytest.warns(fastauc.UndefinedMetricWarning):
        assert np.isnan(win.roc_auc())
    win.update([1, 0], [0.5, 0.05])
    assert win.roc_auc() == fastauc.roc_auc_score([0, 0, 0, 1, 0], [0.1, 0.2, 0.3, 0.5, 0.05])
    s = Window(rows=100)
    s.update(["no", "no"], [0.3, 0.2])
    s.update("yes", 0.9)
    s.update(["no"], [0.95])
    assert s.roc_auc() == fastauc.roc_auc_score(["no", "no", "yes", "no"], [0.3, 0.2, 0.9, 0.95])


@pytest.mark.parametrize("make, call, exc, words", [
    (lambda: Window(rows=2, batches=3), None, ValueError, "one of rows, batches and span"),
    (lambda: Window(), None, ValueError, "give rows, batches, span or half_life"),
    (lambda: Window(rows=0), None, ValueError, "positive integer"),
    (lambda: Window(span=-1.0), None, ValueError, "positive"),
    (lambda: Window(span="7D"), lambda w: w.update([0, 1], [0.1, 0.2]), ValueError,
     "needs each row's time"),
    (lambda: Window(rows=5), lambda w: w.update([0, 1], [0.1, 0.2], time=[1, 2]), ValueError,
     "time= applies"),
    (lambda: Window(span=3.0), lambda w: w.update([0, 1], [0.1, 0.2],
                                                  time=np.array(["2026-01-01"] * 2,
                                                                dtype="datetime64[D]")),
     TypeError, "time delta"),
    (lambda: Window(rows=5), lambda w: w.update([0, 1, 2], [0.1, 0.2, 0.3]), ValueError,
     "multiclass"),
    (lambda: Window(rows=5), lambda w: w.update([0, 1], [0.1, np.nan]), ValueError, "NaN"),
    (lambda: Window(rows=5), lambda w: w.update(1, float("inf")), ValueError, "infinity"),
    (lambda: Window(rows=5), lambda w: w.update([0, 1], [0.1]), ValueError, "inconsistent"),
])
def test_bad_input(make, call, exc, words):
    with pytest.raises(exc, match=words):
        win = make()
        call(win)


def test_a_failed_update_leaves_the_window_as_it_was():
    win = Window(rows=50).update([0, 1, 0, 1], [0.1, 0.7, 0.4, 0.5])
    before = win.roc_auc(), win.n_samples
    with pytest.raises(ValueError):
        win.update([0, 2], [0.3, 0.4])
    with pytest.raises(ValueError):
        win.update(2, 0.3)
    assert (win.roc_auc(), win.n_samples) == before


def test_delong_test_between_two_windows(rng):
    _, y, s, w = _stream(8, 9000, 1)
    s2 = s + (np.arange(9000) > 6000) * rng.normal(size=9000)  # worse later
    old, new = Window(rows=3000), Window(rows=3000)
    old.update(y[:3000], s2[:3000], sample_weight=w[:3000])
    for a in range(3000, 9000, 1000):
        new.update(y[a:a + 1000], s2[a:a + 1000], sample_weight=w[a:a + 1000])
    res = new.delong_test(old, alternative="less")
    ref = fastauc.delong_test(y[6000:], s2[6000:], s2[:3000], y_true_b=y[:3000],
                              sample_weight=w[6000:], sample_weight_b=w[:3000],
                              alternative="less")
    assert (res.statistic, res.pvalue, res.df) == pytest.approx(
        (ref.statistic, ref.pvalue, ref.df), rel=1e-9)
    assert res.pvalue < 0.01
    acc = fastauc.Accumulator().update(y[:3000], s2[:3000], sample_weight=w[:3000])
    assert new.delong_test(acc).pvalue == pytest.approx(
        new.delong_test(old).pvalue, rel=1e-12)
    with pytest.raises(TypeError, match="Accumulator or a Window"):
        new.delong_test([1, 2])


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 2**31), st.integers(0, 3), st.booleans())
def test_cross_walks_count_the_pairs_across_two_tables(seed, digits, weighted):
    """Twice the pair weight across two tables (a positive of one above a
    negative of the other, a tie one half), by definition; the two-walk
    kernel's values are the one walk's, to the bit."""
    from fastauc._kernels.window import cross_area2, cross_area2_two
    from fastauc._table import Table

    rng = np.random.default_rng(seed)
    rows = []
    for _ in range(3):
        n = int(rng.integers(0, 30))
        y = rng.random(n) < rng.random()
        s = np.round(rng.standard_normal(n), digits)
        w = rng.choice([0.0, 0.5, 1.0, 3.0], n) if weighted else np.ones(n)
        rows.append((y, s, w, Table.from_rows(y, s, w if weighted else np.empty(0))))

    def by_definition(a, b):
        total = 0.0
        for (pos, neg) in ((a, b), (b, a)):
            yp, sp, wp = pos[0], pos[1], pos[2]
            yn, sn, wn = neg[0], neg[1], neg[2]
            for i in np.flatnonzero(yp):
                for j in np.flatnonzero(~yn):
                    total += wp[i] * wn[j] * (2.0 if sp[i] > sn[j] else
                                              1.0 if sp[i] == sn[j] else 0.0)
        return total

    (a, b, c) = rows
    ta, tb, tc = a[3], b[3], c[3]
    one_b = cross_area2(ta.keys, ta.pos, ta.neg, tb.keys, tb.pos, tb.neg)
    one_c = cross_area2(ta.keys, ta.pos, ta.neg, tc.keys, tc.pos, tc.neg)
    assert one_b == pytest.approx(by_definition(a, b), abs=1e-9)
    assert one_c == pytest.approx(by_definition(a, c), abs=1e-9)
    assert cross_area2_two(ta.keys, ta.pos, ta.neg, tb.keys, tb.pos, tb.neg,
                           tc.keys, tc.pos, tc.neg) == (one_b, one_c)


def test_large_window_takes_its_crosses_in_units(rng):
    """A window whose new batch's cross walks span several units on the
    threads (and an odd number of walks): the AUC of its last rows, the
    same float."""
    n, batch = 330_000, 10_000
    y = (rng.random(n) < 0.2).astype(np.int64)
    s = np.round(rng.standard_normal(n) + y, 3)
    win = Window(rows=250_000)
    for a in range(0, n, batch):
        win.update(y[a:a + batch], s[a:a + batch])
        if a >= 250_000:
            assert win.roc_auc() == fastauc.roc_auc_score(y[a + batch - 250_000:a + batch],
                                                          s[a + batch - 250_000:a + batch])


def _fields(res):
    return (res.statistic, res.pvalue, res.difference, res.low, res.high, res.se,
            res.estimate_a, res.estimate_b)


@pytest.mark.parametrize("weighted", [False, True])
def test_bootstrap_test_between_two_windows_resamples_their_rows(weighted, rng):
    """A window that keeps its rows resamples them: fastauc.bootstrap_test
    (unpaired) on the window's last rows, to the bit."""
    _, y, s, w = _stream(9, 6000, 1)
    w = w if weighted else None
    kw = {} if w is None else {"sample_weight": w[:2000]}
    old, new = Window(rows=2000), Window(batches=2)
    old.update(y[:2000], s[:2000], **kw)
    for a in range(2000, 6000, 1000):
        new.update(y[a:a + 1000], s[a:a + 1000],
                   **({} if w is None else {"sample_weight": w[a:a + 1000]}))
    res = new.bootstrap_test(old, n_resamples=200, random_state=3, alternative="less")
    ref = fastauc.bootstrap_test(y[4000:] == 1, s[4000:], s[:2000], y_true_b=y[:2000] == 1,
                                 sample_weight=None if w is None else w[4000:],
                                 sample_weight_b=None if w is None else w[:2000],
                                 n_resamples=200, random_state=3, alternative="less")
    assert _fields(res) == _fields(ref)


def test_bootstrap_test_of_accumulators_resamples_the_counted_rows(rng):
    """An accumulator of unweighted rows resamples its rows, each distinct
    score's count per class: fastauc.bootstrap_test on those rows listed by
    class (positives first) and score, to the bit; within Monte Carlo error
    of the bootstrap of the rows in their own order.  Weighted rows, summed
    per score, cannot be resampled."""
    n = 3000
    y = rng.integers(0, 2, n)
    s = np.round(y + rng.normal(size=n), 1)
    yb = rng.integers(0, 2, n)
    sb = np.round(yb + 1.5 * rng.normal(size=n), 1)
    a, b = fastauc.Accumulator().update(y, s), fastauc.Accumulator().update(yb, sb)
    res = a.bootstrap_test(b, n_resamples=300, random_state=1)

    def listed(y_, s_):  # positives, then negatives, each by score descending
        pos, neg = -np.sort(-s_[y_ == 1]), -np.sort(-s_[y_ == 0])
        return np.r_[np.ones(pos.size, bool), np.zeros(neg.size, bool)], np.r_[pos, neg]

    (ya, sa), (yb2, sb2) = listed(y, s), listed(yb, sb)
    ref = fastauc.bootstrap_test(ya, sa, sb2, y_true_b=yb2, n_resamples=300, random_state=1)
    assert _fields(res) == _fields(ref)
    rows = fastauc.bootstrap_test(y, s, sb, y_true_b=yb, n_resamples=300, random_state=1)
    assert res.difference == rows.difference
    assert res.se == pytest.approx(rows.se, rel=0.25)
    weighted = fastauc.Accumulator().update(y, s, sample_weight=np.full(n, 2.0))
    with pytest.raises(ValueError, match="weights summed per score"):
        weighted.bootstrap_test(b)
    with pytest.raises(ValueError, match="weights summed per score"):
        Window(half_life=100).update(y, s).bootstrap_test(b)
    with pytest.raises(ValueError, match="no rows yet"):
        fastauc.Accumulator().bootstrap_test(b)
    with pytest.raises(TypeError, match="Accumulator or a Window"):
        a.bootstrap_test((y, s))
