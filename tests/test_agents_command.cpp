// Tests the command agent: the request reaches the program as JSON on stdin, a JSON
// answer is read with its usage and cost, plain text is the answer, a non-zero exit is
// an error carrying stderr, the deadline kills the whole process group (a grandchild
// included), and credential variables are scrubbed from its environment unless passed
// through by name (then redacted from what comes back).
#include <gtest/gtest.h>

#include <signal.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <thread>

#include "agents/command_agent.h"

using namespace crucible;
using json = nlohmann::json;

namespace {

ModelConfig sh(const std::string& script) {
  ModelConfig c;
  c.name = "cmd";
  c.kind = "command";
  c.model = "my-agent-v1";
  c.command = {"/bin/sh", "-c", script};
  c.command_timeout_s = 10;
  c.max_tokens = 777;
  c.price_in_per_mtok = 1;
  c.price_out_per_mtok = 2;
  return c;
}

AgentRequest request() {
  AgentRequest r;
  r.system = "sys prompt";
  r.messages = {{"user", "task text with \"quotes\" and\nnewlines"}};
  return r;
}

}  // namespace

TEST(CommandAgent, ReceivesTheRequestAsJsonOnStdin) {
  const auto dir = std::filesystem::temp_directory_path() / ("cru_cmd_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const auto saved = dir / "stdin.json";
  CommandAgent agent(sh("cat > '" + saved.string() + "'; echo done"));
  const auto r = agent.complete(request());
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(r.text, "done\n");
  std::ifstream in(saved);
  const auto j = json::parse(in);
  EXPECT_EQ(j["model"], "my-agent-v1");
  EXPECT_EQ(j["system"], "sys prompt");
  EXPECT_EQ(j["max_tokens"], 777);
  ASSERT_EQ(j["messages"].size(), 1u);
  EXPECT_EQ(j["messages"][0]["role"], "user");
  EXPECT_EQ(j["messages"][0]["content"], "task text with \"quotes\" and\nnewlines");
  std::filesystem::remove_all(dir);
}

TEST(CommandAgent, ReadsAJsonAnswer) {
  CommandAgent agent(sh(R"(cat >/dev/null; printf '%s\n' '{"text": "```cuda\nk\n```", "finish_reason": "length", "tokens_in": 1000, "tokens_out": 2000}')"));
  const auto r = agent.complete(request());
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(r.text, "```cuda\nk\n```");
  EXPECT_EQ(r.finish_reason, "length");
  EXPECT_TRUE(r.truncated);
  EXPECT_EQ(r.tokens_in, 1000);
  EXPECT_EQ(r.tokens_out, 2000);
  EXPECT_NEAR(r.cost_usd, (1000 * 1.0 + 2000 * 2.0) / 1e6, 1e-12);
  EXPECT_EQ(r.attempts, 1);
}

TEST(CommandAgent, ReportedCostWinsAndReportedErrorsAreErrors) {
  CommandAgent a(sh(R"(echo '{"text": "x", "cost_usd": 0.5}')"));
  auto r = a.complete(request());
  ASSERT_TRUE(r.ok);
  EXPECT_DOUBLE_EQ(r.cost_usd, 0.5);
  CommandAgent b(sh(R"(echo '{"error": "upstream refused", "fatal": true}')"));
  r = b.complete(request());
  EXPECT_FALSE(r.ok);
  EXPECT_TRUE(r.fatal);
  EXPECT_NE(r.error.find("upstream refused"), std::string::npos);
  CommandAgent c(sh(R"(echo '{"text": 5}')"));
  r = c.complete(request());
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.error.find("malformed body"), std::string::npos);
}

TEST(CommandAgent, NonZeroExitCarriesStderr) {
  CommandAgent agent(sh("echo 'model server unreachable' >&2; exit 3"));
  const auto r = agent.complete(request());
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.error.find("status 3"), std::string::npos) << r.error;
  EXPECT_NE(r.error.find("model server unreachable"), std::string::npos) << r.error;
}

TEST(CommandAgent, MissingProgramIsAnError) {
  ModelConfig c = sh("");
  c.command = {"/nonexistent/agent-binary"};
  CommandAgent agent(c);
  const auto r = agent.complete(request());
  EXPECT_FALSE(r.ok);
  EXPECT_FALSE(r.error.empty());
}

TEST(CommandAgent, DeadlineKillsTheProcessGroup) {
  const auto dir = std::filesystem::temp_directory_path() / ("cru_cmd_dl_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const auto pidfile = dir / "grandchild.pid";
  // A grandchild that would outlive its parent, and a parent that never answers.
  auto c = sh("sleep 30 & echo $! > '" + pidfile.string() + "'; sleep 30");
  c.command_timeout_s = 0.3;
  CommandAgent agent(c);
  const auto t0 = std::chrono::steady_clock::now();
  const auto r = agent.complete(request());
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.error.find("timed out"), std::string::npos) << r.error;
  EXPECT_LT(s, 5.0);
  std::ifstream in(pidfile);
  pid_t grandchild = 0;
  in >> grandchild;
  ASSERT_GT(grandchild, 0);
  // Killed with its group; it was our grandchild, so once init reaps it, it is gone.
  bool gone = false;
  for (int i = 0; i < 200 && !gone; ++i) {
    gone = ::kill(grandchild, 0) != 0;
    if (!gone) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  EXPECT_TRUE(gone) << "grandchild " << grandchild << " survived the deadline";
  std::filesystem::remove_all(dir);
}

TEST(CommandAgent, EnvironmentIsScrubbedOfCredentials) {
  setenv("CRU_TEST_SECRET_API_KEY", "sk-must-not-leak-1", 1);
  setenv("OPENAI_API_KEY", "sk-must-not-leak-2", 1);
  setenv("HF_TOKEN", "hf-must-not-leak-3", 1);
  setenv("CRU_TEST_PLAIN_VAR", "visible", 1);
  setenv("CRU_TEST_PASSED_KEY", "sk-passed-but-redacted", 1);
  auto c = sh("env");
  c.command_pass_env = {"CRU_TEST_PASSED_KEY"};
  CommandAgent agent(c);
  const auto r = agent.complete(request());
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(r.text.find("sk-must-not-leak"), std::string::npos);
  EXPECT_EQ(r.text.find("hf-must-not-leak"), std::string::npos);
  EXPECT_EQ(r.text.find("CRU_TEST_SECRET_API_KEY"), std::string::npos);
  EXPECT_NE(r.text.find("CRU_TEST_PLAIN_VAR=visible"), std::string::npos);
  EXPECT_NE(r.text.find("CRU_TEST_PASSED_KEY=[REDACTED]"), std::string::npos) << "passed through, value redacted";
  EXPECT_EQ(r.text.find("sk-passed-but-redacted"), std::string::npos);
  EXPECT_EQ(r.raw_body.find("sk-passed-but-redacted"), std::string::npos);
  for (const char* v : {"CRU_TEST_SECRET_API_KEY", "OPENAI_API_KEY", "HF_TOKEN", "CRU_TEST_PLAIN_VAR", "CRU_TEST_PASSED_KEY"}) unsetenv(v);
}

TEST(CommandAgent, LargeInputAndOutputDoNotDeadlock) {
  // The program echoes its stdin: 4 MiB each way through pipes of 64 KiB.
  AgentRequest big;
  big.messages = {{"user", std::string(4 << 20, 'a')}};
  CommandAgent agent(sh("cat"));
  const auto r = agent.complete(big);
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_GT(r.text.size(), 4u << 20);
  EXPECT_TRUE(json::parse(r.text).is_object());
}

TEST(RunProcess, ProgramThatIgnoresStdinStillFinishes) {
  const auto p = run_process({"/bin/sh", "-c", "exit 0"}, {"PATH=/usr/bin:/bin"}, std::string(1 << 20, 'x'), 5);
  EXPECT_TRUE(p.started);
  EXPECT_FALSE(p.timed_out);
  EXPECT_EQ(p.exit_code, 0);
}
