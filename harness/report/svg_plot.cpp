#include "harness/report/svg_plot.h"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace crucible {

std::string html_escape(const std::string& s) {
  std::string o;
  o.reserve(s.size());
  for (char c : s) {
    switch (c) {
      case '&': o += "&amp;"; break;
      case '<': o += "&lt;"; break;
      case '>': o += "&gt;"; break;
      case '"': o += "&quot;"; break;
      case '\'': o += "&#39;"; break;
      default: o += c;
    }
  }
  return o;
}

std::string palette(size_t i) {
  static const char* p[] = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e",
                            "#17becf", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22"};
  return p[i % 10];
}

namespace {

std::string f2(double v) {
  std::ostringstream o;
  o.setf(std::ios::fixed);
  o.precision(1);
  o << v;
  return o.str();
}

}  // namespace

std::string svg_line_chart(const std::string& id, const std::string& title, const Axis& x, const Axis& y,
                           const std::vector<Series>& series, bool steps) {
  const double W = 650, H = 360, L = 60, R = 205, T = 36, B = 50;
  const double pw = W - L - R, ph = H - T - B;
  auto sx = [&](double v) { return L + (x.hi > x.lo ? (v - x.lo) / (x.hi - x.lo) : 0.5) * pw; };
  auto sy = [&](double v) { return T + ph - (y.hi > y.lo ? (v - y.lo) / (y.hi - y.lo) : 0.5) * ph; };
  std::ostringstream o;
  o << "<svg id=\"" << html_escape(id) << "\" class=\"plot\" xmlns=\"http://www.w3.org/2000/svg\" width=\"" << W
    << "\" height=\"" << H << "\" viewBox=\"0 0 " << W << " " << H << "\" role=\"img\">\n";
  o << "<title>" << html_escape(title) << "</title>\n";
  o << "<text x=\"" << L << "\" y=\"20\" font-size=\"14\" font-weight=\"bold\">" << html_escape(title) << "</text>\n";
  o << "<rect x=\"" << L << "\" y=\"" << T << "\" width=\"" << pw << "\" height=\"" << ph
    << "\" fill=\"#fafafa\" stroke=\"#999\"/>\n";
  for (auto& [v, lab] : x.ticks) {
    double px = sx(v);
    o << "<line x1=\"" << f2(px) << "\" y1=\"" << T << "\" x2=\"" << f2(px) << "\" y2=\"" << T + ph
      << "\" stroke=\"#e4e4e4\"/><text x=\"" << f2(px) << "\" y=\"" << T + ph + 16
      << "\" font-size=\"11\" text-anchor=\"middle\">" << html_escape(lab) << "</text>\n";
  }
  for (auto& [v, lab] : y.ticks) {
    double py = sy(v);
    o << "<line x1=\"" << L << "\" y1=\"" << f2(py) << "\" x2=\"" << L + pw << "\" y2=\"" << f2(py)
      << "\" stroke=\"#e4e4e4\"/><text x=\"" << L - 6 << "\" y=\"" << f2(py + 4)
      << "\" font-size=\"11\" text-anchor=\"end\">" << html_escape(lab) << "</text>\n";
  }
  o << "<text x=\"" << L + pw / 2 << "\" y=\"" << H - 10 << "\" font-size=\"12\" text-anchor=\"middle\">"
    << html_escape(x.label) << "</text>\n";
  o << "<text transform=\"translate(14," << T + ph / 2 << ") rotate(-90)\" font-size=\"12\" text-anchor=\"middle\">"
    << html_escape(y.label) << "</text>\n";
  for (size_t i = 0; i < series.size(); ++i) {
    auto& s = series[i];
    if (s.points.empty()) continue;
    std::ostringstream path;
    for (size_t k = 0; k < s.points.size(); ++k) {
      double px = sx(std::clamp(s.points[k].first, x.lo, x.hi)), py = sy(std::clamp(s.points[k].second, y.lo, y.hi));
      if (k == 0) path << "M" << f2(px) << "," << f2(py);
      else if (steps) path << " H" << f2(px) << " V" << f2(py);
      else path << " L" << f2(px) << "," << f2(py);
    }
    o << "<path d=\"" << path.str() << "\" fill=\"none\" stroke=\"" << s.colour << "\" stroke-width=\"2\"><title>"
      << html_escape(s.name) << "</title></path>\n";
    if (s.points.size() <= 24)
      for (auto& [px, py] : s.points)
        o << "<circle cx=\"" << f2(sx(std::clamp(px, x.lo, x.hi))) << "\" cy=\"" << f2(sy(std::clamp(py, y.lo, y.hi)))
          << "\" r=\"3\" fill=\"" << s.colour << "\"/>\n";
    double ly = T + 12 + 18 * i;
    o << "<rect x=\"" << L + pw + 12 << "\" y=\"" << ly - 9 << "\" width=\"12\" height=\"12\" fill=\"" << s.colour
      << "\"/><text x=\"" << L + pw + 30 << "\" y=\"" << ly + 1 << "\" font-size=\"11\">" << html_escape(s.name.substr(0, 38))
      << "</text>\n";
  }
  o << "</svg>\n";
  return o.str();
}

std::string svg_heatmap(const std::string& id, const std::string& title, const std::vector<std::string>& rows,
                        const std::vector<std::string>& cols, const std::vector<std::vector<HeatCell>>& cells) {
  const double L = 200, T = 120, CW = 120, CH = 24;
  double W = L + CW * cols.size() + 220, H = T + CH * rows.size() + 20;
  std::ostringstream o;
  o << "<svg id=\"" << html_escape(id) << "\" class=\"plot\" xmlns=\"http://www.w3.org/2000/svg\" width=\"" << W
    << "\" height=\"" << H << "\" viewBox=\"0 0 " << W << " " << H << "\" role=\"img\">\n";
  o << "<title>" << html_escape(title) << "</title>\n";
  o << "<text x=\"10\" y=\"20\" font-size=\"14\" font-weight=\"bold\">" << html_escape(title) << "</text>\n";
  for (size_t c = 0; c < cols.size(); ++c) {
    double cx = L + CW * c + CW / 2;
    o << "<text transform=\"translate(" << f2(cx) << "," << T - 6 << ") rotate(-30)\" font-size=\"11\">"
      << html_escape(cols[c].substr(0, 44)) << "</text>\n";
  }
  for (size_t r = 0; r < rows.size(); ++r) {
    double ry = T + CH * r;
    o << "<text x=\"" << L - 6 << "\" y=\"" << f2(ry + CH * 0.65) << "\" font-size=\"11\" text-anchor=\"end\">"
      << html_escape(rows[r].substr(0, 32)) << "</text>\n";
    for (size_t c = 0; c < cols.size() && c < cells[r].size(); ++c) {
      const HeatCell& h = cells[r][c];
      double cx = L + CW * c;
      bool link = !h.href.empty();
      if (link) o << "<a href=\"" << html_escape(h.href) << "\">";
      o << "<g><title>" << html_escape(h.tooltip) << "</title><rect x=\"" << f2(cx + 1) << "\" y=\"" << f2(ry + 1)
        << "\" width=\"" << CW - 2 << "\" height=\"" << CH - 2 << "\" fill=\"" << (h.fill.empty() ? "#f4f4f4" : h.fill)
        << "\"/><text x=\"" << f2(cx + CW / 2) << "\" y=\"" << f2(ry + CH * 0.65)
        << "\" font-size=\"11\" text-anchor=\"middle\">" << html_escape(h.text) << "</text></g>";
      if (link) o << "</a>";
      o << "\n";
    }
  }
  o << "</svg>\n";
  return o.str();
}

}  // namespace crucible
