// Tests the PyTorch baselines (harness/baselines.h): loading a baselines file and its
// errors (file, task and field named), which file applies to which device (never one
// timed on another GPU), the speedups over eager and torch.compile at exactly the
// baseline's shape, the labelled record fields, the real tasks/baselines/h200.json, and
// the report metrics computed from those fields (fast_p and geomean over eager, over
// the tasks that have a baseline only).
#include <cmath>
#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "harness/baselines.h"
#include "harness/error.h"
#include "harness/report/metrics.h"
#include "harness/report/report_render.h"
#include "harness/task.h"

using namespace crucible;
namespace fs = std::filesystem;

namespace {

struct TempDir {
  fs::path p;
  TempDir() {
    p = fs::temp_directory_path() / ("crucible_baselines_" + std::to_string(::getpid()) + "_" +
                                     std::to_string(reinterpret_cast<uintptr_t>(this)));
    fs::remove_all(p);
    fs::create_directories(p);
  }
  ~TempDir() { fs::remove_all(p); }
};

void write(const fs::path& f, const std::string& text) {
  fs::create_directories(f.parent_path());
  std::ofstream(f) << text;
}

std::string load_error(const fs::path& f) {
  try {
    BaselineTable::load(f);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

// A passing result timed at one benchmark shape with the given candidate median.
EvalResult passed_at(std::map<std::string, int64_t> params, double median_ms) {
  EvalResult r;
  r.verdict = Verdict::pass;
  ShapeResult t;
  t.kind = "test";
  t.params = {{"N", 7}};
  r.shapes.push_back(t);
  ShapeResult b;
  b.kind = "benchmark";
  b.params = std::move(params);
  SampleSummary s;
  s.samples = 10;
  s.median = median_ms;
  b.candidate = s;
  r.shapes.push_back(b);
  return r;
}

}  // namespace

TEST(Baselines, LoadsTasksWithShapesAndOptionalCompileTime) {
  TempDir d;
  write(d.p / "h200.json", R"({"relu": {"eager_ms": 4.0, "compile_ms": 2.0, "shape": {"N": 1024}},
                               "gemm": {"eager_ms": 1.5, "shape": {"M": 64, "N": 32}}})");
  BaselineTable t = BaselineTable::load(d.p / "h200.json");
  EXPECT_EQ(t.size(), 2u);
  ASSERT_NE(t.find("relu"), nullptr);
  EXPECT_DOUBLE_EQ(t.find("relu")->eager_ms, 4.0);
  EXPECT_DOUBLE_EQ(*t.find("relu")->compile_ms, 2.0);
  EXPECT_FALSE(t.find("gemm")->compile_ms.has_value());
  EXPECT_EQ(t.find("gemm")->shape, (std::map<std::string, int64_t>{{"M", 64}, {"N", 32}}));
  EXPECT_EQ(t.find("softmax"), nullptr);
}

TEST(Baselines, MalformedFilesNameTheFileTaskAndField) {
  TempDir d;
  write(d.p / "a.json", R"({"relu": {"eager_ms": -1, "shape": {"N": 4}}})");
  EXPECT_NE(load_error(d.p / "a.json").find("relu.eager_ms"), std::string::npos) << load_error(d.p / "a.json");
  write(d.p / "b.json", R"({"relu": {"eager_ms": 1, "shape": {"N": 4.5}}})");
  EXPECT_NE(load_error(d.p / "b.json").find("relu.shape.N: expected an integer"), std::string::npos);
  write(d.p / "c.json", R"({"relu": {"eager_ms": 1}})");
  EXPECT_NE(load_error(d.p / "c.json").find("relu.shape"), std::string::npos);
  write(d.p / "d.json", R"({"relu": {"eager_ms": 1, "shape": {"N": 4})");
  std::string e = load_error(d.p / "d.json");
  EXPECT_NE(e.find((d.p / "d.json").string()), std::string::npos) << e;
  EXPECT_NE(e.find("not JSON"), std::string::npos) << e;
  EXPECT_NE(load_error(d.p / "missing.json").find("cannot read"), std::string::npos);
  write(d.p / "e.json", R"({"relu": {"eager_ms": 1, "compile_ms": "fast", "shape": {"N": 4}}})");
  EXPECT_NE(load_error(d.p / "e.json").find("relu.compile_ms"), std::string::npos);
}

TEST(Baselines, FileIsChosenByAWordOfTheDeviceName) {
  TempDir d;
  write(d.p / "baselines" / "h200.json", "{}");
  write(d.p / "baselines" / "mi300x.json", "{}");
  fs::create_directories(d.p / "level1");
  // A suite folder (tasks/level1) looks in its parent's baselines/ too.
  EXPECT_EQ(find_baselines(d.p / "level1", "NVIDIA H200"), d.p / "baselines" / "h200.json");
  EXPECT_EQ(find_baselines(d.p, "AMD Instinct MI300X"), d.p / "baselines" / "mi300x.json");
  // Another GPU, or the CPU backend, gets none: a baseline from another device is never used.
  EXPECT_FALSE(find_baselines(d.p / "level1", "NVIDIA H100 80GB HBM3").has_value());
  EXPECT_FALSE(find_baselines(d.p / "level1", "AMD EPYC 7B13 64-Core Processor").has_value());
  // Whole words only: "h2000" is not "h200".
  EXPECT_FALSE(find_baselines(d.p, "Some H2000").has_value());
  EXPECT_FALSE(find_baselines(d.p / "a" / "b", "NVIDIA H200").has_value());  // neither b/ nor a/ has baselines/
}

TEST(Baselines, SpeedupOnlyAtTheBaselineShapeAndOnlyWhenPassed) {
  Baseline b;
  b.eager_ms = 6.0;
  b.compile_ms = 3.0;
  b.shape = {{"N", 1000}};
  BaselineComparison c = compare_with_baseline(b, passed_at({{"N", 1000}}, 2.0));
  ASSERT_TRUE(c.speedup_vs_eager.has_value()) << c.note;
  EXPECT_DOUBLE_EQ(*c.speedup_vs_eager, 3.0);
  EXPECT_DOUBLE_EQ(*c.speedup_vs_compile, 1.5);
  EXPECT_TRUE(c.note.empty());

  BaselineComparison other = compare_with_baseline(b, passed_at({{"N", 999}}, 2.0));
  EXPECT_FALSE(other.speedup_vs_eager.has_value());
  EXPECT_NE(other.note.find("{N: 1000}"), std::string::npos) << other.note;
  EXPECT_NE(other.note.find("{N: 999}"), std::string::npos) << other.note;

  EvalResult wrong = passed_at({{"N", 1000}}, 2.0);
  wrong.verdict = Verdict::wrong_output;
  BaselineComparison w = compare_with_baseline(b, wrong);
  EXPECT_FALSE(w.speedup_vs_eager.has_value());
  EXPECT_NE(w.note.find("did not pass"), std::string::npos);
  EXPECT_DOUBLE_EQ(w.eager_ms, 6.0);
}

TEST(Baselines, RecordFieldsAreLabelledAndAbsentWithoutABaseline) {
  TempDir d;
  write(d.p / "h200.json", R"({"relu": {"eager_ms": 6.0, "shape": {"N": 1000}}})");
  BaselineTable t = BaselineTable::load(d.p / "h200.json");
  nlohmann::json rec = {{"task", "relu"}};
  add_baseline_fields(rec, "relu", passed_at({{"N", 1000}}, 4.0), &t);
  EXPECT_DOUBLE_EQ(rec["torch_eager_ms"].get<double>(), 6.0);
  EXPECT_DOUBLE_EQ(rec["speedup_vs_torch_eager"].get<double>(), 1.5);
  EXPECT_TRUE(rec["torch_compile_ms"].is_null());
  EXPECT_TRUE(rec["speedup_vs_torch_compile"].is_null());
  EXPECT_EQ(rec["baseline_file"], (d.p / "h200.json").string());
  EXPECT_FALSE(rec.contains("baseline_note"));

  nlohmann::json none = {{"task", "gemm"}};
  add_baseline_fields(none, "gemm", passed_at({{"N", 1000}}, 4.0), &t);
  EXPECT_FALSE(none.contains("torch_eager_ms"));
  add_baseline_fields(none, "relu", passed_at({{"N", 1000}}, 4.0), nullptr);
  EXPECT_FALSE(none.contains("torch_eager_ms"));
}

// The committed H200 file loads, and every entry names a task of the suite whose first
// benchmark shape is the shape it was timed at (else its speedups would never be given).
TEST(Baselines, CommittedH200FileMatchesTheSuitesBenchmarkShapes) {
  fs::path root = fs::path(CRUCIBLE_TEST_DIR).parent_path() / "tasks";
  BaselineTable t = BaselineTable::load(root / "baselines" / "h200.json");
  EXPECT_GE(t.size(), 60u);
  EXPECT_EQ(find_baselines(root / "level1", "NVIDIA H200"), root / "baselines" / "h200.json");
  int checked = 0;
  std::vector<std::string> stale;
  for (const char* level : {"level1", "level2", "level3"}) {
    SuiteLoad s = load_suite(root / level);
    for (auto& task : s.tasks) {
      const Baseline* b = t.find(task.name);
      if (!b || task.benchmarks.empty()) continue;
      ++checked;
      if (task.benchmarks.front() != b->shape) stale.push_back(task.name);
    }
  }
  EXPECT_GE(checked, 60);
  EXPECT_TRUE(stale.empty()) << stale.size() << " tasks' baselines were timed at another shape than their benchmark, first: "
                             << (stale.empty() ? "" : stale.front());
}

TEST(Baselines, MetricsOverEagerCountOnlyTasksWithABaseline) {
  auto rec = [](const std::string& task, int sample, const std::string& verdict, std::optional<double> sp,
                std::optional<double> eager_sp, bool has_baseline) {
    nlohmann::json j = {{"key", task + std::to_string(sample)}, {"task", task}, {"level", 1}, {"backend", "cuda"},
                        {"device", "NVIDIA H200"}, {"model", "m"}, {"verdict", verdict}, {"sample", sample}, {"round", 0},
                        {"speedup", sp ? nlohmann::json(*sp) : nlohmann::json(nullptr)}};
    if (has_baseline) {
      j["torch_eager_ms"] = 1.0;
      j["speedup_vs_torch_eager"] = eager_sp ? nlohmann::json(*eager_sp) : nlohmann::json(nullptr);
    }
    return record_from_json(j, "run");
  };
  std::vector<ReportRecord> rs = {
      rec("a", 0, "pass", 2.0, 0.5, true),        // faster than the reference, slower than eager
      rec("a", 1, "wrong_output", {}, {}, true),
      rec("b", 0, "pass", 1.2, 4.0, true),
      rec("b", 1, "pass", 0.9, 1.5, true),
      rec("c", 0, "pass", 3.0, {}, false),        // no baseline: not in the eager metrics
  };
  Metrics m = compute_metrics(rs);
  ASSERT_EQ(m.groups.size(), 1u);
  const GroupMetrics& g = m.groups[0];
  EXPECT_EQ(g.tasks, 3);
  EXPECT_EQ(g.eager_tasks, 2);
  // fast_1 over eager: task a 0/2, task b 2/2 → mean 0.5; over the reference: a 1/2, b 1/2, c 1/1.
  EXPECT_DOUBLE_EQ(g.fast_p_eager.at(1.0), 0.5);
  EXPECT_DOUBLE_EQ(g.fast_p_eager.at(0.0), (0.5 + 1.0) / 2);
  EXPECT_DOUBLE_EQ(g.fast_p.at(1.0), (0.5 + 0.5 + 1.0) / 3);
  EXPECT_NEAR(g.geomean_speedup_vs_eager, std::cbrt(0.5 * 4.0 * 1.5), 1e-12);
  // The best kernel's eager speedup is in the per-task cell and in the rendered report.
  EXPECT_DOUBLE_EQ(*m.tasks[1].cells.begin()->second.speedup_vs_eager, 4.0);
  std::string md = render_markdown(m, {});
  EXPECT_NE(md.find("## Over PyTorch eager"), std::string::npos);
  EXPECT_NE(md.find("2 of 3"), std::string::npos);
  EXPECT_NE(md.find("(eager 4.00x)"), std::string::npos);
  EXPECT_NE(headline_text(m).find("Over PyTorch eager"), std::string::npos);

  // Without any baseline the eager section is absent, not a table of dashes.
  Metrics plain = compute_metrics({rec("c", 0, "pass", 3.0, {}, false)});
  EXPECT_EQ(plain.groups[0].eager_tasks, 0);
  EXPECT_EQ(render_markdown(plain, {}).find("Over PyTorch eager"), std::string::npos);
}
