#!/usr/bin/env bash
# big_tiles.sh — run THERE (the lent GPU machine, repository root, .gpu/ carried; see pack.sh): the
# wgmma kernel's tiles past 48 KiB of local memory and its warp-specialised schedule (WS), in one
# call. Steps ($STEPS, default all):
#   devices  `clgemm devices` (the static local limit measured there), with the probe's ptxas log
#   asm      `clgemm asm` of a WS configuration: registers, shared memory, setmaxnreg's warnings;
#            and the unpatched PTX of that kernel (tests/data's recorded PTX comes from here)
#   tests    the GPU tests of the tiles and of the wgmma path (guard zones, float64)
#   probe    every configuration forced through the API (scripts/gpu/force_probe.cpp), checked and
#            timed on squares, for f16, bf16, TF32, 3xTF32 (wgmma) and f64 (dmma); $PROBE_TYPES
#            picks them, $CONFIGS_F16 etc. override the lists
#   cublas   `clgemm bench` of the planner's choice beside cuBLAS on the same squares, for the
#            types in $BENCH_TYPES (default f16 bf16 tf32; 3xtf32 runs beside cuBLAS FP32, f64
#            beside cuBLAS DGEMM)
# Results (text) under $OUT. With CLGEMM_TENSOR_MAPS=1, so that TMA (and with it WS) runs.
#   OUT=/tmp/big bash scripts/gpu/big_tiles.sh
#   STEPS="probe cublas" SIZES="4096 8192" bash scripts/gpu/big_tiles.sh
set -uo pipefail
OUT=${OUT:-/tmp/clgemm-big-tiles}
STEPS=${STEPS:-devices asm tests probe cublas}
SIZES=${SIZES:-4096 8192}
mkdir -p "$OUT" /etc/OpenCL/vendors
echo libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
[ -d .gpu/lib ] || tar -C .gpu -xJf .gpu/lib.tar.xz
export LD_LIBRARY_PATH="$PWD/.gpu/lib:${LD_LIBRARY_PATH:-}"
export CLGEMM_DEVICE=${CLGEMM_DEVICE:-NVIDIA}
export CLGEMM_TENSOR_MAPS=1
export CLGEMM_CACHE_DIR=${CLGEMM_CACHE_DIR:-/tmp/clgemm-cache}
BIN=.gpu/bin
# The GPU tests: each wgmma configuration takes NVIDIA's compiler about 10 s, so the whole sweep
# (WgmmaTilesOnDevice.*) takes more than 400 s.
TEST_FILTER=${TEST_FILTER:-"WgmmaTilesOnDevice*:WgmmaOnDevice*:LocalLimits*:TensorMaps*"}
# The cublas step's shapes for f16 and bf16 (TF32: the squares alone).
BENCH_SIZES=${BENCH_SIZES:-"$(echo $SIZES | tr ' ' ',')"}
WS_CONFIG=${WS_CONFIG:-WS=1,BM=128,BN=256,WM=64,BK=64,STAGES=4,GROUP_M=16}
# f16 and bf16: BK counts 16-bit elements (64: rows of 128 bytes); TF32 takes the same bytes.
CONFIGS_F16=${CONFIGS_F16:-"auto;BM=128,BN=128,WM=64,BK=64,STAGES=4,TMA=1,GROUP_M=16;\
BM=128,BN=256,WM=64,BK=64,STAGES=3,TMA=1,GROUP_M=16;BM=128,BN=256,WM=64,BK=64,STAGES=4,TMA=1,GROUP_M=16;\
BM=256,BN=128,WM=128,BK=64,STAGES=4,TMA=1,GROUP_M=16;BM=192,BN=192,WM=64,BK=64,STAGES=4,TMA=1,GROUP_M=16;\
WS=1,BM=128,BN=256,WM=64,BK=64,STAGES=3,GROUP_M=16;WS=1,BM=128,BN=256,WM=64,BK=64,STAGES=4,GROUP_M=16;\
WS=1,BM=128,BN=256,WM=64,BK=64,STAGES=4,GROUP_M=8;WS=1,BM=128,BN=128,WM=64,BK=64,STAGES=6,GROUP_M=16;\
WS=1,BM=256,BN=128,WM=128,BK=64,STAGES=4,GROUP_M=16;WS=1,BM=192,BN=192,WM=64,BK=64,STAGES=4,GROUP_M=16;\
WS=1,BM=128,BN=192,WM=64,BK=64,STAGES=5,GROUP_M=16;WS=1,BM=256,BN=128,WM=64,BK=64,STAGES=3,GROUP_M=16"}
CONFIGS_BF16=${CONFIGS_BF16:-"auto;BM=128,BN=256,WM=64,BK=64,STAGES=4,TMA=1,GROUP_M=16;\
WS=1,BM=128,BN=256,WM=64,BK=64,STAGES=4,GROUP_M=16;WS=1,BM=192,BN=192,WM=64,BK=64,STAGES=4,GROUP_M=16;\
WS=1,BM=256,BN=128,WM=128,BK=64,STAGES=4,GROUP_M=16"}
CONFIGS_TF32=${CONFIGS_TF32:-"auto;BM=128,BN=256,WM=64,BK=64,STAGES=4,TMA=1;\
WS=1,BM=128,BN=256,WM=64,BK=64,STAGES=4;WS=1,BM=128,BN=256,WM=64,BK=64,STAGES=3;\
WS=1,BM=192,BN=192,WM=64,BK=64,STAGES=4;WS=1,BM=256,BN=128,WM=128,BK=64,STAGES=4;\
WS=1,BM=128,BN=128,WM=64,BK=64,STAGES=6"}
# 3xTF32 on wgmma (BK as for TF32: 64 is rows of 32 floats); its lo buffers of B come on top.
CONFIGS_3XTF32=${CONFIGS_3XTF32:-"auto;BM=64,BN=64,WM=64,BK=64,STAGES=4;BM=64,BN=64,WM=64,BK=64,STAGES=6;\
BM=128,BN=64,WM=64,BK=64,STAGES=4;BM=128,BN=64,WM=64,BK=64,STAGES=6;BM=64,BN=128,WM=64,BK=64,STAGES=4;\
BM=128,BN=128,WM=64,BK=64,STAGES=3;BM=128,BN=128,WM=64,BK=64,STAGES=4;BM=256,BN=64,WM=64,BK=64,STAGES=4;\
BM=64,BN=64,WM=64,BK=32,STAGES=8;BM=128,BN=64,WM=64,BK=64,STAGES=4,TMA=1"}
# f64 on the dmma kernel (mma.sync f64): forced parameters replace the rule, so each names MMA_K.
CONFIGS_F64=${CONFIGS_F64:-"auto;BM=128,BN=64,WM=32,WN=32,BK=8,STAGES=4,MMA_K=8;\
BM=128,BN=64,WM=32,WN=32,BK=16,STAGES=3,MMA_K=8;BM=128,BN=64,WM=32,WN=32,BK=16,STAGES=4,MMA_K=8;\
BM=128,BN=128,WM=64,WN=32,BK=8,STAGES=4,MMA_K=8;BM=128,BN=128,WM=64,WN=32,BK=16,STAGES=4,MMA_K=8;\
BM=128,BN=128,WM=64,WN=32,BK=16,STAGES=6,MMA_K=8;BM=128,BN=128,WM=32,WN=64,BK=16,STAGES=4,MMA_K=8;\
BM=128,BN=128,WM=32,WN=32,BK=16,STAGES=4,MMA_K=8;BM=128,BN=128,WM=64,WN=32,BK=16,STAGES=4,MMA_K=16;\
BM=128,BN=64,WM=32,WN=32,BK=16,STAGES=4,MMA_K=16;BM=64,BN=128,WM=32,WN=32,BK=16,STAGES=4,MMA_K=8;\
BM=128,BN=64,WM=64,WN=32,BK=16,STAGES=4,MMA_K=8"}
status=0
for step in $STEPS; do
  echo "=== $step"
  case $step in
    devices)
      CLGEMM_BUILD_LOG=$OUT/probe_log.txt $BIN/clgemm devices | tee "$OUT/devices.txt"
      grep -a -A3 "static local probe" "$OUT/probe_log.txt" | head -8 ;;
    asm)
      timeout 120 $BIN/clgemm asm --m 8192 --n 8192 --k 8192 --precision f16 --c-type f32 --path wgmma \
        --set "$WS_CONFIG" --ptx "$OUT/ws_patched.ptx" > "$OUT/asm.txt" 2>&1
      cat "$OUT/asm.txt"
      opts=$($BIN/clgemm plan --m 4096 --n 4096 --k 4096 --precision f16 --c-type f32 --path wgmma --set "$WS_CONFIG" \
               --json 2> /dev/null | python3 -c "import json,sys; print(json.load(sys.stdin)['commands'][-1]['options'])")
      echo "options: $opts"
      WGMMA_DUMP_PTX="$OUT/ws_f16.ptx" WGMMA_DUMP_OPTIONS="$opts" WGMMA_DUMP_ONLY=1 timeout 120 $BIN/wgmma_check ;;
    tests)
      timeout "${TEST_TIMEOUT:-400}" $BIN/clgemm_tests --gtest_brief=1 --gtest_filter="$TEST_FILTER" > "$OUT/tests.txt" 2>&1
      rc=$?
      grep -aE "PASSED|FAILED|Failure|tests ran" "$OUT/tests.txt" | head -30
      (exit $rc) ;;
    probe)
      # $PROBE_TYPES: which of f16, bf16, tf32, 3xtf32 and f64 (default the first three), each on $SIZES.
      for t in ${PROBE_TYPES:-f16 bf16 tf32}; do
        path=wgmma
        case $t in
          f16) c=$CONFIGS_F16 ;; bf16) c=$CONFIGS_BF16 ;; tf32) c=$CONFIGS_TF32 ;; 3xtf32) c=$CONFIGS_3XTF32 ;;
          f64) c=$CONFIGS_F64 path=tensor ;; *) echo "unknown probe type $t"; false; continue ;;
        esac
        FORCE_CONFIGS="$c" timeout "${PROBE_TIMEOUT:-300}" $BIN/force_probe "$t" $path $SIZES | tee -a "$OUT/probe_$t.txt"
      done ;;
    cublas)
      # One `clgemm bench` run: its tag, then bench.sh's variables; its full table comes back as
      # $OUT/table_TAG.txt (the rest of its files are left in $OUT/bench-files).
      bench() {
        local tag=$1
        shift
        env OUT="$OUT/bench-files" TAG="$tag" REPEAT=10 "$@" bash .gpu/bench.sh > "$OUT/bench-files/log_$tag.txt" 2>&1
        local table
        table=$(grep -ao "full table: [^)]*" "$OUT/bench-files/log_$tag.txt" | tail -1 | sed 's/full table: //')
        if [ -f "$table" ]; then cp "$table" "$OUT/table_$tag.txt"; else tail -20 "$OUT/bench-files/log_$tag.txt" > "$OUT/table_$tag.txt"; fi
        grep -a -E "^ *[0-9]+x" "$OUT/table_$tag.txt" | head -40
      }
      mkdir -p "$OUT/bench-files"
      squares=$(echo $SIZES | tr ' ' ',')
      for t in ${BENCH_TYPES:-f16 bf16 tf32}; do
        case $t in
          f16)
            bench f16 PRECISION=f16-f32 PRESETS="$BENCH_SIZES" IMPL=clgemm,cublas
            [ -n "${BT_SIZES:-}" ] && bench f16-bt PRECISION=f16-f32 PRESETS="$BT_SIZES" IMPL=clgemm,cublas ARGS="--transb t" ;;
          bf16) bench bf16 PRECISION=bf16-f32 PRESETS="${BF16_SIZES:-$BENCH_SIZES}" IMPL=clgemm,cublas ;;
          tf32) bench tf32 PRECISION=f32 PRESETS="${TF32_SIZES:-$squares}" IMPL=clgemm-tf32,cublas-tf32 ;;
          3xtf32) bench 3xtf32 PRECISION=f32 PRESETS="${TF32_SIZES:-$squares}" IMPL=clgemm-3xtf32,cublas ;;
          f64) bench f64 PRECISION=f64 PRESETS="${F64_SIZES:-$squares}" IMPL=clgemm,cublas ;;
          *) echo "unknown bench type $t"; false ;;
        esac
      done
      # Only the tables come back (a call returns at most 8 files).
      [ "${KEEP_BENCH_FILES:-0}" = 1 ] || rm -rf "$OUT/bench-files" ;;
    *) echo "unknown step $step"; false ;;
  esac
  [ $? -eq 0 ] || status=1
done
exit $status
