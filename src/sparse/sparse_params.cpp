// sparse_params.cpp — defaults per device type and constraint checks of the block-skip kernels.
//
// GPU defaults (chosen for the NVIDIA H200, sm_90: 64K registers, up to 228 KiB shared memory per
// SM with 48 KiB per OpenCL work-group):
//   TS = TSN = 128, WPTM = WPTN = 8 → 16×16 = 256 work-items, each a 8×8 block of C: 64 accumulator
//   registers, 4 FMAs per float read from local memory, ~128 registers per work-item, so two
//   groups (16 warps) per SM. 128×128 is the classic best SIMT tile for large FP32 GEMM: per k it
//   moves 256 floats from L2 for 16384 FMAs. TS = 128 is also the skip granularity: at 4096 that
//   is 32×32 tiles of A, 1024 work-groups (about 4 per SM, so the uneven lengths of the tile-row
//   lists even out), with 3.2 non-zero k-tiles per tile-row at 10 % density. TS = 64 would find
//   finer zero structure but halve the rows of C per group and raise L2 traffic per FMA by 1.5×;
//   pass TS=64 (and keep TSN = 128) for matrices whose zero blocks are smaller.
//   TK = 16: 8 steps per k-tile, one barrier per 1024 FMAs per work-item; 2×16×(128+128)×4 B =
//   32 KiB of local memory, double-buffered.
// CPU defaults (PoCL, measured on the 2-core CI machine at 512³): TS = 32 (finer skipping), a
// 32×64 block per group of 16 work-items, each 8×16 of C, TK = 16: ~30-37 GFLOP/s dense, where
// 4×4 per work-item with TK = 8 gave 4. PoCL runs a group's work-items as loops over one core;
// fewer work-items with more work each keeps the accumulators in AVX registers.
#include "sparse/sparse_params.hpp"

#include <clgemm/error.hpp>
#include <clgemm/sparse.hpp>

#include "kernels/descriptor.hpp"

#include <functional>

namespace clgemm {

const std::vector<SparseParamInfo>& sparse_params() {
  static const std::vector<SparseParamInfo> specs = {
      {"TS", 128, 32, "side of A's skip tiles; rows of C per work-group"},
      {"TSN", 128, 64, "columns of C per work-group"},
      {"TK", 16, 16, "depth of the A and B slices staged in local memory per step"},
      {"WPTM", 8, 8, "rows of C per work-item (multiple of 4)"},
      {"WPTN", 8, 16, "columns of C per work-item (multiple of 4)"},
      {"MAP_WG", 256, 64, "work-items per group of the tile-map kernel"},
  };
  return specs;
}

namespace detail {

SparseGeometry sparse_geometry(const KernelParams& ps) {
  SparseGeometry g;
  g.rtm = ps.at("TS") / ps.at("WPTM");
  g.rtn = ps.at("TSN") / ps.at("WPTN");
  g.threads = g.rtm * g.rtn;
  g.local_bytes = size_t(2 * ps.at("TK") * (ps.at("TS") + ps.at("TSN"))) * sizeof(float);
  return g;
}

namespace {

// Why `ps` cannot run (empty when it can): first the kernel's #error constraints, then the device.
// Sets `device_limit` when only the device is the problem.
std::string problem(const KernelParams& ps, const DeviceInfo& dev, bool& device_limit) {
  device_limit = false;
  auto v = [&](const char* n) { return ps.at(n); };
  for (const auto& [name, value] : ps)
    if (value <= 0) return name + " must be positive";
  if (v("TS") % v("WPTM") || v("TSN") % v("WPTN"))
    return "TS (" + std::to_string(v("TS")) + ") must be a multiple of WPTM (" + std::to_string(v("WPTM")) +
           ") and TSN (" + std::to_string(v("TSN")) + ") of WPTN (" + std::to_string(v("WPTN")) + ")";
  if (v("WPTM") % 4 || v("WPTN") % 4) return "WPTM and WPTN must be multiples of 4 (local memory is read as float4)";
  if (v("TS") % v("TK") || v("TK") % 4)
    return "TK (" + std::to_string(v("TK")) + ") must divide TS (" + std::to_string(v("TS")) +
           ") and be a multiple of 4";
  const SparseGeometry g = sparse_geometry(ps);
  const long a4 = v("TS") * v("TK") / 4, b4 = v("TK") * v("TSN") / 4;
  if (a4 % g.threads || b4 % g.threads || a4 < g.threads || b4 < g.threads)
    return "the " + std::to_string(a4) + " float4 of an A slice (TS·TK/4) and the " + std::to_string(b4) +
           " of a B slice (TK·TSN/4) must both be multiples of the " + std::to_string(g.threads) +
           " work-items per group";
  device_limit = true;
  if (size_t(g.threads) > dev.max_work_group_size || size_t(v("MAP_WG")) > dev.max_work_group_size)
    return std::to_string(std::max<long>(g.threads, v("MAP_WG"))) + " work-items per group, more than the device's " +
           std::to_string(dev.max_work_group_size);
  if ((dev.max_work_item_sizes.size() > 0 && size_t(std::max(g.rtn, v("MAP_WG"))) > dev.max_work_item_sizes[0]) ||
      (dev.max_work_item_sizes.size() > 1 && size_t(g.rtm) > dev.max_work_item_sizes[1]))
    return "a work-group dimension exceeds the device's maximum work-item sizes";
  if (g.local_bytes > dev.local_mem_bytes)
    return std::to_string(g.local_bytes) + " bytes of local memory, more than the device's " +
           std::to_string(dev.local_mem_bytes);
  device_limit = false;
  return "";
}

}  // namespace

KernelParams resolve_sparse_params(const DeviceInfo& dev, const KernelParams& overrides) {
  KernelParams ps;
  const bool cpu = dev.kind == DeviceKind::CPU;
  for (const auto& spec : sparse_params()) ps[spec.name] = cpu ? spec.cpu_default : spec.gpu_default;
  for (const auto& [name, value] : overrides) {
    if (!ps.count(name)) {
      std::string known;
      for (const auto& spec : sparse_params()) known += (known.empty() ? "" : ", ") + spec.name;
      throw Error(Status::InvalidArgument,
                  "the block-skip GEMM has no parameter '" + name + "'; its parameters are: " + known);
    }
    ps[name] = value;
  }
  bool device_limit = false;
  const std::string why = problem(ps, dev, device_limit);
  if (why.empty()) return ps;
  // Name the tile sides that would work with everything else as it is: what a user changing
  // only TS (`clgemm sparse --tile`) needs to know.
  std::string tiles;
  for (long ts = 4; ts <= 1024; ts += 4) {
    KernelParams alt = ps;
    alt["TS"] = ts;
    bool unused = false;
    if (problem(alt, dev, unused).empty()) tiles += (tiles.empty() ? "" : ", ") + std::to_string(ts);
  }
  throw Error(device_limit ? Status::OutOfResources : Status::InvalidArgument,
              "block-skip GEMM with " + build_options(ps) + ": " + why +
                  (tiles.empty() ? "" : "; with the other parameters as they are, TS may be " + tiles));
}

std::string gemm_options(const KernelParams& ps, bool guard) {
  KernelParams g;
  for (const char* n : {"TS", "TSN", "TK", "WPTM", "WPTN"}) g[n] = ps.at(n);
  g["GUARD"] = guard ? 1 : 0;
  return build_options(g);
}

std::string map_options(const KernelParams& ps, bool vec) {
  return build_options({{"TS", ps.at("TS")}, {"MAP_WG", ps.at("MAP_WG")}, {"MAP_VEC", vec ? 1 : 0}});
}

}  // namespace detail
}  // namespace clgemm
