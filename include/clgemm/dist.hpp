// clgemm/dist.hpp — distributed GEMM over MPI in ScaLAPACK's 2D block-cyclic layout, in C++
// (the clgemm::dist component). The C form with ScaLAPACK's exact arguments is clgemm/dist.h.
//
// sub(C) = alpha·op(sub(A))·op(sub(B)) + beta·sub(C), with SUMMA over the descriptors' process
// grid: panels of op(A) travel along process rows and panels of op(B) along process columns
// (non-blocking MPI all-gathers, or a shared-memory window among the ranks of one host), several
// steps ahead of the local GEMMs, which are clgemm's on each rank's device. Operands whose layout
// does not line up with C's (other block sizes or first process, transposes on a grid of more
// than one process) are first moved into one that does, in one all-to-all. docs/distributed.md
// has the details.
#pragma once

#include <clgemm/context.hpp>
#include <clgemm/error.hpp>
#include <clgemm/gemm.hpp>
#include <clgemm/types.hpp>

#include <string>

namespace clgemm::dist {

// The nine entries of a ScaLAPACK array descriptor (DTYPE 1: dense, block-cyclic).
struct Descriptor {
  int dtype = 1, ctxt = -1, m = 0, n = 0, mb = 1, nb = 1, rsrc = 0, csrc = 0, lld = 1;
  static Descriptor from(const int* desc) {
    return {desc[0], desc[1], desc[2], desc[3], desc[4], desc[5], desc[6], desc[7], desc[8]};
  }
};

// A distributed matrix as one rank holds it: its local blocks (column-major, leading dimension
// desc.lld), in host memory or in a device buffer, and the 1-based global row and column (i, j)
// where the sub-matrix starts.
template <class T>
struct HostMatrix {
  T* data = nullptr;
  Descriptor desc;
  int i = 1, j = 1;
};
struct DeviceMatrix {
  cl_mem buffer = nullptr;
  size_t offset = 0;  // in elements
  Descriptor desc;
  int i = 1, j = 1;
};

// Where one call's time went on this rank, in seconds of wall time unless said otherwise.
struct Stats {
  double total = 0;          // the whole call
  double startup = 0;        // from the call's start until the first local GEMM was queued
  double compute = 0;        // device time of the local GEMMs (0 where the queue has no profiling)
  double gemm_span = 0;      // device time from the first local GEMM's start to the last one's end:
                             // more than `compute` where the device waited for panels
  double wait_comm = 0;      // blocked until panels from other ranks arrived
  double wait_device = 0;    // blocked until the device had taken a panel buffer (or finished)
  double pack = 0;           // host copies of panels: this rank's pieces out of its arrays, and the
                             // others' out of the shared-memory window (ranks of one host)
  double redistribute = 0;   // moving operands whose layout does not line up with C's
  double transfer_c = 0;     // moving C between host and device (host-resident form)
  double bytes_received = 0; // panel bytes that came from other ranks
  size_t steps = 0;          // panels along k
  size_t panel = 0;          // their width
};

struct Options {
  size_t panel = 0;         // k per SUMMA step; 0 = chosen from k (at most 1024)
  size_t host_buffers = 3;  // panels in flight on the host (2 to 8): how far communication runs ahead
  Stats* stats = nullptr;   // filled when set
  GemmOptions gemm;         // options of the local GEMMs
};

// A bad argument, with ScaLAPACK's INFO for it (-i, or -(i·100 + j) for entry j of descriptor i).
class ArgumentError : public Error {
 public:
  ArgumentError(int info, const std::string& message) : Error(Status::InvalidArgument, message), info_(info) {}
  int info() const { return info_; }

 private:
  int info_;
};

// ScaLAPACK's p?gemm on host-resident local blocks, on this rank's device (rank_context()).
// Throws ArgumentError for a bad argument, Error for other failures; C is unchanged then.
template <class T>
void pgemm(Transpose a_transpose, Transpose b_transpose, int m, int n, int k, T alpha, const HostMatrix<const T>& a,
           const HostMatrix<const T>& b, T beta, const HostMatrix<T>& c, const Options& options = {});

// The same with every rank's local blocks in buffers of the device of `queue` (f32 or f64).
void pgemm(Transpose a_transpose, Transpose b_transpose, int m, int n, int k, double alpha, const DeviceMatrix& a,
           const DeviceMatrix& b, double beta, const DeviceMatrix& c, DataType type, cl_command_queue queue,
           const Options& options = {});

// The device this rank computes on (see clgemm/dist.h), made on first use and kept.
Context& rank_context();
// Chooses it by index or name before first use, or again later; "" = the default. Throws
// Error(DeviceNotFound) when nothing matches.
void set_rank_device(const std::string& spec);
// This rank's index among the ranks of its host, from the MPI launcher's environment (0 if unknown).
int local_rank();

}  // namespace clgemm::dist
