// bench_precision_test.cpp — `clgemm bench --precision`: the values and their types, inputs
// rounded to the storage type with the reference computed from them, tolerances per arithmetic
// and C type, the real implementations right or "n/a" at f64, f16 and bf16-f32 on odd shapes
// (CLBlast's Dgemm and Hgemm where it is built and the device allows), deliberately wrong 16-bit
// results flagged WRONG, and the peaks of each arithmetic.
#include <clgemm/error.hpp>

#include "bench/checker.hpp"
#include <clgemm/cpu.hpp>
#include "bench/gemm_types.hpp"
#include "bench/peak.hpp"
#include "bench/problem.hpp"
#include "bench/registry.hpp"
#include "bench/runner.hpp"
#include "bench_fake.hpp"
#include "test_support.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace clgemm::bench {
namespace {

using test::Fake;

RunOptions quick() {
  RunOptions o;
  o.repeat = 10;
  o.warmup = 1;
  o.time_limit_s = 60;
  o.seed = test::fresh_seed();
  return o;
}

CallSettings with_types(const std::string& precision) {
  CallSettings s;
  s.types = parse_precision(precision);
  return s;
}

TEST(BenchPrecision, ValuesNameTheirTypesAndBadOnesListTheValues) {
  for (const auto& [name, meaning] : precision_names()) {
    EXPECT_EQ(parse_precision(name).name(), name);
    EXPECT_FALSE(meaning.empty());
  }
  EXPECT_TRUE(parse_precision("f32").is_f32());
  const GemmTypes mixed = parse_precision("bf16-f32");
  EXPECT_EQ(mixed.in, DataType::BF16);
  EXPECT_EQ(mixed.out, DataType::F32);
  EXPECT_EQ(compute_arithmetic(parse_precision("f64")), Precision::FP64);
  EXPECT_EQ(compute_arithmetic(parse_precision("f16")), Precision::FP32);
  try {
    parse_precision("fp16");
    FAIL() << "fp16 was accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::InvalidArgument);
    const std::string what = e.what();
    EXPECT_NE(what.find("--precision"), std::string::npos) << what;
    EXPECT_NE(what.find("'fp16'"), std::string::npos) << what;
    EXPECT_NE(what.find("f32, f64, f16, bf16, f16-f32, bf16-f32"), std::string::npos) << what;
  }
}

// Inputs are stored in their type, already rounded; the float64 reference is of those values.
TEST(BenchPrecision, InputsAreRoundedToTheirTypeAndTheReferenceUsesThem) {
  const Shape shape{7, 5, 9, "custom", 7};
  for (const char* name : {"f16", "bf16", "f16-f32", "f64"}) {
    SCOPED_TRACE(name);
    CallSettings s = with_types(name);
    s.beta = 0.5f;
    const Problem p = make_problem(shape, s, 11);
    ASSERT_EQ(p.a.type(), s.types.in);
    ASSERT_EQ(p.c0.type(), s.types.out);
    ASSERT_EQ(p.a.size(), 7u * 9u);
    for (size_t i = 0; i < p.a.size(); ++i) {
      const double v = p.a.get(i);
      EXPECT_LE(std::fabs(v), 1.0);  // rounding to 16 bits may reach 1
      if (s.types.in == DataType::F16) {
        EXPECT_EQ(v, cpu::half_to_float(cpu::float_to_half(float(v))));
      }
      if (s.types.in == DataType::BF16) {
        EXPECT_EQ(v, cpu::bf16_to_float(cpu::float_to_bf16(float(v))));
      }
    }
    if (s.types.in == DataType::F64) {
      size_t beyond_float = 0;  // full double values, not widened floats
      for (size_t i = 0; i < p.a.size(); ++i) beyond_float += double(float(p.a.get(i))) != p.a.get(i);
      EXPECT_GT(beyond_float, p.a.size() / 2);
    }
    const std::vector<double> ref = reference_result(p);
    for (size_t i = 0; i < 7; ++i)
      for (size_t j = 0; j < 5; ++j) {
        double sum = 0;
        for (size_t l = 0; l < 9; ++l) sum += p.a.get(i * 9 + l) * p.b.get(l * 5 + j);
        EXPECT_NEAR(ref[i * 5 + j], sum + 0.5 * p.c0.get(i * 5 + j), 1e-14);
      }
  }
}

TEST(BenchPrecision, ToleranceFollowsTheArithmeticAndCsType) {
  const size_t k = 1024;
  EXPECT_EQ(tolerance(Precision::FP32, DataType::F32, k), tolerance(Precision::FP32, k));
  EXPECT_DOUBLE_EQ(tolerance(Precision::FP32, DataType::F16, k), tolerance(Precision::FP32, k) + std::ldexp(1.0, -11));
  EXPECT_DOUBLE_EQ(tolerance(Precision::FP32, DataType::BF16, k), tolerance(Precision::FP32, k) + std::ldexp(1.0, -8));
  EXPECT_LT(tolerance(Precision::FP64, DataType::F64, k), 1e-12);
  EXPECT_GT(tolerance(Precision::FP16, DataType::F16, k), 100 * tolerance(Precision::FP32, k));
  EXPECT_LT(tolerance(Precision::FP16, DataType::F16, k), 0.5);
  // A float32-accurate result is WRONG at f64: float64 arithmetic is held to its own roundoff.
  const std::vector<double> ref = {1.0 / 3, -2.0 / 7, 0.1, 0.7};
  HostMatrix as_f64(DataType::F64, 4), as_f32(DataType::F32, 4);
  for (size_t i = 0; i < 4; ++i) as_f64.set(i, ref[i]), as_f32.set(i, ref[i]);
  EXPECT_TRUE(check_result(as_f64, ref, Precision::FP64, 4).ok);
  HostMatrix widened(DataType::F64, 4);
  for (size_t i = 0; i < 4; ++i) widened.set(i, as_f32.get(i));
  EXPECT_FALSE(check_result(widened, ref, Precision::FP64, 4).ok);
  // Overflow to f16's infinity where the reference is beyond f16's range is right; a finite value
  // there, or an infinity where the reference fits, is not.
  HostMatrix h(DataType::F16, 2);
  h.set(0, 70000.0), h.set(1, 1.0);
  EXPECT_TRUE(std::isinf(h.get(0)));
  EXPECT_TRUE(check_result(h, {70000.0, 1.0}, Precision::FP32, 4).ok);
  EXPECT_FALSE(check_result(h, {60000.0, 1.0}, Precision::FP32, 4).ok);
}

// The real implementations at each precision, on odd shapes, with a transposed column-major call
// and beta among them: right where they have an entry point for the types, "n/a" with a reason
// elsewhere.
TEST(BenchPrecision, RealImplementationsAreRightOrNotApplicable) {
  Context& ctx = test::shared_context();
  const DeviceInfo& d = ctx.info();
  for (const char* name : {"f64", "f16", "bf16-f32"}) {
    SCOPED_TRACE(name);
    CallSettings plain = with_types(name), transposed = plain;
    transposed.layout = Layout::ColMajor;
    transposed.a_transpose = Transpose::Yes;
    transposed.alpha = -1.5f;
    transposed.beta = 0.5f;
    ImplOptions options{10.0, 12};
    options.types = plain.types;
    ImplList impls = make_impls({"clgemm", "clblast", "openblas", "cpu-loop", "ladder:6", "cublas"}, ctx, options);
    const bool clblast_built = impls[1]->unavailable().empty();
    if (clblast_built && plain.types.in == DataType::F64) {
      EXPECT_NE(impls[1]->info().description.find("CLBlastDgemm"), std::string::npos) << impls[1]->info().description;
      EXPECT_EQ(impls[1]->info().precision, Precision::FP64);
    }
    if (clblast_built && plain.types.in == DataType::F16) {
      EXPECT_NE(impls[1]->info().description.find("CLBlastHgemm"), std::string::npos) << impls[1]->info().description;
    }
    for (const CallSettings& s : {plain, transposed}) {
      const auto results = run_benchmark({{37, 53, 29, "custom", 37}, {65, 7, 129, "custom", 65}}, s, impls, quick());
      ASSERT_EQ(results.size(), 2 * impls.size());
      for (const Result& r : results) {
        SCOPED_TRACE(r.impl + " at " + r.shape.label() + ", " + s.describe());
        EXPECT_TRUE(r.outcome == Outcome::Ok || r.outcome == Outcome::NotApplicable)
            << outcome_name(r.outcome) << ": " << r.note;
        if (r.outcome == Outcome::Ok) {
          EXPECT_TRUE(r.checked);
          EXPECT_LE(r.check.error, r.check.tolerance);
          EXPECT_TRUE(r.timed());
        } else {
          EXPECT_FALSE(r.note.empty());
        }
        if (r.impl == "clgemm") {
          if (plain.types.in == DataType::F64 && !d.fp64) {
            EXPECT_NE(r.note.find("cl_khr_fp64"), std::string::npos) << r.note;
          } else {
            EXPECT_EQ(r.outcome, Outcome::Ok) << r.note;
          }
        }
        if (r.impl == "clblast" && clblast_built) {
          const bool runs = plain.types.in == DataType::F64 ? d.fp64
                            : plain.types.in == DataType::F16 ? d.has_extension("cl_khr_fp16")
                                                              : false;
          EXPECT_EQ(r.outcome, runs ? Outcome::Ok : Outcome::NotApplicable) << r.note;
          if (plain.types.in == DataType::F16 && !runs) {
            EXPECT_NE(r.note.find("cl_khr_fp16"), std::string::npos) << r.note;
          }
          if (plain.types.in == DataType::BF16) {
            EXPECT_NE(r.note.find("CLBlast has Sgemm, Dgemm and Hgemm only"), std::string::npos) << r.note;
          }
        }
        if (r.impl == "openblas") {
          EXPECT_EQ(r.outcome, plain.types.in == DataType::F64 ? Outcome::Ok : Outcome::NotApplicable) << r.note;
        }
        if (r.impl == "cpu-loop" || r.impl == "ladder:6") {
          EXPECT_EQ(r.outcome, Outcome::NotApplicable);
          EXPECT_NE(r.note.find("float32 only"), std::string::npos) << r.note;
        }
      }
    }
  }
}

// TF32 math takes float32 operands: at other precisions it is "n/a", not a float32 GEMM in disguise.
TEST(BenchPrecision, Tf32VariantsAreNotApplicableToOtherTypes) {
  Context& ctx = test::shared_context();
  ImplOptions options{10.0, 12};
  options.types = parse_precision("f16-f32");
  ImplList impls = make_impls({"clgemm-tf32", "clgemm-3xtf32", "cublas-tf32"}, ctx, options);
  const auto results = run_benchmark({{9, 9, 9, "custom", 9}}, with_types("f16-f32"), impls, quick());
  for (const Result& r : results) {
    SCOPED_TRACE(r.impl);
    EXPECT_EQ(r.outcome, Outcome::NotApplicable);
    EXPECT_FALSE(r.note.empty());
  }
}

// The runner's WRONG flag at 16-bit precisions: results off by a perturbed element or a skipped
// row are caught despite the looser 16-bit tolerance, and a correctly rounded result passes.
TEST(BenchPrecision, DeliberatelyWrongSixteenBitResultsAreFlagged) {
  for (const char* name : {"f16", "bf16", "bf16-f32"}) {
    SCOPED_TRACE(name);
    ImplList impls;
    impls.push_back(std::make_unique<Fake>("right", Fake::Mode::Correct));
    impls.push_back(std::make_unique<Fake>("perturbs", Fake::Mode::PerturbOneElement));
    impls.push_back(std::make_unique<Fake>("skips-a-row", Fake::Mode::SkipLastRow));
    const auto results = run_benchmark({{16, 12, 40, "custom", 16}}, with_types(name), impls, quick());
    ASSERT_EQ(results.size(), 3u);
    EXPECT_EQ(results[0].outcome, Outcome::Ok) << results[0].note;
    for (int i : {1, 2}) {
      EXPECT_EQ(results[i].outcome, Outcome::Wrong) << results[i].impl;
      EXPECT_GT(results[i].check.error, results[i].check.tolerance);
      EXPECT_NE(results[i].note.find("exceeds"), std::string::npos) << results[i].note;
    }
  }
}

// A C read back in another type than the call's is WRONG, whatever its values.
class WrongType final : public Implementation {
 public:
  WrongType() { info_.name = "wrong-type"; }
  const ImplInfo& info() const override { return info_; }
  void prepare(const Problem& p) override { p_ = &p; }
  void reset_c() override {}
  double run() override { return 1e-3; }
  HostMatrix result() override {
    const std::vector<double> ref = reference_result(*p_);
    HostMatrix c(DataType::F32, ref.size());
    for (size_t i = 0; i < ref.size(); ++i) c.set(i, ref[i]);
    return c;
  }
  void release() override {}

 private:
  ImplInfo info_;
  const Problem* p_ = nullptr;
};

TEST(BenchPrecision, AResultOfAnotherTypeIsWrong) {
  ImplList impls;
  impls.push_back(std::make_unique<WrongType>());
  const auto results = run_benchmark({{8, 8, 8, "custom", 8}}, with_types("f16"), impls, quick());
  ASSERT_EQ(results.size(), 1u);
  EXPECT_EQ(results[0].outcome, Outcome::Wrong);
  EXPECT_NE(results[0].note.find("stored as f32, C is f16"), std::string::npos) << results[0].note;
}

TEST(BenchPeak, Fp64UsesTheFp64RateAndSixteenBitOnlyAGivenPeak) {
  DeviceInfo h100;
  h100.name = "NVIDIA H100 80GB HBM3";
  h100.compute_units = 132;
  h100.clock_mhz = 1980;
  const auto fp32 = run_peak(h100, parse_precision("f32"));
  const auto fp64 = run_peak(h100, parse_precision("f64"));
  ASSERT_TRUE(fp32 && fp64);
  EXPECT_NEAR(fp32->gflops, 66908, 1);
  EXPECT_NEAR(fp64->gflops, 66908, 1);  // FP64 tensor cores: 64 lanes x 2 per SM
  EXPECT_EQ(fp64->arithmetic, Precision::FP64);
  EXPECT_NE(fp64->how.find("FP64"), std::string::npos) << fp64->how;
  DeviceInfo l4 = h100;
  l4.name = "NVIDIA L4";
  EXPECT_NEAR(run_peak(l4, parse_precision("f64"))->gflops, run_peak(l4, parse_precision("f32"))->gflops / 64, 1e-6);
  EXPECT_FALSE(run_peak(h100, parse_precision("f16")));
  EXPECT_FALSE(run_peak(h100, parse_precision("bf16-f32")));
  const auto given = run_peak(h100, parse_precision("f16"), 500000);
  ASSERT_TRUE(given);
  EXPECT_EQ(given->gflops, 500000);
  DeviceInfo pocl;
  pocl.name = "pthread-skylake";
  EXPECT_FALSE(run_peak(pocl, parse_precision("f64")));
  // "% of peak" only for implementations of the peak's arithmetic.
  ImplInfo dgemm, sgemm;
  dgemm.precision = Precision::FP64;
  EXPECT_TRUE(peak_applies(dgemm, h100, Precision::FP64));
  EXPECT_FALSE(peak_applies(sgemm, h100, Precision::FP64));
  EXPECT_FALSE(peak_applies(dgemm, h100, Precision::FP32));
}

}  // namespace
}  // namespace clgemm::bench
