// quant_formats_test.cpp — GGUF's block formats on the host: the block facts, hand-built blocks
// (every nibble value, negative and subnormal f16 scales) dequantized against the values the
// format's definition gives element by element, quantization round trips, and bad arguments.
#include <clgemm/cpu.hpp>
#include <clgemm/error.hpp>
#include <clgemm/quant.hpp>

#include "test_support.hpp"

#include <cmath>
#include <cstring>
#include <random>

namespace clgemm::test {
namespace {

const QuantFormat kFormats[] = {QuantFormat::Q8_0, QuantFormat::Q4_0, QuantFormat::Q4_K, QuantFormat::Q6_K};

void put_half_bits(uint8_t* p, uint16_t h) { std::memcpy(p, &h, 2); }

// Scales the hand-built blocks take in turn: positive, negative, subnormal (2^-24 · 5 and its
// negative), and ordinary values.
const uint16_t kScales[] = {0x3c00 /* 1 */, 0xb800 /* -0.5 */, 0x0005, 0x8005, 0x2e66 /* ~0.1 */, 0xc500 /* -5 */};

TEST(QuantFormats, BlockFacts) {
  EXPECT_EQ(quant_block_elements(QuantFormat::Q8_0), 32u);
  EXPECT_EQ(quant_block_bytes(QuantFormat::Q8_0), 34u);
  EXPECT_EQ(quant_block_elements(QuantFormat::Q4_0), 32u);
  EXPECT_EQ(quant_block_bytes(QuantFormat::Q4_0), 18u);
  EXPECT_EQ(quant_block_elements(QuantFormat::Q4_K), 256u);
  EXPECT_EQ(quant_block_bytes(QuantFormat::Q4_K), 144u);
  EXPECT_EQ(quant_block_elements(QuantFormat::Q6_K), 256u);
  EXPECT_EQ(quant_block_bytes(QuantFormat::Q6_K), 210u);
  EXPECT_EQ(quant_row_bytes(QuantFormat::Q4_0, 4096), 4096u / 32 * 18);
  EXPECT_EQ(quant_row_bytes(QuantFormat::Q6_K, 4096), 16u * 210);
  for (QuantFormat f : kFormats) EXPECT_EQ(quant_format_from_name(quant_format_name(f)), f);
  EXPECT_EQ(quant_format_from_name("Q4_K"), QuantFormat::Q4_K);
}

TEST(QuantFormats, BadArgumentsHaveTheirStatus) {
  auto status_of = [](auto&& f) {
    try {
      f();
    } catch (const Error& e) {
      return e.status();
    }
    return Status::Success;
  };
  EXPECT_EQ(status_of([] { quant_row_bytes(QuantFormat::Q4_K, 4096 + 32); }), Status::QuantBlockMismatch);
  EXPECT_EQ(status_of([] { quant_row_bytes(QuantFormat::Q8_0, 33); }), Status::QuantBlockMismatch);
  EXPECT_EQ(status_of([] { quant_block_bytes(static_cast<QuantFormat>(7)); }), Status::InvalidQuantFormat);
  EXPECT_EQ(status_of([] { quant_format_from_name("q5_k"); }), Status::InvalidQuantFormat);
  std::vector<float> x(64, 1.0f);
  EXPECT_EQ(status_of([&] { quantize(x.data(), 2, 32, QuantFormat::Q8_0, 33); }), Status::InvalidLeadingDimension);
  try {
    quant_row_bytes(QuantFormat::Q6_K, 300);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("k is 300"), std::string::npos) << e.what();
  }
}

TEST(QuantFormats, Q8_0BlocksDequantizeToScaleTimesByte) {
  std::vector<uint8_t> w(34 * 6);
  for (int b = 0; b < 6; ++b) {
    put_half_bits(&w[34 * b], kScales[b]);
    for (int i = 0; i < 32; ++i) w[34 * b + 2 + i] = uint8_t(b * 37 + i * 8);  // every byte value over the blocks
  }
  const std::vector<float> y = dequantize(w.data(), 1, 192, QuantFormat::Q8_0);
  for (int b = 0; b < 6; ++b)
    for (int i = 0; i < 32; ++i)
      ASSERT_EQ(y[32 * b + i], cpu::half_to_float(kScales[b]) * float(int8_t(w[34 * b + 2 + i]))) << b << " " << i;
}

TEST(QuantFormats, Q4_0BlocksTakeEveryNibble) {
  std::vector<uint8_t> w(18 * 6);
  for (int b = 0; b < 6; ++b) {
    put_half_bits(&w[18 * b], kScales[b]);
    for (int j = 0; j < 16; ++j) w[18 * b + 2 + j] = uint8_t(j | ((15 - ((j + b) % 16)) << 4));
  }
  const std::vector<float> y = dequantize(w.data(), 1, 192, QuantFormat::Q4_0);
  for (int b = 0; b < 6; ++b) {
    const float d = cpu::half_to_float(kScales[b]);
    for (int j = 0; j < 16; ++j) {
      ASSERT_EQ(y[32 * b + j], d * float(j - 8));
      ASSERT_EQ(y[32 * b + 16 + j], d * float(15 - ((j + b) % 16) - 8));
    }
  }
}

// Q4_K's scale and min of sub-block j, read from the 12 packed bytes bit by bit as the format
// defines them: 6-bit fields, sub-blocks 4-7 split into four low bits and two high ones.
int q4k_field(const uint8_t* s, int j, bool min) {
  if (j < 4) return s[j + (min ? 4 : 0)] & 63;
  const int low = min ? s[j + 4] >> 4 : s[j + 4] & 15;
  const int high = s[j - (min ? 0 : 4)] >> 6;
  return low | (high << 4);
}

TEST(QuantFormats, Q4_KBlocksFollowTheirPackedScales) {
  std::mt19937 rng{uint32_t(fresh_seed())};
  std::vector<uint8_t> w(144 * 3);
  for (auto& v : w) v = uint8_t(rng());
  for (int b = 0; b < 3; ++b) put_half_bits(&w[144 * b], kScales[b]), put_half_bits(&w[144 * b + 2], kScales[b + 3]);
  const std::vector<float> y = dequantize(w.data(), 1, 768, QuantFormat::Q4_K);
  for (int b = 0; b < 3; ++b) {
    const uint8_t* blk = &w[144 * b];
    const float d = cpu::half_to_float(kScales[b]), dmin = cpu::half_to_float(kScales[b + 3]);
    for (int e = 0; e < 256; ++e) {
      const int j = e / 32;
      const uint8_t byte = blk[16 + 32 * (e / 64) + e % 32];
      const int nibble = j % 2 ? byte >> 4 : byte & 15;
      const float want = d * float(q4k_field(blk + 4, j, false)) * float(nibble) - dmin * float(q4k_field(blk + 4, j, true));
      ASSERT_EQ(y[256 * b + e], want) << "block " << b << " element " << e;
    }
  }
}

TEST(QuantFormats, Q6_KBlocksCombineLowAndHighBits) {
  std::mt19937 rng{uint32_t(fresh_seed())};
  std::vector<uint8_t> w(210 * 3);
  for (auto& v : w) v = uint8_t(rng());
  for (int b = 0; b < 3; ++b) put_half_bits(&w[210 * b + 208], kScales[b + 1]);
  const std::vector<float> y = dequantize(w.data(), 1, 768, QuantFormat::Q6_K);
  for (int b = 0; b < 3; ++b) {
    const uint8_t* blk = &w[210 * b];
    const float d = cpu::half_to_float(kScales[b + 1]);
    for (int e = 0; e < 256; ++e) {
      const int half = e / 128, quarter = (e % 128) / 32, lane = e % 32;
      const uint8_t low = blk[64 * half + 32 * (quarter % 2) + lane];
      const int q = (quarter < 2 ? low & 15 : low >> 4) | (((blk[128 + 32 * half + lane] >> (2 * quarter)) & 3) << 4);
      const float want = d * float(int8_t(blk[192 + e / 16])) * float(q - 32);
      ASSERT_EQ(y[256 * b + e], want) << "block " << b << " element " << e;
    }
  }
}

TEST(QuantFormats, QuantizeRoundTripsWithinEachFormatsResolution) {
  std::vector<float> x(5 * 512);
  cpu::fill_random(x, fresh_seed());
  x[3] = 0.0f;
  std::fill(x.begin() + 512, x.begin() + 768, 0.0f);  // an all-zero row half: scales of 0
  // RMS error relative to the values' RMS: 8 bits, 6 bits with 8-bit sub-scales, 4 bits with a
  // min, 4 bits symmetric.
  const std::pair<QuantFormat, double> bounds[] = {
      {QuantFormat::Q8_0, 0.006}, {QuantFormat::Q6_K, 0.03}, {QuantFormat::Q4_K, 0.09}, {QuantFormat::Q4_0, 0.12}};
  for (const auto& [f, bound] : bounds) {
    const size_t row_bytes = quant_row_bytes(f, 512) + 6;
    const std::vector<uint8_t> w = quantize(x.data(), 5, 512, f, row_bytes);
    ASSERT_EQ(w.size(), 5 * row_bytes);
    for (size_t r = 0; r < 5; ++r)
      for (size_t i = row_bytes - 6; i < row_bytes; ++i) ASSERT_EQ(w[r * row_bytes + i], 0) << "padding of row " << r;
    const std::vector<float> y = dequantize(w.data(), 5, 512, f, row_bytes);
    double err = 0, ref = 0;
    for (size_t i = 0; i < x.size(); ++i) err += (y[i] - x[i]) * double(y[i] - x[i]), ref += double(x[i]) * x[i];
    EXPECT_LT(std::sqrt(err / ref), bound) << quant_format_name(f);
    for (size_t i = 512; i < 768; ++i) ASSERT_EQ(y[i], 0.0f) << quant_format_name(f) << " element " << i;
  }
}

}  // namespace
}  // namespace clgemm::test
