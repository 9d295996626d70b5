#!/usr/bin/env bash
# python_bench.sh — run THERE (the lent GPU machine, repository root, .gpu/ carried): float32
# SIZE³ through the Python package on PyOpenCL arrays, beside `clgemm bench` (C++) on the same
# device in the same run. The machine has no package index: .gpu/wheels/ holds clgemm's wheel for
# its Python (built HERE with that version: pip wheel . -w .gpu/wheels) and PyOpenCL's with its
# dependencies (pip download pyopencl --only-binary=:all: --python-version X.Y -d .gpu/wheels).
#   OUT=/tmp/py SIZE=4096 bash scripts/gpu/python_bench.sh
set -uo pipefail
OUT=${OUT:-/tmp/clgemm-python}
SIZE=${SIZE:-4096}
REPEAT=${REPEAT:-20}
mkdir -p "$OUT" /etc/OpenCL/vendors
echo libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH="$PWD/.gpu/lib:${LD_LIBRARY_PATH:-}"
export CLGEMM_DEVICE=${CLGEMM_DEVICE:-NVIDIA}
python3 --version
# NumPy comes from the machine's own Python (the environment sees its site-packages).
python3 -m venv --system-site-packages /tmp/clgemm-venv
/tmp/clgemm-venv/bin/python -m pip install -q --no-index --find-links .gpu/wheels clgemm pyopencl || exit 1
.gpu/bin/clgemm plan --m "$SIZE" --n "$SIZE" --k "$SIZE" | sed -n 1,2p
# Alternating which goes first, so that a drift of the device's clocks shows as such.
cpp() { .gpu/bin/clgemm bench --sizes "$SIZE" --impl clgemm --repeat "$REPEAT" --warmup 3 | tee -a "$OUT/cpp.txt"; }
py() {
  (cd /tmp && /tmp/clgemm-venv/bin/python "$OLDPWD/scripts/python_gemm_time.py" --size "$SIZE" --repeat "$REPEAT") |
    tee -a "$OUT/python.txt"
}
for round in 1 2 3 4; do
  if [ $((round % 2)) = 1 ]; then cpp; py; else py; cpp; fi
done
# The host time Python adds to a small call on this device (scripts/python_overhead.py).
(cd /tmp && /tmp/clgemm-venv/bin/python "$OLDPWD/scripts/python_overhead.py") | tee "$OUT/overhead.txt"
