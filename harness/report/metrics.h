// Metrics computed from records.jsonl: compile and correctness rates, fast_p
// (KernelBench), geometric-mean speedups, % of speed of light, pass@k and fast_p@k
// (Chen et al. 2021's unbiased estimator), best-so-far by round, tokens and cost;
// grouped by model x backend x device and per task. Formulas: docs/metrics.md.
#pragma once
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace crucible {

// The fields of one record that the metrics use (records.jsonl: docs/results-format.md).
struct ReportRecord {
  std::string run;                  // run name (folder name)
  std::filesystem::path run_dir;    // where candidates/ and transcripts/ of this record live
  std::string key, task, model, backend, device, verdict, candidate, candidate_file, message;
  std::vector<std::string> flags;
  int level = 0, sample = 0, round = 0;
  std::optional<double> speedup, sol;
  // Over PyTorch eager at the baseline's shape (harness/baselines.h); has_eager_baseline
  // is set when the task had a baseline on this device, whatever the verdict.
  std::optional<double> speedup_vs_eager;
  bool has_eager_baseline = false;
  double tokens_in = 0, tokens_out = 0, cost_usd = 0;

  bool correct() const { return verdict == "pass"; }
  // The candidate got past the compiler: every verdict after compilation.
  bool compiled() const;
  // "model|backend|device": the unit every headline number is reported for.
  std::string group() const;
  // transcripts/<task>__<model>__s<N>.jsonl relative to run_dir; empty for replay records.
  std::string transcript() const;
};

// Replay records (no "model") are grouped under "replay/<candidate_file>".
ReportRecord record_from_json(const nlohmann::json& j, const std::string& run = "",
                              const std::filesystem::path& run_dir = {});

struct RunData {
  std::string name;
  std::filesystem::path dir;
  nlohmann::json info;                 // run.json, or {} when missing
  std::vector<ReportRecord> records;
  int bad_lines = 0;                   // unparseable lines (a torn last line of a run in progress)
};

// Reads results/<run>/: run.json and records.jsonl. A run in progress is fine: a torn
// or half-written line is skipped and counted. Throws InputError when the folder has
// no records.jsonl.
RunData load_run(const std::filesystem::path& dir);

// Chen et al. 2021: pass@k = 1 - C(n-c, k) / C(n, k), computed as the stable product
// 1 - prod_{i=n-c+1..n} (1 - k/i). Requires n >= k (returns NaN otherwise).
double pass_at_k(int n, int c, int k);

// Geometric mean; NaN for an empty list.
double geomean(const std::vector<double>& v);

struct MetricOptions {
  std::vector<double> ps = {0, 1, 1.5, 2};  // fast_p thresholds
  std::vector<int> ks = {1, 2, 5, 10};       // pass@k / fast_p@k (reported where some task has n >= k)
};

struct RoundPoint {
  int round = 0;
  double correct = 0;        // share of trajectories with a correct kernel by this round
  double fast_1 = 0;         // share with a correct kernel faster than the reference by this round
  double geomean_all = 1;    // geomean of best-so-far speedups, failures as 1.0x
};

// One task's best outcome in one group: the fastest correct candidate, or else the
// failure closest to working (wrong_output before runtime_error before ... compile_error).
struct Cell {
  std::string verdict, message, candidate, run, transcript, key;
  std::filesystem::path run_dir;
  std::optional<double> speedup, sol;
  std::optional<double> speedup_vs_eager;  // of the same (best) candidate
  int candidates = 0, correct = 0;
};

struct GroupMetrics {
  std::string model, backend, device;
  int records = 0, compiled = 0, correct_records = 0;
  int tasks = 0, trajectories = 0, correct_trajectories = 0;
  double compile_rate = 0, correct_rate = 0;        // per candidate
  double correct_trajectory_rate = 0;               // per trajectory (best over rounds)
  std::map<double, double> fast_p;                  // p -> share of trajectories (mean over tasks)
  double geomean_speedup_correct = 0;               // over trajectories with a correct timed kernel; NaN if none
  double geomean_speedup_all = 1;                   // over all trajectories, failures as 1.0x
  double geomean_speedup_correct_candidates = 0;    // over every correct timed candidate
  double mean_sol = 0;                              // mean fraction of speed of light of the best kernels; NaN if none
  std::map<int, double> pass_at_k;                  // k -> mean over tasks with n >= k
  std::map<int, std::map<double, double>> fast_p_at_k;  // k -> p -> value
  std::vector<RoundPoint> by_round;
  double tokens_in = 0, tokens_out = 0, cost_usd = 0;
  double cost_per_correct = 0, tokens_per_correct = 0;  // NaN when nothing was correct
  std::vector<double> correct_speedups;             // every correct timed candidate (for the distribution)
  // Per task, per trajectory: its best kernel's speedup; 0 when it has no correct
  // kernel, NaN when correct but untimed (counts for p <= 0 only).
  std::vector<std::vector<double>> task_best;
  // The same against PyTorch eager (KernelBench's baseline), over the tasks that have an
  // eager baseline on this device only: eager_tasks of tasks.
  int eager_tasks = 0;
  std::map<double, double> fast_p_eager;
  double geomean_speedup_vs_eager = 0;              // over trajectories with a correct kernel timed against eager; NaN if none
  std::vector<std::vector<double>> task_best_eager;

  // fast_p at any p: mean over tasks of the share of trajectories whose best kernel is
  // correct and more than p times faster than the reference.
  double fast_p_of(double p) const;
  double fast_p_eager_of(double p) const;  // NaN when no task has an eager baseline

  std::string name() const { return model + " @ " + device + " (" + backend + ")"; }
};

struct TaskRow {
  std::string task;
  int level = 0;
  std::map<std::string, Cell> cells;  // by group name (GroupMetrics::name())
};

struct Metrics {
  std::vector<GroupMetrics> groups;   // sorted by model, device, backend
  std::vector<TaskRow> tasks;         // sorted by level, then name
  MetricOptions options;
};

Metrics compute_metrics(const std::vector<ReportRecord>& records, const MetricOptions& opts = {});

nlohmann::json to_json(const Metrics& m);

// Ranks failure verdicts: higher is closer to a working kernel (pass is highest).
int verdict_rank(const std::string& verdict);

}  // namespace crucible
