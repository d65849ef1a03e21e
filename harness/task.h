// The task model: what task.yaml says (docs/task-format.md), loaded and checked.
#pragma once
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "harness/device.h"
#include "harness/dtype.h"
#include "harness/expr.h"

namespace crucible {

struct InitSpec {
  int dist = 0;               // CRU_DIST_* (crucible/philox.h)
  std::string dist_name = "normal";
  Expr p0, p1;                // normal: mean, std; uniform: low, high; randint: low, high (exclusive)
                              // bernoulli: p0 = probability; expressions may use params
};

struct TensorSpec {
  std::string name;
  Dtype dtype = Dtype::f32;
  std::vector<Expr> shape;    // outermost first
  InitSpec init;              // inputs only
  int line = 0;
};

using Params = std::map<std::string, int64_t>;  // one test or benchmark shape

struct Task {
  std::filesystem::path dir;        // folder holding task.yaml
  std::filesystem::path file;       // task.yaml itself
  std::string name;
  int level = 0;
  std::string summary;
  std::string description;
  std::vector<TensorSpec> inputs;
  std::vector<TensorSpec> outputs;
  std::map<std::string, double> constants;   // float constants (eps, alpha) usable in f32(...)
  std::vector<Params> tests;
  std::vector<Params> benchmarks;
  std::vector<Params> cpu_benchmarks;        // empty: the CPU backend times its largest test shape
  std::map<std::string, Tolerance> tolerance;  // by output name; defaults by dtype
  Expr cost_bytes, cost_flops;
  std::map<std::string, std::filesystem::path> references;  // family ("gpu", "cpu") -> file
  std::filesystem::path solutions_dir;       // may not exist
  std::map<std::string, std::string> expected;  // solution file name -> expected verdict or flag (solutions/expected.yaml)
  std::string kernelbench;                   // corresponding KernelBench problem, if any

  // Evaluates a tensor's shape for one parameter set.
  std::vector<int64_t> eval_shape(const TensorSpec&, const Params&) const;
  uint64_t element_count(const TensorSpec&, const Params&) const;
  Tolerance tolerance_for(const TensorSpec& output) const;
};

// Default tolerances by dtype (docs/task-format.md): f32 1e-4/1e-4 as KernelBench,
// f16/bf16 1e-2, f64 1e-8, integers exact.
Tolerance default_tolerance(Dtype);

// Loads and checks one task folder. Throws InputError whose message names the file,
// line and field and says what was expected; it lists every problem found in the file.
Task load_task(const std::filesystem::path& dir);

struct SuiteFilter {
  std::string name_glob = "*";   // fnmatch on the task name
  std::optional<int> level;
};

struct SuiteLoad {
  std::vector<Task> tasks;                  // sorted by (level, name)
  std::vector<std::string> errors;          // one message per bad task, all of them
};

// A suite is a folder tree: every folder below `root` holding a task.yaml is a task.
SuiteLoad load_suite(const std::filesystem::path& root, const SuiteFilter& = {});

}  // namespace crucible
