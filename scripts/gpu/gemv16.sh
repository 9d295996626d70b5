#!/usr/bin/env bash
# gemv16.sh — run THERE (the lent GPU machine, repository root, .gpu/ carried; see pack.sh): 16-bit
# GEMV and short-side shapes on the wide kernel, in one call. Each configuration of $CONFIGS is
# forced through the API (force_probe, checked against float64, timed), for f16 and bf16 with
# float32 sums; then `clgemm bench` runs the planner's choice beside cuBLAS on the same shapes,
# row-major, A and B as stored (the wide kernel streams B). Leaves probe_<type>.txt and the bench
# tables under $OUT.
#   OUT=/tmp/gemv16 bash scripts/gpu/gemv16.sh
set -uo pipefail
OUT=${OUT:-/tmp/clgemm-gemv16}
# M×N×K: decode's GEMVs of a 4096-wide model with a 14336-wide MLP, and 8 rows of the same.
SHAPES=${SHAPES:-"1x4096x14336 1x14336x4096 1x4096x4096 8x4096x14336 4x14336x4096"}
CONFIGS=${CONFIGS:-"auto;LQ=2;LQ=2,KL=8;LQ=2,WL=32,KL=8;LQ=2,WL=128,KL=2;KL=8"}
TYPES=${TYPES:-f16 bf16}
mkdir -p "$OUT"
. scripts/gpu/machine_setup.sh
export CLGEMM_DEVICE=${CLGEMM_DEVICE:-NVIDIA}
BIN=.gpu/bin
status=0
probe_shapes=$(for s in $SHAPES; do echo -n "1x$s "; done)
for t in $TYPES; do
  echo "=== force_probe $t wide"
  FORCE_CONFIGS="$CONFIGS" timeout "${PROBE_TIMEOUT:-200}" $BIN/force_probe "$t" wide $probe_shapes |
    tee "$OUT/probe_$t.txt" || status=1
done
presets=$(echo $SHAPES | tr ' ' ',')
for t in $TYPES; do
  echo "=== clgemm bench $t-f32 beside cuBLAS"
  env OUT="$OUT" PRECISION="$t-f32" PRESETS="$presets" IMPL=clgemm,cublas REPEAT=20 WARMUP=3 TAG=gemv16 \
    bash .gpu/bench.sh 2>&1 | sed -n '/clgemm against/,$p' || status=1
done
exit $status
