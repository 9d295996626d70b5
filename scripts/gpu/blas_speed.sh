#!/usr/bin/env bash
# blas_speed.sh — run THERE (the lent GPU machine, repository root, .gpu/ carried; see pack.sh):
# NumPy's matmul under libclgemm_blas (the model's choice, the first GPU) against NumPy's own BLAS
# on the host's cores, in the same process image and on the same inputs (scripts/gpu/blas_speed.py):
# the issue's large shapes, then a sweep from 64 to 16384 on which no size may run more than 5 %
# slower than the host BLAS alone. Leaves host_*.txt, clgemm_*.txt and the trace under $OUT.
#   OUT=/tmp/blas bash scripts/gpu/blas_speed.sh
set -uo pipefail
OUT=${OUT:-/tmp/clgemm-blas}
mkdir -p "$OUT"
. scripts/gpu/machine_setup.sh
lib=$PWD/.gpu/lib/libclgemm_blas.so
LARGE=${LARGE:-"8192x8192x8192 16384x16384x16384 4096x4096x65536"}
SWEEP=${SWEEP:-"64x64x64 128x128x128 256x256x256 512x512x512 1024x1024x1024 2048x2048x2048 4096x4096x4096"}  # with LARGE: 64 to 16384
status=0
for t in ${TYPES:-f32 f64}; do
  timeout "${HOST_TIMEOUT:-240}" python3 scripts/gpu/blas_speed.py $t $LARGE $SWEEP | tee "$OUT/host_$t.txt" || status=1
  # Timed without the trace, whose line per call costs microseconds; then traced on a few shapes,
  # for the rates and where each call ran.
  LD_PRELOAD="$lib" timeout "${DEVICE_TIMEOUT:-240}" python3 scripts/gpu/blas_speed.py $t $LARGE $SWEEP \
    | tee "$OUT/clgemm_$t.txt" || status=1
  CLGEMM_TRACE=1 LD_PRELOAD="$lib" timeout 60 python3 scripts/gpu/blas_speed.py $t ${TRACED:-512x512x512 1024x1024x1024 2048x2048x2048} \
    2> "$OUT/trace_$t.txt" > /dev/null
  grep "rates" "$OUT/trace_$t.txt"
done
# Side by side: clgemm_blas over the host BLAS, per shape; below 0.95 fails the sweep.
python3 - "$OUT" "${TYPES:-f32 f64}" <<'PY' || status=1
import re, sys
out, bad = sys.argv[1], 0
for t in sys.argv[2].split():
    rate = lambda f: {l.split(":")[0]: float(re.search(r"([0-9.]+) GFLOP/s", l).group(1)) for l in open(f"{out}/{f}_{t}.txt")}
    host, dev = rate("host"), rate("clgemm")
    for shape in host:
        r = dev.get(shape, 0) / host[shape]
        print(f"{shape}: host {host[shape]:.0f}, clgemm_blas {dev.get(shape, 0):.0f} GFLOP/s, {r:.2f}x")
        bad += r < 0.95
sys.exit(1 if bad else 0)
PY
exit $status
