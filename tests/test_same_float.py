"""The same quantity is the same float (issue 36): every AUC fastauc reports is
``roc_auc_score``'s, and every average precision ``average_precision_score``'s,
to the last bit (``==``, not a tolerance), with and without weights, on tied
scores, below and above ``CHUNK_MIN`` rows (where the sweep runs in two key
ranges and DeLong's walk, the report's table and the groups' sweep must cut
where it cuts).

The canonical floats are the sweep's ``area2 / (2 P N)`` and ``ap_num / P``
(``_table.sorted_tallies``, ``_curves.binary_auc``, ``_curves.binary_ap``);
scikit-learn's trapezoids agree with the AUC to ~1e-15 (checked here too,
with a tolerance).
"""

import warnings

import numpy as np
import pytest
import sklearn.metrics as skm

import fastauc
from fastauc._sort import CHUNK_MIN

SIZES = [300, CHUNK_MIN + 4321]
KINDS = ["unweighted", "weighted", "weighted with zeros"]


def _problem(n, kind, seed=0):
    rng = np.random.default_rng([seed, n, KINDS.index(kind)])
    y = (rng.random(n) < 0.35).astype(np.int64)
    s = np.round(rng.normal(size=n) + y, 1)  # ties
    s2 = np.round(0.5 * s + rng.normal(size=n), 2)
    w = None
    if kind != "unweighted":
        w = rng.random(n) * 3.0  # not dyadic: the order of the sums shows in the last bits
        if kind == "weighted with zeros":
            w[rng.random(n) < 0.2] = 0.0
    return y, s, s2, w


def _ref(y, s, w, **kw):
    return fastauc.roc_auc_score(y, s, sample_weight=w, **kw)


def _ap(y, s, w):
    return fastauc.average_precision_score(y, s, sample_weight=w)


@pytest.fixture(params=[(n, k) for n in SIZES for k in KINDS],
                ids=[f"{n}-{k}" for n in SIZES for k in KINDS])
def problem(request):
    return _problem(*request.param)


def test_reference_is_scikit_learns_auc(problem):
    y, s, s2, w = problem
    assert _ref(y, s, w) == pytest.approx(skm.roc_auc_score(y, s, sample_weight=w), abs=1e-14)


def test_delong(problem):
    y, s, s2, w = problem
    a, b = _ref(y, s, w), _ref(y, s2, w)
    t = fastauc.delong_test(y, s, s2, sample_weight=w)
    assert (t.auc_a, t.auc_b) == (a, b)
    assert t.difference == a - b
    aucs, _ = fastauc.delong_covariance(y, np.column_stack((s, s2)), sample_weight=w)
    assert aucs.tolist() == [a, b]
    aucs, _ = fastauc.delong_covariance(y, {"b": s2, "a": s}, sample_weight=w)
    assert aucs.tolist() == [b, a]
    assert fastauc.delong_covariance(y, s, sample_weight=w)[0].tolist() == [a]
    for transform in (None, "logit"):
        assert fastauc.roc_auc_ci(y, s, sample_weight=w, transform=transform).estimate == a


def test_report(problem):
    y, s, s2, w = problem
    a, b = _ref(y, s, w), _ref(y, s2, w)
    one = fastauc.report(y, s, sample_weight=w).models[0]
    assert one.auc == a and one.gini == 2.0 * a - 1.0 == fastauc.gini(y, s, sample_weight=w)
    two = fastauc.report(y, np.column_stack((s, s2)), sample_weight=w)
    assert [m.auc for m in two.models] == [a, b]
    assert two.comparisons[0].difference == a - b
    boot = fastauc.report(y, s, sample_weight=w, ci="bootstrap", n_resamples=3, random_state=0)
    assert boot.models[0].auc == a
    # the average precision: the sweep's terms, cut where it cuts
    ap_a, ap_b = _ap(y, s, w), _ap(y, s2, w)
    assert one.average_precision == ap_a
    assert [m.average_precision for m in two.models] == [ap_a, ap_b]
    assert boot.models[0].average_precision == ap_a


def test_bootstrap_estimates(problem):
    y, s, s2, w = problem
    a, b = _ref(y, s, w), _ref(y, s2, w)
    opts = {"sample_weight": w, "n_resamples": 3, "random_state": 0}
    for scheme in ("multinomial", "poisson"):
        assert fastauc.bootstrap_ci(y, s, scheme=scheme, **opts).estimate == a
        t = fastauc.bootstrap_test(y, s, s2, scheme=scheme, **opts)
        assert (t.estimate_a, t.estimate_b, t.difference) == (a, b, a - b)
    assert fastauc.roc_auc_ci(y, s, method="bootstrap", **opts).estimate == a
    assert fastauc.bootstrap_ci(y, s, method="bca", **opts).estimate == a
    # the other metrics' estimates are their in-memory functions' floats too
    assert fastauc.bootstrap_ci(y, s, max_fpr=0.3, **opts).estimate == _ref(y, s, w,
                                                                            max_fpr=0.3)
    assert fastauc.bootstrap_ci(y, s, metric="average_precision", **opts).estimate == \
        fastauc.average_precision_score(y, s, sample_weight=w)
    p = 1.0 / (1.0 + np.exp(-s))
    assert fastauc.bootstrap_ci(y, p, metric="log_loss", **opts).estimate == \
        fastauc.log_loss(y, p, sample_weight=w)


def test_mann_whitney(problem):
    y, s, s2, w = problem
    res = fastauc.mann_whitney_u(y, s, sample_weight=w, method="asymptotic")
    assert res.auc == _ref(y, s, w)


def test_by_group(problem):
    y, s, s2, w = problem
    n = y.shape[0]
    # one large group (above CHUNK_MIN rows when n is), a small one and many tiny ones
    g = np.where(np.arange(n) < n - 200, 0, 1 + np.arange(n) % 7)
    res = fastauc.by_group(y, s, g, sample_weight=w)
    for label, auc, ap in zip(res.groups["group"], res.auc, res.average_precision):
        rows = g == label
        wg = None if w is None else w[rows]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # a tiny group may weigh zero in a class
            ref, ref_ap = _ref(y[rows], s[rows], wg), _ap(y[rows], s[rows], wg)
        assert auc == ref or (np.isnan(auc) and np.isnan(ref)), label
        assert ap == ref_ap or (np.isnan(ap) and wg is not None and not wg.any()), label
    assert res.auc[0] == _ref(y[g == 0], s[g == 0], None if w is None else w[g == 0])
    assert res.average_precision[0] == _ap(y[g == 0], s[g == 0], None if w is None else w[g == 0])
    # the report's per-group tables are by_group's
    rep = fastauc.report(y, s, sample_weight=w, by=g)
    np.testing.assert_array_equal(rep.by_group["model_1"].auc, res.auc)
    np.testing.assert_array_equal(rep.by_group["model_1"].average_precision,
                                  res.average_precision)


@pytest.mark.parametrize("weighted", [False, True])
def test_by_group_continuous_scores(weighted):
    """Distinct scores: a large group's average-precision numerator has as
    many terms as positives, whose sum in two key ranges rounds otherwise
    than in one, counted as well as weighed (``SEG_AP_SPLIT``)."""
    rng = np.random.default_rng([36, weighted])
    n = CHUNK_MIN + 4321
    y = (rng.random(n) < 0.35).astype(np.int64)
    s = rng.normal(size=n) + y
    w = rng.random(n) * 3.0 if weighted else None
    g = np.where(np.arange(n) < n - 200, 0, 1)
    res = fastauc.by_group(y, s, g, sample_weight=w)
    for j in (0, 1):
        rows = g == j
        wg = None if w is None else w[rows]
        assert res.auc[j] == _ref(y[rows], s[rows], wg)
        assert res.average_precision[j] == _ap(y[rows], s[rows], wg)


@pytest.mark.parametrize("weighted", [False, True])
def test_by_group_one_class_groups_average_precision(weighted):
    """A large group of positives only: its average precision (1, or 1 off in
    the last bit when weighed and summed in two ranges) is
    ``average_precision_score``'s too; a group of negatives only gets 0."""
    rng = np.random.default_rng(7)
    n = CHUNK_MIN + 500
    s = np.round(rng.normal(size=n), 2)
    g = (np.arange(n) >= 400).astype(np.int64)
    y = np.where(g == 1, 1, 0)
    w = rng.random(n) * 3.0 if weighted else None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # single-class groups: undefined AUC
        res = fastauc.by_group(y, s, g, sample_weight=w)
        ref = [_ap(y[g == j], s[g == j], None if w is None else w[g == j]) for j in (0, 1)]
    assert res.average_precision.tolist() == ref


def test_accumulator(problem):
    y, s, s2, w = problem
    n = y.shape[0]
    a = _ref(y, s, w)
    assert fastauc.Accumulator().update(y, s, w).roc_auc() == a
    batches = fastauc.Accumulator()
    for lo in range(0, n, n // 3 + 1):
        batches.update(y[lo:lo + n // 3 + 1], s[lo:lo + n // 3 + 1],
                       None if w is None else w[lo:lo + n // 3 + 1])
    assert batches.roc_auc() == a
    assert batches.roc_auc() == a  # asked again (the table is built): the same float
    half = n // 2
    left = fastauc.Accumulator().update(y[:half], s[:half], None if w is None else w[:half])
    right = fastauc.Accumulator().update(y[half:], s[half:], None if w is None else w[half:])
    assert left.merge(right).roc_auc() == a
    other = fastauc.Accumulator().update(y, s, w)
    other.average_precision()  # another result first: the same AUC after it
    assert other.roc_auc() == a


def test_accumulator_average_precision(problem):
    """One batch: ``average_precision_score``'s float.  Unweighted, whatever
    the batches, merges and byte round trips (the table's counts are exact,
    and its sweep is cut where the rows' sweep is); weighted, while the
    rows are sorted at once."""
    y, s, s2, w = problem
    n = y.shape[0]
    ap = fastauc.average_precision_score(y, s, sample_weight=w)
    assert fastauc.Accumulator().update(y, s, w).average_precision() == ap
    if w is not None:
        return
    batches = fastauc.Accumulator()
    for lo in range(0, n, n // 5 + 1):
        batches.update(y[lo:lo + n // 5 + 1], s[lo:lo + n // 5 + 1])
    assert batches.average_precision() == ap
    half = n // 3
    left = fastauc.Accumulator().update(y[:half], s[:half])
    right = fastauc.Accumulator().update(y[half:], s[half:])
    merged = fastauc.Accumulator.from_bytes(left.merge(right).to_bytes())
    assert merged.average_precision() == ap
    assert merged.roc_auc() == _ref(y, s, None)


def test_float32_scores():
    y, s, s2, w = _problem(CHUNK_MIN + 99, "weighted with zeros", seed=3)
    s32 = s.astype(np.float32)
    a = _ref(y, s32, w)
    assert fastauc.delong_test(y, s32, s2, sample_weight=w).auc_a == a
    assert fastauc.roc_auc_ci(y, s32, sample_weight=w).estimate == a
    assert fastauc.report(y, s32, sample_weight=w).models[0].auc == a
    assert fastauc.bootstrap_ci(y, s32, sample_weight=w, n_resamples=2).estimate == a
    for weights in (w, None):
        ap = _ap(y, s32, weights)
        assert fastauc.report(y, s32, sample_weight=weights).models[0].average_precision == ap
        assert fastauc.by_group(y, s32, np.zeros(y.shape[0], int),
                                sample_weight=weights).average_precision[0] == ap


def test_the_example_of_the_issue():
    """delong_test's AUC was ...6941247 where roc_auc_score gave ...6941339."""
    rng = np.random.default_rng(36)
    n = 100_000
    y = rng.integers(0, 2, n)
    s = rng.normal(size=n) + 0.8 * y
    w = rng.exponential(size=n)
    t = fastauc.delong_test(y, s, -s + rng.normal(size=n), sample_weight=w)
    assert t.auc_a == _ref(y, s, w)
    assert t.auc_a == fastauc.roc_auc_ci(y, s, sample_weight=w).estimate
    assert t.auc_a == fastauc.by_group(y, s, np.zeros(n, int), sample_weight=w).auc[0]
