// clgemm/gemm.hpp — the BLAS-style GEMM: C = alpha·op(A)·op(B) + beta·C in float32, any sizes,
// row- or column-major, transposes, leading dimensions, element offsets, batched.
//
// Conventions follow the reference BLAS and CLBlast: op(A) is m×k, op(B) is k×n, C is m×n; a
// matrix stored row-major with leading dimension ld has element (i, j) at offset + i·ld + j, one
// stored column-major at offset + j·ld + i. beta = 0 means C is not read, so NaN or Inf already in
// C does not reach the result; k = 0 gives C = beta·C; m = 0 or n = 0 does nothing.
#pragma once

#include <clgemm/context.hpp>
#include <clgemm/types.hpp>

#include <array>
#include <string>
#include <type_traits>
#include <vector>

namespace clgemm {

// Same numbers as CLBlast's (and CBLAS's) enums, so the C API can share them.
enum class Layout : int { RowMajor = 101, ColMajor = 102 };
enum class Transpose : int { No = 111, Yes = 112 };

// A matrix in a device buffer: where it starts (in elements) and its leading dimension.
struct MatrixRef {
  cl_mem buffer = nullptr;
  size_t offset = 0;
  size_t ld = 0;
};

// Everything that describes one GEMM (or one batch of GEMMs with a common shape).
struct GemmCall {
  Layout layout = Layout::RowMajor;
  Transpose a_transpose = Transpose::No, b_transpose = Transpose::No;
  size_t m = 0, n = 0, k = 0;
  double alpha = 1.0, beta = 0.0;  // used in the compute type (float32 or double)
  MatrixRef a, b, c;
  // The element types and the arithmetic. Supported: all f32 (compute F32, Tf32 or Tf32x3); all
  // f64 (F64, on devices with cl_khr_fp64); A and B both f16 or both bf16, C of the same type or
  // f32 (F32). Offsets, leading dimensions and strides count elements of each matrix's type.
  DataType a_type = DataType::F32, b_type = DataType::F32, c_type = DataType::F32;
  ComputeType compute = ComputeType::Auto;
};

// How the planner runs a call. Printed by `clgemm plan`; can be forced for testing.
enum class GemmPath {
  Auto,    // let the planner choose
  Direct,  // one kernel that reads the operands in place, with edge guards and the alpha/beta epilogue
  Packed,  // pack op(A) (transposed) and op(B) into padded temporaries unless already in that form,
           // then the tunable xgemm kernel, which writes alpha·A·B + beta·C straight into C
  Tall,    // row-major: C with at most 16 columns and A not transposed (column-major: C with at most
           // 16 rows and B not transposed); one kernel that streams the large operand in place along k
  Tensor,  // NVIDIA tensor cores (sm_80+): f32 operands with GemmOptions::math Tf32x3 or Tf32 (the
           // xmma kernel), and f64 operands (the dmma kernel, FP64 tensor cores, double arithmetic);
           // op(A) (transposed) and op(B) packed into padded temporaries unless already whole tiles
  Wide,    // row-major: C with at most 16 rows and B not transposed, or at most 16 columns and A
           // transposed (column-major: the same with rows and columns, A and B swapped), as in GEMV;
           // one kernel that streams the large operand in place along its rows, K in slices whose
           // sums are added in a fixed order (the same bits on every run): by the last slice in the
           // same launch where C has one row (one column), by a second kernel otherwise
  Tiny,    // batches of tiny items (at most 128 elements of C, 64 deep): one work-item per element of
           // C of the whole batch, many items to a work-group, operands read in place
  Wgmma,   // Hopper tensor cores through wgmma (NVIDIA sm_90, PTX patched for sm_90a: DeviceInfo::
           // sm90a_patching): f16 and bf16 operands with float32 sums, and f32 operands with
           // GemmOptions::math Tf32. Reads A as stored and B stored transposed in place (rows on
           // 128-byte lines), and a 16-bit B as stored where C has under 4096 rows; copies any
           // other operand into the kernel's form first
};

// "auto", "direct", "packed", "tall", "tensor", "wide", "tiny" or "wgmma": how the CLI and the
// Python package name a path.
const char* path_name(GemmPath path);

// The arithmetic of the products (GemmOptions::math).
enum class Math {
  Fp32,    // float32 multiply-adds, as the reference BLAS (the default)
  Tf32x3,  // 3xTF32 on NVIDIA tensor cores: each float split into two TF32 parts, three tensor-core
           // products per float32 product, sums in float32. About float32's accuracy (measured
           // below it on random inputs: docs/performance.md); inputs smaller than about 1e-35 in
           // magnitude keep fewer bits. Where the device has no tensor path: Fp32.
  Tf32,    // TF32 on tensor cores: inputs rounded to 11 significant bits (about 1e-3 relative error
           // per product), sums in float32. Where the device has no tensor path: Fp32.
};

struct GemmPlan {
  GemmPath path = GemmPath::Direct;
  // The kernel family that runs it: direct, xgemm, tall, wide, tiny, xmma, dmma or wgmma (the
  // tensor path runs xmma on f32 operands and dmma on f64 ones).
  std::string kernel;
  KernelParams params;       // parameters of the path's kernel
  std::string source;        // where the parameters came from: a tuning database entry, or defaults
  std::string reason;        // why the planner chose this path
  // Split-K of the last, partial wave (packed and wgmma paths): the last `split_tiles` tiles of C
  // are each computed by `splits` work-groups over parts of K, and added up by the last to finish.
  // The wgmma path splits every item's last tiles where a batch is planned as one item.
  size_t splits = 1, split_tiles = 0;
  // With a split: how many work-groups share the split tiles' K-steps equally (stream-K; a
  // group's share may span tiles). 0 = split_tiles × splits, which cuts every tile into `splits`
  // parts.
  size_t sk_groups = 0;
  // Packed path with the cp.async pipeline: copy a B that cannot be read in whole vectors (N or
  // its leading dimension not a multiple of VWN, or B transposed) into an aligned, zero-padded
  // temporary first, instead of reading it element by element. (Without the pipeline such a B
  // is always copied.)
  bool pack_b = false;
  // Ragged edges run apart (packed path): when interior_m > 0, the call runs as up to three GEMMs
  // on blocks of C, and the fields above describe the one on the interior, rows [0, interior_m)
  // and columns [0, interior_n), which holds whole tiles only. The rows below it (all columns)
  // and the columns right of it (the interior's rows) run as two more, each planned on its own
  // by plan_gemm. Saves the padded tiles' work where the leftover rows and columns are few.
  size_t interior_m = 0, interior_n = 0;
  // The parameters come from the batched class's tuning entry, chosen for the whole batch (a
  // strided or listed batch of at least two items below the mid class; plan_gemm's `batch`).
  bool batched = false;
  std::string describe() const;
};

struct GemmOptions {
  GemmPath force_path = GemmPath::Auto;
  KernelParams force_params;     // overrides for the chosen kernel's parameters
  // Split-K of the packed and wgmma paths: 0 = the planner's choice; 1 = never split; S >= 2 =
  // split the tiles of the last, partial wave (all tiles if there are fewer than compute units;
  // wgmma: the last round of work-group slots, at most 16 parts and one per slice of K) into S
  // parts, or exactly the last force_split_tiles tiles when that is set (tests).
  size_t force_splits = 0, force_split_tiles = 0;
  // With force_splits >= 2: GemmPlan::sk_groups (0: split_tiles × splits). The wgmma path has no
  // stream-K and leaves it at 0.
  size_t force_sk_groups = 0;
  // GemmPlan::pack_b: Auto = the planner's choice.
  enum class Toggle { Auto, Off, On } force_pack_b = Toggle::Auto;
  // GemmPlan::interior_m/n: Auto = the planner's choice; On = split off the edges whenever the
  // packed path's tiles leave any and there is a whole tile; Off = never.
  Toggle force_edge_split = Toggle::Auto;
  // Fp32 by default; Tf32x3 or Tf32 take the tensor path on devices that have one (an NVIDIA
  // GPU, sm_80 or newer), for calls the planner finds large enough, and Fp32 otherwise.
  Math math = Math::Fp32;
  // If set, receives an event for every command the call enqueues, in order (for profiling: on a
  // queue with profiling enabled, elapsed_seconds() of them is the call's device time).
  std::vector<cl::Event>* events = nullptr;
};

// Whether Math::Tf32x3 and Math::Tf32 can take the tensor path on this device: TF32 mma.sync and
// cp.async through inline PTX, which NVIDIA's OpenCL accepts from compute capability 8.0 on.
bool tensor_path_available(const DeviceInfo& device);

// The plan for a call on a device (no work is enqueued; arguments are not checked), for operands
// of `type`, and `batch` items of m×n×k in one call: a batch of at least two items below the mid
// class is planned as a whole, from the batched class's tuning entry where the device has one.
GemmPlan plan_gemm(const DeviceInfo& device, size_t m, size_t n, size_t k, const GemmOptions& options = {},
                   DataType type = DataType::F32, size_t batch = 1);

// One command a call enqueues, as the planner wrote it.
struct PlannedCommand {
  std::string what;     // "direct", "xgemm", "pack op(A) into At: ...", "C = beta*C", ...
  std::string kernel;   // the kernel function it launches
  std::string options;  // its build options
  size_t dims = 1;
  std::array<size_t, 3> global{1, 1, 1}, local{1, 1, 1};  // work sizes (the first `dims` count)
  size_t part = 0;      // the index of the part (CallPlan::parts) it belongs to
};

// A GEMM that a call runs as: the whole of C, or a block of it (the interior of C in whole tiles,
// or a strip of ragged edge; GemmPlan::interior_m), with the plan of its own shape.
struct PlannedPart {
  size_t row0 = 0, rows = 0, col0 = 0, cols = 0;  // the block of the caller's C
  GemmPlan plan;
};

// A temporary buffer the commands pass data through (packed operands, split-K's workspace).
struct PlannedTemporary {
  std::string role;
  size_t bytes = 0;
};

// Everything a call runs: its parts, every command in the order enqueued, and the temporaries.
struct CallPlan {
  std::vector<PlannedPart> parts;
  std::vector<PlannedCommand> commands;
  std::vector<PlannedTemporary> temporaries;
  std::string describe() const;
};

// `device` as gemm() plans for it, found on a context of its own: on NVIDIA GPUs with
// DeviceInfo::static_local_bytes measured, and on an sm_90 with sm90a_patching found by building
// the wgmma kernel patched for sm_90a once; other devices come back as they are. Pass the result
// to plan_call to see the plan gemm() would make.
DeviceInfo planning_device(const DeviceInfo& device);

// What the device's compiler made of one kernel a call would run (clgemm asm).
struct KernelReport {
  std::string what, kernel, options;  // as PlannedCommand has them
  std::string ptx;                    // the PTX that runs (patched where the kernel is); "" where the
                                      // device's binary is not text
  std::string log;                    // the build log with the driver's verbose flag: on NVIDIA,
                                      // ptxas's registers, spills and shared memory
  size_t local_bytes = 0, private_bytes = 0, work_group_size = 0;  // as the runtime reports them
  // The device's limits for that local memory: declared as __local arrays (static, measured where
  // a build shows it) and as __local arguments (dynamic, CL_DEVICE_LOCAL_MEM_SIZE).
  size_t static_local_limit = 0, dynamic_local_limit = 0;
};

// Builds every kernel that gemm (batch_count = 1) or gemm_strided_batched on dense items would
// run for `call` on `device`, apart from the program cache, and reports each. The buffers are not
// looked at. Throws what plan_call throws, and Error(BuildFailure) where a build fails.
std::vector<KernelReport> inspect_call(const DeviceInfo& device, const GemmCall& call, const GemmOptions& options = {},
                                       size_t batch_count = 1);

// What gemm (with batch_count = 1) or gemm_strided_batched would run for `call` on `device`,
// without running anything. The buffers are not looked at and may be null; the layout,
// transposes, leading dimensions, offsets and strides count, as they decide how each operand
// reaches its kernel. Throws the Error gemm would for an invalid layout, transpose, size or
// batch count.
CallPlan plan_call(const DeviceInfo& device, const GemmCall& call, const GemmOptions& options = {},
                   size_t batch_count = 1, size_t a_stride = 0, size_t b_stride = 0, size_t c_stride = 0);

// C = alpha·op(A)·op(B) + beta·C on `queue`. `event`, if given, receives an event that completes
// when all of the call's work has finished. Throws Error with a status naming the failure class
// and a message naming the argument and values; when it throws, nothing has been enqueued.
void gemm(const GemmCall& call, cl_command_queue queue, cl_event* event = nullptr, const GemmOptions& options = {});

// batch_count GEMMs of one shape, each with its own alpha, beta and offsets (vectors of length
// batch_count; the offsets replace call.a/b/c.offset). alpha and beta are used in the compute type.
void gemm_batched(const GemmCall& call, const std::vector<double>& alphas, const std::vector<double>& betas,
                  const std::vector<size_t>& a_offsets, const std::vector<size_t>& b_offsets,
                  const std::vector<size_t>& c_offsets, cl_command_queue queue, cl_event* event = nullptr,
                  const GemmOptions& options = {});
// The same with float scalars. A template, so that braced lists ({1.0f, 2.0f}), which it cannot
// deduce, go to the double form instead of making the call ambiguous.
template <class Float, std::enable_if_t<std::is_same_v<Float, float>, int> = 0>
void gemm_batched(const GemmCall& call, const std::vector<Float>& alphas, const std::vector<Float>& betas,
                  const std::vector<size_t>& a_offsets, const std::vector<size_t>& b_offsets,
                  const std::vector<size_t>& c_offsets, cl_command_queue queue, cl_event* event = nullptr,
                  const GemmOptions& options = {}) {
  gemm_batched(call, std::vector<double>(alphas.begin(), alphas.end()), std::vector<double>(betas.begin(), betas.end()),
               a_offsets, b_offsets, c_offsets, queue, event, options);
}

// batch_count GEMMs whose operands lie `stride` elements apart, starting at the offsets in `call`.
void gemm_strided_batched(const GemmCall& call, size_t a_stride, size_t b_stride, size_t c_stride, size_t batch_count,
                          cl_command_queue queue, cl_event* event = nullptr, const GemmOptions& options = {});

// A grouped GEMM: problems of any shapes, each a GemmCall with its own m, n, k, transposes, alpha,
// beta, offsets and leading dimensions, in one call and one launch. One launch needs what all
// problems share: the layout, the element and compute types (f32, f64, f16 or bf16 as in gemm;
// computed in float32 or float64, never in reduced precision), and the A, B and C buffers (each
// problem's matrices lie at its own offsets in them; a problem that reads no A or B, with k = 0 or
// alpha = 0, may leave those null). Problems with m or n = 0 are skipped; k = 0 scales C by beta. Every
// problem is checked as gemm checks a call, the message starting "problem i: ", and no problem's
// C may share an element with another problem's A, B or C. On devices with the cp.async pipeline,
// problems that share their transposes run in one of two kernels: f64 ones of at least 64³
// multiply-adds on average and 2^26 in all on the FP64 tensor cores (IEEE double products and
// sums; GemmPath::Tensor asks for this at any size, and fails with InvalidArgument where it cannot
// run), other f32 and f64 ones in the xgemm kernel. Everything else runs in the direct kernel's
// scheme, which GemmOptions::force_params (TM, TN, TK, WM, WN) or another forced path selects.
// GemmOptions::math is not used.
void gemm_grouped(const std::vector<GemmCall>& problems, cl_command_queue queue, cl_event* event = nullptr,
                  const GemmOptions& options = {});

}  // namespace clgemm
