// bench/impls/factories.hpp — constructors of the implementations, one source file each. Those
// that compute more than float32 take the run's element types (--precision): their entry point,
// description and arithmetic follow from them, and a problem of other types is "n/a".
#pragma once

#include <clgemm/context.hpp>
#include <clgemm/gemm.hpp>
#include <clgemm/ladder.hpp>
#include <clgemm/quant.hpp>

#include "bench/gemm_types.hpp"
#include "bench/impl.hpp"

#include <memory>
#include <string>

namespace clgemm::bench {

// `name` replaces the one the math gives ("clgemm", "clgemm-tf32", ...) where not empty.
std::unique_ptr<Implementation> make_clgemm_api(const Context& ctx, GemmOptions::Toggle edges, Math math,
                                                GemmTypes types = {}, const std::string& name = "");
// clgemm::gemm_quantized on W's blocks (a --quant run's "clgemm").
std::unique_ptr<Implementation> make_clgemm_quant(const Context& ctx, QuantFormat format, GemmTypes types);
// Ladder rungs and the triple loop compute float32 only.
std::unique_ptr<Implementation> make_ladder_rung(const Context& ctx, const RungInfo& rung);
// CLBlastSgemm, CLBlastDgemm or CLBlastHgemm; no CLBlast GEMM takes bf16 or mixed types.
std::unique_ptr<Implementation> make_clblast(const Context& ctx, GemmTypes types = {});
// cblas_sgemm or cblas_dgemm.
std::unique_ptr<Implementation> make_openblas(GemmTypes types = {});
// The triple loop runs only where `runs` calls are predicted to take at most `limit_s` seconds.
std::unique_ptr<Implementation> make_cpu_loop(double limit_s, int runs);
// cuBLAS through the plugin (see cublas_loader.hpp); `tf32` selects TF32 tensor-core math, for
// float32 only.
std::unique_ptr<Implementation> make_cublas(bool tf32, GemmTypes types = {});
// "cublas-loop": grouped calls only, as one cuBLAS call per problem on one stream (what a caller
// without cuBLAS's grouped form writes); a peer.
std::unique_ptr<Implementation> make_cublas_loop(GemmTypes types = {});

// The reason an implementation built for `built` cannot run a problem of other types (the
// runner's problems always carry the run's types; this guards a mismatched caller), or "".
std::string types_mismatch(const GemmTypes& built, const Problem& p);

}  // namespace clgemm::bench
