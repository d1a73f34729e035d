"""The vectorisable logarithm of ``_kernels.losses`` (log loss per group)."""

import math
from decimal import Decimal, getcontext

import numpy as np
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from fastauc._kernels.losses import EPS, LN2_HI, LN2_LO, log_into


def _log(x):
    x = np.ascontiguousarray(x, dtype=np.float64)
    out = np.empty_like(x)
    log_into(x, out, np.empty_like(x))
    return out


def _ulps_from_exact(x, got):
    getcontext().prec = 50
    exact = Decimal(float(x)).ln()
    return float(abs(Decimal(float(got)) - exact) / Decimal(float(np.spacing(abs(got)))))


def test_ln2_split():
    getcontext().prec = 60
    ln2 = Decimal(2).ln()
    assert abs(Decimal(LN2_HI) + Decimal(LN2_LO) - ln2) < Decimal(2) ** -100
    # 42 significant bits: k * LN2_HI is exact for every float64 exponent
    assert math.frexp(LN2_HI)[0] * 2**42 == int(math.frexp(LN2_HI)[0] * 2**42)


def test_within_one_ulp_of_the_exact_log_at_the_edges_and_at_random():
    rng = np.random.default_rng(0)
    edges = [EPS, 1 - EPS, 0.5, 1.0, 2.0, math.sqrt(2), math.sqrt(2) / 2,
             np.nextafter(math.sqrt(2), 0), np.nextafter(math.sqrt(2) / 2, 1), 1e-300,
             2.2250738585072014e-308, 1e300, 1 + EPS, 1 - EPS / 2]
    x = np.concatenate((edges, rng.random(3000), 10.0 ** rng.uniform(-300, 300, 1000)))
    got = _log(x)
    worst = max(_ulps_from_exact(a, b) for a, b in zip(x, got))
    assert worst <= 1.0
    assert got[3] == 0.0


@given(hnp.arrays(np.float64, st.integers(1, 50),
                  elements=st.floats(2.2250738585072014e-308, 1e308)))
def test_agrees_with_libm_to_one_ulp(x):
    got = _log(x)
    ref = np.array([math.log(v) for v in x])
    np.testing.assert_array_less(np.abs(got - ref), np.spacing(np.abs(ref)) * 1.0001 + 1e-300)
