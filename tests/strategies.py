"""Hypothesis strategies: small binary problems with many ties."""

import numpy as np
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

# few distinct values -> many ties; both zeros, negatives, large magnitudes
SCORE_VALUES = [-1e300, -2.5, -1.0, -0.0, 0.0, 0.1, 0.25, 0.5, 0.75, 1.0, 3.0, 1e300]
# dyadic weights keep every tally exact, so curve points match bit for bit
WEIGHT_VALUES = [0.0, 0.5, 1.0, 2.0, 3.25, 7.0]


@st.composite
def binary_problems(draw, min_size=2, max_size=60, weights=None, both_classes=True):
    n = draw(st.integers(min_size, max_size))
    y = draw(hnp.arrays(np.int64, n, elements=st.integers(0, 1)))
    if both_classes and (y.min() == y.max()):
        y[0] = 1 - y[0]
    if draw(st.booleans()):
        s = draw(hnp.arrays(np.float64, n, elements=st.sampled_from(SCORE_VALUES)))
    else:
        s = draw(hnp.arrays(np.float64, n, elements=st.floats(-1e6, 1e6, width=32)))
    use_w = draw(st.booleans()) if weights is None else weights
    w = None
    if use_w:
        w = draw(hnp.arrays(np.float64, n, elements=st.sampled_from(WEIGHT_VALUES)))
        if w.max() == 0:
            w[0] = 1.0
    return y, s, w
