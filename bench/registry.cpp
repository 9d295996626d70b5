// bench/registry.cpp — implementation names and their constructors.
#include "bench/registry.hpp"

#include "bench/impls/factories.hpp"

#include <clgemm/error.hpp>

#include <algorithm>

namespace clgemm::bench {

namespace {

bool is_rung_name(const std::string& name, int* number) {
  if (name.rfind("ladder:", 0) != 0) return false;
  const std::string digits = name.substr(7);
  if (digits.empty() || digits.size() > 3 || !std::all_of(digits.begin(), digits.end(), ::isdigit)) return false;
  const int n = std::stoi(digits);
  for (const auto& r : ladder_rungs())
    if (r.number == n) {
      if (number) *number = n;
      return true;
    }
  return false;
}

std::vector<std::string> all_rung_names() {
  std::vector<std::string> out;
  for (const auto& r : ladder_rungs()) out.push_back("ladder:" + std::to_string(r.number));
  return out;
}

}  // namespace

std::vector<std::pair<std::string, std::string>> impl_names() {
  return {{"clgemm", "clgemm's public gemm() API (with --quant: gemm_quantized on the quantized weights)"},
          {"clgemm-dense", "with --quant: clgemm's gemm() of the dequantized weights, in the activations' type"},
          {"clgemm-3xtf32", "clgemm with math 3xTF32: tensor cores at float32 accuracy (NVIDIA sm_80+)"},
          {"clgemm-tf32", "clgemm with math TF32 (a different precision: not counted as clgemm)"},
          {"ladder:N", "rung N of the optimisation ladder (\"ladder\" = every rung)"},
          {"clblast", "CLBlast's CLBlastSgemm (Dgemm, Hgemm) on the same OpenCL device (when built with CLBlast)"},
          {"openblas", "OpenBLAS cblas_sgemm (dgemm) on the host CPU"},
          {"cublas",
           "cuBLAS Sgemm (Dgemm, Hgemm, GemmEx) on the CUDA device (with the cuBLAS plugin and a CUDA device)"},
          {"cublas-tf32", "cuBLAS with TF32 tensor cores (a different precision: not counted as a peer)"},
          {"cublas-loop", "grouped calls only: one cuBLAS call per problem on one stream"},
          {"cpu-loop", "the textbook triple loop on one host core, where it finishes within --cpu-limit"},
          {"all", "all of the above"}};
}

std::vector<std::string> expand_impl_names(const std::vector<std::string>& names) {
  std::vector<std::string> out;
  auto add = [&out](const std::string& n) {
    if (std::find(out.begin(), out.end(), n) == out.end()) out.push_back(n);
  };
  for (const auto& name : names) {
    if (name == "all") {
      for (const char* n : {"clgemm", "clgemm-dense", "clgemm-3xtf32", "clgemm-tf32", "clblast", "cublas", "cublas-tf32",
                            "cublas-loop", "openblas", "cpu-loop"})
        add(n);
      for (const auto& r : all_rung_names()) add(r);
    } else if (name == "ladder") {
      for (const auto& r : all_rung_names()) add(r);
    } else if (is_rung_name(name, nullptr) || name == "clgemm" || name == "clgemm-dense" || name == "clgemm-3xtf32" || name == "clgemm-tf32" ||
               name == "clblast" || name == "openblas" ||
               name == "cublas" || name == "cublas-tf32" || name == "cublas-loop" || name == "cpu-loop") {
      add(name);
    } else {
      std::string valid;
      for (const auto& [n, what] : impl_names()) valid += (valid.empty() ? "" : ", ") + n;
      throw Error(Status::InvalidArgument, "--impl: unknown implementation '" + name + "' (known: " + valid + ")");
    }
  }
  if (out.empty()) throw Error(Status::InvalidArgument, "--impl: no implementation given");
  return out;
}

ImplList make_impls(const std::vector<std::string>& names, const Context& ctx, const ImplOptions& options) {
  ImplList out;
  const auto rungs = ladder_rungs();
  for (const auto& name : expand_impl_names(names)) {
    int rung = 0;
    const GemmTypes& t = options.types;
    if (name == "clgemm" && options.quant) out.push_back(make_clgemm_quant(ctx, *options.quant, t));
    else if (name == "clgemm") out.push_back(make_clgemm_api(ctx, options.clgemm_edges, Math::Fp32, t));
    else if (name == "clgemm-dense")
      out.push_back(make_clgemm_api(ctx, options.clgemm_edges, Math::Fp32, t, "clgemm-dense"));
    else if (name == "clgemm-3xtf32") out.push_back(make_clgemm_api(ctx, options.clgemm_edges, Math::Tf32x3, t));
    else if (name == "clgemm-tf32") out.push_back(make_clgemm_api(ctx, options.clgemm_edges, Math::Tf32, t));
    else if (name == "clblast") out.push_back(make_clblast(ctx, t));
    else if (name == "openblas") out.push_back(make_openblas(t));
    else if (name == "cpu-loop") out.push_back(make_cpu_loop(options.cpu_limit_s, options.runs_per_shape));
    else if (name == "cublas") out.push_back(make_cublas(false, t));
    else if (name == "cublas-tf32") out.push_back(make_cublas(true, t));
    else if (name == "cublas-loop") out.push_back(make_cublas_loop(t));
    else if (is_rung_name(name, &rung))
      out.push_back(make_ladder_rung(ctx, *std::find_if(rungs.begin(), rungs.end(),
                                                        [rung](const RungInfo& r) { return r.number == rung; })));
  }
  return out;
}

}  // namespace clgemm::bench
