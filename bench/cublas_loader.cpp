// bench/cublas_loader.cpp — locating and dlopen()ing the cuBLAS plugin.
#include "bench/cublas_loader.hpp"

#include <dlfcn.h>
#include <limits.h>
#include <unistd.h>

#include <cstdlib>
#include <map>
#include <mutex>
#include <sys/stat.h>

namespace clgemm::bench {

namespace {

const char* const kPluginName = "libclgemm_cublas.so";

std::string executable_dir() {
  char buf[PATH_MAX];
  const ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
  if (n <= 0) return ".";
  std::string path(buf, size_t(n));
  const auto slash = path.rfind('/');
  return slash == std::string::npos ? "." : path.substr(0, slash);
}

bool exists(const std::string& path) {
  struct stat st {};
  return stat(path.c_str(), &st) == 0;
}

template <typename F>
bool resolve(void* lib, const char* name, F& fn, std::string& missing) {
  fn = reinterpret_cast<F>(dlsym(lib, name));
  if (!fn) missing = name;
  return fn != nullptr;
}

// $CLGEMM_CUBLAS_PLUGIN, or empty when it is unset or empty.
std::string plugin_variable() {
  const char* env = std::getenv("CLGEMM_CUBLAS_PLUGIN");
  return env ? env : "";
}

}  // namespace

std::string plugin_path(const std::string& path) {
  return path.find('/') == std::string::npos ? "./" + path : path;
}

std::vector<std::string> cublas_plugin_candidates() {
  if (const std::string env = plugin_variable(); !env.empty()) return {plugin_path(env)};
  const std::string dir = executable_dir();
  return {dir + "/" + kPluginName, dir + "/../lib/" + kPluginName, dir + "/../" + kPluginName};
}

std::shared_ptr<const CublasPlugin> load_cublas_plugin(const std::string& given, std::string& reason) {
  const std::string path = plugin_path(given);
  if (!exists(path)) {
    reason = "no cuBLAS plugin at " + path;
    return nullptr;
  }
  // RTLD_LOCAL keeps the CUDA runtime's symbols out of the global namespace.
  void* lib = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    const char* e = dlerror();
    reason = "cannot load " + path + ": " + (e ? e : "unknown dlopen error") +
             " (is libcublas on LD_LIBRARY_PATH?)";
    return nullptr;
  }
  auto p = std::make_shared<CublasPlugin>();
  p->path = path;
  std::string missing;
  const bool ok = resolve(lib, "clgemm_cublas_abi", p->abi, missing) &&
                  resolve(lib, "clgemm_cublas_open", p->open, missing) &&
                  resolve(lib, "clgemm_cublas_device_name", p->device_name, missing) &&
                  resolve(lib, "clgemm_cublas_version", p->version, missing) &&
                  resolve(lib, "clgemm_cublas_prepare", p->prepare, missing) &&
                  resolve(lib, "clgemm_cublas_batch", p->batch, missing) &&
                  resolve(lib, "clgemm_cublas_grouped", p->grouped, missing) &&
                  resolve(lib, "clgemm_cublas_reset_c", p->reset_c, missing) &&
                  resolve(lib, "clgemm_cublas_run", p->run, missing) &&
                  resolve(lib, "clgemm_cublas_read_c", p->read_c, missing) &&
                  resolve(lib, "clgemm_cublas_release", p->release, missing) &&
                  resolve(lib, "clgemm_cublas_close", p->close, missing);
  if (!ok) {
    reason = path + " is not a clgemm cuBLAS plugin (no symbol " + missing + ")";
    return nullptr;
  }
  if (p->abi() != CLGEMM_CUBLAS_PLUGIN_ABI) {
    reason = path + " has plugin ABI " + std::to_string(p->abi()) + ", this clgemm expects " +
             std::to_string(CLGEMM_CUBLAS_PLUGIN_ABI) + " (rebuild it with this clgemm)";
    return nullptr;
  }
  return p;
}

std::shared_ptr<const CublasPlugin> find_cublas_plugin(std::string& reason) {
  // Loaded once per file: the search below is repeated per call (the variable may have changed),
  // the dlopen is not.
  static std::mutex mutex;
  static std::map<std::string, std::shared_ptr<const CublasPlugin>> loaded_from;
  std::lock_guard<std::mutex> lock(mutex);
  const auto load = [&](const std::string& path) {
    auto& slot = loaded_from[path];
    if (!slot) slot = load_cublas_plugin(path, reason);
    return slot;
  };
  if (const std::string env = plugin_variable(); !env.empty()) {
    const std::string path = plugin_path(env);
    auto loaded = load(path);
    if (!loaded) {
      std::string what = "cannot be used: " + reason;
      if (!exists(path)) what = path == env ? "does not exist" : "does not exist in the working directory";
      reason = "the file named by CLGEMM_CUBLAS_PLUGIN (\"" + env + "\") " + what +
               "; fix the path, or unset CLGEMM_CUBLAS_PLUGIN to look beside the executable";
    }
    return loaded;
  }
  const auto candidates = cublas_plugin_candidates();
  for (const auto& path : candidates)
    if (exists(path)) return load(path);
  reason = std::string("no cuBLAS plugin (") + kPluginName + ") found beside the executable or in ../lib";
#ifndef CLGEMM_HAVE_CUBLAS_PLUGIN
  reason += ": this build did not find the CUDA toolkit";
#endif
  reason += "; set CLGEMM_CUBLAS_PLUGIN to its path";
  return nullptr;
}

}  // namespace clgemm::bench
