// policy.cpp — the variables and the model.
#include "dropin/blas/policy.hpp"

#include <cstdlib>
#include <cstring>

namespace clgemm::blas {

const PolicySettings& settings() {
  static const PolicySettings s = [] {
    PolicySettings p;
    if (const char* v = std::getenv("CLGEMM_BLAS")) p.off = std::strcmp(v, "off") == 0 || std::strcmp(v, "0") == 0;
    if (const char* v = std::getenv("CLGEMM_BLAS_DEVICE")) p.device = v;
    if (const char* v = std::getenv("CLGEMM_BLAS_MIN_FLOPS"); v && *v) {
      char* end = nullptr;
      const double f = std::strtod(v, &end);
      if (end && *end == '\0' && f >= 0) p.min_flops = f;
    }
    return p;
  }();
  return s;
}

bool device_pays(const Rates& r, const BlasGemm& g) {
  if (r.host_flops <= 0 || r.device_flops <= 0 || r.link_bytes <= 0) return false;
  const double flops = 2.0 * double(g.m) * double(g.n) * double(g.k);
  const double element = g.type == DataType::F64 ? 8 : 4;
  const double bytes = element * (double(g.m) * double(g.k) + double(g.k) * double(g.n) +
                                  double(g.m) * double(g.n) * (g.beta != 0.0 ? 2 : 1));
  const double device = kDeviceCallSeconds + bytes / r.link_bytes + flops / r.device_flops;
  return device < flops / r.host_flops;
}

}  // namespace clgemm::blas
