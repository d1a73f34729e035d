"""Comparing nested results (JSON-like dicts and lists of floats) to a tolerance."""

import numpy as np
import pytest


def assert_close(a, b, path="result", rel=1e-9, abs=1e-12):
    """``a`` and ``b`` equal, floats to ``rel``/``abs`` (NaN equal to NaN)."""
    if isinstance(a, dict):
        assert a.keys() == b.keys(), path
        for k in a:
            assert_close(a[k], b[k], f"{path}.{k}", rel, abs)
    elif isinstance(a, list):
        assert len(a) == len(b), path
        for i, (x, z) in enumerate(zip(a, b)):
            assert_close(x, z, f"{path}[{i}]", rel, abs)
    elif isinstance(a, float) and b is not None:
        if np.isnan(a):
            assert np.isnan(b), path
        else:
            assert b == pytest.approx(a, rel=rel, abs=abs), path
    else:
        assert a == b, path
