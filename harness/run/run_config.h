// A run config (configs/*.yaml): which suite, which backend, which agents, how many
// samples and rounds, timing and deadlines. See docs/run-config.md.
#pragma once
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "agents/agent.h"
#include "harness/task.h"
#include "harness/worker_client.h"

namespace crucible {

struct Goal {
  std::optional<double> speedup;  // stop a trajectory once a correct candidate reaches it
  std::optional<double> sol;      // fraction of speed of light, 0..1
};

struct RunConfig {
  std::filesystem::path file;
  std::filesystem::path suite;        // resolved against the config's folder, then the cwd
  SuiteFilter filter;
  std::string backend = "auto";
  int device = 0;
  std::string arch;
  // replay: candidates from each task's solutions/ (replay_dir empty) or <replay_dir>/<task>/
  bool replay = false;
  std::filesystem::path replay_dir;
  std::vector<ModelConfig> models;
  int samples = 1;
  int rounds = 1;
  int history_rounds = 0;             // 0: full history; k: last k rounds
  Goal goal;
  int compile_workers = 0;            // 0: hardware threads
  uint64_t seed = 0;                  // public seed, recorded in run.json
  nlohmann::json eval_options = nlohmann::json::object();
  PhaseDeadlines deadlines;
  nlohmann::json prompt = nlohmann::json::object();  // prompt options (agents/prompt_builder.h)
  std::string name;                   // default run name: the config's file stem
  // PyTorch baselines (harness/baselines.h): "auto" picks <suite>/../baselines/<device
  // word>.json when one matches the device, "none" turns them off, anything else is a
  // file path (resolved like suite).
  std::string baselines = "auto";
};

// Throws InputError naming the file, line and field.
RunConfig load_run_config(const std::filesystem::path&);

}  // namespace crucible
