// Shared pieces of the campaign tests and benchmark: OpenAI-compatible and Anthropic
// answer bodies for the scripted server, what round a request belongs to, the scripted
// vector_add candidates (CPU backend), a run config writer, and a child `crucible run`
// that a test can wait for or SIGKILL.
#pragma once
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "scripted_server.h"

extern char** environ;

namespace crucible::testing {

inline ScriptedReply openai_answer(const std::string& text, const std::string& finish = "stop", int tin = 1000,
                                   int tout = 200) {
  nlohmann::json j = {{"id", "chatcmpl-fake"},
                      {"object", "chat.completion"},
                      {"choices", {{{"index", 0}, {"message", {{"role", "assistant"}, {"content", text}}}, {"finish_reason", finish}}}},
                      {"usage", {{"prompt_tokens", tin}, {"completion_tokens", tout}, {"total_tokens", tin + tout}}}};
  return {200, j.dump(), {}, 0, false};
}

inline ScriptedReply anthropic_answer(const std::string& text, const std::string& stop = "end_turn", int tin = 1000,
                                      int tout = 200) {
  nlohmann::json j = {{"id", "msg_fake"},
                      {"type", "message"},
                      {"role", "assistant"},
                      {"content", {{{"type", "text"}, {"text", text}}}},
                      {"stop_reason", stop},
                      {"usage", {{"input_tokens", tin}, {"output_tokens", tout}}}};
  return {200, j.dump(), {}, 0, false};
}

// The model id and the round (1-based: user messages in the conversation) of a request.
struct RequestInfo {
  std::string model;
  int round = 0;
  std::string last_user;  // the newest user message: the task prompt or the feedback
};
inline RequestInfo request_info(const RecordedRequest& r) {
  RequestInfo i;
  auto j = nlohmann::json::parse(r.body, nullptr, false);
  if (j.is_discarded()) return i;
  i.model = j.value("model", "");
  for (auto& m : j["messages"])
    if (m.value("role", "") == "user") {
      i.round++;
      if (m["content"].is_string()) i.last_user = m["content"].get<std::string>();
      else if (m["content"].is_array())  // Anthropic content blocks
        for (auto& b : m["content"]) i.last_user = b.value("text", "");
    }
  return i;
}

// vector_add candidates for the CPU backend, as a model would answer them.
inline std::string fenced(const std::string& code) { return "Here is my kernel.\n\n```cpp\n" + code + "```\n"; }

inline const char* kPlan =
    "/*@launch\n"
    "launches:\n"
    "  - kernel: vector_add\n"
    "    args: [a, b, c, i64(N)]\n"
    "@*/\n";

// Line 4 of the candidate file uses an undeclared name.
inline std::string compile_error_candidate() {
  return std::string("#include <cstdint>\n"
                     "extern \"C\" void vector_add(const float* a, const float* b, float* c, int64_t n) {\n"
                     "  for (int64_t i = 0; i < n; ++i) c[i] = a[i] + b[i];\n"
                     "  c[0] = undeclared_total;\n"
                     "}\n") + kPlan;
}
// Off by one at index 5: reads b[6] for c[5] (in bounds whenever n > 6).
inline std::string off_by_one_candidate() {
  return std::string("#include <cstdint>\n"
                     "extern \"C\" void vector_add(const float* a, const float* b, float* c, int64_t n) {\n"
                     "  for (int64_t i = 0; i < n; ++i) c[i] = a[i] + b[i + (i == 5 && n > 6 ? 1 : 0)];\n"
                     "}\n") + kPlan;
}
inline std::string correct_candidate() {
  return std::string("#include <cstdint>\n"
                     "extern \"C\" void vector_add(const float* a, const float* b, float* c, int64_t n) {\n"
                     "  for (int64_t i = 0; i < n; ++i) c[i] = a[i] + b[i];\n"
                     "}\n") + kPlan;
}
// A model config as an inline YAML flow map.
inline std::string model_yaml(const std::string& name, const std::string& kind, const std::string& base_url,
                              const std::string& key_env, int max_concurrency = 4, const std::string& extra = "") {
  return "  - {name: " + name + ", kind: " + kind + ", base_url: \"" + base_url + "\", model: " + name +
         ", api_key_env: " + key_env + ", max_tokens: 2048, price_in_per_mtok: 3.0, price_out_per_mtok: 15.0" +
         ", max_retries: 3, retry_base_s: 0.05, retry_cap_s: 0.2, connect_timeout_s: 5, read_timeout_s: 30" +
         ", max_concurrency: " + std::to_string(max_concurrency) + extra + "}\n";
}

inline void write_run_config(const std::filesystem::path& file, const std::string& filter, int samples, int rounds,
                             const std::string& models_yaml, const std::string& extra = "") {
  std::ofstream(file) << "suite: " << (std::filesystem::path(CRUCIBLE_TEST_DIR).parent_path() / "tasks" / "quickstart").string()
                      << "\nfilter: {name: \"" << filter << "\"}\nbackend: cpu\nagent: models\nseed: 7\n"
                      << "samples: " << samples << "\nrounds: " << rounds << "\n"
                      << "timing: {max_time_s: 0.05, max_wall_s: 0.5}\n"
                      << extra << "models:\n" << models_yaml;
}

// `crucible run CONFIG --name NAME --results DIR` as a child process, output to `log`.
class CrucibleRun {
 public:
  CrucibleRun(const std::filesystem::path& config, const std::string& name, const std::filesystem::path& results,
              const std::filesystem::path& log) {
    std::vector<std::string> args = {std::string(CRUCIBLE_BINARY_DIR) + "/crucible", "run", config.string(), "--name", name,
                                     "--results", results.string()};
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, log.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
    posix_spawn_file_actions_adddup2(&fa, 1, 2);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    pid_t pid = -1;
    int rc = posix_spawn(&pid, argv[0], &fa, nullptr, argv.data(), environ);
    pid_ = pid;
    posix_spawn_file_actions_destroy(&fa);
    if (rc != 0) throw std::runtime_error("posix_spawn crucible failed");
  }
  ~CrucibleRun() {
    if (pid_ > 0) kill_now();
  }
  pid_t pid() const { return pid_; }
  // Waits for exit; returns the exit status (-signal when killed, -1000 on timeout).
  int wait(double timeout_s = 120) {
    auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_s);
    while (pid_ > 0) {
      int st = 0;
      pid_t p = pid_;
      pid_t r = ::waitpid(p, &st, WNOHANG);
      if (r == p) {
        pid_ = -1;
        return WIFEXITED(st) ? WEXITSTATUS(st) : -WTERMSIG(st);
      }
      if (std::chrono::steady_clock::now() > end) {
        kill_now();
        return -1000;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return -1;
  }
  // SIGKILL and reap (here or in a concurrent wait()): when this returns, the process
  // is dead and can write nothing more.
  void kill_now() {
    pid_t p = pid_.exchange(-1);
    if (p <= 0) return;
    ::kill(p, SIGKILL);
    int st = 0;
    ::waitpid(p, &st, 0);
  }
  bool running() const { return pid_ > 0; }

 private:
  std::atomic<pid_t> pid_{-1};
};

inline std::vector<nlohmann::json> read_jsonl(const std::filesystem::path& f) {
  std::vector<nlohmann::json> out;
  std::ifstream in(f);
  std::string line;
  while (std::getline(in, line))
    if (!line.empty()) out.push_back(nlohmann::json::parse(line));
  return out;
}

inline std::string slurp(const std::filesystem::path& f) {
  std::ifstream in(f, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace crucible::testing
