// Tests prompt rendering: the template engine (values, sections, inverted sections,
// unknown names), the task prompt built from a hand-made Task and DeviceFacts (what it
// must say: description, tensors with dtypes, shape expressions and timed sizes,
// tolerance, device facts, the candidate format, the optional reference and example),
// and feedback from evaluation results (compile log capped, plan error, first mismatch
// with expected/actual, timings, speedup, % of speed of light, flags).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "agents/prompt_builder.h"
#include "harness/error.h"

using namespace crucible;
using json = nlohmann::json;

namespace {

bool has(const std::string& text, const std::string& what) { return text.find(what) != std::string::npos; }

Task relu_task(const std::filesystem::path& dir) {
  Task t;
  t.dir = dir;
  t.name = "relu";
  t.level = 1;
  t.summary = "Elementwise ReLU, y = max(x, 0)";
  t.description = "Apply ReLU to every element of x.";
  TensorSpec x;
  x.name = "x";
  x.dtype = Dtype::f32;
  x.shape = {Expr::parse("N")};
  x.init.dist_name = "normal";
  x.init.p0 = Expr::parse("0");
  x.init.p1 = Expr::parse("1");
  TensorSpec y;
  y.name = "y";
  y.dtype = Dtype::f32;
  y.shape = {Expr::parse("N")};
  t.inputs = {x};
  t.outputs = {y};
  t.tests = {{{"N", 1}}, {{"N", 1000003}}};
  t.benchmarks = {{{"N", 1610612736}}};
  t.cpu_benchmarks = {{{"N", 4194304}}};
  t.tolerance["y"] = Tolerance{1e-5, 2e-5};
  t.cost_bytes = Expr::parse("8 * N");
  t.cost_flops = Expr::parse("N");
  t.constants["eps"] = 1e-5;
  t.references["gpu"] = "reference.cu";
  t.references["cpu"] = "reference.cpp";
  return t;
}

DeviceFacts h200() {
  DeviceFacts d;
  d.backend = "cuda";
  d.name = "NVIDIA H200";
  d.arch = "sm_90";
  d.sm_count = 132;
  d.warp_size = 32;
  d.max_threads_per_block = 1024;
  d.max_smem_per_block = 49152;
  d.max_smem_per_block_optin = 232448;
  d.l2_bytes = 52428800;
  d.supports_cluster = true;
  d.supports_tma = true;
  d.peak_bytes_per_s = 4.2e12;
  return d;
}

class PromptTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir = std::filesystem::temp_directory_path() / ("cru_prompt_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    std::ofstream(dir / "reference.cu") << "extern \"C\" __global__ void relu_ref() {}\n";
    std::ofstream(dir / "reference.cpp") << "extern \"C\" void relu_ref_cpu() {}\n";
  }
  void TearDown() override { std::filesystem::remove_all(dir); }
  std::filesystem::path dir;
};

}  // namespace

TEST(PromptTemplate, ValuesSectionsAndInvertedSections) {
  const std::map<std::string, std::string> v = {{"a", "A"}, {"empty", ""}, {"on", "1"}};
  EXPECT_EQ(render_template("x {{a}} y", v, "t"), "x A y");
  EXPECT_EQ(render_template("{{#on}}[{{a}}]{{/on}}{{#empty}}no{{/empty}}", v, "t"), "[A]");
  EXPECT_EQ(render_template("{{^empty}}shown{{/empty}}{{^on}}hidden{{/on}}", v, "t"), "shown");
  EXPECT_EQ(render_template("start\n{{#on}}\nline\n{{/on}}\nend", v, "t"), "start\nline\nend");
  EXPECT_EQ(render_template("start\n{{#empty}}\nline\n{{/empty}}\nend", v, "t"), "start\nend");
  EXPECT_EQ(render_template("{{#on}}a{{#on}}b{{/on}}c{{/on}}", v, "t"), "abc");
}

TEST(PromptTemplate, UnknownNamesAndBrokenTagsAreErrors) {
  try {
    render_template("{{nope}}", {}, "task.md");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_TRUE(has(e.what(), "task.md"));
    EXPECT_TRUE(has(e.what(), "{{nope}}"));
  }
  EXPECT_THROW(render_template("{{#a}}never closed", {{"a", "1"}}, "t"), InputError);
  EXPECT_THROW(render_template("{{a", {{"a", "1"}}, "t"), InputError);
}

TEST_F(PromptTest, TaskPromptSaysWhatTheModelNeeds) {
  const auto t = relu_task(dir);
  PromptOptions o;
  const std::string p = render_task_prompt(t, h200(), o);
  EXPECT_TRUE(has(p, "# Task: relu"));
  EXPECT_TRUE(has(p, "Apply ReLU to every element of x."));
  EXPECT_TRUE(has(p, "`x`: f32 (float), shape [N]"));
  EXPECT_TRUE(has(p, "normal(0, 1)"));
  EXPECT_TRUE(has(p, "`y`: f32"));
  EXPECT_TRUE(has(p, "[1610612736] = 6 GiB")) << p;  // timed size, evaluated
  EXPECT_TRUE(has(p, "{N: 1}, {N: 1000003}"));
  EXPECT_TRUE(has(p, "Timed at: {N: 1610612736}"));
  EXPECT_TRUE(has(p, "`y`: atol 1e-05, rtol 2e-05"));
  EXPECT_TRUE(has(p, "eps = 1e-05"));
  EXPECT_TRUE(has(p, "bytes = 8 * N"));
  EXPECT_TRUE(has(p, "NVIDIA H200"));
  EXPECT_TRUE(has(p, "sm_count = 132"));
  EXPECT_TRUE(has(p, "232448 with opt-in"));
  EXPECT_TRUE(has(p, "/*@launch"));       // candidate format
  EXPECT_TRUE(has(p, "```cuda"));
  EXPECT_FALSE(has(p, "relu_ref"));       // reference off by default
  EXPECT_FALSE(has(p, "for illustration"));  // example off by default
  EXPECT_FALSE(has(p, "{{"));
  EXPECT_FALSE(has(p, "Goal:"));
}

TEST_F(PromptTest, OptionalPartsFollowTheOptions) {
  const auto t = relu_task(dir);
  PromptOptions o;
  o.include_reference = true;
  o.include_example = true;
  o.include_candidate_format = false;
  o.include_device_facts = false;
  o.goal = "a speedup of at least 2x";
  const std::string p = render_task_prompt(t, h200(), o);
  EXPECT_TRUE(has(p, "relu_ref()"));
  EXPECT_TRUE(has(p, "```cuda\nextern \"C\" __global__ void relu_ref"));
  EXPECT_TRUE(has(p, "for illustration"));
  EXPECT_TRUE(has(p, "relu4"));
  EXPECT_FALSE(has(p, "## Answer format"));
  EXPECT_FALSE(has(p, "NVIDIA H200"));
  EXPECT_TRUE(has(p, "Goal: a speedup of at least 2x."));
}

TEST_F(PromptTest, CpuFamilyUsesCppFormatCpuShapesAndCpuReference) {
  const auto t = relu_task(dir);
  PromptOptions o;
  o.backend_family = "cpu";
  o.include_reference = true;
  DeviceFacts d;
  d.backend = "cpu";
  d.name = "Test CPU";
  d.sm_count = 2;
  const std::string p = render_task_prompt(t, d, o);
  EXPECT_TRUE(has(p, "```cpp"));
  EXPECT_TRUE(has(p, "extern \"C\" void relu_ref_cpu"));
  EXPECT_TRUE(has(p, "Timed at: {N: 4194304}"));
  EXPECT_FALSE(has(p, "__global__ void scale"));  // the GPU format is left out
  EXPECT_FALSE(has(p, "warp_size = "));
  const std::string s = render_system_prompt(o);
  EXPECT_TRUE(has(s, "CPU"));
  EXPECT_FALSE(has(s, "{{"));
}

TEST(Feedback, CompileErrorShowsTheCappedLog) {
  std::string log;
  for (int i = 1; i <= 400; ++i) log += "candidate.cu(" + std::to_string(i) + "): error: identifier \"foo\" is undefined\n";
  PromptOptions o;
  o.compile_log_cap = 500;
  const std::string f = render_feedback(json{{"verdict", "compile_error"}, {"message", "compilation failed"}, {"compile_log", log}, {"flags", json::array()}}, o);
  EXPECT_TRUE(has(f, "compile_error"));
  EXPECT_TRUE(has(f, "did not compile"));
  EXPECT_TRUE(has(f, "candidate.cu(1): error: identifier \"foo\" is undefined"));
  EXPECT_FALSE(has(f, "candidate.cu(400)"));
  EXPECT_TRUE(has(f, "more bytes of compiler output cut"));
  EXPECT_LT(f.size(), 1500u);
  EXPECT_TRUE(has(f, "corrected file"));
}

TEST(Feedback, PlanErrorIsShown) {
  const std::string f = render_feedback(
      json{{"verdict", "format_error"}, {"message", "launch 1 (kernel relu4): args: 3 given, the kernel takes 4"}, {"plan_error", "args count"}}, {});
  EXPECT_TRUE(has(f, "launch 1 (kernel relu4): args: 3 given, the kernel takes 4"));
  EXPECT_TRUE(has(f, "Launch plan error: args count"));
}

TEST(Feedback, WrongOutputFromTheEvaluatorsJson) {
  // The shape of harness/eval_result.cpp's to_json.
  const json r = json::parse(R"({
    "verdict": "wrong_output",
    "message": "output y differs from the reference",
    "flags": ["unwritten_output"],
    "compile_log": "warning: unused variable",
    "speedup": null, "sol": null,
    "shapes": [
      {"params": {"N": 1}, "kind": "test", "ok": true,
       "checks": [{"output": "y", "ok": true, "count": 1, "mismatches": 0, "first_mismatch": -1}]},
      {"params": {"N": 1000003}, "kind": "test", "ok": false,
       "checks": [{"output": "y", "ok": false, "count": 1000003, "mismatches": 3, "nonfinite": 0, "unwritten": 3,
                   "max_abs_err": 2.5, "max_rel_err": 1.0, "first_mismatch": 1000000, "expected": 0.731, "actual": 0.0}]}
    ]})");
  const std::string f = render_feedback(r, {});
  EXPECT_TRUE(has(f, "wrong_output"));
  EXPECT_TRUE(has(f, "1 of 2 shapes failed"));
  EXPECT_TRUE(has(f, "shape {N: 1000003}: output `y`: 3 of 1000003 elements wrong"));
  EXPECT_TRUE(has(f, "first mismatch at flat index 1000000: expected 0.731, got 0"));
  EXPECT_TRUE(has(f, "3 elements never written"));
  EXPECT_FALSE(has(f, "{N: 1}:"));  // passing shapes are not listed
  EXPECT_TRUE(has(f, "unwritten_output (some output elements were never written)"));
  EXPECT_FALSE(has(f, "warning: unused variable"));  // the log only matters for compile/format errors
}

TEST(Feedback, PassWithTimingsSpeedupAndSpeedOfLight) {
  const json r = {
      {"verdict", "pass"},
      {"message", ""},
      {"flags", {"noisy_timing"}},
      {"speedup", 1.84},
      {"sol", 0.62},
      {"shapes",
       {{{"params", {{"N", 1610612736}}},
         {"kind", "benchmark"},
         {"ok", true},
         {"checks", json::array()},
         {"candidate", {{"median_ms", 1.532}}},
         {"reference", {{"median_ms", 2.819}}},
         {"speedup", {{"ratio", 1.84}, {"lo", 1.80}, {"hi", 1.88}}},
         {"sol", 0.62}}}}};
  PromptOptions o;
  o.goal = "speedup >= 2";
  const std::string f = render_feedback(r, o);
  EXPECT_TRUE(has(f, "Your kernel is correct."));
  EXPECT_TRUE(has(f, "your kernel 1.532 ms, reference 2.819 ms, speedup 1.84x (95% CI 1.8-1.88), 62% of speed of light")) << f;
  EXPECT_TRUE(has(f, "Overall speedup over the reference (geometric mean of medians): 1.84x; speed of light reached: 62%"));
  EXPECT_TRUE(has(f, "noisy_timing"));
  EXPECT_TRUE(has(f, "Make it faster"));
  EXPECT_TRUE(has(f, "(goal: speedup >= 2)"));
  EXPECT_FALSE(has(f, "Correctness:"));
}

TEST(Feedback, FlatShapeForm) {
  const json r = {{"verdict", "wrong_output"},
                  {"shapes", {{{"params", {{"M", 7}, {"N", 5}}}, {"mismatches", 2}, {"count", 35}, {"max_abs_err", 0.5}, {"max_rel_err", 0.25},
                               {"first_mismatch", 12}, {"expected", 1.5}, {"actual", 2.0}, {"candidate_ms", 0.004}, {"reference_ms", 0.008}, {"speedup", 2.0}}}}};
  const std::string f = render_feedback(r, {});
  EXPECT_TRUE(has(f, "shape {M: 7, N: 5}: 2 of 35 elements wrong (max abs err 0.5, max rel err 0.25); first mismatch at flat index 12: expected 1.5, got 2"));
  EXPECT_TRUE(has(f, "your kernel 4.00 us, reference 8.00 us, speedup 2x"));
}

TEST(Feedback, AgentFormatErrorMessageGoesBack) {
  const std::string msg = "no fenced code block found; answer with one ```cuda block containing the kernels and the /*@launch ... @*/ plan";
  const std::string f = render_feedback(json{{"verdict", "format_error"}, {"message", msg}}, {});
  EXPECT_TRUE(has(f, msg));
  EXPECT_FALSE(has(f, "{{"));
}
