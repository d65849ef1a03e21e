#include "harness/report/synthetic_run.h"

#include <cmath>
#include <fstream>
#include <random>

#include <nlohmann/json.hpp>

#include "harness/error.h"

namespace crucible {

namespace fs = std::filesystem;

void write_synthetic_run(const fs::path& dir, const SyntheticRunOptions& o) {
  fs::create_directories(dir / "candidates");
  fs::create_directories(dir / "transcripts");
  std::mt19937_64 rng(o.seed);
  std::uniform_real_distribution<double> u(0, 1);
  nlohmann::json models = nlohmann::json::array();
  for (int m = 0; m < o.models; ++m) models.push_back({{"name", "model-" + std::to_string(m)}, {"kind", "synthetic"}});
  {
    std::ofstream f(dir / "run.json");
    f << nlohmann::json{{"name", dir.filename().string()}, {"backend", o.backend}, {"device", {{"name", o.device}}},
                        {"started", "2025-01-01T00:00:00Z"}, {"samples", o.samples}, {"rounds", o.rounds}, {"models", models}}
             .dump(2);
  }
  std::ofstream rec(dir / "records.jsonl", std::ios::trunc);
  if (!rec) throw InputError("cannot write " + (dir / "records.jsonl").string());
  static const char* fails[] = {"compile_error", "wrong_output", "runtime_error", "format_error", "timeout"};
  int written = 0;
  // Model m is better than model m-1; later rounds are better than earlier ones.
  for (int it = 0; written < o.records; ++it) {
    int round = it % o.rounds;
    int rest = it / o.rounds;
    int sample = rest % o.samples;
    rest /= o.samples;
    int model = rest % o.models;
    rest /= o.models;
    int task = rest % o.tasks;
    int rep = rest / o.tasks;  // more records than the grid: further samples
    sample += rep * o.samples;
    std::string tname = "task_" + std::to_string(task);
    std::string mname = "model-" + std::to_string(model);
    double p_ok = 0.3 + 0.15 * model + 0.1 * round;
    bool ok = u(rng) < p_ok;
    std::string verdict = ok ? "pass" : fails[rng() % 5];
    double speedup = std::exp(std::normal_distribution<double>(0.1 * model + 0.15 * round - 0.1, 0.5)(rng));
    std::string src = "// synthetic candidate " + std::to_string(it) + " for " + tname + " by " + mname +
                      "\nextern \"C\" __global__ void k(float* y) { y[0] = " + std::to_string(it) + "; }\n";
    // A stand-in for the SHA-256 the store uses: 64 hex digits derived from the source.
    char hash[65];
    for (int q = 0; q < 4; ++q)
      snprintf(hash + 16 * q, 17, "%016llx",
               static_cast<unsigned long long>(std::hash<std::string>{}(src + char('a' + q))));
    if (written < 2000 || !fs::exists(dir / "candidates" / hash)) {
      std::ofstream c(dir / "candidates" / hash);
      c << src;
    }
    std::string key = tname + "|" + mname + "|s" + std::to_string(sample) + "|r" + std::to_string(round) + "@" + o.backend;
    nlohmann::json sp = ok ? nlohmann::json(speedup) : nlohmann::json(nullptr);
    nlohmann::json j = {{"key", key},
                        {"time", "2025-01-01T00:00:00Z"},
                        {"task", tname},
                        {"level", 1 + task % 3},
                        {"backend", o.backend},
                        {"device", o.device},
                        {"candidate", hash},
                        {"verdict", verdict},
                        {"flags", nlohmann::json::array()},
                        {"message", ok ? "" : "synthetic " + verdict},
                        {"speedup", sp},
                        {"candidate_ms", ok ? nlohmann::json(1.0 / speedup) : nlohmann::json(nullptr)},
                        {"reference_ms", ok ? nlohmann::json(1.0) : nlohmann::json(nullptr)},
                        {"sol", ok ? nlohmann::json(std::min(1.0, 0.4 * speedup)) : nlohmann::json(nullptr)},
                        {"compile_ms", 20.0},
                        {"model", mname},
                        {"sample", sample},
                        {"round", round},
                        {"tokens_in", 1500 + 800 * round},
                        {"tokens_out", 900},
                        {"cost_usd", 0.002 * (1 + model)},
                        {"latency_ms", 5000.0},
                        {"attempts", 1},
                        {"finish_reason", "stop"},
                        {"truncated", false}};
    if (o.full_result) {
      nlohmann::json shapes = nlohmann::json::array();
      for (int s = 0; s < 3; ++s)
        shapes.push_back({{"params", {{"N", 1 << (10 + 6 * s)}}},
                          {"kind", s < 2 ? "test" : "benchmark"},
                          {"ok", ok},
                          {"checks", {{{"output", "y"}, {"count", 1 << (10 + 6 * s)}, {"mismatches", ok ? 0 : 17},
                                       {"max_abs_err", ok ? 0.0 : 0.5}, {"max_rel_err", ok ? 0.0 : 1.0}, {"ok", ok}}}}});
      j["result"] = {{"verdict", verdict}, {"flags", nlohmann::json::array()}, {"message", j["message"]},
                     {"compile_log", ""}, {"speedup", sp}, {"shapes", shapes}};
    }
    rec << j.dump() << "\n";
    if (round == 0 && written < 2000) {
      std::ofstream t(dir / "transcripts" / (tname + "__" + mname + "__s" + std::to_string(sample) + ".jsonl"), std::ios::app);
      t << nlohmann::json{{"round", 0}, {"role", "user"}, {"content", "Write " + tname}}.dump() << "\n";
    }
    written++;
  }
  if (o.torn_tail) rec << "{\"key\": \"task_0|model-0|s99|r0@" << o.backend << "\", \"task\": \"task_";
}

}  // namespace crucible
