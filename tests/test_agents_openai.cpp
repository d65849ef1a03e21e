// Tests the OpenAI-compatible Chat Completions client against an in-process scripted
// server: the request it sends (URL, model, messages with the system prompt first,
// sampling fields, extra_body merge, Authorization), answer reading (text, usage, cost,
// finish_reason "length" as truncated), and the failure paths (429 with Retry-After in
// seconds and as an HTTP date, 500 then success, 500 until retries run out, 401 fatal,
// malformed JSON, slow server, dropped connection, connection refused), and that the
// API key never appears in what the client returns.
#include <gtest/gtest.h>

#include <cstdlib>
#include <ctime>

#include "agents/openai_agent.h"
#include "fake_servers/scripted_server.h"

using namespace crucible;
using crucible::testing::ScriptedReply;
using crucible::testing::ScriptedServer;
using json = nlohmann::json;

namespace {

const char* kKeyEnv = "CRU_TEST_OPENAI_KEY";
const char* kKey = "sk-test-SECRET-0123456789abcdef";

std::string ok_body(const std::string& text, const std::string& finish = "stop", int in = 120, int out = 45) {
  return json{{"id", "chatcmpl-1"},
              {"object", "chat.completion"},
              {"choices", {{{"index", 0}, {"message", {{"role", "assistant"}, {"content", text}}}, {"finish_reason", finish}}}},
              {"usage", {{"prompt_tokens", in}, {"completion_tokens", out}, {"total_tokens", in + out}}}}
      .dump();
}

ModelConfig config_for(const ScriptedServer& s) {
  ModelConfig c;
  c.name = "fake-gpt";
  c.kind = "openai";
  c.base_url = s.url() + "/v1";
  c.model = "fake-model-7b";
  c.api_key_env = kKeyEnv;
  c.temperature = 0.25;
  c.has_temperature = true;
  c.top_p = 0.9;
  c.has_top_p = true;
  c.max_tokens = 321;
  c.seed = 42;
  c.price_in_per_mtok = 2.0;
  c.price_out_per_mtok = 8.0;
  c.max_retries = 3;
  c.retry_base_s = 0.5;
  c.retry_cap_s = 4;
  c.connect_timeout_s = 2;
  c.read_timeout_s = 5;
  return c;
}

struct Recorder {
  std::vector<double> sleeps;
  AgentHooks hooks(std::time_t now = 0) {
    AgentHooks h;
    h.sleeper = [this](double s) { sleeps.push_back(s); };
    if (now) h.clock = [now] { return now; };
    h.seed = 7;
    return h;
  }
};

AgentRequest request() {
  AgentRequest r;
  r.system = "You write kernels.";
  r.messages = {{"user", "Write relu."}, {"assistant", "```cuda\n...\n```"}, {"user", "It did not compile."}};
  return r;
}

void expect_no_key(const AgentResponse& r) {
  EXPECT_EQ(r.error.find(kKey), std::string::npos) << r.error;
  EXPECT_EQ(r.raw_body.find(kKey), std::string::npos) << r.raw_body;
  EXPECT_EQ(r.text.find(kKey), std::string::npos) << r.text;
}

class OpenAITest : public ::testing::Test {
 protected:
  void SetUp() override { setenv(kKeyEnv, kKey, 1); }
  void TearDown() override { unsetenv(kKeyEnv); }
};

}  // namespace

TEST_F(OpenAITest, SendsTheRequestAndReadsTheAnswer) {
  ScriptedServer s;
  s.push({200, ok_body("```cuda\nkernel\n```", "stop", 1000, 500)});
  auto cfg = config_for(s);
  cfg.extra_body = {{"repetition_penalty", 1.05}, {"top_p", 0.8}, {"seed", nullptr}};
  cfg.headers = {{"X-Title", "Crucible"}};
  Recorder rec;
  OpenAIAgent agent(cfg, rec.hooks());
  EXPECT_EQ(agent.name(), "fake-gpt");
  const auto r = agent.complete(request());

  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(r.text, "```cuda\nkernel\n```");
  EXPECT_EQ(r.finish_reason, "stop");
  EXPECT_FALSE(r.truncated);
  EXPECT_EQ(r.tokens_in, 1000);
  EXPECT_EQ(r.tokens_out, 500);
  EXPECT_NEAR(r.cost_usd, (1000 * 2.0 + 500 * 8.0) / 1e6, 1e-12);
  EXPECT_EQ(r.attempts, 1);
  EXPECT_EQ(r.http_status, 200);
  EXPECT_GT(r.latency_ms, 0);
  EXPECT_TRUE(rec.sleeps.empty());

  const auto reqs = s.requests();
  ASSERT_EQ(reqs.size(), 1u);
  EXPECT_EQ(reqs[0].path, "/v1/chat/completions");
  EXPECT_EQ(reqs[0].header("Authorization"), std::string("Bearer ") + kKey);
  EXPECT_EQ(reqs[0].header("X-Title"), "Crucible");
  EXPECT_NE(reqs[0].header("Content-Type").find("application/json"), std::string::npos);
  const auto body = json::parse(reqs[0].body);
  EXPECT_EQ(body["model"], "fake-model-7b");
  ASSERT_EQ(body["messages"].size(), 4u);
  EXPECT_EQ(body["messages"][0]["role"], "system");
  EXPECT_EQ(body["messages"][0]["content"], "You write kernels.");
  EXPECT_EQ(body["messages"][1]["role"], "user");
  EXPECT_EQ(body["messages"][2]["role"], "assistant");
  EXPECT_EQ(body["messages"][3]["content"], "It did not compile.");
  EXPECT_DOUBLE_EQ(body["temperature"].get<double>(), 0.25);
  EXPECT_DOUBLE_EQ(body["top_p"].get<double>(), 0.8);  // extra_body overrides
  EXPECT_EQ(body["max_tokens"], 321);
  EXPECT_FALSE(body.contains("seed"));                  // extra_body null removes
  EXPECT_DOUBLE_EQ(body["repetition_penalty"].get<double>(), 1.05);
  EXPECT_EQ(body["stream"], false);
}

TEST_F(OpenAITest, SamplingFieldsAreSentOnlyWhenConfiguredAndNoKeyMeansNoAuthorization) {
  ScriptedServer s;
  s.push({200, ok_body("hi")});
  auto cfg = config_for(s);
  cfg.has_temperature = cfg.has_top_p = false;
  cfg.seed.reset();
  cfg.api_key_env = "CRU_TEST_UNSET_KEY_VAR";
  unsetenv("CRU_TEST_UNSET_KEY_VAR");
  OpenAIAgent agent(cfg);
  AgentRequest req;
  req.messages = {{"user", "hello"}};
  const auto r = agent.complete(req);
  ASSERT_TRUE(r.ok) << r.error;
  const auto reqs = s.requests();
  ASSERT_EQ(reqs.size(), 1u);
  EXPECT_FALSE(reqs[0].has_header("Authorization"));
  const auto body = json::parse(reqs[0].body);
  EXPECT_FALSE(body.contains("temperature"));
  EXPECT_FALSE(body.contains("top_p"));
  EXPECT_FALSE(body.contains("seed"));
  ASSERT_EQ(body["messages"].size(), 1u);  // no empty system message
  EXPECT_EQ(body["messages"][0]["role"], "user");
}

TEST_F(OpenAITest, RateLimitWaitsRetryAfterSeconds) {
  ScriptedServer s;
  s.push({429, R"({"error":{"message":"rate limited"}})", {{"Retry-After", "3"}}});
  s.push({200, ok_body("done")});
  Recorder rec;
  OpenAIAgent agent(config_for(s), rec.hooks());
  const auto r = agent.complete(request());
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(r.attempts, 2);
  ASSERT_EQ(rec.sleeps.size(), 1u);
  EXPECT_DOUBLE_EQ(rec.sleeps[0], 3.0);
  EXPECT_EQ(s.request_count(), 2u);
}

TEST_F(OpenAITest, RateLimitWaitsUntilRetryAfterHttpDate) {
  ScriptedServer s;
  const std::time_t now = 1'700'000'000;  // fixed clock: the date is 7 s after it
  char date[64];
  const std::time_t then = now + 7;
  std::tm tm{};
  gmtime_r(&then, &tm);
  std::strftime(date, sizeof date, "%a, %d %b %Y %H:%M:%S GMT", &tm);
  s.push({429, R"({"error":{"message":"slow down"}})", {{"Retry-After", date}}});
  s.push({200, ok_body("done")});
  Recorder rec;
  OpenAIAgent agent(config_for(s), rec.hooks(now));
  const auto r = agent.complete(request());
  ASSERT_TRUE(r.ok) << r.error;
  ASSERT_EQ(rec.sleeps.size(), 1u);
  EXPECT_DOUBLE_EQ(rec.sleeps[0], 7.0);
}

TEST_F(OpenAITest, RateLimitWithoutRetryAfterBacksOffWithJitter) {
  ScriptedServer s;
  s.push({429, R"({"error":{"message":"rate limited"}})"});
  s.push({429, R"({"error":{"message":"rate limited"}})"});
  s.push({200, ok_body("done")});
  Recorder rec;
  OpenAIAgent agent(config_for(s), rec.hooks());
  const auto r = agent.complete(request());
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(r.attempts, 3);
  ASSERT_EQ(rec.sleeps.size(), 2u);
  EXPECT_GE(rec.sleeps[0], 0.0);
  EXPECT_LE(rec.sleeps[0], 0.5);  // base
  EXPECT_LE(rec.sleeps[1], 1.0);  // base * 2
}

TEST_F(OpenAITest, ServerErrorThenSuccess) {
  ScriptedServer s;
  s.push({500, R"({"error":{"message":"internal"}})"});
  s.push({200, ok_body("recovered", "stop", 10, 20)});
  Recorder rec;
  OpenAIAgent agent(config_for(s), rec.hooks());
  const auto r = agent.complete(request());
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(r.text, "recovered");
  EXPECT_EQ(r.attempts, 2);
  EXPECT_EQ(r.tokens_in, 10);
  EXPECT_EQ(s.request_count(), 2u);
  ASSERT_EQ(rec.sleeps.size(), 1u);
}

TEST_F(OpenAITest, ServerErrorUntilRetriesRunOut) {
  ScriptedServer s;
  s.set_default({503, R"({"error":{"message":"overloaded, try later"}})"});
  Recorder rec;
  OpenAIAgent agent(config_for(s), rec.hooks());
  const auto r = agent.complete(request());
  EXPECT_FALSE(r.ok);
  EXPECT_FALSE(r.fatal);
  EXPECT_EQ(r.attempts, 4);  // 1 + max_retries
  EXPECT_EQ(s.request_count(), 4u);
  EXPECT_EQ(rec.sleeps.size(), 3u);
  EXPECT_NE(r.error.find("HTTP 503"), std::string::npos) << r.error;
  EXPECT_NE(r.error.find("overloaded, try later"), std::string::npos) << r.error;
}

TEST_F(OpenAITest, UnauthorizedIsFatalAtOnceAndNeverShowsTheKey) {
  ScriptedServer s;
  // A server that echoes the key it was sent, as some proxies do.
  s.push({401, std::string(R"({"error":{"message":"Incorrect API key provided: )") + kKey + R"("}})"});
  Recorder rec;
  OpenAIAgent agent(config_for(s), rec.hooks());
  const auto r = agent.complete(request());
  EXPECT_FALSE(r.ok);
  EXPECT_TRUE(r.fatal);
  EXPECT_EQ(r.attempts, 1);
  EXPECT_EQ(s.request_count(), 1u);
  EXPECT_TRUE(rec.sleeps.empty());
  EXPECT_NE(r.error.find("401"), std::string::npos);
  EXPECT_NE(r.error.find(kKeyEnv), std::string::npos) << "names the variable: " << r.error;
  EXPECT_NE(r.error.find("fake-gpt"), std::string::npos) << r.error;
  EXPECT_NE(r.error.find("[REDACTED]"), std::string::npos) << r.error;
  expect_no_key(r);
}

TEST_F(OpenAITest, ForbiddenIsFatal) {
  ScriptedServer s;
  s.push({403, R"({"error":{"message":"model access denied"}})"});
  OpenAIAgent agent(config_for(s));
  const auto r = agent.complete(request());
  EXPECT_TRUE(r.fatal);
  EXPECT_EQ(r.attempts, 1);
}

TEST_F(OpenAITest, BadRequestIsFinalButNotFatal) {
  ScriptedServer s;
  s.push({400, R"({"error":{"message":"maximum context length exceeded"}})"});
  Recorder rec;
  OpenAIAgent agent(config_for(s), rec.hooks());
  const auto r = agent.complete(request());
  EXPECT_FALSE(r.ok);
  EXPECT_FALSE(r.fatal);
  EXPECT_EQ(r.attempts, 1);
  EXPECT_NE(r.error.find("maximum context length"), std::string::npos) << r.error;
}

TEST_F(OpenAITest, MalformedBodyKeepsTheRawBody) {
  ScriptedServer s;
  const std::string broken = std::string(R"({"choices": [{"message": {"content": "trunc)") + kKey;
  s.push({200, broken});
  Recorder rec;
  OpenAIAgent agent(config_for(s), rec.hooks());
  const auto r = agent.complete(request());
  EXPECT_FALSE(r.ok);
  EXPECT_FALSE(r.fatal);
  EXPECT_EQ(r.attempts, 1);  // not re-sent: it may have been paid for
  EXPECT_EQ(r.error.rfind("malformed body", 0), 0u) << r.error;
  EXPECT_NE(r.raw_body.find(R"({"choices": [{"message": {"content": "trunc)"), std::string::npos);
  expect_no_key(r);
}

TEST_F(OpenAITest, JsonWithoutChoicesIsMalformed) {
  ScriptedServer s;
  s.push({200, R"({"object":"chat.completion","usage":{"prompt_tokens":3}})"});
  OpenAIAgent agent(config_for(s));
  const auto r = agent.complete(request());
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.error.find("malformed body"), std::string::npos);
  EXPECT_NE(r.error.find("choices"), std::string::npos);
}

TEST_F(OpenAITest, ErrorObjectInA200AnswerIsAnError) {
  ScriptedServer s;  // OpenRouter reports upstream failures this way
  s.push({200, R"({"error":{"message":"upstream provider error","code":502}})"});
  s.push({200, ok_body("second try")});
  Recorder rec;
  OpenAIAgent agent(config_for(s), rec.hooks());
  const auto r = agent.complete(request());
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(r.text, "second try");
  EXPECT_EQ(r.attempts, 2);
}

TEST_F(OpenAITest, LengthFinishIsTruncated) {
  ScriptedServer s;
  s.push({200, ok_body("```cuda\nextern \"C\" __global__ void k(", "length", 50, 321)});
  OpenAIAgent agent(config_for(s));
  const auto r = agent.complete(request());
  ASSERT_TRUE(r.ok);
  EXPECT_TRUE(r.truncated);
  EXPECT_EQ(r.finish_reason, "length");
  EXPECT_EQ(r.tokens_out, 321);
}

TEST_F(OpenAITest, NullContentAndContentPartsAreRead) {
  ScriptedServer s;
  s.push({200, R"({"choices":[{"message":{"role":"assistant","content":[{"type":"text","text":"a"},{"type":"text","text":"b"}]},"finish_reason":"stop"}]})"});
  s.push({200, R"({"choices":[{"message":{"role":"assistant","content":null,"refusal":"no"},"finish_reason":"stop"}]})"});
  OpenAIAgent agent(config_for(s));
  auto r = agent.complete(request());
  ASSERT_TRUE(r.ok);
  EXPECT_EQ(r.text, "ab");
  EXPECT_EQ(r.tokens_in, 0);  // no usage given
  r = agent.complete(request());
  ASSERT_TRUE(r.ok);
  EXPECT_EQ(r.text, "");
}

TEST_F(OpenAITest, SlowServerHitsTheReadTimeoutAndIsRetried) {
  ScriptedServer s;
  s.push({200, ok_body("too late"), {}, 600});
  s.push({200, ok_body("in time")});
  auto cfg = config_for(s);
  cfg.read_timeout_s = 0.15;
  Recorder rec;
  OpenAIAgent agent(cfg, rec.hooks());
  const auto r = agent.complete(request());
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(r.text, "in time");
  EXPECT_EQ(r.attempts, 2);

  ScriptedServer slow;
  slow.set_default({200, ok_body("too late"), {}, 400});
  auto cfg2 = config_for(slow);
  cfg2.read_timeout_s = 0.1;
  cfg2.max_retries = 1;
  OpenAIAgent agent2(cfg2, rec.hooks());
  const auto r2 = agent2.complete(request());
  EXPECT_FALSE(r2.ok);
  EXPECT_FALSE(r2.fatal);
  EXPECT_EQ(r2.attempts, 2);
  EXPECT_NE(r2.error.find("read timeout"), std::string::npos) << r2.error;
}

TEST_F(OpenAITest, DroppedConnectionIsRetried) {
  ScriptedServer s;
  ScriptedReply drop;
  drop.drop = true;
  s.push(drop);
  s.push({200, ok_body("after the drop")});
  Recorder rec;
  OpenAIAgent agent(config_for(s), rec.hooks());
  const auto r = agent.complete(request());
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(r.text, "after the drop");
  EXPECT_EQ(r.attempts, 2);
  EXPECT_EQ(s.request_count(), 2u);
}

TEST_F(OpenAITest, RefusedConnectionIsAnErrorAfterRetries) {
  int port;
  {
    ScriptedServer gone;  // a port that was just free: nothing listens there now
    port = gone.port();
  }
  ModelConfig cfg;
  cfg.name = "nobody";
  cfg.kind = "openai";
  cfg.base_url = "http://127.0.0.1:" + std::to_string(port) + "/v1";
  cfg.model = "m";
  cfg.max_retries = 2;
  cfg.connect_timeout_s = 1;
  cfg.read_timeout_s = 2;
  Recorder rec;
  OpenAIAgent agent(cfg, rec.hooks());
  const auto r = agent.complete(request());
  EXPECT_FALSE(r.ok);
  EXPECT_FALSE(r.fatal);
  EXPECT_EQ(r.attempts, 3);
  EXPECT_NE(r.error.find("connection error"), std::string::npos) << r.error;
}

TEST_F(OpenAITest, ConcurrentRequestsShareOneAgent) {
  ScriptedServer s;
  s.set_default({200, ok_body("same", "stop", 1, 2), {}, 20});
  OpenAIAgent agent(config_for(s));
  std::vector<std::thread> threads;
  std::atomic<int> ok{0};
  for (int i = 0; i < 8; ++i)
    threads.emplace_back([&] {
      for (int k = 0; k < 4; ++k)
        if (agent.complete(request()).ok) ++ok;
    });
  for (auto& t : threads) t.join();
  EXPECT_EQ(ok.load(), 32);
  EXPECT_EQ(s.request_count(), 32u);
}

TEST_F(OpenAITest, ConcurrentRequestsOverlapInsteadOfQueueing) {
  // 64 threads x 2 requests against a server that takes 50 ms per answer: in series
  // that is 6.4 s; the pooled client must keep them in flight together.
  ScriptedServer s;
  s.set_default({200, ok_body("x", "stop", 1, 1), {}, 50});
  OpenAIAgent agent(config_for(s));
  const auto t0 = std::chrono::steady_clock::now();
  std::vector<std::thread> threads;
  std::atomic<int> ok{0};
  for (int i = 0; i < 64; ++i)
    threads.emplace_back([&] {
      for (int k = 0; k < 2; ++k)
        if (agent.complete(request()).ok) ++ok;
    });
  for (auto& t : threads) t.join();
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_EQ(ok.load(), 128);
  EXPECT_LT(secs, 2.0) << "requests were serialised";
}
