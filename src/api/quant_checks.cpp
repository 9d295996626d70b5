// quant_checks.cpp — argument checks of gemm_quantized and its strided batches.
#include "api/quant_checks.hpp"

#include <clgemm/error.hpp>

#include "api/gemm_checks.hpp"
#include "api/operand_overlap.hpp"
#include "exec/problem.hpp"

namespace clgemm::detail {

namespace {

std::string str(size_t v) { return std::to_string(v); }

void check_type(const char* name, DataType t) {
  if (int(t) < int(DataType::F32) || int(t) > int(DataType::BF16))
    throw Error(Status::InvalidDataType, std::string(name) + " is " + std::to_string(int(t)) +
                                             "; it must be f32, f16 or bf16 (clgemm::DataType 0, 2, 3)");
  if (t == DataType::F64)
    throw Error(Status::UnsupportedTypes, std::string(name) + " is f64; quantized calls take f32, f16 or bf16 "
                                                              "activations and results, computed in float32");
}

// The bytes (elements · element) a matrix of `outer` runs of `inner` spans from its first item's
// offset to its last item's end, checked against the buffer's size.
void check_extent(const char* name, const char* offset_name, size_t buffer_bytes, size_t outer, size_t inner,
                  size_t ld, const ItemStarts& starts, size_t element) {
  const std::string n = name;
  const size_t last = last_offset(starts.first, starts.stride, starts.count, name);
  const size_t need = extent_bytes(outer, inner, ld, last, element, n);
  if (need > buffer_bytes)
    throw Error(Status::BufferTooSmall, n + "_buffer holds " + str(buffer_bytes) + " bytes but " + offset_name + " " +
                                            str(last) + (starts.count > 1 ? " (the last item's)" : "") + " with " +
                                            str(outer) + " runs of " + str(inner) + ", " + str(ld) +
                                            " apart, needs " + str(need) + " bytes");
}

}  // namespace

void check_quant_enums(const QuantGemmCall& call) {
  if (call.layout != Layout::RowMajor && call.layout != Layout::ColMajor)
    throw Error(Status::InvalidLayout, "layout is " + std::to_string(int(call.layout)) +
                                           "; it must be 101 (row-major) or 102 (column-major)");
  check_type("a_type", call.a_type);
  check_type("c_type", call.c_type);
  quant_row_bytes(call.w.format, call.k);  // InvalidQuantFormat, QuantBlockMismatch
  check_index_range({call.m, call.n, call.k, call.a.ld, call.c.ld});
}

void check_quant_operands(const QuantGemmCall& call, cl_context queue_context, size_t a_stride, size_t w_stride_bytes,
                          size_t c_stride, size_t batch_count) {
  const bool row = call.layout == Layout::RowMajor;
  const char* major = row ? "row-major" : "column-major";
  std::vector<Footprint> inputs;
  if (reads_operands(call.k, call.alpha)) {
    const size_t a_inner = row ? call.k : call.m, a_outer = row ? call.m : call.k;
    if (call.a.ld < a_inner)
      throw Error(Status::InvalidLeadingDimension, "a_ld is " + str(call.a.ld) + " but must be at least " +
                                                       str(a_inner) + " (A is " + str(call.m) + "x" + str(call.k) +
                                                       ", " + major + ")");
    const size_t a_bytes = check_buffer(call.a.buffer, "a", queue_context, true, false);
    const ItemStarts a_items{batch_count, call.a.offset, a_stride};
    check_extent("a", "a_offset", a_bytes, a_outer, a_inner, call.a.ld, a_items, data_type_bytes(call.a_type));
    inputs.push_back({"a", call.a.buffer, a_outer, a_inner, call.a.ld, a_items, data_type_bytes(call.a_type)});

    const size_t payload = quant_row_bytes(call.w.format, call.k);
    if (call.w.row_bytes < payload)
      throw Error(Status::InvalidLeadingDimension, "w_row_bytes is " + str(call.w.row_bytes) + " but a row of " +
                                                       str(call.k) + " " + quant_format_name(call.w.format) +
                                                       " weights takes " + str(payload) + " bytes");
    const size_t w_bytes = check_buffer(call.w.buffer, "w", queue_context, true, false);
    const ItemStarts w_items{batch_count, call.w.offset, w_stride_bytes};
    check_extent("w", "w_offset_bytes", w_bytes, call.n, payload, call.w.row_bytes, w_items, 1);
    inputs.push_back({"w", call.w.buffer, call.n, payload, call.w.row_bytes, w_items, 1});
  }
  const size_t c_inner = row ? call.n : call.m, c_outer = row ? call.m : call.n;
  if (call.c.ld < c_inner)
    throw Error(Status::InvalidLeadingDimension, "c_ld is " + str(call.c.ld) + " but must be at least " +
                                                     str(c_inner) + " (C is " + str(call.m) + "x" + str(call.n) +
                                                     ", " + major + ")");
  const size_t c_bytes = check_buffer(call.c.buffer, "c", queue_context, call.beta != 0.0, true);
  const ItemStarts c_items{batch_count, call.c.offset, c_stride};
  check_extent("c", "c_offset", c_bytes, c_outer, c_inner, call.c.ld, c_items, data_type_bytes(call.c_type));
  check_no_overlap({"c", call.c.buffer, c_outer, c_inner, call.c.ld, c_items, data_type_bytes(call.c_type)}, inputs);
}

}  // namespace clgemm::detail
