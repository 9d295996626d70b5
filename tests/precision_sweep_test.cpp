// precision_sweep_test.cpp — GEMM in every storage and compute combination clgemm offers (f64;
// f16 and bf16 inputs with a C of their type or f32; f32 as the control), checked against a
// float64 reference on fresh random inputs: both layouts, all transposes, odd shapes, padded
// leading dimensions, offsets, alpha and beta (beta = 0 over NaN in C), on every path that takes
// the call, with guard zones around C and between its rows checked for stray writes.
#include <clgemm/clgemm.h>
#include <clgemm/cpu.hpp>
#include <clgemm/error.hpp>
#include <clgemm/gemm.hpp>

#include "bench/host_matrix.hpp"
#include "kernels/descriptor.hpp"
#include "test_support.hpp"

#include <cmath>
#include <cstring>
#include <limits>
#include <random>

namespace clgemm::test {
namespace {

// ---- host-side element types --------------------------------------------------------------

// Matrices held in their element type, as the device buffers hold them.
using Typed = bench::HostMatrix;
using cpu::bf16_to_float;
using cpu::float_to_bf16;
using cpu::float_to_half;
using cpu::half_to_float;

// Unit roundoff of a type.
double unit(DataType t) {
  return t == DataType::F64 ? 0x1p-53 : t == DataType::F32 ? 0x1p-24 : t == DataType::F16 ? 0x1p-11 : 0x1p-8;
}

TEST(PrecisionHelpers, HostConversionsRoundToNearestEven) {
  EXPECT_EQ(float_to_half(1.0f), 0x3c00);
  EXPECT_EQ(float_to_half(65504.0f), 0x7bff);
  EXPECT_EQ(float_to_half(1.0f + 0x1p-11f), 0x3c00);        // a tie goes to even
  EXPECT_EQ(float_to_half(1.0f + 3 * 0x1p-11f), 0x3c02);    // a tie goes to even (up)
  EXPECT_EQ(float_to_half(0x1p-24f), 0x0001);              // the smallest subnormal
  EXPECT_EQ(half_to_float(0x0001), 0x1p-24f);
  EXPECT_EQ(float_to_bf16(1.0f + 0x1p-8f), 0x3f80);         // tie to even
  EXPECT_EQ(float_to_bf16(1.0f + 3 * 0x1p-8f), 0x3f82);
  EXPECT_TRUE(std::isnan(bf16_to_float(float_to_bf16(std::numeric_limits<float>::quiet_NaN()))));
}

// ---- the sweep ------------------------------------------------------------------------------

struct Combo {
  DataType in, out;
};

struct Case {
  Layout layout;
  Transpose ta, tb;
  size_t m, n, k;
  double alpha, beta;
};

// Runs one case on `path` (with `force` over its kernel's defaults) and checks it; returns a
// description of the first failure, or "". `aligned`: leading dimensions and offsets of A and B
// are multiples of 8, as kernels that load eight elements at once need.
std::string run_case(const Combo& combo, const Case& cs, GemmPath path, std::mt19937_64& rng,
                     const KernelParams& force = {}, bool aligned = false) {
  Context& ctx = shared_context();
  const bool row = cs.layout == Layout::RowMajor;
  const bool at = cs.ta == Transpose::Yes, bt = cs.tb == Transpose::Yes;
  // Stored shapes in the call's layout: rows × cols of "outer × inner".
  const size_t a_rows = at ? cs.k : cs.m, a_cols = at ? cs.m : cs.k;
  const size_t b_rows = bt ? cs.n : cs.k, b_cols = bt ? cs.k : cs.n;
  std::uniform_int_distribution<size_t> pad(0, 5), off(0, 9);
  const size_t a_outer = row ? a_rows : a_cols, a_inner = row ? a_cols : a_rows;
  const size_t b_outer = row ? b_rows : b_cols, b_inner = row ? b_cols : b_rows;
  const size_t c_outer = row ? cs.m : cs.n, c_inner = row ? cs.n : cs.m;
  const auto eights = [&](size_t x) { return aligned ? (x + 7) / 8 * 8 : x; };
  const size_t lda = eights(a_inner + pad(rng)), ldb = eights(b_inner + pad(rng)), ldc = c_inner + 1 + pad(rng);
  const size_t a_off = eights(off(rng)), b_off = eights(off(rng)), c_off = 1 + off(rng);
  std::uniform_real_distribution<double> value(-1.0, 1.0);
  Typed a(combo.in, a_off + a_outer * lda), b(combo.in, b_off + b_outer * ldb);
  for (size_t i = 0; i < a.size(); ++i) a.set(i, value(rng));
  for (size_t i = 0; i < b.size(); ++i) b.set(i, value(rng));
  // C: c_off elements before, c_outer rows of ldc, and as many after; NaN where beta = 0 should
  // keep it out, a known pattern everywhere outside the matrix.
  const size_t c_count = c_off + c_outer * ldc + c_off;
  Typed c(combo.out, c_count);
  const double outside = -7.25;  // exact in every type
  for (size_t i = 0; i < c_count; ++i) c.set(i, outside);
  for (size_t o = 0; o < c_outer; ++o)
    for (size_t i = 0; i < c_inner; ++i)
      c.set(c_off + o * ldc + i, cs.beta == 0 ? std::numeric_limits<double>::quiet_NaN() : value(rng));
  const Typed c_before = c;

  const auto element = [](const Typed& t, size_t off_, size_t ld, bool row_major, size_t r, size_t col) {
    return t.get(off_ + (row_major ? r * ld + col : col * ld + r));
  };
  cl::Buffer da(ctx.context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, a.byte_size(), a.data());
  cl::Buffer db(ctx.context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, b.byte_size(), b.data());
  cl::Buffer dc(ctx.context(), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, c.byte_size(), c.data());
  GemmCall call;
  call.layout = cs.layout, call.a_transpose = cs.ta, call.b_transpose = cs.tb;
  call.m = cs.m, call.n = cs.n, call.k = cs.k;
  call.alpha = cs.alpha, call.beta = cs.beta;
  call.a = {da(), a_off, lda}, call.b = {db(), b_off, ldb}, call.c = {dc(), c_off, ldc};
  call.a_type = call.b_type = combo.in, call.c_type = combo.out;
  GemmOptions options;
  options.force_path = path;
  options.force_params = force;
  cl_event ev = nullptr;
  gemm(call, ctx.queue()(), &ev, options);
  clWaitForEvents(1, &ev);
  clReleaseEvent(ev);
  ctx.queue().enqueueReadBuffer(dc, CL_TRUE, 0, c.byte_size(), c.data());

  const double u_compute = unit(combo.in == DataType::F64 ? DataType::F64 : DataType::F32), u_out = unit(combo.out);
  for (size_t i = 0; i < cs.m; ++i)
    for (size_t j = 0; j < cs.n; ++j) {
      double sum = 0, magnitude = 0;
      for (size_t p = 0; p < cs.k; ++p) {
        const double x = at ? element(a, a_off, lda, row, p, i) : element(a, a_off, lda, row, i, p);
        const double y = bt ? element(b, b_off, ldb, row, j, p) : element(b, b_off, ldb, row, p, j);
        sum += x * y, magnitude += std::fabs(x * y);
      }
      const size_t at_c = c_off + (row ? i * ldc + j : j * ldc + i);
      const double old = cs.beta == 0 ? 0 : c_before.get(at_c);
      const double want = cs.alpha * sum + cs.beta * old;
      const double bound = (cs.k + 4) * u_compute * (std::fabs(cs.alpha) * magnitude + std::fabs(cs.beta * old)) +
                           2 * u_out * std::fabs(want) + 1e-300;
      const double got = c.get(at_c);
      if (!(std::fabs(got - want) <= bound))
        return "C(" + std::to_string(i) + "," + std::to_string(j) + ") = " + std::to_string(got) + ", want " +
               std::to_string(want) + " within " + std::to_string(bound);
    }
  // Nothing outside the matrix changed: before, after, and between the rows (ldc > inner).
  for (size_t x = 0; x < c_count; ++x) {
    const bool inside = x >= c_off && x < c_off + c_outer * ldc && (x - c_off) % ldc < c_inner;
    if (!inside && c.get(x) != outside) return "a stray write at element " + std::to_string(x) + " of C's buffer";
  }
  return "";
}

class PrecisionSweep : public ::testing::TestWithParam<Combo> {};

TEST_P(PrecisionSweep, MatchesAFloat64ReferenceOnEveryPath) {
  const Combo combo = GetParam();
  if (combo.in == DataType::F64 && !shared_context().info().fp64) GTEST_SKIP() << "the device has no cl_khr_fp64";
  const uint64_t seed = fresh_seed();
  std::mt19937_64 rng(seed);
  const GemmShape shapes[] = {{1, 1, 1}, {7, 9, 13}, {65, 7, 129}, {129, 63, 64}};
  const bool wgmma = planning_device(shared_context().info()).sm90a_patching;
  for (const GemmShape& s : shapes)
    for (const Layout layout : {Layout::RowMajor, Layout::ColMajor})
      for (const Transpose ta : {Transpose::No, Transpose::Yes})
        for (const Transpose tb : {Transpose::No, Transpose::Yes}) {
          const double alpha = (rng() % 4 == 0) ? 1.0 : -1.5, beta = (rng() % 3 == 0) ? 0.0 : 0.75;
          const Case cs{layout, ta, tb, s.m, s.n, s.k, alpha, beta};
          // The tall kernel reads op(A)'s rows along k in place: a row-major A not transposed (or
          // a column-major B not transposed, which becomes it), and few columns.
          const bool tall_reads = (layout == Layout::RowMajor ? ta == Transpose::No : tb == Transpose::No) &&
                                  (layout == Layout::RowMajor ? s.n : s.m) <= 16;
          // The wide kernel streams op(B) along its rows under few rows of C (B not transposed in
          // row-major terms), or A under few columns (A transposed); column-major swaps the roles.
          const bool row = layout == Layout::RowMajor;
          const bool wide_reads = row ? (s.m <= 16 && tb == Transpose::No) || (s.n <= 16 && ta == Transpose::Yes)
                                      : (s.n <= 16 && ta == Transpose::No) || (s.m <= 16 && tb == Transpose::Yes);
          std::vector<GemmPath> paths = {GemmPath::Auto, GemmPath::Direct};
          // The packed path on two shapes: every case there builds its own packs and kernel (the
          // random leading dimensions and offsets change which operands go in vectors), which is
          // most of the sweep's time with a cold program cache.
          if (s.m == 7 || s.m == 129) paths.push_back(GemmPath::Packed);
          if (tall_reads) paths.push_back(GemmPath::Tall);
          if (wide_reads) paths.push_back(GemmPath::Wide);
          if (s.m * s.n <= 128) paths.push_back(GemmPath::Tiny);  // any layout, as for batches of tiny items
          // Hopper's tensor cores, where this device's driver builds them (not on PoCL).
          if (wgmma && combo.in != DataType::F32 && combo.in != DataType::F64) paths.push_back(GemmPath::Wgmma);
          // Double on FP64 tensor cores, where the device has them (sm_80+).
          if (combo.in == DataType::F64 && tensor_path_available(shared_context().info()))
            paths.push_back(GemmPath::Tensor);
          const auto check = [&](GemmPath path, const KernelParams& force, bool aligned) {
            const std::string failure = run_case(combo, cs, path, rng, force, aligned);
            EXPECT_EQ(failure, "") << data_type_name(combo.in) << " -> " << data_type_name(combo.out) << ", path "
                                   << int(path) << (force.empty() ? "" : " " + detail::build_options(force))
                                   << (aligned ? " aligned" : "") << ", " << shape_text(s)
                                   << (layout == Layout::RowMajor ? " row" : " col") << "-major, ta "
                                   << int(ta == Transpose::Yes) << " tb " << int(tb == Transpose::Yes) << ", alpha "
                                   << alpha << " beta " << beta << ", seed " << seed;
          };
          for (const GemmPath path : paths) check(path, {}, false);
          // The wide kernel's eight columns per work-item, rows aligned for loads of eight (a
          // work-item past the last whole eight loads fours; wide_test.cpp covers rows off eight).
          if (wide_reads) check(GemmPath::Wide, {{"LQ", 2}}, true);
        }
}

INSTANTIATE_TEST_SUITE_P(Types, PrecisionSweep,
                         ::testing::Values(Combo{DataType::F32, DataType::F32}, Combo{DataType::F64, DataType::F64},
                                           Combo{DataType::F16, DataType::F16}, Combo{DataType::F16, DataType::F32},
                                           Combo{DataType::BF16, DataType::BF16}, Combo{DataType::BF16, DataType::F32}),
                         [](const ::testing::TestParamInfo<Combo>& info) {
                           return std::string(data_type_name(info.param.in)) + "_to_" + data_type_name(info.param.out);
                         });

}  // namespace
}  // namespace clgemm::test

namespace clgemm::test {
namespace {

// The C entries of each precision: results against float64, and the statuses of bad types.
TEST(PrecisionCApi, DgemmHgemmAndGemmExComputeAndRefuseByStatus) {
  Context& ctx = shared_context();
  cl_command_queue q = ctx.queue()();
  const size_t m = 33, n = 17, k = 29;
  std::mt19937_64 rng(fresh_seed());
  std::uniform_real_distribution<double> value(-1.0, 1.0);
  const auto reference = [&](const Typed& a, const Typed& b, size_t i, size_t j) {
    double s = 0;
    for (size_t p = 0; p < k; ++p) s += a.get(i * k + p) * b.get(p * n + j);  // row-major, no transposes
    return s;
  };
  const auto run = [&](DataType in, DataType out, auto&& call) {
    Typed a(in, m * k), b(in, k * n), c(out, m * n);
    for (size_t i = 0; i < a.size(); ++i) a.set(i, value(rng));
    for (size_t i = 0; i < b.size(); ++i) b.set(i, value(rng));
    cl::Buffer da(ctx.context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, a.byte_size(), a.data());
    cl::Buffer db(ctx.context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, b.byte_size(), b.data());
    cl::Buffer dc(ctx.context(), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, c.byte_size(), c.data());
    cl_event ev = nullptr;
    ASSERT_EQ(call(da(), db(), dc(), &ev), clgemmSuccess) << clgemmLastErrorMessage();
    clWaitForEvents(1, &ev);
    clReleaseEvent(ev);
    ctx.queue().enqueueReadBuffer(dc, CL_TRUE, 0, c.byte_size(), c.data());
    const double tolerance = (k + 4) * unit(in == DataType::F64 ? DataType::F64 : DataType::F32) * k + 2 * unit(out) * k;
    for (size_t i = 0; i < m; ++i)
      for (size_t j = 0; j < n; ++j)
        ASSERT_NEAR(c.get(i * n + j), 2 * reference(a, b, i, j), tolerance) << data_type_name(in) << " " << i << "," << j;
  };
  if (ctx.info().fp64)
    run(DataType::F64, DataType::F64, [&](cl_mem a, cl_mem b, cl_mem c, cl_event* ev) {
      return clgemmDgemm(clgemmLayoutRowMajor, clgemmTransposeNo, clgemmTransposeNo, m, n, k, 2.0, a, 0, k, b, 0, n,
                         0.0, c, 0, n, &q, ev);
    });
  run(DataType::F16, DataType::F16, [&](cl_mem a, cl_mem b, cl_mem c, cl_event* ev) {
    const cl_half two = 0x4000, zero = 0;
    return clgemmHgemm(clgemmLayoutRowMajor, clgemmTransposeNo, clgemmTransposeNo, m, n, k, two, a, 0, k, b, 0, n, zero,
                       c, 0, n, &q, ev);
  });
  run(DataType::BF16, DataType::F32, [&](cl_mem a, cl_mem b, cl_mem c, cl_event* ev) {
    return clgemmGemmEx(clgemmLayoutRowMajor, clgemmTransposeNo, clgemmTransposeNo, m, n, k, 2.0, a, clgemmTypeBF16, 0,
                        k, b, clgemmTypeBF16, 0, n, 0.0, c, clgemmTypeF32, 0, n, clgemmComputeF32, &q, ev);
  });
  run(DataType::F16, DataType::F32, [&](cl_mem a, cl_mem b, cl_mem c, cl_event* ev) {
    return clgemmGemmStridedBatchedEx(clgemmLayoutRowMajor, clgemmTransposeNo, clgemmTransposeNo, m, n, k, 2.0, a,
                                      clgemmTypeF16, 0, k, 0, b, clgemmTypeF16, 0, n, 0, 0.0, c, clgemmTypeF32, 0, n,
                                      0, 1, clgemmComputeAuto, &q, ev);
  });
  // Refusals, each with its status and nothing enqueued.
  cl::Buffer any(ctx.context(), CL_MEM_READ_WRITE, 1 << 16);
  const auto ex = [&](int a_type, int c_type, int compute) {
    clgemmDataType at, ct;
    clgemmComputeType cp;
    std::memcpy(&at, &a_type, sizeof at), std::memcpy(&ct, &c_type, sizeof ct), std::memcpy(&cp, &compute, sizeof cp);
    return clgemmGemmEx(clgemmLayoutRowMajor, clgemmTransposeNo, clgemmTransposeNo, 4, 4, 4, 1.0, any(), at, 0, 4,
                        any(), at, 0, 4, 0.0, any(), ct, 0, 4, cp, &q, nullptr);
  };
  EXPECT_EQ(ex(clgemmTypeF16, clgemmTypeBF16, clgemmComputeF32), clgemmUnsupportedTypes);
  EXPECT_NE(std::string(clgemmLastErrorMessage()).find("c_type bf16"), std::string::npos) << clgemmLastErrorMessage();
  EXPECT_EQ(ex(clgemmTypeF32, clgemmTypeF32, clgemmComputeF64), clgemmUnsupportedTypes);
  EXPECT_EQ(ex(clgemmTypeF64, clgemmTypeF64, clgemmComputeTf32), clgemmUnsupportedTypes);
  EXPECT_EQ(ex(7, clgemmTypeF32, clgemmComputeF32), clgemmInvalidDataType);
  EXPECT_NE(std::string(clgemmLastErrorMessage()).find("a_type is 7"), std::string::npos);
  EXPECT_EQ(ex(clgemmTypeF32, clgemmTypeF32, 9), clgemmInvalidDataType);
}

}  // namespace
}  // namespace clgemm::test
