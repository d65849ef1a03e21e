// Tests the report metrics (harness/report/metrics.h) on small hand-made record sets
// with known answers: compile and correctness rates, fast_p with failed candidates,
// geometric means, speed of light, pass@k against its closed form, fast_p@k,
// best-so-far by round, tokens and cost, replay grouping, per-task cells, torn lines.
#include <cmath>
#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "harness/report/compare.h"
#include "harness/report/metrics.h"
#include "harness/report/report_cli.h"
#include "harness/report/synthetic_run.h"

using namespace crucible;
namespace fs = std::filesystem;

namespace {

nlohmann::json rec(const std::string& task, const std::string& model, int sample, int round, const std::string& verdict,
                   std::optional<double> speedup = std::nullopt, std::optional<double> sol = std::nullopt) {
  nlohmann::json j = {{"key", task + "|" + model + "|s" + std::to_string(sample) + "|r" + std::to_string(round)},
                      {"task", task}, {"level", 1}, {"backend", "cuda"}, {"device", "H200"}, {"candidate", "h" + task},
                      {"verdict", verdict}, {"flags", nlohmann::json::array()}, {"message", ""},
                      {"speedup", speedup ? nlohmann::json(*speedup) : nlohmann::json(nullptr)},
                      {"sol", sol ? nlohmann::json(*sol) : nlohmann::json(nullptr)}, {"sample", sample}, {"round", round}};
  if (!model.empty()) j["model"] = model;
  return j;
}

std::vector<ReportRecord> recs(const std::vector<nlohmann::json>& js) {
  std::vector<ReportRecord> v;
  for (auto& j : js) v.push_back(record_from_json(j, "run"));
  return v;
}

double binom(int n, int k) {
  if (k < 0 || k > n) return 0;
  double r = 1;
  for (int i = 1; i <= k; ++i) r = r * (n - k + i) / i;
  return r;
}

}  // namespace

TEST(ReportMetrics, PassAtKMatchesClosedForm) {
  for (int n = 1; n <= 20; ++n)
    for (int c = 0; c <= n; ++c)
      for (int k = 1; k <= n; ++k) {
        double closed = 1.0 - binom(n - c, k) / binom(n, k);
        EXPECT_NEAR(pass_at_k(n, c, k), closed, 1e-12) << "n=" << n << " c=" << c << " k=" << k;
      }
  EXPECT_DOUBLE_EQ(pass_at_k(10, 3, 1), 0.3);  // pass@1 is c/n
  EXPECT_DOUBLE_EQ(pass_at_k(5, 0, 3), 0.0);
  EXPECT_DOUBLE_EQ(pass_at_k(5, 3, 3), 1.0);   // n - c < k: some draw always contains a correct one
  EXPECT_TRUE(std::isnan(pass_at_k(2, 1, 3))); // n < k is undefined
}

TEST(ReportMetrics, RatesAndFastPWithFailures) {
  // Four tasks, one candidate each: 2.0x pass, 0.5x pass, wrong_output, compile_error.
  auto m = compute_metrics(recs({rec("a", "m", 0, 0, "pass", 2.0, 0.8), rec("b", "m", 0, 0, "pass", 0.5, 0.2),
                                 rec("c", "m", 0, 0, "wrong_output"), rec("d", "m", 0, 0, "compile_error")}));
  ASSERT_EQ(m.groups.size(), 1u);
  auto& g = m.groups[0];
  EXPECT_EQ(g.records, 4);
  EXPECT_DOUBLE_EQ(g.compile_rate, 0.75);  // wrong_output compiled; compile_error did not
  EXPECT_DOUBLE_EQ(g.correct_rate, 0.5);
  EXPECT_DOUBLE_EQ(g.fast_p.at(0), 0.5);   // fast_0 = correctness
  EXPECT_DOUBLE_EQ(g.fast_p.at(1), 0.25);  // only the 2.0x one; failures never count
  EXPECT_DOUBLE_EQ(g.fast_p.at(1.5), 0.25);
  EXPECT_DOUBLE_EQ(g.fast_p.at(2), 0.0);   // strictly greater than p
  EXPECT_DOUBLE_EQ(g.fast_p_of(0.4), 0.5);
  EXPECT_DOUBLE_EQ(g.fast_p_of(1.99), 0.25);
  EXPECT_NEAR(g.geomean_speedup_correct, 1.0, 1e-12);                       // sqrt(2 * 0.5)
  EXPECT_NEAR(g.geomean_speedup_all, std::pow(2.0 * 0.5 * 1 * 1, 0.25), 1e-12);  // failures as 1.0x
  EXPECT_NEAR(g.mean_sol, 0.5, 1e-12);
  EXPECT_TRUE(std::isnan(g.cost_per_correct) || g.cost_per_correct == 0);
}

TEST(ReportMetrics, FastPAveragesOverTasksThenSamples) {
  // Task a: 2 samples, one 3x and one wrong (share 0.5); task b: 1 sample at 1.2x (share 1).
  auto m = compute_metrics(recs({rec("a", "m", 0, 0, "pass", 3.0), rec("a", "m", 1, 0, "wrong_output"),
                                 rec("b", "m", 0, 0, "pass", 1.2)}));
  auto& g = m.groups[0];
  EXPECT_DOUBLE_EQ(g.fast_p.at(1), 0.75);
  EXPECT_DOUBLE_EQ(g.fast_p.at(2), 0.25);
  EXPECT_EQ(g.tasks, 2);
  EXPECT_EQ(g.trajectories, 3);
  // pass@1 over tasks with n >= 1: (1/2 + 1) / 2; pass@2 only task a: 1 - C(1,2)/C(2,2) = 1.
  EXPECT_DOUBLE_EQ(g.pass_at_k.at(1), 0.75);
  EXPECT_DOUBLE_EQ(g.pass_at_k.at(2), 1.0);
  EXPECT_EQ(g.pass_at_k.count(5), 0u);  // no task has 5 samples
  EXPECT_DOUBLE_EQ(g.fast_p_at_k.at(1).at(2.0), 0.25);  // (1/2 + 0) / 2
  EXPECT_DOUBLE_EQ(g.fast_p_at_k.at(2).at(2.0), 1.0);
}

TEST(ReportMetrics, PassAtKOverManySamples) {
  // One task, 5 samples, 2 correct: pass@k = 1 - C(3,k)/C(5,k).
  std::vector<nlohmann::json> js;
  for (int s = 0; s < 5; ++s) js.push_back(rec("t", "m", s, 0, s < 2 ? "pass" : "wrong_output", 1.5));
  auto g = compute_metrics(recs(js)).groups[0];
  EXPECT_NEAR(g.pass_at_k.at(1), 0.4, 1e-12);
  EXPECT_NEAR(g.pass_at_k.at(2), 1 - 3.0 / 10, 1e-12);
  EXPECT_NEAR(g.pass_at_k.at(5), 1.0, 1e-12);
  EXPECT_NEAR(g.fast_p_at_k.at(2).at(1.0), 0.7, 1e-12);
  EXPECT_NEAR(g.fast_p_at_k.at(2).at(2.0), 0.0, 1e-12);
}

TEST(ReportMetrics, BestSoFarByRoundCarriesForward) {
  // Trajectory 1: fails r0, 1.5x at r1, stops (goal). Trajectory 2: 0.8x r0, wrong r1, 2.0x r2.
  auto m = compute_metrics(recs({rec("a", "m", 0, 0, "compile_error"), rec("a", "m", 0, 1, "pass", 1.5),
                                 rec("b", "m", 0, 0, "pass", 0.8), rec("b", "m", 0, 1, "wrong_output"),
                                 rec("b", "m", 0, 2, "pass", 2.0)}));
  auto& g = m.groups[0];
  ASSERT_EQ(g.by_round.size(), 3u);
  EXPECT_DOUBLE_EQ(g.by_round[0].correct, 0.5);
  EXPECT_DOUBLE_EQ(g.by_round[0].fast_1, 0.0);
  EXPECT_NEAR(g.by_round[0].geomean_all, std::sqrt(1.0 * 0.8), 1e-12);
  EXPECT_DOUBLE_EQ(g.by_round[1].correct, 1.0);
  EXPECT_DOUBLE_EQ(g.by_round[1].fast_1, 0.5);
  EXPECT_NEAR(g.by_round[1].geomean_all, std::sqrt(1.5 * 0.8), 1e-12);
  EXPECT_DOUBLE_EQ(g.by_round[2].fast_1, 1.0);
  EXPECT_NEAR(g.by_round[2].geomean_all, std::sqrt(1.5 * 2.0), 1e-12);  // a's 1.5x carried to round 2
  // Headline numbers use each trajectory's best over all rounds.
  EXPECT_DOUBLE_EQ(g.fast_p.at(1.5), 0.5);
  EXPECT_NEAR(g.geomean_speedup_correct, std::sqrt(3.0), 1e-12);
  EXPECT_DOUBLE_EQ(g.correct_rate, 3.0 / 5);
  EXPECT_NEAR(g.geomean_speedup_correct_candidates, std::pow(1.5 * 0.8 * 2.0, 1.0 / 3), 1e-12);
}

TEST(ReportMetrics, GroupsByModelAndDeviceAndCountsCost) {
  auto a = rec("t", "m1", 0, 0, "pass", 2.0);
  a["tokens_in"] = 100;
  a["tokens_out"] = 50;
  a["cost_usd"] = 0.3;
  auto b = rec("t", "m1", 1, 0, "wrong_output");
  b["tokens_in"] = 100;
  b["tokens_out"] = 50;
  b["cost_usd"] = 0.3;
  auto c = rec("t", "m1", 0, 0, "pass", 1.0);
  c["device"] = "MI250X";
  c["backend"] = "hip";
  auto d = rec("t", "", 0, 0, "pass", 1.1);
  d["candidate_file"] = "good.cu";
  auto m = compute_metrics(recs({a, b, c, d}));
  ASSERT_EQ(m.groups.size(), 3u);
  EXPECT_EQ(m.groups[0].model, "m1");
  EXPECT_EQ(m.groups[0].device, "H200");
  EXPECT_DOUBLE_EQ(m.groups[0].tokens_in, 200);
  EXPECT_DOUBLE_EQ(m.groups[0].cost_usd, 0.6);
  EXPECT_DOUBLE_EQ(m.groups[0].cost_per_correct, 0.6);  // one correct kernel for $0.60
  EXPECT_DOUBLE_EQ(m.groups[0].tokens_per_correct, 300);
  EXPECT_EQ(m.groups[1].device, "MI250X");
  EXPECT_EQ(m.groups[2].model, "replay/good.cu");
  // Per task: one cell per group, the best candidate kept.
  ASSERT_EQ(m.tasks.size(), 1u);
  auto& cell = m.tasks[0].cells.at(m.groups[0].name());
  EXPECT_EQ(cell.verdict, "pass");
  EXPECT_DOUBLE_EQ(*cell.speedup, 2.0);
  EXPECT_EQ(cell.candidates, 2);
  EXPECT_EQ(cell.correct, 1);
  EXPECT_EQ(cell.transcript, "transcripts/t__m1__s0.jsonl");
}

TEST(ReportMetrics, CellKeepsFailureClosestToWorking) {
  auto m = compute_metrics(recs({rec("t", "m", 0, 0, "compile_error"), rec("t", "m", 0, 1, "wrong_output"),
                                 rec("t", "m", 0, 2, "format_error")}));
  EXPECT_EQ(m.tasks[0].cells.begin()->second.verdict, "wrong_output");
  EXPECT_TRUE(std::isnan(m.groups[0].geomean_speedup_correct));
  EXPECT_DOUBLE_EQ(m.groups[0].geomean_speedup_all, 1.0);
}

TEST(ReportMetrics, LoadRunSkipsTornLastLine) {
  fs::path dir = fs::temp_directory_path() / ("crucible_report_torn_" + std::to_string(getpid()));
  fs::create_directories(dir);
  {
    std::ofstream f(dir / "records.jsonl");
    f << rec("a", "m", 0, 0, "pass", 2.0).dump() << "\n" << rec("b", "m", 0, 0, "wrong_output").dump() << "\n"
      << "{\"key\": \"c|m|s0|r0\", \"task\": \"c\", \"verd";
  }
  RunData d = load_run(dir);
  EXPECT_EQ(d.records.size(), 2u);
  EXPECT_EQ(d.bad_lines, 1);
  EXPECT_THROW(load_run(dir / "nope"), std::exception);
  fs::remove_all(dir);
}

TEST(ReportMetrics, HeadlineTableHasOneRowPerGroup) {
  std::string t = headline_table({rec("a", "alpha", 0, 0, "pass", 2.0), rec("a", "beta", 0, 0, "wrong_output")});
  EXPECT_NE(t.find("alpha"), std::string::npos);
  EXPECT_NE(t.find("beta"), std::string::npos);
  EXPECT_NE(t.find("fast_1"), std::string::npos);
  EXPECT_NE(t.find("100.0%"), std::string::npos);  // alpha: all correct
  EXPECT_EQ(std::count(t.begin(), t.end(), '\n'), 3);
}

TEST(ReportMetrics, CompareFindsFlipsAndGeomeanRatio) {
  RunData a, b;
  a.name = "h100";
  b.name = "mi250";
  a.records = recs({rec("x", "m", 0, 0, "pass", 2.0), rec("y", "m", 0, 0, "pass", 0.5), rec("z", "m", 0, 0, "pass", 1.5),
                    rec("w", "m", 0, 0, "wrong_output")});
  b.records = recs({rec("x", "m", 0, 0, "pass", 0.5), rec("y", "m", 0, 0, "pass", 2.0), rec("z", "m", 0, 0, "wrong_output"),
                    rec("w", "m", 0, 0, "pass", 1.0)});
  for (auto& r : b.records) r.device = "MI250X";
  Comparison c = compare_runs({a, b});
  ASSERT_EQ(c.columns.size(), 2u);
  ASSERT_EQ(c.versus.size(), 1u);
  auto& v = c.versus[0];
  EXPECT_EQ(v.common, 2);
  EXPECT_NEAR(v.geomean_ratio, 1.0, 1e-12);  // sqrt(0.25 * 4)
  EXPECT_EQ(v.faster_to_slower, std::vector<std::string>{"x"});
  EXPECT_EQ(v.slower_to_faster, std::vector<std::string>{"y"});
  EXPECT_EQ(v.lost, std::vector<std::string>{"z"});
  EXPECT_EQ(v.gained, std::vector<std::string>{"w"});
  auto j = to_json(c);
  EXPECT_EQ(j["versus"][0]["faster_to_slower"][0], "x");
  EXPECT_NE(compare_text(c).find("faster -> slower: x"), std::string::npos);
  EXPECT_NE(compare_html(c).find("<table id=\"compare\">"), std::string::npos);
}

TEST(ReportCli, ReportAndCompareOverTwoRuns) {
  fs::path dir = fs::temp_directory_path() / ("crucible_report_cli_" + std::to_string(getpid()));
  fs::remove_all(dir);
  SyntheticRunOptions o;
  o.records = 60;
  write_synthetic_run(dir / "a", o);
  o.device = "AMD Instinct MI250X";
  o.backend = "hip";
  o.seed = 2;
  o.torn_tail = true;  // still being written
  write_synthetic_run(dir / "b", o);
  std::string r0 = "report", r1 = (dir / "a").string(), r2 = (dir / "b").string(), r3 = "-o", r4 = (dir / "out").string(),
              r5 = "--p", r6 = "3", r7 = "-q";
  char* rargv[] = {r0.data(), r1.data(), r2.data(), r3.data(), r4.data(), r5.data(), r6.data(), r7.data()};
  ASSERT_EQ(report_main(8, rargv), 0);
  std::ifstream sf(dir / "out" / "summary.json");
  auto summary = nlohmann::json::parse(sf);
  ASSERT_EQ(summary["groups"].size(), 4u);  // 2 models x 2 devices
  EXPECT_TRUE(summary["groups"][0]["fast_p"].contains("3"));
  EXPECT_EQ(summary["runs"][1]["incomplete_lines"], 1);
  EXPECT_TRUE(fs::exists(dir / "out" / "report.md"));
  // Links from the separate output folder point back into each run.
  std::ifstream hf(dir / "out" / "report.html");
  std::string html((std::istreambuf_iterator<char>(hf)), std::istreambuf_iterator<char>());
  EXPECT_NE(html.find("href=\"../b/candidates/"), std::string::npos);

  std::string c0 = "compare", c3 = "--html", c4 = (dir / "cmp.html").string(), c5 = "--json";
  char* cargv[] = {c0.data(), r1.data(), r2.data(), c3.data(), c4.data(), c5.data()};
  testing::internal::CaptureStdout();
  ASSERT_EQ(compare_main(6, cargv), 0);
  auto cj = nlohmann::json::parse(testing::internal::GetCapturedStdout());
  EXPECT_EQ(cj["columns"].size(), 4u);
  EXPECT_EQ(cj["versus"].size(), 3u);
  EXPECT_TRUE(fs::exists(dir / "cmp.html"));
  char* bad[] = {c0.data(), r1.data()};  // one run is not a comparison
  EXPECT_NE(compare_main(2, bad), 0);
  fs::remove_all(dir);
}
