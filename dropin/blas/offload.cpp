// offload.cpp — the device, the one-time measurement of rates, and a call run on the device.
#include "dropin/blas/offload.hpp"

#include "dropin/blas/policy.hpp"
#include "dropin/blas/staging.hpp"
#include "dropin/trace_env.hpp"

#include <dlfcn.h>
#include <pthread.h>
#include <unistd.h>

#include <clgemm/context.hpp>
#include <clgemm/device.hpp>
#include <clgemm/gemm.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <fstream>
#include <sstream>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace clgemm::blas {

namespace {

struct DeviceState {
  std::mutex mutex;
  bool opened = false;
  std::unique_ptr<Context> ctx;
  std::unique_ptr<Staging> staging;
  DeviceInfo info;
  bool measured[2] = {false, false};  // per type: F32, F64
  Rates rates[2];
  bool failure_said = false;
};

// Never destroyed: programs exit with the OpenCL runtime's own teardown under way.
DeviceState& state() {
  static DeviceState* s = new DeviceState;
  return *s;
}

// Pinned chunks of 32 MiB, filled by up to 16 threads. $CLGEMM_BLAS_PINNED=0: none, transfers
// straight from the caller's memory; a number of bytes: chunks of that size (for tests, where
// calls are small).
size_t staging_chunk_bytes() {
  const char* v = std::getenv("CLGEMM_BLAS_PINNED");
  if (v && *v) {
    char* end = nullptr;
    const unsigned long long bytes = std::strtoull(v, &end, 10);
    if (end && *end == '\0') return size_t(bytes);
  }
  return size_t(32) << 20;
}

size_t copy_threads() { return std::clamp<size_t>(std::thread::hardware_concurrency(), 1, 16); }

// Set in a child made by fork() after the device was opened: the parent's OpenCL context and copy
// threads do not come along, so the child's calls run on the host.
std::atomic<bool> forked_child{false};
void after_fork_in_child() { forked_child = true; }

// The device: $CLGEMM_BLAS_DEVICE as asked (a CPU device too), else the first GPU, else none.
bool open_device(DeviceState& s) {
  if (s.opened) return s.ctx != nullptr;
  s.opened = true;
  try {
    if (!settings().device.empty()) {
      s.info = choose_device(settings().device);
    } else {
      bool found = false;
      for (const DeviceInfo& d : list_devices())
        if (d.kind == DeviceKind::GPU && d.available) {
          s.info = d, found = true;
          break;
        }
      if (!found) return false;
    }
    s.ctx = std::make_unique<Context>(s.info);
    s.staging = std::make_unique<Staging>(s.ctx->context(), s.ctx->queue(), staging_chunk_bytes(), copy_threads());
  } catch (const std::exception& e) {
    if (tracing()) std::fprintf(stderr, "clgemm_blas: no device (%s); every call runs on the host\n", e.what());
    s.ctx.reset();
    return false;
  }
  pthread_atfork(nullptr, nullptr, after_fork_in_child);
  if (tracing())
    std::fprintf(stderr, "clgemm_blas: device %s (%s), transfers %s\n", s.info.name.c_str(), s.info.platform.c_str(),
                 s.staging->pinned() ? "through pinned memory" : "from the caller's memory");
  return true;
}

size_t element(const BlasGemm& g) { return g.type == DataType::F64 ? 8 : 4; }

size_t ceil_div(size_t a, size_t b) { return (a + b - 1) / b; }

// The call on the device; C is written only once the result is in (a read that fails after some
// of C's columns were written throws PartialDownload).
void device_gemm(DeviceState& s, const BlasGemm& g) {
  const size_t e = element(g), m = size_t(g.m), n = size_t(g.n), k = size_t(g.k);
  const bool ta = transposed(g.transa), tb = transposed(g.transb);
  const size_t a_rows = ta ? k : m, a_cols = ta ? m : k, b_rows = tb ? n : k, b_cols = tb ? k : n;
  const Context& ctx = *s.ctx;
  cl::Buffer da(ctx.context(), CL_MEM_READ_ONLY, a_rows * a_cols * e);
  cl::Buffer db(ctx.context(), CL_MEM_READ_ONLY, b_rows * b_cols * e);
  cl::Buffer dc(ctx.context(), CL_MEM_READ_WRITE, m * n * e);
  s.staging->upload(da, g.a, a_rows, a_cols, size_t(g.lda), e);
  s.staging->upload(db, g.b, b_rows, b_cols, size_t(g.ldb), e);
  // beta = 0: C is not read, as reference BLAS leaves it (a NaN in C does not survive).
  if (g.beta != 0.0) s.staging->upload(dc, g.c, m, n, size_t(g.ldc), e);
  GemmCall call;
  call.layout = Layout::ColMajor;
  call.a_transpose = ta ? Transpose::Yes : Transpose::No;
  call.b_transpose = tb ? Transpose::Yes : Transpose::No;
  call.m = m, call.n = n, call.k = k;
  call.alpha = g.alpha, call.beta = g.beta;
  call.a = {da(), 0, a_rows}, call.b = {db(), 0, b_rows}, call.c = {dc(), 0, m};
  call.a_type = call.b_type = call.c_type = g.type;
  gemm(call, ctx.queue()());
  s.staging->download(dc, g.c, m, n, size_t(g.ldc), e);
}

double seconds_of(const std::function<void()>& f) {
  const auto t0 = std::chrono::steady_clock::now();
  f();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// The rates for `type`, once, each the best of three timed runs after one untimed:
// - the host BLAS on 1024³, near where host and device cross (a host rate measured at 384³, 717
//   GFLOP/s on the H200 machine against 1030 at 1024³, sent 1024³ to the device at 0.67× the host);
// - a 64 MiB upload, the way a call's operands go;
// - the device's GEMM alone on 1024³ operands already there. Taken as a whole call less its
//   transfers at the link's rate, it came out at 0 there once the transfers were pinned.
Rates measure(DeviceState& s, DataType type, const std::function<void(const BlasGemm&)>& host) {
  Rates r;
  const size_t e = type == DataType::F64 ? 8 : 4, size = 1024;
  const double flops = 2.0 * double(size) * double(size) * double(size);
  const auto best_of_three = [](const std::function<void()>& f) {
    f();
    double best = seconds_of(f);
    for (int i = 0; i < 2; ++i) best = std::min(best, seconds_of(f));
    return best;
  };
  std::vector<unsigned char> storage(3 * size * size * e, 0);
  for (size_t i = 0; i < storage.size(); i += e) storage[i + e - 1] = 0x3f;  // 1/2^k-ish, finite
  BlasGemm h;
  h.m = h.n = h.k = h.lda = h.ldb = h.ldc = int64_t(size);
  h.type = type;
  h.a = storage.data(), h.b = storage.data() + size * size * e, h.c = storage.data() + 2 * size * size * e;
  r.host_flops = flops / best_of_three([&] { host(h); });
  std::vector<unsigned char> bytes(size_t(64) << 20);
  cl::Buffer probe(s.ctx->context(), CL_MEM_READ_WRITE, bytes.size());
  r.link_bytes = double(bytes.size()) / best_of_three([&] {
    s.staging->upload(probe, bytes.data(), 4096, 4096, 4096, 4);
    s.ctx->queue().finish();
  });
  // A, B and C in the probe's first 3 × 1024² elements (8 or 24 MiB of its 64), as uploaded.
  GemmCall call;
  call.layout = Layout::ColMajor;
  call.m = call.n = call.k = size;
  call.alpha = 1.0, call.beta = 0.0;
  call.a = {probe(), 0, size}, call.b = {probe(), size * size, size}, call.c = {probe(), 2 * size * size, size};
  call.a_type = call.b_type = call.c_type = type;
  r.device_flops = flops / best_of_three([&] {
    gemm(call, s.ctx->queue()());
    s.ctx->queue().finish();
  });
  if (tracing())
    std::fprintf(stderr, "clgemm_blas: %s rates: host %.1f GFLOP/s, device %.1f GFLOP/s, link %.2f GB/s\n",
                 type == DataType::F64 ? "f64" : "f32", r.host_flops * 1e-9, r.device_flops * 1e-9,
                 r.link_bytes * 1e-9);
  return r;
}

// The rates kept on disk, one line per device, driver, type and host BLAS library:
// "KEY<TAB>host_flops device_flops link_bytes", in the program cache's folder.
std::string rates_key(const DeviceInfo& d, DataType type, const void* host_symbol, bool pinned) {
  Dl_info info{};
  const std::string host = host_symbol && dladdr(host_symbol, &info) && info.dli_fname ? info.dli_fname : "?";
  // "1024b3|" (the size, best of three) and the transfers' way: rates measured another way are
  // measured again.
  std::string key = std::string("1024b3|") + (pinned ? "pinned|" : "pageable|") + d.platform + "|" + d.name + "|" +
                    d.driver + "|" + (type == DataType::F64 ? "f64" : "f32") + "|" + host;
  for (char& ch : key)
    if (ch == '\t' || ch == '\n') ch = ' ';
  return key;
}

bool read_rates(const std::string& file, const std::string& key, Rates& r) {
  if (file.empty()) return false;
  std::ifstream in(file);
  std::string line;
  while (std::getline(in, line)) {
    const size_t tab = line.find('\t');
    if (tab == std::string::npos || line.compare(0, tab, key) != 0 || tab != key.size()) continue;
    std::istringstream values(line.substr(tab + 1));
    Rates got;
    if (values >> got.host_flops >> got.device_flops >> got.link_bytes && got.host_flops > 0 && got.device_flops > 0 &&
        got.link_bytes > 0) {
      r = got;
      return true;
    }
  }
  return false;
}

// Appends the line through a temporary and a rename, so that a reader never sees half of it.
void write_rates(const std::string& file, const std::string& key, const Rates& r) {
  if (file.empty() || r.host_flops <= 0 || r.device_flops <= 0 || r.link_bytes <= 0) return;
  std::string kept;
  {
    std::ifstream in(file);
    std::string line;
    while (std::getline(in, line))
      if (line.compare(0, key.size() + 1, key + "\t") != 0) kept += line + "\n";
  }
  const std::string temporary = file + ".tmp" + std::to_string(::getpid());
  {
    std::ofstream out(temporary);
    out << kept << key << '\t' << r.host_flops << ' ' << r.device_flops << ' ' << r.link_bytes << '\n';
    if (!out) return;
  }
  std::rename(temporary.c_str(), file.c_str());
}

// Blocks of C (mb rows × nb columns) whose A rows, B columns and C block fit the device together.
struct Tiling {
  size_t m = 0, n = 0, count = 0;
};

// Bytes the tiles' three buffers may take together: $CLGEMM_BLAS_TILE_BYTES (for tests), else 80 %
// of the device's memory, no buffer above its largest allocation.
double tile_budget(const DeviceInfo& d, size_t e) {
  if (const char* v = std::getenv("CLGEMM_BLAS_TILE_BYTES"); v && *v) {
    const double b = std::strtod(v, nullptr);
    if (b >= double(3 * e)) return b;
  }
  return std::min(0.8 * double(d.global_mem_bytes), 3.0 * double(d.max_alloc_bytes));
}

// C whole where it fits, else halved along its longer side until the block fits; m = 0 where even
// one element of C with all of K does not.
Tiling tiles_for(const BlasGemm& g, double budget) {
  const double e = g.type == DataType::F64 ? 8 : 4, k = double(g.k);
  size_t mb = size_t(g.m), nb = size_t(g.n);
  const auto bytes = [&] { return e * (double(mb) * k + k * double(nb) + double(mb) * double(nb)); };
  while (bytes() > budget && (mb > 1 || nb > 1)) {
    if (mb >= nb) mb = (mb + 1) / 2;
    else nb = (nb + 1) / 2;
  }
  if (bytes() > budget) return {};
  return {mb, nb, ceil_div(size_t(g.m), mb) * ceil_div(size_t(g.n), nb)};
}

// The mb × nb block of C from row i0 and column j0 as a call of its own: op(A)'s rows i0… and
// op(B)'s columns j0… of the caller's arrays, with the caller's leading dimensions.
BlasGemm block_of(const BlasGemm& g, size_t i0, size_t j0, size_t mb, size_t nb) {
  const size_t e = element(g);
  BlasGemm b = g;
  b.m = int64_t(std::min(mb, size_t(g.m) - i0)), b.n = int64_t(std::min(nb, size_t(g.n) - j0));
  // op(A) rows i0…: rows of A as stored, or its columns where A is transposed.
  b.a = static_cast<const unsigned char*>(g.a) + (transposed(g.transa) ? i0 * size_t(g.lda) : i0) * e;
  // op(B) columns j0…: columns of B as stored, or its rows where B is transposed.
  b.b = static_cast<const unsigned char*>(g.b) + (transposed(g.transb) ? j0 : j0 * size_t(g.ldb)) * e;
  b.c = static_cast<unsigned char*>(g.c) + (j0 * size_t(g.ldc) + i0) * e;
  return b;
}

// The blocks of a tiling, column of blocks after column.
std::vector<BlasGemm> tiles_of(const BlasGemm& g, const Tiling& t) {
  std::vector<BlasGemm> out;
  for (size_t j0 = 0; j0 < size_t(g.n); j0 += t.n)
    for (size_t i0 = 0; i0 < size_t(g.m); i0 += t.m) out.push_back(block_of(g, i0, j0, t.m, t.n));
  return out;
}

}  // namespace

bool tracing() { return dropin::trace_requested(); }

void trace(const char* routine, const BlasGemm& g, const char* where) {
  if (!tracing()) return;
  std::fprintf(stderr, "clgemm_blas: %s %c%c %lldx%lldx%lld: %s\n", routine, g.transa, g.transb, (long long)g.m,
               (long long)g.n, (long long)g.k, where);
}

bool run_on_device(const BlasGemm& g, const char* routine, const std::function<void(const BlasGemm&)>& host,
                   const void* host_symbol) {
  const PolicySettings& p = settings();
  if (p.off || forked_child) return false;
  const double flops = 2.0 * double(g.m) * double(g.n) * double(g.k);
  if (p.min_flops >= 0 ? flops < p.min_flops : flops < kMeasureFromFlops) return false;
  DeviceState& s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  if (!open_device(s)) return false;
  const Tiling tiling = tiles_for(g, tile_budget(s.info, element(g)));
  if (tiling.m == 0) return false;  // not even one row and one column of C fit with all of K
  size_t done = 0, columns_done = 0;  // whole tiles, and columns of the next one
  try {
    // Without a host BLAS to compare with (or fall back to), the device takes every call it can.
    if (p.min_flops < 0 && host) {
      const int t = g.type == DataType::F64 ? 1 : 0;
      if (!s.measured[t]) {
        const std::string key = rates_key(s.info, g.type, host_symbol, s.staging->pinned());
        const std::string file = s.ctx->program_cache_dir().empty() ? "" : s.ctx->program_cache_dir() + "/blas_rates.txt";
        if (!read_rates(file, key, s.rates[t])) {
          s.rates[t] = measure(s, g.type, host);
          write_rates(file, key, s.rates[t]);
        } else if (tracing()) {
          std::fprintf(stderr, "clgemm_blas: rates for %s from %s: host %.1f GFLOP/s, device %.1f GFLOP/s, link %.2f GB/s\n",
                       key.c_str(), file.c_str(), s.rates[t].host_flops * 1e-9, s.rates[t].device_flops * 1e-9,
                       s.rates[t].link_bytes * 1e-9);
        }
        s.measured[t] = true;
      }
      if (!device_pays(s.rates[t], g)) return false;
    }
    for (const BlasGemm& tile : tiles_of(g, tiling)) {
      device_gemm(s, tile);
      ++done;
    }
  } catch (const std::exception& e) {
    if (const auto* partial = dynamic_cast<const PartialDownload*>(&e)) columns_done = partial->columns_done;
    if (!s.failure_said) {
      std::fprintf(stderr, "clgemm_blas: the device failed (%s); such calls run on the host BLAS\n", e.what());
      s.failure_said = true;
    }
    // Nothing of C written: the host runs the whole call. Otherwise the tiles done (and the
    // columns of the next one read back) hold their result and the host runs the rest; without a
    // host BLAS that rest stays undone, and stderr says so.
    if (done == 0 && columns_done == 0) return false;
    if (!host) {
      std::fprintf(stderr, "clgemm_blas: no host BLAS to finish %s after the device failed; part of C is not computed\n",
                   routine);
      return true;
    }
    const std::vector<BlasGemm> all = tiles_of(g, tiling);
    for (size_t i = done; i < all.size(); ++i)
      host(i == done && columns_done ? block_of(all[i], 0, columns_done, size_t(all[i].m), size_t(all[i].n)) : all[i]);
  }
  trace(routine, g, tiling.count > 1 ? ("device " + s.info.name + ", " + std::to_string(tiling.count) + " tiles").c_str()
                                     : ("device " + s.info.name).c_str());
  return true;
}

}  // namespace clgemm::blas
