// wide_kernel.hpp — the wide kernel (gemm/wide/wide.cl): which shapes it takes and its parameters.
#pragma once

#include <clgemm/device.hpp>
#include <clgemm/gemm.hpp>
#include <clgemm/ladder.hpp>

#include <cstddef>

namespace clgemm::detail {

// The most rows of the small operand the wide kernel holds per work-item (its PB).
constexpr size_t kWideMaxP = 16;

// The most rows of the short operand for which the planner picks the wide kernel by itself.
// On the H200 (scripts/gpu/gemv.sh) the tuned xgemm entry for skinny shapes runs 16×4096×4096 at
// 12.7 TFLOP/s and the wide kernel at 9.8, while at 8 rows xgemm's 16-row tiles are half empty:
// 4096×8×4096 with A transposed 4.7 TFLOP/s on xgemm, 6.3 on the wide kernel (8×4096×4096, B as
// stored: 5.8 and 6.0). Forced, the wide kernel takes up to kWideMaxP.
constexpr size_t kWideAutoMaxP = 8;

// Whether the planner runs a product of p short rows against a large operand of k rows and l
// columns on the wide kernel, where the large operand's rows are contiguous along l
// (plan/plan_call.cpp checks that): p up to kWideAutoMaxP, from 64 columns and 2^14 elements of
// the large operand (below that the direct kernel's single launch costs less than the kernel and
// its sums).
bool wide_pays(const DeviceInfo& device, size_t p, size_t l, size_t k);

// PB, WL, KL and LQ (quads of columns per work-item) for p rows of `input` elements, with
// `overrides` on top; throws InvalidArgument for values the kernel cannot run.
KernelParams wide_params(const DeviceInfo& device, size_t p, const KernelParams& overrides = {},
                         DataType input = DataType::F32);

// Work-items per work-group, and the columns of the large operand one work-group covers.
size_t wide_threads(const KernelParams& ps);
size_t wide_columns(const KernelParams& ps);

// How many slices of K the work-groups take, and the k of each (a multiple of 4·KL): the
// l-groups × slices × items of a launch aim at 16 work-groups per compute unit, with slices as deep
// as leaves at least two (16, 8, then 4 quads of k per lane; wide_kernel.cpp says why).
struct WideSlices {
  size_t slices = 1, k_slice = 0;
};
WideSlices wide_slices(const DeviceInfo& device, const KernelParams& ps, size_t l, size_t k, size_t items);

}  // namespace clgemm::detail
