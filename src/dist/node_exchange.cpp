// node_exchange.cpp — the shared-memory window behind NodeExchange, and its announcements: an
// MPI_Ibarrier after each process has written its slot (ready), and one after each has read the
// others' (done). MPI_Win_sync around them orders the stores and loads between processes.
// The two kinds go on two communicators: collectives match by order, and a process announces a
// read when its uploads end, at a time the others cannot foresee, so only each kind on its own is
// in the same order (that of the steps) on every process.
// Each process's part starts on the first page boundary of its segment (which MPI need not align)
// and takes whole pages, so that a driver can pin it.
#include "dist/node_exchange.hpp"

#include "dist/host_staging.hpp"

#include <clgemm/error.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>

namespace clgemm::dist {

struct NodeExchange::Window {
  MPI_Win win = MPI_WIN_NULL;
  size_t bytes = 0;              // per process
  std::vector<char*> bases;      // every process's part, page-aligned, as mapped here
  int me = 0;
  MPI_Comm reads = MPI_COMM_NULL;  // a duplicate of the communicator, for the "done" announcements
  // The segments as CL_MEM_USE_HOST_PTR buffers, per context that registered them; an empty list
  // where the driver refused. Released before the window is freed.
  std::map<cl_context, std::vector<cl::Buffer>> registered;
};

namespace {

constexpr unsigned long long kPage = 4096;

void check(int rc, const char* what) {
  if (rc != MPI_SUCCESS) throw Error(Status::InternalError, std::string("MPI failed to ") + what);
}

// Windows by communicator, kept from call to call: making one maps new shared pages, which costs
// more than a step. Grown together by all of the communicator's processes.
std::map<MPI_Comm, NodeExchange::Window*>& windows() {
  static auto& all = *new std::map<MPI_Comm, NodeExchange::Window*>;
  return all;
}

}  // namespace

std::unique_ptr<NodeExchange> NodeExchange::open(MPI_Comm comm, size_t slots, size_t slot_bytes) {
  if (const char* v = std::getenv("CLGEMM_DIST_SHARED"))
    if (std::string(v) == "0") return nullptr;
  int size = 1;
  MPI_Comm_size(comm, &size);
  if (size == 1) return nullptr;
  // Every process of comm must agree: shared only if all of them share one host.
  MPI_Comm node = MPI_COMM_NULL;
  check(MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node), "split a communicator by host");
  int node_size = 0;
  MPI_Comm_size(node, &node_size);
  MPI_Comm_free(&node);
  if (node_size != size) return nullptr;

  unsigned long long need = (slots * slot_bytes + kPage - 1) / kPage * kPage, most = 0;
  check(MPI_Allreduce(&need, &most, 1, MPI_UNSIGNED_LONG_LONG, MPI_MAX, comm), "agree on a window size");
  Window*& w = windows()[comm];
  if (w && w->bytes < most) {
    w->registered.clear();
    MPI_Comm_free(&w->reads);
    MPI_Win_unlock_all(w->win);
    MPI_Win_free(&w->win);
    delete w;
    w = nullptr;
  }
  if (!w) {
    auto made = std::make_unique<Window>();
    made->bytes = std::max<unsigned long long>(most, 1);
    char* base = nullptr;
    check(MPI_Win_allocate_shared(MPI_Aint(made->bytes + kPage), 1, MPI_INFO_NULL, comm, &base, &made->win),
          "allocate a shared-memory window");
    MPI_Comm_rank(comm, &made->me);
    made->bases.resize(size_t(size));
    for (int q = 0; q < size; ++q) {
      MPI_Aint bytes = 0;
      int unit = 0;
      char* segment = nullptr;
      check(MPI_Win_shared_query(made->win, q, &bytes, &unit, &segment), "map a shared-memory window");
      // A page's offset is the same in every process's mapping, so all agree on where q's part is.
      made->bases[size_t(q)] = segment + (kPage - reinterpret_cast<uintptr_t>(segment) % kPage) % kPage;
    }
    check(MPI_Win_lock_all(MPI_MODE_NOCHECK, made->win), "open a shared-memory window");
    check(MPI_Comm_dup(comm, &made->reads), "make a communicator for announcements");
    w = made.release();
  }
  return std::unique_ptr<NodeExchange>(new NodeExchange(comm, w, slots));
}

NodeExchange::NodeExchange(MPI_Comm comm, Window* window, size_t slots)
    : comm_(comm), window_(window), slots_(slots), ready_(slots, MPI_REQUEST_NULL), done_(slots, MPI_REQUEST_NULL) {}

NodeExchange::~NodeExchange() {
  // The last steps' "read" announcements are still open when a call ends; every process posted
  // them, so they complete, and the next call finds every slot free.
  for (auto* list : {&ready_, &done_})
    for (auto& r : *list)
      if (r != MPI_REQUEST_NULL) MPI_Wait(&r, MPI_STATUS_IGNORE);
}

char* NodeExchange::slot(size_t s) const {
  return window_->bases[size_t(window_->me)] + (s % slots_) * (window_->bytes / slots_);
}

const char* NodeExchange::piece(size_t s, int q) const {
  return window_->bases[size_t(q)] + (s % slots_) * (window_->bytes / slots_);
}

bool NodeExchange::register_with(const cl::Context& context) {
  if (const char* v = std::getenv("CLGEMM_DIST_SHARED"))
    if (std::string(v) == "copy") return false;
  auto found = window_->registered.find(context());
  if (found == window_->registered.end()) {
    std::vector<cl::Buffer> buffers;
    try {
      for (char* base : window_->bases) {
        buffers.emplace_back(context, CL_MEM_READ_ONLY | CL_MEM_USE_HOST_PTR, window_->bytes, base);
      }
    } catch (const cl::Error&) {
      buffers.clear();  // uploads from the window would be pageable: gather() instead
    }
    found = window_->registered.emplace(context(), std::move(buffers)).first;
  }
  return !found->second.empty();
}

void NodeExchange::publish(size_t s) {
  MPI_Win_sync(window_->win);
  check(MPI_Ibarrier(comm_, &ready_[s % slots_]), "announce a panel");
}

bool NodeExchange::published(size_t s) {
  poll();
  if (ready_[s % slots_] != MPI_REQUEST_NULL) return false;
  MPI_Win_sync(window_->win);  // the others' stores before this process's (or its device's) loads
  return true;
}

void NodeExchange::gather(size_t s, const std::vector<int>& counts, const std::vector<int>& displs, size_t elem,
                          char* dst) {
  MPI_Win_sync(window_->win);
  const size_t at = (s % slots_) * (window_->bytes / slots_);
  for (size_t q = 0; q < counts.size(); ++q)
    copy_bytes(window_->bases[q] + at, dst + size_t(displs[q]) * elem, size_t(counts[q]) * elem);
  read(s);
}

void NodeExchange::read(size_t s) {
  check(MPI_Ibarrier(window_->reads, &done_[s % slots_]), "announce a panel read");
}

bool NodeExchange::released(size_t s) {
  poll();
  return done_[s % slots_] == MPI_REQUEST_NULL;
}

void NodeExchange::poll() {
  for (auto* list : {&ready_, &done_})
    for (auto& r : *list) {
      if (r == MPI_REQUEST_NULL) continue;
      int flag = 0;
      check(MPI_Test(&r, &flag, MPI_STATUS_IGNORE), "follow an announcement");
    }
}

}  // namespace clgemm::dist
