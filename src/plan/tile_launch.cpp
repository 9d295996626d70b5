// tile_launch.cpp — the commands of the tile kernels that read op(A) as At (K×M) and op(B) as K×N:
// xgemm (the packed path, with split-K and stream-K of the last wave) and the tensor path's xmma
// and dmma. Each operand is read in place where the kernel can, else packed into a zero-padded
// temporary first; a batch whose packs would outgrow kMaxPackedBytes runs in pieces.
#include "plan/tile_launch.hpp"

#include <clgemm/error.hpp>

#include "kernels/descriptor.hpp"
#include "kernels/gemm/dmma/dmma_kernel.hpp"
#include "kernels/gemm/xgemm/xgemm_kernel.hpp"
#include "kernels/gemm/xmma/xmma_kernel.hpp"
#include "kernels/precision.hpp"
#include "kernels/util/prepare_operand.hpp"

#include <algorithm>

namespace clgemm::detail {

namespace {

// The stream-K group whose share of `total` K-steps holds step x (as group_of in xgemm.cl).
size_t group_of(size_t x, size_t total, size_t groups) { return ((x + 1) * groups + total - 1) / total - 1; }

// The most groups that share one tile's steps when `groups` share `tiles` tiles of `steps` each.
size_t most_parts(size_t tiles, size_t steps, size_t groups) {
  const size_t total = tiles * steps;
  size_t most = 1;
  for (size_t r = 0; r < tiles; ++r)
    most = std::max(most, group_of(r * steps + steps - 1, total, groups) - group_of(r * steps, total, groups) + 1);
  return most;
}

// How one operand of a tile kernel (xgemm, xmma) reaches it: a packed temporary, or the caller's
// buffer read in place in units of `unit` elements.
struct TileOperand {
  bool packed = false;
  size_t temp = 0;       // the temporary, when packed
  size_t item = 0;       // elements of one packed item (padded rows × columns)
  size_t unit = 1;       // what the kernel counts offsets and row lengths in, in place
  size_t packed_ld = 0;  // the packed rows' length, in the kernel's units
};

// Whether every per-item offset of a batch given by arrays is a multiple of 4 (true without them).
bool every_on_4(const std::vector<size_t>& offsets) {
  return std::all_of(offsets.begin(), offsets.end(), [](size_t o) { return o % 4 == 0; });
}

// Packs the piece's operands, each only where packed, into its temporary: op(A) into At (K×M),
// op(B) into K×N, zero-padded, one item after the other; every item in one launch per operand.
void add_packs(Builder& b, const RowMajorGemm& g, const BatchSpec& s, const TileOperand& a, const TileOperand& bo,
               const GemmShape& padded, const Arg& offsets) {
  if (a.packed) {
    // Stored A is m×k (k×m when transposed); At is its transpose unless it was stored transposed.
    const OperandSource src{Arg::mem(BufferRole::A), g.a.offset, g.trans_a ? g.k : g.m, g.trans_a ? g.m : g.k, g.a.ld,
                            g.type};
    Command c = prepare_operand_command(b.device(), src, !g.trans_a, Arg::mem(BufferRole::Temporary, a.temp),
                                        padded.k, padded.m, 0,
                                        {s.count, s.a_stride, a.item, offsets, s.arrays, 0, every_on_4(s.a_offsets)});
    c.what = "pack op(A) into At: " + c.what;
    b.add(std::move(c));
  }
  if (bo.packed) {
    const OperandSource src{Arg::mem(BufferRole::B), g.b.offset, g.trans_b ? g.n : g.k, g.trans_b ? g.k : g.n, g.b.ld,
                            g.type};
    Command c = prepare_operand_command(b.device(), src, g.trans_b, Arg::mem(BufferRole::Temporary, bo.temp),
                                        padded.k, padded.n, 0,
                                        {s.count, s.b_stride, bo.item, offsets, s.arrays, 1, every_on_4(s.b_offsets)});
    c.what = "pack op(B): " + c.what;
    b.add(std::move(c));
  }
}

// The arguments xgemm.cl and xmma.cl both open with: M, N, K and the padded K, alpha and beta;
// A and B each as buffer, offset, row length and item stride in the units the kernel loads them
// in; C with its offset, ldc and item stride.
std::vector<Arg> tile_kernel_args(const RowMajorGemm& g, const BatchSpec& s, size_t pk, const TileOperand& a,
                                  const TileOperand& b) {
  const auto operand = [](const TileOperand& t, BufferRole role, const MatrixRef& r, size_t stride) {
    if (t.packed)
      return std::vector<Arg>{Arg::mem(BufferRole::Temporary, t.temp), Arg::u64(0), Arg::i32(int64_t(t.packed_ld)),
                              Arg::u64(t.item / t.unit)};
    return std::vector<Arg>{Arg::mem(role), Arg::u64(r.offset / t.unit), Arg::i32(int64_t(r.ld / t.unit)),
                            Arg::u64(stride / t.unit)};
  };
  std::vector<Arg> args = {Arg::i32(int64_t(g.m)), Arg::i32(int64_t(g.n)), Arg::i32(int64_t(g.k)),
                           Arg::i32(int64_t(pk)), Arg::real(g.alpha, compute_type(g.type)), Arg::real(g.beta, compute_type(g.type))};
  for (const auto& v : {operand(a, BufferRole::A, g.a, s.a_stride), operand(b, BufferRole::B, g.b, s.b_stride)})
    args.insert(args.end(), v.begin(), v.end());
  args.insert(args.end(), {Arg::mem(BufferRole::C), Arg::u64(g.c.offset), Arg::i32(int64_t(g.c.ld)), Arg::u64(s.c_stride)});
  return args;
}

// Where a tile kernel's A and B offsets come from in a batch given by arrays: the arrays for an
// operand read in place, in its units; a fixed stride for a packed one.
std::string batch_options(const BatchSpec& s, const TileOperand& a, const TileOperand& b) {
  return flag("BATCHED", s.count > 1 || s.arrays) + flag("BATCH_ARRAYS", s.arrays) + flag("A_ARRAY", s.arrays && !a.packed) +
         flag("B_ARRAY", s.arrays && !b.packed) + " -DA_UNIT=" + std::to_string(a.unit) +
         " -DB_UNIT=" + std::to_string(b.unit);
}

// The largest piece of a batch whose packed operands stay within kMaxPackedBytes.
size_t items_per_piece(const TileOperand& a, const TileOperand& b, DataType type) {
  const size_t bytes = ((a.packed ? a.item : 0) + (b.packed ? b.item : 0)) * data_type_bytes(type);
  return bytes == 0 ? kMaxItemsPerLaunch : std::max<size_t>(1, kMaxPackedBytes / bytes);
}

// The batch cut into pieces whose packed operands fit kMaxPackedBytes, and the temporaries that
// hold each packed operand for the largest piece, item after item, in the compute type.
std::vector<Piece> pieces_with_packs(Builder& b, const RowMajorGemm& g, const BatchSpec& s, TileOperand& a,
                                     TileOperand& bo) {
  const DataType compute = compute_type(g.type);
  std::vector<Piece> batch = pieces(g, s, items_per_piece(a, bo, compute));
  const size_t items = batch.front().s.count;  // the most in one piece
  if (a.packed) a.temp = b.temporary("packed A", items * a.item * data_type_bytes(compute));
  if (bo.packed) bo.temp = b.temporary("packed B", items * bo.item * data_type_bytes(compute));
  return batch;
}

}  // namespace

void add_packed(Builder& b, const RowMajorGemm& g, const BatchSpec& s, const GemmPlan& plan) {
  const GemmKernelDescriptor& d = xgemm_descriptor();
  const KernelParams& ps = plan.params;
  const size_t mwg = p(ps, "MWG"), nwg = p(ps, "NWG"), kwg = p(ps, "KWG"), vwm = p(ps, "VWM"), vwn = p(ps, "VWN");
  const size_t pm = round_up(g.m, mwg), pn = round_up(g.n, nwg), pk = round_up(g.k, kwg);

  // How each operand reaches the kernel. In place wherever the kernel can read the caller's
  // matrix; ragged edges are then handled by guarded loads. Any other operand is packed into a
  // zero-padded temporary (At for A, K×N for B), which needs no guards.
  //  - Without the cp.async pipeline: A stored transposed (= At, K×M) with rows on vector
  //    boundaries; A stored as is (M×K, read along K and transposed while staging; needs SA and
  //    PACKA = 0); B stored as is (K×N) with rows on vector boundaries.
  //  - With it (ASYNC): everything in place, in vectors where aligned (a K×N B with an even N
  //    in pairs of floats) and element by element otherwise, except that PACKA = 1 still packs
  //    a row-major A into At (the tuner decides) and plan.pack_b packs a B that is not aligned
  //    (the planner decides, by size).
  //  - 16-bit operands (f16, bf16) are always packed: the pack widens them to float, which is what
  //    the kernel reads.
  const bool async = p(ps, "ASYNC") > 0;
  const bool widen = !stored_as_computed(g.type);
  const bool at_vec =
      !widen && g.trans_a && g.m % vwm == 0 && aligned_to(g.a.ld, g.a.offset, s.a_stride, s.a_offsets, vwm);
  bool a_packed, a_km, a_vec;
  if (g.trans_a) {
    a_km = true;
    a_packed = !at_vec && (!async || widen);
    a_vec = at_vec || a_packed;
  } else {
    a_packed = widen || (async ? p(ps, "PACKA") != 0 : !(p(ps, "SA") && !p(ps, "PACKA")));
    a_km = a_packed;
    // For A_KM = 0, whether A's rows go in vectors of 4 along K; only ALK reads them so (the
    // transposing copies go element by element).
    a_vec = a_packed || (p(ps, "ALK") > 0 && aligned_to(g.a.ld, g.a.offset, s.a_stride, s.a_offsets, 4));
  }
  const bool b_vec_ok =
      !widen && !g.trans_b && g.n % vwn == 0 && aligned_to(g.b.ld, g.b.offset, s.b_stride, s.b_offsets, vwn);
  const bool b_packed = widen || (!b_vec_ok && (!async || plan.pack_b));
  const bool b_kn = !g.trans_b || b_packed;
  const bool b_vec = b_vec_ok || b_packed;
  // A K×N B read in place but not in whole vectors still goes in pairs of floats (8-byte copies)
  // where N, ldb and the offsets are even, if the tile's pairs spread evenly over the work-items.
  const bool b_pairs = async && b_kn && !b_vec && g.n % 2 == 0 && (kwg * nwg / 2) % size_t(wgs(ps)) == 0 &&
                       aligned_to(g.b.ld, g.b.offset, s.b_stride, s.b_offsets, 2);
  // Whole-vector stores into C need every row of every batch to start on a vector boundary.
  // (C stored in 16 bits goes element by element.)
  const bool c_vec = stored_as_computed(g.c_type) && aligned_to(g.c.ld, g.c.offset, s.c_stride, s.c_offsets, vwn);
  // Split-K of the last wave (the plan's choice, evened out here so that no part is empty).
  const size_t tiles_n = pn / nwg, tiles = (pm / mwg) * tiles_n;
  const size_t split_tiles = std::min(plan.split_tiles, tiles);
  const size_t k_split = split_depth(pk, kwg, plan.splits);
  const size_t splits = split_tiles > 0 && plan.splits > 1 ? (pk + k_split - 1) / k_split : 1;
  const bool split = splits > 1;
  const size_t full_tiles = split ? tiles - split_tiles : tiles;
  // Stream-K groups over the split tiles (at most one per K-step), and the most groups that any
  // one tile's steps are shared by: the workspace holds that many parts per tile.
  const size_t steps = pk / kwg;
  const size_t sk_groups =
      split ? runnable_sk_groups(std::min(plan.sk_groups ? plan.sk_groups : split_tiles * splits, split_tiles * steps),
                                 split_tiles, b.device())
            : 0;
  const bool sk_loop = split && sk_groups % split_tiles != 0;
  const size_t max_parts = split ? most_parts(split_tiles, steps, sk_groups) : 1;
  const size_t blocks = full_tiles + sk_groups;
  const bool guard_m = !a_packed && g.m != pm, guard_n = !b_packed && g.n != pn,
             guard_k = (!a_packed || !b_packed) && g.k != pk;
  // Offsets, leading dimensions and strides go to the kernel in units of what it loads: vectors
  // where the operand arrives in vectors, floats otherwise.
  TileOperand a{a_packed, 0, pk * pm, !a_vec ? 1 : a_km ? vwm : 4, pm / vwm};
  TileOperand bo{b_packed, 0, pk * pn, b_kn && b_vec ? vwn : 1, pn / vwn};
  // NV_FENCE: the split kernel's fence between its partial sums and its count, in PTX on NVIDIA.
  const std::string options = build_options(ps) + storage_options(DataType::F32, g.c_type) + flag("C_VEC", c_vec) + flag("A_KM", a_km) +
                              flag("A_VEC", a_vec) +
                              flag("B_KN", b_kn) + flag("B_VEC", b_vec) + flag("B_PAIRS", b_pairs) +
                              flag("GUARD_M", guard_m) + flag("GUARD_N", guard_n) + flag("GUARD_K", guard_k) +
                              flag("SPLIT", split) + " -DSPLITS=" + std::to_string(max_parts) +
                              flag("SK_LOOP", sk_loop) + flag("NV_FENCE", split && has_cp_async(b.device())) +
                              batch_options(s, a, bo);
  // Temporaries for a piece: the packed operands; the split-K workspace of partial tiles and a
  // zeroed count per split tile, for each item. The kernel sets each count back to zero when its
  // tile is done, so both serve the next piece and the next call. (A kernel aborted midway would
  // leave counts set in the kept buffer; nothing guards against that.)
  const std::vector<Piece> batch = pieces_with_packs(b, g, s, a, bo);
  const size_t items = batch.front().s.count;
  size_t ws = 0, counters = 0;
  if (split) {
    ws = b.temporary("split-K workspace", items * split_tiles * max_parts * mwg * nwg * data_type_bytes(compute_type(g.type)));
    counters = b.temporary("split-K counts", items * split_tiles * sizeof(int32_t), true);
  }

  // Split-K numbers its groups along one dimension: the whole tiles, then the parts; each group
  // keeps the work-group shape (slices of sliced K along the third dimension, which also holds
  // the batch's items).
  const cl::NDRange local = d.local(ps);
  const cl::NDRange global = split ? cl::NDRange(blocks * local[0], local[1], local[2]) : d.global({pm, pn, pk}, ps);
  // MINWG caps the registers of the unsplit kernel only: the split builds of 128×128 tiles take
  // 128 by themselves and ran the same capped or not (H200, ±1 %).
  const unsigned min_groups = split ? 0u : unsigned(p(ps, "MINWG"));
  for (const Piece& piece : batch) {
    const auto [scalars, offsets] = b.batch_arrays(piece.s);
    add_packs(b, piece.g, piece.s, a, bo, {pm, pn, pk}, offsets);
    Command c;
    c.what = "xgemm";
    c.sources = d.program_sources();
    c.entry = d.entry;
    c.options = options;
    c.min_groups_per_cu = min_groups;
    c.args = tile_kernel_args(piece.g, piece.s, pk, a, bo);
    c.args.insert(c.args.end(), {Arg::i32(int64_t(tiles_n)), Arg::i32(int64_t(full_tiles)),
                                 Arg::i32(int64_t(split_tiles)), Arg::i32(int64_t(sk_groups)),
                                 split ? Arg::mem(BufferRole::Temporary, ws) : Arg::mem(BufferRole::None),
                                 split ? Arg::mem(BufferRole::Temporary, counters) : Arg::mem(BufferRole::None),
                                 scalars, offsets});
    c.dims = 3;
    c.global = {global[0], global[1], global[2] * piece.s.count};
    c.local = {local[0], local[1], local[2]};
    b.add(std::move(c));
  }
}

// The tensor path: xmma.cl (f32) on At (K×M) and B (K×N); dmma.cl (f64) on those, or on A as M×K
// and B as N×K (A_MK, B_NK). xmma reads whole tiles without guards, so an operand goes in place
// only where it already is whole tiles of a form it reads, on 16-byte boundaries; anything else is
// packed into a zero-padded temporary (At, K×N). dmma reads both operands in place in whichever
// form they are stored: with its copies guarded (GUARD) where the tiles do not divide the
// matrices, and a double at a time (a unit of one) for an operand off 16-byte boundaries.
void add_tensor(Builder& b, const RowMajorGemm& g, const BatchSpec& s, const GemmPlan& plan) {
  // The tensor path's two families: dmma multiplies doubles, xmma floats.
  const bool f64 = plan.kernel == dmma_descriptor().info.id;
  if (f64 != (g.type == DataType::F64) || (!f64 && plan.kernel != xmma_descriptor().info.id))
    throw Error(Status::InternalError, "a tensor-path plan of the " + plan.kernel + " kernel for " +
                                           data_type_name(g.type) + " operands");
  const GemmKernelDescriptor& d = f64 ? dmma_descriptor() : xmma_descriptor();
  const size_t unit = f64 ? 2 : 4;  // elements of one 16-byte copy
  const KernelParams& ps = plan.params;
  const size_t bm = p(ps, "BM"), bn = p(ps, "BN"), bk = p(ps, "BK");
  const size_t pm = round_up(g.m, bm), pn = round_up(g.n, bn), pk = round_up(g.k, bk);
  const bool a_aligned = aligned_to(g.a.ld, g.a.offset, s.a_stride, s.a_offsets, unit);
  const bool b_aligned = aligned_to(g.b.ld, g.b.offset, s.b_stride, s.b_offsets, unit);
  const bool a_whole = g.m == pm && g.k == pk && a_aligned, b_whole = g.n == pn && g.k == pk && b_aligned;
  const bool a_mk = f64 && !g.trans_a, b_nk = f64 && g.trans_b;
  const bool a_packed = !f64 && !(g.trans_a && a_whole);
  const bool b_packed = !f64 && !(!g.trans_b && b_whole);
  const bool guard = f64 && !(g.m == pm && g.n == pn && g.k == pk);
  TileOperand a{a_packed, 0, pk * pm, f64 && !a_aligned ? 1 : unit, pm / unit};
  TileOperand bo{b_packed, 0, pk * pn, f64 && !b_aligned ? 1 : unit, pn / unit};
  const std::vector<Piece> batch = pieces_with_packs(b, g, s, a, bo);
  const cl::NDRange global = d.global({pm, pn, pk}, ps), local = d.local(ps);
  for (const Piece& piece : batch) {
    const auto [scalars, offsets] = b.batch_arrays(piece.s);
    add_packs(b, piece.g, piece.s, a, bo, {pm, pn, pk}, offsets);
    Command c;
    c.what = d.info.id;
    c.sources = d.program_sources();
    c.entry = d.entry;
    c.options = build_options(ps) + (f64 ? flag("A_MK", a_mk) + flag("B_NK", b_nk) + flag("GUARD", guard) : "") +
                batch_options(piece.s, a, bo);
    c.args = tile_kernel_args(piece.g, piece.s, pk, a, bo);
    c.args.insert(c.args.end(), {Arg::i32(int64_t(pn / bn)), scalars, offsets});
    c.dims = 2;
    c.global = {global[0], piece.s.count, 1};
    c.local = {local[0], 1, 1};
    b.add(std::move(c));
  }
}

}  // namespace clgemm::detail
