#!/usr/bin/env bash
# clblast_speed.sh — run THERE (the lent GPU machine, repository root, .gpu/ carried; see pack.sh):
# one program written for CLBlast's C API (clblast_timing) against the real CLBlast, then with
# libclgemm_clblast preloaded, so that the same binary's calls run on clgemm; S, D and H GEMMs on
# the first GPU. Leaves clblast_<P>.txt, clgemm_<P>.txt and the trace under $OUT.
#   OUT=/tmp/clblast bash scripts/gpu/clblast_speed.sh
set -uo pipefail
OUT=${OUT:-/tmp/clgemm-clblast}
SIZES=${SIZES:-"1024 2048 4096 8192"}
mkdir -p "$OUT"
. scripts/gpu/machine_setup.sh
status=0
for p in S D H; do
  timeout "${STEP_TIMEOUT:-120}" .gpu/bin/clblast_timing $p $SIZES | tee "$OUT/clblast_$p.txt" || status=1
  CLGEMM_TRACE=1 LD_PRELOAD="$PWD/.gpu/lib/libclgemm_clblast.so" timeout "${STEP_TIMEOUT:-120}" \
    .gpu/bin/clblast_timing $p $SIZES 2> "$OUT/trace_$p.txt" | tee "$OUT/clgemm_$p.txt" || status=1
  echo "$p: $(grep -c 'clgemm_clblast' "$OUT/trace_$p.txt") calls served by clgemm"
done
exit $status
