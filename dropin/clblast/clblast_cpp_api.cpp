// clblast_cpp_api.cpp — CLBlast's C++ GEMM templates for float, double and half, computed by
// clgemm; their complex instances pass through to the real CLBlast.
#include "dropin/clblast/clblast_serve.hpp"
#include "dropin/clblast/export.hpp"
#include "dropin/clblast/real_clblast.hpp"

#include <clblast.h>
#include <clblast_half.h>

#include <complex>
#include <cstdlib>
#include <cstring>

namespace clblast {

namespace {

using clgemm::DataType;
using clgemm::dropin::ClblastBatch;
using clgemm::dropin::ClblastGemmArgs;

template <typename T>
double scalar(T v) { return double(v); }
template <>
double scalar<half>(half v) { return double(HalfToFloat(v)); }

template <typename T>
constexpr DataType type_of() {
  return sizeof(T) == 8 ? DataType::F64 : sizeof(T) == 4 ? DataType::F32 : DataType::F16;
}

template <typename T>
const char* name_of(const char* s, const char* d, const char* h) {
  return sizeof(T) == 8 ? d : sizeof(T) == 4 ? s : h;
}

ClblastGemmArgs args(Layout layout, Transpose ta, Transpose tb, size_t m, size_t n, size_t k, cl_mem a, size_t a_ld,
                     cl_mem b, size_t b_ld, cl_mem c, size_t c_ld) {
  ClblastGemmArgs g;
  g.layout = layout, g.a_transpose = ta, g.b_transpose = tb;
  g.m = m, g.n = n, g.k = k;
  g.a = a, g.b = b, g.c = c;
  g.a_ld = a_ld, g.b_ld = b_ld, g.c_ld = c_ld;
  return g;
}

template <typename T>
StatusCode gemm_one(Layout layout, Transpose ta, Transpose tb, size_t m, size_t n, size_t k, T alpha, cl_mem a,
                    size_t a_offset, size_t a_ld, cl_mem b, size_t b_offset, size_t b_ld, T beta, cl_mem c,
                    size_t c_offset, size_t c_ld, cl_command_queue* queue, cl_event* event) {
  ClblastBatch batch;
  batch.alphas = {scalar(alpha)}, batch.betas = {scalar(beta)};
  batch.a_offsets = {a_offset}, batch.b_offsets = {b_offset}, batch.c_offsets = {c_offset};
  return clgemm::dropin::serve_gemm(name_of<T>("Sgemm", "Dgemm", "Hgemm"),
                                    args(layout, ta, tb, m, n, k, a, a_ld, b, b_ld, c, c_ld), batch, type_of<T>(),
                                    queue, event);
}

template <typename T>
StatusCode gemm_listed(Layout layout, Transpose ta, Transpose tb, size_t m, size_t n, size_t k, const T* alphas,
                       cl_mem a, const size_t* a_offsets, size_t a_ld, cl_mem b, const size_t* b_offsets, size_t b_ld,
                       const T* betas, cl_mem c, const size_t* c_offsets, size_t c_ld, size_t count,
                       cl_command_queue* queue, cl_event* event) {
  ClblastBatch batch;
  batch.form = ClblastBatch::Form::Listed;
  batch.count = count;
  if (count > 0 && (!alphas || !betas || !a_offsets || !b_offsets || !c_offsets)) return StatusCode::kInvalidValue;
  for (size_t i = 0; i < count; ++i) {
    batch.alphas.push_back(scalar(alphas[i])), batch.betas.push_back(scalar(betas[i]));
    batch.a_offsets.push_back(a_offsets[i]), batch.b_offsets.push_back(b_offsets[i]);
    batch.c_offsets.push_back(c_offsets[i]);
  }
  return clgemm::dropin::serve_gemm(name_of<T>("SgemmBatched", "DgemmBatched", "HgemmBatched"),
                                    args(layout, ta, tb, m, n, k, a, a_ld, b, b_ld, c, c_ld), batch, type_of<T>(),
                                    queue, event);
}

template <typename T>
StatusCode gemm_strided(Layout layout, Transpose ta, Transpose tb, size_t m, size_t n, size_t k, T alpha, cl_mem a,
                        size_t a_offset, size_t a_ld, size_t a_stride, cl_mem b, size_t b_offset, size_t b_ld,
                        size_t b_stride, T beta, cl_mem c, size_t c_offset, size_t c_ld, size_t c_stride,
                        size_t count, cl_command_queue* queue, cl_event* event) {
  ClblastBatch batch;
  batch.form = ClblastBatch::Form::Strided;
  batch.count = count;
  batch.alphas = {scalar(alpha)}, batch.betas = {scalar(beta)};
  batch.a_offsets = {a_offset}, batch.b_offsets = {b_offset}, batch.c_offsets = {c_offset};
  batch.a_stride = a_stride, batch.b_stride = b_stride, batch.c_stride = c_stride;
  return clgemm::dropin::serve_gemm(name_of<T>("SgemmStridedBatched", "DgemmStridedBatched", "HgemmStridedBatched"),
                                    args(layout, ta, tb, m, n, k, a, a_ld, b, b_ld, c, c_ld), batch, type_of<T>(),
                                    queue, event);
}

}  // namespace

// The real and half instances: computed by clgemm.
#define CLGEMM_REAL_GEMMS(T)                                                                                        \
  template <>                                                                                                       \
  CLGEMM_DROPIN_EXPORT StatusCode Gemm<T>(const Layout layout, const Transpose ta, const Transpose tb, const size_t m, const size_t n,    \
                     const size_t k, const T alpha, const cl_mem a, const size_t a_offset, const size_t a_ld,       \
                     const cl_mem b, const size_t b_offset, const size_t b_ld, const T beta, cl_mem c,              \
                     const size_t c_offset, const size_t c_ld, cl_command_queue* queue, cl_event* event, cl_mem) {  \
    return gemm_one<T>(layout, ta, tb, m, n, k, alpha, a, a_offset, a_ld, b, b_offset, b_ld, beta, c, c_offset,     \
                       c_ld, queue, event);                                                                         \
  }                                                                                                                 \
  template <>                                                                                                       \
  CLGEMM_DROPIN_EXPORT StatusCode GemmBatched<T>(const Layout layout, const Transpose ta, const Transpose tb, const size_t m,             \
                            const size_t n, const size_t k, const T* alphas, const cl_mem a, const size_t* a_offsets, \
                            const size_t a_ld, const cl_mem b, const size_t* b_offsets, const size_t b_ld,          \
                            const T* betas, cl_mem c, const size_t* c_offsets, const size_t c_ld,                   \
                            const size_t count, cl_command_queue* queue, cl_event* event) {                         \
    return gemm_listed<T>(layout, ta, tb, m, n, k, alphas, a, a_offsets, a_ld, b, b_offsets, b_ld, betas, c,        \
                          c_offsets, c_ld, count, queue, event);                                                    \
  }                                                                                                                 \
  template <>                                                                                                       \
  CLGEMM_DROPIN_EXPORT StatusCode GemmStridedBatched<T>(const Layout layout, const Transpose ta, const Transpose tb, const size_t m,      \
                                   const size_t n, const size_t k, const T alpha, const cl_mem a,                   \
                                   const size_t a_offset, const size_t a_ld, const size_t a_stride, const cl_mem b, \
                                   const size_t b_offset, const size_t b_ld, const size_t b_stride, const T beta,   \
                                   cl_mem c, const size_t c_offset, const size_t c_ld, const size_t c_stride,       \
                                   const size_t count, cl_command_queue* queue, cl_event* event) {                  \
    return gemm_strided<T>(layout, ta, tb, m, n, k, alpha, a, a_offset, a_ld, a_stride, b, b_offset, b_ld,          \
                           b_stride, beta, c, c_offset, c_ld, c_stride, count, queue, event);                       \
  }                                                                                                                 \
  /* clgemm needs no temporary buffer of the caller's, so none is asked for. */                                     \
  template <>                                                                                                       \
  CLGEMM_DROPIN_EXPORT StatusCode GemmTempBufferSize<T>(const Layout, const Transpose, const Transpose, const size_t, const size_t,      \
                                   const size_t, const size_t, const size_t, const size_t, const size_t,            \
                                   const size_t, const size_t, cl_command_queue*, size_t& temp_buffer_size) {       \
    temp_buffer_size = 0;                                                                                           \
    return StatusCode::kSuccess;                                                                                    \
  }

CLGEMM_REAL_GEMMS(float)
CLGEMM_REAL_GEMMS(double)
CLGEMM_REAL_GEMMS(half)
#undef CLGEMM_REAL_GEMMS

// The complex instances: the real CLBlast's, or kNotImplemented without one.
#define CLGEMM_COMPLEX_GEMMS(T)                                                                                      \
  template <>                                                                                                       \
  CLGEMM_DROPIN_EXPORT StatusCode Gemm<T>(const Layout layout, const Transpose ta, const Transpose tb, const size_t m, const size_t n,    \
                     const size_t k, const T alpha, const cl_mem a, const size_t a_offset, const size_t a_ld,       \
                     const cl_mem b, const size_t b_offset, const size_t b_ld, const T beta, cl_mem c,              \
                     const size_t c_offset, const size_t c_ld, cl_command_queue* queue, cl_event* event,            \
                     cl_mem temp) {                                                                                 \
    return clgemm::dropin::forward_to_real(&Gemm<T>, StatusCode::kNotImplemented, layout, ta, tb, m, n, k, alpha, a, \
                                           a_offset, a_ld, b, b_offset, b_ld, beta, c, c_offset, c_ld, queue, event, \
                                           temp);                                                                   \
  }                                                                                                                 \
  template <>                                                                                                       \
  CLGEMM_DROPIN_EXPORT StatusCode GemmBatched<T>(const Layout layout, const Transpose ta, const Transpose tb, const size_t m,             \
                            const size_t n, const size_t k, const T* alphas, const cl_mem a, const size_t* a_offsets, \
                            const size_t a_ld, const cl_mem b, const size_t* b_offsets, const size_t b_ld,          \
                            const T* betas, cl_mem c, const size_t* c_offsets, const size_t c_ld,                   \
                            const size_t count, cl_command_queue* queue, cl_event* event) {                         \
    return clgemm::dropin::forward_to_real(&GemmBatched<T>, StatusCode::kNotImplemented, layout, ta, tb, m, n, k,    \
                                           alphas, a, a_offsets, a_ld, b, b_offsets, b_ld, betas, c, c_offsets,     \
                                           c_ld, count, queue, event);                                              \
  }                                                                                                                 \
  template <>                                                                                                       \
  CLGEMM_DROPIN_EXPORT StatusCode GemmStridedBatched<T>(const Layout layout, const Transpose ta, const Transpose tb, const size_t m,      \
                                   const size_t n, const size_t k, const T alpha, const cl_mem a,                   \
                                   const size_t a_offset, const size_t a_ld, const size_t a_stride, const cl_mem b, \
                                   const size_t b_offset, const size_t b_ld, const size_t b_stride, const T beta,   \
                                   cl_mem c, const size_t c_offset, const size_t c_ld, const size_t c_stride,       \
                                   const size_t count, cl_command_queue* queue, cl_event* event) {                  \
    return clgemm::dropin::forward_to_real(&GemmStridedBatched<T>, StatusCode::kNotImplemented, layout, ta, tb, m,  \
                                           n, k, alpha, a, a_offset, a_ld, a_stride, b, b_offset, b_ld, b_stride,   \
                                           beta, c, c_offset, c_ld, c_stride, count, queue, event);                 \
  }                                                                                                                 \
  template <>                                                                                                       \
  CLGEMM_DROPIN_EXPORT StatusCode GemmTempBufferSize<T>(const Layout layout, const Transpose ta, const Transpose tb, const size_t m,      \
                                   const size_t n, const size_t k, const size_t a_offset, const size_t a_ld,        \
                                   const size_t b_offset, const size_t b_ld, const size_t c_offset,                 \
                                   const size_t c_ld, cl_command_queue* queue, size_t& temp_buffer_size) {          \
    return clgemm::dropin::forward_to_real(&GemmTempBufferSize<T>, StatusCode::kNotImplemented, layout, ta, tb, m,  \
                                           n, k, a_offset, a_ld, b_offset, b_ld, c_offset, c_ld, queue,             \
                                           temp_buffer_size);                                                       \
  }

CLGEMM_COMPLEX_GEMMS(std::complex<float>)
CLGEMM_COMPLEX_GEMMS(std::complex<double>)
#undef CLGEMM_COMPLEX_GEMMS

// CLBlast's test and client programs (clblast_test_*, clblast_client_*) ask this before they run
// a half routine, and CLBlast's own routines ask it too. It stays CLBlast's answer (cl_khr_fp16),
// unless CLGEMM_CLBLAST_HALF=1: then it is yes, so that those programs run the half GEMMs, which the
// shim computes without cl_khr_fp16 (clgemm stores halves and sums in float32). CLBlast's other
// half routines then fail to build on such a device instead of returning kNoHalfPrecision.
class Device;
template <typename T>
bool PrecisionSupported(const Device&);
template <>
CLGEMM_DROPIN_EXPORT bool PrecisionSupported<half>(const Device& device) {
  static const bool every_device = [] {
    const char* v = std::getenv("CLGEMM_CLBLAST_HALF");
    return v && std::strcmp(v, "1") == 0;
  }();
  if (every_device) return true;
  return clgemm::dropin::forward_to_real(&PrecisionSupported<half>, false, device);
}

}  // namespace clblast
