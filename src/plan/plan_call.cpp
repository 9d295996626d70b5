// plan_call.cpp — a call's parts: the wide kernel or the tall kernel run reversed where the call's
// layout suits them, else the edge split and the tall kernel's layout rule applied to the plan of
// its shape.
#include "plan/plan_call.hpp"

#include <clgemm/error.hpp>

#include "kernels/gemm/tall/tall_kernel.hpp"
#include "kernels/gemm/tiny/tiny_kernel.hpp"
#include "kernels/gemm/wgmma/wgmma_short_rows.hpp"
#include "kernels/gemm/wide/wide_kernel.hpp"
#include "kernels/precision.hpp"
#include "plan/edge_split.hpp"
#include "plan/path_choice.hpp"
#include "plan/wide_form.hpp"

#include <string>
#include <utility>

namespace clgemm::detail {

namespace {

// The tall kernel reads op(A) along k in place, so it takes a call only where op(A)'s rows are
// contiguous along k (in row-major terms: A not transposed). plan_gemm knows only the shape; a
// call it planned for the tall path with A the other way round is planned again without it.
GemmPlan fit_to_layout(const DeviceInfo& device, const RowMajorGemm& g, GemmPlan plan, const GemmOptions& options,
                       size_t batch) {
  if (plan.path != GemmPath::Tall || !g.trans_a) return plan;
  if (options.force_path == GemmPath::Tall)
    throw Error(Status::InvalidArgument,
                "the tall path reads the large operand along k in place: it needs a row-major call with A not "
                "transposed, or a column-major call with B not transposed");
  return plan_without_tall(device, g.m, g.n, g.k, options, g.type, batch);
}

// The wide kernel's plan, where the call's layout gives it a large operand it can stream along
// its rows (wide_form) and it pays, or where the caller forces it. A call that the tall kernel
// takes as well (few columns, A not transposed) stays with the tall kernel when that pays.
std::optional<GemmPlan> plan_wide(const DeviceInfo& device, const RowMajorGemm& g, const GemmOptions& options,
                                  size_t items) {
  const std::optional<WideForm> form = wide_form(g);
  if (options.force_path == GemmPath::Wide) {
    if (!form)
      throw Error(Status::InvalidArgument,
                  "the wide path streams the large operand along its rows: it needs (row-major) C with at most " +
                      std::to_string(kWideMaxP) + " rows and B not transposed, or at most " +
                      std::to_string(kWideMaxP) + " columns and A transposed; this call is " + std::to_string(g.m) +
                      "x" + std::to_string(g.n) + (g.trans_a ? ", A transposed" : "") +
                      (g.trans_b ? ", B transposed" : ""));
  } else {
    if (!chooses_freely(options) || !form ||
        !wide_pays(device, form->p, form->l, g.k))
      return std::nullopt;
    if (!g.trans_a && g.n <= kTallMaxN && tall_pays(device, g.m, g.n, g.k)) return std::nullopt;
    // A few 16-bit rows against large weights go to wgmma (wgmma_short_rows.hpp).
    if (form->g_is_b && device.sm90a_patching && wgmma_short_rows_pay(g.m, g.n, g.k, g.type, items))
      return std::nullopt;
  }
  GemmPlan plan;
  plan.path = GemmPath::Wide;
  plan.kernel = "wide";
  plan.params = wide_params(device, form->p, options.force_params, g.type);
  plan.source = options.force_params.empty() ? "the wide kernel's defaults"
                                             : "the caller's overrides of the wide kernel's parameters";
  plan.reason = options.force_path == GemmPath::Wide
                    ? "forced by the caller"
                    : form->g_is_b ? "C has at most " + std::to_string(kWideAutoMaxP) +
                                         " rows and B is not transposed: B is read once, in place, along its rows"
                                   : "C has at most " + std::to_string(kWideAutoMaxP) +
                                         " columns and A is transposed: A is read once, in place, along its rows";
  return plan;
}

// A C of few rows whose B is stored N×K (row-major B transposed) runs reversed on the tall kernel:
// Cᵀ = op(B)ᵀ·op(A)ᵀ, where op(B)ᵀ is B as stored, rows contiguous along k, and Cᵀ is C written
// transposed. The shape's plan says whether the tall kernel pays for it (or the caller forces it).
std::optional<GemmPart> plan_reversed_tall(const DeviceInfo& device, const RowMajorGemm& g, const BatchSpec& batch,
                                           const GemmOptions& options) {
  if (!g.trans_b || g.m > kTallMaxN || g.c_trans) return std::nullopt;
  if (path_choice(options, GemmPath::Tall) == PathChoice::RuledOut) return std::nullopt;
  if (!g.trans_a && g.n <= kTallMaxN) return std::nullopt;  // the tall kernel reads it as it is
  const GemmPlan plan = plan_gemm(device, g.n, g.m, g.k, options, g.type, batch.count);
  if (plan.path != GemmPath::Tall) return std::nullopt;
  GemmPart part{g, batch, plan};
  RowMajorGemm& r = part.g;
  r.m = g.n, r.n = g.m;
  r.a = g.b, r.b = g.a;
  r.trans_a = false, r.trans_b = !g.trans_a;
  r.c_trans = true;
  std::swap(part.batch.a_stride, part.batch.b_stride);
  std::swap(part.batch.a_offsets, part.batch.b_offsets);
  part.plan.reason += "; run reversed, Cᵀ = op(B)ᵀ·op(A)ᵀ: C has at most " + std::to_string(kTallMaxN) +
                      " rows and B is stored with its rows along k";
  return part;
}

}  // namespace

std::vector<GemmPart> plan_parts(const DeviceInfo& device, const RowMajorGemm& g, const BatchSpec& batch,
                                 const GemmOptions& options) {
  // Batches of tiny items take the tiny kernel whatever their layout (before the wide and tall
  // kernels, which serve one long operand).
  const PathChoice tiny = path_choice(options, GemmPath::Tiny);
  if (tiny == PathChoice::Forced || (tiny == PathChoice::Free && !g.c_trans && tiny_pays(g.m, g.n, g.k, batch.count)))
    return {{g, batch, plan_gemm(device, g.m, g.n, g.k, options, g.type, batch.count)}};
  if (std::optional<GemmPlan> wide = plan_wide(device, g, options, batch.count)) return {{g, batch, *wide}};
  if (std::optional<GemmPart> reversed = plan_reversed_tall(device, g, batch, options)) return {*reversed};
  const GemmPlan plan = plan_gemm(device, g.m, g.n, g.k, options, g.type, batch.count);
  if (plan.interior_m == 0) return {{g, batch, fit_to_layout(device, g, plan, options, batch.count)}};
  const Interior in{plan.interior_m, plan.interior_n};
  GemmOptions whole = options;
  whole.force_edge_split = GemmOptions::Toggle::Off;
  const GemmBlock inner = block_of(g, batch, 0, in.m, 0, in.n);
  std::vector<GemmPart> parts = {{inner.g, inner.batch, plan}};
  for (const Block& s : edge_strips(g.m, g.n, in)) {
    const GemmBlock b = block_of(g, batch, s.row0, s.rows, s.col0, s.cols);
    const GemmPlan strip = plan_gemm(device, s.rows, s.cols, g.k, whole, g.type, batch.count);
    parts.push_back({b.g, b.batch, fit_to_layout(device, b.g, strip, whole, batch.count), s.row0, s.col0});
  }
  return parts;
}

}  // namespace clgemm::detail
