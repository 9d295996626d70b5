#!/usr/bin/env bash
# try.sh — run THERE (the lent GPU machine, repository root, .gpu/ carried; see pack.sh): checks
# and times given xgemm configurations on given shapes with `clgemm tune --try`, one JSON and one
# table per shape under $OUT.
#   SHAPES="4096x4096x4096 1024x1024x1024" CONFIGS=configs.txt OUT=/tmp/try bash scripts/gpu/try.sh
# CONFIGS: one configuration per line (NAME=V,NAME=V overrides of the defaults; "#" starts a
# comment); a line "@WxHxK" restricts the lines after it to that shape (until the next "@").
# PRECISION=f64 (f16, bf16) times them with operands of that type.
set -uo pipefail
OUT=${OUT:-/tmp/clgemm-try}
SHAPES=${SHAPES:-4096x4096x4096}
CONFIGS=${CONFIGS:?a file of configurations}
KERNEL=${KERNEL:-xgemm}
PRECISION=${PRECISION:-f32}
mkdir -p "$OUT" /etc/OpenCL/vendors
echo libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH="$PWD/.gpu/lib:${LD_LIBRARY_PATH:-}"
export CLGEMM_DEVICE=${CLGEMM_DEVICE:-NVIDIA}
export CLGEMM_BUILD_LOG=${CLGEMM_BUILD_LOG:-$OUT/build_log.txt}
for shape in $SHAPES; do
  args=()
  only=""
  while IFS= read -r line; do
    line=${line%%#*}
    line=${line//[[:space:]]/}
    case $line in
      "") continue ;;
      @*) only=${line#@}; continue ;;
    esac
    [ -z "$only" ] || [ "$only" = "$shape" ] || continue
    args+=(--try "$line")
  done < "$CONFIGS"
  [ ${#args[@]} -gt 0 ] || continue
  echo "=== $shape (${#args[@]} configurations)"
  .gpu/bin/clgemm tune --shape "$shape" --kernel "$KERNEL" --precision "$PRECISION" "${args[@]}" \
    --save "$OUT/try_${PRECISION}_$shape.json" |
    tee "$OUT/try_${PRECISION}_$shape.txt"
done
