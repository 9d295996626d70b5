// warnings.cpp — the warning handler, the queue of kept warnings and the last one.
#include "runtime/warnings.hpp"

#include <deque>
#include <mutex>
#include <set>

namespace clgemm {

namespace {

// Enough for every distinct warning a process raises in practice; past it the oldest go, so a
// program that never takes them holds a bounded amount of memory.
constexpr size_t kKept = 64;

struct WarningState {
  std::mutex mutex;
  WarningHandler handler;
  std::deque<std::string> kept;
  std::string last;
  std::set<std::string> said_once;
};

WarningState& state() {
  static WarningState s;
  return s;
}

}  // namespace

void set_warning_handler(WarningHandler handler) {
  WarningState& s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  s.handler = std::move(handler);
}

std::vector<std::string> take_warnings() {
  WarningState& s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  std::vector<std::string> out(s.kept.begin(), s.kept.end());
  s.kept.clear();
  return out;
}

namespace detail {

void warn(const std::string& message) {
  WarningState& s = state();
  WarningHandler handler;
  {
    std::lock_guard<std::mutex> lock(s.mutex);
    s.last = message;
    if (!s.handler) {
      if (s.kept.size() == kKept) s.kept.pop_front();
      s.kept.push_back(message);
      return;
    }
    handler = s.handler;
  }
  // Called outside the lock, so that a handler may itself call into clgemm.
  try {
    handler(message);
  } catch (...) {
  }
}

void warn_once(const std::string& message, const std::string& topic) {
  WarningState& s = state();
  {
    std::lock_guard<std::mutex> lock(s.mutex);
    // Bounded like the queue: past it, a topic may be raised again, which costs nothing worse.
    if (s.said_once.size() >= 1024) s.said_once.clear();
    if (!s.said_once.insert(topic.empty() ? message : topic).second) return;
  }
  warn(message);
}

std::string last_warning() {
  WarningState& s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  return s.last;
}

}  // namespace detail

}  // namespace clgemm
