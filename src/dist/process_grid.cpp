// process_grid.cpp — communicators of a BLACS grid, from BLACS's own map of grid coordinates to
// MPI ranks. MPI_Comm_create_group is collective over the new group only, so processes outside
// the grid (which do not call) are not waited for.
#include "dist/process_grid.hpp"

#include "dist/blacs.hpp"

#include <clgemm/error.hpp>

#include <map>
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

namespace clgemm::dist {
namespace {

// Tags that keep the three creations apart when groups overlap.
constexpr int kRowTag = 0x636c01, kColTag = 0x636c02, kAllTag = 0x636c03;


MPI_Comm group_comm(MPI_Comm system, const std::vector<int>& ranks, int tag) {
  MPI_Group world_group = MPI_GROUP_NULL, group = MPI_GROUP_NULL;
  MPI_Comm comm = MPI_COMM_NULL;
  int rc = MPI_Comm_group(system, &world_group);
  if (rc == MPI_SUCCESS) rc = MPI_Group_incl(world_group, int(ranks.size()), ranks.data(), &group);
  if (rc == MPI_SUCCESS) rc = MPI_Comm_create_group(system, group, tag, &comm);
  if (group != MPI_GROUP_NULL) MPI_Group_free(&group);
  if (world_group != MPI_GROUP_NULL) MPI_Group_free(&world_group);
  if (rc != MPI_SUCCESS) throw Error(Status::InternalError, "MPI could not make the process grid's communicators");
  return comm;
}

}  // namespace

ProcessGrid grid_info(int context) {
  ProcessGrid g;
  g.context = context;
  Cblacs_gridinfo(context, &g.rows, &g.cols, &g.row, &g.col);
  return g;
}

ProcessGrid process_grid(int context) {
  static std::mutex mutex;
  // Communicators by what they are made of: the system communicator, the grid's shape and the
  // system rank at every grid position. Not by context number: BLACS hands a freed number to the
  // next grid, and a process outside the old grid could not tell. Every process of a grid meets
  // a given layout for the first time in the same call, so all of them make its communicators
  // together, and later calls find them. They live until MPI_Finalize.
  static std::map<std::vector<long long>, ProcessGrid> cache;
  std::lock_guard<std::mutex> lock(mutex);

  ProcessGrid info = grid_info(context);
  if (!info.valid()) throw Error(Status::InvalidArgument, "the BLACS context " + std::to_string(context) + " is not a grid this process is in");
  int system_context = 0;
  Cblacs_get(context, 10, &system_context);
  MPI_Comm system = Cblacs2sys_handle(system_context);
  std::vector<int> ranks(size_t(info.rows) * size_t(info.cols));
  for (int r = 0; r < info.rows; ++r)
    for (int c = 0; c < info.cols; ++c) ranks[size_t(info.rank_of(r, c))] = Cblacs_pnum(context, r, c);
  std::vector<long long> key{static_cast<long long>(reinterpret_cast<intptr_t>(system)), info.rows, info.cols};
  key.insert(key.end(), ranks.begin(), ranks.end());

  auto it = cache.find(key);
  if (it == cache.end()) {
    std::vector<int> row_ranks, col_ranks;
    for (int c = 0; c < info.cols; ++c) row_ranks.push_back(ranks[size_t(info.rank_of(info.row, c))]);
    for (int r = 0; r < info.rows; ++r) col_ranks.push_back(ranks[size_t(info.rank_of(r, info.col))]);
    ProcessGrid made = info;
    made.row_comm = group_comm(system, row_ranks, kRowTag);
    made.col_comm = group_comm(system, col_ranks, kColTag);
    made.all = group_comm(system, ranks, kAllTag);
    it = cache.emplace(key, made).first;
  }
  ProcessGrid grid = it->second;
  grid.context = context;
  return grid;
}

}  // namespace clgemm::dist
