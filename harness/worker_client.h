// The driver's side of a worker process: started by fork+exec of this binary,
// talked to over framed JSON pipes, held to per-phase deadlines, killed with its
// process group and reaped when late or dead, and started afresh on the next call.
#pragma once
#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

namespace crucible {

struct WorkerSpec {
  std::string backend = "cpu";
  int device = 0;
  bool compile_only = false;
  std::string exe;                 // empty: /proc/self/exe (its main must dispatch "__worker")
  size_t output_cap = 64 * 1024;   // bytes of the worker's stdout/stderr kept
};

// Seconds allowed per phase; the worker announces each phase as it enters it.
struct PhaseDeadlines {
  std::map<std::string, double> seconds = {
      {"start", 60}, {"compile", 60}, {"load", 30}, {"verify", 120}, {"time", 300}};
  double get(const std::string& phase) const {
    auto it = seconds.find(phase);
    return it == seconds.end() ? 60 : it->second;
  }
};

struct WorkerReply {
  enum class Status { ok, timeout, crash } status = Status::crash;
  nlohmann::json msg;            // Status::ok: the worker's answer
  std::string phase;             // phase the worker was in when it ended
  std::string detail;            // crash: how it ended (signal / exit code); timeout: which deadline
  std::string output;            // capped stdout/stderr of the worker so far
};

// The environment a worker gets: a fixed allow-list, so no API key ever reaches one.
std::vector<std::string> scrubbed_environment();

class Worker {
 public:
  explicit Worker(WorkerSpec spec, PhaseDeadlines deadlines = {});
  ~Worker();
  Worker(const Worker&) = delete;
  Worker& operator=(const Worker&) = delete;

  // Sends one request; starts the process first if needed. Never throws for what the
  // worker does: a late or dead worker becomes Status::timeout / crash, and is gone.
  WorkerReply call(const nlohmann::json& request, const std::string& first_phase);
  bool alive() const { return pid_ > 0; }
  int pid() const { return pid_; }
  void stop();                  // kills the process group and reaps it
  const nlohmann::json& hello() const { return hello_; }  // the worker's answer to "hello"
  int restarts() const { return starts_ - 1; }

 private:
  bool start(WorkerReply* failure);
  void drain_output();
  std::string take_output();

  WorkerSpec spec_;
  PhaseDeadlines deadlines_;
  int pid_ = -1;
  int pgid_ = -1;  // kept after the leader is reaped: its children may still live
  int to_worker_ = -1, from_worker_ = -1, out_fd_ = -1;
  std::thread drainer_;
  std::mutex out_mu_;
  std::string output_;
  size_t dropped_ = 0;
  nlohmann::json hello_;
  int starts_ = 0;
  bool starting_ = false;
};

}  // namespace crucible
