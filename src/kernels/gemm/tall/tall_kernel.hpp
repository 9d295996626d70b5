// tall_kernel.hpp — the tall kernel (gemm/tall/tall.cl): which calls it takes and its parameters.
#pragma once

#include <clgemm/device.hpp>
#include <clgemm/gemm.hpp>
#include <clgemm/ladder.hpp>

#include <cstddef>

namespace clgemm::detail {

// The most columns of C the tall kernel holds per work-item (its NB).
constexpr size_t kTallMaxN = 16;

// Whether the planner runs a call of this shape on the tall kernel (when op(A)'s rows are
// contiguous along k; plan/plan_call.cpp checks that). On GPUs from enough rows to give every compute unit
// work: on the H200 it beat the packed path 1.6-1.9× from 1024×16×1024 up, and lost at
// 512×16×4096 (32 work-groups for 132 SMs). On CPUs at any size: with PoCL on a 2-core Xeon it
// beat the packed path from 16×16×16 (0.034 ms against 0.081) to 1024×16×1024 (0.63 against 11.2).
bool tall_pays(const DeviceInfo& device, size_t m, size_t n, size_t k);

// NB, RW, GR and LANES for an m×n×k product (n <= kTallMaxN), with `overrides` on top; throws
// InvalidArgument for values the kernel cannot run. LANES grows as m shrinks, so that few rows
// still fill the device (a batch's items are not counted), while k has a float4 for every lane.
KernelParams tall_params(const DeviceInfo& device, size_t m, size_t n, size_t k, const KernelParams& overrides = {},
                         long precision = 32);

// Work-items and rows of C per work-group.
size_t tall_threads(const KernelParams& ps);
size_t tall_rows(const KernelParams& ps);

}  // namespace clgemm::detail
