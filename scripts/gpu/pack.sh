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
# The distributed component, where it was built: its benchmark and tests, and Debian's Open MPI and
# ScaLAPACK as .debs (dist.sh unpacks them there), fetched here with apt-get download.
if [ -f "$BUILD/clgemm-dist-bench" ]; then
  cp "$BUILD/clgemm-dist-bench" "$BUILD/libclgemm_dist.so.0" "$PACK/bin/"
  [ -f "$BUILD/tests/clgemm_dist_tests" ] && cp "$BUILD/tests/clgemm_dist_tests" "$PACK/bin/"
  mkdir -p "$PACK/debs"
  (cd "$PACK/debs" && apt-get download -qq openmpi-bin openmpi-common libopenmpi3 libpmix2 libhwloc15 \
    libevent-core-2.1-7 libevent-pthreads-2.1-7 libfabric1 libucx0 libibverbs1 librdmacm1 libnl-3-200 \
    libnl-route-3-200 libnuma1 libpsm2-2 libpsm-infinipath1 libpciaccess0 libmunge2 libscalapack-openmpi2.2)
fi
# The drop-in libraries (scripts/gpu/blas_speed.sh preloads libclgemm_blas).
for lib in libclgemm_blas.so libclgemm_clblast.so; do [ -f "$BUILD/$lib" ] && cp "$BUILD/$lib" "$PACK/lib/"; done
# The bench finds the plugin in ../lib from its own folder.
[ -f "$BUILD/libclgemm_cublas.so" ] && cp "$BUILD/libclgemm_cublas.so" "$PACK/lib/"
# Every library the binaries need except the C runtime, libstdc++ and the OpenCL loader, which the
# GPU machine has (and whose NVIDIA ICD must be the one loaded), and the CUDA libraries.
for bin in "$PACK"/bin/* "$PACK"/lib/*; do
  ldd "$bin" | awk '/=>/ && $3 ~ /^\// {print $3}' | while read -r lib; do
    case "$(basename "$lib")" in
      libc.so*|libm.so*|libgcc_s.so*|libstdc++.so*|libOpenCL.so*|ld-linux*|libpthread.so*|libdl.so*|librt.so*) ;;
      libcublas*|libcudart*|libcuda.so*|libnvidia*|libnvJitLink*) ;;
      libmpi*|libopen-*|libpmix*|libhwloc*|libevent*|libscalapack*|libfabric*|libucx*|libuc[pst]*|libibverbs*) ;;
      librdmacm*|libnl-*|libnuma*|libpsm*|libpciaccess*|libmunge*) ;;  # from .gpu/debs
      *) [ -e "$PACK/lib/$(basename "$lib")" ] || cp -L "$lib" "$PACK/lib/" ;;
    esac
  done
done
# The batched probe (compare.sh) and the precision probe, against this build's library and CLBlast.
g++ -O2 -std=c++17 scripts/gpu/batched_probe.cpp -Iinclude -L"$BUILD" -lclgemm -lclblast -lOpenCL \
  -o "$PACK/bin/batched_probe"
g++ -O2 -std=c++17 scripts/gpu/precision_probe.cpp -Iinclude -L"$BUILD" -lclgemm -lclblast -lOpenCL \
  -o "$PACK/bin/precision_probe"
# A program written for CLBlast's C API, timed with and without libclgemm_clblast preloaded
# (clblast_speed.sh).
gcc -O2 scripts/gpu/clblast_timing.c -lclblast -lOpenCL -lm -o "$PACK/bin/clblast_timing"
# The host-copy probe: threaded copies and uploads from pinned, pageable and registered memory,
# which bound the distributed GEMM's host side (docs/distributed.md).
g++ -O2 -std=c++17 scripts/gpu/host_copy_probe.cpp -Iinclude -lOpenCL -lpthread -o "$PACK/bin/host_copy_probe"
# The wgmma kernel on its own, and the probe of TMA, mbarriers and clusters from OpenCL.
g++ -O2 -std=c++17 -DCL_TARGET_OPENCL_VERSION=300 -DCL_HPP_TARGET_OPENCL_VERSION=300 -DCL_HPP_MINIMUM_OPENCL_VERSION=110 \
  -DCL_HPP_ENABLE_EXCEPTIONS scripts/gpu/wgmma_check.cpp -Iinclude -Isrc -L"$BUILD" -lclgemm -lOpenCL \
  -o "$PACK/bin/wgmma_check"
# Configurations of one path's kernel forced through the API, on batches and squares.
g++ -O2 -std=c++17 -DCL_TARGET_OPENCL_VERSION=300 -DCL_HPP_TARGET_OPENCL_VERSION=300 -DCL_HPP_MINIMUM_OPENCL_VERSION=110 \
  -DCL_HPP_ENABLE_EXCEPTIONS scripts/gpu/force_probe.cpp -Iinclude -L"$BUILD" -lclgemm -lOpenCL -o "$PACK/bin/force_probe"
g++ -O2 -std=c++17 -DCL_TARGET_OPENCL_VERSION=300 scripts/gpu/sm_probe.cpp -Iinclude -lOpenCL -o "$PACK/bin/sm_probe"
g++ -O2 -std=c++17 -DCL_TARGET_OPENCL_VERSION=300 scripts/gpu/tma_probe.cpp -Iinclude -lOpenCL -ldl -o "$PACK/bin/tma_probe"
# The profiling probes (scripts/gpu/profile.sh), where the CUDA toolkit is here to build them.
if command -v nvcc > /dev/null; then
  nvcc -O2 scripts/gpu/ptx_profile.cpp -o "$PACK/bin/ptx_profile" -lcuda
  nvcc -O2 scripts/gpu/cublas_probe.cpp -o "$PACK/bin/cublas_probe" -lcublas
fi
cp scripts/gpu/run.sh scripts/gpu/bench.sh scripts/gpu/profile.sh scripts/gpu/compare.sh scripts/gpu/dist.sh "$PACK/"
# COMPRESS=1: the libraries as one .tar.xz (about a third of their size), for runs that carry more
# than the 64 MiB a run takes; dist.sh unpacks it there.
if [ "${COMPRESS:-0}" = 1 ]; then
  tar -C "$PACK" -cJf "$PACK/lib.tar.xz" lib && rm -rf "$PACK/lib"
fi
du -sh "$PACK"
ls "$PACK/bin" "$PACK/lib"
