#!/usr/bin/env bash
# suite.sh — run THERE (the lent GPU machine, repository root, .gpu/ carried; see pack.sh): the
# whole clgemm_tests on the NVIDIA GPU in one call. NVIDIA's compiler takes most of the suite's
# time, on the host's CPUs, so $SHARDS processes run gtest's shards side by side; the tests that
# measure the device memory a process holds (ContextLifetime.*) run alone afterwards. The tests
# find tests/data at /work/main/tests, as in a build tree here. Leaves each shard's output and a
# summary (failures.txt) under $OUT.
#   OUT=/tmp/suite SHARDS=6 bash scripts/gpu/suite.sh
set -uo pipefail
OUT=${OUT:-/tmp/clgemm-suite}
SHARDS=${SHARDS:-6}
LIMIT=${LIMIT:-500}
mkdir -p "$OUT" /etc/OpenCL/vendors
echo libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
[ -d .gpu/lib ] || tar -C .gpu -xJf .gpu/lib.tar.xz
[ -e /work/main/tests/data ] || { mkdir -p /work/main && ln -sfn "$PWD/tests" /work/main/tests; }
export LD_LIBRARY_PATH="$PWD/.gpu/lib:${LD_LIBRARY_PATH:-}"
export CLGEMM_DEVICE=${CLGEMM_DEVICE:-NVIDIA} CLGEMM_TENSOR_MAPS=1
BIN=$PWD/.gpu/bin
ALONE='ContextLifetime.*'
for i in $(seq 0 $((SHARDS - 1))); do
  GTEST_TOTAL_SHARDS=$SHARDS GTEST_SHARD_INDEX=$i CLGEMM_CACHE_DIR=/tmp/clgemm-cache-$i timeout "$LIMIT" \
    $BIN/clgemm_tests --gtest_brief=1 --gtest_filter="-$ALONE" > "$OUT/shard_$i.txt" 2>&1 &
done
wait
timeout 120 $BIN/clgemm_tests --gtest_brief=1 --gtest_filter="$ALONE" > "$OUT/alone.txt" 2>&1
{
  for f in "$OUT"/shard_*.txt "$OUT/alone.txt"; do
    echo "$(basename "$f"): $(grep -aE '^\[  PASSED  \]|test suites? ran' "$f" | tr '\n' ' ')" \
      "$(grep -qE 'test suites? ran' "$f" || echo 'DID NOT FINISH')"
    grep -aE "^\[  FAILED  \]" "$f" | sort -u
  done
} | tee "$OUT/failures.txt"
