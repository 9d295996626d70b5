#!/usr/bin/env bash
# clblast_own_tests.sh — CLBlast's own correctness programs for GEMM (Debian's clblast-tests:
# clblast_test_xgemm, _xgemmbatched, _xgemmstridedbatched) run with libclgemm_clblast preloaded, on
# the default OpenCL device. They check every layout, transpose, size, ld and offset against CBLAS,
# and CLBlast's status for bad arguments. Passes when every program reports 0 failed tests and the
# trace shows clgemm serving S, D and H calls of each form (the complex ones pass to CLBlast).
#   bash scripts/dropin/clblast_own_tests.sh build/libclgemm_clblast.so [OUT_DIR]
# Exits 77 (CTest's skip) where the programs are not installed.
set -uo pipefail
shim=$(realpath "$1")
out=${2:-$(mktemp -d)}
mkdir -p "$out"
status=0
for t in xgemm xgemmbatched xgemmstridedbatched; do
  program=$(command -v clblast_test_$t) || { echo "clblast_test_$t not installed (Debian: clblast-tests)"; exit 77; }
  start=$SECONDS
  # CLGEMM_CLBLAST_HALF=1: the programs ask CLBlast whether the device has half precision before
  # the H tests; the shim's half GEMMs need none (docs/drop-in.md).
  CLGEMM_TRACE=1 CLGEMM_CLBLAST_HALF=1 LD_PRELOAD="$shim" "$program" > "$out/$t.txt" 2> "$out/${t}_trace.txt"
  rc=$?
  report=$(sed 's/\x1b\[[0-9;]*m//g' "$out/$t.txt")
  summary=$(echo "$report" | grep -E "Starting tests for|test\(s\) (passed|skipped|failed)" | paste - - - - | \
            sed -E "s/\* Starting tests for the '([A-Z]+)' routine. Legend:/\1/")
  echo "clblast_test_$t ($((SECONDS - start)) s, exit $rc):"
  echo "$summary" | sed 's/^/  /'
  [ "$rc" -eq 0 ] || { echo "  FAILED: the program exited $rc"; status=1; }
  if echo "$report" | grep -E "^ +[0-9]+ test\(s\) failed" | grep -vq "^ *0 test"; then
    echo "  FAILED: some tests failed (see $out/$t.txt)"; status=1
  fi
  for p in S D C Z H; do
    echo "$summary" | grep -Eq "^${p}GEMM[A-Z]*[[:space:]]+[1-9][0-9]* test\(s\) passed" ||
      { echo "  FAILED: no ${p} test passed"; status=1; }
  done
  form=$(case $t in xgemm) echo gemm;; xgemmbatched) echo gemmBatched;; *) echo gemmStridedBatched;; esac)
  for p in S D H; do
    served=$(grep -c "clgemm_clblast: ${p}${form} .*: served by clgemm" "$out/${t}_trace.txt")
    echo "  ${p}${form}: $served calls served by clgemm"
    [ "$served" -gt 0 ] || { echo "  FAILED: no ${p}${form} call reached clgemm"; status=1; }
  done
done
exit $status
