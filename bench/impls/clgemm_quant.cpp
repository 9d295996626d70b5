// bench/impls/clgemm_quant.cpp — clgemm's quantized-weight GEMM, "clgemm" in a --quant run:
// clgemm::gemm_quantized (gemm_quantized_strided_batched for a batch) on W's blocks as they are
// stored, exactly as a user calls it, dequantizing in its kernels. Timed by OpenCL events, from
// the start of the first command the call enqueued to the end of the last.
#include "bench/impls/factories.hpp"

#include "bench/impls/cl_operands.hpp"

#include <clgemm/quant.hpp>

namespace clgemm::bench {

namespace {

class ClgemmQuant final : public Implementation {
 public:
  ClgemmQuant(const Context& ctx, QuantFormat format, GemmTypes types)
      : ctx_(ctx), ops_(ctx), format_(format), types_(types) {
    info_.name = "clgemm";
    info_.description = std::string("clgemm::gemm_quantized, public API, W in ") + quant_format_name(format) +
                        " blocks dequantized in its kernels";
    if (!types.is_f32()) info_.description += ", " + types.describe();
    info_.precision = compute_arithmetic(types);
    info_.hardware = Hardware::OpenCLDevice;
    info_.timing = Timing::Events;
    info_.batched = true;
    info_.quantized = true;
  }
  const ImplInfo& info() const override { return info_; }
  std::string unsupported(const Problem& p) const override {
    if (p.settings.quant != format_) return "built for other weights than this problem's";
    return types_mismatch(types_, p);
  }

  void prepare(const Problem& p) override {
    ops_.upload(p, ClOperands::Weights::Quantized);
    call_ = QuantGemmCall{};
    call_.layout = p.settings.layout;
    call_.m = p.shape.m, call_.n = p.shape.n, call_.k = p.shape.k;
    call_.alpha = p.settings.alpha, call_.beta = p.settings.beta;
    call_.a = {ops_.a()(), 0, p.lda};
    call_.a_type = p.settings.types.in;
    call_.w = {ops_.w()(), format_, 0, p.w_row_bytes};
    call_.c = {ops_.c()(), 0, p.ldc};
    call_.c_type = p.settings.types.out;
    p_ = &p;
  }
  void reset_c() override { ops_.reset_c(); }
  double run() override {
    std::vector<cl::Event> events;
    GemmOptions options;
    options.events = &events;
    if (p_->batch() > 1)
      gemm_quantized_strided_batched(call_, p_->a_stride(), p_->w_stride_bytes(), p_->c_stride(), p_->batch(),
                                     ctx_.queue()(), nullptr, options);
    else
      gemm_quantized(call_, ctx_.queue()(), nullptr, options);
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
  QuantFormat format_;
  GemmTypes types_;
  ImplInfo info_;
  QuantGemmCall call_;
  const Problem* p_ = nullptr;
};

}  // namespace

std::unique_ptr<Implementation> make_clgemm_quant(const Context& ctx, QuantFormat format, GemmTypes types) {
  return std::make_unique<ClgemmQuant>(ctx, format, types);
}

}  // namespace clgemm::bench
