// tensor_maps.hpp — tensor maps for Hopper's tensor memory accelerator (TMA), which OpenCL has no
// API for. libcuda (the NVIDIA driver's, which NVIDIA's OpenCL stands on) encodes them: it is
// loaded at run time, so clgemm neither links CUDA nor needs it on other devices. A map is 128
// bytes of plain data naming a tensor's address, sizes and strides and the box that one copy
// moves. The host cannot learn where an OpenCL buffer lives, so maps are encoded with a
// placeholder address that the kernel replaces on the device (kernels/gemm/wgmma/wgmma.cl).
#pragma once

#include <clgemm/device.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>

namespace clgemm::detail {

// A tiled map: rank 2 or 3, dimensions innermost first. TMA copies raw bits (elements of 2 or 4
// bytes) and writes zeros for every element of a box past the tensor's edge.
struct TiledMapSpec {
  size_t element_bytes = 2;
  size_t rank = 2;
  std::array<uint64_t, 3> dims{1, 1, 1};     // elements
  std::array<uint64_t, 2> strides{0, 0};     // bytes between steps of dimensions 1 and 2
  std::array<uint32_t, 3> box{1, 1, 1};      // elements one copy moves along each dimension
  size_t swizzle_bytes = 128;                // 32, 64 or 128: the box's row, swizzled in local memory
};

using TensorMapBytes = std::array<uint64_t, 16>;

// The address that encoded maps carry until the device puts the real one in.
constexpr uint64_t kTensorMapPlaceholder = 0x100000;

// Whether maps can be encoded for `device`: an NVIDIA GPU that libcuda lists, whose primary CUDA
// context (the encoder needs one current) is active already, or which $CLGEMM_TENSOR_MAPS=1 lets
// clgemm retain itself, at about half a gigabyte of device memory; $CLGEMM_TENSOR_MAPS=0 says no.
// A context once retained is kept, and the answer remembered; "not active" is asked again.
bool tensor_maps_available(const DeviceInfo& device);

// The map for `spec` with the placeholder address, or nullopt where the encoder refuses it (a
// stride it cannot take, for one) or is not available.
std::optional<TensorMapBytes> encode_tensor_map(const DeviceInfo& device, const TiledMapSpec& spec);

// Tests stand in for libcuda here: while set, `encoder` answers both functions above (its result
// for availability is whether it returns a map for a 2-D spec). An empty function restores libcuda.
void set_tensor_map_encoder_for_testing(std::function<std::optional<TensorMapBytes>(const TiledMapSpec&)> encoder);

}  // namespace clgemm::detail
