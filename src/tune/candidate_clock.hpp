// candidate_clock.hpp — whether one more tuning candidate fits in what is left of a time budget.
#pragma once

#include <algorithm>
#include <cstddef>
#include <deque>

namespace clgemm::detail {

// A candidate's cost is mostly its kernel build on some devices: on PoCL 5-20 s when neither
// clgemm's program cache nor PoCL's kernel cache has it, well under a second when one does. A
// mean over cached builds let cold ones start with seconds left (`clgemm tune --budget 20` took
// 42-134 s there), so the estimate is the longest of the last few candidates.
class CandidateClock {
 public:
  void record(double seconds) {
    recent_.push_back(seconds);
    if (recent_.size() > kWindow) recent_.pop_front();
  }
  // What the next candidate is expected to cost: 0 before the first.
  double estimate() const { return recent_.empty() ? 0.0 : *std::max_element(recent_.begin(), recent_.end()); }
  // Whether a candidate started `elapsed_s` into a budget of `limit_s` seconds should end within it.
  bool room_for_another(double elapsed_s, double limit_s) const { return elapsed_s + estimate() <= limit_s; }

 private:
  static constexpr size_t kWindow = 4;
  std::deque<double> recent_;
};

}  // namespace clgemm::detail
