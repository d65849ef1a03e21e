#include "harness/report/report_cli.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>

#include <CLI/CLI.hpp>

#include "harness/error.h"
#include "harness/report/compare.h"
#include "harness/report/metrics.h"
#include "harness/report/report_render.h"

namespace crucible {

namespace fs = std::filesystem;

namespace {

// Written to a temporary name and renamed, so a reader never sees half a report.
void write_whole(const fs::path& p, const std::string& text) {
  fs::path tmp = p;
  tmp += ".tmp";
  {
    std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
    if (!f) throw InputError("cannot write " + tmp.string());
    f << text;
    if (!f.flush()) throw InputError("cannot write " + tmp.string());
  }
  fs::rename(tmp, p);
}

std::vector<RunData> load_runs(const std::vector<std::string>& dirs) {
  std::vector<RunData> runs;
  for (auto& d : dirs) {
    runs.push_back(load_run(d));
    if (runs.back().bad_lines)
      std::cerr << d << ": " << runs.back().bad_lines << " incomplete line(s) skipped (run in progress?)\n";
  }
  return runs;
}

}  // namespace

int report_main(int argc, char** argv) {
  CLI::App app{"Metrics and reports (summary.json, report.md, report.html) from one or more runs"};
  std::vector<std::string> dirs;
  std::string out;
  std::vector<double> extra_p;
  std::vector<int> extra_k;
  bool quiet = false;
  app.add_option("runs", dirs, "run folders (results/<run>)")->required()->check(CLI::ExistingDirectory);
  app.add_option("-o,--out", out, "where to write the reports (default: the first run's folder)");
  app.add_option("--p", extra_p, "more fast_p thresholds to report (besides 0, 1, 1.5, 2)");
  app.add_option("--k", extra_k, "more k for pass@k and fast_p@k (besides 1, 2, 5, 10)");
  app.add_flag("-q,--quiet", quiet, "do not print the headline table");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  }
  try {
    std::vector<RunData> runs = load_runs(dirs);
    MetricOptions opts;
    for (double p : extra_p)
      if (std::find(opts.ps.begin(), opts.ps.end(), p) == opts.ps.end()) opts.ps.push_back(p);
    for (int k : extra_k)
      if (k > 0 && std::find(opts.ks.begin(), opts.ks.end(), k) == opts.ks.end()) opts.ks.push_back(k);
    std::sort(opts.ps.begin(), opts.ps.end());
    std::sort(opts.ks.begin(), opts.ks.end());
    std::vector<ReportRecord> all;
    size_t total = 0;
    for (auto& r : runs) total += r.records.size();
    all.reserve(total);
    for (auto& r : runs) all.insert(all.end(), r.records.begin(), r.records.end());
    Metrics m = compute_metrics(all, opts);
    fs::path od = out.empty() ? fs::path(dirs[0]) : fs::path(out);
    fs::create_directories(od);
    nlohmann::json summary = to_json(m);
    nlohmann::json jruns = nlohmann::json::array();
    for (auto& r : runs)
      jruns.push_back({{"name", r.name}, {"dir", r.dir.string()}, {"records", r.records.size()}, {"incomplete_lines", r.bad_lines}});
    summary["runs"] = jruns;
    write_whole(od / "summary.json", summary.dump(2) + "\n");
    write_whole(od / "report.md", render_markdown(m, runs));
    write_whole(od / "report.html", render_html(m, runs, od));
    if (!quiet) {
      std::cout << headline_text(m);
      std::cout << "wrote " << (od / "summary.json").string() << ", report.md, report.html (" << total << " records)\n";
    }
    return 0;
  } catch (const std::exception& e) {
    std::cerr << "crucible report: " << e.what() << "\n";
    return 2;
  }
}

int compare_main(int argc, char** argv) {
  CLI::App app{"Compare runs (other hardware, other models) task by task"};
  std::vector<std::string> dirs;
  bool json = false;
  std::string html;
  app.add_option("runs", dirs, "run folders; the first is the baseline")->required()->expected(2, -1)->check(CLI::ExistingDirectory);
  app.add_flag("--json", json, "print JSON instead of text");
  app.add_option("--html", html, "also write an HTML comparison to this file");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  }
  try {
    Comparison c = compare_runs(load_runs(dirs));
    if (json) std::cout << to_json(c).dump(2) << "\n";
    else std::cout << compare_text(c);
    if (!html.empty()) write_whole(html, compare_html(c));
    return 0;
  } catch (const std::exception& e) {
    std::cerr << "crucible compare: " << e.what() << "\n";
    return 2;
  }
}

std::string headline_table(const std::vector<nlohmann::json>& records) {
  std::vector<ReportRecord> rs;
  rs.reserve(records.size());
  for (auto& j : records)
    if (j.is_object()) rs.push_back(record_from_json(j));
  return headline_text(compute_metrics(rs));
}

}  // namespace crucible
