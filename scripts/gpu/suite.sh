#!/usr/bin/env bash
# suite.sh — run THERE (the lent GPU machine, repository root, .gpu/ carried; see pack.sh): the
# whole clgemm_tests on the NVIDIA GPU in one call. NVIDIA's compiler takes most of the suite's
# time, on the host's CPUs, so $SHARDS processes run gtest's shards side by side; the tests that
# measure the device memory a process holds (ContextLifetime.*) run alone afterwards. The tests
# find tests/data at /work/main/tests, as in a build tree here. Leaves one file under $OUT,
# summary.txt: each shard's counts, its failed tests with their messages, and the test a shard was
# running when its time ran out. The shards' whole logs stay in $LOGS on the GPU machine (a call
# brings back few files).
#   OUT=/tmp/suite SHARDS=6 bash scripts/gpu/suite.sh
set -uo pipefail
OUT=${OUT:-/tmp/clgemm-suite}
SHARDS=${SHARDS:-6}
LIMIT=${LIMIT:-500}
LOGS=${LOGS:-/tmp/clgemm-suite-logs}
mkdir -p "$OUT" "$LOGS" /etc/OpenCL/vendors
echo libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
[ -d .gpu/lib ] || tar -C .gpu -xJf .gpu/lib.tar.xz
[ -e /work/main/tests/data ] || { mkdir -p /work/main && ln -sfn "$PWD/tests" /work/main/tests; }
export LD_LIBRARY_PATH="$PWD/.gpu/lib:${LD_LIBRARY_PATH:-}"
export CLGEMM_DEVICE=${CLGEMM_DEVICE:-NVIDIA} CLGEMM_TENSOR_MAPS=1
BIN=$PWD/.gpu/bin
ALONE='ContextLifetime.*'
# $FILTER narrows the shards to some tests (positive gtest patterns; default all).
for i in $(seq 0 $((SHARDS - 1))); do
  GTEST_TOTAL_SHARDS=$SHARDS GTEST_SHARD_INDEX=$i CLGEMM_CACHE_DIR=/tmp/clgemm-cache-$i timeout "$LIMIT" \
    $BIN/clgemm_tests --gtest_filter="${FILTER:-*}-$ALONE" > "$LOGS/shard_$i.txt" 2>&1 &
done
wait
timeout 200 $BIN/clgemm_tests --gtest_filter="$ALONE" > "$LOGS/alone.txt" 2>&1
{
  for f in "$LOGS"/shard_*.txt "$LOGS/alone.txt"; do
    echo "$(basename "$f"): $(grep -acE '^\[       OK \]' "$f") passed; $(grep -aE 'test suites? ran' "$f" || echo 'DID NOT FINISH')"
    # A test started and never ended: the one running when the limit struck.
    grep -qE 'test suites? ran' "$f" || echo "  running at the limit: $(grep -a '^\[ RUN      \]' "$f" | tail -1 | cut -c14-)"
    grep -aE '^\[  FAILED  \] [^0-9]' "$f" | sort -u | sed 's/^/  /'
    grep -a -A6 ': Failure$' "$f" | head -40 | sed 's/^/    /'
  done
} | tee "$OUT/summary.txt"
