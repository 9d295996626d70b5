// bench/impls/cublas.cpp — cuBLAS through the plugin, in three flavours: "cublas" (the run's types:
// cublasSgemm in FP32 math, cublasDgemm, cublasHgemm, or cublasGemmEx computing 16-bit operands
// in float32; a peer), "cublas-tf32" (float32 operands on TF32 tensor cores: rounded to 11
// significant bits, so it is checked against the looser TF32 tolerance and never counted as a
// peer of an FP32 GEMM) and "cublas-loop" (grouped calls only, one call per problem; a peer). A
// batched shape makes the StridedBatched form of the same call, a grouped one the GroupedBatched
// form (not for TF32). Timed with CUDA events around the call or calls. It runs on the CUDA
// device, not through OpenCL, on its own copy of the same host inputs.
#include "bench/impls/factories.hpp"

#include "bench/cublas_loader.hpp"

#include <stdexcept>

namespace clgemm::bench {

namespace {

// The plugin's type code for a DataType (cublas_plugin.h: the same values).
int plugin_type(DataType t) {
  switch (t) {
    case DataType::F64: return CLGEMM_CUBLAS_F64;
    case DataType::F16: return CLGEMM_CUBLAS_F16;
    case DataType::BF16: return CLGEMM_CUBLAS_BF16;
    case DataType::F32: break;
  }
  return CLGEMM_CUBLAS_F32;
}

// The call the plugin makes for these types and its arithmetic, as cublas_plugin.h lists them.
// (A TF32 session makes the float32 call whatever the run's types; at others it is "n/a".)
std::string entry_point(const GemmTypes& t, bool tf32) {
  if (tf32) return "cublasSgemm, TF32 tensor cores";
  if (t.is_f32()) return "cublasSgemm, FP32";
  if (t.in == DataType::F64) return "cublasDgemm, FP64";
  if (t.in == DataType::F16 && t.out == DataType::F16) return "cublasHgemm, computed in f16";
  return "cublasGemmEx, " + t.describe() + ", CUBLAS_COMPUTE_32F";
}

Precision arithmetic(const GemmTypes& t, bool tf32) {
  if (tf32) return Precision::TF32;
  if (t.is_f32()) return Precision::FP32;
  if (t.in == DataType::F64) return Precision::FP64;
  if (t.in == DataType::F16 && t.out == DataType::F16) return Precision::FP16;
  return Precision::FP32;
}

class Cublas final : public Implementation {
 public:
  Cublas(bool tf32, GemmTypes types, bool loop = false) : tf32_(tf32), loop_(loop), types_(types) {
    info_.name = tf32 ? "cublas-tf32" : loop ? "cublas-loop" : "cublas";
    info_.peer = !tf32;
    info_.precision = arithmetic(types, tf32);
    info_.hardware = Hardware::CudaDevice;
    info_.timing = Timing::CudaEvents;
    info_.batched = true;
    info_.grouped = !tf32;
    info_.description = tf32 ? "cuBLAS cublasSgemm, TF32 tensor cores (CUBLAS_TF32_TENSOR_OP_MATH)"
                             : "cuBLAS " + entry_point(types, false) + (types.is_f32() ? " (CUBLAS_DEFAULT_MATH)" : "");
    plugin_ = find_cublas_plugin(reason_);
    if (!plugin_) return;
    char err[512] = "";
    session_ = plugin_->open(tf32 ? 1 : 0, err, sizeof err);
    if (!session_) {
      reason_ = err;
      return;
    }
    info_.hardware_name = plugin_->device_name(session_);
    info_.description = "cuBLAS " + entry_point(types, tf32) + (loop ? ", one call per problem of a grouped call" : "") +
                        " (" + plugin_->version(session_) + ") on " + info_.hardware_name;
  }
  ~Cublas() override {
    if (session_) plugin_->close(session_);
  }
  const ImplInfo& info() const override { return info_; }
  std::string unavailable() const override { return session_ ? "" : reason_; }
  std::string unsupported(const Problem& p) const override {
    if (tf32_ && !p.settings.types.is_f32())
      return "TF32 tensor-core math takes float32 operands only (--precision f32)";
    if (loop_ && !p.grouped()) return "grouped calls only (--grouped); \"cublas\" runs the others";
    return types_mismatch(types_, p);
  }

  void prepare(const Problem& p) override {
    const auto& s = p.settings;
    c_type_ = p.c0.type();
    c_count_ = p.c0.size();
    char err[512] = "";
    if (plugin_->prepare(session_, plugin_type(p.a.type()), plugin_type(c_type_), s.layout == Layout::ColMajor,
                         s.a_transpose == Transpose::Yes, s.b_transpose == Transpose::Yes, p.shape.m, p.shape.n,
                         p.shape.k, double(s.alpha), p.a.data(), p.a.size(), p.lda, p.b.data(), p.b.size(), p.ldb,
                         double(s.beta), p.c0.data(), p.c0.size(), p.ldc, err, sizeof err))
      fail(err);
    if (p.batch() > 1 &&
        plugin_->batch(session_, p.batch(), p.a_stride(), p.b_stride(), p.c_stride(), err, sizeof err))
      fail(err);
    if (p.grouped()) {
      std::vector<size_t> f[9];  // m, n, k, then offset and leading dimension of A, B and C
      for (const GroupMember& g : p.members) {
        const size_t v[9] = {g.s.m, g.s.n, g.s.k, g.a_offset, g.lda, g.b_offset, g.ldb, g.c_offset, g.ldc};
        for (int i = 0; i < 9; ++i) f[i].push_back(v[i]);
      }
      if (plugin_->grouped(session_, p.members.size(), f[0].data(), f[1].data(), f[2].data(), f[3].data(), f[4].data(),
                           f[5].data(), f[6].data(), f[7].data(), f[8].data(), loop_ ? 1 : 0, err, sizeof err))
        fail(err);
    }
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
  HostMatrix result() override {
    HostMatrix c(c_type_, c_count_);
    char err[512] = "";
    if (plugin_->read_c(session_, c.data(), err, sizeof err)) fail(err);
    return c;
  }
  void release() override { plugin_->release(session_); }

 private:
  [[noreturn]] static void fail(const char* err) { throw std::runtime_error(std::string("cuBLAS: ") + err); }

  bool tf32_;
  bool loop_;
  GemmTypes types_;
  ImplInfo info_;
  std::shared_ptr<const CublasPlugin> plugin_;
  clgemm_cublas_session* session_ = nullptr;
  std::string reason_;
  DataType c_type_ = DataType::F32;
  size_t c_count_ = 0;
};

}  // namespace

std::unique_ptr<Implementation> make_cublas(bool tf32, GemmTypes types) {
  return std::make_unique<Cublas>(tf32, types);
}

std::unique_ptr<Implementation> make_cublas_loop(GemmTypes types) {
  return std::make_unique<Cublas>(false, types, true);
}

}  // namespace clgemm::bench
