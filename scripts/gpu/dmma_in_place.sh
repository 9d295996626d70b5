#!/usr/bin/env bash
# dmma_in_place.sh — run THERE (the lent GPU machine, from the repository root, with .gpu/ carried;
# see pack.sh, and pack_baseline.sh for .gpu/baseline): checks the dmma kernel on operands read in
# place (A_MK, B_NK), and times f64 batches and squares through the planner beside the baseline
# library (packed operands, SIMT kernels for small items), CLBlast and cuBLAS. Logs under $OUT.
#   OUT=/tmp/out bash scripts/gpu/dmma_in_place.sh
set -uo pipefail
OUT=${OUT:-/tmp/clgemm-out}
mkdir -p "$OUT" /etc/OpenCL/vendors
echo libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
[ -d .gpu/lib ] || tar -C .gpu -xJf .gpu/lib.tar.xz
export LD_LIBRARY_PATH=$PWD/.gpu/lib:${LD_LIBRARY_PATH:-} CLGEMM_DEVICE=${CLGEMM_DEVICE:-NVIDIA}
B=.gpu/bin
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
echo "== tests"
timeout 240 $B/clgemm_tests --gtest_brief=1 \
  --gtest_filter='*Dmma*:*F64*:*f64*:*Strided*:*Batch*' > "$OUT/tests.txt" 2>&1
echo "rc $?"; grep -E "PASSED|FAILED|Failure|item|stray" "$OUT/tests.txt" | head -20
probe() { timeout 120 $B/force_probe f64 "$@" 2>&1 | grep -v "^#"; }
echo "== tilings on the items, forced"
FORCE_CONFIGS="auto;BM=64,BN=64,MMA_K=8;BM=128,BN=64,MMA_K=8" probe tensor 4096x64x64x64 1024x128x128x128 \
  64x256x256x256
SHAPES="4096x32x32x32 1024x32x32x32 256x32x32x32 4096x32x32x256 2048x96x160x40 4096x64x64x64 1024x64x64x64 256x64x64x64 64x64x64x64
  1024x128x128x128 128x128x128x128 16x128x128x128 256x256x256x256 64x512x512x512 1024 4096 8192"
echo "== the planner's choice, this build"
probe auto $SHAPES
echo "== the planner's choice, the baseline"
[ -d .gpu/baseline/lib ] && LD_LIBRARY_PATH=$PWD/.gpu/baseline/lib:$LD_LIBRARY_PATH probe auto $SHAPES
echo "== the planner's choice, this build, again"
probe auto $SHAPES
echo "== against CLBlast and cuBLAS"
OUT=$OUT/bench PRECISION=f64 IMPL=clgemm,clblast,cublas PRESETS=batched REPEAT=10 timeout 200 bash .gpu/bench.sh \
  > "$OUT/bench.log" 2>&1
tail -12 "$OUT/bench.log"
OUT=$OUT/squares PRECISION=f64 IMPL=clgemm,clblast,cublas PRESETS="512,1024,2048,4096,8192" REPEAT=10 timeout 200 \
  bash .gpu/bench.sh > "$OUT/squares.log" 2>&1
tail -12 "$OUT/squares.log"
