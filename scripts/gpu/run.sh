#!/usr/bin/env bash
# run.sh — run THERE (the lent GPU machine, from the repository root, with .gpu/ carried; see
# pack.sh): registers the NVIDIA OpenCL driver, then runs the steps named in $STEPS and leaves
# logs and JSON under $OUT.
#   STEPS="ladder" SIZES="1024 4096" bash .gpu/run.sh
# Steps: devices tests ladder sparse reduce latency precision (default: all but precision).
set -uo pipefail
OUT=${OUT:-/tmp/clgemm-out}
STEPS=${STEPS:-devices tests ladder sparse reduce latency}
SIZES=${SIZES:-4096}
REPEAT=${REPEAT:-10}
mkdir -p "$OUT" /etc/OpenCL/vendors
# Only PoCL is registered on that image; the NVIDIA driver's ICD library is present but unlisted.
echo libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH="$PWD/.gpu/lib:${LD_LIBRARY_PATH:-}"
export CLGEMM_DEVICE=${CLGEMM_DEVICE:-NVIDIA}
BIN=.gpu/bin
status=0
for step in $STEPS; do
  echo "=== $step"
  case $step in
    devices) $BIN/clgemm devices | tee "$OUT/devices.txt"
             nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,temperature.gpu --format=csv ;;
    tests)   $BIN/clgemm_tests --gtest_brief=1 > "$OUT/tests.txt" 2>&1; rc=$?; tail -5 "$OUT/tests.txt"; (exit $rc) ;;
    ladder)  for s in $SIZES; do
               CLGEMM_BUILD_OPTIONS=-cl-nv-verbose CLGEMM_BUILD_LOG="$OUT/build_log.txt" \
                 $BIN/clgemm ladder --size "$s" --repeat "$REPEAT" --save "$OUT/ladder_$s.json" | tee "$OUT/ladder_$s.txt"
             done ;;
    sparse)  for s in $SIZES; do
               $BIN/clgemm sparse --size "$s" --density 0,0.1,0.25,0.5,1 --repeat "$REPEAT" | tee "$OUT/sparse_$s.txt"
             done ;;
    precision) # Every precision through clgemm's C API beside CLBlast's (precision_probe, pack.sh).
             $BIN/precision_probe ${PRECISION_SIZES:-4096x4096x4096 8192x8192x8192} | tee "$OUT/precision.txt" ;;
    reduce)  for n in 1000000 16777216 268435456; do $BIN/clgemm reduce --n $n --repeat 20; done | tee "$OUT/reduce.txt" ;;
    latency) # First call through the public API with an empty program cache (and the driver's own
             # cache off), then in a new process with the cache filled.
             for s in 1000 4096; do
               dir=$(mktemp -d)
               echo "-- $s^3 cold"; CUDA_CACHE_DISABLE=1 CLGEMM_CACHE_DIR=$dir $BIN/clgemm plan --m $s --n $s --k $s --run
               echo "-- $s^3 warm"; CUDA_CACHE_DISABLE=1 CLGEMM_CACHE_DIR=$dir $BIN/clgemm plan --m $s --n $s --k $s --run
             done 2>&1 | tee "$OUT/latency.txt" ;;
    *) echo "unknown step $step"; false ;;
  esac
  [ $? -eq 0 ] || status=1
done
exit $status
