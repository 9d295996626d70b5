// bench/impls/clgemm_api.cpp — clgemm itself, through its public BLAS-style API, exactly as a
// user calls it. Timed by OpenCL events: from the start of the first command the call enqueued
// (GemmOptions::events lists them all: packing, if any, then the GEMM) to the end of the last,
// so the gaps between them count too. "clgemm" is the default float32 arithmetic; "clgemm-3xtf32"
// and "clgemm-tf32" ask for GemmOptions::math Tf32x3 and Tf32 (the tensor path).
#include "bench/impls/factories.hpp"

#include "bench/impls/cl_operands.hpp"

namespace clgemm::bench {

namespace {

class ClgemmApi final : public Implementation {
 public:
  ClgemmApi(const Context& ctx, GemmOptions::Toggle edges, Math math)
      : ctx_(ctx), ops_(ctx), edges_(edges), math_(math) {
    info_.name = math == Math::Tf32x3 ? "clgemm-3xtf32" : math == Math::Tf32 ? "clgemm-tf32" : "clgemm";
    info_.description = "clgemm::gemm, public API (the planner's choice of kernel)";
    if (math == Math::Tf32x3) info_.description += ", math 3xTF32 (tensor cores, float32 accuracy)";
    if (math == Math::Tf32) info_.description += ", math TF32 (tensor cores)";
    // 3xTF32 is checked against float32's tolerance: it claims float32's accuracy.
    info_.precision = math == Math::Tf32 ? Precision::TF32 : Precision::FP32;
    if (edges == GemmOptions::Toggle::On) info_.description += "; ragged edges always run apart (--edges split)";
    if (edges == GemmOptions::Toggle::Off) info_.description += "; ragged edges never run apart (--edges whole)";
    info_.hardware = Hardware::OpenCLDevice;
    info_.timing = Timing::Events;
  }
  const ImplInfo& info() const override { return info_; }
  std::string unavailable() const override {
    if (math_ != Math::Fp32 && !tensor_path_available(ctx_.info()))
      return "no tensor path on this device (an NVIDIA GPU, sm_80 or newer): it would run as clgemm";
    return "";
  }

  void prepare(const Problem& p) override {
    ops_.upload(p);
    call_ = GemmCall{};
    call_.layout = p.settings.layout;
    call_.a_transpose = p.settings.a_transpose;
    call_.b_transpose = p.settings.b_transpose;
    call_.m = p.shape.m, call_.n = p.shape.n, call_.k = p.shape.k;
    call_.alpha = p.settings.alpha, call_.beta = p.settings.beta;
    call_.a = {ops_.a()(), 0, p.lda};
    call_.b = {ops_.b()(), 0, p.ldb};
    call_.c = {ops_.c()(), 0, p.ldc};
  }
  void reset_c() override { ops_.reset_c(); }
  double run() override {
    std::vector<cl::Event> events;
    GemmOptions options;
    options.events = &events;
    options.force_edge_split = edges_;
    options.math = math_;
    gemm(call_, ctx_.queue()(), nullptr, options);
    ctx_.queue().finish();
    return elapsed_seconds(events);
  }
  std::vector<float> result() override { return ops_.read_c(); }
  void release() override { ops_.clear(); }

 private:
  const Context& ctx_;
  ClOperands ops_;
  GemmOptions::Toggle edges_;
  Math math_;
  ImplInfo info_;
  GemmCall call_;
};

}  // namespace

std::unique_ptr<Implementation> make_clgemm_api(const Context& ctx, GemmOptions::Toggle edges, Math math) {
  return std::make_unique<ClgemmApi>(ctx, edges, math);
}

}  // namespace clgemm::bench
