import os
import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci", max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


def sklearn_call(fn, *args, **kwargs):
    """Call a scikit-learn reference with its warnings silenced."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return fn(*args, **kwargs)


@pytest.fixture
def rng():
    return np.random.default_rng(12345)


@pytest.fixture
def block_import(monkeypatch):
    """``block_import("matplotlib")``: importing that package (and below) fails."""
    import builtins

    real_import = builtins.__import__

    def block(prefix):
        def fake_import(name, *args, **kwargs):
            if name.startswith(prefix):
                raise ImportError(f"no {prefix}")
            return real_import(name, *args, **kwargs)

        monkeypatch.setattr(builtins, "__import__", fake_import)

    return block
