// tunable_kernels.cpp — the table of tunable GEMM kernel families.
#include "kernels/gemm/tunable_kernels.hpp"

#include <clgemm/error.hpp>

#include "kernels/gemm/direct/direct_kernel.hpp"
#include "kernels/gemm/dmma/dmma_kernel.hpp"
#include "kernels/gemm/wgmma/wgmma_kernel.hpp"
#include "kernels/gemm/xgemm/xgemm_kernel.hpp"
#include "kernels/gemm/xmma/xmma_kernel.hpp"

#include <algorithm>

namespace clgemm::detail {

namespace {

bool any_type(DataType) { return true; }
bool f32_only(DataType t) { return t == DataType::F32; }
bool f64_only(DataType t) { return t == DataType::F64; }

size_t items_of(const GemmShape& s) { return std::max<size_t>(s.batch, 1); }

KernelParams xmma_rule(const DeviceInfo& device, const GemmShape& s, DataType) { return xmma_tiles(device, s.m, s.n); }

KernelParams wgmma_rule(const DeviceInfo& device, const GemmShape& s, DataType operands) {
  return wgmma_tiles(device, s.m, s.n, s.k, items_of(s), operands, Math::Tf32);
}

KernelParams dmma_rule(const DeviceInfo& device, const GemmShape& s, DataType) {
  return dmma_tiles(device, s.m, s.n, items_of(s));
}

}  // namespace

const std::vector<KernelFamily>& tunable_families() {
  static const std::vector<KernelFamily> families = {
      {"xgemm", GemmPath::Packed, false, true, xgemm_descriptor, any_type, "any type"},
      {"direct", GemmPath::Direct, false, false, direct_descriptor, any_type, "any type"},
      // xmma and dmma are the tensor path of f32 and of f64 operands.
      {"xmma", GemmPath::Tensor, true, false, xmma_descriptor, f32_only, "f32", xmma_rule},
      {"wgmma", GemmPath::Wgmma, true, false, wgmma_descriptor, wgmma_input, "f16, bf16 or f32", wgmma_rule},
      {"dmma", GemmPath::Tensor, true, false, dmma_descriptor, f64_only, "f64", dmma_rule},
  };
  return families;
}

const KernelFamily* find_tunable_family(const std::string& kernel) {
  for (const KernelFamily& f : tunable_families())
    if (f.id == kernel) return &f;
  return nullptr;
}

bool is_tunable_family(const std::string& kernel) { return find_tunable_family(kernel) != nullptr; }

std::string tunable_family_names() {
  std::string names;
  for (const KernelFamily& f : tunable_families()) names += (names.empty() ? "" : ", ") + f.id;
  return names;
}

const KernelFamily& tunable_family(const std::string& kernel) {
  if (const KernelFamily* f = find_tunable_family(kernel)) return *f;
  throw Error(Status::InvalidArgument, "no tunable kernel named '" + kernel + "' (" + tunable_family_names() + ")");
}

const GemmKernelDescriptor& tunable_descriptor(const std::string& kernel) { return tunable_family(kernel).descriptor(); }

}  // namespace clgemm::detail
