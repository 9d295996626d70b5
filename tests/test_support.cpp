// test_support.cpp — shared context, guarded device buffers and reference checks for the tests.
#include "test_support.hpp"

#include "database/database.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <utility>
#include <sys/resource.h>
#include <unistd.h>

namespace clgemm::test {

Context& shared_context() {
  static Context ctx(choose_device());
  return ctx;
}

uint64_t fresh_seed() {
  static std::mt19937_64 gen(std::random_device{}() ^
                             uint64_t(std::chrono::steady_clock::now().time_since_epoch().count()));
  return gen();
}

float poison_value() {
  const uint32_t bits = 0x7fc0dead;  // quiet NaN with payload 0xdead
  float f;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}

bool is_poison(float x) {
  uint32_t bits;
  std::memcpy(&bits, &x, sizeof bits);
  return bits == 0x7fc0dead;
}

GuardedBuffer::GuardedBuffer(const Context& ctx, size_t count) : ctx_(ctx), count_(count) {
  // Sub-buffer origins must be aligned to CL_DEVICE_MEM_BASE_ADDR_ALIGN (in bits).
  const size_t align_bytes = ctx.device().getInfo<CL_DEVICE_MEM_BASE_ADDR_ALIGN>() / 8;
  guard_ = std::max<size_t>(256, align_bytes / sizeof(float));
  whole_ = ctx.buffer((count_ + 2 * guard_) * sizeof(float));
  cl_buffer_region region{guard_ * sizeof(float), std::max<size_t>(count_, 1) * sizeof(float)};
  view_ = whole_.createSubBuffer(CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &region);
  poison();
}

void GuardedBuffer::poison() {
  std::vector<float> all(count_ + 2 * guard_, poison_value());
  ctx_.queue().enqueueWriteBuffer(whole_, CL_TRUE, 0, all.size() * sizeof(float), all.data());
}

std::vector<float> GuardedBuffer::read() const {
  std::vector<float> out(count_);
  if (count_) ctx_.queue().enqueueReadBuffer(whole_, CL_TRUE, guard_ * sizeof(float), count_ * sizeof(float), out.data());
  return out;
}

std::string GuardedBuffer::guard_damage() const {
  std::vector<float> all(count_ + 2 * guard_);
  ctx_.queue().enqueueReadBuffer(whole_, CL_TRUE, 0, all.size() * sizeof(float), all.data());
  for (size_t i = 0; i < guard_; ++i) {
    if (!is_poison(all[i])) return "stray write " + std::to_string(guard_ - i) + " elements before the start";
    const size_t j = guard_ + count_ + i;
    if (!is_poison(all[j])) return "stray write " + std::to_string(i) + " elements past the end";
  }
  return "";
}

cl::Buffer upload(const Context& ctx, const std::vector<float>& host) {
  cl::Buffer b = ctx.buffer(std::max<size_t>(host.size(), 1) * sizeof(float));
  if (!host.empty()) ctx.queue().enqueueWriteBuffer(b, CL_TRUE, 0, host.size() * sizeof(float), host.data());
  return b;
}

std::vector<double> random_stored(DataType type, size_t count, std::mt19937& rng) {
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<double> v(count);
  for (auto& x : v) x = u(rng);
  return cpu::from_storage(type, cpu::to_storage(type, v).data(), count);
}

cl::Buffer upload_as(const Context& ctx, DataType type, const std::vector<double>& values) {
  std::vector<unsigned char> bytes = cpu::to_storage(type, values);
  if (bytes.empty()) return ctx.buffer(1);
  return cl::Buffer(ctx.context(), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bytes.size(), bytes.data());
}

std::vector<float> download(const Context& ctx, const cl::Buffer& buf, size_t count) {
  std::vector<float> out(count);
  if (count) ctx.queue().enqueueReadBuffer(buf, CL_TRUE, 0, count * sizeof(float), out.data());
  return out;
}

::testing::AssertionResult matches_reference(const std::vector<float>& c, const std::vector<double>& ref, size_t k,
                                             uint64_t seed) {
  for (size_t i = 0; i < c.size(); ++i)
    if (is_poison(c[i]))
      return ::testing::AssertionFailure() << "element " << i << " of C was never written (seed " << seed << ")";
  const double err = cpu::relative_error(c.data(), ref.data(), c.size());
  const double tol = cpu::gemm_tolerance(k);
  if (!(err <= tol))
    return ::testing::AssertionFailure() << "relative error " << err << " exceeds " << tol << " (seed " << seed << ")";
  return ::testing::AssertionSuccess();
}

TempDir::TempDir(const std::string& purpose)
    : path_((std::filesystem::temp_directory_path() / ("clgemm-" + purpose + "-" + std::to_string(fresh_seed())))
                .string()) {
  std::filesystem::create_directories(path_);
  // Private, as a cache folder must be: the library refuses one that others may write.
  std::filesystem::permissions(path_, std::filesystem::perms::owner_all, std::filesystem::perm_options::replace);
}

TempDir::~TempDir() {
  std::error_code ec;
  std::filesystem::remove_all(path_, ec);
}

std::vector<std::string> TempDir::names() const {
  std::vector<std::string> out;
  for (const auto& e : std::filesystem::directory_iterator(path_)) out.push_back(e.path().filename().string());
  std::sort(out.begin(), out.end());
  return out;
}

ScopedEnv::ScopedEnv(const char* name, const std::string& value) : name_(name) {
  if (const char* old = std::getenv(name)) had_ = true, old_ = old;
  setenv(name, value.c_str(), 1);
}

ScopedEnv::~ScopedEnv() {
  if (had_) setenv(name_, old_.c_str(), 1);
  else unsetenv(name_);
}

std::vector<unsigned char> pattern_bytes(size_t n, unsigned seed) {
  std::vector<unsigned char> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = static_cast<unsigned char>(i * 131 + seed);
  return v;
}

void bound_this_process() {
  alarm(10);
  std::ifstream statm("/proc/self/statm");
  uint64_t pages = 0;
  statm >> pages;
  const rlim_t limit = pages * uint64_t(sysconf(_SC_PAGESIZE)) + (uint64_t(256) << 20);
  const rlimit r{limit, limit};
  setrlimit(RLIMIT_AS, &r);
}

ScopedDatabase::ScopedDatabase()
    : path_((std::filesystem::temp_directory_path() / ("clgemm-tuning-" + std::to_string(fresh_seed()) + ".json"))
                .string()),
      env_("CLGEMM_TUNING_DB", path_) {
  detail::reload_user_database();
}

void ScopedDatabase::store(const detail::TuningDatabase& db) const {
  detail::save_database(db, path_);
  detail::reload_user_database();
}

ScopedDatabase::~ScopedDatabase() {
  std::filesystem::remove(path_);
  detail::reload_user_database();  // env_ restores the variable after this; the next lookup rereads it
}

DeviceInfo fake_h200() {
  DeviceInfo h200 = shared_context().info();
  h200.name = "NVIDIA H200", h200.vendor = "NVIDIA Corporation", h200.architecture = "sm_90";
  h200.kind = DeviceKind::GPU, h200.compute_units = 132, h200.local_mem_bytes = 49152;
  h200.static_local_bytes = 49152;  // as describe_device leaves it, unmeasured
  h200.max_work_group_size = 1024, h200.max_work_item_sizes = {1024, 1024, 64};
  h200.registers_per_work_group = 65536;
  return h200;
}

DeviceInfo fake_h200_for_wgmma() {
  DeviceInfo h200 = fake_h200();
  h200.sm90a_patching = true;
  h200.static_local_bytes = 232444;  // measured on an H200 (runtime/local_limits.hpp)
  return h200;
}

std::vector<double> reference_gemm(size_t m, size_t n, size_t k, float alpha, const float* a, const float* b,
                                   float beta, const float* c) {
  std::vector<double> out(m * n);
  for (size_t i = 0; i < m; ++i)
    for (size_t j = 0; j < n; ++j) {
      double acc = 0;
      for (size_t p = 0; p < k; ++p) acc += double(a[i * k + p]) * b[p * n + j];
      out[i * n + j] = alpha * acc + (beta == 0 ? 0.0 : beta * double(c[i * n + j]));
    }
  return out;
}

Float64Element float64_element(const HostDoubles& a, bool trans_a, const HostDoubles& b, bool trans_b, size_t i,
                               size_t j, size_t k, double alpha, double beta, double old) {
  double sum = 0, magnitude = 0;
  for (size_t p = 0; p < k; ++p) {
    const double x = trans_a ? a(p, i) : a(i, p), y = trans_b ? b(j, p) : b(p, j);
    sum += x * y, magnitude += std::fabs(x * y);
  }
  const double c_term = beta == 0.0 ? 0.0 : beta * old;
  const double want = (alpha == 0.0 ? 0.0 : alpha * sum) + c_term;
  return {want, (double(k) + 4) * 0x1p-53 * (std::fabs(alpha) * magnitude + std::fabs(c_term)) + 1e-300};
}

GemmCall row_major_call(size_t m, size_t n, size_t k, float alpha, float beta, cl_mem a, cl_mem b, cl_mem c) {
  GemmCall call;
  call.m = m, call.n = n, call.k = k, call.alpha = alpha, call.beta = beta;
  call.a = {a, 0, k};
  call.b = {b, 0, n};
  call.c = {c, 0, n};
  return call;
}

void wait_and_release(cl_event ev) {
  ASSERT_NE(ev, nullptr);
  ASSERT_EQ(clWaitForEvents(1, &ev), CL_SUCCESS);
  clReleaseEvent(ev);
}

GemmOptions forced(GemmPath path, KernelParams params) {
  GemmOptions o;
  o.force_path = path;
  o.force_params = std::move(params);
  return o;
}

Status gemm_status(const GemmCall& call, const GemmOptions& options) {
  try {
    gemm(call, shared_context().queue()(), nullptr, options);
  } catch (const Error& e) {
    return e.status();
  }
  return Status::Success;
}

void check_batched_calls(size_t m, size_t n, size_t k, const GemmOptions& options) {
  Context& ctx = shared_context();
  const size_t batches = 3;
  const size_t sa = m * k + 5, sb = k * n + 2, sc = m * n + 11;  // strides larger than a matrix
  std::vector<float> a(batches * sa), b(batches * sb), c(batches * sc);
  cpu::fill_random(a, fresh_seed());
  cpu::fill_random(b, fresh_seed());
  cpu::fill_random(c, fresh_seed());

  // Strided: one alpha and beta.
  {
    cl::Buffer da = upload(ctx, a), db = upload(ctx, b), dc = upload(ctx, c);
    cl_event ev = nullptr;
    gemm_strided_batched(row_major_call(m, n, k, 0.5f, -2.0f, da(), db(), dc()), sa, sb, sc, batches, ctx.queue()(),
                         &ev, options);
    wait_and_release(ev);
    const auto got = download(ctx, dc, c.size());
    for (size_t i = 0; i < batches; ++i) {
      std::vector<float> part(got.begin() + i * sc, got.begin() + i * sc + m * n);
      EXPECT_TRUE(
          matches_reference(part, reference_gemm(m, n, k, 0.5f, &a[i * sa], &b[i * sb], -2.0f, &c[i * sc]), k, 0))
          << "strided batch " << i;
      for (size_t j = i * sc + m * n; j < (i + 1) * sc; ++j) ASSERT_EQ(got[j], c[j]) << "gap between batches written";
    }
  }
  // Arrays: per-batch alpha, beta and offsets, in a different order than the data.
  {
    cl::Buffer da = upload(ctx, a), db = upload(ctx, b), dc = upload(ctx, c);
    const std::vector<float> alphas = {1.0f, 0.0f, -3.0f}, betas = {0.0f, 2.0f, 1.0f};
    const std::vector<size_t> ao = {2 * sa, 0, sa}, bo = {sb, 2 * sb, 0}, co = {0, 2 * sc, sc};
    cl_event ev = nullptr;
    gemm_batched(row_major_call(m, n, k, 1, 0, da(), db(), dc()), alphas, betas, ao, bo, co, ctx.queue()(), &ev,
                 options);
    wait_and_release(ev);
    const auto got = download(ctx, dc, c.size());
    for (size_t i = 0; i < batches; ++i) {
      std::vector<float> part(got.begin() + co[i], got.begin() + co[i] + m * n);
      const auto want = reference_gemm(m, n, k, alphas[i], &a[ao[i]], &b[bo[i]], betas[i], &c[co[i]]);
      EXPECT_TRUE(matches_reference(part, want, k, 0)) << "batch " << i;
    }
  }
}

void expect_scale_kernel_works(const Context& ctx, cl::Kernel kernel) {
  const int m = 3, n = 5, ldc = 7;
  std::vector<float> host(size_t(m) * ldc);
  for (size_t i = 0; i < host.size(); ++i) host[i] = float(i) + 0.5f;
  cl::Buffer c(ctx.context(), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, host.size() * sizeof(float), host.data());
  int arg = 0;
  kernel.setArg(arg++, cl_int(m));
  kernel.setArg(arg++, cl_int(n));
  kernel.setArg(arg++, cl_float(2.0f));
  kernel.setArg(arg++, c);
  kernel.setArg(arg++, cl_ulong(0));
  kernel.setArg(arg++, cl_int(ldc));
  kernel.setArg(arg++, cl_ulong(0));            // c_stride: one item
  kernel.setArg(arg++, sizeof(cl_mem), nullptr);  // no per-item arrays
  kernel.setArg(arg++, sizeof(cl_mem), nullptr);
  ctx.queue().enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(8, 8), cl::NDRange(8, 8));
  std::vector<float> out(host.size());
  ctx.queue().enqueueReadBuffer(c, CL_TRUE, 0, out.size() * sizeof(float), out.data());
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < ldc; ++j) {
      const size_t at = size_t(i) * ldc + j;
      EXPECT_EQ(out[at], j < n ? 2.0f * host[at] : host[at]) << "row " << i << " column " << j;
    }
}

}  // namespace clgemm::test
