// node_exchange.hpp — panels among processes of one host through an MPI shared-memory window
// (MPI_Win_allocate_shared), for a row or column of the grid whose processes all share a host.
// Each process packs its piece of a step into its own slot of the window and announces it. Open
// MPI's shared-memory transport moves large messages through its own buffers at a few GB/s
// (docs/distributed.md); the window needs no transport at all:
// - where the device's driver pins the window (registered as CL_MEM_USE_HOST_PTR buffers, which
//   NVIDIA's driver pins), every process uploads all pieces straight out of it at the link's
//   speed, and no host copy remains but the owner's packing;
// - elsewhere the others copy the pieces out with several threads, at the host's memory bandwidth.
#pragma once

#include <CL/opencl.hpp>
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
  // Registers every process's part of the window with `context` (kept with the window), so that
  // uploads from piece() run at pinned speed. False where the driver refuses or
  // $CLGEMM_DIST_SHARED is "copy": then gather() is the way.
  bool register_with(const cl::Context& context);
  // Process q's piece of step s, once published(s).
  const char* piece(size_t s, int q) const;
  // Copies every process's piece of step s (its own too) into dst, process q's `counts[q]`
  // elements at `displs[q]`, then announces that this process has read the step.
  void gather(size_t s, const std::vector<int>& counts, const std::vector<int>& displs, size_t elem, char* dst);
  // Announces that this process has read step s (after its uploads from piece() are done).
  void read(size_t s);
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
