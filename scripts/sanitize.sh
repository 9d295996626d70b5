#!/usr/bin/env bash
# sanitize.sh — what CI runs after `make test`: the suite under AddressSanitizer and
# UndefinedBehaviorSanitizer (leaks included, with the OpenCL runtimes' own suppressed by
# tests/sanitizers/lsan.supp), the C API fuzzer for $FUZZ_SECONDS, and the tests of concurrent
# calls under ThreadSanitizer. Each build has a folder of its own (build-asan, build-tsan).
set -euo pipefail
cd "$(dirname "$0")/.."
JOBS=${JOBS:-2}
# Compiles on every core, at most 8 (see the Makefile); the tests keep JOBS.
BUILD_JOBS=${BUILD_JOBS:-$(n=$(nproc 2>/dev/null || echo 2); [ "$n" -gt 8 ] && n=8; echo "$n")}
FUZZ_SECONDS=${FUZZ_SECONDS:-60}
# The tests that run calls from several threads at once (tests/CMakeLists.txt builds their files
# as clgemm_concurrency_tests).
CONCURRENT='GemmThreads.*:ContextLifetime.*:*.ConcurrentWriters*:Warnings.*'

cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Release -DCLGEMM_SANITIZE=address,undefined
cmake --build build-asan -j"$BUILD_JOBS"
# The installation test builds the examples without sanitizers, which cannot link a library built
# with them; CLBlast's own test programs are not built with them, so a sanitized shim cannot be
# preloaded into them; and Oclgrind preloads its own runtime ahead of the sanitizers'. The plain
# build runs all three.
(
  cd build-asan
  # intercept_tls_get_addr=0: GCC 12's runtime records each dynamic TLS block it sees through
  # __tls_get_addr, and takes a block that starts 16 bytes past a page boundary for one with a
  # glibc 2.19 header in front, reading its extent from there. glibc 2.36 has no such header, so
  # by chance of the heap's layout LeakSanitizer scans a range of garbage at exit and its tracer
  # dies with signal 11 ("LeakSanitizer has encountered a fatal error"), after the test passed.
  # Without the interception, the dynamic TLS of the libraries the OpenCL loader opens is not
  # scanned; clgemm's own thread_local state lives in static TLS, which still is.
  export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:strict_string_checks=1:intercept_tls_get_addr=0
  export LSAN_OPTIONS=suppressions=$PWD/../tests/sanitizers/lsan.supp:print_suppressions=0
  export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
  set +e
  CLGEMM_FUZZ_SECONDS=$FUZZ_SECONDS ctest --output-on-failure -j"$JOBS" -E "InstallAndBuildExamples|DropIn\.|Oclgrind\." 2>&1 |
    tee ctest-asan.log
  status=${PIPESTATUS[0]}
  set -e
  [ "$status" -eq 0 ] && exit 0
  # Should LeakSanitizer's tracer still die at a process's exit, that is the tool failing, not a
  # finding: where every failed test ended so, they run once more, and must pass then. A leak it
  # reports, or any other failure, fails as it is.
  failed=$(wc -l < Testing/Temporary/LastTestsFailed.log)
  crashed=$(grep -c "LeakSanitizer has encountered a fatal error" ctest-asan.log || true)
  if [ "$crashed" -lt "$failed" ]; then exit "$status"; fi
  echo "sanitize.sh: $failed test(s) ended in LeakSanitizer's own fatal error; running them once more"
  CLGEMM_FUZZ_SECONDS=$FUZZ_SECONDS ctest --output-on-failure --rerun-failed
)

cmake -S . -B build-tsan -DCMAKE_BUILD_TYPE=Release -DCLGEMM_SANITIZE=thread
cmake --build build-tsan -j"$BUILD_JOBS" --target clgemm_concurrency_tests
TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1 ./build-tsan/tests/clgemm_concurrency_tests --gtest_filter="$CONCURRENT"
