// edge_groups.hpp — ragged edges computed in the same launch as the interior's whole tiles
// (GemmPlan::edge_groups; xgemm.cl, EDGES): how many work-groups take them.
//
// Why: a call whose interior fits one round of tiles on the compute units while its padded
// tiles need a second (1032³ in 64×128 tiles: 128 interior tiles, 153 padded, 132 SMs) spends
// the second round on tiles that hold a few useful rows or columns. The edges apart as GEMMs of
// their own cost a launch each, 13-16 µs of host time on the H200, more than such calls take.
// In the same launch the edges run element by element on what the interior leaves of the units.
#pragma once

#include <cstddef>

namespace clgemm::detail {

// Elements of C outside the interior of whole tile_m × tile_n tiles (0 when there is none, or no
// whole tile).
size_t edge_elements(size_t m, size_t n, size_t tile_m, size_t tile_n);

// The most neighbouring elements of an edge that one work-item sums at once (xgemm.cl's
// EDGE_RUN), and the segments of that many that the edges of an m × n C make: the rows below the
// interior cut column by column, the columns right of it row by row.
constexpr size_t kEdgeRun = 8;
size_t edge_segments(size_t m, size_t n, size_t tile_m, size_t tile_n);

// The edge groups for an m × n × k call in tile_m × tile_n tiles of `work_items` work-items on
// `units` compute units: one per unit, or fewer where each would take less than one pass of
// segments (edge_slices), rounded up to whole rows of the interior's tiles (the kernel's grid
// adds rows of groups). 0 when there are no edges or no whole tile.
size_t edge_group_count(size_t m, size_t n, size_t k, size_t tile_m, size_t tile_n, size_t work_items, size_t units);

}  // namespace clgemm::detail
