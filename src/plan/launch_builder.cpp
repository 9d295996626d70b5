// launch_builder.cpp — the commands of the direct, tiny, tall and wide paths and of the beta-only
// scaling; the tile kernels' (tile_launch.cpp) and wgmma's (wgmma_launch.cpp) for the other paths.
#include "plan/launch_builder.hpp"

#include <clgemm/error.hpp>

#include "kernels/descriptor.hpp"
#include "kernels/gemm/direct/direct_kernel.hpp"
#include "kernels/gemm/tall/tall_kernel.hpp"
#include "kernels/gemm/wide/wide_kernel.hpp"
#include "kernels/gemm/xgemm/xgemm_kernel.hpp"  // has_cp_async
#include "kernels/precision.hpp"
#include "plan/launch_parts.hpp"
#include "plan/tile_launch.hpp"
#include "plan/wgmma_launch.hpp"
#include "plan/wide_form.hpp"

#include <algorithm>
#include <climits>

namespace clgemm::detail {

namespace {

constexpr size_t kScaleX = 32, kScaleY = 8;

// M, N, K, alpha, beta: how direct.cl and tall.cl open their signatures.
std::vector<Arg> shape_args(const RowMajorGemm& g) {
  const DataType compute = compute_type(g.type);
  return {Arg::i32(int64_t(g.m)), Arg::i32(int64_t(g.n)), Arg::i32(int64_t(g.k)), Arg::real(g.alpha, compute),
          Arg::real(g.beta, compute)};
}

// A, B and C read in place, as direct.cl and tiny.cl take them: each buffer, offset, leading
// dimension and batch stride, in elements.
std::vector<Arg> in_place_args(const RowMajorGemm& g, const BatchSpec& s) {
  std::vector<Arg> args;
  const std::pair<const MatrixRef*, BufferRole> operands[] = {{&g.a, BufferRole::A}, {&g.b, BufferRole::B},
                                                               {&g.c, BufferRole::C}};
  for (const auto& [r, role] : operands) {
    const size_t stride = role == BufferRole::A ? s.a_stride : role == BufferRole::B ? s.b_stride : s.c_stride;
    args.insert(args.end(), {Arg::mem(role), Arg::u64(r->offset), Arg::i32(int64_t(r->ld)), Arg::u64(stride)});
  }
  return args;
}

// What direct.cl and tiny.cl share: the build options (parameters, storage, transposes, how the
// batch is given) and the arguments (shape, the three operands in place, the batch arrays).
Command in_place_command(Builder& b, const RowMajorGemm& g, const BatchSpec& s, const KernelParams& ps) {
  Command c;
  c.options = build_options(ps) + storage_options(g.type, g.c_type) + flag("TRANS_A", g.trans_a) +
              flag("TRANS_B", g.trans_b) + flag("BATCH_ARRAYS", s.arrays);
  c.args = shape_args(g);
  const std::vector<Arg> in_place = in_place_args(g, s);
  c.args.insert(c.args.end(), in_place.begin(), in_place.end());
  const auto [scalars, offsets] = b.batch_arrays(s);
  c.args.insert(c.args.end(), {scalars, offsets});
  return c;
}

void add_direct(Builder& b, const RowMajorGemm& call, const BatchSpec& batch, const GemmPlan& plan) {
  const GemmKernelDescriptor& d = direct_descriptor();
  for (const Piece& piece : pieces(call, batch, kMaxItemsPerLaunch)) {
    const RowMajorGemm& g = piece.g;
    Command c = in_place_command(b, g, piece.s, plan.params);
    c.what = "direct";
    c.sources = d.program_sources();
    c.entry = d.entry;
    const cl::NDRange global = d.global({g.m, g.n, g.k}, plan.params), local = d.local(plan.params);
    c.dims = 3;
    c.global = {global[0], global[1], piece.s.count};
    c.local = {local[0], local[1], 1};
    b.add(std::move(c));
  }
}

// The tiny kernel: one command for the whole batch, a work-item per element of C, the items along
// dimension 0 (so no 65535-item pieces).
void add_tiny(Builder& b, const RowMajorGemm& g, const BatchSpec& s, const GemmPlan& plan) {
  const size_t wg = size_t(p(plan.params, "WG"));
  const size_t elements = g.m * g.n * s.count;
  if (s.count > size_t(INT_MAX) || elements > (size_t(1) << 40))
    throw Error(Status::SizeOverflow, "a tiny batch of " + std::to_string(s.count) + " items of " +
                                          std::to_string(g.m) + "x" + std::to_string(g.n) +
                                          " exceeds what one launch indexes");
  Command c = in_place_command(b, g, s, plan.params);
  c.what = "tiny";
  c.sources = {"common/vectors.cl", "common/batch.cl", "gemm/tiny/tiny.cl"};
  c.entry = "gemm_tiny";
  c.args.push_back(Arg::i32(int64_t(s.count)));
  c.dims = 1;
  c.global = {round_up(elements, wg), 1, 1};
  c.local = {wg, 1, 1};
  b.add(std::move(c));
}

// The tall kernel reads op(A) along k in place: the planner gives it only calls whose op(A) has
// rows contiguous along k (plan/plan_call.cpp).
void add_tall(Builder& b, const RowMajorGemm& call, const BatchSpec& batch, const GemmPlan& plan) {
  if (call.trans_a) throw Error(Status::InternalError, "the tall kernel was planned for a transposed A");
  const KernelParams& ps = plan.params;
  for (const Piece& piece : pieces(call, batch, kMaxItemsPerLaunch)) {
    const RowMajorGemm& g = piece.g;
    const BatchSpec& s = piece.s;
    const bool a_vec = aligned_to(g.a.ld, g.a.offset, s.a_stride, s.a_offsets, 4);
    const bool b_aligned = aligned_to(g.b.ld, g.b.offset, s.b_stride, s.b_offsets, 4);
    const bool b_vec = !g.trans_b && b_aligned && g.n == size_t(p(ps, "NB"));
    // Columns of B along k as real4s only where C has more than 4 columns: up to 4 the element
    // loads run faster (H200, 8192×1×8192 with B transposed: 1570 GFLOP/s against 1104; H100,
    // 4096×4×4096: 4043 against 3297), at 8 the real4s (H100, 4096×8×4096: 8089 against 7204).
    const bool b_kvec = g.trans_b && b_aligned && g.n > 4;
    const bool b_rows = !g.trans_b && !b_vec;  // row-major B that is not in whole float4 rows
    // B(p, j) = B[p·b_ks + j·b_ns]: stored k×n, or n×k when transposed.
    const int64_t b_ks = g.trans_b ? 1 : int64_t(g.b.ld), b_ns = g.trans_b ? int64_t(g.b.ld) : 1;
    Command c;
    c.what = "tall";
    c.sources = {"common/vectors.cl", "common/batch.cl", "gemm/tall/tall.cl"};
    c.entry = "gemm_tall";
    c.options = build_options(ps) + storage_options(g.type, g.c_type) + flag("A_VEC", a_vec) + flag("B_VEC", b_vec) +
                flag("B_KVEC", b_kvec) + flag("B_ROWS", b_rows) + flag("C_T", g.c_trans) +
                flag("BATCH_ARRAYS", s.arrays);
    c.args = shape_args(g);
    // A call run reversed (c_trans) has the call's B in A's place and its A in B's: the buffers
    // are bound by role, so the roles trade places too.
    const BufferRole a_role = g.c_trans ? BufferRole::B : BufferRole::A, b_role = g.c_trans ? BufferRole::A : BufferRole::B;
    c.args.insert(c.args.end(), {Arg::mem(a_role), Arg::u64(g.a.offset), Arg::i32(int64_t(g.a.ld)),
                                 Arg::u64(s.a_stride), Arg::mem(b_role), Arg::u64(g.b.offset), Arg::i32(b_ks),
                                 Arg::i32(b_ns), Arg::u64(s.b_stride), Arg::mem(BufferRole::C), Arg::u64(g.c.offset),
                                 Arg::i32(int64_t(g.c.ld)), Arg::u64(s.c_stride)});
    const auto [scalars, offsets] = b.batch_arrays(s);
    c.args.insert(c.args.end(), {scalars, offsets});
    const size_t threads = tall_threads(ps), groups = (g.m + tall_rows(ps) - 1) / tall_rows(ps);
    c.dims = 2;
    c.global = {groups * threads, s.count, 1};
    c.local = {threads, 1, 1};
    b.add(std::move(c));
  }
}

// The wide kernel streams the large operand G along its rows (plan/wide_form.hpp says which one
// it is). Where K is cut into slices, each slice's sums go to a temporary, and they are added up in
// slice order: for one row of S by the last slice of each column group to finish (a zeroed count
// per column group and item, which the kernel sets back to zero, so that the next piece and the
// next call find it so), for more rows by gemm_wide_sum (wide.cl says why).
void add_wide(Builder& b, const RowMajorGemm& call, const BatchSpec& batch, const GemmPlan& plan) {
  const std::optional<WideForm> form = wide_form(call);
  if (!form) throw Error(Status::InternalError, "the wide kernel was planned for a call it cannot read in place");
  const KernelParams& ps = plan.params;
  const DataType compute = compute_type(call.type);
  const std::vector<std::string> sources = {"common/vectors.cl", "common/batch.cl", "common/device_fence.cl",
                                            "gemm/wide/wide.cl"};
  for (const Piece& piece : pieces(call, batch, kMaxItemsPerLaunch)) {
    const RowMajorGemm& g = piece.g;
    const BatchSpec& s = piece.s;
    // G, S and C in the kernel's terms: G(k, l) = G[k·ldg + l], S(p, k) = S[p·s_ps + k·s_ks],
    // out(p, l) = C[p·c_ps + l·c_ls].
    const bool g_is_b = form->g_is_b;
    const MatrixRef& gm = g_is_b ? g.b : g.a;
    const MatrixRef& sm = g_is_b ? g.a : g.b;
    const size_t g_stride = g_is_b ? s.b_stride : s.a_stride, s_stride = g_is_b ? s.a_stride : s.b_stride;
    const std::vector<size_t>& g_offsets = g_is_b ? s.b_offsets : s.a_offsets;
    // S is op(A) (p = i) or op(B)ᵀ (p = j); it runs along k where A is not transposed, or B is.
    const bool s_along_k = g_is_b ? !g.trans_a : g.trans_b;
    const int64_t s_ps = s_along_k ? int64_t(sm.ld) : 1, s_ks = s_along_k ? 1 : int64_t(sm.ld);
    const int64_t c_ps = g_is_b ? int64_t(g.c.ld) : 1, c_ls = g_is_b ? 1 : int64_t(g.c.ld);
    // Whole aligned loads of a work-item's 4·LQ elements of a row of G.
    const bool g_vec = aligned_to(gm.ld, gm.offset, g_stride, g_offsets, 4 * size_t(p(ps, "LQ")));
    const WideSlices cut = wide_slices(b.device(), ps, form->l, g.k, s.count);
    const size_t threads = wide_threads(ps), l_groups = ceil_div(form->l, wide_columns(ps));
    const bool sliced = cut.slices > 1, sum_last = sliced && p(ps, "PB") == 1;
    Arg ws = Arg::mem(BufferRole::None), counts = Arg::mem(BufferRole::None);
    if (sliced)
      ws = Arg::mem(BufferRole::Temporary,
                    b.temporary("wide partial sums",
                                s.count * cut.slices * size_t(p(ps, "PB")) * form->l * data_type_bytes(compute)));
    if (sum_last)
      counts = Arg::mem(BufferRole::Temporary, b.temporary("wide slice counts", s.count * l_groups * sizeof(int32_t), true));
    const auto [scalars, offsets] = b.batch_arrays(s);
    const std::string options = build_options(ps) + storage_options(g.type, g.c_type) + flag("G_VEC", g_vec) +
                                flag("G_IS_B", g_is_b) + flag("BATCH_ARRAYS", s.arrays) + flag("SLICED", sliced) +
                                flag("SUM_LAST", sum_last) + flag("NV_FENCE", sum_last && has_cp_async(b.device()));
    Command c;
    c.what = !sliced ? "wide" : "wide, " + std::to_string(cut.slices) + " slices of K" + (sum_last ? ", the last adding up" : "");
    c.sources = sources;
    c.entry = "gemm_wide";
    c.options = options;
    c.args = {Arg::i32(int64_t(form->p)), Arg::i32(int64_t(form->l)), Arg::i32(int64_t(g.k)),
              Arg::real(g.alpha, compute), Arg::real(g.beta, compute),
              Arg::mem(g_is_b ? BufferRole::B : BufferRole::A), Arg::u64(gm.offset), Arg::i32(int64_t(gm.ld)),
              Arg::u64(g_stride),
              Arg::mem(g_is_b ? BufferRole::A : BufferRole::B), Arg::u64(sm.offset), Arg::i32(s_ps), Arg::i32(s_ks),
              Arg::u64(s_stride),
              Arg::mem(BufferRole::C), Arg::u64(g.c.offset), Arg::i32(c_ps), Arg::i32(c_ls), Arg::u64(s.c_stride),
              Arg::i32(int64_t(cut.k_slice)), ws, counts, scalars, offsets};
    c.dims = 3;
    c.global = {l_groups * threads, cut.slices, s.count};
    c.local = {threads, 1, 1};
    b.add(std::move(c));
    if (!sliced || sum_last) continue;
    Command sum;
    sum.what = "add up the wide kernel's slices";
    sum.sources = sources;
    sum.entry = "gemm_wide_sum";
    sum.options = options;
    sum.args = {Arg::i32(int64_t(form->p)), Arg::i32(int64_t(form->l)), Arg::i32(int64_t(cut.slices)),
                Arg::real(g.alpha, compute), Arg::real(g.beta, compute), ws, Arg::mem(BufferRole::C),
                Arg::u64(g.c.offset), Arg::i32(c_ps), Arg::i32(c_ls), Arg::u64(s.c_stride), scalars, offsets};
    sum.dims = 3;
    sum.global = {round_up(form->l, kScaleX), round_up(form->p, kScaleY), s.count};
    sum.local = {kScaleX, kScaleY, 1};
    b.add(std::move(sum));
  }
}

}  // namespace

namespace {

using AddCommands = void (*)(Builder&, const RowMajorGemm&, const BatchSpec&, const GemmPlan&);

// The commands of each kernel family, by the name its plan carries (GemmPlan::kernel).
AddCommands family_commands(const GemmPlan& plan) {
  static const std::vector<std::pair<std::string, AddCommands>> families = {
      {"direct", add_direct}, {"xgemm", add_packed}, {"tall", add_tall},   {"wide", add_wide},
      {"tiny", add_tiny},     {"xmma", add_tensor},  {"dmma", add_tensor}, {"wgmma", add_wgmma},
  };
  for (const auto& [name, add] : families)
    if (name == plan.kernel) return add;
  throw Error(Status::InternalError, "a plan of the " + std::string(path_name(plan.path)) + " path names no kernel "
                                         "family that has commands ('" + plan.kernel + "')");
}

}  // namespace

LaunchPlan build_launch_plan(const DeviceInfo& device, const std::vector<GemmPart>& parts) {
  LaunchPlan plan;
  plan.parts = parts.size();
  for (size_t i = 0; i < parts.size(); ++i) {
    const GemmPart& part = parts[i];
    Builder b(device, plan, i, part.g.type);
    if (part.g.c_trans && part.plan.path != GemmPath::Tall)
      throw Error(Status::InternalError, "a transposed C was planned for a kernel other than the tall one");
    family_commands(part.plan)(b, part.g, part.batch, part.plan);
  }
  return plan;
}

LaunchPlan build_scale_plan(const DeviceInfo& device, const RowMajorGemm& call, const BatchSpec& batch) {
  LaunchPlan plan;
  Builder b(device, plan, 0, call.type);
  for (const Piece& piece : pieces(call, batch, kMaxItemsPerLaunch)) {
    const auto [scalars, offsets] = b.batch_arrays(piece.s);
    Command c;
    c.what = "C = beta*C";
    c.sources = {"common/vectors.cl", "common/batch.cl", "util/scale.cl"};
    c.entry = "gemm_scale";
    c.options = "-DWG_X=" + std::to_string(kScaleX) + " -DWG_Y=" + std::to_string(kScaleY) +
                precision_option(piece.g.type) + storage_options(piece.g.type, piece.g.c_type) +
                flag("BATCH_ARRAYS", piece.s.arrays);
    c.args = {Arg::i32(int64_t(piece.g.m)), Arg::i32(int64_t(piece.g.n)), Arg::real(piece.g.beta, compute_type(piece.g.type)),
              Arg::mem(BufferRole::C),      Arg::u64(piece.g.c.offset),  Arg::i32(int64_t(piece.g.c.ld)),
              Arg::u64(piece.s.c_stride),   scalars,                      offsets};
    c.dims = 3;
    c.global = {round_up(piece.g.n, kScaleX), round_up(piece.g.m, kScaleY), piece.s.count};
    c.local = {kScaleX, kScaleY, 1};
    b.add(std::move(c));
  }
  return plan;
}

}  // namespace clgemm::detail
