"""The one place a call picks its engine: the CPU kernels or the device path.

Public functions carry ``@dispatch("y_score", ...)``, naming the arguments
that hold scores.  Per call it reads the thread's ``device`` setting
(``fastauc.config_context``) and where the scores live:

- ``"auto"`` (default): the device path when a score array is a CUDA array,
  else the CPU kernels;
- ``"cpu"``: the CPU kernels;
- ``"cuda"``: the device path, host arrays copied to the GPU first (under
  numba-cuda's simulator they stay numpy and every kernel runs simulated).

Labels and weights follow the scores (scikit-learn's array-API rule).  The
CPU kernels get host copies of any CUDA array; a function without a device
implementation (``_device.metrics.DEVICE``) does the same on the device path,
and its docstring says so.  Nothing heavier than numpy is imported until a
call takes the device path.
"""

from __future__ import annotations

import functools
import importlib.util
import inspect
import os

from .. import _config
from .arrays import GPU_EXTRA, cuda_device, library, to_host

__all__ = ["dispatch", "engine_for"]


def _gpu_state():
    """``(simulated, error)``: whether numba-cuda's simulator is on
    (``NUMBA_ENABLE_CUDASIM=1``: the device path runs on host arrays), and
    why the device path cannot run here (None when it can).  Only CuPy is
    imported to find out: numba-cuda waits for the first kernel."""
    if os.environ.get("NUMBA_ENABLE_CUDASIM") == "1":
        if importlib.util.find_spec("numba_cuda") is None:
            return True, f"numba-cuda is not installed; {GPU_EXTRA}"
        return True, None
    try:
        import cupy
    except ImportError as exc:
        return False, f"CuPy is not installed ({exc}); {GPU_EXTRA}"
    try:
        count = cupy.cuda.runtime.getDeviceCount()
    except Exception as exc:  # noqa: BLE001 - no driver, no device: CuPy's own errors
        return False, (f"CuPy finds no usable CUDA GPU here ({type(exc).__name__}: {exc}); "
                       "set device='cpu', or NUMBA_ENABLE_CUDASIM=1 to simulate")
    if count < 1:
        return False, "CuPy finds no CUDA GPU here; set device='cpu'"
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
    return Engine(simulated, library(first), next(iter(ordinals), None))


# what each public function does with CUDA arrays, for its docstring (a
# function missing here copies them to the host: ``HOST_NOTE``)
DEVICE_NOTES = {
    "roc_auc_score": "binary (with ``sample_weight`` and ``max_fpr``), multiclass "
                     "``ovr``/``ovo`` and multilabel targets compute there; "
                     "``average='samples'`` on host copies",
    "roc_curve": "computes there; the arrays come back in the scores' library",
    "precision_recall_curve": "computes there; the arrays come back in the scores' library",
    "det_curve": "computes there; the arrays come back in the scores' library",
    "average_precision_score": "binary, multiclass and multilabel targets compute there; "
                               "``average='samples'`` on host copies",
    "log_loss": "binary, multiclass and multilabel targets compute there",
    "roc_auc_ci": "DeLong's interval computes there; ``method='bootstrap'`` as "
                  ":func:`bootstrap_ci`",
    "delong_covariance": "computes there (an array of score columns; a mapping or a list of "
                         "columns on host copies)",
    "delong_test": "computes there",
    "mann_whitney_u": "computes there",
    "bootstrap_ci": "every metric and interval computes there (the Poisson scheme draws the "
                    "CPU path's replicates; the multinomial one its own, reproducible)",
    "bootstrap_test": "every metric and interval computes there (the Poisson scheme draws "
                      "the CPU path's replicates; the multinomial one its own, reproducible)",
    "pairwise_loss": "every loss computes there, with ``groups`` too",
    "pairwise_loss_gradient": "every loss computes there, with ``groups`` too (the gradient "
                              "and Hessian come back in the scores' library)",
}
HOST_NOTE = "CUDA arrays are copied to the host and the results are numpy"


def _with_device_note(doc, name):
    """``doc`` with a paragraph after its summary saying what happens to CUDA
    arrays (PyTorch, CuPy, JAX): see docs/gpu.md."""
    if not doc or "\n\n" not in doc:
        return doc
    summary, rest = doc.split("\n\n", 1)
    note = DEVICE_NOTES.get(name, HOST_NOTE)
    words = (f"On the GPU (CUDA arrays of PyTorch, CuPy or JAX, or "
             f"``fastauc.config_context(device='cuda')``): {note}. See docs/gpu.md.")
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

        @functools.wraps(func)
        def routed(*args, **kwargs):
            device = _config._settings()["device"]
            # each argument looked at once: which are CUDA arrays, and is a score one
            gpu_args = [i for i, a in enumerate(args) if cuda_device(a) is not None]
            gpu_kwargs = [k for k, a in kwargs.items() if cuda_device(a) is not None]
            scores_on_gpu = any(i in score_positions for i in gpu_args) or \
                any(k in score_names for k in gpu_kwargs)
            if device == "cpu" or (device == "auto" and not scores_on_gpu):
                if gpu_args or gpu_kwargs:  # the CPU kernels read host copies
                    args = tuple(to_host(a) for a in args)
                    kwargs = {k: to_host(a) for k, a in kwargs.items()}
                return func(*args, **kwargs)
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
                    return result
            # no device implementation, or a case it leaves to the CPU path:
            # host copies, numpy results (and the public functions it calls
            # stay on the CPU too)
            with _config.config_context(device="cpu"):
                return func(*(to_host(a) for a in bound.args),
                            **{k: to_host(a) for k, a in bound.kwargs.items()})

        routed.__wrapped__ = func
        routed.score_arguments = score_names  # what the dispatcher reads (tests list them)
        routed.__doc__ = _with_device_note(func.__doc__, name)
        return routed

    return decorate
