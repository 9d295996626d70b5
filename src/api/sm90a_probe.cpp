// sm90a_probe.cpp — see sm90a_probe.hpp.
#include "api/sm90a_probe.hpp"

#include "kernels/gemm/wgmma/wgmma_kernel.hpp"
#include "plan/wgmma_launch.hpp"
#include "runtime/local_limits.hpp"
#include "runtime/tensor_maps.hpp"

namespace clgemm::detail {

bool sm90a_patching(const Context& ctx) {
  if (!wgmma_architecture(ctx.info())) return false;
  // Remembered on the context: every f16, bf16 or TF32 call asks, and the probe's options, rules
  // and program-cache key are kilobytes of text to build each time.
  return ctx.feature("sm90a patching", [&] {
    const GemmKernelDescriptor& d = wgmma_descriptor();
    const KernelParams ps = resolve_params(d, with_local_limits(ctx), {});
    return ctx.patched_kernel(d.program_sources(), wgmma_options(ps, DataType::F16, DataType::F32), d.entry,
                              wgmma_rules(ps, DataType::F16))
        .has_value();
  });
}

const DeviceInfo& planning_device(const Context& ctx, DataType type, Math math, DeviceInfo& scratch) {
  const bool wgmma = wgmma_arithmetic(type, math) && sm90a_patching(ctx);
  // The mma.sync kernels (dmma for doubles, xmma for TF32 and 3xTF32) declare static arrays too.
  const bool mma_sync = tensor_path_available(ctx.info()) &&
                        (type == DataType::F64 || (type == DataType::F32 && math != Math::Fp32));
  if (!wgmma && !mma_sync) return ctx.info();
  scratch = with_local_limits(ctx);
  if (!wgmma) return scratch;
  scratch.sm90a_patching = true;
  scratch.tensor_maps = tensor_maps_available(scratch);
  return scratch;
}

}  // namespace clgemm::detail

namespace clgemm {

DeviceInfo planning_device(const DeviceInfo& device) {
  DeviceInfo out = device;
  const bool nvidia_gpu = device.vendor.find("NVIDIA") != std::string::npos && device.kind == DeviceKind::GPU;
  if (!nvidia_gpu) return out;
  const Context ctx(device);
  out.static_local_bytes = detail::static_local_limit(ctx);
  if (!detail::wgmma_architecture(device)) return out;
  out.sm90a_patching = detail::sm90a_patching(ctx);
  out.tensor_maps = out.sm90a_patching && detail::tensor_maps_available(out);
  return out;
}

}  // namespace clgemm
