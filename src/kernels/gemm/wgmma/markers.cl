// wgmma/markers.cl — the inline-asm comments that the host replaces with wgmma instructions in the
// PTX (runtime/ptx_markers.hpp; the rules: wgmma_kernel.cpp), with the registers they name.

// The register operands of the markers: %0 .. %(NACC-1) are the accumulators.
#define OPS10(t) " %" #t "0 %" #t "1 %" #t "2 %" #t "3 %" #t "4 %" #t "5 %" #t "6 %" #t "7 %" #t "8 %" #t "9"
#define OPS_32 " %0 %1 %2 %3 %4 %5 %6 %7 %8 %9" OPS10(1) OPS10(2) " %30 %31"
#define OPS_64 OPS_32 " %32 %33 %34 %35 %36 %37 %38 %39" OPS10(4) OPS10(5) " %60 %61 %62 %63"
#define OPS_96 OPS_64 " %64 %65 %66 %67 %68 %69" OPS10(7) OPS10(8) " %90 %91 %92 %93 %94 %95"
#define OPS_128 OPS_64 " %64 %65 %66 %67 %68 %69" OPS10(7) OPS10(8) OPS10(9) OPS10(10) OPS10(11) \
    " %120 %121 %122 %123 %124 %125 %126 %127"
#define ACC8(x, i) "+f"(x[(i)]), "+f"(x[(i) + 1]), "+f"(x[(i) + 2]), "+f"(x[(i) + 3]), \
    "+f"(x[(i) + 4]), "+f"(x[(i) + 5]), "+f"(x[(i) + 6]), "+f"(x[(i) + 7])
#define ACC_32(x) ACC8(x, 0), ACC8(x, 8), ACC8(x, 16), ACC8(x, 24)
#define ACC_64(x) ACC_32(x), ACC8(x, 32), ACC8(x, 40), ACC8(x, 48), ACC8(x, 56)
#define ACC_96(x) ACC_64(x), ACC8(x, 64), ACC8(x, 72), ACC8(x, 80), ACC8(x, 88)
#define ACC_128(x) ACC_64(x), ACC8(x, 64), ACC8(x, 72), ACC8(x, 80), ACC8(x, 88), ACC8(x, 96), ACC8(x, 104), \
    ACC8(x, 112), ACC8(x, 120)
#if NACC == 32
#define OPS OPS_32
#define ACC ACC_32
#define OP_DA " %32"
#define OP_DB " %33"
#define OP_R8 " %32 %33 %34 %35 %36 %37 %38 %39"
#define OP_R10 OP_R8 " %40 %41"
#elif NACC == 64
#define OPS OPS_64
#define ACC ACC_64
#define OP_DA " %64"
#define OP_DB " %65"
#define OP_R8 " %64 %65 %66 %67 %68 %69 %70 %71"
#define OP_R10 OP_R8 " %72 %73"
#elif NACC == 96
#define OPS OPS_96
#define ACC ACC_96
#define OP_DA " %96"
#define OP_DB " %97"
#define OP_R8 " %96 %97 %98 %99 %100 %101 %102 %103"
#define OP_R10 OP_R8 " %104 %105"
#else
#define OPS OPS_128
#define ACC ACC_128
#define OP_DA " %128"
#define OP_DB " %129"
#define OP_R8 " %128 %129 %130 %131 %132 %133 %134 %135"
#define OP_R10 OP_R8 " %136 %137"
#endif

// Issues the slice's MMAS wgmma into accumulators x on descriptors da and db (rule wgmma_mma:
// fence, the instructions with the descriptors advanced 32 bytes each, commit); waits until at
// most INFLIGHT commit groups of this warpgroup still run (rule wgmma_wait, naming accumulators
// x), or none (wgmma_drain). Each names every accumulator of its block, so the compiler keeps
// them in the same registers throughout and touches none while the tensor cores may write them.
#define WGMMA_ISSUE(x, da, db) __asm__ volatile("// PATCH:wgmma_mma" OPS OP_DA OP_DB : ACC(x) : "l"(da), "l"(db) : "memory")
#define WGMMA_WAIT(x) __asm__ volatile("// PATCH:wgmma_wait" OPS : ACC(x) :: "memory")
#define WGMMA_DRAIN(x) __asm__ volatile("// PATCH:wgmma_drain" OPS : ACC(x) :: "memory")
// 3xTF32 (rule wgmma_mma3): one k8 step's three products into step accumulators x, the first
// from zero — a_lo·b_hi, a_hi·b_lo, a_hi·b_hi, with A's fragments lo and hi (uint4) in registers
// and B's on descriptors dbh and dbl — and one commit. wgmma reads the fragments' registers while
// it runs, so the waits (rules wgmma_wait_one_a: at most one commit group still runs;
// wgmma_drain_a: none) name them too, which keeps the compiler from reusing them before.
#define A_FRAGMENT(f) "r"(f.s0), "r"(f.s1), "r"(f.s2), "r"(f.s3)
#define A_FRAGMENT_KEPT(f) "+r"(f.s0), "+r"(f.s1), "+r"(f.s2), "+r"(f.s3)
#define WGMMA_ISSUE3(x, lo, hi, dbh, dbl) __asm__ volatile("// PATCH:wgmma_mma3" OPS OP_R10 : ACC(x) \
    : A_FRAGMENT(lo), A_FRAGMENT(hi), "l"(dbh), "l"(dbl) : "memory")
#define WGMMA_WAIT_ONE_A(x, lo, hi) __asm__ volatile("// PATCH:wgmma_wait_one_a" OPS OP_R8 \
    : ACC(x), A_FRAGMENT_KEPT(lo), A_FRAGMENT_KEPT(hi) :: "memory")
#define WGMMA_DRAIN_A(x, lo, hi) __asm__ volatile("// PATCH:wgmma_drain_a" OPS OP_R8 \
    : ACC(x), A_FRAGMENT_KEPT(lo), A_FRAGMENT_KEPT(hi) :: "memory")

// B_REGS (an N-major float32 B): one slice's MMAS products for one block, with Bᵀ's fragments
// (uint4 f[MMAS]) in registers as wgmma's A and A's slice K-major on descriptor da as its B (rule
// wgmma_mma_r: fence, the instructions with da advanced 32 bytes each, commit), and the wait for
// them (wgmma_drain_r), which names the fragments so that the compiler keeps their registers until
// the tensor cores have read them.
#if B_REGS
#if NACC == 32
#define OP_F8 " %32 %33 %34 %35 %36 %37 %38 %39"
#define OP_F16 OP_F8 " %40 %41 %42 %43 %44 %45 %46 %47"
#define OP_F8_DA " %40"
#define OP_F16_DA " %48"
#else
#define OP_F8 " %64 %65 %66 %67 %68 %69 %70 %71"
#define OP_F16 OP_F8 " %72 %73 %74 %75 %76 %77 %78 %79"
#define OP_F8_DA " %72"
#define OP_F16_DA " %80"
#endif
#if MMAS == 2
#define OP_FRAGS OP_F8
#define OP_FRAGS_DA OP_F8_DA
#define FRAGS(f) A_FRAGMENT(f[0]), A_FRAGMENT(f[1])
#define FRAGS_KEPT(f) A_FRAGMENT_KEPT(f[0]), A_FRAGMENT_KEPT(f[1])
#else
#define OP_FRAGS OP_F16
#define OP_FRAGS_DA OP_F16_DA
#define FRAGS(f) A_FRAGMENT(f[0]), A_FRAGMENT(f[1]), A_FRAGMENT(f[2]), A_FRAGMENT(f[3])
#define FRAGS_KEPT(f) A_FRAGMENT_KEPT(f[0]), A_FRAGMENT_KEPT(f[1]), A_FRAGMENT_KEPT(f[2]), A_FRAGMENT_KEPT(f[3])
#endif
#define WGMMA_ISSUE_R(x, f, da) __asm__ volatile("// PATCH:wgmma_mma_r" OPS OP_FRAGS OP_FRAGS_DA : ACC(x) \
    : FRAGS(f), "l"(da) : "memory")
#define WGMMA_DRAIN_R(x, f) __asm__ volatile("// PATCH:wgmma_drain_r" OPS OP_FRAGS : ACC(x), FRAGS_KEPT(f) :: "memory")
#endif

// WS (gemm/wgmma/warp_specialised.cl): the register budget moves from the producer's warpgroup to
// the consumers' (rules setmaxnreg_dec and setmaxnreg_inc: setmaxnreg, sm_90a; empty where the
// host gives no budget). Every work-item of a warpgroup runs its warpgroup's one.
#define SETMAXNREG_DEC() __asm__ volatile("// PATCH:setmaxnreg_dec" ::: "memory")
#define SETMAXNREG_INC() __asm__ volatile("// PATCH:setmaxnreg_inc" ::: "memory")
