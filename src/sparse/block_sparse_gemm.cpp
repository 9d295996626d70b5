// block_sparse_gemm.cpp — BlockSparseGemm: prepares the map, list and GEMM kernels for one shape,
// builds the tile map of A on the device and enqueues the block-skip (or dense) multiply.
#include <clgemm/error.hpp>
#include <clgemm/sparse.hpp>

#include "kernels/descriptor.hpp"
#include "runtime/cl_error.hpp"
#include "sparse/sparse_params.hpp"

#include <climits>
#include <numeric>

namespace clgemm {

namespace {

const char* kMapFile = "sparse/tile_map.cl";
const char* kGemmFile = "sparse/block_skip_gemm.cl";

size_t ceil_div(size_t a, size_t b) { return (a + b - 1) / b; }

void check_buffer(const cl::Buffer& buf, size_t bytes, const char* what) {
  const size_t have = detail::guard_cl("inspecting a buffer", [&] { return buf.getInfo<CL_MEM_SIZE>(); });
  if (have < bytes)
    throw Error(Status::InvalidArgument, std::string("block-skip GEMM: buffer ") + what + " holds " +
                                             std::to_string(have) + " bytes but the shape needs " +
                                             std::to_string(bytes) + "; pass a buffer of the matrix's full size");
}

}  // namespace

struct BlockSparseGemm::Impl {
  const Context* ctx = nullptr;
  GemmShape shape;
  KernelParams params;
  detail::SparseGeometry geo{};
  size_t ts = 0, tsn = 0;
  size_t mt = 0, kt = 0, nt = 0;  // tile-rows of A (and C blocks along m), k-tiles, C blocks along n
  bool guard = false;
  std::string gemm_options;
  cl::Kernel map_kernel, list_kernel, order_kernel, gemm_kernel;
  cl::Buffer map, lists, counts, order;     // from build_map
  cl::Buffer dense_list, dense_count;       // 0..kt-1 and kt: the no-skipping run
  cl::Buffer identity;                      // 0..mt-1: the dense run's order of tile-rows
  bool map_built = false;
};

BlockSparseGemm::BlockSparseGemm(const Context& ctx, const GemmShape& shape, const KernelParams& overrides)
    : impl_(std::make_unique<Impl>()) {
  Impl& s = *impl_;
  s.ctx = &ctx;
  s.shape = shape;
  if (shape.m == 0 || shape.n == 0 || shape.k == 0)
    throw Error(Status::InvalidArgument, "block-skip GEMM sizes must be at least 1 (got m=" + std::to_string(shape.m) +
                                             " n=" + std::to_string(shape.n) + " k=" + std::to_string(shape.k) + ")");
  // The kernels index with 32-bit ints (cheaper address arithmetic on GPUs).
  const double limit = double(INT_MAX);
  if (double(shape.m) * shape.k > limit || double(shape.k) * shape.n > limit || double(shape.m) * shape.n > limit)
    throw Error(Status::InvalidArgument, "the block-skip GEMM indexes matrices with 32-bit integers; A, B and C must "
                                         "each have fewer than 2^31 elements");
  s.params = detail::resolve_sparse_params(ctx.info(), overrides);
  s.geo = detail::sparse_geometry(s.params);
  s.ts = size_t(s.params.at("TS"));
  s.tsn = size_t(s.params.at("TSN"));
  s.mt = ceil_div(shape.m, s.ts);
  s.kt = ceil_div(shape.k, s.ts);
  s.nt = ceil_div(shape.n, s.tsn);
  s.guard = shape.m % s.ts || shape.k % s.ts || shape.n % s.tsn;
  s.gemm_options = detail::gemm_options(s.params, s.guard);

  s.map_kernel = ctx.kernel({kMapFile}, detail::map_options(s.params, shape.k % 4 == 0), "tile_map");
  s.list_kernel = ctx.kernel({kMapFile}, detail::map_options(s.params, shape.k % 4 == 0), "tile_lists");
  s.order_kernel = ctx.kernel({kMapFile}, detail::map_options(s.params, shape.k % 4 == 0), "tile_order");
  s.gemm_kernel = ctx.kernel({kGemmFile}, s.gemm_options, "block_skip_gemm");

  s.map = ctx.buffer(s.mt * s.kt);
  s.lists = ctx.buffer(s.mt * s.kt * sizeof(cl_int));
  s.counts = ctx.buffer(s.mt * sizeof(cl_int));
  s.order = ctx.buffer(s.mt * sizeof(cl_int));
  std::vector<cl_int> all_k(s.kt), all_m(s.mt);
  std::iota(all_k.begin(), all_k.end(), 0);
  std::iota(all_m.begin(), all_m.end(), 0);
  const cl_int kt = cl_int(s.kt);
  s.dense_list = ctx.buffer(s.kt * sizeof(cl_int));
  s.dense_count = ctx.buffer(sizeof(cl_int));
  s.identity = ctx.buffer(s.mt * sizeof(cl_int));
  detail::guard_cl("uploading the dense k-tile list", [&] {
    ctx.queue().enqueueWriteBuffer(s.dense_list, CL_TRUE, 0, all_k.size() * sizeof(cl_int), all_k.data());
    ctx.queue().enqueueWriteBuffer(s.dense_count, CL_TRUE, 0, sizeof(cl_int), &kt);
    ctx.queue().enqueueWriteBuffer(s.identity, CL_TRUE, 0, all_m.size() * sizeof(cl_int), all_m.data());
  });
}

BlockSparseGemm::~BlockSparseGemm() = default;
BlockSparseGemm::BlockSparseGemm(BlockSparseGemm&&) noexcept = default;
BlockSparseGemm& BlockSparseGemm::operator=(BlockSparseGemm&&) noexcept = default;

const GemmShape& BlockSparseGemm::shape() const { return impl_->shape; }
size_t BlockSparseGemm::tile_size() const { return impl_->ts; }
const KernelParams& BlockSparseGemm::params() const { return impl_->params; }
std::string BlockSparseGemm::build_options() const { return impl_->gemm_options; }
bool BlockSparseGemm::guarded() const { return impl_->guard; }

std::vector<cl::Event> BlockSparseGemm::build_map(const cl::Buffer& a) {
  Impl& s = *impl_;
  check_buffer(a, s.shape.m * s.shape.k * sizeof(float), "A");
  const size_t wg = size_t(s.params.at("MAP_WG"));
  std::vector<cl::Event> events(3);
  detail::guard_cl("building the tile map of A", [&] {
    s.map_kernel.setArg(0, cl_int(s.shape.m));
    s.map_kernel.setArg(1, cl_int(s.shape.k));
    s.map_kernel.setArg(2, a);
    s.map_kernel.setArg(3, s.map);
    s.map_kernel.setArg(4, cl_int(s.kt));
    s.ctx->queue().enqueueNDRangeKernel(s.map_kernel, cl::NullRange, cl::NDRange(s.kt * wg, s.mt),
                                        cl::NDRange(wg, 1), nullptr, &events[0]);
    s.list_kernel.setArg(0, cl_int(s.mt));
    s.list_kernel.setArg(1, cl_int(s.kt));
    s.list_kernel.setArg(2, s.map);
    s.list_kernel.setArg(3, s.lists);
    s.list_kernel.setArg(4, s.counts);
    const cl::NDRange per_row(detail::round_up(s.mt, 64));
    s.ctx->queue().enqueueNDRangeKernel(s.list_kernel, cl::NullRange, per_row, cl::NullRange, nullptr, &events[1]);
    s.order_kernel.setArg(0, cl_int(s.mt));
    s.order_kernel.setArg(1, s.counts);
    s.order_kernel.setArg(2, s.order);
    s.ctx->queue().enqueueNDRangeKernel(s.order_kernel, cl::NullRange, per_row, cl::NullRange, nullptr, &events[2]);
  });
  s.map_built = true;
  return events;
}

std::vector<cl::Event> BlockSparseGemm::multiply(const cl::Buffer& a, const cl::Buffer& b, const cl::Buffer& c,
                                                 SkipMode mode) {
  Impl& s = *impl_;
  const bool skip = mode == SkipMode::SkipZeroTiles;
  if (skip && !s.map_built)
    throw Error(Status::InvalidArgument, "block-skip GEMM: call build_map(A) before multiply(), or multiply with "
                                         "SkipMode::Dense");
  check_buffer(a, s.shape.m * s.shape.k * sizeof(float), "A");
  check_buffer(b, s.shape.k * s.shape.n * sizeof(float), "B");
  check_buffer(c, s.shape.m * s.shape.n * sizeof(float), "C");
  std::vector<cl::Event> events(1);
  detail::guard_cl(skip ? "running the block-skip GEMM" : "running the block-skip GEMM without skipping", [&] {
    cl::Kernel& k = s.gemm_kernel;
    k.setArg(0, cl_int(s.shape.m));
    k.setArg(1, cl_int(s.shape.n));
    k.setArg(2, cl_int(s.shape.k));
    k.setArg(3, a);
    k.setArg(4, b);
    k.setArg(5, c);
    k.setArg(6, skip ? s.lists : s.dense_list);
    k.setArg(7, cl_int(skip ? s.kt : 0));  // dense: every tile-row reads the one shared list
    k.setArg(8, skip ? s.counts : s.dense_count);
    k.setArg(9, cl_int(skip ? 1 : 0));
    k.setArg(10, skip ? s.order : s.identity);
    const cl::NDRange global(s.nt * size_t(s.geo.rtn), s.mt * size_t(s.geo.rtm));
    const cl::NDRange local(size_t(s.geo.rtn), size_t(s.geo.rtm));
    s.ctx->queue().enqueueNDRangeKernel(k, cl::NullRange, global, local, nullptr, &events[0]);
  });
  return events;
}

TileMap BlockSparseGemm::tile_map() const {
  const Impl& s = *impl_;
  if (!s.map_built) throw Error(Status::InvalidArgument, "block-skip GEMM: no tile map yet; call build_map(A) first");
  TileMap map;
  map.tile = s.ts;
  map.rows = s.mt;
  map.cols = s.kt;
  map.nonzero.resize(s.mt * s.kt);
  detail::guard_cl("reading the tile map", [&] {
    s.ctx->queue().enqueueReadBuffer(s.map, CL_TRUE, 0, map.nonzero.size(), map.nonzero.data());
  });
  return map;
}

}  // namespace clgemm
