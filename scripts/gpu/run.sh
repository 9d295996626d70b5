#!/usr/bin/env bash
# run.sh — run THERE (the lent GPU machine, from the repository root, with .gpu/ carried):
# registers the NVIDIA OpenCL driver, then runs the steps named in $STEPS and leaves logs and JSON
# under $OUT. Steps: devices tests ladder sparse reduce (default: all).
#   STEPS="ladder" SIZE=4096 bash .gpu/run.sh
set -uo pipefail
OUT=${OUT:-/tmp/clgemm-out}
STEPS=${STEPS:-devices tests ladder sparse reduce}
SIZE=${SIZE:-4096}
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
    devices) $BIN/clgemm devices | tee "$OUT/devices.txt"; nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,temperature.gpu --format=csv ;;
    tests)   $BIN/clgemm_tests --gtest_brief=1 2>&1 | tee "$OUT/tests.txt" | tail -20 ;;
    ladder)  $BIN/clgemm ladder --size "$SIZE" --repeat "$REPEAT" --save "$OUT/ladder_$SIZE.json" | tee "$OUT/ladder_$SIZE.txt" ;;
    sparse)  $BIN/clgemm sparse --size "$SIZE" --density 0,0.1,0.25,0.5,1 --repeat "$REPEAT" | tee "$OUT/sparse_$SIZE.txt" ;;
    reduce)  for n in 1000000 16777216 268435456; do $BIN/clgemm reduce --n $n --repeat 20; done | tee "$OUT/reduce.txt" ;;
    *) echo "unknown step $step"; status=1 ;;
  esac
  [ "${PIPESTATUS[0]}" -eq 0 ] || status=1
done
exit $status
