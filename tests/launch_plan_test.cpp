// launch_plan_test.cpp — what runs, as plan_call reports it, for typical calls on each path: the
// commands in order, their kernels and work sizes, the temporaries, the parts of a ragged call.
// Planned for this device and for an NVIDIA H200 described by hand (fake_h200), whose built-in
// tuning entries take the packed, tall and tensor paths; nothing is run here.
#include <clgemm/error.hpp>
#include <clgemm/gemm.hpp>

#include "test_support.hpp"

#include <algorithm>

namespace clgemm::test {
namespace {

GemmCall dense(size_t m, size_t n, size_t k, Layout layout = Layout::RowMajor, Transpose ta = Transpose::No,
               Transpose tb = Transpose::No) {
  GemmCall c;
  c.layout = layout, c.a_transpose = ta, c.b_transpose = tb;
  c.m = m, c.n = n, c.k = k;
  const bool row = layout == Layout::RowMajor;
  const bool at = ta == Transpose::Yes, bt = tb == Transpose::Yes;
  // The stored rows' lengths: A is m×k (k×m transposed), B k×n (n×k), C m×n, in the layout.
  c.a.ld = row ? (at ? m : k) : (at ? k : m);
  c.b.ld = row ? (bt ? k : n) : (bt ? n : k);
  c.c.ld = row ? n : m;
  return c;
}

std::vector<std::string> kernels(const CallPlan& p) {
  std::vector<std::string> out;
  for (const auto& c : p.commands) out.push_back(c.kernel);
  return out;
}

size_t temporary_bytes(const CallPlan& p, const std::string& role) {
  size_t bytes = 0;
  for (const auto& t : p.temporaries)
    if (t.role == role) bytes += t.bytes;
  return bytes;
}

TEST(LaunchPlan, DirectIsOneLaunchWithTheBatchInItsGrid) {
  GemmOptions o;
  o.force_path = GemmPath::Direct;
  const CallPlan p = plan_call(shared_context().info(), dense(70, 50, 30), o, 7, 70 * 30, 30 * 50, 70 * 50);
  ASSERT_EQ(kernels(p), std::vector<std::string>{"gemm_direct"});
  EXPECT_EQ(p.commands[0].dims, 3u);
  EXPECT_EQ(p.commands[0].global[2], 7u) << "the batch index comes from the grid";
  EXPECT_TRUE(p.temporaries.empty());
  ASSERT_EQ(p.parts.size(), 1u);
  EXPECT_EQ(p.parts[0].rows, 70u);
  EXPECT_EQ(p.parts[0].cols, 50u);
  EXPECT_NE(p.commands[0].options.find("-DBATCH_ARRAYS=0"), std::string::npos) << p.commands[0].options;
}

TEST(LaunchPlan, PackedPacksWhatTheKernelCannotReadInPlace) {
  GemmOptions o;
  o.force_path = GemmPath::Packed;
  o.force_params = {{"PACKA", 1}};
  const DeviceInfo& d = shared_context().info();
  // Row-major A packed into At; a B of whole vectors read in place.
  CallPlan p = plan_call(d, dense(256, 256, 256), o);
  EXPECT_EQ(kernels(p), (std::vector<std::string>{"prepare_operand_t4", "xgemm"})) << p.describe();
  EXPECT_GT(temporary_bytes(p, "packed A"), 0u);
  EXPECT_EQ(temporary_bytes(p, "packed B"), 0u);
  // An odd N: B is not in whole vectors, so it is packed too (no cp.async on this device).
  p = plan_call(d, dense(256, 255, 256), o);
  EXPECT_EQ(kernels(p).size(), 3u) << p.describe();
  EXPECT_GT(temporary_bytes(p, "packed B"), 0u);
  // A transposed and aligned is At already: read in place.
  p = plan_call(d, dense(256, 256, 256, Layout::RowMajor, Transpose::Yes), o);
  EXPECT_EQ(kernels(p), std::vector<std::string>{"xgemm"}) << p.describe();
  // Every command of the call is listed with work sizes the kernel's work-group divides.
  for (const auto& c : p.commands)
    for (size_t i = 0; i < c.dims; ++i) EXPECT_EQ(c.global[i] % c.local[i], 0u) << c.what;
}

TEST(LaunchPlan, RaggedEdgesApartRunAsThreeParts) {
  GemmOptions o;
  o.force_path = GemmPath::Packed;
  o.force_edge_split = GemmOptions::Toggle::On;
  o.force_params = {{"MWG", 64}, {"NWG", 64}};
  const CallPlan p = plan_call(shared_context().info(), dense(200, 170, 90), o);
  ASSERT_EQ(p.parts.size(), 3u) << p.describe();
  EXPECT_EQ(p.parts[0].rows, 192u);
  EXPECT_EQ(p.parts[0].cols, 128u);
  EXPECT_EQ(p.parts[1].row0, 192u);
  EXPECT_EQ(p.parts[1].rows, 8u);
  EXPECT_EQ(p.parts[2].col0, 128u);
  EXPECT_EQ(p.parts[2].cols, 42u);
  // The parts in order, and every command tied to one of them.
  size_t last = 0;
  for (const auto& c : p.commands) {
    EXPECT_GE(c.part, last);
    last = c.part;
  }
  EXPECT_EQ(last, 2u);
  // A column-major call: the blocks are the caller's (the transpose of what the planner sees).
  const CallPlan q = plan_call(shared_context().info(), dense(170, 200, 90, Layout::ColMajor), o);
  ASSERT_EQ(q.parts.size(), 3u);
  EXPECT_EQ(q.parts[0].rows, 128u);
  EXPECT_EQ(q.parts[0].cols, 192u);
  EXPECT_EQ(q.parts[1].col0, 192u);
}

TEST(LaunchPlan, SplitKHasItsWorkspaceAndCounts) {
  GemmOptions o;
  o.force_path = GemmPath::Packed;
  o.force_params = {{"MWG", 32}, {"NWG", 32}, {"MDIMC", 8}, {"NDIMC", 8}, {"VWM", 2}, {"VWN", 2}};
  o.force_splits = 3;
  const CallPlan p = plan_call(shared_context().info(), dense(96, 96, 600), o);
  const auto& gemm = p.commands.back();
  EXPECT_EQ(gemm.kernel, "xgemm");
  EXPECT_NE(gemm.options.find("-DSPLIT=1"), std::string::npos) << gemm.options;
  EXPECT_GT(temporary_bytes(p, "split-K workspace"), 0u);
  EXPECT_EQ(temporary_bytes(p, "split-K counts"), p.parts[0].plan.split_tiles * sizeof(int32_t));
}

TEST(LaunchPlan, TallAndTensorOnAnH200) {
  const DeviceInfo h200 = fake_h200();
  CallPlan p = plan_call(h200, dense(4096, 16, 4096), {});
  EXPECT_EQ(kernels(p), std::vector<std::string>{"gemm_tall"}) << p.describe();
  // The tall kernel reads op(A) along k: a transposed A goes elsewhere.
  p = plan_call(h200, dense(4096, 16, 4096, Layout::RowMajor, Transpose::Yes), {});
  const auto names = kernels(p);
  EXPECT_EQ(std::count(names.begin(), names.end(), "gemm_tall"), 0) << p.describe();
  GemmOptions tensor;
  tensor.math = Math::Tf32x3;
  p = plan_call(h200, dense(4096, 4096, 4096), tensor);
  EXPECT_EQ(kernels(p).back(), "xmma") << p.describe();
  EXPECT_EQ(p.parts[0].plan.path, GemmPath::Tensor);
}

TEST(LaunchPlan, ScaleOnlyAndEmptyCalls) {
  const DeviceInfo& d = shared_context().info();
  CallPlan p = plan_call(d, dense(30, 40, 0), {});
  ASSERT_FALSE(p.commands.empty());
  EXPECT_EQ(p.commands[0].kernel, "gemm_scale");
  EXPECT_TRUE(p.parts.empty()) << "no GEMM runs: C = beta*C";
  GemmCall zero_alpha = dense(30, 40, 50);
  zero_alpha.alpha = 0;
  EXPECT_EQ(kernels(plan_call(d, zero_alpha, {})), std::vector<std::string>{"gemm_scale"});
  EXPECT_TRUE(plan_call(d, dense(0, 40, 50), {}).commands.empty());
}

// A batch runs in one launch per command up to 65535 items (NVIDIA's grid along the second and
// third dimensions); beyond, and where packed operands would pass 256 MiB, in pieces that follow
// each other.
TEST(LaunchPlan, LargeBatchesRunInPieces) {
  const DeviceInfo& d = shared_context().info();
  GemmOptions direct;
  direct.force_path = GemmPath::Direct;
  CallPlan p = plan_call(d, dense(8, 8, 8), direct, 70000, 64, 64, 64);
  ASSERT_EQ(kernels(p), (std::vector<std::string>{"gemm_direct", "gemm_direct"}));
  EXPECT_EQ(p.commands[0].global[2] + p.commands[1].global[2], 70000u);
  GemmOptions packed;
  packed.force_path = GemmPath::Packed;
  packed.force_params = {{"PACKA", 1}, {"MWG", 64}, {"NWG", 64}, {"KWG", 16}};
  // A packed 64×64 item takes 16 KiB: 16384 items a piece, so 40000 in three.
  p = plan_call(d, dense(64, 64, 64), packed, 40000, 64 * 64, 64 * 64, 64 * 64);
  EXPECT_EQ(kernels(p).size(), 6u) << p.describe();
  EXPECT_EQ(temporary_bytes(p, "packed A"), 16384u * 64 * 64 * sizeof(float));
  size_t items = 0;
  for (const auto& c : p.commands)
    if (c.kernel == "xgemm") items += c.global[2];
  EXPECT_EQ(items, 40000u);
}

TEST(LaunchPlan, EveryCommandIsBuiltForTheCallsPrecision) {
  const DeviceInfo& d = shared_context().info();
  for (const GemmPath path : {GemmPath::Direct, GemmPath::Packed}) {
    GemmOptions o;
    o.force_path = path;
    // A transposed, ragged call: packs, the kernel and (beta != 0 with edges) every command kind
    // this device runs.
    GemmCall call = dense(129, 65, 63, Layout::ColMajor, Transpose::Yes, Transpose::No);
    const CallPlan p = plan_call(d, call, o, 3, 129 * 63, 63 * 65, 129 * 65);
    ASSERT_FALSE(p.commands.empty());
    for (const auto& c : p.commands)
      EXPECT_NE(c.options.find("-DPRECISION=32"), std::string::npos) << c.kernel << ": " << c.options;
  }
}

TEST(LaunchPlan, RefusesWhatGemmRefuses) {
  const DeviceInfo& d = shared_context().info();
  GemmCall bad = dense(10, 10, 10);
  bad.layout = static_cast<Layout>(5);
  EXPECT_THROW(plan_call(d, bad, {}), Error);
  try {
    plan_call(d, dense(size_t(1) << 31, 10, 10), {});
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::SizeOverflow);
  }
  try {
    plan_call(d, dense(10, 10, 10), {}, 0);
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::InvalidBatchCount);
  }
  // Combinations clgemm does not compute are refused by name; a value outside the enums is an
  // invalid type.
  GemmCall mixed = dense(10, 10, 10);
  mixed.a_type = DataType::F16, mixed.b_type = DataType::BF16;
  try {
    plan_call(d, mixed, {});
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::UnsupportedTypes);
    EXPECT_NE(std::string(e.what()).find("b_type bf16"), std::string::npos) << e.what();
  }
  GemmCall odd = dense(10, 10, 10);
  odd.c_type = static_cast<DataType>(9);
  try {
    plan_call(d, odd, {});
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::InvalidDataType);
    EXPECT_NE(std::string(e.what()).find("c_type is 9"), std::string::npos) << e.what();
  }
  // f64 on a device without double precision.
  DeviceInfo no_fp64 = d;
  no_fp64.fp64 = false;
  GemmCall f64 = dense(10, 10, 10);
  f64.a_type = f64.b_type = f64.c_type = DataType::F64;
  try {
    plan_call(no_fp64, f64, {});
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::NoFp64);
  }
}

TEST(LaunchPlan, OtherPrecisionsBuildTheirTypesAndWidenSixteenBitOperands) {
  const DeviceInfo& d = shared_context().info();
  GemmOptions packed;
  packed.force_path = GemmPath::Packed;
  // f64: every command in double, temporaries of 8-byte elements.
  GemmCall f64 = dense(129, 65, 63);
  f64.a_type = f64.b_type = f64.c_type = DataType::F64;
  CallPlan p = plan_call(d, f64, packed);
  for (const auto& c : p.commands) EXPECT_NE(c.options.find("-DPRECISION=64"), std::string::npos) << c.options;
  // f16 operands with an f32 C: both operands packed (widened to float), which only the packs
  // read as f16; the GEMM kernel stores C as float.
  GemmCall h = dense(256, 256, 256);  // aligned: f32 operands of this shape could be read in place
  h.a_type = h.b_type = DataType::F16;
  p = plan_call(d, h, packed);
  ASSERT_EQ(kernels(p).size(), 3u) << p.describe();
  for (size_t i = 0; i < 2; ++i)
    EXPECT_NE(p.commands[i].options.find("-DIN_STORAGE=STORAGE_F16"), std::string::npos) << p.commands[i].options;
  EXPECT_EQ(p.commands[2].options.find("STORAGE"), std::string::npos) << p.commands[2].options;
  EXPECT_EQ(temporary_bytes(p, "packed A"), 256u * 256 * sizeof(float));
  // bf16 throughout: C stored as bf16 by the kernel, element by element.
  h.a_type = h.b_type = h.c_type = DataType::BF16;
  p = plan_call(d, h, packed);
  EXPECT_NE(p.commands.back().options.find("-DOUT_STORAGE=STORAGE_BF16"), std::string::npos);
  EXPECT_NE(p.commands.back().options.find("-DC_VEC=0"), std::string::npos);
  // The direct kernel reads 16-bit operands in place.
  GemmOptions direct;
  direct.force_path = GemmPath::Direct;
  p = plan_call(d, h, direct);
  ASSERT_EQ(kernels(p), std::vector<std::string>{"gemm_direct"});
  EXPECT_NE(p.commands[0].options.find("-DIN_STORAGE=STORAGE_BF16 -DOUT_STORAGE=STORAGE_BF16"), std::string::npos);
}

}  // namespace
}  // namespace clgemm::test
