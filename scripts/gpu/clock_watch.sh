#!/usr/bin/env bash
# clock_watch.sh — run THERE (the lent GPU machine, repository root, .gpu/ carried): the SM clock,
# power and throttle reasons nvidia-smi reports every 50 ms while the same dmma PTX runs through
# OpenCL (force_probe) and then through the CUDA driver (ptx_profile), at $SIZE³, to tell a
# launch difference from a clock one. Leaves clocks.csv and the two runs' lines under $OUT.
#   OUT=/tmp/clk SIZE=8192 bash scripts/gpu/clock_watch.sh
set -uo pipefail
OUT=${OUT:-/tmp/clgemm-clocks}
SIZE=${SIZE:-8192}
REPS=${REPS:-60}
mkdir -p "$OUT" /etc/OpenCL/vendors
echo libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
[ -d .gpu/lib ] || tar -C .gpu -xJf .gpu/lib.tar.xz
export CLGEMM_DEVICE=${CLGEMM_DEVICE:-NVIDIA}
BIN=$PWD/.gpu/bin
cache=$(mktemp -d)
cl=(env LD_LIBRARY_PATH="$PWD/.gpu/lib" CLGEMM_CACHE_DIR="$cache")
"${cl[@]}" $BIN/clgemm bench --impl clgemm --precision f64 --sizes "$SIZE" --repeat 10 > "$OUT/bench.txt" 2>&1
entry=$(grep -l ".entry dmma" "$cache"/*.clbin | head -1)
opts=$("${cl[@]}" $BIN/clgemm plan --m "$SIZE" --n "$SIZE" --k "$SIZE" --precision f64 --json 2> /dev/null |
       python3 -c "import json,sys; print(json.load(sys.stdin)['commands'][-1]['options'])")
opt() { echo "$opts" | grep -o -- "-D$1=[0-9]*" | head -1 | cut -d= -f2; }
nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw,temperature.gpu,clocks_throttle_reasons.active \
  --format=csv -lms 50 > "$OUT/clocks.csv" 2>&1 &
watch=$!
sleep 1
echo "opencl start $(date +%T.%N)" > "$OUT/runs.txt"
FORCE_CONFIGS=auto "${cl[@]}" $BIN/force_probe f64 tensor "$SIZE" "$SIZE" "$SIZE" 2>&1 | tail -3 >> "$OUT/runs.txt"
echo "opencl end $(date +%T.%N)" >> "$OUT/runs.txt"
sleep 1
echo "cuda start $(date +%T.%N)" >> "$OUT/runs.txt"
PTX_DMMA="$(opt BM) $(opt BN) $(opt WM) $(opt WN)" PTX_A_MK=$(opt A_MK) PTX_B_NK=$(opt B_NK) \
  LD_LIBRARY_PATH=/usr/local/cuda/lib64 $BIN/ptx_profile "$entry" "$SIZE" "$SIZE" "$SIZE" "$REPS" >> "$OUT/runs.txt" 2>&1
echo "cuda end $(date +%T.%N)" >> "$OUT/runs.txt"
sleep 1
kill $watch
rm -rf "$cache"
cat "$OUT/runs.txt"
