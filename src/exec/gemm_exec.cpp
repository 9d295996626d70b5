// gemm_exec.cpp — enqueues the direct kernel, the packed path (pack A and B where needed, then the
// tunable xgemm kernel, which applies alpha and beta itself) and the beta-only scaling.
#include "exec/gemm_exec.hpp"

#include <clgemm/error.hpp>

#include "kernels/descriptor.hpp"
#include "kernels/gemm/direct_kernel.hpp"
#include "kernels/gemm/tall_kernel.hpp"
#include "kernels/gemm/xgemm_kernel.hpp"
#include "kernels/gemm/xmma_kernel.hpp"
#include "exec/operand_prep.hpp"
#include "runtime/cl_error.hpp"

#include <algorithm>
#include <functional>
#include <mutex>

namespace clgemm::detail {

namespace {

constexpr size_t kScaleX = 32, kScaleY = 8;

// alpha, beta and the three offsets of batch `i`.
struct BatchItem {
  float alpha, beta;
  size_t a, b, c;
};

BatchItem batch_item(const RowMajorGemm& g, const BatchSpec& s, size_t i) {
  if (s.arrays) return {s.alphas[i], s.betas[i], s.a_offsets[i], s.b_offsets[i], s.c_offsets[i]};
  return {g.alpha, g.beta, g.a.offset + i * s.a_stride, g.b.offset + i * s.b_stride, g.c.offset + i * s.c_stride};
}

cl::Buffer wrap(cl_mem m) { return cl::Buffer(m, true); }  // retain: the caller keeps its reference

// Chains commands: each waits for the one before. On an in-order queue that holds without
// wait lists, and passing none lets the driver launch back to back (with event wait lists the
// NVIDIA driver left 7-20 µs gaps between kernels, measured at 774³ on the H200).
class Chain {
 public:
  Chain(const cl::CommandQueue& q, std::vector<cl::Event>* trace = nullptr) : q_(q), in_order_(in_order(q)), trace_(trace) {}
  static bool in_order(const cl::CommandQueue& q) {
    return (q.getInfo<CL_QUEUE_PROPERTIES>() & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE) == 0;
  }
  const cl::CommandQueue& queue() const { return q_; }
  bool in_order() const { return in_order_; }
  const std::vector<cl::Event>* wait() const { return last_.empty() || in_order_ ? nullptr : &last_; }
  void push(const cl::Event& e) {
    last_ = {e};
    if (trace_) trace_->push_back(e);
  }
  cl::Event last() const { return last_.empty() ? cl::Event() : last_.front(); }

 private:
  cl::CommandQueue q_;
  bool in_order_;
  std::vector<cl::Event> last_;
  std::vector<cl::Event>* trace_;
};

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

// The per-batch alpha, beta pairs and a, b, c offset triples of an array batch, for the kernels
// that read them (BATCH_ARRAYS); empty buffers otherwise.
std::pair<cl::Buffer, cl::Buffer> batch_arrays(const Context& ctx, const BatchSpec& s) {
  if (!s.arrays) return {};
  std::vector<float> sc;
  std::vector<cl_ulong> off;
  for (size_t i = 0; i < s.count; ++i) {
    sc.insert(sc.end(), {s.alphas[i], s.betas[i]});
    off.insert(off.end(), {cl_ulong(s.a_offsets[i]), cl_ulong(s.b_offsets[i]), cl_ulong(s.c_offsets[i])});
  }
  return {cl::Buffer(ctx.context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sc.size() * sizeof(float), sc.data()),
          cl::Buffer(ctx.context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, off.size() * sizeof(cl_ulong), off.data())};
}

// Whether an operand's leading dimension, offset, batch stride and per-batch offsets are all
// multiples of w floats (so that every row of every batch item starts on a w-float boundary).
bool aligned_to(size_t ld, size_t offset, size_t stride, const std::vector<size_t>& offsets, size_t w) {
  bool ok = ld % w == 0 && offset % w == 0 && stride % w == 0;
  for (size_t off : offsets) ok = ok && off % w == 0;
  return ok;
}

// A build option that switches a kernel feature on or off: " -DNAME=1" or " -DNAME=0".
std::string flag(const char* name, bool on) { return std::string(" -D") + name + (on ? "=1" : "=0"); }

// The arguments that open the signatures of direct.cl and tall.cl: M, N, K, alpha, beta. Returns
// the index of the next argument.
int set_shape_args(cl::Kernel& k, const RowMajorGemm& g) {
  int i = 0;
  k.setArg(i++, cl_int(g.m));
  k.setArg(i++, cl_int(g.n));
  k.setArg(i++, cl_int(g.k));
  k.setArg(i++, g.alpha);
  k.setArg(i++, g.beta);
  return i;
}

// The two arguments that close them: the per-batch arrays (batch_arrays), or none.
void set_batch_array_args(cl::Kernel& k, int i, const std::pair<cl::Buffer, cl::Buffer>& arrays) {
  if (arrays.first()) {
    k.setArg(i++, arrays.first);
    k.setArg(i++, arrays.second);
  } else {
    k.setArg(i++, sizeof(cl_mem), nullptr);
    k.setArg(i++, sizeof(cl_mem), nullptr);
  }
}

// Builds what a part needs and allocates its temporaries; `launch` then enqueues its commands.
// Every part of a call is prepared before any is launched, so that a failure enqueues nothing.
struct Prepared {
  std::function<void(Chain&)> launch;
  bool uses_scratch = false;  // its commands pass data through kept temporaries (Context::scratch)
};

// One launch of `k`. The per-batch arrays travel with it: a kernel argument does not keep its
// buffer alive.
Prepared one_launch(const cl::Kernel& k, const cl::NDRange& global, const cl::NDRange& local,
                    const std::pair<cl::Buffer, cl::Buffer>& arrays) {
  return {[k, global, local, arrays](Chain& chain) {
            cl::Event ev;
            chain.queue().enqueueNDRangeKernel(k, cl::NullRange, global, local, chain.wait(), &ev);
            chain.push(ev);
          },
          false};
}

Prepared prepare_direct(const Context& ctx, const RowMajorGemm& g, const BatchSpec& s, const GemmPlan& plan) {
  const GemmKernelDescriptor& d = direct_descriptor();
  const std::string options = build_options(plan.params) + flag("TRANS_A", g.trans_a) + flag("TRANS_B", g.trans_b) +
                              flag("BATCH_ARRAYS", s.arrays);
  cl::Kernel k = ctx.kernel(d.program_sources(), options, d.entry);
  const std::pair<cl::Buffer, cl::Buffer> arrays = batch_arrays(ctx, s);
  int i = set_shape_args(k, g);
  for (const MatrixRef* r : {&g.a, &g.b, &g.c}) {
    const size_t stride = r == &g.a ? s.a_stride : r == &g.b ? s.b_stride : s.c_stride;
    k.setArg(i++, wrap(r->buffer));
    k.setArg(i++, cl_ulong(r->offset));
    k.setArg(i++, cl_int(r->ld));
    k.setArg(i++, cl_ulong(stride));
  }
  set_batch_array_args(k, i, arrays);
  const cl::NDRange g2 = d.global({g.m, g.n, g.k}, plan.params), l2 = d.local(plan.params);
  return one_launch(k, cl::NDRange(g2[0], g2[1], s.count), cl::NDRange(l2[0], l2[1], 1), arrays);
}

// The tall kernel (tall.cl) on a call whose op(A) has rows contiguous along k (gemm_api checks).
Prepared prepare_tall(const Context& ctx, const RowMajorGemm& g, const BatchSpec& s, const GemmPlan& plan) {
  if (g.trans_a) throw Error(Status::InternalError, "the tall kernel was planned for a transposed A");
  const KernelParams& ps = plan.params;
  const bool a_vec = aligned_to(g.a.ld, g.a.offset, s.a_stride, s.a_offsets, 4);
  const bool b_aligned = aligned_to(g.b.ld, g.b.offset, s.b_stride, s.b_offsets, 4);
  const bool b_vec = !g.trans_b && b_aligned && g.n == size_t(p(ps, "NB"));
  const bool b_kvec = g.trans_b && b_aligned;
  const bool b_rows = !g.trans_b && !b_vec;  // row-major B that is not in whole float4 rows
  // B(p, j) = B[p·b_ks + j·b_ns]: stored k×n, or n×k when transposed.
  const cl_int b_ks = cl_int(g.trans_b ? 1 : g.b.ld), b_ns = cl_int(g.trans_b ? g.b.ld : 1);
  const std::string options = build_options(ps) + flag("A_VEC", a_vec) + flag("B_VEC", b_vec) + flag("B_KVEC", b_kvec) +
                              flag("B_ROWS", b_rows) + flag("BATCH_ARRAYS", s.arrays);
  cl::Kernel k = ctx.kernel({"common/batch.cl", "gemm/tall.cl"}, options, "gemm_tall");
  const std::pair<cl::Buffer, cl::Buffer> arrays = batch_arrays(ctx, s);
  int i = set_shape_args(k, g);
  k.setArg(i++, wrap(g.a.buffer));
  k.setArg(i++, cl_ulong(g.a.offset));
  k.setArg(i++, cl_int(g.a.ld));
  k.setArg(i++, cl_ulong(s.a_stride));
  k.setArg(i++, wrap(g.b.buffer));
  k.setArg(i++, cl_ulong(g.b.offset));
  k.setArg(i++, b_ks);
  k.setArg(i++, b_ns);
  k.setArg(i++, cl_ulong(s.b_stride));
  k.setArg(i++, wrap(g.c.buffer));
  k.setArg(i++, cl_ulong(g.c.offset));
  k.setArg(i++, cl_int(g.c.ld));
  k.setArg(i++, cl_ulong(s.c_stride));
  set_batch_array_args(k, i, arrays);
  const size_t threads = tall_threads(ps), groups = (g.m + tall_rows(ps) - 1) / tall_rows(ps);
  return one_launch(k, cl::NDRange(groups * threads, s.count), cl::NDRange(threads, 1), arrays);
}

// A temporary of `bytes`. On an in-order queue it is kept for the next call (Context::scratch):
// each call's commands run after the previous call's, and the NVIDIA driver allocates a new
// buffer when it is first used, between two kernels (a 0.02-0.1 ms gap). An out-of-order queue
// may run two calls at once, so there each call has its own.
cl::Buffer temporary(const Context& ctx, const cl::CommandQueue& q, const char* role, size_t bytes,
                     bool zeroed = false) {
  if (Chain::in_order(q)) return ctx.scratch(q, role, bytes, zeroed);
  return zeroed ? ctx.zeroed_buffer(bytes) : ctx.buffer(bytes);
}

// The arguments xgemm.cl and xmma.cl both open with: M, N, K and the padded K, alpha and beta;
// A and B each as buffer, offset and row length in the units the kernel loads them in; C with
// its offset and ldc; the tiles per row of C. Returns the index of the next argument.
int set_tile_kernel_args(cl::Kernel& k, const RowMajorGemm& g, const BatchItem& it, size_t pk, const cl::Buffer& a,
                         size_t a_off, size_t lda, const cl::Buffer& b, size_t b_off, size_t ldb, const cl::Buffer& c,
                         size_t tiles_n) {
  int arg = 0;
  k.setArg(arg++, cl_int(g.m));
  k.setArg(arg++, cl_int(g.n));
  k.setArg(arg++, cl_int(g.k));
  k.setArg(arg++, cl_int(pk));
  k.setArg(arg++, it.alpha);
  k.setArg(arg++, it.beta);
  k.setArg(arg++, a);
  k.setArg(arg++, cl_ulong(a_off));
  k.setArg(arg++, cl_int(lda));
  k.setArg(arg++, b);
  k.setArg(arg++, cl_ulong(b_off));
  k.setArg(arg++, cl_int(ldb));
  k.setArg(arg++, c);
  k.setArg(arg++, cl_ulong(it.c));
  k.setArg(arg++, cl_int(g.c.ld));
  k.setArg(arg++, cl_int(tiles_n));
  return arg;
}

// Packs batch item `it`'s operands into zero-padded temporaries (padded.m × padded.k etc.), each
// only where given (a or b not null): op(A) into At (K×M), op(B) into K×N.
void enqueue_packs(const Context& ctx, Chain& chain, const RowMajorGemm& g, const BatchItem& it, const cl::Buffer* a,
                   const cl::Buffer& ap, const cl::Buffer* b, const cl::Buffer& bp, const GemmShape& padded) {
  if (a) {
    // Stored A is m×k (k×m when transposed); At is its transpose unless it was stored transposed.
    MatrixView av{a, it.a, g.trans_a ? g.k : g.m, g.trans_a ? g.m : g.k, g.a.ld};
    chain.push(enqueue_prepare_operand(ctx, chain.queue(), av, !g.trans_a, ap, padded.k, padded.m, chain.wait()));
  }
  if (b) {
    MatrixView bv{b, it.b, g.trans_b ? g.n : g.k, g.trans_b ? g.k : g.n, g.b.ld};
    chain.push(enqueue_prepare_operand(ctx, chain.queue(), bv, g.trans_b, bp, padded.k, padded.n, chain.wait()));
  }
}

Prepared prepare_packed(const Context& ctx, const cl::CommandQueue& q, const RowMajorGemm& g, const BatchSpec& s,
                        const GemmPlan& plan) {
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
  const bool async = p(ps, "ASYNC") > 0;
  const bool at_vec = g.trans_a && g.m % vwm == 0 && aligned_to(g.a.ld, g.a.offset, s.a_stride, s.a_offsets, vwm);
  bool a_packed, a_km, a_vec;
  if (g.trans_a) {
    a_km = true;
    a_packed = !at_vec && !async;
    a_vec = at_vec || a_packed;
  } else {
    a_packed = async ? p(ps, "PACKA") != 0 : !(p(ps, "SA") && !p(ps, "PACKA"));
    a_km = a_packed;
    // For A_KM = 0, whether A's rows go in vectors of 4 along K; only ALK reads them so (the
    // transposing copies go element by element).
    a_vec = a_packed || (p(ps, "ALK") > 0 && aligned_to(g.a.ld, g.a.offset, s.a_stride, s.a_offsets, 4));
  }
  const bool b_vec_ok = !g.trans_b && g.n % vwn == 0 && aligned_to(g.b.ld, g.b.offset, s.b_stride, s.b_offsets, vwn);
  const bool b_packed = !b_vec_ok && (!async || plan.pack_b);
  const bool b_kn = !g.trans_b || b_packed;
  const bool b_vec = b_vec_ok || b_packed;
  // A K×N B read in place but not in whole vectors still goes in pairs of floats (8-byte copies)
  // where N, ldb and the offsets are even, if the tile's pairs spread evenly over the work-items.
  const bool b_pairs = async && b_kn && !b_vec && g.n % 2 == 0 && (kwg * nwg / 2) % size_t(wgs(ps)) == 0 &&
                       aligned_to(g.b.ld, g.b.offset, s.b_stride, s.b_offsets, 2);
  // Whole-vector stores into C need every row of every batch to start on a vector boundary.
  const bool c_vec = aligned_to(g.c.ld, g.c.offset, s.c_stride, s.c_offsets, vwn);
  // Split-K of the last wave (the plan's choice, evened out here so that no part is empty).
  const size_t tiles_n = pn / nwg, tiles = (pm / mwg) * tiles_n;
  const size_t split_tiles = std::min(plan.split_tiles, tiles);
  const size_t k_split = split_depth(pk, kwg, plan.splits);
  const size_t splits = split_tiles > 0 && plan.splits > 1 ? (pk + k_split - 1) / k_split : 1;
  const bool split = splits > 1;
  const size_t full_tiles = split ? tiles - split_tiles : tiles;
  // Stream-K groups over the split tiles (at most one per K-step), and the most groups that any
  // one tile's steps are shared by: the workspace holds that many parts per tile.
  // (Shares that span tiles only on NVIDIA: runnable_sk_groups.)
  const size_t steps = pk / kwg;
  const bool nvidia = has_cp_async(ctx.info());
  const size_t sk_groups =
      split ? runnable_sk_groups(std::min(plan.sk_groups ? plan.sk_groups : split_tiles * splits, split_tiles * steps),
                                 split_tiles, ctx.info())
            : 0;
  const bool sk_loop = split && sk_groups % split_tiles != 0;
  const size_t max_parts = split ? most_parts(split_tiles, steps, sk_groups) : 1;
  const size_t blocks = full_tiles + sk_groups;
  const bool guard_m = !a_packed && g.m != pm, guard_n = !b_packed && g.n != pn,
             guard_k = (!a_packed || !b_packed) && g.k != pk;
  const std::string options = build_options(ps) + flag("C_VEC", c_vec) + flag("A_KM", a_km) + flag("A_VEC", a_vec) +
                              flag("B_KN", b_kn) + flag("B_VEC", b_vec) + flag("B_PAIRS", b_pairs) +
                              flag("GUARD_M", guard_m) + flag("GUARD_N", guard_n) + flag("GUARD_K", guard_k) +
                              flag("SPLIT", split) + " -DSPLITS=" + std::to_string(max_parts) +
                              flag("SK_LOOP", sk_loop) + flag("NV_FENCE", split && nvidia);
  // Offsets and leading dimensions go to the kernel in units of what it loads: vectors where the
  // operand arrives in vectors, floats otherwise.
  const size_t a_unit = !a_vec ? 1 : a_km ? vwm : 4, b_unit = b_kn && b_vec ? vwn : 1;

  // Build everything and allocate before enqueueing anything.
  // MINWG caps the registers of the unsplit kernel only. Split builds of 128×128 tiles once needed
  // 148-172 registers and spilled when held to 128 (H200, 4128³: 3.22 -> 3.27 ms); since the
  // twenty-second session they take 128 by themselves, and capped or not ran the same (±1 %).
  cl::Kernel k = ctx.kernel(d.program_sources(), options, d.entry, split ? 0u : unsigned(p(ps, "MINWG")));
  if (a_packed) build_prepare_operand(ctx, !g.trans_a);
  if (b_packed) build_prepare_operand(ctx, g.trans_b);
  cl::Buffer a = wrap(g.a.buffer), b = wrap(g.b.buffer), c = wrap(g.c.buffer);
  // Temporaries: the packed operands, the split-K workspace and counts.
  cl::Buffer ap = a_packed ? temporary(ctx, q, "packed A", pk * pm * sizeof(float)) : a;
  cl::Buffer bp = b_packed ? temporary(ctx, q, "packed B", pk * pn * sizeof(float)) : b;
  // The workspace of partial tiles, and a zeroed count per split tile. The kernel sets each count
  // back to zero when its tile is done, so both can serve the next batch item and the next call.
  // (A kernel aborted midway would leave counts set in the kept buffer; nothing guards against
  // that.)
  cl::Buffer ws, counters;
  if (split) {
    const size_t ws_bytes = split_tiles * max_parts * mwg * nwg * sizeof(float), count_bytes = split_tiles * sizeof(cl_int);
    ws = temporary(ctx, q, "split-K workspace", ws_bytes);
    counters = temporary(ctx, q, "split-K counts", count_bytes, true);
  }

  // Split-K numbers its groups along one dimension: the whole tiles, then the parts; each group
  // keeps the work-group shape (slices of sliced K along the third dimension).
  const cl::NDRange local = d.local(ps);
  const cl::NDRange global = split ? cl::NDRange(blocks * local[0], local[1], local[2]) : d.global({pm, pn, pk}, ps);
  // Copies of everything above that the commands need; the context outlives the call.
  auto launch = [=, &ctx](Chain& chain) mutable {
    const cl::CommandQueue& queue = chain.queue();
    for (size_t i = 0; i < s.count; ++i) {
      const BatchItem it = batch_item(g, s, i);
      enqueue_packs(ctx, chain, g, it, a_packed ? &a : nullptr, ap, b_packed ? &b : nullptr, bp, {pm, pn, pk});
      int arg = set_tile_kernel_args(k, g, it, pk, ap, a_packed ? 0 : it.a / a_unit, a_packed ? pm / vwm : g.a.ld / a_unit,
                                     bp, b_packed ? 0 : it.b / b_unit, b_packed ? pn / vwn : g.b.ld / b_unit, c,
                                     tiles_n);
      k.setArg(arg++, cl_int(full_tiles));
      k.setArg(arg++, cl_int(split_tiles));
      k.setArg(arg++, cl_int(sk_groups));
      if (split) {
        k.setArg(arg++, ws);
        k.setArg(arg++, counters);
      } else {
        k.setArg(arg++, sizeof(cl_mem), nullptr);
        k.setArg(arg++, sizeof(cl_mem), nullptr);
      }
      cl::Event ev;
      queue.enqueueNDRangeKernel(k, cl::NullRange, global, local, chain.wait(), &ev);
      chain.push(ev);
    }
  };
  // Only a pack and the GEMM after it pass data between commands through a kept buffer.
  return {launch, Chain::in_order(q) && (a_packed || b_packed)};
}

// The tensor path: xmma.cl on At (K×M) and B (K×N). The kernel reads whole tiles without
// guards, so an operand goes in place only where it already is whole tiles of that form, on
// float4 boundaries; anything else is packed into a zero-padded temporary.
Prepared prepare_tensor(const Context& ctx, const cl::CommandQueue& q, const RowMajorGemm& g, const BatchSpec& s,
                        const GemmPlan& plan) {
  const GemmKernelDescriptor& d = xmma_descriptor();
  const KernelParams& ps = plan.params;
  const size_t bm = p(ps, "BM"), bn = p(ps, "BN"), bk = p(ps, "BK");
  const size_t pm = round_up(g.m, bm), pn = round_up(g.n, bn), pk = round_up(g.k, bk);
  const bool a_packed =
      !(g.trans_a && g.m == pm && g.k == pk && aligned_to(g.a.ld, g.a.offset, s.a_stride, s.a_offsets, 4));
  const bool b_packed =
      !(!g.trans_b && g.n == pn && g.k == pk && aligned_to(g.b.ld, g.b.offset, s.b_stride, s.b_offsets, 4));
  cl::Kernel k = ctx.kernel(d.program_sources(), build_options(ps), d.entry);
  if (a_packed) build_prepare_operand(ctx, !g.trans_a);
  if (b_packed) build_prepare_operand(ctx, g.trans_b);
  cl::Buffer a = wrap(g.a.buffer), b = wrap(g.b.buffer), c = wrap(g.c.buffer);
  cl::Buffer ap = a_packed ? temporary(ctx, q, "packed A", pk * pm * sizeof(float)) : a;
  cl::Buffer bp = b_packed ? temporary(ctx, q, "packed B", pk * pn * sizeof(float)) : b;
  const cl::NDRange global = d.global({pm, pn, pk}, ps), local = d.local(ps);
  auto launch = [=, &ctx](Chain& chain) mutable {
    const cl::CommandQueue& queue = chain.queue();
    for (size_t i = 0; i < s.count; ++i) {
      const BatchItem it = batch_item(g, s, i);
      enqueue_packs(ctx, chain, g, it, a_packed ? &a : nullptr, ap, b_packed ? &b : nullptr, bp, {pm, pn, pk});
      set_tile_kernel_args(k, g, it, pk, ap, a_packed ? 0 : it.a / 4, a_packed ? pm / 4 : g.a.ld / 4, bp,
                           b_packed ? 0 : it.b / 4, b_packed ? pn / 4 : g.b.ld / 4, c, pn / bn);
      cl::Event ev;
      queue.enqueueNDRangeKernel(k, cl::NullRange, global, local, chain.wait(), &ev);
      chain.push(ev);
    }
  };
  return {launch, Chain::in_order(q) && (a_packed || b_packed)};
}

}  // namespace

cl::Event enqueue_scale(const Context& ctx, const cl::CommandQueue& q, const RowMajorGemm& g, const BatchSpec& s,
                        std::vector<cl::Event>* trace) {
  return guard_cl("enqueueing C = beta*C", [&] {
    cl::Kernel k = ctx.kernel({"util/scale.cl"}, "-DWG_X=" + std::to_string(kScaleX) + " -DWG_Y=" + std::to_string(kScaleY),
                              "gemm_scale");
    cl::Buffer c = wrap(g.c.buffer);
    Chain chain(q, trace);
    for (size_t i = 0; i < s.count; ++i) {
      const BatchItem it = batch_item(g, s, i);
      k.setArg(0, cl_int(g.m));
      k.setArg(1, cl_int(g.n));
      k.setArg(2, it.beta);
      k.setArg(3, c);
      k.setArg(4, cl_ulong(it.c));
      k.setArg(5, cl_int(g.c.ld));
      cl::Event ev;
      q.enqueueNDRangeKernel(k, cl::NullRange, cl::NDRange(round_up(g.n, kScaleX), round_up(g.m, kScaleY)),
                             cl::NDRange(kScaleX, kScaleY), chain.wait(), &ev);
      chain.push(ev);
    }
    return chain.last();
  });
}

cl::Event enqueue_gemm(const Context& ctx, const cl::CommandQueue& q, const std::vector<GemmPart>& parts,
                       std::vector<cl::Event>* trace) {
  return guard_cl("enqueueing a GEMM", [&] {
    std::vector<Prepared> prepared;
    bool uses_scratch = false;
    for (const GemmPart& part : parts) {
      const GemmPath path = part.plan.path;
      prepared.push_back(path == GemmPath::Tall     ? prepare_tall(ctx, part.g, part.batch, part.plan)
                         : path == GemmPath::Packed ? prepare_packed(ctx, q, part.g, part.batch, part.plan)
                         : path == GemmPath::Tensor ? prepare_tensor(ctx, q, part.g, part.batch, part.plan)
                                                    : prepare_direct(ctx, part.g, part.batch, part.plan));
      uses_scratch = uses_scratch || prepared.back().uses_scratch;
    }
    // Held while enqueueing, so that another thread's call on this queue cannot put its commands
    // between a pack into a kept temporary and the GEMM that reads it.
    std::unique_lock<std::mutex> hold;
    if (uses_scratch) hold = ctx.scratch_guard();
    // On an in-order queue the parts follow each other anyway. On an out-of-order one they may
    // run at once (their blocks of C are disjoint), and a marker waits for all of them.
    std::vector<cl::Event> ends;
    for (const Prepared& p : prepared) {
      Chain chain(q, trace);
      p.launch(chain);
      ends.push_back(chain.last());
    }
    if (ends.size() == 1 || Chain::in_order(q)) return ends.back();
    cl::Event all;
    q.enqueueMarkerWithWaitList(&ends, &all);
    if (trace) trace->push_back(all);
    return all;
  });
}

cl::Event enqueue_gemm(const Context& ctx, const cl::CommandQueue& q, const RowMajorGemm& g, const BatchSpec& s,
                       const GemmPlan& plan, std::vector<cl::Event>* trace) {
  return enqueue_gemm(ctx, q, {GemmPart{g, s, plan}}, trace);
}

}  // namespace clgemm::detail
