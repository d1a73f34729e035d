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

import numba

__all__ = ["jit"]


def jit(func=None, **options):
    """``numba.njit`` with the project's options (cache, nogil, no fastmath)."""
    opts = {"cache": True, "nogil": True, "fastmath": False, "error_model": "numpy"}
    opts.update(options)
    if func is None:
        return lambda f: numba.njit(**opts)(f)
    return numba.njit(**opts)(func)
