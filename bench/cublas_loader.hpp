// bench/cublas_loader.hpp — finds and loads libclgemm_cublas.so at run time (dlopen), so that
// clgemm's binaries start without any CUDA library and cuBLAS is just "not available" without it.
#pragma once

#include "bench/cuda/cublas_plugin.h"

#include <memory>
#include <string>
#include <vector>

namespace clgemm::bench {

// The plugin's entry points, resolved once. The library stays loaded until the process exits:
// unloading a CUDA runtime while its threads and atexit handlers live is not worth the risk.
struct CublasPlugin {
  std::string path;
  // The types of the functions cublas_plugin.h declares, so that the two cannot drift apart.
  decltype(&clgemm_cublas_abi) abi;
  decltype(&clgemm_cublas_open) open;
  decltype(&clgemm_cublas_device_name) device_name;
  decltype(&clgemm_cublas_version) version;
  decltype(&clgemm_cublas_prepare) prepare;
  decltype(&clgemm_cublas_batch) batch;
  decltype(&clgemm_cublas_grouped) grouped;
  decltype(&clgemm_cublas_reset_c) reset_c;
  decltype(&clgemm_cublas_run) run;
  decltype(&clgemm_cublas_read_c) read_c;
  decltype(&clgemm_cublas_release) release;
  decltype(&clgemm_cublas_close) close;
};

// A plugin path as it is checked and loaded: a name without a slash is a file in the working
// directory ("./" is put in front). dlopen() would search the library path for such a name, so
// the file checked and the file loaded could differ; a path is what CLGEMM_CUBLAS_PLUGIN means.
std::string plugin_path(const std::string& path);

// Where the plugin is looked for, in order: $CLGEMM_CUBLAS_PLUGIN alone when it is set (through
// plugin_path); else beside the executable, in ../lib from it (an installed or packed tree) and in
// its parent (the build tree, for the tests in build/tests).
std::vector<std::string> cublas_plugin_candidates();

// Loads the plugin from plugin_path(path); null with `reason` set when the file is missing, dlopen
// fails (libcublas not found, say), a symbol is missing or the ABI differs.
std::shared_ptr<const CublasPlugin> load_cublas_plugin(const std::string& path, std::string& reason);

// Loads the first candidate that exists (and keeps it for later calls); null with a reason when
// none does or the one found cannot be loaded. With CLGEMM_CUBLAS_PLUGIN set, the reason names the
// variable and its value and says to fix or unset it.
std::shared_ptr<const CublasPlugin> find_cublas_plugin(std::string& reason);

}  // namespace clgemm::bench
