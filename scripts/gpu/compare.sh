#!/usr/bin/env bash
# compare.sh — run THERE (the lent GPU machine, from the repository root, with .gpu/ carried): the
# current build (.gpu, pack.sh) against a baseline (.gpu/baseline, pack_baseline.sh) on the same
# card in one run, for a change that must not slow anything down:
#   - `clgemm bench --impl clgemm,cublas` on each of $PRESETS, the two builds taking turns
#     ($ROUNDS rounds), so that each ratio to cuBLAS comes from the same minutes of the card;
#   - strided-batched calls beside CLBlast (batched_probe, built by pack.sh), both builds;
#   - the first call of `clgemm plan --run` with an empty and with a filled program cache.
# Everything lands under $OUT: bench JSON and tables per build and round, batched.txt,
# latency.txt.
#   OUT=/tmp/out bash scripts/gpu/compare.sh
set -uo pipefail
OUT=${OUT:-/tmp/clgemm-out}
PRESETS=${PRESETS:-square odd-pairs}
MIN=${MIN:-1024}
MAX=${MAX:-8192}
ROUNDS=${ROUNDS:-2}
BATCHES=${BATCHES:-4096x32x32x32 1024x128x128x128 64x512x512x512}
mkdir -p "$OUT" /etc/OpenCL/vendors
echo libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export CLGEMM_DEVICE=${CLGEMM_DEVICE:-NVIDIA}
# cuBLAS for the plugin: the toolkit's libraries, else those of PyTorch's wheels (as bench.sh).
cublas_dir=$(ls -d /usr/local/cuda/lib64 2>/dev/null)
[ -e "$cublas_dir/libcublas.so.13" ] || cublas_dir=$(python3 -c "import glob,site,os; h=sorted(glob.glob(os.path.join(site.getsitepackages()[0],'nvidia','**','libcublas.so.13*'),recursive=True)); print(os.path.dirname(h[0]) if h else '')" 2>/dev/null)
export CLGEMM_CUBLAS_PLUGIN=$PWD/.gpu/lib/libclgemm_cublas.so
declare -A LIBS=([current]="$PWD/.gpu/lib" [baseline]="$PWD/.gpu/baseline/lib:$PWD/.gpu/lib")
declare -A TOOL=([current]=.gpu/bin/clgemm [baseline]=.gpu/baseline/bin/clgemm)
run_as() {  # run_as BUILD COMMAND...: with that build's library first on the path
  local build=$1; shift
  LD_LIBRARY_PATH="${LIBS[$build]}${cublas_dir:+:$cublas_dir}" "$@"
}
{ cat .gpu/baseline/commit.txt 2>/dev/null; nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv; } \
  | tee "$OUT/compare_setup.txt"
for round in $(seq 1 "$ROUNDS"); do
  for build in current baseline; do
    for preset in $PRESETS; do
      name=${preset}_${build}_$round
      echo "=== $name"
      run_as $build ${TOOL[$build]} bench --sizes "$preset" --min-size "$MIN" --max-size "$MAX" --impl clgemm,cublas \
        --save "$OUT/bench_$name.json" > "$OUT/bench_$name.txt" 2> "$OUT/bench_${name}_log.txt" || tail -3 "$OUT/bench_${name}_log.txt"
      sed -n '/^clgemm against the fastest/,$p' "$OUT/bench_$name.txt"
    done
  done
done
for build in current baseline; do
  echo "=== batched, $build" | tee -a "$OUT/batched.txt"
  run_as $build .gpu/bin/batched_probe $BATCHES 2>&1 | tee -a "$OUT/batched.txt"
done
for build in current baseline; do
  for s in 1000 4096; do
    dir=$(mktemp -d)
    for cache in empty filled; do
      echo "=== latency $build ${s}^3, program cache $cache" | tee -a "$OUT/latency.txt"
      CUDA_CACHE_DISABLE=1 CLGEMM_CACHE_DIR=$dir run_as $build ${TOOL[$build]} plan --m $s --n $s --k $s --run 2>&1 \
        | grep -E "first call" | tee -a "$OUT/latency.txt"
    done
  done
done
