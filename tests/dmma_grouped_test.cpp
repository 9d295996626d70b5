// dmma_grouped_test.cpp — grouped f64 calls on the FP64 tensor cores (gemm/dmma/dmma.cl built with
// GROUPED): which calls take it and the command they run, on every device; and, where the device
// has the tensor path, problems of ragged sizes in every layout and pair of transposes against a
// float64 loop, with rows of A and B on and off 16-byte boundaries and every element of C outside
// the problems checked untouched.
#include "plan/grouped_launch.hpp"
#include "test_support.hpp"

#include <clgemm/error.hpp>
#include <clgemm/gemm.hpp>

#include <cmath>
#include <limits>
#include <random>
#include <string>

namespace clgemm::test {
namespace {

using detail::GroupedKernel;
using detail::RowMajorGemm;

// Row-major f64 problems of the given sizes, each operand with rows of an even length (padded by
// 2) at an even offset.
std::vector<RowMajorGemm> problems_of(const std::vector<GemmShape>& shapes, bool ta = false, bool tb = false) {
  std::vector<RowMajorGemm> out;
  size_t a = 0, b = 0, c = 0;
  for (const GemmShape& s : shapes) {
    RowMajorGemm g;
    g.m = s.m, g.n = s.n, g.k = s.k, g.trans_a = ta, g.trans_b = tb;
    g.type = g.c_type = DataType::F64;
    g.alpha = 1.0;
    const size_t a_cols = ta ? s.m : s.k, b_cols = tb ? s.k : s.n;
    g.a = {nullptr, a, a_cols + a_cols % 2 + 2};
    g.b = {nullptr, b, b_cols + b_cols % 2 + 2};
    g.c = {nullptr, c, s.n + 1};
    a += (ta ? s.k : s.m) * g.a.ld, b += (tb ? s.n : s.k) * g.b.ld, c += s.m * g.c.ld;
    out.push_back(g);
  }
  return out;
}

// Mean 260×212×242, 2^26.1 multiply-adds in all.
const std::vector<GemmShape> kRagged = {{300, 300, 300}, {257, 65, 300}, {100, 250, 129},
                                        {367, 253, 281}, {280, 192, 200}};

TEST(DmmaGrouped, F64ProblemsTakeTheFp64TensorCoresWhereTheyPay) {
  const DeviceInfo d = fake_h200();
  const detail::GroupedPlan plan = detail::plan_grouped(d, problems_of(kRagged), {});
  EXPECT_EQ(plan.kernel, GroupedKernel::Dmma) << plan.source;
  EXPECT_EQ(plan.params.at("MMA_K"), 8);
  for (const char* name : {"BM", "BN"}) EXPECT_EQ(plan.params.at(name), 64) << name;
  EXPECT_EQ(plan.params.at("BK"), 16);
  EXPECT_EQ(plan.params.at("STAGES"), 2);
  const std::vector<GemmShape> small_m = {{96, 200, 512}, {128, 256, 600}, {64, 300, 200}, {112, 400, 800}};
  EXPECT_EQ(detail::plan_grouped(d, problems_of(small_m, true, true), {}).kernel, GroupedKernel::Dmma);

  // Not dmma: too little work, a different type, differing transposes.
  EXPECT_NE(detail::plan_grouped(d, problems_of({{64, 64, 64}, {100, 100, 100}}), {}).kernel, GroupedKernel::Dmma);
  std::vector<RowMajorGemm> f32 = problems_of(kRagged);
  for (RowMajorGemm& g : f32) g.type = g.c_type = DataType::F32;
  EXPECT_NE(detail::plan_grouped(d, f32, {}).kernel, GroupedKernel::Dmma);
  std::vector<RowMajorGemm> mixed = problems_of(kRagged);
  mixed[2].trans_b = true;
  EXPECT_NE(detail::plan_grouped(d, mixed, {}).kernel, GroupedKernel::Dmma);

  // Forced: taken for small problems, refused with the reason where it cannot run; forced
  // parameters override the kernel's defaults, as for a single call.
  GemmOptions force;
  force.force_path = GemmPath::Tensor;
  EXPECT_EQ(detail::plan_grouped(d, problems_of({{7, 9, 13}}), force).kernel, GroupedKernel::Dmma);
  const detail::GroupedPlan own = detail::plan_grouped(d, problems_of(kRagged), forced(GemmPath::Tensor, {{"BM", 128}}));
  EXPECT_EQ(own.params.at("BM"), 128);
  EXPECT_EQ(own.params.at("BK"), 8) << "the kernel's default, not the grouped tiles' 16";
  EXPECT_EQ(own.params.at("STAGES"), 3);
  try {
    detail::plan_grouped(d, mixed, force);
    ADD_FAILURE() << "forcing dmma on differing transposes was accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::InvalidArgument);
    EXPECT_NE(std::string(e.what()).find("transposes differ"), std::string::npos) << e.what();
  }
  DeviceInfo cpu = d;
  cpu.vendor = "pocl";
  cpu.architecture = "";
  EXPECT_THROW(detail::plan_grouped(cpu, problems_of(kRagged), force), Error);
}

// The command's options for `problems`, planned on an H200.
std::string options_of(const std::vector<RowMajorGemm>& problems) {
  const DeviceInfo d = fake_h200();
  const detail::LaunchPlan launch = detail::build_grouped_launch(problems, detail::plan_grouped(d, problems, {}));
  return launch.commands.size() == 1 ? launch.commands[0].options : "";
}

TEST(DmmaGrouped, RowsOffSixteenByteBoundariesAreCopiedADoubleAtATime) {
  std::vector<RowMajorGemm> problems = problems_of(kRagged);
  EXPECT_NE(options_of(problems).find("-DCOPY8=0"), std::string::npos) << options_of(problems);
  problems[3].b.ld += 1;
  EXPECT_NE(options_of(problems).find("-DCOPY8=1"), std::string::npos) << "odd ldb";
  problems[3].alpha = 0.0;
  EXPECT_NE(options_of(problems).find("-DCOPY8=0"), std::string::npos) << "a problem that reads no B";
  problems[0].a.offset += 1;
  EXPECT_NE(options_of(problems).find("-DCOPY8=1"), std::string::npos) << "odd A offset";
}

TEST(DmmaGrouped, OneCommandReadsEveryProblemInPlace) {
  const DeviceInfo d = fake_h200();
  std::vector<RowMajorGemm> problems = problems_of(kRagged, false, true);
  problems[1].alpha = 0.0;  // reads neither A nor B: K 0 in the list
  const detail::GroupedPlan plan = detail::plan_grouped(d, problems, {});
  ASSERT_EQ(plan.kernel, GroupedKernel::Dmma);
  const detail::LaunchPlan launch = detail::build_grouped_launch(problems, plan);
  ASSERT_EQ(launch.commands.size(), 1u);
  const auto& c = launch.commands[0];
  EXPECT_EQ(c.entry, "dmma");
  for (const char* option : {"-DGROUPED=1", "-DA_MK=1", "-DB_NK=1", "-DBATCHED=0"})
    EXPECT_NE(c.options.find(option), std::string::npos) << option << " in " << c.options;
  ASSERT_EQ(launch.batch_arrays.size(), 1u);
  const std::vector<uint64_t>& list = launch.batch_arrays[0].offsets;
  ASSERT_EQ(list.size(), 12 * problems.size());
  size_t tiles = 0;
  for (size_t i = 0; i < problems.size(); ++i) {
    const RowMajorGemm& g = problems[i];
    const uint64_t* w = &list[12 * i];
    EXPECT_EQ(w[0], g.m);
    EXPECT_EQ(w[2], i == 1 ? 0 : g.k) << i;
    EXPECT_EQ(w[3], i == 1 ? 0 : (g.k + 15) / 16 * 16) << i;
    EXPECT_EQ(w[4], g.a.offset);
    EXPECT_EQ(w[5], g.a.ld);
    EXPECT_EQ(w[7], g.b.ld);
    EXPECT_EQ(w[11], tiles) << "first tile of problem " << i;
    tiles += (g.m + 63) / 64 * ((g.n + 63) / 64);
  }
  EXPECT_EQ(c.global[0], tiles * 128) << "4 warps per 64×64 tile";
}

// ---- on a device with the tensor path ------------------------------------------------------------

struct Problem {
  size_t m, n, k;
  double alpha, beta;
};

// Runs `problems` as one grouped f64 call in `layout` with one pair of transposes (forced onto
// dmma with `params`), on fresh random data with a gap of marked elements between the problems'
// C, and returns the first failure: an element off the float64 result or a write outside them.
// A's and B's rows start on 16-byte boundaries, or with `odd` at odd offsets with odd lengths.
std::string run_grouped(const std::vector<Problem>& problems, Layout layout, bool ta, bool tb,
                        const KernelParams& params, bool odd, std::mt19937_64& rng) {
  Context& ctx = shared_context();
  const bool row = layout == Layout::RowMajor;
  std::vector<GemmCall> calls;
  size_t a_size = odd ? 3 : 2, b_size = odd ? 1 : 4, c_size = 6;
  for (const Problem& p : problems) {
    GemmCall c;
    c.layout = layout, c.a_transpose = ta ? Transpose::Yes : Transpose::No;
    c.b_transpose = tb ? Transpose::Yes : Transpose::No;
    c.m = p.m, c.n = p.n, c.k = p.k, c.alpha = p.alpha, c.beta = p.beta;
    c.a_type = c.b_type = c.c_type = DataType::F64;
    const size_t a_rows = ta ? p.k : p.m, a_cols = ta ? p.m : p.k, b_rows = tb ? p.n : p.k, b_cols = tb ? p.k : p.n;
    const size_t a_inner = row ? a_cols : a_rows, b_inner = row ? b_cols : b_rows, c_inner = row ? p.n : p.m;
    c.a = {nullptr, a_size, odd ? a_inner | 1 : a_inner + a_inner % 2 + 2};
    c.b = {nullptr, b_size, odd ? (b_inner + 2) | 1 : b_inner + b_inner % 2 + 4};
    c.c = {nullptr, c_size, c_inner + 3};
    a_size += (row ? a_rows : a_cols) * c.a.ld + 2;
    b_size += (row ? b_rows : b_cols) * c.b.ld + 4;
    if (odd && a_size % 2 == 0) ++a_size;
    c_size += (row ? p.m : p.n) * c.c.ld + 5;
    calls.push_back(c);
  }
  std::uniform_real_distribution<double> value(-1.0, 1.0);
  std::vector<double> a(a_size), b(b_size);
  for (double& x : a) x = value(rng);
  for (double& x : b) x = value(rng);
  const double outside = -7.25;
  std::vector<double> c(c_size, outside);
  std::vector<bool> inside(c_size, false);
  const auto c_at = [row](const GemmCall& g, size_t i, size_t j) {
    return g.c.offset + (row ? i * g.c.ld + j : j * g.c.ld + i);
  };
  for (const GemmCall& g : calls)
    for (size_t i = 0; i < g.m; ++i)
      for (size_t j = 0; j < g.n; ++j) {
        // beta = 0 never reads C: NaN there must not come through.
        c[c_at(g, i, j)] = g.beta == 0.0 ? std::numeric_limits<double>::quiet_NaN() : value(rng);
        inside[c_at(g, i, j)] = true;
      }
  const std::vector<double> before = c;
  cl::Buffer da(ctx.context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, a.size() * 8, a.data());
  cl::Buffer db(ctx.context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, b.size() * 8, b.data());
  cl::Buffer dc(ctx.context(), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, c.size() * 8, c.data());
  for (GemmCall& g : calls) g.a.buffer = da(), g.b.buffer = db(), g.c.buffer = dc();
  std::vector<cl::Event> events;
  GemmOptions options = forced(GemmPath::Tensor, params);
  options.events = &events;
  cl_event ev = nullptr;
  gemm_grouped(calls, ctx.queue()(), &ev, options);
  wait_and_release(ev);
  if (events.size() != 1) return std::to_string(events.size()) + " commands, not one";
  ctx.queue().enqueueReadBuffer(dc, CL_TRUE, 0, c.size() * 8, c.data());
  for (size_t q = 0; q < calls.size(); ++q) {
    const GemmCall& g = calls[q];
    const HostDoubles ga{a, g.a.offset, g.a.ld, row}, gb{b, g.b.offset, g.b.ld, row};
    for (size_t i = 0; i < g.m; ++i)
      for (size_t j = 0; j < g.n; ++j) {
        const Float64Element e = float64_element(ga, ta, gb, tb, i, j, g.k, g.alpha, g.beta, before[c_at(g, i, j)]);
        const double got = c[c_at(g, i, j)];
        if (!(std::fabs(got - e.want) <= e.bound))
          return "problem " + std::to_string(q) + " (" + shape_text({g.m, g.n, g.k}) + "), C(" + std::to_string(i) +
                 "," + std::to_string(j) + ") = " + std::to_string(got) + ", want " + std::to_string(e.want);
      }
  }
  for (size_t x = 0; x < c.size(); ++x)
    if (!inside[x] && c[x] != outside) return "a stray write at element " + std::to_string(x) + " of C's buffer";
  return "";
}

TEST(DmmaGrouped, RaggedProblemsMatchAFloat64Loop) {
  const DeviceInfo& dev = shared_context().info();
  if (!tensor_path_available(dev) || !dev.fp64) GTEST_SKIP() << "needs an NVIDIA GPU, sm_80 or newer";
  const uint64_t seed = fresh_seed();
  std::mt19937_64 rng(seed);
  // Sizes that no tile divides, a problem of one element, K = 0, alpha = 0 and beta = 0 (NaN in C).
  const std::vector<Problem> problems = {
      {1, 1, 1, 1.0, 0.0},       {7, 9, 13, -1.5, 0.5},    {65, 127, 63, 1.0, 0.0}, {129, 65, 1000, 0.5, -1.0},
      {33, 17, 0, 1.0, 0.25},    {64, 64, 31, 0.0, 2.0},   {300, 200, 50, 1.0, 1.0}, {127, 129, 7, 2.0, 0.0},
  };
  // The defaults (64×64, 16 deep), 128×64 tiles 8 deep in three stages, and one warp per tile.
  const KernelParams tilings[] = {{}, {{"BM", 128}, {"BN", 64}}, {{"BM", 32}, {"BN", 32}}};
  for (const KernelParams& t : tilings)
    for (const bool odd : {false, true})
      for (const Layout layout : {Layout::RowMajor, Layout::ColMajor})
        for (const bool ta : {false, true})
          for (const bool tb : {false, true}) {
            EXPECT_EQ(run_grouped(problems, layout, ta, tb, t, odd, rng), "")
                << (layout == Layout::RowMajor ? "row" : "col") << "-major, ta " << ta << " tb " << tb
                << (odd ? ", odd rows" : "") << ", BM " << (t.count("BM") ? t.at("BM") : 0) << ", seed " << seed;
          }
}

}  // namespace
}  // namespace clgemm::test
