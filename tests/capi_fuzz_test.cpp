// capi_fuzz_test.cpp — a seeded random driver of the C API's argument checks, run for a bounded
// time ($CLGEMM_FUZZ_SECONDS, default 10; $CLGEMM_FUZZ_SEED repeats a run).
//
// Each round builds a valid call (any layout, transposes, sizes from 0 to 70, padded leading
// dimensions, offsets, one call or a strided or listed batch, A and B items that may share memory,
// C items that never do), then either leaves it valid or breaks exactly one thing with a known
// status. A valid call must succeed and match a float64 reference within a bound that grows with
// k, leaving every element outside its items untouched; a broken one must return its status and
// leave C whole. Every buffer is a view inside a larger one whose guard zones are checked.
#include <clgemm/clgemm.h>

#include "test_support.hpp"

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <map>
#include <random>
#include <sstream>

namespace clgemm::test {
namespace {

constexpr size_t kGuard = 256;  // floats of guard zone each side of every operand's buffer

class Rng {
 public:
  explicit Rng(uint64_t seed) : gen_(seed) {}
  size_t upto(size_t hi) { return std::uniform_int_distribution<size_t>(0, hi)(gen_); }
  size_t range(size_t lo, size_t hi) { return std::uniform_int_distribution<size_t>(lo, hi)(gen_); }
  bool chance(double p) { return std::bernoulli_distribution(p)(gen_); }
  float scalar() {
    static const float fixed[] = {0.0f, 1.0f, -1.0f, 0.5f, 2.0f};
    return chance(0.6) ? fixed[upto(4)] : std::uniform_real_distribution<float>(-2.0f, 2.0f)(gen_);
  }
  std::mt19937_64& gen() { return gen_; }

 private:
  std::mt19937_64 gen_;
};

// One stored operand: `outer` runs of `inner` floats, `ld` apart, per item, in a buffer of `length`.
struct Operand {
  size_t outer = 0, inner = 0, ld = 1;
  size_t first = 0, stride = 0;  // strided batches (and single calls: first only)
  std::vector<size_t> starts;    // every item's start
  size_t length = 1;             // floats in the buffer
  size_t span() const { return outer == 0 || inner == 0 ? 0 : (outer - 1) * ld + inner; }
};

enum class Mode { Single, Strided, Listed };

// What a round calls, and what the call must answer.
struct Round {
  int layout = clgemmLayoutRowMajor, ta = clgemmTransposeNo, tb = clgemmTransposeNo;
  size_t m = 0, n = 0, k = 0;
  Mode mode = Mode::Single;
  size_t count = 1;              // batch count passed
  std::vector<float> alphas, betas;
  Operand a, b, c;
  clgemmStatus expect = clgemmSuccess;
  std::string fault = "none";
  // Special objects in place of the buffers: 0 = its own buffer; else see Objects.
  int a_object = 0, b_object = 0, c_object = 0;
  bool null_queue = false, null_arrays = false;
  bool c_is_a = false;  // C lives in A's buffer
};

// A device buffer with guard zones, and a view of its middle handed to the library.
struct Guarded {
  cl::Buffer whole, view;
  std::vector<float> host;  // the view's contents as uploaded
};

Guarded make_guarded(Context& ctx, const std::vector<float>& host, cl_mem_flags view_flags = CL_MEM_READ_WRITE) {
  Guarded g;
  std::vector<float> all(host.size() + 2 * kGuard, poison_value());
  std::copy(host.begin(), host.end(), all.begin() + kGuard);
  g.whole = upload(ctx, all);
  cl_buffer_region region{kGuard * sizeof(float), host.size() * sizeof(float)};
  g.view = g.whole.createSubBuffer(view_flags, CL_BUFFER_CREATE_TYPE_REGION, &region);
  g.host = host;
  return g;
}

bool guards_intact(Context& ctx, const Guarded& g) {
  const auto all = download(ctx, g.whole, g.host.size() + 2 * kGuard);
  for (size_t i = 0; i < kGuard; ++i)
    if (!is_poison(all[i]) || !is_poison(all[kGuard + g.host.size() + i])) return false;
  return true;
}

// Rows and columns of A, B and C as stored, from the call's layout and transposes.
void shape_operands(Round& r) {
  const bool row = r.layout == clgemmLayoutRowMajor;
  const bool ta = r.ta == clgemmTransposeYes, tb = r.tb == clgemmTransposeYes;
  auto set = [row](Operand& o, size_t rows, size_t cols) {
    o.inner = row ? cols : rows;
    o.outer = row ? rows : cols;
  };
  set(r.a, ta ? r.k : r.m, ta ? r.m : r.k);
  set(r.b, tb ? r.n : r.k, tb ? r.k : r.n);
  set(r.c, r.m, r.n);
}

// Starts of the items: A and B anywhere (their items may share memory, or be one item repeated);
// C's items never share an element.
void place(Rng& rng, Operand& o, Mode mode, size_t count, bool output) {
  o.ld = std::max<size_t>(1, o.inner + (rng.chance(0.5) ? 0 : rng.range(1, 5)));
  const size_t span = std::max<size_t>(o.span(), 1);
  o.starts.assign(count, 0);
  if (mode != Mode::Listed) {
    o.first = rng.upto(7);
    o.stride = output ? span + rng.upto(9) : (rng.chance(0.2) ? 0 : rng.range(1, span + 9));
    if (count == 1) o.stride = rng.upto(3);
    for (size_t i = 0; i < count; ++i) o.starts[i] = o.first + i * o.stride;
  } else if (output) {
    std::vector<size_t> order(count);
    for (size_t i = 0; i < count; ++i) order[i] = i;
    std::shuffle(order.begin(), order.end(), rng.gen());
    size_t at = rng.upto(5);
    for (size_t i : order) {
      o.starts[i] = at;
      at += span + rng.upto(6);
    }
  } else {
    for (auto& s : o.starts) s = rng.upto(3 * span + 8);
  }
  size_t end = 0;
  for (size_t s : o.starts) end = std::max(end, s + o.span());
  o.length = std::max<size_t>(1, end + rng.upto(5));
}

size_t pick_size(Rng& rng) {
  static const size_t sizes[] = {0, 1, 2, 3, 7, 16, 33, 63, 65};
  return rng.chance(0.5) ? sizes[rng.upto(8)] : rng.range(1, 70);
}

Round valid_round(Rng& rng) {
  Round r;
  r.layout = rng.chance(0.5) ? clgemmLayoutRowMajor : clgemmLayoutColMajor;
  r.ta = rng.chance(0.5) ? clgemmTransposeNo : clgemmTransposeYes;
  r.tb = rng.chance(0.5) ? clgemmTransposeNo : clgemmTransposeYes;
  r.m = pick_size(rng), r.n = pick_size(rng), r.k = pick_size(rng);
  const size_t pick = rng.upto(3);
  r.mode = pick < 2 ? Mode::Single : pick == 2 ? Mode::Strided : Mode::Listed;
  r.count = r.mode == Mode::Single ? 1 : rng.range(1, 5);
  const size_t scalars = r.mode == Mode::Listed ? r.count : 1;
  for (size_t i = 0; i < scalars; ++i) r.alphas.push_back(rng.scalar()), r.betas.push_back(rng.scalar());
  shape_operands(r);
  place(rng, r.a, r.mode, r.count, false);
  place(rng, r.b, r.mode, r.count, false);
  place(rng, r.c, r.mode, r.count, true);
  return r;
}

// Whether the call reads A and B (its checks then cover them) and computes anything at all.
bool reads_ab(const Round& r) { return r.k > 0 && (r.mode == Mode::Listed || r.alphas[0] != 0.0f); }
bool computes(const Round& r) { return r.m > 0 && r.n > 0; }
bool reads_c(const Round& r) {
  for (float b : r.betas)
    if (b != 0.0f) return true;
  return false;
}

// Special objects a fault can put in place of a buffer.
enum Object { kOwn = 0, kNull, kForeign, kImage, kReadOnly, kWriteOnly };

// Breaks one thing of a valid round, where the break is visible (not masked by m = 0, say).
// Returns false when the fault drawn does not apply to this round.
bool break_one(Rng& rng, Round& r, bool images) {
  Operand* ops[] = {&r.a, &r.b, &r.c};
  int* objects[] = {&r.a_object, &r.b_object, &r.c_object};
  const char* names[] = {"a", "b", "c"};
  // Operands whose checks run: C whenever the call computes, A and B when it reads them too.
  std::vector<int> checked;
  if (computes(r)) {
    if (reads_ab(r)) checked = {0, 1};
    checked.push_back(2);
  }
  auto any_checked = [&] { return checked[rng.upto(checked.size() - 1)]; };
  switch (rng.upto(13)) {
    case 0: {
      static const int bad[] = {0, 1, 100, 103, -1, 0x7fffffff};
      r.layout = bad[rng.upto(5)];
      r.expect = clgemmInvalidLayout, r.fault = "layout " + std::to_string(r.layout);
      return true;
    }
    case 1: {
      (rng.chance(0.5) ? r.ta : r.tb) = rng.chance(0.5) ? 110 : -7;
      r.expect = clgemmInvalidTranspose, r.fault = "transpose";
      return true;
    }
    case 2:
      r.null_queue = true, r.expect = clgemmInvalidQueue, r.fault = "null queue";
      return true;
    case 3: {
      if (checked.empty()) return false;
      const int i = any_checked();
      *objects[i] = kNull, r.expect = clgemmInvalidBuffer, r.fault = std::string("null ") + names[i] + "_buffer";
      return true;
    }
    case 4: {  // a leading dimension one short of the stored rows' length
      if (checked.empty()) return false;
      const int i = any_checked();
      if (ops[i]->inner < 2) return false;
      ops[i]->ld = ops[i]->inner - 1;
      r.expect = clgemmInvalidLeadingDimension, r.fault = std::string(names[i]) + "_ld short";
      return true;
    }
    case 5: {  // a buffer one float short of the last item's end
      if (checked.empty()) return false;
      const int i = any_checked();
      size_t end = 0;
      for (size_t s : ops[i]->starts) end = std::max(end, s + ops[i]->span());
      if (end < 2) return false;
      ops[i]->length = end - 1;
      r.expect = clgemmBufferTooSmall, r.fault = std::string(names[i]) + "_buffer short";
      return true;
    }
    case 6: {  // a size or leading dimension past the 32-bit range: refused before anything else
      (rng.chance(0.5) ? r.m : rng.chance(0.5) ? r.n : r.k) = size_t(1) << 31;
      r.expect = clgemmSizeOverflow, r.fault = "size 2^31";
      return true;
    }
    case 7: {
      if (r.mode == Mode::Single) return false;
      r.count = rng.chance(0.5) ? 0 : size_t(1) << 31;
      r.expect = clgemmInvalidBatchCount, r.fault = "batch count " + std::to_string(r.count);
      return true;
    }
    case 8: {
      if (checked.empty()) return false;
      const int i = any_checked();
      *objects[i] = kForeign, r.expect = clgemmBufferContextMismatch;
      r.fault = std::string(names[i]) + "_buffer of another context";
      return true;
    }
    case 9: {
      if (checked.empty() || !images) return false;
      const int i = any_checked();
      *objects[i] = kImage, r.expect = clgemmNotABuffer, r.fault = std::string(names[i]) + "_buffer an image";
      return true;
    }
    case 10: {  // C created read-only; A, B, or a C that beta makes read, created write-only
      if (checked.empty()) return false;
      const int i = any_checked();
      *objects[i] = i == 2 && (!reads_c(r) || rng.chance(0.5)) ? kReadOnly : kWriteOnly;
      r.expect = clgemmBufferAccess, r.fault = std::string(names[i]) + "_buffer with forbidding flags";
      return true;
    }
    case 11: {  // C's first item in A's buffer, where A's first item starts
      if (!computes(r) || !reads_ab(r) || r.a.span() == 0) return false;
      r.c_is_a = true;
      if (r.mode == Mode::Listed) {
        r.c.starts[0] = r.a.starts[0];
      } else {
        r.c.first = r.a.starts[0];
        for (size_t i = 0; i < r.count; ++i) r.c.starts[i] = r.c.first + i * r.c.stride;
      }
      for (size_t s : r.c.starts) r.a.length = std::max(r.a.length, s + r.c.span());
      r.expect = clgemmOverlappingOperands, r.fault = "C over A";
      return true;
    }
    case 12: {  // two items of C on one another
      if (!computes(r) || r.count < 2) return false;
      if (r.mode == Mode::Strided) {
        r.c.stride = 0;
        for (auto& s : r.c.starts) s = r.c.first;
      } else {
        r.c.starts[1] = r.c.starts[0];
      }
      r.expect = clgemmOverlappingOperands, r.fault = "C items overlap";
      return true;
    }
    default: {
      if (r.mode != Mode::Listed) return false;
      r.null_arrays = true, r.expect = clgemmInvalidArgument, r.fault = "null per-item arrays";
      return true;
    }
  }
}

std::string describe(const Round& r) {
  std::ostringstream os;
  os << "layout " << r.layout << " ta " << r.ta << " tb " << r.tb << " " << r.m << "x" << r.n << "x" << r.k
     << " mode " << int(r.mode) << " count " << r.count << " ld " << r.a.ld << "/" << r.b.ld << "/" << r.c.ld
     << " alpha " << r.alphas[0] << " beta " << r.betas[0] << " fault: " << r.fault;
  return os.str();
}

// The float64 result of a valid round on the uploaded C, and the bound on each element's error:
// a float32 sum of k products errs by at most about k·eps times the sum of their magnitudes.
void reference(const Round& r, const std::vector<float>& a, const std::vector<float>& b, const std::vector<float>& c,
               std::vector<double>& want, std::vector<double>& bound) {
  want.assign(c.begin(), c.end());
  bound.assign(c.size(), 0.0);
  const bool row = r.layout == clgemmLayoutRowMajor;
  const bool ta = r.ta == clgemmTransposeYes, tb = r.tb == clgemmTransposeYes;
  // Element (i, j) of a stored matrix in the call's layout.
  auto at = [row](size_t start, size_t ld, size_t i, size_t j) { return start + (row ? i * ld + j : j * ld + i); };
  for (size_t item = 0; item < r.count; ++item) {
    const double alpha = r.alphas[r.mode == Mode::Listed ? item : 0], beta = r.betas[r.mode == Mode::Listed ? item : 0];
    for (size_t i = 0; i < r.m; ++i)
      for (size_t j = 0; j < r.n; ++j) {
        double sum = 0, mag = 0;
        for (size_t p = 0; p < r.k; ++p) {
          const double x = a[ta ? at(r.a.starts[item], r.a.ld, p, i) : at(r.a.starts[item], r.a.ld, i, p)];
          const double y = b[tb ? at(r.b.starts[item], r.b.ld, j, p) : at(r.b.starts[item], r.b.ld, p, j)];
          sum += x * y, mag += std::fabs(x * y);
        }
        const size_t e = at(r.c.starts[item], r.c.ld, i, j);
        const double old = beta == 0.0 ? 0.0 : beta * double(c[e]);  // beta = 0: C is not read
        want[e] = (r.k == 0 ? 0.0 : alpha * sum) + old;
        bound[e] = 4.0 * double(r.k + 2) * 6e-8 * (std::fabs(alpha) * mag + std::fabs(old)) + 1e-30;
      }
  }
}

class CApiFuzz : public ::testing::Test {
 protected:
  // Runs one round; returns "" or what went wrong.
  std::string run(const Round& r) {
    Context& ctx = shared_context();
    Rng fill(uint64_t(r.m * 131 + r.n * 17 + r.k));
    auto random_floats = [&](size_t count) {
      std::vector<float> v(count);
      for (auto& x : v) x = std::uniform_real_distribution<float>(-1.0f, 1.0f)(fill.gen());
      return v;
    };
    Guarded ga = make_guarded(ctx, random_floats(r.a.length));
    Guarded gb = make_guarded(ctx, random_floats(r.b.length));
    Guarded gc = r.c_is_a ? ga : make_guarded(ctx, random_floats(r.c.length));
    // Objects a fault puts in place of a buffer.
    cl::Context foreign_context;
    std::vector<cl::Memory> keep;
    auto object = [&](int kind, Guarded& own, size_t length) -> cl_mem {
      switch (kind) {
        case kNull: return nullptr;
        case kForeign:
          if (!foreign_context()) foreign_context = cl::Context(ctx.device());
          keep.push_back(cl::Buffer(foreign_context, CL_MEM_READ_WRITE, (length + 1) * 4));
          return keep.back()();
        case kImage:
          keep.push_back(cl::Image2D(ctx.context(), CL_MEM_READ_WRITE, cl::ImageFormat(CL_R, CL_FLOAT), 16, 16));
          return keep.back()();
        case kReadOnly:
        case kWriteOnly: {
          cl_buffer_region region{kGuard * sizeof(float), length * sizeof(float)};
          const cl_mem_flags flags = kind == kReadOnly ? CL_MEM_READ_ONLY : CL_MEM_WRITE_ONLY;
          keep.push_back(own.whole.createSubBuffer(flags, CL_BUFFER_CREATE_TYPE_REGION, &region));
          return keep.back()();
        }
        default: return own.view();
      }
    };
    const cl_mem a = object(r.a_object, ga, r.a.length), b = object(r.b_object, gb, r.b.length);
    const cl_mem c = object(r.c_object, gc, r.c.length);
    cl_command_queue queue = ctx.queue()();
    cl_command_queue* q = r.null_queue ? nullptr : &queue;
    clgemmLayout layout;
    clgemmTranspose ta, tb;
    std::memcpy(&layout, &r.layout, sizeof layout);
    std::memcpy(&ta, &r.ta, sizeof ta);
    std::memcpy(&tb, &r.tb, sizeof tb);
    cl_event event = nullptr;
    clgemmStatus got;
    if (r.mode == Mode::Single) {
      got = clgemmSgemm(layout, ta, tb, r.m, r.n, r.k, r.alphas[0], a, r.a.first, r.a.ld, b, r.b.first, r.b.ld,
                        r.betas[0], c, r.c.first, r.c.ld, q, &event);
    } else if (r.mode == Mode::Strided) {
      got = clgemmSgemmStridedBatched(layout, ta, tb, r.m, r.n, r.k, r.alphas[0], a, r.a.first, r.a.ld, r.a.stride, b,
                                      r.b.first, r.b.ld, r.b.stride, r.betas[0], c, r.c.first, r.c.ld, r.c.stride,
                                      r.count, q, &event);
    } else {
      const bool null = r.null_arrays;
      got = clgemmSgemmBatched(layout, ta, tb, r.m, r.n, r.k, null ? nullptr : r.alphas.data(), a,
                               r.a.starts.data(), r.a.ld, b, r.b.starts.data(), r.b.ld, r.betas.data(), c,
                               r.c.starts.data(), r.c.ld, r.count, q, &event);
    }
    if (got != r.expect)
      return "status " + std::to_string(got) + " (" + clgemmLastErrorMessage() + "), expected " +
             std::to_string(r.expect);
    if (event) {
      clWaitForEvents(1, &event);
      clReleaseEvent(event);
    }
    const auto after = download(ctx, gc.view, gc.host.size());
    for (const Guarded* g : {&ga, &gb, &gc})
      if (!guards_intact(ctx, *g)) return "a guard zone was written";
    if (got != clgemmSuccess) {
      if (after != gc.host) {
        for (size_t i = 0; i < after.size(); ++i)
          if (!(after[i] == gc.host[i])) return "a refused call wrote C[" + std::to_string(i) + "]";
      }
      return "";
    }
    std::vector<double> want, bound;
    reference(r, ga.host, gb.host, gc.host, want, bound);
    for (size_t i = 0; i < after.size(); ++i)
      if (!(std::fabs(after[i] - want[i]) <= bound[i]))
        return "C[" + std::to_string(i) + "] is " + std::to_string(after[i]) + ", expected " + std::to_string(want[i]);
    return "";
  }
};

TEST_F(CApiFuzz, RandomCallsMatchTheModel) {
  const char* s = std::getenv("CLGEMM_FUZZ_SECONDS");
  const double seconds = s && *s ? std::atof(s) : 10.0;
  const char* seed_text = std::getenv("CLGEMM_FUZZ_SEED");
  const uint64_t seed = seed_text && *seed_text ? std::strtoull(seed_text, nullptr, 10) : fresh_seed();
  const bool images = shared_context().device().getInfo<CL_DEVICE_IMAGE_SUPPORT>();
  Rng rng(seed);
  // At least kMinRounds whatever the time: with an empty program cache the first rounds build
  // their kernels, which on PoCL takes seconds each. Bounded all the same.
  constexpr size_t kMinRounds = 50;
  const auto start = std::chrono::steady_clock::now();
  const auto stop = start + std::chrono::duration<double>(seconds);
  const auto limit = start + std::chrono::duration<double>(std::max(300.0, 4 * seconds));
  size_t rounds = 0, valid = 0;
  std::map<clgemmStatus, size_t> by_status;
  for (auto now = start; (now < stop || rounds < kMinRounds) && now < limit; now = std::chrono::steady_clock::now()) {
    Round r = valid_round(rng);
    if (rng.chance(0.6)) {
      for (int tries = 0; tries < 20 && !break_one(rng, r, images); ++tries) {
      }
    }
    const std::string problem = run(r);
    ASSERT_EQ(problem, "") << "CLGEMM_FUZZ_SEED=" << seed << ", round " << rounds << ": " << describe(r);
    ++rounds;
    valid += r.expect == clgemmSuccess;
    ++by_status[r.expect];
  }
  std::ostringstream summary;
  for (const auto& [status, count] : by_status) summary << " " << clgemmStatusString(status) << ": " << count << ";";
  RecordProperty("rounds", std::to_string(rounds));
  std::printf("CLGEMM_FUZZ_SEED=%llu: %zu rounds, %zu valid;%s\n", (unsigned long long)seed, rounds, valid,
              summary.str().c_str());
  EXPECT_GE(rounds, kMinRounds) << "too few rounds to mean anything";
  EXPECT_GT(valid, rounds / 4);
}

}  // namespace
}  // namespace clgemm::test
