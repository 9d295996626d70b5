// bench/triple_loop.hpp — the textbook CPU loop that GPU speed-ups are quoted against, and a
// prediction of its time, so that nobody waits hours for it at large sizes.
#pragma once

#include <clgemm/ladder.hpp>

#include <utility>

namespace clgemm::bench {

// Seconds one triple-loop GEMM of shape `s` would take, extrapolated from a timed run on a cube of
// at most 256 (small enough to take milliseconds, big enough to show the i-j-k loop's cache misses).
double predict_triple_loop_seconds(const GemmShape& s);

// Times the triple loop on A, B (row-major, dense) when the prediction is at most `limit_s`;
// otherwise returns the prediction. Returns {seconds, measured}.
std::pair<double, bool> triple_loop_seconds(const GemmShape& s, const float* a, const float* b, double limit_s);

}  // namespace clgemm::bench
