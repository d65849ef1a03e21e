#include "harness/worker_client.h"

#include <fcntl.h>
#include <signal.h>
#include <sched.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstring>

#include "harness/error.h"
#include "harness/framing.h"

extern char** environ;

namespace crucible {

std::vector<std::string> scrubbed_environment() {
  // Allow-list: the paths and device settings a worker needs, nothing else. A variable
  // whose name suggests a credential is dropped even when it matches.
  static const char* keep_exact[] = {"PATH", "HOME", "LANG", "LC_ALL", "TMPDIR", "USER", "LD_LIBRARY_PATH", "CUDA_HOME", "CUDA_PATH"};
  static const char* keep_prefix[] = {"CUDA_", "HIP_", "ROCR_", "HSA_", "CRUCIBLE_", "NVIDIA_"};
  static const char* deny[] = {"KEY", "TOKEN", "SECRET", "PASSWORD", "CREDENTIAL", "AUTH"};
  std::vector<std::string> out;
  for (char** e = environ; e && *e; ++e) {
    std::string kv = *e;
    std::string name = kv.substr(0, kv.find('='));
    bool keep = false;
    for (auto* k : keep_exact) keep |= name == k;
    for (auto* p : keep_prefix) keep |= name.rfind(p, 0) == 0;
    std::string upper = name;
    for (auto& c : upper) c = static_cast<char>(toupper(c));
    for (auto* d : deny) keep &= upper.find(d) == std::string::npos;
    if (keep) out.push_back(kv);
  }
  return out;
}

Worker::Worker(WorkerSpec spec, PhaseDeadlines d) : spec_(std::move(spec)), deadlines_(std::move(d)) {}

Worker::~Worker() { stop(); }

void Worker::stop() {
  if (pgid_ > 0) ::kill(-pgid_, SIGKILL);
  pgid_ = -1;
  if (pid_ > 0) {
    ::kill(pid_, SIGKILL);
    int st = 0;
    while (::waitpid(pid_, &st, 0) < 0 && errno == EINTR) {
    }
    pid_ = -1;
  }
  for (int* fd : {&to_worker_, &from_worker_}) {
    if (*fd >= 0) ::close(*fd);
    *fd = -1;
  }
  if (drainer_.joinable()) drainer_.join();  // ends when the pipe's last writer is gone
  if (out_fd_ >= 0) ::close(out_fd_);
  out_fd_ = -1;
}

void Worker::drain_output() {
  char buf[8192];
  for (;;) {
    ssize_t n = ::read(out_fd_, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;
    std::lock_guard<std::mutex> lk(out_mu_);
    size_t room = spec_.output_cap > output_.size() ? spec_.output_cap - output_.size() : 0;
    size_t take = std::min(room, static_cast<size_t>(n));
    output_.append(buf, take);
    dropped_ += static_cast<size_t>(n) - take;
  }
}

std::string Worker::take_output() {
  std::lock_guard<std::mutex> lk(out_mu_);
  std::string s = output_;
  if (dropped_) s += "\n[... " + std::to_string(dropped_) + " more bytes of worker output dropped]";
  return s;
}

bool Worker::start(WorkerReply* failure) {
  std::string exe = spec_.exe.empty() ? "/proc/self/exe" : spec_.exe;
  std::vector<std::string> args = {exe, "__worker", "--backend", spec_.backend, "--device", std::to_string(spec_.device)};
  if (spec_.compile_only) args.push_back("--compile-only");
  std::vector<std::string> env = scrubbed_environment();
  std::vector<char*> argv, envp;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  for (auto& e : env) envp.push_back(e.data());
  envp.push_back(nullptr);
  bool netns = true;
  if (const char* v = getenv("CRUCIBLE_WORKER_NETNS")) netns = std::string(v) != "0";

  int req[2], resp[2], out[2];
  if (pipe2(req, O_CLOEXEC) || pipe2(resp, O_CLOEXEC) || pipe2(out, O_CLOEXEC))
    CRU_THROW(std::string("pipe2 failed: ") + std::strerror(errno));
  pid_t pid = fork();
  if (pid < 0) CRU_THROW(std::string("fork failed: ") + std::strerror(errno));
  if (pid == 0) {
    // Child: only async-signal-safe calls until exec.
    setpgid(0, 0);
    // dup2 onto the same number keeps FD_CLOEXEC, so clear it explicitly.
    // Move the ends out of the way first, so no dup2 below overwrites one still needed.
    int r_in = fcntl(req[0], F_DUPFD, 100), r_out = fcntl(resp[1], F_DUPFD, 100), o = fcntl(out[1], F_DUPFD, 100);
    dup2(r_in, 3);
    dup2(r_out, 4);
    dup2(o, 1);
    dup2(o, 2);
    for (int fd = 1; fd <= 4; ++fd) fcntl(fd, F_SETFD, 0);
    int devnull = open("/dev/null", O_RDONLY);
    if (devnull >= 0) dup2(devnull, 0);
    for (int fd = 5; fd < 1024; ++fd) close(fd);  // the moved copies (>= 100) too
    struct rlimit core{0, 0};
    setrlimit(RLIMIT_CORE, &core);
    if (netns) unshare(CLONE_NEWNET);  // no network where the OS allows it; ignored otherwise
    execve(argv[0], argv.data(), envp.data());
    _exit(127);
  }
  setpgid(pid, pid);
  ::close(req[0]);
  ::close(resp[1]);
  ::close(out[1]);
  pid_ = pid;
  pgid_ = pid;
  to_worker_ = req[1];
  from_worker_ = resp[0];
  out_fd_ = out[0];
  {
    std::lock_guard<std::mutex> lk(out_mu_);
    output_.clear();
    dropped_ = 0;
  }
  drainer_ = std::thread([this] { drain_output(); });
  starts_++;
  // Handshake: the worker opens its device (or compiler) and says what it sees.
  WorkerReply r = call(nlohmann::json{{"op", "hello"}}, "start");
  if (r.status != WorkerReply::Status::ok || !r.msg.value("ok", false)) {
    if (r.status == WorkerReply::Status::ok) {
      r.status = WorkerReply::Status::crash;
      r.detail = "worker could not start: " + r.msg.value("error", std::string("unknown"));
      stop();
    }
    *failure = r;
    return false;
  }
  hello_ = r.msg;
  return true;
}

static std::string describe_status(int st) {
  if (WIFSIGNALED(st)) return std::string("killed by signal ") + strsignal(WTERMSIG(st));
  if (WIFEXITED(st)) return "exited with code " + std::to_string(WEXITSTATUS(st));
  return "ended";
}

WorkerReply Worker::call(const nlohmann::json& request, const std::string& first_phase) {
  WorkerReply r;
  if (pid_ <= 0 && !starting_) {
    starting_ = true;
    bool ok = start(&r);
    starting_ = false;
    if (!ok) return r;
    // A fresh worker has just answered "hello"; that was the request.
    if (request.value("op", "") == "hello") {
      r.status = WorkerReply::Status::ok;
      r.msg = hello_;
      return r;
    }
  }
  r.phase = first_phase;
  try {
    write_frame(to_worker_, request);
  } catch (const std::exception& e) {
    r.detail = std::string("worker pipe closed: ") + e.what();
  }
  auto deadline = std::chrono::steady_clock::now() +
                  std::chrono::milliseconds(static_cast<int64_t>(deadlines_.get(first_phase) * 1000));
  for (;;) {
    if (!r.detail.empty()) break;
    FrameRead fr = read_frame(from_worker_, deadline);
    if (fr.status == ReadStatus::ok) {
      if (fr.msg.contains("event")) {
        // A phase change restarts the clock with that phase's allowance.
        r.phase = fr.msg.value("phase", r.phase);
        deadline = std::chrono::steady_clock::now() +
                   std::chrono::milliseconds(static_cast<int64_t>(deadlines_.get(r.phase) * 1000));
        continue;
      }
      r.status = WorkerReply::Status::ok;
      r.msg = std::move(fr.msg);
      r.output = take_output();
      if (r.msg.value("exit_after", false)) stop();  // the worker leaves after a sticky fault
      return r;
    }
    if (fr.status == ReadStatus::timeout) {
      r.status = WorkerReply::Status::timeout;
      r.detail = "no answer within the " + std::to_string(static_cast<int>(deadlines_.get(r.phase))) + " s deadline of phase '" + r.phase + "'";
      stop();
      r.output = take_output();
      return r;
    }
    r.detail = fr.status == ReadStatus::malformed ? "malformed reply: " + fr.error : "worker closed its pipe";
  }
  // Dead or broken: reap and describe.
  int st = 0;
  int pid = pid_;
  if (pid > 0) {
    // Give a dying worker a moment to finish exiting so its status is known.
    for (int i = 0; i < 50; ++i) {
      if (::waitpid(pid, &st, WNOHANG) == pid) {
        pid_ = -1;
        r.detail = describe_status(st);
        break;
      }
      usleep(10000);
    }
  }
  stop();
  r.status = WorkerReply::Status::crash;
  r.output = take_output();
  return r;
}

}  // namespace crucible
