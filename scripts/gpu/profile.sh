#!/usr/bin/env bash
# profile.sh — run THERE (the lent GPU machine, repository root, .gpu/ carried; pack.sh builds the
# two probes where nvcc exists): profiles clgemm's xgemm kernel for one shape beside cuBLAS with
# Nsight Compute, which sees CUDA launches only. `clgemm bench` builds the kernel into a fresh
# program cache; ptx_profile runs that entry's PTX through the CUDA driver (checked against
# float64) and cublas_probe runs cublasSgemm. Leaves under $OUT, for each of the two: the times,
# the stall reasons per issued instruction, and the per-instruction samples of the SASS.
#   SIZE=4096 OUT=/tmp/prof bash scripts/gpu/profile.sh
# Only unsplit builds of square shapes whose tiles divide the size (the probe builds no guards),
# on the tiles given by TILE="MWG NWG NDIMC MDIMC" (default: 128 128 16 16, the sm_90 large entry)
# and the vector widths VW="VWM VWN" (default: 4 4). PRECISION=f64 profiles the double kernel of a
# float64 call instead (without cuBLAS, whose DGEMM runs on the FP64 tensor cores). KERNEL=dmma
# profiles the f64 call's dmma kernel (the FP64 tensor cores) beside cuBLAS DGEMM, on the tiles
# and operand forms that `clgemm plan` names for it.
set -uo pipefail
OUT=${OUT:-/tmp/clgemm-prof}
SIZE=${SIZE:-4096}
TILE=${TILE:-128 128 16 16}
VW=${VW:-4 4}
KERNEL=${KERNEL:-xgemm}
PRECISION=${PRECISION:-f32}
[ "$KERNEL" = dmma ] && PRECISION=f64
export PTX_PRECISION=$PRECISION PTX_VWM=${VW% *} PTX_VWN=${VW#* }
mkdir -p "$OUT" /etc/OpenCL/vendors
echo libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export PATH="/usr/local/cuda/bin:$PATH"
BIN=$PWD/.gpu/bin
for tool in ncu "$BIN/ptx_profile" "$BIN/cublas_probe"; do
  command -v "$tool" > /dev/null || { echo "profile.sh: $tool is missing" >&2; exit 1; }
done
cache=$(mktemp -d)
LD_LIBRARY_PATH="$PWD/.gpu/lib" CLGEMM_DEVICE=${CLGEMM_DEVICE:-NVIDIA} CLGEMM_CACHE_DIR=$cache \
  "$BIN/clgemm" bench --impl clgemm --precision "$PRECISION" --sizes "$SIZE" --repeat 10 > "$OUT/bench.txt" 2>&1
entry=$(grep -l ".entry $KERNEL" "$cache"/*.clbin | head -1)
[ -n "$entry" ] || { echo "profile.sh: no $KERNEL entry in the cache (see $OUT/bench.txt)" >&2; exit 1; }
cp "$entry" "$OUT/$KERNEL.clbin"
who_all="$KERNEL cublas"
if [ "$KERNEL" = dmma ]; then
  # The planner's tiles and operand forms, which the probe must launch as the build expects.
  opts=$(LD_LIBRARY_PATH="$PWD/.gpu/lib" CLGEMM_DEVICE=${CLGEMM_DEVICE:-NVIDIA} "$BIN/clgemm" plan --m "$SIZE" \
           --n "$SIZE" --k "$SIZE" --precision f64 --json 2> /dev/null |
         python3 -c "import json,sys; print(json.load(sys.stdin)['commands'][-1]['options'])")
  echo "options: $opts" > "$OUT/options.txt"
  opt() { echo "$opts" | grep -o -- "-D$1=[0-9]*" | head -1 | cut -d= -f2; }
  export PTX_DMMA="$(opt BM) $(opt BN) $(opt WM) $(opt WN)" PTX_A_MK=$(opt A_MK) PTX_B_NK=$(opt B_NK)
  TILE=""
  export CUBLAS_PRECISION=f64
fi
export LD_LIBRARY_PATH=/usr/local/cuda/lib64
ours=("$BIN/ptx_profile" "$OUT/$KERNEL.clbin" "$SIZE" "$SIZE" "$SIZE")
cublas=("$BIN/cublas_probe" "$SIZE" "$SIZE" "$SIZE")
[ "$PRECISION" = f32 ] || [ "$KERNEL" = dmma ] || who_all=$KERNEL
{ "${ours[@]}" 20 $TILE; [ "$who_all" = "$KERNEL" ] || "${cublas[@]}" 20; } > "$OUT/times.txt" 2>&1
stalls="--metrics regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio,smsp__inst_executed.sum,sm__cycles_active.avg,smsp__issue_active.avg.pct_of_peak_sustained_active"
sections="--section LaunchStats --section Occupancy --section SpeedOfLight --section SchedulerStats --section ComputeWorkloadAnalysis --section WarpStateStats"
for who in $who_all; do
  if [ $who = cublas ]; then cmd=("${cublas[@]}" 3); else cmd=("${ours[@]}" 3 $TILE); fi
  # -s 2: skip two launches (the probe's checked run or first warm-up, and one more); -c 1: one kernel
  ncu $stalls -s 2 -c 1 "${cmd[@]}" > "$OUT/stalls_$who.txt" 2>&1
  ncu $sections -s 2 -c 1 "${cmd[@]}" > "$OUT/sections_$who.txt" 2>&1
  ncu --section SourceCounters --page source --print-source sass -s 2 -c 1 "${cmd[@]}" > "$OUT/sass_$who.txt" 2>&1
done
rm -rf "$cache"
cat "$OUT/times.txt"
