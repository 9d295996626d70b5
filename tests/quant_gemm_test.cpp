// quant_gemm_test.cpp — gemm_quantized on the device against a float64 product of the dequantized
// weights: every format, the GEMV kernel (1-16 rows) and the tiled one, odd sizes, K of one block
// and of many, rows of W longer than their blocks and starting on odd bytes, ld above the row,
// offsets, beta = 0 over NaN, strided batches, both layouts and the 16-bit types; guard zones
// around C and between its rows; and bad arguments, which must write nothing.
#include <clgemm/clgemm.h>
#include <clgemm/cpu.hpp>
#include <clgemm/error.hpp>
#include <clgemm/quant.hpp>

#include "test_support.hpp"

#include <cmath>
#include <cstring>
#include <limits>
#include <random>

namespace clgemm::test {
namespace {

struct QuantCase {
  QuantFormat format;
  size_t m, n, k;
  Layout layout = Layout::RowMajor;
  DataType a_type = DataType::F32, c_type = DataType::F32;
  double alpha = 1.0, beta = 0.0;
  size_t batch = 1;
  bool shared_w = false;  // w_stride_bytes = 0: one W for every item
};

std::string describe(const QuantCase& c) {
  return std::string(quant_format_name(c.format)) + " " + std::to_string(c.m) + "x" + std::to_string(c.n) + "x" +
         std::to_string(c.k) + (c.layout == Layout::RowMajor ? " row-major" : " column-major") + " A " +
         data_type_name(c.a_type) + " C " + data_type_name(c.c_type) + " alpha " + std::to_string(c.alpha) +
         " beta " + std::to_string(c.beta) + " batch " + std::to_string(c.batch) + (c.shared_w ? " (one W)" : "");
}

// A byte pattern C's padding and guard elements hold: it must survive the call.
constexpr uint8_t kGuardByte = 0xA5;

// Element (r, col) of a matrix stored in `layout` with leading dimension ld.
size_t at(Layout layout, size_t r, size_t col, size_t ld) { return layout == Layout::RowMajor ? r * ld + col : col * ld + r; }

void run_case(const QuantCase& c) {
  Context& ctx = shared_context();
  const uint64_t seed = fresh_seed();
  SCOPED_TRACE(describe(c) + " seed " + std::to_string(seed));
  std::mt19937 rng{uint32_t(seed)};
  const bool row = c.layout == Layout::RowMajor;
  const size_t a_ld = (row ? c.k : c.m) + 3, c_ld = (row ? c.n : c.m) + 2;
  const size_t a_item = (row ? c.m : c.k) * a_ld + 5, c_item = (row ? c.m : c.n) * c_ld + 7;
  const size_t a_off = 2, c_off = 9, guard = 16;

  // W: n rows per item, each its blocks plus 5 bytes, the first row at an odd byte.
  const size_t payload = quant_row_bytes(c.format, c.k), row_bytes = payload + 5, w_off = 3;
  const size_t w_items = c.shared_w ? 1 : c.batch, w_item = c.n * row_bytes + 1;
  std::vector<uint8_t> w_bytes(w_off + w_items * w_item, 0x5A);
  std::vector<std::vector<float>> weights(w_items);
  for (size_t i = 0; i < w_items; ++i) {
    std::vector<float> x(c.n * c.k);
    cpu::fill_random(x, seed + 17 * i + 1);
    const std::vector<uint8_t> q = quantize(x.data(), c.n, c.k, c.format, row_bytes);
    for (size_t r = 0; r < c.n; ++r)  // the 5 bytes past each row's blocks stay 0x5A
      std::memcpy(&w_bytes[w_off + i * w_item + r * row_bytes], &q[r * row_bytes], payload);
    weights[i] = dequantize(&w_bytes[w_off + i * w_item], c.n, c.k, c.format, row_bytes);
  }

  const std::vector<double> a_vals = random_stored(c.a_type, a_off + c.batch * a_item, rng);
  const size_t c_count = guard + c_off + c.batch * c_item + guard;
  std::vector<double> c_init = random_stored(c.c_type, c_count, rng);
  std::vector<unsigned char> c_bytes = cpu::to_storage(c.c_type, c_init);
  const size_t elem = data_type_bytes(c.c_type);
  // Every element of C's buffer that is not one of the m×n results holds the guard pattern; with
  // beta = 0 the results start as NaN, which must not reach the output.
  std::vector<bool> is_result(c_count, false);
  for (size_t b = 0; b < c.batch; ++b)
    for (size_t r = 0; r < c.m; ++r)
      for (size_t col = 0; col < c.n; ++col) is_result[guard + c_off + b * c_item + at(c.layout, r, col, c_ld)] = true;
  const std::vector<unsigned char> nan = cpu::to_storage(c.c_type, {std::numeric_limits<double>::quiet_NaN()});
  for (size_t i = 0; i < c_count; ++i) {
    if (!is_result[i])
      std::memset(&c_bytes[i * elem], kGuardByte, elem);
    else if (c.beta == 0.0)
      std::memcpy(&c_bytes[i * elem], nan.data(), elem);
  }
  const std::vector<double> c_before = cpu::from_storage(c.c_type, c_bytes.data(), c_count);

  cl::Buffer a_buf = upload_as(ctx, c.a_type, a_vals);
  cl::Buffer w_buf(ctx.context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, w_bytes.size(), w_bytes.data());
  cl::Buffer c_buf(ctx.context(), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, c_bytes.size(), c_bytes.data());
  QuantGemmCall call;
  call.layout = c.layout;
  call.m = c.m, call.n = c.n, call.k = c.k;
  call.alpha = c.alpha, call.beta = c.beta;
  call.a = {a_buf(), a_off, a_ld};
  call.a_type = c.a_type;
  call.w = {w_buf(), c.format, w_off, row_bytes};
  call.c = {c_buf(), guard + c_off, c_ld};
  call.c_type = c.c_type;
  if (c.batch == 1)
    gemm_quantized(call, ctx.queue()());
  else
    gemm_quantized_strided_batched(call, a_item, c.shared_w ? 0 : w_item, c_item, c.batch, ctx.queue()());
  ctx.queue().finish();
  std::vector<unsigned char> out(c_bytes.size());
  ctx.queue().enqueueReadBuffer(c_buf, CL_TRUE, 0, out.size(), out.data());
  const std::vector<double> got = cpu::from_storage(c.c_type, out.data(), c_count);

  for (size_t i = 0; i < c_count; ++i) {
    if (!is_result[i]) {
      ASSERT_EQ(std::memcmp(&out[i * elem], &c_bytes[i * elem], elem), 0) << "stray write at element " << i;
    }
  }
  for (size_t b = 0; b < c.batch; ++b) {
    const std::vector<float>& wt = weights[c.shared_w ? 0 : b];
    std::vector<double> ref(c.m * c.n), res(c.m * c.n);
    for (size_t r = 0; r < c.m; ++r)
      for (size_t col = 0; col < c.n; ++col) {
        double s = 0;
        for (size_t kk = 0; kk < c.k; ++kk)
          s += a_vals[a_off + b * a_item + at(c.layout, r, kk, a_ld)] * double(wt[col * c.k + kk]);
        const size_t ci = guard + c_off + b * c_item + at(c.layout, r, col, c_ld);
        ref[r * c.n + col] = c.alpha * s + (c.beta != 0.0 ? c.beta * c_before[ci] : 0.0);
        res[r * c.n + col] = got[ci];
      }
    std::vector<float> res_f(res.begin(), res.end());
    const double err = cpu::relative_error(res_f.data(), ref.data(), ref.size());
    EXPECT_LE(err, cpu::gemm_tolerance(c.k, c.a_type, c.c_type)) << "item " << b;
  }
}

class QuantGemmEveryFormat : public ::testing::TestWithParam<QuantFormat> {};

TEST_P(QuantGemmEveryFormat, GemvRowsMatchFloat64) {
  const QuantFormat f = GetParam();
  const size_t block = quant_block_elements(f);
  for (size_t m : {1, 3, 16})
    for (size_t k : {block, 3 * block}) run_case({f, m, 37, k});
  run_case({f, 5, 19, 2 * block, Layout::ColMajor});
}

TEST_P(QuantGemmEveryFormat, TiledRowsMatchFloat64) {
  const QuantFormat f = GetParam();
  const size_t block = quant_block_elements(f);
  run_case({f, 17, 67, block});
  run_case({f, 70, 33, 3 * block, Layout::RowMajor, DataType::F32, DataType::F32, -0.75, 0.5});
  run_case({f, 45, 70, 2 * block, Layout::ColMajor});
}

TEST_P(QuantGemmEveryFormat, SixteenBitActivationsAndResults) {
  const QuantFormat f = GetParam();
  const size_t block = quant_block_elements(f);
  run_case({f, 2, 29, 2 * block, Layout::RowMajor, DataType::BF16, DataType::F32});
  run_case({f, 4, 31, block, Layout::RowMajor, DataType::F16, DataType::F16, 1.0, 0.25});
  run_case({f, 33, 21, block, Layout::RowMajor, DataType::BF16, DataType::BF16});
  run_case({f, 19, 18, block, Layout::ColMajor, DataType::F16, DataType::BF16});
}

TEST_P(QuantGemmEveryFormat, StridedBatchesMatchFloat64) {
  const QuantFormat f = GetParam();
  const size_t block = quant_block_elements(f);
  QuantCase c{f, 3, 23, block};
  c.batch = 3;
  run_case(c);
  c.shared_w = true;
  c.m = 20;
  run_case(c);
}

INSTANTIATE_TEST_SUITE_P(Formats, QuantGemmEveryFormat,
                         ::testing::Values(QuantFormat::Q8_0, QuantFormat::Q4_0, QuantFormat::Q4_K, QuantFormat::Q6_K),
                         [](const auto& info) { return std::string(quant_format_name(info.param)); });

TEST(QuantGemm, PlansGemvForFewRowsAndTilesAbove) {
  const DeviceInfo& dev = shared_context().info();
  QuantGemmCall call;
  call.m = 16, call.n = 4096, call.k = 4096, call.w.format = QuantFormat::Q4_0;
  EXPECT_EQ(plan_quantized(dev, call).kernel, "qgemv");
  EXPECT_NE(plan_quantized(dev, call).options.find("-DMR=16"), std::string::npos);
  call.m = 1;
  const std::string one = plan_quantized(dev, call).options;
  EXPECT_EQ(one.substr(one.size() - 7), " -DMR=1") << one;
  call.m = 17;
  EXPECT_EQ(plan_quantized(dev, call).kernel, "qgemm");
}

// CLGEMM_QUANT_GEMV sets the GEMV's work sizes for measurements; other sizes than the defaults
// take the pairwise reduction over more lanes and the loop's remainder (K of 3 blocks in 12
// octets against 8 lanes of 4 octets in flight).
TEST(QuantGemm, GemvSizesFromTheEnvironmentAreUsedAndChecked) {
  const DeviceInfo& dev = shared_context().info();
  QuantGemmCall call;
  call.m = 3, call.n = 4096, call.k = 4096, call.w.format = QuantFormat::Q8_0;
  {
    ScopedEnv env("CLGEMM_QUANT_GEMV", "WG=64,LANES=8,UNROLL=4");
    const std::string o = plan_quantized(dev, call).options;
    EXPECT_NE(o.find("-DWG=64 -DLANES=8 -DUNROLL=4"), std::string::npos) << o;
    for (QuantFormat f : {QuantFormat::Q8_0, QuantFormat::Q6_K}) {
      run_case({f, 3, 21, 3 * quant_block_elements(f)});
      run_case({f, 1, 9, quant_block_elements(f), Layout::ColMajor});
    }
  }
  {
    ScopedEnv env("CLGEMM_QUANT_GEMV", "WG=64,LANES=64,UNROLL=3");
    run_case({QuantFormat::Q4_0, 16, 5, 96});
  }
  for (const char* bad : {"LANES=24", "WG=96,LANES=64", "UNROLL=0", "TILE=4", "LANES=2", "WG=100000"}) {
    ScopedEnv env("CLGEMM_QUANT_GEMV", bad);
    try {
      plan_quantized(dev, call);
      ADD_FAILURE() << bad << " was accepted";
    } catch (const Error& e) {
      EXPECT_EQ(e.status(), Status::InvalidArgument) << bad;
      EXPECT_NE(std::string(e.what()).find("CLGEMM_QUANT_GEMV"), std::string::npos) << e.what();
    }
  }
}

// The bad-argument cases: each must fail with its status, name the argument, and leave C as it was.
class QuantBadInput : public ::testing::Test {
 protected:
  void SetUp() override {
    Context& ctx = shared_context();
    std::vector<float> x(8 * 256);
    cpu::fill_random(x, fresh_seed());
    w_host = quantize(x.data(), 8, 256, QuantFormat::Q4_K);
    w = cl::Buffer(ctx.context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, w_host.size(), w_host.data());
    a = upload(ctx, std::vector<float>(4 * 256, 0.5f));
    c = upload(ctx, std::vector<float>(4 * 8, 7.0f));
    call.m = 4, call.n = 8, call.k = 256;
    call.a = {a(), 0, 256};
    call.w = {w(), QuantFormat::Q4_K, 0, 144};
    call.c = {c(), 0, 8};
  }
  void expect_refused(const QuantGemmCall& bad, Status status, const std::string& names) {
    try {
      gemm_quantized(bad, shared_context().queue()());
      ADD_FAILURE() << "no error; expected " << status_name(status);
    } catch (const Error& e) {
      EXPECT_EQ(e.status(), status) << e.what();
      EXPECT_NE(std::string(e.what()).find(names), std::string::npos) << e.what();
    }
    shared_context().queue().finish();
    for (float v : download(shared_context(), c, 32)) ASSERT_EQ(v, 7.0f) << "C was written";
  }
  std::vector<uint8_t> w_host;
  cl::Buffer a, w, c;
  QuantGemmCall call;
};

TEST_F(QuantBadInput, KNotAMultipleOfTheBlock) {
  QuantGemmCall bad = call;
  bad.k = 224;
  expect_refused(bad, Status::QuantBlockMismatch, "k is 224");
}

TEST_F(QuantBadInput, WBufferTooSmall) {
  QuantGemmCall bad = call;
  bad.w.offset = 1;
  expect_refused(bad, Status::BufferTooSmall, "w_buffer");
  bad = call;
  bad.n = 9, bad.c.ld = 9;
  expect_refused(bad, Status::BufferTooSmall, "w_buffer");
}

TEST_F(QuantBadInput, RowBytesBelowTheBlocks) {
  QuantGemmCall bad = call;
  bad.w.row_bytes = 143;
  expect_refused(bad, Status::InvalidLeadingDimension, "w_row_bytes");
}

TEST_F(QuantBadInput, FormatAndTypes) {
  QuantGemmCall bad = call;
  bad.w.format = static_cast<QuantFormat>(9);
  expect_refused(bad, Status::InvalidQuantFormat, "format");
  bad = call;
  bad.a_type = DataType::F64;
  expect_refused(bad, Status::UnsupportedTypes, "a_type");
  bad = call;
  bad.c_type = static_cast<DataType>(12);
  expect_refused(bad, Status::InvalidDataType, "c_type");
}

TEST_F(QuantBadInput, LeadingDimensionsAndOverlap) {
  QuantGemmCall bad = call;
  bad.a.ld = 255;
  expect_refused(bad, Status::InvalidLeadingDimension, "a_ld");
  bad = call;
  bad.c.ld = 7;
  expect_refused(bad, Status::InvalidLeadingDimension, "c_ld");
  bad = call;
  bad.a = {c(), 0, 256};
  bad.m = 1;  // A (256 floats) needs 1 KiB of C's 128 bytes
  expect_refused(bad, Status::BufferTooSmall, "a_buffer");
  // A and C in one buffer, C over A's last row.
  cl::Buffer both = upload(shared_context(), std::vector<float>(4 * 256 + 32, 1.0f));
  bad = call;
  bad.a = {both(), 0, 256};
  bad.c = {both(), 1000, 8};
  expect_refused(bad, Status::OverlappingOperands, "overlap");
}

TEST_F(QuantBadInput, OverlappingCItemsOfABatch) {
  try {
    gemm_quantized_strided_batched(call, 0, 0, 0, 2, shared_context().queue()());
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::OverlappingOperands) << e.what();
  }
}

TEST_F(QuantBadInput, TheCApiReturnsTheStatusAndMessage) {
  cl_command_queue q = shared_context().queue()();
  EXPECT_EQ(clgemmGemmQuantized(clgemmLayoutRowMajor, 4, 8, 200, 1.0, a(), clgemmTypeF32, 0, 256, w(),
                                clgemmQuantQ4_K, 0, 144, 0.0, c(), clgemmTypeF32, 0, 8, &q, nullptr),
            clgemmQuantBlockMismatch);
  EXPECT_NE(std::string(clgemmLastErrorMessage()).find("k is 200"), std::string::npos);
  EXPECT_EQ(clgemmGemmQuantized(clgemmLayoutRowMajor, 4, 8, 256, 1.0, a(), clgemmTypeF32, 0, 256, w(),
                                static_cast<clgemmQuantFormat>(5), 0, 144, 0.0, c(), clgemmTypeF32, 0, 8, &q, nullptr),
            clgemmInvalidQuantFormat);
  shared_context().queue().finish();
  for (float v : download(shared_context(), c, 32)) ASSERT_EQ(v, 7.0f);
  // And a good call through the C API: C = A·dequant(W)ᵀ with A all 0.5.
  cl_event ev = nullptr;
  ASSERT_EQ(clgemmGemmQuantizedStridedBatched(clgemmLayoutRowMajor, 4, 8, 256, 1.0, a(), clgemmTypeF32, 0, 256, 0,
                                              w(), clgemmQuantQ4_K, 0, 144, 0, 0.0, c(), clgemmTypeF32, 0, 8, 32, 1,
                                              &q, &ev),
            clgemmSuccess)
      << clgemmLastErrorMessage();
  ASSERT_EQ(clWaitForEvents(1, &ev), CL_SUCCESS);
  clReleaseEvent(ev);
  const std::vector<float> wt = dequantize(w_host.data(), 8, 256, QuantFormat::Q4_K);
  const std::vector<float> got = download(shared_context(), c, 32);
  for (size_t col = 0; col < 8; ++col) {
    double s = 0;
    for (size_t kk = 0; kk < 256; ++kk) s += 0.5 * wt[col * 256 + kk];
    for (size_t r = 0; r < 4; ++r) EXPECT_NEAR(got[r * 8 + col], s, 1e-4 * (1 + std::fabs(s))) << r << " " << col;
  }
}

}  // namespace
}  // namespace clgemm::test
