"""The one place a call picks its engine: the CPU kernels or the device path.

Public functions carry ``@dispatch("y_score", ...)``, naming the arguments
that hold scores.  Per call it reads the thread's ``device`` setting
(``fastauc.config_context``) and where the scores live:

- ``"auto"`` (default): the device path when a score array is a CUDA array,
  else the CPU kernels;
- ``"cpu"``: the CPU kernels;
- ``"cuda"``: the device path, host arrays copied to the GPU first (under
  numba-cuda's simulator they stay numpy and every kernel runs simulated).

Labels and weights follow the scores, and so do results (scikit-learn's
array-API rule): whichever engine computed them, array results come back in
the library and on the device of the (first) scores, torch tensors for a
CPU tensor as for a CUDA one (``_containers.in_scores_library``); scalars are
Python floats.  The CPU kernels get host copies of any CUDA array; a
function without a device implementation (``_device.metrics.DEVICE``) does
the same on the device path, and its docstring says so.  Nothing heavier
than numpy is imported until a call takes the device path.
"""

from __future__ import annotations

import functools
import importlib.util
import inspect
import os

from .. import _config
from .._containers import in_scores_library
from .arrays import GPU_EXTRA, cuda_device, library, to_host

__all__ = ["dispatch", "engine_for"]


def _driver_gpus():
    """``(count, why)``: the CUDA GPUs the NVIDIA driver itself sees, asked
    through ``ctypes`` (``cuInit``, ``cuDeviceGetCount`` of libcuda: nothing
    to install), and why there are none (None when there are some)."""
    import ctypes
    import sys

    names = ("nvcuda.dll",) if sys.platform == "win32" else ("libcuda.so.1", "libcuda.so")
    for lib_name in names:
        try:
            driver = ctypes.CDLL(lib_name)
            break
        except OSError:
            continue
    else:
        return 0, f"NVIDIA driver: {names[0]} not found"
    code = driver.cuInit(0)
    if code == 0:
        count = ctypes.c_int(0)
        code = driver.cuDeviceGetCount(ctypes.byref(count))
        if code == 0:
            return count.value, None if count.value else "NVIDIA driver: no device"
    if code == 100:  # CUDA_ERROR_NO_DEVICE
        return 0, "NVIDIA driver: no device"
    return 0, f"NVIDIA driver: error {code} (a CUresult)"


def _no_gpu(*checked):
    """The message of a machine where no CUDA GPU was found: that first,
    then what was checked, then what to do here, then how a machine with a
    GPU installs for it."""
    return (f"no CUDA GPU found (checked: {'; '.join(checked)}). Here, compute on the "
            "CPU: device='auto' (the default) or 'cpu'; NUMBA_ENABLE_CUDASIM=1 simulates "
            f"the device path. On a machine with an NVIDIA GPU, {GPU_EXTRA}")


def _gpu_state():
    """``(simulated, error)``: whether numba-cuda's simulator is on
    (``NUMBA_ENABLE_CUDASIM=1``: the device path runs on host arrays), and
    why the device path cannot run here (None when it can).  Only CuPy is
    imported to find out (numba-cuda waits for the first kernel); without
    it, the driver is asked whether there is a GPU at all."""
    if os.environ.get("NUMBA_ENABLE_CUDASIM") == "1":
        if importlib.util.find_spec("numba_cuda") is None:
            return True, f"numba-cuda is not installed; {GPU_EXTRA}"
        return True, None
    try:
        import cupy
    except ImportError as exc:
        count, why = _driver_gpus()
        if count:
            return False, (f"the NVIDIA driver sees {count} CUDA GPU{'s' if count > 1 else ''}"
                           f", but CuPy is not installed ({exc}); {GPU_EXTRA}")
        numba_cuda = ("installed" if importlib.util.find_spec("numba_cuda") is not None
                      else "not installed")
        return False, _no_gpu(why, "CuPy: not installed", f"numba-cuda: {numba_cuda}")
    try:
        count = cupy.cuda.runtime.getDeviceCount()
    except Exception as exc:  # noqa: BLE001 - no driver, no device: CuPy's own errors
        return False, _no_gpu(f"CuPy: {type(exc).__name__}: {exc}")
    if count < 1:
        return False, _no_gpu("CuPy: no device")
    return False, None


def engine_for(arrays: dict):
    """The :class:`~.arrays.Engine` of a device call on ``arrays`` (name ->
    value; the first is the scores).  Two GPUs raise, naming both."""
    from .arrays import Engine

    simulated, error = _gpu_state()
    if error is not None:
        raise ValueError(f"device='cuda' cannot run: {error}")
    where = {name: cuda_device(a) for name, a in arrays.items()}
    ordinals = {d for d in where.values() if d is not None}
    if len(ordinals) > 1:
        desc = ", ".join(f"{name} on cuda:{d}" for name, d in where.items() if d is not None)
        raise ValueError(f"Input arrays are on different devices ({desc}); move them to one "
                         "device first")
    first = next(iter(arrays.values()))
    # results stay on the device only for scores there: host scores (numpy, a
    # CPU tensor under device='cuda') get host arrays, which the dispatcher
    # puts in their library
    lib = library(first) if where[next(iter(arrays))] is not None else "numpy"
    return Engine(simulated, lib, next(iter(ordinals), None))


# what each public function does with CUDA arrays, for its docstring (a
# function missing here copies them to the host: ``HOST_NOTE``)
DEVICE_NOTES = {
    "roc_auc_score": "binary (with ``sample_weight`` and ``max_fpr``), multiclass "
                     "``ovr``/``ovo`` and multilabel targets compute there; "
                     "``average='samples'`` on host copies",
    "roc_curve": "computes there",
    "precision_recall_curve": "computes there",
    "det_curve": "computes there",
    "average_precision_score": "binary, multiclass and multilabel targets compute there; "
                               "``average='samples'`` on host copies",
    "log_loss": "binary, multiclass and multilabel targets compute there",
    "roc_auc_ci": "DeLong's interval of binary labels computes there; ``method='bootstrap'`` "
                  "as :func:`bootstrap_ci`; ``cluster`` and multiclass scores on host copies",
    "delong_covariance": "computes there (an array of score columns; a mapping or a list of "
                         "columns on host copies)",
    "delong_test": "the paired test of binary labels computes there; unpaired, clustered, "
                   "with a ``margin`` or multiclass on host copies",
    "mann_whitney_u": "computes there",
    "bootstrap_ci": "every binary metric and interval computes there (the Poisson scheme "
                    "draws the CPU path's replicates; the multinomial one its own, "
                    "reproducible); multiclass scores on host copies",
    "bootstrap_test": "every binary metric and interval computes there (the Poisson scheme "
                      "draws the CPU path's replicates; the multinomial one its own, "
                      "reproducible); multiclass scores on host copies",
    "pairwise_loss": "every loss computes there, with ``groups`` too",
    "coords": "the sort and the distinct scores' tallies compute there; the curve's "
              "coordinates are read from them on the host",
    "reliability_curve": "the sort and the table of distinct probabilities compute there; "
                         "the PAV fit or the bins on the host",
    "brier_decomposition": "the sort and the table of distinct probabilities compute there; "
                           "the PAV fit on the host",
    "calibration_error": "the sort and the table of distinct probabilities compute there; "
                         "the bins on the host",
    "pairwise_loss_gradient": "every loss computes there, with ``groups`` too",
}
HOST_NOTE = "CUDA arrays are copied to the host and it computes on the CPU"


def _with_device_note(doc, name):
    """``doc`` with a paragraph after its summary saying what happens to CUDA
    arrays (PyTorch, CuPy, JAX): see docs/guide/gpu.md."""
    if not doc or "\n\n" not in doc:
        return doc
    summary, rest = doc.split("\n\n", 1)
    note = DEVICE_NOTES.get(name, HOST_NOTE)
    words = (f"On the GPU (CUDA arrays of PyTorch, CuPy or JAX, or "
             f"``fastauc.config_context(device='cuda')``): {note}. Returned arrays are in "
             "the scores' library and on their device, wherever it computed (a torch "
             "tensor in, CPU or CUDA, gives tensors out). See docs/guide/gpu.md.")
    lines, line = [], "   "
    for word in words.split():
        if len(line) + 1 + len(word) > 88:
            lines.append(line)
            line = "   "
        line += " " + word
    lines.append(line)
    return summary + "\n\n" + "\n".join(lines) + "\n\n" + rest


def _positions(func, names):
    params = list(inspect.signature(func).parameters)
    return [(params.index(n), n) for n in names]


def dispatch(*score_names):
    """Decorator: route a public function by where its scores are (see the
    module's docstring).  ``score_names`` are the score arguments."""

    def decorate(func):
        where = _positions(func, score_names)
        signature = inspect.signature(func)
        name = func.__name__
        score_positions = {i for i, _ in where}
        first_position, first_name = where[0]  # results go to these scores' library

        @functools.wraps(func)
        def routed(*args, **kwargs):  # one frame: warnings' stacklevels count on it
            device = _config._settings()["device"]
            home = args[first_position] if first_position < len(args) else \
                kwargs.get(first_name)
            # each argument looked at once: which are CUDA arrays, and is a score one
            gpu_args = [i for i, a in enumerate(args) if cuda_device(a) is not None]
            gpu_kwargs = [k for k, a in kwargs.items() if cuda_device(a) is not None]
            scores_on_gpu = any(i in score_positions for i in gpu_args) or \
                any(k in score_names for k in gpu_kwargs)
            if device == "cpu" or (device == "auto" and not scores_on_gpu):
                if gpu_args or gpu_kwargs:  # the CPU kernels read host copies
                    args = tuple(to_host(a) for a in args)
                    kwargs = {k: to_host(a) for k, a in kwargs.items()}
                return in_scores_library(func(*args, **kwargs), home)
            from .metrics import DEVICE
            from .arrays import HOST

            bound = signature.bind(*args, **kwargs)
            bound.apply_defaults()
            scores = {n: bound.arguments[n] for _, n in where}
            impl = DEVICE.get(name)
            if impl is not None:
                others = {k: a for k, a in bound.arguments.items()
                          if k not in scores and cuda_device(a) is not None}
                engine = engine_for({**scores, **others})
                with engine.on_device():
                    result = impl(engine, **bound.arguments)
                if result is not HOST:
                    return in_scores_library(result, home)
            # no device implementation, or a case it leaves to the CPU path:
            # host copies, numpy results put back in the scores' library (and
            # the public functions it calls stay on the CPU too)
            with _config.config_context(device="cpu"):
                return in_scores_library(
                    func(*(to_host(a) for a in bound.args),
                         **{k: to_host(a) for k, a in bound.kwargs.items()}), home)

        routed.__wrapped__ = func
        routed.score_arguments = score_names  # what the dispatcher reads (tests list them)
        routed.__doc__ = _with_device_note(func.__doc__, name)
        return routed

    return decorate
