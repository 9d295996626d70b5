// cmd_plan.cpp — `clgemm plan`: shows how the library would run a GEMM of a given shape; `clgemm
// asm`: the same plan with what the device's compiler made of each kernel.
#include <clgemm/error.hpp>
#include <clgemm/gemm.hpp>

#include "cli_common.hpp"

#include <clgemm/cpu.hpp>

#include <chrono>
#include <fstream>
#include <sstream>
#include <cmath>
#include <iostream>

namespace clgemm::cli {

namespace {

struct PlanOptions {
  DeviceOptions dev;
  size_t m = 0, n = 0, k = 0;
  size_t batch = 1;  // a strided batch of this many items, stored one after another
  std::string path = "auto";
  std::string edges = "auto";  // GemmOptions::force_edge_split
  std::string math = "fp32";   // GemmOptions::math
  std::string precision = "f32";  // A and B's type
  std::string c_type;             // C's type; empty: A and B's
  bool run = false;
  int repeat = 10;
  bool inspect = false;  // `clgemm asm`
  std::string ptx_file;  // asm --ptx: where the kernels' PTX goes ("-": standard output)
  std::string set;       // --set: GemmOptions::force_params of the forced path
};

using Clock = std::chrono::steady_clock;

// `count` random values in [-1, 1) from `seed`, stored as `type`.
std::vector<unsigned char> random_operand(DataType type, size_t count, uint64_t seed) {
  std::vector<float> drawn(count);
  cpu::fill_random(drawn, seed);
  return cpu::to_storage(type, std::vector<double>(drawn.begin(), drawn.end()));
}

// Runs the planned GEMM through the public API: the first call (which builds or loads the
// kernels) timed on the host clock, then `repeat` warm calls; checked once against float64.
nlohmann::json run_planned(const DeviceInfo& d, const PlanOptions& o, const GemmCall& types, const GemmOptions& go) {
  Context ctx(d);
  const GemmShape s{o.m, o.n, o.k, o.batch};
  std::vector<unsigned char> a = random_operand(types.a_type, s.m * s.k * s.batch, 1),
                             b = random_operand(types.b_type, s.k * s.n * s.batch, 2),
                             c(s.m * s.n * s.batch * data_type_bytes(types.c_type));
  cl::Buffer da(ctx.context(), CL_MEM_COPY_HOST_PTR, a.size(), a.data());
  cl::Buffer db(ctx.context(), CL_MEM_COPY_HOST_PTR, b.size(), b.data());
  cl::Buffer dc = ctx.buffer(c.size());
  GemmCall call = types;
  call.a = {da(), 0, s.k};
  call.b = {db(), 0, s.n};
  call.c = {dc(), 0, s.n};
  auto once = [&] {
    const auto t0 = Clock::now();
    if (s.batch > 1)
      gemm_strided_batched(call, s.m * s.k, s.k * s.n, s.m * s.n, s.batch, ctx.queue()(), nullptr, go);
    else
      gemm(call, ctx.queue()(), nullptr, go);
    ctx.queue().finish();
    return std::chrono::duration<double>(Clock::now() - t0).count();
  };
  const double first = once();
  ctx.queue().enqueueReadBuffer(dc, CL_TRUE, 0, c.size(), c.data());
  // The reference multiplies the operands as stored (rounded to their type).
  const std::vector<double> ad = cpu::from_storage(call.a_type, a.data(), s.m * s.k * s.batch),
                            bd = cpu::from_storage(call.b_type, b.data(), s.k * s.n * s.batch),
                            cd = cpu::from_storage(call.c_type, c.data(), s.m * s.n * s.batch);
  const double err = cpu::relative_error(cd.data(), cpu::gemm_reference_f64(s, ad.data(), bd.data()).data(), cd.size());
  std::vector<double> warm;
  for (int i = 0; i < o.repeat; ++i) warm.push_back(once());
  const double med = median(warm);
  const double tolerance = call.a_type == DataType::F32 ? cpu::gemm_tolerance(s.k, go.math == Math::Tf32)
                                                        : cpu::gemm_tolerance(s.k, call.a_type, call.c_type);
  return {{"first_call_s", first}, {"warm_median_s", med}, {"warm_gflops", gemm_flops(s) / med * 1e-9},
          {"relative_error", err}, {"correct", err <= tolerance},
          {"program_cache_dir", ctx.program_cache_dir()}};
}

// The lines of NVIDIA's verbose build log that describe the compiled kernel: ptxas's registers,
// barriers and shared memory, and its stack and spills.
std::vector<std::string> compiler_facts(const std::string& log) {
  std::vector<std::string> out;
  std::istringstream lines(log);
  for (std::string line; std::getline(lines, line);) {
    if (line.find("registers") == std::string::npos && line.find("spill") == std::string::npos) continue;
    // "ptxas info    : Used 109 registers, ..." and "ptxas         .     0 bytes stack frame, ...".
    size_t start = line.find("ptxas");
    start = start == std::string::npos ? 0 : start + 5;
    if (const size_t colon = line.find(':', start); colon != std::string::npos) start = colon + 1;
    start = line.find_first_not_of(" .", start);
    out.push_back(start == std::string::npos ? line : line.substr(start));
  }
  return out;
}

// `clgemm asm`: every kernel of the plan built apart from the cache, with the compiler's and the
// runtime's account of it, and its PTX where the device has PTX.
nlohmann::json inspect_planned(const DeviceInfo& d, const PlanOptions& o, const GemmCall& call, const GemmOptions& go) {
  const std::vector<KernelReport> reports = inspect_call(d, call, go, o.batch);
  nlohmann::json out = nlohmann::json::array();
  std::ostringstream ptx;
  for (const auto& r : reports) {
    out.push_back({{"what", r.what}, {"kernel", r.kernel}, {"options", r.options}, {"local_bytes", r.local_bytes},
                   {"static_local_limit", r.static_local_limit}, {"dynamic_local_limit", r.dynamic_local_limit},
                   {"private_bytes", r.private_bytes}, {"work_group_size", r.work_group_size},
                   {"compiler", compiler_facts(r.log)}, {"ptx_bytes", r.ptx.size()}});
    if (!r.ptx.empty()) ptx << "// ---- " << r.what << ": " << r.kernel << " (" << r.options << ")\n" << r.ptx << "\n";
  }
  if (o.ptx_file == "-") {
    std::cout << ptx.str();
  } else if (!o.ptx_file.empty()) {
    std::ofstream f(o.ptx_file);
    f << ptx.str();
    if (!f) throw Error(Status::InvalidArgument, "--ptx: cannot write '" + o.ptx_file + "'");
  }
  return out;
}

void print_inspected(const nlohmann::json& kernels, const PlanOptions& o) {
  for (const auto& k : kernels) {
    std::cout << k["what"].get<std::string>() << " (" << k["kernel"].get<std::string>() << "): local memory "
              << k["local_bytes"].get<size_t>() << " bytes (the device allows " << k["static_local_limit"].get<size_t>()
              << " as __local arrays, " << k["dynamic_local_limit"].get<size_t>() << " as __local arguments), private "
              << k["private_bytes"].get<size_t>() << " bytes, work-groups of up to "
              << k["work_group_size"].get<size_t>() << "\n";
    const auto& facts = k["compiler"];
    if (facts.empty()) std::cout << "  the compiler's log names no registers (NVIDIA's ptxas does)\n";
    for (const auto& f : facts) std::cout << "  " << f.get<std::string>() << "\n";
    const size_t ptx = k["ptx_bytes"].get<size_t>();
    std::cout << "  " << (ptx == 0 ? std::string("no PTX: the device's binary is not text")
                                   : "PTX " + std::to_string(ptx) + " bytes" + (o.ptx_file.empty() ? " (--ptx FILE writes it)" : ""))
              << "\n";
  }
}

void run_plan(const PlanOptions& o) {
  // The sizes gemm() takes (and the same refusal, SizeOverflow), so that no plan is shown for a
  // call the library would refuse.
  check_dimensions({{"--m", o.m}, {"--n", o.n}, {"--k", o.k}});
  // A row-major call on dense operands of the types asked for, as `--run` makes it; plan_call
  // refuses what gemm() would.
  GemmCall call;
  call.a_type = call.b_type = data_type_option("--precision", o.precision);
  call.c_type = o.c_type.empty() ? call.a_type : data_type_option("--c-type", o.c_type);
  if (call.a_type != DataType::F32 && o.math != "fp32")
    throw Error(Status::InvalidArgument, "--math " + o.math + " computes on tensor cores from f32 operands; drop --math "
                                             "or --precision " + o.precision);
  check_output_file("--save", o.dev.save);
  const DeviceInfo d = planning_device(open_device(o.dev));
  if (o.run)
    check_footprint(d, "--run with " + shape_text({o.m, o.n, o.k, o.batch}),
                    gemm_footprint({o.m, o.n, o.k}, 1, 1, call.a_type, call.c_type, o.batch));
  GemmOptions go;
  go.force_path = o.path == "direct"   ? GemmPath::Direct
                  : o.path == "packed" ? GemmPath::Packed
                  : o.path == "tall"   ? GemmPath::Tall
                  : o.path == "tensor" ? GemmPath::Tensor
                  : o.path == "wide"   ? GemmPath::Wide
                  : o.path == "tiny"   ? GemmPath::Tiny
                  : o.path == "wgmma"  ? GemmPath::Wgmma
                                       : GemmPath::Auto;
  go.math = o.math == "3xtf32" ? Math::Tf32x3 : o.math == "tf32" ? Math::Tf32 : Math::Fp32;
  go.force_params = parse_config("--set", o.set);
  if (!go.force_params.empty() && go.force_path == GemmPath::Auto)
    throw Error(Status::InvalidArgument, "--set " + o.set + " sets parameters of one path's kernel: give the path "
                                         "with --path");
  go.force_edge_split = edges_toggle(o.edges);
  call.m = o.m, call.n = o.n, call.k = o.k;
  call.a.ld = o.k, call.b.ld = o.n, call.c.ld = o.n;
  const std::string types = std::string("A and B ") + data_type_name(call.a_type) + ", C " + data_type_name(call.c_type);
  CallPlan cp;
  try {
    cp = plan_call(d, call, go, o.batch, o.m * o.k, o.k * o.n, o.m * o.n);
  } catch (const Error& e) {
    if (e.status() != Status::UnsupportedTypes && e.status() != Status::NoFp64) throw;
    throw Error(e.status(), "--precision " + o.precision + (o.c_type.empty() ? "" : " --c-type " + o.c_type) + ": " +
                                e.what());
  }
  const GemmPlan& plan = cp.parts.front().plan;
  nlohmann::json doc = {{"device", d.name}, {"m", o.m}, {"n", o.n}, {"k", o.k}, {"batch", o.batch},
                        {"a_type", data_type_name(call.a_type)}, {"b_type", data_type_name(call.b_type)},
                        {"c_type", data_type_name(call.c_type)},
                        {"path", path_name(plan.path)}, {"kernel", plan.kernel},
                        {"params", plan.params}, {"source", plan.source}, {"reason", plan.reason}};
  // With the edges apart: the interior, then the strips' own plans (the rows below the interior,
  // then the columns right of it), as the call runs them.
  if (cp.parts.size() > 1) {
    doc["interior"] = {cp.parts[0].rows, cp.parts[0].cols};
    for (size_t i = 1; i < cp.parts.size(); ++i) {
      const PlannedPart& p = cp.parts[i];
      doc["strips"].push_back({{"shape", shape_text({p.rows, p.cols, o.k})}, {"path", path_name(p.plan.path)},
                               {"kernel", p.plan.kernel}, {"params", p.plan.params}, {"source", p.plan.source}});
    }
  }
  for (const auto& c : cp.commands)
    doc["commands"].push_back({{"what", c.what}, {"kernel", c.kernel}, {"options", c.options}, {"part", c.part},
                               {"global", std::vector<size_t>(c.global.begin(), c.global.begin() + c.dims)},
                               {"local", std::vector<size_t>(c.local.begin(), c.local.begin() + c.dims)}});
  for (const auto& t : cp.temporaries) doc["temporaries"].push_back({{"role", t.role}, {"bytes", t.bytes}});
  if (o.run) doc["run"] = run_planned(d, o, call, go);
  if (o.inspect) doc["kernels"] = inspect_planned(d, o, call, go);
  emit_json(o.dev, doc);
  if (!o.dev.json) std::cout << shape_text({o.m, o.n, o.k, o.batch}) << ", " << types << ", on " << d.name << ":\n" << cp.describe();
  if (o.inspect && !o.dev.json) print_inspected(doc["kernels"], o);
  if (!o.run) return;
  const auto& r = doc["run"];
  if (!o.dev.json)
    std::cout << "first call " << fixed(r["first_call_s"].get<double>() * 1e3, 1) << " ms (kernel build or cache load "
              << "included; program cache: " << (r["program_cache_dir"].get<std::string>().empty() ? "off" : r["program_cache_dir"].get<std::string>())
              << "), then median " << fixed(r["warm_median_s"].get<double>() * 1e3, 3) << " ms = "
              << fixed(r["warm_gflops"].get<double>(), 1) << " GFLOP/s over " << o.repeat
              << " calls (host clock, with finish); relative error " << sci(r["relative_error"].get<double>()) << "\n";
  if (!r["correct"].get<bool>())
    throw WrongResult("the planned GEMM gave a wrong result (relative error " + sci(r["relative_error"].get<double>()) +
                      "); please report this with the device and options");
}

}  // namespace

namespace {

// `plan` and `asm` take the same call; `asm` adds what the compiler made of it.
CLI::App* add_call_command(CLI::App& app, const std::string& name, const std::string& what, bool inspect) {
  auto o = std::make_shared<PlanOptions>();
  o->inspect = inspect;
  auto* cmd = app.add_subcommand(name, what);
  add_device_options(*cmd, o->dev);
  cmd->add_option("--m", o->m, "rows of op(A) and C")->required()->check(kPositiveSize);
  cmd->add_option("--n", o->n, "columns of op(B) and C")->required()->check(kPositiveSize);
  cmd->add_option("--k", o->k, "columns of op(A), rows of op(B)")->required()->check(kPositiveSize);
  cmd->add_option("--batch", o->batch,
                  "a strided batch of this many items (gemm_strided_batched, items stored one after another)")
      ->check(CLI::Range(size_t(1), size_t(1) << 24));
  cmd->add_option("--path", o->path,
                  "force a path: auto, direct, packed, tall (C of at most 16 columns; `plan` assumes row-major A and B, "
                  "not transposed), wide (C of at most 16 rows), tiny (batches of items of at most 128 elements of C, "
                  "with --batch), tensor (with --math 3xtf32 or tf32) or wgmma (Hopper: --precision f16 or bf16, or --math "
                  "tf32)")
      ->check(CLI::IsMember({"auto", "direct", "packed", "tall", "tensor", "wide", "tiny", "wgmma"}));
  cmd->add_option("--set", o->set,
                  "NAME=V,... parameters of the --path kernel over its defaults (GemmOptions::force_params), such as "
                  "--path wgmma --set BN=256,BK=64,STAGES=4,WS=1");
  cmd->add_option("--math", o->math,
                  "arithmetic: fp32 (default), 3xtf32 (tensor cores at float32 accuracy) or tf32 (tensor cores, "
                  "inputs rounded to TF32); the tensor ones on NVIDIA GPUs of sm_80 and newer, fp32 elsewhere")
      ->check(CLI::IsMember({"fp32", "3xtf32", "tf32"}));
  cmd->add_option("--precision", o->precision,
                  "the type of A and B: f32 (default), f64 (devices with cl_khr_fp64), f16 or bf16 (computed in f32)");
  cmd->add_option("--c-type", o->c_type,
                  "the type of C: that of A and B (default), or f32 with f16 or bf16 operands");
  cmd->add_option("--edges", o->edges,
                  "ragged edges of the packed path: auto, split (the interior and two strips as three GEMMs) or whole")
      ->check(CLI::IsMember({"auto", "split", "whole"}));
  cmd->add_flag("--run", o->run, "also run it through the public API: first-call latency, then warm calls");
  cmd->add_option("--repeat,-r", o->repeat, "warm calls with --run")->check(CLI::Range(1, 100000));
  if (inspect)
    cmd->add_option("--ptx", o->ptx_file, "write the kernels' PTX (as they run, patched where they are) to this file, "
                                          "or - for standard output");
  cmd->callback([o] { run_plan(*o); });
  return cmd;
}

}  // namespace

void add_plan_command(CLI::App& app) {
  add_call_command(app, "plan", "show which kernel and parameters clgemm uses for a GEMM shape", false);
  add_call_command(app, "asm",
                   "show the plan and what the device's compiler made of each kernel: registers, spills, shared "
                   "memory (NVIDIA's ptxas), local and private memory, and the PTX that runs",
                   true);
}

}  // namespace clgemm::cli
