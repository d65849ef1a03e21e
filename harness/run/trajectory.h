// Model trajectories: for each (task, model, sample), up to R rounds of prompt →
// response → candidate → verdict → feedback, run concurrently with a oneTBB flow
// graph (requests per endpoint, compiles per core, executions per device).
#pragma once
#include <atomic>
#include <functional>
#include <string>
#include <vector>

#include <tbb/task_arena.h>

#include "harness/eval_service.h"
#include "harness/results_store.h"
#include "harness/run/run_config.h"

namespace crucible {

struct TrajectoryContext {
  const RunConfig& cfg;
  EvalService& svc;
  ResultsStore& store;
  std::string backend;
  std::function<void(const nlohmann::json&)> report;
  std::atomic<int>& faults;
  std::atomic<int>& done;
};

void run_trajectories(TrajectoryContext&, const std::vector<Task>& tasks, tbb::task_arena&);

nlohmann::json make_record(const std::string& key, const Task&, const EvalResult&, const std::string& candidate_hash);
std::string iso_now();

}  // namespace crucible
