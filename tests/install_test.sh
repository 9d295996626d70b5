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
echo "install test: find_package and pkg-config builds both ran"
