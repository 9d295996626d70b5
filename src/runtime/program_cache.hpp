// program_cache.hpp — compiled OpenCL programs, kept in memory for the life of a Context and on
// disk across processes (see disk_cache.hpp).
#pragma once

#include "runtime/disk_cache.hpp"
#include "runtime/ptx_markers.hpp"

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

  // The same program with its PTX markers replaced (ptx_markers.hpp) and its target raised to
  // `target`, built from the patched PTX. nullopt where the device's binary is not PTX or its
  // driver refuses the patched PTX, remembered for the cache's life: the caller falls back to a
  // kernel without the markers. Throws Error(BuildFailure) where the patch itself is wrong.
  std::optional<cl::Program> get_patched(const std::string& name, const std::string& options,
                                         const std::function<std::string()>& source,
                                         const std::vector<detail::PtxMarkerRule>& rules, const std::string& target,
                                         unsigned min_groups_per_cu = 0);

  // A build outside the cache, for reading what the compiler made (clgemm asm): `source` built
  // with `options` and `verbose` (the driver's flag for a detailed log), then, where the binary is
  // PTX, patched with `rules` (none: no patch) and capped by `min_groups_per_cu` as get_patched
  // and get do, and with `verbose` rebuilt from a PTX text no build has had (NVIDIA's compute
  // cache would otherwise skip ptxas and its report). The program, its PTX as it runs (empty where the binary is not text) and the
  // compiler's log of the build that made it. Throws Error(BuildFailure) with the log where the
  // driver refuses either build.
  struct Inspected {
    cl::Program program;
    std::string ptx, log;
  };
  Inspected inspect(const std::string& source, const std::string& options, const std::string& verbose,
                    const std::vector<detail::PtxMarkerRule>& rules, const std::string& target,
                    unsigned min_groups_per_cu);

  // Where the on-disk copies go (empty when disabled).
  std::string disk_dir() const { return disk_.dir(); }

 private:
  cl::Program build(const std::string& source, const std::string& options, unsigned min_groups_per_cu);
  cl::Program build_from_source(const std::string& source, const std::string& options);
  cl::Program build_from_binary(const std::vector<unsigned char>& binary, const std::string& options);
  // The disk cache's key of a program: this device and driver, the options, the source and how
  // its binary was edited.
  std::string disk_key(const std::string& options, const std::string& source, const std::string& edits) const;
  // A program's binary where it is PTX text (NVIDIA), without the NULs the driver ends it with;
  // they go back after an edit.
  struct Ptx {
    std::string text;
    size_t nuls = 0;
  };
  static std::optional<Ptx> ptx_of(const cl::Program& program);
  // The program rebuilt from its PTX with .minnctapersm; nullopt when the binary is not PTX or
  // the driver refuses the edited one (the caller keeps the original).
  std::optional<cl::Program> with_min_groups(const cl::Program& program, const std::string& options,
                                             unsigned min_groups_per_cu);

  cl::Context context_;
  DeviceInfo device_;
  detail::DiskCache disk_;
  std::mutex mutex_;
  std::map<std::pair<std::string, std::string>, cl::Program> programs_;
  std::map<std::pair<std::string, std::string>, std::optional<cl::Program>> patched_;  // nullopt: refused
};

}  // namespace clgemm
