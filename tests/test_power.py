"""roc_power and smooth_roc: pROC's documented values (power.roc.test and
smooth.roc on aSAH), the equations solved both ways, and bad input."""

import csv
import math
import pathlib

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import fastauc
from fastauc import PowerResult, SmoothROC, delong_covariance, roc_power, smooth_roc
from fastauc import _binormal as bn
from fastauc.power import _solve_auc

DATA = pathlib.Path(__file__).parent / "data"
UNIROOT_TOL = 2.220446049250313e-16 ** 0.25  # R's uniroot default


@pytest.fixture(scope="module")
def asah():
    with open(DATA / "asah.csv") as fh:
        rows = list(csv.DictReader(fh))
    y = np.array([r["outcome"] == "Poor" for r in rows], int)
    cols = {k: np.array([float(r[k]) for r in rows]) for k in ("s100b", "ndka", "wfns")}
    return y, cols


def rel(got, want, tol=1e-6):
    """testthat's expect_equal(tolerance=): relative to the documented value."""
    assert abs(got - want) <= tol * abs(want), (got, want)


# ------------------------------------------------- pROC test-power.roc.test.R

def test_one_curve_from_pilot(asah):
    y, c = asah
    res = roc_power(y, c["s100b"])
    assert isinstance(res, PowerResult) and res.solved == "power"
    assert res.auc == fastauc.roc_auc_score(y, c["s100b"])
    assert (res.n_cases, res.n_controls, res.sig_level) == (41, 72, 0.05)
    rel(res.power, 0.9904833)


def test_one_curve_given_auc():
    res = roc_power(n_cases=41, n_controls=72, auc=0.73, sig_level=0.05)
    assert (res.auc, res.n_cases, res.n_controls, res.sig_level) == (0.73, 41, 72, 0.05)
    rel(res.power, 0.9897453)
    assert roc_power(n_cases=41, n_controls=72, auc=0.73).power == res.power


def test_one_curve_sample_size(asah):
    y, c = asah
    auc = fastauc.roc_auc_score(y, c["s100b"])
    res = roc_power(auc=auc, sig_level=0.05, power=0.95, kappa=1.7)
    assert res.solved == "n" and res.power == 0.95 and res.sig_level == 0.05
    rel(res.n_cases, 29.29764)
    rel(res.n_controls, 49.806)


def test_one_curve_sig_level():
    res = roc_power(n_cases=41, n_controls=72, auc=0.73, power=0.95, sig_level=None)
    assert res.solved == "sig_level" and res.power == 0.95
    rel(res.sig_level, 0.009238584)


def test_one_curve_auc():
    res = roc_power(n_cases=41, n_controls=72, sig_level=0.05, power=0.95)
    assert res.solved == "auc"
    # pROC's 0.6961054 is uniroot's answer at its default tolerance (1.2e-4):
    # the same search to that tolerance gives it; ours goes to 1e-12
    rel(_solve_auc(41, 72 / 41, 0.95, 0.025, 0.5, tol=UNIROOT_TOL), 0.6961054)
    assert abs(res.auc - 0.6961054) < 1e-5
    back = roc_power(n_cases=41, n_controls=72, auc=res.auc, power=None)
    assert abs(back.power - 0.95) < 1e-10


@pytest.mark.parametrize("method, power", [("delong", 0.7131594), ("obuchowski", 0.8061004)])
def test_two_curves_power(asah, method, power):
    y, c = asah
    res = roc_power(y, c["ndka"], c["wfns"], method=method)
    assert (res.n_cases, res.n_controls, res.sig_level) == (41, 72, 0.05)
    assert res.alternative == "two-sided" and res.method == method
    aucs, _ = delong_covariance(y, np.column_stack([c["ndka"], c["wfns"]]))
    assert (res.auc, res.auc2) == pytest.approx((aucs[0], aucs[1]), rel=1e-14)
    rel(res.power, power)
    if method == "delong":  # the default for two curves
        assert roc_power(y, c["ndka"], c["wfns"]) == res


@pytest.mark.parametrize("method, n_cases, n_controls", [("delong", 64.77777, 113.7561),
                                                         ("obuchowski", 53.23685, 93.48911)])
def test_two_curves_sample_size(asah, method, n_cases, n_controls):
    y, c = asah
    res = roc_power(y, c["ndka"], c["wfns"], power=0.9, method=method)
    assert res.solved == "n" and (res.power, res.sig_level) == (0.9, 0.05)
    rel(res.n_cases, n_cases)
    rel(res.n_controls, n_controls)


@pytest.mark.parametrize("method, sig", [("delong", 0.1836639), ("obuchowski", 0.1150686)])
def test_two_curves_sig_level(asah, method, sig):
    y, c = asah
    res = roc_power(y, c["ndka"], c["wfns"], power=0.9, sig_level=None, method=method)
    assert (res.n_cases, res.n_controls, res.power) == (41, 72, 0.9)
    rel(res.sig_level, sig)


def test_two_curves_partial_auc(asah):
    y, c = asah
    res = roc_power(y, c["wfns"], c["ndka"], power=0.9, method="obuchowski",
                    fpr_range=(0, 0.1))
    rel(res.n_cases, 0.5061498)
    rel(res.n_controls, 0.8888484)
    for auc, s in ((res.auc, c["wfns"]), (res.auc2, c["ndka"])):  # not standardized
        fpr, tpr, _ = fastauc.roc_curve(y, s, drop_intermediate=False)
        grid = np.linspace(0, 0.1, 100001)
        assert abs(auc - np.trapezoid(np.interp(grid, fpr, tpr), grid)) < 1e-6


def test_binormal_parameters():
    p = dict(a1=2.6, b1=1, a2=1.9, b2=1, rn=0.6, ra=0.6, delta=0.037,
             fpr_range1=(0, 0.2), fpr_range2=(0, 0.2))
    res1 = roc_power(binormal=p, power=0.8, sig_level=0.05)
    rel(res1.n_cases, 107.0238)
    assert res1.n_controls == res1.n_cases and res1.method == "obuchowski"
    res2 = roc_power(binormal=p, power=0.8, sig_level=None, n_cases=107)
    assert (res2.n_cases, res2.n_controls, res2.power) == (107, 107, 0.8)
    rel(res2.sig_level, 0.05004012)
    res3 = roc_power(binormal=p, sig_level=0.05, n_cases=107)
    rel(res3.power, 0.7999286)
    # pROC's keys, upper case, and one range for both tests
    q = {"A1": 2.6, "B1": 1, "A2": 1.9, "B2": 1, "rn": 0.6, "ra": 0.6, "delta": 0.037,
         "fpr_range": (0, 0.2)}
    assert roc_power(binormal=q, power=0.8) == res1


@pytest.mark.parametrize("kappa", [0.25, 0.5, 1, 2, 4])
def test_obuchowski_2004_table_4(kappa):
    """pROC's check of Obuchowski, Lieber & Wians (2004), table 4 (two
    entries fixed by pROC): at least 10 per group."""
    thetas = (0.6, 0.7, 0.8, 0.9, 0.95)
    controls = {0.25: (84, 20, 10, 10, 10), 0.5: (101, 25, 10, 10, 10),
                1: (135, 33, 14, 10, 10), 2: (203, 50, 21, 20, 20), 4: (340, 84, 40, 40, 40)}
    cases = {0.25: (334, 80, 40, 40, 40), 0.5: (202, 49, 20, 20, 20), 1: (135, 33, 14, 10, 10),
             2: (102, 25, 11, 10, 10), 4: (85, 21, 10, 10, 10)}
    for j, theta in enumerate(thetas):
        pr = roc_power(auc=theta, sig_level=0.05, power=0.9, kappa=kappa,
                       alternative="one-sided")
        nca, nco = math.ceil(pr.n_cases), math.ceil(pr.n_controls)
        assert max(10, (10 if nca < 10 else 0) * kappa, nco) == controls[kappa][j]
        assert max(10, (10 if nco < 10 else 0) / kappa, nca) == cases[kappa][j]


def test_kappa_one_curve(asah):
    y, c = asah
    res = roc_power(y, c["s100b"], sig_level=0.05, power=0.9)
    rel(res.n_cases, 23.5598674, 1e-8)
    rel(res.n_controls, 41.3734257, 1e-8)
    assert abs(res.n_cases / res.n_controls - 41 / 72) < 1e-15
    res = roc_power(y, c["s100b"], sig_level=0.05, power=0.9, kappa=1)
    rel(res.n_cases, 29.5697422, 1e-8)
    assert res.n_controls == res.n_cases


def test_kappa_two_curves(asah):
    y, c = asah
    res = roc_power(y, c["s100b"], c["ndka"], sig_level=0.05, power=0.9)
    rel(res.n_cases, 213.117677, 1e-8)
    rel(res.n_controls, 374.255432, 1e-8)
    res1 = roc_power(y, c["s100b"], c["ndka"], sig_level=0.05, power=0.9, kappa=1)
    assert res1.n_cases == res.n_cases and res1.n_controls == res1.n_cases


# ------------------------------------------------------------ beyond pROC

def test_unpaired_is_paired_without_covariance(asah):
    y, c = asah
    s1, s2 = c["ndka"], c["wfns"]
    paired = roc_power(y, s1, s2)
    unpaired = roc_power(y, s1, s2, y_true2=y)
    _, cov = delong_covariance(y, np.column_stack([s1, s2]))
    assert abs(unpaired.va - 41 * (cov[0, 0] + cov[1, 1])) < 1e-12
    assert abs(unpaired.v0 - 2 * 41 * cov[0, 0]) < 1e-12
    assert unpaired.auc == paired.auc and unpaired.auc2 == paired.auc2
    # the second test's pilot on other rows
    other = roc_power(y, s1, s2[::-1], y_true2=y[::-1], method="obuchowski")
    assert other.v0 == pytest.approx(2 * unpaired_var(y, s1), rel=1e-12)


def unpaired_var(y, s):
    se, sp, P, N = bn.empirical_points(y.astype(bool), s, np.empty(0))
    a, b = bn.binormal_fit(se, sp)
    return bn.var_params(a, b, N / P)


def test_one_curve_delong_variance(asah):
    y, c = asah
    res = roc_power(y, c["s100b"], method="delong")
    auc, cov = delong_covariance(y, c["s100b"])
    assert res.va == pytest.approx(41 * cov[0, 0], rel=1e-14)
    assert res.v0 == pytest.approx(0.0792 * (1 + 41 / 72), rel=1e-14)
    want = bn.pnorm((math.sqrt(41) * (auc[0] - 0.5) - bn.qnorm(0.975) * math.sqrt(res.v0))
                    / math.sqrt(res.va))
    assert res.power == pytest.approx(want, rel=1e-14)


def test_auc0_generalizes_half():
    a = roc_power(auc=0.8, n_cases=30, n_controls=30)
    b = roc_power(auc=0.8, n_cases=30, n_controls=30, auc0=0.5)
    assert a == b
    assert a.v0 == pytest.approx(0.0792 * 2, rel=1e-14)
    c = roc_power(auc=0.85, n_cases=30, n_controls=30, auc0=0.7)
    assert c.delta == pytest.approx(0.15) and c.power < a.power


@settings(max_examples=60, deadline=None)
@given(auc=st.floats(0.55, 0.97), kappa=st.floats(0.2, 5), power=st.floats(0.5, 0.99),
       sig=st.floats(0.001, 0.2), two=st.booleans())
def test_solutions_agree(auc, kappa, power, sig, two):
    alt = "two-sided" if two else "one-sided"
    n = roc_power(auc=auc, kappa=kappa, power=power, sig_level=sig, alternative=alt)
    assert n.n_controls == pytest.approx(kappa * n.n_cases, rel=1e-14)
    p = roc_power(auc=auc, n_cases=n.n_cases, n_controls=n.n_controls, sig_level=sig,
                  alternative=alt)
    assert p.power == pytest.approx(power, abs=1e-10)
    s = roc_power(auc=auc, n_cases=n.n_cases, n_controls=n.n_controls, power=power,
                  sig_level=None, alternative=alt)
    assert s.sig_level == pytest.approx(sig, rel=1e-9)
    a = roc_power(n_cases=n.n_cases, n_controls=n.n_controls, power=power, sig_level=sig,
                  alternative=alt)
    assert a.auc == pytest.approx(auc, abs=1e-9)


@settings(max_examples=40, deadline=None)
@given(x=st.floats(-3, 3), lo=st.floats(-5, -0.1), hi=st.floats(0.1, 5))
def test_brent_root(x, lo, hi):
    r = bn.brent_root(lambda t: math.tanh(t - x), x + lo, x + hi)
    assert abs(r - x) <= 1e-11


def test_inputs_not_modified(asah):
    y, c = asah
    y0, s0, s1 = y.copy(), c["ndka"].copy(), c["wfns"].copy()
    roc_power(y, c["ndka"], c["wfns"], method="obuchowski")
    smooth_roc(y, c["ndka"])
    assert (y == y0).all() and (c["ndka"] == s0).all() and (c["wfns"] == s1).all()


# ------------------------------------------------------------------ bad input

@pytest.mark.parametrize("kw, words", [
    (dict(auc=0.7), "'n_cases' and 'n_controls' (or one of these with 'kappa') or 'auc'"),
    (dict(auc=0.7, n_cases=10, n_controls=10, power=0.8), "One of 'power', 'sig_level'"),
    (dict(n_cases=10, power=0.8, kappa=None, sig_level=0.05), None),
    (dict(n_cases=10, n_controls=10), "'power' or 'auc' must be provided."),
    (dict(n_cases=10, n_controls=10, power=0.8, sig_level=None), "'sig_level' or 'auc'"),
    (dict(power=0.9), "'n_cases' and 'n_controls' (or one of these with 'kappa') or 'auc'"),
    (dict(auc=0.7, power=1.5), "'power' must range from 0 to 1"),
    (dict(auc=0.7, power=0.8, sig_level=-0.1), "'sig_level' must range from 0 to 1"),
    (dict(auc=0.7, n_cases=-1, n_controls=3), "'n_cases' must be positive"),
    (dict(auc=0.7, n_cases=1, n_controls=-3), "'n_controls' must be positive"),
    (dict(auc=0.7, power=0.8, kappa=-1), "'kappa' must be positive"),
    (dict(auc=0.7, power=0.8, alternative="less"), "'alternative' must be one of"),
    (dict(auc=0.7, power=0.8, auc0=1.0), "'auc0' must be strictly between 0 and 1"),
    (dict(auc=1.2, power=0.8), "'auc' must range from 0 to 1"),
    (dict(auc=0.7, power=0.8, method="nope"), "'method' must be one of"),
    (dict(auc=0.7, power=0.8, fpr_range=(0, 0.2)), "'fpr_range' applies to two curves"),
    (dict(auc=0.7, power=0.8, method="delong"), "needs pilot data"),
    (dict(binormal=dict(a1=1, b1=1), power=0.8), "Missing parameter(s): a2, b2, rn, ra, delta"),
    (dict(binormal=dict(a1=1, b1=1, a2=1, b2=1, rn=2, ra=0, delta=.1), power=0.8),
     "Correlations 'rn' and 'ra' must range from -1 to 1"),
    (dict(binormal=dict(a1=1, b1=1, a2=1, b2=1, rn=0, ra=0, delta=.1, x=1), power=0.8),
     "Unknown binormal parameter(s): x"),
    (dict(binormal=dict(a1=1, b1=1, a2=1, b2=1, rn=0, ra=0, delta=.1, fpr_range1=(0, .2)),
          power=0.8), "Give partial ranges for both tests or for neither"),
    (dict(binormal=dict(a1=1, b1=1, a2=1, b2=1, rn=0, ra=0, delta=.1), power=None,
          sig_level=None), "'sig_level' or 'power' must be provided."),
])
def test_numeric_errors(kw, words):
    if words is None:  # one size with kappa is enough
        kw = dict(kw, kappa=2.0)
        assert roc_power(**kw).n_controls == 20.0
        return
    with pytest.raises(ValueError) as e:
        roc_power(**kw)
    assert words in str(e.value)


def test_pilot_errors(asah):
    y, c = asah
    s = c["s100b"]
    with pytest.raises(ValueError, match="needs pilot data"):
        roc_power(auc=0.7, power=0.9, method="bootstrap")
    with pytest.raises(ValueError, match="'auc' is taken from the pilot data"):
        roc_power(y, s, auc=0.7)
    with pytest.raises(ValueError, match="One of 'power'"):
        roc_power(y, s, power=0.9, n_cases=40)
    with pytest.raises(ValueError, match="needs method='obuchowski' or 'bootstrap'"):
        roc_power(y, s, c["ndka"], fpr_range=(0, 0.1))
    with pytest.raises(ValueError, match="at least two cases"):
        roc_power([0, 0, 1], [0.1, 0.2, 0.3])
    with pytest.raises(ValueError, match="need both 'y_true' and 'y_score'"):
        roc_power(y, power=0.9)
    with pytest.raises(ValueError, match="not both"):
        roc_power(y, s, binormal={}, power=0.9)
    with pytest.raises(TypeError, match="'power' must be a real number"):
        roc_power(auc=0.7, power="0.9")
    with pytest.raises(ValueError, match="'fpr_range' must satisfy"):
        roc_power(y, s, c["ndka"], method="obuchowski", fpr_range=(0.3, 0.1))
    with pytest.raises(ValueError):
        roc_power(y, s, np.ones(5))


# -------------------------------------------------------------- smooth_roc

def test_smooth_binormal_equals_proc(asah):
    y, c = asah
    want = np.loadtxt(DATA / "proc_smooth_s100b.csv", delimiter=",", skiprows=2)
    curve = smooth_roc(y, c["s100b"])
    assert isinstance(curve, SmoothROC) and curve.specificities.shape == (514,)
    np.testing.assert_allclose(curve.specificities, want[:, 0], rtol=0, atol=1e-10)
    np.testing.assert_allclose(curve.sensitivities, want[:, 1], rtol=0, atol=1e-10)
    assert curve.auc == pytest.approx(
        bn.pnorm(curve.intercept / math.sqrt(1 + curve.slope ** 2)), rel=1e-15)
    assert curve.auc == pytest.approx(bn.pnorm(curve.a / math.sqrt(1 + curve.b ** 2)),
                                      rel=1e-14)
    assert "SmoothROC(method='binormal'" in repr(curve)


def test_smooth_fit_is_least_squares(asah):
    y, c = asah
    fpr, tpr, _ = fastauc.roc_curve(y, c["ndka"], drop_intermediate=False)
    se, sp = tpr, 1 - fpr
    keep = (se > 0) & (se < 1) & (sp > 0) & (sp < 1)
    x = np.array([bn.qnorm(v) for v in se[keep]])
    z = np.array([bn.qnorm(v) for v in sp[keep]])
    slope, intercept = np.polyfit(x, z, 1)
    curve = smooth_roc(y, c["ndka"], n=20)
    assert curve.slope == pytest.approx(slope, rel=1e-10)
    assert curve.intercept == pytest.approx(intercept, rel=1e-10)
    assert curve.sensitivities.shape == (22,)
    assert (np.diff(curve.specificities) >= 0).all()
    assert (np.diff(curve.sensitivities) <= 0).all()


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**31), n=st.integers(20, 200))
def test_smooth_invariances(seed, n):
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.4).astype(int)
    y[:2] = (0, 1)
    s = np.round(rng.normal(size=n) + y, 1)
    try:
        ref = smooth_roc(y, s, n=16)
    except ValueError as e:
        assert "not smoothable" in str(e)
        return
    perm = rng.permutation(n)
    for other in (smooth_roc(y[perm], s[perm], n=16),
                  smooth_roc(np.where(y == 1, "b", "a"), s, n=16),
                  smooth_roc(y, 3.0 * s + 1.0, n=16)):
        assert other.auc == pytest.approx(ref.auc, rel=1e-12)
        np.testing.assert_allclose(other.specificities, ref.specificities, atol=1e-12)


def test_smooth_errors():
    with pytest.raises(ValueError, match="not smoothable"):
        smooth_roc([0, 1], [0.2, 0.4])
    with pytest.raises(ValueError, match="Only one class"):
        smooth_roc([1, 1, 1], [0.2, 0.4, 0.5])
    with pytest.raises(ValueError, match="differ"):
        smooth_roc([0, 1, 0, 1], [1, 2, 3, 4], method="density", density_controls=[1, 2],
                   density_cases=[1, 2, 3])
    with pytest.raises(ValueError, match="non-negative"):
        smooth_roc([0, 1, 0, 1], [1, 2, 3, 4], method="density", density_controls=[1, -2],
                   density_cases=[1, 2])
    with pytest.raises(ValueError, match="'bw' must be 'nrd0'"):
        smooth_roc([0, 1, 0, 1], [1, 2, 3, 4], method="density", bw="sj")
    with pytest.raises(ValueError, match="bandwidth must be positive"):
        smooth_roc([0, 1, 0, 1], [1, 2, 3, 4], method="density", bw=0.0)
    with pytest.raises(ValueError, match="Only one class"):
        smooth_roc([1, 1, 1], [0.2, 0.4, 0.5], method="density")
    with pytest.raises(ValueError, match="'method' must be"):
        smooth_roc([0, 1, 0, 1], [1, 2, 3, 4], method="fitdistr")
    with pytest.raises(ValueError, match="'n' must be at least 2"):
        smooth_roc([0, 1, 0, 1], [1, 2, 3, 4], n=1)
    with pytest.raises(TypeError, match="'n' must be an integer"):
        smooth_roc([0, 1, 0, 1], [1, 2, 3, 4], n=5.0)
    with pytest.raises(ValueError):
        smooth_roc([0, 1, 0, 1], [1, 2, np.nan, 4])


# ------------------------------------------------ smooth_roc, method="density"

def _unif(x, grid):
    return np.where((grid >= x.min()) & (grid <= x.max()), 1 / (x.max() - x.min()), 0.0)


def _norm(x, grid):
    m, sd = x.mean(), x.std(ddof=1)
    return np.exp(-0.5 * ((grid - m) / sd) ** 2) / (sd * math.sqrt(2 * math.pi))


def _lnorm(x, grid):
    m, sd = x.mean(), x.std(ddof=1)
    g = np.where(grid > 0, grid, 1.0)
    out = np.exp(-0.5 * ((np.log(g) - m) / sd) ** 2) / (g * sd * math.sqrt(2 * math.pi))
    return np.where(grid > 0, out, 0.0)


def test_density_function_equals_proc(asah):
    """pROC's test-smooth.R: a uniform density for both classes, n = 10."""
    y, c = asah
    curve = smooth_roc(y, c["ndka"], method="density", density=_unif, n=10)
    assert curve.method == "density" and math.isnan(curve.a)
    np.testing.assert_allclose(curve.sensitivities,
                               [1, 1, 1, .875, .75, .625, .5, .375, .25, .125, 0, 0],
                               rtol=0, atol=1e-10)
    np.testing.assert_allclose(curve.specificities, [0, 0, 0] + [1] * 9, rtol=0, atol=1e-10)
    assert curve.auc == pytest.approx(0.9375, abs=1e-12)


def test_two_density_functions_equal_proc(asah):
    """pROC's test-smooth.R: normal controls, log-normal cases, n = 10 (the
    grid from R's bw.nrd0 on all the scores)."""
    y, c = asah
    curve = smooth_roc(y, c["ndka"], method="density", density_controls=_norm,
                       density_cases=_lnorm, n=10)
    se = [1, 1, 1, 0.635948942024884, 0.460070154191559, 0.344004532431686,
          0.25735248652959, 0.188201024566009, 0.130658598389315, 0.0813814489619488,
          0.0382893349015216, 0]
    sp = [0, 0, 0.832138478872629, 0.99999996787709, 1, 1, 1, 1, 1, 1, 1, 1]
    np.testing.assert_allclose(curve.sensitivities, se, rtol=0, atol=1e-10)
    np.testing.assert_allclose(curve.specificities, sp, rtol=0, atol=1e-10)
    rel(curve.auc, 0.9694449, 1e-7)


def test_density_arrays_and_kernel(asah):
    y, c = asah
    s = c["s100b"]
    kde = smooth_roc(y, s, method="density")
    assert kde.specificities.shape == (514,) and "bandwidth=" in repr(kde)
    ref = fastauc.naive.smooth_roc_density(y, s)
    np.testing.assert_allclose(kde.specificities, ref["specificities"], atol=1e-12)
    np.testing.assert_allclose(kde.sensitivities, ref["sensitivities"], atol=1e-12)
    assert kde.auc == pytest.approx(ref["auc"], abs=1e-12)
    # the same densities given as arrays
    grid = np.linspace(s.min() - 3 * kde.bandwidth, s.max() + 3 * kde.bandwidth, 512)
    dens = [np.exp(-0.5 * ((grid[:, None] - s[y == k]) / kde.bandwidth) ** 2).sum(1)
            for k in (0, 1)]
    again = smooth_roc(y, s, method="density", density_controls=dens[0], density_cases=dens[1])
    np.testing.assert_allclose(again.specificities, kde.specificities, atol=1e-12)
    assert math.isnan(again.bandwidth)
    wider = smooth_roc(y, s, method="density", adjust=2.0)
    assert wider.bandwidth == pytest.approx(2 * kde.bandwidth, rel=1e-15)
    assert smooth_roc(y, s, method="density", bw=0.05).bandwidth == 0.05
    # a density object with .y, as R's density() returns
    obj = smooth_roc(y, s, method="density", n=10,
                     density=lambda x, g: type("D", (), {"y": _unif(x, g)})())
    assert obj.auc == smooth_roc(y, s, method="density", n=10, density=_unif).auc


# ------------------------------------------------ roc_power, method="bootstrap"

@pytest.mark.parametrize("fpr_range", [None, (0, 0.1)])
def test_bootstrap_variances(asah, fpr_range):
    y, c = asah
    kw = dict(metric="roc_auc" if fpr_range is None else "partial_auc", fpr_range=fpr_range,
              n_resamples=300, stratified=True, random_state=3)
    boot = fastauc.bootstrap_test(y, c["ndka"], c["wfns"], **kw)
    C = np.cov(boot.replicates, rowvar=False, ddof=1) * 41
    res = roc_power(y, c["ndka"], c["wfns"], method="bootstrap", n_resamples=300,
                    random_state=3, fpr_range=fpr_range)
    assert res.method == "bootstrap" and (res.n_cases, res.n_controls) == (41, 72)
    assert res.va == pytest.approx(C[0, 0] + C[1, 1] - 2 * C[0, 1], rel=1e-12)
    assert res.v0 == pytest.approx(2 * C[0, 0] - 2 * C[0, 1], rel=1e-12)
    assert (res.auc, res.auc2) == (boot.estimate_a, boot.estimate_b)
    if fpr_range is not None:  # the same partial areas as method="obuchowski"
        ob = roc_power(y, c["ndka"], c["wfns"], method="obuchowski", fpr_range=fpr_range)
        assert (res.auc, res.auc2) == pytest.approx((ob.auc, ob.auc2), rel=1e-12)
    # the bootstrap's variances estimate DeLong's
    if fpr_range is None:
        de = roc_power(y, c["ndka"], c["wfns"])
        assert res.va == pytest.approx(de.va, rel=0.35)
    # unpaired: the two samples' variances, no covariance
    un = roc_power(y, c["ndka"], c["wfns"], y_true2=y, method="bootstrap", n_resamples=300,
                   random_state=3, fpr_range=fpr_range)
    Cu = np.cov(fastauc.bootstrap_test(y, c["ndka"], c["wfns"], y_true_b=y, **kw).replicates,
                rowvar=False, ddof=1) * 41
    assert un.v0 == pytest.approx(2 * Cu[0, 0], rel=1e-12)
    assert un.va == pytest.approx(Cu[0, 0] + Cu[1, 1], rel=1e-12)
    one = roc_power(y, c["s100b"], method="bootstrap", n_resamples=300, random_state=3)
    reps = fastauc.bootstrap_ci(y, c["s100b"], n_resamples=300, stratified=True,
                                random_state=3).replicates
    assert one.va == pytest.approx(np.var(reps, ddof=1) * 41, rel=1e-12)
