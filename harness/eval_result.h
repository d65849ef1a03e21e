// What one evaluation of a candidate produces: the verdict, flags, diagnostics and
// per-shape verification and timing. Serialised as JSON into records and feedback.
#pragma once
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "harness/device.h"
#include "harness/statistics.h"
#include "harness/verdict.h"

namespace crucible {

struct OutputCheck {
  std::string output;
  CompareStats stats;
  bool ok = false;
};

struct ShapeResult {
  std::map<std::string, int64_t> params;
  std::string kind;                     // "test" or "benchmark"
  std::vector<OutputCheck> checks;      // of the first run (worst of the two runs)
  bool ok = true;
  std::optional<SampleSummary> candidate;  // benchmark shapes only
  std::optional<SampleSummary> reference;
  std::optional<RatioInterval> speedup;
  bool timing_capped = false;
  double sol = -1;                      // fraction of speed of light (0..1), -1 if unknown
  double cupti_kernel_ms = -1, cupti_kernels_per_run = -1;
  int timed_checks = 0;                 // timed samples whose output was re-checked
  int64_t clock_khz = 0;                // SM clock seen during timing
};

struct EvalResult {
  Verdict verdict = Verdict::pass;
  std::vector<std::string> flags;
  std::string message;                  // for the model and the user: what went wrong, actionable
  std::string compile_log;
  std::vector<ShapeResult> shapes;
  std::optional<double> speedup;        // geometric mean over benchmark shapes of median ratios
  std::optional<double> candidate_ms;   // sum over benchmark shapes of medians
  std::optional<double> reference_ms;
  std::optional<double> sol;            // mean over benchmark shapes
  double compile_ms = 0;
  double wall_ms = 0;
  std::string backend, device;

  void add_flag(const std::string& f);
  bool has_flag(const std::string& f) const;
};

nlohmann::json to_json(const EvalResult&);
EvalResult eval_result_from_json(const nlohmann::json&);
nlohmann::json to_json(const SampleSummary&);
nlohmann::json to_json(const CompareStats&);

}  // namespace crucible
