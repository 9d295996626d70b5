#!/usr/bin/env bash
# dist.sh — run THERE (a lent GPU machine, from the repository root, with .gpu/ carried): the
# distributed GEMM under mpirun, one rank per GPU. The machine has no MPI: pack.sh carries
# Debian's Open MPI and ScaLAPACK as .debs in .gpu/debs, unpacked here into a private root that
# Open MPI and PMIx are pointed at. Steps ($STEPS): tests (the CTest cases on the GPUs) and bench
# (clgemm dist-bench for each of $PRECISIONS at $SIZES, JSON under $OUT); probe checks MPI there.
#   RANKS=2 SIZES=16384,32768 bash .gpu/dist.sh
set -uo pipefail
OUT=${OUT:-/tmp/clgemm-out}
STEPS=${STEPS:-tests bench}
RANKS=${RANKS:-2}
SIZES=${SIZES:-16384,32768}
PRECISIONS=${PRECISIONS:-f32 f64}
PEER_MAX=${PEER_MAX:-16384}
EXTRA=${EXTRA:-}
mkdir -p "$OUT" /etc/OpenCL/vendors
echo libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd

[ -d .gpu/lib ] || tar -C .gpu -xJf .gpu/lib.tar.xz  # pack.sh with COMPRESS=1
ROOT=/tmp/clgemm-mpi
if [ ! -x "$ROOT/usr/bin/orterun" ]; then
  mkdir -p "$ROOT"
  for deb in .gpu/debs/*.deb; do dpkg -x "$deb" "$ROOT"; done
fi
lib=$ROOT/usr/lib/x86_64-linux-gnu
export OPAL_PREFIX=$ROOT/usr PMIX_INSTALL_PREFIX=$lib/pmix2
# Plugins from the private root only, never from a system MPI or PMIx of another version.
export OMPI_MCA_mca_base_component_path=$lib/openmpi/lib/openmpi3 PMIX_MCA_mca_base_component_path=$lib/pmix2/lib/pmix
export PMIX_MCA_pcompress_base_silence_warning=1
export PATH=$ROOT/usr/bin:$PATH
export LD_LIBRARY_PATH="$lib/openmpi/lib:$lib:$PWD/.gpu/lib:${LD_LIBRARY_PATH:-}"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# Each rank takes the GPU of its local rank; it needs all cores it can get for its host copies,
# so no binding. OpenBLAS (ScaLAPACK's peer run) shares the cores among the ranks.
cores=$(nproc)
export OPENBLAS_NUM_THREADS=$((cores / RANKS))
# Every mpirun ends within $LIMIT seconds, so that a hang costs a step, not the run.
LIMIT=${LIMIT:-300}
mpi() {
  local limit=$1
  shift
  timeout "$limit" orterun --bind-to none -x LD_LIBRARY_PATH -x OPAL_PREFIX -x PMIX_INSTALL_PREFIX -x OPENBLAS_NUM_THREADS \
    -x OMPI_MCA_mca_base_component_path -x PMIX_MCA_mca_base_component_path -x PMIX_MCA_pcompress_base_silence_warning "$@"
}
BIN=.gpu/bin
status=0
nvidia-smi --query-gpu=index,name,clocks.sm,temperature.gpu --format=csv | tee "$OUT/gpus.txt"
for step in $STEPS; do
  echo "=== $step"
  case $step in
    probe) ls /usr/lib/x86_64-linux-gnu | grep -i -E "mpi|pmix" | head; command -v mpirun orterun
           mpi 30 -np 2 hostname
           mpi 60 -np 2 $BIN/clgemm_dist_tests --grid 1x2 --errors 2>&1 | tail -3 ;;
    tests) for run in ${GRIDS:-1:1x1 2:1x2 2:2x1}; do  # ranks:grid
             set -- ${run/:/ }
             [ "$1" -le "$RANKS" ] || continue
             mpi $LIMIT -np "$1" $BIN/clgemm_dist_tests --grid "$2" 2>&1 | tail -3 | tee -a "$OUT/dist_tests.txt"
             [ "${PIPESTATUS[0]}" -eq 0 ] || status=1
           done
           mpi $LIMIT -np 2 $BIN/clgemm_dist_tests --grid 1x2 --errors 2>&1 | tail -2 | tee -a "$OUT/dist_tests.txt" ;;
    bench) for p in $PRECISIONS; do
             mpi $LIMIT -np "$RANKS" $BIN/clgemm dist-bench --precision "$p" --sizes "$SIZES" --peer-max-size "$PEER_MAX" \
               --json "$OUT/dist_$p.json" $EXTRA 2>&1 | tee "$OUT/dist_$p.txt"
             [ "${PIPESTATUS[0]}" -eq 0 ] || status=1
           done ;;
  esac
done
exit $status
