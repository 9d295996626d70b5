#!/usr/bin/env bash
# clblast_link_in_place.sh — a program of CLBlast's C and C++ APIs linked to libclgemm_clblast
# in place of libclblast (tests/dropin/clblast_routines.cpp), run on the default OpenCL device:
#   1. with the real CLBlast installed: GEMMs served by clgemm (the trace says so), AXPY, SCAL,
#      NRM2 and a complex GEMM passed on to CLBlast, every result checked;
#   2. with $CLGEMM_CLBLAST_LIBRARY naming no file: those routines return kNotImplemented, the
#      GEMMs are still served;
#   3. CLBlast's own AXPY test program with the shim preloaded, its C++ calls passed on.
#   bash scripts/dropin/clblast_link_in_place.sh build/tests/clblast_routines [OUT_DIR]
set -uo pipefail
program=$1
out=${2:-$(mktemp -d)}
mkdir -p "$out"
status=0
if readelf -d "$program" | grep -q "NEEDED.*libclblast"; then
  echo "FAILED: $program needs libclblast; it must link the shim alone"; exit 1
fi
shim=$(ldd "$program" | awk '/libclgemm_clblast/ {print $3}')
echo "1. linked to $shim, the real CLBlast behind it"
CLGEMM_TRACE=1 "$program" 2> "$out/trace.txt" || status=1
served=$(grep -c "served by clgemm" "$out/trace.txt")
echo "   $served calls served by clgemm"
[ "$served" -eq 2 ] || { echo "FAILED: the two GEMMs should be clgemm's"; cat "$out/trace.txt"; status=1; }
echo "2. no real CLBlast (CLGEMM_CLBLAST_LIBRARY=/nonexistent)"
CLGEMM_CLBLAST_LIBRARY=/nonexistent/libclblast.so "$program" missing || status=1
if program3=$(command -v clblast_test_xaxpy); then
  echo "3. $program3 with the shim preloaded"
  LD_PRELOAD="$shim" "$program3" > "$out/xaxpy.txt" 2>&1 || { echo "FAILED: it exited $?"; status=1; }
  report=$(sed 's/\x1b\[[0-9;]*m//g' "$out/xaxpy.txt")
  echo "$report" | grep -E "test\(s\) (passed|failed)" | sed 's/^/  /'
  echo "$report" | grep -E "^ +[0-9]+ test\(s\) failed" | grep -vq "^ *0 test" && { echo "FAILED: see $out/xaxpy.txt"; status=1; }
  echo "$report" | grep -Eq "^ +[1-9][0-9]* test\(s\) passed" || { echo "FAILED: no test passed"; status=1; }
fi
exit $status
