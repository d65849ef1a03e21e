// PyTorch baselines per device (tasks/baselines/<device>.json, written by
// scripts/torch-crosscheck.py on the GPU machine): which file applies to a device,
// and a result's speedup over PyTorch eager and torch.compile at the shape the
// baseline was timed at. KernelBench reports speedups over eager; Crucible reports
// them beside the speedup over the task's own reference, each labelled.
#pragma once
#include <filesystem>
#include <map>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "harness/eval_result.h"

namespace crucible {

struct Baseline {
  double eager_ms = 0;
  std::optional<double> compile_ms;
  std::map<std::string, int64_t> shape;  // the benchmark shape it was timed at
};

class BaselineTable {
 public:
  // Reads {task: {eager_ms, compile_ms?, shape}}; throws InputError naming the file,
  // the task and the field for anything malformed.
  static BaselineTable load(const std::filesystem::path& file);

  const Baseline* find(const std::string& task) const;
  const std::filesystem::path& file() const { return file_; }
  size_t size() const { return by_task_.size(); }

 private:
  std::filesystem::path file_;
  std::map<std::string, Baseline> by_task_;
};

// The baselines file for a device: <suite>/baselines/<stem>.json or, for a suite
// folder such as tasks/level1, its parent's baselines/, where <stem> is one word of the
// device's name ("h200" for "NVIDIA H200"; case-insensitive). Empty when none applies:
// a baseline timed on another GPU must never be used.
std::optional<std::filesystem::path> find_baselines(const std::filesystem::path& suite, const std::string& device_name);

// A result compared with its task's baseline. Speedups are set only for a passing
// result timed at exactly the baseline's shape; otherwise `note` says why not.
struct BaselineComparison {
  double eager_ms = 0;
  std::optional<double> compile_ms;
  std::optional<double> speedup_vs_eager, speedup_vs_compile;
  std::string note;
};

BaselineComparison compare_with_baseline(const Baseline&, const EvalResult&);

// Adds the labelled fields to a record (docs/results-format.md): torch_eager_ms,
// speedup_vs_torch_eager, torch_compile_ms, speedup_vs_torch_compile, baseline_file,
// and baseline_note when no speedup could be given. Nothing when `table` has no entry
// for the task (or is null).
void add_baseline_fields(nlohmann::json& record, const std::string& task, const EvalResult&, const BaselineTable* table);

}  // namespace crucible
