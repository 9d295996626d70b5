#!/usr/bin/env bash
# bench.sh — run THERE (the lent GPU machine, from the repository root, with .gpu/ carried; see
# pack.sh): `clgemm bench` with every implementation (clgemm, the ladder rungs, CLBlast, cuBLAS FP32
# and TF32, OpenBLAS on the host, the CPU triple loop where it is quick) on the square, odd and
# skinny presets up to 8192, one run per preset, each leaving JSON, CSV, PNG and the table under
# $OUT. About 3-6 minutes on the H200 machine; the summary tables come last.
#   OUT=/tmp/out bash scripts/gpu/bench.sh            # all three presets
#   PRESETS="square" MAX=4096 bash scripts/gpu/bench.sh
#   PRESETS="2064x2064x2064,2048x2048x2064" bash scripts/gpu/bench.sh   # files named by a hash
#   PRECISION=f64 IMPL=clgemm,clblast,cublas PRESETS="4096,8192" bash scripts/gpu/bench.sh
#   GROUPED=1 PRECISION=f64 IMPL=clgemm,cublas PRESETS="random random:64:128:2048:3" bash scripts/gpu/bench.sh
set -uo pipefail
OUT=${OUT:-/tmp/clgemm-out}
PRESETS=${PRESETS:-square odd skinny}
MAX=${MAX:-8192}
IMPL=${IMPL:-clgemm,clblast,cublas,cublas-tf32,openblas,cpu-loop,ladder}
# 10 timed runs (the least `clgemm bench` accepts) after a checked run and a warm-up. Host OpenBLAS
# needs ~5 s per 8192^3 run there, so an implementation whose 10 runs would exceed TIME_LIMIT
# seconds is checked but not timed (the row says so) rather than eating the time budget.
REPEAT=${REPEAT:-10}
# Untimed runs after the checked one. Calls of 0.01-0.03 ms (129³ to 516³) move by 5-15 % between
# runs of the same code; docs/performance.md's small calls use WARMUP=5 REPEAT=50.
WARMUP=${WARMUP:-1}
TIME_LIMIT=${TIME_LIMIT:-15}
PRECISION=${PRECISION:-f32}  # clgemm bench --precision: f32, f64, f16, bf16, f16-f32, bf16-f32
# More options for clgemm bench (ARGS="--transa t --layout col"), and TAG, a word added to the
# files' names to tell such runs apart.
ARGS=${ARGS:-}
TAG=${TAG:-}
# GROUPED=1: each preset is a grouped call's problems (clgemm bench --grouped: random,
# random:COUNT:MIN:MAX[:SEED], moe, moe:EXPERTS:N:K[:ROWS[:SEED]] or @FILE) instead of sizes.
GROUPED=${GROUPED:-}
mkdir -p "$OUT" /etc/OpenCL/vendors
# Only PoCL is registered on that image; the NVIDIA driver's ICD library is present but unlisted.
echo libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export CLGEMM_DEVICE=${CLGEMM_DEVICE:-NVIDIA}

# libcublas.so.13 for the cuBLAS plugin (pack.sh does not carry the CUDA libraries): the toolkit's
# folder, else the one PyTorch's wheels bring (nvidia/cublas/lib or nvidia/cu13/lib).
cublas_dir=""
for d in /usr/local/cuda/lib64 /usr/local/cuda/lib /usr/local/cuda/targets/x86_64-linux/lib; do
  if [ -e "$d/libcublas.so.13" ]; then cublas_dir=$d; break; fi
done
if [ -z "$cublas_dir" ] && command -v python3 > /dev/null; then
  cublas_dir=$(python3 - <<'PY' 2>/dev/null
import glob, os, site
roots = list(site.getsitepackages()) + [site.getusersitepackages()]
for root in roots:
    hits = sorted(glob.glob(os.path.join(root, "nvidia", "**", "libcublas.so.13*"), recursive=True))
    if hits:
        print(os.path.dirname(hits[0]))
        break
PY
)
fi
if [ -n "$cublas_dir" ]; then
  echo "cuBLAS from $cublas_dir"
else
  echo "libcublas.so.13 not found: cublas rows will say 'not available'"
fi
GPU_DIR=${GPU_DIR:-.gpu}  # what pack.sh made (PACK=...)
export LD_LIBRARY_PATH="$PWD/$GPU_DIR/lib${cublas_dir:+:$cublas_dir}:${LD_LIBRARY_PATH:-}"
BIN=$GPU_DIR/bin

{ $BIN/clgemm devices; nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.sm,temperature.gpu --format=csv; } \
  2>&1 | tee "$OUT/bench_devices.txt"
status=0
# A preset's files are named after it; a list of shapes gets a short name instead (file names have
# a length limit), and commas become '_' (device run brings back no file with a comma in its name).
name_of() { if [ ${#1} -le 40 ]; then echo "$1" | tr ',:@/' '____'; else echo "list-$(echo "$1" | cksum | cut -d' ' -f1)"; fi; }
for preset in $PRESETS; do
  echo "=== $preset (up to $MAX)"
  name=$(name_of "$preset")$([ "$PRECISION" = f32 ] || echo "_$PRECISION")${TAG:+_$TAG}
  start=$SECONDS
  if [ -n "$GROUPED" ]; then what=(--grouped "$preset"); else what=(--sizes "$preset" --max-size "$MAX"); fi
  $BIN/clgemm bench "${what[@]}" --impl "$IMPL" --precision "$PRECISION" \
    --repeat "$REPEAT" --warmup "$WARMUP" --time-limit "$TIME_LIMIT" $ARGS \
    --save "$OUT/bench_$name.json" --csv "$OUT/bench_$name.csv" --plot "$OUT/bench_$name.png" \
    > "$OUT/bench_$name.txt" 2> >(tee "$OUT/bench_${name}_log.txt" >&2)
  rc=$?
  [ $rc -eq 0 ] || { status=1; echo "clgemm bench ($preset) exited with $rc:"; tail -5 "$OUT/bench_${name}_log.txt"; }
  echo "=== $preset took $((SECONDS - start)) s"
done
# The short tables last: clgemm against the best FP32 peer at every shape.
for preset in $PRESETS; do
  echo
  name=$(name_of "$preset")$([ "$PRECISION" = f32 ] || echo "_$PRECISION")${TAG:+_$TAG}
  echo "=== $preset: clgemm against the best peer (full table: $OUT/bench_$name.txt)"
  sed -n '/^clgemm against the fastest/,$p' "$OUT/bench_$name.txt"
done
exit $status
