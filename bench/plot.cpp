// bench/plot.cpp — writes the data and a gnuplot or matplotlib script to a temporary folder and
// runs the tool there; the PNG is the only thing left behind.
#include "bench/plot.hpp"

#include <clgemm/error.hpp>

#include <nlohmann/json.hpp>

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <sstream>

extern char** environ;

namespace clgemm::bench {

namespace fs = std::filesystem;

namespace {

// Colours that stay apart on white, clgemm first; rungs and the rest follow in --impl order.
const char* const kColors[] = {"#d62728", "#1f77b4", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2",
                               "#7f7f7f", "#bcbd22", "#17becf", "#393b79", "#637939", "#8c6d31", "#843c39",
                               "#7b4173", "#3182bd"};

// clgemm is drawn thick, the libraries it is compared with solid, the ladder rungs and the triple
// loop (clgemm's own teaching steps and the baseline) thin and dashed, so the lines that matter
// stand out among a dozen.
enum class Weight { Main, Peer, Background };

struct Series {
  std::string impl, color;
  Weight weight = Weight::Peer;
  std::vector<std::pair<double, double>> points;
};

Weight weight_of(const std::string& impl) {
  if (impl == "clgemm") return Weight::Main;
  if (impl.rfind("ladder:", 0) == 0 || impl == "cpu-loop") return Weight::Background;
  return Weight::Peer;
}

struct Panel {
  std::string group, xlabel;
  std::vector<Series> series;
};

std::string axis_label(const std::string& group) {
  if (group == "square" || group == "odd") return "N (M = N = K)";
  if (group == "skinny m=16") return "L (M = 16, N = K = L)";
  if (group == "skinny n=16") return "L (N = 16, M = K = L)";
  if (group.rfind("rect", 0) == 0) return "L (M*N*K = L^3)";
  return "cube root of M*N*K";
}

std::vector<Panel> panels_of(const Report& rep) {
  std::vector<Panel> panels;
  std::map<std::string, size_t> color_of;
  for (size_t i = 0; i < rep.impls.size(); ++i) color_of[rep.impls[i].info.name] = i;
  for (const auto& r : rep.results) {
    if (r.outcome != Outcome::Ok || !r.timed()) continue;
    auto p = std::find_if(panels.begin(), panels.end(), [&](const Panel& x) { return x.group == r.shape.group; });
    if (p == panels.end()) {
      panels.push_back({r.shape.group, axis_label(r.shape.group), {}});
      p = panels.end() - 1;
    }
    auto s = std::find_if(p->series.begin(), p->series.end(), [&](const Series& x) { return x.impl == r.impl; });
    if (s == p->series.end()) {
      const size_t c = color_of.count(r.impl) ? color_of[r.impl] : 0;
      p->series.push_back({r.impl, kColors[c % std::size(kColors)], weight_of(r.impl), {}});
      s = p->series.end() - 1;
    }
    s->points.emplace_back(double(r.shape.x), r.gflops);
  }
  for (auto& p : panels)
    for (auto& s : p.series) std::sort(s.points.begin(), s.points.end());
  return panels;
}

std::string title_of(const Report& rep) {
  std::string device = rep.environment.value("/device/name"_json_pointer, std::string("?"));
  std::string date = rep.environment.value("date", std::string());
  return rep.settings.types.describe() + " GEMM on " + device + (date.empty() ? "" : ", " + date) + "\n" + rep.settings.describe() +
         "; GFLOP/s from the median of " + std::to_string(rep.options.repeat) + " runs";
}

bool on_path(const std::string& program) {
  const char* path = std::getenv("PATH");
  if (!path) return false;
  std::istringstream dirs(path);
  std::string dir;
  while (std::getline(dirs, dir, ':'))
    if (!dir.empty() && access((dir + "/" + program).c_str(), X_OK) == 0) return true;
  return false;
}

// Runs argv with stdout and stderr into `log`; returns the exit status (or -1 if it could not start).
int run_program(const std::vector<std::string>& args, const std::string& log) {
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_adddup2(&actions, 1, 2);
  std::vector<char*> argv;
  for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  pid_t pid = 0;
  const int rc = posix_spawnp(&pid, argv[0], &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) return -1;
  int status = 0;
  if (waitpid(pid, &status, 0) < 0) return -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

bool matplotlib_available() {
  if (!on_path("python3")) return false;
  return run_program({"python3", "-c", "import matplotlib"}, "/dev/null") == 0;
}

// A gnuplot double-quoted string, where \n is a line break: backslashes and quotes are escaped.
std::string gdq(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '\n') out += "\\n";
    else if (c == '"' || c == '\\') out += std::string("\\") + c;
    else out += c;
  }
  return out + "\"";
}

// A gnuplot single-quoted string: quotes are doubled, nothing else is special.
std::string gq(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("''") : std::string(1, c);
  return out + "'";
}

std::string gnuplot_script(const std::vector<Panel>& panels, const std::string& title, const std::string& png) {
  const size_t cols = panels.size() > 1 ? 2 : 1, rows = (panels.size() + cols - 1) / cols;
  std::ostringstream g;
  const std::string size = std::to_string(900 * cols) + "," + std::to_string(520 * rows + 40);
  g << "if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {\n"
    << "  set terminal pngcairo size " << size << " noenhanced font ',10'\n"
    << "} else {\n"
    << "  set terminal png size " << size << " noenhanced\n"
    << "}\n"
    << "set output " << gq(png) << "\n"
    << "set multiplot layout " << rows << "," << cols << " title " << gdq(title) << "\n"
    << "set grid\nset logscale x 2\nset logscale y 10\nset ylabel 'GFLOP/s'\n"
    << "set key outside right top\nset format x '%g'\n";
  for (size_t p = 0; p < panels.size(); ++p)
    for (size_t s = 0; s < panels[p].series.size(); ++s) {
      g << "$d" << p << "_" << s << " << EOD\n";
      for (const auto& [x, y] : panels[p].series[s].points) g << x << " " << y << "\n";
      g << "EOD\n";
    }
  for (size_t p = 0; p < panels.size(); ++p) {
    g << "set title " << gq(panels[p].group) << "\nset xlabel " << gq(panels[p].xlabel) << "\nplot ";
    for (size_t s = 0; s < panels[p].series.size(); ++s) {
      const Series& se = panels[p].series[s];
      const char* style = se.weight == Weight::Main ? "lw 3.5 dt 1" : se.weight == Weight::Peer ? "lw 2 dt 1" : "lw 1 dt 2";
      g << (s ? ", \\\n     " : "") << "$d" << p << "_" << s << " using 1:2 with linespoints " << style
        << " pt 7 ps 0.6 lc rgb " << gq(se.color) << " title " << gq(se.impl);
    }
    g << "\n";
  }
  g << "unset multiplot\n";
  return g.str();
}

const char* const kMatplotlibScript = R"PY(
# Draws clgemm bench results: one panel per shape group, one line per implementation.
import json, sys
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
from matplotlib.ticker import ScalarFormatter

with open(sys.argv[1]) as f:
    d = json.load(f)
panels = d["panels"]
cols = 2 if len(panels) > 1 else 1
rows = (len(panels) + cols - 1) // cols
fig, axes = plt.subplots(rows, cols, figsize=(9 * cols, 5.2 * rows + 0.4), squeeze=False)
for ax, p in zip(axes.flat, panels):
    for s in p["series"]:
        width, dash = {"main": (3.5, "-"), "peer": (2, "-"), "background": (1, "--")}[s["weight"]]
        ax.plot(s["x"], s["y"], marker="o", markersize=3, color=s["color"], linewidth=width, linestyle=dash,
                label=s["impl"])
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.xaxis.set_major_formatter(ScalarFormatter())
    ax.set_title(p["group"])
    ax.set_xlabel(p["xlabel"])
    ax.set_ylabel("GFLOP/s")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8, loc="center left", bbox_to_anchor=(1.0, 0.5))
for ax in list(axes.flat)[len(panels):]:
    ax.axis("off")
fig.suptitle(d["title"], fontsize=10)
fig.tight_layout()
fig.savefig(sys.argv[2], dpi=100)
)PY";

nlohmann::json matplotlib_data(const std::vector<Panel>& panels, const std::string& title) {
  nlohmann::json d = {{"title", title}, {"panels", nlohmann::json::array()}};
  for (const auto& p : panels) {
    nlohmann::json jp = {{"group", p.group}, {"xlabel", p.xlabel}, {"series", nlohmann::json::array()}};
    for (const auto& s : p.series) {
      const char* weight = s.weight == Weight::Main ? "main" : s.weight == Weight::Peer ? "peer" : "background";
      nlohmann::json js = {{"impl", s.impl}, {"color", s.color}, {"weight", weight}};
      for (const auto& [x, y] : s.points) {
        js["x"].push_back(x);
        js["y"].push_back(y);
      }
      jp["series"].push_back(js);
    }
    d["panels"].push_back(jp);
  }
  return d;
}

std::string read_tail(const std::string& path) {
  std::ifstream in(path);
  std::string all((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  return all.size() > 2000 ? all.substr(all.size() - 2000) : all;
}

void write_file(const fs::path& path, const std::string& text) {
  std::ofstream out(path);
  out << text;
  if (!out) throw Error(Status::InternalError, "cannot write " + path.string());
}

// A temporary folder that removes itself.
struct TempDir {
  fs::path path;
  TempDir() {
    std::string tmpl = (fs::temp_directory_path() / "clgemm-plot-XXXXXX").string();
    if (!mkdtemp(tmpl.data())) throw Error(Status::InternalError, "cannot create a temporary folder for the plot");
    path = tmpl;
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

}  // namespace

std::string find_plot_tool() {
  if (on_path("gnuplot")) return "gnuplot";
  if (matplotlib_available()) return "matplotlib";
  return "";
}

std::string require_plot_tool(PlotTool tool) {
  std::string name;
  if (tool == PlotTool::Gnuplot) name = on_path("gnuplot") ? "gnuplot" : "";
  else if (tool == PlotTool::Matplotlib) name = matplotlib_available() ? "matplotlib" : "";
  else name = find_plot_tool();
  if (name.empty())
    throw Error(Status::Unsupported,
                std::string("--plot needs ") +
                    (tool == PlotTool::Gnuplot      ? "gnuplot on PATH"
                     : tool == PlotTool::Matplotlib ? "python3 with matplotlib"
                                                    : "gnuplot on PATH or python3 with matplotlib") +
                    " (Debian: apt-get install gnuplot-nox, or python3-matplotlib)");
  return name;
}

void plot_report(const Report& rep, const std::string& png_path, PlotTool tool) {
  const std::string name = require_plot_tool(tool);
  const auto panels = panels_of(rep);
  if (panels.empty()) throw Error(Status::InvalidArgument, "--plot: no correct, timed result to draw");
  const fs::path png = fs::absolute(png_path);
  const std::string title = title_of(rep);
  TempDir dir;
  const std::string log = (dir.path / "log.txt").string();
  std::error_code ec;
  fs::remove(png, ec);  // so that a stale picture is never mistaken for this run's
  int rc = 0;
  if (name == "gnuplot") {
    write_file(dir.path / "plot.gp", gnuplot_script(panels, title, png.string()));
    rc = run_program({"gnuplot", (dir.path / "plot.gp").string()}, log);
  } else {
    write_file(dir.path / "plot.py", kMatplotlibScript);
    write_file(dir.path / "data.json", matplotlib_data(panels, title).dump());
    rc = run_program({"python3", (dir.path / "plot.py").string(), (dir.path / "data.json").string(), png.string()},
                     log);
  }
  if (rc != 0 || !fs::exists(png))
    throw Error(Status::InternalError, "--plot: " + name + " failed (exit status " + std::to_string(rc) +
                                           "):\n" + read_tail(log));
}

}  // namespace clgemm::bench
