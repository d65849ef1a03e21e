#include "harness/run/trajectory.h"

#include <condition_variable>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <mutex>

#include <tbb/global_control.h>
#include <tbb/parallel_for_each.h>

#include "agents/prompt_builder.h"
#include "agents/response_parser.h"
#include "harness/backend_registry.h"
#include "harness/error.h"

namespace crucible {

namespace {

// Requests in flight per endpoint (a model config's max_concurrency).
class Semaphore {
 public:
  explicit Semaphore(int n) : n_(std::max(1, n)) {}
  void acquire() {
    std::unique_lock<std::mutex> lk(mu_);
    cv_.wait(lk, [&] { return n_ > 0; });
    --n_;
  }
  void release() {
    std::lock_guard<std::mutex> lk(mu_);
    ++n_;
    cv_.notify_one();
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  int n_;
};

struct Endpoint {
  const ModelConfig* cfg;
  std::unique_ptr<Agent> agent;
  std::unique_ptr<Semaphore> slots;
  std::atomic<bool> stopped{false};  // 401/403: this model's part of the run ends
  std::string stop_reason;
};

struct Traj {
  const Task* task;
  Endpoint* ep;
  int sample;
};

PromptOptions prompt_options(const nlohmann::json& j, const std::string& family, const Goal& goal) {
  PromptOptions o;
  o.backend_family = family;
  if (j.contains("dir")) o.prompts_dir = j["dir"].get<std::string>();
  o.include_candidate_format = j.value("candidate_format", o.include_candidate_format);
  o.include_device_facts = j.value("device_facts", o.include_device_facts);
  o.include_reference = j.value("reference", o.include_reference);
  o.include_example = j.value("example", o.include_example);
  if (goal.speedup) o.goal = "a speedup of at least " + std::to_string(*goal.speedup).substr(0, 4) + "x over the reference";
  return o;
}

std::string safe(const std::string& s) {
  std::string o;
  for (char c : s) o += (isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.') ? c : '_';
  return o;
}

// One trajectory's transcript: every message, appended as it happens, so a resumed
// run can reuse a response that was paid for but not yet evaluated.
class Transcript {
 public:
  Transcript(const std::filesystem::path& file) : file_(file) {
    std::ifstream f(file);
    std::string line;
    while (std::getline(f, line)) {
      try {
        entries_.push_back(nlohmann::json::parse(line));
      } catch (...) {
        break;  // torn last line
      }
    }
    // Rewrite without a torn tail.
    std::ofstream o(file, std::ios::trunc);
    for (auto& e : entries_) o << e.dump() << "\n";
  }
  const std::vector<nlohmann::json>& entries() const { return entries_; }
  void add(const nlohmann::json& e) {
    entries_.push_back(e);
    std::ofstream o(file_, std::ios::app);
    o << e.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
    o.flush();
  }
  const nlohmann::json* find(int round, const std::string& role) const {
    for (auto& e : entries_)
      if (e.value("round", -1) == round && e.value("role", "") == role) return &e;
    return nullptr;
  }

 private:
  std::filesystem::path file_;
  std::vector<nlohmann::json> entries_;
};

bool goal_reached(const Goal& g, const EvalResult& r) {
  if (r.verdict != Verdict::pass) return false;
  if (!g.speedup && !g.sol) return false;
  bool ok = true;
  if (g.speedup) ok &= r.speedup && *r.speedup >= *g.speedup;
  if (g.sol) ok &= r.sol && *r.sol >= *g.sol;
  return ok;
}

void run_one(TrajectoryContext& ctx, Traj& tr, const PromptOptions& po) {
  const Task& t = *tr.task;
  const ModelConfig& m = *tr.ep->cfg;
  std::string base = t.name + "|" + m.name + "|s" + std::to_string(tr.sample);
  Transcript ts(ctx.store.dir() / "transcripts" / (safe(t.name) + "__" + safe(m.name) + "__s" + std::to_string(tr.sample) + ".jsonl"));
  std::string system = render_system_prompt(po);
  std::string task_prompt = render_task_prompt(t, ctx.svc.facts(), po);
  if (!ts.find(0, "user")) ts.add({{"round", 0}, {"role", "user"}, {"content", task_prompt}, {"time", iso_now()}});

  for (int round = 0; round < ctx.cfg.rounds; ++round) {
    std::string key = base + "|r" + std::to_string(round) + "@" + ctx.backend;
    // Earlier rounds already recorded: check the goal and move on.
    if (ctx.store.has(key)) {
      for (auto& rec : ctx.store.existing())
        if (rec.value("key", "") == key && rec.contains("result") &&
            goal_reached(ctx.cfg.goal, eval_result_from_json(rec["result"])))
          return;
      continue;
    }
    if (tr.ep->stopped) return;
    // The conversation so far: the task prompt, then (answer, feedback) per round;
    // with history_rounds = k only the last k rounds are kept.
    AgentRequest req;
    req.system = system;
    int first = ctx.cfg.history_rounds > 0 ? std::max(0, round - ctx.cfg.history_rounds) : 0;
    req.messages.push_back({"user", task_prompt});
    for (int r = first; r < round; ++r) {
      auto* a = ts.find(r, "assistant");
      auto* f = ts.find(r + 1, "user");
      if (a && f) {
        req.messages.push_back({"assistant", (*a)["content"].get<std::string>()});
        req.messages.push_back({"user", (*f)["content"].get<std::string>()});
      }
    }
    nlohmann::json usage;
    std::string text;
    if (auto* prev = ts.find(round, "assistant")) {
      text = (*prev)["content"].get<std::string>();  // paid for before the kill: reused
      usage = prev->value("usage", nlohmann::json::object());
    } else {
      tr.ep->slots->acquire();
      AgentResponse resp = tr.ep->agent->complete(req);
      tr.ep->slots->release();
      usage = {{"tokens_in", resp.tokens_in}, {"tokens_out", resp.tokens_out}, {"cost_usd", resp.cost_usd},
               {"latency_ms", resp.latency_ms}, {"attempts", resp.attempts}, {"finish_reason", resp.finish_reason},
               {"truncated", resp.truncated}};
      if (!resp.ok) {
        if (resp.fatal) {
          tr.ep->stopped = true;
          std::cerr << "model " << m.name << ": stopped: " << resp.error << "\n";
        }
        nlohmann::json rec = {{"key", key}, {"time", iso_now()}, {"task", t.name}, {"level", t.level},
                              {"backend", ctx.backend}, {"model", m.name}, {"sample", tr.sample}, {"round", round},
                              {"verdict", verdict_name(Verdict::agent_error)}, {"flags", nlohmann::json::array()},
                              {"message", resp.error}, {"raw_body", resp.raw_body.substr(0, 65536)},
                              {"speedup", nullptr}, {"candidate_ms", nullptr}, {"reference_ms", nullptr}, {"sol", nullptr}};
        rec.update(usage);
        if (resp.fatal) {
          // Not recorded as finished: a rerun with working credentials retries it.
          ctx.report(rec);
          return;
        }
        ctx.store.append(rec);
        ctx.done++;
        ctx.report(rec);
        return;
      }
      text = resp.text;
      ts.add({{"round", round}, {"role", "assistant"}, {"content", text}, {"usage", usage}, {"time", iso_now()}});
    }
    EvalResult r;
    std::string cand_hash;
    ExtractedCandidate ec = extract_candidate(text, po.backend_family);
    if (!ec.ok) {
      r.verdict = Verdict::format_error;
      r.message = ec.error;
      r.backend = ctx.backend;
    } else {
      cand_hash = ctx.store.store_candidate(ec.source);
      r = ctx.svc.evaluate(t, ec.source);
    }
    if (usage.value("truncated", false)) r.add_flag("truncated_response");
    nlohmann::json rec = make_record(key, t, r, cand_hash);
    rec["model"] = m.name;
    rec["sample"] = tr.sample;
    rec["round"] = round;
    rec.update(usage);
    ctx.store.append(rec);
    ctx.done++;
    ctx.report(rec);
    if (goal_reached(ctx.cfg.goal, r)) return;
    if (round + 1 < ctx.cfg.rounds && !ts.find(round + 1, "user"))
      ts.add({{"round", round + 1}, {"role", "user"}, {"content", render_feedback(to_json(r), po)}, {"time", iso_now()}});
  }
}

}  // namespace

void run_trajectories(TrajectoryContext& ctx, const std::vector<Task>& tasks, tbb::task_arena&) {
  std::vector<std::unique_ptr<Endpoint>> eps;
  int in_flight = 0;
  for (auto& m : ctx.cfg.models) {
    auto e = std::make_unique<Endpoint>();
    e->cfg = &m;
    e->agent = make_agent(m);
    e->slots = std::make_unique<Semaphore>(m.max_concurrency);
    in_flight += std::max(1, m.max_concurrency);
    eps.push_back(std::move(e));
  }
  std::vector<Traj> trajs;
  for (auto& t : tasks)
    for (auto& e : eps)
      for (int s = 0; s < ctx.cfg.samples; ++s) trajs.push_back({&t, e.get(), s});
  PromptOptions po = prompt_options(ctx.cfg.prompt, find_backend(ctx.backend)->family, ctx.cfg.goal);
  // Trajectories block on HTTP while others compile and execute: give the pool enough
  // threads for every request slot plus the compile workers, so devices stay busy.
  int threads = in_flight + 2;
  tbb::global_control gc(tbb::global_control::max_allowed_parallelism, threads);
  tbb::task_arena arena(threads);
  arena.execute([&] {
    tbb::parallel_for_each(trajs.begin(), trajs.end(), [&](Traj& tr) {
      try {
        run_one(ctx, tr, po);
      } catch (const std::exception& e) {
        ctx.faults++;
        std::cerr << tr.task->name << " / " << tr.ep->cfg->name << " / s" << tr.sample << ": harness fault: " << e.what() << "\n";
      }
    });
  });
}

}  // namespace crucible
