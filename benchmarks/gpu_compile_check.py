"""Compile every numba-cuda kernel of fastauc for an H100 (sm_90) with the
real compiler (NVVM), no GPU needed: the simulator runs kernels as Python
and checks no types, so this catches what it cannot.

    NUMBA_ENABLE_CUDASIM=0 python benchmarks/gpu_compile_check.py

Needs numba-cuda with its CUDA libraries (``pip install "numba-cuda[cu13]"``).
numba-cuda asks the current device for its compute capability when a kernel
calls a function compiled for the CPU; with no device here, that one lookup
answers sm_90 for this check only.
"""

import os
import types

os.environ["NUMBA_ENABLE_CUDASIM"] = "0"

import fastauc._kernels_cuda  # noqa: E402,F401  (its numpy shim first)
from numba import cuda  # noqa: E402
from numba import types as nt  # noqa: E402
import numba.cuda.dispatcher as dispatcher  # noqa: E402

from fastauc._kernels_cuda import resampling, sorting  # noqa: E402

CC = (9, 0)
dispatcher.get_current_device = lambda: types.SimpleNamespace(compute_capability=CC)

i64, u8, f8 = nt.int64[::1], nt.uint8[::1], nt.float64[::1]
KERNELS = {
    "chunk_sums": (resampling.chunk_sums,
                   (i64, u8, u8, f8, nt.boolean, i64, nt.int32[:, ::1], nt.boolean, u8,
                    nt.uint64[::1], nt.uint64, nt.int64, nt.float64[:, :, ::1])),
    "chunk_values": (resampling.chunk_values,
                     (i64, u8, u8, f8, nt.boolean, i64, nt.int32[:, ::1], nt.boolean, u8,
                      nt.uint64[::1], nt.uint64, nt.int64, nt.float64[:, :, ::1], nt.int64,
                      nt.float64, f8, nt.float64[:, ::1])),
    "partition": (sorting.partition, (nt.float32[::1], f8, u8, nt.int32[::1], nt.int64,
                                      nt.boolean, nt.float32[::1], f8)),
    "find_subnormal": (sorting.find_subnormal, (nt.uint32[::1], nt.int32[::1])),
    "widen": (sorting.widen, (nt.float32[::1], f8)),
    "narrow": (sorting.narrow, (f8, nt.float32[::1])),
    "make_keys": (sorting.make_keys, (nt.uint32[::1], u8, nt.uint64[::1])),
    "group_starts": (sorting.group_starts, (nt.uint64[::1], u8, u8)),
    "curve_points": (sorting.curve_points, (nt.uint64[::1], nt.int32[::1], i64, nt.int64, f8, f8,
                                            nt.uint32[::1], i64)),
    "multinomial_counts": (resampling.multinomial_counts,
                           (i64, i64, nt.uint64, nt.int64, nt.int32[:, ::1])),
}

for name, (kernel, signature) in KERNELS.items():
    ptx, _ = cuda.compile_ptx(kernel.py_func, signature, cc=CC)
    print(f"{name}: {len(ptx):,} characters of PTX for sm_{CC[0]}{CC[1]}")
print("all device kernels compiled")
