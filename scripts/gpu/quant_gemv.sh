#!/usr/bin/env bash
# quant_gemv.sh — run THERE (the lent GPU machine, repository root, .gpu/ carried; see pack.sh):
# the quantized GEMV's work sizes (CLGEMM_QUANT_GEMV: work-group, lanes per row of W, octets in
# flight per lane) swept on the decode shapes, each `clgemm bench --quant` run checked against
# float64, with cuBLAS bf16 on the dequantized weights once per format as the peer. Leaves one
# table per variant and format under $OUT, and prints the rows.
#   OUT=/tmp/qgemv VARIANTS="WG=128,LANES=32,UNROLL=1 WG=256,LANES=64,UNROLL=4" bash scripts/gpu/quant_gemv.sh
set -uo pipefail
OUT=${OUT:-/tmp/clgemm-qgemv}
FORMATS=${FORMATS:-q4_0 q8_0}
SIZES=${SIZES:-1x4096x4096,1x14336x4096,1x4096x14336,4x4096x14336,16x4096x14336}
VARIANTS=${VARIANTS:-WG=128,LANES=32,UNROLL=1 WG=128,LANES=32,UNROLL=4 WG=128,LANES=32,UNROLL=8 \
WG=256,LANES=64,UNROLL=4 WG=256,LANES=128,UNROLL=2 WG=256,LANES=256,UNROLL=2 WG=128,LANES=16,UNROLL=4}
mkdir -p "$OUT"
. scripts/gpu/machine_setup.sh
export CLGEMM_DEVICE=${CLGEMM_DEVICE:-NVIDIA}
for f in $FORMATS; do
  impl=clgemm,cublas
  for v in $VARIANTS; do
    name=$(echo "$v" | tr ",=" "__")
    CLGEMM_QUANT_GEMV=$v timeout "${BENCH_TIMEOUT:-90}" .gpu/bin/clgemm bench --quant "$f" --precision bf16 \
      --sizes "$SIZES" --impl "$impl" --repeat "${REPEAT:-20}" --seed 58 > "$OUT/${f}_$name.txt" 2>&1
    echo "== $f $v (rc $?)"
    grep -E "^[0-9]+x[0-9]+x[0-9]+ +(clgemm|cublas) " "$OUT/${f}_$name.txt"
    impl=clgemm  # cuBLAS once per format
  done
done
