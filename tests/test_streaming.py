"""report_stream on batches equals report on the concatenated rows."""

import numpy as np
import pytest

import fastauc
from fastauc.streaming import report_stream

from .compare import assert_close


def _batches(y, S, w, g, size):
    n = len(y)

    def cut(x, a):
        if x is None:
            return None
        if isinstance(x, tuple):
            return tuple(c[a:a + size] for c in x)
        return x[a:a + size]

    return lambda: ((y[a:a + size], S[a:a + size], cut(w, a), cut(g, a))
                    for a in range(0, n, size))


@pytest.mark.parametrize("k", [1, 2, 3])
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("by", [None, "one", "two"])
def test_report_stream_equals_report(k, weighted, by, rng):
    n = 3000
    y = rng.integers(0, 2, n)
    S = np.column_stack([np.round(1 / (1 + np.exp(-(y * (j + 1) + rng.normal(size=n)))), 3)
                         for j in range(k)])
    w = rng.choice([0.0, 0.5, 1.0, 2.0], n) if weighted else None
    groups = {None: None, "one": rng.integers(0, 4, n),
              "two": (rng.choice(["a", "b"], n), rng.integers(0, 3, n))}[by]
    ref = fastauc.report(y, S, sample_weight=w, by=groups)
    calls = []
    got = report_stream(_batches(y, S, w, groups, 700), progress=calls.append)
    assert sum(calls) == n * (2 if k > 1 else 1)
    assert_close(got.to_dict(), ref.to_dict())
    assert str(got) == str(ref)


@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("by", ["one", "two"])
def test_report_stream_background_equals_report(weighted, by, rng):
    """Each group's BPSN and BNSP AUCs from the groups' tables: the in-memory
    report's (its rows' weights per score and class as frequency weights)."""
    n = 3000
    y = rng.integers(0, 2, n)
    S = np.column_stack([np.round(y * (j + 1) + rng.normal(size=n), 2) for j in range(2)])
    w = rng.choice([0.0, 0.5, 1.0, 2.0], n) if weighted else None
    groups = {"one": rng.integers(0, 4, n),
              "two": (rng.choice(["a", "b"], n), rng.integers(0, 3, n))}[by]
    ref = fastauc.report(y, S, sample_weight=w, by=groups, background=True)
    got = report_stream(_batches(y, S, w, groups, 700), background=True)
    for name in ref.by_group:
        assert "bpsn_auc" in got.by_group[name].extra
        for col, want in ref.by_group[name].extra.items():
            np.testing.assert_allclose(got.by_group[name].extra[col], want, rtol=1e-12,
                                       atol=1e-12, err_msg=col)
    assert_close(got.to_dict(), ref.to_dict())


def test_report_stream_labels_and_pos_label(rng):
    n = 2000
    y = np.where(rng.integers(0, 3, n) == 0, "sick", np.where(rng.random(n) < 0.5, "well",
                                                                 "fine"))
    S = np.column_stack((rng.normal(size=n) + (y == "sick"), rng.normal(size=n)))
    ref = fastauc.report(y == "sick", S, names=["a", "b"])
    got = report_stream(_batches(y, S, None, None, 512), pos_label="sick", names=["a", "b"])
    assert_close(got.to_dict(), ref.to_dict())
    with pytest.raises(ValueError, match="multiclass"):
        report_stream(_batches(y, S, None, None, 512))
    with pytest.raises(ValueError, match="no rows"):
        report_stream(lambda: iter([]))


def test_scores_held_only_by_zero_weight_rows(rng):
    """Such a score is not in the finished table; its rows weigh nothing."""
    n = 1000
    y = rng.integers(0, 2, n)
    S = np.column_stack((rng.normal(size=n), rng.normal(size=n)))  # every score distinct
    w = rng.choice([0.0, 1.0], n)
    ref = fastauc.report(y, S, sample_weight=w)
    got = report_stream(_batches(y, S, w, None, 300))
    assert_close(got.to_dict(), ref.to_dict())
