"""All-pairs training losses: values, gradients and Hessians against the
O(n**2) definitions (``fastauc.naive``), finite differences, the article's
loss, groups, the no-pair cases and bad input."""

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import fastauc
from fastauc import UndefinedMetricWarning, naive
from fastauc import _pairwise as pw
from fastauc import _sort

LOSSES = ["linear", "square", "squared_hinge", "hinge", "aum"]


def normalizations(loss):
    return [True, False] if loss == "aum" else [True, False, "all_pairs"]


def assert_terms_close(ours, ref, rtol=1e-9):
    """Value, gradient and Hessian within ``rtol`` of the reference's scale."""
    for name, a, b in zip(("value", "gradient", "hessian"), ours, ref):
        a = np.asarray(a, np.float64)
        b = np.asarray(b, np.float64)
        scale = max(1.0, float(np.max(np.abs(b))) if b.size else 1.0)
        np.testing.assert_allclose(a, b, rtol=rtol, atol=rtol * scale, err_msg=name)


@st.composite
def problems(draw, max_size=40):
    n = draw(st.integers(1, max_size))
    y = np.array(draw(st.lists(st.integers(0, 1), min_size=n, max_size=n)))
    decimals = draw(st.sampled_from([0, 1, 3]))  # 0 and 1: many ties and kinks
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    s = np.round(rng.normal(size=n) * draw(st.sampled_from([0.5, 1.0, 4.0])), decimals)
    if draw(st.booleans()):
        s = s.astype(np.float32)
    w = rng.choice([0.0, 0.5, 1.0, 3.0], n) if draw(st.booleans()) else None
    if w is not None:
        w[0] = 1.0  # all weights zero is an error, as in scikit-learn
    groups = rng.integers(0, draw(st.integers(1, 4)), n) if draw(st.booleans()) else None
    return y, s, w, groups


@settings(max_examples=300, deadline=None)
@given(problems(), st.sampled_from(LOSSES), st.sampled_from([0.0, 0.5, 1.0, 2.0]),
       st.integers(0, 2))
def test_equals_the_definition(problem, loss, margin, norm):
    y, s, w, groups = problem
    if loss in ("hinge", "squared_hinge") and margin == 0.0:
        margin = 1.0
    normalize = normalizations(loss)[norm % len(normalizations(loss))]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        ours = fastauc.pairwise_loss_gradient(y, s, loss=loss, margin=margin, sample_weight=w,
                                              groups=groups, normalize=normalize, hessian=True)
        value = fastauc.pairwise_loss(y, s, loss=loss, margin=margin, sample_weight=w,
                                      groups=groups, normalize=normalize)
    ref = naive.pairwise_loss(y, s.astype(np.float64), loss=loss, margin=margin,
                              sample_weight=w, groups=groups, normalize=normalize)
    assert_terms_close(ours, ref)
    assert value == ours[0]
    assert ours[1].shape == ours[2].shape == (len(y),)
    assert np.all(np.isfinite(ours[1])) and np.all(np.isfinite(ours[2]))


@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("grouped", [False, True])
def test_linear_all_pairs_is_the_articles_loss(weighted, grouped, rng):
    """normalize="all_pairs" gives the article's L, written with outer products."""
    n = 300
    y = (rng.random(n) < 0.3).astype(int)
    p = 1 / (1 + np.exp(-(rng.normal(size=n) + y)))
    w = rng.random(n) * 2 if weighted else None
    g = rng.integers(0, 5, n) if grouped else None
    ours = fastauc.pairwise_loss(y, p, loss="linear", normalize="all_pairs", sample_weight=w,
                                 groups=g)
    assert abs(ours - naive.article_loss(y, p, w, g)) <= 1e-12


def test_the_articles_two_blobs():
    """The article's example: two Gaussian blobs, probabilities from a model
    that ranks them well: L is below 0.5, and a perfect ranking lowers it."""
    rng = np.random.default_rng(0)
    x = np.concatenate([rng.normal(-1, 1, 500), rng.normal(1, 1, 500)])
    y = np.repeat([0, 1], 500)
    p = 1 / (1 + np.exp(-2 * x))
    loss = fastauc.pairwise_loss(y, p, loss="linear", normalize="all_pairs")
    assert loss == pytest.approx(naive.article_loss(y, p), abs=1e-12)
    assert 0.0 < loss < 0.5
    assert fastauc.pairwise_loss(y, y.astype(float), loss="linear",
                                 normalize="all_pairs") == pytest.approx(0.0)


@pytest.mark.parametrize("loss", LOSSES)
@pytest.mark.parametrize("weighted", [False, True])
def test_gradient_matches_finite_differences(loss, weighted, rng):
    """Away from kinks (no pair within 1e-4 of the margin, distinct scores)
    the gradient is the derivative, and the Hessian the gradient's."""
    n = 80
    y = (rng.random(n) < 0.4).astype(int)
    w = rng.uniform(0.5, 2.0, n) if weighted else None
    margin = 0.7
    while True:
        s = rng.normal(size=n) + y
        d = s[y == 1][:, None] - s[y == 0][None, :]
        gaps = np.diff(np.sort(s))
        if np.min(np.abs(d - margin)) > 1e-4 and gaps.min() > 1e-4:
            break
    h = 1e-6
    value, grad, hess = fastauc.pairwise_loss_gradient(y, s, loss=loss, margin=margin,
                                                       sample_weight=w, hessian=True)
    for k in range(n):
        up, down = s.copy(), s.copy()
        up[k] += h
        down[k] -= h
        f_up, g_up = fastauc.pairwise_loss_gradient(y, up, loss=loss, margin=margin,
                                                    sample_weight=w)
        f_down, g_down = fastauc.pairwise_loss_gradient(y, down, loss=loss, margin=margin,
                                                        sample_weight=w)
        assert (f_up - f_down) / (2 * h) == pytest.approx(grad[k], rel=1e-5, abs=1e-8)
        assert (g_up[k] - g_down[k]) / (2 * h) == pytest.approx(hess[k], rel=1e-5, abs=1e-8)


def test_kink_convention():
    """A hinge pair at d == margin exactly adds nothing (the right-hand
    derivative); one just inside adds its terms."""
    y = [1, 0]
    for loss in ("hinge", "squared_hinge"):
        value, grad, hess = fastauc.pairwise_loss_gradient(y, [1.5, 0.5], loss=loss,
                                                           hessian=True)
        assert value == 0.0 and not grad.any() and not hess.any()
        value, grad, hess = fastauc.pairwise_loss_gradient(y, [1.25, 0.5], loss=loss,
                                                           hessian=True)
        assert value > 0 and grad[0] < 0 < grad[1]
    # tied scores: d = 0, inside any positive margin
    assert fastauc.pairwise_loss([1, 0], [0.3, 0.3], loss="hinge", margin=0.5) == 0.5
    assert fastauc.pairwise_loss([1, 0], [0.3, 0.3], loss="square", margin=0.0) == 0.0


def test_aum_ties_take_the_mean_of_the_one_sided_derivatives():
    """Two rows on one score: moving the positive up helps nothing (the
    negative still outscores no one), moving it down separates them: the
    mean of the two sides is returned."""
    value, grad = fastauc.pairwise_loss_gradient([1, 0], [0.5, 0.5], loss="aum",
                                                 normalize=False)
    assert value == 0.0
    # positive up: area stays 0 (right 0); positive down opens a gap where
    # FP = FN = 1 (left derivative -1): the mean is -0.5
    np.testing.assert_array_equal(grad, [-0.5, 0.5])
    _, g_naive, _ = naive.pairwise_loss([1, 0], [0.5, 0.5], loss="aum", normalize=False)
    np.testing.assert_array_equal(grad, g_naive)


@pytest.mark.parametrize("loss", LOSSES)
def test_no_pair_is_defined_with_one_warning(loss):
    y = [1, 1, 1]
    with pytest.warns(UndefinedMetricWarning, match="one class") as record:
        value, grad, hess = fastauc.pairwise_loss_gradient(y, [0.1, 0.5, 0.2], loss=loss,
                                                           hessian=True)
    assert len(record) == 1
    assert value == 0.0
    assert not grad.any() and not hess.any()
    if loss == "linear":
        with pytest.warns(UndefinedMetricWarning):
            assert fastauc.pairwise_loss(y, [0.1, 0.5, 0.2], loss=loss,
                                         normalize="all_pairs") == 0.5


def test_groups_with_one_class_are_counted_in_the_warning():
    y = [0, 1, 1, 1, 0, 0, 1]
    g = ["a", "a", "b", "b", "c", "c", "d"]
    s = [0.1, 0.4, 0.3, 0.9, 0.2, 0.8, 0.5]
    with pytest.warns(UndefinedMetricWarning, match="3 of 4 groups") as record:
        value, grad = fastauc.pairwise_loss_gradient(y, s, groups=g)
    assert len(record) == 1
    np.testing.assert_array_equal(grad[2:], 0.0)
    assert value == pytest.approx(fastauc.pairwise_loss(y[:2], s[:2]))


def test_groups_are_independent_rankings(rng):
    """Groups: the sum over groups equals each group's loss computed alone,
    whatever the group labels' type and order."""
    n = 2000
    y = (rng.random(n) < 0.2).astype(int)
    s = rng.normal(size=n) + y
    g = rng.integers(0, 40, n)
    labels = np.array([f"q{k}" for k in range(40)])[g]
    for loss in LOSSES:
        total, grad = fastauc.pairwise_loss_gradient(y, s, loss=loss, groups=labels,
                                                     normalize=False)
        parts = 0.0
        for k in range(40):
            m = g == k
            v_k, g_k = fastauc.pairwise_loss_gradient(y[m], s[m], loss=loss, normalize=False)
            parts += v_k
            np.testing.assert_allclose(grad[m], g_k, rtol=1e-12, atol=1e-12)
        assert total == pytest.approx(parts, rel=1e-12)


@pytest.mark.parametrize("loss", LOSSES)
def test_large_input_against_the_definition_and_thread_count(loss, rng, monkeypatch):
    """Past the two-thread threshold, many groups: equal to the definition
    and bit for bit the same with one thread, and through the slots (what
    inputs past ``DIRECT_ROWS`` take) instead of the rows' indices."""
    n = pw.CHUNK_MIN + 3000
    y = (rng.random(n) < 0.1).astype(int)
    s = np.round(rng.normal(size=n) + y, 2)
    w = rng.random(n)
    g = rng.integers(0, 400, n)
    ours = fastauc.pairwise_loss_gradient(y, s, loss=loss, sample_weight=w, groups=g,
                                          hessian=True)
    sub = g < 5  # the definition on a few groups (O(n**2) per group)
    ref = naive.pairwise_loss(y[sub], s[sub], loss=loss, sample_weight=w[sub], groups=g[sub],
                              normalize=False)
    mine = fastauc.pairwise_loss_gradient(y[sub], s[sub], loss=loss, sample_weight=w[sub],
                                          groups=g[sub], normalize=False, hessian=True)
    assert_terms_close(mine, ref)
    whole = fastauc.pairwise_loss_gradient(y, s, loss=loss, sample_weight=w, hessian=True)
    for env, rows in (("1", _sort.DIRECT_ROWS), ("2", 0)):
        monkeypatch.setenv("FASTAUC_NUM_THREADS", env)
        monkeypatch.setattr(_sort, "DIRECT_ROWS", rows)
        for threaded, args in ((ours, {"groups": g}), (whole, {})):
            other = fastauc.pairwise_loss_gradient(y, s, loss=loss, sample_weight=w,
                                                   hessian=True, **args)
            assert other[0] == threaded[0]
            np.testing.assert_array_equal(other[1], threaded[1])
            np.testing.assert_array_equal(other[2], threaded[2])


def test_pos_label_and_string_labels():
    y = np.array(["spam", "ham", "spam", "ham"])
    s = [0.9, 0.2, 0.4, 0.6]
    a = fastauc.pairwise_loss(y, s, pos_label="spam")
    b = fastauc.pairwise_loss([1, 0, 1, 0], s)
    assert a == b
    c = fastauc.pairwise_loss(y, s, pos_label="ham")  # the other way round
    assert c == fastauc.pairwise_loss([0, 1, 0, 1], s)


def test_float32_scores_are_not_widened_before_the_sort():
    rng = np.random.default_rng(3)
    y = (rng.random(5000) < 0.3).astype(int)
    s = (rng.normal(size=5000) + y).astype(np.float32)
    for loss in LOSSES:
        a = fastauc.pairwise_loss_gradient(y, s, loss=loss, hessian=True)
        b = fastauc.pairwise_loss_gradient(y, s.astype(np.float64), loss=loss, hessian=True)
        assert a[0] == pytest.approx(b[0], rel=1e-12)
        np.testing.assert_allclose(a[1], b[1], rtol=1e-12, atol=1e-15)


# ---------------------------------------------------------------- bad input

@pytest.mark.parametrize("kwargs, error, words", [
    ({"loss": "logistic"}, ValueError, "'loss' parameter"),
    ({"loss": None}, ValueError, "'loss' parameter"),
    ({"margin": float("nan")}, ValueError, "margin must be a finite number > 0"),
    ({"margin": float("inf")}, ValueError, "margin must be a finite number"),
    ({"margin": 0.0}, ValueError, "> 0 for loss='squared_hinge'"),
    ({"margin": 0.0, "loss": "hinge"}, ValueError, "> 0 for loss='hinge'"),
    ({"margin": -1.0, "loss": "square"}, ValueError, ">= 0 for loss='square'"),
    ({"margin": "1"}, TypeError, "'margin' parameter"),
    ({"margin": True}, TypeError, "'margin' parameter"),
    ({"normalize": "mean"}, ValueError, "'normalize' parameter"),
    ({"normalize": 2}, ValueError, "'normalize' parameter"),
    ({"normalize": "all_pairs", "loss": "aum"}, ValueError, "takes normalize=True"),
    ({"groups": [1, 2, 3]}, ValueError, "inconsistent numbers of samples"),
    ({"groups": [1, None, 2, 2]}, ValueError, "groups has 1 missing"),
    ({"groups": [1.0, np.nan, 2.0, 2.0]}, ValueError, "groups has 1 missing"),
    ({"sample_weight": [1, 1, -1, 1]}, ValueError, "negative"),
])
def test_bad_parameters_are_named(kwargs, error, words):
    y = np.array([0, 1, 0, 1])
    s = np.array([0.1, 0.7, 0.3, 0.2])
    y0, s0 = y.copy(), s.copy()
    for fn in (fastauc.pairwise_loss, fastauc.pairwise_loss_gradient):
        with pytest.raises(error, match=words):
            fn(y, s, **kwargs)
    np.testing.assert_array_equal(y, y0)
    np.testing.assert_array_equal(s, s0)


@pytest.mark.parametrize("bad", [np.nan, np.inf])
def test_non_finite_scores_and_three_classes(bad):
    with pytest.raises(ValueError, match="y_score"):
        fastauc.pairwise_loss([0, 1, 0], [0.1, bad, 0.3], loss="square")
    with pytest.raises(ValueError, match="y_score"):
        fastauc.pairwise_loss([0, 1, 0], [0.1, bad, 0.3], loss="aum", groups=[1, 2, 1])
    with pytest.raises(ValueError):
        fastauc.pairwise_loss([0, 1, 2], [0.1, 0.2, 0.3])
    with pytest.raises(ValueError, match="inconsistent"):
        fastauc.pairwise_loss([0, 1, 0], [0.1, 0.2])


@pytest.mark.parametrize("squared", [True, False])
@pytest.mark.parametrize("weighted", [True, False])
def test_merge_parts_add_up_to_the_whole_merge(squared, weighted, rng):
    """``hinge_merge`` over the two parts of any cut the merge passes (the
    one ``merge_cut`` picks, and one at every positive of every group) gives
    the entries and value of the whole merge: the lower part's sums of the
    negatives above it and its negatives with no pair are right."""
    from fastauc._kernels.pairwise import first_active, hinge_merge, merge_cut, positive_prefix

    n, n_groups, margin = 400, 4, 0.7
    y = rng.random(n) < 0.4
    s = np.round(rng.normal(size=n) + y, 1)  # ties, and pairs at the margin
    w = rng.choice([0.0, 0.5, 2.0], n) if weighted else np.empty(0)
    codes = rng.integers(0, n_groups, n)
    runs, p_starts, n_starts, _ = _sort.sort_by_group(y, s, w, codes, n_groups, values=True)
    ps, ns = runs.pk.view(np.float64), runs.nk.view(np.float64)
    pw_, nw_ = (runs.pw, runs.nw) if weighted else (None, None)
    wp, up = np.empty(ps.shape[0]), np.empty(ps.shape[0])
    positive_prefix(ps, pw_, p_starts, wp, up)
    scale = rng.uniform(0.5, 2.0, n_groups)

    def merge(parts):
        out = np.zeros(2 * n)
        value = sum(hinge_merge(ps, pw_, runs.px, p_starts, ns, nw_, runs.nx, n_starts, wp, up,
                                margin, squared, scale, out, (1, n), *part) for part in parts)
        return value, out

    n_pos, n_neg = ps.shape[0], ns.shape[0]
    whole = merge([(0, n_pos, 0, n_neg)])
    cuts = [merge_cut(ps, p_starts, ns, n_starts, margin)]
    for g in range(n_groups):
        for k in range(p_starts[g], p_starts[g + 1]):
            cuts.append((k, first_active(ps[k], ns, n_starts[g], n_starts[g + 1], margin)))
    for i_cut, j_cut in cuts:
        value, out = merge([(0, i_cut, 0, j_cut), (i_cut, n_pos, j_cut, n_neg)])
        assert value == pytest.approx(whole[0], rel=1e-12)
        np.testing.assert_allclose(out, whole[1], rtol=1e-12, atol=1e-12)
    # many parts: merge_cut's shares j / k, and every fifth cut of the passes above
    for many in ([(0, 0)] + [merge_cut(ps, p_starts, ns, n_starts, margin, j, 7)
                             for j in range(1, 7)] + [(n_pos, n_neg)],
                 [(0, 0)] + sorted(cuts[1::5]) + [(n_pos, n_neg)]):
        value, out = merge([(a[0], b[0], a[1], b[1]) for a, b in zip(many[:-1], many[1:])])
        assert value == pytest.approx(whole[0], rel=1e-12)
        np.testing.assert_allclose(out, whole[1], rtol=1e-12, atol=1e-12)
