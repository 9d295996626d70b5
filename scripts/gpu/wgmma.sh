#!/usr/bin/env bash
# wgmma.sh — run THERE (the lent GPU machine, repository root, .gpu/ carried; see pack.sh): the
# Hopper tensor-core paths beside cuBLAS in one call. First the GPU tests of the wgmma path (TMA
# forced on odd shapes and batches, the precision sweep), then `clgemm bench` with TMA
# (CLGEMM_TENSOR_MAPS=1) on f16, bf16, f16 with a float32 C, TF32 and 3xTF32 squares (3xTF32
# beside cuBLAS FP32 and clgemm FP32), B stored transposed, odd sizes and strided f16 and bf16
# batches, and the f16 squares again with cp.async alone (CLGEMM_TENSOR_MAPS=0). Prints one line
# per shape and implementation (TFLOP/s, and the relative error against float64) and leaves every
# run's files under $OUT. About 6 minutes on an H100.
#   OUT=/tmp/wgmma bash scripts/gpu/wgmma.sh
#   SQUARES="4096,8192" bash scripts/gpu/wgmma.sh
set -uo pipefail
OUT=${OUT:-/tmp/clgemm-wgmma}
SQUARES=${SQUARES:-1024,2048,4096,8192}
mkdir -p "$OUT" /etc/OpenCL/vendors
echo libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
[ -d .gpu/lib ] || tar -C .gpu -xJf .gpu/lib.tar.xz
export LD_LIBRARY_PATH="$PWD/.gpu/lib:${LD_LIBRARY_PATH:-}"
export CLGEMM_DEVICE=${CLGEMM_DEVICE:-NVIDIA}
status=0

CLGEMM_TENSOR_MAPS=1 timeout 300 .gpu/bin/clgemm_tests --gtest_brief=1 \
  --gtest_filter='WgmmaOnDevice*:WgmmaTilesOnDevice.TheWide*:LocalLimits*:TensorMaps*:Types/PrecisionSweep.*:Inspect*' > "$OUT/tests.txt" 2>&1 || status=1
grep -E "PASSED|FAILED|Failure" "$OUT/tests.txt" | head -20

# One `clgemm bench` run: its name, then bench.sh's variables; each result as "name m n k batch impl
# status TFLOP/s".
run() {
  local name=$1
  shift
  env "$@" OUT="$OUT" TAG="$name" REPEAT=${REPEAT:-10} bash .gpu/bench.sh > "$OUT/log_$name.txt" 2>&1 || status=1
  for f in "$OUT"/bench_*_"$name".csv; do
    [ -e "$f" ] || { echo "$name: no results (see $OUT/log_$name.txt)"; status=1; continue; }
    python3 - "$f" "$name" <<'PY'
import csv, sys
for r in csv.DictReader(open(sys.argv[1])):
    print(sys.argv[2], r["m"], r["n"], r["k"], r["batch"], r["impl"], r["status"], round(float(r["gflops"] or 0) / 1000, 1),
          r["relative_error"])
PY
  done
}

for p in f16 bf16 f16-f32; do
  run "$p" CLGEMM_TENSOR_MAPS=1 PRECISION=$p PRESETS="$SQUARES" IMPL=clgemm,cublas
done
run tf32 CLGEMM_TENSOR_MAPS=1 PRECISION=f32 PRESETS="$SQUARES" IMPL=clgemm-tf32,cublas-tf32,cublas
run 3xtf32 CLGEMM_TENSOR_MAPS=1 PRECISION=f32 PRESETS="$SQUARES,4097,2048x2048x65536" IMPL=clgemm-3xtf32,cublas,clgemm
run f16-bt CLGEMM_TENSOR_MAPS=1 PRECISION=f16 PRESETS="4096,8192" IMPL=clgemm,cublas ARGS="--transb t"
run f16-odd CLGEMM_TENSOR_MAPS=1 PRECISION=f16 PRESETS="4097,8193" IMPL=clgemm,cublas
for spec in f16:256:256 bf16:256:256 f16:64:512 bf16:64:512 f16:32:1024; do
  IFS=: read -r p count size <<< "$spec"
  run "$p-batch$count" CLGEMM_TENSOR_MAPS=1 PRECISION=$p PRESETS="$size" IMPL=clgemm,cublas ARGS="--batch $count"
done
run f16-cpasync CLGEMM_TENSOR_MAPS=0 PRECISION=f16 PRESETS="$SQUARES" IMPL=clgemm,cublas
exit $status
