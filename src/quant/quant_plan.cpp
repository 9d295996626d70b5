// quant_plan.cpp — which kernel a quantized call runs, with which tiles, on which work sizes.
#include <clgemm/quant.hpp>

#include "kernels/descriptor.hpp"
#include "kernels/precision.hpp"

#include <clgemm/error.hpp>

#include <algorithm>
#include <cstdlib>
#include <sstream>
#include <string>

namespace clgemm {

namespace {

// Rows of A the GEMV kernel handles per pass: the smallest power of two holding m, at most 16.
// Above 16 rows the tiled kernel reads W once per 64 rows instead.
constexpr size_t kGemvMaxRows = 16;

size_t rows_per_pass(size_t m) {
  size_t mr = 1;
  while (mr < m && mr < kGemvMaxRows) mr *= 2;
  return mr;
}

// The GEMV's work sizes: 32 lanes per row of W, so that a team reads 32 consecutive 8-weight
// octets (a Q8_0 row's 272 bytes, a Q4_0 row's 144) per step, one octet at a time. On an H200,
// 16 to 256 lanes and 2 to 8 octets in flight (scripts/gpu/quant_gemv.sh) stay within 10 % of
// this at M = 1 and 4, and 4 or 8 in flight are 30 % slower at M = 16.
struct GemvSizes {
  size_t wg = 128, lanes = 32, unroll = 1;
};

// CLGEMM_QUANT_GEMV="WG=256,LANES=64,UNROLL=8" replaces the defaults, for measuring others
// (scripts/gpu/quant.sh sweeps them); a value the kernel cannot take throws InvalidArgument
// naming the variable.
GemvSizes gemv_sizes(size_t wg_limit, size_t mr) {
  GemvSizes g;
  g.wg = wg_limit >= 128 ? 128 : 64;
  const char* text = std::getenv("CLGEMM_QUANT_GEMV");
  if (!text || !*text) return g;
  std::stringstream items(text);
  std::string item;
  const auto bad = [&](const std::string& why) {
    return Error(Status::InvalidArgument, std::string("CLGEMM_QUANT_GEMV='") + text + "': " + why);
  };
  while (std::getline(items, item, ',')) {
    const size_t eq = item.find('=');
    const std::string name = item.substr(0, eq);
    size_t value = 0;
    try {
      value = eq == std::string::npos ? 0 : std::stoul(item.substr(eq + 1));
    } catch (const std::exception&) {
    }
    if (value == 0) throw bad("'" + item + "' is not NAME=POSITIVE_INTEGER");
    if (name == "WG") g.wg = value;
    else if (name == "LANES") g.lanes = value;
    else if (name == "UNROLL") g.unroll = value;
    else throw bad("no setting '" + name + "' (WG, LANES, UNROLL)");
  }
  if ((g.lanes & (g.lanes - 1)) != 0 || g.wg % g.lanes != 0 || g.wg > wg_limit || mr > g.lanes || g.unroll > 64)
    throw bad("LANES must be a power of two dividing WG, WG at most " + std::to_string(wg_limit) + ", LANES at least " +
              std::to_string(mr) + " (the rows per pass), UNROLL at most 64");
  return g;
}

}  // namespace

QuantPlan plan_quantized(const DeviceInfo& device, const QuantGemmCall& call, size_t batch_count) {
  QuantPlan plan;
  const bool row_major = call.layout == Layout::RowMajor;
  plan.options = " -DPRECISION=32 -DQFORMAT=" + std::to_string(int(call.w.format)) +
                 detail::storage_options(call.a_type, call.c_type) + " -DA_K_CONTIG=" + (row_major ? "1" : "0");
  const size_t batch = std::max<size_t>(1, batch_count);
  const size_t wg_limit = std::max<size_t>(64, device.max_work_group_size);
  if (call.m <= kGemvMaxRows) {
    const size_t mr = rows_per_pass(call.m);
    const GemvSizes g = gemv_sizes(wg_limit, mr);
    const size_t wg = g.wg, teams = g.wg / g.lanes;
    plan.kernel = "qgemv";
    plan.options += " -DWG=" + std::to_string(wg) + " -DLANES=" + std::to_string(g.lanes) +
                    " -DUNROLL=" + std::to_string(g.unroll) + " -DMR=" + std::to_string(mr);
    plan.global[0] = detail::round_up(call.n, teams) / teams * wg;
    plan.global[1] = batch;
    plan.local[0] = wg;
    return plan;
  }
  // 64×64 tiles with 4×4 per work-item need 256 work-items and 16 KiB of local memory; smaller
  // devices take 32×32 on 64 work-items (8 KiB).
  const bool big = wg_limit >= 256 && device.local_mem_bytes >= 32 * 1024;
  const size_t tile = big ? 64 : 32, per_item = 4, side = tile / per_item;
  plan.kernel = "qgemm";
  plan.options += " -DTM=" + std::to_string(tile) + " -DTN=" + std::to_string(tile) + " -DWM=" +
                  std::to_string(per_item) + " -DWN=" + std::to_string(per_item);
  plan.global[0] = detail::round_up(call.n, tile) / tile * side;
  plan.global[1] = detail::round_up(call.m, tile) / tile * side;
  plan.global[2] = batch;
  plan.local[0] = side;
  plan.local[1] = side;
  return plan;
}

}  // namespace clgemm
