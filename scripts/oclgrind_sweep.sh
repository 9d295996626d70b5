#!/usr/bin/env bash
# oclgrind_sweep.sh — clgemm's kernel families, grouped calls, block-sparse GEMM, the reduction and
# the ladder's eight rungs on small, ragged shapes under Oclgrind, an OpenCL 1.2 simulator that
# reports data races (--data-races), out-of-bounds accesses and API misuse (--check-api). The GEMM
# cases run through the public API (`clgemm plan --run`, `clgemm bench`); each case's tool checks
# its result against float64 and exits non-zero on a wrong one; the quantized GEMV and GEMM run in
# every GGUF format. Passes when every case runs right and Oclgrind reports nothing. Exits 77
# (CTest's skip) without Oclgrind.
#   bash scripts/oclgrind_sweep.sh build/clgemm [OUT_DIR]
set -uo pipefail
tool=$(realpath "$1")
out=${2:-$(mktemp -d)}
mkdir -p "$out"
command -v oclgrind > /dev/null || { echo "oclgrind not installed (Debian: oclgrind)"; exit 77; }
# One case per path and precision: odd sides, a batch of 3 where the path takes batches.
cases=(
  "--m 37 --n 29 --k 41 --path direct"
  "--m 37 --n 29 --k 41 --path packed"
  "--m 37 --n 9 --k 300 --path tall"
  "--m 5 --n 300 --k 170 --path wide"
  "--m 7 --n 9 --k 11 --batch 3 --path tiny"
  "--m 7 --n 9 --k 11 --batch 3 --path direct"
  "--m 37 --n 29 --k 41 --precision f64"
  "--m 37 --n 29 --k 41 --precision f16"
  "--m 37 --n 29 --k 41 --precision bf16 --c-type f32 --path packed"
)
status=0
for i in "${!cases[@]}"; do
  c=${cases[$i]}
  start=$SECONDS
  timeout 300 oclgrind --data-races --check-api "$tool" plan $c --run --repeat 1 --device Oclgrind \
    > "$out/case$i.txt" 2>&1
  rc=$?
  # Oclgrind's reports name the kind of error and where; none is expected.
  reports=$(grep -Ec "data race|Invalid (read|write)|out of bounds|exceeds|Uninitiali[sz]ed|divergence|Oclgrind - " "$out/case$i.txt")
  echo "$c: exit $rc, $reports Oclgrind reports, $((SECONDS - start)) s; $(grep -o 'relative error [0-9.e+-]*' "$out/case$i.txt")"
  if [ "$rc" -ne 0 ] || [ "$reports" -ne 0 ]; then
    status=1
    tail -20 "$out/case$i.txt" | sed 's/^/    /'
  fi
done
# Block-sparse GEMM (empty, partial and full tile maps, edges guarded) and the reduction (a length
# no multiple of the work-group), each checked against float64 by the tool, which exits non-zero
# on a wrong result.
# A grouped call of 5 problems with sides from 3 to 45 (the grouped kernel's work list) in f32,
# f64 and bf16 with float32 C, through `clgemm bench`, which exits non-zero on a wrong result.
grouped="bench --grouped random:5:3:45:7 --impl clgemm --repeat 10 --warmup 0 --precision"
# The quantized GEMV (3 rows) and tiled kernel (17 rows) in every format, checked by `clgemm
# bench --quant` and not timed (--time-limit): each run takes seconds in the simulator.
quant="bench --impl clgemm --warmup 0 --time-limit 0.001 --quant"
for c in "sparse --m 67 --n 45 --k 70 --tile 16 --density 0,0.3,1 --repeat 1" "reduce --n 100003 --repeat 1" \
         "$grouped f32" "$grouped f64" "$grouped bf16-f32" \
         "$quant q8_0 --sizes 3x21x64,17x5x64 --precision f32" "$quant q4_0 --sizes 3x21x64,17x5x64 --precision f16" \
         "$quant q4_k --sizes 3x21x256,17x5x256 --precision bf16-f32" \
         "$quant q6_k --sizes 3x21x256,17x5x256 --precision f32 --layout col"; do
  name=$(echo "$c" | awk '{print $1 "_" $NF}')
  case "$c" in *--quant*) name=quant_$(echo "$c" | sed 's/.*--quant \([a-z0-9_]*\).*/\1/') ;; esac
  start=$SECONDS
  timeout 300 oclgrind --data-races --check-api "$tool" $c --device Oclgrind > "$out/$name.txt" 2>&1
  rc=$?
  reports=$(grep -Ec "data race|Invalid (read|write)|out of bounds|exceeds|Uninitiali[sz]ed|divergence|Oclgrind - " "$out/$name.txt")
  echo "$c: exit $rc, $reports Oclgrind reports, $((SECONDS - start)) s"
  if [ "$rc" -ne 0 ] || [ "$reports" -ne 0 ]; then
    status=1
    tail -20 "$out/$name.txt" | sed 's/^/    /'
  fi
done
# The eight ladder rungs at 67×45×39 (the ladder pads to whole tiles and checks each rung against
# float64; it exits non-zero on a rung that fails). Oclgrind's 32 KiB of local memory is below
# what rungs 4 and 5 take by default on a GPU, so they run on their smaller defaults.
start=$SECONDS
timeout 600 oclgrind --data-races --check-api "$tool" ladder --m 67 --n 45 --k 39 --repeat 1 --device Oclgrind \
  > "$out/ladder.txt" 2>&1
rc=$?
reports=$(grep -Ec "data race|Invalid (read|write)|out of bounds|exceeds|Uninitiali[sz]ed|divergence|Oclgrind - " "$out/ladder.txt")
rungs=$(grep -Ec "^[1-8] [a-z-]+ .* ok " "$out/ladder.txt")
echo "ladder 67x45x39: exit $rc, $reports Oclgrind reports, $rungs of 8 rungs ok, $((SECONDS - start)) s"
if [ "$rc" -ne 0 ] || [ "$reports" -ne 0 ] || [ "$rungs" -ne 8 ]; then
  status=1
  grep -E "^[1-8] |exceeds|race|Invalid" "$out/ladder.txt" | head -20 | sed 's/^/    /'
fi
exit $status
