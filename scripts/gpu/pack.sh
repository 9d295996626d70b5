#!/usr/bin/env bash
# pack.sh — run HERE (the build machine): bundles the built binaries and the shared libraries the
# GPU machine lacks (OpenBLAS and its Fortran runtime, CLBlast) into .gpu/, which `device run`
# carries. The GPU machine has no package registry and no OpenCL headers, so nothing is built there.
# The cuBLAS plugin goes along, but not the CUDA libraries it loads: the GPU machine has its own
# (about 1 GB, and they must match its driver); scripts/gpu/bench.sh points the plugin at them.
set -euo pipefail
cd "$(dirname "$0")/../.."
BUILD=${BUILD:-build}
PACK=${PACK:-.gpu}  # bench.sh and run.sh expect .gpu; another name is for side-by-side packs
rm -rf "$PACK" && mkdir -p "$PACK/bin" "$PACK/lib"
cp "$BUILD/clgemm" "$PACK/bin/"
[ -f "$BUILD/tests/clgemm_tests" ] && cp "$BUILD/tests/clgemm_tests" "$PACK/bin/"
# The bench finds the plugin in ../lib from its own folder.
[ -f "$BUILD/libclgemm_cublas.so" ] && cp "$BUILD/libclgemm_cublas.so" "$PACK/lib/"
# Every library the binaries need except the C runtime, libstdc++ and the OpenCL loader, which the
# GPU machine has (and whose NVIDIA ICD must be the one loaded), and the CUDA libraries.
for bin in "$PACK"/bin/* "$PACK"/lib/*; do
  ldd "$bin" | awk '/=>/ && $3 ~ /^\// {print $3}' | while read -r lib; do
    case "$(basename "$lib")" in
      libc.so*|libm.so*|libgcc_s.so*|libstdc++.so*|libOpenCL.so*|ld-linux*|libpthread.so*|libdl.so*|librt.so*) ;;
      libcublas*|libcudart*|libcuda.so*|libnvidia*|libnvJitLink*) ;;
      *) [ -e "$PACK/lib/$(basename "$lib")" ] || cp -L "$lib" "$PACK/lib/" ;;
    esac
  done
done
# The batched probe (compare.sh) and the precision probe, against this build's library and CLBlast.
g++ -O2 -std=c++17 scripts/gpu/batched_probe.cpp -Iinclude -L"$BUILD" -lclgemm -lclblast -lOpenCL \
  -o "$PACK/bin/batched_probe"
g++ -O2 -std=c++17 scripts/gpu/precision_probe.cpp -Iinclude -L"$BUILD" -lclgemm -lclblast -lOpenCL \
  -o "$PACK/bin/precision_probe"
# The profiling probes (scripts/gpu/profile.sh), where the CUDA toolkit is here to build them.
if command -v nvcc > /dev/null; then
  nvcc -O2 scripts/gpu/ptx_profile.cpp -o "$PACK/bin/ptx_profile" -lcuda
  nvcc -O2 scripts/gpu/cublas_probe.cpp -o "$PACK/bin/cublas_probe" -lcublas
fi
cp scripts/gpu/run.sh scripts/gpu/bench.sh scripts/gpu/profile.sh scripts/gpu/compare.sh "$PACK/"
du -sh "$PACK"
ls "$PACK/bin" "$PACK/lib"
