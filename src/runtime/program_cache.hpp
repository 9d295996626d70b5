// program_cache.hpp — compiled OpenCL programs, kept in memory for the life of a Context and on
// disk across processes (see disk_cache.hpp).
#pragma once

#include "runtime/disk_cache.hpp"

#include <clgemm/device.hpp>

#include <CL/opencl.hpp>

#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <utility>

namespace clgemm {

class ProgramCache {
 public:
  ProgramCache(cl::Context context, DeviceInfo device);

  // The program named `name` (the list of source files) built with `options`. `source` is only
  // called when the program is not in memory yet. Built once, then shared; thread-safe.
  cl::Program get(const std::string& name, const std::string& options, const std::function<std::string()>& source);

  // Where the on-disk copies go (empty when disabled).
  std::string disk_dir() const { return disk_.dir(); }

 private:
  cl::Program build(const std::string& source, const std::string& options);
  cl::Program build_from_source(const std::string& source, const std::string& options);

  cl::Context context_;
  DeviceInfo device_;
  detail::DiskCache disk_;
  std::mutex mutex_;
  std::map<std::pair<std::string, std::string>, cl::Program> programs_;
};

}  // namespace clgemm
