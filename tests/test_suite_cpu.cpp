// Tests every task suite under tasks/ on the CPU backend: each task's CPU reference runs
// against every stored CPU solution on all its test shapes (verification only, through
// `crucible run` with the replay agent), and each solution gets the verdict (or flag)
// its solutions/expected.yaml names. One test per suite folder.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>

#include <nlohmann/json.hpp>
#include <yaml-cpp/yaml.h>

#include "support/run_command.h"

namespace fs = std::filesystem;

static const fs::path kBin = fs::path(CRUCIBLE_BINARY_DIR) / "crucible";
static const fs::path kRoot = fs::path(CRUCIBLE_TEST_DIR).parent_path();

class SuiteOnCpu : public ::testing::TestWithParam<std::string> {};

TEST_P(SuiteOnCpu, EverySolutionGetsItsExpectedVerdict) {
  fs::path suite = kRoot / "tasks" / GetParam();
  fs::path d = fs::temp_directory_path() / ("crucible_suite_cpu_" + GetParam() + "_" + std::to_string(getpid()));
  fs::remove_all(d);
  fs::create_directories(d);
  std::ofstream(d / "run.yaml") << "suite: " << suite.string()
                                << "\nbackend: cpu\nagent: replay\ntiming: {time: false, run_deadline_ms: 5000}\n"
                                   "deadlines: {verify: 120}\n";
  std::string cmd = kBin.string() + " run " + (d / "run.yaml").string() + " --name s --results " + (d / "r").string() + " 2>&1";
  std::string out = crucible::testing::run_command(cmd);
  std::map<std::string, nlohmann::json> recs;
  std::ifstream in(d / "r" / "s" / "records.jsonl");
  std::string line;
  while (std::getline(in, line)) {
    auto j = nlohmann::json::parse(line);
    recs[j["task"].get<std::string>() + "/" + j["candidate_file"].get<std::string>()] = j;
  }
  int expected_count = 0;
  for (auto& e : fs::recursive_directory_iterator(suite)) {
    if (e.path().filename() != "expected.yaml") continue;
    YAML::Node t = YAML::LoadFile((e.path().parent_path().parent_path() / "task.yaml").string());
    std::string task = t["name"].as<std::string>();
    YAML::Node ex = YAML::LoadFile(e.path().string());
    for (auto it = ex.begin(); it != ex.end(); ++it) {
      std::string file = it->first.as<std::string>(), want = it->second.as<std::string>();
      if (fs::path(file).extension() != ".cpp") continue;
      expected_count++;
      auto r = recs.find(task + "/" + file);
      ASSERT_NE(r, recs.end()) << task << "/" << file << " was not evaluated\n" << out.substr(0, 4000);
      const auto& j = r->second;
      bool flag = false;
      for (auto& f : j["flags"]) flag |= f == want;
      EXPECT_TRUE(j["verdict"] == want || (flag && j["verdict"] != "pass"))
          << task << "/" << file << ": expected " << want << ", got " << j["verdict"] << " " << j["flags"] << ": " << j["message"];
    }
  }
  EXPECT_GT(expected_count, 0);
}

static std::vector<std::string> suites() {
  std::vector<std::string> s;
  for (auto& e : fs::directory_iterator(kRoot / "tasks"))
    if (e.is_directory() && e.path().filename() != "baselines") s.push_back(e.path().filename().string());
  std::sort(s.begin(), s.end());
  return s;
}

INSTANTIATE_TEST_SUITE_P(Tasks, SuiteOnCpu, ::testing::ValuesIn(suites()), [](const auto& i) { return i.param; });
