// cp_async.cl — copies from global to local memory that bypass registers (NVIDIA sm_80+, inline
// PTX), for the kernels that stage tiles through a cp.async pipeline (xmma, dmma, wgmma). A
// __local pointer converted to an integer is its address in the shared window.
//
//   CP_ASYNC16(dst, src)          16 bytes from src to the __local pointer dst (L2 only: a tile is
//                                 read once per work-group)
//   CP_ASYNC16_ZFILL(a, src, n)   16 bytes to shared address a, of which the first n come from src
//                                 and the rest are zeros (n = 0 reads nothing)
//   CP_ASYNC8_ZFILL(a, src, n)    8 bytes to shared address a, of which the first n (0 or 8) come
//                                 from src (through L1: the 16-byte form alone may skip it)
//   CP_COMMIT()                   closes the group of copies started since the last commit
//   CP_WAIT(n)                    waits until at most n groups of this work-item are in flight

#define CP_ASYNC16(dst, src) __asm__ volatile("cp.async.cg.shared.global [%0], [%1], 16;" \
    :: "r"((uint)(size_t)(dst)), "l"((ulong)(src)) : "memory")
#define CP_ASYNC16_ZFILL(a, src, n) __asm__ volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;" \
    :: "r"(a), "l"((ulong)(src)), "r"(n) : "memory")
#define CP_ASYNC8_ZFILL(a, src, n) __asm__ volatile("cp.async.ca.shared.global [%0], [%1], 8, %2;" \
    :: "r"(a), "l"((ulong)(src)), "r"(n) : "memory")
#define CP_COMMIT() __asm__ volatile("cp.async.commit_group;" ::: "memory")
#define CP_WAIT_(n) __asm__ volatile("cp.async.wait_group " #n ";" ::: "memory")
#define CP_WAIT(n) CP_WAIT_(n)
