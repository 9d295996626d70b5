// tiny_kernel.cpp — when the tiny kernel runs and with what work-group (tiny_kernel.hpp).
#include "kernels/gemm/tiny/tiny_kernel.hpp"

#include <clgemm/error.hpp>

#include <string>

namespace clgemm::detail {

bool tiny_pays(size_t m, size_t n, size_t k, size_t batch) {
  return batch > 1 && m * n <= kTinyMaxElements && k <= kTinyMaxK;
}

KernelParams tiny_params(const KernelParams& overrides, long precision) {
  KernelParams ps = {{"WG", 256}, {"PRECISION", precision}};
  for (const auto& [name, value] : overrides) {
    if (name != "WG" && name != "PRECISION")
      throw Error(Status::InvalidArgument, "the tiny kernel takes WG (work-items per work-group), not " + name);
    ps[name] = value;
  }
  const long wg = ps.at("WG");
  if (wg < 32 || wg > 1024 || wg % 32 != 0)
    throw Error(Status::InvalidArgument,
                "tiny kernel: WG = " + std::to_string(wg) + " must be a multiple of 32 from 32 to 1024");
  return ps;
}

}  // namespace clgemm::detail
