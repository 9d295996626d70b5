// plan_cache.hpp — the plans of calls that force nothing, kept per device and shape (plan_gemm).
#pragma once

#include <clgemm/gemm.hpp>

#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <tuple>

namespace clgemm::detail {

// Plans already made for calls without forced options, by device and shape. Planning looks the
// shape class up in both databases, resolves and checks the entry and each of its runners-up
// against the device, and weighs their tiles: 36-71 µs per call on this project's 2-core VM,
// several times what a 258³ GEMM takes on the H200 (11-13 µs). Dropped whole when the user
// database is reloaded, and when it grows past kMaxPlans shapes.
class PlanCache {
 public:
  static constexpr size_t kMaxPlans = 4096;
  // Calls differ only in the treatment of edges, the arithmetic (GemmOptions::force_edge_split
  // and math) and the element type, which are part of the key.
  // The batch count too: batched calls may plan otherwise than single ones.
  std::optional<GemmPlan> find(const DeviceInfo& d, size_t m, size_t n, size_t k, const GemmOptions& o, DataType type,
                               size_t batch = 1);
  // Keeps `plan`, made while the user database was at `generation` (user_database_generation()).
  void store(const DeviceInfo& d, size_t m, size_t n, size_t k, const GemmOptions& o, DataType type, size_t batch,
             const GemmPlan& plan, uint64_t generation);

 private:
  // Everything of the device that planning reads (tests plan for made-up devices too).
  using Key = std::tuple<std::string, size_t, size_t, size_t, int, int, int, size_t>;
  static Key key(const DeviceInfo& d, size_t m, size_t n, size_t k, const GemmOptions& o, DataType type, size_t batch);
  void drop_if_stale();
  std::mutex mutex_;
  std::map<Key, GemmPlan> plans_;
  uint64_t generation_ = 0;
};

// The process's one cache.
PlanCache& plan_cache();

}  // namespace clgemm::detail
