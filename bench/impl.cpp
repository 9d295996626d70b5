// bench/impl.cpp — names of the timing methods (the interface itself is all in impl.hpp).
#include "bench/impl.hpp"

namespace clgemm::bench {

const char* timing_name(Timing t) {
  switch (t) {
    case Timing::Events: return "opencl events";
    case Timing::HostClock: return "host clock";
    case Timing::CudaEvents: return "cuda events";
    case Timing::MarkerEvents: return "opencl events (marker before the call to its last event)";
  }
  return "?";
}

}  // namespace clgemm::bench
