// program_cache.cpp — builds programs once per (source, options) and reports build logs.
#include "runtime/program_cache.hpp"

#include <clgemm/error.hpp>

#include "runtime/cl_error.hpp"

namespace clgemm {

cl::Program ProgramCache::get(const std::string& source, const std::string& options) {
  // One lock across the build: builds are rare (once per variant) and serialising them keeps two
  // threads from compiling the same program at once.
  std::lock_guard<std::mutex> lock(mutex_);
  auto key = std::make_pair(source, options);
  auto it = programs_.find(key);
  if (it != programs_.end()) return it->second;
  cl::Program program = build(source, options);
  programs_.emplace(std::move(key), program);
  return program;
}

cl::Program ProgramCache::build(const std::string& source, const std::string& options) {
  cl::Program program;
  try {
    program = cl::Program(context_, source);
  } catch (const cl::Error& e) {
    detail::rethrow_cl(e, "creating an OpenCL program");
  }
  try {
    program.build(std::vector<cl::Device>{device_}, options.c_str());
  } catch (const cl::BuildError& e) {
    std::string log;
    for (const auto& entry : e.getBuildLog()) log += entry.second;
    throw Error(Status::BuildFailure, "the OpenCL compiler rejected a kernel (options: '" + options +
                                          "').\nBuild log:\n" + log);
  } catch (const cl::Error& e) {
    std::string log;
    try {
      log = program.getBuildInfo<CL_PROGRAM_BUILD_LOG>(device_);
    } catch (const cl::Error&) {
    }
    throw Error(Status::BuildFailure, std::string("building an OpenCL program failed with ") +
                                          detail::cl_error_name(e.err()) + " (options: '" + options +
                                          "').\nBuild log:\n" + log);
  }
  return program;
}

}  // namespace clgemm
