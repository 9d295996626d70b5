// ptx_markers_test.cpp — markers in inline-asm comments replaced by sm_90a instructions
// (runtime/ptx_markers.hpp), on hand-written PTX in the shape NVIDIA's OpenCL compiler returns.
#include "runtime/ptx_markers.hpp"

#include "test_support.hpp"

#include <clgemm/context.hpp>
#include <clgemm/error.hpp>

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace clgemm::test {
namespace {

// A kernel whose marker the compiler copied (an unrolled loop of two): each copy names the
// registers of its own iteration.
const std::string kPtx = std::string(kNvidiaPtxHeader) + R"(
	// .globl	wg
.entry wg(
	.param .u64 .ptr .global .align 4 wg_param_0
)
{
	.reg .b32 	%r<3>;
	.reg .f32 	%f<9>;
	.reg .b64 	%rd<5>;
	// begin inline asm
	// PATCH:mma_tf32 %f1 %f2 %f3 %f4 %r1 %rd3
	// end inline asm
	// begin inline asm
	// PATCH:mma_tf32 %f5 %f6 %f7 %f8 %r2 %rd4
	// end inline asm
	ret;
}
)";

const detail::PtxMarkerRule kRule{"mma_tf32", 6, "wgmma.fence.sync.aligned;\nmma {{0}, {1}, {2}, {3}}, {4}, {5};"};

size_t count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

// The message of the BuildFailure that patching throws, or "" where it does not throw.
std::string refusal(const std::string& ptx, const std::vector<detail::PtxMarkerRule>& rules,
                    const std::string& target = "sm_90a") {
  try {
    detail::patch_ptx_markers(ptx, rules, target);
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::BuildFailure);
    return e.what();
  }
  return "";
}

std::string replaced(std::string text, const std::string& from, const std::string& to) {
  const size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  return at == std::string::npos ? text : text.replace(at, from.size(), to);
}

TEST(PtxMarkers, ReplacesEveryCopyWithItsOwnRegisters) {
  const auto out = detail::patch_ptx_markers(kPtx, {kRule}, "sm_90a");
  EXPECT_EQ(out.replaced, 2u);
  EXPECT_EQ(count(out.ptx, "PATCH:"), 0u);
  EXPECT_NE(out.ptx.find("{\nwgmma.fence.sync.aligned;\nmma {%f1, %f2, %f3, %f4}, %r1, %rd3;\n}"), std::string::npos)
      << out.ptx;
  EXPECT_NE(out.ptx.find("{\nwgmma.fence.sync.aligned;\nmma {%f5, %f6, %f7, %f8}, %r2, %rd4;\n}"), std::string::npos)
      << out.ptx;
  EXPECT_EQ(count(out.ptx, "// begin inline asm"), 2u) << "other comments stay";
  EXPECT_EQ(count(out.ptx, "// end inline asm"), 2u);
}

TEST(PtxMarkers, RaisesTheTargetAndKeepsTheRest) {
  const auto out = detail::patch_ptx_markers(kPtx, {kRule}, "sm_90a");
  EXPECT_EQ(count(out.ptx, ".target sm_90a\n"), 1u) << out.ptx;
  EXPECT_EQ(count(out.ptx, ".target"), 1u);
  EXPECT_EQ(out.ptx.find(".target sm_90,"), std::string::npos);
  for (const char* kept : {".version 9.0\n", ".address_size 64\n", ".entry wg(\n", "\tret;\n}\n", ".reg .b64 \t%rd<5>;"})
    EXPECT_EQ(count(out.ptx, kept), 1u) << kept;
  // Everything outside the markers and the target line is the same text.
  std::string expected = replaced(kPtx, ".target sm_90, texmode_independent", ".target sm_90a");
  expected = replaced(expected, "// PATCH:mma_tf32 %f1 %f2 %f3 %f4 %r1 %rd3",
                      "{\nwgmma.fence.sync.aligned;\nmma {%f1, %f2, %f3, %f4}, %r1, %rd3;\n}");
  expected = replaced(expected, "// PATCH:mma_tf32 %f5 %f6 %f7 %f8 %r2 %rd4",
                      "{\nwgmma.fence.sync.aligned;\nmma {%f5, %f6, %f7, %f8}, %r2, %rd4;\n}");
  EXPECT_EQ(out.ptx, expected);
}

TEST(PtxMarkers, PtxWithoutMarkersOnlyChangesItsTarget) {
  const std::string plain = replaced(replaced(kPtx, "// PATCH:mma_tf32 %f1 %f2 %f3 %f4 %r1 %rd3", "add.f32 %f1, %f1, %f2;"),
                                     "// PATCH:mma_tf32 %f5 %f6 %f7 %f8 %r2 %rd4", "add.f32 %f5, %f5, %f6;");
  const auto out = detail::patch_ptx_markers(plain, {kRule}, "sm_90a");
  EXPECT_EQ(out.replaced, 0u);
  EXPECT_EQ(out.ptx, replaced(plain, ".target sm_90, texmode_independent", ".target sm_90a"));
}

TEST(PtxMarkers, RefusesAMarkerWithoutARule) {
  const std::string typo = replaced(kPtx, "PATCH:mma_tf32 %f5", "PATCH:mma_tf23 %f5");
  EXPECT_NE(refusal(typo, {kRule}).find("marker 'mma_tf23' has no rule"), std::string::npos);
  EXPECT_NE(refusal(kPtx, {}).find("marker 'mma_tf32' has no rule"), std::string::npos);
}

TEST(PtxMarkers, RefusesAnotherCountOfOperands) {
  const std::string short_marker = replaced(kPtx, "%r2 %rd4", "%rd4");
  EXPECT_NE(refusal(short_marker, {kRule}).find("marker 'mma_tf32' has 5 operands, its rule 6"), std::string::npos);
  detail::PtxMarkerRule greedy = kRule;
  greedy.operands = 7;
  EXPECT_NE(refusal(kPtx, {greedy}).find("has 6 operands, its rule 7"), std::string::npos);
}

TEST(PtxMarkers, RefusesARuleThatUsesAMissingOperand) {
  detail::PtxMarkerRule wrong = kRule;
  wrong.body = "mov.b32 {6}, {0};";
  EXPECT_NE(refusal(kPtx, {wrong}).find("rule 'mma_tf32' uses operand {6} of 6"), std::string::npos);
}

TEST(PtxMarkers, RefusesPtxItCannotRaise) {
  EXPECT_NE(refusal(replaced(kPtx, ".version 9.0", ".version 7.8"), {kRule}).find("PTX ISA 7.8 is older than 8.0"),
            std::string::npos);
  EXPECT_NE(refusal(replaced(kPtx, ".version 9.0\n", ""), {kRule}).find("no .version line"), std::string::npos);
  EXPECT_NE(refusal(replaced(kPtx, ".target sm_90, texmode_independent\n", ""), {kRule}).find("no .target line"),
            std::string::npos);
  EXPECT_NE(refusal(replaced(kPtx, ".target sm_90,", ".target sm_80,"), {kRule}).find("the PTX targets sm_80, not sm_90"),
            std::string::npos);
  EXPECT_NE(refusal(kPtx, {kRule}, "sm_100a").find("the PTX targets sm_90, not sm_100"), std::string::npos);
  EXPECT_EQ(refusal(kPtx, {kRule}, "sm_90a"), "");
}

// Through a Context: a device whose programs are not PTX (PoCL) gets no patched kernel, and asking
// again gives the same answer; where one is built (an sm_90 NVIDIA device), it computes as the
// kernel does. gemm_scale (C = beta·C) has no markers, so only the target changes.
TEST(PtxMarkers, PatchedKernelOrNone) {
  const Context& ctx = shared_context();
  const std::vector<std::string> sources{"common/vectors.cl", "common/batch.cl", "util/scale.cl"};
  const auto k = ctx.patched_kernel(sources, "-DWG_X=8 -DWG_Y=8", "gemm_scale", {kRule});
  if (ctx.info().platform.find("NVIDIA") == std::string::npos) {
    EXPECT_FALSE(k.has_value());
  }
  EXPECT_EQ(ctx.patched_kernel(sources, "-DWG_X=8 -DWG_Y=8", "gemm_scale", {kRule}).has_value(), k.has_value());
  if (!k) return;
  expect_scale_kernel_works(ctx, *k);
}

}  // namespace
}  // namespace clgemm::test
