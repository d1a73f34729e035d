"""Optional extras: without the package an extra installs, the error names
the extra, with the install line the docs use (``pip install "fastauc[x]"``:
double quotes work in Windows' cmd too)."""

import importlib
import sys

import pytest

import fastauc

SKLEARN_HINT = 'pip install "fastauc[sklearn]"'


def _fresh_import_error(monkeypatch, module):
    """The ImportError of importing ``module`` anew (its cached copy is put
    back after the test)."""
    monkeypatch.delitem(sys.modules, module, raising=False)
    with pytest.raises(ImportError) as info:
        importlib.import_module(module)
    return info.value


@pytest.mark.parametrize("blocked", ["sklearn", "scipy"])
def test_linear_classifier_names_the_sklearn_extra(block_import, monkeypatch, blocked):
    pytest.importorskip("sklearn")
    block_import(blocked)
    err = _fresh_import_error(monkeypatch, "fastauc.linear_model")
    assert str(err) == ("fastauc.AUCLinearClassifier needs scikit-learn and scipy: "
                        + SKLEARN_HINT)
    assert isinstance(err.__cause__, ImportError)  # chained from the original
    assert str(err.__cause__) == f"no {blocked}"


def test_linear_classifier_from_the_package_names_the_extra(block_import, monkeypatch):
    """``fastauc.AUCLinearClassifier`` (imported on first use) raises the same."""
    pytest.importorskip("sklearn")
    monkeypatch.delitem(sys.modules, "fastauc.linear_model", raising=False)
    block_import("sklearn")
    with pytest.raises(ImportError, match=r'needs scikit-learn and scipy: pip install '
                                          r'"fastauc\[sklearn\]"'):
        fastauc.AUCLinearClassifier  # noqa: B018 - the lazy import is the test


def test_sklearn_module_names_the_sklearn_extra(block_import, monkeypatch):
    pytest.importorskip("sklearn")
    block_import("sklearn")
    err = _fresh_import_error(monkeypatch, "fastauc.sklearn")
    assert str(err) == "fastauc.sklearn needs scikit-learn: " + SKLEARN_HINT
    assert isinstance(err.__cause__, ImportError)
    assert str(err.__cause__) == "no sklearn"


def test_plots_name_the_plot_extra_in_double_quotes(block_import):
    from fastauc._plotting import _pyplot

    block_import("matplotlib")
    with pytest.raises(ImportError) as info:
        _pyplot()
    assert str(info.value) == 'plotting needs matplotlib: pip install "fastauc[plot]"'


@pytest.mark.parametrize("module, loader, blocked, message", [
    ("fastauc.dask.ranges", "load_dask", "dask",
     'fastauc.dask needs dask: pip install "fastauc[dask]"'),
    ("fastauc.spark.ranges", "load_spark", "pyspark",
     'fastauc.spark needs pyspark and pyarrow: pip install "fastauc[spark]"'),
], ids=["dask", "spark"])
def test_engines_name_their_extra_in_double_quotes(block_import, module, loader, blocked,
                                                    message):
    ranges = pytest.importorskip(module)
    block_import(blocked)
    with pytest.raises(ImportError) as info:
        getattr(ranges, loader)()
    assert str(info.value) == message


# ------------------------------------------------------------------ device='cuda' without a GPU

GPU_HINT = 'pip install "fastauc[gpu]" (CUDA 13) or "fastauc[gpu-cu12]" (CUDA 12)'


def _cuda_call_error(monkeypatch):
    """The ValueError of a device='cuda' call with numba-cuda's simulator off
    (the suite turns it on, tests/conftest.py): raised before any kernel."""
    monkeypatch.setenv("NUMBA_ENABLE_CUDASIM", "0")
    with pytest.raises(ValueError) as info:
        with fastauc.config_context(device="cuda"):
            fastauc.roc_auc_score([0, 1, 1], [0.1, 0.4, 0.3])
    return str(info.value)


@pytest.mark.parametrize("driver", [
    (0, "NVIDIA driver: libcuda.so.1 not found"),
    (0, "NVIDIA driver: no device"),
    (0, "NVIDIA driver: error 999 (a CUresult)"),
], ids=["no-driver", "no-device", "driver-error"])
def test_cuda_without_a_gpu_says_so_first(block_import, monkeypatch, driver):
    """No CuPy and no GPU: the message says no GPU was found, what was
    checked, what to do here, and only then how a GPU machine installs."""
    from fastauc import _device

    monkeypatch.setattr(_device, "_driver_gpus", lambda: driver)
    block_import("cupy")
    message = _cuda_call_error(monkeypatch)
    assert message.startswith("device='cuda' cannot run: no CUDA GPU found (checked: "
                              f"{driver[1]}; CuPy: not installed; numba-cuda: ")
    assert "device='auto' (the default) or 'cpu'" in message
    assert message.index("no CUDA GPU found") < message.index(GPU_HINT)
    assert message.endswith("On a machine with an NVIDIA GPU, install the GPU extra: "
                            f"{GPU_HINT}; docs/guide/gpu.md")


def test_cuda_with_a_gpu_but_no_cupy_names_the_extra(block_import, monkeypatch):
    from fastauc import _device

    monkeypatch.setattr(_device, "_driver_gpus", lambda: (2, None))
    block_import("cupy")
    message = _cuda_call_error(monkeypatch)
    assert "no CUDA GPU found" not in message
    assert message.startswith("device='cuda' cannot run: the NVIDIA driver sees 2 CUDA GPUs, "
                              "but CuPy is not installed (no cupy); install the GPU extra: "
                              + GPU_HINT)


class _CupyWithoutGpu:
    """A stand-in for CuPy on a machine without a GPU: its runtime raises, or
    counts no device."""

    def __init__(self, count):
        def get_device_count():
            if isinstance(count, Exception):
                raise count
            return count

        runtime = type("runtime", (), {"getDeviceCount": staticmethod(get_device_count)})
        self.cuda = type("cuda", (), {"runtime": runtime})


@pytest.mark.parametrize("count, checked", [
    (RuntimeError("cudaErrorInsufficientDriver: CUDA driver version is insufficient"),
     "CuPy: RuntimeError: cudaErrorInsufficientDriver: CUDA driver version is insufficient"),
    (0, "CuPy: no device"),
], ids=["runtime-error", "no-device"])
def test_cuda_with_cupy_but_no_gpu_says_so_first(monkeypatch, count, checked):
    monkeypatch.setitem(sys.modules, "cupy", _CupyWithoutGpu(count))
    message = _cuda_call_error(monkeypatch)
    assert message.startswith(f"device='cuda' cannot run: no CUDA GPU found (checked: {checked})"
                              ". Here, compute on the CPU")
    assert message.index("no CUDA GPU found") < message.index(GPU_HINT)


def test_cuda_on_this_machine_without_a_gpu(monkeypatch):
    """The real checks (the driver through ctypes, CuPy's import), where this
    machine has no GPU: the message starts with that."""
    from fastauc._device import _driver_gpus

    count, why = _driver_gpus()
    if count:
        pytest.skip(f"this machine has {count} CUDA GPU(s)")
    assert why.startswith("NVIDIA driver: ")
    message = _cuda_call_error(monkeypatch)
    assert message.startswith("device='cuda' cannot run: no CUDA GPU found (checked: ")
    assert GPU_HINT in message
