// param_space.cpp — configurations of a kernel's parameter space for the tuner to measure.
#include "tune/param_space.hpp"
#include "kernels/gemm/tunable_kernels.hpp"

#include <clgemm/error.hpp>

#include <algorithm>

namespace clgemm::detail {

KernelParams with_fixed(KernelParams ps, const KernelParams& fixed) {
  for (const auto& [name, value] : fixed) ps[name] = value;
  return ps;
}

size_t fit(size_t x) {
  size_t p2 = 16;
  while (p2 < x) p2 *= 2;
  return p2;
}

bool fits_shape(const GemmKernelDescriptor& d, const KernelParams& ps, const GemmShape& s) {
  if (!d.tile) return true;
  const auto [tm, tn] = d.tile(ps);
  return tm <= fit(s.m) && tn <= fit(s.n);
}

std::optional<KernelParams> random_valid(const GemmKernelDescriptor& d, const DeviceInfo& dev, const GemmShape& s,
                                         const KernelParams& fixed, std::mt19937_64& rng) {
  for (int attempt = 0; attempt < 4000; ++attempt) {
    KernelParams ps = fixed;
    for (const auto& spec : d.params)
      if (!spec.values.empty() && !fixed.count(spec.name)) ps[spec.name] = spec.values[rng() % spec.values.size()];
    try {
      ps = resolve_params(d, dev, ps);
      if (fits_shape(d, ps, s)) return ps;
    } catch (const Error&) {
    }
  }
  return std::nullopt;
}

std::optional<KernelParams> fitted_defaults(const GemmKernelDescriptor& d, const DeviceInfo& dev, const GemmShape& s,
                                            const KernelParams& fixed) {
  // The tensor paths' targets (2048³ and 4096³) fit their largest tiles already.
  if (!d.tile || tunable_family(d.info.id).tensor) return std::nullopt;
  KernelParams ps;
  try {
    ps = resolve_params(d, dev, fixed);
  } catch (const Error&) {  // defaults this precision cannot run (f64's local memory, registers)
    return std::nullopt;
  }
  const bool x = d.info.id == "xgemm";
  const char* rows = x ? "MWG" : "TM";
  const char* cols = x ? "NWG" : "TN";
  const char* rdim = x ? "MDIMC" : "WM";
  const char* cdim = x ? "NDIMC" : "WN";
  for (int step = 0; step < 8 && !fits_shape(d, ps, s); ++step) {
    if (size_t(ps[rows]) > fit(s.m)) {
      ps[rows] /= 2;
      if (x) ps[rdim] = std::max(1L, std::min(ps[rdim], ps[rows] / ps["VWM"]));
      else ps[rdim] = std::max(1L, std::min(ps[rdim], ps[rows]));
    }
    if (size_t(ps[cols]) > fit(s.n)) {
      ps[cols] /= 2;
      if (x) ps[cdim] = std::max(1L, std::min(ps[cdim], ps[cols] / ps["VWN"]));
      else ps[cdim] = std::max(1L, std::min(ps[cdim], ps[cols]));
    }
  }
  try {
    ps = resolve_params(d, dev, ps);
    return fits_shape(d, ps, s) ? std::optional<KernelParams>(ps) : std::nullopt;
  } catch (const Error&) {
    return std::nullopt;
  }
}

std::vector<KernelParams> neighbours(const GemmKernelDescriptor& d, const DeviceInfo& dev, const KernelParams& ps,
                                     const GemmShape& s, const KernelParams& fixed) {
  std::vector<KernelParams> out;
  for (const auto& spec : d.params) {
    if (fixed.count(spec.name)) continue;
    const auto& v = spec.values;
    const auto it = std::find(v.begin(), v.end(), ps.at(spec.name));
    if (it == v.end()) continue;
    for (int step : {-1, 1}) {
      const long i = long(it - v.begin()) + step;
      if (i < 0 || i >= long(v.size())) continue;
      KernelParams n = ps;
      n[spec.name] = v[size_t(i)];
      try {
        n = resolve_params(d, dev, n);
        if (fits_shape(d, n, s)) out.push_back(n);
      } catch (const Error&) {
      }
    }
  }
  return out;
}

}  // namespace clgemm::detail
