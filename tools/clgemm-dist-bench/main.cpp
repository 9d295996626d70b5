// clgemm-dist-bench — distributed GEMM under mpirun (`clgemm dist-bench` runs it): C = A·B on
// N x N matrices in ScaLAPACK's layout, timed through clgemm_p?gemm on every rank's device, with
//   - the same call on one rank alone (a 1 x 1 grid of rank 0), for the parallel efficiency;
//   - ScaLAPACK's own p?gemm_ on the host CPUs of the same grid, the peer;
//   - a sampled float64 check of C;
//   - each rank's time split into local GEMMs (device), waits for panels and for the device,
//     packing and C's transfers.
#include "bench/block_cyclic_matrix.hpp"
#include "bench/scalapack.hpp"

#include <clgemm/dist.h>
#include <clgemm/dist.hpp>

#include <CLI/CLI.hpp>
#include <mpi.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

using namespace clgemm;
using bench::GridPlace;
using bench::LocalMatrix;

namespace {

struct Settings {
  std::string precision = "f32";
  std::vector<size_t> sizes{8192};
  std::string grid;          // PxQ; default: the most square grid of all ranks, P <= Q
  size_t block = 512;
  size_t panel = 0;
  std::string form = "host";  // where the local blocks live: host memory or the rank's device
  int repeat = 3, warmup = 1;
  bool single = true;        // also time rank 0 alone
  std::string peer = "scalapack";
  size_t peer_max = 16384;   // ScaLAPACK on the CPUs only up to this N (it takes minutes beyond)
  std::string device;
  std::string json;
};

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v.size() % 2 ? v[v.size() / 2] : 0.5 * (v[v.size() / 2 - 1] + v[v.size() / 2]);
}

GridPlace make_grid(int rows, int cols) {
  GridPlace g;
  Cblacs_get(-1, 0, &g.context);
  Cblacs_gridinit(&g.context, "Row", rows, cols);
  if (g.context >= 0) Cblacs_gridinfo(g.context, &g.rows, &g.cols, &g.row, &g.col);
  return g;
}

struct Timing {
  double seconds = 0;  // median over repeats, slowest rank
  dist::Stats stats;   // this rank's, from the median run
  double error = 0;    // sampled, largest over ranks
  bool ran = false;
};

// Runs C = A·B `repeat` times on grid g (this process in it) with clgemm or ScaLAPACK.
template <class T>
Timing run(const Settings& s, const GridPlace& g, MPI_Comm comm, size_t n, bool scalapack) {
  LocalMatrix<T> a(g, n, s.block, 11), b(g, n, s.block, 22), c(g, n, s.block, 33);
  const int N = int(n), one = 1;
  const T alpha = 1, beta = 0;
  Timing t;
  std::vector<double> times;
  std::vector<dist::Stats> stats;
  // The device form: the local blocks in buffers of this rank's device, uploaded before the runs.
  const bool on_device = s.form == "device" && !scalapack;
  Context* ctx = on_device ? &dist::rank_context() : nullptr;
  auto upload = [&](LocalMatrix<T>& x) {
    return on_device ? cl::Buffer(ctx->context(), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                                  std::max<size_t>(x.data.size(), 1) * sizeof(T), x.data.data())
                     : cl::Buffer();
  };
  const cl::Buffer da = upload(a), db = upload(b), dc = upload(c);
  // ScaLAPACK on the CPUs takes seconds to minutes: one run, no warm-up.
  const int runs = scalapack ? 1 : s.warmup + s.repeat, warmup = scalapack ? 0 : s.warmup;
  for (int r = 0; r < runs; ++r) {
    dist::Stats st;
    MPI_Barrier(comm);
    const double t0 = MPI_Wtime();
    if (scalapack) {
      if constexpr (sizeof(T) == 4)
        psgemm_("N", "N", &N, &N, &N, &alpha, a.data.data(), &one, &one, a.desc, b.data.data(), &one, &one, b.desc, &beta,
                c.data.data(), &one, &one, c.desc);
      else
        pdgemm_("N", "N", &N, &N, &N, &alpha, a.data.data(), &one, &one, a.desc, b.data.data(), &one, &one, b.desc, &beta,
                c.data.data(), &one, &one, c.desc);
    } else {
      dist::Options o;
      o.panel = s.panel;
      o.stats = &st;
      if (on_device)
        dist::pgemm(Transpose::No, Transpose::No, N, N, N, alpha, {da(), 0, dist::Descriptor::from(a.desc), 1, 1},
                    {db(), 0, dist::Descriptor::from(b.desc), 1, 1}, beta, {dc(), 0, dist::Descriptor::from(c.desc), 1, 1},
                    sizeof(T) == 8 ? DataType::F64 : DataType::F32, ctx->queue()(), o);
      else
        dist::pgemm<T>(Transpose::No, Transpose::No, N, N, N, alpha, {a.data.data(), dist::Descriptor::from(a.desc), 1, 1},
                       {b.data.data(), dist::Descriptor::from(b.desc), 1, 1}, beta,
                       {c.data.data(), dist::Descriptor::from(c.desc), 1, 1}, o);
    }
    MPI_Barrier(comm);
    const double elapsed = MPI_Wtime() - t0;
    if (r >= warmup) {
      times.push_back(elapsed);
      stats.push_back(st);
    }
  }
  t.seconds = median(times);
  if (on_device && !c.data.empty()) ctx->queue().enqueueReadBuffer(dc, CL_TRUE, 0, c.data.size() * sizeof(T), c.data.data());
  // This rank's stats from the run nearest the median.
  size_t best = 0;
  for (size_t i = 0; i < times.size(); ++i)
    if (std::fabs(times[i] - t.seconds) < std::fabs(times[best] - t.seconds)) best = i;
  t.stats = stats.empty() ? dist::Stats{} : stats[best];
  double err = bench::sampled_error(c, n, 11, 22, 32);
  MPI_Allreduce(MPI_IN_PLACE, &err, 1, MPI_DOUBLE, MPI_MAX, comm);
  t.error = err;
  t.ran = true;
  return t;
}

nlohmann::json stats_json(const dist::Stats& s) {
  return {{"total_s", s.total},         {"startup_s", s.startup},       {"compute_s", s.compute},
          {"gemm_span_s", s.gemm_span}, {"wait_comm_s", s.wait_comm},
          {"wait_device_s", s.wait_device}, {"pack_s", s.pack},          {"redistribute_s", s.redistribute},
          {"transfer_c_s", s.transfer_c}, {"bytes_received", s.bytes_received}, {"steps", s.steps},
          {"panel", s.panel}};
}

template <class T>
int run_bench(const Settings& s, int rank, int size) {
  int rows = 0, cols = 0;
  if (!s.grid.empty()) {
    if (std::sscanf(s.grid.c_str(), "%dx%d", &rows, &cols) != 2 || rows < 1 || cols < 1 || rows * cols > size) {
      if (rank == 0) std::cerr << "clgemm-dist-bench: --grid " << s.grid << " does not fit " << size << " ranks\n";
      return 2;
    }
  } else {
    rows = int(std::sqrt(double(size)));
    while (size % rows) --rows;
    cols = size / rows;
  }
  const double tol = sizeof(T) == 4 ? 1e-4 : 1e-12;
  nlohmann::json doc = {{"precision", s.precision}, {"ranks", size}, {"grid", std::to_string(rows) + "x" + std::to_string(cols)},
                        {"block", s.block}, {"results", nlohmann::json::array()}};
  const std::string device = dist::rank_context().info().name;
  bool all_ok = true;
  for (size_t n : s.sizes) {
    const double flops = 2.0 * double(n) * double(n) * double(n);
    nlohmann::json row = {{"n", n}, {"form", s.form}};
    // One rank alone.
    Timing single;
    if (s.single && rows * cols > 1) {
      GridPlace g1 = make_grid(1, 1);
      MPI_Comm solo = MPI_COMM_NULL;
      MPI_Comm_split(MPI_COMM_WORLD, rank == 0 ? 0 : MPI_UNDEFINED, 0, &solo);
      if (rank == 0) {
        single = run<T>(s, g1, solo, n, false);
        Cblacs_gridexit(g1.context);
        MPI_Comm_free(&solo);
      }
      MPI_Bcast(&single.seconds, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
      MPI_Bcast(&single.error, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
      single.ran = true;
    }
    GridPlace g = make_grid(rows, cols);
    MPI_Comm grid_comm = MPI_COMM_NULL;
    MPI_Comm_split(MPI_COMM_WORLD, g.context >= 0 ? 0 : MPI_UNDEFINED, rank, &grid_comm);
    Timing ours, peer;
    if (g.context >= 0) {
      ours = run<T>(s, g, grid_comm, n, false);
      if (s.peer == "scalapack" && n <= s.peer_max) peer = run<T>(s, g, grid_comm, n, true);
    }
    // Every rank's split, gathered on rank 0.
    nlohmann::json mine = stats_json(ours.stats);
    mine["rank"] = rank;
    mine["device"] = device;
    mine["tflops"] = ours.stats.total > 0 ? flops / double(rows * cols) / ours.stats.total * 1e-12 : 0.0;
    const std::string text = mine.dump();
    int len = int(text.size());
    std::vector<int> lens(static_cast<size_t>(size));
    MPI_Gather(&len, 1, MPI_INT, lens.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
    std::vector<int> displs(static_cast<size_t>(size), 0);
    for (int i = 1; i < size; ++i) displs[size_t(i)] = displs[size_t(i - 1)] + lens[size_t(i - 1)];
    std::string all(rank == 0 ? size_t(displs.back() + lens.back()) : 0, ' ');
    MPI_Gatherv(text.data(), len, MPI_CHAR, all.data(), lens.data(), displs.data(), MPI_CHAR, 0, MPI_COMM_WORLD);
    if (rank == 0) {
      row["clgemm"] = {{"seconds", ours.seconds}, {"tflops", flops / ours.seconds * 1e-12}, {"max_rel_error", ours.error},
                       {"ranks", nlohmann::json::array()}};
      for (int i = 0; i < rows * cols; ++i)
        row["clgemm"]["ranks"].push_back(nlohmann::json::parse(all.substr(size_t(displs[size_t(i)]), size_t(lens[size_t(i)]))));
      const bool ok = ours.error <= tol && (!single.ran || single.error <= tol);
      all_ok = all_ok && ok;
      std::printf("\nN = %zu, %s, %dx%d grid, blocks of %zu, %s form: clgemm %.3f s, %.1f TFLOP/s, max rel. error %.1e %s\n",
                  n, s.precision.c_str(), rows, cols, s.block, s.form.c_str(), ours.seconds, flops / ours.seconds * 1e-12, ours.error,
                  ok ? "(checked)" : "(WRONG)");
      if (single.ran) {
        const double speedup = single.seconds / ours.seconds;
        row["one_rank"] = {{"seconds", single.seconds}, {"tflops", flops / single.seconds * 1e-12}, {"max_rel_error", single.error},
                           {"stats", stats_json(single.stats)}};
        row["speedup"] = speedup;
        row["efficiency"] = speedup / double(rows * cols);
        std::printf("  one rank alone: %.3f s, %.1f TFLOP/s; speed-up %.2fx, parallel efficiency %.1f %%\n", single.seconds,
                    flops / single.seconds * 1e-12, speedup, 100 * speedup / double(rows * cols));
      }
      if (peer.ran) {
        row["scalapack"] = {{"seconds", peer.seconds}, {"tflops", flops / peer.seconds * 1e-12}, {"max_rel_error", peer.error}};
        row["vs_scalapack"] = peer.seconds / ours.seconds;
        std::printf("  ScaLAPACK p%cgemm on the CPUs: %.3f s, %.2f TFLOP/s; clgemm is %.1fx\n", sizeof(T) == 4 ? 's' : 'd',
                    peer.seconds, flops / peer.seconds * 1e-12, peer.seconds / ours.seconds);
      }
      std::printf("  %-4s %-24s %8s %8s %8s %9s %8s %9s %8s %8s %9s %5s\n", "rank", "device", "TFLOP/s", "total s",
                  "start s", "compute s", "span s", "wait comm", "wait dev", "pack s", "C xfer s", "steps");
      for (auto& r : row["clgemm"]["ranks"])
        std::printf("  %-4d %-24.24s %8.2f %8.3f %8.3f %9.3f %8.3f %9.3f %8.3f %8.3f %9.3f %5zu\n", r["rank"].get<int>(),
                    r["device"].get<std::string>().c_str(), r["tflops"].get<double>(), r["total_s"].get<double>(),
                    r["startup_s"].get<double>(), r["compute_s"].get<double>(), r["gemm_span_s"].get<double>(),
                    r["wait_comm_s"].get<double>(), r["wait_device_s"].get<double>(), r["pack_s"].get<double>(),
                    r["transfer_c_s"].get<double>(), r["steps"].get<size_t>());
      if (single.ran) {  // rank 0 alone, for the same split
        const dist::Stats& a = single.stats;
        std::printf("  %-4s %-24.24s %8.2f %8.3f %8.3f %9.3f %8.3f %9.3f %8.3f %8.3f %9.3f %5zu\n", "1x1", device.c_str(),
                    a.total > 0 ? flops / a.total * 1e-12 : 0.0, a.total, a.startup, a.compute, a.gemm_span, a.wait_comm,
                    a.wait_device, a.pack, a.transfer_c, a.steps);
      }
      std::fflush(stdout);
      doc["results"].push_back(row);
    }
    if (g.context >= 0) Cblacs_gridexit(g.context);
    if (grid_comm != MPI_COMM_NULL) MPI_Comm_free(&grid_comm);
  }
  if (rank == 0 && !s.json.empty()) std::ofstream(s.json) << doc.dump(2) << "\n";
  int ok = all_ok ? 1 : 0;
  MPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
  return ok ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  Settings s;
  CLI::App app{"clgemm dist-bench — distributed GEMM over MPI (run it under mpirun)"};
  app.add_option("--precision", s.precision, "f32 or f64")->check(CLI::IsMember({"f32", "f64"}));
  app.add_option("--sizes", s.sizes, "N of the N x N x N products")->delimiter(',');
  app.add_option("--grid", s.grid, "process grid PxQ (default: the most square one of all ranks)");
  app.add_option("--block", s.block, "block size of the block-cyclic layout")->check(CLI::Range(size_t(1), size_t(1) << 20));
  app.add_option("--panel", s.panel, "k per SUMMA step (0: chosen from N)");
  app.add_option("--form", s.form, "where the local blocks live: host (clgemm_p?gemm) or device (cl_mem)")
      ->check(CLI::IsMember({"host", "device"}));
  app.add_option("--repeat", s.repeat, "timed runs")->check(CLI::Range(1, 1000));
  app.add_option("--warmup", s.warmup, "untimed runs first")->check(CLI::Range(0, 100));
  app.add_flag("!--no-single", s.single, "do not time rank 0 alone");
  app.add_option("--peer", s.peer, "scalapack or none")->check(CLI::IsMember({"scalapack", "none"}));
  app.add_option("--peer-max-size", s.peer_max, "run ScaLAPACK only up to this N");
  app.add_option("--device", s.device, "this rank's device (default: $CLGEMM_DEVICE, else the GPU of its local rank)");
  app.add_option("--json", s.json, "write the results to this file (rank 0)");
  int code = 0;
  try {
    app.parse(argc, argv);
    int me = 0, procs = 0;
    Cblacs_pinfo(&me, &procs);
    if (!s.device.empty()) dist::set_rank_device(s.device);
    if (rank == 0)
      std::printf("clgemm dist-bench: %d ranks; rank 0 on %s\n", size, dist::rank_context().info().name.c_str());
    code = s.precision == "f64" ? run_bench<double>(s, rank, size) : run_bench<float>(s, rank, size);
  } catch (const CLI::ParseError& e) {
    code = rank == 0 ? app.exit(e) : 1;
  } catch (const std::exception& e) {
    std::cerr << "clgemm-dist-bench (rank " << rank << "): " << e.what() << "\n";
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  MPI_Finalize();
  return code;
}
