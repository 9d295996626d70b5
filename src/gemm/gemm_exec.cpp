// gemm_exec.cpp — enqueues the direct kernel, the packed path (pack A and B, fast ladder kernel,
// epilogue) and the beta-only scaling.
#include "gemm/gemm_exec.hpp"

#include <clgemm/error.hpp>

#include "gemm/descriptor.hpp"
#include "gemm/direct_kernel.hpp"
#include "gemm/operand_prep.hpp"
#include "runtime/cl_error.hpp"

namespace clgemm::detail {

namespace {

constexpr size_t kEpilogueX = 32, kEpilogueY = 8;

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

// Chains commands: each waits for the one before, so the order holds on any queue.
class Chain {
 public:
  const std::vector<cl::Event>* wait() const { return last_.empty() ? nullptr : &last_; }
  void push(const cl::Event& e) { last_ = {e}; }
  cl::Event last() const { return last_.empty() ? cl::Event() : last_.front(); }

 private:
  std::vector<cl::Event> last_;
};

cl::Kernel epilogue_kernel(const Context& ctx, bool has_product) {
  return ctx.kernel({"util/epilogue.cl"},
                    "-DWG_X=" + std::to_string(kEpilogueX) + " -DWG_Y=" + std::to_string(kEpilogueY) +
                        " -DHAS_PRODUCT=" + (has_product ? "1" : "0"),
                    "gemm_epilogue");
}

void enqueue_epilogue(const cl::CommandQueue& q, cl::Kernel& k, const RowMajorGemm& g, const BatchItem& it,
                      const cl::Buffer* product, size_t ldt, const cl::Buffer& c, Chain& chain) {
  k.setArg(0, cl_int(g.m));
  k.setArg(1, cl_int(g.n));
  k.setArg(2, it.alpha);
  k.setArg(3, it.beta);
  if (product) k.setArg(4, *product);
  else k.setArg(4, sizeof(cl_mem), nullptr);
  k.setArg(5, cl_int(ldt));
  k.setArg(6, c);
  k.setArg(7, cl_ulong(it.c));
  k.setArg(8, cl_int(g.c.ld));
  cl::Event ev;
  q.enqueueNDRangeKernel(k, cl::NullRange, cl::NDRange(round_up(g.n, kEpilogueX), round_up(g.m, kEpilogueY)),
                         cl::NDRange(kEpilogueX, kEpilogueY), chain.wait(), &ev);
  chain.push(ev);
}

cl::Event enqueue_direct(const Context& ctx, const cl::CommandQueue& q, const RowMajorGemm& g, const BatchSpec& s,
                         const GemmPlan& plan) {
  const GemmKernelDescriptor& d = direct_descriptor();
  std::string options = build_options(plan.params) + " -DTRANS_A=" + (g.trans_a ? "1" : "0") +
                        " -DTRANS_B=" + (g.trans_b ? "1" : "0") + " -DBATCH_ARRAYS=" + (s.arrays ? "1" : "0");
  cl::Kernel k = ctx.kernel({d.info.file}, options, d.entry);
  cl::Buffer scalars, offsets;
  if (s.arrays) {
    std::vector<float> sc;
    std::vector<cl_ulong> off;
    for (size_t i = 0; i < s.count; ++i) {
      sc.insert(sc.end(), {s.alphas[i], s.betas[i]});
      off.insert(off.end(), {cl_ulong(s.a_offsets[i]), cl_ulong(s.b_offsets[i]), cl_ulong(s.c_offsets[i])});
    }
    scalars = cl::Buffer(ctx.context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sc.size() * sizeof(float), sc.data());
    offsets = cl::Buffer(ctx.context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, off.size() * sizeof(cl_ulong), off.data());
  }
  int i = 0;
  k.setArg(i++, cl_int(g.m));
  k.setArg(i++, cl_int(g.n));
  k.setArg(i++, cl_int(g.k));
  k.setArg(i++, g.alpha);
  k.setArg(i++, g.beta);
  for (const MatrixRef* r : {&g.a, &g.b, &g.c}) {
    const size_t stride = r == &g.a ? s.a_stride : r == &g.b ? s.b_stride : s.c_stride;
    k.setArg(i++, wrap(r->buffer));
    k.setArg(i++, cl_ulong(r->offset));
    k.setArg(i++, cl_int(r->ld));
    k.setArg(i++, cl_ulong(stride));
  }
  if (s.arrays) {
    k.setArg(i++, scalars);
    k.setArg(i++, offsets);
  } else {
    k.setArg(i++, sizeof(cl_mem), nullptr);
    k.setArg(i++, sizeof(cl_mem), nullptr);
  }
  const cl::NDRange g2 = d.global({g.m, g.n, g.k}, plan.params), l2 = d.local(plan.params);
  cl::Event ev;
  q.enqueueNDRangeKernel(k, cl::NullRange, cl::NDRange(g2[0], g2[1], s.count), cl::NDRange(l2[0], l2[1], 1), nullptr,
                         &ev);
  return ev;
}

cl::Event enqueue_packed(const Context& ctx, const cl::CommandQueue& q, const RowMajorGemm& g, const BatchSpec& s,
                         const GemmPlan& plan) {
  const GemmKernelDescriptor& d = ladder_descriptor(plan.rung);
  const Multiples mult = d.multiples(plan.params);
  const size_t pm = round_up(g.m, mult.m), pn = round_up(g.n, mult.n), pk = round_up(g.k, mult.k);
  const bool a_t = d.a_form == OperandForm::Transposed, b_t = d.b_form == OperandForm::Transposed;

  // Build everything and allocate before enqueueing anything.
  std::vector<std::string> sources = d.sources;
  sources.push_back(d.info.file);
  cl::Kernel fast = ctx.kernel(sources, build_options(plan.params), d.entry);
  cl::Kernel epi = epilogue_kernel(ctx, true);
  const size_t a_panel = d.a_panel ? d.a_panel(plan.params) : 0, b_panel = d.b_panel ? d.b_panel(plan.params) : 0;
  for (bool transpose : {false, true}) {
    build_prepare_operand(ctx, transpose, a_panel);
    build_prepare_operand(ctx, transpose, b_panel);
  }
  cl::Buffer ap = ctx.buffer(pm * pk * sizeof(float)), bp = ctx.buffer(pk * pn * sizeof(float)),
             t = ctx.buffer(pm * pn * sizeof(float));
  cl::Buffer a = wrap(g.a.buffer), b = wrap(g.b.buffer), c = wrap(g.c.buffer);

  Chain chain;
  for (size_t i = 0; i < s.count; ++i) {
    const BatchItem it = batch_item(g, s, i);
    // op(A) as stored is m×k (or k×m when transposed); the kernel wants op(A) (m×k) or its
    // transpose (k×m): transposing is needed exactly when those two differ.
    MatrixView av{&a, it.a, g.trans_a ? g.k : g.m, g.trans_a ? g.m : g.k, g.a.ld};
    chain.push(enqueue_prepare_operand(ctx, q, av, g.trans_a != a_t, ap, a_t ? pk : pm, a_t ? pm : pk, chain.wait(),
                                       a_panel));
    MatrixView bv{&b, it.b, g.trans_b ? g.n : g.k, g.trans_b ? g.k : g.n, g.b.ld};
    chain.push(enqueue_prepare_operand(ctx, q, bv, g.trans_b != b_t, bp, b_t ? pn : pk, b_t ? pk : pn, chain.wait(),
                                       b_panel));
    fast.setArg(0, cl_int(pm));
    fast.setArg(1, cl_int(pn));
    fast.setArg(2, cl_int(pk));
    fast.setArg(3, ap);
    fast.setArg(4, bp);
    fast.setArg(5, t);
    cl::Event ev;
    q.enqueueNDRangeKernel(fast, cl::NullRange, d.global({pm, pn, pk}, plan.params), d.local(plan.params),
                           chain.wait(), &ev);
    chain.push(ev);
    enqueue_epilogue(q, epi, g, it, &t, pn, c, chain);
  }
  return chain.last();
}

}  // namespace

cl::Event enqueue_scale(const Context& ctx, const cl::CommandQueue& q, const RowMajorGemm& g, const BatchSpec& s) {
  return guard_cl("enqueueing C = beta*C", [&] {
    cl::Kernel epi = epilogue_kernel(ctx, false);
    cl::Buffer c = wrap(g.c.buffer);
    Chain chain;
    for (size_t i = 0; i < s.count; ++i) enqueue_epilogue(q, epi, g, batch_item(g, s, i), nullptr, 0, c, chain);
    return chain.last();
  });
}

cl::Event enqueue_gemm(const Context& ctx, const cl::CommandQueue& q, const RowMajorGemm& g, const BatchSpec& s,
                       const GemmPlan& plan) {
  return guard_cl("enqueueing a GEMM", [&] {
    return plan.path == GemmPath::Packed ? enqueue_packed(ctx, q, g, s, plan) : enqueue_direct(ctx, q, g, s, plan);
  });
}

}  // namespace clgemm::detail
