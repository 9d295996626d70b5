// tensor_map_fix.cl — puts the operands' device addresses into two tensor maps that the host
// encoded with a placeholder address (runtime/tensor_maps.hpp): an OpenCL host cannot learn where
// a buffer lives, a kernel can. One work-item copies both maps into `maps`, replaces their
// addresses (tensormap.replace, sm_90a: the host patches the markers, kernels/util/tensor_map_fix.cpp)
// and releases them to the tensor-map proxy; the wgmma kernel acquires them before its first copy.

typedef struct { ulong word[16]; } tensor_map;

__kernel __attribute__((reqd_work_group_size(1, 1, 1)))
void tensor_map_fix(const tensor_map a_map, __global const uchar* A, const ulong a_bytes, const tensor_map b_map,
                    __global const uchar* B, const ulong b_bytes, __global tensor_map* maps) {
  maps[0] = a_map;
  maps[1] = b_map;
  __asm__ volatile("// PATCH:tensormap_address %0 %1" :: "l"((ulong)&maps[0]), "l"((ulong)(A + a_bytes)) : "memory");
  __asm__ volatile("// PATCH:tensormap_address %0 %1" :: "l"((ulong)&maps[1]), "l"((ulong)(B + b_bytes)) : "memory");
  __asm__ volatile("fence.proxy.tensormap::generic.release.gpu;" ::: "memory");
}
