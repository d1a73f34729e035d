"""Comparing nested results (JSON-like dicts and lists of floats) to a tolerance."""

import dataclasses

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


def exact_bits(obj):
    """A structure equal to another one's exactly when every float is the
    same to the last bit (NaN included)."""
    if isinstance(obj, np.ndarray):
        return (obj.dtype.str, obj.shape, obj.tobytes())
    if isinstance(obj, (float, np.floating)):
        return float(obj).hex()
    if isinstance(obj, (list, tuple)):
        return [exact_bits(x) for x in obj]
    if isinstance(obj, dict):
        return {k: exact_bits(x) for k, x in obj.items()}
    if hasattr(obj, "to_dict"):
        return exact_bits(obj.to_dict())
    if dataclasses.is_dataclass(obj):
        return exact_bits(dataclasses.asdict(obj))
    if hasattr(obj, "__dict__"):
        return exact_bits(vars(obj))
    return obj
