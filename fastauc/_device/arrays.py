"""Where arrays live, and moving them: the device path's array layer.

A CUDA array is a PyTorch CUDA tensor, a CuPy array, or any object with
``__cuda_array_interface__`` or a DLPack device of type CUDA (JAX).  None of
these libraries is imported to find out: the checks read the object's type
and attributes, so a call on numpy arrays pays a few attribute lookups
(``cuda_device`` and ``to_host`` live in ``fastauc._containers``, where every
input becomes numpy: so every public function takes CUDA arrays, through host
copies where it has no device implementation).

The device path computes with one array namespace ``xp``: CuPy on a GPU,
numpy under numba-cuda's simulator (``NUMBA_ENABLE_CUDASIM=1``), where the
kernels of ``_kernels_cuda`` run simulated on host arrays.  Results go back
to the library and device of the scores (a torch tensor in, torch tensors
out); scalars are Python floats.  :meth:`Engine.out` keeps a result on the
GPU when the scores are there; for host scores (and under the simulator) it
gives numpy, which the dispatcher puts in the scores' library, as it does
the CPU path's results (``_containers.in_scores_library``).
"""

from __future__ import annotations

import numpy as np

from .._containers import cuda_device, to_host

__all__ = ["HOST", "Engine", "cuda_device", "library", "to_host"]

HOST = object()  # a device implementation's answer: "compute this one on the host"
GPU_EXTRA = ('install the GPU extra: pip install "fastauc[gpu]" (CUDA 13) or '
             '"fastauc[gpu-cu12]" (CUDA 12); docs/guide/gpu.md')


def _module(x) -> str:
    return type(x).__module__.partition(".")[0]


def library(x) -> str:
    """The library results should come back in: ``"torch"``, ``"cupy"``,
    ``"jax"`` or ``"numpy"`` (host inputs)."""
    lib = _module(x)
    if lib in ("torch", "cupy", "jax", "jaxlib"):
        return "jax" if lib == "jaxlib" else lib
    return "cupy" if cuda_device(x) is not None else "numpy"


class Engine:
    """One device call's array namespace and result library.

    ``xp`` is CuPy (a GPU) or numpy (the simulator); ``simulated`` says which.
    ``lib`` and ``ordinal`` say where results go.
    """

    def __init__(self, simulated: bool, lib: str, ordinal):
        self.simulated = simulated
        self.lib = lib
        self.ordinal = ordinal
        if simulated:
            self.xp = np
        else:
            try:
                import cupy
            except ImportError as exc:
                raise ImportError(f"fastauc's device path needs CuPy: {GPU_EXTRA}") from exc
            self.xp = cupy

    def on_device(self):
        """A context for the work: CuPy's device of the scores (nothing when
        simulated)."""
        if self.simulated:
            from contextlib import nullcontext

            return nullcontext()
        return self.xp.cuda.Device(self.ordinal or 0)

    def asarray(self, x, name: str):
        """``x`` in ``xp``, on this device, without a copy where it is there
        already (a tensor that requires grad is detached; float16 and
        bfloat16 are widened to float32, exactly).  Host array-likes go
        through the CPU path's conversion first (pandas, lists, ...)."""
        if cuda_device(x) is None:
            from .. import _validation as v

            arr = v.as_array(x, name)
            if arr.dtype == np.float16:
                arr = arr.astype(np.float32)
            if self.simulated or arr.dtype.kind not in "biuf":
                return arr  # strings and objects stay: the CPU rules judge them
            return self.xp.asarray(arr)
        lib = _module(x)
        if lib == "torch":
            t = x.detach()
            if str(t.dtype) in ("torch.bfloat16", "torch.float16"):
                t = t.float()
            # DLPack orders CuPy's stream after torch's (torch's array interface
            # carries no stream: CuPy could read before torch wrote)
            try:
                return self.xp.from_dlpack(t)
            except (TypeError, BufferError, RuntimeError):  # an older CuPy or dtype
                return self.xp.asarray(t)
        if lib == "cupy":
            return x.astype(np.float32) if x.dtype == np.float16 else x
        try:
            arr = self.xp.from_dlpack(x)
        except (TypeError, AttributeError, BufferError):
            arr = self.xp.asarray(x)
        return arr.astype(np.float32) if str(arr.dtype) in ("float16", "bfloat16") else arr

    def launch(self, kernel, grid, threads, *args):
        """``kernel[grid, threads](*args)`` on CuPy's current stream (so the
        CuPy work before and after is ordered with it), without numba's
        warning for grids of few blocks (small inputs: expected)."""
        import warnings

        from numba.core.errors import NumbaPerformanceWarning

        with warnings.catch_warnings():
            warnings.simplefilter("ignore", NumbaPerformanceWarning)
            try:  # numba-cuda's own class (0.30), not numba's
                from numba.cuda.core.errors import NumbaPerformanceWarning as OnDevice
                warnings.simplefilter("ignore", OnDevice)
            except ImportError:
                pass
            if self.simulated:
                kernel[grid, threads](*args)
            else:
                from .._kernels_cuda import cuda

                stream = cuda.external_stream(self.xp.cuda.get_current_stream().ptr)
                kernel[grid, threads, stream](*args)

    def threads(self, n: int, most: int) -> int:
        """Threads per block for ``n`` items: ``most``, or whole warps enough
        for ``n`` (the simulator runs a Python thread per thread)."""
        return min(most, 32 * max(1, -(-n // 32)))

    def blocks(self, n: int, threads: int) -> int:
        """Blocks for a grid-stride kernel over ``n`` items: enough to fill
        the device (8 per multiprocessor), fewer for small inputs."""
        want = max(1, -(-n // threads))
        if self.simulated:
            return min(want, 4)
        if not hasattr(self, "_sms"):
            self._sms = self.xp.cuda.Device().attributes["MultiProcessorCount"]
        return min(want, 8 * self._sms)

    def count(self, mask) -> int:
        """The true entries of a bool device array (one reduction, one
        synchronisation), remembered for that array object: the validation
        and the sweep of one call ask once."""
        memo = getattr(self, "_counted", None)
        if memo is not None and memo[0] is mask:
            return memo[1]
        n = int(self.xp.count_nonzero(mask))
        self._counted = (mask, n)
        return n

    def host(self, a):
        """A device array as numpy (no copy when simulated)."""
        return a if self.simulated else self.xp.asnumpy(a)

    def out(self, a):
        """A result array in the scores' library and device: numpy when the
        scores are host arrays (the dispatcher converts it) or simulated."""
        if self.simulated or self.lib == "numpy":
            return self.host(a)
        if self.lib == "torch":
            import torch

            return torch.from_dlpack(a)
        if self.lib == "jax":
            import jax.numpy as jnp

            return jnp.from_dlpack(a)
        return a
