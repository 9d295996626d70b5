// ptx_directives_test.cpp — the .minnctapersm edit of NVIDIA's PTX (runtime/ptx_directives.hpp)
// on hand-written PTX, and a Context that is asked for it on a device without PTX.
#include <clgemm/context.hpp>

#include "runtime/ptx_directives.hpp"
#include "test_support.hpp"

#include <string>
#include <vector>

namespace clgemm::test {
namespace {

// The shape of what NVIDIA's OpenCL compiler returns: comments, .version, .target, then entries
// whose directives sit between the parameter list and the body.
const std::string kPtx = std::string(kNvidiaPtxHeader) + R"(
	// .globl	first
.entry first(
	.param .u32 first_param_0,
	.param .u64 .ptr .global .align 4 first_param_1
)
.reqntid 16, 16, 1
{
	.reg .b32 	%r<2>;
	ret;
}
	// .globl	second
.entry second(
	.param .u32 second_param_0
)
{
	ret;
}
)";

size_t count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

TEST(PtxDirectives, RecognisesPtx) {
  EXPECT_TRUE(detail::is_ptx(kPtx));
  EXPECT_FALSE(detail::is_ptx(""));
  EXPECT_FALSE(detail::is_ptx("\x7f" "ELF\x02\x01"));
  EXPECT_FALSE(detail::is_ptx("// a comment and nothing else\n"));
}

TEST(PtxDirectives, AddsMinBlocksWhereTheThreadCountIsFixed) {
  const auto edited = detail::with_min_blocks_per_sm(kPtx, 2);
  ASSERT_TRUE(edited.has_value());
  // Only the entry with .reqntid takes it (.minnctapersm needs .reqntid or .maxntid), between
  // its directives and its body; nothing else changes.
  EXPECT_NE(edited->find(".reqntid 16, 16, 1\n.minnctapersm 2\n{"), std::string::npos) << *edited;
  EXPECT_EQ(count(*edited, ".minnctapersm"), 1u);
  std::string back = *edited;
  back.erase(back.find(".minnctapersm 2\n"), std::string(".minnctapersm 2\n").size());
  EXPECT_EQ(back, kPtx);
}

TEST(PtxDirectives, ReplacesAnEarlierCount) {
  const auto once = detail::with_min_blocks_per_sm(kPtx, 3);
  ASSERT_TRUE(once.has_value());
  const auto twice = detail::with_min_blocks_per_sm(*once, 1);
  ASSERT_TRUE(twice.has_value());
  EXPECT_EQ(count(*twice, ".minnctapersm"), 1u);
  EXPECT_NE(twice->find(".minnctapersm 1\n{"), std::string::npos) << *twice;
}

TEST(PtxDirectives, RefusesWhatItCannotEdit) {
  EXPECT_FALSE(detail::with_min_blocks_per_sm(kPtx, 0).has_value());
  // No entry with a fixed or maximum thread count.
  std::string free_threads = kPtx;
  free_threads.erase(free_threads.find(".reqntid 16, 16, 1\n"), std::string(".reqntid 16, 16, 1\n").size());
  EXPECT_FALSE(detail::with_min_blocks_per_sm(free_threads, 2).has_value());
  // Cut off inside an entry's parameter list.
  EXPECT_FALSE(detail::with_min_blocks_per_sm(kPtx.substr(0, kPtx.find("first_param_1")), 2).has_value());
}

// Asked of any device, the request never breaks a kernel: without PTX (PoCL) it is ignored, on
// NVIDIA the capped build runs. gemm_scale (C = beta·C) checks the kernel's work.
TEST(PtxDirectives, CappedKernelRuns) {
  const Context& ctx = shared_context();
  cl::Kernel k =
      ctx.kernel({"common/vectors.cl", "common/batch.cl", "util/scale.cl"}, "-DWG_X=8 -DWG_Y=8", "gemm_scale", 2);
  expect_scale_kernel_works(ctx, k);
}

}  // namespace
}  // namespace clgemm::test
