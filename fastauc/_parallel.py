"""Run nogil kernels on a few Python threads.

Numba's own threading layers are not used (see ``_jit``); instead the large
calls cut their rows into a *fixed* number of chunks that depends only on the
input size, and run the chunks on a small thread pool.  Because the chunking
never depends on the number of threads, results are bit-for-bit identical
whatever the machine; ``FASTAUC_NUM_THREADS=1`` runs every chunk in the
calling thread.  The pool is recreated after ``fork`` (a child process does
not inherit the parent's worker threads).
"""

from __future__ import annotations

import itertools
import os
import threading
from concurrent.futures import ThreadPoolExecutor

__all__ = ["map_chunks", "map_halves", "map_shared", "num_threads"]

_lock = threading.Lock()
_pool: ThreadPoolExecutor | None = None
_pool_pid = -1
_local = threading.local()


def _in_pool(fn, args):
    _local.in_pool = True
    return fn(*args)


def num_threads() -> int:
    env = os.environ.get("FASTAUC_NUM_THREADS")
    if env:
        return max(1, int(env))
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


def _get_pool(workers: int) -> ThreadPoolExecutor:
    global _pool, _pool_pid
    with _lock:
        if _pool is None or _pool_pid != os.getpid() or _pool._max_workers < workers:
            _pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="fastauc")
            _pool_pid = os.getpid()
        return _pool


def map_chunks(fn, arg_tuples):
    """``[fn(*args) for args in arg_tuples]``, the chunks spread over threads.

    A call from inside a chunk (one that itself maps chunks, in the pool or
    in the calling thread) runs its chunks in that thread: waiting on the
    pool from inside it could wait forever, and the threads are busy anyway.
    """
    if len(arg_tuples) == 1:
        return [fn(*arg_tuples[0])]
    threads = min(num_threads(), len(arg_tuples))
    if threads <= 1 or getattr(_local, "in_pool", False):
        return [fn(*args) for args in arg_tuples]
    pool = _get_pool(threads - 1)
    futures = [pool.submit(_in_pool, fn, args) for args in arg_tuples[1:]]
    _local.in_pool = True  # chunks that map chunks run them here, as the pool's do
    try:
        first = fn(*arg_tuples[0])
    finally:
        _local.in_pool = False
    return [first] + [f.result() for f in futures]


def map_shared(fn, arg_tuples):
    """``[fn(*args) for args in arg_tuples]``, the calls taken in turn by the
    calling thread and the pool's, each taking the next one as it finishes:
    a thread held up (say, by another library's thread spinning on its core)
    takes fewer.  Only for calls whose results do not depend on which thread
    runs them, or in what order (independent sorts of disjoint segments).
    Nested calls run their calls in their thread, as for :func:`map_chunks`.
    An error stops the taking, and is raised once no call is running (the
    calls may share the caller's scratch buffers)."""
    n = len(arg_tuples)
    threads = min(num_threads(), n)
    if threads <= 1 or getattr(_local, "in_pool", False):
        return [fn(*args) for args in arg_tuples]
    results = [None] * n
    taken = itertools.count()  # next() on it is atomic under the GIL
    failed = []

    def take():
        for k in iter(taken.__next__, None):
            if k >= n or failed:
                return
            try:
                results[k] = fn(*arg_tuples[k])
            except BaseException:
                failed.append(k)
                raise

    pool = _get_pool(threads - 1)
    futures = [pool.submit(_in_pool, take, ()) for _ in range(threads - 1)]
    _local.in_pool = True
    try:
        take()
    finally:
        _local.in_pool = False
        errors = [f.exception() for f in futures]  # waits for every thread
    for error in errors:
        if error is not None:
            raise error
    return results


def map_halves(fn, items, *args, split=True):
    """``fn(part, *args)`` (a list per part) on two fixed halves of ``items``,
    one per thread, the lists joined in order: ``fn(items, *args)`` split by
    position, never by the thread count.  One part when ``split`` is False or
    there are fewer than two items."""
    items = list(items)
    half = (len(items) + 1) // 2
    parts = [items[:half], items[half:]] if split and len(items) > 1 else [items]
    return [x for out in map_chunks(fn, [(p, *args) for p in parts]) for x in out]
