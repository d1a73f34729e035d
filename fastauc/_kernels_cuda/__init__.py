"""numba-cuda kernels: the device twins of ``_kernels/``, by the same families.

Nothing here is imported by ``import fastauc``: ``_device`` imports this
package on the first call that computes on a GPU (or under numba-cuda's
simulator, ``NUMBA_ENABLE_CUDASIM=1``, where every kernel runs in Python on
host arrays: how CI, with no GPU, runs the device path).
"""

from __future__ import annotations

import warnings

import numpy as np

# numba-cuda 0.30 reads ``np.row_stack`` when it compiles a kernel; numpy 2.5
# removed that alias of ``np.vstack`` (deprecated since numpy 2.0).  Giving it
# back here, before numba.cuda is imported, is the one place fastauc does so.
if not hasattr(np, "row_stack"):
    np.row_stack = np.vstack

with warnings.catch_warnings():
    # numba-cuda 0.30 makes np.timedelta64("nat") at import, which numpy 2.5
    # deprecates (a DeprecationWarning, an error under ``-W error``)
    warnings.filterwarnings("ignore", message=".*generic.*unit.*timedelta",
                            category=DeprecationWarning)
    from numba import cuda  # noqa: E402  (after the shim)

__all__ = ["cuda", "simulated"]


def simulated() -> bool:
    """True when numba-cuda runs its simulator (``NUMBA_ENABLE_CUDASIM=1``)."""
    from numba import config

    return bool(config.ENABLE_CUDASIM)
