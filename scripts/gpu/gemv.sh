#!/usr/bin/env bash
# gemv.sh — run THERE (the lent GPU machine, repository root, .gpu/ carried; see pack.sh): matrix
# times vector and short-side shapes, clgemm beside CLBlast and cuBLAS, once per transpose of A
# and B (row-major). Leaves each run's table under $OUT as gemv_<ab>.txt (ab: n or t for A and B).
#   OUT=/tmp/gemv bash scripts/gpu/gemv.sh
set -uo pipefail
OUT=${OUT:-/tmp/clgemm-gemv}
SHAPES=${SHAPES:-1x8192x8192,8192x1x8192,1x4096x4096,4096x1x4096,8x4096x4096,16x4096x4096,4096x8x4096,4096x16x4096}
mkdir -p "$OUT"
work=$(mktemp -d)
status=0
for ab in nn tn nt tt; do
  args="--transa ${ab:0:1} --transb ${ab:1:1}"
  OUT=$work IMPL=${IMPL:-clgemm,clblast,cublas} PRESETS="$SHAPES" REPEAT=${REPEAT:-20} WARMUP=${WARMUP:-3} \
    ARGS="$args" TAG=$ab bash scripts/gpu/bench.sh > "$work/log_$ab.txt" 2>&1 || status=1
  cp "$work"/bench_*_"$ab".txt "$OUT/gemv_$ab.txt" 2>/dev/null || { status=1; tail -5 "$work/log_$ab.txt"; }
  echo "=== A $([ ${ab:0:1} = t ] && echo transposed || echo as is), B $([ ${ab:1:1} = t ] && echo transposed || echo as is)"
  sed -n '/^clgemm against the fastest/,$p' "$OUT/gemv_$ab.txt"
done
exit $status
