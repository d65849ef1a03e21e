// Integration tests of the `crucible` binary on the CPU backend: every quickstart
// solution gets the verdict its expected.yaml names; a never-returning candidate is a
// timeout within its deadline + 2 s; a run with a crash and a hang still passes the
// good candidates; a run with a PyTorch baselines file gives labelled speedups over
// eager; a run killed with SIGKILL and rerun records every item exactly once.
#include <gtest/gtest.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <thread>

#include <nlohmann/json.hpp>
#include <yaml-cpp/yaml.h>

#include "support/run_command.h"

namespace fs = std::filesystem;

static const fs::path kBin = fs::path(CRUCIBLE_BINARY_DIR) / "crucible";
static const fs::path kRoot = fs::path(CRUCIBLE_TEST_DIR).parent_path();

static std::string run_cmd(const std::string& cmd, int* status = nullptr) {
  return crucible::testing::run_command(cmd, status);
}

static nlohmann::json eval_json(const fs::path& task, const fs::path& cand, const std::string& extra = "") {
  std::string cmd = kBin.string() + " eval --backend cpu --json --max-time 0.1 --task " + task.string() +
                    " --candidate " + cand.string() + " " + extra + " 2>/dev/null";
  std::string out = run_cmd(cmd);
  try {
    return nlohmann::json::parse(out);
  } catch (...) {
    ADD_FAILURE() << "not JSON from: " << cmd << "\n" << out;
    return nlohmann::json::object();
  }
}

static bool has_flag(const nlohmann::json& j, const std::string& f) {
  if (!j.contains("flags")) return false;
  for (auto& x : j["flags"])
    if (x == f) return true;
  return false;
}

static const std::set<std::string> kVerdicts = {"pass", "format_error", "compile_error", "launch_error", "runtime_error",
                                                "timeout", "crash", "wrong_output"};

class QuickstartSolution : public ::testing::TestWithParam<std::pair<std::string, std::string>> {};

TEST_P(QuickstartSolution, GetsItsExpectedVerdict) {
  auto [file, expected] = GetParam();
  fs::path cand = kRoot / "tasks" / "quickstart" / file;
  fs::path task = cand.parent_path().parent_path();
  auto t0 = std::chrono::steady_clock::now();
  auto j = eval_json(task, cand, "--deadline 3");
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  ASSERT_TRUE(j.contains("verdict")) << j.dump();
  if (kVerdicts.count(expected)) {
    EXPECT_EQ(j["verdict"], expected) << j.dump(2);
  } else {
    EXPECT_TRUE(has_flag(j, expected)) << j.dump(2);
    EXPECT_NE(j["verdict"], "pass") << j.dump(2);
  }
  for (const char* k : {"verdict", "flags", "message", "speedup", "candidate_ms", "reference_ms"}) EXPECT_TRUE(j.contains(k)) << k;
  if (expected == "pass") {
    EXPECT_TRUE(j["speedup"].is_number());
    EXPECT_TRUE(j["candidate_ms"].is_number());
  } else {
    EXPECT_TRUE(j["speedup"].is_null());
  }
  if (expected == "timeout") EXPECT_LT(secs, 3 + 2 + 3.0) << "the hang must end within its 3 s deadline + 2 s (+ compile)";
}

static std::vector<std::pair<std::string, std::string>> quickstart_cpu_solutions() {
  std::vector<std::pair<std::string, std::string>> out;
  for (auto& e : fs::directory_iterator(kRoot / "tasks" / "quickstart")) {
    fs::path ex = e.path() / "solutions" / "expected.yaml";
    if (!fs::exists(ex)) continue;
    YAML::Node n = YAML::LoadFile(ex.string());
    for (auto it = n.begin(); it != n.end(); ++it) {
      std::string f = it->first.as<std::string>();
      if (fs::path(f).extension() == ".cpp")
        out.push_back({e.path().filename().string() + "/solutions/" + f, it->second.as<std::string>()});
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

INSTANTIATE_TEST_SUITE_P(Cpu, QuickstartSolution, ::testing::ValuesIn(quickstart_cpu_solutions()),
                         [](const auto& info) {
                           std::string n = info.param.first;
                           for (auto& c : n)
                             if (!isalnum(static_cast<unsigned char>(c))) c = '_';
                           return n;
                         });

TEST(Cli, EvalTextFormShowsVerdictAndTable) {
  fs::path task = kRoot / "tasks" / "quickstart" / "relu";
  std::string out = run_cmd(kBin.string() + " eval --backend cpu --max-time 0.1 --task " + task.string() +
                            " --candidate " + (task / "solutions" / "good_fast.cpp").string());
  EXPECT_NE(out.find("verdict    pass"), std::string::npos) << out;
  EXPECT_NE(out.find("speedup"), std::string::npos) << out;
  EXPECT_NE(out.find("N=1000003"), std::string::npos) << out;
}

TEST(Cli, MalformedTaskNamesFileAndField) {
  fs::path d = fs::temp_directory_path() / ("crucible_cli_badtask_" + std::to_string(getpid()));
  fs::create_directories(d);
  std::ofstream(d / "task.yaml") << "name: bad\nlevel: 1\ninputs:\n  x: {dtype: f33, shape: [N]}\noutputs:\n  y: {dtype: f32, shape: [N]}\ntests:\n  - {N: 4}\n";
  int st = 0;
  std::string out = run_cmd(kBin.string() + " eval --backend cpu --task " + d.string() + " --candidate /dev/null 2>&1", &st);
  EXPECT_NE(st, 0);
  EXPECT_NE(out.find("task.yaml:4"), std::string::npos) << out;
  EXPECT_NE(out.find("f33"), std::string::npos) << out;
}

// A replay folder with a crashing, a hanging and two good candidates for one task.
static fs::path make_replay_run(const std::string& name) {
  fs::path d = fs::temp_directory_path() / ("crucible_cli_run_" + name + "_" + std::to_string(getpid()));
  fs::remove_all(d);
  fs::path sol = kRoot / "tasks" / "quickstart" / "relu" / "solutions";
  fs::create_directories(d / "replay" / "relu");
  fs::copy_file(kRoot / "tasks" / "quickstart" / "softmax" / "solutions" / "crashes.cpp", d / "replay" / "relu" / "a_crash.cpp");
  // The softmax crash is written for softmax's plan; make a relu-shaped crash instead.
  std::ofstream(d / "replay" / "relu" / "a_crash.cpp")
      << "extern \"C\" void relu(const float* x, float* y, long n) { *(volatile int*)(unsigned long)64 = 1; }\n"
         "/*@launch\nlaunches:\n  - kernel: relu\n    args: [x, y, i64(N)]\n@*/\n";
  fs::copy_file(sol / "hangs.cpp", d / "replay" / "relu" / "b_hang.cpp");
  fs::copy_file(sol / "good_fast.cpp", d / "replay" / "relu" / "c_good.cpp");
  fs::copy_file(sol / "good_slow.cpp", d / "replay" / "relu" / "d_good.cpp");
  std::ofstream(d / "run.yaml") << "suite: " << (kRoot / "tasks" / "quickstart").string()
                                << "\nfilter: {name: relu}\nbackend: cpu\nagent: replay\nreplay: {dir: replay}\n"
                                   "concurrency: {compiles: 1}\ntiming: {max_time_s: 0.1, run_deadline_ms: 2000}\n";
  return d;
}

static std::vector<nlohmann::json> records(const fs::path& f) {
  std::vector<nlohmann::json> out;
  std::ifstream in(f);
  std::string line;
  while (std::getline(in, line)) out.push_back(nlohmann::json::parse(line));
  return out;
}

TEST(Cli, RunGoesOnAfterCrashAndTimeout) {
  fs::path d = make_replay_run("faults");
  int st = 0;
  std::string out = run_cmd(kBin.string() + " run " + (d / "run.yaml").string() + " --name r --results " +
                                (d / "results").string() + " 2>&1",
                            &st);
  auto recs = records(d / "results" / "r" / "records.jsonl");
  ASSERT_EQ(recs.size(), 4u) << out;
  std::map<std::string, std::string> v;
  for (auto& r : recs) v[r["candidate_file"]] = r["verdict"];
  EXPECT_EQ(v["a_crash.cpp"], "runtime_error");
  EXPECT_EQ(v["b_hang.cpp"], "timeout");
  EXPECT_EQ(v["c_good.cpp"], "pass");
  EXPECT_EQ(v["d_good.cpp"], "pass");
  EXPECT_TRUE(fs::exists(d / "results" / "r" / "run.json"));
  for (auto& r : recs) EXPECT_TRUE(fs::exists(d / "results" / "r" / "candidates" / r["candidate"].get<std::string>()));
}

// A run config naming a PyTorch baselines file: every record of a task in it carries the
// eager time; a passing candidate timed at the baseline's shape gets eager / its median as
// speedup_vs_torch_eager, a failing one a note instead; run.json names the file; the
// report has the labelled "Over PyTorch eager" table. `baselines: none` turns it off.
TEST(Cli, RunWithBaselinesGivesLabelledSpeedupOverEager) {
  fs::path d = make_replay_run("baselines");
  fs::remove(d / "replay" / "relu" / "b_hang.cpp");
  std::ofstream(d / "base.json") << R"({"relu": {"eager_ms": 50.0, "compile_ms": 25.0, "shape": {"N": 1000000}}})";
  std::ofstream(d / "run.yaml", std::ios::app) << "baselines: base.json\n";
  int st = 0;
  std::string out = run_cmd(kBin.string() + " run " + (d / "run.yaml").string() + " --name r --results " +
                                (d / "results").string() + " 2>&1",
                            &st);
  auto recs = records(d / "results" / "r" / "records.jsonl");
  ASSERT_EQ(recs.size(), 3u) << out;
  for (auto& r : recs) {
    EXPECT_EQ(r["torch_eager_ms"], 50.0) << r.dump();
    EXPECT_EQ(r["baseline_file"], (d / "base.json").string());
    if (r["verdict"] == "pass") {
      double median = -1;
      for (auto& s : r["result"]["shapes"])
        if (s["kind"] == "benchmark" && s["params"]["N"] == 1000000) median = s["candidate"]["median_ms"].get<double>();
      ASSERT_GT(median, 0) << r.dump();
      EXPECT_NEAR(r["speedup_vs_torch_eager"].get<double>(), 50.0 / median, 1e-9 * 50.0 / median);
      EXPECT_NEAR(r["speedup_vs_torch_compile"].get<double>(), 25.0 / median, 1e-9 * 25.0 / median);
      EXPECT_FALSE(r.contains("baseline_note"));
    } else {
      EXPECT_TRUE(r["speedup_vs_torch_eager"].is_null());
      EXPECT_NE(r["baseline_note"].get<std::string>().find("did not pass"), std::string::npos);
    }
  }
  std::ifstream rj(d / "results" / "r" / "run.json");
  EXPECT_EQ(nlohmann::json::parse(rj)["baseline_file"], (d / "base.json").string());
  EXPECT_NE(out.find("Over PyTorch eager"), std::string::npos) << out;  // the headline table
  run_cmd(kBin.string() + " report " + (d / "results" / "r").string() + " -q 2>&1", &st);
  std::ifstream md(d / "results" / "r" / "report.md");
  std::string text((std::istreambuf_iterator<char>(md)), std::istreambuf_iterator<char>());
  EXPECT_NE(text.find("## Over PyTorch eager"), std::string::npos) << text;
  EXPECT_NE(text.find("| 1 of 1 |"), std::string::npos) << text;

  std::ifstream cin_(d / "run.yaml");
  std::string cfg((std::istreambuf_iterator<char>(cin_)), std::istreambuf_iterator<char>());
  cin_.close();
  cfg.replace(cfg.find("baselines: base.json"), 20, "baselines: none");
  std::ofstream(d / "run.yaml") << cfg;
  run_cmd(kBin.string() + " run " + (d / "run.yaml").string() + " --name off --results " + (d / "results").string() + " 2>&1");
  for (auto& r : records(d / "results" / "off" / "records.jsonl")) EXPECT_FALSE(r.contains("torch_eager_ms")) << r.dump();
  fs::remove_all(d);
}

TEST(Cli, KilledRunResumesWithEveryItemExactlyOnce) {
  fs::path d = make_replay_run("kill");
  // Use the whole quickstart suite's CPU solutions: enough items to kill mid-run.
  std::ofstream(d / "run.yaml") << "suite: " << (kRoot / "tasks" / "quickstart").string()
                                << "\nbackend: cpu\nagent: replay\nconcurrency: {compiles: 1}\n"
                                   "timing: {max_time_s: 0.05, run_deadline_ms: 2000}\n";
  fs::path rec = d / "results" / "k" / "records.jsonl";
  std::string cmd = kBin.string() + " run " + (d / "run.yaml").string() + " --name k --results " + (d / "results").string();
  pid_t pid = fork();
  if (pid == 0) {
    int fd = open("/dev/null", O_WRONLY);
    dup2(fd, 1);
    dup2(fd, 2);
    execl("/bin/sh", "sh", "-c", ("exec " + cmd).c_str(), nullptr);
    _exit(127);
  }
  // Kill once a few records exist.
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
  while (std::chrono::steady_clock::now() < deadline) {
    if (fs::exists(rec) && records(rec).size() >= 3) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  kill(pid, SIGKILL);
  int st;
  waitpid(pid, &st, 0);
  size_t before = records(rec).size();
  ASSERT_GE(before, 3u);
  // Simulate the worst case as well: a torn last line.
  std::ofstream(rec, std::ios::app) << "{\"key\": \"torn";
  int rc = 0;
  std::string out = run_cmd(cmd + " 2>&1", &rc);
  auto all = records(rec);
  std::map<std::string, int> seen;
  for (auto& r : all) seen[r["key"]]++;
  for (auto& [k, n] : seen) EXPECT_EQ(n, 1) << k;
  // Every CPU solution of the suite is there.
  size_t expected = 0;
  for (auto& e : fs::recursive_directory_iterator(kRoot / "tasks" / "quickstart"))
    if (e.path().extension() == ".cpp" && e.path().parent_path().filename() == "solutions") expected++;
  EXPECT_EQ(all.size(), expected) << out;
  EXPECT_GT(all.size(), before);
  EXPECT_NE(out.find("resuming"), std::string::npos) << out;
}
