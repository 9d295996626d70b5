// quant_plan.cpp — which kernel a quantized call runs, with which tiles, on which work sizes.
#include <clgemm/quant.hpp>

#include "kernels/descriptor.hpp"
#include "kernels/precision.hpp"

#include <algorithm>

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

}  // namespace

QuantPlan plan_quantized(const DeviceInfo& device, const QuantGemmCall& call, size_t batch_count) {
  QuantPlan plan;
  const bool row_major = call.layout == Layout::RowMajor;
  plan.options = " -DPRECISION=32 -DQFORMAT=" + std::to_string(int(call.w.format)) +
                 detail::storage_options(call.a_type, call.c_type) + " -DA_K_CONTIG=" + (row_major ? "1" : "0");
  const size_t batch = std::max<size_t>(1, batch_count);
  const size_t wg_limit = std::max<size_t>(64, device.max_work_group_size);
  if (call.m <= kGemvMaxRows) {
    // 32 lanes per row of W: a 32-lane team reads 32 consecutive 8-weight octets (a Q8_0 row's
    // 272 bytes, a Q4_0 row's 144) per step.
    const size_t lanes = 32, wg = wg_limit >= 128 ? 128 : 64, teams = wg / lanes;
    plan.kernel = "qgemv";
    plan.options += " -DWG=" + std::to_string(wg) + " -DLANES=" + std::to_string(lanes) +
                    " -DMR=" + std::to_string(rows_per_pass(call.m));
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
