#!/usr/bin/env bash
# dmma_in_place.sh — run THERE (the lent GPU machine, from the repository root, with .gpu/ carried;
# see pack.sh, and pack_baseline.sh for .gpu/baseline): checks the dmma kernel on operands read in
# place (A_MK, B_NK, GUARD, rows off 16-byte boundaries), and times f64 calls through the planner
# beside the baseline library in the same run: batches and squares (force_probe, row-major), B
# transposed (clgemm bench), and the f64 batched preset beside CLBlast and cuBLAS. Logs under $OUT.
#   OUT=/tmp/out bash scripts/gpu/dmma_in_place.sh
set -uo pipefail
OUT=${OUT:-/tmp/clgemm-out}
SHAPES=${SHAPES:-4096x100x100x100 1000x127x129x65 512x200x200x200 256x300x300x300 64x500x500x500 4096x64x64x64 \
  1000 1023 2000 4097 1024}
mkdir -p "$OUT" /etc/OpenCL/vendors
echo libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
[ -d .gpu/lib ] || tar -C .gpu -xJf .gpu/lib.tar.xz
export CLGEMM_DEVICE=${CLGEMM_DEVICE:-NVIDIA}
NEW=$PWD/.gpu/lib BASE=$PWD/.gpu/baseline/lib:$PWD/.gpu/lib
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
echo "== tests"
LD_LIBRARY_PATH=$NEW timeout 300 .gpu/bin/clgemm_tests --gtest_brief=1 \
  --gtest_filter='*Dmma*:*F64*:*f64*:*Grouped*' > "$OUT/tests.txt" 2>&1
echo "rc $?"; grep -E "PASSED|FAILED|Failure|item|stray|problem" "$OUT/tests.txt" | head -20
probe() { timeout 150 .gpu/bin/force_probe f64 auto $SHAPES 2>&1 | grep -v "^#" | cut -c1-110; }
for round in 1 2; do
  echo "== this build ($round)"; LD_LIBRARY_PATH=$NEW probe
  [ -d .gpu/baseline/lib ] && { echo "== the baseline ($round)"; LD_LIBRARY_PATH=$BASE probe; }
done
transposed() {  # transposed LIBS BIN: B transposed, squares, clgemm alone
  LD_LIBRARY_PATH=$1 timeout 120 $2 bench --sizes 1000,2048,4096 --transb t --precision f64 --impl clgemm \
    --repeat 10 2>/dev/null | grep -E "^[0-9]+x[0-9]+x[0-9]+ +clgemm"
}
echo "== B transposed, this build"; transposed "$NEW" .gpu/bin/clgemm
[ -d .gpu/baseline/lib ] && { echo "== B transposed, the baseline"; transposed "$BASE" .gpu/bin/clgemm; }
echo "== against CLBlast and cuBLAS"
OUT=$OUT/bench PRECISION=f64 IMPL=clgemm,clblast,cublas PRESETS=batched REPEAT=10 timeout 200 bash .gpu/bench.sh \
  > "$OUT/bench.log" 2>&1
tail -8 "$OUT/bench.log"
