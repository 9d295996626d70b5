// element_storage.cpp — host values as the bytes of a device buffer of each element type, and
// back (clgemm/cpu.hpp: float_to_half and the other 16-bit conversions, to_storage, from_storage).
#include <clgemm/cpu.hpp>

#include <cmath>
#include <cstring>
#include <limits>

namespace clgemm::cpu {

uint16_t float_to_half(float f) {
  uint32_t x;
  std::memcpy(&x, &f, 4);
  const uint32_t sign = (x >> 16) & 0x8000u;
  const uint32_t abs = x & 0x7fffffffu;
  if (abs > 0x7f800000u) return uint16_t(sign | 0x7e00u);   // NaN
  if (abs >= 0x477ff000u) return uint16_t(sign | 0x7c00u);  // rounds to infinity
  if (abs < 0x38800000u) {  // a subnormal half (or zero): units of 2^-24, exact in float
    const float scaled = std::fabs(f) * 16777216.0f;
    return uint16_t(sign | uint32_t(std::nearbyint(scaled)));
  }
  const uint32_t rounded = abs + 0xfffu + ((abs >> 13) & 1u);
  return uint16_t(sign | ((rounded - 0x38000000u) >> 13));
}

float half_to_float(uint16_t h) {
  const uint32_t exp = (h >> 10) & 0x1fu, man = h & 0x3ffu;
  float f;
  if (exp == 0) {
    f = std::ldexp(float(man), -24);
  } else if (exp == 31) {
    f = man ? std::numeric_limits<float>::quiet_NaN() : std::numeric_limits<float>::infinity();
  } else {
    const uint32_t bits = ((exp + 112) << 23) | (man << 13);
    std::memcpy(&f, &bits, 4);
  }
  return (h & 0x8000u) ? -f : f;
}

uint16_t float_to_bf16(float f) {
  uint32_t x;
  std::memcpy(&x, &f, 4);
  if ((x & 0x7fffffffu) > 0x7f800000u) return uint16_t((x >> 16) | 0x40u);  // a quiet NaN
  return uint16_t((x + 0x7fffu + ((x >> 16) & 1u)) >> 16);
}

float bf16_to_float(uint16_t b) {
  const uint32_t x = uint32_t(b) << 16;
  float f;
  std::memcpy(&f, &x, 4);
  return f;
}

// f16 and bf16 go through float: a double rounded to float and then to 16 bits can differ from
// one rounded straight to 16 bits only where the float rounding lands on a 16-bit tie, which
// takes a double with more than 24 significant bits (never the case for float inputs).
std::vector<unsigned char> to_storage(DataType type, const std::vector<double>& values) {
  const size_t size = data_type_bytes(type);
  std::vector<unsigned char> out(values.size() * size);
  for (size_t i = 0; i < values.size(); ++i) {
    unsigned char* at = &out[i * size];
    switch (type) {
      case DataType::F64: std::memcpy(at, &values[i], 8); break;
      case DataType::F16: { const uint16_t h = float_to_half(float(values[i])); std::memcpy(at, &h, 2); break; }
      case DataType::BF16: { const uint16_t b = float_to_bf16(float(values[i])); std::memcpy(at, &b, 2); break; }
      default: { const float f = float(values[i]); std::memcpy(at, &f, 4); break; }
    }
  }
  return out;
}

std::vector<double> from_storage(DataType type, const void* bytes, size_t count) {
  const auto* in = static_cast<const unsigned char*>(bytes);
  const size_t size = data_type_bytes(type);
  std::vector<double> out(count);
  for (size_t i = 0; i < count; ++i) {
    const unsigned char* at = in + i * size;
    switch (type) {
      case DataType::F64: std::memcpy(&out[i], at, 8); break;
      case DataType::F16: { uint16_t h; std::memcpy(&h, at, 2); out[i] = half_to_float(h); break; }
      case DataType::BF16: { uint16_t b; std::memcpy(&b, at, 2); out[i] = bf16_to_float(b); break; }
      default: { float f; std::memcpy(&f, at, 4); out[i] = f; break; }
    }
  }
  return out;
}

}  // namespace clgemm::cpu
