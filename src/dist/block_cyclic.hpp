// block_cyclic.hpp — one dimension of ScaLAPACK's 2D block-cyclic layout: which process owns a
// global index, and where it sits in that process's local array. Indices are 0-based here.
#pragma once

#include <cstddef>

namespace clgemm::dist {

struct Axis {
  size_t block = 1;  // MB or NB
  int first = 0;     // RSRC or CSRC: the process that owns index 0
  int procs = 1;     // process rows or columns of the grid

  int owner(size_t g) const { return int((size_t(first) + g / block) % size_t(procs)); }
  // The local index of g on its owner.
  size_t local(size_t g) const { return g / (block * size_t(procs)) * block + g % block; }
  // How many of the indices [0, g) process p owns (ScaLAPACK's NUMROC): so the indices of
  // [g0, g1) that p owns are the local indices [count(g0, p), count(g1, p)).
  size_t count(size_t g, int p) const {
    const size_t dist = size_t((p - first) % procs + procs) % size_t(procs);
    const size_t blocks = g / block;
    size_t n = blocks / size_t(procs) * block;
    const size_t extra = blocks % size_t(procs);
    if (dist < extra) n += block;
    else if (dist == extra) n += g % block;
    return n;
  }
  // The end of the block that holds g.
  size_t block_end(size_t g) const { return (g / block + 1) * block; }
};

// A range of global indices [start, start + length) along an axis: one dimension of a
// sub-matrix, such as the rows IA .. IA+M-1 of sub(A).
struct Span {
  Axis axis;
  size_t start = 0;
  size_t length = 0;

  int owner(size_t t) const { return axis.owner(start + t); }
  // The local indices process p holds of the span's [t0, t1): [local_begin, local_end).
  size_t local_begin(size_t t0, int p) const { return axis.count(start + t0, p); }
  size_t local_count(size_t t0, size_t t1, int p) const {
    return axis.count(start + t1, p) - axis.count(start + t0, p);
  }
  size_t run_end(size_t t) const { return axis.block_end(start + t) - start; }
};

}  // namespace clgemm::dist
