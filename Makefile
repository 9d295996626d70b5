# Makefile — thin wrapper over CMake: each target installs what is missing, configures and builds.
#   make bench   runs the ladder on the default device (first GPU, else PoCL's CPU device)
#   make test    runs the test suite (CTest + GoogleTest)
BUILD ?= build
JOBS  ?= 2
ARGS  ?=

.PHONY: all deps configure build test bench clean

all: build

deps:
	bash scripts/install-deps.sh

configure: deps
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release

build: configure
	cmake --build $(BUILD) -j$(JOBS)

test: build
	cd $(BUILD) && ctest --output-on-failure -j$(JOBS)

bench: build
	./$(BUILD)/clgemm ladder $(ARGS)

clean:
	rm -rf $(BUILD)
