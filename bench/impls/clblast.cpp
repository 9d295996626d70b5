// bench/impls/clblast.cpp — CLBlast, the tuned OpenCL BLAS, through its C API (CLBlastSgemm) on
// the same context and queue as clgemm. Compiled in only when CMake found CLBlast. CLBlast may
// run helper kernels (padding, transposing) around its GEMM kernel and returns the event of the
// last one only, so it is timed from a marker enqueued just before the call to the end of that
// event: device time, launch gaps included, like clgemm's first-to-last span of events.
#include "bench/impls/factories.hpp"

#include "bench/impls/cl_operands.hpp"

#include <clgemm/error.hpp>

#ifdef CLGEMM_HAVE_CLBLAST
#include <clblast_c.h>
#endif

#include <chrono>
#include <stdexcept>

namespace clgemm::bench {

namespace {

class Clblast final : public Implementation {
 public:
  explicit Clblast(const Context& ctx) : ctx_(ctx), ops_(ctx) {
    info_.name = "clblast";
#ifdef CLGEMM_HAVE_CLBLAST
    info_.description = "CLBlast " CLGEMM_CLBLAST_VERSION " CLBlastSgemm (OpenCL, same device)";
#else
    info_.description = "CLBlast CLBlastSgemm (OpenCL, same device)";
#endif
    info_.peer = true;
    info_.hardware = Hardware::OpenCLDevice;
    info_.timing = Timing::MarkerEvents;
  }
  const ImplInfo& info() const override { return info_; }

  std::string unavailable() const override {
#ifdef CLGEMM_HAVE_CLBLAST
    return "";
#else
    return "built without CLBlast (install libclblast-dev and configure again)";
#endif
  }

  void prepare(const Problem& p) override {
    ops_.upload(p);
    p_ = &p;
  }
  void reset_c() override { ops_.reset_c(); }
  double run() override {
#ifdef CLGEMM_HAVE_CLBLAST
    const auto& s = p_->settings;
    cl_command_queue queue = ctx_.queue()();
    cl_event event = nullptr, before = nullptr;
    const auto t0 = std::chrono::steady_clock::now();
    // CLBlast may run helper kernels and returns only its last event: a marker just before the
    // call gives the device time the call started from (the queue is idle here, and in order).
    if (clEnqueueMarkerWithWaitList(queue, 0, nullptr, &before) != CL_SUCCESS) before = nullptr;
    const CLBlastStatusCode status = CLBlastSgemm(
        s.layout == Layout::RowMajor ? CLBlastLayoutRowMajor : CLBlastLayoutColMajor,
        s.a_transpose == Transpose::Yes ? CLBlastTransposeYes : CLBlastTransposeNo,
        s.b_transpose == Transpose::Yes ? CLBlastTransposeYes : CLBlastTransposeNo, p_->shape.m, p_->shape.n,
        p_->shape.k, s.alpha, ops_.a()(), 0, p_->lda, ops_.b()(), 0, p_->ldb, s.beta, ops_.c()(), 0, p_->ldc, &queue,
        &event);
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
      throw std::runtime_error("CLBlastSgemm returned status " + std::to_string(int(status)));
    return seconds;
#else
    throw Error(Status::Unsupported, "built without CLBlast");
#endif
  }
  std::vector<float> result() override { return ops_.read_c(); }
  void release() override {
    ops_.clear();
    p_ = nullptr;
  }

 private:
  const Context& ctx_;
  ClOperands ops_;
  ImplInfo info_;
  const Problem* p_ = nullptr;
};

}  // namespace

std::unique_ptr<Implementation> make_clblast(const Context& ctx) { return std::make_unique<Clblast>(ctx); }

}  // namespace clgemm::bench
