// Small inline-SVG chart writers for report.html: line charts and a heatmap. The
// report must be one self-contained file (no scripts, no network), so plots are
// drawn as SVG text here rather than by a charting library in the browser.
#pragma once
#include <string>
#include <utility>
#include <vector>

namespace crucible {

std::string html_escape(const std::string& s);

struct Series {
  std::string name, colour;
  std::vector<std::pair<double, double>> points;
};

struct Axis {
  std::string label;
  double lo = 0, hi = 1;
  std::vector<std::pair<double, std::string>> ticks;  // position, label
};

// A line chart with markers and a legend; `id` becomes the <svg> element's id.
std::string svg_line_chart(const std::string& id, const std::string& title, const Axis& x, const Axis& y,
                           const std::vector<Series>& series, bool steps = false);

struct HeatCell {
  std::string text, fill, href, tooltip;  // empty href: no link
};

// Rows x columns of labelled, linked cells.
std::string svg_heatmap(const std::string& id, const std::string& title, const std::vector<std::string>& rows,
                        const std::vector<std::string>& cols, const std::vector<std::vector<HeatCell>>& cells);

// The n-th colour of a fixed palette, for groups.
std::string palette(size_t i);

}  // namespace crucible
