// clblast_serve.cpp — CLBlast GEMM calls run by clgemm.
#include "dropin/clblast/clblast_serve.hpp"
#include "dropin/trace_env.hpp"

#include <clgemm/error.hpp>
#include <clgemm/gemm.hpp>

#include <cstdio>
#include <exception>
#include <string>

namespace clgemm::dropin {

namespace {

using clblast::StatusCode;

const char* transpose_letter(clblast::Transpose t) { return t == clblast::Transpose::kNo ? "N" : "T"; }

void trace(const char* routine, const ClblastGemmArgs& g, const ClblastBatch& batch, const std::string& outcome) {
  if (!tracing()) return;
  std::fprintf(stderr, "clgemm_clblast: %s %s %s%s %zux%zux%zu", routine,
               g.layout == clblast::Layout::kRowMajor ? "row-major" : "column-major", transpose_letter(g.a_transpose),
               transpose_letter(g.b_transpose), g.m, g.n, g.k);
  if (batch.form != ClblastBatch::Form::Single) std::fprintf(stderr, " x%zu", batch.count);
  std::fprintf(stderr, ": %s\n", outcome.c_str());
}

GemmCall to_call(const ClblastGemmArgs& g, DataType type) {
  GemmCall call;
  call.layout = g.layout == clblast::Layout::kRowMajor ? Layout::RowMajor : Layout::ColMajor;
  call.a_transpose = g.a_transpose == clblast::Transpose::kNo ? Transpose::No : Transpose::Yes;
  call.b_transpose = g.b_transpose == clblast::Transpose::kNo ? Transpose::No : Transpose::Yes;
  call.m = g.m, call.n = g.n, call.k = g.k;
  call.a = {g.a, 0, g.a_ld}, call.b = {g.b, 0, g.b_ld}, call.c = {g.c, 0, g.c_ld};
  call.a_type = call.b_type = call.c_type = type;
  return call;
}

}  // namespace

bool tracing() { return trace_requested(); }

StatusCode serve_gemm(const char* routine, ClblastGemmArgs g, const ClblastBatch& batch, DataType type,
                      cl_command_queue* queue, cl_event* event) {
  g.element_bytes = data_type_bytes(type);
  StatusCode s = check_queue(queue, g.element_bytes);
  if (s == StatusCode::kSuccess && batch.count < 1) s = StatusCode::kInvalidBatchCount;
  if (s == StatusCode::kSuccess && batch.form == ClblastBatch::Form::Strided && batch.c_stride == 0)
    s = StatusCode::kInvalidDimension;
  if (s == StatusCode::kSuccess) {
    const size_t n = batch.count;
    if (batch.form == ClblastBatch::Form::Listed) {
      g.a_last = largest(batch.a_offsets.data(), n), g.b_last = largest(batch.b_offsets.data(), n);
      g.c_last = largest(batch.c_offsets.data(), n);
      g.check_ab_ld = false;
    } else {
      g.a_last = batch.a_offsets.at(0) + (n - 1) * batch.a_stride;
      g.b_last = batch.b_offsets.at(0) + (n - 1) * batch.b_stride;
      g.c_last = batch.c_offsets.at(0) + (n - 1) * batch.c_stride;
    }
    s = check_gemm(g);
  }
  if (s != StatusCode::kSuccess) {
    trace(routine, g, batch, "refused as CLBlast refuses it, status " + std::to_string(int(s)));
    return s;
  }
  try {
    GemmCall call = to_call(g, type);
    if (batch.form == ClblastBatch::Form::Listed) {
      call.a.offset = call.b.offset = call.c.offset = 0;
      gemm_batched(call, batch.alphas, batch.betas, batch.a_offsets, batch.b_offsets, batch.c_offsets, *queue, event);
    } else {
      call.alpha = batch.alphas.at(0), call.beta = batch.betas.at(0);
      call.a.offset = batch.a_offsets.at(0), call.b.offset = batch.b_offsets.at(0), call.c.offset = batch.c_offsets.at(0);
      if (batch.form == ClblastBatch::Form::Strided)
        gemm_strided_batched(call, batch.a_stride, batch.b_stride, batch.c_stride, batch.count, *queue, event);
      else
        gemm(call, *queue, event);
    }
  } catch (const Error& e) {
    trace(routine, g, batch, std::string("clgemm failed: ") + e.what());
    return e.status() == Status::OutOfResources ? StatusCode::kOpenCLOutOfResources : StatusCode::kUnknownError;
  } catch (const std::exception& e) {
    trace(routine, g, batch, std::string("clgemm failed: ") + e.what());
    return StatusCode::kUnknownError;
  }
  trace(routine, g, batch, "served by clgemm");
  return StatusCode::kSuccess;
}

}  // namespace clgemm::dropin
