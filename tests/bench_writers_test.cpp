// bench_writers_test.cpp — the derived comparisons (ratios, % of peak, best peer) and the JSON
// and CSV writers, on a report built by hand.
#include "bench/report.hpp"
#include "bench/writers.hpp"

#include <gtest/gtest.h>

#include <sstream>

namespace clgemm::bench {
namespace {

ImplEntry entry(const std::string& name, bool peer, Precision p = Precision::FP32, std::string unavailable = "") {
  ImplEntry e;
  e.info.name = name;
  e.info.description = name + ", described";
  e.info.peer = peer;
  e.info.precision = p;
  e.info.timing = name == "cublas" || name == "cublas-tf32" ? Timing::CudaEvents : Timing::HostClock;
  e.unavailable = std::move(unavailable);
  e.peak_applies = p == Precision::FP32;
  return e;
}

Result timed(const Shape& s, const std::string& impl, double seconds, Outcome outcome = Outcome::Ok) {
  Result r;
  r.shape = s;
  r.impl = impl;
  r.outcome = outcome;
  r.checked = true;
  r.check.error = outcome == Outcome::Ok ? 1e-7 : 0.5;
  r.check.tolerance = 1e-5;
  r.check.ok = outcome == Outcome::Ok;
  r.times.assign(10, seconds);
  r.stats = summarize(r.times);
  const double flops = 2.0 * double(s.m) * double(s.n) * double(s.k);
  r.gflops = r.gflops_best = gflops(flops, seconds);
  return r;
}

// Two shapes. At the first: clgemm 1 s, clblast 2 s, cuBLAS TF32 0.1 s (faster, but not a peer),
// OpenBLAS 0.5 s but WRONG (not a peer either, then). At the second clgemm is missing.
Report sample() {
  Report rep;
  rep.environment = {{"date", "2026-01-01T00:00:00Z"}, {"device", {{"name", "Test GPU"}}}};
  rep.peak = Peak{4000.0, "test"};
  rep.impls = {entry("clgemm", false), entry("clblast", true), entry("cublas-tf32", false, Precision::TF32),
               entry("openblas", true), entry("cublas", true, Precision::FP32, "no CUDA device")};
  const Shape a{1000, 1000, 1000, "square", 1000}, b{16, 2048, 2048, "skinny m=16", 2048};
  rep.results = {timed(a, "clgemm", 1.0), timed(a, "clblast", 2.0), timed(a, "cublas-tf32", 0.1),
                 timed(a, "openblas", 0.5, Outcome::Wrong)};
  rep.results.back().note = "relative error 0.5 exceeds 1e-05, \"badly\"";
  Result na;
  na.shape = a;
  na.impl = "cublas";
  na.note = "not available: no CUDA device";
  rep.results.push_back(na);
  Result failed;
  failed.shape = b;
  failed.impl = "clgemm";
  failed.outcome = Outcome::Failed;
  failed.note = "out of resources";
  rep.results.push_back(failed);
  rep.results.push_back(timed(b, "clblast", 0.01));
  finish_report(rep);
  return rep;
}

TEST(BenchReport, BestPeerIsTheFastestCorrectFp32Peer) {
  const Report rep = sample();
  ASSERT_EQ(rep.comparisons.size(), 2u);
  const Comparison& c = rep.comparisons[0];
  EXPECT_EQ(c.best_peer, "clblast");  // TF32 and the wrong OpenBLAS are both faster, and both left out
  EXPECT_DOUBLE_EQ(c.clgemm_gflops, 2.0);
  EXPECT_DOUBLE_EQ(c.best_peer_gflops, 1.0);
  EXPECT_DOUBLE_EQ(c.ratio, 2.0);
  // No clgemm at the second shape: no ratio, but the peer is still named.
  EXPECT_EQ(rep.comparisons[1].best_peer, "clblast");
  EXPECT_EQ(rep.comparisons[1].ratio, 0);
}

TEST(BenchReport, RatioToClgemmAndPercentOfPeak) {
  const Report rep = sample();
  EXPECT_DOUBLE_EQ(rep.results[0].vs_clgemm, 1.0);
  EXPECT_DOUBLE_EQ(rep.results[1].vs_clgemm, 0.5);
  EXPECT_DOUBLE_EQ(rep.results[2].vs_clgemm, 10.0);  // TF32 still gets its ratio, labelled by its name
  EXPECT_EQ(rep.results[3].vs_clgemm, 0);            // wrong: no ratio
  EXPECT_DOUBLE_EQ(rep.results[0].percent_peak, 2.0 / 4000 * 100);
  EXPECT_LT(rep.results[2].percent_peak, 0);  // TF32 is not measured against the FP32 peak
}

TEST(BenchWriters, JsonHoldsEverythingAndNullForUnknowns) {
  const Report rep = sample();
  const nlohmann::json doc = nlohmann::json::parse(to_json(rep).dump());
  EXPECT_EQ(doc["tool"], "clgemm bench");
  EXPECT_EQ(doc["environment"]["device"]["name"], "Test GPU");
  EXPECT_EQ(doc["settings"]["layout"], "row-major");
  EXPECT_EQ(doc["peak"]["gflops"], 4000.0);
  ASSERT_EQ(doc["implementations"].size(), 5u);
  EXPECT_EQ(doc["implementations"][2]["arithmetic"], "tf32");
  EXPECT_EQ(doc["settings"]["precision"], "f32");
  EXPECT_EQ(doc["settings"]["c_type"], "f32");
  EXPECT_EQ(doc["implementations"][4]["available"], false);
  EXPECT_EQ(doc["implementations"][4]["unavailable_reason"], "no CUDA device");
  ASSERT_EQ(doc["results"].size(), rep.results.size());
  const auto& r0 = doc["results"][0];
  EXPECT_EQ(r0["impl"], "clgemm");
  EXPECT_EQ(r0["precision"], "f32");
  EXPECT_EQ(r0["status"], "ok");
  EXPECT_EQ(r0["m"], 1000);
  EXPECT_EQ(r0["times_s"].size(), 10u);
  EXPECT_DOUBLE_EQ(r0["median_s"].get<double>(), 1.0);
  EXPECT_DOUBLE_EQ(r0["gflops"].get<double>(), 2.0);
  EXPECT_EQ(doc["results"][3]["status"], "WRONG");
  EXPECT_TRUE(doc["results"][4]["gflops"].is_null());
  EXPECT_TRUE(doc["results"][4]["relative_error"].is_null());
  EXPECT_EQ(doc["results"][5]["status"], "FAILED");
  EXPECT_EQ(doc["comparisons"][0]["best_peer"], "clblast");
  EXPECT_DOUBLE_EQ(doc["comparisons"][0]["ratio"].get<double>(), 2.0);
  EXPECT_TRUE(doc["comparisons"][1]["ratio"].is_null());
}

// 256³ measured twice (square, then the odd-pairs preset right before 258³): the later, adjacent
// one counts. 129³ has no neighbour in the run; clblast's 387³ is wrong and its 384³ untimed.
TEST(BenchReport, OddSizesAgainstTheNearestNeighbourOfTheSameImplementation) {
  Report rep;
  rep.impls = {entry("clgemm", false), entry("clblast", true)};
  const auto cube = [](size_t n, const char* group) { return Shape{n, n, n, group, n}; };
  const double f256 = 2.0 * 256 * 256 * 256, f258 = 2.0 * 258 * 258 * 258, f384 = 2.0 * 384 * 384 * 384,
               f387 = 2.0 * 387 * 387 * 387;
  rep.results = {timed(cube(256, "square"), "clgemm", f256 / 1e9 / 1000),  // 1000 GFLOP/s
                 timed(cube(129, "odd"), "clgemm", 1e-5),
                 timed(cube(256, "odd pairs"), "clgemm", f256 / 1e9 / 2000),  // 2000 GFLOP/s
                 timed(cube(256, "odd pairs"), "clblast", f256 / 1e9 / 500),
                 timed(cube(258, "odd pairs"), "clgemm", f258 / 1e9 / 1800),
                 timed(cube(258, "odd pairs"), "clblast", f258 / 1e9 / 600),
                 timed(cube(384, "odd pairs"), "clgemm", f384 / 1e9 / 4000),
                 timed(cube(387, "odd pairs"), "clgemm", f387 / 1e9 / 5000),
                 timed(cube(387, "odd pairs"), "clblast", 1.0, Outcome::Wrong)};
  Result untimed;
  untimed.shape = cube(384, "odd pairs");
  untimed.impl = "clblast";
  untimed.outcome = Outcome::Ok;
  rep.results.insert(rep.results.begin() + 6, untimed);
  finish_report(rep);
  ASSERT_EQ(rep.odd_neighbours.size(), 3u);
  const OddNeighbour& a = rep.odd_neighbours[0];
  EXPECT_EQ(a.impl, "clgemm");
  EXPECT_EQ(a.odd.m, 258u);
  EXPECT_EQ(a.neighbour.m, 256u);
  EXPECT_EQ(a.neighbour.group, "odd pairs") << "the adjacent measurement, not the square preset's";
  EXPECT_NEAR(a.neighbour_gflops, 2000, 1e-6);
  EXPECT_NEAR(a.change, -0.1, 1e-9);
  EXPECT_EQ(rep.odd_neighbours[1].impl, "clblast");
  EXPECT_NEAR(rep.odd_neighbours[1].change, 0.2, 1e-9);
  EXPECT_EQ(rep.odd_neighbours[2].odd.m, 387u);
  EXPECT_NEAR(rep.odd_neighbours[2].change, 0.25, 1e-9);
  const nlohmann::json doc = nlohmann::json::parse(to_json(rep).dump());
  ASSERT_EQ(doc["odd_neighbours"].size(), 3u);
  EXPECT_EQ(doc["odd_neighbours"][0]["odd"], 258);
  EXPECT_EQ(doc["odd_neighbours"][0]["neighbour"], 256);
  EXPECT_NEAR(doc["odd_neighbours"][0]["change"].get<double>(), -0.1, 1e-9);
}

std::vector<std::string> split_csv_line(const std::string& line) {
  std::vector<std::string> out(1);
  bool quoted = false;
  for (size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted && c == '"' && i + 1 < line.size() && line[i + 1] == '"') out.back() += '"', ++i;
    else if (c == '"') quoted = !quoted;
    else if (c == ',' && !quoted) out.emplace_back();
    else out.back() += c;
  }
  return out;
}

TEST(BenchWriters, CsvHasOneRowPerResultWithQuotedNotes) {
  const Report rep = sample();
  std::ostringstream os;
  write_csv(rep, os);
  std::istringstream in(os.str());
  std::string line;
  std::vector<std::vector<std::string>> rows;
  while (std::getline(in, line)) rows.push_back(split_csv_line(line));
  ASSERT_EQ(rows.size(), rep.results.size() + 1);
  const auto& header = rows[0];
  ASSERT_EQ(header.front(), "group");
  for (const auto& r : rows) EXPECT_EQ(r.size(), header.size());
  auto col = [&header](const std::string& name) {
    return size_t(std::find(header.begin(), header.end(), name) - header.begin());
  };
  EXPECT_EQ(rows[1][col("impl")], "clgemm");
  EXPECT_EQ(rows[1][col("precision")], "f32");
  EXPECT_EQ(rows[3][col("arithmetic")], "tf32");
  EXPECT_EQ(std::stod(rows[1][col("gflops")]), 2.0);
  EXPECT_EQ(rows[4][col("status")], "WRONG");
  EXPECT_EQ(rows[4][col("note")], "relative error 0.5 exceeds 1e-05, \"badly\"");
  EXPECT_EQ(rows[5][col("gflops")], "");  // not available: empty, not zero
  EXPECT_EQ(rows[7][col("group")], "skinny m=16");
}

// At f64 the best peer is the fastest FP64 one; at f16 peers that sum in f16 (CLBlastHgemm,
// cublasHgemm) are left out like TF32, and the run's precision is in every row of JSON and CSV.
TEST(BenchReport, BestPeerComputesInTheRunsArithmetic) {
  const Shape a{1000, 1000, 1000, "square", 1000};
  Report f64;
  f64.settings.types = parse_precision("f64");
  f64.impls = {entry("clgemm", false, Precision::FP64), entry("clblast", true, Precision::FP64),
               entry("openblas", true, Precision::FP64)};
  f64.results = {timed(a, "clgemm", 1.0), timed(a, "clblast", 2.0), timed(a, "openblas", 4.0)};
  finish_report(f64);
  ASSERT_EQ(f64.comparisons.size(), 1u);
  EXPECT_EQ(f64.comparisons[0].best_peer, "clblast");
  EXPECT_DOUBLE_EQ(f64.comparisons[0].ratio, 2.0);

  Report f16;
  f16.settings.types = parse_precision("f16");
  f16.impls = {entry("clgemm", false), entry("clblast", true, Precision::FP16), entry("cublas", true, Precision::FP16)};
  f16.results = {timed(a, "clgemm", 1.0), timed(a, "clblast", 0.5), timed(a, "cublas", 0.1)};
  finish_report(f16);
  EXPECT_EQ(f16.comparisons[0].best_peer, "");
  EXPECT_EQ(f16.comparisons[0].ratio, 0);
  EXPECT_DOUBLE_EQ(f16.results[2].vs_clgemm, 10.0);  // still shown beside clgemm, by name

  const nlohmann::json doc = nlohmann::json::parse(to_json(f16).dump());
  EXPECT_EQ(doc["settings"]["precision"], "f16");
  EXPECT_EQ(doc["settings"]["a_type"], "f16");
  EXPECT_EQ(doc["settings"]["compute"], "fp32");
  EXPECT_EQ(doc["implementations"][1]["arithmetic"], "fp16");
  for (const auto& r : doc["results"]) EXPECT_EQ(r["precision"], "f16");
  std::ostringstream os;
  write_csv(f16, os);
  std::istringstream in(os.str());
  std::string line;
  std::getline(in, line);
  const auto header = split_csv_line(line);
  const size_t col = size_t(std::find(header.begin(), header.end(), "precision") - header.begin());
  ASSERT_LT(col, header.size());
  while (std::getline(in, line)) EXPECT_EQ(split_csv_line(line)[col], "f16");
}

TEST(BenchWriters, CsvFieldQuotesOnlyWhenNeeded) {
  EXPECT_EQ(csv_field("plain"), "plain");
  EXPECT_EQ(csv_field("a,b"), "\"a,b\"");
  EXPECT_EQ(csv_field("say \"hi\""), "\"say \"\"hi\"\"\"");
  EXPECT_EQ(csv_field("two\nlines"), "\"two\nlines\"");
}

}  // namespace
}  // namespace clgemm::bench
