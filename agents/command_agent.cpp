// The command agent and its process runner (see command_agent.h). posix_spawn, not
// fork: the driver is multithreaded, and a forked child of a threaded process may only
// call async-signal-safe functions before exec.
#include "agents/command_agent.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <chrono>
#include <cstring>
#include <pthread.h>
#include <set>

#include "agents/redact.h"

extern char** environ;

namespace crucible {
namespace {

struct Fd {
  int fd = -1;
  Fd() = default;
  explicit Fd(int f) : fd(f) {}
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  ~Fd() { reset(); }
  void reset() {
    if (fd >= 0) ::close(fd);
    fd = -1;
  }
};

struct Pipe {
  Fd r, w;
  bool open() {
    int p[2];
    if (::pipe2(p, O_CLOEXEC) != 0) return false;  // CLOEXEC: no other child inherits them
    r.fd = p[0];
    w.fd = p[1];
    return true;
  }
};

struct SpawnActions {
  posix_spawn_file_actions_t a;
  SpawnActions() { posix_spawn_file_actions_init(&a); }
  ~SpawnActions() { posix_spawn_file_actions_destroy(&a); }
};
struct SpawnAttr {
  posix_spawnattr_t a;
  SpawnAttr() { posix_spawnattr_init(&a); }
  ~SpawnAttr() { posix_spawnattr_destroy(&a); }
};

// Writing to a pipe whose reader is gone raises SIGPIPE; block it in this thread only
// and swallow a pending one, so the harness's signal setup is left alone.
struct SigpipeGuard {
  sigset_t old{};
  SigpipeGuard() {
    sigset_t s;
    sigemptyset(&s);
    sigaddset(&s, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &s, &old);
  }
  ~SigpipeGuard() {
    sigset_t s;
    sigemptyset(&s);
    sigaddset(&s, SIGPIPE);
    timespec zero{0, 0};
    while (sigtimedwait(&s, nullptr, &zero) > 0) {
    }
    pthread_sigmask(SIG_SETMASK, &old, nullptr);
  }
};

void set_nonblock(int fd) { ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK); }

}  // namespace

ProcessResult run_process(const std::vector<std::string>& argv, const std::vector<std::string>& env,
                          const std::string& input, double timeout_s, size_t out_cap) {
  ProcessResult res;
  if (argv.empty()) {
    res.error = "empty command";
    return res;
  }
  Pipe in, out, err;
  if (!in.open() || !out.open() || !err.open()) {
    res.error = std::string("pipe: ") + std::strerror(errno);
    return res;
  }
  SpawnActions fa;
  posix_spawn_file_actions_adddup2(&fa.a, in.r.fd, 0);
  posix_spawn_file_actions_adddup2(&fa.a, out.w.fd, 1);
  posix_spawn_file_actions_adddup2(&fa.a, err.w.fd, 2);
  SpawnAttr attr;
  // Its own process group, so that the deadline kills everything it started; default
  // signal dispositions and an empty mask, whatever this thread has.
  sigset_t none, all;
  sigemptyset(&none);
  sigfillset(&all);
  posix_spawnattr_setsigmask(&attr.a, &none);
  posix_spawnattr_setsigdefault(&attr.a, &all);
  posix_spawnattr_setpgroup(&attr.a, 0);
  posix_spawnattr_setflags(&attr.a, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);

  std::vector<char*> av, ev;
  for (const auto& a : argv) av.push_back(const_cast<char*>(a.c_str()));
  av.push_back(nullptr);
  for (const auto& e : env) ev.push_back(const_cast<char*>(e.c_str()));
  ev.push_back(nullptr);

  pid_t pid = -1;
  const int rc = posix_spawnp(&pid, av[0], &fa.a, &attr.a, av.data(), ev.data());
  if (rc != 0) {
    res.error = "cannot start '" + argv[0] + "': " + std::strerror(rc);
    return res;
  }
  res.started = true;
  in.r.reset();
  out.w.reset();
  err.w.reset();
  set_nonblock(in.w.fd);
  set_nonblock(out.r.fd);
  set_nonblock(err.r.fd);

  SigpipeGuard sigpipe;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_s);
  size_t written = 0;
  if (input.empty()) in.w.reset();
  constexpr size_t kErrTail = 8192;
  char buf[65536];
  while (out.r.fd >= 0 || err.r.fd >= 0) {
    const auto now = std::chrono::steady_clock::now();
    if (now >= deadline) {
      res.timed_out = true;
      break;
    }
    pollfd fds[3];
    int n = 0;
    int iw = -1, io = -1, ie = -1;
    if (in.w.fd >= 0) { iw = n; fds[n++] = {in.w.fd, POLLOUT, 0}; }
    if (out.r.fd >= 0) { io = n; fds[n++] = {out.r.fd, POLLIN, 0}; }
    if (err.r.fd >= 0) { ie = n; fds[n++] = {err.r.fd, POLLIN, 0}; }
    const int ms = static_cast<int>(std::chrono::duration_cast<std::chrono::milliseconds>(deadline - now).count()) + 1;
    const int pr = ::poll(fds, n, ms);
    if (pr < 0) {
      if (errno == EINTR) continue;
      res.error = std::string("poll: ") + std::strerror(errno);
      break;
    }
    if (iw >= 0 && fds[iw].revents) {
      const ssize_t k = ::write(in.w.fd, input.data() + written, input.size() - written);
      if (k > 0) written += static_cast<size_t>(k);
      if ((k < 0 && errno != EAGAIN && errno != EINTR) || written == input.size()) in.w.reset();  // EPIPE: it stopped reading
    }
    if (io >= 0 && fds[io].revents) {
      const ssize_t k = ::read(out.r.fd, buf, sizeof buf);
      if (k > 0) {
        const size_t room = out_cap > res.out.size() ? out_cap - res.out.size() : 0;
        if (static_cast<size_t>(k) > room) res.out_truncated = true;
        res.out.append(buf, std::min(room, static_cast<size_t>(k)));
      } else if (k == 0 || (errno != EAGAIN && errno != EINTR)) {
        out.r.reset();
      }
    }
    if (ie >= 0 && fds[ie].revents) {
      const ssize_t k = ::read(err.r.fd, buf, sizeof buf);
      if (k > 0) {
        res.err_tail.append(buf, static_cast<size_t>(k));
        if (res.err_tail.size() > 2 * kErrTail) res.err_tail.erase(0, res.err_tail.size() - kErrTail);
      } else if (k == 0 || (errno != EAGAIN && errno != EINTR)) {
        err.r.reset();
      }
    }
  }
  if (res.err_tail.size() > kErrTail) res.err_tail.erase(0, res.err_tail.size() - kErrTail);

  // Output closed: give the program until the deadline to exit, then kill its group.
  int status = 0;
  bool reaped = false;
  while (!res.timed_out) {
    const pid_t w = ::waitpid(pid, &status, WNOHANG);
    if (w == pid || (w < 0 && errno != EINTR)) {
      reaped = true;
      break;
    }
    if (std::chrono::steady_clock::now() >= deadline) {
      res.timed_out = true;
      break;
    }
    ::usleep(2000);
  }
  if (!reaped) {
    ::kill(-pid, SIGKILL);
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
  }
  // Whatever it left running in its group goes too (the leader is reaped, but its
  // group id stays reserved while members remain).
  ::kill(-pid, SIGKILL);
  if (WIFEXITED(status)) res.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) res.term_signal = WTERMSIG(status);
  return res;
}

CommandAgent::CommandAgent(ModelConfig cfg) : cfg_(std::move(cfg)) {
  const std::set<std::string> pass(cfg_.command_pass_env.begin(), cfg_.command_pass_env.end());
  for (char** e = environ; e && *e; ++e) {
    const std::string kv = *e;
    const auto eq = kv.find('=');
    const std::string name = kv.substr(0, eq);
    if (pass.count(name)) {
      env_.push_back(kv);
      if (eq != std::string::npos && eq + 1 < kv.size()) secrets_.push_back(kv.substr(eq + 1));
      continue;
    }
    if (is_secret_env_name(name) || (!cfg_.api_key_env.empty() && name == cfg_.api_key_env)) continue;
    env_.push_back(kv);
  }
}

nlohmann::json CommandAgent::request_json(const AgentRequest& req) const {
  nlohmann::json j;
  j["model"] = cfg_.model.empty() ? cfg_.name : cfg_.model;
  j["system"] = req.system;
  auto msgs = nlohmann::json::array();
  for (const auto& m : req.messages) msgs.push_back({{"role", m.role}, {"content", m.content}});
  j["messages"] = std::move(msgs);
  j["max_tokens"] = cfg_.max_tokens;
  if (cfg_.has_temperature) j["temperature"] = cfg_.temperature;
  if (cfg_.has_top_p) j["top_p"] = cfg_.top_p;
  if (cfg_.seed) j["seed"] = *cfg_.seed;
  if (!cfg_.extra_body.empty()) j.merge_patch(cfg_.extra_body);
  return j;
}

AgentResponse CommandAgent::complete(const AgentRequest& req) {
  const auto t0 = std::chrono::steady_clock::now();
  AgentResponse r;
  r.attempts = 1;
  ProcessResult p = run_process(cfg_.command, env_, request_json(req).dump() + "\n", cfg_.command_timeout_s);
  auto clean = [&](std::string s) {
    for (const auto& secret : secrets_) s = redact(std::move(s), secret);
    return s;
  };
  r.raw_body = clean(p.out);
  const std::string err_tail = clean(p.err_tail);
  if (!p.started) {
    r.error = p.error;
  } else if (p.timed_out) {
    char secs[32];
    std::snprintf(secs, sizeof secs, "%g", cfg_.command_timeout_s);
    r.error = std::string("command timed out after ") + secs + " s (process group killed)";
  } else if (p.term_signal) {
    r.error = "command killed by signal " + std::to_string(p.term_signal) + (err_tail.empty() ? "" : "; stderr: " + err_tail);
  } else if (p.exit_code != 0) {
    r.error = "command exited with status " + std::to_string(p.exit_code) + (err_tail.empty() ? "" : "; stderr: " + err_tail);
  } else if (p.out_truncated) {
    r.error = "command output larger than the cap";
  } else {
    // JSON object with "text" → structured answer; anything else is the answer's text.
    auto j = nlohmann::json::parse(r.raw_body, nullptr, false);
    if (!j.is_discarded() && j.is_object() && (j.contains("text") || j.contains("error"))) {
      if (j.contains("error") && !j["error"].is_null()) {
        r.error = "command reported: " + (j["error"].is_string() ? j["error"].get<std::string>() : j["error"].dump());
        r.fatal = j.value("fatal", false);
      } else if (!j["text"].is_string()) {
        r.error = "malformed body: \"text\" is not a string";
      } else try {
        r.ok = true;
        r.text = clean(j["text"].get<std::string>());
        r.finish_reason = j.value("finish_reason", std::string("stop"));
        r.truncated = j.value("truncated", r.finish_reason == "length" || r.finish_reason == "max_tokens");
        r.tokens_in = j.value("tokens_in", int64_t{0});
        r.tokens_out = j.value("tokens_out", int64_t{0});
        if (j.contains("cost_usd") && j["cost_usd"].is_number())
          r.cost_usd = j["cost_usd"].get<double>();
        else
          r.cost_usd = (static_cast<double>(r.tokens_in) * cfg_.price_in_per_mtok +
                        static_cast<double>(r.tokens_out) * cfg_.price_out_per_mtok) / 1e6;
      } catch (const nlohmann::json::exception& e) {
        r = AgentResponse{};
        r.attempts = 1;
        r.raw_body = clean(p.out);
        r.error = std::string("malformed body: ") + e.what();
      }
    } else {
      r.ok = true;
      r.text = clean(p.out);
      r.finish_reason = "stop";
    }
  }
  r.latency_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  return r;
}

}  // namespace crucible
