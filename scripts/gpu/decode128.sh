#!/usr/bin/env bash
# decode128.sh — run THERE (the lent GPU machine, repository root, .gpu/ carried; see pack.sh):
# 65 to 256 rows of 16-bit activations against a model's weights, on the wgmma kernel, with the
# planner's choice beside the short-row tiles (64×64, four 64-deep stages) in 1, 2 and 4 parts and
# beside wider tiles (force_probe, checked against float64). Leaves probe_<type>.txt under $OUT.
#   OUT=/tmp/decode128 bash scripts/gpu/decode128.sh
set -uo pipefail
OUT=${OUT:-/tmp/clgemm-decode128}
SHAPES=${SHAPES:-"1x128x4096x4096 1x128x14336x4096 1x128x4096x14336 1x96x4096x14336 1x256x4096x14336"}
SHORT="BM=64,BN=64,WM=64,BK=64,STAGES=4"
CONFIGS=${CONFIGS:-"auto;$SHORT,SPLITS=1;$SHORT,SPLITS=2;$SHORT,SPLITS=4;BM=128,BN=64,WM=64,BK=64,STAGES=4,SPLITS=1;BM=128,BN=64,WM=64,BK=64,STAGES=4,SPLITS=2;BM=64,BN=128,WM=64,BK=64,STAGES=4,SPLITS=2;BM=128,BN=128,WM=64,BK=64,STAGES=4,SPLITS=2"}
TYPES=${TYPES:-bf16 f16}
mkdir -p "$OUT"
. scripts/gpu/machine_setup.sh
export CLGEMM_DEVICE=${CLGEMM_DEVICE:-NVIDIA}
status=0
for t in $TYPES; do
  echo "=== force_probe $t wgmma"
  FORCE_CONFIGS="$CONFIGS" timeout "${PROBE_TIMEOUT:-200}" .gpu/bin/force_probe "$t" wgmma $SHAPES |
    tee "$OUT/probe_$t.txt" || status=1
done
exit $status
