// gemm_checks.cpp — argument checks for gemm, gemm_batched and gemm_strided_batched.
#include "api/gemm_checks.hpp"

#include <clgemm/error.hpp>

#include "exec/problem.hpp"

#include <algorithm>
#include <climits>

namespace clgemm::detail {

namespace {

std::string str(size_t v) { return std::to_string(v); }

}  // namespace

size_t checked_mul(size_t a, size_t b, const std::string& what) {
  size_t r;
  if (__builtin_mul_overflow(a, b, &r)) throw Error(Status::SizeOverflow, what + " overflows: " + str(a) + " * " + str(b));
  return r;
}

size_t checked_add(size_t a, size_t b, const std::string& what) {
  size_t r;
  if (__builtin_add_overflow(a, b, &r)) throw Error(Status::SizeOverflow, what + " overflows: " + str(a) + " + " + str(b));
  return r;
}

namespace {

// Rows and columns of a stored operand as the caller sees it (in the call's layout).
struct Stored {
  const char* name;  // "a", "b", "c"
  const MatrixRef* ref;
  size_t rows, cols;
};

std::vector<Stored> stored_operands(const GemmCall& c, bool read_ab) {
  std::vector<Stored> out;
  if (read_ab) {
    const bool ta = c.a_transpose == Transpose::Yes, tb = c.b_transpose == Transpose::Yes;
    out.push_back({"a", &c.a, ta ? c.k : c.m, ta ? c.m : c.k});
    out.push_back({"b", &c.b, tb ? c.n : c.k, tb ? c.k : c.n});
  }
  out.push_back({"c", &c.c, c.m, c.n});
  return out;
}

}  // namespace

void check_types(const GemmCall& call) {
  const std::pair<const char*, DataType> types[] = {{"a_type", call.a_type}, {"b_type", call.b_type}, {"c_type", call.c_type}};
  for (const auto& [name, type] : types)
    if (int(type) < int(DataType::F32) || int(type) > int(DataType::BF16))
      throw Error(Status::InvalidDataType, std::string(name) + " is " + std::to_string(int(type)) +
                                               "; it must be f32, f64, f16 or bf16 (clgemm::DataType 0-3)");
  if (int(call.compute) < int(ComputeType::Auto) || int(call.compute) > int(ComputeType::Tf32x3))
    throw Error(Status::InvalidDataType, "compute is " + std::to_string(int(call.compute)) +
                                             "; it must be auto, f32, f64, tf32 or 3xtf32 (clgemm::ComputeType 0-4)");
  const DataType in = call.a_type;
  const ComputeType compute = call.compute;
  const auto refuse = [&](const std::string& why) {
    throw Error(Status::UnsupportedTypes, std::string("a_type ") + data_type_name(call.a_type) + ", b_type " +
                                              data_type_name(call.b_type) + ", c_type " + data_type_name(call.c_type) +
                                              ", compute " + compute_type_name(compute) + ": " + why);
  };
  if (call.b_type != in) refuse("A and B must have one type");
  switch (in) {
    case DataType::F64:
      if (call.c_type != DataType::F64) refuse("f64 operands need an f64 C");
      if (compute != ComputeType::Auto && compute != ComputeType::F64) refuse("f64 operands are computed in f64");
      break;
    case DataType::F32:
      if (call.c_type != DataType::F32) refuse("f32 operands need an f32 C");
      if (compute == ComputeType::F64) refuse("f32 operands are computed in f32, tf32 or 3xtf32");
      break;
    default:  // f16, bf16
      if (call.c_type != in && call.c_type != DataType::F32)
        refuse(std::string(data_type_name(in)) + " operands need a C of the same type or f32");
      if (compute != ComputeType::Auto && compute != ComputeType::F32)
        refuse(std::string(data_type_name(in)) + " operands are computed in f32");
      break;
  }
}

void check_device_types(const GemmCall& call, const DeviceInfo& device) {
  if (call.a_type == DataType::F64 && !device.fp64)
    throw Error(Status::NoFp64, "f64 operands need double precision, which " + device.name +
                                    " does not offer (no cl_khr_fp64)");
}

void check_enums(const GemmCall& call) {
  check_types(call);
  if (call.layout != Layout::RowMajor && call.layout != Layout::ColMajor)
    throw Error(Status::InvalidLayout, "layout is " + std::to_string(int(call.layout)) +
                                           "; it must be 101 (row-major) or 102 (column-major)");
  if (call.a_transpose != Transpose::No && call.a_transpose != Transpose::Yes)
    throw Error(Status::InvalidTranspose, "a_transpose is " + std::to_string(int(call.a_transpose)) +
                                              "; it must be 111 (no) or 112 (yes)");
  if (call.b_transpose != Transpose::No && call.b_transpose != Transpose::Yes)
    throw Error(Status::InvalidTranspose, "b_transpose is " + std::to_string(int(call.b_transpose)) +
                                              "; it must be 111 (no) or 112 (yes)");
}

cl_context check_queue(cl_command_queue queue) {
  if (!queue) throw Error(Status::InvalidQueue, "queue is null; pass a valid cl_command_queue");
  cl_context ctx = nullptr;
  if (clGetCommandQueueInfo(queue, CL_QUEUE_CONTEXT, sizeof ctx, &ctx, nullptr) != CL_SUCCESS || !ctx)
    throw Error(Status::InvalidQueue, "queue is not a valid OpenCL command queue");
  return ctx;
}

void check_device(const DeviceInfo& d) {
  if (!d.available) throw Error(Status::Unsupported, "the queue's device " + d.name + " is not available");
  if (!d.compiler_available)
    throw Error(Status::Unsupported, "the queue's device " + d.name +
                                         " has no OpenCL C compiler; clgemm builds its kernels from source");
  if (d.max_work_group_size < 64 || d.local_mem_bytes < 16 * 1024)
    throw Error(Status::Unsupported, "the queue's device " + d.name + " allows " + str(d.max_work_group_size) +
                                         " work-items and " + str(d.local_mem_bytes) +
                                         " bytes of local memory per group; clgemm needs at least 64 and 16 KiB");
}

void check_batch_count(size_t count) {
  if (count == 0) throw Error(Status::InvalidBatchCount, "batch_count is 0; a batched call needs at least one GEMM");
  if (count > size_t(INT_MAX))
    throw Error(Status::InvalidBatchCount, "batch_count is " + str(count) + "; clgemm takes at most 2^31 - 1 (" +
                                               str(size_t(INT_MAX)) + ") GEMMs in one call");
}

namespace {

const char* object_type_name(cl_mem_object_type t) {
  switch (t) {
    case CL_MEM_OBJECT_IMAGE1D: return "a 1D image";
    case CL_MEM_OBJECT_IMAGE1D_BUFFER: return "a 1D image buffer";
    case CL_MEM_OBJECT_IMAGE1D_ARRAY: return "a 1D image array";
    case CL_MEM_OBJECT_IMAGE2D: return "a 2D image";
    case CL_MEM_OBJECT_IMAGE2D_ARRAY: return "a 2D image array";
    case CL_MEM_OBJECT_IMAGE3D: return "a 3D image";
    case CL_MEM_OBJECT_PIPE: return "a pipe";
    default: return "not a buffer";
  }
}

template <class T>
T mem_info(cl_mem m, cl_mem_info what, const std::string& name) {
  T value{};
  if (clGetMemObjectInfo(m, what, sizeof value, &value, nullptr) != CL_SUCCESS)
    throw Error(Status::InvalidBuffer, name + "_buffer is not a valid OpenCL memory object");
  return value;
}

size_t max_start(const ItemStarts& s, const char* name) {
  if (!s.list) return last_offset(s.first, s.stride, s.count, name);
  return *std::max_element(s.list->begin(), s.list->end());
}

}  // namespace

// A memory object the call may use as `name`'s buffer, and its size in bytes.
size_t check_buffer(cl_mem m, const std::string& name, cl_context queue_context, bool read, bool written) {
  if (!m) throw Error(Status::InvalidBuffer, name + "_buffer is null");
  const auto type = mem_info<cl_mem_object_type>(m, CL_MEM_TYPE, name);
  if (type != CL_MEM_OBJECT_BUFFER)
    throw Error(Status::NotABuffer, name + "_buffer is " + object_type_name(type) + "; clgemm reads and writes buffers");
  if (mem_info<cl_context>(m, CL_MEM_CONTEXT, name) != queue_context)
    throw Error(Status::BufferContextMismatch,
                name + "_buffer belongs to another OpenCL context than the queue; create it in the queue's context");
  const auto flags = mem_info<cl_mem_flags>(m, CL_MEM_FLAGS, name);
  if (written && (flags & CL_MEM_READ_ONLY))
    throw Error(Status::BufferAccess, name + "_buffer was created CL_MEM_READ_ONLY, but the call writes it");
  if (read && (flags & CL_MEM_WRITE_ONLY))
    throw Error(Status::BufferAccess, name + "_buffer was created CL_MEM_WRITE_ONLY, but the call reads it" +
                                          (name == "c" ? std::string(" (beta is not 0)") : std::string()));
  return mem_info<size_t>(m, CL_MEM_SIZE, name);
}

void check_operands(const GemmCall& call, cl_context queue_context, const ItemStarts& a, const ItemStarts& b,
                    const ItemStarts& c, bool c_read) {
  const bool read_ab = reads_operands(call.k, call.alpha);
  const bool row = call.layout == Layout::RowMajor;
  std::vector<Footprint> inputs;
  for (const Stored& s : stored_operands(call, read_ab)) {
    const std::string n = s.name;
    const bool is_c = s.name[0] == 'c';
    // In row-major storage a row is contiguous, so ld counts elements per row; in column-major
    // storage it counts elements per column.
    const size_t inner = row ? s.cols : s.rows, outer = row ? s.rows : s.cols;
    if (s.ref->ld < std::max<size_t>(1, inner))
      throw Error(Status::InvalidLeadingDimension,
                  n + "_ld is " + str(s.ref->ld) + " but must be at least " + str(std::max<size_t>(1, inner)) + " (the " +
                      (row ? "columns" : "rows") + " of " + char(std::toupper(s.name[0])) + " as stored, " +
                      str(s.rows) + "x" + str(s.cols) + ", " + (row ? "row" : "column") + "-major)");
    const size_t bytes = check_buffer(s.ref->buffer, n, queue_context, !is_c || c_read, is_c);
    const ItemStarts& starts = s.name[0] == 'a' ? a : s.name[0] == 'b' ? b : c;
    const size_t element = data_type_bytes(is_c ? call.c_type : call.a_type);
    const Footprint footprint{s.name, s.ref->buffer, outer, inner, s.ref->ld, starts, element};
    if (!is_c) inputs.push_back(footprint);
    if (outer == 0 || inner == 0) continue;
    const size_t max_off = max_start(starts, s.name);
    const size_t need = extent_bytes(outer, inner, s.ref->ld, max_off, element, n);
    if (need > bytes)
      throw Error(Status::BufferTooSmall, n + "_buffer holds " + str(bytes) + " bytes but " + n + "_offset " +
                                              str(max_off) + " with " + n + "_ld " + str(s.ref->ld) + " and a " +
                                              str(s.rows) + "x" + str(s.cols) + " matrix needs " + str(need) + " bytes");
    if (is_c) check_no_overlap(footprint, inputs);
  }
}

size_t extent_bytes(size_t outer, size_t inner, size_t ld, size_t last_start, size_t element, const std::string& name) {
  // Elements the matrix spans from its offset: (outer - 1) full leading dimensions plus one run.
  const size_t span = checked_add(checked_mul(outer - 1, ld, name + " extent"), inner, name + " extent");
  return checked_mul(checked_add(last_start, span, name + " offset + extent"), element, name + " size in bytes");
}

size_t last_offset(size_t offset, size_t stride, size_t count, const char* name) {
  return checked_add(offset, checked_mul(count - 1, stride, std::string(name) + " stride * (batch_count - 1)"),
             std::string(name) + " offset of the last batch");
}

void check_index_range(std::initializer_list<size_t> sizes_and_lds) {
  // Kernels index rows and columns with 32-bit ints and multiply by ld in 64 bits.
  for (size_t v : sizes_and_lds)
    if (v > size_t(INT_MAX))
      throw Error(Status::SizeOverflow, "a size or leading dimension of " + str(v) + " exceeds 2^31 - 1, the largest clgemm supports");
}

void check_index_range(const GemmCall& call) {
  check_index_range({call.m, call.n, call.k, call.a.ld, call.b.ld, call.c.ld});
}

}  // namespace clgemm::detail
