#include "harness/report/compare.h"

#include <cmath>
#include <map>
#include <set>
#include <sstream>

#include "harness/report/report_render.h"
#include "harness/report/svg_plot.h"

namespace crucible {

namespace {

bool timed_pass(const CompareValue& v) { return v.verdict == "pass" && std::isfinite(v.speedup); }

std::string cell_text(const CompareValue& v) {
  if (v.verdict.empty()) return "";
  if (v.verdict == "pass") return std::isfinite(v.speedup) ? fmt_x(v.speedup) : "pass";
  return v.verdict;
}

std::string list(const std::vector<std::string>& v) {
  std::string s;
  for (auto& x : v) s += (s.empty() ? "" : ", ") + x;
  return s.empty() ? "-" : s;
}

}  // namespace

Comparison compare_runs(const std::vector<RunData>& runs) {
  Comparison c;
  std::vector<Metrics> ms;
  std::set<std::string> task_set;
  std::vector<std::pair<size_t, std::string>> colref;  // (metrics index, group name)
  for (auto& r : runs) {
    ms.push_back(compute_metrics(r.records));
    for (auto& g : ms.back().groups) {
      c.columns.push_back(r.name + ": " + g.name());
      colref.push_back({ms.size() - 1, g.name()});
    }
    for (auto& t : ms.back().tasks) task_set.insert(t.task);
  }
  c.tasks.assign(task_set.begin(), task_set.end());
  for (auto& task : c.tasks) {
    std::vector<CompareValue> row;
    for (auto& [mi, g] : colref) {
      CompareValue v;
      v.speedup = NAN;
      for (auto& t : ms[mi].tasks) {
        if (t.task != task) continue;
        auto it = t.cells.find(g);
        if (it != t.cells.end()) {
          v.verdict = it->second.verdict;
          if (v.verdict == "pass" && it->second.speedup) v.speedup = *it->second.speedup;
        }
      }
      row.push_back(v);
    }
    c.values.push_back(std::move(row));
  }
  for (size_t col = 1; col < c.columns.size(); ++col) {
    Comparison::Versus vs;
    vs.column = c.columns[col];
    std::vector<double> ratios;
    for (size_t t = 0; t < c.tasks.size(); ++t) {
      const CompareValue &a = c.values[t][0], &b = c.values[t][col];
      if (a.verdict.empty() || b.verdict.empty()) continue;
      bool pa = a.verdict == "pass", pb = b.verdict == "pass";
      if (pa && !pb) vs.lost.push_back(c.tasks[t]);
      if (!pa && pb) vs.gained.push_back(c.tasks[t]);
      if (timed_pass(a) && timed_pass(b)) {
        ratios.push_back(b.speedup / a.speedup);
        if (a.speedup > 1 && b.speedup < 1) vs.faster_to_slower.push_back(c.tasks[t]);
        if (a.speedup < 1 && b.speedup > 1) vs.slower_to_faster.push_back(c.tasks[t]);
      }
    }
    vs.common = static_cast<int>(ratios.size());
    vs.geomean_ratio = geomean(ratios);
    c.versus.push_back(std::move(vs));
  }
  return c;
}

nlohmann::json to_json(const Comparison& c) {
  nlohmann::json tasks = nlohmann::json::array();
  for (size_t t = 0; t < c.tasks.size(); ++t) {
    nlohmann::json vals = nlohmann::json::array();
    for (auto& v : c.values[t])
      vals.push_back({{"verdict", v.verdict.empty() ? nlohmann::json(nullptr) : nlohmann::json(v.verdict)},
                      {"speedup", std::isfinite(v.speedup) ? nlohmann::json(v.speedup) : nlohmann::json(nullptr)}});
    tasks.push_back({{"task", c.tasks[t]}, {"values", vals}});
  }
  nlohmann::json vs = nlohmann::json::array();
  for (auto& v : c.versus)
    vs.push_back({{"column", v.column},
                  {"baseline", c.columns.empty() ? "" : c.columns[0]},
                  {"common_tasks", v.common},
                  {"geomean_ratio", std::isfinite(v.geomean_ratio) ? nlohmann::json(v.geomean_ratio) : nlohmann::json(nullptr)},
                  {"faster_to_slower", v.faster_to_slower},
                  {"slower_to_faster", v.slower_to_faster},
                  {"lost", v.lost},
                  {"gained", v.gained}});
  return {{"columns", c.columns}, {"tasks", tasks}, {"versus", vs}};
}

std::string compare_text(const Comparison& c) {
  std::ostringstream o;
  size_t w0 = 6;
  for (auto& t : c.tasks) w0 = std::max(w0, t.size() + 2);
  for (size_t i = 0; i < c.columns.size(); ++i) o << "[" << char('A' + i % 26) << "] " << c.columns[i] << "\n";
  o << "\n" << std::string("task") + std::string(w0 - 4, ' ');
  for (size_t i = 0; i < c.columns.size(); ++i) o << "[" << char('A' + i % 26) << "]" << std::string(13, ' ');
  o << "\n";
  for (size_t t = 0; t < c.tasks.size(); ++t) {
    o << c.tasks[t] << std::string(w0 - c.tasks[t].size(), ' ');
    for (auto& v : c.values[t]) {
      std::string s = cell_text(v);
      if (s.empty()) s = ".";
      o << s << std::string(s.size() < 16 ? 16 - s.size() : 1, ' ');
    }
    o << "\n";
  }
  for (size_t i = 0; i < c.versus.size(); ++i) {
    auto& v = c.versus[i];
    o << "\n[" << char('A' + (i + 1) % 26) << "] vs [A]: geomean speedup ratio " << fmt_x(v.geomean_ratio) << " over "
      << v.common << " tasks correct in both\n";
    o << "  faster -> slower: " << list(v.faster_to_slower) << "\n";
    o << "  slower -> faster: " << list(v.slower_to_faster) << "\n";
    o << "  correct -> failed: " << list(v.lost) << "\n";
    o << "  failed -> correct: " << list(v.gained) << "\n";
  }
  return o.str();
}

std::string compare_html(const Comparison& c) {
  std::ostringstream o;
  o << "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>Crucible comparison</title><style>"
       "body{font-family:sans-serif;margin:24px}table{border-collapse:collapse;margin:8px 0 20px}"
       "td,th{border:1px solid #ccc;padding:3px 8px;font-size:13px}th{background:#f0f0f0}td.n{text-align:right}"
       "</style></head><body>\n<h1>Crucible comparison</h1>\n<table id=\"compare\"><tr><th>task</th>";
  for (auto& col : c.columns) o << "<th>" << html_escape(col) << "</th>";
  o << "</tr>\n";
  for (size_t t = 0; t < c.tasks.size(); ++t) {
    o << "<tr><td>" << html_escape(c.tasks[t]) << "</td>";
    for (auto& v : c.values[t]) {
      if (v.verdict.empty()) o << "<td></td>";
      else
        o << "<td class=n style=\"background:" << verdict_colour(v.verdict, v.speedup) << "\">" << html_escape(cell_text(v))
          << "</td>";
    }
    o << "</tr>\n";
  }
  o << "</table>\n<h2>Against " << (c.columns.empty() ? "" : html_escape(c.columns[0])) << "</h2>\n"
    << "<table id=\"versus\"><tr><th>column</th><th>tasks correct in both</th><th>geomean ratio</th>"
       "<th>faster &rarr; slower</th><th>slower &rarr; faster</th><th>correct &rarr; failed</th><th>failed &rarr; correct</th></tr>\n";
  for (auto& v : c.versus)
    o << "<tr><td>" << html_escape(v.column) << "</td><td class=n>" << v.common << "</td><td class=n>" << fmt_x(v.geomean_ratio)
      << "</td><td>" << html_escape(list(v.faster_to_slower)) << "</td><td>" << html_escape(list(v.slower_to_faster))
      << "</td><td>" << html_escape(list(v.lost)) << "</td><td>" << html_escape(list(v.gained)) << "</td></tr>\n";
  o << "</table>\n</body></html>\n";
  return o.str();
}

}  // namespace crucible
