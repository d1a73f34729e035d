"""First calls answer at once: kernels compile in a background thread.

A fresh environment (a new virtualenv, notebook runtime, CI container or
cluster executor) has no Numba cache, and compiling the sort and sweep
behind ``roc_auc_score`` takes seconds; with a warm cache, loading them still
costs a few hundred milliseconds on the first call.  So the commonest first
calls (unweighted binary AUC and average precision: ``_table.sorted_tallies``
without curves or moments) are answered from numpy's own sort and
searchsorted (``_table.numpy_tallies``: the same floats, bit for bit, as the
kernels') while one background thread compiles, or loads, the kernels that
stand behind them; later calls take the kernels.  Every other call compiles
in the calling thread as before.  Whichever path answers, the numbers are the
same: tests run both (``MODE``).

A *family* names what one warm-up makes ready: ``("tallies", dtype)`` the
sort and sweep of unweighted scores of that dtype (float64 or float32).
:func:`numpy_path` asks for a family's warm-up and tells the caller whether
to answer from numpy meanwhile.

The first compilation of a fastauc kernel in a process says so once, on the
``fastauc`` logger (printed to standard error when logging is not
configured): seconds of silence on a first run read as a hang.

The thread stops between two compilations when the interpreter exits (it is
joined, so that no compilation is cut off half-way), and a ``fork`` waits for
the compilation in progress, so a child never inherits Numba's compiler lock
held by a thread it does not have; the child starts its own warm-up when it
needs one.
"""

from __future__ import annotations

import atexit
import logging
import os
import threading

from ._jit import cached, compiler_lock, on_compile  # noqa: F401 (cached: re-exported)

__all__ = ["MODE", "COMPILING", "cached", "compiled", "deferred", "kernels_only", "numpy_path",
           "ready", "wait", "warm"]

log = logging.getLogger("fastauc")

COMPILING = ("fastauc: compiling its kernels for this machine, first run only (they are "
             "cached for later processes; `fastauc warmup` does it ahead of time) ...")

#: Tests: ``"numpy"`` answers from numpy wherever a numpy path exists,
#: ``"kernels"`` never does; None (the default) decides by readiness.
MODE: str | None = None

_lock = threading.Lock()
_ready: set = set()
_failed: set = set()
_pending: list = []
_thread: threading.Thread | None = None
_stopping = False
_local = threading.local()
_said = False


class _Stopped(Exception):
    """Raised in the warm-up thread at its next compilation once the
    interpreter exits."""


#: family kind -> function making it ready, registered by the module that
#: owns the calls (``_table`` registers "tallies": the sort and sweep of
#: unweighted scores of one dtype), so this module imports none of them
WARMUPS: dict = {}


def tallies_family(score) -> tuple:
    return ("tallies", score.dtype.str)


def compiled() -> bool:
    """Whether this process has compiled a fastauc kernel (not only loaded)."""
    return _said


def ready(family) -> bool:
    """Whether ``family``'s kernels are compiled or loaded in this process."""
    return family in _ready


def numpy_path(family) -> bool:
    """True when a call should answer from numpy: ``family``'s kernels are
    not ready in this process yet (their warm-up is then asked for, in the
    background).  False in the warm-up itself, once the family is ready, or
    when its warm-up failed (the call then compiles, and raises, itself)."""
    if MODE is not None:
        return MODE == "numpy"
    if family in _ready or getattr(_local, "warming", False):
        return False
    if getattr(_local, "deferred", False):
        return True
    global _thread
    with _lock:
        if family in _ready or family in _failed:
            return False
        if family not in _pending:
            _pending.append(family)
        if _thread is None:
            _thread = threading.Thread(target=_run, name="fastauc-warmup", daemon=True)
            _thread.start()
    return True


def warm(family) -> None:
    """Make ``family`` ready in this thread (compiling or loading its kernels)."""
    if family in _ready:
        return
    with kernels_only():
        WARMUPS[family[0]](*family[1:])
    with _lock:
        _ready.add(family)


def wait(timeout: float | None = None) -> bool:
    """Wait for the background warm-up to finish; True when none is running."""
    thread = _thread
    if thread is not None:
        thread.join(timeout)
        return not thread.is_alive()
    return True


class _ThreadFlag:
    """Context manager: a flag of this thread's set for its duration."""

    def __init__(self, name):
        self.name = name

    def __enter__(self):
        self._before = getattr(_local, self.name, False)
        setattr(_local, self.name, True)
        return self

    def __exit__(self, *exc):
        setattr(_local, self.name, self._before)
        return False


def kernels_only():
    """Context manager: calls in this thread take the kernels (compiling
    them if need be), never the numpy path; ``deploy.warmup`` uses it."""
    return _ThreadFlag("warming")


def deferred():
    """Context manager: calls in this thread answer from numpy where they
    can, and ask for no warm-up (``fastauc demo`` has other processes
    compile those kernels meanwhile)."""
    return _ThreadFlag("deferred")


def _run():
    global _thread
    _local.warming = True
    while True:
        with _lock:
            if not _pending or _stopping:
                _pending.clear()
                _thread = None
                return
            family = _pending[0]
        try:
            WARMUPS[family[0]](*family[1:])
        except _Stopped:
            continue  # the loop ends at the check above
        except BaseException:  # the calls that need it compile, and raise, themselves
            log.debug("fastauc: warm-up of %s failed", family, exc_info=True)
            with _lock:
                _failed.add(family)
        else:
            with _lock:
                _ready.add(family)
        finally:
            with _lock:
                if family in _pending:
                    _pending.remove(family)


def _compiling(module):
    """Say once that fastauc compiles; stop the warm-up thread at its next
    compilation once the interpreter exits."""
    global _said
    if not module.startswith("fastauc"):
        return
    if _stopping and getattr(_local, "warming", False) and \
            threading.current_thread().name == "fastauc-warmup":
        raise _Stopped()
    if not _said:
        _said = True
        log.warning(COMPILING)


on_compile(_compiling)


def _at_exit():
    global _stopping
    _stopping = True
    thread = _thread
    if thread is not None:
        thread.join(30.0)


atexit.register(_at_exit)


def _before_fork():
    if _thread is not None:
        compiler_lock.acquire()  # no compilation is half-way in the fork
        _local.holding = True


def _after_fork_parent():
    if getattr(_local, "holding", False):
        _local.holding = False
        compiler_lock.release()


def _after_fork_child():
    global _thread, _lock
    _lock = threading.Lock()
    _pending.clear()
    _thread = None
    _after_fork_parent()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(before=_before_fork, after_in_parent=_after_fork_parent,
                        after_in_child=_after_fork_child)
