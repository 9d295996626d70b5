// node_exchange.cpp — the shared-memory window behind NodeExchange, and its announcements: an
// MPI_Ibarrier after each process has written its slot (ready), and one after each has read the
// others' (done). MPI_Win_sync around them orders the stores and loads between processes.
#include "dist/node_exchange.hpp"

#include "dist/host_staging.hpp"

#include <clgemm/error.hpp>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>

namespace clgemm::dist {

struct NodeExchange::Window {
  MPI_Win win = MPI_WIN_NULL;
  size_t bytes = 0;              // per process
  std::vector<char*> bases;      // every process's segment, as mapped here
  int me = 0;
};

namespace {

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

  unsigned long long need = slots * slot_bytes, most = 0;
  check(MPI_Allreduce(&need, &most, 1, MPI_UNSIGNED_LONG_LONG, MPI_MAX, comm), "agree on a window size");
  Window*& w = windows()[comm];
  if (w && w->bytes < most) {
    MPI_Win_unlock_all(w->win);
    MPI_Win_free(&w->win);
    delete w;
    w = nullptr;
  }
  if (!w) {
    auto made = std::make_unique<Window>();
    made->bytes = std::max<unsigned long long>(most, 1);
    char* base = nullptr;
    check(MPI_Win_allocate_shared(MPI_Aint(made->bytes), 1, MPI_INFO_NULL, comm, &base, &made->win),
          "allocate a shared-memory window");
    MPI_Comm_rank(comm, &made->me);
    made->bases.resize(size_t(size));
    for (int q = 0; q < size; ++q) {
      MPI_Aint bytes = 0;
      int unit = 0;
      check(MPI_Win_shared_query(made->win, q, &bytes, &unit, &made->bases[size_t(q)]), "map a shared-memory window");
    }
    check(MPI_Win_lock_all(MPI_MODE_NOCHECK, made->win), "open a shared-memory window");
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

void NodeExchange::publish(size_t s) {
  MPI_Win_sync(window_->win);
  check(MPI_Ibarrier(comm_, &ready_[s % slots_]), "announce a panel");
}

bool NodeExchange::published(size_t s) {
  poll();
  return ready_[s % slots_] == MPI_REQUEST_NULL;
}

void NodeExchange::gather(size_t s, const std::vector<int>& counts, const std::vector<int>& displs, size_t elem,
                          char* dst) {
  MPI_Win_sync(window_->win);
  const size_t at = (s % slots_) * (window_->bytes / slots_);
  for (size_t q = 0; q < counts.size(); ++q)
    copy_bytes(window_->bases[q] + at, dst + size_t(displs[q]) * elem, size_t(counts[q]) * elem);
  check(MPI_Ibarrier(comm_, &done_[s % slots_]), "announce a panel read");
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
