#!/usr/bin/env bash
# quant.sh — run THERE (the lent GPU machine, repository root, .gpu/ carried; see pack.sh): the
# quantized-weight tests on the NVIDIA device (not the CLI's, which need the build tree), then `clgemm bench --quant` for every format on the
# decode and prompt shapes of issue 58, beside clgemm's own dense GEMM and cuBLAS on the
# dequantized weights in the activations' type, every result checked against float64. Leaves
# tests.txt, bench_FORMAT.txt (the tables, with the device's copy bandwidth) and .json under $OUT.
#   OUT=/tmp/quant FORMATS="q4_0 q8_0" bash scripts/gpu/quant.sh
set -uo pipefail
OUT=${OUT:-/tmp/clgemm-quant}
FORMATS=${FORMATS:-q4_0 q8_0 q4_k q6_k}
PRECISION=${PRECISION:-bf16}
SIZES=${SIZES:-1x4096x4096,1x14336x4096,1x4096x14336,4x4096x14336,16x4096x14336,512x4096x4096,4096x4096x4096}
mkdir -p "$OUT"
. scripts/gpu/machine_setup.sh
export CLGEMM_DEVICE=${CLGEMM_DEVICE:-NVIDIA}
timeout "${TEST_TIMEOUT:-150}" .gpu/bin/clgemm_tests --gtest_filter='Formats/QuantGemmEveryFormat.*:Quant*-QuantBenchCli.*' \
  > "$OUT/tests.txt" 2>&1
grep -aE '^\[ +(OK|FAILED|PASSED) +\]|Failure' "$OUT/tests.txt" | tail -40
status=0
for f in $FORMATS; do
  timeout "${BENCH_TIMEOUT:-150}" .gpu/bin/clgemm bench --quant "$f" --precision "$PRECISION" --sizes "$SIZES" \
    --impl clgemm,clgemm-dense,cublas --repeat "${REPEAT:-20}" --seed 58 --save "$OUT/bench_$f.json" \
    > "$OUT/bench_$f.txt" 2>&1 || status=1
  sed -n '/copy bandwidth/p;/^shape /,/^$/p' "$OUT/bench_$f.txt"
done
exit $status
