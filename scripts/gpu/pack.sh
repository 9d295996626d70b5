#!/usr/bin/env bash
# pack.sh — run HERE (the build machine): bundles the built binaries and the shared libraries the
# GPU machine lacks (OpenBLAS and its Fortran runtime) into .gpu/, which `device run` carries.
# The GPU machine has no package registry and no OpenCL headers, so nothing is built there.
set -euo pipefail
cd "$(dirname "$0")/../.."
BUILD=${BUILD:-build}
rm -rf .gpu && mkdir -p .gpu/bin .gpu/lib
cp "$BUILD/clgemm" .gpu/bin/
[ -f "$BUILD/tests/clgemm_tests" ] && cp "$BUILD/tests/clgemm_tests" .gpu/bin/
# Every library the binaries need except the C runtime, libstdc++ and the OpenCL loader, which the
# GPU machine has (and whose NVIDIA ICD must be the one loaded).
for bin in .gpu/bin/*; do
  ldd "$bin" | awk '/=>/ {print $3}' | while read -r lib; do
    case "$(basename "$lib")" in
      libc.so*|libm.so*|libgcc_s.so*|libstdc++.so*|libOpenCL.so*|ld-linux*|libpthread.so*|libdl.so*) ;;
      *) cp -L "$lib" .gpu/lib/ ;;
    esac
  done
done
cp scripts/gpu/run.sh .gpu/
du -sh .gpu
ls .gpu/bin .gpu/lib
