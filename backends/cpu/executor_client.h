// The trusted side of one executor process: starts it, passes it the shared object and
// buffers, sends requests and waits for replies under a deadline. A reply is believed
// only once the executor is seen blocked again (so a candidate cannot answer "done"
// early and keep computing outside the clock); death and lateness become DeviceFaults.
#pragma once
#include <sys/types.h>

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "backends/cpu/subprocess.h"

namespace crucible {

class ExecutorProcess {
 public:
  using Clock = std::chrono::steady_clock;

  // Starts `<executor_path> __cpu_executor` with an empty environment, loads the
  // object and waits for it (deadline). Throws DeviceFault(launch) if the object is refused.
  ExecutorProcess(const std::string& executor_path, const std::vector<uint8_t>& shared_object, int64_t deadline_ms);
  // (a constructor that throws has already killed and reaped the process)
  ~ExecutorProcess();  // kills the process group and reaps it
  ExecutorProcess(const ExecutorProcess&) = delete;
  ExecutorProcess& operator=(const ExecutorProcess&) = delete;

  // No reply; throws DeviceFault(runtime) if the executor is gone.
  void map(uint64_t id, int fd, size_t bytes);
  void unmap(uint64_t id) noexcept;
  // Which names dlsym finds.
  std::vector<bool> query(const std::vector<std::string>& names, Clock::time_point deadline);
  // Sends a run request and waits until the calls returned and the executor is idle.
  // Returns the executor's error text ("" when it says done). Throws DeviceFault
  // (timeout / runtime) and then the process is dead.
  std::string call(const std::vector<uint8_t>& request, Clock::time_point deadline);

  bool dead() const { return pid_ <= 0; }
  const std::string& death() const { return death_; }
  pid_t pid() const { return pid_; }

 private:
  // Sends, then waits for one reply and for the executor to be idle.
  std::vector<uint8_t> exchange(const std::vector<uint8_t>& request, Clock::time_point deadline, int fd = -1);
  [[noreturn]] void fail_dead(const std::string& during);
  [[noreturn]] void fail_timeout(Clock::time_point deadline);
  bool idle();  // blocked in the kernel (state S): not running candidate code

  pid_t pid_ = -1;
  UniqueFd sock_;
  UniqueFd stat_fd_;  // /proc/<pid>/stat
  std::string death_;
  Clock::time_point started_request_{};
};

}  // namespace crucible
