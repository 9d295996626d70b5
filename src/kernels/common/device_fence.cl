// device_fence.cl — DEVICE_FENCE(): makes this work-item's global stores visible to every
// work-group before it goes on (release), or theirs to it (acquire), for kernels whose last
// work-group to finish a piece of work adds up what the others stored. membar.gl is what CUDA's
// __threadfence() is (NV_FENCE, on NVIDIA devices that take inline PTX); elsewhere mem_fence.

#ifndef NV_FENCE
#define NV_FENCE 0
#endif
#if NV_FENCE
#define DEVICE_FENCE() __asm__ volatile("membar.gl;" ::: "memory")
#else
#define DEVICE_FENCE() mem_fence(CLK_GLOBAL_MEM_FENCE)
#endif
