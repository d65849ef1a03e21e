// Tests the gaming audit (harness/audit): on the CPU backend every degenerate candidate
// (write nothing, zeros, constant, copy of an input, another seed's answer, NaN, input
// mutation) fails every quickstart task with a failing verdict; a deliberately gameable
// fixture (tests/data/audit: a mean of zero-mean data, loose tolerance) is flagged;
// the generated GPU candidates carry valid GPU launch plans; and a CI-sized audit
// (first 2 test shapes) of every suite folder under tasks/ finds no defect (timed).
#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <map>
#include <filesystem>
#include <iostream>
#include <set>
#include <sstream>

#include <unistd.h>

#include <nlohmann/json.hpp>

#include "harness/audit/audit.h"
#include "harness/audit/audit_cli.h"
#include "harness/audit/degenerate.h"
#include "harness/backend_registry.h"
#include "harness/launch_plan.h"
#include "harness/verdict.h"

using namespace crucible;
namespace fs = std::filesystem;

static const fs::path kRoot = fs::path(CRUCIBLE_TEST_DIR).parent_path();
static const std::string kExe = std::string(CRUCIBLE_BINARY_DIR) + "/crucible";

static std::string table(const AuditReport& r) {
  std::ostringstream o;
  print_audit_table(r, o);
  return o.str();
}

static AuditOptions cpu_options() {
  AuditOptions o;
  o.backend = "cpu";
  o.exe = kExe;
  o.jobs = 2;
  return o;
}

TEST(Audit, QuickstartHasNoDefectsAndEveryKindFails) {
  AuditReport r = audit_suite(kRoot / "tasks" / "quickstart", cpu_options());
  std::cout << table(r);
  ASSERT_GE(r.tasks, 5);
  EXPECT_TRUE(r.load_errors.empty());
  EXPECT_EQ(r.defects, 0) << table(r);
  EXPECT_EQ(r.errors, 0) << table(r);
  std::set<std::string> failed_kinds;
  for (auto& row : r.rows) {
    EXPECT_FALSE(row.defect) << row.task << " / " << row.kind;
    if (row.verdict == "n/a" || row.error) continue;
    auto v = parse_verdict(row.verdict);
    ASSERT_TRUE(v) << row.verdict;
    EXPECT_NE(*v, Verdict::pass) << row.task << " / " << row.kind;
    failed_kinds.insert(row.kind);
  }
  for (auto k : all_degenerate_kinds()) EXPECT_TRUE(failed_kinds.count(degenerate_name(k))) << degenerate_name(k);
  // The specific defences each kind meets, on a task where they apply (relu: f32 in, f32 out).
  for (auto& row : r.rows) {
    if (row.task != "relu") continue;
    auto has = [&](const char* f) { return std::find(row.flags.begin(), row.flags.end(), f) != row.flags.end(); };
    if (row.kind == "write_nothing") {
      EXPECT_TRUE(has(flag::unwritten_output)) << row.message;
    }
    if (row.kind == "nan_fill") {
      EXPECT_TRUE(has(flag::nan_output)) << row.message;
    }
    if (row.kind == "input_mutation") {
      EXPECT_TRUE(has(flag::input_mutated)) << row.message;
    }
    EXPECT_EQ(row.verdict, "wrong_output") << row.kind << ": " << row.message;
  }
}

TEST(Audit, FlagsTheGameableFixture) {
  AuditOptions o = cpu_options();
  o.kinds = {DegenerateKind::zeros, DegenerateKind::constant, DegenerateKind::other_seed, DegenerateKind::nan_fill};
  AuditReport r = audit_suite(kRoot / "tests" / "data" / "audit", o);
  std::cout << table(r);
  ASSERT_EQ(r.tasks, 1);
  std::map<std::string, const AuditRow*> by_kind;
  for (auto& row : r.rows) by_kind[row.kind] = &row;
  ASSERT_TRUE(by_kind.count("zeros") && by_kind.count("other_seed") && by_kind.count("constant"));
  EXPECT_TRUE(by_kind["zeros"]->defect) << by_kind["zeros"]->verdict << " " << by_kind["zeros"]->message;
  EXPECT_TRUE(by_kind["other_seed"]->defect) << by_kind["other_seed"]->verdict << " " << by_kind["other_seed"]->message;
  EXPECT_FALSE(by_kind["zeros"]->reason.empty());
  EXPECT_FALSE(by_kind["constant"]->defect);  // 1.0 is far from a mean near 0
  EXPECT_FALSE(by_kind["nan_fill"]->defect);
  EXPECT_EQ(r.defects, 2);
  EXPECT_FALSE(r.ok());
}

static std::string slurp(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  std::ostringstream s;
  s << f.rdbuf();
  return s.str();
}

// Every generated candidate, for both families, has a plan that parses (with grid and
// block on the GPU) and names only the task's tensors; the GPU ones compile with NVRTC
// for sm_90 where the CUDA backend is built (no GPU needed), the CPU ones were compiled
// and run by the audit tests above.
TEST(Audit, GeneratedCandidatesAreWellFormedForBothFamilies) {
  for (const char* name : {"softmax", "matmul", "vector_add"}) {
    Task t = load_task(kRoot / "tasks" / "quickstart" / name);
    StoredShapeOutputs st;
    st.params = t.tests.front();
    for (auto& o : t.outputs) st.outputs.push_back(std::vector<uint8_t>(dtype_size(o.dtype) * 3, 0x3f));
    std::vector<std::string> tensors;
    for (auto& x : t.inputs) tensors.push_back(x.name);
    for (auto& x : t.outputs) tensors.push_back(x.name);
    std::vector<std::string> ints = {"sm_count", "warp_size", "max_threads_per_block", "max_smem_per_block", "l2_bytes"};
    for (auto& [k, v] : t.tests.front()) ints.push_back(k);
    std::vector<std::string> reals;
    for (auto& [k, v] : t.constants) reals.push_back(k);
    for (std::string fam : {"cpu", "gpu"}) {
      std::string ref = slurp(t.references.at(fam));
      for (auto k : all_degenerate_kinds()) {
        DegenerateCandidate c = make_degenerate(t, k, fam, ref, {st});
        ASSERT_FALSE(c.source.empty()) << name << " " << fam << " " << degenerate_name(k) << ": " << c.not_applicable;
        LaunchPlan p;
        ASSERT_NO_THROW(p = parse_launch_plan(c.source, fam == "gpu")) << c.source;
        EXPECT_NO_THROW(check_plan_names(p, tensors, ints, reals)) << c.source;
        if (fam == "gpu") {
          for (auto& l : p.launches) EXPECT_FALSE(l.grid.empty() || l.block.empty()) << l.kernel;
          if (const BackendInfo* cuda = find_backend("cuda")) {
            auto comp = cuda->make_compiler(nullptr);
            CompileOptions co;
            co.arch = "sm_90";
            CompileResult cr = comp->compile(c.source, "audit.cu", co);
            EXPECT_TRUE(cr.ok) << name << " " << degenerate_name(k) << ":\n" << cr.log;
          }
        }
      }
    }
  }
  // No float output: the NaN candidate does not apply (integers have no NaN).
  Task t = load_task(kRoot / "tasks" / "quickstart" / "relu");
  Task ti = t;
  ti.outputs.front().dtype = Dtype::i32;
  EXPECT_TRUE(make_degenerate(ti, DegenerateKind::nan_fill, "cpu", "").source.empty());
}

// A CI-sized audit of every suite folder under tasks/ (the first 2 test shapes of each
// task, verification only): no degenerate candidate may pass any task.
TEST(AuditSuite, WholeTreeCiSized) {
  AuditOptions o = cpu_options();
  o.max_shapes = 2;
  int suites = 0, tasks = 0;
  double total = 0;
  for (auto& e : fs::directory_iterator(kRoot / "tasks")) {
    if (!e.is_directory() || e.path().filename() == "baselines") continue;
    AuditReport r = audit_suite(e.path(), o);
    if (r.tasks == 0 && r.load_errors.empty()) continue;
    suites++;
    tasks += r.tasks;
    total += r.wall_s;
    std::cout << "suite " << e.path().filename().string() << ": " << r.tasks << " tasks, " << r.rows.size()
              << " candidates, " << r.defects << " defects, " << r.errors << " errors, " << r.wall_s << " s\n";
    EXPECT_EQ(r.defects, 0) << e.path() << "\n" << table(r);
    EXPECT_EQ(r.errors, 0) << e.path() << "\n" << table(r);
    for (auto& le : r.load_errors) ADD_FAILURE() << "task does not load: " << le;
  }
  RecordProperty("audit_seconds", std::to_string(total));
  std::cout << "whole tree: " << suites << " suites, " << tasks << " tasks, " << total << " s\n";
  EXPECT_GE(suites, 1);
}

// `crucible reference-output` (refout_main, in-process on the CPU backend): its inputs
// are byte for byte those of `crucible inputs`, and the outputs are the reference's
// (relu: max(x, 0)), with dtype, shape and tolerance in outputs.json.
TEST(ReferenceOutput, MatchesInputsCommandAndComputesTheReference) {
  fs::path dir = fs::temp_directory_path() / ("crucible-refout-test-" + std::to_string(getpid()));
  fs::remove_all(dir);
  std::string task = (kRoot / "tasks" / "quickstart" / "relu").string();
  std::string out = (dir / "ref").string();
  std::vector<std::string> args = {"reference-output", "--task", task, "--shape", "N=1001", "--seed", "42",
                                   "--out", out, "--backend", "cpu"};
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  // The CPU device execs its executor: in this test binary that must be the crucible binary.
  ASSERT_EQ(refout_main(static_cast<int>(argv.size()), argv.data(), kExe), 0);
  std::string cmd = kExe + " inputs --task " + task + " --shape N=1001 --seed 42 --out " + (dir / "in").string();
  ASSERT_EQ(std::system(cmd.c_str()), 0);
  std::string x = slurp(dir / "ref" / "x.bin"), x2 = slurp(dir / "in" / "x.bin"), y = slurp(dir / "ref" / "ref_y.bin");
  ASSERT_EQ(x.size(), 1001 * 4u);
  EXPECT_EQ(x, x2);
  ASSERT_EQ(y.size(), x.size());
  const float* xf = reinterpret_cast<const float*>(x.data());
  const float* yf = reinterpret_cast<const float*>(y.data());
  int neg = 0;
  for (int i = 0; i < 1001; ++i) {
    EXPECT_EQ(yf[i], xf[i] > 0 ? xf[i] : 0.f) << i;
    neg += xf[i] < 0;
  }
  EXPECT_GT(neg, 100);
  auto meta = nlohmann::json::parse(slurp(dir / "ref" / "outputs.json"));
  EXPECT_EQ(meta["tensors"][0]["name"], "y");
  EXPECT_EQ(meta["tensors"][0]["shape"], nlohmann::json::array({1001}));
  EXPECT_EQ(meta["tensors"][0]["dtype"], "f32");
  fs::remove_all(dir);
}
