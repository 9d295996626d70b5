// bench/impls/ladder.cpp — one rung of the optimisation ladder. A rung's run enqueues operand
// preparation, the GEMM kernel and a copy-back, each with an event; the time is the span from
// the first event's start to the last one's end, on the device's own clock.
#include "bench/impls/factories.hpp"

#include "bench/impls/cl_operands.hpp"

#include <optional>

namespace clgemm::bench {

namespace {

class LadderRung final : public Implementation {
 public:
  LadderRung(const Context& ctx, const RungInfo& rung) : ctx_(ctx), rung_(rung), ops_(ctx) {
    info_.name = "ladder:" + std::to_string(rung.number);
    info_.description = "ladder rung " + std::to_string(rung.number) + ": " + rung.title;
    info_.hardware = Hardware::OpenCLDevice;
    info_.timing = Timing::Events;
  }
  const ImplInfo& info() const override { return info_; }

  std::string unsupported(const Problem& p) const override {
    if (!p.settings.types.is_f32()) return "ladder rungs compute float32 only (--precision f32)";
    if (!p.settings.is_plain()) return "ladder rungs compute C = A*B only (row-major, no transposes, alpha 1, beta 0)";
    return "";
  }
  void prepare(const Problem& p) override {
    ops_.upload(p);
    run_.emplace(ctx_, rung_.number, p.gemm_shape());
  }
  void reset_c() override { ops_.reset_c(); }
  double run() override {
    auto events = run_->enqueue(ops_.a(), ops_.b(), ops_.c());
    cl::Event::waitForEvents(events);
    return elapsed_seconds(events);
  }
  HostMatrix result() override { return ops_.read_c(); }
  void release() override {
    run_.reset();
    ops_.clear();
  }

 private:
  const Context& ctx_;
  RungInfo rung_;
  ClOperands ops_;
  ImplInfo info_;
  std::optional<LadderRun> run_;
};

}  // namespace

std::unique_ptr<Implementation> make_ladder_rung(const Context& ctx, const RungInfo& rung) {
  return std::make_unique<LadderRung>(ctx, rung);
}

}  // namespace clgemm::bench
