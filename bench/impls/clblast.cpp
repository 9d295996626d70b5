// bench/impls/clblast.cpp — CLBlast, the tuned OpenCL BLAS, through its C API on the same context
// and queue as clgemm: CLBlastSgemm for float32, CLBlastDgemm for float64 and CLBlastHgemm for f16
// (which computes in half precision: its arithmetic is FP16, and it needs cl_khr_fp16), and their
// StridedBatched forms for batched shapes. CLBlast
// has no GEMM of bf16 or of 16-bit A and B with a float32 C. Compiled in only when CMake found
// CLBlast. CLBlast may
// run helper kernels (padding, transposing) around its GEMM kernel and returns the event of the
// last one only, so it is timed from a marker enqueued just before the call to the end of that
// event: device time, launch gaps included, like clgemm's first-to-last span of events.
#include "bench/impls/factories.hpp"

#include <clgemm/cpu.hpp>
#include "bench/impls/cl_operands.hpp"

#include <clgemm/error.hpp>

#ifdef CLGEMM_HAVE_CLBLAST
#include <clblast_c.h>
#endif

#include <chrono>
#include <stdexcept>

namespace clgemm::bench {

namespace {

// The CLBlast entry point for these types; null where CLBlast has none.
const char* entry_point(const GemmTypes& t) {
  if (t.is_f32()) return "CLBlastSgemm";
  if (t.in == DataType::F64 && t.out == DataType::F64) return "CLBlastDgemm";
  if (t.in == DataType::F16 && t.out == DataType::F16) return "CLBlastHgemm";
  return nullptr;
}

class Clblast final : public Implementation {
 public:
  Clblast(const Context& ctx, GemmTypes types) : ctx_(ctx), ops_(ctx), types_(types) {
    info_.name = "clblast";
    const char* entry = entry_point(types);
    const std::string what =
        entry ? std::string(entry) + " (OpenCL, same device)" : "(no GEMM of " + types.name() + ")";
#ifdef CLGEMM_HAVE_CLBLAST
    info_.description = "CLBlast " CLGEMM_CLBLAST_VERSION " " + what;
#else
    info_.description = "CLBlast " + what;
#endif
    if (types.in == DataType::F16 && types.out == DataType::F16) info_.description += ", computed in f16";
    info_.precision = types.in == DataType::F64 ? Precision::FP64 : types.in == DataType::F16 ? Precision::FP16
                                                                                                : Precision::FP32;
    info_.peer = true;
    info_.hardware = Hardware::OpenCLDevice;
    info_.timing = Timing::MarkerEvents;
    info_.batched = true;
  }
  const ImplInfo& info() const override { return info_; }

  std::string unavailable() const override {
#ifdef CLGEMM_HAVE_CLBLAST
    return "";
#else
    return "built without CLBlast (install libclblast-dev and configure again)";
#endif
  }

  std::string unsupported(const Problem& p) const override {
    const GemmTypes& t = p.settings.types;
    if (!entry_point(t))
      return "CLBlast has Sgemm, Dgemm and Hgemm only, no GEMM of " + t.describe() + " (--precision " + t.name() + ")";
    const DeviceInfo& d = ctx_.info();
    if (t.in == DataType::F64 && !d.fp64) return "CLBlastDgemm needs cl_khr_fp64, which " + d.name + " does not offer";
    if (t.in == DataType::F16 && !d.has_extension("cl_khr_fp16"))
      return "CLBlastHgemm computes in half precision and needs cl_khr_fp16, which " + d.name + " does not offer";
    return types_mismatch(types_, p);
  }

  void prepare(const Problem& p) override {
    ops_.upload(p);
    p_ = &p;
  }
  void reset_c() override { ops_.reset_c(); }
  double run() override {
#ifdef CLGEMM_HAVE_CLBLAST
    cl_command_queue queue = ctx_.queue()();
    cl_event event = nullptr, before = nullptr;
    const auto t0 = std::chrono::steady_clock::now();
    // CLBlast may run helper kernels and returns only its last event: a marker just before the
    // call gives the device time the call started from (the queue is idle here, and in order).
    if (clEnqueueMarkerWithWaitList(queue, 0, nullptr, &before) != CL_SUCCESS) before = nullptr;
    const CLBlastStatusCode status = gemm(queue, &event);
    ctx_.queue().finish();
    double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    cl_ulong start = 0, end = 0;
    if (before && event && clGetEventProfilingInfo(before, CL_PROFILING_COMMAND_END, sizeof start, &start, nullptr) == CL_SUCCESS &&
        clGetEventProfilingInfo(event, CL_PROFILING_COMMAND_END, sizeof end, &end, nullptr) == CL_SUCCESS && end > start)
      seconds = double(end - start) * 1e-9;
    // (else: no usable profiling times, and the host clock around the call and finish stands)
    if (before) clReleaseEvent(before);
    if (event) clReleaseEvent(event);
    if (status != CLBlastSuccess)
      throw std::runtime_error(std::string(entry_point(types_)) + " returned status " + std::to_string(int(status)));
    return seconds;
#else
    throw Error(Status::Unsupported, "built without CLBlast");
#endif
  }
  HostMatrix result() override { return ops_.read_c(); }
  void release() override {
    ops_.clear();
    p_ = nullptr;
  }

 private:
#ifdef CLGEMM_HAVE_CLBLAST
  // Enqueues the GEMM of the run's types (alpha and beta in the entry point's scalar type).
  CLBlastStatusCode gemm(cl_command_queue& queue, cl_event* event) const {
    const auto& s = p_->settings;
    const CLBlastLayout layout = s.layout == Layout::RowMajor ? CLBlastLayoutRowMajor : CLBlastLayoutColMajor;
    const CLBlastTranspose ta = s.a_transpose == Transpose::Yes ? CLBlastTransposeYes : CLBlastTransposeNo;
    const CLBlastTranspose tb = s.b_transpose == Transpose::Yes ? CLBlastTransposeYes : CLBlastTransposeNo;
    const size_t m = p_->shape.m, n = p_->shape.n, k = p_->shape.k;
    if (p_->batch() > 1) {
      const size_t sa = p_->a_stride(), sb = p_->b_stride(), sc = p_->c_stride(), count = p_->batch();
      if (types_.in == DataType::F64)
        return CLBlastDgemmStridedBatched(layout, ta, tb, m, n, k, double(s.alpha), ops_.a()(), 0, p_->lda, sa,
                                          ops_.b()(), 0, p_->ldb, sb, double(s.beta), ops_.c()(), 0, p_->ldc, sc, count,
                                          &queue, event);
      if (types_.in == DataType::F16)
        return CLBlastHgemmStridedBatched(layout, ta, tb, m, n, k, cpu::float_to_half(s.alpha), ops_.a()(), 0, p_->lda,
                                          sa, ops_.b()(), 0, p_->ldb, sb, cpu::float_to_half(s.beta), ops_.c()(), 0,
                                          p_->ldc, sc, count, &queue, event);
      return CLBlastSgemmStridedBatched(layout, ta, tb, m, n, k, s.alpha, ops_.a()(), 0, p_->lda, sa, ops_.b()(), 0,
                                        p_->ldb, sb, s.beta, ops_.c()(), 0, p_->ldc, sc, count, &queue, event);
    }
    if (types_.in == DataType::F64)
      return CLBlastDgemm(layout, ta, tb, m, n, k, double(s.alpha), ops_.a()(), 0, p_->lda, ops_.b()(), 0, p_->ldb,
                          double(s.beta), ops_.c()(), 0, p_->ldc, &queue, event);
    if (types_.in == DataType::F16)
      return CLBlastHgemm(layout, ta, tb, m, n, k, cpu::float_to_half(s.alpha), ops_.a()(), 0, p_->lda, ops_.b()(), 0,
                          p_->ldb, cpu::float_to_half(s.beta), ops_.c()(), 0, p_->ldc, &queue, event);
    return CLBlastSgemm(layout, ta, tb, m, n, k, s.alpha, ops_.a()(), 0, p_->lda, ops_.b()(), 0, p_->ldb, s.beta,
                        ops_.c()(), 0, p_->ldc, &queue, event);
  }
#endif

  const Context& ctx_;
  ClOperands ops_;
  GemmTypes types_;
  ImplInfo info_;
  const Problem* p_ = nullptr;
};

}  // namespace

std::unique_ptr<Implementation> make_clblast(const Context& ctx, GemmTypes types) {
  return std::make_unique<Clblast>(ctx, types);
}

}  // namespace clgemm::bench
