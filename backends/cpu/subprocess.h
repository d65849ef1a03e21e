// fork+exec of helper processes (the system compiler, the candidate executor) in a
// process group of their own, with limits set before exec, so that a deadline can kill
// the whole group and reap it.
#pragma once
#include <sys/types.h>

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace crucible {

// An owned file descriptor.
class UniqueFd {
 public:
  UniqueFd() = default;
  explicit UniqueFd(int fd) : fd_(fd) {}
  ~UniqueFd() { reset(); }
  UniqueFd(UniqueFd&& o) noexcept : fd_(o.release()) {}
  UniqueFd& operator=(UniqueFd&& o) noexcept {
    if (this != &o) reset(o.release());
    return *this;
  }
  UniqueFd(const UniqueFd&) = delete;
  UniqueFd& operator=(const UniqueFd&) = delete;
  int get() const { return fd_; }
  explicit operator bool() const { return fd_ >= 0; }
  int release() {
    int f = fd_;
    fd_ = -1;
    return f;
  }
  void reset(int fd = -1);

 private:
  int fd_ = -1;
};

struct SpawnSpec {
  std::string path;                   // executable, absolute or resolved already
  std::vector<std::string> argv;      // argv[0] included
  std::vector<std::string> env;       // the child's whole environment ("K=V")
  std::string cwd;                    // empty: inherit
  int stdout_fd = -1;                 // -1: /dev/null
  int stderr_fd = -1;                 // -1: /dev/null
  std::vector<std::pair<int, int>> fd_map;  // (fd here, fd in the child); all others are closed
  int64_t rlimit_as = 0;              // bytes; 0: unchanged
  int64_t rlimit_data = 0;            // bytes; 0: unchanged
  int64_t rlimit_cpu_s = 0;           // seconds; 0: unchanged
};

// Starts the child in a new process group (pgid == pid), core dumps off, stdin from
// /dev/null. Throws Error when the exec fails (reported through a CLOEXEC pipe).
pid_t spawn_process(const SpawnSpec&);

// Kills the child's whole process group and reaps the child; returns its wait status.
int kill_and_reap(pid_t pid);
// Waits until the child exits or the deadline passes; nullopt on deadline.
std::optional<int> wait_until(pid_t pid, std::chrono::steady_clock::time_point deadline);
// "exit code 3", "SIGSEGV (segmentation fault)", ...
std::string describe_wait_status(int status);

// Looks `name` up on PATH (names with a '/' are returned as they are); empty if not found.
std::string find_executable(const std::string& name);

}  // namespace crucible
