#include "harness/run/run_config.h"

#include <yaml-cpp/yaml.h>

#include <set>

#include "harness/error.h"

namespace crucible {

namespace fs = std::filesystem;

namespace {

struct Ctx {
  std::string file;
  std::vector<std::string> errors;
  void err(const YAML::Node& n, const std::string& field, const std::string& msg) {
    int line = n.IsDefined() ? n.Mark().line + 1 : 0;
    errors.push_back(file + ":" + std::to_string(line) + ": " + field + ": " + msg);
  }
  void keys(const YAML::Node& n, const std::string& field, const std::set<std::string>& allowed) {
    if (!n.IsMap()) return;
    for (auto it = n.begin(); it != n.end(); ++it) {
      std::string k = it->first.as<std::string>();
      if (!allowed.count(k)) {
        std::string list;
        for (auto& a : allowed) list += (list.empty() ? "" : ", ") + a;
        err(it->first, field.empty() ? k : field + "." + k, "unknown key (allowed: " + list + ")");
      }
    }
  }
  template <class T>
  std::optional<T> get(const YAML::Node& n, const std::string& field, const char* what) {
    if (!n.IsDefined() || n.IsNull()) return std::nullopt;
    try {
      return n.as<T>();
    } catch (const std::exception&) {
      err(n, field, std::string("expected ") + what);
      return std::nullopt;
    }
  }
};

fs::path resolve(const fs::path& base, const std::string& p) {
  fs::path path(p);
  if (path.is_absolute()) return path;
  if (fs::exists(base / path)) return base / path;
  return fs::absolute(path);
}

}  // namespace

RunConfig load_run_config(const fs::path& file) {
  RunConfig c;
  c.file = file;
  c.name = file.stem().string();
  Ctx x{file.string(), {}};
  YAML::Node root;
  try {
    root = YAML::LoadFile(file.string());
  } catch (const YAML::BadFile&) {
    throw InputError(file.string() + ": cannot read the run config");
  } catch (const YAML::Exception& e) {
    throw InputError(file.string() + ":" + std::to_string(e.mark.line + 1) + ": YAML syntax error: " + e.msg);
  }
  if (!root.IsMap()) throw InputError(file.string() + ":1: the run config must be a map");
  fs::path base = file.parent_path();
  x.keys(root, "", {"suite", "filter", "backend", "device", "arch", "agent", "replay", "models", "samples", "rounds",
                    "history_rounds", "goal", "concurrency", "seed", "timing", "deadlines", "prompt", "name", "baselines"});
  if (auto s = x.get<std::string>(root["suite"], "suite", "a folder path")) c.suite = resolve(base, *s);
  else x.err(root, "suite", "missing: the task suite folder to run, e.g. suite: ../tasks/quickstart");
  if (root["filter"]) {
    x.keys(root["filter"], "filter", {"name", "level"});
    if (auto n = x.get<std::string>(root["filter"]["name"], "filter.name", "a glob")) c.filter.name_glob = *n;
    if (auto l = x.get<int>(root["filter"]["level"], "filter.level", "an integer")) c.filter.level = *l;
  }
  if (auto b = x.get<std::string>(root["backend"], "backend", "cpu, cuda, hip or auto")) c.backend = *b;
  if (auto d = x.get<int>(root["device"], "device", "an integer")) c.device = *d;
  if (auto a = x.get<std::string>(root["arch"], "arch", "a target name")) c.arch = *a;
  if (auto n = x.get<std::string>(root["name"], "name", "a run name")) c.name = *n;
  if (auto b = x.get<std::string>(root["baselines"], "baselines", "auto, none or a baselines file"))
    c.baselines = (*b == "auto" || *b == "none") ? *b : resolve(base, *b).string();
  std::string agent = x.get<std::string>(root["agent"], "agent", "replay or models").value_or(root["models"] ? "models" : "replay");
  if (agent == "replay") {
    c.replay = true;
    if (root["replay"]) {
      x.keys(root["replay"], "replay", {"dir"});
      if (auto d = x.get<std::string>(root["replay"]["dir"], "replay.dir", "a folder")) c.replay_dir = resolve(base, *d);
    }
  } else if (agent == "models") {
    if (!root["models"] || !root["models"].IsSequence() || root["models"].size() == 0)
      x.err(root, "models", "expected a list of model configs (inline maps or file paths)");
    else
      for (size_t i = 0; i < root["models"].size(); ++i) {
        YAML::Node m = root["models"][i];
        std::string where = file.string() + ":" + std::to_string(m.Mark().line + 1);
        try {
          if (m.IsScalar()) {
            fs::path mf = resolve(base, m.as<std::string>());
            YAML::Node mn = YAML::LoadFile(mf.string());
            c.models.push_back(parse_model_config(mn, mf.string()));
          } else {
            c.models.push_back(parse_model_config(m, where));
          }
        } catch (const YAML::Exception& e) {
          x.err(m, "models[" + std::to_string(i) + "]", e.what());
        } catch (const std::exception& e) {
          x.errors.push_back(e.what());
        }
      }
  } else {
    x.err(root["agent"], "agent", "expected 'replay' or 'models', got '" + agent + "'");
  }
  if (auto s = x.get<int>(root["samples"], "samples", "a positive integer")) {
    if (*s < 1) x.err(root["samples"], "samples", "must be at least 1");
    c.samples = *s;
  }
  if (auto r = x.get<int>(root["rounds"], "rounds", "a positive integer")) {
    if (*r < 1) x.err(root["rounds"], "rounds", "must be at least 1");
    c.rounds = *r;
  }
  if (auto h = x.get<int>(root["history_rounds"], "history_rounds", "an integer")) c.history_rounds = *h;
  if (root["goal"]) {
    x.keys(root["goal"], "goal", {"speedup", "sol"});
    c.goal.speedup = x.get<double>(root["goal"]["speedup"], "goal.speedup", "a number");
    c.goal.sol = x.get<double>(root["goal"]["sol"], "goal.sol", "a fraction 0..1");
  }
  if (root["concurrency"]) {
    x.keys(root["concurrency"], "concurrency", {"compiles"});
    if (auto n = x.get<int>(root["concurrency"]["compiles"], "concurrency.compiles", "an integer")) c.compile_workers = *n;
  }
  if (auto s = x.get<uint64_t>(root["seed"], "seed", "an unsigned integer")) c.seed = *s;
  if (root["timing"]) {
    static const std::set<std::string> num = {"min_samples", "min_time_s", "max_noise", "max_time_s", "max_wall_s", "timed_checks", "suspicious_speedup", "run_deadline_ms", "trace_reps"};
    x.keys(root["timing"], "timing", {"min_samples", "min_time_s", "max_noise", "max_time_s", "max_wall_s", "timed_checks", "suspicious_speedup", "run_deadline_ms", "trace_reps", "criterion", "time"});
    for (auto it = root["timing"].begin(); it != root["timing"].end(); ++it) {
      std::string k = it->first.as<std::string>();
      if (num.count(k)) {
        if (auto v = x.get<double>(it->second, "timing." + k, "a number")) c.eval_options[k] = *v;
      } else if (k == "criterion") {
        c.eval_options[k] = it->second.as<std::string>();
      } else if (k == "time") {
        if (auto v = x.get<bool>(it->second, "timing.time", "true or false")) c.eval_options[k] = *v;
      }
    }
    for (const char* k : {"min_samples", "timed_checks", "run_deadline_ms", "trace_reps"})
      if (c.eval_options.contains(k)) c.eval_options[k] = static_cast<int>(c.eval_options[k].get<double>());
  }
  if (root["deadlines"]) {
    x.keys(root["deadlines"], "deadlines", {"start", "compile", "load", "verify", "time"});
    for (auto it = root["deadlines"].begin(); it != root["deadlines"].end(); ++it)
      if (auto v = x.get<double>(it->second, "deadlines." + it->first.as<std::string>(), "seconds"))
        c.deadlines.seconds[it->first.as<std::string>()] = *v;
  }
  if (root["prompt"]) {
    // Prompt options pass through to agents/prompt_builder as JSON.
    std::function<nlohmann::json(const YAML::Node&)> conv = [&](const YAML::Node& n) -> nlohmann::json {
      if (n.IsMap()) {
        nlohmann::json j = nlohmann::json::object();
        for (auto it = n.begin(); it != n.end(); ++it) j[it->first.as<std::string>()] = conv(it->second);
        return j;
      }
      if (n.IsSequence()) {
        nlohmann::json j = nlohmann::json::array();
        for (auto e : n) j.push_back(conv(e));
        return j;
      }
      std::string s = n.as<std::string>();
      if (s == "true") return true;
      if (s == "false") return false;
      try {
        size_t pos;
        long long v = std::stoll(s, &pos);
        if (pos == s.size()) return v;
      } catch (...) {
      }
      return s;
    };
    c.prompt = conv(root["prompt"]);
  }
  if (!x.errors.empty()) {
    std::string all;
    for (auto& e : x.errors) all += e + "\n";
    throw InputError(all.substr(0, all.size() - 1));
  }
  return c;
}

}  // namespace crucible
