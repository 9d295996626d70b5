// wgmma_launch.cpp — see wgmma_launch.hpp.
#include "plan/wgmma_launch.hpp"

#include <clgemm/error.hpp>

#include "kernels/descriptor.hpp"
#include "kernels/gemm/wgmma/wgmma_kernel.hpp"
#include "kernels/gemm/wgmma/wgmma_split.hpp"
#include "kernels/precision.hpp"
#include "kernels/util/pack_kmajor.hpp"

#include <algorithm>
#include <optional>

namespace clgemm::detail {

std::string wgmma_options(const KernelParams& ps, DataType in, DataType out) {
  KernelParams kernel = ps;
  kernel["BK"] = p(ps, "BK") * 2 / long(data_type_bytes(in));
  return build_options(kernel) + precision_option(in) + storage_options(in, out);
}

namespace {

// A map over `o` (dimensions depth, rows, items) in boxes of `inner` × `outer` elements.
TiledMapSpec map_of(const OperandLayout& o, size_t count, DataType type, size_t inner, size_t outer) {
  const size_t elem = data_type_bytes(type);
  TiledMapSpec m;
  m.element_bytes = elem;
  m.rank = count > 1 ? 3 : 2;
  m.dims = {o.depth, o.rows, count};
  m.strides = {o.ld * elem, o.stride * elem};
  m.box = {uint32_t(inner), uint32_t(outer), 1};
  m.swizzle_bytes = inner * elem;
  return m;
}

// Elements of `type` in one slice's K-depth (BK counts 16-bit elements).
size_t slice_depth(const KernelParams& ps, DataType type) { return size_t(p(ps, "BK")) * 2 / data_type_bytes(type); }

}  // namespace

TiledMapSpec wgmma_kmajor_map(const OperandLayout& o, size_t count, size_t box_rows, const KernelParams& ps,
                              DataType type) {
  return map_of(o, count, type, slice_depth(ps, type), box_rows);
}

TiledMapSpec wgmma_nmajor_map(const OperandLayout& o, size_t count, const KernelParams& ps, DataType type) {
  return map_of(o, count, type, 128 / data_type_bytes(type), slice_depth(ps, type));
}

bool wgmma_tma_pays(size_t m, size_t n, size_t k, size_t count, DataType type, bool b_n_major) {
  const double work = double(m) * double(n) * double(k) * double(std::max<size_t>(count, 1));
  const bool early = b_n_major || type == DataType::F32;
  return work >= (early ? kWgmmaTmaMinMultiplyAddsNMajor : kWgmmaTmaMinMultiplyAdds);
}

namespace {

// How one operand reaches the kernel: in place, or packed into temporary `temp` with rows of
// `ld` elements, item after item `item` elements apart.
struct KMajorOperand {
  bool packed = false;
  size_t temp = 0, ld = 0, item = 0;
};

// The kernel reads rows that start on 16-byte boundaries: A as stored (not transposed), B stored
// transposed (N×K) or, with 16-bit inputs, as stored (K×N, B_MN). It reads them in place where
// every row of every item starts on a 128-byte cache line; rows that merely start on 16 bytes make
// each slice's read of a row touch one more 32-byte sector, which cost far more than the copy
// (kmajor_row). TMA reads boxes of rows that start on 16 bytes as they are, the boundary its maps
// need (`line_bytes` 16): H200, f16 3000³ with B as stored (rows of 6,000 bytes), the call ran
// 419 TFLOP/s with B packed first (the kernel alone 611) and 518 with B read in place. Anything
// else is packed K-major.
bool in_place(bool kmajor, const MatrixRef& r, size_t stride, const std::vector<size_t>& offsets, DataType type,
              size_t line_bytes = 128) {
  return kmajor && aligned_to(r.ld, r.offset, stride, offsets, line_bytes / data_type_bytes(type));
}

}  // namespace

void add_wgmma(Builder& b, const RowMajorGemm& g, const BatchSpec& s, const GemmPlan& plan) {
  const GemmKernelDescriptor& d = wgmma_descriptor();
  KernelParams ps = plan.params;
  // WS copies by TMA alone, and reads a float32 B K-major (no B_REGS).
  const bool ws = wgmma_warp_specialised(ps);
  // A 16-bit B stored as is (K×N) goes in place as well, N-major (B_MN), where its rows start on
  // cache lines, and either TMA copies it or C has fewer than 4096 rows. TMA moves its boxes of
  // 128-byte rows faster than a K-major B's 64-byte ones (H100, f16, the kernel alone: 2048³ 327
  // against 297 TFLOP/s, 4096³ 461 against 434, 8192³ 555 against 501). cp.async reads it 6-8 %
  // slower than a K-major B, which pays below 4096 rows, where the copy it saves costs about 260/M
  // of the GEMM's time (1024³ 96 against 56 TFLOP/s with the copy, 2048³ 267 against 231, 4096³
  // 346 against 357, 8192³ 399 against 423). Should the maps then not encode, B stays N-major.
  // A float32 B as stored goes in place under 3072 rows of C, where the tile can take it through
  // registers (TF32, B_REGS in gemm/wgmma/wgmma.cl). The kernel then runs about 15 % slower than on a
  // K-major B, but the transpose it spares costs more (H100, `force_probe tf32 wgmma`, TFLOP/s
  // against B transposed first in the same runs: 1024³ 71–75 against 52–59, 2048³ 205–215 against
  // 189–198, 3072³ 212–216 against 213–217, 1024×4096×4096 219–225 against 186–188, 2048×8192²
  // 248–252 against 233–240; strided batches 256 × 256³ 86–89 against 56, 64 × 512³ 140–144
  // against 98–99; 4095×4096² 240 against 248 at 4096³). 3xTF32 reads B so at every size in the square
  // tiles that take it: its kernel already takes one operand through registers and runs about as
  // fast either way (64×64 tiles, 2048³
  // 76 against 72–73, 4096³ 83–85 against 84, 8192³ 80–83 against 79–81, 1024×8192² 84 against
  // 77–78, 256 × 256³ 50–51 against 41).
  const bool b_kn_form = (g.type != DataType::F32 || (wgmma_b_registers_fit(ps) && !ws)) && !g.trans_b;
  const bool b_kn = b_kn_form && in_place(true, g.b, s.b_stride, s.b_offsets, g.type);
  const bool tma_wanted = (ws || p(ps, "TMA") == 1 || wgmma_tma_pays(g.m, g.n, g.k, s.count, g.type, b_kn)) &&
                          b.device().tensor_maps && !s.arrays && p(ps, "INFLIGHT") == 0;
  const bool three = wgmma_three_terms(ps);
  // Where TMA is wanted, rows on 16 bytes are read in place too (in_place); should the maps then
  // not encode, cp.async reads them so, a little slower.
  const size_t line = tma_wanted ? 16 : 128;
  const bool b_kn_line = b_kn_form && in_place(true, g.b, s.b_stride, s.b_offsets, g.type, line);
  const bool b_in_place_mn =
      g.type == DataType::F32 ? b_kn_line && (three || g.m < 3072) : b_kn_line && (g.m < 4096 || tma_wanted);
  const size_t row = kmajor_row(g.k, g.type), bytes = data_type_bytes(g.type);
  KMajorOperand a{!in_place(!g.trans_a, g.a, s.a_stride, s.a_offsets, g.type, line), 0, row, g.m * row};
  KMajorOperand bo{!b_in_place_mn && !in_place(g.trans_b, g.b, s.b_stride, s.b_offsets, g.type, line), 0, row,
                   g.n * row};
  // A 16-bit B that is packed anyway, for TMA to copy, is packed N-major: K rows of N, each padded
  // to 128 bytes, which TMA moves faster than K-major rows as it does a B read in place.
  const bool b_packed_mn = bo.packed && g.type != DataType::F32 && tma_wanted;
  if (b_packed_mn) bo.ld = kmajor_row(g.n, g.type), bo.item = g.k * bo.ld;
  const bool b_mn = b_in_place_mn || b_packed_mn;
  ps["B_MN"] = b_mn;
  const size_t per_item = ((a.packed ? a.item : 0) + (bo.packed ? bo.item : 0)) * bytes;
  const std::vector<Piece> batch =
      pieces(g, s, per_item == 0 ? kMaxItemsPerLaunch : std::max<size_t>(1, kMaxPackedBytes / per_item));
  const size_t items = batch.front().s.count;
  if (a.packed) a.temp = b.temporary("A packed K-major", items * a.item * bytes);
  if (bo.packed) bo.temp = b.temporary(b_mn ? "B packed N-major" : "B packed K-major", items * bo.item * bytes);
  const DataType compute = compute_type(g.type);
  // The tensor maps of every piece, or none: a piece's A as the kernel reads it (in place or the
  // packed copy), and B K-major or N-major. A map the encoder refuses (a stride of 0 that a batch
  // shares an operand with, for one) sends the whole call to cp.async.
  std::vector<std::pair<TensorMapBytes, TensorMapBytes>> maps;
  if (tma_wanted) {
    for (const Piece& piece : batch) {
      const RowMajorGemm& pg = piece.g;
      const size_t count = piece.s.count;
      const OperandLayout la = a.packed ? OperandLayout{pg.m, pg.k, a.ld, a.item}
                                        : OperandLayout{pg.m, pg.k, pg.a.ld, piece.s.a_stride};
      const OperandLayout lb = bo.packed ? (b_mn ? OperandLayout{pg.k, pg.n, bo.ld, bo.item}
                                                 : OperandLayout{pg.n, pg.k, bo.ld, bo.item})
                               : b_mn    ? OperandLayout{pg.k, pg.n, pg.b.ld, piece.s.b_stride}
                                         : OperandLayout{pg.n, pg.k, pg.b.ld, piece.s.b_stride};
      const auto am = encode_tensor_map(b.device(), wgmma_kmajor_map(la, count, size_t(p(ps, "BM")), ps, g.type));
      const auto bm = encode_tensor_map(b.device(), b_mn ? wgmma_nmajor_map(lb, count, ps, g.type)
                                                         : wgmma_kmajor_map(lb, count, size_t(p(ps, "BN")), ps, g.type));
      if (!am || !bm) {
        maps.clear();
        break;
      }
      maps.push_back({*am, *bm});
    }
  }
  const bool tma = !maps.empty();
  ps["TMA"] = tma;
  if (ws && !tma) {
    // The maps did not encode (or the device takes none): the same tile, one warpgroup fewer,
    // with cp.async, where it is a configuration of its own; else the kernel's defaults.
    KernelParams plain = ps;
    plain["WS"] = 0, plain["CONSUMER_REGS"] = 0, plain["PRODUCER_REGS"] = 0;
    try {
      ps = resolve_params(d, b.device(), plain);
    } catch (const Error&) {
      ps = resolve_params(d, b.device(), {{"B_MN", p(ps, "B_MN")}});
    }
    ps["TMA"] = 0;
  }
  const size_t tiles_n = ceil_div(g.n, size_t(p(ps, "BN")));
  // Split-K of the last round's tiles of every item (the plan's, wgmma_split). Each split tile's
  // parts go into a workspace of float32 partial tiles and count on a counter of the tile, which
  // the last part sets back to zero. A batch whose workspace would pass kMaxSplitWorkspaceBytes
  // runs unsplit.
  const size_t tiles = ceil_div(g.m, size_t(p(ps, "BM"))) * ceil_div(g.n, size_t(p(ps, "BN")));
  WgmmaSplit split;
  if (plan.splits > 1 && plan.split_tiles > 0 && !ws) split = {plan.splits, std::min(plan.split_tiles, tiles)};
  const size_t ws_bytes =
      items * split.split_tiles * split.splits * size_t(p(ps, "BM")) * size_t(p(ps, "BN")) * sizeof(float);
  if (ws_bytes > kMaxSplitWorkspaceBytes) split = {};
  size_t workspace = 0, counters = 0;
  if (split.splits > 1) {
    workspace = b.temporary("split-K workspace", ws_bytes);
    counters = b.temporary("split-K counts", items * split.split_tiles * sizeof(int32_t), true);
  }
  // WS: persistent work-groups, as many per item as the SMs hold at once (all of them shared by
  // the items), each walking tiles g, g + groups, ...; setmaxnreg's budget for that many per SM,
  // which .minnctapersm makes ptxas honour.
  const bool persistent = wgmma_warp_specialised(ps);
  unsigned min_groups = 0;
  size_t groups = wgmma_groups(tiles, split);
  if (persistent) {
    const size_t resident = d.resident(ps, b.device()), units = std::max<size_t>(b.device().compute_units, 1);
    groups = std::min(tiles, std::max<size_t>(1, ceil_div(units * resident, items)));
    const WgmmaRegisterBudget budget = wgmma_ws_registers(ps, resident);
    ps["CONSUMER_REGS"] = budget.consumer, ps["PRODUCER_REGS"] = budget.producer;
    min_groups = unsigned(resident);
  }
  const cl::NDRange local = d.local(ps), global(groups * local[0]);
  // Every work-group completes a copy of its own: two maps per work-group of the largest piece.
  const size_t slot_bytes = 2 * sizeof(TensorMapBytes) * (global[0] / local[0]) * items;
  const size_t map_slots = tma ? b.temporary("tensor maps", slot_bytes) : 0;
  for (size_t index = 0; index < batch.size(); ++index) {
    const Piece& piece = batch[index];
    const auto [scalars, offsets] = b.batch_arrays(piece.s);
    const RowMajorGemm& pg = piece.g;
    if (a.packed) {
      Command c = pack_kmajor_command({Arg::mem(BufferRole::A), pg.a.offset, pg.m, pg.k, pg.a.ld, pg.trans_a, pg.type},
                                      Arg::mem(BufferRole::Temporary, a.temp),
                                      {piece.s.count, piece.s.a_stride, a.item, offsets, piece.s.arrays, 0});
      c.what = "pack op(A): " + c.what;
      b.add(std::move(c));
    }
    if (bo.packed && b_mn) {
      // op(B) is K×N, as the kernel wants it: B stored as is is copied, Bᵀ (N×K) transposed.
      Command c = pack_kmajor_command({Arg::mem(BufferRole::B), pg.b.offset, pg.k, pg.n, pg.b.ld, pg.trans_b, pg.type},
                                      Arg::mem(BufferRole::Temporary, bo.temp),
                                      {piece.s.count, piece.s.b_stride, bo.item, offsets, piece.s.arrays, 1});
      c.what = "pack op(B) N-major: " + c.what;
      b.add(std::move(c));
    } else if (bo.packed) {
      // op(B) is K×N; the kernel wants N×K: B stored as is (K×N) is transposed, Bᵀ copied.
      Command c = pack_kmajor_command({Arg::mem(BufferRole::B), pg.b.offset, pg.n, pg.k, pg.b.ld, !pg.trans_b, pg.type},
                                      Arg::mem(BufferRole::Temporary, bo.temp),
                                      {piece.s.count, piece.s.b_stride, bo.item, offsets, piece.s.arrays, 1});
      c.what = "pack op(B)ᵀ: " + c.what;
      b.add(std::move(c));
    }
    const auto operand = [&](const KMajorOperand& o, BufferRole role, const MatrixRef& r, size_t stride) {
      if (o.packed) return std::vector<Arg>{Arg::mem(BufferRole::Temporary, o.temp), Arg::u64(0), Arg::i32(int64_t(o.ld)),
                                            Arg::u64(o.item)};
      return std::vector<Arg>{Arg::mem(role), Arg::u64(r.offset), Arg::i32(int64_t(r.ld)), Arg::u64(stride)};
    };
    Command c;
    c.what = persistent ? "wgmma (TMA, warp-specialised, persistent)" : tma ? "wgmma (TMA)" : "wgmma";
    c.min_groups_per_cu = min_groups;
    c.sources = d.program_sources();
    c.entry = d.entry;
    c.options = wgmma_options(ps, pg.type, pg.c_type) + " -DSPLITS=" + std::to_string(split.splits) +
                flag("NV_FENCE", split.splits > 1) + flag("BATCHED", piece.s.count > 1 || piece.s.arrays) +
                flag("BATCH_ARRAYS", piece.s.arrays) + flag("A_ARRAY", piece.s.arrays && !a.packed) +
                flag("B_ARRAY", piece.s.arrays && !bo.packed);
    c.ptx_rules = wgmma_rules(ps, pg.type);
    c.args = {Arg::i32(int64_t(pg.m)), Arg::i32(int64_t(pg.n)), Arg::i32(int64_t(pg.k)), Arg::real(pg.alpha, compute),
              Arg::real(pg.beta, compute)};
    for (const auto& v : {operand(a, BufferRole::A, pg.a, piece.s.a_stride), operand(bo, BufferRole::B, pg.b, piece.s.b_stride)})
      c.args.insert(c.args.end(), v.begin(), v.end());
    c.args.insert(c.args.end(), {Arg::mem(BufferRole::C), Arg::u64(pg.c.offset), Arg::i32(int64_t(pg.c.ld)),
                                 Arg::u64(piece.s.c_stride), Arg::i32(int64_t(tiles_n)), scalars, offsets});
    if (tma)
      c.args.insert(c.args.end(), {Arg::raw(maps[index].first.data(), sizeof(TensorMapBytes)),
                                   Arg::raw(maps[index].second.data(), sizeof(TensorMapBytes)),
                                   Arg::mem(BufferRole::Temporary, map_slots)});
    if (split.splits > 1)
      c.args.insert(c.args.end(), {Arg::i32(int64_t(tiles - split.split_tiles)), Arg::mem(BufferRole::Temporary, workspace),
                                   Arg::mem(BufferRole::Temporary, counters)});
    c.dims = 2;
    c.global = {global[0], piece.s.count, 1};
    c.local = {local[0], 1, 1};
    b.add(std::move(c));
  }
}

}  // namespace clgemm::detail
