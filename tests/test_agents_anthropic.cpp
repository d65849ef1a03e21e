// Tests the Anthropic Messages client against an in-process scripted server: the
// request (POST /v1/messages, x-api-key, anthropic-version, the system prompt as a
// top-level field and never a message, max_tokens), answer reading (text blocks
// joined, thinking blocks skipped, usage with cache tokens, cost, stop_reason
// "max_tokens" as truncated), 529 overloaded then success, 429 with Retry-After, 401
// fatal, malformed JSON, and that the key never appears in what the client returns.
#include <gtest/gtest.h>

#include <cstdlib>

#include "agents/anthropic_agent.h"
#include "fake_servers/scripted_server.h"

using namespace crucible;
using crucible::testing::ScriptedServer;
using json = nlohmann::json;

namespace {

const char* kKeyEnv = "CRU_TEST_ANTHROPIC_KEY";
const char* kKey = "sk-ant-test-SECRET-9876543210";

std::string ok_body(const std::string& text, const std::string& stop = "end_turn") {
  return json{{"id", "msg_1"},
              {"type", "message"},
              {"role", "assistant"},
              {"content", {{{"type", "thinking"}, {"thinking", "let me think"}, {"signature", "x"}},
                           {{"type", "text"}, {"text", text}},
                           {{"type", "text"}, {"text", "\n(end)"}}}},
              {"stop_reason", stop},
              {"usage", {{"input_tokens", 200}, {"cache_read_input_tokens", 50}, {"output_tokens", 80}}}}
      .dump();
}

ModelConfig config_for(const ScriptedServer& s) {
  ModelConfig c;
  c.name = "fake-claude";
  c.kind = "anthropic";
  c.base_url = s.url();
  c.model = "claude-fake-1";
  c.api_key_env = kKeyEnv;
  c.temperature = 0.5;
  c.has_temperature = true;
  c.max_tokens = 4000;
  c.seed = 9;  // not part of the Messages API: must not be sent
  c.price_in_per_mtok = 3;
  c.price_out_per_mtok = 15;
  c.max_retries = 3;
  c.retry_base_s = 0.01;
  c.retry_cap_s = 0.02;
  c.read_timeout_s = 5;
  return c;
}

AgentHooks recording(std::vector<double>& sleeps) {
  AgentHooks h;
  h.sleeper = [&sleeps](double s) { sleeps.push_back(s); };
  return h;
}

AgentRequest request() {
  AgentRequest r;
  r.system = "You write kernels.";
  r.messages = {{"user", "Write relu."}};
  return r;
}

class AnthropicTest : public ::testing::Test {
 protected:
  void SetUp() override { setenv(kKeyEnv, kKey, 1); }
  void TearDown() override { unsetenv(kKeyEnv); }
};

}  // namespace

TEST_F(AnthropicTest, SendsTheRequestAndReadsTheAnswer) {
  ScriptedServer s;
  s.push({200, ok_body("```cuda\nk\n```")});
  auto cfg = config_for(s);
  cfg.extra_body = {{"metadata", {{"user_id", "crucible"}}}};
  AnthropicAgent agent(cfg);
  const auto r = agent.complete(request());
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(r.text, "```cuda\nk\n```\n(end)");
  EXPECT_EQ(r.finish_reason, "end_turn");
  EXPECT_FALSE(r.truncated);
  EXPECT_EQ(r.tokens_in, 250);
  EXPECT_EQ(r.tokens_out, 80);
  EXPECT_NEAR(r.cost_usd, (250 * 3.0 + 80 * 15.0) / 1e6, 1e-12);
  EXPECT_EQ(r.attempts, 1);

  const auto reqs = s.requests();
  ASSERT_EQ(reqs.size(), 1u);
  EXPECT_EQ(reqs[0].path, "/v1/messages");
  EXPECT_EQ(reqs[0].header("x-api-key"), kKey);
  EXPECT_EQ(reqs[0].header("anthropic-version"), "2023-06-01");
  EXPECT_FALSE(reqs[0].has_header("Authorization"));
  const auto body = json::parse(reqs[0].body);
  EXPECT_EQ(body["model"], "claude-fake-1");
  EXPECT_EQ(body["system"], "You write kernels.");
  EXPECT_EQ(body["max_tokens"], 4000);
  EXPECT_DOUBLE_EQ(body["temperature"].get<double>(), 0.5);
  EXPECT_FALSE(body.contains("top_p"));
  EXPECT_FALSE(body.contains("seed"));
  EXPECT_EQ(body["metadata"]["user_id"], "crucible");
  ASSERT_EQ(body["messages"].size(), 1u);
  for (const auto& m : body["messages"]) EXPECT_NE(m["role"], "system");
  EXPECT_EQ(body["messages"][0]["role"], "user");
  EXPECT_EQ(body["messages"][0]["content"], "Write relu.");
}

TEST_F(AnthropicTest, BaseUrlEndingInV1IsAccepted) {
  ScriptedServer s;
  s.push({200, ok_body("x")});
  auto cfg = config_for(s);
  cfg.base_url = s.url() + "/v1";
  AnthropicAgent agent(cfg);
  ASSERT_TRUE(agent.complete(request()).ok);
  EXPECT_EQ(s.requests()[0].path, "/v1/messages");
}

TEST_F(AnthropicTest, OverloadedThenSuccess) {
  ScriptedServer s;
  s.push({529, R"({"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}})"});
  s.push({529, R"({"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}})"});
  s.push({200, ok_body("fine")});
  std::vector<double> sleeps;
  AnthropicAgent agent(config_for(s), recording(sleeps));
  const auto r = agent.complete(request());
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(r.attempts, 3);
  EXPECT_EQ(sleeps.size(), 2u);
  for (double d : sleeps) EXPECT_LE(d, 0.02);
}

TEST_F(AnthropicTest, OverloadedUntilRetriesRunOut) {
  ScriptedServer s;
  s.set_default({529, R"({"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}})"});
  std::vector<double> sleeps;
  AnthropicAgent agent(config_for(s), recording(sleeps));
  const auto r = agent.complete(request());
  EXPECT_FALSE(r.ok);
  EXPECT_FALSE(r.fatal);
  EXPECT_EQ(r.attempts, 4);
  EXPECT_NE(r.error.find("HTTP 529"), std::string::npos) << r.error;
  EXPECT_NE(r.error.find("overloaded_error"), std::string::npos) << r.error;
}

TEST_F(AnthropicTest, RateLimitHonoursRetryAfter) {
  ScriptedServer s;
  s.push({429, R"({"type":"error","error":{"type":"rate_limit_error","message":"slow"}})", {{"retry-after", "2"}}});
  s.push({200, ok_body("ok")});
  std::vector<double> sleeps;
  AnthropicAgent agent(config_for(s), recording(sleeps));
  const auto r = agent.complete(request());
  ASSERT_TRUE(r.ok);
  ASSERT_EQ(sleeps.size(), 1u);
  EXPECT_DOUBLE_EQ(sleeps[0], 2.0);
}

TEST_F(AnthropicTest, MaxTokensStopIsTruncated) {
  ScriptedServer s;
  s.push({200, ok_body("```cuda\npartial", "max_tokens")});
  AnthropicAgent agent(config_for(s));
  const auto r = agent.complete(request());
  ASSERT_TRUE(r.ok);
  EXPECT_TRUE(r.truncated);
  EXPECT_EQ(r.finish_reason, "max_tokens");
}

TEST_F(AnthropicTest, UnauthorizedIsFatal) {
  ScriptedServer s;
  s.push({401, std::string(R"({"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key )") + kKey + R"("}})"});
  std::vector<double> sleeps;
  AnthropicAgent agent(config_for(s), recording(sleeps));
  const auto r = agent.complete(request());
  EXPECT_FALSE(r.ok);
  EXPECT_TRUE(r.fatal);
  EXPECT_EQ(r.attempts, 1);
  EXPECT_TRUE(sleeps.empty());
  EXPECT_NE(r.error.find("authentication_error"), std::string::npos) << r.error;
  EXPECT_EQ(r.error.find(kKey), std::string::npos);
  EXPECT_EQ(r.raw_body.find(kKey), std::string::npos);
}

TEST_F(AnthropicTest, MissingKeyIsReportedAsNotSet) {
  unsetenv(kKeyEnv);
  ScriptedServer s;
  s.push({401, R"({"type":"error","error":{"type":"authentication_error","message":"x-api-key header is required"}})"});
  AnthropicAgent agent(config_for(s));
  const auto r = agent.complete(request());
  EXPECT_TRUE(r.fatal);
  EXPECT_NE(r.error.find("NOT set"), std::string::npos) << r.error;
  EXPECT_FALSE(s.requests()[0].has_header("x-api-key"));
}

TEST_F(AnthropicTest, MalformedBody) {
  ScriptedServer s;
  s.push({200, "<html>502 Bad Gateway</html>"});
  AnthropicAgent agent(config_for(s));
  const auto r = agent.complete(request());
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.error.rfind("malformed body", 0), 0u) << r.error;
  EXPECT_EQ(r.raw_body, "<html>502 Bad Gateway</html>");
  EXPECT_EQ(r.attempts, 1);
}

TEST_F(AnthropicTest, ContentThatIsNotAListIsMalformed) {
  ScriptedServer s;
  s.push({200, R"({"type":"message","content":"just a string","stop_reason":"end_turn"})"});
  AnthropicAgent agent(config_for(s));
  const auto r = agent.complete(request());
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.error.find("content"), std::string::npos);
}
