"""Run nogil kernels on Python threads, in units cut by data size.

Numba's own threading layers are not used (see ``_jit``); instead the large
calls cut their work into *units* whose number depends only on the input
(row blocks of a fixed size, ranges of buckets, one model or class at a
time) and the threads take the units in turn, each the next one as it
finishes (:func:`map_units`).  Because the cutting never depends on the
number of threads, and partial results are combined in unit order, results
are bit-for-bit identical whatever the machine; ``FASTAUC_NUM_THREADS=1``
runs every unit in the calling thread.  The pool is recreated after
``fork`` (a child process does not inherit the parent's worker threads).

How many threads: ``FASTAUC_NUM_THREADS`` when set, else the CPUs this
process may use: its affinity mask, bounded by a container's CPU quota
(cgroup v2 ``cpu.max``, v1 ``cpu.cfs_quota_us``), rounded up.
"""

from __future__ import annotations

import itertools
import math
import os
import random
import threading
import queue

__all__ = ["map_each", "map_units", "map_whole", "num_threads", "row_blocks"]

# row blocks of the counting and scatter passes (``row_blocks``): from
# ``BLOCKS_FROM`` rows on, one per ``BLOCK_ROWS`` rows, at least two and at
# most ``MAX_BLOCKS`` (each block keeps a histogram of its own)
BLOCKS_FROM = 1 << 16
BLOCK_ROWS = 1 << 16
MAX_BLOCKS = 32
# tests: run every call's units in this thread in an order shuffled by this
# seed (None: taken in turn by the threads), and record each call's
# ``(function name, units)`` in this list (None: not recorded)
SHUFFLE: int | None = None
TRACE: list | None = None

_lock = threading.Lock()
_local = threading.local()


class _Pool:
    """Worker threads that run whatever callable is put on their queue (a
    unit taker of some call, which never raises): no futures, one queue put
    a helper, so a call wakes its helpers in microseconds.  Daemon threads,
    started as needed; a forked child makes its own."""

    def __init__(self):
        self.pid = os.getpid()
        self.tasks = queue.SimpleQueue()
        self.threads = 0

    def grow(self, workers: int):
        while self.threads < workers:
            threading.Thread(target=self._work, name=f"fastauc-{self.threads}",
                             daemon=True).start()
            self.threads += 1

    def _work(self):
        while True:
            self.tasks.get()()


_pool: _Pool | None = None


def num_threads() -> int:
    """Threads a call uses: ``FASTAUC_NUM_THREADS``, else :func:`usable_cpus`."""
    env = os.environ.get("FASTAUC_NUM_THREADS")
    if env:
        try:
            return max(1, int(env))
        except ValueError:
            raise ValueError(f"FASTAUC_NUM_THREADS must be a whole number, got {env!r}") from None
    return usable_cpus()


_cpus: tuple[int, int] | None = None  # (pid, count): read once per process


def usable_cpus() -> int:
    """The CPUs this process may use: the affinity mask, bounded by the
    container's CPU quota (a 2-CPU pod on a 64-core node gets 2), at least 1."""
    global _cpus
    if _cpus is None or _cpus[0] != os.getpid():
        try:
            count = len(os.sched_getaffinity(0))
        except AttributeError:  # pragma: no cover - not Linux
            count = os.cpu_count() or 1
        quota = cgroup_quota()
        if quota is not None:
            count = min(count, quota)
        _cpus = (os.getpid(), max(1, count))
    return _cpus[1]


def cgroup_quota(root="/sys/fs/cgroup") -> int | None:
    """The CPU quota of this process's cgroup, in CPUs rounded up; None when
    there is none (``max``) or it cannot be read.  cgroup v2 (``cpu.max``:
    ``"<quota> <period>"``) of the process's own group, else v1
    (``cpu/cpu.cfs_quota_us`` and ``cpu.cfs_period_us``, -1 for none)."""
    def read(path):
        try:
            with open(path) as f:
                return f.read().split()
        except OSError:
            return None

    own = None
    lines = read("/proc/self/cgroup") if root == "/sys/fs/cgroup" else None
    if lines:  # v2: "0::/path"
        for line in lines:
            if line.startswith("0::"):
                own = line[3:].strip("/")
    for path in ([os.path.join(root, own, "cpu.max")] if own else []) + [
            os.path.join(root, "cpu.max")]:
        fields = read(path)
        if fields and len(fields) >= 2:
            if fields[0] == "max":
                return None
            try:
                return max(1, math.ceil(int(fields[0]) / int(fields[1])))
            except (ValueError, ZeroDivisionError):
                return None
    quota = read(os.path.join(root, "cpu", "cpu.cfs_quota_us"))
    period = read(os.path.join(root, "cpu", "cpu.cfs_period_us"))
    try:
        q, p = int(quota[0]), int(period[0])
    except (TypeError, ValueError, IndexError):
        return None
    return max(1, math.ceil(q / p)) if q > 0 and p > 0 else None


def row_blocks(n: int, width: int = 0) -> list:
    """Row blocks ``[(start, stop), ...]`` of ``n`` rows, the units of the
    counting and scatter passes and of the row-wise checks: one block below
    ``BLOCKS_FROM`` rows, then ``n // BLOCK_ROWS`` blocks of equal size (at
    least two, at most ``MAX_BLOCKS``, and with ``width``, the entries of a
    histogram each block keeps, at most one per ``width`` rows).  A
    function of the data's sizes alone: never of the thread count."""
    if n < BLOCKS_FROM:
        return [(0, n)]
    count = min(MAX_BLOCKS, max(2, n // BLOCK_ROWS), max(2, n // max(1, width)))
    cuts = [n * k // count for k in range(count + 1)]
    return list(zip(cuts[:-1], cuts[1:]))


def _get_pool(workers: int) -> _Pool:
    global _pool
    with _lock:
        if _pool is None or _pool.pid != os.getpid():
            _pool = _Pool()
        _pool.grow(workers)
        return _pool


def map_units(fn, arg_tuples):
    """``[fn(*args) for args in arg_tuples]``, the units taken in turn by the
    calling thread and the pool's, each taking the next one as it finishes:
    a thread held up (say, by another library's thread spinning on its core)
    takes fewer.  Only for units whose results do not depend on which thread
    runs them, or in what order (partial results the caller combines in unit
    order, sorts of disjoint segments).

    Units may map units themselves (a model's sort inside a unit per model):
    the calling thread takes its own call's units, and helpers go to the
    pool, where a thread that is free joins in.  The caller never waits for
    a helper that has not started (one that starts later finds nothing left
    and returns), so nested calls cannot wait on each other forever.  A
    failing unit stops the taking; once no unit is running, the error of the
    first failing unit in order is raised (every unit before it has run: the
    same error for any thread count).
    """
    n = len(arg_tuples)
    if TRACE is not None:
        TRACE.append((getattr(fn, "__name__", repr(fn)), n))
    if n == 1:
        return [fn(*arg_tuples[0])]
    if SHUFFLE is not None:  # tests: the units in another order, in this thread
        order = list(range(n))
        random.Random(SHUFFLE).shuffle(order)
        results = [None] * n
        for k in order:
            results[k] = fn(*arg_tuples[k])
        return results
    threads = num_threads()
    if threads <= 1 or getattr(_local, "serial", False):
        return [fn(*args) for args in arg_tuples]
    results = [None] * n
    taken = itertools.count()  # next() on it is atomic under the GIL
    errors = {}
    done = threading.Condition()
    state = [0, False]  # helpers running, the call closed

    def take():
        for k in iter(taken.__next__, None):
            if k >= n or errors:
                return
            try:
                results[k] = fn(*arg_tuples[k])
            except BaseException as error:  # noqa: BLE001 - raised below
                errors[k] = error

    def helper():
        with done:
            if state[1]:
                return
            state[0] += 1
        try:
            take()
        finally:
            with done:
                state[0] -= 1
                done.notify_all()

    pool = _get_pool(threads - 1)
    for _ in range(min(threads, n) - 1):
        pool.tasks.put(helper)
    try:
        take()
    finally:
        with done:
            state[1] = True
            while state[0]:
                done.wait()
    if errors:
        raise errors[min(errors)]
    return results


def map_whole(fn, arg_tuples):
    """:func:`map_units` of units that each run whole in the thread that
    takes them (the units they would map run there, one after another): for
    many units of small work each (the classes of a multiclass call), where
    waking threads for the small units inside costs more than it gains.  The
    same results: only where the units run changes."""
    return map_units(_whole, [(fn, args) for args in arg_tuples])


def _whole(fn, args):
    outer = getattr(_local, "serial", False)
    _local.serial = True
    try:
        return fn(*args)
    finally:
        _local.serial = outer


def map_each(fn, items, *args):
    """``[fn(item, *args) for item in items]``, one unit per item (a model, a
    class, a column), taken in turn by the threads; results in order."""
    return map_units(fn, [(item, *args) for item in items])
