// dist_test.cpp — clgemm_psgemm / clgemm_pdgemm and clgemm::dist::pgemm under mpirun, on the grid
// that --grid names (ranks beyond it take no part in the grid, as BLACS leaves them). Each case
// fills the distributed A, B and C from a seeded function of the global indices, runs clgemm and
// ScaLAPACK's own p?gemm_ on the same local blocks, and checks on every rank:
//   - clgemm's sub(C) against a float64 reference, and against ScaLAPACK's within the tolerance;
//   - every other element of the local arrays of C (the rest of C, the rows between the local
//     rows and LLD, guard zones before and after) bit for bit unchanged, and A and B unchanged.
// --errors runs the argument checks instead. Exit status 0 only if every rank passed every case.
#include "bench/block_cyclic_matrix.hpp"
#include "bench/scalapack.hpp"

#include <clgemm/dist.h>
#include <clgemm/dist.hpp>

#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

namespace {

constexpr size_t kGuard = 16;  // elements before and after every local array

struct Grid {
  int context = -1, rows = 0, cols = 0, row = -1, col = -1;
  bool member() const { return context >= 0 && row >= 0; }
};

// A value in [-1, 1) from the matrix's seed and the global position (the benchmark's function).
double value(uint64_t seed, int i, int j) { return clgemm::bench::element(seed, size_t(i), size_t(j)); }

// One distributed matrix on this rank: descriptor, local array with guards.
template <class T>
struct Local {
  int desc[9] = {};
  int local_rows = 0, local_cols = 0;
  std::vector<T> storage;  // kGuard, then lld * local_cols, then kGuard
  T* data() { return storage.data() + kGuard; }

  Local(const Grid& g, int m, int n, int mb, int nb, int rsrc, int csrc, int pad, uint64_t seed, T fill_pad) {
    local_rows = numroc_(&m, &mb, &g.row, &rsrc, &g.rows);
    local_cols = numroc_(&n, &nb, &g.col, &csrc, &g.cols);
    const int lld = std::max(1, local_rows) + pad;
    const int d[9] = {1, g.context, m, n, mb, nb, rsrc, csrc, lld};
    std::copy(d, d + 9, desc);
    storage.assign(kGuard * 2 + size_t(lld) * size_t(std::max(local_cols, 1)), fill_pad);
    for (int lj = 0; lj < local_cols; ++lj)
      for (int li = 0; li < local_rows; ++li)
        data()[li + size_t(lj) * lld] = T(value(seed, global(li, mb, g.row, rsrc, g.rows), global(lj, nb, g.col, csrc, g.cols)));
  }
  static int global(int l, int nb, int p, int src, int procs) {
    return (l / nb * procs + (p - src + procs) % procs) * nb + l % nb;
  }
  int grow(int li, const Grid& g) const { return global(li, desc[4], g.row, desc[6], g.rows); }
  int gcol(int lj, const Grid& g) const { return global(lj, desc[5], g.col, desc[7], g.cols); }
};

struct Case {
  const char* name;
  char ta, tb;
  int m, n, k;
  int ia, ja, ib, jb, ic, jc;  // 1-based sub-matrix corners
  int amb, anb, bmb, bnb, cmb, cnb;
  int rsrc, csrc;              // of C; A and B start at process (0, 0)
  double alpha, beta;
  int form;                    // 0: C API; 1: C++ host form, narrow panels; 2: C++ device form
};

// Global sizes of op's storage for a sub-matrix at (i, j) of rows x cols, with a margin.
int extent(int start, int len) { return start - 1 + len + 3; }

int failures = 0;
void fail(const std::string& what) {
  ++failures;
  std::fprintf(stderr, "FAIL: %s\n", what.c_str());
}

template <class T>
bool same_bits(T a, T b) { return std::memcmp(&a, &b, sizeof(T)) == 0; }

template <class T>
int call_clgemm(const Case& c, Local<T>& A, Local<T>& B, Local<T>& C, T alpha, T beta) {
  const char ta[2] = {c.ta, 0}, tb[2] = {c.tb, 0};
  if (c.form == 0) {
    if constexpr (sizeof(T) == 4)
      return clgemm_psgemm(ta, tb, &c.m, &c.n, &c.k, &alpha, A.data(), &c.ia, &c.ja, A.desc, B.data(), &c.ib, &c.jb,
                           B.desc, &beta, C.data(), &c.ic, &c.jc, C.desc);
    else
      return clgemm_pdgemm(ta, tb, &c.m, &c.n, &c.k, &alpha, A.data(), &c.ia, &c.ja, A.desc, B.data(), &c.ib, &c.jb,
                           B.desc, &beta, C.data(), &c.ic, &c.jc, C.desc);
  }
  using namespace clgemm::dist;
  const clgemm::Transpose tra = c.ta == 'N' ? clgemm::Transpose::No : clgemm::Transpose::Yes;
  const clgemm::Transpose trb = c.tb == 'N' ? clgemm::Transpose::No : clgemm::Transpose::Yes;
  Options o;
  o.panel = 5;  // many steps, and runs that end inside blocks
  o.host_buffers = 2;
  try {
    if (c.form == 1) {
      pgemm<T>(tra, trb, c.m, c.n, c.k, alpha, HostMatrix<const T>{A.data(), Descriptor::from(A.desc), c.ia, c.ja},
               HostMatrix<const T>{B.data(), Descriptor::from(B.desc), c.ib, c.jb}, beta,
               HostMatrix<T>{C.data(), Descriptor::from(C.desc), c.ic, c.jc}, o);
      return 0;
    }
    // Device form: the local arrays (guards included) in buffers of this rank's device.
    clgemm::Context& ctx = rank_context();
    auto upload = [&](Local<T>& x) {
      cl::Buffer b(ctx.context(), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, x.storage.size() * sizeof(T), x.storage.data());
      return b;
    };
    cl::Buffer da = upload(A), db = upload(B), dc = upload(C);
    const clgemm::DataType type = sizeof(T) == 8 ? clgemm::DataType::F64 : clgemm::DataType::F32;
    pgemm(tra, trb, c.m, c.n, c.k, double(alpha), DeviceMatrix{da(), kGuard, Descriptor::from(A.desc), c.ia, c.ja},
          DeviceMatrix{db(), kGuard, Descriptor::from(B.desc), c.ib, c.jb}, double(beta),
          DeviceMatrix{dc(), kGuard, Descriptor::from(C.desc), c.ic, c.jc}, type, ctx.queue()(), o);
    ctx.queue().enqueueReadBuffer(dc, CL_TRUE, 0, C.storage.size() * sizeof(T), C.storage.data());
    return 0;
  } catch (const clgemm::Error& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 1;
  }
}

template <class T>
void run_case(const Case& c, const Grid& g, uint64_t seed) {
  const bool ta = c.ta != 'N', tb = c.tb != 'N';
  const int a_rows = extent(c.ia, ta ? c.k : c.m), a_cols = extent(c.ja, ta ? c.m : c.k);
  const int b_rows = extent(c.ib, tb ? c.n : c.k), b_cols = extent(c.jb, tb ? c.k : c.n);
  const int c_rows = extent(c.ic, c.m), c_cols = extent(c.jc, c.n);
  const T sentinel = T(-777.25);
  Local<T> A(g, a_rows, a_cols, c.amb, c.anb, 0, 0, 2, seed, sentinel);
  Local<T> B(g, b_rows, b_cols, c.bmb, c.bnb, 0, 0, 1, seed + 1, sentinel);
  Local<T> C(g, c_rows, c_cols, c.cmb, c.cnb, c.rsrc, c.csrc, 3, seed + 2, sentinel);
  // beta = 0: C must not be read, so clgemm's C holds NaN there; ScaLAPACK's keeps the numbers.
  Local<T> C_ref = C;
  if (c.beta == 0)
    for (auto& x : C.storage)
      if (x != sentinel) x = std::numeric_limits<T>::quiet_NaN();
  const Local<T> C_before = C;
  const std::vector<T> A_before = A.storage, B_before = B.storage;
  const T alpha = T(c.alpha), beta = T(c.beta);

  const int info = call_clgemm(c, A, B, C, alpha, beta);
  if (info != 0) fail(std::string(c.name) + ": clgemm returned " + std::to_string(info) + ": " + clgemm_dist_error_message());
  const char tra[2] = {c.ta, 0}, trb[2] = {c.tb, 0};
  if constexpr (sizeof(T) == 4)
    psgemm_(tra, trb, &c.m, &c.n, &c.k, &alpha, A.data(), &c.ia, &c.ja, A.desc, B.data(), &c.ib, &c.jb, B.desc, &beta,
            C_ref.data(), &c.ic, &c.jc, C_ref.desc);
  else
    pdgemm_(tra, trb, &c.m, &c.n, &c.k, &alpha, A.data(), &c.ia, &c.ja, A.desc, B.data(), &c.ib, &c.jb, B.desc, &beta,
            C_ref.data(), &c.ic, &c.jc, C_ref.desc);

  if (A.storage != A_before || B.storage != B_before) fail(std::string(c.name) + ": A or B changed");
  const double eps = std::numeric_limits<T>::epsilon();
  const int lld = C.desc[8];
  int bad = 0;
  for (size_t s = 0; s < C.storage.size(); ++s) {
    const bool in_array = s >= kGuard && s < C.storage.size() - kGuard;
    const size_t l = s - kGuard;
    const int li = in_array ? int(l % size_t(lld)) : -1, lj = in_array ? int(l / size_t(lld)) : -1;
    const bool data = in_array && li < C.local_rows && lj < C.local_cols;
    const int gi = data ? C.grow(li, g) : -1, gj = data ? C.gcol(lj, g) : -1;
    const bool inside = data && gi >= c.ic - 1 && gi < c.ic - 1 + c.m && gj >= c.jc - 1 && gj < c.jc - 1 + c.n;
    if (!inside) {
      if (!same_bits(C.storage[s], C_before.storage[s]) && bad++ < 5)
        fail(std::string(c.name) + ": element " + std::to_string(s) + " outside sub(C) changed");
      continue;
    }
    // float64 reference from the stored (rounded) values of A, B and C.
    const int i = gi - (c.ic - 1), j = gj - (c.jc - 1);
    double sum = 0, mag = 0;
    for (int t = 0; t < c.k; ++t) {
      const double av = double(T(ta ? value(seed, c.ia - 1 + t, c.ja - 1 + i) : value(seed, c.ia - 1 + i, c.ja - 1 + t)));
      const double bv = double(T(tb ? value(seed + 1, c.ib - 1 + j, c.jb - 1 + t) : value(seed + 1, c.ib - 1 + t, c.jb - 1 + j)));
      sum += av * bv;
      mag += std::fabs(av * bv);
    }
    const double c0 = double(T(value(seed + 2, gi, gj)));
    const double ref = c.alpha * sum + (c.beta == 0 ? 0.0 : c.beta * c0);
    const double tol = 4 * eps * ((c.k + 2) * std::fabs(c.alpha) * mag + std::fabs(c.beta * c0)) + 1e-300;
    const double got = double(C.storage[s]), scalapack = double(C_ref.storage[s]);
    if (!(std::fabs(got - ref) <= tol) && bad++ < 5)
      fail(std::string(c.name) + ": C(" + std::to_string(gi + 1) + "," + std::to_string(gj + 1) + ") = " +
           std::to_string(got) + ", float64 reference " + std::to_string(ref));
    if (!(std::fabs(got - scalapack) <= 2 * tol) && bad++ < 5)
      fail(std::string(c.name) + ": C(" + std::to_string(gi + 1) + "," + std::to_string(gj + 1) + ") = " +
           std::to_string(got) + ", ScaLAPACK " + std::to_string(scalapack));
  }
}

const Case kCases[] = {
    // name                          ta   tb   m    n    k   ia ja ib jb ic jc  amb anb bmb bnb cmb cnb rs cs alpha beta form
    {"square, blocks of 8",          'N', 'N', 65,  63,  67, 1, 1, 1, 1, 1, 1,  8,  8,  8,  8,  8,  8,  0, 0, 1.0, 0.0, 0},
    {"sub-matrices, blocks 7",       'N', 'N', 33,  29,  41, 3, 2, 5, 4, 2, 6,  7,  7,  7,  7,  7,  7,  0, 0, 0.5, -1.5, 0},
    {"A transposed, mixed blocks",   'T', 'N', 30,  31,  45, 2, 3, 1, 2, 4, 1,  5,  3,  7,  2,  4,  6,  0, 0, -1.0, 0.5, 0},
    {"B transposed, block 1",        'N', 'T', 19,  23,  17, 1, 2, 2, 1, 3, 2,  1,  1,  1,  1,  1,  1,  0, 0, 2.0, 1.0, 0},
    {"both transposed",              'T', 'T', 27,  22,  35, 2, 2, 3, 1, 1, 3,  4,  5,  6,  3,  5,  4,  0, 0, 1.0, -1.0, 0},
    {"block 64: some ranks own none",'N', 'N', 37,  41,  70, 1, 1, 1, 1, 1, 1, 64, 64, 64, 64, 64, 64,  0, 0, 1.0, 0.0, 0},
    {"C starts on the last process", 'N', 'N', 40,  44,  36, 1, 1, 1, 1, 2, 1,  6,  6,  6,  6,  6,  6, -1, -1, 1.0, 2.0, 0},
    {"k = 0 scales C",               'N', 'N', 21,  18,   0, 1, 1, 1, 1, 1, 1,  4,  4,  4,  4,  4,  4,  0, 0, 1.0, 3.0, 0},
    {"alpha = 0, beta = 0 zeroes C", 'N', 'N', 21,  18,  10, 1, 1, 1, 1, 2, 2,  4,  4,  4,  4,  4,  4,  0, 0, 0.0, 0.0, 0},
    {"one element",                  'N', 'N', 1,   1,    1, 2, 2, 2, 2, 2, 2,  1,  1,  1,  1,  1,  1,  0, 0, 1.0, 1.0, 0},
    {"C++ host form, panels of 5",   'N', 'N', 47,  52,  61, 1, 3, 2, 1, 1, 1,  8,  8,  8,  8,  8,  8,  0, 0, 1.0, 0.25, 1},
    {"C++ host form, transposed",    'T', 'T', 25,  26,  33, 1, 1, 1, 1, 1, 1,  3,  7,  5,  2,  4,  4,  0, 0, 1.5, 0.0, 1},
    {"C++ device form",              'N', 'N', 38,  35,  43, 2, 1, 1, 2, 3, 2,  8,  8,  8,  8,  8,  8,  0, 0, 1.0, -0.5, 2},
    {"C++ device form, moved",       'T', 'N', 31,  29,  27, 1, 1, 1, 1, 1, 1,  3,  5,  4,  6,  7,  2,  0, 0, 1.0, 0.0, 2},
    {"C++ device form, sub-matrices",'N', 'N', 45,  50,  66, 3, 4, 2, 3, 1, 2,  5,  5,  5,  5,  5,  5,  0, 0, -1.0, 1.0, 2},
};

// Argument errors: each case spoils one argument of a valid call and expects ScaLAPACK's INFO.
void run_errors(const Grid& g) {
  Local<double> A(g, 20, 20, 4, 4, 0, 0, 0, 1, 0.0), B(g, 20, 20, 4, 4, 0, 0, 0, 2, 0.0), C(g, 20, 20, 4, 4, 0, 0, 0, 3, 0.0);
  const std::vector<double> c_before = C.storage;
  int m = 10, n = 10, k = 10, one = 1;
  double alpha = 1, beta = 0;
  auto expect = [&](const char* what, int expected, const char* ta, const char* tb, const int* mm, const int* nn,
                    const int* kk, const int* ia, const int* desca, const int* jb, const int* descb, const int* descc,
                    bool null_alpha = false, bool null_a = false) {
    const int info = clgemm_pdgemm(ta, tb, mm, nn, kk, null_alpha ? nullptr : &alpha, null_a ? nullptr : A.data(), ia,
                                   &one, desca, B.data(),
                                   &one, jb, descb, &beta, C.data(), &one, &one, descc);
    const std::string message = clgemm_dist_error_message();
    if (info != expected)
      fail(std::string("errors: ") + what + ": INFO " + std::to_string(info) + ", expected " + std::to_string(expected) +
           " (" + message + ")");
    else if (message.find("INFO = " + std::to_string(expected)) == std::string::npos)
      fail(std::string("errors: ") + what + ": the message does not give the INFO: " + message);
    if (C.storage != c_before) fail(std::string("errors: ") + what + ": C was written");
  };
  auto spoiled = [](const int* desc, int entry, int value) {
    std::vector<int> d(desc, desc + 9);
    d[size_t(entry - 1)] = value;
    return d;
  };
  int minus = -1, zero = 0, big = 20;
  expect("TRANSA 'X'", -1, "X", "N", &m, &n, &k, &one, A.desc, &one, B.desc, C.desc);
  expect("TRANSB ''", -2, "N", "", &m, &n, &k, &one, A.desc, &one, B.desc, C.desc);
  expect("M < 0", -3, "N", "N", &minus, &n, &k, &one, A.desc, &one, B.desc, C.desc);
  expect("N < 0", -4, "N", "N", &m, &minus, &k, &one, A.desc, &one, B.desc, C.desc);
  expect("K < 0", -5, "N", "N", &m, &n, &minus, &one, A.desc, &one, B.desc, C.desc);
  expect("ALPHA null", -6, "N", "N", &m, &n, &k, &one, A.desc, &one, B.desc, C.desc, true);
  if (A.local_rows > 0 && A.local_cols > 0)
    expect("A null where this rank holds some of A", -7, "N", "N", &m, &n, &k, &one, A.desc, &one, B.desc, C.desc, false, true);
  expect("IA = 0", -8, "N", "N", &m, &n, &k, &zero, A.desc, &one, B.desc, C.desc);
  expect("IA past M_", -8, "N", "N", &m, &n, &k, &big, A.desc, &one, B.desc, C.desc);
  expect("JB past N_", -13, "N", "N", &m, &n, &k, &one, A.desc, &big, B.desc, C.desc);
  expect("DESCA(DTYPE_) = 2", -1001, "N", "N", &m, &n, &k, &one, spoiled(A.desc, 1, 2).data(), &one, B.desc, C.desc);
  expect("DESCB(CTXT_) other", -1402, "N", "N", &m, &n, &k, &one, A.desc, &one, spoiled(B.desc, 2, g.context + 7).data(), C.desc);
  expect("DESCA(M_) < 0", -1003, "N", "N", &m, &n, &k, &one, spoiled(A.desc, 3, -4).data(), &one, B.desc, C.desc);
  expect("DESCA(MB_) = 0", -1005, "N", "N", &m, &n, &k, &one, spoiled(A.desc, 5, 0).data(), &one, B.desc, C.desc);
  expect("DESCB(NB_) = 0", -1406, "N", "N", &m, &n, &k, &one, A.desc, &one, spoiled(B.desc, 6, 0).data(), C.desc);
  expect("DESCA(RSRC_) = nprow", -1007, "N", "N", &m, &n, &k, &one, spoiled(A.desc, 7, g.rows).data(), &one, B.desc, C.desc);
  expect("DESCB(CSRC_) < 0", -1408, "N", "N", &m, &n, &k, &one, A.desc, &one, spoiled(B.desc, 8, -1).data(), C.desc);
  expect("DESCC(LLD_) too small", -1909, "N", "N", &m, &n, &k, &one, A.desc, &one, B.desc,
         spoiled(C.desc, 9, C.local_rows > 1 ? C.local_rows - 1 : 0).data());
  expect("DESCC(CTXT_) not a grid", -1902, "N", "N", &m, &n, &k, &one, A.desc, &one, B.desc, spoiled(C.desc, 2, 9999).data());
}

// This rank's index on its host as the launcher's environment gives it (which picks its GPU),
// against MPI's own split of the ranks by host.
void check_local_rank() {
  MPI_Comm node = MPI_COMM_NULL;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  int on_host = 0;
  MPI_Comm_rank(node, &on_host);
  MPI_Comm_free(&node);
  if (clgemm::dist::local_rank() != on_host)
    fail("local_rank() = " + std::to_string(clgemm::dist::local_rank()) + ", MPI places this rank at " +
         std::to_string(on_host) + " on its host");
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int rows = 1, cols = size;
  bool errors = false;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--grid" && i + 1 < argc) std::sscanf(argv[++i], "%dx%d", &rows, &cols);
    else if (a == "--errors") errors = true;
  }
  if (rows * cols > size) {
    if (rank == 0) std::fprintf(stderr, "--grid %dx%d needs %d ranks, not %d\n", rows, cols, rows * cols, size);
    MPI_Finalize();
    return 2;
  }
  check_local_rank();
  Grid g;
  int me = 0, procs = 0;
  Cblacs_pinfo(&me, &procs);
  Cblacs_get(-1, 0, &g.context);
  Cblacs_gridinit(&g.context, "Row", rows, cols);
  if (g.context >= 0) Cblacs_gridinfo(g.context, &g.rows, &g.cols, &g.row, &g.col);

  if (g.member()) {
    if (errors) {
      run_errors(g);
    } else {
      uint64_t seed = 1000;
      for (const Case& base : kCases) {
        for (int precision = 0; precision < 2; ++precision) {
          Case c = base;
          // A C that starts on the last process of each grid dimension.
          if (c.rsrc < 0) c.rsrc = g.rows - 1;
          if (c.csrc < 0) c.csrc = g.cols - 1;
          const int before = failures;
          if (precision == 0) run_case<float>(c, g, seed); else run_case<double>(c, g, seed);
          seed += 10;
          if (failures != before) std::fprintf(stderr, "  in case '%s' (%s) on rank %d\n", c.name, precision ? "f64" : "f32", rank);
        }
      }
    }
    Cblacs_gridexit(g.context);
  }
  int total = 0;
  MPI_Allreduce(&failures, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0)
    std::printf("%s on a %dx%d grid of %d ranks: %s (%d failures)\n", errors ? "argument checks" : "distributed GEMM",
                rows, cols, size, total == 0 ? "passed" : "FAILED", total);
  MPI_Finalize();
  return total == 0 ? 0 : 1;
}
