// Tests the task model (harness/task.h): loading task.yaml with every field and
// default, the error messages for each class of mistake (file, line, field and what
// was expected, every problem of a file at once), shape evaluation and tolerances,
// and suite loading (all bad tasks reported, filters, order, duplicate names).
#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>

#include "crucible/philox.h"
#include "harness/error.h"
#include "harness/task.h"

namespace fs = std::filesystem;
using namespace crucible;

namespace {

const fs::path kData = fs::path(CRUCIBLE_TEST_DIR) / "data" / "tasks";

// A temporary folder, removed with everything in it.
class TempDir {
 public:
  TempDir() {
    std::string tmpl = (fs::temp_directory_path() / "crucible_task_XXXXXX").string();
    if (!mkdtemp(tmpl.data())) throw std::runtime_error("mkdtemp failed");
    path_ = tmpl;
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

void write(const fs::path& file, const std::string& text) {
  fs::create_directories(file.parent_path());
  std::ofstream(file) << text;
}

// Writes a task folder: task.yaml plus stub reference files.
fs::path make_task(const fs::path& dir, const std::string& yaml) {
  write(dir / "task.yaml", yaml);
  write(dir / "reference.cu", "// stub\n");
  write(dir / "reference.cpp", "// stub\n");
  return dir;
}

// Loads a task that must fail and returns the message.
std::string load_error(const fs::path& dir) {
  try {
    load_task(dir);
  } catch (const InputError& e) {
    return e.what();
  }
  ADD_FAILURE() << "task in " << dir << " loaded without error";
  return "";
}

std::string error_of(const std::string& yaml) {
  TempDir tmp;
  return load_error(make_task(tmp.path() / "t", yaml));
}

// Every line of the body below is one line of a minimal valid task; tests replace
// single lines, so the line numbers in assertions are those written here.
const char* kValid =
    "name: t\n"                                            // 1
    "level: 1\n"                                           // 2
    "summary: s\n"                                         // 3
    "inputs:\n"                                            // 4
    "  x: {dtype: f32, shape: [N]}\n"                      // 5
    "outputs:\n"                                           // 6
    "  y: {dtype: f32, shape: [N]}\n"                      // 7
    "tests:\n"                                             // 8
    "  - {N: 1}\n"                                         // 9
    "benchmarks:\n"                                        // 10
    "  - {N: 1024}\n"                                      // 11
    "reference: {gpu: reference.cu}\n";                    // 12

std::string with_line(int line, const std::string& replacement, const std::string& base = kValid) {
  std::string out, cur;
  int n = 0;
  for (char c : base) {
    cur += c;
    if (c == '\n') {
      out += (++n == line) ? replacement + "\n" : cur;
      cur.clear();
    }
  }
  return out;
}

#define EXPECT_HAS(msg, part) EXPECT_NE((msg).find(part), std::string::npos) << "missing \"" << (part) << "\" in:\n" << (msg)

size_t count_lines(const std::string& s) { return s.empty() ? 0 : std::count(s.begin(), s.end(), '\n') + 1; }

}  // namespace

// ---------------------------------------------------------------- good tasks

TEST(Task, GoodFixtureLoadsEveryField) {
  const Task t = load_task(kData / "good" / "relu");
  EXPECT_EQ(t.name, "relu");
  EXPECT_EQ(t.level, 1);
  EXPECT_EQ(t.summary, "Elementwise ReLU, y = max(x, 0)");
  EXPECT_EQ(t.description, "Apply ReLU to every element of x.\n");
  EXPECT_EQ(t.file, kData / "good" / "relu" / "task.yaml");
  ASSERT_EQ(t.inputs.size(), 1u);
  EXPECT_EQ(t.inputs[0].name, "x");
  EXPECT_EQ(t.inputs[0].dtype, Dtype::f32);
  ASSERT_EQ(t.inputs[0].shape.size(), 1u);
  EXPECT_EQ(t.inputs[0].shape[0].text(), "N");
  EXPECT_EQ(t.inputs[0].line, 8);
  EXPECT_EQ(t.inputs[0].init.dist, CRU_DIST_NORMAL);
  EXPECT_EQ(t.inputs[0].init.dist_name, "normal");
  EXPECT_EQ(t.inputs[0].init.p0.eval_real({}), 0.0);
  EXPECT_EQ(t.inputs[0].init.p1.eval_real({}), 1.0);
  ASSERT_EQ(t.outputs.size(), 1u);
  EXPECT_EQ(t.outputs[0].name, "y");
  EXPECT_EQ(t.outputs[0].line, 10);
  ASSERT_EQ(t.tests.size(), 2u);
  EXPECT_EQ(t.tests[0], (Params{{"N", 1}}));
  EXPECT_EQ(t.tests[1], (Params{{"N", 1000003}}));
  ASSERT_EQ(t.benchmarks.size(), 1u);
  EXPECT_EQ(t.benchmarks[0].at("N"), 1610612736);
  ASSERT_EQ(t.cpu_benchmarks.size(), 1u);
  EXPECT_EQ(t.cpu_benchmarks[0].at("N"), 4000000);
  EXPECT_EQ(t.tolerance_for(t.outputs[0]).atol, 0.0);
  EXPECT_EQ(t.tolerance_for(t.outputs[0]).rtol, 0.0);
  EXPECT_EQ(t.cost_bytes.eval({{{"N", 10}}, {}}), 80);
  EXPECT_EQ(t.cost_flops.eval({{{"N", 10}}, {}}), 10);
  EXPECT_EQ(t.references.at("gpu"), kData / "good" / "relu" / "reference.cu");
  EXPECT_EQ(t.references.at("cpu"), kData / "good" / "relu" / "reference.cpp");
  EXPECT_EQ(t.kernelbench, "level1/19_ReLU.py");
  EXPECT_EQ(t.solutions_dir, kData / "good" / "relu" / "solutions");
  EXPECT_EQ(t.expected, (std::map<std::string, std::string>{
                            {"good.cu", "pass"}, {"wrong.cu", "wrong_output"}, {"mutate.cu", "input_mutated"}}));
  EXPECT_TRUE(t.constants.empty());
}

TEST(Task, DefaultsConstantsAndPerOutputTolerance) {
  const Task t = load_task(kData / "good" / "gather_scale");
  EXPECT_EQ(t.level, 2);
  EXPECT_EQ(t.description, "");
  EXPECT_EQ(t.kernelbench, "");
  EXPECT_TRUE(t.expected.empty());
  EXPECT_TRUE(t.cpu_benchmarks.empty());
  EXPECT_EQ(t.references.count("gpu"), 0u);
  EXPECT_EQ(t.constants, (std::map<std::string, double>{{"alpha", 0.5}, {"eps", 1e-5}}));
  // Input order is file order: it decides each tensor's Philox stream.
  ASSERT_EQ(t.inputs.size(), 4u);
  EXPECT_EQ(t.inputs[0].name, "table");
  EXPECT_EQ(t.inputs[1].name, "idx");
  EXPECT_EQ(t.inputs[2].name, "mask");
  EXPECT_EQ(t.inputs[3].name, "bias");
  EXPECT_EQ(t.inputs[0].dtype, Dtype::f16);
  EXPECT_EQ(t.inputs[0].init.dist_name, "uniform");
  EXPECT_EQ(t.inputs[0].init.dist, CRU_DIST_UNIFORM);
  EXPECT_EQ(t.inputs[0].init.p0.eval_real({}), -1.0);
  // randint's bound is an expression over params.
  EXPECT_EQ(t.inputs[1].init.dist, CRU_DIST_RANDINT);
  EXPECT_EQ(t.inputs[1].init.p1.eval({{{"V", 7}}, {}}), 7);
  // bool with no init: bernoulli(0.5).
  EXPECT_EQ(t.inputs[2].dtype, Dtype::boolean);
  EXPECT_EQ(t.inputs[2].init.dist_name, "bernoulli");
  EXPECT_EQ(t.inputs[2].init.dist, CRU_DIST_BERNOULLI);
  EXPECT_EQ(t.inputs[2].init.p0.eval_real({}), 0.5);
  // constant taking a task constant.
  EXPECT_EQ(t.inputs[3].init.dist, CRU_DIST_CONSTANT);
  EXPECT_EQ(t.inputs[3].init.p0.eval_real({{}, t.constants}), 0.5);
  // Param values may be constant expressions.
  EXPECT_EQ(t.tests[1].at("B"), 4096);
  // Per-output tolerance: atol given, rtol from the f32 default; hits (i32) exact.
  EXPECT_EQ(t.tolerance_for(t.outputs[0]).atol, 1e-3);
  EXPECT_EQ(t.tolerance_for(t.outputs[0]).rtol, 1e-4);
  EXPECT_EQ(t.tolerance_for(t.outputs[1]).atol, 0.0);
  EXPECT_EQ(t.tolerance_for(t.outputs[1]).rtol, 0.0);
  // No cost given: both 0.
  EXPECT_EQ(t.cost_bytes.eval({}), 0);
  EXPECT_EQ(t.cost_flops.eval({}), 0);
}

TEST(Task, DefaultInitByDtype) {
  std::string yaml = with_line(5, "  x: {dtype: i32, shape: [N]}\n  h: {dtype: bf16, shape: [N]}");
  TempDir tmp;
  const Task t = load_task(make_task(tmp.path() / "t", yaml));
  ASSERT_EQ(t.inputs.size(), 2u);
  EXPECT_EQ(t.inputs[0].init.dist_name, "randint");
  EXPECT_EQ(t.inputs[0].init.p0.eval({}), 0);
  EXPECT_EQ(t.inputs[0].init.p1.eval({}), 100);
  EXPECT_EQ(t.inputs[1].init.dist_name, "normal");
  EXPECT_EQ(t.inputs[1].init.p0.eval_real({}), 0.0);
  EXPECT_EQ(t.inputs[1].init.p1.eval_real({}), 1.0);
}

TEST(Task, DefaultTolerances) {
  EXPECT_EQ(default_tolerance(Dtype::f32).atol, 1e-4);
  EXPECT_EQ(default_tolerance(Dtype::f32).rtol, 1e-4);
  EXPECT_EQ(default_tolerance(Dtype::f16).atol, 1e-2);
  EXPECT_EQ(default_tolerance(Dtype::bf16).rtol, 1e-2);
  EXPECT_EQ(default_tolerance(Dtype::f64).atol, 1e-8);
  for (Dtype d : {Dtype::i32, Dtype::i64, Dtype::u8, Dtype::boolean}) {
    EXPECT_EQ(default_tolerance(d).atol, 0.0);
    EXPECT_EQ(default_tolerance(d).rtol, 0.0);
  }
  // A task without tolerance: each output gets its dtype's default.
  TempDir tmp;
  const Task t = load_task(make_task(tmp.path() / "t", with_line(7, "  y: {dtype: f16, shape: [N]}")));
  EXPECT_EQ(t.tolerance_for(t.outputs[0]).atol, 1e-2);
}

TEST(Task, EvalShapeAndElementCount) {
  const Task t = load_task(kData / "good" / "gather_scale");
  EXPECT_EQ(t.eval_shape(t.inputs[0], {{"V", 7}, {"D", 3}, {"B", 5}}), (std::vector<int64_t>{7, 3}));
  // hits: [ceil_div(B, 32)] is one dimension although YAML split it at the comma.
  ASSERT_EQ(t.outputs[1].shape.size(), 1u);
  EXPECT_EQ(t.eval_shape(t.outputs[1], {{"V", 7}, {"D", 3}, {"B", 65}}), (std::vector<int64_t>{3}));
  EXPECT_EQ(t.element_count(t.outputs[0], {{"V", 7}, {"D", 3}, {"B", 5}}), 15u);
  // Overflow of the element count is an error, not a wrapped size.
  const Params huge = {{"V", int64_t(1) << 40}, {"D", int64_t(1) << 40}, {"B", 1}};
  try {
    t.element_count(t.inputs[0], huge);
    FAIL() << "no overflow error";
  } catch (const InputError& e) {
    EXPECT_HAS(std::string(e.what()), "task.yaml:7: table");
    EXPECT_HAS(std::string(e.what()), "overflow");
  }
  // A dimension below 1 and an unknown param are errors naming the tensor.
  EXPECT_THROW(t.eval_shape(t.inputs[0], {{"V", 0}, {"D", 3}, {"B", 5}}), InputError);
  try {
    t.eval_shape(t.inputs[0], {{"D", 3}});
    FAIL() << "no error for a missing param";
  } catch (const InputError& e) {
    EXPECT_HAS(std::string(e.what()), "table: shape[0]");
    EXPECT_HAS(std::string(e.what()), "V");
  }
}

// ---------------------------------------------------------------- errors, one class each

TEST(TaskErrors, UnknownKeyListsAllowedKeys) {
  const std::string m = error_of(with_line(3, "summary: s\ncolour: red"));
  EXPECT_HAS(m, "task.yaml:4: colour: unknown key 'colour'; allowed keys: name, level, summary");
  const std::string m2 = error_of(with_line(5, "  x: {dtype: f32, shape: [N], shpe: [N]}"));
  EXPECT_HAS(m2, "task.yaml:5: inputs.x.shpe: unknown key 'shpe'; allowed keys: dtype, shape, init");
  // Outputs take no init.
  const std::string m3 = error_of(with_line(7, "  y: {dtype: f32, shape: [N], init: {dist: normal}}"));
  EXPECT_HAS(m3, "task.yaml:7: outputs.y.init: unknown key 'init'; allowed keys: dtype, shape");
}

TEST(TaskErrors, MissingRequiredField) {
  const std::string m = error_of(with_line(3, "# no summary"));
  EXPECT_HAS(m, "task.yaml:1: summary: missing required field 'summary'");
  const std::string m2 = error_of(with_line(5, "  x: {dtype: f32}"));
  EXPECT_HAS(m2, "task.yaml:5: inputs.x.shape: missing required field 'shape' (a list of dimension expressions");
  const std::string m3 = error_of(with_line(12, ""));
  EXPECT_HAS(m3, "reference: missing required field 'reference'");
}

TEST(TaskErrors, BadDtypeListsValidOnes) {
  const std::string m = load_error(kData / "bad" / "bad_dtype");
  EXPECT_HAS(m, (kData / "bad" / "bad_dtype" / "task.yaml").string() + ":6: inputs.x.dtype: unknown dtype 'float32'");
  EXPECT_HAS(m, "valid dtypes: f32, f16, bf16, f64, i32, i64, u8, bool");
}

TEST(TaskErrors, ShapeUsingUnknownParam) {
  const std::string m = error_of(with_line(7, "  y: {dtype: f32, shape: [N, M]}"));
  EXPECT_HAS(m, "task.yaml:7: outputs.y.shape[1]: 'M' uses unknown param 'M'");
  EXPECT_HAS(m, "params (the keys of tests and benchmarks): N");
}

TEST(TaskErrors, ParamSetsMustDefineTheSameNames) {
  const std::string m = error_of(with_line(11, "  - {N: 1024, K: 2}"));
  EXPECT_HAS(m, "task.yaml:11: benchmarks[0]: every test and benchmark set must define the same params as tests[0] (N); extra: K");
  const std::string m2 = error_of(with_line(9, "  - {N: 1}\n  - {M: 3}"));
  EXPECT_HAS(m2, "task.yaml:10: tests[1]:");
  EXPECT_HAS(m2, "missing: N; extra: M");
}

TEST(TaskErrors, BadExpressionPassesExprErrorThrough) {
  const std::string m = error_of(with_line(5, "  x: {dtype: f32, shape: [N +]}"));
  EXPECT_HAS(m, "task.yaml:5: inputs.x.shape[0]: bad expression: ");
  EXPECT_HAS(m, "column");  // ExprError's own text says where in the expression
  const std::string m2 = error_of(with_line(12, "reference: {gpu: reference.cu}\ncost: {bytes: 8 * * N}"));
  EXPECT_HAS(m2, "task.yaml:13: cost.bytes: bad expression: ");
  // A comma inside a flow mapping splits an expression: the message says to quote it.
  const std::string m4 = error_of(with_line(5, "  x: {dtype: i32, shape: [N], init: {dist: randint, low: 0, high: min(N, 10)}}"));
  EXPECT_HAS(m4, "task.yaml:5: inputs.x.init.high: bad expression: ");
  EXPECT_HAS(m4, "quote it");
  // A param value that is not an integer.
  const std::string m3 = error_of(with_line(9, "  - {N: 1.5}"));
  EXPECT_HAS(m3, "task.yaml:9: tests[0].N: expected an integer");
}

TEST(TaskErrors, MissingReferenceFile) {
  const std::string m = error_of(with_line(12, "reference:\n  gpu: reference.cu\n  cpu: nothere.cpp"));
  EXPECT_HAS(m, "task.yaml:14: reference.cpu: reference file 'nothere.cpp' not found; expected a file in the task folder");
  const std::string m2 = error_of(with_line(12, "reference: {hip: reference.cu}"));
  EXPECT_HAS(m2, "task.yaml:12: reference.hip: unknown key 'hip'; allowed keys: gpu, cpu");
}

TEST(TaskErrors, NegativeTolerance) {
  const std::string m = error_of(with_line(12, "reference: {gpu: reference.cu}\ntolerance: {atol: -1e-3, rtol: 0}"));
  EXPECT_HAS(m, "task.yaml:13: tolerance.atol: expected a non-negative tolerance, got -1e-3");
  const std::string m2 = error_of(with_line(12, "reference: {gpu: reference.cu}\ntolerance:\n  y: {rtol: -2}"));
  EXPECT_HAS(m2, "task.yaml:14: tolerance.y.rtol: expected a non-negative tolerance, got -2");
  const std::string m3 = error_of(with_line(12, "reference: {gpu: reference.cu}\ntolerance: {z: {atol: 1}}"));
  EXPECT_HAS(m3, "task.yaml:13: tolerance.z: unknown key 'z'; expected atol and rtol, or output names (y)");
}

TEST(TaskErrors, EmptyTests) {
  const std::string m = error_of(with_line(9, "# none", with_line(8, "tests: []")));
  EXPECT_HAS(m, "task.yaml:8: tests: is empty; expected at least one parameter set, e.g. - {N: 1}");
  const std::string m2 = error_of(with_line(9, "# none", with_line(8, "# no tests")));
  EXPECT_HAS(m2, "task.yaml:1: tests: missing required field 'tests'");
}

TEST(TaskErrors, DuplicateTensorNamesBetweenInputsAndOutputs) {
  const std::string m = error_of(with_line(7, "  x: {dtype: f32, shape: [N]}"));
  EXPECT_HAS(m, "task.yaml:7: outputs.x: duplicate tensor name 'x': already an input (line 5)");
  // A key repeated inside one mapping is caught too (yaml-cpp would keep both).
  const std::string m2 = error_of(with_line(5, "  x: {dtype: f32, shape: [N]}\n  x: {dtype: f16, shape: [N]}"));
  EXPECT_HAS(m2, "task.yaml:6: inputs.x: duplicate key 'x' (line 5)");
}

TEST(TaskErrors, YamlSyntaxErrorGivesLine) {
  const std::string m = load_error(kData / "bad" / "syntax");
  EXPECT_HAS(m, (kData / "bad" / "syntax" / "task.yaml").string() + ":");
  EXPECT_HAS(m, "(syntax): YAML syntax error");
  // yaml-cpp reports the unclosed flow mapping at line 6 or where it notices (7).
  EXPECT_TRUE(m.find("task.yaml:6:") != std::string::npos || m.find("task.yaml:7:") != std::string::npos) << m;
}

TEST(TaskErrors, InitDistributionsChecked) {
  const std::string m = error_of(with_line(5, "  x: {dtype: f32, shape: [N], init: {dist: gaussian}}"));
  EXPECT_HAS(m, "task.yaml:5: inputs.x.init.dist: unknown distribution 'gaussian'; valid: normal, uniform, randint, bernoulli, constant");
  const std::string m2 = error_of(with_line(5, "  x: {dtype: f32, shape: [N], init: {dist: uniform, mean: 0}}"));
  EXPECT_HAS(m2, "inputs.x.init.mean: unknown key 'mean'; allowed keys: dist, low, high");
  const std::string m3 = error_of(with_line(5, "  x: {dtype: i32, shape: [N], init: {dist: normal}}"));
  EXPECT_HAS(m3, "inputs.x.init.dist: distribution 'normal' does not fit dtype i32; expected one of randint, bernoulli, constant");
  const std::string m4 = error_of(with_line(5, "  x: {dtype: f32, shape: [N], init: {dist: normal, std: -1}}"));
  EXPECT_HAS(m4, "task.yaml:5: inputs.x.init: normal needs std >= 0");
  // randint bounds over params are checked for every set: high = N - 1 is empty for N = 1.
  const std::string m5 = error_of(with_line(5, "  x: {dtype: i64, shape: [N], init: {dist: randint, low: 0, high: N - 1}}"));
  EXPECT_HAS(m5, "inputs.x.init: randint needs low < high (high is exclusive), got [0, 0) for tests[0] {N: 1}");
  EXPECT_EQ(m5.find("benchmarks[0]"), std::string::npos) << m5;
  const std::string m6 = error_of(with_line(5, "  x: {dtype: u8, shape: [N], init: {dist: randint, low: 0, high: 300}}"));
  EXPECT_HAS(m6, "does not fit dtype u8");
  const std::string m7 = error_of(with_line(5, "  x: {dtype: f32, shape: [N], init: {dist: constant}}"));
  EXPECT_HAS(m7, "inputs.x.init.value: missing required field 'value' for dist constant");
}

TEST(TaskErrors, ShapeEvaluatedForEverySet) {
  const std::string m = error_of(with_line(5, "  x: {dtype: f32, shape: [N - 1]}"));
  EXPECT_HAS(m, "task.yaml:5: inputs.x.shape[0]: 'N - 1' is 0 for tests[0] {N: 1}; expected a dimension >= 1");
  const std::string m2 = error_of(with_line(5, "  x: {dtype: f64, shape: [N, N, N, N, N, N, N]}"));
  EXPECT_HAS(m2, "task.yaml:5: inputs.x: size overflows 64 bits for benchmarks[0] {N: 1024}");
}

TEST(TaskErrors, NameCollisions) {
  const std::string m = error_of(with_line(5, "  N: {dtype: f32, shape: [N]}"));
  EXPECT_HAS(m, "task.yaml:5: inputs.N: tensor name 'N' is also a param");
  const std::string m2 = error_of(with_line(9, "  - {sm_count: 1}"));
  EXPECT_HAS(m2, "task.yaml:9: tests[0].sm_count: expected a param name (an identifier, not a device fact or function)");
}

TEST(TaskErrors, TopLevelNotAMapping) {
  const std::string m = error_of("- just\n- a list\n");
  EXPECT_HAS(m, "task.yaml:1: (top level): expected a mapping (the task's fields), got a list");
}

TEST(TaskErrors, MissingTaskFile) {
  TempDir tmp;
  const std::string m = load_error(tmp.path());
  EXPECT_HAS(m, "task.yaml:0: task.yaml: file not found");
}

TEST(TaskErrors, EveryProblemInAFileIsListed) {
  const std::string m = load_error(kData / "bad" / "several");
  const std::string f = (kData / "bad" / "several" / "task.yaml").string();
  EXPECT_HAS(m, f + ":6: inputs.x.colour: unknown key 'colour'");
  EXPECT_HAS(m, f + ":6: inputs.x.shape[1]: 'M' uses unknown param 'M'");
  EXPECT_HAS(m, f + ":9: tests: is empty");
  EXPECT_HAS(m, f + ":12: tolerance.atol: expected a non-negative tolerance");
  EXPECT_HAS(m, f + ":13: reference.gpu: reference file 'missing.cu' not found");
  EXPECT_EQ(count_lines(m), 5u) << m;
  // Ordered by line.
  EXPECT_LT(m.find(":9: tests"), m.find(":12: tolerance"));
}

TEST(TaskErrors, ExpectedYamlChecked) {
  TempDir tmp;
  const fs::path dir = make_task(tmp.path() / "t", kValid);
  write(dir / "solutions" / "good.cu", "// stub\n");
  write(dir / "solutions" / "expected.yaml", "good.cu: passs\nghost.cu: pass\n");
  const std::string m = load_error(dir);
  const std::string f = (dir / "solutions" / "expected.yaml").string();
  EXPECT_HAS(m, f + ":1: good.cu: unknown expectation 'passs'; expected a verdict (pass, format_error");
  EXPECT_HAS(m, "or a flag (input_mutated");
  EXPECT_HAS(m, f + ":2: ghost.cu: no such solution file");
  write(dir / "solutions" / "expected.yaml", "good.cu: [pass\n");
  EXPECT_HAS(load_error(dir), f + ":");
  write(dir / "solutions" / "expected.yaml", "good.cu: nondeterministic\n");
  EXPECT_EQ(load_task(dir).expected.at("good.cu"), "nondeterministic");
}

// ---------------------------------------------------------------- suites

TEST(Suite, ReportsEveryBadTaskAndSortsGoodOnes) {
  const SuiteLoad s = load_suite(kData);
  ASSERT_EQ(s.tasks.size(), 2u);
  EXPECT_EQ(s.tasks[0].name, "relu");          // level 1
  EXPECT_EQ(s.tasks[1].name, "gather_scale");  // level 2
  ASSERT_EQ(s.errors.size(), 3u);
  std::string all;
  for (const auto& e : s.errors) all += e + "\n";
  EXPECT_HAS(all, "bad_dtype/task.yaml:6: inputs.x.dtype: unknown dtype");
  EXPECT_HAS(all, "syntax/task.yaml:");
  EXPECT_HAS(all, "several/task.yaml:9: tests: is empty");
}

TEST(Suite, FiltersByGlobAndLevel) {
  SuiteFilter f;
  f.name_glob = "rel*";
  SuiteLoad s = load_suite(kData, f);
  ASSERT_EQ(s.tasks.size(), 1u);
  EXPECT_EQ(s.tasks[0].name, "relu");
  // Bad tasks whose name the glob excludes are not reported; one whose name is
  // unreadable (the syntax error) still is.
  ASSERT_EQ(s.errors.size(), 1u) << s.errors[0];
  EXPECT_HAS(s.errors[0], "syntax/task.yaml");

  f.name_glob = "*";
  f.level = 2;
  s = load_suite(kData, f);
  ASSERT_EQ(s.tasks.size(), 1u);
  EXPECT_EQ(s.tasks[0].name, "gather_scale");
  ASSERT_EQ(s.errors.size(), 1u);  // the level-1 bad tasks are filtered out; syntax is not
  EXPECT_HAS(s.errors[0], "syntax/task.yaml");

  f.name_glob = "nothing*";
  f.level.reset();
  s = load_suite(kData / "good", f);
  EXPECT_TRUE(s.tasks.empty());
  EXPECT_TRUE(s.errors.empty());
}

TEST(Suite, SortsByLevelThenNameAndFindsNestedFolders) {
  TempDir tmp;
  auto task = [&](const std::string& rel, const std::string& name, int level) {
    std::string y = with_line(1, "name: " + name);
    y = std::string(y).replace(y.find("level: 1"), 8, "level: " + std::to_string(level));
    make_task(tmp.path() / rel, y);
  };
  task("z/b", "beta", 1);
  task("a/deep/er/c", "alpha", 1);
  task("m", "aardvark", 3);
  task(".hidden/x", "hidden", 1);
  const SuiteLoad s = load_suite(tmp.path());
  ASSERT_TRUE(s.errors.empty()) << s.errors[0];
  ASSERT_EQ(s.tasks.size(), 3u);
  EXPECT_EQ(s.tasks[0].name, "alpha");
  EXPECT_EQ(s.tasks[1].name, "beta");
  EXPECT_EQ(s.tasks[2].name, "aardvark");
}

TEST(Suite, DuplicateNamesAreAnError) {
  TempDir tmp;
  make_task(tmp.path() / "one", with_line(1, "name: same"));
  make_task(tmp.path() / "two", with_line(1, "name: same"));
  make_task(tmp.path() / "three", with_line(1, "name: other"));
  const SuiteLoad s = load_suite(tmp.path());
  ASSERT_EQ(s.tasks.size(), 1u);
  EXPECT_EQ(s.tasks[0].name, "other");
  ASSERT_EQ(s.errors.size(), 1u);
  EXPECT_HAS(s.errors[0], "one/task.yaml:1: name: duplicate task name 'same'");
  EXPECT_HAS(s.errors[0], "two/task.yaml:1");
}

TEST(Suite, MissingRootIsAnError) {
  EXPECT_THROW(load_suite(kData / "no_such_folder"), InputError);
}

// The project's own suites (each folder of tasks/: quickstart, level1, ...) must load
// cleanly: a task author's mistake fails here.
TEST(Suite, ProjectSuitesLoad) {
  const fs::path tasks = fs::path(CRUCIBLE_TEST_DIR).parent_path() / "tasks";
  if (!fs::is_directory(tasks)) GTEST_SKIP() << "no tasks/ folder";
  size_t count = 0;
  for (const auto& entry : fs::directory_iterator(tasks)) {
    if (!entry.is_directory()) continue;
    const SuiteLoad s = load_suite(entry.path());
    std::string all;
    for (const auto& e : s.errors) all += e + "\n";
    EXPECT_TRUE(s.errors.empty()) << entry.path() << ":\n" << all;
    count += s.tasks.size();
  }
  EXPECT_GT(count, 0u);
}
