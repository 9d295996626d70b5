// local_limits.cpp — see local_limits.hpp.
#include "runtime/local_limits.hpp"

#include "runtime/disk_cache.hpp"

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <fstream>
#include <vector>

namespace clgemm::detail {

std::optional<size_t> static_local_limit_from_log(const std::string& log, size_t requested) {
  const std::string phrase = "uses too much shared data (";
  const size_t at = log.find(phrase);
  if (at == std::string::npos) return std::nullopt;
  const char* text = log.c_str() + at + phrase.size();
  char* end = nullptr;
  const unsigned long long used = std::strtoull(text, &end, 0);
  if (end == text || std::strncmp(end, " bytes, ", 8) != 0) return std::nullopt;
  text = end + 8;
  const unsigned long long most = std::strtoull(text, &end, 0);
  if (end == text || std::strncmp(end, " max)", 5) != 0) return std::nullopt;
  if (used < requested || used - requested > most) return std::nullopt;
  return size_t(most - (used - requested));
}

namespace {

// Each work-item stores a value per word of the array, then reads another work-item's back, so
// that a build which kept fewer bytes than it declared shows in the result.
constexpr const char* kProbeSource = R"CLC(
__kernel void static_local_probe(__global uint* out) {
  __local uint big[WORDS];
  for (uint i = get_local_id(0); i < WORDS; i += get_local_size(0)) big[i] = i * 2654435761u;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint i = get_local_id(0); i < WORDS; i += get_local_size(0)) out[i] = big[WORDS - 1 - i];
}
)CLC";

// The program of a `bytes`-byte array, built; nullopt (and its log in `log`) where the build fails.
std::optional<cl::Program> build_probe(const Context& ctx, size_t bytes, std::string& log) {
  cl::Program program(ctx.context(), kProbeSource);
  const std::string options = "-DWORDS=" + std::to_string(bytes / 4);
  try {
    program.build({ctx.device()}, options.c_str());
    return program;
  } catch (const std::exception&) {
    try {
      log = program.getBuildInfo<CL_PROGRAM_BUILD_LOG>(ctx.device());
    } catch (const std::exception&) {
      log.clear();
    }
    // $CLGEMM_BUILD_LOG collects the compilers' logs (runtime/program_cache.cpp); this refusal is
    // the one the limit is read from.
    if (const char* path = std::getenv("CLGEMM_BUILD_LOG"); path && *path)
      std::ofstream(path, std::ios::app) << "==== static local probe, refused: " << options << "\n" << log << "\n";
    return std::nullopt;
  }
}

// Whether the limit's own kernel builds, launches on one work-group and returns every word.
bool runs_at(const Context& ctx, size_t bytes) {
  std::string log;
  const auto program = build_probe(ctx, bytes, log);
  if (!program) return false;
  try {
    const size_t words = bytes / 4;
    cl::Kernel kernel(*program, "static_local_probe");
    cl::Buffer out(ctx.context(), CL_MEM_WRITE_ONLY, bytes);
    kernel.setArg(0, out);
    const cl::CommandQueue& q = ctx.queue();
    q.enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(256), cl::NDRange(256));
    std::vector<uint32_t> got(words);
    q.enqueueReadBuffer(out, CL_TRUE, 0, bytes, got.data());
    for (size_t i = 0; i < words; ++i)
      if (got[i] != uint32_t(words - 1 - i) * 2654435761u) return false;
    return true;
  } catch (const std::exception&) {
    return false;
  }
}

size_t measure(const Context& ctx) {
  const DeviceInfo& dev = ctx.info();
  const size_t reported = dev.local_mem_bytes;
  if (dev.vendor.find("NVIDIA") == std::string::npos || dev.kind != DeviceKind::GPU) return reported;
  const DiskCache disk;
  const std::string key =
      DiskCache::key({"static local limit 1", dev.platform, dev.name, dev.vendor, dev.driver, dev.version});
  if (const auto stored = disk.load(key); stored && stored->size() == sizeof(uint64_t)) {
    uint64_t value = 0;
    std::memcpy(&value, stored->data(), sizeof value);
    if (value >= reported) return size_t(value);
  }
  // Requests above any GPU's shared memory per SM; the smaller one in case the compiler refuses
  // the larger before ptxas sees it.
  std::optional<size_t> limit;
  for (const size_t request : {size_t(1) << 20, size_t(1) << 18}) {
    std::string log;
    if (build_probe(ctx, request, log)) return reported;  // it took them: nothing to read the limit from
    if ((limit = static_local_limit_from_log(log, request))) break;
  }
  if (!limit || *limit < reported || !runs_at(ctx, *limit / 4 * 4)) return reported;
  const uint64_t value = *limit / 4 * 4;
  std::vector<unsigned char> bytes(sizeof value);
  std::memcpy(bytes.data(), &value, sizeof value);
  disk.store(key, bytes);
  return size_t(value);
}

}  // namespace

size_t static_local_limit(const Context& ctx) {
  return ctx.measured("static local limit", [&] { return measure(ctx); });
}

DeviceInfo with_local_limits(const Context& ctx) {
  DeviceInfo out = ctx.info();
  out.static_local_bytes = static_local_limit(ctx);
  return out;
}

}  // namespace clgemm::detail

namespace clgemm {

DeviceInfo with_measured_local_limits(const DeviceInfo& device) {
  if (device.vendor.find("NVIDIA") == std::string::npos || device.kind != DeviceKind::GPU) return device;
  const Context ctx(device);
  return detail::with_local_limits(ctx);
}

}  // namespace clgemm
