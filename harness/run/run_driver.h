// `crucible run`: a campaign over a suite. Replay runs evaluate stored candidates;
// model runs drive trajectories of up to R rounds per (task, model, sample). Every
// evaluated candidate is one line of records.jsonl, written before the next begins;
// rerunning the same run resumes it (harness/results_store.h).
#pragma once
#include <filesystem>
#include <string>

#include "harness/run/run_config.h"

namespace crucible {

struct RunOptions {
  std::filesystem::path results_root = "results";
  std::string name;        // empty: the config's name
  std::string exe;         // worker binary; empty: this one
  bool quiet = false;
};

// Returns the process exit code: 0 when the run finished (whatever the verdicts),
// 1 when harness faults kept some items from being evaluated.
int run_campaign(const RunConfig&, const RunOptions&);

}  // namespace crucible
