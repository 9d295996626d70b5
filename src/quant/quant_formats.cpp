// quant_formats.cpp — the facts of the four GGUF block formats, and their quantization and
// dequantization on the host.
#include <clgemm/cpu.hpp>
#include <clgemm/error.hpp>
#include <clgemm/quant.hpp>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstring>

namespace clgemm {

namespace {

constexpr size_t kQ8_0Bytes = 34, kQ4_0Bytes = 18, kQ4_KBytes = 144, kQ6_KBytes = 210;

void check_format(QuantFormat f) {
  if (int(f) < int(QuantFormat::Q8_0) || int(f) > int(QuantFormat::Q6_K))
    throw Error(Status::InvalidQuantFormat, "the quantized format is " + std::to_string(int(f)) +
                                                "; it must be q8_0, q4_0, q4_k or q6_k (clgemm::QuantFormat 0-3)");
}

float half_at(const uint8_t* p) {
  uint16_t h;
  std::memcpy(&h, p, 2);
  return cpu::half_to_float(h);
}

// Stores `v` as a half and returns the value the half holds, which dequantization will use.
float put_half(uint8_t* p, float v) {
  const uint16_t h = cpu::float_to_half(v);
  std::memcpy(p, &h, 2);
  return cpu::half_to_float(h);
}

int clamp_round(float v, int lo, int hi) {
  const long r = std::lround(v);
  return int(std::min<long>(hi, std::max<long>(lo, r)));
}

// The value of largest magnitude in x[0..n), with its sign.
float signed_max(const float* x, size_t n) {
  float best = 0.0f;
  for (size_t i = 0; i < n; ++i)
    if (std::fabs(x[i]) > std::fabs(best)) best = x[i];
  return best;
}

void quantize_q8_0(const float* x, uint8_t* b) {
  float amax = 0.0f;
  for (int i = 0; i < 32; ++i) amax = std::max(amax, std::fabs(x[i]));
  const float d = put_half(b, amax / 127.0f);
  for (int i = 0; i < 32; ++i) b[2 + i] = uint8_t(int8_t(d != 0.0f ? clamp_round(x[i] / d, -127, 127) : 0));
}

void quantize_q4_0(const float* x, uint8_t* b) {
  // The signed maximum maps to −8, so the other side reaches +7 at most.
  const float d = put_half(b, signed_max(x, 32) / -8.0f);
  for (int j = 0; j < 16; ++j) {
    const int lo = d != 0.0f ? clamp_round(x[j] / d + 8.0f, 0, 15) : 8;
    const int hi = d != 0.0f ? clamp_round(x[j + 16] / d + 8.0f, 0, 15) : 8;
    b[2 + j] = uint8_t(lo | (hi << 4));
  }
}

// Q4_K's eight 6-bit scales and mins, packed into 12 bytes as ggml's get_scale_min_k4 reads them:
// sub-blocks 0-3 keep theirs in the low six bits of bytes 0-3 (scales) and 4-7 (mins); sub-blocks
// 4-7 keep their low four bits in bytes 8-11 and their top two in the spare bits of bytes 0-7.
void pack_q4_k_scales(const int sc[8], const int mn[8], uint8_t out[12]) {
  for (int j = 0; j < 4; ++j) {
    out[j] = uint8_t((sc[j] & 63) | ((sc[j + 4] >> 4) << 6));
    out[j + 4] = uint8_t((mn[j] & 63) | ((mn[j + 4] >> 4) << 6));
    out[j + 8] = uint8_t((sc[j + 4] & 15) | ((mn[j + 4] & 15) << 4));
  }
}

void unpack_q4_k_scale(const uint8_t* s, int j, int& sc, int& mn) {
  if (j < 4) {
    sc = s[j] & 63;
    mn = s[j + 4] & 63;
  } else {
    sc = (s[j + 4] & 15) | ((s[j - 4] >> 6) << 4);
    mn = (s[j + 4] >> 4) | ((s[j] >> 6) << 4);
  }
}

void quantize_q4_k(const float* x, uint8_t* b) {
  float scale[8], minus[8], max_scale = 0.0f, max_minus = 0.0f;
  for (int s = 0; s < 8; ++s) {
    const float* v = x + 32 * s;
    const float lo = std::min(0.0f, *std::min_element(v, v + 32));
    const float hi = std::max(lo, *std::max_element(v, v + 32));
    scale[s] = (hi - lo) / 15.0f;
    minus[s] = -lo;
    max_scale = std::max(max_scale, scale[s]);
    max_minus = std::max(max_minus, minus[s]);
  }
  const float d = put_half(b, max_scale / 63.0f), dmin = put_half(b + 2, max_minus / 63.0f);
  int sc[8], mn[8];
  for (int s = 0; s < 8; ++s) {
    sc[s] = d != 0.0f ? clamp_round(scale[s] / d, 0, 63) : 0;
    mn[s] = dmin != 0.0f ? clamp_round(minus[s] / dmin, 0, 63) : 0;
  }
  pack_q4_k_scales(sc, mn, b + 4);
  uint8_t* qs = b + 16;
  std::memset(qs, 0, 128);
  for (int e = 0; e < 256; ++e) {
    const int s = e / 32, chunk = e / 64, l = e % 32;
    const float step = d * float(sc[s]);
    const int q = step != 0.0f ? clamp_round((x[e] + dmin * float(mn[s])) / step, 0, 15) : 0;
    qs[32 * chunk + l] |= uint8_t(s % 2 ? q << 4 : q);
  }
}

void quantize_q6_k(const float* x, uint8_t* b) {
  float scale[16], max_scale = 0.0f;
  for (int s = 0; s < 16; ++s) {
    scale[s] = signed_max(x + 16 * s, 16) / -32.0f;  // the signed maximum maps to −32
    max_scale = std::max(max_scale, std::fabs(scale[s]));
  }
  const float d = put_half(b + 208, max_scale / 127.0f);
  int8_t* scales = reinterpret_cast<int8_t*>(b + 192);
  for (int s = 0; s < 16; ++s) scales[s] = int8_t(d != 0.0f ? clamp_round(scale[s] / d, -128, 127) : 0);
  uint8_t *ql = b, *qh = b + 128;
  std::memset(b, 0, 192);
  for (int e = 0; e < 256; ++e) {
    const float step = d * float(scales[e / 16]);
    const int q = (step != 0.0f ? clamp_round(x[e] / step, -32, 31) : 0) + 32;
    const int half = e / 128, quarter = (e % 128) / 32, l = e % 32;
    ql[64 * half + 32 * (quarter & 1) + l] |= uint8_t(quarter >= 2 ? (q & 15) << 4 : q & 15);
    qh[32 * half + l] |= uint8_t((q >> 4) << (2 * quarter));
  }
}

void dequantize_block(QuantFormat f, const uint8_t* b, float* y) {
  switch (f) {
    case QuantFormat::Q8_0: {
      const float d = half_at(b);
      for (int i = 0; i < 32; ++i) y[i] = d * float(int8_t(b[2 + i]));
      break;
    }
    case QuantFormat::Q4_0: {
      const float d = half_at(b);
      for (int j = 0; j < 16; ++j) {
        y[j] = d * float((b[2 + j] & 15) - 8);
        y[j + 16] = d * float((b[2 + j] >> 4) - 8);
      }
      break;
    }
    case QuantFormat::Q4_K: {
      const float d = half_at(b), dmin = half_at(b + 2);
      for (int e = 0; e < 256; ++e) {
        const int s = e / 32;
        int sc, mn;
        unpack_q4_k_scale(b + 4, s, sc, mn);
        const uint8_t byte = b[16 + 32 * (e / 64) + e % 32];
        y[e] = d * float(sc) * float(s % 2 ? byte >> 4 : byte & 15) - dmin * float(mn);
      }
      break;
    }
    case QuantFormat::Q6_K: {
      const float d = half_at(b + 208);
      const int8_t* scales = reinterpret_cast<const int8_t*>(b + 192);
      for (int e = 0; e < 256; ++e) {
        const int half = e / 128, quarter = (e % 128) / 32, l = e % 32;
        const uint8_t low = b[64 * half + 32 * (quarter & 1) + l];
        const int q = ((quarter >= 2 ? low >> 4 : low & 15) | (((b[128 + 32 * half + l] >> (2 * quarter)) & 3) << 4)) - 32;
        y[e] = d * float(scales[e / 16]) * float(q);
      }
      break;
    }
  }
}

size_t resolved_row_bytes(QuantFormat f, size_t k, size_t row_bytes) {
  const size_t need = quant_row_bytes(f, k);
  if (row_bytes == 0) return need;
  if (row_bytes < need)
    throw Error(Status::InvalidLeadingDimension, "row_bytes is " + std::to_string(row_bytes) + " but a row of " +
                                                     std::to_string(k) + " " + quant_format_name(f) +
                                                     " weights takes " + std::to_string(need) + " bytes");
  return row_bytes;
}

}  // namespace

const char* quant_format_name(QuantFormat f) {
  switch (f) {
    case QuantFormat::Q8_0: return "q8_0";
    case QuantFormat::Q4_0: return "q4_0";
    case QuantFormat::Q4_K: return "q4_k";
    case QuantFormat::Q6_K: return "q6_k";
  }
  return "unknown";
}

QuantFormat quant_format_from_name(const std::string& name) {
  std::string lower = name;
  for (char& ch : lower) ch = char(std::tolower(static_cast<unsigned char>(ch)));
  for (QuantFormat f : {QuantFormat::Q8_0, QuantFormat::Q4_0, QuantFormat::Q4_K, QuantFormat::Q6_K})
    if (lower == quant_format_name(f)) return f;
  throw Error(Status::InvalidQuantFormat, "no quantized format named '" + name + "'; the formats are q8_0, q4_0, q4_k and q6_k");
}

size_t quant_block_elements(QuantFormat f) {
  check_format(f);
  return f == QuantFormat::Q4_K || f == QuantFormat::Q6_K ? 256 : 32;
}

size_t quant_block_bytes(QuantFormat f) {
  check_format(f);
  switch (f) {
    case QuantFormat::Q8_0: return kQ8_0Bytes;
    case QuantFormat::Q4_0: return kQ4_0Bytes;
    case QuantFormat::Q4_K: return kQ4_KBytes;
    default: return kQ6_KBytes;
  }
}

size_t quant_row_bytes(QuantFormat f, size_t k) {
  const size_t block = quant_block_elements(f);
  if (k % block)
    throw Error(Status::QuantBlockMismatch, "k is " + std::to_string(k) + ", which is not a multiple of " +
                                                quant_format_name(f) + "'s block of " + std::to_string(block) +
                                                " weights");
  return k / block * quant_block_bytes(f);
}

std::vector<uint8_t> quantize(const float* x, size_t rows, size_t k, QuantFormat f, size_t row_bytes) {
  const size_t stride = resolved_row_bytes(f, k, row_bytes);
  const size_t block = quant_block_elements(f), bytes = quant_block_bytes(f);
  std::vector<uint8_t> out(rows * stride, 0);
  for (size_t r = 0; r < rows; ++r)
    for (size_t i = 0; i < k / block; ++i) {
      const float* v = x + r * k + i * block;
      uint8_t* b = out.data() + r * stride + i * bytes;
      switch (f) {
        case QuantFormat::Q8_0: quantize_q8_0(v, b); break;
        case QuantFormat::Q4_0: quantize_q4_0(v, b); break;
        case QuantFormat::Q4_K: quantize_q4_k(v, b); break;
        case QuantFormat::Q6_K: quantize_q6_k(v, b); break;
      }
    }
  return out;
}

std::vector<float> dequantize(const uint8_t* w, size_t rows, size_t k, QuantFormat f, size_t row_bytes) {
  const size_t stride = resolved_row_bytes(f, k, row_bytes);
  const size_t block = quant_block_elements(f), bytes = quant_block_bytes(f);
  std::vector<float> out(rows * k);
  for (size_t r = 0; r < rows; ++r)
    for (size_t i = 0; i < k / block; ++i) dequantize_block(f, w + r * stride + i * bytes, out.data() + r * k + i * block);
  return out;
}

}  // namespace clgemm
