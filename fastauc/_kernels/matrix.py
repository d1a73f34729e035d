"""One pass over a multiclass score matrix: its columns and its checks."""

from __future__ import annotations

import numpy as np

from .._jit import jit

EXP_MASK = np.uint64(0x7FF0000000000000)


@jit
def columns_and_checks(S, out):
    """Copy the (n, k) matrix ``S`` into ``out`` (k, n), column by column, in
    one pass over its rows; return ``(n_bad, rows_sum_to_one)``: the number
    of NaN/inf values, and whether every row sums to one as
    ``np.allclose(1, S.sum(axis=1))`` says (``|1 - s| <= 1e-8 + 1e-5 |s|``)."""
    n, k = S.shape
    n_bad = 0
    ok = True
    for i in range(n):
        total = 0.0
        for j in range(k):
            x = S[i, j]
            out[j, i] = x
            total += x
        if not np.isfinite(total):
            for j in range(k):
                if not np.isfinite(S[i, j]):
                    n_bad += 1
        ok = ok and abs(1.0 - total) <= 1e-8 + 1e-5 * abs(total)
    return n_bad, ok
