// tune_measure.cpp — given configurations checked and timed (clgemm/tune.hpp,
// measure_configurations): the public face of Tuner::measure.
#include <clgemm/tune.hpp>

#include "tune/tuner.hpp"

namespace clgemm {

namespace {

ConfigurationResult::Outcome public_outcome(detail::Measurement::Outcome o) {
  switch (o) {
    case detail::Measurement::Ok: return ConfigurationResult::Outcome::Ok;
    case detail::Measurement::Rejected: return ConfigurationResult::Outcome::Rejected;
    case detail::Measurement::BuildFailed: return ConfigurationResult::Outcome::BuildFailed;
    case detail::Measurement::LaunchFailed: return ConfigurationResult::Outcome::LaunchFailed;
    case detail::Measurement::Wrong: return ConfigurationResult::Outcome::Wrong;
  }
  return ConfigurationResult::Outcome::Rejected;
}

}  // namespace

std::vector<ConfigurationResult> measure_configurations(const Context& ctx, const std::string& kernel,
                                                        const GemmShape& shape,
                                                        const std::vector<KernelParams>& configs,
                                                        const std::function<void(size_t done)>& progress,
                                                        uint64_t seed, DataType precision) {
  detail::Tuner tuner(ctx, seed, precision);
  std::vector<ConfigurationResult> out;
  for (auto& m : tuner.measure(shape, kernel, configs, progress)) {
    ConfigurationResult r;
    r.outcome = public_outcome(m.outcome);
    r.params = std::move(m.params);
    r.seconds = m.seconds, r.gflops = m.gflops;
    r.command_seconds = std::move(m.command_seconds);
    r.note = std::move(m.note);
    out.push_back(std::move(r));
  }
  return out;
}

}  // namespace clgemm
