// bench/float16.hpp — the 16-bit floating-point formats on the host: IEEE half (f16) and bfloat16,
// to and from float, rounding to nearest even as the device's stores do (vstore_half_rte, and
// clgemm's bf16 store). The bench rounds its inputs with these, reads 16-bit results back with
// them, and the tests build their 16-bit operands the same way.
#pragma once

#include <cstdint>

namespace clgemm::bench {

// Round to nearest even; overflow gives an infinity, NaN stays NaN, subnormals are kept.
uint16_t float_to_half(float f);
float half_to_float(uint16_t h);  // exact

// Round to nearest even (the upper 16 bits of a float, rounded); NaN stays a quiet NaN.
uint16_t float_to_bf16(float f);
float bf16_to_float(uint16_t b);  // exact

}  // namespace clgemm::bench
