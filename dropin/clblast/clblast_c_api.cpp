// clblast_c_api.cpp — CLBlast's C GEMM entry points: S, D and H through the shim's C++ instances
// (computed by clgemm), C and Z passed to the real CLBlast, or CLBlastNotImplemented without one.
#include "dropin/clblast/export.hpp"
#include "dropin/clblast/real_clblast.hpp"

#include <clblast.h>
#include <clblast_c.h>
#include <clblast_half.h>

namespace {

clblast::Layout layout_of(CLBlastLayout l) { return static_cast<clblast::Layout>(l); }
clblast::Transpose transpose_of(CLBlastTranspose t) { return static_cast<clblast::Transpose>(t); }
CLBlastStatusCode status_of(clblast::StatusCode s) { return static_cast<CLBlastStatusCode>(s); }

}  // namespace

extern "C" {

#define CLGEMM_C_GEMMS(P, S, T)                                                                                       \
  CLGEMM_DROPIN_EXPORT CLBlastStatusCode CLBlast##P##gemm(const CLBlastLayout layout, const CLBlastTranspose ta, const CLBlastTranspose tb, \
                                     const size_t m, const size_t n, const size_t k, const S alpha, const cl_mem a,   \
                                     const size_t a_offset, const size_t a_ld, const cl_mem b, const size_t b_offset, \
                                     const size_t b_ld, const S beta, cl_mem c, const size_t c_offset,                \
                                     const size_t c_ld, cl_command_queue* queue, cl_event* event) {                   \
    return status_of(clblast::Gemm<T>(layout_of(layout), transpose_of(ta), transpose_of(tb), m, n, k, alpha, a,       \
                                      a_offset, a_ld, b, b_offset, b_ld, beta, c, c_offset, c_ld, queue, event));     \
  }                                                                                                                   \
  CLGEMM_DROPIN_EXPORT CLBlastStatusCode CLBlast##P##gemmBatched(                                                                          \
      const CLBlastLayout layout, const CLBlastTranspose ta, const CLBlastTranspose tb, const size_t m,               \
      const size_t n, const size_t k, const S* alphas, const cl_mem a, const size_t* a_offsets, const size_t a_ld,    \
      const cl_mem b, const size_t* b_offsets, const size_t b_ld, const S* betas, cl_mem c, const size_t* c_offsets,  \
      const size_t c_ld, const size_t count, cl_command_queue* queue, cl_event* event) {                              \
    return status_of(clblast::GemmBatched<T>(layout_of(layout), transpose_of(ta), transpose_of(tb), m, n, k, alphas,  \
                                             a, a_offsets, a_ld, b, b_offsets, b_ld, betas, c, c_offsets, c_ld,       \
                                             count, queue, event));                                                   \
  }                                                                                                                   \
  CLGEMM_DROPIN_EXPORT CLBlastStatusCode CLBlast##P##gemmStridedBatched(                                                                   \
      const CLBlastLayout layout, const CLBlastTranspose ta, const CLBlastTranspose tb, const size_t m,               \
      const size_t n, const size_t k, const S alpha, const cl_mem a, const size_t a_offset, const size_t a_ld,        \
      const size_t a_stride, const cl_mem b, const size_t b_offset, const size_t b_ld, const size_t b_stride,         \
      const S beta, cl_mem c, const size_t c_offset, const size_t c_ld, const size_t c_stride, const size_t count,    \
      cl_command_queue* queue, cl_event* event) {                                                                     \
    return status_of(clblast::GemmStridedBatched<T>(layout_of(layout), transpose_of(ta), transpose_of(tb), m, n, k,   \
                                                    alpha, a, a_offset, a_ld, a_stride, b, b_offset, b_ld, b_stride,  \
                                                    beta, c, c_offset, c_ld, c_stride, count, queue, event));         \
  }

CLGEMM_C_GEMMS(S, float, float)
CLGEMM_C_GEMMS(D, double, double)
CLGEMM_C_GEMMS(H, cl_half, half)
#undef CLGEMM_C_GEMMS

#define CLGEMM_C_COMPLEX_GEMMS(P, S)                                                                                  \
  CLGEMM_DROPIN_EXPORT CLBlastStatusCode CLBlast##P##gemm(const CLBlastLayout layout, const CLBlastTranspose ta, const CLBlastTranspose tb, \
                                     const size_t m, const size_t n, const size_t k, const S alpha, const cl_mem a,   \
                                     const size_t a_offset, const size_t a_ld, const cl_mem b, const size_t b_offset, \
                                     const size_t b_ld, const S beta, cl_mem c, const size_t c_offset,                \
                                     const size_t c_ld, cl_command_queue* queue, cl_event* event) {                   \
    return clgemm::dropin::forward_to_real(&CLBlast##P##gemm, CLBlastNotImplemented, layout, ta, tb, m, n, k, alpha,  \
                                           a, a_offset, a_ld, b, b_offset, b_ld, beta, c, c_offset, c_ld, queue,      \
                                           event);                                                                    \
  }                                                                                                                   \
  CLGEMM_DROPIN_EXPORT CLBlastStatusCode CLBlast##P##gemmBatched(                                                                          \
      const CLBlastLayout layout, const CLBlastTranspose ta, const CLBlastTranspose tb, const size_t m,               \
      const size_t n, const size_t k, const S* alphas, const cl_mem a, const size_t* a_offsets, const size_t a_ld,    \
      const cl_mem b, const size_t* b_offsets, const size_t b_ld, const S* betas, cl_mem c, const size_t* c_offsets,  \
      const size_t c_ld, const size_t count, cl_command_queue* queue, cl_event* event) {                              \
    return clgemm::dropin::forward_to_real(&CLBlast##P##gemmBatched, CLBlastNotImplemented, layout, ta, tb, m, n, k,  \
                                           alphas, a, a_offsets, a_ld, b, b_offsets, b_ld, betas, c, c_offsets,       \
                                           c_ld, count, queue, event);                                                \
  }                                                                                                                   \
  CLGEMM_DROPIN_EXPORT CLBlastStatusCode CLBlast##P##gemmStridedBatched(                                                                   \
      const CLBlastLayout layout, const CLBlastTranspose ta, const CLBlastTranspose tb, const size_t m,               \
      const size_t n, const size_t k, const S alpha, const cl_mem a, const size_t a_offset, const size_t a_ld,        \
      const size_t a_stride, const cl_mem b, const size_t b_offset, const size_t b_ld, const size_t b_stride,         \
      const S beta, cl_mem c, const size_t c_offset, const size_t c_ld, const size_t c_stride, const size_t count,    \
      cl_command_queue* queue, cl_event* event) {                                                                     \
    return clgemm::dropin::forward_to_real(&CLBlast##P##gemmStridedBatched, CLBlastNotImplemented, layout, ta, tb, m, \
                                           n, k, alpha, a, a_offset, a_ld, a_stride, b, b_offset, b_ld, b_stride,     \
                                           beta, c, c_offset, c_ld, c_stride, count, queue, event);                   \
  }

CLGEMM_C_COMPLEX_GEMMS(C, cl_float2)
CLGEMM_C_COMPLEX_GEMMS(Z, cl_double2)
#undef CLGEMM_C_COMPLEX_GEMMS

}  // extern "C"
