#!/usr/bin/env bash
# jit_compare.sh — run THERE (the lent GPU machine, repository root, .gpu/ carried; see pack.sh):
# one kernel's PTX timed as OpenCL builds and launches it and as the CUDA driver does, in one
# call, for the f64 call's dmma kernel at $SIZE³. OpenCL: force_probe of the planner's choice
# under each of $CL_OPTIONS (`;`-separated build options, through $CLGEMM_BUILD_OPTIONS), each in
# a fresh program cache. CUDA: ptx_profile of the same PTX (the program-cache entry `clgemm bench`
# made) under each JIT optimisation level in $OPT_LEVELS and each carveout in $CARVEOUTS. cuBLAS
# DGEMM in the same call.
#   OUT=/tmp/jit SIZE=4096 bash scripts/gpu/jit_compare.sh
set -uo pipefail
OUT=${OUT:-/tmp/clgemm-jit}
SIZE=${SIZE:-4096}
CL_OPTIONS=${CL_OPTIONS:-";-cl-nv-opt-level=3;-cl-nv-opt-level=4;-cl-nv-opt-level=2"}
OPT_LEVELS=${OPT_LEVELS:-"default 4 3 2"}
CARVEOUTS=${CARVEOUTS:-"100 50"}
mkdir -p "$OUT" /etc/OpenCL/vendors
echo libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
[ -d .gpu/lib ] || tar -C .gpu -xJf .gpu/lib.tar.xz
export CLGEMM_DEVICE=${CLGEMM_DEVICE:-NVIDIA}
BIN=$PWD/.gpu/bin
cl=(env LD_LIBRARY_PATH="$PWD/.gpu/lib")  # the OpenCL side runs on the packed libraries
echo "=== OpenCL (force_probe, the planner's configuration)"
IFS=';' read -ra options <<< "$CL_OPTIONS"
for o in "${options[@]}" ""; do
  cache=$(mktemp -d)
  echo "--- options '$o'"
  CLGEMM_CACHE_DIR=$cache CLGEMM_BUILD_OPTIONS="$o" FORCE_CONFIGS=auto timeout 120 "${cl[@]}" $BIN/force_probe f64 tensor "$SIZE" 2>&1 | tail -1
  rm -rf "$cache"
done | tee "$OUT/opencl.txt"
echo "=== CUDA (ptx_profile, the same PTX)"
cache=$(mktemp -d)
CLGEMM_CACHE_DIR=$cache "${cl[@]}" $BIN/clgemm bench --impl clgemm --precision f64 --sizes "$SIZE" --repeat 10 > "$OUT/bench.txt" 2>&1
entry=$(grep -l ".entry dmma" "$cache"/*.clbin | head -1)
opts=$("${cl[@]}" $BIN/clgemm plan --m "$SIZE" --n "$SIZE" --k "$SIZE" --precision f64 --json 2> /dev/null |
       python3 -c "import json,sys; print(json.load(sys.stdin)['commands'][-1]['options'])")
opt() { echo "$opts" | grep -o -- "-D$1=[0-9]*" | head -1 | cut -d= -f2; }
export PTX_DMMA="$(opt BM) $(opt BN) $(opt WM) $(opt WN)" PTX_A_MK=$(opt A_MK) PTX_B_NK=$(opt B_NK)
export LD_LIBRARY_PATH=/usr/local/cuda/lib64
{
  for level in $OPT_LEVELS; do
    if [ "$level" = default ]; then unset PTX_OPT_LEVEL; else export PTX_OPT_LEVEL=$level; fi
    echo "--- JIT level $level"; $BIN/ptx_profile "$entry" "$SIZE" "$SIZE" "$SIZE" 20
  done
  unset PTX_OPT_LEVEL
  for c in $CARVEOUTS; do echo "--- carveout $c"; PTX_CARVEOUT=$c $BIN/ptx_profile "$entry" "$SIZE" "$SIZE" "$SIZE" 20; done
  echo "--- cuBLAS"; CUBLAS_PRECISION=f64 $BIN/cublas_probe "$SIZE" "$SIZE" "$SIZE" 20
} 2>&1 | tee "$OUT/cuda.txt"
rm -rf "$cache"
