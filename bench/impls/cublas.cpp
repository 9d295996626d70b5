// bench/impls/cublas.cpp — cuBLAS SGEMM through the plugin, in two flavours: "cublas" (FP32 math,
// a peer) and "cublas-tf32" (TF32 tensor cores: operands rounded to 11 significant bits, so it is
// checked against the looser TF32 tolerance and never counted as a peer of an FP32 GEMM). Timed
// with CUDA events around the one cublasSgemm call. It runs on the CUDA device, not through
// OpenCL, on its own copy of the same host inputs.
#include "bench/impls/factories.hpp"

#include "bench/cublas_loader.hpp"

#include <stdexcept>

namespace clgemm::bench {

namespace {

class Cublas final : public Implementation {
 public:
  explicit Cublas(bool tf32) {
    info_.name = tf32 ? "cublas-tf32" : "cublas";
    info_.peer = !tf32;
    info_.precision = tf32 ? Precision::TF32 : Precision::FP32;
    info_.hardware = Hardware::CudaDevice;
    info_.timing = Timing::CudaEvents;
    info_.description = tf32 ? "cuBLAS cublasSgemm, TF32 tensor cores (CUBLAS_TF32_TENSOR_OP_MATH)"
                             : "cuBLAS cublasSgemm, FP32 (CUBLAS_DEFAULT_MATH)";
    plugin_ = find_cublas_plugin(reason_);
    if (!plugin_) return;
    char err[512] = "";
    session_ = plugin_->open(tf32 ? 1 : 0, err, sizeof err);
    if (!session_) {
      reason_ = err;
      return;
    }
    info_.hardware_name = plugin_->device_name(session_);
    info_.description = std::string(tf32 ? "cuBLAS cublasSgemm, TF32 tensor cores" : "cuBLAS cublasSgemm, FP32") +
                        " (" + plugin_->version(session_) + ") on " + info_.hardware_name;
  }
  ~Cublas() override {
    if (session_) plugin_->close(session_);
  }
  const ImplInfo& info() const override { return info_; }
  std::string unavailable() const override { return session_ ? "" : reason_; }

  void prepare(const Problem& p) override {
    const auto& s = p.settings;
    c_count_ = p.c0.size();
    char err[512] = "";
    if (plugin_->prepare(session_, s.layout == Layout::ColMajor, s.a_transpose == Transpose::Yes,
                         s.b_transpose == Transpose::Yes, p.shape.m, p.shape.n, p.shape.k, s.alpha, p.a.data(),
                         p.a.size(), p.lda, p.b.data(), p.b.size(), p.ldb, s.beta, p.c0.data(), p.c0.size(), p.ldc,
                         err, sizeof err))
      fail(err);
  }
  void reset_c() override {
    char err[512] = "";
    if (plugin_->reset_c(session_, err, sizeof err)) fail(err);
  }
  double run() override {
    char err[512] = "";
    double seconds = 0;
    if (plugin_->run(session_, &seconds, err, sizeof err)) fail(err);
    return seconds;
  }
  std::vector<float> result() override {
    std::vector<float> c(c_count_);
    char err[512] = "";
    if (plugin_->read_c(session_, c.data(), err, sizeof err)) fail(err);
    return c;
  }
  void release() override { plugin_->release(session_); }

 private:
  [[noreturn]] static void fail(const char* err) { throw std::runtime_error(std::string("cuBLAS: ") + err); }

  ImplInfo info_;
  std::shared_ptr<const CublasPlugin> plugin_;
  clgemm_cublas_session* session_ = nullptr;
  std::string reason_;
  size_t c_count_ = 0;
};

}  // namespace

std::unique_ptr<Implementation> make_cublas(bool tf32) { return std::make_unique<Cublas>(tf32); }

}  // namespace clgemm::bench
