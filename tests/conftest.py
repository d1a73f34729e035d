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


@pytest.fixture(scope="module", params=["radix", "numpy"])
def each_sort_path(request):
    """Run a module's tests once per sort path (``fastauc._sort``): both are
    exact and give the same runs, so every reference comparison must hold on
    both, whichever one this host's calibration picks."""
    old = os.environ.get("FASTAUC_SORT")
    os.environ["FASTAUC_SORT"] = request.param
    yield request.param
    if old is None:
        del os.environ["FASTAUC_SORT"]
    else:
        os.environ["FASTAUC_SORT"] = old
