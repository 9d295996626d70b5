// summa.cpp — the pipelined SUMMA loop. Step s moves through: pack (this process's share of the
// panels into pinned host memory) → all-gather along the row (A) and the column (B) →
// uploads into one of two device panel buffers → the local GEMM. Host buffers are reused once
// their uploads are done, device buffers once the GEMM that read them is done; non-blocking MPI
// collectives need MPI calls to move, so every wait polls them. Where a row (or column) of the
// grid lies on one host, its pieces go through a shared-memory window (node_exchange.hpp)
// instead of the all-gather; where the driver pins that window, they are uploaded straight out of
// it, and this process announces that it has read a step once those uploads are done.
#include "dist/summa.hpp"

#include "dist/device_copies.hpp"
#include "dist/host_staging.hpp"
#include "dist/node_exchange.hpp"
#include "dist/wall_clock.hpp"

#include <clgemm/error.hpp>

#include <algorithm>
#include <climits>
#include <deque>
#include <memory>
#include <string>
#include <vector>

namespace clgemm::dist {
namespace {

size_t choose_panel(const SummaProblem& p, const Options& o) {
  size_t w = o.panel;
  if (w == 0) {
    // About eight steps, so that the first panel's transfer, which nothing hides, is a small part;
    // wide enough for full-speed local GEMMs; at most 1024.
    const size_t eighth = (p.k + 7) / 8;
    w = std::clamp<size_t>((eighth + 127) / 128 * 128, 128, 1024);
  }
  // An all-gather counts elements in an int.
  const size_t widest_side = std::max<size_t>({p.m, p.n, 1});
  w = std::min(w, std::max<size_t>(size_t(INT_MAX) / widest_side, 1));
  return std::clamp<size_t>(w, 1, std::max<size_t>(p.k, 1));
}

// A command's execution status: CL_COMPLETE for no event, negative where it failed or cannot be read.
cl_int event_status(cl_event e) {
  cl_int status = CL_COMPLETE;
  if (e && clGetEventInfo(e, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, nullptr) != CL_SUCCESS) status = -1;
  return status;
}

bool event_done(cl_event e) {
  const cl_int status = event_status(e);
  if (status < 0) throw Error(Status::OpenCLError, "a command of the distributed GEMM failed on the device");
  return status == CL_COMPLETE;
}

// One operand's share of a step: how much each process along k contributes, where in the
// gathered buffer, and this process's part of its local array.
struct PieceLayout {
  std::vector<int> counts, displs;  // elements, per process along k
  size_t my_first = 0, my_count = 0;  // this process's local k indices [my_first, my_first + my_count)
};

PieceLayout piece_layout(const KOperand& x, size_t k0, size_t k1, size_t fixed) {
  int procs = 1;
  MPI_Comm_size(x.comm, &procs);
  PieceLayout l;
  l.counts.resize(size_t(procs));
  l.displs.resize(size_t(procs));
  size_t at = 0;
  for (int q = 0; q < procs; ++q) {
    const size_t c = x.k.local_count(k0, k1, q) * fixed;
    l.counts[size_t(q)] = int(c);
    l.displs[size_t(q)] = int(at);
    at += c;
  }
  l.my_first = x.k.local_begin(k0, x.k_me);
  l.my_count = x.k.local_count(k0, k1, x.k_me);
  return l;
}

// The buffers of one step in flight on the host.
struct HostSlot {
  PinnedBuffer* a = nullptr;
  PinnedBuffer* b = nullptr;
  PieceLayout la, lb;
  MPI_Request requests[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
  cl_event uploaded = nullptr;  // the last upload out of this slot
};

class Summa {
 public:
  Summa(const SummaProblem& p, cl_command_queue queue, const Options& o, Stats& stats)
      : p_(p), queue_(queue), options_(o), stats_(stats), elem_(data_type_bytes(p.type)),
        mpi_type_(p.type == DataType::F64 ? MPI_DOUBLE : MPI_FLOAT) {
    panel_ = choose_panel(p, o);
    steps_ = (p.k + panel_ - 1) / panel_;
    slots_count_ = std::clamp<size_t>(o.host_buffers, 2, 8);
    stats_.panel = panel_;
    stats_.steps = steps_;
  }

  ~Summa() {
    for (auto& r : reads_)
      if (r.second) clReleaseEvent(r.second);
    for (auto& s : slots_)
      if (s.uploaded) clReleaseEvent(s.uploaded);
    for (cl_event e : gemm_done_)
      if (e) clReleaseEvent(e);
  }

  // A device failure on one process must not leave the others waiting in a collective: the
  // process that meets it stops its device work but takes part in every remaining all-gather,
  // and all of them learn of the failure in a vote at the end and throw.
  void run(MPI_Comm grid_comm) {
    started_ = Clock::now();
    allocate_everywhere(grid_comm);
    // Step s + ahead is packed and posted once step s's uploads are queued: the device starts
    // after one step's packing, not after all the steps in flight.
    const size_t ahead = slots_count_ - 1;
    size_t posted = 0;
    if (steps_ > 0) post(posted++);
    for (size_t s = 0; s < steps_; ++s) {
      HostSlot& slot = slots_[s % slots_count_];
      const auto t = Clock::now();
      wait_until([&] {
        for (int i = 0; i < 2; ++i)
          if (node_[i] ? !node_[i]->published(s) : slot.requests[i] != MPI_REQUEST_NULL) return false;
        return true;
      });
      stats_.wait_comm += seconds_since(t);
      // From a window the driver does not pin into this step's pinned buffers, every process's piece.
      const auto tg = Clock::now();
      if (node_[0] && !direct_[0]) node_[0]->gather(s, slot.la.counts, slot.la.displs, elem_, slot.a->data());
      if (node_[1] && !direct_[1]) node_[1]->gather(s, slot.lb.counts, slot.lb.displs, elem_, slot.b->data());
      stats_.pack += seconds_since(tg);
      cl_event uploaded = nullptr;
      device_work([&] {
        upload_and_multiply(s);
        uploaded = slot.uploaded;
      });
      read_after(s, uploaded);
      while (posted < steps_ && posted <= s + ahead) post(posted++);
    }
    const auto t = Clock::now();
    device_work([&] { check_cl(clFinish(queue_), "waiting for the local GEMMs"); });
    stats_.wait_device += seconds_since(t);
    // Every process announces every step it read, also after a failure: the others wait for it.
    for (auto& r : reads_) {
      if (r.second) clWaitForEvents(1, &r.second);
      announce_read(r.first);
      if (r.second) clReleaseEvent(r.second);
    }
    reads_.clear();
    int ok = failure_.empty() ? 1 : 0, all_ok = 0;
    MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, grid_comm);
    if (!ok) throw Error(failure_status_, failure_);
    if (!all_ok) throw Error(Status::OpenCLError, "the distributed GEMM failed on another process of the grid");
    if (profiling_) {
      std::vector<cl::Event> all;
      for (auto& events : gemm_events_) {
        stats_.compute += elapsed_seconds(events);
        all.insert(all.end(), events.begin(), events.end());
      }
      stats_.gemm_span = elapsed_seconds(all);
    }
  }

 private:
  // Pinned host slots and device panels; every process learns whether all could allocate, so
  // that none waits forever on a collective another will never join.
  void allocate_everywhere(MPI_Comm grid_comm) {
    node_[0] = NodeExchange::open(p_.a.comm, slots_count_, p_.m * panel_ * elem_);
    node_[1] = NodeExchange::open(p_.b.comm, slots_count_, panel_ * p_.n * elem_);
    std::string failure;
    Status status = Status::OutOfResources;
    try {
      cl_command_queue_properties props = 0;
      check_cl(clGetCommandQueueInfo(queue_, CL_QUEUE_PROPERTIES, sizeof props, &props, nullptr), "reading the queue's properties");
      profiling_ = (props & CL_QUEUE_PROFILING_ENABLE) != 0;
      Workspace& ws = Workspace::of(queue_);
      copy_queue_ = ws.copy_queue();
      read_queue_ = ws.read_queue();
      for (int i = 0; i < 2; ++i) direct_[i] = node_[i] && node_[i]->register_with(ws.context());
      slots_.resize(slots_count_);
      for (size_t i = 0; i < slots_count_; ++i) {
        if (!direct_[0]) slots_[i].a = &ws.pinned(2 * i, p_.m * panel_ * elem_);
        if (!direct_[1]) slots_[i].b = &ws.pinned(2 * i + 1, panel_ * p_.n * elem_);
      }
      for (size_t d = 0; d < 2; ++d) {
        panels_a_[d] = ws.device(2 * d, p_.m * panel_ * elem_);
        // A pitch more: the rectangle writes into it are checked as if their first row's offset
        // were followed by whole pitches.
        panels_b_[d] = ws.device(2 * d + 1, (panel_ * p_.n + panel_) * elem_);
      }
    } catch (const Error& e) {
      failure = e.what();
      status = e.status();
    } catch (const cl::Error& e) {
      failure = std::string("allocating the panel buffers: ") + e.what() + " (OpenCL error " + std::to_string(e.err()) + ")";
    } catch (const std::bad_alloc&) {
      failure = "allocating the panel buffers: out of host memory";
    }
    int ok = failure.empty() ? 1 : 0, all_ok = 0;
    MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, grid_comm);
    if (!ok) throw Error(status, failure);
    if (!all_ok) throw Error(Status::OutOfResources, "another process of the grid could not allocate its panel buffers");
  }

  void announce_read(size_t s) {
    for (int i = 0; i < 2; ++i)
      if (direct_[i]) node_[i]->read(s);
  }

  // Where pieces are uploaded straight out of the window, step s is read once its uploads are
  // done; `uploaded` (the last of them) is null where there were none or the device failed.
  // Announced in the order of the steps.
  void read_after(size_t s, cl_event uploaded) {
    if (!direct_[0] && !direct_[1]) return;
    if (uploaded) clRetainEvent(uploaded);
    reads_.emplace_back(s, uploaded);
  }

  // A finished upload, or a failed one (kept for the vote): either way the window is not read
  // any more.
  bool upload_over(cl_event e) {
    const cl_int status = event_status(e);
    if (status < 0 && failure_.empty()) {
      failure_ = "uploading a panel failed (OpenCL status " + std::to_string(status) + ")";
      failure_status_ = Status::OpenCLError;
    }
    return status <= CL_COMPLETE;
  }

  // Runs device work unless an earlier step failed; a failure is kept for the vote.
  template <class Work>
  void device_work(Work work) {
    if (!failure_.empty()) return;
    try {
      work();
    } catch (const Error& e) {
      failure_ = e.what();
      failure_status_ = e.status();
    } catch (const cl::Error& e) {
      failure_ = std::string("OpenCL error ") + std::to_string(e.err()) + " in " + e.what();
      failure_status_ = Status::OpenCLError;
    }
  }

  void poll_mpi() {
    while (!reads_.empty() && upload_over(reads_.front().second)) {
      announce_read(reads_.front().first);
      if (reads_.front().second) clReleaseEvent(reads_.front().second);
      reads_.pop_front();
    }
    for (auto& node : node_)
      if (node) node->poll();
    for (auto& s : slots_) {
      for (auto& r : s.requests) {
        if (r == MPI_REQUEST_NULL) continue;
        int done = 0;
        if (MPI_Test(&r, &done, MPI_STATUS_IGNORE) != MPI_SUCCESS)
          throw Error(Status::InternalError, "an MPI all-gather of panels failed");
      }
    }
  }

  // Polls without sleeping: where MPI moves large messages through shared-memory fragments, each
  // test moves only a few, so the all-gathers run as fast as this loop turns.
  template <class Ready>
  void wait_until(Ready ready) {
    for (;;) {
      poll_mpi();
      if (ready()) return;
    }
  }

  // This process's piece of operand x into dst, for the other processes along k (and for this
  // one's uploads where x is in host memory; a device array goes into the panel on the device).
  void pack_piece(const KOperand& x, bool is_a, const PieceLayout& l, char* dst) {
    const size_t fixed = is_a ? p_.m : p_.n;
    if (l.my_count == 0 || fixed == 0 || (x.buffer && l.counts.size() == 1)) return;
    // A: rows fixed_start.. (m of them) of local columns my_first..; B: local rows my_first.. of
    // columns fixed_start.. (n of them). Both land packed, column-major.
    const size_t rows = is_a ? p_.m : l.my_count, cols = is_a ? l.my_count : p_.n;
    const size_t origin = is_a ? x.offset + x.fixed_start + l.my_first * x.ld : x.offset + l.my_first + x.fixed_start * x.ld;
    if (x.host) {
      copy_columns(x.host + origin * elem_, x.ld, dst, rows, rows, cols, elem_);
    } else {
      read_columns(read_queue_(), x.buffer, origin, x.ld, rows, cols, elem_, dst);
    }
  }

  // Packs this process's share of step s and starts the two all-gathers.
  void post(size_t s) {
    HostSlot& slot = slots_[s % slots_count_];
    const auto t = Clock::now();
    device_work([&] { wait_until([&] { return event_done(slot.uploaded); }); });  // the slot's last uploads are done
    stats_.wait_device += seconds_since(t);
    const size_t k0 = s * panel_, k1 = std::min(p_.k, k0 + panel_);
    slot.la = piece_layout(p_.a, k0, k1, p_.m);
    slot.lb = piece_layout(p_.b, k0, k1, p_.n);
    int me_a = 0, me_b = 0;
    MPI_Comm_rank(p_.a.comm, &me_a);
    MPI_Comm_rank(p_.b.comm, &me_b);
    // The piece goes into this process's slot of the window, or in place into the buffer that
    // the all-gather fills; a window slot is free once every process has read its last step.
    const auto tw = Clock::now();
    for (auto& node : node_)
      if (node) wait_until([&] { return node->released(s); });
    stats_.wait_comm += seconds_since(tw);
    char* own_a = node_[0] ? node_[0]->slot(s) : slot.a->data() + size_t(slot.la.displs[size_t(me_a)]) * elem_;
    char* own_b = node_[1] ? node_[1]->slot(s) : slot.b->data() + size_t(slot.lb.displs[size_t(me_b)]) * elem_;
    const auto tp = Clock::now();
    device_work([&] {
      pack_piece(p_.a, true, slot.la, own_a);
      pack_piece(p_.b, false, slot.lb, own_b);
    });
    stats_.pack += seconds_since(tp);
    const PieceLayout* layouts[2] = {&slot.la, &slot.lb};
    PinnedBuffer* buffers[2] = {slot.a, slot.b};
    const KOperand* operands[2] = {&p_.a, &p_.b};
    for (int i = 0; i < 2; ++i) {
      if (node_[i]) {
        node_[i]->publish(s);
      } else if (MPI_Iallgatherv(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, buffers[i]->data(), layouts[i]->counts.data(),
                                 layouts[i]->displs.data(), mpi_type_, operands[i]->comm, &slot.requests[i]) != MPI_SUCCESS) {
        throw Error(Status::InternalError, "MPI could not start an all-gather of panels");
      }
    }
    double received = 0;
    for (size_t q = 0; q < slot.la.counts.size(); ++q)
      if (int(q) != me_a) received += slot.la.counts[q];
    for (size_t q = 0; q < slot.lb.counts.size(); ++q)
      if (int(q) != me_b) received += slot.lb.counts[q];
    stats_.bytes_received += received * double(elem_);
  }

  // Copies of step s's gathered pieces into device panel d, in global k order: runs of k that
  // one process contributed in one block.
  void upload(size_t s, size_t d, HostSlot& slot, std::vector<cl_event>& done) {
    const size_t k0 = s * panel_, k1 = std::min(p_.k, k0 + panel_), width = k1 - k0;
    cl_event wait = gemm_done_[d];
    // Process q's piece of operand i: in the window, or gathered into the slot's pinned buffer.
    auto piece_of = [&](int i, size_t q) -> const char* {
      if (direct_[i]) return node_[i]->piece(s, int(q));
      const PieceLayout& l = i == 0 ? slot.la : slot.lb;
      return (i == 0 ? slot.a : slot.b)->data() + size_t(l.displs[q]) * elem_;
    };
    // Calls copy(process, rows of its piece along k, k index within the piece, k index within the
    // panel, length) for each run of k that one process contributed in one go.
    auto each_run = [&](const KOperand& x, const PieceLayout& l, size_t fixed, auto&& copy) {
      std::vector<size_t> used(l.counts.size(), 0);  // k indices of each process already placed
      for (size_t t = k0; t < k1;) {
        const size_t q = size_t(x.k.owner(t));
        size_t end = std::min(k1, x.k.run_end(t));
        while (end < k1 && size_t(x.k.owner(end)) == q) end = std::min(k1, x.k.run_end(end));
        copy(q, size_t(l.counts[q]) / fixed, used[q], t - k0, end - t);
        used[q] += end - t;
        t = end;
      }
    };
    if (p_.m > 0 && p_.n > 0) {
      // A's panel: m x width, column-major; a run is whole columns of a piece of m rows. This
      // process's own runs of a device array are copied on the device.
      const KOperand &a = p_.a, &b = p_.b;
      each_run(a, slot.la, p_.m, [&](size_t q, size_t, size_t in_piece, size_t at, size_t len) {
        if (a.buffer && int(q) == a.k_me)
          return copy_columns_on_device(copy_queue_(), a.buffer,
                                        a.offset + a.fixed_start + (slot.la.my_first + in_piece) * a.ld, a.ld,
                                        panels_a_[d](), at * p_.m, p_.m, p_.m, len, elem_, wait, done);
        cl_event e = nullptr;
        check_cl(clEnqueueWriteBuffer(copy_queue_(), panels_a_[d](), CL_FALSE, at * p_.m * elem_, len * p_.m * elem_,
                                      piece_of(0, q) + in_piece * p_.m * elem_, wait ? 1 : 0,
                                      wait ? &wait : nullptr, &e),
                 "uploading a panel of A");
        done.push_back(e);
      });
      // B's panel: width x n, column-major; a run is some rows of every column of a piece.
      each_run(b, slot.lb, p_.n, [&](size_t q, size_t piece_rows, size_t in_piece, size_t at, size_t len) {
        if (b.buffer && int(q) == b.k_me)
          return copy_columns_on_device(copy_queue_(), b.buffer,
                                        b.offset + slot.lb.my_first + in_piece + b.fixed_start * b.ld, b.ld,
                                        panels_b_[d](), at, width, len, p_.n, elem_, wait, done);
        const cl::array<cl::size_type, 3> buffer_origin{at * elem_, 0, 0}, host_origin{in_piece * elem_, 0, 0},
            region{len * elem_, p_.n, 1};
        cl_event e = nullptr;
        check_cl(clEnqueueWriteBufferRect(copy_queue_(), panels_b_[d](), CL_FALSE, buffer_origin.data(), host_origin.data(),
                                          region.data(), width * elem_, 0, piece_rows * elem_, 0,
                                          piece_of(1, q), wait ? 1 : 0, wait ? &wait : nullptr, &e),
                 "uploading a panel of B");
        done.push_back(e);
      });
    }
    check_cl(clFlush(copy_queue_()), "starting the panel uploads");
  }

  void upload_and_multiply(size_t s) {
    HostSlot& slot = slots_[s % slots_count_];
    const size_t d = s % 2;
    std::vector<cl_event> uploads;
    struct Release {  // the upload events, also when a command fails part-way
      std::vector<cl_event>& events;
      ~Release() {
        for (cl_event e : events)
          if (e) clReleaseEvent(e);
      }
    } release{uploads};
    upload(s, d, slot, uploads);
    if (slot.uploaded) clReleaseEvent(slot.uploaded);
    slot.uploaded = nullptr;
    if (!uploads.empty()) {
      slot.uploaded = uploads.back();  // the copy queue is in order: the last one ends them all
      clRetainEvent(slot.uploaded);
    }
    if (p_.m > 0 && p_.n > 0) {
      const size_t k0 = s * panel_, width = std::min(p_.k, k0 + panel_) - k0;
      check_cl(clEnqueueBarrierWithWaitList(queue_, cl_uint(uploads.size() ? 1 : 0), uploads.size() ? &uploads.back() : nullptr,
                                            nullptr),
               "ordering a local GEMM after its uploads");
      GemmCall call;
      call.layout = Layout::ColMajor;
      call.m = p_.m;
      call.n = p_.n;
      call.k = width;
      call.alpha = p_.alpha;
      call.beta = s == 0 ? p_.beta : 1.0;
      call.a = {panels_a_[d](), 0, p_.m};
      call.b = {panels_b_[d](), 0, width};
      call.c = {p_.c, p_.c_offset, p_.c_ld};
      call.a_type = call.b_type = call.c_type = p_.type;
      GemmOptions gemm_options = options_.gemm;
      if (profiling_) {
        gemm_events_.emplace_back();
        gemm_options.events = &gemm_events_.back();
      }
      cl_event done = nullptr;
      gemm(call, queue_, &done, gemm_options);
      if (s == 0) stats_.startup += seconds_since(started_);
      if (gemm_done_[d]) clReleaseEvent(gemm_done_[d]);
      gemm_done_[d] = done;
      check_cl(clFlush(queue_), "starting a local GEMM");
    }
  }

  const SummaProblem& p_;
  cl_command_queue queue_;
  const Options& options_;
  Stats& stats_;
  size_t elem_;
  MPI_Datatype mpi_type_;
  size_t panel_ = 1, steps_ = 0, slots_count_ = 3;
  bool profiling_ = false;
  Clock::time_point started_;
  cl::CommandQueue copy_queue_, read_queue_;
  std::vector<HostSlot> slots_;
  cl::Buffer panels_a_[2], panels_b_[2];
  cl_event gemm_done_[2] = {nullptr, nullptr};
  std::vector<std::vector<cl::Event>> gemm_events_;
  std::unique_ptr<NodeExchange> node_[2];  // A's and B's pieces through shared memory, where they can
  bool direct_[2] = {false, false};        // uploaded straight out of that window
  std::deque<std::pair<size_t, cl_event>> reads_;  // steps uploaded from the window, not yet announced as read
  std::string failure_;  // the first device failure on this process
  Status failure_status_ = Status::OpenCLError;
};

}  // namespace

void run_summa(const SummaProblem& problem, cl_command_queue queue, const Options& options, Stats& stats) {
  Summa(problem, queue, options, stats).run(problem.grid);
}

}  // namespace clgemm::dist
