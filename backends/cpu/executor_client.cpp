#include "backends/cpu/executor_client.h"

#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstring>

#include "backends/cpu/cpu_executor.h"
#include "backends/cpu/executor_protocol.h"
#include "harness/device.h"
#include "harness/error.h"

namespace crucible {

using namespace cpuproto;

namespace {

std::string crash_message(int status) {
  if (WIFSIGNALED(status)) {
    int sig = WTERMSIG(status);
    std::string msg = "candidate crashed: " + describe_wait_status(status);
    if (sig == SIGSYS) msg += ": a forbidden system call (seccomp)";
    if (sig == SIGXCPU) msg += ": the executor's CPU-time limit";
    if (sig == SIGKILL) msg += ": killed (memory limit or an outside kill)";
    return msg;
  }
  return "candidate ended the executor process (" + describe_wait_status(status) + ")";
}

double ms_between(ExecutorProcess::Clock::time_point a, ExecutorProcess::Clock::time_point b) {
  return std::chrono::duration<double, std::milli>(b - a).count();
}

}  // namespace

ExecutorProcess::ExecutorProcess(const std::string& executor_path, const std::vector<uint8_t>& so, int64_t deadline_ms) {
  int sv[2];
  if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) != 0)
    CRU_THROW(std::string("socketpair: ") + std::strerror(errno));
  UniqueFd mine(sv[0]), theirs(sv[1]);
  // The shared object travels as a sealed memfd: no file on disk the candidate could name.
  UniqueFd so_fd(memfd_create("crucible-candidate.so", MFD_CLOEXEC | MFD_ALLOW_SEALING));
  if (!so_fd) CRU_THROW(std::string("memfd_create: ") + std::strerror(errno));
  for (size_t off = 0; off < so.size();) {
    ssize_t n = ::write(so_fd.get(), so.data() + off, so.size() - off);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) CRU_THROW(std::string("write shared object: ") + std::strerror(errno));
    off += static_cast<size_t>(n);
  }
  fcntl(so_fd.get(), F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE | F_SEAL_SEAL);

  SpawnSpec spec;
  spec.path = executor_path;
  spec.argv = {"crucible-cpu-executor", kCpuExecutorArg};  // argv[0]: a clear name in ps
  spec.env = {};  // nothing of ours (keys, paths) reaches the candidate
  spec.fd_map = {{theirs.get(), kControlFd}};
  spec.rlimit_data = int64_t(4) << 30;  // heap; the shared buffers are not counted
  spec.rlimit_cpu_s = 3600;             // a backstop should this process ever lose its parent
  pid_ = spawn_process(spec);
  theirs.reset();
  sock_ = std::move(mine);
  stat_fd_.reset(::open(("/proc/" + std::to_string(pid_) + "/stat").c_str(), O_RDONLY | O_CLOEXEC));

  try {
    Writer w;
    w.u32(kLoad);
    auto deadline = Clock::now() + std::chrono::milliseconds(deadline_ms);
    std::vector<uint8_t> rep;
    try {
      rep = exchange(w.buf, deadline, so_fd.get());
    } catch (const DeviceFault& f) {
      throw DeviceFault(DeviceFault::Kind::launch, std::string("loading the candidate: ") + f.what(), false);
    }
    Reader r(rep.data(), rep.size());
    uint32_t op = r.u32();
    if (op != kOk) {
      std::string msg = op == kError ? r.str() : "unexpected reply to load";
      throw DeviceFault(DeviceFault::Kind::launch, msg, false);
    }
  } catch (...) {
    if (pid_ > 0) kill_and_reap(pid_);
    pid_ = -1;
    throw;
  }
}

ExecutorProcess::~ExecutorProcess() {
  if (pid_ > 0) kill_and_reap(pid_);
}

void ExecutorProcess::fail_dead(const std::string& during) {
  std::string msg;
  if (pid_ > 0) {
    // The socket closed: the process is exiting or has closed its end and lives on.
    auto st = wait_until(pid_, Clock::now() + std::chrono::milliseconds(500));
    int status = st ? *st : kill_and_reap(pid_);
    pid_ = -1;
    msg = st ? crash_message(status) : "candidate closed the executor's control channel";
  } else {
    msg = "the candidate's executor is gone: " + death_;
  }
  if (death_.empty()) death_ = msg;
  (void)during;
  throw DeviceFault(DeviceFault::Kind::runtime, msg, false);
}

void ExecutorProcess::fail_timeout(Clock::time_point deadline) {
  double over = ms_between(started_request_, deadline);
  if (pid_ > 0) kill_and_reap(pid_);
  pid_ = -1;
  death_ = "timed out after " + std::to_string(static_cast<int64_t>(over)) + " ms";
  throw DeviceFault(DeviceFault::Kind::timeout, "candidate " + death_ + " (the executor was killed)", false);
}

bool ExecutorProcess::idle() {
  if (!stat_fd_) return true;  // cannot tell: believe the reply
  char buf[512];
  ssize_t n = pread(stat_fd_.get(), buf, sizeof buf - 1, 0);
  if (n <= 0) return true;
  buf[n] = 0;
  const char* close_paren = strrchr(buf, ')');
  if (!close_paren || close_paren[1] != ' ') return true;
  // S: interruptible sleep. The only places an executor can sleep are reading its
  // control socket or a futex nobody else can wake, so it is not computing.
  return close_paren[2] == 'S';
}

std::vector<uint8_t> ExecutorProcess::exchange(const std::vector<uint8_t>& request, Clock::time_point deadline, int fd_out) {
  if (pid_ <= 0) fail_dead("request");
  started_request_ = Clock::now();
  std::vector<uint8_t> msg;
  // Stale messages (a candidate may queue fake replies) are dropped before asking.
  int junk_fd;
  while (recv_msg(sock_.get(), msg, &junk_fd, MSG_DONTWAIT) > 0)
    if (junk_fd >= 0) ::close(junk_fd);
  if (!send_msg(sock_.get(), request, fd_out)) fail_dead("send");
  for (;;) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
    if (left < 0) fail_timeout(deadline);
    struct pollfd pfd{sock_.get(), POLLIN, 0};
    int pr = poll(&pfd, 1, static_cast<int>(std::min<int64_t>(left + 1, 1000)));
    if (pr < 0 && errno != EINTR) fail_dead("poll");
    if (pr <= 0) continue;
    int fd = -1;
    ssize_t n = recv_msg(sock_.get(), msg, &fd, MSG_DONTWAIT);
    if (fd >= 0) ::close(fd);
    if (n < 0 && (errno == EAGAIN || errno == EINTR)) continue;
    if (n <= 0) fail_dead("reply");
    break;
  }
  // Believe the reply only once the executor is blocked again.
  for (int spins = 0; !idle(); ++spins) {
    if (Clock::now() >= deadline) fail_timeout(deadline);
    if (spins > 64) {
      struct timespec ts{0, 20000};
      nanosleep(&ts, nullptr);
    } else {
      sched_yield();
    }
  }
  return msg;
}

void ExecutorProcess::map(uint64_t id, int fd, size_t bytes) {
  if (pid_ <= 0) fail_dead("map");
  Writer w;
  w.u32(kMap);
  w.u64(id);
  w.u64(bytes);
  if (!send_msg(sock_.get(), w.buf, fd)) fail_dead("map");
}

void ExecutorProcess::unmap(uint64_t id) noexcept {
  if (pid_ <= 0) return;
  Writer w;
  w.u32(kUnmap);
  w.u64(id);
  send_msg(sock_.get(), w.buf);
}

std::vector<bool> ExecutorProcess::query(const std::vector<std::string>& names, Clock::time_point deadline) {
  Writer w;
  w.u32(kQuery);
  w.u32(static_cast<uint32_t>(names.size()));
  for (auto& n : names) w.str(n);
  auto rep = exchange(w.buf, deadline);
  Reader r(rep.data(), rep.size());
  std::vector<bool> found(names.size(), false);
  if (r.u32() != kOk || r.u32() != names.size()) return found;
  for (size_t i = 0; i < names.size(); ++i) found[i] = r.u8() != 0;
  if (!r.ok) std::fill(found.begin(), found.end(), false);
  return found;
}

std::string ExecutorProcess::call(const std::vector<uint8_t>& request, Clock::time_point deadline) {
  auto rep = exchange(request, deadline);
  Reader r(rep.data(), rep.size());
  uint32_t op = r.u32();
  if (op == kOk) return {};
  if (op == kError) {
    std::string s = r.str();
    return s.empty() ? "executor error" : s;
  }
  return "unexpected reply from the executor";
}

}  // namespace crucible
