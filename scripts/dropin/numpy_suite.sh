#!/usr/bin/env bash
# numpy_suite.sh — NumPy's own tests of matmul, dot, einsum and numpy.linalg with libclgemm_blas
# preloaded and every GEMM forced onto OpenCL device 0 (CLGEMM_BLAS_DEVICE=0,
# CLGEMM_BLAS_MIN_FLOPS=0). Passes when pytest passes and the trace shows float and double GEMMs
# served on the device.
#   bash scripts/dropin/numpy_suite.sh PYTHON LIBCLGEMM_BLAS OUT_DIR
# PYTHON: the venv's (NumPy from PyPI, its bundled OpenBLAS) or Debian's /usr/bin/python3 (its
# python3-numpy on the system BLAS). Exits 77 (CTest's skip) where it lacks numpy, pytest or
# hypothesis.
set -uo pipefail
python=$1
lib=$(realpath "$2")
out=${3:-$(mktemp -d)}
mkdir -p "$out"
"$python" -c "import numpy, pytest, hypothesis" 2> /dev/null || { echo "$python lacks numpy, pytest or hypothesis"; exit 77; }
core=$("$python" -c "import numpy; print('numpy._core' if int(numpy.__version__.split('.')[0]) >= 2 else 'numpy.core')")
cd "$out"
# --capture=sys: the trace goes to file descriptor 2, which pytest's default capture would swallow.
run() {
  CLGEMM_TRACE=1 CLGEMM_BLAS_DEVICE=0 CLGEMM_BLAS_MIN_FLOPS=0 LD_PRELOAD="$lib" "$python" -m pytest -q \
    -p no:cacheprovider --capture=sys --pyargs "$@"
}
run numpy.linalg.tests.test_linalg "$core.tests.test_einsum" > pytest.txt 2> trace.txt
rc=$?
run "$core.tests.test_multiarray" -k "dot or matmul or Dot or MatMul or Matmul" >> pytest.txt 2>> trace.txt
rc=$((rc | $?))
grep -E "passed|failed" pytest.txt | tail -2
status=0
[ "$rc" -eq 0 ] || { echo "FAILED: pytest exited $rc (see $out/pytest.txt)"; status=1; }
grep ": device" trace.txt | awk '{print "  " $2 ": "}' | sort | uniq -c
for kind in sgemm dgemm; do
  grep -Eq "clgemm_blas: [a-z_]*${kind}[a-z0-9_]* .*: device" trace.txt || { echo "FAILED: no $kind on the device"; status=1; }
done
exit $status
