// The driver's view of evaluation: compiles in a compile-only worker, evaluates in a
// device worker, and turns a late or dead worker into a verdict (timeout, crash,
// compile_error) before starting a fresh one. Never initialises a device runtime in
// the calling process. Used by `crucible eval` and `crucible run`.
#pragma once
#include <map>
#include <memory>
#include <condition_variable>
#include <mutex>
#include <string>

#include <nlohmann/json.hpp>

#include "harness/device.h"
#include "harness/eval_result.h"
#include "harness/task.h"
#include "harness/worker_client.h"

namespace crucible {

struct ServiceOptions {
  std::string backend = "auto";    // cpu | cuda | hip | auto
  int device = 0;
  std::string arch;                // compile target override (--arch / --offload-arch)
  std::vector<std::string> extra_flags;
  PhaseDeadlines deadlines;
  nlohmann::json eval_options = nlohmann::json::object();  // harness/worker_main.cpp options_from_json
  std::string exe;                 // worker binary; empty: this one
  int compile_workers = 1;         // compiles in flight (one worker process each)
};

class EvalService {
 public:
  explicit EvalService(ServiceOptions);
  // Starts the device worker (choosing the backend for "auto") and returns its facts.
  const DeviceFacts& facts();
  const std::string& backend();

  struct Compiled {
    bool ok = false;
    Verdict verdict = Verdict::pass;  // compile_error / timeout when !ok
    std::string log, key;
    double compile_ms = 0;
    bool cached = false;
  };
  Compiled compile(const std::string& source, const std::string& name);

  // Thread-safe: compiles may overlap; device executions are serialised per service.
  EvalResult evaluate(const Task&, const std::string& candidate_source);

  int device_worker_restarts() const;

 private:
  void ensure_device();
  std::string reference_key(const Task&, std::string* source);

  ServiceOptions opt_;
  std::unique_ptr<Worker> acquire_compiler();
  void release_compiler(std::unique_ptr<Worker>);

  std::mutex device_mu_, compile_mu_, ref_mu_;
  std::condition_variable compile_cv_;
  std::unique_ptr<Worker> device_worker_;
  std::vector<std::unique_ptr<Worker>> idle_compilers_;
  int compilers_made_ = 0;
  std::string backend_;
  DeviceFacts facts_;
  std::map<std::string, std::pair<std::string, std::string>> ref_keys_;  // task dir -> (key, source)
};

std::string read_file(const std::string& path);

}  // namespace crucible
