// test_support.hpp — what every device test needs: one shared context, device buffers with
// poisoned guard zones, and the float64 check.
#pragma once

#include <clgemm/context.hpp>
#include <clgemm/error.hpp>
#include <clgemm/cpu.hpp>
#include <clgemm/gemm.hpp>

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

namespace clgemm::test {

// The context all tests share (compiled programs are cached in it). Chosen like the CLI does:
// $CLGEMM_DEVICE, else the first GPU, else the first CPU device.
Context& shared_context();

// A fresh seed per call, so each test run sees new random inputs; printed on failure.
uint64_t fresh_seed();

// A bit pattern no computation produces: a NaN with a distinctive payload.
float poison_value();
bool is_poison(float x);

// A device buffer holding `count` floats, surrounded by `guard` poisoned floats on each side.
// `view()` is a sub-buffer covering exactly the `count` elements, handed to the code under test.
class GuardedBuffer {
 public:
  GuardedBuffer(const Context& ctx, size_t count);
  const cl::Buffer& view() const { return view_; }
  // Fills the whole buffer, guards included, with poison.
  void poison();
  // Reads the `count` elements back.
  std::vector<float> read() const;
  // Empty when both guard zones still hold poison, else a description of the first stray write.
  std::string guard_damage() const;

 private:
  const Context& ctx_;
  size_t count_, guard_;
  cl::Buffer whole_, view_;
};

// Uploads host data to a new device buffer.
cl::Buffer upload(const Context& ctx, const std::vector<float>& host);
std::vector<float> download(const Context& ctx, const cl::Buffer& buf, size_t count);

// A fresh folder (mode 0700) under the system's temporary folder, removed with everything in it
// at the end of the object's life. `purpose` goes into its name.
class TempDir {
 public:
  explicit TempDir(const std::string& purpose = "test");
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::string& str() const { return path_; }
  std::string operator/(const std::string& name) const { return path_ + "/" + name; }
  std::vector<std::string> names() const;  // what the folder holds, sorted

 private:
  std::string path_;
};

// Sets an environment variable for the life of the object, then restores it (or unsets it).
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const std::string& value);
  ~ScopedEnv();
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

 private:
  const char* name_;
  std::string old_;
  bool had_ = false;
};

// n bytes of a pattern that depends on `seed`: stand-ins for program binaries.
std::vector<unsigned char> pattern_bytes(size_t n, unsigned seed);

// Called in a death-test child: leaves it 10 seconds and 256 MiB of address space beyond what it
// uses now, so that a read that waits on a FIFO or allocates without end kills that child instead
// of hanging the test run or exhausting the machine.
void bound_this_process();

// Expects `condition` to hold, evaluated within those bounds in a child process, and ends the
// test otherwise: evaluated again in the test's own process, it would hang or exhaust memory.
#define ASSERT_BOUNDED(condition)                                                                       \
  do {                                                                                                  \
    EXPECT_EXIT({ bound_this_process(); std::_Exit((condition) ? 0 : 1); }, ::testing::ExitedWithCode(0), \
                "");                                                                                     \
    if (::testing::Test::HasFailure()) return;                                                          \
  } while (0)

// Points the library's user tuning database ($CLGEMM_TUNING_DB) at a fresh, absent file for the
// life of the object, so that only what a test writes there, and the built-in database, count.
// Restores the variable and removes the file afterwards.
class ScopedDatabase {
 public:
  ScopedDatabase();
  ~ScopedDatabase();
  ScopedDatabase(const ScopedDatabase&) = delete;
  ScopedDatabase& operator=(const ScopedDatabase&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
  ScopedEnv env_;
};

// This machine's device described as an NVIDIA H200 (name, sm_90, 132 compute units, its local
// memory and register file), for planner tests that read the built-in H200 entries.
DeviceInfo fake_h200();

// Row-major dense C = alpha·A·B + beta·C in double, for small checks (C is not read when beta is
// 0, and may then be null).
std::vector<double> reference_gemm(size_t m, size_t n, size_t k, float alpha, const float* a, const float* b,
                                   float beta, const float* c);

// A row-major call on whole dense buffers (lda = k, ldb = ldc = n, no offsets).
GemmCall row_major_call(size_t m, size_t n, size_t k, float alpha, float beta, cl_mem a, cl_mem b, cl_mem c);

// Waits for an event a call handed back, and releases it.
void wait_and_release(cl_event ev);

// Options that force one path, with `params` overriding its kernel's parameters.
GemmOptions forced(GemmPath path, KernelParams params = {});

// The status gemm ends with for `call` on the shared context's queue: Success, or the status of
// the Error it throws.
Status gemm_status(const GemmCall& call, const GemmOptions& options);

// gemm_strided_batched (one alpha and beta, strides larger than a matrix) and gemm_batched
// (per-batch alpha, beta and offsets, in another order than the data) of three m×n×k GEMMs with
// `options`, each batch item checked against reference_gemm, and the gaps between strided items
// checked untouched.
void check_batched_calls(size_t m, size_t n, size_t k, const GemmOptions& options);

// Checks a GEMM result against the float64 reference: every element written (no poison left),
// relative error within tolerance. Returns a gtest assertion result that names the seed.
::testing::AssertionResult matches_reference(const std::vector<float>& c, const std::vector<double>& ref, size_t k,
                                             uint64_t seed);

}  // namespace clgemm::test
