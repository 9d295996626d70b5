// bench/impls/clgemm_api.cpp — clgemm itself, through its public BLAS-style API, exactly as a
// user calls it. Timed by OpenCL events: from the start of the first command the call enqueued
// (GemmOptions::events lists them all: packing, if any, then the GEMM) to the end of the last,
// so the gaps between them count too. "clgemm" is the default arithmetic of the run's types
// (GemmCall::a_type, b_type, c_type; ComputeType::Auto: float64 for f64, float32 otherwise);
// "clgemm-3xtf32" and "clgemm-tf32" ask for GemmOptions::math Tf32x3 and Tf32 (the tensor path),
// which take float32 operands only. A batched shape runs as one gemm_strided_batched call, a
// grouped one as one gemm_grouped call.
#include "bench/impls/factories.hpp"

#include "bench/impls/cl_operands.hpp"

namespace clgemm::bench {

namespace {

class ClgemmApi final : public Implementation {
 public:
  ClgemmApi(const Context& ctx, GemmOptions::Toggle edges, Math math, GemmTypes types, const std::string& name)
      : ctx_(ctx), ops_(ctx), edges_(edges), math_(math), types_(types) {
    info_.name = !name.empty()            ? name
                 : math == Math::Tf32x3 ? "clgemm-3xtf32"
                 : math == Math::Tf32   ? "clgemm-tf32"
                                        : "clgemm";
    info_.description = "clgemm::gemm, public API (the planner's choice of kernel)";
    if (!types.is_f32()) info_.description += ", " + types.describe();
    if (math == Math::Tf32x3) info_.description += ", math 3xTF32 (tensor cores, float32 accuracy)";
    if (math == Math::Tf32) info_.description += ", math TF32 (tensor cores)";
    // 3xTF32 is checked against float32's tolerance: it claims float32's accuracy.
    info_.precision = math == Math::Tf32 ? Precision::TF32 : compute_arithmetic(types);
    if (edges == GemmOptions::Toggle::On) info_.description += "; ragged edges always run apart (--edges split)";
    if (edges == GemmOptions::Toggle::Off) info_.description += "; ragged edges never run apart (--edges whole)";
    info_.hardware = Hardware::OpenCLDevice;
    info_.timing = Timing::Events;
    info_.batched = true;
    info_.grouped = math == Math::Fp32;  // gemm_grouped computes in float32 only
  }
  const ImplInfo& info() const override { return info_; }
  std::string unavailable() const override {
    if (math_ != Math::Fp32 && !tensor_path_available(ctx_.info()))
      return "no tensor path on this device (an NVIDIA GPU, sm_80 or newer): it would run as clgemm";
    return "";
  }
  std::string unsupported(const Problem& p) const override {
    if (info_.name == "clgemm-dense" && !p.settings.quant)
      return "the dense GEMM of quantized weights: --quant runs only (else it is clgemm)";
    if (math_ != Math::Fp32 && !p.settings.types.is_f32())
      return "TF32 and 3xTF32 math take float32 operands only (--precision f32)";
    if (p.settings.types.in == DataType::F64 && !ctx_.info().fp64)
      return "float64 needs cl_khr_fp64, which " + ctx_.info().name + " does not offer";
    return types_mismatch(types_, p);
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
    call_.a_type = call_.b_type = p.settings.types.in;
    call_.c_type = p.settings.types.out;
    p_ = &p;
    problems_.clear();
    for (const GroupMember& g : p.members) {
      GemmCall one = call_;
      one.m = g.s.m, one.n = g.s.n, one.k = g.s.k;
      one.a = {ops_.a()(), g.a_offset, g.lda};
      one.b = {ops_.b()(), g.b_offset, g.ldb};
      one.c = {ops_.c()(), g.c_offset, g.ldc};
      problems_.push_back(one);
    }
  }
  void reset_c() override { ops_.reset_c(); }
  double run() override {
    std::vector<cl::Event> events;
    GemmOptions options;
    options.events = &events;
    options.force_edge_split = edges_;
    options.math = math_;
    if (p_->grouped())
      gemm_grouped(problems_, ctx_.queue()(), nullptr, options);
    else if (p_->batch() > 1)
      gemm_strided_batched(call_, p_->a_stride(), p_->b_stride(), p_->c_stride(), p_->batch(), ctx_.queue()(), nullptr,
                           options);
    else
      gemm(call_, ctx_.queue()(), nullptr, options);
    ctx_.queue().finish();
    return elapsed_seconds(events);
  }
  HostMatrix result() override { return ops_.read_c(); }
  void release() override {
    ops_.clear();
    p_ = nullptr;
  }

 private:
  const Context& ctx_;
  ClOperands ops_;
  GemmOptions::Toggle edges_;
  Math math_;
  GemmTypes types_;
  ImplInfo info_;
  GemmCall call_;
  const Problem* p_ = nullptr;
  std::vector<GemmCall> problems_;  // a grouped shape's problems
};

}  // namespace

std::unique_ptr<Implementation> make_clgemm_api(const Context& ctx, GemmOptions::Toggle edges, Math math,
                                                GemmTypes types, const std::string& name) {
  return std::make_unique<ClgemmApi>(ctx, edges, math, types, name);
}

}  // namespace clgemm::bench
