#include "backends/cpu/subprocess.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <thread>

#include "harness/error.h"

namespace crucible {

void UniqueFd::reset(int fd) {
  if (fd_ >= 0) ::close(fd_);
  fd_ = fd;
}

namespace {

// Only async-signal-safe calls between fork and exec: the parent may have threads.
[[noreturn]] void child_fail(int err_fd, int err) {
  (void)!::write(err_fd, &err, sizeof err);
  _exit(127);
}

void set_limit(int resource, int64_t value) {
  struct rlimit rl;
  rl.rlim_cur = rl.rlim_max = static_cast<rlim_t>(value);
  setrlimit(resource, &rl);
}

}  // namespace

pid_t spawn_process(const SpawnSpec& spec) {
  // Everything the child needs is built before fork.
  std::vector<char*> argv, envp;
  for (auto& a : spec.argv) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  for (auto& e : spec.env) envp.push_back(const_cast<char*>(e.c_str()));
  envp.push_back(nullptr);

  UniqueFd devnull(::open("/dev/null", O_RDWR | O_CLOEXEC));
  if (!devnull) CRU_THROW(std::string("open /dev/null: ") + std::strerror(errno));
  int err_pipe[2];
  if (pipe2(err_pipe, O_CLOEXEC) != 0) CRU_THROW(std::string("pipe2: ") + std::strerror(errno));
  UniqueFd err_r(err_pipe[0]), err_w(err_pipe[1]);

  // Targets 0..2 plus the mapped ones; sources are first moved above every target.
  int max_target = 2;
  for (auto& m : spec.fd_map) max_target = std::max(max_target, m.second);
  const int stdout_src = spec.stdout_fd >= 0 ? spec.stdout_fd : devnull.get();
  const int stderr_src = spec.stderr_fd >= 0 ? spec.stderr_fd : devnull.get();
  const int dn = devnull.get(), ew = err_w.get();
  const char* cwd = spec.cwd.empty() ? nullptr : spec.cwd.c_str();
  const size_t nmap = spec.fd_map.size();
  std::vector<int> srcs(nmap), dsts(nmap);
  for (size_t i = 0; i < nmap; ++i) srcs[i] = spec.fd_map[i].first, dsts[i] = spec.fd_map[i].second;

  pid_t pid = fork();
  if (pid < 0) CRU_THROW(std::string("fork: ") + std::strerror(errno));
  if (pid == 0) {
    setpgid(0, 0);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, nullptr);  // the parent thread's mask is not the child's business
    set_limit(RLIMIT_CORE, 0);
    if (spec.rlimit_as > 0) set_limit(RLIMIT_AS, spec.rlimit_as);
    if (spec.rlimit_data > 0) set_limit(RLIMIT_DATA, spec.rlimit_data);
    if (spec.rlimit_cpu_s > 0) set_limit(RLIMIT_CPU, spec.rlimit_cpu_s);
    // Move every source above the targets so a dup2 cannot clobber one still needed.
    int base = max_target + 1 + 3;
    int e = fcntl(ew, F_DUPFD_CLOEXEC, base + 64);
    if (e < 0) child_fail(ew, errno);
    int s_in = fcntl(dn, F_DUPFD, base), s_out = fcntl(stdout_src, F_DUPFD, base),
        s_err = fcntl(stderr_src, F_DUPFD, base);
    if (s_in < 0 || s_out < 0 || s_err < 0) child_fail(e, errno);
    int moved[64];
    for (size_t i = 0; i < nmap && i < 64; ++i) {
      moved[i] = fcntl(srcs[i], F_DUPFD, base);
      if (moved[i] < 0) child_fail(e, errno);
    }
    if (dup2(s_in, 0) < 0 || dup2(s_out, 1) < 0 || dup2(s_err, 2) < 0) child_fail(e, errno);
    for (size_t i = 0; i < nmap && i < 64; ++i)
      if (dup2(moved[i], dsts[i]) < 0) child_fail(e, errno);
    // Close everything else but the error pipe, kept just above the targets (CLOEXEC:
    // it closes itself on a successful exec).
    const int keep = max_target + 1;
    if (dup2(e, keep) < 0 || fcntl(keep, F_SETFD, FD_CLOEXEC) < 0) child_fail(e, errno);
    e = keep;
    if (close_range(static_cast<unsigned>(keep + 1), ~0U, 0) != 0) child_fail(e, errno);
    if (cwd && chdir(cwd) != 0) child_fail(e, errno);
    execve(spec.path.c_str(), argv.data(), envp.data());
    child_fail(e, errno);
  }
  err_w.reset();
  // Also place the child in its group from here: whichever runs first wins the race.
  setpgid(pid, pid);
  int child_err = 0;
  ssize_t n;
  do n = ::read(err_r.get(), &child_err, sizeof child_err);
  while (n < 0 && errno == EINTR);
  if (n == sizeof child_err) {
    int st;
    waitpid(pid, &st, 0);
    CRU_THROW("cannot start " + spec.path + ": " + std::strerror(child_err));
  }
  return pid;
}

int kill_and_reap(pid_t pid) {
  kill(-pid, SIGKILL);
  kill(pid, SIGKILL);
  int st = 0;
  while (waitpid(pid, &st, 0) < 0 && errno == EINTR) {
  }
  return st;
}

std::optional<int> wait_until(pid_t pid, std::chrono::steady_clock::time_point deadline) {
  auto pause = std::chrono::microseconds(100);
  for (;;) {
    int st = 0;
    pid_t r = waitpid(pid, &st, WNOHANG);
    if (r == pid) return st;
    if (r < 0 && errno != EINTR) return 0;  // not our child any more: nothing to report
    if (std::chrono::steady_clock::now() >= deadline) return std::nullopt;
    std::this_thread::sleep_for(pause);
    pause = std::min(pause * 2, std::chrono::microseconds(10000));
  }
}

std::string describe_wait_status(int st) {
  if (WIFEXITED(st)) return "exit code " + std::to_string(WEXITSTATUS(st));
  if (WIFSIGNALED(st)) {
    int sig = WTERMSIG(st);
    const char* abbrev = sigabbrev_np(sig);
    std::string name = abbrev ? std::string("SIG") + abbrev : "signal " + std::to_string(sig);
    const char* d = sigdescr_np(sig);
    return d ? name + " (" + d + ")" : name;
  }
  return "status " + std::to_string(st);
}

std::string find_executable(const std::string& name) {
  if (name.empty()) return {};
  if (name.find('/') != std::string::npos) return access(name.c_str(), X_OK) == 0 ? name : std::string();
  const char* path = getenv("PATH");
  std::string p = path ? path : "/usr/local/bin:/usr/bin:/bin";
  size_t start = 0;
  while (start <= p.size()) {
    size_t end = p.find(':', start);
    if (end == std::string::npos) end = p.size();
    std::string dir = p.substr(start, end - start);
    if (dir.empty()) dir = ".";
    std::string cand = dir + "/" + name;
    struct stat sb;
    if (stat(cand.c_str(), &sb) == 0 && S_ISREG(sb.st_mode) && access(cand.c_str(), X_OK) == 0) return cand;
    start = end + 1;
  }
  return {};
}

}  // namespace crucible
