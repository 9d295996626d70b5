#!/usr/bin/env bash
# variants.sh — run THERE (the lent GPU machine, repository root, .gpu/ carried; see pack.sh):
# times kernel variants against cuBLAS in the same run, through `clgemm bench` once per variant
# and transpose pair. A variant is a line of VARIANTS: "NAME|BUILD_OPTIONS|OVERLAY|PACK", where
# BUILD_OPTIONS are appended to every kernel build ($CLGEMM_BUILD_OPTIONS, -D flags for macros
# that do not change a launch's shape), OVERLAY is a folder whose files replace those of
# src/kernels (CLGEMM_KERNEL_DIR), and PACK the folder of binaries (default .gpu; another build
# packed with PACK=... in pack.sh, such as a baseline). Leaves summary.txt under $OUT.
#   VARIANTS=variants.txt SHAPES=1x8192x8192 TRANS="nn nt" OUT=/tmp/v bash scripts/gpu/variants.sh
set -uo pipefail
OUT=${OUT:-/tmp/clgemm-variants}
VARIANTS=${VARIANTS:?a file of variants}
SHAPES=${SHAPES:-1x8192x8192,8192x1x8192}
TRANS=${TRANS:-nn tn nt tt}
mkdir -p "$OUT"
work=$(mktemp -d)
status=0
while IFS='|' read -r name options overlay pack; do
  case $name in "" | \#*) continue ;; esac
  kernels=""
  if [ -n "$overlay" ]; then
    kernels=$work/kernels_$name
    cp -r src/kernels "$kernels" && cp -r "$overlay"/. "$kernels"/
  fi
  for ab in $TRANS; do
    args="--transa ${ab:0:1} --transb ${ab:1:1}"
    GPU_DIR=${pack:-.gpu} CLGEMM_CACHE_DIR=$work/cache_$name CLGEMM_BUILD_OPTIONS="$options" CLGEMM_KERNEL_DIR="$kernels" \
      OUT=$work/$name IMPL=${IMPL:-clgemm,cublas} PRESETS="$SHAPES" REPEAT=${REPEAT:-20} WARMUP=${WARMUP:-3} \
      ARGS="$args" TAG=$ab bash scripts/gpu/bench.sh > "$work/log_${name}_$ab.txt" 2>&1 || status=1
    table=$(ls "$work/$name"/bench_*_"$ab".txt 2>/dev/null | grep -v _log | head -1)
    {
      echo "=== $name, A $([ ${ab:0:1} = t ] && echo transposed || echo as is), B $([ ${ab:1:1} = t ] && echo transposed || echo as is)"
      if [ -n "$table" ]; then sed -n '/^clgemm against the fastest/,$p' "$table"; else tail -5 "$work/log_${name}_$ab.txt"; fi
    } | tee -a "$OUT/summary.txt"
  done
done < "$VARIANTS"
exit $status
