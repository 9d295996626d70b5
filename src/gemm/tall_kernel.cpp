// tall_kernel.cpp — when the tall kernel runs, and the parameters measured for it.
#include "gemm/tall_kernel.hpp"

#include <clgemm/error.hpp>

#include <string>

namespace clgemm::detail {

namespace {

constexpr size_t kTallMinRows = 1024;
constexpr size_t kLanes = 32;  // work-items per row group (LANES in tall.cl)
constexpr long kMaxValues = 128;  // partial sums per work-item (RW·NB): more would spill

long param(const KernelParams& ps, const char* name) { return ps.at(name); }

}  // namespace

bool tall_pays(const DeviceInfo& device, size_t m, size_t n, size_t k) {
  return device.kind == DeviceKind::GPU && n <= kTallMaxN && m >= kTallMinRows && k >= 4;
}

KernelParams tall_params(const DeviceInfo& device, size_t n, const KernelParams& overrides) {
  if (n > kTallMaxN)
    throw Error(Status::InvalidArgument, "the tall path takes C with at most " + std::to_string(kTallMaxN) +
                                             " columns; this one has " + std::to_string(n));
  // Fastest measured per width on the H200 (docs/tuning.md, log): 4096×16×4096 on 8 rows × 2 row
  // groups 61 us (4 × 4: 80), 4096×8×4096 on 4 × 4 47 us, 4096×1×4096 on 2 × 8 29 us.
  KernelParams ps = n <= 4 ? KernelParams{{"NB", 4}, {"RW", 2}, {"GR", 8}}
                  : n <= 8 ? KernelParams{{"NB", 8}, {"RW", 4}, {"GR", 4}}
                           : KernelParams{{"NB", 16}, {"RW", 8}, {"GR", 2}};
  for (const auto& [name, value] : overrides) {
    if (!ps.count(name)) throw Error(Status::InvalidArgument, "the tall kernel has no parameter " + name + " (NB, RW, GR)");
    ps[name] = value;
  }
  const long nb = param(ps, "NB"), rw = param(ps, "RW"), gr = param(ps, "GR");
  if (nb < long(n) || nb > long(kTallMaxN) || nb % 4 != 0)
    throw Error(Status::InvalidArgument, "tall kernel: NB = " + std::to_string(nb) + " must be a multiple of 4 up to 16 and at least n = " +
                                             std::to_string(n));
  if (rw < 1 || gr < 1 || rw * nb > kMaxValues)
    throw Error(Status::InvalidArgument, "tall kernel: RW and GR must be positive and RW·NB at most " +
                                             std::to_string(kMaxValues));
  if (kLanes * size_t(gr) > device.max_work_group_size)
    throw Error(Status::InvalidArgument, "tall kernel: " + std::to_string(kLanes * gr) +
                                             " work-items per group exceed the device's " +
                                             std::to_string(device.max_work_group_size));
  const size_t local_bytes = size_t(gr) * kLanes * (kLanes + 1) * sizeof(float);  // part[][][] in tall.cl
  if (device.local_mem_bytes > 0 && local_bytes > device.local_mem_bytes)
    throw Error(Status::InvalidArgument, "tall kernel: GR = " + std::to_string(gr) + " needs " +
                                             std::to_string(local_bytes) + " bytes of local memory; the device has " +
                                             std::to_string(device.local_mem_bytes));
  return ps;
}

size_t tall_threads(const KernelParams& ps) { return kLanes * size_t(param(ps, "GR")); }
size_t tall_rows(const KernelParams& ps) { return size_t(param(ps, "RW") * param(ps, "GR")); }

}  // namespace clgemm::detail
