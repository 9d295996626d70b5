// blas_exports.cpp — the GEMM symbols BLAS programs call, each run on the device where that pays
// and otherwise on the host BLAS under the same name:
//   Fortran, LP64 (int):       sgemm_, dgemm_, and SciPy's wheels' scipy_sgemm_, scipy_dgemm_
//   Fortran, ILP64 (int64_t):  sgemm_64_, dgemm_64_ (Debian's libopenblas64), scipy_sgemm_64_,
//                              scipy_dgemm_64_ (NumPy's wheels)
//   CBLAS, LP64:               cblas_sgemm, cblas_dgemm, scipy_cblas_sgemm, scipy_cblas_dgemm
//   CBLAS, ILP64:              cblas_sgemm64_, cblas_dgemm64_, scipy_cblas_sgemm64_,
//                              scipy_cblas_dgemm64_ (what NumPy 2's matmul and dot call)
// Invalid arguments go to the host BLAS unchanged, so they are reported as that BLAS reports them
// (xerbla, cblas_xerbla).
#include "dropin/blas/blas_gemm.hpp"
#include "dropin/blas/host_blas.hpp"
#include "dropin/blas/offload.hpp"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <functional>

#define CLGEMM_BLAS_EXPORT extern "C" __attribute__((visibility("default")))

namespace clgemm::blas {
namespace {

template <typename T>
constexpr DataType type_of() {
  return sizeof(T) == 8 ? DataType::F64 : DataType::F32;
}

void no_host(const char* name) {
  std::fprintf(stderr,
               "clgemm_blas: no host %s in this process and the device did not take the call; C is unchanged "
               "(set CLGEMM_BLAS_HOST to a BLAS library)\n",
               name);
}

// Fortran: character arguments, every other by reference, and the hidden lengths of the two
// character arguments last (gfortran's size_t; callers written in C often pass none, and they are
// not read).
template <typename T, typename I>
using FortranGemm = void(const char*, const char*, const I*, const I*, const I*, const T*, const T*, const I*,
                         const T*, const I*, const T*, T*, const I*, size_t, size_t);

template <typename T, typename I>
void fortran_gemm(const char* name, const char* ta, const char* tb, const I* m, const I* n, const I* k, const T* alpha,
                  const T* a, const I* lda, const T* b, const I* ldb, const T* beta, T* c, const I* ldc) {
  auto* host = reinterpret_cast<FortranGemm<T, I>*>(host_function(name));
  const auto on_host = [&](const BlasGemm& g) {
    const char gta = g.transa, gtb = g.transb;
    const I gm = I(g.m), gn = I(g.n), gk = I(g.k), glda = I(g.lda), gldb = I(g.ldb), gldc = I(g.ldc);
    const T galpha = T(g.alpha), gbeta = T(g.beta);
    host(&gta, &gtb, &gm, &gn, &gk, &galpha, static_cast<const T*>(g.a), &glda, static_cast<const T*>(g.b), &gldb,
         &gbeta, static_cast<T*>(g.c), &gldc, 1, 1);
  };
  BlasGemm g;
  g.transa = *ta, g.transb = *tb;
  g.m = *m, g.n = *n, g.k = *k, g.lda = *lda, g.ldb = *ldb, g.ldc = *ldc;
  g.alpha = double(*alpha), g.beta = double(*beta);
  g.a = a, g.b = b, g.c = c;
  g.type = type_of<T>();
  if (valid(g) && !trivial(g) && run_on_device(g, name, host ? std::function<void(const BlasGemm&)>(on_host) : nullptr,
                                                reinterpret_cast<const void*>(host)))
    return;
  if (!host) return no_host(name);
  trace(name, g, "host");
  host(ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc, 1, 1);
}

// CBLAS: enums for the order and transposes (101/102, 111/112/113), sizes by value.
template <typename T, typename I>
using CblasGemm = void(int, int, int, I, I, I, T, const T*, I, const T*, I, T, T*, I);

char transpose_letter(int t) { return t == 111 ? 'N' : t == 112 ? 'T' : t == 113 ? 'C' : '?'; }

template <typename T, typename I>
void cblas_gemm(const char* name, int order, int ta, int tb, I m, I n, I k, T alpha, const T* a, I lda, const T* b,
                I ldb, T beta, T* c, I ldc) {
  auto* host = reinterpret_cast<CblasGemm<T, I>*>(host_function(name));
  BlasGemm g;
  g.alpha = double(alpha), g.beta = double(beta);
  g.c = c, g.ldc = ldc;
  g.type = type_of<T>();
  // Row-major C is the column-major Cᵀ = op(B)ᵀ·op(A)ᵀ: the same memory with A and B, m and n
  // exchanged.
  const bool row = order == 101;
  g.transa = transpose_letter(row ? tb : ta), g.transb = transpose_letter(row ? ta : tb);
  g.m = row ? n : m, g.n = row ? m : n, g.k = k;
  g.a = row ? static_cast<const void*>(b) : a, g.lda = row ? ldb : lda;
  g.b = row ? static_cast<const void*>(a) : b, g.ldb = row ? lda : ldb;
  const bool ordered = order == 101 || order == 102;
  const auto on_host = [&](const BlasGemm& h) {
    host(102, h.transa == 'N' ? 111 : 112, h.transb == 'N' ? 111 : 112, I(h.m), I(h.n), I(h.k), T(h.alpha),
         static_cast<const T*>(h.a), I(h.lda), static_cast<const T*>(h.b), I(h.ldb), T(h.beta), static_cast<T*>(h.c),
         I(h.ldc));
  };
  if (ordered && valid(g) && !trivial(g) &&
      run_on_device(g, name, host ? std::function<void(const BlasGemm&)>(on_host) : nullptr,
                                                reinterpret_cast<const void*>(host)))
    return;
  if (!host) return no_host(name);
  trace(name, g, "host");
  host(order, ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

}  // namespace
}  // namespace clgemm::blas

using clgemm::blas::cblas_gemm;
using clgemm::blas::fortran_gemm;

#define CLGEMM_FORTRAN_GEMM(NAME, T, I)                                                                              \
  CLGEMM_BLAS_EXPORT void NAME(const char* ta, const char* tb, const I* m, const I* n, const I* k, const T* alpha,  \
                               const T* a, const I* lda, const T* b, const I* ldb, const T* beta, T* c, const I* ldc, \
                               size_t, size_t) {                                                                     \
    fortran_gemm<T, I>(#NAME, ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);                                 \
  }
#define CLGEMM_CBLAS_GEMM(NAME, T, I)                                                                                \
  CLGEMM_BLAS_EXPORT void NAME(int order, int ta, int tb, I m, I n, I k, T alpha, const T* a, I lda, const T* b,     \
                               I ldb, T beta, T* c, I ldc) {                                                         \
    cblas_gemm<T, I>(#NAME, order, ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);                            \
  }

CLGEMM_FORTRAN_GEMM(sgemm_, float, int)
CLGEMM_FORTRAN_GEMM(dgemm_, double, int)
CLGEMM_FORTRAN_GEMM(scipy_sgemm_, float, int)
CLGEMM_FORTRAN_GEMM(scipy_dgemm_, double, int)
CLGEMM_FORTRAN_GEMM(sgemm_64_, float, int64_t)
CLGEMM_FORTRAN_GEMM(dgemm_64_, double, int64_t)
CLGEMM_FORTRAN_GEMM(scipy_sgemm_64_, float, int64_t)
CLGEMM_FORTRAN_GEMM(scipy_dgemm_64_, double, int64_t)
CLGEMM_CBLAS_GEMM(cblas_sgemm, float, int)
CLGEMM_CBLAS_GEMM(cblas_dgemm, double, int)
CLGEMM_CBLAS_GEMM(scipy_cblas_sgemm, float, int)
CLGEMM_CBLAS_GEMM(scipy_cblas_dgemm, double, int)
CLGEMM_CBLAS_GEMM(cblas_sgemm64_, float, int64_t)
CLGEMM_CBLAS_GEMM(cblas_dgemm64_, double, int64_t)
CLGEMM_CBLAS_GEMM(scipy_cblas_sgemm64_, float, int64_t)
CLGEMM_CBLAS_GEMM(scipy_cblas_dgemm64_, double, int64_t)
