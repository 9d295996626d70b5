// plan_call.cpp — a call's parts: the edge split and the tall kernel's layout rule applied to the
// plan of its shape.
#include "plan/plan_call.hpp"

#include <clgemm/error.hpp>

#include "plan/edge_split.hpp"

namespace clgemm::detail {

namespace {

// The tall kernel reads op(A) along k in place, so it takes a call only where op(A)'s rows are
// contiguous along k (in row-major terms: A not transposed). plan_gemm knows only the shape; a
// call it planned for the tall path with A the other way round is planned again without it.
GemmPlan fit_to_layout(const DeviceInfo& device, const RowMajorGemm& g, GemmPlan plan, const GemmOptions& options) {
  if (plan.path != GemmPath::Tall || !g.trans_a) return plan;
  if (options.force_path == GemmPath::Tall)
    throw Error(Status::InvalidArgument,
                "the tall path reads the large operand along k in place: it needs a row-major call with A not "
                "transposed, or a column-major call with B not transposed");
  return plan_without_tall(device, g.m, g.n, g.k, options, g.type);
}

}  // namespace

std::vector<GemmPart> plan_parts(const DeviceInfo& device, const RowMajorGemm& g, const BatchSpec& batch,
                                 const GemmOptions& options) {
  const GemmPlan plan = plan_gemm(device, g.m, g.n, g.k, options, g.type);
  if (plan.interior_m == 0) return {{g, batch, fit_to_layout(device, g, plan, options)}};
  const Interior in{plan.interior_m, plan.interior_n};
  GemmOptions whole = options;
  whole.force_edge_split = GemmOptions::Toggle::Off;
  const GemmBlock inner = block_of(g, batch, 0, in.m, 0, in.n);
  std::vector<GemmPart> parts = {{inner.g, inner.batch, plan}};
  for (const Block& s : edge_strips(g.m, g.n, in)) {
    const GemmBlock b = block_of(g, batch, s.row0, s.rows, s.col0, s.cols);
    parts.push_back({b.g, b.batch, fit_to_layout(device, b.g, plan_gemm(device, s.rows, s.cols, g.k, whole, g.type), whole),
                     s.row0, s.col0});
  }
  return parts;
}

}  // namespace clgemm::detail
