#!/usr/bin/env bash
# blas_checks.sh — libclgemm_blas under a C and a Fortran program (tests/dropin/blas_calls.c and
# .f90, linked to it first): every call forced onto OpenCL device 0 (CLGEMM_BLAS_DEVICE=0,
# CLGEMM_BLAS_MIN_FLOPS=0) and checked against the host BLAS, the trace showing each entry point
# served there; then with CLGEMM_BLAS=off, where every call must stay on the host; an invalid
# call, which the host BLAS reports (xerbla) with C untouched; blocks of C; the transfers through
# small pinned chunks and through none; and the model's rates, measured once and kept.
#   bash scripts/dropin/blas_checks.sh BLAS_CALLS_C [BLAS_CALLS_FORTRAN] OUT_DIR
set -uo pipefail
c_program=$1
fortran_program=${2:-}
out=${3:-$(mktemp -d)}
mkdir -p "$out"
status=0
fail() { echo "FAILED: $*"; status=1; }
device_env=(CLGEMM_TRACE=1 CLGEMM_BLAS_DEVICE=0 CLGEMM_BLAS_MIN_FLOPS=0)
env "${device_env[@]}" "$c_program" libopenblas.so.0 > "$out/c.txt" 2> "$out/c_trace.txt" || fail "the C program (device)"
cat "$out/c.txt"
for name in sgemm_ dgemm_ cblas_sgemm cblas_dgemm; do
  served=$(grep -c "clgemm_blas: $name .*: device" "$out/c_trace.txt")
  echo "  $name: $served calls on the device"
  [ "$served" -gt 0 ] || fail "no $name call reached the device"
done
cat "$out/c.txt" "$out/c_trace.txt" | grep -q "parameter number *8" || fail "the invalid lda was not reported by the host BLAS"
env CLGEMM_TRACE=1 CLGEMM_BLAS=off "$c_program" libopenblas.so.0 > "$out/c_off.txt" 2> "$out/c_off_trace.txt" ||
  fail "the C program (CLGEMM_BLAS=off)"
grep -q ": device" "$out/c_off_trace.txt" && fail "CLGEMM_BLAS=off still used the device"
echo "  CLGEMM_BLAS=off: $(grep -c ': host' "$out/c_off_trace.txt") calls on the host, none on the device"
# Operands that do not fit at once run in blocks of C: a budget of 24 KB of device memory cuts
# the larger calls into many.
env "${device_env[@]}" CLGEMM_BLAS_TILE_BYTES=24000 "$c_program" libopenblas.so.0 > "$out/c_tiles.txt" \
  2> "$out/c_tiles_trace.txt" || fail "the C program (tiles)"
tiled=$(grep -c ": device .*, [0-9]* tiles" "$out/c_tiles_trace.txt")
echo "  in blocks (CLGEMM_BLAS_TILE_BYTES=24000): $tiled calls, $(tail -1 "$out/c_tiles.txt")"
[ "$tiled" -gt 0 ] || fail "no call ran in blocks"
# The transfers through pinned chunks of 1000 bytes (many chunks per operand, and chunks grown to
# one column where a column is larger), and straight from the caller's memory.
for pinned in 1000 0; do
  env "${device_env[@]}" CLGEMM_BLAS_PINNED=$pinned "$c_program" libopenblas.so.0 > "$out/c_pinned$pinned.txt" \
    2> "$out/c_pinned${pinned}_trace.txt" || fail "the C program (CLGEMM_BLAS_PINNED=$pinned)"
  way=$(grep -o "transfers [a-z' ]*" "$out/c_pinned${pinned}_trace.txt" | head -1)
  echo "  CLGEMM_BLAS_PINNED=$pinned ($way): $(tail -1 "$out/c_pinned$pinned.txt")"
  case $pinned in
    0) [ "$way" = "transfers from the caller's memory" ] || fail "CLGEMM_BLAS_PINNED=0 still pinned" ;;
    *) [ "$way" = "transfers through pinned memory" ] || fail "no pinned chunks with CLGEMM_BLAS_PINNED=$pinned" ;;
  esac
done
# A child made by fork() after the device was opened runs its calls on the host (the parent's
# OpenCL context does not come along): Debian's NumPy, where installed, checks the child's product.
lib=$(ldd "$c_program" | awk '/libclgemm_blas/ {print $3}')
if /usr/bin/python3 -c "import numpy" 2> /dev/null; then
  env "${device_env[@]}" LD_PRELOAD="$lib" timeout 120 /usr/bin/python3 - > "$out/fork.txt" 2> "$out/fork_trace.txt" <<'PY'
import os
import numpy as np
rng = np.random.default_rng(3)
a, b = rng.standard_normal((300, 200)), rng.standard_normal((200, 250))
c = a @ b
pid = os.fork()
if pid == 0:
    os._exit(0 if np.allclose(a @ b, c) and np.allclose(b.T @ a.T, c.T) else 3)
print("child exit", os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]))
PY
  echo "  after fork(): $(cat "$out/fork.txt"), $(grep -c 'gemm .*: device' "$out/fork_trace.txt") call(s) on the device, $(grep -c ': host' "$out/fork_trace.txt") on the host"
  grep -q "child exit 0" "$out/fork.txt" || fail "the child of fork() did not compute right"
  [ "$(grep -c ': host' "$out/fork_trace.txt")" -ge 2 ] || fail "the child's calls did not stay on the host"
fi
# The model's own choice (no GPU in CI: the host; on a GPU machine, the device where it pays): right
# either way.
env CLGEMM_TRACE=1 "$c_program" libopenblas.so.0 > "$out/c_model.txt" 2> "$out/c_model_trace.txt" ||
  fail "the C program (the model's choice)"
echo "  the model's choice: $(grep -c ': device' "$out/c_model_trace.txt") calls on the device, $(grep -c ': host' "$out/c_model_trace.txt") on the host"
# The model on a device asked for by name: its rates are measured once and kept on disk, and the
# second run reads them back.
cache=$(mktemp -d)
for run in 1 2; do
  env CLGEMM_TRACE=1 CLGEMM_BLAS_DEVICE=0 CLGEMM_CACHE_DIR="$cache" "$c_program" libopenblas.so.0 \
    > "$out/c_rates$run.txt" 2> "$out/c_rates${run}_trace.txt" || fail "the C program (the model, run $run)"
done
grep -h "rates" "$out/c_rates1_trace.txt" | sed 's/^/  /'
grep -q "f64 rates: host" "$out/c_rates1_trace.txt" || fail "the first run measured no rates"
grep -q "rates for .* from $cache" "$out/c_rates2_trace.txt" || fail "the second run did not read the kept rates"
rm -rf "$cache"
if [ -n "$fortran_program" ]; then
  env "${device_env[@]}" "$fortran_program" > "$out/f.txt" 2> "$out/f_trace.txt" || fail "the Fortran program"
  cat "$out/f.txt"
  for name in sgemm_ dgemm_; do
    served=$(grep -c "clgemm_blas: $name .*: device" "$out/f_trace.txt")
    echo "  Fortran $name: $served calls on the device"
    [ "$served" -gt 0 ] || fail "no Fortran $name call reached the device"
  done
fi
exit $status
