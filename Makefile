# Makefile — thin wrapper over CMake: each target installs what is missing, configures and builds.
#   make bench   runs the ladder on the default device (first GPU, else PoCL's CPU device)
#   make test    runs the test suite (CTest: GoogleTest, pytest on the Python package, mpirun tests)
#   make sanitize  the suite again under AddressSanitizer and UndefinedBehaviorSanitizer, the C API
#                fuzzer for longer, and the concurrency tests under ThreadSanitizer (what CI adds)
BUILD ?= build
JOBS  ?= 2
# Compiles run on every core, at most 8 (each sanitizer-built file takes up to about 1 GB); the
# tests keep JOBS, since PoCL spreads each one over all cores already.
BUILD_JOBS ?= $(shell n=$$(nproc 2>/dev/null || echo 2); [ $$n -gt 8 ] && n=8; echo $$n)
ARGS  ?=

.PHONY: all deps configure build test bench sanitize clean

all: build

deps:
	bash scripts/install-deps.sh
	bash scripts/python-env.sh

configure: deps
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release -DCLGEMM_PYTHON=ON -DPython_EXECUTABLE=$(CURDIR)/.venv/bin/python

build: configure
	cmake --build $(BUILD) -j$(BUILD_JOBS)

test: build
	cd $(BUILD) && ctest --output-on-failure -j$(JOBS)

bench: build
	./$(BUILD)/clgemm ladder $(ARGS)

sanitize: deps
	bash scripts/sanitize.sh

clean:
	rm -rf $(BUILD) build-asan build-tsan
