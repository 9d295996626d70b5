#!/usr/bin/env bash
# install_test.sh — installs clgemm from the build folder into a temporary prefix, then builds the
# examples against it twice: with CMake's find_package(clgemm) and with pkg-config, and runs them.
set -euo pipefail
build=$1
src=$2
prefix=$(mktemp -d)
trap 'rm -rf "$prefix"' EXIT
cmake --install "$build" --prefix "$prefix" > /dev/null
cmake -S "$src/examples" -B "$prefix/examples-build" -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_BUILD_TYPE=Release > /dev/null
cmake --build "$prefix/examples-build" -j2 > /dev/null
export LD_LIBRARY_PATH="$prefix/lib:$prefix/lib64:${LD_LIBRARY_PATH:-}"
"$prefix/examples-build/sgemm_c"
"$prefix/examples-build/sgemm_cpp"
# pkg-config: the one-line build from the example's header comment.
export PKG_CONFIG_PATH="$prefix/lib/pkgconfig:$prefix/lib64/pkgconfig"
cc "$src/examples/sgemm.c" $(pkg-config --cflags --libs clgemm) -lm -o "$prefix/sgemm_pc"
"$prefix/sgemm_pc"
# The CLBlast-compatible library, linked in place of -lclblast both ways; its trace shows clgemm
# served the call.
if [ -e "$prefix/examples-build/clblast_sgemm" ]; then
  CLGEMM_TRACE=1 "$prefix/examples-build/clblast_sgemm" 2> "$prefix/trace.txt" | tee "$prefix/out.txt"
  grep -q "Sgemm row-major NN 130x67x45: served by clgemm" "$prefix/trace.txt"
  # Complex GEMMs pass to the real CLBlast where it is installed, else are CLBlastNotImplemented.
  if [ -e /usr/lib/x86_64-linux-gnu/libclblast.so.1 ] || ldconfig -p | grep -q "libclblast\.so\.1 "; then
    grep -q "CLBlastCgemm: status 0$" "$prefix/out.txt"
  fi
  CLGEMM_CLBLAST_LIBRARY=/nonexistent/libclblast.so "$prefix/examples-build/clblast_sgemm" | grep -q "CLBlastCgemm: status -1024$"
  cc "$src/examples/clblast_sgemm.c" $(pkg-config --cflags --libs clgemm-clblast OpenCL) -lm -o "$prefix/clblast_pc"
  CLGEMM_TRACE=1 "$prefix/clblast_pc" 2> "$prefix/trace_pc.txt"
  grep -q "served by clgemm" "$prefix/trace_pc.txt"
  ! ldd "$prefix/clblast_pc" | grep -q "libclblast\.so"
fi
echo "install test: find_package and pkg-config builds both ran"
