// bench/registry.hpp — turns the names given to --impl into implementations.
#pragma once

#include <clgemm/context.hpp>
#include <clgemm/gemm.hpp>
#include <clgemm/quant.hpp>

#include "bench/gemm_types.hpp"
#include "bench/impl.hpp"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace clgemm::bench {

struct ImplOptions {
  double cpu_limit_s = 10.0;  // the triple loop runs only where all its runs fit in this
  int runs_per_shape = 12;    // checked run + warm-up + repeats, for the triple loop's estimate
  // How clgemm treats ragged edges (GemmOptions::force_edge_split): to compare the planner's
  // choice with either way in one run of the same build.
  GemmOptions::Toggle clgemm_edges = GemmOptions::Toggle::Auto;
  // The run's element types (--precision): the entry point each implementation calls, or "n/a"
  // where it has none.
  GemmTypes types{};
  // --quant: "clgemm" is clgemm::gemm_quantized on these weights, and "clgemm-dense" clgemm's
  // dense GEMM of their dequantized values.
  std::optional<QuantFormat> quant;
};

// Every name --impl accepts, with what it stands for.
std::vector<std::pair<std::string, std::string>> impl_names();

// Expands "ladder" (every rung) and "all" (everything), drops duplicates, keeps order.
// An unknown name throws Error(InvalidArgument) listing the valid ones.
std::vector<std::string> expand_impl_names(const std::vector<std::string>& names);

// Builds the implementations (after expand_impl_names). `ctx` must outlive them.
ImplList make_impls(const std::vector<std::string>& names, const Context& ctx, const ImplOptions& options);

}  // namespace clgemm::bench
