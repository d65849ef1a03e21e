#include "harness/run/run_driver.h"

#include <sys/utsname.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <iostream>
#include <mutex>
#include <random>

#include <tbb/parallel_for_each.h>
#include <tbb/task_arena.h>

#include "harness/backend_registry.h"
#include "harness/device_json.h"
#include "harness/error.h"
#include "harness/eval_service.h"
#include "harness/report/report_cli.h"
#include "harness/results_store.h"
#include <fstream>
#include "harness/run/progress.h"
#include "harness/run/trajectory.h"

namespace crucible {

namespace fs = std::filesystem;

std::string iso_now() {
  std::time_t t = std::time(nullptr);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
  return buf;
}

namespace {

struct ReplayItem {
  const Task* task;
  fs::path file;
  std::string key;
};

std::vector<ReplayItem> replay_items(const RunConfig& cfg, const std::vector<Task>& tasks, const std::string& family,
                                     const std::string& backend) {
  std::vector<ReplayItem> items;
  std::string ext = family == "cpu" ? ".cpp" : ".cu";
  for (auto& t : tasks) {
    fs::path dir = cfg.replay_dir.empty() ? t.solutions_dir : cfg.replay_dir / t.name;
    if (!fs::is_directory(dir)) continue;
    std::vector<fs::path> files;
    for (auto& e : fs::directory_iterator(dir))
      if (e.is_regular_file() && e.path().extension() == ext) files.push_back(e.path());
    std::sort(files.begin(), files.end());
    for (auto& f : files) items.push_back({&t, f, t.name + "/" + f.filename().string() + "@" + backend});
  }
  return items;
}

nlohmann::json run_json(const RunConfig& cfg, const std::string& name, EvalService& svc) {
  utsname u{};
  uname(&u);
  char host[256] = {0};
  gethostname(host, sizeof host - 1);
  nlohmann::json models = nlohmann::json::array();
  for (auto& m : cfg.models) models.push_back({{"name", m.name}, {"kind", m.kind}, {"model", m.model}, {"base_url", m.base_url}});
  std::string cfg_text;
  try {
    cfg_text = read_file(cfg.file.string());
  } catch (...) {
  }
  return {{"name", name},
          {"started", iso_now()},
          {"config_file", cfg.file.string()},
          {"config", cfg_text},
          {"suite", cfg.suite.string()},
          {"backend", svc.backend()},
          {"device", to_json(svc.facts())},
          {"host", {{"name", host}, {"system", u.sysname}, {"release", u.release}, {"machine", u.machine}}},
          {"crucible_version", CRUCIBLE_VERSION},
          {"public_seed", cfg.seed},
          {"samples", cfg.samples},
          {"rounds", cfg.rounds},
          {"models", models},
          {"eval_options", cfg.eval_options}};
}

// The run's PyTorch baselines: an explicit file, or the suite's file for this device.
std::optional<BaselineTable> load_baselines(const RunConfig& cfg, const std::string& device_name) {
  if (cfg.baselines == "none") return std::nullopt;
  if (cfg.baselines != "auto") return BaselineTable::load(cfg.baselines);
  auto f = find_baselines(cfg.suite, device_name);
  if (!f) return std::nullopt;
  return BaselineTable::load(*f);
}

}  // namespace

nlohmann::json make_record(const std::string& key, const Task& t, const EvalResult& r, const std::string& candidate_hash,
                           const BaselineTable* baselines) {
  nlohmann::json res = to_json(r);
  nlohmann::json rec = {{"key", key},
                        {"time", iso_now()},
                        {"task", t.name},
                        {"level", t.level},
                        {"backend", r.backend},
                        {"device", r.device},
                        {"candidate", candidate_hash},
                        {"verdict", res["verdict"]},
                        {"flags", res["flags"]},
                        {"message", r.message},
                        {"speedup", res["speedup"]},
                        {"candidate_ms", res["candidate_ms"]},
                        {"reference_ms", res["reference_ms"]},
                        {"sol", res["sol"]},
                        {"compile_ms", r.compile_ms},
                        {"result", res}};
  add_baseline_fields(rec, t.name, r, baselines);
  return rec;
}

int run_campaign(const RunConfig& cfg, const RunOptions& ro) {
  std::string name = ro.name.empty() ? cfg.name : ro.name;
  SuiteLoad suite = load_suite(cfg.suite, cfg.filter);
  for (auto& e : suite.errors) std::cerr << "task error: " << e << "\n";
  if (suite.tasks.empty()) throw InputError(cfg.file.string() + ": the suite " + cfg.suite.string() + " has no task matching the filter");

  ServiceOptions so;
  so.backend = cfg.backend;
  so.device = cfg.device;
  so.arch = cfg.arch;
  so.deadlines = cfg.deadlines;
  so.exe = ro.exe;
  so.compile_workers = cfg.compile_workers > 0 ? cfg.compile_workers : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  // The run secret never leaves this process and its workers: seeds cannot be predicted
  // from the public seed in run.json (ANCHORS.md exploit 9).
  std::random_device rd;
  uint64_t secret = (uint64_t(rd()) << 32) ^ rd();
  so.eval_options = cfg.eval_options;
  so.eval_options["run_secret"] = secret;
  so.eval_options["public_seed"] = cfg.seed;
  EvalService svc(so);
  std::optional<BaselineTable> baselines = load_baselines(cfg, svc.facts().name);

  ResultsStore store(ro.results_root / name);
  if (!fs::exists(store.dir() / "run.json")) {
    nlohmann::json info = run_json(cfg, name, svc);
    info["baseline_file"] = baselines ? nlohmann::json(baselines->file().string()) : nlohmann::json(nullptr);
    store.write_file("run.json", info.dump(2) + "\n");
  }
  if (!ro.quiet && !store.existing().empty())
    std::cerr << "resuming run '" << name << "': " << store.existing().size() << " records kept"
              << (store.torn_lines_dropped() ? ", 1 torn line dropped" : "") << "\n";

  std::string backend = svc.backend();
  std::atomic<int> faults{0}, done{0};
  std::mutex print_mu;
  // Progress: a live status line on a terminal, one log line per record otherwise.
  std::unique_ptr<Progress> progress;
  auto start_progress = [&](int64_t total) {
    progress = std::make_unique<Progress>(total, Progress::stderr_is_terminal(), std::cerr, std::cout);
    progress->preload(store.existing());
  };
  auto report = [&](const nlohmann::json& rec) {
    if (!ro.quiet && progress) progress->record(rec);
  };

  tbb::task_arena arena(std::min<int>(so.compile_workers + 1, static_cast<int>(std::max(2u, std::thread::hardware_concurrency()))));
  if (cfg.replay) {
    auto items = replay_items(cfg, suite.tasks, find_backend(backend)->family, backend);
    start_progress(static_cast<int64_t>(items.size()));
    arena.execute([&] {
      tbb::parallel_for_each(items.begin(), items.end(), [&](const ReplayItem& it) {
        if (store.has(it.key)) return;  // finished before: kept, not re-evaluated
        try {
          std::string src = read_file(it.file.string());
          EvalResult r = svc.evaluate(*it.task, src);
          auto rec = make_record(it.key, *it.task, r, store.store_candidate(src), baselines ? &*baselines : nullptr);
          rec["candidate_file"] = it.file.filename().string();
          auto ex = it.task->expected.find(it.file.filename().string());
          if (ex != it.task->expected.end()) rec["expected"] = ex->second;
          store.append(rec);
          done++;
          report(rec);
        } catch (const std::exception& e) {
          faults++;
          std::lock_guard<std::mutex> lk(print_mu);
          std::cerr << it.key << ": harness fault (not recorded; a rerun retries it): " << e.what() << "\n";
        }
      });
    });
  } else {
    start_progress(trajectory_rounds_total(cfg, suite.tasks.size()));
    TrajectoryContext ctx{cfg, svc, store, backend, report, faults, done, progress.get(), baselines ? &*baselines : nullptr};
    run_trajectories(ctx, suite.tasks, arena);
  }
  if (progress && !ro.quiet) progress->finish();
  if (!ro.quiet)
    std::cerr << "run '" << name << "': " << done.load() << " evaluated now, " << store.existing().size()
              << " kept from before, " << faults.load() << " harness faults; results in " << store.dir().string() << "\n";
  if (!ro.quiet) {
    // The headline table of the whole run (records from before a resume included).
    std::vector<nlohmann::json> all;
    std::ifstream in(store.dir() / "records.jsonl");
    std::string line;
    while (std::getline(in, line)) {
      try {
        all.push_back(nlohmann::json::parse(line));
      } catch (...) {
      }
    }
    std::cout << "\n" << headline_table(all) << std::flush;
  }
  return faults.load() ? 1 : 0;
}

}  // namespace crucible
