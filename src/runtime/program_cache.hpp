// program_cache.hpp — compiled OpenCL programs, kept in memory for the life of a Context and on
// disk across processes (see disk_cache.hpp).
#pragma once

#include "runtime/disk_cache.hpp"

#include <clgemm/device.hpp>

#include <CL/opencl.hpp>

#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace clgemm {

class ProgramCache {
 public:
  ProgramCache(cl::Context context, DeviceInfo device);

  // The program named `name` (the list of source files) built with `options`. `source` is only
  // called when the program is not in memory yet. Built once, then shared; thread-safe.
  // `min_groups_per_cu` > 0: where the binary is PTX (NVIDIA), its kernels are rebuilt with
  // .minnctapersm, so that the assembler caps registers to fit that many work-groups on a compute
  // unit (elsewhere it is ignored).
  cl::Program get(const std::string& name, const std::string& options, const std::function<std::string()>& source,
                  unsigned min_groups_per_cu = 0);

  // Where the on-disk copies go (empty when disabled).
  std::string disk_dir() const { return disk_.dir(); }

 private:
  cl::Program build(const std::string& source, const std::string& options, unsigned min_groups_per_cu);
  cl::Program build_from_source(const std::string& source, const std::string& options);
  cl::Program build_from_binary(const std::vector<unsigned char>& binary, const std::string& options);
  // The program rebuilt from its PTX with .minnctapersm; nullopt when the binary is not PTX or
  // the driver refuses the edited one (the caller keeps the original).
  std::optional<cl::Program> with_min_groups(const cl::Program& program, const std::string& options,
                                             unsigned min_groups_per_cu);

  cl::Context context_;
  DeviceInfo device_;
  detail::DiskCache disk_;
  std::mutex mutex_;
  std::map<std::pair<std::string, std::string>, cl::Program> programs_;
};

}  // namespace clgemm
