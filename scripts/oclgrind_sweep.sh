#!/usr/bin/env bash
# oclgrind_sweep.sh — clgemm's kernel families on small, ragged shapes under Oclgrind, an OpenCL 1.2
# simulator that reports data races (--data-races), out-of-bounds accesses and API misuse
# (--check-api). Each case runs through the public API (`clgemm plan --run`), which checks its
# result against float64 and exits non-zero on a wrong one. Passes when every case runs right and
# Oclgrind reports nothing. Exits 77 (CTest's skip) without Oclgrind.
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
  reports=$(grep -Ec "data race|Invalid (read|write)|out of bounds|Uninitiali[sz]ed|divergence|Oclgrind - " "$out/case$i.txt")
  echo "$c: exit $rc, $reports Oclgrind reports, $((SECONDS - start)) s; $(grep -o 'relative error [0-9.e+-]*' "$out/case$i.txt")"
  if [ "$rc" -ne 0 ] || [ "$reports" -ne 0 ]; then
    status=1
    tail -20 "$out/case$i.txt" | sed 's/^/    /'
  fi
done
exit $status
