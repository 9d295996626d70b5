// gemm_configs_test.cpp — the correctness sweep with tuned-style parameters forced: several xgemm
// and direct-kernel configurations, chosen to cover every switch of the kernels (staging, double
// buffering, padding, strided and contiguous layouts, vector widths, unrolling), over layouts,
// transposes, ragged sizes, padded leading dimensions and offsets.
#include <clgemm/error.hpp>
#include <clgemm/gemm.hpp>

#include "kernels/gemm/xgemm/xgemm_kernel.hpp"
#include "gemm_case.hpp"
#include "test_support.hpp"

#include <tuple>

namespace clgemm::test {
namespace {

struct Config {
  GemmPath path;
  KernelParams params;
};

std::string name_of(const Config& c) {
  std::string out = c.path == GemmPath::Packed ? "xgemm" : "direct";
  for (const auto& [k, v] : c.params) out += "_" + k + std::to_string(v);
  return out;
}

void PrintTo(const Config& c, std::ostream* os) { *os << name_of(c); }

const std::vector<Config> kConfigs = {
    // The GPU default (rung 6's configuration).
    {GemmPath::Packed, {{"MWG", 128}, {"NWG", 128}, {"KWG", 16}, {"MDIMC", 16}, {"NDIMC", 16}, {"VWM", 4}, {"VWN", 4}}},
    // Double buffering, padding, contiguous layouts, partial unrolling; row-major A read in place.
    {GemmPath::Packed, {{"MWG", 64}, {"NWG", 32}, {"KWG", 16}, {"MDIMC", 8}, {"NDIMC", 8}, {"VWM", 2}, {"VWN", 2},
                        {"DB", 1}, {"PADA", 1}, {"PADB", 1}, {"STRM", 0}, {"STRN", 0}, {"KUNROLL", 4}, {"PACKA", 0}}},
    // A read straight from global memory, B staged, wide vectors, double-buffered.
    {GemmPath::Packed, {{"MWG", 32}, {"NWG", 64}, {"KWG", 8}, {"MDIMC", 4}, {"NDIMC", 8}, {"VWM", 8}, {"VWN", 8},
                        {"SA", 0}, {"DB", 1}, {"KUNROLL", 8}}},
    // Neither operand staged, scalar vectors, KWG 32 with KUNROLL 1.
    {GemmPath::Packed, {{"MWG", 16}, {"NWG", 16}, {"KWG", 32}, {"MDIMC", 8}, {"NDIMC", 4}, {"VWM", 1}, {"VWN", 1},
                        {"SA", 0}, {"SB", 0}, {"KUNROLL", 1}}},
    // Rectangular tiles for skinny shapes, row-major A read in place without padding.
    {GemmPath::Packed, {{"MWG", 16}, {"NWG", 128}, {"KWG", 16}, {"MDIMC", 4}, {"NDIMC", 16}, {"VWM", 4}, {"VWN", 8},
                        {"PACKA", 0}}},
    {GemmPath::Direct, {{"TM", 16}, {"TN", 64}, {"TK", 8}, {"WM", 2}, {"WN", 4}}},
    {GemmPath::Direct, {{"TM", 128}, {"TN", 32}, {"TK", 32}, {"WM", 8}, {"WN", 2}}},
    // The cp.async pipeline (NVIDIA sm_80+ only; skipped elsewhere). Every operand is read in
    // place: in vectors at offset 0 (in float pairs where N is even but not a multiple of VWN),
    // element by element at offsets 3/13, transposed for the stored forms. Warp tiling (WX), 2-4
    // stages, 4-, 8-, 16- and 32-byte vector copies.
    {GemmPath::Packed, {{"MWG", 128}, {"NWG", 128}, {"KWG", 16}, {"MDIMC", 16}, {"NDIMC", 16}, {"VWM", 8}, {"VWN", 4},
                        {"STRM", 0}, {"ASYNC", 3}, {"WX", 8}}},
    {GemmPath::Packed, {{"MWG", 64}, {"NWG", 64}, {"KWG", 16}, {"MDIMC", 8}, {"NDIMC", 16}, {"VWM", 4}, {"VWN", 4},
                        {"STRM", 0}, {"ASYNC", 3}, {"WX", 8}, {"PACKA", 0}, {"PADA", 1}, {"PADB", 1}}},
    {GemmPath::Packed, {{"MWG", 64}, {"NWG", 32}, {"KWG", 16}, {"MDIMC", 8}, {"NDIMC", 4}, {"VWM", 2}, {"VWN", 8},
                        {"ASYNC", 2}, {"PACKA", 1}, {"KUNROLL", 4}}},
    // The large entry's tiles with the register cap of two work-groups per SM (MINWG).
    {GemmPath::Packed, {{"MWG", 128}, {"NWG", 128}, {"KWG", 16}, {"MDIMC", 16}, {"NDIMC", 16}, {"VWM", 4}, {"VWN", 4},
                        {"PADA", 1}, {"PADB", 1}, {"ASYNC", 2}, {"MINWG", 2}}},
    {GemmPath::Packed, {{"MWG", 32}, {"NWG", 64}, {"KWG", 8}, {"MDIMC", 8}, {"NDIMC", 8}, {"VWM", 1}, {"VWN", 2},
                        {"ASYNC", 4}, {"WX", 4}, {"PACKA", 0}, {"STRN", 0}, {"KUNROLL", 8}}},
    // The sm_90 small entry's alternatives: tiles of 24 (not a power of two), 12-wide work-groups
    // (144 and 192 work-items), K-steps of 48.
    {GemmPath::Packed, {{"MWG", 24}, {"NWG", 24}, {"KWG", 48}, {"MDIMC", 12}, {"NDIMC", 12}, {"VWM", 2}, {"VWN", 2},
                        {"ASYNC", 2}, {"PACKA", 0}, {"PADA", 1}, {"PADB", 1}, {"STRM", 0}, {"KUNROLL", 16}}},
    {GemmPath::Packed, {{"MWG", 24}, {"NWG", 32}, {"KWG", 48}, {"MDIMC", 12}, {"NDIMC", 16}, {"VWM", 2}, {"VWN", 2},
                        {"ASYNC", 3}, {"PACKA", 0}, {"PADA", 1}, {"PADB", 1}, {"STRM", 0}, {"KUNROLL", 16}}},
    // Sliced K (KSLICE): 2 or 4 slices of work-items share each tile's K-depth. Staged and
    // double-buffered, with warp tiling; one operand from global memory; and the cp.async
    // pipeline with A read in place (tiles of 16×32 and 24×24, 144 work-items per slice).
    {GemmPath::Packed, {{"MWG", 32}, {"NWG", 32}, {"KWG", 16}, {"MDIMC", 8}, {"NDIMC", 8}, {"VWM", 2}, {"VWN", 2},
                        {"DB", 1}, {"PADA", 1}, {"KUNROLL", 8}, {"KSLICE", 2}, {"WX", 4}, {"PACKA", 0}}},
    {GemmPath::Packed, {{"MWG", 16}, {"NWG", 32}, {"KWG", 32}, {"MDIMC", 4}, {"NDIMC", 8}, {"VWM", 2}, {"VWN", 2},
                        {"SA", 0}, {"KUNROLL", 4}, {"KSLICE", 4}}},
    {GemmPath::Packed, {{"MWG", 16}, {"NWG", 32}, {"KWG", 32}, {"MDIMC", 8}, {"NDIMC", 16}, {"VWM", 2}, {"VWN", 2},
                        {"ASYNC", 3}, {"PACKA", 0}, {"PADA", 1}, {"PADB", 1}, {"STRM", 0}, {"KUNROLL", 16}, {"KSLICE", 2}}},
    {GemmPath::Packed, {{"MWG", 24}, {"NWG", 24}, {"KWG", 48}, {"MDIMC", 12}, {"NDIMC", 12}, {"VWM", 2}, {"VWN", 2},
                        {"ASYNC", 2}, {"PACKA", 0}, {"PADA", 1}, {"PADB", 1}, {"STRM", 0}, {"KUNROLL", 4}, {"KSLICE", 4}}},
    // The slices' sums share local memory with the tiles: 48×48 tiles in 4 slices over a 2-stage
    // pipeline (39 KiB of tiles; with 27 KiB of sums beside them it would not fit in 48 KiB),
    // and nothing staged at all (the sums alone).
    {GemmPath::Packed, {{"MWG", 48}, {"NWG", 48}, {"KWG", 48}, {"MDIMC", 12}, {"NDIMC", 12}, {"VWM", 4}, {"VWN", 4},
                        {"ASYNC", 2}, {"PACKA", 0}, {"PADA", 1}, {"PADB", 1}, {"STRM", 0}, {"KUNROLL", 4}, {"KSLICE", 4}}},
    {GemmPath::Packed, {{"MWG", 16}, {"NWG", 16}, {"KWG", 32}, {"MDIMC", 8}, {"NDIMC", 4}, {"VWM", 1}, {"VWN", 1},
                        {"SA", 0}, {"SB", 0}, {"KUNROLL", 1}, {"KSLICE", 2}}},
    // The sm_90 medium entry's 36×36 tiles (387 = 9·43: 121 blocks): 9×6 work-items of 4×6, B
    // in pairs from local memory, 4 slices of K-steps of 48; with the pipeline, and without it
    // (the same tiles on devices without cp.async).
    {GemmPath::Packed, {{"MWG", 36}, {"NWG", 36}, {"KWG", 48}, {"MDIMC", 9}, {"NDIMC", 6}, {"VWM", 4}, {"VWN", 2},
                        {"ASYNC", 2}, {"PACKA", 0}, {"STRM", 0}, {"KUNROLL", 4}, {"KSLICE", 4}}},
    {GemmPath::Packed, {{"MWG", 36}, {"NWG", 36}, {"KWG", 48}, {"MDIMC", 9}, {"NDIMC", 6}, {"VWM", 4}, {"VWN", 2},
                        {"PACKA", 0}, {"STRM", 0}, {"KUNROLL", 4}, {"KSLICE", 4}}},
    // The sm_90 small entry's 16×16 tiles in 4 slices of 8×8 work-items (up to about 180³).
    {GemmPath::Packed, {{"MWG", 16}, {"NWG", 16}, {"KWG", 32}, {"MDIMC", 8}, {"NDIMC", 8}, {"VWM", 2}, {"VWN", 2},
                        {"ASYNC", 3}, {"PACKA", 0}, {"PADA", 1}, {"PADB", 1}, {"STRM", 0}, {"KUNROLL", 2}, {"KSLICE", 4}}},
    // ALK: a row-major A read in place stays M×K in local memory (vectors of 4 along K where its
    // rows are aligned, element by element at offsets 3/13). Double-buffered and padded; sliced
    // K with two chunks of KUNROLL per slice; B from global memory; then the cp.async pipeline:
    // the large entry's tiles, warp tiling with 3 stages, and sliced K (twice: 288 vectors of A
    // for 576 work-items in the second).
    {GemmPath::Packed, {{"MWG", 64}, {"NWG", 32}, {"KWG", 16}, {"MDIMC", 8}, {"NDIMC", 8}, {"VWM", 2}, {"VWN", 2},
                        {"DB", 1}, {"PADA", 1}, {"STRM", 0}, {"KUNROLL", 8}, {"PACKA", 0}, {"ALK", 4}}},
    {GemmPath::Packed, {{"MWG", 32}, {"NWG", 64}, {"KWG", 16}, {"MDIMC", 8}, {"NDIMC", 8}, {"VWM", 4}, {"VWN", 4},
                        {"KUNROLL", 4}, {"KSLICE", 2}, {"PACKA", 0}, {"ALK", 2}}},
    {GemmPath::Packed, {{"MWG", 32}, {"NWG", 32}, {"KWG", 8}, {"MDIMC", 8}, {"NDIMC", 8}, {"VWM", 1}, {"VWN", 2},
                        {"SB", 0}, {"KUNROLL", 8}, {"PACKA", 0}, {"ALK", 4}}},
    // ... with fewer vectors of A than work-items (64 for 128: half of them copy none).
    {GemmPath::Packed, {{"MWG", 16}, {"NWG", 32}, {"KWG", 16}, {"MDIMC", 8}, {"NDIMC", 16}, {"VWM", 2}, {"VWN", 2},
                        {"KUNROLL", 8}, {"PACKA", 0}, {"ALK", 4}}},
    {GemmPath::Packed, {{"MWG", 128}, {"NWG", 128}, {"KWG", 16}, {"MDIMC", 16}, {"NDIMC", 16}, {"VWM", 4}, {"VWN", 4},
                        {"PADA", 1}, {"ASYNC", 2}, {"MINWG", 2}, {"PACKA", 0}, {"ALK", 4}}},
    {GemmPath::Packed, {{"MWG", 64}, {"NWG", 64}, {"KWG", 32}, {"MDIMC", 8}, {"NDIMC", 8}, {"VWM", 4}, {"VWN", 4},
                        {"ASYNC", 3}, {"WX", 8}, {"STRM", 0}, {"PACKA", 0}, {"ALK", 2}}},
    {GemmPath::Packed, {{"MWG", 32}, {"NWG", 32}, {"KWG", 32}, {"MDIMC", 8}, {"NDIMC", 8}, {"VWM", 2}, {"VWN", 2},
                        {"ASYNC", 2}, {"KUNROLL", 8}, {"KSLICE", 2}, {"PACKA", 0}, {"ALK", 4}}},
    {GemmPath::Packed, {{"MWG", 24}, {"NWG", 24}, {"KWG", 48}, {"MDIMC", 12}, {"NDIMC", 12}, {"VWM", 2}, {"VWN", 2},
                        {"ASYNC", 2}, {"PACKA", 0}, {"PADA", 1}, {"PADB", 1}, {"STRM", 0}, {"KUNROLL", 4}, {"KSLICE", 4},
                        {"ALK", 4}}},
};

// Whether this device can run a configuration at all (the cp.async ones need an NVIDIA GPU).
bool runs_here(const Config& c) {
  return c.params.count("ASYNC") == 0 || detail::has_cp_async(shared_context().info());
}

class GemmConfigs : public ::testing::TestWithParam<Config> {};

TEST_P(GemmConfigs, SweepMatchesOpenBlas) {
  if (!runs_here(GetParam())) GTEST_SKIP() << "needs cp.async (an NVIDIA GPU, sm_80 or newer)";
  GemmOptions o;
  o.force_path = GetParam().path;
  o.force_params = GetParam().params;
  // 66×258: N even but not a multiple of 4 in either layout (B in float pairs at offset 0). The
  // dense second case of each shape takes the in-place paths.
  run_every_layout({{1, 1, 1}, {129, 65, 7}, {64, 256, 130}, {200, 17, 300}, {66, 258, 40}}, o);
}

INSTANTIATE_TEST_SUITE_P(Forced, GemmConfigs, ::testing::ValuesIn(kConfigs),
                         [](const auto& info) { return "c" + std::to_string(info.index); });

// ---- the descriptor's constraints -------------------------------------------------------------

TEST(XgemmDescriptor, AcceptsValidAndRejectsInvalidConfigurations) {
  const DeviceInfo& dev = shared_context().info();
  const auto& d = detail::xgemm_descriptor();
  for (const auto& c : kConfigs) {
    if (c.path == GemmPath::Packed && runs_here(c)) {
      EXPECT_NO_THROW(detail::resolve_params(d, dev, c.params)) << name_of(c);
    }
  }
  const std::vector<KernelParams> invalid = {
      {{"MWG", 64}, {"MDIMC", 16}, {"VWM", 8}},             // MWG not a multiple of MDIMC*VWM
      {{"KWG", 16}, {"KUNROLL", 3}},                        // KUNROLL does not divide KWG
      {{"VWN", 3}},                                         // not a vector width
      {{"SA", 0}, {"SB", 0}, {"DB", 1}},                    // double buffering with nothing staged
      {{"SA", 0}, {"PADA", 1}},                             // padding an operand that is not staged
      {{"MWG", 256}, {"NWG", 256}, {"MDIMC", 8}, {"NDIMC", 8}},  // 1024 accumulators per work-item
      {{"NO_SUCH", 1}},
      {{"ASYNC", 1}},                                       // a pipeline needs 2-4 stages
      {{"ASYNC", 2}, {"DB", 1}},                            // ASYNC replaces DB
      {{"ASYNC", 2}, {"SA", 0}},                            // ASYNC stages both operands
      {{"WX", 3}},                                          // not a divisor of 32
      {{"WX", 8}, {"NDIMC", 4}},                            // WX larger than NDIMC
      {{"KSLICE", 3}},                                      // slices: 1, 2 or 4
      {{"KWG", 16}, {"KUNROLL", 8}, {"KSLICE", 4}},         // a slice's 4 k are not a chunk of 8
      {{"ALK", 4}, {"PACKA", 1}},                           // ALK is for an A read in place
      {{"ALK", 3}, {"PACKA", 0}},                           // ALK: 2 or 4
      {{"ALK", 4}, {"PACKA", 0}, {"KUNROLL", 2}},           // ALK must divide KUNROLL
      {{"ALK", 2}, {"PACKA", 0}, {"SA", 0}},                // ALK keeps A's tile in local memory
  };
  for (const auto& ps : invalid) {
    try {
      detail::resolve_params(d, dev, ps);
      ADD_FAILURE() << "accepted " << detail::build_options(ps);
    } catch (const Error& e) {
      EXPECT_EQ(e.status(), Status::InvalidArgument) << e.what();
    }
  }
  // Work-group and local-memory limits of the device are checked before anything is built.
  DeviceInfo small = dev;
  small.local_mem_bytes = small.static_local_bytes = 4096;  // below every default configuration's tiles
  small.max_work_group_size = 64;
  try {
    detail::resolve_params(d, small, {});
    ADD_FAILURE() << "a configuration over the device's limits was accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::OutOfResources) << e.what();
  }
  // cp.async is an Ampere-and-newer NVIDIA instruction: the constraint reads the architecture.
  DeviceInfo hopper = dev, turing = dev;
  hopper.vendor = turing.vendor = "NVIDIA Corporation";
  hopper.architecture = "sm_90";
  turing.architecture = "sm_75";
  hopper.kind = turing.kind = DeviceKind::GPU;
  EXPECT_TRUE(detail::has_cp_async(hopper));
  EXPECT_FALSE(detail::has_cp_async(turing));
  EXPECT_FALSE(detail::has_cp_async(DeviceInfo{}));
  const KernelParams async3 = {{"ASYNC", 3}, {"MWG", 64}, {"NWG", 64}, {"MDIMC", 8}, {"NDIMC", 8}, {"VWM", 4}, {"VWN", 4}};
  EXPECT_NO_THROW(detail::resolve_params(d, hopper, async3));
  EXPECT_THROW(detail::resolve_params(d, turing, async3), Error);
  // MINWG is a PTX directive: NVIDIA only, 1-4 work-groups, at most 2048 work-items per SM.
  const KernelParams two_per_sm = {{"MINWG", 2}, {"MDIMC", 16}, {"NDIMC", 16}};
  EXPECT_NO_THROW(detail::resolve_params(d, hopper, two_per_sm));
  EXPECT_NO_THROW(detail::resolve_params(d, turing, two_per_sm));
  if (dev.vendor.find("NVIDIA") == std::string::npos) {
    EXPECT_THROW(detail::resolve_params(d, dev, two_per_sm), Error) << "MINWG outside NVIDIA";
  }
  EXPECT_THROW(detail::resolve_params(d, hopper, {{"MINWG", 5}}), Error);
  EXPECT_THROW(detail::resolve_params(d, hopper, {{"MINWG", -1}}), Error);
  EXPECT_THROW(detail::resolve_params(d, hopper, {{"MINWG", 3}, {"MWG", 128}, {"NWG", 128}, {"MDIMC", 32},
                                                  {"NDIMC", 32}, {"VWM", 4}, {"VWN", 4}}),
               Error)
      << "3 groups of 1024 work-items exceed 2048 per SM";
  DeviceInfo nvidia_like = dev;
  nvidia_like.registers_per_work_group = 65536;
  EXPECT_THROW(detail::resolve_params(d, nvidia_like, {{"MWG", 256}, {"NWG", 128}, {"MDIMC", 16}, {"NDIMC", 8},
                                                       {"VWM", 4}, {"VWN", 4}}),
               Error)
      << "256 accumulators + fragments exceed 255 registers";
}

}  // namespace
}  // namespace clgemm::test
