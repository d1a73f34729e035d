"""Reconstruct a bootstrap replicate's rows from fastauc's own draws.

The counts come from the kernel the bootstrap itself runs
(``_kernels.resampling._count_draws``), so a test that compares a replicate
with a reference metric on these rows checks the replicate's arithmetic, not
a second copy of the draws.  The rows come out grouped by layout position,
not in draw order: every metric tested on them ignores row order.
"""

import numpy as np

from fastauc._kernels.resampling import _count_draws, draw_buffer


def drawn_positions(seed, r, strata):
    """The class-layout positions replicate ``r`` draws, each as often as drawn."""
    counts = np.zeros(int(strata[-1]), np.int64)
    _count_draws(np.uint64(seed), r, strata, counts, draw_buffer(counts.shape[0], 8))
    return np.repeat(np.arange(counts.shape[0]), counts)
