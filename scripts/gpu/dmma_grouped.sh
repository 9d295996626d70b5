#!/usr/bin/env bash
# dmma_grouped.sh — run THERE (the lent GPU machine, from the repository root, with .gpu/ carried;
# see pack.sh, and pack_baseline.sh for .gpu/baseline): checks grouped f64 calls on the FP64 tensor
# cores (the tests), and times grouped calls of seeded random problems beside cuBLAS's grouped
# batched call, and beside the baseline library where .gpu/baseline holds one. Logs under $OUT.
#   OUT=/tmp/out bash scripts/gpu/dmma_grouped.sh
set -uo pipefail
OUT=${OUT:-/tmp/clgemm-out}
SPECS=${SPECS:-random random:256:64:512:2 random:64:128:2048:3 random:64:64:1024}
mkdir -p "$OUT" /etc/OpenCL/vendors
echo libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
[ -d .gpu/lib ] || tar -C .gpu -xJf .gpu/lib.tar.xz
export CLGEMM_DEVICE=${CLGEMM_DEVICE:-NVIDIA}
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
echo "== tests"
LD_LIBRARY_PATH=$PWD/.gpu/lib timeout 240 .gpu/bin/clgemm_tests --gtest_brief=1 \
  --gtest_filter='DmmaGrouped.*:Grouped.*:DmmaInPlace.*:DmmaPlan.*' > "$OUT/tests.txt" 2>&1
echo "rc $?"; grep -E "PASSED|FAILED|Failure|problem|stray|SKIPPED" "$OUT/tests.txt" | head -20
bench() {  # bench NAME [VAR=VALUE...]: bench.sh on the grouped specs, its summary printed
  local name=$1; shift
  env OUT="$OUT/$name" GROUPED=1 PRECISION=f64 REPEAT=20 WARMUP=3 PRESETS="$SPECS" "$@" timeout 150 bash .gpu/bench.sh \
    > "$OUT/$name.log" 2>&1
  echo "== $name"; grep -h -E "^grouped .*(clgemm|cublas) " "$OUT/$name"/bench_*[^g].txt
}
bench this IMPL=clgemm,cublas
bench this-col IMPL=clgemm,cublas ARGS="--layout col --transa t --beta 0.5"
if [ -d .gpu/baseline/lib ]; then
  cp .gpu/lib/libclgemm_cublas.so .gpu/baseline/lib/ 2>/dev/null
  bench baseline IMPL=clgemm GPU_DIR=.gpu/baseline LD_LIBRARY_PATH="$PWD/.gpu/lib"
fi
