#include "backends/cpu/cpu_compiler.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "backends/cpu/subprocess.h"
#include "harness/error.h"

#ifndef CRUCIBLE_SOURCE_DIR
#define CRUCIBLE_SOURCE_DIR "."
#endif

namespace crucible {

namespace fs = std::filesystem;

namespace {

// A temporary directory, removed with everything in it.
class TempDir {
 public:
  TempDir() {
    const char* t = getenv("TMPDIR");
    std::string tmpl = std::string(t && *t ? t : "/tmp") + "/crucible-cxx-XXXXXX";
    std::vector<char> buf(tmpl.begin(), tmpl.end());
    buf.push_back('\0');
    if (!mkdtemp(buf.data())) CRU_THROW("mkdtemp(" + tmpl + "): " + std::strerror(errno));
    path_ = buf.data();
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

struct RunResult {
  bool timed_out = false;
  int status = 0;
  std::string output;  // stdout and stderr, capped
};

// Runs a command, collecting its output up to `cap` bytes (the rest is drained and
// counted) until it exits or the deadline passes; then the process group is killed.
RunResult run_capture(const std::string& path, const std::vector<std::string>& argv, const std::string& cwd,
                      int64_t timeout_ms, size_t cap) {
  int p[2];
  if (pipe2(p, O_CLOEXEC) != 0) CRU_THROW(std::string("pipe2: ") + std::strerror(errno));
  UniqueFd rd(p[0]), wr(p[1]);
  SpawnSpec spec;
  spec.path = path;
  spec.argv = argv;
  const char* path_env = getenv("PATH");
  spec.env = {std::string("PATH=") + (path_env ? path_env : "/usr/local/bin:/usr/bin:/bin"), "LANG=C", "LC_ALL=C",
              "TMPDIR=" + cwd};
  spec.cwd = cwd;
  spec.stdout_fd = wr.get();
  spec.stderr_fd = wr.get();
  spec.rlimit_as = int64_t(8) << 30;  // a compiler bomb meets this before the machine's memory
  pid_t pid = spawn_process(spec);
  wr.reset();

  RunResult res;
  size_t dropped = 0;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
  char buf[16384];
  for (;;) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now()).count();
    if (left <= 0) {
      res.timed_out = true;
      break;
    }
    struct pollfd pfd{rd.get(), POLLIN, 0};
    int pr = poll(&pfd, 1, static_cast<int>(std::min<int64_t>(left, 1000)));
    if (pr < 0 && errno != EINTR) break;
    if (pr <= 0) continue;
    ssize_t n = ::read(rd.get(), buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;  // EOF: every writer (the whole group) closed its end
    size_t take = std::min(static_cast<size_t>(n), cap > res.output.size() ? cap - res.output.size() : 0);
    res.output.append(buf, take);
    dropped += static_cast<size_t>(n) - take;
  }
  if (res.timed_out) {
    res.status = kill_and_reap(pid);
  } else {
    auto st = wait_until(pid, deadline);
    if (st) {
      res.status = *st;
    } else {
      res.timed_out = true;
      res.status = kill_and_reap(pid);
    }
  }
  kill(-pid, SIGKILL);  // anything the compiler left behind in its group
  if (dropped) res.output += "\n[log truncated: " + std::to_string(dropped) + " more bytes]\n";
  return res;
}

std::string sanitize_name(const std::string& name) {
  std::string s;
  for (char c : name) s += (isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.') ? c : '_';
  if (s.empty() || s[0] == '.') s = "candidate" + s;
  return s.substr(0, 64);
}

std::vector<uint8_t> read_file(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  return std::vector<uint8_t>((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
}

}  // namespace

CpuCompiler::CpuCompiler() {
  const char* env = getenv("CRUCIBLE_CXX");
  std::string want = env && *env ? env : "c++";
  cxx_ = find_executable(want);
  if (cxx_.empty()) cxx_ = want;  // compile() reports it; fingerprint() names it
  if (const char* t = getenv("CRUCIBLE_CPU_COMPILE_TIMEOUT_MS")) {
    long long v = atoll(t);
    if (v > 0) timeout_ms_ = v;
  }
}

std::vector<std::string> CpuCompiler::flags(const CompileOptions& opt) const {
  // The device's arch fact is the machine name (x86_64), which means "this host".
  struct utsname u;
  const bool host = opt.arch.empty() || opt.arch == "native" || (uname(&u) == 0 && opt.arch == u.machine);
  std::vector<std::string> f = {"-O2",
                                "-march=" + (host ? std::string("native") : opt.arch),
                                "-std=c++17",
                                "-shared",
                                "-fPIC",
                                "-fno-exceptions",
                                // undefined symbols are a compile error here, not a load failure later
                                "-Wl,-z,defs",
                                "-fdiagnostics-color=never",
                                "-fmax-errors=20",
                                std::string("-I") + CRUCIBLE_SOURCE_DIR + "/backends/common/include"};
  f.insert(f.end(), opt.extra.begin(), opt.extra.end());
  return f;
}

std::string CpuCompiler::fingerprint(const CompileOptions& opt) const {
  std::call_once(version_once_, [this] {
    try {
      TempDir dir;
      RunResult r = run_capture(cxx_, {cxx_, "--version"}, dir.path(), 10000, 4096);
      version_ = r.output.substr(0, r.output.find('\n'));
    } catch (const std::exception& e) {
      version_ = std::string("unavailable: ") + e.what();
    }
  });
  std::string fp = cxx_ + "|" + version_;
  for (auto& f : flags(opt)) fp += "|" + f;
  return fp;
}

LoadTimeCode CpuCompiler::baseline(const std::vector<std::string>& fl) {
  std::string key;
  for (auto& f : fl) key += f + '\x1f';
  std::lock_guard<std::mutex> lock(baseline_mu_);
  auto it = baselines_.find(key);
  if (it != baselines_.end()) return it->second;
  TempDir dir;
  {
    std::ofstream(dir.path() + "/empty.cpp") << "extern \"C\" void crucible_empty_baseline() {}\n";
  }
  std::vector<std::string> argv = {cxx_};
  argv.insert(argv.end(), fl.begin(), fl.end());
  argv.insert(argv.end(), {"empty.cpp", "-o", "empty.so"});
  RunResult r = run_capture(cxx_, argv, dir.path(), std::max<int64_t>(timeout_ms_, 30000), 4096);
  LoadTimeCode base;
  if (!r.timed_out && WIFEXITED(r.status) && WEXITSTATUS(r.status) == 0)
    base = inspect_load_time_code(read_file(dir.path() + "/empty.so"));
  if (!base.parsed) CRU_THROW("cannot build the empty baseline object with " + cxx_ + ": " + r.output);
  baselines_[key] = base;
  return base;
}

CompileResult CpuCompiler::compile(const std::string& source, const std::string& name, const CompileOptions& opt) {
  CompileResult res;
  res.artifact_kind = "so";
  const auto t0 = std::chrono::steady_clock::now();
  const size_t cap = opt.log_cap_bytes > 0 ? static_cast<size_t>(opt.log_cap_bytes) : 16384;
  TempDir dir;
  const std::string file = sanitize_name(name.empty() ? "candidate" : name) + ".cpp";
  {
    std::ofstream out(dir.path() + "/" + file, std::ios::binary);
    out << source;
    if (!out) CRU_THROW("cannot write " + dir.path() + "/" + file);
  }
  const auto fl = flags(opt);
  std::vector<std::string> argv = {cxx_};
  argv.insert(argv.end(), fl.begin(), fl.end());
  argv.insert(argv.end(), {file, "-o", "candidate.so"});
  RunResult r;
  try {
    r = run_capture(cxx_, argv, dir.path(), timeout_ms_, cap);
  } catch (const Error& e) {
    res.log = std::string("cannot run the compiler: ") + e.what();
    return res;
  }
  res.compile_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  res.log = r.output;
  if (r.timed_out) {
    res.log = "compile timed out after " + std::to_string(timeout_ms_ / 1000.0).substr(0, 5) + " s\n" + res.log;
    return res;
  }
  if (!WIFEXITED(r.status) || WEXITSTATUS(r.status) != 0) {
    if (res.log.empty()) res.log = "compiler failed: " + describe_wait_status(r.status);
    return res;
  }
  res.artifact = read_file(dir.path() + "/candidate.so");
  if (res.artifact.empty()) {
    res.log += "compiler produced no shared object";
    return res;
  }
  std::string extra = extra_load_time_code(inspect_load_time_code(res.artifact), baseline(fl));
  if (!extra.empty()) {
    res.artifact.clear();
    res.log = extra + (res.log.empty() ? "" : "\n" + res.log);
    return res;
  }
  res.ok = true;
  return res;
}

}  // namespace crucible
