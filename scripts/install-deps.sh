#!/usr/bin/env bash
# install-deps.sh — installs the Debian packages clgemm needs to build, test and benchmark.
# Idempotent: packages already present are skipped, so a second run does no network work.
set -euo pipefail

packages=(
  build-essential cmake pkg-config
  ccache                                                  # compile cache (CMakeLists.txt)
  opencl-headers ocl-icd-opencl-dev opencl-clhpp-headers  # OpenCL C API, ICD loader, C++ bindings
  pocl-opencl-icd                                         # the CPU OpenCL device (default without a GPU, CI)
  googletest libgtest-dev                                 # unit tests
  libcli11-dev nlohmann-json3-dev                         # CLI parsing, JSON output
  libopenblas-dev                                         # float64 reference and the CPU baseline
  libclblast-dev                                          # peer library in benchmarks; headers of libclgemm_clblast
  clblast-tests                                           # CLBlast's own GEMM tests, run on libclgemm_clblast
  gfortran                                                # a Fortran program calling the BLAS interposer
  oclgrind                                                # the kernels under a strict OpenCL simulator (ctest -L oclgrind)
  python3-numpy python3-pytest python3-hypothesis         # Debian's NumPy's tests under the BLAS interposer
  gnuplot-nox                                             # `clgemm bench --plot` (and its tests)
  python3-dev python3-venv                                # the Python package (scripts/python-env.sh)
  libopenmpi-dev openmpi-bin libscalapack-openmpi-dev     # clgemm::dist (MPI), its tests and ScaLAPACK peer
  clinfo
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all packages present"
  exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
echo "install-deps: installing ${missing[*]}"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
