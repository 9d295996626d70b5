// bench/impls/factories.hpp — constructors of the implementations, one source file each.
#pragma once

#include <clgemm/context.hpp>
#include <clgemm/gemm.hpp>
#include <clgemm/ladder.hpp>

#include "bench/impl.hpp"

#include <memory>

namespace clgemm::bench {

std::unique_ptr<Implementation> make_clgemm_api(const Context& ctx, GemmOptions::Toggle edges, Math math);
std::unique_ptr<Implementation> make_ladder_rung(const Context& ctx, const RungInfo& rung);
std::unique_ptr<Implementation> make_clblast(const Context& ctx);
std::unique_ptr<Implementation> make_openblas();
// The triple loop runs only where `runs` calls are predicted to take at most `limit_s` seconds.
std::unique_ptr<Implementation> make_cpu_loop(double limit_s, int runs);
// cuBLAS through the plugin (see cublas_loader.hpp); `tf32` selects TF32 tensor-core math.
std::unique_ptr<Implementation> make_cublas(bool tf32);

}  // namespace clgemm::bench
