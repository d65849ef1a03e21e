// The evaluation protocol, written once for every backend (DESIGN.md
// "Verification" and "Timing"): runs inside a worker that owns one Device.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "harness/backend_registry.h"
#include "harness/eval_result.h"
#include "harness/stopping_criterion.h"
#include "harness/task.h"

namespace crucible {

struct EvalOptions {
  uint64_t run_secret = 0;        // never leaves the driver and its workers; mixed into every seed
  uint64_t public_seed = 0;       // recorded in run.json
  bool time = true;               // false: verification only
  std::string criterion = "stdrel";
  StoppingParams stopping;
  int timed_checks = 3;           // timed samples whose output is re-checked against the reference
  double suspicious_speedup = 10; // KernelBench flags speedups over 10x
  int trace_reps = 5;             // CUPTI cross-check runs (backends that have one)
  bool check_determinism = true;  // re-run test shapes on the same inputs, compare bitwise
  std::function<void(const std::string&)> on_phase;  // "verify", "time": the worker reports phases
};

struct EvalArtifacts {
  std::string candidate_source;
  std::vector<uint8_t> candidate_artifact;
  std::string reference_source;
  std::vector<uint8_t> reference_artifact;
};

// Never throws for anything the candidate does; throws crucible::Error for harness
// faults (a broken reference, a device that fails outside the candidate's run).
// *sticky is set when the device context is unusable afterwards: the worker must exit.
EvalResult evaluate(const Task&, const BackendInfo&, Device&, const EvalArtifacts&, const EvalOptions&, bool* sticky);

// The shapes a backend verifies (tests then benchmarks) and times (benchmarks).
// The CPU backend times cpu_benchmarks, or its largest test shape.
struct ShapePlan {
  std::vector<Params> verify;
  std::vector<Params> time;
};
ShapePlan shapes_for(const Task&, const BackendInfo&);


}  // namespace crucible
