// Writes a made-up run folder (run.json, records.jsonl, candidates/, transcripts/)
// shaped like the run driver's output, for report tests and the report benchmark.
#pragma once
#include <cstdint>
#include <filesystem>
#include <string>

namespace crucible {

struct SyntheticRunOptions {
  int records = 200;                // total records, spread over tasks x models x samples x rounds
  int tasks = 10, models = 2, samples = 3, rounds = 3;
  std::string device = "NVIDIA H200", backend = "cuda";
  uint64_t seed = 1;
  bool torn_tail = false;           // end with half a line, as a run being written does
  bool full_result = true;          // include a nested "result" like the driver's (realistic line size)
};

void write_synthetic_run(const std::filesystem::path& dir, const SyntheticRunOptions& o);

}  // namespace crucible
