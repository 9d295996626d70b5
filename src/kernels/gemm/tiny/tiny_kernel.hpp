// tiny_kernel.hpp — the tiny kernel (gemm/tiny/tiny.cl): which batches it takes and its work-group.
#pragma once

#include <clgemm/device.hpp>
#include <clgemm/gemm.hpp>

#include <cstddef>

namespace clgemm::detail {

// The largest item the tiny kernel takes: m·n elements of C and k deep. Measured with cuBLAS's
// strided batched call in the same run: H100, 65536×4³ 7.2× its speed, 65536×8³ 3.4×, 4096×7×9×13
// 3.0×, but 16384×16³ only 1.02× and 4096×16×16×64 0.95×, where the batched entry's 16×32 tiles
// ran 1.21× cuBLAS on the H200 (16384×16³).
constexpr size_t kTinyMaxElements = 128;
constexpr size_t kTinyMaxK = 64;

// Whether a batch of `batch` items of m×n×k runs on the tiny kernel: at least two items, each of
// at most kTinyMaxElements elements of C and kTinyMaxK deep.
bool tiny_pays(size_t m, size_t n, size_t k, size_t batch);

// Its parameters: WG, the work-items per work-group (the caller's override on top of 256).
KernelParams tiny_params(const KernelParams& overrides, long precision);

}  // namespace clgemm::detail
