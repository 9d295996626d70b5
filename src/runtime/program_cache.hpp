// program_cache.hpp — compiled OpenCL programs kept in memory, keyed by source text and options.
#pragma once

#include <CL/opencl.hpp>

#include <map>
#include <mutex>
#include <string>
#include <utility>

namespace clgemm {

class ProgramCache {
 public:
  ProgramCache(cl::Context context, cl::Device device) : context_(std::move(context)), device_(std::move(device)) {}

  // The program built from `source` with `options`; built once, then shared. Thread-safe: a
  // second thread asking for the same program waits for the first build instead of repeating it.
  cl::Program get(const std::string& source, const std::string& options);

 private:
  cl::Program build(const std::string& source, const std::string& options);

  cl::Context context_;
  cl::Device device_;
  std::mutex mutex_;
  std::map<std::pair<std::string, std::string>, cl::Program> programs_;
};

}  // namespace clgemm
