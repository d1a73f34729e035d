#!/usr/bin/env bash
# What a machine with a GPU (one H100 or H200, 16 CPU cores) checks and
# measures, in one command per part (each step has its own timeout, so one
# that hangs leaves the others' output):
#
#   bash benchmarks/device_session.sh gpu     # about 4 minutes
#   bash benchmarks/device_session.sh cores   # about 3 minutes
#
# gpu:   every kernel compiled for sm_90 (gpu_compile_check.py); Numba's cache
#        filled by `fastauc warmup` on every core; tests/test_device.py and
#        tests/test_torch.py with the simulator off (NUMBA_ENABLE_CUDASIM=0:
#        every registry parity, invariance and bad-input case of the device
#        path on the real GPU, and the tests marked for a GPU: torch, JAX,
#        streams), in 12 processes (pytest-xdist); then gpu_benchmark.py
#        (parity at 1e7, the timing table, memory, the steps, the first call)
#        into $OUT/gpu_benchmark.md (PARTS picks its parts).  Here,
#        `python benchmarks/gpu_benchmark.py --page machine.txt <device table>
#        <peers table>` writes saved outputs into docs/benchmarks.md.
# cores: benchmarks/scaling_cores.py --big --sklearn (1 to 16 threads, bit
#        for bit against one thread) into $OUT/scaling_cores.txt; here,
#        `python benchmarks/scaling_cores.py --page <that file> <a 2-core run>`
#        writes it into the docs.
#
# Everything lands under $OUT (./device_out where $OUT is unset).
set -u
OUT="${OUT:-device_out}"
mkdir -p "$OUT"
export PYTHONPATH="${PYTHONPATH:+$PYTHONPATH:}$PWD" PYTHONUNBUFFERED=1
# JAX takes 75% of the GPU's memory at its first array unless told not to
export XLA_PYTHON_CLIENT_PREALLOCATE=false
part="${1:-gpu}"
PY="${PY:-python3}"

{
  date -u
  nproc
  nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader 2>/dev/null
  "$PY" -c "import sys, numpy, numba; print(sys.version.split()[0], 'numpy', numpy.__version__, 'numba', numba.__version__)"
  "$PY" -c "import numba_cuda, cupy; print('numba-cuda', numba_cuda.__version__, 'cupy', cupy.__version__)" 2>&1
  "$PY" -c "import torch, torchmetrics; print('torch', torch.__version__, 'torchmetrics', torchmetrics.__version__)" 2>&1
} | tee "$OUT/machine.txt"

case "$part" in
  gpu)
    timeout 60 "$PY" benchmarks/gpu_compile_check.py 2>&1 | tee "$OUT/compile_check.txt"
    timeout 90 "$PY" -m fastauc warmup --jobs "$(nproc)" 2>&1 | tee "$OUT/warmup.txt"
    NUMBA_ENABLE_CUDASIM=0 timeout "${TESTS_S:-150}" "$PY" -m pytest -q -n 12 --maxfail=40 \
      -p no:cacheprovider tests/test_device.py tests/test_torch.py > "$OUT/tests_on_gpu.txt" 2>&1
    grep -E "passed|failed|FAILED" "$OUT/tests_on_gpu.txt" | tail -25
    timeout "${BENCH_S:-270}" "$PY" benchmarks/gpu_benchmark.py --out "$OUT/gpu_benchmark.md" \
      ${PARTS:+--parts "$PARTS"} 2>&1 | tee "$OUT/gpu_benchmark.txt"
    ;;
  cores)
    timeout "${CORES_S:-240}" "$PY" benchmarks/scaling_cores.py --big --sklearn ${CORES_ARGS:-} 2>&1 \
      | tee "$OUT/scaling_cores.txt"
    ;;
  *)
    echo "usage: bash benchmarks/device_session.sh gpu|cores" >&2
    exit 2
    ;;
esac
