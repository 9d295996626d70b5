// pgemm.cpp — clgemm::dist::pgemm, host- and device-resident: checks as ScaLAPACK does, lays the
// operands out for SUMMA, moves C's local block to the device and back where it lives on the host.
#include "dist/argument_checks.hpp"
#include "dist/host_staging.hpp"
#include "dist/operand_layout.hpp"
#include "dist/process_grid.hpp"
#include "dist/summa.hpp"
#include "dist/wall_clock.hpp"

#include <clgemm/dist.hpp>

#include <functional>
#include <string>

namespace clgemm::dist {
namespace {

const char* routine_name(DataType t) { return t == DataType::F64 ? "pdgemm" : "psgemm"; }

// The elements of a local array that hold data: up to the last local row of the last local column.
size_t local_extent(const Descriptor& d, const ProcessGrid& g) {
  const size_t rows = Axis{size_t(d.mb), d.rsrc, g.rows}.count(size_t(d.m), g.row);
  const size_t cols = Axis{size_t(d.nb), d.csrc, g.cols}.count(size_t(d.n), g.col);
  return rows == 0 || cols == 0 ? 0 : (cols - 1) * size_t(d.lld) + rows;
}

// sub(C) = beta·sub(C) on the host (alpha = 0 or k = 0); beta = 0 writes zeros without reading.
template <class T>
void scale_host(T* c, size_t ld, const CSpans& s, T beta) {
  for (size_t j = 0; j < s.local_cols; ++j) {
    T* col = c + (s.first_col + j) * ld + s.first_row;
    for (size_t i = 0; i < s.local_rows; ++i) col[i] = beta == T(0) ? T(0) : beta * col[i];
  }
}

struct Prepared {
  SummaProblem problem;
  LocalBlock a_moved, b_moved;
};

// Everything of the problem but its operands: sizes, scalars, C's block on the device, the grid.
void set_product(SummaProblem& p, DataType type, const CSpans& cs, int k, double alpha, double beta, cl_mem c,
                 size_t c_offset, size_t c_ld, const ProcessGrid& grid) {
  p.type = type;
  p.m = cs.local_rows;
  p.n = cs.local_cols;
  p.k = size_t(k);
  p.alpha = alpha;
  p.beta = beta;
  p.c = c;
  p.c_offset = c_offset;
  p.c_ld = c_ld;
  p.grid = grid.all;
}

// One operand as SUMMA reads it (A where is_a), moved where it does not line up with C. A
// device-resident operand (host null) that must move is read back whole through `fetch` first.
using Fetch = std::function<std::vector<char>(cl_mem, size_t, const Descriptor&)>;
KOperand lay_out(bool is_a, bool transposed, int m, int n, int k, const Descriptor& x, int ix, int jx, const char* host,
                 cl_mem buffer, size_t offset, const CSpans& cs, const ProcessGrid& grid, size_t elem,
                 const Fetch& fetch, LocalBlock& storage) {
  if (lines_up(is_a, x, ix, jx, transposed, m, n, cs, grid)) return in_place(is_a, host, buffer, offset, x, ix, jx, k, grid);
  std::vector<char> copy;
  if (!host) copy = fetch(buffer, offset, x);
  return moved(is_a, host ? host : copy.data(), x, ix, jx, transposed, k, cs, grid, elem, storage);
}

}  // namespace

template <class T>
void pgemm(Transpose a_transpose, Transpose b_transpose, int m, int n, int k, T alpha, const HostMatrix<const T>& a,
           const HostMatrix<const T>& b, T beta, const HostMatrix<T>& c, const Options& options) {
  const auto start = Clock::now();
  const DataType type = sizeof(T) == 8 ? DataType::F64 : DataType::F32;
  const char* routine = routine_name(type);
  check_pgemm_arguments(routine, a_transpose, b_transpose, m, n, k, a.desc, a.i, a.j, b.desc, b.i, b.j, c.desc, c.i, c.j);
  // A null local array is fine on a process that holds none of the matrix, not elsewhere.
  const ProcessGrid place = grid_info(c.desc.ctxt);
  const struct {
    const void* data;
    const Descriptor& desc;
    int position;
    const char* name;
  } arrays[] = {{a.data, a.desc, 7, "A"}, {b.data, b.desc, 11, "B"}, {c.data, c.desc, 16, "C"}};
  for (const auto& x : arrays)
    if (!x.data && local_extent(x.desc, place) > 0)
      throw ArgumentError(-x.position, std::string(routine) + ": argument " + std::to_string(x.position) + " " + x.name +
                                           " is a null pointer, but this process holds " +
                                           std::to_string(local_extent(x.desc, place)) + " elements of its local array (INFO = " +
                                           std::to_string(-x.position) + ")");
  Stats local_stats;
  Stats& stats = options.stats ? *options.stats : local_stats;
  stats = Stats{};
  if (m == 0 || n == 0 || ((alpha == T(0) || k == 0) && beta == T(1))) return;

  const ProcessGrid grid = process_grid(c.desc.ctxt);
  const CSpans cs = c_spans(c.desc, c.i, c.j, m, n, grid);
  if (alpha == T(0) || k == 0) {
    scale_host(c.data, size_t(c.desc.lld), cs, beta);
    stats.total = seconds_since(start);
    return;
  }
  Context& context = rank_context();
  const auto lock = workspace_lock();
  Workspace& ws = Workspace::of(context.queue()());
  const size_t elem = sizeof(T);
  Prepared p;
  auto t = Clock::now();
  p.problem.a = lay_out(true, a_transpose == Transpose::Yes, m, n, k, a.desc, a.i, a.j,
                        reinterpret_cast<const char*>(a.data), nullptr, 0, cs, grid, elem, nullptr, p.a_moved);
  p.problem.b = lay_out(false, b_transpose == Transpose::Yes, m, n, k, b.desc, b.i, b.j,
                        reinterpret_cast<const char*>(b.data), nullptr, 0, cs, grid, elem, nullptr, p.b_moved);
  stats.redistribute += seconds_since(t);

  const size_t c_ld = size_t(c.desc.lld);
  char* c_host = reinterpret_cast<char*>(c.data + cs.first_row + cs.first_col * c_ld);
  // C's block on the device: a workspace buffer of its own role (SUMMA's panels take 0 to 3).
  const cl::Buffer& c_device = ws.device(10, cs.local_rows * cs.local_cols * elem);
  t = Clock::now();
  if (beta != T(0))
    block_to_device(ws, ws.copy_queue(), c_host, c_ld, c_device, 0, std::max<size_t>(cs.local_rows, 1),
                    cs.local_rows, cs.local_cols, elem);
  stats.transfer_c += seconds_since(t);

  SummaProblem& problem = p.problem;
  set_product(problem, type, cs, k, double(alpha), double(beta), c_device(), 0, std::max<size_t>(cs.local_rows, 1), grid);
  stats.startup = seconds_since(start);
  run_summa(problem, context.queue()(), options, stats);

  t = Clock::now();
  block_to_host(ws, ws.copy_queue(), c_device, 0, problem.c_ld, c_host, c_ld, cs.local_rows,
                cs.local_cols, elem);
  stats.transfer_c += seconds_since(t);
  stats.total = seconds_since(start);
}

template void pgemm<float>(Transpose, Transpose, int, int, int, float, const HostMatrix<const float>&,
                           const HostMatrix<const float>&, float, const HostMatrix<float>&, const Options&);
template void pgemm<double>(Transpose, Transpose, int, int, int, double, const HostMatrix<const double>&,
                            const HostMatrix<const double>&, double, const HostMatrix<double>&, const Options&);

void pgemm(Transpose a_transpose, Transpose b_transpose, int m, int n, int k, double alpha, const DeviceMatrix& a,
           const DeviceMatrix& b, double beta, const DeviceMatrix& c, DataType type, cl_command_queue queue,
           const Options& options) {
  const auto start = Clock::now();
  if (type != DataType::F32 && type != DataType::F64)
    throw Error(Status::UnsupportedTypes, std::string("distributed GEMM computes f32 and f64, not ") + data_type_name(type));
  const char* routine = routine_name(type);
  check_pgemm_arguments(routine, a_transpose, b_transpose, m, n, k, a.desc, a.i, a.j, b.desc, b.i, b.j, c.desc, c.i, c.j);
  if (!queue) throw Error(Status::InvalidQueue, std::string(routine) + ": the queue is null");
  Stats local_stats;
  Stats& stats = options.stats ? *options.stats : local_stats;
  stats = Stats{};
  if (m == 0 || n == 0 || ((alpha == 0 || k == 0) && beta == 1)) return;

  const ProcessGrid grid = process_grid(c.desc.ctxt);
  const size_t elem = data_type_bytes(type);
  // Every buffer must hold its local array: a short one would be read or written past its end.
  for (const auto* x : {&a, &b, &c}) {
    const size_t need = (x->offset + local_extent(x->desc, grid)) * elem;
    size_t have = 0;
    if (!x->buffer || clGetMemObjectInfo(x->buffer, CL_MEM_SIZE, sizeof have, &have, nullptr) != CL_SUCCESS)
      throw Error(Status::InvalidBuffer, std::string(routine) + ": the buffer of " + (x == &a ? "A" : x == &b ? "B" : "C") +
                                             " is null or not a memory object");
    if (local_extent(x->desc, grid) > 0 && have < need)
      throw Error(Status::BufferTooSmall, std::string(routine) + ": the buffer of " + (x == &a ? "A" : x == &b ? "B" : "C") +
                                              " has " + std::to_string(have) + " bytes; its local array needs " +
                                              std::to_string(need));
  }
  const CSpans cs = c_spans(c.desc, c.i, c.j, m, n, grid);
  const size_t c_offset = c.offset + cs.first_row + cs.first_col * size_t(c.desc.lld);
  if (alpha == 0 || k == 0) {
    if (cs.local_rows > 0 && cs.local_cols > 0) {
      GemmCall call;
      call.layout = Layout::ColMajor;
      call.m = cs.local_rows;
      call.n = cs.local_cols;
      call.k = 0;
      call.beta = beta;
      call.a = {c.buffer, 0, cs.local_rows};
      call.b = {c.buffer, 0, 1};
      call.c = {c.buffer, c_offset, size_t(c.desc.lld)};
      call.a_type = call.b_type = call.c_type = type;
      gemm(call, queue, nullptr, options.gemm);
      clFinish(queue);
    }
    stats.total = seconds_since(start);
    return;
  }

  // The caller's commands on `queue` may still be writing A, B or C; the panels are read on other
  // queues, which do not wait for them.
  if (clFinish(queue) != CL_SUCCESS) throw Error(Status::OpenCLError, std::string(routine) + ": the queue failed");
  // Operands that must move are read back to the host first, whole local arrays.
  auto fetch = [&](cl_mem buffer, size_t offset, const Descriptor& d) {
    std::vector<char> host(std::max<size_t>(local_extent(d, grid), 1) * elem);
    if (local_extent(d, grid) > 0 &&
        clEnqueueReadBuffer(queue, buffer, CL_TRUE, offset * elem, local_extent(d, grid) * elem, host.data(), 0, nullptr,
                            nullptr) != CL_SUCCESS)
      throw Error(Status::OpenCLError, std::string(routine) + ": reading an operand's local array back failed");
    return host;
  };
  Prepared p;
  const auto t = Clock::now();
  p.problem.a = lay_out(true, a_transpose == Transpose::Yes, m, n, k, a.desc, a.i, a.j, nullptr, a.buffer, a.offset, cs,
                        grid, elem, fetch, p.a_moved);
  p.problem.b = lay_out(false, b_transpose == Transpose::Yes, m, n, k, b.desc, b.i, b.j, nullptr, b.buffer, b.offset, cs,
                        grid, elem, fetch, p.b_moved);
  stats.redistribute += seconds_since(t);
  SummaProblem& problem = p.problem;
  set_product(problem, type, cs, k, alpha, beta, c.buffer, c_offset, size_t(c.desc.lld), grid);
  const auto lock = workspace_lock();
  stats.startup = seconds_since(start);
  run_summa(problem, queue, options, stats);
  stats.total = seconds_since(start);
}

}  // namespace clgemm::dist
