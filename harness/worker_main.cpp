#include "harness/worker_main.h"

#include <unistd.h>

#include <chrono>
#include <cstring>
#include <filesystem>
#include <iostream>

#include "harness/artifact_cache.h"
#include "harness/backend_registry.h"
#include "harness/device_json.h"
#include "harness/error.h"
#include "harness/evaluate.h"
#include "harness/framing.h"
#include "harness/task.h"

namespace crucible {

namespace {

constexpr int kIn = 3, kOut = 4;

EvalOptions options_from_json(const nlohmann::json& j) {
  EvalOptions o;
  o.run_secret = j.value("run_secret", 0ull);
  o.public_seed = j.value("public_seed", 0ull);
  o.time = j.value("time", true);
  o.criterion = j.value("criterion", std::string("stdrel"));
  o.stopping.min_samples = j.value("min_samples", o.stopping.min_samples);
  o.stopping.min_time_s = j.value("min_time_s", o.stopping.min_time_s);
  o.stopping.max_noise = j.value("max_noise", o.stopping.max_noise);
  o.stopping.max_time_s = j.value("max_time_s", o.stopping.max_time_s);
  o.stopping.max_wall_s = j.value("max_wall_s", o.stopping.max_wall_s);
  o.timed_checks = j.value("timed_checks", o.timed_checks);
  o.suspicious_speedup = j.value("suspicious_speedup", o.suspicious_speedup);
  o.trace_reps = j.value("trace_reps", o.trace_reps);
  return o;
}

ArtifactCache make_cache() {
  ArtifactCache c;
  if (c.enabled()) return c;
  // Caching off: artifacts still travel from compile worker to device worker via files.
  return ArtifactCache(std::filesystem::temp_directory_path() / "crucible-artifacts");
}

class WorkerLoop {
 public:
  WorkerLoop(const BackendInfo& b, int device, bool compile_only)
      : backend_(b), ordinal_(device), compile_only_(compile_only), cache_(make_cache()) {}

  int run() {
    for (;;) {
      FrameRead fr = read_frame(kIn, std::chrono::steady_clock::now() + std::chrono::hours(24 * 365));
      if (fr.status != ReadStatus::ok) return 0;  // driver gone
      const auto& req = fr.msg;
      std::string op = req.value("op", "");
      nlohmann::json reply;
      bool exit_after = false;
      try {
        if (op == "hello") reply = hello();
        else if (op == "compile") reply = compile(req);
        else if (op == "evaluate") reply = evaluate_op(req, &exit_after);
        else if (op == "exit") return 0;
        else reply = {{"ok", false}, {"error", "unknown op '" + op + "'"}};
      } catch (const std::exception& e) {
        // A harness fault inside the worker: reported, and the worker is replaced, since
        // its device may be in any state.
        reply = {{"ok", false}, {"error", e.what()}, {"harness_fault", true}};
        exit_after = true;
      }
      if (exit_after) reply["exit_after"] = true;
      write_frame(kOut, reply);
      if (exit_after) return 0;
    }
  }

 private:
  void event(const std::string& phase) { write_frame(kOut, {{"event", "phase"}, {"phase", phase}}); }

  nlohmann::json hello() {
    nlohmann::json j = {{"ok", true}, {"backend", backend_.name}, {"pid", getpid()}};
    if (!compile_only_) {
      device_ = backend_.open_device(ordinal_);
      j["facts"] = to_json(device_->facts());
    }
    compiler_ = backend_.make_compiler(device_.get());
    j["compiler"] = compiler_->name();
    return j;
  }

  nlohmann::json compile(const nlohmann::json& req) {
    CompileOptions opts;
    opts.arch = req.value("arch", std::string());
    opts.extra = req.value("extra", std::vector<std::string>{});
    std::string src = req.value("source", std::string());
    std::string key = ArtifactCache::key(src, compiler_->fingerprint(opts));
    if (cache_.get(key)) return {{"ok", true}, {"key", key}, {"cached", true}, {"log", ""}, {"compile_ms", 0.0}};
    CompileResult r = compiler_->compile(src, req.value("name", std::string("candidate")), opts);
    if (r.ok) cache_.put(key, r.artifact);
    return {{"ok", r.ok}, {"key", key}, {"cached", false}, {"log", r.log}, {"compile_ms", r.compile_ms}, {"kind", r.artifact_kind}};
  }

  nlohmann::json evaluate_op(const nlohmann::json& req, bool* exit_after) {
    if (!device_) CRU_THROW("evaluate sent to a compile-only worker");
    event("load");
    Task task = load_task(req.at("task_dir").get<std::string>());
    EvalArtifacts art;
    art.candidate_source = req.at("candidate_source").get<std::string>();
    art.reference_source = req.at("reference_source").get<std::string>();
    auto cand = cache_.get(req.at("candidate_key").get<std::string>());
    auto ref = cache_.get(req.at("reference_key").get<std::string>());
    if (!cand || !ref) CRU_THROW("compiled artifact missing from the cache at " + cache_.dir().string());
    art.candidate_artifact = std::move(*cand);
    art.reference_artifact = std::move(*ref);
    EvalOptions opts = options_from_json(req.value("options", nlohmann::json::object()));
    opts.on_phase = [this](const std::string& p) { event(p); };
    device_->set_run_deadline_ms(req.value("options", nlohmann::json::object()).value("run_deadline_ms", 10000));
    bool sticky = false;
    EvalResult r = evaluate(task, backend_, *device_, art, opts, &sticky);
    *exit_after = sticky;
    return {{"ok", true}, {"result", to_json(r)}};
  }

  const BackendInfo& backend_;
  int ordinal_;
  bool compile_only_;
  ArtifactCache cache_;
  std::unique_ptr<Device> device_;
  std::unique_ptr<Compiler> compiler_;
};

}  // namespace

int worker_main(int argc, char** argv) {
  std::string backend = "cpu";
  int device = 0;
  bool compile_only = false;
  for (int i = 2; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--backend" && i + 1 < argc) backend = argv[++i];
    else if (a == "--device" && i + 1 < argc) device = std::atoi(argv[++i]);
    else if (a == "--compile-only") compile_only = true;
  }
  const BackendInfo* b = find_backend(backend);
  if (!b) {
    std::cerr << "worker: unknown backend '" << backend << "'\n";
    return 2;
  }
  try {
    WorkerLoop loop(*b, device, compile_only);
    return loop.run();
  } catch (const std::exception& e) {
    std::cerr << "worker: " << e.what() << "\n";
    try {
      write_frame(kOut, {{"ok", false}, {"error", e.what()}});
    } catch (...) {
    }
    return 3;
  }
}

}  // namespace crucible
