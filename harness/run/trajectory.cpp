#include "harness/run/trajectory.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <condition_variable>
#include <cstring>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <mutex>
#include <thread>
#include <unordered_map>

#include <tbb/global_control.h>
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/partitioner.h>

#include "agents/prompt_builder.h"
#include "agents/response_parser.h"
#include "harness/backend_registry.h"
#include "harness/error.h"
#include "harness/run/progress.h"

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

// Holds one request slot; released early by hand or at scope exit.
class SlotGuard {
 public:
  explicit SlotGuard(Semaphore& s) : s_(&s) { s_->acquire(); }
  ~SlotGuard() { release(); }
  void release() {
    if (s_) s_->release();
    s_ = nullptr;
  }
  SlotGuard(const SlotGuard&) = delete;
  SlotGuard& operator=(const SlotGuard&) = delete;

 private:
  Semaphore* s_;
};

struct Endpoint {
  const ModelConfig* cfg;
  std::unique_ptr<Agent> agent;
  std::unique_ptr<Semaphore> slots;
  std::atomic<bool> stopped{false};  // 401/403: this model's part of the run ends
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

void write_all(int fd, const std::string& s, const std::filesystem::path& file) {
  size_t off = 0;
  while (off < s.size()) {
    ssize_t k = ::write(fd, s.data() + off, s.size() - off);
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0) CRU_THROW("cannot write " + file.string() + ": " + std::strerror(errno));
    off += static_cast<size_t>(k);
  }
}

// One trajectory's transcript: every message, appended as it happens and synced, so a
// resumed run can reuse a response that was paid for but not yet evaluated.
class Transcript {
 public:
  explicit Transcript(const std::filesystem::path& file) : file_(file) {
    std::ifstream f(file);
    std::string line, good;
    bool torn = false;
    while (std::getline(f, line)) {
      if (f.eof()) {  // no newline: the last write was cut by a kill
        torn = true;
        break;
      }
      auto j = nlohmann::json::parse(line, nullptr, false);
      if (j.is_discarded()) {
        torn = true;
        break;
      }
      entries_.push_back(std::move(j));
      good += line + "\n";
    }
    f.close();
    if (torn) {
      // Replace atomically: a kill during the rewrite must not lose paid responses.
      auto tmp = file;
      tmp += ".tmp";
      {
        int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
        if (fd < 0) CRU_THROW("cannot write " + tmp.string() + ": " + std::strerror(errno));
        write_all(fd, good, tmp);
        ::fdatasync(fd);
        ::close(fd);
      }
      std::filesystem::rename(tmp, file);
    }
    fd_ = ::open(file.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (fd_ < 0) CRU_THROW("cannot open " + file.string() + ": " + std::strerror(errno));
  }
  ~Transcript() {
    if (fd_ >= 0) ::close(fd_);
  }
  Transcript(const Transcript&) = delete;
  Transcript& operator=(const Transcript&) = delete;

  void add(nlohmann::json e) {
    std::vector<nlohmann::json> one;
    one.push_back(std::move(e));
    add_all(std::move(one));
  }
  // Several messages in one write and one sync.
  void add_all(std::vector<nlohmann::json> es) {
    if (es.empty()) return;
    std::string text;
    for (auto& e : es) {
      e["time"] = iso_now();
      text += e.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
    }
    write_all(fd_, text, file_);
    ::fdatasync(fd_);
    for (auto& e : es) entries_.push_back(std::move(e));
  }
  const nlohmann::json* find(int round, const std::string& role) const {
    for (auto& e : entries_)
      if (e.value("round", -1) == round && e.value("role", "") == role) return &e;
    return nullptr;
  }

 private:
  std::filesystem::path file_;
  std::vector<nlohmann::json> entries_;
  int fd_ = -1;
};

bool goal_reached(const Goal& g, const EvalResult& r) {
  if (r.verdict != Verdict::pass) return false;
  if (!g.speedup && !g.sol) return false;
  bool ok = true;
  if (g.speedup) ok &= r.speedup && *r.speedup >= *g.speedup;
  if (g.sol) ok &= r.sol && *r.sol >= *g.sol;
  return ok;
}

struct Shared {
  PromptOptions po;
  std::unordered_map<std::string, const nlohmann::json*> recorded;  // key → record kept from before
};

nlohmann::json agent_error_record(const std::string& key, const Task& t, const std::string& backend, const ModelConfig& m,
                                  int sample, int round, const AgentResponse& resp) {
  return {{"key", key}, {"time", iso_now()}, {"task", t.name}, {"level", t.level}, {"backend", backend},
          {"model", m.name}, {"sample", sample}, {"round", round}, {"verdict", verdict_name(Verdict::agent_error)},
          {"flags", nlohmann::json::array()}, {"message", resp.error}, {"raw_body", resp.raw_body.substr(0, 65536)},
          {"http_status", resp.http_status}, {"speedup", nullptr}, {"candidate_ms", nullptr}, {"reference_ms", nullptr},
          {"sol", nullptr}};
}

void run_one(TrajectoryContext& ctx, Traj& tr, const Shared& sh) {
  const Task& t = *tr.task;
  const ModelConfig& m = *tr.ep->cfg;
  const PromptOptions& po = sh.po;
  const int rounds = ctx.cfg.rounds;
  auto stop_early = [&](int rounds_done) {
    if (ctx.progress && rounds_done < rounds) ctx.progress->skip(rounds - rounds_done);
  };
  // Samples of one model must differ: a configured seed is offset by the sample index
  // (sample 0 keeps the configured seed, so a one-sample run is reproducible as before).
  std::unique_ptr<Agent> own_agent;
  Agent* agent = tr.ep->agent.get();
  if (m.seed && tr.sample > 0) {
    ModelConfig c = m;
    c.seed = *m.seed + tr.sample;
    own_agent = make_agent(c);
    agent = own_agent.get();
  }
  std::string base = t.name + "|" + m.name + "|s" + std::to_string(tr.sample);
  Transcript ts(ctx.store.dir() / "transcripts" / transcript_name(t.name, m.name, tr.sample));
  std::string system = render_system_prompt(po);
  std::string task_prompt = render_task_prompt(t, ctx.svc.facts(), po);
  {
    std::vector<nlohmann::json> opening;
    if (!ts.find(0, "system")) opening.push_back({{"round", 0}, {"role", "system"}, {"content", system}});
    if (!ts.find(0, "user")) opening.push_back({{"round", 0}, {"role", "user"}, {"content", task_prompt}});
    ts.add_all(std::move(opening));
  }

  for (int round = 0; round < rounds; ++round) {
    std::string key = base + "|r" + std::to_string(round) + "@" + ctx.backend;
    // A round recorded before: never evaluated again. Its feedback is rebuilt when the
    // run was killed between the record and the feedback.
    if (auto it = sh.recorded.find(key); it != sh.recorded.end()) {
      const nlohmann::json& rec = *it->second;
      if (rec.value("verdict", "") == verdict_name(Verdict::agent_error) || !rec.contains("result")) {
        stop_early(round + 1);
        return;
      }
      EvalResult prev = eval_result_from_json(rec["result"]);
      if (goal_reached(ctx.cfg.goal, prev)) {
        stop_early(round + 1);
        return;
      }
      if (round + 1 < rounds && !ts.find(round + 1, "user"))
        ts.add({{"round", round + 1}, {"role", "user"}, {"content", render_feedback(rec["result"], po)}});
      continue;
    }
    if (tr.ep->stopped) {
      stop_early(round);
      return;
    }
    // The conversation so far: the task prompt, then (answer, feedback) per round;
    // with history_rounds = k only the last k rounds are kept.
    AgentRequest req;
    req.system = system;
    int first = ctx.cfg.history_rounds > 0 ? std::max(0, round - ctx.cfg.history_rounds) : 0;
    req.messages.push_back({"user", task_prompt});
    for (int r = first; r < round; ++r) {
      auto* a = ts.find(r, "assistant");
      auto* f = ts.find(r + 1, "user");
      if (!a || !f) CRU_THROW("transcript of " + base + " lacks round " + std::to_string(r) + "'s answer or feedback");
      req.messages.push_back({"assistant", (*a)["content"].get<std::string>()});
      req.messages.push_back({"user", (*f)["content"].get<std::string>()});
    }
    nlohmann::json usage;
    std::string text;
    if (auto* prev = ts.find(round, "assistant")) {
      text = (*prev)["content"].get<std::string>();  // paid for before the kill: reused
      usage = prev->value("usage", nlohmann::json::object());
      usage["reused"] = true;
    } else {
      // The slot is held until the answer is on disk: whenever no request of this
      // endpoint is in flight, every answer it has given is stored.
      SlotGuard slot(*tr.ep->slots);
      if (tr.ep->stopped) {
        stop_early(round);
        return;
      }
      AgentResponse resp = agent->complete(req);
      usage = {{"tokens_in", resp.tokens_in}, {"tokens_out", resp.tokens_out}, {"cost_usd", resp.cost_usd},
               {"latency_ms", resp.latency_ms}, {"attempts", resp.attempts}, {"finish_reason", resp.finish_reason},
               {"truncated", resp.truncated}};
      if (!resp.ok) {
        nlohmann::json rec = agent_error_record(key, t, ctx.backend, m, tr.sample, round, resp);
        {
          // The task's eager baseline is a fact of the task: failed rounds carry it too, so
          // metrics over eager count this task's trajectories as they do over the reference.
          EvalResult failed;
          failed.verdict = Verdict::agent_error;
          add_baseline_fields(rec, t.name, failed, ctx.baselines);
        }
        rec.update(usage);
        if (resp.fatal) {
          // Not recorded as finished: a rerun with working credentials retries it.
          if (!tr.ep->stopped.exchange(true)) std::cerr << "model " << m.name << ": stopped: " << resp.error << "\n";
          slot.release();
          stop_early(round);
          return;
        }
        ts.add({{"round", round}, {"role", "error"}, {"content", resp.error}, {"raw_body", rec["raw_body"]}, {"usage", usage}});
        ctx.store.append(rec);
        slot.release();
        ctx.done++;
        ctx.report(rec);
        stop_early(round + 1);
        return;
      }
      text = resp.text;
      ts.add({{"round", round}, {"role", "assistant"}, {"content", text}, {"usage", usage}});
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
    nlohmann::json rec = make_record(key, t, r, cand_hash, ctx.baselines);
    rec["model"] = m.name;
    rec["sample"] = tr.sample;
    rec["round"] = round;
    rec.update(usage);
    ctx.store.append(rec);
    ctx.done++;
    ctx.report(rec);
    if (goal_reached(ctx.cfg.goal, r)) {
      stop_early(round + 1);
      return;
    }
    if (round + 1 < rounds && !ts.find(round + 1, "user"))
      ts.add({{"round", round + 1}, {"role", "user"}, {"content", render_feedback(to_json(r), po)}});
  }
}

}  // namespace

std::string transcript_name(const std::string& task, const std::string& model, int sample) {
  return safe(task) + "__" + safe(model) + "__s" + std::to_string(sample) + ".jsonl";
}

int64_t trajectory_rounds_total(const RunConfig& cfg, size_t task_count) {
  return static_cast<int64_t>(task_count) * static_cast<int64_t>(cfg.models.size()) * cfg.samples * cfg.rounds;
}

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
  std::filesystem::create_directories(ctx.store.dir() / "transcripts");
  Shared sh;
  sh.po = prompt_options(ctx.cfg.prompt, find_backend(ctx.backend)->family, ctx.cfg.goal);
  for (auto& rec : ctx.store.existing())
    if (rec.contains("key") && rec["key"].is_string()) sh.recorded[rec["key"].get<std::string>()] = &rec;
  // A trajectory blocks its thread on HTTP while others compile, execute and write
  // records: one thread per request slot, as many again for trajectories between
  // requests (evaluating, syncing records, rebuilding prompts), plus one per evaluation
  // worker. With fewer, threads parked in record writes or evaluation queues leave
  // request slots idle (measured: 42 of 64 in flight with in_flight + workers threads).
  // Capped by the work there is.
  int eval_workers = ctx.cfg.compile_workers > 0 ? ctx.cfg.compile_workers
                                                 : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  int threads = std::max(1, std::min<int>(2 * in_flight + eval_workers + 1, static_cast<int>(trajs.size())));
  tbb::global_control gc(tbb::global_control::max_allowed_parallelism, static_cast<size_t>(threads));
  tbb::task_arena arena(threads);
  arena.execute([&] {
    // One task per trajectory (grain 1): a blocked trajectory never holds others back
    // in its chunk.
    tbb::parallel_for(tbb::blocked_range<size_t>(0, trajs.size(), 1), [&](const tbb::blocked_range<size_t>& range) {
      for (size_t i = range.begin(); i != range.end(); ++i) {
        Traj& tr = trajs[i];
        try {
          run_one(ctx, tr, sh);
        } catch (const std::exception& e) {
          ctx.faults++;
          std::cerr << tr.task->name << " / " << tr.ep->cfg->name << " / s" << tr.sample << ": harness fault: " << e.what() << "\n";
        }
      }
    }, tbb::simple_partitioner());
  });
}

}  // namespace crucible
