// grouped_launch.cpp — the grouped call's plan and command (grouped_launch.hpp).
#include "plan/grouped_launch.hpp"

#include <clgemm/error.hpp>

#include "kernels/gemm/dmma/dmma_kernel.hpp"
#include "kernels/gemm/grouped/grouped_kernel.hpp"
#include "kernels/gemm/xgemm/xgemm_kernel.hpp"
#include "kernels/precision.hpp"
#include "plan/path_choice.hpp"

#include <algorithm>
#include <climits>
#include <functional>
#include <string>
#include <utility>

namespace clgemm::detail {

namespace {

// Whether every problem satisfies `ok`.
bool all_of(const std::vector<RowMajorGemm>& problems, const std::function<bool(const RowMajorGemm&)>& ok) {
  return std::all_of(problems.begin(), problems.end(), ok);
}

// Whether every problem has the first one's transposes: xgemm and dmma build a grouped kernel for
// one pair.
bool one_pair_of_transposes(const std::vector<RowMajorGemm>& problems) {
  const RowMajorGemm& first = problems.front();
  return all_of(problems,
                [&](const RowMajorGemm& g) { return g.trans_a == first.trans_a && g.trans_b == first.trans_b; });
}

// Multiply-adds from which f64 problems take dmma: in the mean problem, and in all, as batches of
// whole tiles do (tensor_plans.cpp).
constexpr double kDmmaMeanItem = 64.0 * 64 * 64;
constexpr double kDmmaTotal = 67108864.0;  // 2^26

// The problems' mean m, n and k (at least 1 each).
GemmShape mean_shape(const std::vector<RowMajorGemm>& problems) {
  double m = 0, n = 0, k = 0;
  for (const RowMajorGemm& g : problems) m += double(g.m), n += double(g.n), k += double(g.k);
  const double count = double(problems.size());
  return {std::max<size_t>(1, size_t(m / count)), std::max<size_t>(1, size_t(n / count)),
          std::max<size_t>(1, size_t(k / count))};
}

// Why dmma cannot take the problems (f64 on the FP64 tensor cores, every operand read in place
// with guarded copies), or "" where it can: f64 A, B and C, a device with the tensor path, and one
// pair of transposes.
std::string dmma_refusal(const DeviceInfo& device, const std::vector<RowMajorGemm>& problems) {
  const RowMajorGemm& first = problems.front();
  if (first.type != DataType::F64 || first.c_type != DataType::F64) return "A, B and C are not all f64";
  if (!tensor_path_available(device)) return device.name + " has no FP64 tensor path (NVIDIA sm_80 or newer)";
  if (!one_pair_of_transposes(problems)) return "the problems' transposes differ";
  return "";
}

// dmma's plan for the problems: where the caller forces the tensor path (GemmOptions::force_params
// then override the kernel's defaults, as for a single call), or where nothing is forced and the problems have kDmmaMeanItem multiply-adds on
// average and kDmmaTotal in all (dmma_grouped_tiles).
std::optional<GroupedPlan> plan_grouped_dmma(const DeviceInfo& device, const std::vector<RowMajorGemm>& problems,
                                             const GemmOptions& options) {
  const PathChoice choice = path_choice(options, GemmPath::Tensor);
  if (choice == PathChoice::RuledOut) return std::nullopt;
  const bool forced = choice == PathChoice::Forced;
  const std::string refusal = dmma_refusal(device, problems);
  if (forced && !refusal.empty())
    throw Error(Status::InvalidArgument,
                "options.force_path: a grouped call takes the tensor path where dmma reads every problem in place; " +
                    refusal);
  if (!refusal.empty()) return std::nullopt;
  const GemmShape mean = mean_shape(problems);
  double total = 0;
  for (const RowMajorGemm& g : problems) total += double(g.m) * double(g.n) * double(g.k);
  if (!forced && (double(mean.m) * double(mean.n) * double(mean.k) < kDmmaMeanItem || total < kDmmaTotal))
    return std::nullopt;
  KernelParams ps = options.force_params.empty() ? dmma_grouped_tiles(device) : options.force_params;
  ps["PRECISION"] = 64;
  GroupedPlan plan;
  plan.kernel = GroupedKernel::Dmma;
  plan.params = resolve_params(dmma_descriptor(), device, ps);
  plan.source = !options.force_params.empty() ? "the caller's overrides of the dmma kernel's defaults"
                                              : "dmma's tiles for grouped calls (problems of mean size " +
                                                    shape_text(mean) + ")";
  return plan;
}

// xgemm's tiles for the problems, where it can read them all in place: the cp.async pipeline
// (NVIDIA, sm_80+) for operands of any alignment, operands stored as computed (f32, f64), and
// one pair of transposes, which the kernel is built for. The tiles are the batched class's for
// items of the problems' mean size (plan_gemm with their count), with A read in place.
std::optional<GroupedPlan> plan_grouped_xgemm(const DeviceInfo& device, const std::vector<RowMajorGemm>& problems,
                                              const GemmOptions& options) {
  const RowMajorGemm& first = problems.front();
  if (!chooses_freely(options) || !has_cp_async(device) ||
      !stored_as_computed(first.type) || !stored_as_computed(first.c_type) ||
      !one_pair_of_transposes(problems))
    return std::nullopt;
  const GemmShape mean = mean_shape(problems);
  const GemmPlan item = plan_gemm(device, mean.m, mean.n, mean.k, {}, first.type, problems.size());
  if (item.path != GemmPath::Packed || p(item.params, "ASYNC") == 0) return std::nullopt;
  GroupedPlan plan;
  plan.kernel = GroupedKernel::Xgemm;
  plan.params = item.params;
  plan.params["PACKA"] = 0;
  plan.source = "xgemm's tiles for a batch of items of the problems' mean size, " + shape_text(mean) + " (" +
                item.source + ")";
  return plan;
}

// A command that runs `d`'s kernel, built with `options`.
Command kernel_command(const GemmKernelDescriptor& d, std::string what, std::string options) {
  Command c;
  c.what = std::move(what);
  c.sources = d.program_sources();
  c.entry = d.entry;
  c.options = std::move(options);
  return c;
}

// The grouped kernel (gemm/grouped/grouped.cl): per problem its sizes, leading dimensions, offsets,
// transposes, first tile and tiles along n.
Command grouped_command(const std::vector<RowMajorGemm>& problems, const KernelParams& ps, BatchArrays& arrays,
                        size_t& tiles) {
  const size_t tm = size_t(p(ps, "TM")), tn = size_t(p(ps, "TN"));
  for (const RowMajorGemm& g : problems) {
    const size_t tiles_n = ceil_div(g.n, tn);
    const uint64_t trans = (g.trans_a ? 1u : 0u) | (g.trans_b ? 2u : 0u);
    arrays.offsets.insert(arrays.offsets.end(), {g.m, g.n, g.k, g.a.ld, g.b.ld, g.c.ld, g.a.offset, g.b.offset,
                                                 g.c.offset, trans, tiles, std::max<size_t>(tiles_n, 1)});
    tiles += ceil_div(g.m, tm) * tiles_n;
  }
  const GemmKernelDescriptor& d = grouped_descriptor();
  Command c = kernel_command(d, "grouped",
                             build_options(ps) + storage_options(problems.front().type, problems.front().c_type));
  const cl::NDRange local = d.local(ps);
  c.dims = 2;
  c.global = {tiles * local[0], local[1], 1};
  c.local = {local[0], local[1], 1};
  return c;
}

// xgemm built for a grouped call (GROUPED, xgemm/schedule.cl): every operand in place, in vectors
// where every problem allows them, all guards on. Per problem: M, N, K, K rounded up to KWG, A's
// and B's offset and row length in the units the kernel loads them in, C's offset and ldc, tiles
// along n and first tile.
Command xgemm_command(const std::vector<RowMajorGemm>& problems, const KernelParams& ps, BatchArrays& arrays,
                      size_t& tiles) {
  const RowMajorGemm& first = problems.front();
  const size_t mwg = p(ps, "MWG"), nwg = p(ps, "NWG"), kwg = p(ps, "KWG"), vwm = p(ps, "VWM"), vwn = p(ps, "VWN");
  const auto aligned = [](const MatrixRef& r, size_t w) { return r.ld % w == 0 && r.offset % w == 0; };
  // As add_packed reads operands in place (tile_launch.cpp), with every problem's alignment.
  const bool a_km = first.trans_a;
  const bool a_vec = a_km ? all_of(problems, [&](const RowMajorGemm& g) { return g.m % vwm == 0 && aligned(g.a, vwm); })
                          : p(ps, "ALK") > 0 && all_of(problems, [&](const RowMajorGemm& g) { return aligned(g.a, 4); });
  const size_t a_unit = !a_vec ? 1 : a_km ? vwm : 4;
  const bool b_kn = !first.trans_b;
  const bool b_vec = b_kn && all_of(problems, [&](const RowMajorGemm& g) { return g.n % vwn == 0 && aligned(g.b, vwn); });
  const bool b_pairs = b_kn && !b_vec && (kwg * nwg / 2) % size_t(wgs(ps)) == 0 &&
                       all_of(problems, [&](const RowMajorGemm& g) { return g.n % 2 == 0 && aligned(g.b, 2); });
  const size_t b_unit = b_vec ? vwn : 1;
  const bool c_vec = all_of(problems, [&](const RowMajorGemm& g) { return aligned(g.c, vwn); });
  for (const RowMajorGemm& g : problems) {
    const size_t tiles_n = ceil_div(g.n, nwg);
    arrays.offsets.insert(arrays.offsets.end(),
                          {g.m, g.n, g.k, ceil_div(g.k, kwg) * kwg, g.a.offset / a_unit, g.a.ld / a_unit,
                           g.b.offset / b_unit, g.b.ld / b_unit, g.c.offset, g.c.ld, std::max<size_t>(tiles_n, 1),
                           tiles});
    tiles += ceil_div(g.m, mwg) * tiles_n;
  }
  const GemmKernelDescriptor& d = xgemm_descriptor();
  Command c = kernel_command(
      d, "xgemm, grouped",
      build_options(ps) + storage_options(DataType::F32, first.c_type) + flag("C_VEC", c_vec) + flag("A_KM", a_km) +
          flag("A_VEC", a_vec) + flag("B_KN", b_kn) + flag("B_VEC", b_vec) + flag("B_PAIRS", b_pairs) +
          flag("GUARD_M", true) + flag("GUARD_N", true) + flag("GUARD_K", true) + flag("SPLIT", false) +
          " -DSPLITS=1" + flag("SK_LOOP", false) + flag("NV_FENCE", false) + flag("BATCHED", false) +
          flag("GROUPED", true));
  c.min_groups_per_cu = unsigned(p(ps, "MINWG"));
  const cl::NDRange local = d.local(ps);
  c.dims = 3;
  c.global = {tiles * local[0], local[1], local[2]};
  c.local = {local[0], local[1], local[2]};
  return c;
}

// dmma built for a grouped call (GROUPED, gemm/dmma/dmma.cl): A as M×K (A_MK) or At, B as N×K (B_NK)
// or K×N, each read in place, in pairs of doubles where every row of A and B starts on a 16-byte
// boundary, else one double at a time (COPY8). Per problem, in doubles: M, N, K, K rounded up to
// BK, A's and B's offset and row length, C's offset and ldc, tiles along n and first tile; K is 0
// for a problem that reads neither A nor B. The kernel's M is the number of problems; its other
// sizes, offsets and scalars come from the list.
Command dmma_command(const std::vector<RowMajorGemm>& problems, const KernelParams& ps, BatchArrays& arrays,
                     size_t& tiles) {
  const RowMajorGemm& first = problems.front();
  const size_t bm = p(ps, "BM"), bn = p(ps, "BN"), bk = p(ps, "BK");
  const auto pairs = [](const MatrixRef& r) { return r.ld % 2 == 0 && r.offset % 2 == 0; };
  const bool copy8 = !all_of(problems, [&](const RowMajorGemm& g) {
    return !reads_operands(g.k, g.alpha) || (pairs(g.a) && pairs(g.b));
  });
  for (const RowMajorGemm& g : problems) {
    const size_t tiles_n = ceil_div(g.n, bn), k = reads_operands(g.k, g.alpha) ? g.k : 0;
    arrays.offsets.insert(arrays.offsets.end(),
                          {g.m, g.n, k, ceil_div(k, bk) * bk, g.a.offset, g.a.ld, g.b.offset, g.b.ld, g.c.offset,
                           g.c.ld, std::max<size_t>(tiles_n, 1), tiles});
    tiles += ceil_div(g.m, bm) * tiles_n;
  }
  const GemmKernelDescriptor& d = dmma_descriptor();
  Command c = kernel_command(d, "dmma, grouped",
                             build_options(ps) + flag("A_MK", !first.trans_a) + flag("B_NK", first.trans_b) +
                                 flag("BATCHED", false) + flag("GROUPED", true) + flag("COPY8", copy8));
  const cl::NDRange local = d.local(ps);
  c.dims = 1;
  c.global = {tiles * local[0], 1, 1};
  c.local = {local[0], 1, 1};
  using Arg = KernelArg;
  const Arg none_i = Arg::i32(0), none_u = Arg::u64(0), none_r = Arg::real(0.0, DataType::F64);
  c.args = {Arg::i32(int64_t(problems.size())), none_i, none_i, none_i, none_r, none_r,
            Arg::mem(BufferRole::A), none_u, none_i, none_u, Arg::mem(BufferRole::B), none_u, none_i, none_u,
            Arg::mem(BufferRole::C), none_u, none_i, none_u, Arg::i32(1),
            Arg::mem(BufferRole::BatchScalars, 0), Arg::mem(BufferRole::BatchOffsets, 0)};
  return c;
}

}  // namespace

GroupedPlan plan_grouped(const DeviceInfo& device, const std::vector<RowMajorGemm>& problems,
                         const GemmOptions& options) {
  if (!problems.empty()) {
    if (std::optional<GroupedPlan> dmma = plan_grouped_dmma(device, problems, options)) return *dmma;
    if (std::optional<GroupedPlan> xgemm = plan_grouped_xgemm(device, problems, options)) return *xgemm;
  }
  const DataType type = problems.empty() ? DataType::F32 : problems.front().type;
  KernelParams overrides = options.force_params;
  overrides["PRECISION"] = precision_bits(type);
  GroupedPlan plan;
  plan.params = resolve_params(grouped_descriptor(), device, overrides);
  plan.source = options.force_params.empty() ? "the grouped kernel's defaults for a " + device.kind_name()
                                             : "the caller's overrides of the grouped kernel's defaults";
  return plan;
}

LaunchPlan build_grouped_launch(const std::vector<RowMajorGemm>& problems, const GroupedPlan& plan) {
  LaunchPlan launch;
  if (problems.empty()) return launch;
  BatchArrays arrays;
  arrays.scalar_type = compute_type(problems.front().type);
  for (const RowMajorGemm& g : problems) arrays.scalars.insert(arrays.scalars.end(), {g.alpha, g.beta});
  size_t tiles = 0;
  Command c = plan.kernel == GroupedKernel::Dmma    ? dmma_command(problems, plan.params, arrays, tiles)
              : plan.kernel == GroupedKernel::Xgemm ? xgemm_command(problems, plan.params, arrays, tiles)
                                                    : grouped_command(problems, plan.params, arrays, tiles);
  if (tiles == 0) return launch;
  if (tiles > size_t(INT_MAX) || problems.size() > size_t(INT_MAX))
    throw Error(Status::SizeOverflow, "a grouped call of " + std::to_string(tiles) +
                                          " tiles exceeds the 2^31 - 1 work-groups one launch indexes");
  launch.batch_arrays.push_back(std::move(arrays));
  if (c.args.empty())  // the grouped kernel's and xgemm's; dmma_command sets dmma's own
    c.args = {KernelArg::i32(int64_t(problems.size())), KernelArg::mem(BufferRole::BatchOffsets, 0),
              KernelArg::mem(BufferRole::BatchScalars, 0), KernelArg::mem(BufferRole::A),
              KernelArg::mem(BufferRole::B), KernelArg::mem(BufferRole::C)};
  launch.commands.push_back(std::move(c));
  return launch;
}

}  // namespace clgemm::detail
