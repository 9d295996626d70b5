// wide_kernel.cpp — when the wide kernel runs, and its parameters.
#include "kernels/gemm/wide/wide_kernel.hpp"

#include <clgemm/error.hpp>

#include "kernels/descriptor.hpp"
#include "kernels/precision.hpp"

#include <algorithm>
#include <string>

namespace clgemm::detail {

namespace {

constexpr size_t kWideMinColumns = 64;
constexpr size_t kWideMinElements = size_t(1) << 14;
// Slices of K: enough for kGroupsPerUnit work-groups per compute unit, each slice as deep as
// kQuadsPerLane allows (quads of k per k-lane, deepest first) while the groups still number
// kFillPerUnit per unit. Shallow slices cost more than they fill: H100, clgemm / cuBLAS at
// 1×4096×4096 0.95–0.97 with 64-deep slices (8 groups per unit), 1.03–1.05 with 128-deep ones
// (16); 8×4096×4096 1.10–1.33 against 1.24–1.42; 1×16384×16384 0.98–1.00 against 1.04. Where
// only 64-deep slices fill the device (1×2048×2048) they still win.
constexpr size_t kGroupsPerUnit = 16;
constexpr size_t kFillPerUnit = 2;
constexpr size_t kQuadsPerLane[] = {16, 8, 4};

long param(const KernelParams& ps, const char* name) { return ps.at(name); }

}  // namespace

bool wide_pays(const DeviceInfo&, size_t p, size_t l, size_t k) {
  return p >= 1 && p <= kWideAutoMaxP && l >= kWideMinColumns && k >= 1 && l * k >= kWideMinElements;
}

KernelParams wide_params(const DeviceInfo& device, size_t p, const KernelParams& overrides, DataType input) {
  const long precision = precision_bits(input);
  if (p > kWideMaxP)
    throw Error(Status::InvalidArgument, "the wide path takes at most " + std::to_string(kWideMaxP) +
                                             " rows of the short operand; this call has " + std::to_string(p));
  long pb = 1;
  while (size_t(pb) < p) pb *= 2;
  // 64 work-items along l read 1 KiB of each row of float (2 of double) per step, a whole number
  // of 128-byte lines; four k-lanes make groups of 256.
  KernelParams ps = {{"PB", pb}, {"WL", 64}, {"KL", 4}, {"LQ", 1}};
  // A quad of a 16-bit row is only 8 bytes, so a GPU's loads carry half a float row's bytes. Eight
  // columns per work-item (LQ = 2) on 32 work-items keep the group's 256 columns and 16-byte loads,
  // with eight k-lanes for the same 256 work-items. H200, scripts/gpu/gemv16.sh: bf16 1×4096×14336
  // 0.0476 against 0.0763 ms, 8×4096×14336 0.106 against 0.161; f16 alike. PoCL's CPU device runs
  // LQ = 2 slower (46 against 24 ms at 3×4100×5000 bf16), so CPUs keep one quad.
  if (data_type_bytes(input) == 2 && device.kind == DeviceKind::GPU) ps = {{"PB", pb}, {"WL", 32}, {"KL", 8}, {"LQ", 2}};
  for (const auto& [name, value] : overrides) {
    if (!ps.count(name))
      throw Error(Status::InvalidArgument, "the wide kernel has no parameter " + name + " (PB, WL, KL, LQ)");
    ps[name] = value;
  }
  const long pb_set = param(ps, "PB"), wl = param(ps, "WL"), kl = param(ps, "KL");
  if (pb_set < long(p) || pb_set > long(kWideMaxP) || (pb_set & (pb_set - 1)) != 0)
    throw Error(Status::InvalidArgument, "wide kernel: PB = " + std::to_string(pb_set) +
                                             " must be a power of two from p = " + std::to_string(p) + " to " +
                                             std::to_string(kWideMaxP));
  if (wl < 1 || kl < 1 || kl > 16)
    throw Error(Status::InvalidArgument, "wide kernel: WL must be positive and KL from 1 to 16");
  if (param(ps, "LQ") != 1 && param(ps, "LQ") != 2)
    throw Error(Status::InvalidArgument,
                "wide kernel: LQ = " + std::to_string(param(ps, "LQ")) + " must be 1 or 2 (quads of l per work-item)");
  const size_t threads = size_t(wl) * size_t(kl);
  if (threads > device.max_work_group_size)
    throw Error(Status::InvalidArgument, "wide kernel: WL·KL = " + std::to_string(threads) +
                                             " work-items per group exceed the device's " +
                                             std::to_string(device.max_work_group_size));
  // In wide.cl: part[KL][RC][WL] of real4 (RC = min(PB, 4)) and s_tile[PB][16·KL] of real.
  const size_t element = size_t(precision / 8);
  const size_t local_bytes = (kl > 1 ? threads * size_t(std::min(pb_set, 4L)) * 4 * element : 0) +
                             size_t(pb_set) * 16 * size_t(kl) * element;
  if (device.local_mem_bytes > 0 && local_bytes > device.local_mem_bytes)
    throw Error(Status::InvalidArgument, "wide kernel: WL·KL = " + std::to_string(threads) + " needs " +
                                             std::to_string(local_bytes) + " bytes of local memory; the device has " +
                                             std::to_string(device.local_mem_bytes));
  ps["PRECISION"] = precision;
  return ps;
}

size_t wide_threads(const KernelParams& ps) { return size_t(param(ps, "WL") * param(ps, "KL")); }
size_t wide_columns(const KernelParams& ps) { return size_t(param(ps, "WL")) * 4 * size_t(param(ps, "LQ")); }

WideSlices wide_slices(const DeviceInfo& device, const KernelParams& ps, size_t l, size_t k, size_t items) {
  const size_t quad = 4 * size_t(param(ps, "KL"));
  const size_t l_groups = ceil_div(l, wide_columns(ps));
  const size_t units = std::max(1u, device.compute_units);
  const size_t target = kGroupsPerUnit * units;
  const size_t busy = l_groups * std::max<size_t>(1, items);
  // A call (or batch) with half the target in column groups already is not cut.
  const size_t wanted = 2 * busy >= target ? 1 : (target + busy - 1) / busy;
  size_t slices = 1;
  for (const size_t quads : kQuadsPerLane) {
    slices = std::max<size_t>(1, std::min(wanted, k / (quads * quad)));
    if (busy * slices >= kFillPerUnit * units) break;
  }
  WideSlices out;
  out.k_slice = (k + slices - 1) / slices;
  out.k_slice = (out.k_slice + quad - 1) / quad * quad;
  out.slices = (k + out.k_slice - 1) / out.k_slice;
  return out;
}

}  // namespace clgemm::detail
