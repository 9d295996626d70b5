// bench/environment.cpp — date, command line, device, host CPU and library versions.
#include "bench/environment.hpp"

#include <cblas.h>
#include <sys/utsname.h>

#include <ctime>
#include <fstream>
#include <iterator>
#include <thread>

namespace clgemm::bench {

namespace {

std::string utc_now() {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

std::string host_cpu_model() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("model name", 0) == 0) {
      const auto colon = line.find(':');
      return colon == std::string::npos ? line : line.substr(line.find_first_not_of(' ', colon + 1));
    }
  return "unknown";
}

}  // namespace

std::string this_command_line() {
  std::ifstream in("/proc/self/cmdline", std::ios::binary);
  std::string raw((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::string out;
  size_t start = 0;
  while (start < raw.size()) {
    size_t end = raw.find('\0', start);
    if (end == std::string::npos) end = raw.size();
    std::string word = raw.substr(start, end - start);
    if (start == 0) word = word.substr(word.rfind('/') == std::string::npos ? 0 : word.rfind('/') + 1);
    if (word.find_first_of(" \t'\"") != std::string::npos) word = "'" + word + "'";
    out += (out.empty() ? "" : " ") + word;
    start = end + 1;
  }
  return out;
}

nlohmann::json describe_environment(const DeviceInfo& d, const std::string& command) {
  utsname u{};
  uname(&u);
  nlohmann::json env;
  env["date"] = utc_now();
  env["command"] = command;
  env["device"] = {{"name", d.name},
                   {"platform", d.platform},
                   {"vendor", d.vendor},
                   {"version", d.version},
                   {"driver", d.driver},
                   {"type", d.kind_name()},
                   {"compute_units", d.compute_units},
                   {"clock_mhz", d.clock_mhz},
                   {"global_mem_bytes", d.global_mem_bytes}};
  env["host"] = {{"cpu", host_cpu_model()},
                 {"logical_cpus", std::thread::hardware_concurrency()},
                 {"os", std::string(u.sysname) + " " + u.release + " " + u.machine}};
  env["libraries"] = {{"clgemm", CLGEMM_BENCH_VERSION},
                      {"openblas", openblas_get_config()},
                      {"openblas_threads", openblas_get_num_threads()},
#ifdef CLGEMM_HAVE_CLBLAST
                      {"clblast", CLGEMM_CLBLAST_VERSION}
#else
                      {"clblast", nullptr}
#endif
  };
  return env;
}

}  // namespace clgemm::bench
