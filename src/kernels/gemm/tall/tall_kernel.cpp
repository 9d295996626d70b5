// tall_kernel.cpp — when the tall kernel runs, and the parameters measured for it.
#include "kernels/gemm/tall/tall_kernel.hpp"

#include <clgemm/error.hpp>

#include <algorithm>
#include <string>

namespace clgemm::detail {

namespace {

constexpr size_t kTallMinRows = 1024;
constexpr long kMaxValues = 128;  // partial sums per work-item (RW·NB): more would spill
constexpr long kMaxLanes = 256;   // work-items sharing a row group's k

long param(const KernelParams& ps, const char* name) { return ps.at(name); }

// How many work-items share each row group's k: as many as keep every compute unit about as full
// of warps as its registers allow, up to 128. Few row groups (small m) then still fill the
// machine, and many keep 32 lanes, whose reduction is cheapest; nor more lanes than float4s of k
// to share out. H200 (median kernel time, 30
// runs): 4096×16×4096 60 -> 45 us with 64 lanes, 2048×16×2064 25 -> 18 with 128, 1024×16×4096
// 36 -> 20 with 128; 16384×16×1024, already 2048 row groups, 47 us with 32 lanes and 51 with 64.
long lanes_for(const DeviceInfo& device, size_t m, size_t k, long nb, long rw) {
  // Registers per work-item: partial sums, a step's fragments of A and B, and addresses; a
  // compute unit holds 64K of them where the device does not say (NVIDIA's do), in warps of 32.
  const size_t registers = size_t(rw * nb + 4 * nb + 4 * rw + 30);
  const size_t file = device.registers_per_work_group > 0 ? device.registers_per_work_group : 65536;
  const size_t warps_per_unit = std::max<size_t>(1, file / (registers * 32));
  const size_t room = warps_per_unit * std::max(1u, device.compute_units);
  const size_t row_groups = (m + size_t(rw) - 1) / size_t(rw);
  long lanes = 32;
  while (lanes < 128 && row_groups * size_t(2 * lanes / 32) <= room && size_t(2 * lanes) * 4 <= k) lanes *= 2;
  return lanes;
}

}  // namespace

bool tall_pays(const DeviceInfo& device, size_t m, size_t n, size_t k) {
  if (n > kTallMaxN || k < 4) return false;
  return device.kind == DeviceKind::CPU || (device.kind == DeviceKind::GPU && m >= kTallMinRows);
}

KernelParams tall_params(const DeviceInfo& device, size_t m, size_t n, size_t k, const KernelParams& overrides,
                         long precision) {
  if (n > kTallMaxN)
    throw Error(Status::InvalidArgument, "the tall path takes C with at most " + std::to_string(kTallMaxN) +
                                             " columns; this one has " + std::to_string(n));
  // Fastest measured per width on the H200, median kernel time of 30 runs:
  // 4096×16×4096 on 8 rows per row group 45 us (4 rows: 79 at best), 4096×8×4096 on 8 rows 37 us
  // (4 rows: 43), 4096×1×4096 on 4 rows 27 us (2 rows: 28-30). Work-groups of 128 work-items
  // (256 for n <= 4), as measured best with each LANES.
  const long nb = n <= 4 ? 4 : n <= 8 ? 8 : 16, rows = n <= 4 ? 4 : 8;
  long lanes = lanes_for(device, m, k, nb, rows), groups = n <= 4 ? 256 / lanes : lanes == 128 ? 1 : 2;
  // Smaller work-groups where the device allows no larger ones, or has too little local memory for
  // their reduction (part[GR][LANES][33] in tall.cl: 67.5 KiB for 256 work-items in double).
  const size_t element = size_t(precision / 8);
  const auto fits = [&](long items) {
    return size_t(items) <= device.max_work_group_size &&
           (device.local_mem_bytes == 0 || size_t(items) * 33 * element <= device.local_mem_bytes);
  };
  while (!fits(lanes * groups) && groups > 1) groups /= 2;
  while (!fits(lanes) && lanes > 32) lanes /= 2;
  KernelParams ps = {{"NB", nb}, {"RW", rows}, {"LANES", lanes}, {"GR", groups}};
  for (const auto& [name, value] : overrides) {
    if (!ps.count(name))
      throw Error(Status::InvalidArgument, "the tall kernel has no parameter " + name + " (NB, RW, GR, LANES)");
    ps[name] = value;
  }
  const long rw = param(ps, "RW"), gr = param(ps, "GR"), lanes_set = param(ps, "LANES");
  const long nb_set = param(ps, "NB");
  if (nb_set < long(n) || nb_set > long(kTallMaxN) || nb_set % 4 != 0)
    throw Error(Status::InvalidArgument, "tall kernel: NB = " + std::to_string(nb_set) +
                                             " must be a multiple of 4 up to 16 and at least n = " + std::to_string(n));
  if (rw < 1 || gr < 1 || rw * nb_set > kMaxValues)
    throw Error(Status::InvalidArgument, "tall kernel: RW and GR must be positive and RW·NB at most " +
                                             std::to_string(kMaxValues));
  if (lanes_set < 32 || lanes_set > kMaxLanes || lanes_set % 32 != 0)
    throw Error(Status::InvalidArgument, "tall kernel: LANES = " + std::to_string(lanes_set) +
                                             " must be a multiple of 32 from 32 to " + std::to_string(kMaxLanes));
  const size_t threads = size_t(lanes_set) * size_t(gr);
  if (threads > device.max_work_group_size)
    throw Error(Status::InvalidArgument, "tall kernel: " + std::to_string(threads) +
                                             " work-items per group exceed the device's " +
                                             std::to_string(device.max_work_group_size));
  const size_t local_bytes = threads * 33 * element;  // part[GR][LANES][33] in tall.cl
  if (device.local_mem_bytes > 0 && local_bytes > device.local_mem_bytes)
    throw Error(Status::InvalidArgument, "tall kernel: GR·LANES = " + std::to_string(threads) + " needs " +
                                             std::to_string(local_bytes) + " bytes of local memory; the device has " +
                                             std::to_string(device.local_mem_bytes));
  ps["PRECISION"] = precision;
  return ps;
}

size_t tall_threads(const KernelParams& ps) { return size_t(param(ps, "LANES") * param(ps, "GR")); }
size_t tall_rows(const KernelParams& ps) { return size_t(param(ps, "RW") * param(ps, "GR")); }

}  // namespace clgemm::detail
