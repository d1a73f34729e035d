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
import inspect

from .. import _config
from .arrays import GPU_EXTRA, cuda_device, library, to_host

__all__ = ["dispatch", "engine_for"]


def _gpu_state():
    """``(simulated, error)``: whether numba-cuda simulates, and why the device
    path cannot run here (None when it can)."""
    try:
        from .._kernels_cuda import cuda, simulated
    except ImportError as exc:
        return False, f"numba-cuda is not installed ({exc}); {GPU_EXTRA}"
    if simulated():
        return True, None
    if not cuda.is_available():
        return False, ("numba-cuda finds no usable CUDA GPU here (numba.cuda.is_available() is "
                       "False); set device='cpu', or NUMBA_ENABLE_CUDASIM=1 to simulate")
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

        @functools.wraps(func)
        def routed(*args, **kwargs):
            device = _config._settings()["device"]
            on_gpu = [a for a in (*args, *kwargs.values()) if cuda_device(a) is not None]
            if device == "cpu" or (device == "auto" and not any(
                    cuda_device(args[i] if i < len(args) else kwargs.get(n)) is not None
                    for i, n in where)):
                if on_gpu:  # the CPU kernels read host copies
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
        return routed

    return decorate
