#!/usr/bin/env bash
# moe_peers.sh — run THERE (the lent GPU machine, repository root, .gpu/ carried; see pack.sh): a
# mixture-of-experts layer's grouped call in bf16 on clgemm beside one cuBLAS call per expert
# (`clgemm bench`, checked against float64), then the same problems (from the bench's JSON)
# beside PyTorch's torch._grouped_mm and one torch.matmul per expert (torch_grouped.py).
#   OUT=/tmp/moe SPECS="moe:8:14336:4096 moe:64:14336:4096" bash scripts/gpu/moe_peers.sh
set -uo pipefail
OUT=${OUT:-/tmp/clgemm-moe}
SPECS=${SPECS:-moe:8:14336:4096 moe:64:14336:4096 moe:128:2048:7168}
mkdir -p "$OUT"
. scripts/gpu/machine_setup.sh
status=0
for spec in $SPECS; do
  env OUT="$OUT" GROUPED=1 PRECISION=bf16-f32 IMPL=clgemm,cublas-loop PRESETS="$spec" REPEAT=${REPEAT:-10} \
    WARMUP=${WARMUP:-2} bash .gpu/bench.sh | sed -n '/clgemm against/,$p' || status=1
  name=$(echo "$spec" | tr ':' '_')
  python3 scripts/gpu/torch_grouped.py "$OUT/bench_${name}_bf16-f32.json" | tee "$OUT/torch_${name}.txt" || status=1
done
exit $status
