// program_cache.cpp — builds programs once per (name, options): from memory, else from a disk
// entry, else from source; reports build logs.
#include "runtime/program_cache.hpp"

#include <clgemm/error.hpp>

#include "runtime/cl_error.hpp"
#include "runtime/ptx_directives.hpp"
#include "runtime/warnings.hpp"

#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <fstream>

namespace clgemm {

ProgramCache::ProgramCache(cl::Context context, DeviceInfo device)
    : context_(std::move(context)), device_(std::move(device)) {}

namespace {

// Text no other build in any process has had: the time, the process and a count.
std::string inspection_nonce() {
  static std::atomic<unsigned long> count{0};
  return std::to_string(std::chrono::system_clock::now().time_since_epoch().count()) + "-" +
         std::to_string(static_cast<long>(getpid())) + "-" + std::to_string(count++);
}

// Development switches: $CLGEMM_BUILD_OPTIONS is appended to every build (for example
// -cl-nv-verbose to see register use), and $CLGEMM_BUILD_LOG names a file that collects the
// compiler's log of every successful build.
std::string extra_options() {
  const char* e = std::getenv("CLGEMM_BUILD_OPTIONS");
  return e && *e ? std::string(" ") + e : "";
}

void append_build_log(const cl::Program& program, const cl::Device& device, const std::string& options) {
  const char* path = std::getenv("CLGEMM_BUILD_LOG");
  if (!path || !*path) return;
  try {
    std::ofstream out(path, std::ios::app);
    out << "==== options: " << options << "\n" << program.getBuildInfo<CL_PROGRAM_BUILD_LOG>(device) << "\n";
  } catch (const cl::Error&) {
  }
}

}  // namespace

cl::Program ProgramCache::get(const std::string& name, const std::string& options_in,
                              const std::function<std::string()>& source, unsigned min_groups_per_cu) {
  const std::string options = options_in + extra_options();
  // One lock across the build: builds are rare (once per variant) and serialising them keeps two
  // threads from compiling the same program at once.
  std::lock_guard<std::mutex> lock(mutex_);
  auto key = std::make_pair(name, options + " [min groups per unit " + std::to_string(min_groups_per_cu) + "]");
  auto it = programs_.find(key);
  if (it != programs_.end()) return it->second;
  cl::Program program = build(source(), options, min_groups_per_cu);
  programs_.emplace(std::move(key), program);
  return program;
}

std::optional<cl::Program> ProgramCache::get_patched(const std::string& name, const std::string& options_in,
                                                     const std::function<std::string()>& source,
                                                     const std::vector<detail::PtxMarkerRule>& rules,
                                                     const std::string& target, unsigned min_groups_per_cu) {
  const std::string options = options_in + extra_options();
  std::string edits = "[patched for " + target + "]";
  for (const auto& r : rules) edits += "\n" + r.name + " " + std::to_string(r.operands) + "\n" + r.body;
  if (min_groups_per_cu > 0) edits += "\nmin groups per unit " + std::to_string(min_groups_per_cu);
  std::lock_guard<std::mutex> lock(mutex_);
  auto key = std::make_pair(name, options + edits);
  auto it = patched_.find(key);
  if (it != patched_.end()) return it->second;
  std::optional<cl::Program> program;
  const std::string text = source();
  const std::string stored = disk_key(options, text, edits);
  if (auto binary = disk_.load(stored)) {
    try {
      program = build_from_binary(*binary, options);
    } catch (const cl::Error&) {
      disk_.remove(stored);  // a binary this driver no longer accepts: patch again below
    }
  }
  if (!program) {
    if (const auto ptx = ptx_of(build_from_source(text, options))) {
      std::string patched = detail::patch_ptx_markers(ptx->text, rules, target).ptx;
      if (min_groups_per_cu > 0)
        if (auto capped = detail::with_min_blocks_per_sm(patched, min_groups_per_cu)) patched = std::move(*capped);
      std::vector<unsigned char> bytes(patched.begin(), patched.end());
      bytes.insert(bytes.end(), ptx->nuls, '\0');
      cl::Program candidate(context_, {device_.device}, cl::Program::Binaries{bytes});
      try {
        candidate.build({device_.device}, options.c_str());
        program = candidate;
        append_build_log(*program, device_.device, options + " (PTX patched for " + target + ")");
        disk_.store(stored, bytes);
      } catch (const cl::Error&) {
        // The driver refuses the patched PTX (no such architecture, or the assembler rejects the
        // program): nullopt, remembered, and the driver's words said once, since the caller
        // quietly takes a slower kernel.
        std::string log;
        try {
          log = candidate.getBuildInfo<CL_PROGRAM_BUILD_LOG>(device_.device);
        } catch (const cl::Error&) {
        }
        detail::warn_once("the PTX patched for " + target + " (" + name + ") was refused by " + device_.name +
                              "; a kernel without it runs instead" + (log.empty() ? "" : ": " + log.substr(0, 2000)),
                          "patched " + name + options);
      }
    }
  }
  patched_.emplace(std::move(key), program);
  return program;
}

ProgramCache::Inspected ProgramCache::inspect(const std::string& source, const std::string& options_in,
                                              const std::string& verbose,
                                              const std::vector<detail::PtxMarkerRule>& rules,
                                              const std::string& target, unsigned min_groups_per_cu) {
  const std::string options = options_in + extra_options() + verbose;
  const auto log_of = [&](const cl::Program& p) {
    try {
      return p.getBuildInfo<CL_PROGRAM_BUILD_LOG>(device_.device);
    } catch (const cl::Error&) {
      return std::string();
    }
  };
  Inspected out{build_from_source(source, options), "", ""};
  out.log = log_of(out.program);
  const auto ptx = ptx_of(out.program);
  if (!ptx) return out;
  out.ptx = ptx->text;
  // NVIDIA's driver keeps what ptxas made of each PTX text in its compute cache
  // (~/.nv/ComputeCache), and a build it finds there logs nothing: the second `clgemm asm` of a
  // kernel would report no registers. A comment no other build has makes the PTX new, so that the
  // rebuild below runs ptxas and logs its report.
  const bool report = !verbose.empty();
  if (rules.empty() && min_groups_per_cu == 0 && !report) return out;
  if (!rules.empty()) out.ptx = detail::patch_ptx_markers(out.ptx, rules, target).ptx;
  if (min_groups_per_cu > 0)
    if (auto capped = detail::with_min_blocks_per_sm(out.ptx, min_groups_per_cu)) out.ptx = std::move(*capped);
  std::string text = out.ptx;
  if (report) text += "\n// clgemm inspection " + inspection_nonce() + "\n";
  std::vector<unsigned char> bytes(text.begin(), text.end());
  bytes.insert(bytes.end(), ptx->nuls, '\0');
  cl::Program edited(context_, {device_.device}, cl::Program::Binaries{bytes});
  try {
    edited.build({device_.device}, options.c_str());
  } catch (const cl::Error&) {
    throw Error(Status::BuildFailure, "the driver refused the edited PTX (options '" + options + "'):\n" + log_of(edited));
  }
  out.program = edited;
  out.log = log_of(edited);
  return out;
}

cl::Program ProgramCache::build(const std::string& source, const std::string& options, unsigned min_groups_per_cu) {
  const std::string key = disk_key(options, source, "min groups per unit " + std::to_string(min_groups_per_cu));
  if (auto binary = disk_.load(key)) {
    try {
      cl::Program program = build_from_binary(*binary, options);
      append_build_log(program, device_.device, options + " (from the disk cache)");
      return program;
    } catch (const cl::Error&) {
      disk_.remove(key);  // a binary this driver no longer accepts: build from source below
    }
  }
  cl::Program program = build_from_source(source, options);
  if (min_groups_per_cu > 0)
    if (auto capped = with_min_groups(program, options, min_groups_per_cu)) program = *capped;
  try {
    auto binaries = program.getInfo<CL_PROGRAM_BINARIES>();
    if (!binaries.empty()) disk_.store(key, binaries.front());
  } catch (const cl::Error&) {
    // Some drivers cannot return binaries; then only the in-memory cache applies.
  }
  return program;
}

std::string ProgramCache::disk_key(const std::string& options, const std::string& source, const std::string& edits) const {
  return detail::DiskCache::key({device_.platform, device_.name, device_.vendor, device_.driver, device_.version, options,
                                 source, edits});
}

std::optional<ProgramCache::Ptx> ProgramCache::ptx_of(const cl::Program& program) {
  std::vector<std::vector<unsigned char>> binaries;
  try {
    binaries = program.getInfo<CL_PROGRAM_BINARIES>();
  } catch (const cl::Error&) {
    return std::nullopt;  // some drivers cannot return binaries
  }
  if (binaries.empty()) return std::nullopt;
  Ptx ptx{std::string(binaries.front().begin(), binaries.front().end()), 0};
  while (!ptx.text.empty() && ptx.text.back() == '\0') ptx.text.pop_back(), ++ptx.nuls;
  if (!detail::is_ptx(ptx.text)) return std::nullopt;
  return ptx;
}

cl::Program ProgramCache::build_from_binary(const std::vector<unsigned char>& binary, const std::string& options) {
  cl::Program::Binaries bins{binary};
  cl::Program program(context_, {device_.device}, bins);
  program.build({device_.device}, options.c_str());
  return program;
}

std::optional<cl::Program> ProgramCache::with_min_groups(const cl::Program& program, const std::string& options,
                                                         unsigned min_groups_per_cu) {
  try {
    const auto ptx = ptx_of(program);
    if (!ptx) return std::nullopt;
    const auto edited = detail::with_min_blocks_per_sm(ptx->text, min_groups_per_cu);
    if (!edited) return std::nullopt;
    std::vector<unsigned char> bytes(edited->begin(), edited->end());
    bytes.insert(bytes.end(), ptx->nuls, '\0');
    cl::Program capped = build_from_binary(bytes, options);
    append_build_log(capped, device_.device, options + " (.minnctapersm " + std::to_string(min_groups_per_cu) + ")");
    return capped;
  } catch (const cl::Error&) {
    return std::nullopt;  // the driver refused the edited PTX: the compiler's own build stands
  }
}

cl::Program ProgramCache::build_from_source(const std::string& source, const std::string& options) {
  cl::Program program;
  try {
    program = cl::Program(context_, source);
  } catch (const cl::Error& e) {
    detail::rethrow_cl(e, "creating an OpenCL program");
  }
  try {
    program.build(std::vector<cl::Device>{device_.device}, options.c_str());
  } catch (const cl::BuildError& e) {
    std::string log;
    for (const auto& entry : e.getBuildLog()) log += entry.second;
    throw Error(Status::BuildFailure, "the OpenCL compiler rejected a kernel (options: '" + options +
                                          "').\nBuild log:\n" + log);
  } catch (const cl::Error& e) {
    std::string log;
    try {
      log = program.getBuildInfo<CL_PROGRAM_BUILD_LOG>(device_.device);
    } catch (const cl::Error&) {
    }
    throw Error(Status::BuildFailure, std::string("building an OpenCL program failed with ") +
                                          detail::cl_error_name(e.err()) + " (options: '" + options +
                                          "').\nBuild log:\n" + log);
  }
  append_build_log(program, device_.device, options);
  return program;
}

}  // namespace clgemm
