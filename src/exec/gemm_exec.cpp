// gemm_exec.cpp — a launch plan turned into OpenCL commands.
#include "exec/gemm_exec.hpp"

#include <clgemm/error.hpp>

#include "runtime/cl_error.hpp"

#include <mutex>

namespace clgemm::detail {

namespace {

// Chains commands: each waits for the one before. On an in-order queue that holds without
// wait lists, and passing none lets the driver launch back to back (with event wait lists the
// NVIDIA driver left 7-20 µs gaps between kernels, measured at 774³ on the H200).
class Chain {
 public:
  Chain(const cl::CommandQueue& q, bool in_order, std::vector<cl::Event>* trace)
      : q_(q), in_order_(in_order), trace_(trace) {}
  void enqueue(const cl::Kernel& k, const Command& c) {
    cl::Event ev;
    const cl::NDRange global = range(c.global, c.dims), local = range(c.local, c.dims);
    q_.enqueueNDRangeKernel(k, cl::NullRange, global, local, last_.empty() || in_order_ ? nullptr : &last_, &ev);
    last_ = {ev};
    if (trace_) trace_->push_back(ev);
  }
  bool empty() const { return last_.empty(); }
  const cl::Event& last() const { return last_.front(); }

 private:
  static cl::NDRange range(const std::array<size_t, 3>& v, size_t dims) {
    return dims == 1 ? cl::NDRange(v[0]) : dims == 2 ? cl::NDRange(v[0], v[1]) : cl::NDRange(v[0], v[1], v[2]);
  }
  const cl::CommandQueue& q_;
  bool in_order_;
  std::vector<cl::Event> last_;
  std::vector<cl::Event>* trace_;
};

bool in_order(const cl::CommandQueue& q) {
  return (q.getInfo<CL_QUEUE_PROPERTIES>() & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE) == 0;
}

// Retained: the caller keeps its own reference.
cl::Buffer wrap(cl_mem m) { return m ? cl::Buffer(m, true) : cl::Buffer(); }

// What the commands' buffer arguments resolve to.
struct Bound {
  cl::Buffer a, b, c;
  std::vector<cl::Buffer> temporaries;
  std::vector<std::pair<cl::Buffer, cl::Buffer>> arrays;  // per part: scalars, offsets

  const cl::Buffer* find(const KernelArg& arg) const {
    switch (arg.buffer) {
      case BufferRole::A: return &a;
      case BufferRole::B: return &b;
      case BufferRole::C: return &c;
      case BufferRole::Temporary: return &temporaries.at(arg.index);
      case BufferRole::BatchScalars: return &arrays.at(arg.index).first;
      case BufferRole::BatchOffsets: return &arrays.at(arg.index).second;
      default: return nullptr;
    }
  }
};

// Temporaries are kept for later calls on an in-order queue (Context::scratch): each call's
// commands run after the previous call's, and the NVIDIA driver allocates a new buffer when it is
// first used, between two kernels (a 0.02-0.1 ms gap). An out-of-order queue may run two calls at
// once, so there each call has its own.
Bound bind(const Context& ctx, const cl::CommandQueue& q, bool ordered, const LaunchPlan& plan,
           const CallerBuffers& buffers) {
  Bound bound{wrap(buffers.a), wrap(buffers.b), wrap(buffers.c), {}, {}};
  for (const Temporary& t : plan.temporaries)
    bound.temporaries.push_back(ordered ? ctx.scratch(q, t.role, t.bytes, t.zeroed)
                                        : t.zeroed ? ctx.zeroed_buffer(t.bytes) : ctx.buffer(t.bytes));
  for (const BatchArrays& ba : plan.batch_arrays) {
    if (ba.scalars.empty()) {
      bound.arrays.emplace_back();
      continue;
    }
    const auto upload = [&](const void* data, size_t bytes) {
      return cl::Buffer(ctx.context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes, const_cast<void*>(data));
    };
    cl::Buffer scalars;
    if (ba.scalar_type == DataType::F64) {
      scalars = upload(ba.scalars.data(), ba.scalars.size() * sizeof(double));
    } else {
      const std::vector<float> narrow(ba.scalars.begin(), ba.scalars.end());
      scalars = upload(narrow.data(), narrow.size() * sizeof(float));
    }
    bound.arrays.emplace_back(scalars, upload(ba.offsets.data(), ba.offsets.size() * sizeof(uint64_t)));
  }
  return bound;
}

void set_args(cl::Kernel& k, const Command& c, const Bound& bound) {
  for (size_t i = 0; i < c.args.size(); ++i) {
    const KernelArg& a = c.args[i];
    const cl_uint index = cl_uint(i);
    switch (a.kind) {
      case KernelArg::Kind::Int: k.setArg(index, cl_int(a.integer)); break;
      case KernelArg::Kind::Ulong: k.setArg(index, cl_ulong(a.integer)); break;
      case KernelArg::Kind::Scalar:
        if (a.scalar_type == DataType::F64) k.setArg(index, cl_double(a.scalar));
        else k.setArg(index, cl_float(a.scalar));
        break;
      case KernelArg::Kind::Buffer:
        if (const cl::Buffer* b = bound.find(a); b && (*b)()) k.setArg(index, *b);
        else k.setArg(index, sizeof(cl_mem), nullptr);
        break;
      case KernelArg::Kind::Bytes: k.setArg(index, a.bytes.size(), a.bytes.data()); break;
    }
  }
}

// The command's kernel. The planner takes a patched kernel only where the API found the driver
// building one on this context (api/sm90a_probe.hpp); a configuration the driver still refuses is
// an error, not a silent change of arithmetic.
cl::Kernel kernel_of(const Context& ctx, const Command& c) {
  if (c.ptx_rules.empty()) return ctx.kernel(c.sources, c.options, c.entry, c.min_groups_per_cu);
  if (auto k = ctx.patched_kernel(c.sources, c.options, c.entry, c.ptx_rules, "sm_90a", c.min_groups_per_cu)) return *k;
  throw Error(Status::BuildFailure, "the driver refused the " + c.what + " kernel patched for sm_90a (options '" +
                                        c.options + "'); clgemm::take_warnings() holds its words");
}

}  // namespace

cl::Event enqueue_plan(const Context& ctx, const cl::CommandQueue& q, const LaunchPlan& plan,
                       const CallerBuffers& buffers, std::vector<cl::Event>* trace) {
  return guard_cl("enqueueing a GEMM", [&] {
    std::vector<cl::Kernel> kernels;
    for (const Command& c : plan.commands) kernels.push_back(kernel_of(ctx, c));
    const bool ordered = in_order(q);
    const Bound bound = bind(ctx, q, ordered, plan, buffers);
    for (size_t i = 0; i < plan.commands.size(); ++i) set_args(kernels[i], plan.commands[i], bound);
    // Held while enqueueing where a temporary carries data from one command to the next (a pack,
    // then the GEMM that reads it), so that another thread's call on this queue cannot put its
    // commands between them.
    std::unique_lock<std::mutex> hold;
    if (ordered && passes_data_between_commands(plan)) hold = ctx.scratch_guard();
    std::vector<Chain> chains(std::max<size_t>(plan.parts, 1), Chain(q, ordered, trace));
    for (size_t i = 0; i < plan.commands.size(); ++i) chains.at(plan.commands[i].part).enqueue(kernels[i], plan.commands[i]);
    std::vector<cl::Event> ends;
    for (const Chain& chain : chains)
      if (!chain.empty()) ends.push_back(chain.last());
    if (ends.empty()) throw Error(Status::InternalError, "a launch plan without commands");
    // On an in-order queue the parts follow each other anyway; on an out-of-order one a marker
    // waits for all of them.
    if (ends.size() == 1 || ordered) return ends.back();
    cl::Event all;
    q.enqueueMarkerWithWaitList(&ends, &all);
    if (trace) trace->push_back(all);
    return all;
  });
}

}  // namespace clgemm::detail
