// clgemm_c.cpp — the C API: converts arguments, calls the C++ API, turns exceptions into codes.
#include <clgemm/clgemm.h>
#include <clgemm/error.hpp>
#include <clgemm/gemm.hpp>
#include <clgemm/quant.hpp>

#include "api/context_registry.hpp"
#include "api/gemm_checks.hpp"
#include "runtime/warnings.hpp"

#include <climits>
#include <cmath>
#include <cstring>
#include <limits>
#include <new>
#include <string>

namespace {

thread_local std::string last_error;
thread_local clgemmMath thread_math = clgemmMathFp32;  // clgemmSetMath

// The options of this thread's calls.
clgemm::GemmOptions thread_options() {
  clgemm::GemmOptions o;
  o.math = thread_math == clgemmMathTf32x3 ? clgemm::Math::Tf32x3
           : thread_math == clgemmMathTf32 ? clgemm::Math::Tf32
                                           : clgemm::Math::Fp32;
  return o;
}

// Runs `f` and converts every exception to a status; the C API must never let one escape.
template <class F>
clgemmStatus guarded(F&& f) noexcept {
  try {
    f();
    last_error.clear();
    return clgemmSuccess;
  } catch (const clgemm::Error& e) {
    last_error = e.what();
    return static_cast<clgemmStatus>(static_cast<int>(e.status()));
  } catch (const std::bad_alloc&) {
    last_error = "out of host memory";
    return clgemmOutOfResources;
  } catch (const std::exception& e) {
    last_error = e.what();
    return clgemmInternalError;
  } catch (...) {
    last_error = "unknown exception";
    return clgemmInternalError;
  }
}

// The integer a C caller passed for an enum. C lets any int through an enum parameter, but in C++
// reading a value outside the enumerators' range as the enum type is undefined, so the bytes are
// copied out instead; the checks of the C++ API then judge the integer.
template <class E>
int raw(const E& value) {
  static_assert(sizeof(E) == sizeof(int), "the C enums are int-sized");
  int v;
  std::memcpy(&v, &value, sizeof v);
  return v;
}

// The enums arrive as the integers raw() read: passing a C enum on by value would read it too.
clgemm::GemmCall make_call(int layout, int ta, int tb, size_t m, size_t n, size_t k, double alpha, cl_mem a,
                           size_t a_offset, size_t a_ld, cl_mem b, size_t b_offset, size_t b_ld, double beta, cl_mem c,
                           size_t c_offset, size_t c_ld) {
  clgemm::GemmCall call;
  call.layout = static_cast<clgemm::Layout>(layout);
  call.a_transpose = static_cast<clgemm::Transpose>(ta);
  call.b_transpose = static_cast<clgemm::Transpose>(tb);
  call.m = m, call.n = n, call.k = k;
  call.alpha = alpha, call.beta = beta;
  call.a = {a, a_offset, a_ld};
  call.b = {b, b_offset, b_ld};
  call.c = {c, c_offset, c_ld};
  return call;
}

// The same call with every matrix of type `t`.
clgemm::GemmCall typed(clgemm::GemmCall call, clgemm::DataType t) {
  call.a_type = call.b_type = call.c_type = t;
  return call;
}

// The same call with the types and compute type a C caller passed (as raw() integers, which the
// checks judge).
clgemm::GemmCall typed(clgemm::GemmCall call, int a, int b, int c, int compute) {
  call.a_type = static_cast<clgemm::DataType>(a);
  call.b_type = static_cast<clgemm::DataType>(b);
  call.c_type = static_cast<clgemm::DataType>(c);
  call.compute = static_cast<clgemm::ComputeType>(compute);
  return call;
}

// An IEEE half's bits as a double (cl_half alpha and beta).
double half_value(cl_half h) {
  const unsigned sign = h >> 15, exp = (h >> 10) & 0x1f, man = h & 0x3ff;
  double v = exp == 0    ? std::ldexp(double(man), -24)
             : exp == 31 ? (man ? std::numeric_limits<double>::quiet_NaN() : std::numeric_limits<double>::infinity())
                         : std::ldexp(double(man | 0x400), int(exp) - 25);
  return sign ? -v : v;
}

// The per-item arrays of a batched C call, checked for null before they are copied.
template <class T>
std::vector<double> scalars_of(const T* values, size_t count, double (*convert)(T)) {
  std::vector<double> out(count);
  for (size_t i = 0; i < count; ++i) out[i] = convert(values[i]);
  return out;
}
double as_double(double v) { return v; }

void batched(const clgemm::GemmCall& call, const std::vector<double>& alphas, const std::vector<double>& betas,
             const size_t* a_offsets, const size_t* b_offsets, const size_t* c_offsets, size_t batch_count,
             cl_command_queue queue, cl_event* event, const clgemm::GemmOptions& options) {
  clgemm::gemm_batched(call, alphas, betas, std::vector<size_t>(a_offsets, a_offsets + batch_count),
                       std::vector<size_t>(b_offsets, b_offsets + batch_count),
                       std::vector<size_t>(c_offsets, c_offsets + batch_count), queue, event, options);
}

void check_arrays(const void* alphas, const void* betas, const size_t* a, const size_t* b, const size_t* c,
                  size_t batch_count) {
  // Before the arrays are copied: batch_count says how long they are.
  clgemm::detail::check_batch_count(batch_count);
  if (!alphas || !betas || !a || !b || !c)
    throw clgemm::Error(clgemm::Status::InvalidArgument,
                        "alphas, betas, a_offsets, b_offsets and c_offsets must not be null");
}

// The problems of a grouped call from its arrays (none may be null when there are problems).
template <class T>
std::vector<clgemm::GemmCall> grouped_problems(int layout, const clgemmTranspose* ta, const clgemmTranspose* tb,
                                               const size_t* ms, const size_t* ns, const size_t* ks, const T* alphas,
                                               cl_mem a, const size_t* a_off, const size_t* a_ld, cl_mem b,
                                               const size_t* b_off, const size_t* b_ld, const T* betas, cl_mem c,
                                               const size_t* c_off, const size_t* c_ld, size_t count) {
  if (count > size_t(INT_MAX))
    throw clgemm::Error(clgemm::Status::InvalidBatchCount,
                        "problem_count is " + std::to_string(count) + "; a grouped call takes at most 2^31 - 1");
  const void* arrays[] = {ta, tb, ms, ns, ks, alphas, a_off, a_ld, b_off, b_ld, betas, c_off, c_ld};
  if (count > 0)
    for (const void* array : arrays)
      if (!array)
        throw clgemm::Error(clgemm::Status::InvalidArgument,
                            "a_transposes, b_transposes, ms, ns, ks, alphas, betas and the offset and leading "
                            "dimension arrays must not be null when problem_count is above 0");
  std::vector<clgemm::GemmCall> problems;
  for (size_t i = 0; i < count; ++i)
    problems.push_back(make_call(layout, raw(ta[i]), raw(tb[i]), ms[i], ns[i], ks[i], double(alphas[i]), a, a_off[i],
                                 a_ld[i], b, b_off[i], b_ld[i], double(betas[i]), c, c_off[i], c_ld[i]));
  return problems;
}

// A quantized call from a C caller's arguments (the enums as raw() integers, which the checks judge).
clgemm::QuantGemmCall quant_call(int layout, size_t m, size_t n, size_t k, double alpha, cl_mem a, int a_type,
                                 size_t a_offset, size_t a_ld, cl_mem w, int w_format, size_t w_offset,
                                 size_t w_row_bytes, double beta, cl_mem c, int c_type, size_t c_offset, size_t c_ld) {
  clgemm::QuantGemmCall call;
  call.layout = static_cast<clgemm::Layout>(layout);
  call.m = m, call.n = n, call.k = k;
  call.alpha = alpha, call.beta = beta;
  call.a = {a, a_offset, a_ld};
  call.a_type = static_cast<clgemm::DataType>(a_type);
  call.w = {w, static_cast<clgemm::QuantFormat>(w_format), w_offset, w_row_bytes};
  call.c = {c, c_offset, c_ld};
  call.c_type = static_cast<clgemm::DataType>(c_type);
  return call;
}

cl_command_queue queue_of(cl_command_queue* queue) {
  if (!queue || !*queue) throw clgemm::Error(clgemm::Status::InvalidQueue, "queue is null; pass a pointer to a valid cl_command_queue");
  return *queue;
}

}  // namespace

extern "C" {

clgemmStatus clgemmSetMath(clgemmMath math) {
  return guarded([&] {
    const int m = raw(math);
    if (m != clgemmMathFp32 && m != clgemmMathTf32x3 && m != clgemmMathTf32)
      throw clgemm::Error(clgemm::Status::InvalidArgument,
                          "math is " + std::to_string(m) +
                              "; use clgemmMathFp32 (0), clgemmMathTf32x3 (1) or clgemmMathTf32 (2)");
    thread_math = static_cast<clgemmMath>(m);
  });
}

clgemmMath clgemmGetMath(void) { return thread_math; }

clgemmStatus clgemmSgemm(clgemmLayout layout, clgemmTranspose a_transpose, clgemmTranspose b_transpose, size_t m,
                         size_t n, size_t k, float alpha, cl_mem a_buffer, size_t a_offset, size_t a_ld,
                         cl_mem b_buffer, size_t b_offset, size_t b_ld, float beta, cl_mem c_buffer, size_t c_offset,
                         size_t c_ld, cl_command_queue* queue, cl_event* event) {
  return guarded([&] {
    clgemm::gemm(make_call(raw(layout), raw(a_transpose), raw(b_transpose), m, n, k, alpha, a_buffer, a_offset, a_ld,
                           b_buffer, b_offset, b_ld, beta, c_buffer, c_offset, c_ld),
                 queue_of(queue), event, thread_options());
  });
}

clgemmStatus clgemmSgemmBatched(clgemmLayout layout, clgemmTranspose a_transpose, clgemmTranspose b_transpose, size_t m,
                                size_t n, size_t k, const float* alphas, cl_mem a_buffer, const size_t* a_offsets,
                                size_t a_ld, cl_mem b_buffer, const size_t* b_offsets, size_t b_ld, const float* betas,
                                cl_mem c_buffer, const size_t* c_offsets, size_t c_ld, size_t batch_count,
                                cl_command_queue* queue, cl_event* event) {
  return guarded([&] {
    // Before the arrays are copied: batch_count says how long they are.
    clgemm::detail::check_batch_count(batch_count);
    if (!alphas || !betas || !a_offsets || !b_offsets || !c_offsets)
      throw clgemm::Error(clgemm::Status::InvalidArgument,
                          "alphas, betas, a_offsets, b_offsets and c_offsets must not be null");
    clgemm::gemm_batched(
        make_call(raw(layout), raw(a_transpose), raw(b_transpose), m, n, k, 1.0f, a_buffer, 0, a_ld, b_buffer, 0, b_ld,
                  0.0f, c_buffer, 0, c_ld),
        std::vector<float>(alphas, alphas + batch_count), std::vector<float>(betas, betas + batch_count),
        std::vector<size_t>(a_offsets, a_offsets + batch_count),
        std::vector<size_t>(b_offsets, b_offsets + batch_count),
        std::vector<size_t>(c_offsets, c_offsets + batch_count), queue_of(queue), event, thread_options());
  });
}

clgemmStatus clgemmSgemmStridedBatched(clgemmLayout layout, clgemmTranspose a_transpose, clgemmTranspose b_transpose,
                                       size_t m, size_t n, size_t k, float alpha, cl_mem a_buffer, size_t a_offset,
                                       size_t a_ld, size_t a_stride, cl_mem b_buffer, size_t b_offset, size_t b_ld,
                                       size_t b_stride, float beta, cl_mem c_buffer, size_t c_offset, size_t c_ld,
                                       size_t c_stride, size_t batch_count, cl_command_queue* queue, cl_event* event) {
  return guarded([&] {
    clgemm::gemm_strided_batched(make_call(raw(layout), raw(a_transpose), raw(b_transpose), m, n, k, alpha, a_buffer,
                                           a_offset, a_ld, b_buffer, b_offset, b_ld, beta, c_buffer, c_offset, c_ld),
                                 a_stride, b_stride, c_stride, batch_count, queue_of(queue), event, thread_options());
  });
}

clgemmStatus clgemmDgemm(clgemmLayout layout, clgemmTranspose a_transpose, clgemmTranspose b_transpose, size_t m,
                         size_t n, size_t k, double alpha, cl_mem a_buffer, size_t a_offset, size_t a_ld,
                         cl_mem b_buffer, size_t b_offset, size_t b_ld, double beta, cl_mem c_buffer, size_t c_offset,
                         size_t c_ld, cl_command_queue* queue, cl_event* event) {
  return guarded([&] {
    clgemm::gemm(typed(make_call(raw(layout), raw(a_transpose), raw(b_transpose), m, n, k, alpha, a_buffer, a_offset,
                                 a_ld, b_buffer, b_offset, b_ld, beta, c_buffer, c_offset, c_ld),
                       clgemm::DataType::F64),
                 queue_of(queue), event);
  });
}

clgemmStatus clgemmDgemmBatched(clgemmLayout layout, clgemmTranspose a_transpose, clgemmTranspose b_transpose, size_t m,
                                size_t n, size_t k, const double* alphas, cl_mem a_buffer, const size_t* a_offsets,
                                size_t a_ld, cl_mem b_buffer, const size_t* b_offsets, size_t b_ld, const double* betas,
                                cl_mem c_buffer, const size_t* c_offsets, size_t c_ld, size_t batch_count,
                                cl_command_queue* queue, cl_event* event) {
  return guarded([&] {
    check_arrays(alphas, betas, a_offsets, b_offsets, c_offsets, batch_count);
    batched(typed(make_call(raw(layout), raw(a_transpose), raw(b_transpose), m, n, k, 1, a_buffer, 0, a_ld, b_buffer,
                            0, b_ld, 0, c_buffer, 0, c_ld),
                  clgemm::DataType::F64),
            scalars_of(alphas, batch_count, as_double), scalars_of(betas, batch_count, as_double), a_offsets,
            b_offsets, c_offsets, batch_count, queue_of(queue), event, {});
  });
}

clgemmStatus clgemmDgemmStridedBatched(clgemmLayout layout, clgemmTranspose a_transpose, clgemmTranspose b_transpose,
                                       size_t m, size_t n, size_t k, double alpha, cl_mem a_buffer, size_t a_offset,
                                       size_t a_ld, size_t a_stride, cl_mem b_buffer, size_t b_offset, size_t b_ld,
                                       size_t b_stride, double beta, cl_mem c_buffer, size_t c_offset, size_t c_ld,
                                       size_t c_stride, size_t batch_count, cl_command_queue* queue, cl_event* event) {
  return guarded([&] {
    clgemm::gemm_strided_batched(typed(make_call(raw(layout), raw(a_transpose), raw(b_transpose), m, n, k, alpha,
                                                 a_buffer, a_offset, a_ld, b_buffer, b_offset, b_ld, beta, c_buffer,
                                                 c_offset, c_ld),
                                       clgemm::DataType::F64),
                                 a_stride, b_stride, c_stride, batch_count, queue_of(queue), event);
  });
}

clgemmStatus clgemmHgemm(clgemmLayout layout, clgemmTranspose a_transpose, clgemmTranspose b_transpose, size_t m,
                         size_t n, size_t k, cl_half alpha, cl_mem a_buffer, size_t a_offset, size_t a_ld,
                         cl_mem b_buffer, size_t b_offset, size_t b_ld, cl_half beta, cl_mem c_buffer, size_t c_offset,
                         size_t c_ld, cl_command_queue* queue, cl_event* event) {
  return guarded([&] {
    clgemm::gemm(typed(make_call(raw(layout), raw(a_transpose), raw(b_transpose), m, n, k, half_value(alpha), a_buffer,
                                 a_offset, a_ld, b_buffer, b_offset, b_ld, half_value(beta), c_buffer, c_offset, c_ld),
                       clgemm::DataType::F16),
                 queue_of(queue), event);
  });
}

clgemmStatus clgemmHgemmBatched(clgemmLayout layout, clgemmTranspose a_transpose, clgemmTranspose b_transpose, size_t m,
                                size_t n, size_t k, const cl_half* alphas, cl_mem a_buffer, const size_t* a_offsets,
                                size_t a_ld, cl_mem b_buffer, const size_t* b_offsets, size_t b_ld, const cl_half* betas,
                                cl_mem c_buffer, const size_t* c_offsets, size_t c_ld, size_t batch_count,
                                cl_command_queue* queue, cl_event* event) {
  return guarded([&] {
    check_arrays(alphas, betas, a_offsets, b_offsets, c_offsets, batch_count);
    batched(typed(make_call(raw(layout), raw(a_transpose), raw(b_transpose), m, n, k, 1, a_buffer, 0, a_ld, b_buffer,
                            0, b_ld, 0, c_buffer, 0, c_ld),
                  clgemm::DataType::F16),
            scalars_of(alphas, batch_count, half_value), scalars_of(betas, batch_count, half_value), a_offsets,
            b_offsets, c_offsets, batch_count, queue_of(queue), event, {});
  });
}

clgemmStatus clgemmHgemmStridedBatched(clgemmLayout layout, clgemmTranspose a_transpose, clgemmTranspose b_transpose,
                                       size_t m, size_t n, size_t k, cl_half alpha, cl_mem a_buffer, size_t a_offset,
                                       size_t a_ld, size_t a_stride, cl_mem b_buffer, size_t b_offset, size_t b_ld,
                                       size_t b_stride, cl_half beta, cl_mem c_buffer, size_t c_offset, size_t c_ld,
                                       size_t c_stride, size_t batch_count, cl_command_queue* queue, cl_event* event) {
  return guarded([&] {
    clgemm::gemm_strided_batched(typed(make_call(raw(layout), raw(a_transpose), raw(b_transpose), m, n, k,
                                                 half_value(alpha), a_buffer, a_offset, a_ld, b_buffer, b_offset, b_ld,
                                                 half_value(beta), c_buffer, c_offset, c_ld),
                                       clgemm::DataType::F16),
                                 a_stride, b_stride, c_stride, batch_count, queue_of(queue), event);
  });
}

clgemmStatus clgemmGemmEx(clgemmLayout layout, clgemmTranspose a_transpose, clgemmTranspose b_transpose, size_t m,
                          size_t n, size_t k, double alpha, cl_mem a_buffer, clgemmDataType a_type, size_t a_offset,
                          size_t a_ld, cl_mem b_buffer, clgemmDataType b_type, size_t b_offset, size_t b_ld,
                          double beta, cl_mem c_buffer, clgemmDataType c_type, size_t c_offset, size_t c_ld,
                          clgemmComputeType compute, cl_command_queue* queue, cl_event* event) {
  return guarded([&] {
    clgemm::gemm(typed(make_call(raw(layout), raw(a_transpose), raw(b_transpose), m, n, k, alpha, a_buffer, a_offset,
                                 a_ld, b_buffer, b_offset, b_ld, beta, c_buffer, c_offset, c_ld),
                       raw(a_type), raw(b_type), raw(c_type), raw(compute)),
                 queue_of(queue), event, thread_options());
  });
}

clgemmStatus clgemmGemmBatchedEx(clgemmLayout layout, clgemmTranspose a_transpose, clgemmTranspose b_transpose,
                                 size_t m, size_t n, size_t k, const double* alphas, cl_mem a_buffer,
                                 clgemmDataType a_type, const size_t* a_offsets, size_t a_ld, cl_mem b_buffer,
                                 clgemmDataType b_type, const size_t* b_offsets, size_t b_ld, const double* betas,
                                 cl_mem c_buffer, clgemmDataType c_type, const size_t* c_offsets, size_t c_ld,
                                 size_t batch_count, clgemmComputeType compute, cl_command_queue* queue,
                                 cl_event* event) {
  return guarded([&] {
    check_arrays(alphas, betas, a_offsets, b_offsets, c_offsets, batch_count);
    batched(typed(make_call(raw(layout), raw(a_transpose), raw(b_transpose), m, n, k, 1, a_buffer, 0, a_ld, b_buffer,
                            0, b_ld, 0, c_buffer, 0, c_ld),
                  raw(a_type), raw(b_type), raw(c_type), raw(compute)),
            scalars_of(alphas, batch_count, as_double), scalars_of(betas, batch_count, as_double), a_offsets,
            b_offsets, c_offsets, batch_count, queue_of(queue), event, thread_options());
  });
}

clgemmStatus clgemmGemmStridedBatchedEx(clgemmLayout layout, clgemmTranspose a_transpose, clgemmTranspose b_transpose,
                                        size_t m, size_t n, size_t k, double alpha, cl_mem a_buffer,
                                        clgemmDataType a_type, size_t a_offset, size_t a_ld, size_t a_stride,
                                        cl_mem b_buffer, clgemmDataType b_type, size_t b_offset, size_t b_ld,
                                        size_t b_stride, double beta, cl_mem c_buffer, clgemmDataType c_type,
                                        size_t c_offset, size_t c_ld, size_t c_stride, size_t batch_count,
                                        clgemmComputeType compute, cl_command_queue* queue, cl_event* event) {
  return guarded([&] {
    clgemm::gemm_strided_batched(typed(make_call(raw(layout), raw(a_transpose), raw(b_transpose), m, n, k, alpha,
                                                 a_buffer, a_offset, a_ld, b_buffer, b_offset, b_ld, beta, c_buffer,
                                                 c_offset, c_ld),
                                       raw(a_type), raw(b_type), raw(c_type), raw(compute)),
                                 a_stride, b_stride, c_stride, batch_count, queue_of(queue), event, thread_options());
  });
}

clgemmStatus clgemmSgemmGrouped(clgemmLayout layout, const clgemmTranspose* a_transposes,
                                const clgemmTranspose* b_transposes, const size_t* ms, const size_t* ns,
                                const size_t* ks, const float* alphas, cl_mem a_buffer, const size_t* a_offsets,
                                const size_t* a_lds, cl_mem b_buffer, const size_t* b_offsets, const size_t* b_lds,
                                const float* betas, cl_mem c_buffer, const size_t* c_offsets, const size_t* c_lds,
                                size_t problem_count, cl_command_queue* queue, cl_event* event) {
  return guarded([&] {
    clgemm::gemm_grouped(grouped_problems(raw(layout), a_transposes, b_transposes, ms, ns, ks, alphas, a_buffer,
                                          a_offsets, a_lds, b_buffer, b_offsets, b_lds, betas, c_buffer, c_offsets,
                                          c_lds, problem_count),
                         queue_of(queue), event, thread_options());
  });
}

clgemmStatus clgemmGemmGroupedEx(clgemmLayout layout, const clgemmTranspose* a_transposes,
                                 const clgemmTranspose* b_transposes, const size_t* ms, const size_t* ns,
                                 const size_t* ks, const double* alphas, cl_mem a_buffer, clgemmDataType a_type,
                                 const size_t* a_offsets, const size_t* a_lds, cl_mem b_buffer, clgemmDataType b_type,
                                 const size_t* b_offsets, const size_t* b_lds, const double* betas, cl_mem c_buffer,
                                 clgemmDataType c_type, const size_t* c_offsets, const size_t* c_lds,
                                 size_t problem_count, clgemmComputeType compute, cl_command_queue* queue,
                                 cl_event* event) {
  return guarded([&] {
    std::vector<clgemm::GemmCall> problems =
        grouped_problems(raw(layout), a_transposes, b_transposes, ms, ns, ks, alphas, a_buffer, a_offsets, a_lds,
                         b_buffer, b_offsets, b_lds, betas, c_buffer, c_offsets, c_lds, problem_count);
    for (auto& p : problems) p = typed(p, raw(a_type), raw(b_type), raw(c_type), raw(compute));
    clgemm::gemm_grouped(problems, queue_of(queue), event, thread_options());
  });
}

clgemmStatus clgemmGemmQuantized(clgemmLayout layout, size_t m, size_t n, size_t k, double alpha, cl_mem a_buffer,
                                 clgemmDataType a_type, size_t a_offset, size_t a_ld, cl_mem w_buffer,
                                 clgemmQuantFormat w_format, size_t w_offset_bytes, size_t w_row_bytes, double beta,
                                 cl_mem c_buffer, clgemmDataType c_type, size_t c_offset, size_t c_ld,
                                 cl_command_queue* queue, cl_event* event) {
  return guarded([&] {
    clgemm::gemm_quantized(quant_call(raw(layout), m, n, k, alpha, a_buffer, raw(a_type), a_offset, a_ld, w_buffer,
                                      raw(w_format), w_offset_bytes, w_row_bytes, beta, c_buffer, raw(c_type),
                                      c_offset, c_ld),
                           queue_of(queue), event);
  });
}

clgemmStatus clgemmGemmQuantizedStridedBatched(clgemmLayout layout, size_t m, size_t n, size_t k, double alpha,
                                               cl_mem a_buffer, clgemmDataType a_type, size_t a_offset, size_t a_ld,
                                               size_t a_stride, cl_mem w_buffer, clgemmQuantFormat w_format,
                                               size_t w_offset_bytes, size_t w_row_bytes, size_t w_stride_bytes,
                                               double beta, cl_mem c_buffer, clgemmDataType c_type, size_t c_offset,
                                               size_t c_ld, size_t c_stride, size_t batch_count,
                                               cl_command_queue* queue, cl_event* event) {
  return guarded([&] {
    clgemm::gemm_quantized_strided_batched(
        quant_call(raw(layout), m, n, k, alpha, a_buffer, raw(a_type), a_offset, a_ld, w_buffer, raw(w_format),
                   w_offset_bytes, w_row_bytes, beta, c_buffer, raw(c_type), c_offset, c_ld),
        a_stride, w_stride_bytes, c_stride, batch_count, queue_of(queue), event);
  });
}

const char* clgemmStatusString(clgemmStatus status) {
  return clgemm::status_name(static_cast<clgemm::Status>(raw(status)));
}

const char* clgemmLastErrorMessage(void) { return last_error.c_str(); }

clgemmStatus clgemmClearCache(void) {
  return guarded([] { clgemm::detail::clear_contexts(); });
}

clgemmStatus clgemmSetWarningCallback(clgemmWarningCallback callback, void* user_data) {
  return guarded([&] {
    if (!callback) return clgemm::set_warning_handler({});
    clgemm::set_warning_handler([callback, user_data](const std::string& m) { callback(m.c_str(), user_data); });
  });
}

const char* clgemmLastWarning(void) {
  thread_local std::string copy;  // the caller's pointer stays valid until its thread asks again
  copy = clgemm::detail::last_warning();
  return copy.c_str();
}

}  // extern "C"
