#include "harness/report/report_render.h"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <sstream>

#include "harness/report/svg_plot.h"

namespace crucible {

namespace fs = std::filesystem;

std::string fmt_x(double v) {
  if (!std::isfinite(v)) return "-";
  std::ostringstream o;
  o << std::fixed << std::setprecision(v < 10 ? 2 : 1) << v << "x";
  return o.str();
}

std::string fmt_pct(double v) {
  if (!std::isfinite(v)) return "-";
  std::ostringstream o;
  o << std::fixed << std::setprecision(1) << v * 100 << "%";
  return o.str();
}

namespace {

std::string fmt_num(double v, int prec = 0) {
  if (!std::isfinite(v)) return "-";
  std::ostringstream o;
  o << std::fixed << std::setprecision(prec) << v;
  return o.str();
}

std::string fmt_usd(double v) { return std::isfinite(v) ? "$" + fmt_num(v, 4) : "-"; }

std::string pad(const std::string& s, size_t w) { return s.size() >= w ? s + " " : s + std::string(w - s.size(), ' '); }

std::string pkey(double p) {
  std::ostringstream o;
  o << p;
  return o.str();
}

std::string mix(double t, int r0, int g0, int b0, int r1, int g1, int b1) {
  t = std::clamp(t, 0.0, 1.0);
  char buf[16];
  snprintf(buf, sizeof buf, "#%02x%02x%02x", int(r0 + (r1 - r0) * t), int(g0 + (g1 - g0) * t), int(b0 + (b1 - b0) * t));
  return buf;
}

bool any_eager(const Metrics& m) {
  for (auto& g : m.groups)
    if (g.eager_tasks > 0) return true;
  return false;
}

// A fast_p value from a group's map (over the reference or over eager); "-" when absent.
std::string fmt_fast(const std::map<double, double>& fast, double p) {
  auto it = fast.find(p);
  return it == fast.end() ? std::string("-") : fmt_pct(it->second);
}

const char* kEagerNote =
    "Speedup over PyTorch eager (KernelBench's baseline), from the suite's per-device baselines file "
    "(tasks/baselines/<device>.json, timed by scripts/torch-crosscheck.py) at the benchmark shape it names; "
    "only tasks with a baseline on this device count. The columns above are over the task's own reference.";

}  // namespace

std::string verdict_colour(const std::string& v, double speedup) {
  if (v == "pass") {
    if (!std::isfinite(speedup)) return "#cfe8cf";
    // Slower than the reference: pale yellow; faster: deeper green up to 4x.
    if (speedup < 1) return mix(speedup, 0xf6, 0xd5, 0x8c, 0xf3, 0xf0, 0xc0);
    return mix(std::log2(speedup) / 2, 0xc8, 0xec, 0xc0, 0x2e, 0x9e, 0x4a);
  }
  if (v == "wrong_output") return "#f4a3a3";
  if (v == "runtime_error" || v == "crash" || v == "timeout" || v == "launch_error") return "#f2b880";
  if (v == "compile_error" || v == "format_error") return "#c9b7e0";
  return "#d0d0d0";  // agent_error, unknown
}

std::string relative_link(const fs::path& target, const fs::path& from_dir) {
  fs::path t = fs::absolute(target).lexically_normal(), f = fs::absolute(from_dir).lexically_normal();
  fs::path r = t.lexically_relative(f);
  return (r.empty() ? t : r).generic_string();
}

std::string headline_text(const Metrics& m) {
  std::ostringstream o;
  o << pad("model", 22) << pad("device", 26) << pad("backend", 8) << pad("cands", 6) << pad("compile", 8)
    << pad("correct", 8) << pad("fast_0", 7) << pad("fast_1", 7) << pad("fast_1.5", 9) << pad("fast_2", 7)
    << pad("geomean", 8) << pad("SoL", 7) << "cost\n";
  for (auto& g : m.groups) {
    auto fp = [&](double p) { return fmt_fast(g.fast_p, p); };
    o << pad(g.model, 22) << pad(g.device, 26) << pad(g.backend, 8) << pad(std::to_string(g.records), 6)
      << pad(fmt_pct(g.compile_rate), 8) << pad(fmt_pct(g.correct_rate), 8) << pad(fp(0), 7) << pad(fp(1), 7)
      << pad(fp(1.5), 9) << pad(fp(2), 7) << pad(fmt_x(g.geomean_speedup_correct), 8) << pad(fmt_pct(g.mean_sol), 7)
      << (g.cost_usd > 0 ? fmt_usd(g.cost_usd) : "-") << "\n";
  }
  if (any_eager(m)) {
    o << "\nOver PyTorch eager (tasks with an eager baseline on the device):\n"
      << pad("model", 22) << pad("device", 26) << pad("tasks", 6) << pad("fast_0", 7) << pad("fast_1", 7)
      << pad("fast_1.5", 9) << pad("fast_2", 7) << "geomean\n";
    for (auto& g : m.groups)
      o << pad(g.model, 22) << pad(g.device, 26) << pad(std::to_string(g.eager_tasks) + "/" + std::to_string(g.tasks), 6)
        << pad(fmt_fast(g.fast_p_eager, 0), 7) << pad(fmt_fast(g.fast_p_eager, 1), 7) << pad(fmt_fast(g.fast_p_eager, 1.5), 9) << pad(fmt_fast(g.fast_p_eager, 2), 7)
        << fmt_x(g.geomean_speedup_vs_eager) << "\n";
  }
  return o.str();
}

std::string render_markdown(const Metrics& m, const std::vector<RunData>& runs) {
  std::ostringstream o;
  o << "# Crucible report\n\nRuns:";
  for (auto& r : runs) o << " `" << r.name << "` (" << r.records.size() << " records" << (r.bad_lines ? ", in progress" : "") << ")";
  o << "\n\n## Headline (per model x device)\n\n";
  o << "| model | device | backend | candidates | compile | correct | fast_0 | fast_1 | fast_1.5 | fast_2 | geomean (correct) | geomean (all, failures = 1x) | SoL | tokens | cost | cost / correct |\n";
  o << "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n";
  for (auto& g : m.groups) {
    auto fp = [&](double p) { return fmt_fast(g.fast_p, p); };
    o << "| " << g.model << " | " << g.device << " | " << g.backend << " | " << g.records << " | "
      << fmt_pct(g.compile_rate) << " | " << fmt_pct(g.correct_rate) << " | " << fp(0) << " | " << fp(1) << " | "
      << fp(1.5) << " | " << fp(2) << " | " << fmt_x(g.geomean_speedup_correct) << " | " << fmt_x(g.geomean_speedup_all)
      << " | " << fmt_pct(g.mean_sol) << " | " << fmt_num(g.tokens_in + g.tokens_out) << " | " << fmt_usd(g.cost_usd)
      << " | " << fmt_usd(g.cost_per_correct) << " |\n";
  }
  if (any_eager(m)) {
    o << "\n## Over PyTorch eager\n\n" << kEagerNote << "\n\n"
      << "| model | device | backend | tasks with a baseline | fast_0 | fast_1 | fast_1.5 | fast_2 | geomean (correct) |\n"
      << "|---|---|---|---:|---:|---:|---:|---:|---:|\n";
    for (auto& g : m.groups)
      o << "| " << g.model << " | " << g.device << " | " << g.backend << " | " << g.eager_tasks << " of " << g.tasks << " | "
        << fmt_fast(g.fast_p_eager, 0) << " | " << fmt_fast(g.fast_p_eager, 1) << " | " << fmt_fast(g.fast_p_eager, 1.5) << " | " << fmt_fast(g.fast_p_eager, 2) << " | "
        << fmt_x(g.geomean_speedup_vs_eager) << " |\n";
  }
  o << "\n## pass@k and fast_1@k\n\n| group | k | pass@k | fast_1@k |\n|---|---:|---:|---:|\n";
  for (auto& g : m.groups)
    for (auto& [k, v] : g.pass_at_k) {
      double f1 = g.fast_p_at_k.count(k) && g.fast_p_at_k.at(k).count(1.0) ? g.fast_p_at_k.at(k).at(1.0) : NAN;
      o << "| " << g.name() << " | " << k << " | " << fmt_pct(v) << " | " << fmt_pct(f1) << " |\n";
    }
  o << "\n## Best so far by round\n\n| group | round | correct | fast_1 | geomean (all) |\n|---|---:|---:|---:|---:|\n";
  for (auto& g : m.groups)
    for (auto& r : g.by_round)
      o << "| " << g.name() << " | " << r.round << " | " << fmt_pct(r.correct) << " | " << fmt_pct(r.fast_1) << " | "
        << fmt_x(r.geomean_all) << " |\n";
  o << "\n## Per task: best speedup over the reference, and over PyTorch eager where known (verdict when nothing was correct)\n\n| task |";
  for (auto& g : m.groups) o << " " << g.name() << " |";
  o << "\n|---|";
  for (size_t i = 0; i < m.groups.size(); ++i) o << "---:|";
  o << "\n";
  for (auto& t : m.tasks) {
    o << "| " << t.task << " |";
    for (auto& g : m.groups) {
      auto it = t.cells.find(g.name());
      if (it == t.cells.end()) o << " |";
      else if (it->second.verdict == "pass") {
        o << " " << fmt_x(it->second.speedup.value_or(NAN));
        if (it->second.speedup_vs_eager) o << " (eager " << fmt_x(*it->second.speedup_vs_eager) << ")";
        o << " |";
      }
      else o << " " << it->second.verdict << " |";
    }
    o << "\n";
  }
  return o.str();
}

std::string render_html(const Metrics& m, const std::vector<RunData>& runs, const fs::path& out_dir) {
  std::ostringstream o;
  o << "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>Crucible report</title>\n<style>\n"
       "body{font-family:sans-serif;margin:24px;color:#222;max-width:1400px}"
       "table{border-collapse:collapse;margin:8px 0 20px}td,th{border:1px solid #ccc;padding:3px 8px;font-size:13px}"
       "th{background:#f0f0f0}td.n{text-align:right}.plots{display:flex;flex-wrap:wrap;gap:16px}"
       ".legend span{display:inline-block;padding:2px 8px;margin-right:6px;font-size:12px}"
       "h2{margin-top:28px;border-bottom:1px solid #ddd}.msg{color:#666;font-size:12px}\n"
       "</style></head><body>\n<h1>Crucible report</h1>\n<p>";
  for (auto& r : runs) {
    o << "Run <b>" << html_escape(r.name) << "</b>: " << r.records.size() << " records";
    if (r.info.is_object()) {
      if (r.info.contains("backend") && r.info["backend"].is_string())
        o << ", backend " << html_escape(r.info["backend"].get<std::string>());
      if (r.info.contains("device") && r.info["device"].is_object() && r.info["device"].contains("name") &&
          r.info["device"]["name"].is_string())
        o << ", device " << html_escape(r.info["device"]["name"].get<std::string>());
      if (r.info.contains("started") && r.info["started"].is_string())
        o << ", started " << html_escape(r.info["started"].get<std::string>());
    }
    if (r.bad_lines) o << " <i>(in progress: " << r.bad_lines << " incomplete line skipped)</i>";
    o << "<br>\n";
  }
  o << "</p>\n<h2>Headline per model &times; device</h2>\n<table id=\"headline\"><tr><th>model</th><th>device</th><th>backend</th>"
       "<th>candidates</th><th>compile</th><th>correct</th><th>fast_0</th><th>fast_1</th><th>fast_1.5</th><th>fast_2</th>"
       "<th>geomean (correct)</th><th>geomean (all, failures = 1x)</th><th>SoL</th><th>tokens</th><th>cost</th><th>cost / correct</th></tr>\n";
  for (auto& g : m.groups) {
    o << "<tr><td>" << html_escape(g.model) << "</td><td>" << html_escape(g.device) << "</td><td>" << html_escape(g.backend)
      << "</td><td class=n>" << g.records << "</td><td class=n>" << fmt_pct(g.compile_rate) << "</td><td class=n>"
      << fmt_pct(g.correct_rate) << "</td>";
    for (double p : {0.0, 1.0, 1.5, 2.0}) {
      o << "<td class=n>" << fmt_fast(g.fast_p, p) << "</td>";
    }
    o << "<td class=n>" << fmt_x(g.geomean_speedup_correct) << "</td><td class=n>" << fmt_x(g.geomean_speedup_all)
      << "</td><td class=n>" << fmt_pct(g.mean_sol) << "</td><td class=n>" << fmt_num(g.tokens_in + g.tokens_out)
      << "</td><td class=n>" << fmt_usd(g.cost_usd) << "</td><td class=n>" << fmt_usd(g.cost_per_correct) << "</td></tr>\n";
  }
  o << "</table>\n";
  if (any_eager(m)) {
    o << "<h2>Over PyTorch eager</h2>\n<p class=msg>" << html_escape(kEagerNote) << "</p>\n"
      << "<table id=\"headline-eager\"><tr><th>model</th><th>device</th><th>backend</th><th>tasks with a baseline</th>"
         "<th>fast_0</th><th>fast_1</th><th>fast_1.5</th><th>fast_2</th><th>geomean (correct)</th></tr>\n";
    for (auto& g : m.groups) {
      o << "<tr><td>" << html_escape(g.model) << "</td><td>" << html_escape(g.device) << "</td><td>" << html_escape(g.backend)
        << "</td><td class=n>" << g.eager_tasks << " of " << g.tasks << "</td>";
      for (double p : {0.0, 1.0, 1.5, 2.0}) o << "<td class=n>" << fmt_fast(g.fast_p_eager, p) << "</td>";
      o << "<td class=n>" << fmt_x(g.geomean_speedup_vs_eager) << "</td></tr>\n";
    }
    o << "</table>\n";
  }

  // Plots.
  o << "<h2>Plots</h2>\n<div class=\"plots\">\n";
  {
    std::vector<Series> ss;
    double pmax = 2.5;
    for (auto& g : m.groups)
      for (double s : g.correct_speedups) pmax = std::max(pmax, std::min(s, 8.0));
    pmax = std::ceil(pmax * 2) / 2;
    for (size_t i = 0; i < m.groups.size(); ++i) {
      Series s{m.groups[i].name(), palette(i), {}};
      for (int k = 0; k <= 100; ++k) s.points.push_back({pmax * k / 100, m.groups[i].fast_p_of(pmax * k / 100)});
      ss.push_back(std::move(s));
    }
    Axis x{"p (speedup threshold)", 0, pmax, {}}, y{"fast_p", 0, 1, {}};
    for (double p = 0; p <= pmax + 1e-9; p += pmax > 4 ? 1 : 0.5) x.ticks.push_back({p, pkey(p)});
    for (int k = 0; k <= 4; ++k) y.ticks.push_back({k / 4.0, fmt_pct(k / 4.0)});
    o << svg_line_chart("plot-fastp", "fast_p over p", x, y, ss);
  }
  {
    // Distribution of correct candidates' speedups, in log2 bins from 1/16x to 16x.
    const int nb = 16;
    std::vector<Series> ss;
    double ymax = 0.05;
    for (size_t i = 0; i < m.groups.size(); ++i) {
      auto& g = m.groups[i];
      std::vector<double> bins(nb, 0);
      for (double s : g.correct_speedups) {
        int b = static_cast<int>(std::floor((std::clamp(std::log2(s), -4.0, 3.999) + 4) * 2));
        bins[std::clamp(b, 0, nb - 1)] += 1;
      }
      Series s{g.name(), palette(i), {}};
      for (int b = 0; b < nb; ++b) {
        double frac = g.correct_speedups.empty() ? 0 : bins[b] / g.correct_speedups.size();
        ymax = std::max(ymax, frac);
        s.points.push_back({-4 + b * 0.5, frac});
        s.points.push_back({-4 + (b + 1) * 0.5, frac});
      }
      ss.push_back(std::move(s));
    }
    ymax = std::ceil(ymax * 10) / 10;
    Axis x{"speedup of correct candidates (log scale)", -4, 4, {}}, y{"share of correct candidates", 0, ymax, {}};
    for (int e = -4; e <= 4; ++e) x.ticks.push_back({double(e), e >= 0 ? pkey(std::pow(2, e)) + "x" : "1/" + pkey(std::pow(2, -e)) + "x"});
    for (int k = 0; k <= 4; ++k) y.ticks.push_back({ymax * k / 4, fmt_pct(ymax * k / 4)});
    o << svg_line_chart("plot-speedups", "Speedup distribution", x, y, ss);
  }
  {
    std::vector<Series> ss;
    int rmax = 0;
    double ymax = 1.5;
    for (size_t i = 0; i < m.groups.size(); ++i) {
      Series s{m.groups[i].name(), palette(i), {}};
      for (auto& r : m.groups[i].by_round) {
        s.points.push_back({double(r.round), r.geomean_all});
        rmax = std::max(rmax, r.round);
        if (std::isfinite(r.geomean_all)) ymax = std::max(ymax, r.geomean_all);
      }
      ss.push_back(std::move(s));
    }
    ymax = std::ceil(ymax * 2) / 2;
    Axis x{"round", 0, double(std::max(rmax, 1)), {}}, y{"geomean best-so-far speedup (failures = 1x)", 0, ymax, {}};
    for (int r = 0; r <= std::max(rmax, 1); ++r) x.ticks.push_back({double(r), std::to_string(r)});
    for (int k = 0; k <= 4; ++k) y.ticks.push_back({ymax * k / 4, fmt_x(ymax * k / 4)});
    o << svg_line_chart("plot-rounds", "Best so far by round", x, y, ss);
  }
  o << "</div>\n";

  // Heatmap: task x group, best speedup, verdict colours, each cell linked to its candidate.
  std::vector<std::string> rows, cols;
  for (auto& g : m.groups) cols.push_back(g.name());
  std::vector<std::vector<HeatCell>> cells;
  for (auto& t : m.tasks) {
    rows.push_back(t.task);
    std::vector<HeatCell> row;
    for (auto& g : m.groups) {
      HeatCell h;
      auto it = t.cells.find(g.name());
      if (it != t.cells.end()) {
        const Cell& c = it->second;
        double sp = c.speedup.value_or(NAN);
        h.text = c.verdict == "pass" ? (std::isfinite(sp) ? fmt_x(sp) : "pass") : c.verdict;
        h.fill = verdict_colour(c.verdict, sp);
        if (!c.candidate.empty()) h.href = relative_link(c.run_dir / "candidates" / c.candidate, out_dir);
        h.tooltip = t.task + " / " + g.name() + ": " + c.verdict + (std::isfinite(sp) ? " " + fmt_x(sp) : "") + " (" +
                    std::to_string(c.correct) + "/" + std::to_string(c.candidates) + " correct)" +
                    (c.message.empty() ? "" : " — " + c.message.substr(0, 200));
      }
      row.push_back(std::move(h));
    }
    cells.push_back(std::move(row));
  }
  o << "<h2>Best speedup per task</h2>\n<div class=\"legend\">";
  for (auto [label, v, sp] : std::vector<std::tuple<const char*, const char*, double>>{
           {"faster (pass)", "pass", 2.0}, {"slower (pass)", "pass", 0.5}, {"wrong_output", "wrong_output", 0},
           {"runtime / launch / timeout / crash", "runtime_error", 0}, {"compile / format error", "compile_error", 0},
           {"agent error", "agent_error", 0}})
    o << "<span style=\"background:" << verdict_colour(v, sp) << "\">" << label << "</span>";
  o << "</div>\n" << svg_heatmap("plot-heatmap", "Task x model: best speedup", rows, cols, cells);

  // Details: verdict, candidate and transcript of every heatmap cell.
  o << "<h2>Best kernels</h2>\n<table id=\"cells\"><tr><th>task</th><th>model @ device</th><th>verdict</th><th>speedup</th>"
       "<th>vs PyTorch eager</th><th>SoL</th><th>correct / candidates</th><th>candidate</th><th>transcript</th><th>message</th></tr>\n";
  for (auto& t : m.tasks)
    for (auto& g : m.groups) {
      auto it = t.cells.find(g.name());
      if (it == t.cells.end()) continue;
      const Cell& c = it->second;
      o << "<tr><td>" << html_escape(t.task) << "</td><td>" << html_escape(g.name()) << "</td><td style=\"background:"
        << verdict_colour(c.verdict, c.speedup.value_or(NAN)) << "\">" << html_escape(c.verdict) << "</td><td class=n>"
        << fmt_x(c.speedup.value_or(NAN)) << "</td><td class=n>" << fmt_x(c.speedup_vs_eager.value_or(NAN))
        << "</td><td class=n>" << fmt_pct(c.sol.value_or(NAN)) << "</td><td class=n>"
        << c.correct << " / " << c.candidates << "</td><td>";
      if (!c.candidate.empty())
        o << "<a class=\"candidate\" href=\"" << html_escape(relative_link(c.run_dir / "candidates" / c.candidate, out_dir))
          << "\">" << html_escape(c.candidate.substr(0, 12)) << "</a>";
      o << "</td><td>";
      if (!c.transcript.empty())
        o << "<a class=\"transcript\" href=\"" << html_escape(relative_link(c.run_dir / c.transcript, out_dir)) << "\">transcript</a>";
      o << "</td><td class=msg>" << html_escape(c.message.substr(0, 160)) << "</td></tr>\n";
    }
  o << "</table>\n";

  o << "<h2>pass@k and fast_p@k</h2>\n<table id=\"passk\"><tr><th>group</th><th>k</th><th>pass@k</th>";
  for (double p : m.options.ps) o << "<th>fast_" << pkey(p) << "@k</th>";
  o << "</tr>\n";
  for (auto& g : m.groups)
    for (auto& [k, v] : g.pass_at_k) {
      o << "<tr><td>" << html_escape(g.name()) << "</td><td class=n>" << k << "</td><td class=n>" << fmt_pct(v) << "</td>";
      for (double p : m.options.ps) {
        double f = g.fast_p_at_k.count(k) && g.fast_p_at_k.at(k).count(p) ? g.fast_p_at_k.at(k).at(p) : NAN;
        o << "<td class=n>" << fmt_pct(f) << "</td>";
      }
      o << "</tr>\n";
    }
  o << "</table>\n<p class=msg>Definitions: docs/metrics.md. fast_p and pass@k count each trajectory's best kernel over its rounds.</p>\n"
       "</body></html>\n";
  return o.str();
}

}  // namespace crucible
