// Crash safety of model campaigns: `crucible run` is SIGKILLed at several points of a
// 3-round, 2-sample campaign against a scripted OpenAI-compatible server that lives in
// this test process (so it outlives every killed run), then rerun until it finishes.
// Kill points: when the first request arrives; when the first round-2 request arrives
// (a record exists); from outside once three records exist (mid-evaluation); when the
// first round-3 request of a later run arrives. At the end every trajectory is complete,
// no record is duplicated, and no answered request was ever sent again (identical
// bodies counted; a request whose answer the kill prevented may be resent).
#include <gtest/gtest.h>

#include <condition_variable>
#include <map>
#include <mutex>
#include <set>

#include "fake_servers/fake_llm.h"

namespace fs = std::filesystem;
using namespace crucible::testing;

namespace {

struct KillServer {
  ScriptedServer server;
  std::mutex mu;
  std::condition_variable cv;
  CrucibleRun* run = nullptr;   // the crucible process of this generation
  int gen = 0;                  // bumped at every kill
  bool hold = false;            // while set, no answer leaves the server
  std::function<bool(const RequestInfo&, int arrivals_this_run)> kill_when;
  int arrivals_this_run = 0;
  std::map<std::string, int> answered;        // body → answers delivered
  std::map<std::string, int> sent_after_answer;  // body → arrivals after it was answered
  int killed_in_handler = 0;

  static int sample_of(const RecordedRequest& r) {
    auto j = nlohmann::json::parse(r.body, nullptr, false);
    return j.is_discarded() ? -1 : j.value("seed", 100) - 100;
  }

  KillServer() {
    server.set_handler([this](const RecordedRequest& r) -> ScriptedReply {
      RequestInfo info = request_info(r);
      std::unique_lock<std::mutex> lk(mu);
      int my_gen = gen;
      if (answered.count(r.body)) sent_after_answer[r.body]++;
      ++arrivals_this_run;
      if (kill_when && run && kill_when(info, arrivals_this_run)) {
        kill_when = nullptr;
        run->kill_now();  // reaped: the client can store nothing more
        ++gen;
        ++killed_in_handler;
        return {200, "", {}, 0, true};
      }
      cv.wait(lk, [&] { return !hold; });
      if (gen != my_gen) return {200, "", {}, 0, true};  // its client was killed meanwhile
      answered[r.body]++;
      int s = sample_of(r);
      std::string code = info.round == 1 ? compile_error_candidate()
                         : info.round == 2 ? off_by_one_candidate()
                                           : correct_candidate();
      return openai_answer(fenced(code), "stop", 1000 * info.round + s, 100 * info.round);
    });
  }

  void start(CrucibleRun* r, std::function<bool(const RequestInfo&, int)> when) {
    std::lock_guard<std::mutex> lk(mu);
    run = r;
    arrivals_this_run = 0;
    kill_when = std::move(when);
  }
  // Kills from outside without losing an answer in transit: answers are held back,
  // then the client gets ample time to store the one it may be receiving.
  void kill_from_outside() {
    {
      std::lock_guard<std::mutex> lk(mu);
      hold = true;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    std::lock_guard<std::mutex> lk(mu);
    run->kill_now();
    ++gen;
    hold = false;
    cv.notify_all();
  }
};

}  // namespace

TEST(CampaignKill, SigkillAtSeveralPointsThenResume) {
  ::setenv("CRUCIBLE_KILL_TEST_KEY", "sk-fake-kill-test", 1);
  KillServer ks;
  fs::path dir = fs::temp_directory_path() / ("crucible_campaign_kill_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  // One request in flight at a time: the slot is held until the answer is stored, so a
  // kill in the server's handler never strands another answer.
  write_run_config(dir / "run.yaml", "vector_add", 2, 3,
                   model_yaml("gpt-kill", "openai", ks.server.url() + "/v1", "CRUCIBLE_KILL_TEST_KEY", 1, ", seed: 100"));
  fs::path rec_file = dir / "results" / "k" / "records.jsonl";
  auto records_now = [&] { return fs::exists(rec_file) ? read_jsonl(rec_file).size() : 0u; };

  using When = std::function<bool(const RequestInfo&, int)>;
  std::vector<When> kills = {
      [](const RequestInfo&, int n) { return n == 1; },             // the very first request
      [](const RequestInfo& i, int) { return i.round == 2; },       // after the first record
      nullptr,                                                       // from outside, mid-evaluation
      [](const RequestInfo& i, int) { return i.round == 3; },       // late in the campaign
  };
  int attempts = 0;
  for (size_t k = 0; k <= kills.size(); ++k) {
    CrucibleRun run(dir / "run.yaml", "k", dir / "results", dir / ("log" + std::to_string(k) + ".txt"));
    ++attempts;
    if (k == 2) {
      ks.start(&run, nullptr);
      auto until = std::chrono::steady_clock::now() + std::chrono::seconds(60);
      while (records_now() < 3 && run.running() && std::chrono::steady_clock::now() < until)
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
      ASSERT_GE(records_now(), 3u);
      ks.kill_from_outside();
      continue;
    }
    ks.start(&run, k < kills.size() ? kills[k] : nullptr);
    int rc = run.wait(90);
    if (k < kills.size()) {
      // -1: reaped by the server's kill; -SIGKILL: reaped here first.
      EXPECT_TRUE(rc == -1 || rc == -SIGKILL) << rc << ": run " << k << " should have been killed by the server: " << slurp(dir / ("log" + std::to_string(k) + ".txt"));
    } else {
      EXPECT_EQ(rc, 0) << slurp(dir / ("log" + std::to_string(k) + ".txt"));
    }
    ks.start(nullptr, nullptr);
  }
  EXPECT_EQ(ks.killed_in_handler, 3);

  // Every trajectory complete, each record once.
  auto recs = read_jsonl(rec_file);
  std::set<std::string> keys;
  std::map<int, std::vector<std::string>> verdicts;
  for (auto& r : recs) {
    EXPECT_TRUE(keys.insert(r["key"].get<std::string>()).second) << "duplicated record " << r["key"];
    verdicts[r["sample"].get<int>()].resize(3);
    verdicts[r["sample"].get<int>()][r["round"].get<int>()] = r["verdict"].get<std::string>();
    EXPECT_EQ(r["tokens_in"].get<int>(), 1000 * (r["round"].get<int>() + 1) + r["sample"].get<int>()) << r.dump();
  }
  EXPECT_EQ(recs.size(), 6u);
  for (int s = 0; s < 2; ++s)
    EXPECT_EQ(verdicts[s], (std::vector<std::string>{"compile_error", "wrong_output", "pass"})) << "sample " << s;

  // No answered request was sent again; 2 samples × 3 rounds answered, once each.
  std::lock_guard<std::mutex> lk(ks.mu);
  EXPECT_EQ(ks.answered.size(), 6u);
  for (auto& [body, n] : ks.answered) EXPECT_EQ(n, 1) << body.substr(0, 200);
  EXPECT_TRUE(ks.sent_after_answer.empty()) << ks.sent_after_answer.size() << " answered requests were sent again";

  // Transcripts: every message once, in order.
  for (int s = 0; s < 2; ++s) {
    auto ts = read_jsonl(dir / "results" / "k" / "transcripts" / ("vector_add__gpt-kill__s" + std::to_string(s) + ".jsonl"));
    std::vector<std::string> roles;
    for (auto& e : ts) roles.push_back(e["role"].get<std::string>() + std::to_string(e["round"].get<int>()));
    EXPECT_EQ(roles, (std::vector<std::string>{"system0", "user0", "assistant0", "user1", "assistant1", "user2", "assistant2"}))
        << "sample " << s;
  }
  fs::remove_all(dir);
}
