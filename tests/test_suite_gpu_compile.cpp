// Tests that every GPU source in tasks/ compiles for both vendors from one source
// (runs in CI, no GPU): for each suite folder under tasks/ (level1, level2, level3,
// quickstart, ... found when the test binary starts, so new tasks and suites join by
// themselves), every task folder in it (any depth, a folder with task.yaml) has its
// GPU reference and every solutions/*.cu compiled through a compile-only worker, for
// gfx90a with hiprtc and for sm_90 with NVRTC. Every file must compile, except those
// its solutions/expected.yaml lists as compile_error, which must not. One test per
// (suite, backend), not per file, to keep ctest quick.
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "harness/backend_registry.h"
#include "harness/worker_client.h"

namespace fs = std::filesystem;
using namespace crucible;

namespace {

const fs::path kTasks = fs::path(CRUCIBLE_TEST_DIR) / ".." / "tasks";

struct Param {
  std::string suite;    // folder name under tasks/
  std::string backend;  // "hip" or "cuda"
  std::string arch;     // "gfx90a" or "sm_90"
};

void PrintTo(const Param& p, std::ostream* os) { *os << "tasks/" << p.suite << " with " << p.backend << " for " << p.arch; }

std::vector<Param> params() {
  std::vector<Param> v;
  std::vector<std::string> suites;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(kTasks, ec))  // tasks/baselines/ holds PyTorch timings, no tasks
    if (e.is_directory() && e.path().filename() != "baselines") suites.push_back(e.path().filename().string());
  std::sort(suites.begin(), suites.end());
  for (const auto& s : suites) {
    v.push_back({s, "hip", "gfx90a"});
    v.push_back({s, "cuda", "sm_90"});
  }
  return v;
}

std::string read(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

struct Source {
  fs::path path;
  bool expect_ok = true;
};

// Every GPU source of every task under `suite`, with what it is expected to do.
std::vector<Source> gpu_sources(const fs::path& suite) {
  std::vector<fs::path> task_dirs;
  if (fs::exists(suite / "task.yaml")) task_dirs.push_back(suite);
  for (const auto& e : fs::recursive_directory_iterator(suite))
    if (e.is_directory() && fs::exists(e.path() / "task.yaml")) task_dirs.push_back(e.path());
  std::sort(task_dirs.begin(), task_dirs.end());
  std::vector<Source> out;
  for (const auto& t : task_dirs) {
    std::string ref = "reference.cu";
    try {
      YAML::Node y = YAML::LoadFile((t / "task.yaml").string());
      if (y["reference"] && y["reference"]["gpu"]) ref = y["reference"]["gpu"].as<std::string>();
      else if (!fs::exists(t / ref)) ref.clear();  // a CPU-only task
    } catch (const std::exception&) {
      // A broken task.yaml is the task loader's test's business; compile what is there.
    }
    if (!ref.empty()) out.push_back({t / ref, true});
    fs::path sol = t / "solutions";
    if (!fs::is_directory(sol)) continue;
    std::map<std::string, std::string> expected;
    if (fs::exists(sol / "expected.yaml")) {
      try {
        for (const auto& kv : YAML::LoadFile((sol / "expected.yaml").string()))
          expected[kv.first.as<std::string>()] = kv.second.as<std::string>();
      } catch (const std::exception&) {
      }
    }
    std::vector<fs::path> files;
    for (const auto& e : fs::directory_iterator(sol))
      if (e.is_regular_file() && e.path().extension() == ".cu") files.push_back(e.path());
    std::sort(files.begin(), files.end());
    for (const auto& f : files) {
      auto it = expected.find(f.filename().string());
      out.push_back({f, !(it != expected.end() && it->second == "compile_error")});
    }
  }
  return out;
}

class SuiteGpuCompile : public ::testing::TestWithParam<Param> {};

}  // namespace

TEST_P(SuiteGpuCompile, EveryGpuSourceCompiles) {
  const Param& p = GetParam();
  if (!find_backend(p.backend)) GTEST_SKIP() << "backend '" << p.backend << "' is not built";
  std::vector<Source> sources = gpu_sources(kTasks / p.suite);
  if (sources.empty()) GTEST_SKIP() << "no GPU sources in tasks/" << p.suite;

  WorkerSpec spec;
  spec.backend = p.backend;
  spec.compile_only = true;
  spec.exe = CRUCIBLE_BINARY_DIR "/crucible";
  Worker w(spec);
  int compiled = 0;
  for (const Source& s : sources) {
    const std::string rel = fs::relative(s.path, kTasks).string();
    nlohmann::json req = {{"op", "compile"}, {"source", read(s.path)}, {"name", s.path.stem().string()}, {"arch", p.arch}};
    WorkerReply r = w.call(req, "compile");
    // A worker that crashed or hung is a failure for any file, compile_error ones included.
    ASSERT_EQ(r.status, WorkerReply::Status::ok)
        << rel << ": the compile worker " << (r.status == WorkerReply::Status::crash ? "crashed" : "timed out") << " ("
        << r.detail << ")\n" << r.output;
    ASSERT_FALSE(r.msg.contains("error")) << rel << ": " << r.msg.dump();
    const bool ok = r.msg.value("ok", false);
    if (s.expect_ok)
      EXPECT_TRUE(ok) << rel << " does not compile for " << p.arch << ":\n" << r.msg.value("log", std::string());
    else
      EXPECT_FALSE(ok) << rel << " is listed as compile_error but compiles for " << p.arch;
    ++compiled;
  }
  RecordProperty("files", compiled);
  EXPECT_EQ(compiled, static_cast<int>(sources.size()));
}

INSTANTIATE_TEST_SUITE_P(Tasks, SuiteGpuCompile, ::testing::ValuesIn(params()),
                         [](const ::testing::TestParamInfo<Param>& i) {
                           std::string n = i.param.suite + "_" + i.param.backend;
                           for (char& c : n)
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           return n;
                         });
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(SuiteGpuCompile);
