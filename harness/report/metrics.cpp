#include "harness/report/metrics.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <limits>
#include <set>
#include <sstream>

#include "harness/error.h"

namespace crucible {

namespace fs = std::filesystem;

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

std::optional<double> opt_num(const nlohmann::json& j, const char* k) {
  auto it = j.find(k);
  if (it == j.end() || !it->is_number()) return std::nullopt;
  double v = it->get<double>();
  if (!std::isfinite(v)) return std::nullopt;
  return v;
}

double num0(const nlohmann::json& j, const char* k) { return opt_num(j, k).value_or(0.0); }

std::string str(const nlohmann::json& j, const char* k) {
  auto it = j.find(k);
  return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

// The same file-name mangling the trajectory driver uses for transcripts.
std::string safe(const std::string& s) {
  std::string o;
  for (char c : s) o += (isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.') ? c : '_';
  return o;
}

// A trajectory: one (task, group, sample) across its rounds.
struct Traj {
  std::vector<const ReportRecord*> recs;
};

// Best kernel of a set of candidates: correct+fastest first, then by verdict rank.
bool better(const ReportRecord& a, const ReportRecord& b) {
  int ra = verdict_rank(a.verdict), rb = verdict_rank(b.verdict);
  if (ra != rb) return ra > rb;
  double sa = a.speedup.value_or(-1), sb = b.speedup.value_or(-1);
  return sa > sb;
}

// Speedup a trajectory scores up to and including round r: 0 = no correct kernel,
// NaN = correct but untimed. `field` picks the speedup over the reference or over eager.
double best_until(const Traj& t, int round, std::optional<double> ReportRecord::*field = &ReportRecord::speedup) {
  double best = 0;
  bool untimed = false;
  for (auto* r : t.recs) {
    if (r->round > round || !r->correct()) continue;
    if (r->*field) best = std::max(best, *(r->*field));
    else untimed = true;
  }
  return best == 0 && untimed ? kNaN : best;
}

double fast_share(const std::vector<double>& best, double p) {
  if (best.empty()) return 0;
  int n = 0;
  for (double s : best) n += std::isnan(s) ? (p <= 0) : (s > p);
  return double(n) / best.size();
}

// Keeps a record's top-level scalars and string lists and skips nested objects (the
// full "result" is most of each line and the metrics do not need it): a SAX pass that
// builds no DOM for them reads 10,000 records well inside the 2 s budget.
struct TopLevelSax : nlohmann::json_sax<nlohmann::json> {
  nlohmann::json out = nlohmann::json::object();
  bool is_object = false;
  int depth = 0;
  std::string cur;
  bool in_list = false;  // a depth-2 array directly under the record

  template <class T>
  bool value(T&& v) {
    if (depth == 1) out[cur] = std::forward<T>(v);
    else if (in_list && depth == 2) out[cur].push_back(std::forward<T>(v));
    return true;
  }
  bool null() override { return value(nullptr); }
  bool boolean(bool v) override { return value(v); }
  bool number_integer(number_integer_t v) override { return value(v); }
  bool number_unsigned(number_unsigned_t v) override { return value(v); }
  bool number_float(number_float_t v, const string_t&) override { return value(v); }
  bool string(string_t& v) override { return value(v); }
  bool binary(binary_t&) override { return true; }
  bool start_object(std::size_t) override {
    if (depth == 0) is_object = true;
    depth++;
    return true;
  }
  bool end_object() override {
    depth--;
    return true;
  }
  bool key(string_t& k) override {
    if (depth == 1) cur = k;
    return true;
  }
  bool start_array(std::size_t) override {
    depth++;
    if (depth == 2) {
      in_list = true;
      out[cur] = nlohmann::json::array();
    }
    return true;
  }
  bool end_array() override {
    if (depth == 2) in_list = false;
    depth--;
    return true;
  }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) override { return false; }
};

}  // namespace

bool ReportRecord::compiled() const {
  return verdict == "pass" || verdict == "wrong_output" || verdict == "launch_error" || verdict == "runtime_error" ||
         verdict == "timeout" || verdict == "crash";
}

std::string ReportRecord::group() const { return model + " @ " + device + " (" + backend + ")"; }

std::string ReportRecord::transcript() const {
  if (!candidate_file.empty() || model.rfind("replay", 0) == 0) return "";
  return "transcripts/" + safe(task) + "__" + safe(model) + "__s" + std::to_string(sample) + ".jsonl";
}

int verdict_rank(const std::string& v) {
  static const char* order[] = {"agent_error", "format_error", "compile_error", "launch_error", "crash",
                                "timeout",     "runtime_error", "wrong_output", "pass"};
  for (int i = 0; i < 9; ++i)
    if (v == order[i]) return i;
  return -1;
}

ReportRecord record_from_json(const nlohmann::json& j, const std::string& run, const fs::path& run_dir) {
  ReportRecord r;
  r.run = run;
  r.run_dir = run_dir;
  r.key = str(j, "key");
  r.task = str(j, "task");
  r.level = j.value("level", 0);
  r.backend = str(j, "backend");
  r.device = str(j, "device");
  r.verdict = str(j, "verdict");
  r.candidate = str(j, "candidate");
  r.candidate_file = str(j, "candidate_file");
  r.message = str(j, "message");
  if (auto it = j.find("flags"); it != j.end() && it->is_array())
    for (auto& f : *it)
      if (f.is_string()) r.flags.push_back(f.get<std::string>());
  r.model = str(j, "model");
  if (r.model.empty()) r.model = r.candidate_file.empty() ? "replay" : "replay/" + r.candidate_file;
  if (auto it = j.find("sample"); it != j.end() && it->is_number_integer()) r.sample = it->get<int>();
  if (auto it = j.find("round"); it != j.end() && it->is_number_integer()) r.round = it->get<int>();
  r.speedup = opt_num(j, "speedup");
  r.sol = opt_num(j, "sol");
  r.speedup_vs_eager = opt_num(j, "speedup_vs_torch_eager");
  r.has_eager_baseline = opt_num(j, "torch_eager_ms").has_value();
  r.tokens_in = num0(j, "tokens_in");
  r.tokens_out = num0(j, "tokens_out");
  r.cost_usd = num0(j, "cost_usd");
  return r;
}

RunData load_run(const fs::path& dir) {
  RunData d;
  d.dir = dir;
  d.name = fs::absolute(dir).lexically_normal().filename().string();
  if (d.name.empty()) d.name = fs::absolute(dir).lexically_normal().parent_path().filename().string();
  fs::path rec = dir / "records.jsonl";
  if (!fs::exists(rec)) throw InputError(dir.string() + ": not a run folder (no records.jsonl)");
  if (fs::exists(dir / "run.json")) {
    try {
      std::ifstream f(dir / "run.json");
      d.info = nlohmann::json::parse(f);
      if (d.info.contains("name") && d.info["name"].is_string()) d.name = d.info["name"].get<std::string>();
    } catch (...) {
      d.info = nlohmann::json::object();  // being written: the records are what matter
    }
  }
  std::ifstream f(rec, std::ios::binary);
  std::string content((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  size_t pos = 0;
  while (pos < content.size()) {
    size_t nl = content.find('\n', pos);
    size_t end = nl == std::string::npos ? content.size() : nl;
    if (end > pos) {
      try {
        TopLevelSax sax;
        bool ok = nlohmann::json::sax_parse(content.begin() + pos, content.begin() + end, &sax);
        if (ok && sax.is_object) d.records.push_back(record_from_json(sax.out, d.name, dir));
        else d.bad_lines++;  // torn last line of a run in progress
      } catch (const nlohmann::json::exception&) {
        d.bad_lines++;
      }
    }
    if (nl == std::string::npos) break;
    pos = nl + 1;
  }
  return d;
}

double pass_at_k(int n, int c, int k) {
  if (k <= 0 || n < k || c < 0 || c > n) return kNaN;
  if (n - c < k) return 1.0;
  double prod = 1.0;
  for (int i = n - c + 1; i <= n; ++i) prod *= 1.0 - double(k) / i;
  return 1.0 - prod;
}

double geomean(const std::vector<double>& v) {
  if (v.empty()) return kNaN;
  double s = 0;
  for (double x : v) s += std::log(x);
  return std::exp(s / v.size());
}

namespace {
// Mean over tasks of the share of trajectories faster than p; 0 for no tasks.
double mean_fast_share(const std::vector<std::vector<double>>& task_best, double p) {
  if (task_best.empty()) return 0;
  double s = 0;
  for (auto& t : task_best) s += fast_share(t, p);
  return s / task_best.size();
}
}  // namespace

double GroupMetrics::fast_p_of(double p) const { return mean_fast_share(task_best, p); }

double GroupMetrics::fast_p_eager_of(double p) const {
  return task_best_eager.empty() ? kNaN : mean_fast_share(task_best_eager, p);
}

Metrics compute_metrics(const std::vector<ReportRecord>& records, const MetricOptions& opts) {
  Metrics m;
  m.options = opts;
  // group -> task -> sample(+run) -> trajectory
  std::map<std::string, std::map<std::string, std::map<std::string, Traj>>> trajs;
  std::map<std::string, GroupMetrics> groups;
  std::map<std::string, TaskRow> tasks;
  for (auto& r : records) {
    std::string g = r.group();
    auto& gm = groups[g];
    if (gm.records == 0) {
      gm.model = r.model;
      gm.backend = r.backend;
      gm.device = r.device;
    }
    gm.records++;
    gm.compiled += r.compiled();
    gm.correct_records += r.correct();
    if (r.correct() && r.speedup && *r.speedup > 0) gm.correct_speedups.push_back(*r.speedup);
    gm.tokens_in += r.tokens_in;
    gm.tokens_out += r.tokens_out;
    gm.cost_usd += r.cost_usd;
    // A replay record is its own trajectory (one candidate file per task and group).
    trajs[g][r.task][r.run + "#" + std::to_string(r.sample)].recs.push_back(&r);

    auto& row = tasks[r.task];
    row.task = r.task;
    row.level = r.level;
    auto [it, fresh] = row.cells.try_emplace(g);
    Cell& c = it->second;
    c.candidates++;
    c.correct += r.correct();
    // Keep the best candidate's details in the cell.
    bool take = fresh;
    if (!fresh) {
      ReportRecord cur;
      cur.verdict = c.verdict;
      cur.speedup = c.speedup;
      take = better(r, cur);
    }
    if (take) {
      c.verdict = r.verdict;
      c.message = r.message;
      c.candidate = r.candidate;
      c.run = r.run;
      c.run_dir = r.run_dir;
      c.transcript = r.transcript();
      c.key = r.key;
      c.speedup = r.speedup;
      c.sol = r.sol;
      c.speedup_vs_eager = r.speedup_vs_eager;
    }
  }

  for (auto& [g, gm] : groups) {
    gm.compile_rate = gm.records ? double(gm.compiled) / gm.records : 0;
    gm.correct_rate = gm.records ? double(gm.correct_records) / gm.records : 0;
    gm.geomean_speedup_correct_candidates = geomean(gm.correct_speedups);
    auto& by_task = trajs[g];
    gm.tasks = static_cast<int>(by_task.size());
    int max_round = 0, max_n = 0;
    std::vector<double> best_correct, best_all, sols, best_eager;
    for (auto& [task, samples] : by_task) {
      bool eager = false;
      for (auto& [s, t] : samples)
        for (auto* r : t.recs) eager |= r->has_eager_baseline;
      if (eager) {
        std::vector<double> te;
        for (auto& [s, t] : samples) {
          double b = best_until(t, std::numeric_limits<int>::max(), &ReportRecord::speedup_vs_eager);
          te.push_back(b);
          if (b != 0 && !std::isnan(b)) best_eager.push_back(b);
        }
        gm.task_best_eager.push_back(std::move(te));
      }
      std::vector<double> tb;
      for (auto& [s, t] : samples) {
        for (auto* r : t.recs) max_round = std::max(max_round, r->round);
        double b = best_until(t, std::numeric_limits<int>::max());
        tb.push_back(b);
        gm.trajectories++;
        bool ok = b != 0;
        gm.correct_trajectories += ok;
        if (ok && !std::isnan(b)) best_correct.push_back(b);
        best_all.push_back(ok && !std::isnan(b) ? b : 1.0);
        // Speed of light of the fastest correct kernel of this trajectory.
        const ReportRecord* best = nullptr;
        for (auto* r : t.recs)
          if (r->correct() && r->speedup && (!best || *r->speedup > *best->speedup)) best = r;
        if (best && best->sol) sols.push_back(*best->sol);
      }
      max_n = std::max<int>(max_n, tb.size());
      gm.task_best.push_back(std::move(tb));
    }
    gm.correct_trajectory_rate = gm.trajectories ? double(gm.correct_trajectories) / gm.trajectories : 0;
    for (double p : opts.ps) gm.fast_p[p] = gm.fast_p_of(p);
    gm.eager_tasks = static_cast<int>(gm.task_best_eager.size());
    if (gm.eager_tasks)
      for (double p : opts.ps) gm.fast_p_eager[p] = gm.fast_p_eager_of(p);
    gm.geomean_speedup_vs_eager = geomean(best_eager);
    gm.geomean_speedup_correct = geomean(best_correct);
    gm.geomean_speedup_all = best_all.empty() ? kNaN : geomean(best_all);
    if (sols.empty()) gm.mean_sol = kNaN;
    else {
      double s = 0;
      for (double x : sols) s += x;
      gm.mean_sol = s / sols.size();
    }
    // pass@k and fast_p@k: per task over its n trajectories, averaged over tasks with n >= k.
    for (int k : opts.ks) {
      if (k > max_n) continue;
      double pass_sum = 0;
      std::map<double, double> fast_sum;
      int used = 0;
      for (auto& tb : gm.task_best) {
        int n = static_cast<int>(tb.size());
        if (n < k) continue;
        used++;
        int c = 0;
        for (double b : tb) c += b != 0;
        pass_sum += pass_at_k(n, c, k);
        for (double p : opts.ps) {
          int cp = 0;
          for (double b : tb) cp += std::isnan(b) ? (p <= 0) : (b > p);
          fast_sum[p] += pass_at_k(n, cp, k);
        }
      }
      gm.pass_at_k[k] = pass_sum / used;
      for (double p : opts.ps) gm.fast_p_at_k[k][p] = fast_sum[p] / used;
    }
    // Best-so-far by round; a trajectory that stopped early (goal reached) carries its best forward.
    for (int round = 0; round <= max_round; ++round) {
      RoundPoint rp;
      rp.round = round;
      int n = 0, ok = 0, f1 = 0;
      std::vector<double> all;
      for (auto& [task, samples] : by_task)
        for (auto& [s, t] : samples) {
          double b = best_until(t, round);
          n++;
          ok += b != 0;
          f1 += !std::isnan(b) && b > 1;
          all.push_back(b != 0 && !std::isnan(b) ? b : 1.0);
        }
      rp.correct = n ? double(ok) / n : 0;
      rp.fast_1 = n ? double(f1) / n : 0;
      rp.geomean_all = geomean(all);
      gm.by_round.push_back(rp);
    }
    gm.cost_per_correct = gm.correct_records ? gm.cost_usd / gm.correct_records : kNaN;
    gm.tokens_per_correct = gm.correct_records ? (gm.tokens_in + gm.tokens_out) / gm.correct_records : kNaN;
  }

  for (auto& [g, gm] : groups) m.groups.push_back(std::move(gm));
  std::sort(m.groups.begin(), m.groups.end(), [](const GroupMetrics& a, const GroupMetrics& b) {
    return std::tie(a.model, a.device, a.backend) < std::tie(b.model, b.device, b.backend);
  });
  for (auto& [t, row] : tasks) m.tasks.push_back(std::move(row));
  std::stable_sort(m.tasks.begin(), m.tasks.end(),
                   [](const TaskRow& a, const TaskRow& b) { return std::tie(a.level, a.task) < std::tie(b.level, b.task); });
  return m;
}

namespace {

nlohmann::json jnum(double v) { return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr); }

std::string pkey(double p) {
  std::ostringstream o;
  o << p;
  return o.str();
}

}  // namespace

nlohmann::json to_json(const Metrics& m) {
  nlohmann::json groups = nlohmann::json::array();
  for (auto& g : m.groups) {
    nlohmann::json fp = nlohmann::json::object(), pk = nlohmann::json::object(), fpk = nlohmann::json::object();
    for (auto& [p, v] : g.fast_p) fp[pkey(p)] = jnum(v);
    nlohmann::json fpe = nlohmann::json::object();
    for (auto& [p, v] : g.fast_p_eager) fpe[pkey(p)] = jnum(v);
    for (auto& [k, v] : g.pass_at_k) pk[std::to_string(k)] = jnum(v);
    for (auto& [k, byp] : g.fast_p_at_k)
      for (auto& [p, v] : byp) fpk[std::to_string(k)][pkey(p)] = jnum(v);
    nlohmann::json rounds = nlohmann::json::array();
    for (auto& r : g.by_round)
      rounds.push_back({{"round", r.round}, {"correct", r.correct}, {"fast_1", r.fast_1}, {"geomean_all", jnum(r.geomean_all)}});
    nlohmann::json curve = nlohmann::json::array();
    for (int i = 0; i <= 40; ++i) curve.push_back({i * 0.1, g.fast_p_of(i * 0.1)});
    groups.push_back({{"group", g.name()},
                      {"model", g.model},
                      {"backend", g.backend},
                      {"device", g.device},
                      {"records", g.records},
                      {"compiled", g.compiled},
                      {"correct", g.correct_records},
                      {"compile_rate", g.compile_rate},
                      {"correct_rate", g.correct_rate},
                      {"tasks", g.tasks},
                      {"trajectories", g.trajectories},
                      {"correct_trajectories", g.correct_trajectories},
                      {"correct_trajectory_rate", g.correct_trajectory_rate},
                      {"fast_p", fp},
                      {"fast_p_curve", curve},
                      {"geomean_speedup_correct", jnum(g.geomean_speedup_correct)},
                      {"geomean_speedup_all", jnum(g.geomean_speedup_all)},
                      {"geomean_speedup_correct_candidates", jnum(g.geomean_speedup_correct_candidates)},
                      {"mean_sol", jnum(g.mean_sol)},
                      {"eager_tasks", g.eager_tasks},
                      {"fast_p_vs_torch_eager", fpe},
                      {"geomean_speedup_vs_torch_eager", jnum(g.geomean_speedup_vs_eager)},
                      {"pass_at_k", pk},
                      {"fast_p_at_k", fpk},
                      {"by_round", rounds},
                      {"tokens_in", g.tokens_in},
                      {"tokens_out", g.tokens_out},
                      {"cost_usd", g.cost_usd},
                      {"cost_per_correct", jnum(g.cost_per_correct)},
                      {"tokens_per_correct", jnum(g.tokens_per_correct)}});
  }
  nlohmann::json tasks = nlohmann::json::array();
  for (auto& t : m.tasks) {
    nlohmann::json cells = nlohmann::json::object();
    for (auto& [g, c] : t.cells) {
      cells[g] = {{"verdict", c.verdict},
                  {"speedup", c.speedup ? jnum(*c.speedup) : nlohmann::json(nullptr)},
                  {"sol", c.sol ? jnum(*c.sol) : nlohmann::json(nullptr)},
                  {"speedup_vs_torch_eager", c.speedup_vs_eager ? jnum(*c.speedup_vs_eager) : nlohmann::json(nullptr)},
                  {"candidate", c.candidate},
                  {"run", c.run},
                  {"transcript", c.transcript},
                  {"key", c.key},
                  {"candidates", c.candidates},
                  {"correct", c.correct},
                  {"message", c.message}};
    }
    tasks.push_back({{"task", t.task}, {"level", t.level}, {"cells", cells}});
  }
  return {{"groups", groups}, {"tasks", tasks}};
}

}  // namespace crucible
