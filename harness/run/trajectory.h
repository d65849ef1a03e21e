// Model trajectories: for each (task, model, sample), up to R rounds of prompt →
// response → candidate → verdict → feedback. Trajectories run concurrently in a oneTBB
// arena sized for every request slot plus the evaluation workers, with a semaphore per
// endpoint (a model config's max_concurrency), so evaluations go on while requests wait.
//
// Crash safety: a response is appended (and fdatasync'ed) to the trajectory's transcript
// before its request slot is released and before it is evaluated; a record is appended
// before the next round's feedback. A rerun reuses stored responses (no request is paid
// twice), rebuilds missing feedback from records, and evaluates nothing recorded.
#pragma once
#include <atomic>
#include <functional>
#include <string>
#include <vector>

#include <tbb/task_arena.h>

#include "harness/baselines.h"
#include "harness/eval_service.h"
#include "harness/results_store.h"
#include "harness/run/run_config.h"

namespace crucible {

class Progress;

struct TrajectoryContext {
  const RunConfig& cfg;
  EvalService& svc;
  ResultsStore& store;
  std::string backend;
  std::function<void(const nlohmann::json&)> report;
  std::atomic<int>& faults;
  std::atomic<int>& done;
  Progress* progress = nullptr;  // told of rounds that will never run (early stops)
  const BaselineTable* baselines = nullptr;  // PyTorch timings for this device, if any
};

// Records a model campaign writes at most: tasks × models × samples × rounds.
int64_t trajectory_rounds_total(const RunConfig&, size_t task_count);

void run_trajectories(TrajectoryContext&, const std::vector<Task>& tasks, tbb::task_arena&);

// One records.jsonl line (docs/results-format.md); with `baselines`, also the speedups
// over PyTorch eager and torch.compile, labelled as such.
nlohmann::json make_record(const std::string& key, const Task&, const EvalResult&, const std::string& candidate_hash,
                           const BaselineTable* baselines = nullptr);
std::string iso_now();

// transcripts/<task>__<model>__s<sample>.jsonl (names made file-safe).
std::string transcript_name(const std::string& task, const std::string& model, int sample);

}  // namespace crucible
