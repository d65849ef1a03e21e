// Runs a task's reference in this process on generated inputs and returns the raw
// inputs and outputs. Used by the audit (the reference's answer for another seed) and by
// `crucible reference-output` (the torch cross-check). It opens a Device here, so it
// belongs in a process of its own (a CLI command or a test), never in the run driver.
#pragma once
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "harness/backend_registry.h"
#include "harness/task.h"

namespace crucible {

struct ReferenceRun {
  std::vector<std::vector<uint8_t>> inputs;   // in task order, raw little-endian
  std::vector<std::vector<uint8_t>> outputs;  // in task order
};

class ReferenceRunner {
 public:
  // backend: "cpu", "cuda", "hip". exe: the crucible binary (the CPU backend execs it
  // as the executor); empty: this process's own binary.
  explicit ReferenceRunner(const std::string& backend, const std::string& exe = "");
  ~ReferenceRunner();
  // The inputs are exactly those of `crucible inputs --seed seed` (Philox, stream = input index).
  ReferenceRun run(const Task&, const Params&, uint64_t seed);
  const DeviceFacts& facts() const;

 private:
  struct Loaded;
  Loaded& load(const Task&);
  const BackendInfo* backend_;
  std::unique_ptr<Device> dev_;
  std::unique_ptr<Compiler> compiler_;
  std::map<std::string, std::unique_ptr<Loaded>> loaded_;
};

// Parses "N=1024,M=64" into params; throws InputError.
Params parse_params_text(const std::string&);

}  // namespace crucible
