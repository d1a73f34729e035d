import os
import warnings

# The device path runs under numba-cuda's simulator here (no GPU in CI): set
# before Numba is imported.  NUMBA_ENABLE_CUDASIM=0 runs it on a real GPU.
os.environ.setdefault("NUMBA_ENABLE_CUDASIM", "1")

import numpy as np
import pytest
from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci", max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))

# The first calls of a process answer from numpy while a background thread
# compiles the kernels (``fastauc._warm``), the same numbers either way.  Here
# every call takes the kernels, so that no background thread runs beside a
# test that counts sorts or patches the sort's settings; tests/test_warm.py
# runs both paths, and fresh processes, explicitly.
from fastauc import _warm  # noqa: E402

_warm.MODE = "kernels"


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


@pytest.fixture(scope="module", params=["radix", "numpy", "radix, tiny buckets"])
def each_sort_path(request):
    """Run a module's tests once per sort path (``fastauc._sort``): both are
    exact and give the same runs, so every reference comparison must hold on
    both, whichever one this host's calibration picks.  The third run cuts
    the rows into buckets of 7, so that small inputs also go through the
    bins, the scatter and the segment sorts that large ones take."""
    from fastauc import _sort

    old = os.environ.get("FASTAUC_SORT"), _sort.BUCKET_ROWS
    os.environ["FASTAUC_SORT"] = request.param.split(",")[0]
    if "tiny" in request.param:
        _sort.BUCKET_ROWS = 7
    yield request.param
    if old[0] is None:
        del os.environ["FASTAUC_SORT"]
    else:
        os.environ["FASTAUC_SORT"] = old[0]
    _sort.BUCKET_ROWS = old[1]
