// plan_cache.cpp — the plans of calls that force nothing, kept per device and shape.
#include "plan/plan_cache.hpp"

#include "database/database.hpp"

#include <sstream>

namespace clgemm::detail {

std::optional<GemmPlan> PlanCache::find(const DeviceInfo& d, size_t m, size_t n, size_t k, const GemmOptions& o,
                                        DataType type, size_t batch) {
  std::lock_guard<std::mutex> lock(mutex_);
  drop_if_stale();
  const auto it = plans_.find(key(d, m, n, k, o, type, batch));
  if (it == plans_.end()) return std::nullopt;
  return it->second;
}

void PlanCache::store(const DeviceInfo& d, size_t m, size_t n, size_t k, const GemmOptions& o, DataType type,
                      size_t batch, const GemmPlan& plan, uint64_t generation) {
  std::lock_guard<std::mutex> lock(mutex_);
  drop_if_stale();
  if (generation != generation_) return;  // planned from a database that has since been reloaded
  if (plans_.size() >= kMaxPlans) plans_.clear();
  plans_[key(d, m, n, k, o, type, batch)] = plan;
}

PlanCache::Key PlanCache::key(const DeviceInfo& d, size_t m, size_t n, size_t k, const GemmOptions& o,
                              DataType type, size_t batch) {
  std::ostringstream id;
  id << d.platform << '|' << d.name << '|' << d.vendor << '|' << d.version << '|' << d.driver << '|'
     << d.architecture << '|' << int(d.kind) << '|' << d.compute_units << '|' << d.local_mem_bytes << '|'
     << d.static_local_bytes << '|' << d.max_work_group_size << '|' << d.registers_per_work_group << '|' << d.max_alloc_bytes << '|'
     << d.sm90a_patching << d.tensor_maps;
  for (size_t s : d.max_work_item_sizes) id << ',' << s;
  for (const auto& e : d.extensions) id << ' ' << e;
  return {id.str(), m, n, k, int(o.force_edge_split), int(o.math), int(type), batch};
}

void PlanCache::drop_if_stale() {
  const uint64_t now = user_database_generation();
  if (now != generation_) plans_.clear(), generation_ = now;
}

PlanCache& plan_cache() {
  static PlanCache cache;
  return cache;
}

}  // namespace clgemm::detail
