"""Helpers shared by the benchmark scripts: timing and the uniform data set
(numpy only, no fastauc import here: ``ab_rows.py`` imports it before
choosing which build of fastauc to load)."""

from __future__ import annotations

import platform
import time

import numpy as np


def best_time(fn, repeat, number=1, gap=0.0, warm=0.0):
    """The least time of ``repeat`` timings of ``number`` calls each, ``gap``
    seconds apart, each after ``warm`` seconds of untimed calls.  Short
    timings use a gap: on this 2-vCPU host the second core is now and then
    slow for spells of a fraction of a second to several seconds (a 1e5-row
    call on two threads then takes as long as on one, or longer, while the
    one-thread time and numpy's sort do not change), and windows back to
    back can all fall in one spell.  And after each pause the second core is
    slow again for about 0.15 s of calls (measured: 60 calls of 2.5 ms at 1e5
    rows, then 1.55 ms each): ``warm`` times the calls as a loop that calls
    one after another (a training loop) sees them."""
    best = float("inf")
    for k in range(repeat):
        if k and gap:
            time.sleep(gap)
        end = time.perf_counter() + warm
        while time.perf_counter() < end:
            fn()
        t0 = time.perf_counter()
        for _ in range(number):
            fn()
        best = min(best, (time.perf_counter() - t0) / number)
    return best


def data(n, pos_rate=0.1, seed=0):
    """Uniform scores, int64 labels (``pos_rate`` positives), uniform weights."""
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < pos_rate).astype(np.int64)
    s = rng.random(n)
    w = rng.random(n)
    return y, s, w


def cpu_name():
    """The CPU's model name (Linux), else what ``platform`` knows."""
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as fh:
            cpu = next(line.split(":", 1)[1].strip() for line in fh if "model name" in line)
    except (OSError, StopIteration):
        pass
    return cpu
