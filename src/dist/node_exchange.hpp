// node_exchange.hpp — panels among processes of one host through an MPI shared-memory window
// (MPI_Win_allocate_shared), for a row or column of the grid whose processes all share a host.
// Each process packs its piece of a step into its own slot of the window and announces it; the
// others copy it straight out with several threads. Open MPI's shared-memory transport moves
// large messages through its own buffers at a few GB/s (docs/distributed.md); threaded copies
// from the window run at the host's memory bandwidth.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <memory>
#include <vector>

namespace clgemm::dist {

class NodeExchange {
 public:
  // For the processes of `comm`, with `slots` steps in flight of at most `slot_bytes` per process.
  // Null where comm has one process, spans hosts, or $CLGEMM_DIST_SHARED is 0. Collective over
  // comm; the window is kept for later calls and grown (collectively) when one needs more.
  static std::unique_ptr<NodeExchange> open(MPI_Comm comm, size_t slots, size_t slot_bytes);
  ~NodeExchange();

  // This process's slot for step s: its piece of that step goes here.
  char* slot(size_t s) const;
  // Announces that this process's piece of step s is in its slot.
  void publish(size_t s);
  // Whether every process has published step s.
  bool published(size_t s);
  // Copies every process's piece of step s (its own too) into dst, process q's `counts[q]`
  // elements at `displs[q]`, then announces that this process has read the step.
  void gather(size_t s, const std::vector<int>& counts, const std::vector<int>& displs, size_t elem, char* dst);
  // Whether every process has read step s, so that the slots of step s can take a later step.
  bool released(size_t s);
  // Moves the announcements along (they are non-blocking barriers).
  void poll();

  struct Window;  // a shared-memory window of one communicator (node_exchange.cpp)

 private:
  NodeExchange(MPI_Comm comm, Window* window, size_t slots);
  MPI_Comm comm_;
  Window* window_;  // owned by the cache of windows
  size_t slots_;
  std::vector<MPI_Request> ready_, done_;  // per slot
};

}  // namespace clgemm::dist
