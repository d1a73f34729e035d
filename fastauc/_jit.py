"""The one place where Numba options are set.

Every kernel is compiled with ``cache=True`` (a second process loads machine
code from ``__pycache__`` instead of compiling) and ``nogil=True`` (several
Python threads can run kernels at once).  No kernel uses ``parallel=True``:
Numba's threading layers either abort on concurrent launches from several
Python threads (``workqueue``) or kill forked children (GNU OpenMP), and the
only safe one (``tbb``) is an extra dependency.  Kernels are single-threaded,
so results never depend on the number of threads.  ``fastmath`` stays off:
ties, signed zeros and infinities must behave as IEEE 754 says.
"""

from __future__ import annotations

import os

import numba
from numba.core import event
from numba.core.compiler_lock import global_compiler_lock as compiler_lock

__all__ = ["cached", "compiler_lock", "jit", "on_compile"]


def jit(func=None, **options):
    """``numba.njit`` with the project's options (cache, nogil, no fastmath)."""
    opts = {"cache": True, "nogil": True, "fastmath": False, "error_model": "numpy"}
    opts.update(options)
    if func is None:
        return lambda f: numba.njit(**opts)(f)
    return numba.njit(**opts)(func)


def on_compile(callback):
    """Call ``callback(module_name)`` as Numba starts compiling a function
    (not when it loads one from the cache), in the compiling thread, before
    the compilation; an exception it raises abandons that compilation."""

    class _Listener(event.Listener):
        def on_start(self, ev):
            dispatcher = ev.data.get("dispatcher") if isinstance(ev.data, dict) else None
            callback(getattr(getattr(dispatcher, "py_func", None), "__module__", "") or "")

        def on_end(self, ev):
            pass

    event.register("numba:compile", _Listener())


def cached(dispatcher) -> bool:
    """Whether Numba's cache holds a compilation of ``dispatcher`` (any
    signature): its index file exists."""
    try:
        return os.path.exists(dispatcher._cache._cache_file._index_path)
    except AttributeError:  # another Numba's layout: say no
        return False
