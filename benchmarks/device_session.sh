#!/usr/bin/env bash
# What a lent machine (one H100 or H200, 16 CPU cores) checks and measures,
# prepared here so that a session with one spends its device time on running,
# not on writing.  Two parts, one device call each (7 and 4 minutes at most:
# with a start, within the 15 minutes of device time a session has):
#
#   bash benchmarks/device_session.sh gpu     # issues 38 and 39
#   bash benchmarks/device_session.sh cores   # issue 37
#
# gpu:   tests/test_device.py and tests/test_torch.py with the simulator off
#        (NUMBA_ENABLE_CUDASIM=0: every registry parity, invariance and
#        bad-input case of the device path on the real GPU, and the tests
#        marked for a GPU), then benchmarks/gpu_benchmark.py (parity at 1e7,
#        the timing table, memory, first call) into $OUT/gpu_benchmark.md.
# cores: benchmarks/scaling_cores.py --big --sklearn (1 to 16 threads, bit
#        for bit against one thread) into $OUT/scaling_cores.txt; here,
#        `python benchmarks/scaling_cores.py --page <that file> <a 2-core run>`
#        writes it into the docs.
#
# Everything lands under $OUT (./device_out where $OUT is unset); each step has
# its own timeout, so one that hangs leaves the others' output.
set -u
OUT="${OUT:-device_out}"
mkdir -p "$OUT"
export PYTHONPATH="${PYTHONPATH:+$PYTHONPATH:}$PWD" PYTHONUNBUFFERED=1
part="${1:-gpu}"

{
  date -u
  nproc
  nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader 2>/dev/null
  python -c "import sys, numpy, numba; print(sys.version.split()[0], 'numpy', numpy.__version__, 'numba', numba.__version__)"
  python -c "import numba_cuda, cupy; print('numba-cuda', numba_cuda.__version__, 'cupy', cupy.__version__)" 2>&1
  python -c "import torch, torchmetrics; print('torch', torch.__version__, 'torchmetrics', torchmetrics.__version__)" 2>&1
} | tee "$OUT/machine.txt"

case "$part" in
  gpu)
    NUMBA_ENABLE_CUDASIM=0 timeout 150 python -m pytest -q --maxfail=25 -p no:cacheprovider \
      --durations=15 tests/test_device.py tests/test_torch.py 2>&1 | tee "$OUT/tests_on_gpu.txt"
    timeout 270 python benchmarks/gpu_benchmark.py --out "$OUT/gpu_benchmark.md" 2>&1 \
      | tee "$OUT/gpu_benchmark.txt"
    ;;
  cores)
    timeout 240 python benchmarks/scaling_cores.py --big --sklearn 2>&1 \
      | tee "$OUT/scaling_cores.txt"
    ;;
  *)
    echo "usage: bash benchmarks/device_session.sh gpu|cores" >&2
    exit 2
    ;;
esac
