// Integration test of model campaigns (`crucible run` with agent: models) on the CPU
// backend against scripted OpenAI-compatible and Anthropic servers: a 3-round
// trajectory per model (compile error → off-by-one → correct) through 429 with
// Retry-After, 500, 529, a dropped connection and a slow answer; a malformed body
// (agent_error with the raw body kept) and a truncated answer (format_error flagged
// truncated_response). Asserts the feedback sent in rounds 2 and 3, the records, the
// transcripts, the exact request counts, that the API key reaches the servers but no
// file under results/, and the progress display's counts and line.
#include <gtest/gtest.h>

#include <map>
#include <mutex>
#include <sstream>

#include "fake_servers/fake_llm.h"
#include "harness/run/progress.h"

namespace fs = std::filesystem;
using namespace crucible::testing;

namespace {

const char* kKeyEnv = "CRUCIBLE_CAMPAIGN_TEST_KEY";
const char* kKey = "sk-fake-campaign-7f3a9c1e5b";

// Scripts keyed by (model, round, attempt), so concurrent trajectories get their own
// story whatever order their requests arrive in.
class Script {
 public:
  using Fn = std::function<ScriptedReply(const std::string& model, int round, int attempt)>;
  explicit Script(Fn fn) : fn_(std::move(fn)) {}
  ScriptedReply operator()(const RecordedRequest& r) {
    RequestInfo i = request_info(r);
    int attempt;
    {
      std::lock_guard<std::mutex> lk(mu_);
      attempt = ++attempts_[{i.model, i.round}];
      feedback_[{i.model, i.round}] = i.last_user;
    }
    return fn_(i.model, i.round, attempt);
  }
  std::string feedback(const std::string& model, int round) {
    std::lock_guard<std::mutex> lk(mu_);
    return feedback_[{model, round}];
  }
  int attempts(const std::string& model, int round) {
    std::lock_guard<std::mutex> lk(mu_);
    return attempts_[{model, round}];
  }

 private:
  Fn fn_;
  std::mutex mu_;
  std::map<std::pair<std::string, int>, int> attempts_;
  std::map<std::pair<std::string, int>, std::string> feedback_;
};

ScriptedReply status(int code, const std::string& body, std::map<std::string, std::string> h = {}) {
  return {code, body, std::move(h), 0, false};
}

std::vector<nlohmann::json> records_of(const std::vector<nlohmann::json>& all, const std::string& model) {
  std::vector<nlohmann::json> out;
  for (auto& r : all)
    if (r.value("model", "") == model) out.push_back(r);
  std::sort(out.begin(), out.end(), [](auto& a, auto& b) { return a["round"].template get<int>() < b["round"].template get<int>(); });
  return out;
}

}  // namespace

TEST(Campaign, ThreeRoundsAgainstFakeOpenAIAndAnthropic) {
  ::setenv(kKeyEnv, kKey, 1);
  ScriptedServer oa, an;
  Script oa_script([](const std::string& model, int round, int attempt) -> ScriptedReply {
    if (model == "gpt-bad") return status(200, R"({"choices": [{"message": {"content": "trunc)");  // malformed JSON
    // gpt-fake: 429 then the compile error; 500, a dropped connection, then the
    // off-by-one; a slow correct answer.
    if (round == 1) {
      if (attempt == 1) return status(429, R"({"error":{"message":"rate limited"}})", {{"Retry-After", "1"}});
      return openai_answer(fenced(compile_error_candidate()), "stop", 1000, 300);
    }
    if (round == 2) {
      if (attempt == 1) return status(500, R"({"error":{"message":"internal"}})");
      if (attempt == 2) return {200, "", {}, 0, true};
      return openai_answer(fenced(off_by_one_candidate()), "stop", 2000, 310);
    }
    ScriptedReply r = openai_answer(fenced(correct_candidate()), "stop", 3000, 320);
    r.delay_ms = 400;
    return r;
  });
  Script an_script([](const std::string& model, int round, int attempt) -> ScriptedReply {
    if (model == "claude-trunc") {
      // Cut at max_tokens in the middle of the code block.
      if (round == 1) return anthropic_answer("```cpp\n#include <cstdint>\nextern \"C\" void vector_add(const float* a,", "max_tokens", 900, 2048);
      return anthropic_answer(fenced(correct_candidate()), "end_turn", 1500, 250);
    }
    if (round == 1) {
      if (attempt == 1) return status(529, R"({"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}})");
      return anthropic_answer(fenced(compile_error_candidate()), "end_turn", 1100, 400);
    }
    if (round == 2) return anthropic_answer(fenced(off_by_one_candidate()), "end_turn", 2100, 410);
    return anthropic_answer(fenced(correct_candidate()), "end_turn", 3100, 420);
  });
  oa.set_handler([&](const RecordedRequest& r) { return oa_script(r); });
  an.set_handler([&](const RecordedRequest& r) { return an_script(r); });

  fs::path dir = fs::temp_directory_path() / ("crucible_campaign_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  std::string models = model_yaml("gpt-fake", "openai", oa.url() + "/v1", kKeyEnv) +
                       model_yaml("gpt-bad", "openai", oa.url() + "/v1", kKeyEnv) +
                       model_yaml("claude-fake", "anthropic", an.url(), kKeyEnv) +
                       model_yaml("claude-trunc", "anthropic", an.url(), kKeyEnv);
  write_run_config(dir / "run.yaml", "vector_add", 1, 3, models);
  CrucibleRun run(dir / "run.yaml", "c", dir / "results", dir / "log.txt");
  int rc = run.wait(120);
  std::string log = slurp(dir / "log.txt");
  ASSERT_EQ(rc, 0) << log;

  // Exact request counts: every retry is one request, nothing more.
  EXPECT_EQ(oa_script.attempts("gpt-fake", 1), 2);
  EXPECT_EQ(oa_script.attempts("gpt-fake", 2), 3);
  EXPECT_EQ(oa_script.attempts("gpt-fake", 3), 1);
  EXPECT_EQ(oa_script.attempts("gpt-bad", 1), 1);
  EXPECT_EQ(oa_script.attempts("gpt-bad", 2), 0);
  EXPECT_EQ(oa.request_count(), 7u);
  EXPECT_EQ(an_script.attempts("claude-fake", 1), 2);
  EXPECT_EQ(an.request_count(), 4u + 3u);
  for (auto& r : oa.requests()) {
    EXPECT_EQ(r.path, "/v1/chat/completions");
    EXPECT_EQ(r.header("authorization"), std::string("Bearer ") + kKey);
  }
  for (auto& r : an.requests()) {
    EXPECT_EQ(r.path, "/v1/messages");
    EXPECT_EQ(r.header("x-api-key"), kKey);
  }

  // Feedback: round 2 carries the compile error with its line, round 3 the mismatch.
  for (std::string m : {"gpt-fake", "claude-fake"}) {
    std::string fb2 = m == "gpt-fake" ? oa_script.feedback(m, 2) : an_script.feedback(m, 2);
    std::string fb3 = m == "gpt-fake" ? oa_script.feedback(m, 3) : an_script.feedback(m, 3);
    EXPECT_NE(fb2.find("compile_error"), std::string::npos) << fb2;
    EXPECT_NE(fb2.find("undeclared_total"), std::string::npos) << fb2;
    EXPECT_NE(fb2.find(":4:"), std::string::npos) << "compile error on line 4 of the candidate\n" << fb2;
    EXPECT_NE(fb3.find("wrong_output"), std::string::npos) << fb3;
    EXPECT_NE(fb3.find("first mismatch at flat index 5: expected "), std::string::npos) << fb3;
    EXPECT_NE(fb3.find(", got "), std::string::npos) << fb3;
  }
  std::string trunc_fb = an_script.feedback("claude-trunc", 2);
  EXPECT_NE(trunc_fb.find("format_error"), std::string::npos) << trunc_fb;

  // Records: one per round, with verdict, usage, cost and latency.
  fs::path rd = dir / "results" / "c";
  auto recs = read_jsonl(rd / "records.jsonl");
  ASSERT_EQ(recs.size(), 3u + 1u + 3u + 3u) << log;
  std::set<std::string> keys;
  for (auto& r : recs) EXPECT_TRUE(keys.insert(r["key"].get<std::string>()).second) << "duplicate " << r["key"];
  for (std::string m : {"gpt-fake", "claude-fake"}) {
    auto rs = records_of(recs, m);
    ASSERT_EQ(rs.size(), 3u);
    EXPECT_EQ(rs[0]["verdict"], "compile_error") << rs[0].dump();
    EXPECT_EQ(rs[1]["verdict"], "wrong_output") << rs[1].dump();
    EXPECT_EQ(rs[2]["verdict"], "pass") << rs[2].dump();
    int base_in = m == "gpt-fake" ? 1000 : 1100, base_out = m == "gpt-fake" ? 300 : 400;
    for (int k = 0; k < 3; ++k) {
      EXPECT_EQ(rs[k]["round"], k);
      EXPECT_EQ(rs[k]["sample"], 0);
      EXPECT_EQ(rs[k]["task"], "vector_add");
      EXPECT_EQ(rs[k]["tokens_in"], base_in + 1000 * k);
      EXPECT_EQ(rs[k]["tokens_out"], base_out + 10 * k);
      double cost = ((base_in + 1000 * k) * 3.0 + (base_out + 10 * k) * 15.0) / 1e6;
      EXPECT_NEAR(rs[k]["cost_usd"].get<double>(), cost, 1e-12);
      EXPECT_GT(rs[k]["latency_ms"].get<double>(), 0);
      EXPECT_FALSE(rs[k]["truncated"].get<bool>());
    }
    EXPECT_EQ(rs[0]["attempts"], 2);
    if (m == "gpt-fake") {
      EXPECT_GE(rs[0]["latency_ms"].get<double>(), 1000) << "Retry-After: 1 was honoured";
      // The server saw 3 (500, drop, answer); libcurl re-sends by itself a request whose
      // reused keep-alive connection closed without a byte, so the client may count 2.
      EXPECT_GE(rs[1]["attempts"].get<int>(), 2);
      EXPECT_GE(rs[2]["latency_ms"].get<double>(), 400) << "the slow answer";
    }
  }
  auto bad = records_of(recs, "gpt-bad");
  ASSERT_EQ(bad.size(), 1u);
  EXPECT_EQ(bad[0]["verdict"], "agent_error");
  EXPECT_NE(bad[0]["message"].get<std::string>().find("malformed"), std::string::npos) << bad[0].dump();
  EXPECT_EQ(bad[0]["raw_body"], R"({"choices": [{"message": {"content": "trunc)");
  auto tr = records_of(recs, "claude-trunc");
  ASSERT_EQ(tr.size(), 3u);
  EXPECT_EQ(tr[0]["verdict"], "format_error");
  EXPECT_TRUE(tr[0]["truncated"].get<bool>());
  EXPECT_EQ(tr[0]["finish_reason"], "max_tokens");
  EXPECT_NE(tr[0]["flags"].dump().find("truncated_response"), std::string::npos) << tr[0].dump();
  EXPECT_EQ(tr[1]["verdict"], "pass");
  EXPECT_EQ(tr[2]["verdict"], "pass");

  // Transcripts: system, task, then answer and feedback per round; the last answer
  // has no feedback after it.
  auto ts = read_jsonl(rd / "transcripts" / "vector_add__gpt-fake__s0.jsonl");
  std::vector<std::string> roles;
  for (auto& e : ts) roles.push_back(e["role"].get<std::string>() + std::to_string(e["round"].get<int>()));
  EXPECT_EQ(roles, (std::vector<std::string>{"system0", "user0", "assistant0", "user1", "assistant1", "user2", "assistant2"}));
  ASSERT_EQ(ts.size(), 7u);
  EXPECT_EQ(ts[3]["content"].get<std::string>(), oa_script.feedback("gpt-fake", 2));
  EXPECT_EQ(ts[5]["content"].get<std::string>(), oa_script.feedback("gpt-fake", 3));
  EXPECT_NE(ts[6]["content"].get<std::string>().find("c[i] = a[i] + b[i];"), std::string::npos);
  auto tb = read_jsonl(rd / "transcripts" / "vector_add__gpt-bad__s0.jsonl");
  ASSERT_EQ(tb.size(), 3u);
  EXPECT_EQ(tb[2]["role"], "error");
  EXPECT_EQ(read_jsonl(rd / "transcripts" / "vector_add__claude-trunc__s0.jsonl").size(), 7u);

  // The key went to the servers and nowhere under results/.
  for (auto& e : fs::recursive_directory_iterator(rd)) {
    if (e.is_regular_file()) EXPECT_EQ(slurp(e.path()).find(kKey), std::string::npos) << e.path();
  }
  EXPECT_EQ(log.find(kKey), std::string::npos);
  // Not a terminal: one log line per record, with its count.
  EXPECT_NE(log.find("[10/"), std::string::npos) << log;

  // A rerun of the finished run sends nothing and records nothing.
  CrucibleRun again(dir / "run.yaml", "c", dir / "results", dir / "log2.txt");
  ASSERT_EQ(again.wait(60), 0) << slurp(dir / "log2.txt");
  EXPECT_EQ(oa.request_count(), 7u);
  EXPECT_EQ(an.request_count(), 7u);
  EXPECT_EQ(read_jsonl(rd / "records.jsonl").size(), 10u);
  fs::remove_all(dir);
}

TEST(Progress, CountsAndLiveLine) {
  std::ostringstream status, log;
  crucible::Progress live(6, true, status, log);
  live.preload({nlohmann::json{{"verdict", "compile_error"}, {"tokens_in", 100}, {"tokens_out", 50}, {"cost_usd", 0.5}}});
  live.record({{"key", "k1"}, {"verdict", "pass"}, {"speedup", 1.5}, {"tokens_in", 1000}, {"tokens_out", 500}, {"cost_usd", 0.25}});
  live.record({{"key", "k2"}, {"verdict", "wrong_output"}, {"speedup", nullptr}});
  live.record({{"key", "k3"}, {"verdict", "pass"}, {"speedup", 0.5}});
  live.skip(1);
  auto c = live.counts();
  EXPECT_EQ(c.done, 4);
  EXPECT_EQ(c.total, 5);
  EXPECT_EQ(c.compiled, 3);
  EXPECT_EQ(c.correct, 2);
  EXPECT_EQ(c.fast_1, 1);
  EXPECT_EQ(c.tokens, 1650);
  EXPECT_DOUBLE_EQ(c.cost_usd, 0.75);
  live.finish();
  std::string s = status.str();
  EXPECT_EQ(s.front(), '\r');
  EXPECT_EQ(s.back(), '\n');
  EXPECT_EQ(s.find('\n'), s.size() - 1) << "one line, redrawn in place";
  EXPECT_NE(s.find("4/5 rounds  compiled 3  correct 2  fast_1 1  tokens 1.6k  $0.7500  ETA "), std::string::npos) << s;
  EXPECT_TRUE(log.str().empty());

  std::ostringstream status2, log2;
  crucible::Progress plain(2, false, status2, log2);
  plain.record({{"key", "vector_add|m|s0|r0@cpu"}, {"verdict", "pass"}, {"speedup", 2.0}});
  plain.finish();
  EXPECT_TRUE(status2.str().empty());
  EXPECT_NE(log2.str().find("[1/2] vector_add|m|s0|r0@cpu  pass  2.0000x\n"), std::string::npos) << log2.str();
}
