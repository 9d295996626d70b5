// bench/plot.hpp — GFLOP/s against size as a PNG: one panel per shape group, one line per
// implementation. Drawn by gnuplot when it is on PATH, else by python3 with matplotlib.
#pragma once

#include "bench/report.hpp"

#include <string>

namespace clgemm::bench {

enum class PlotTool { Auto, Gnuplot, Matplotlib };

// "gnuplot" or "matplotlib": what Auto would use here; empty when neither is installed.
std::string find_plot_tool();

// The tool that draws for `tool` here, "gnuplot" or "matplotlib"; throws Error(Unsupported),
// saying what to install, when it is missing. Lets a command check before it measures anything.
std::string require_plot_tool(PlotTool tool);

// Draws the correct, timed results of `report` into `png_path` (wrong and untimed results are
// left out). Throws Error(Unsupported) when the tool is missing, Error(InvalidArgument) when there
// is nothing to draw, and Error(InternalError) with the tool's output when it fails.
void plot_report(const Report& report, const std::string& png_path, PlotTool tool = PlotTool::Auto);

}  // namespace clgemm::bench
