// clgemm_module.cpp — clgemm._clgemm, the compiled part of the Python package: devices, one GEMM
// call (strided batched) on host memory or on caller-owned OpenCL buffers, and quantized weights
// (host quantize and dequantize, and the quantized GEMM on host memory). The Python layer
// (python/clgemm/) turns arrays into the plain numbers these functions take: it owns the NumPy
// semantics, the layouts and the copies; this file owns the device work and the GIL.
#include <clgemm/clgemm.hpp>

#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <string>

namespace nb = nanobind;
using namespace nb::literals;

namespace {

// clgemm.Error: the status code and its name ride along with the message.
PyObject* g_error_type = nullptr;

void raise_clgemm_error(const clgemm::Error& e) {
  nb::object type = nb::borrow(g_error_type);
  nb::object error = type(e.what());
  error.attr("status") = int(e.status());
  error.attr("status_name") = clgemm::status_name(e.status());
  PyErr_SetObject(g_error_type, error.ptr());
}

clgemm::DataType data_type(const std::string& name) {
  if (name == "f32") return clgemm::DataType::F32;
  if (name == "f64") return clgemm::DataType::F64;
  if (name == "f16") return clgemm::DataType::F16;
  if (name == "bf16") return clgemm::DataType::BF16;
  throw clgemm::Error(clgemm::Status::InvalidDataType, "no element type named '" + name + "'");
}

clgemm::Math math_of(const std::string& name) {
  if (name == "fp32") return clgemm::Math::Fp32;
  if (name == "3xtf32") return clgemm::Math::Tf32x3;
  if (name == "tf32") return clgemm::Math::Tf32;
  throw clgemm::Error(clgemm::Status::InvalidArgument, "math must be fp32, 3xtf32 or tf32, not '" + name + "'");
}

// One Context per device, made on first use and kept for the life of the process: it holds the
// compiled programs, so that a second call does not build them again.
clgemm::Context& context_for(size_t index) {
  static std::mutex mutex;
  static std::map<size_t, std::unique_ptr<clgemm::Context>> contexts;
  std::lock_guard<std::mutex> lock(mutex);
  auto& slot = contexts[index];
  if (!slot) {
    const std::vector<clgemm::DeviceInfo> all = clgemm::list_devices();
    if (index >= all.size())
      throw clgemm::Error(clgemm::Status::DeviceNotFound, "no device " + std::to_string(index) + "; there are " +
                                                               std::to_string(all.size()));
    slot = std::make_unique<clgemm::Context>(all[index]);
  }
  return *slot;
}

// A call as the Python layer describes it: shape, scalars, types, and per operand its element
// offset, leading dimension and batch stride (the buffers are added by the caller).
struct CallSpec {
  int layout;
  bool trans_a, trans_b;
  size_t m, n, k;
  double alpha, beta;
  size_t a_offset, lda, a_stride, b_offset, ldb, b_stride, c_offset, ldc, c_stride, batch;
  std::string ab_type, c_type, math;

  clgemm::GemmCall call() const {
    clgemm::GemmCall g;
    g.layout = clgemm::Layout(layout);
    g.a_transpose = trans_a ? clgemm::Transpose::Yes : clgemm::Transpose::No;
    g.b_transpose = trans_b ? clgemm::Transpose::Yes : clgemm::Transpose::No;
    g.m = m, g.n = n, g.k = k, g.alpha = alpha, g.beta = beta;
    g.a = {nullptr, a_offset, lda};
    g.b = {nullptr, b_offset, ldb};
    g.c = {nullptr, c_offset, ldc};
    g.a_type = g.b_type = data_type(ab_type);
    g.c_type = data_type(c_type);
    return g;
  }
  clgemm::GemmOptions options() const {
    clgemm::GemmOptions o;
    o.math = math_of(math);
    return o;
  }
};

void run(const clgemm::GemmCall& g, const CallSpec& s, cl_command_queue queue, cl_event* event) {
  if (s.batch == 1)
    clgemm::gemm(g, queue, event, s.options());
  else
    clgemm::gemm_strided_batched(g, s.a_stride, s.b_stride, s.c_stride, s.batch, queue, event, s.options());
}

// Host memory: the spans of A, B and C go to fresh device buffers, the call runs on the device's
// own queue, and C's span comes back. Each span starts at its pointer; offsets count from there.
void gemm_host(size_t device, const CallSpec& s, uintptr_t a, size_t a_bytes, uintptr_t b, size_t b_bytes, uintptr_t c,
               size_t c_bytes, bool read_c) {
  nb::gil_scoped_release release;
  clgemm::Context& ctx = context_for(device);
  const cl::CommandQueue& q = ctx.queue();
  clgemm::GemmCall g = s.call();
  cl::Buffer da = ctx.buffer(a_bytes, CL_MEM_READ_ONLY), db = ctx.buffer(b_bytes, CL_MEM_READ_ONLY),
             dc = ctx.buffer(c_bytes, CL_MEM_READ_WRITE);
  try {
    if (a_bytes) q.enqueueWriteBuffer(da, CL_FALSE, 0, a_bytes, reinterpret_cast<const void*>(a));
    if (b_bytes) q.enqueueWriteBuffer(db, CL_FALSE, 0, b_bytes, reinterpret_cast<const void*>(b));
    if (c_bytes && read_c) q.enqueueWriteBuffer(dc, CL_FALSE, 0, c_bytes, reinterpret_cast<const void*>(c));
    g.a.buffer = da(), g.b.buffer = db(), g.c.buffer = dc();
    run(g, s, q(), nullptr);
    if (c_bytes) q.enqueueReadBuffer(dc, CL_TRUE, 0, c_bytes, reinterpret_cast<void*>(c));
  } catch (const cl::Error& e) {
    q.finish();  // nothing may still read or write the caller's memory
    throw clgemm::Error(clgemm::Status::OpenCLError, std::string("moving matrices to or from the device: ") + e.what() +
                                                         " (" + std::to_string(e.err()) + ")");
  } catch (...) {
    q.finish();
    throw;
  }
}

// quantized weights -------------------------------------------------------------------------------

// `rows` rows of k float32 values at x into GGUF blocks at out (rows · quant_row_bytes bytes).
void quantize_into(uintptr_t x, size_t rows, size_t k, const std::string& format, uintptr_t out) {
  const clgemm::QuantFormat f = clgemm::quant_format_from_name(format);
  nb::gil_scoped_release release;
  const std::vector<uint8_t> w = clgemm::quantize(reinterpret_cast<const float*>(x), rows, k, f);
  std::memcpy(reinterpret_cast<void*>(out), w.data(), w.size());
}

// `rows` rows of row_bytes at w into rows·k float32 values at out.
void dequantize_into(uintptr_t w, size_t rows, size_t k, const std::string& format, size_t row_bytes, uintptr_t out) {
  const clgemm::QuantFormat f = clgemm::quant_format_from_name(format);
  nb::gil_scoped_release release;
  const std::vector<float> x = clgemm::dequantize(reinterpret_cast<const uint8_t*>(w), rows, k, f, row_bytes);
  std::memcpy(reinterpret_cast<void*>(out), x.data(), x.size() * sizeof(float));
}

// C (m×n, row-major, dense) = alpha·A (m×k, row-major, dense)·dequant(W)ᵀ + beta·C on host memory:
// A, W's n rows of row_bytes and C go to fresh device buffers, and C comes back.
void gemm_quantized_host(size_t device, size_t m, size_t n, size_t k, double alpha, double beta, uintptr_t a,
                         const std::string& a_type, uintptr_t w, const std::string& format, size_t row_bytes,
                         uintptr_t c, const std::string& c_type) {
  clgemm::QuantGemmCall g;
  g.layout = clgemm::Layout::RowMajor;
  g.m = m, g.n = n, g.k = k, g.alpha = alpha, g.beta = beta;
  g.a_type = data_type(a_type), g.c_type = data_type(c_type);
  g.w.format = clgemm::quant_format_from_name(format);
  g.w.row_bytes = row_bytes;
  const size_t a_bytes = m * k * clgemm::data_type_bytes(g.a_type), w_bytes = n * row_bytes,
               c_bytes = m * n * clgemm::data_type_bytes(g.c_type);
  nb::gil_scoped_release release;
  clgemm::Context& ctx = context_for(device);
  const cl::CommandQueue& q = ctx.queue();
  cl::Buffer da = ctx.buffer(std::max<size_t>(a_bytes, 1), CL_MEM_READ_ONLY),
             dw = ctx.buffer(std::max<size_t>(w_bytes, 1), CL_MEM_READ_ONLY),
             dc = ctx.buffer(std::max<size_t>(c_bytes, 1), CL_MEM_READ_WRITE);
  try {
    if (a_bytes) q.enqueueWriteBuffer(da, CL_FALSE, 0, a_bytes, reinterpret_cast<const void*>(a));
    if (w_bytes) q.enqueueWriteBuffer(dw, CL_FALSE, 0, w_bytes, reinterpret_cast<const void*>(w));
    if (c_bytes && beta != 0) q.enqueueWriteBuffer(dc, CL_FALSE, 0, c_bytes, reinterpret_cast<const void*>(c));
    g.a = {da(), 0, k};
    g.w.buffer = dw();
    g.c = {dc(), 0, n};
    clgemm::gemm_quantized(g, q(), nullptr);
    if (c_bytes) q.enqueueReadBuffer(dc, CL_TRUE, 0, c_bytes, reinterpret_cast<void*>(c));
  } catch (const cl::Error& e) {
    q.finish();  // nothing may still read or write the caller's memory
    throw clgemm::Error(clgemm::Status::OpenCLError, std::string("moving matrices to or from the device: ") + e.what() +
                                                         " (" + std::to_string(e.err()) + ")");
  } catch (...) {
    q.finish();
    throw;
  }
}

// Caller-owned buffers on the caller's queue: the call is enqueued, not waited for; the returned
// event (a cl_event the caller owns) completes with it.
uintptr_t gemm_buffers(uintptr_t queue, const CallSpec& s, uintptr_t a, uintptr_t b, uintptr_t c) {
  nb::gil_scoped_release release;
  clgemm::GemmCall g = s.call();
  g.a.buffer = reinterpret_cast<cl_mem>(a), g.b.buffer = reinterpret_cast<cl_mem>(b);
  g.c.buffer = reinterpret_cast<cl_mem>(c);
  cl_event event = nullptr;
  run(g, s, reinterpret_cast<cl_command_queue>(queue), &event);
  return reinterpret_cast<uintptr_t>(event);
}

// For scripts/python_overhead.py: `count` enqueues of the same call from C++ on the caller's queue,
// each event released at once, and the host seconds they took (the queue is not waited for).
double time_enqueues(uintptr_t queue, const CallSpec& s, uintptr_t a, uintptr_t b, uintptr_t c, size_t count) {
  nb::gil_scoped_release release;
  clgemm::GemmCall g = s.call();
  g.a.buffer = reinterpret_cast<cl_mem>(a), g.b.buffer = reinterpret_cast<cl_mem>(b);
  g.c.buffer = reinterpret_cast<cl_mem>(c);
  const auto start = std::chrono::steady_clock::now();
  for (size_t i = 0; i < count; ++i) {
    cl_event event = nullptr;
    run(g, s, reinterpret_cast<cl_command_queue>(queue), &event);
    if (event) clReleaseEvent(event);
  }
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// The device a queue belongs to, as an index into list_devices() (-1 if it is not listed).
long device_of_queue(uintptr_t queue) {
  cl_device_id id = nullptr;
  if (clGetCommandQueueInfo(reinterpret_cast<cl_command_queue>(queue), CL_QUEUE_DEVICE, sizeof(id), &id, nullptr) !=
      CL_SUCCESS)
    throw clgemm::Error(clgemm::Status::InvalidQueue, "the array's queue is not a valid OpenCL command queue");
  // The devices are listed once: a listing queries every platform, far longer than a call's
  // own overhead on the host, and the set does not change while the process runs.
  static const std::vector<std::pair<cl_device_id, long>> known = [] {
    std::vector<std::pair<cl_device_id, long>> out;
    for (const auto& d : clgemm::list_devices()) out.emplace_back(d.device(), long(d.index));
    return out;
  }();
  for (const auto& [device, index] : known)
    if (device == id) return index;
  return -1;
}

nb::dict device_dict(const clgemm::DeviceInfo& d) {
  nb::dict out;
  out["index"] = d.index;
  out["name"] = d.name;
  out["platform"] = d.platform;
  out["vendor"] = d.vendor;
  out["kind"] = d.kind_name();
  out["compute_units"] = d.compute_units;
  out["global_mem_bytes"] = d.global_mem_bytes;
  out["fp64"] = d.fp64;
  out["architecture"] = d.architecture;
  return out;
}

nb::dict plan_dict(const clgemm::CallPlan& p) {
  nb::list parts, commands;
  for (const auto& part : p.parts) {
    nb::dict d;
    d["rows"] = nb::make_tuple(part.row0, part.row0 + part.rows);
    d["cols"] = nb::make_tuple(part.col0, part.col0 + part.cols);
    d["path"] = std::string(clgemm::path_name(part.plan.path));
    d["params"] = nb::dict();
    for (const auto& [name, value] : part.plan.params) d["params"][name.c_str()] = value;
    d["source"] = part.plan.source;
    d["reason"] = part.plan.reason;
    parts.append(d);
  }
  for (const auto& c : p.commands) {
    nb::dict d;
    d["what"] = c.what;
    d["kernel"] = c.kernel;
    nb::list global, local;
    for (size_t i = 0; i < c.dims; ++i) global.append(c.global[i]), local.append(c.local[i]);
    d["global"] = nb::tuple(global);
    d["local"] = nb::tuple(local);
    commands.append(d);
  }
  nb::dict out;
  out["parts"] = parts;
  out["commands"] = commands;
  out["text"] = p.describe();
  return out;
}

}  // namespace

NB_MODULE(_clgemm, m) {
  m.doc() = "clgemm's compiled core: see the clgemm package for the API";
  g_error_type = PyErr_NewExceptionWithDoc(
      "clgemm.Error", "A failure clgemm reports: .status (the C API's status code) and .status_name name its class.",
      PyExc_RuntimeError, nullptr);
  m.attr("Error") = nb::handle(g_error_type);
  nb::register_exception_translator([](const std::exception_ptr& p, void*) {
    try {
      std::rethrow_exception(p);
    } catch (const clgemm::Error& e) {
      raise_clgemm_error(e);
    } catch (const cl::Error& e) {
      raise_clgemm_error(clgemm::Error(clgemm::Status::OpenCLError,
                                       std::string(e.what()) + " failed with OpenCL error " + std::to_string(e.err())));
    }
  });

  nb::class_<CallSpec>(m, "CallSpec")
      .def(nb::init<>())
      .def_rw("layout", &CallSpec::layout)
      .def_rw("trans_a", &CallSpec::trans_a)
      .def_rw("trans_b", &CallSpec::trans_b)
      .def_rw("m", &CallSpec::m)
      .def_rw("n", &CallSpec::n)
      .def_rw("k", &CallSpec::k)
      .def_rw("alpha", &CallSpec::alpha)
      .def_rw("beta", &CallSpec::beta)
      .def_rw("a_offset", &CallSpec::a_offset)
      .def_rw("lda", &CallSpec::lda)
      .def_rw("a_stride", &CallSpec::a_stride)
      .def_rw("b_offset", &CallSpec::b_offset)
      .def_rw("ldb", &CallSpec::ldb)
      .def_rw("b_stride", &CallSpec::b_stride)
      .def_rw("c_offset", &CallSpec::c_offset)
      .def_rw("ldc", &CallSpec::ldc)
      .def_rw("c_stride", &CallSpec::c_stride)
      .def_rw("batch", &CallSpec::batch)
      .def_rw("ab_type", &CallSpec::ab_type)
      .def_rw("c_type", &CallSpec::c_type)
      .def_rw("math", &CallSpec::math);

  m.def("devices", [] {
    nb::list out;
    for (const auto& d : clgemm::list_devices()) out.append(device_dict(d));
    return out;
  });
  m.def("choose_device", [](const std::string& spec) { return clgemm::choose_device(spec).index; }, "spec"_a,
        "the index of the device `spec` names (index or name substring; empty: $CLGEMM_DEVICE, then the first GPU, "
        "then the first CPU)");
  m.def("device_of_queue", &device_of_queue, "queue"_a);
  m.def("gemm_host", &gemm_host, "device"_a, "spec"_a, "a"_a, "a_bytes"_a, "b"_a, "b_bytes"_a, "c"_a, "c_bytes"_a,
        "read_c"_a);
  m.def("gemm_buffers", &gemm_buffers, "queue"_a, "spec"_a, "a"_a, "b"_a, "c"_a);
  m.def("time_enqueues", &time_enqueues, "queue"_a, "spec"_a, "a"_a, "b"_a, "c"_a, "count"_a);
  m.def("quantize_into", &quantize_into, "x"_a, "rows"_a, "k"_a, "format"_a, "out"_a);
  m.def("dequantize_into", &dequantize_into, "w"_a, "rows"_a, "k"_a, "format"_a, "row_bytes"_a, "out"_a);
  m.def("gemm_quantized_host", &gemm_quantized_host, "device"_a, "m"_a, "n"_a, "k"_a, "alpha"_a, "beta"_a, "a"_a,
        "a_type"_a, "w"_a, "format"_a, "row_bytes"_a, "c"_a, "c_type"_a);
  m.def("quant_row_bytes",
        [](const std::string& format, size_t k) {
          return clgemm::quant_row_bytes(clgemm::quant_format_from_name(format), k);
        },
        "format"_a, "k"_a);
  m.def("quant_block_elements",
        [](const std::string& format) { return clgemm::quant_block_elements(clgemm::quant_format_from_name(format)); },
        "format"_a);
  m.def(
      "plan",
      [](size_t device, const CallSpec& s) {
        const clgemm::DeviceInfo info = context_for(device).info();
        return plan_dict(clgemm::plan_call(info, s.call(), s.options(), s.batch, s.a_stride, s.b_stride, s.c_stride));
      },
      "device"_a, "spec"_a);
}
