#!/usr/bin/env bash
# jit_sass.sh — run THERE (the lent GPU machine, repository root, .gpu/ carried): the SASS that
# NVIDIA's OpenCL driver and its CUDA driver each make of the same dmma PTX (the f64 call at
# $SIZE³). Both drivers keep their builds in the CUDA compute cache; each run gets its own
# ($CUDA_CACHE_PATH), whose cubins cuobjdump disassembles. Leaves sass_opencl.txt, sass_cuda.txt,
# and their resource usage (cuobjdump -res-usage) and ELF attributes under $OUT.
#   OUT=/tmp/sass SIZE=4096 bash scripts/gpu/jit_sass.sh
set -uo pipefail
OUT=${OUT:-/tmp/clgemm-jit-sass}
SIZE=${SIZE:-4096}
mkdir -p "$OUT" /etc/OpenCL/vendors
echo libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
[ -d .gpu/lib ] || tar -C .gpu -xJf .gpu/lib.tar.xz
export CLGEMM_DEVICE=${CLGEMM_DEVICE:-NVIDIA} PATH="/usr/local/cuda/bin:$PATH"
BIN=$PWD/.gpu/bin
cache=$(mktemp -d) cc_cl=$(mktemp -d) cc_cuda=$(mktemp -d)
cl=(env LD_LIBRARY_PATH="$PWD/.gpu/lib" CLGEMM_CACHE_DIR="$cache")
CUDA_CACHE_PATH=$cc_cl FORCE_CONFIGS=auto "${cl[@]}" $BIN/force_probe f64 tensor "$SIZE" | tail -1 | tee "$OUT/times.txt"
entry=$(grep -l ".entry dmma" "$cache"/*.clbin | head -1)
opts=$("${cl[@]}" $BIN/clgemm plan --m "$SIZE" --n "$SIZE" --k "$SIZE" --precision f64 --json 2> /dev/null |
       python3 -c "import json,sys; print(json.load(sys.stdin)['commands'][-1]['options'])")
opt() { echo "$opts" | grep -o -- "-D$1=[0-9]*" | head -1 | cut -d= -f2; }
CUDA_CACHE_PATH=$cc_cuda PTX_DMMA="$(opt BM) $(opt BN) $(opt WM) $(opt WN)" PTX_A_MK=$(opt A_MK) PTX_B_NK=$(opt B_NK) \
  LD_LIBRARY_PATH=/usr/local/cuda/lib64 $BIN/ptx_profile "$entry" "$SIZE" "$SIZE" "$SIZE" 20 | tee -a "$OUT/times.txt"
# Each cache file holds one build after a header: cut from the ELF magic on, and keep the one
# with a dmma function.
for who in opencl cuda; do
  dir=$cc_cl; [ $who = cuda ] && dir=$cc_cuda
  for f in $(find "$dir" -type f ! -name index); do
    off=$(grep -obUaP "\x7fELF" "$f" | head -1 | cut -d: -f1)
    [ -n "$off" ] || continue
    tail -c +$((off + 1)) "$f" > /tmp/$who.cubin
    if cuobjdump -sass /tmp/$who.cubin 2> /dev/null | grep -q "Function : dmma"; then
      cuobjdump -sass /tmp/$who.cubin > "$OUT/sass_$who.txt" 2>&1
      { cuobjdump -res-usage /tmp/$who.cubin; cuobjdump -elf /tmp/$who.cubin | grep -aE "EIATTR|\.nv\.|flags|sm_" | head -80; } > "$OUT/elf_$who.txt" 2>&1
      break
    fi
  done
done
ls -la "$OUT"
rm -rf "$cache" "$cc_cl" "$cc_cuda"
