// The `crucible` command line: eval, run, tasks, devices, inputs; and the hidden
// entry points of the worker and CPU-executor processes (this same binary, exec'd).
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <random>
#include <sstream>

#include <CLI/CLI.hpp>

#include "backends/cpu/cpu_executor.h"
#include "harness/backend_registry.h"
#include "harness/baselines.h"
#include "harness/device_json.h"
#include "harness/error.h"
#include "harness/eval_service.h"
#include "harness/inputs.h"
#include "harness/run/run_driver.h"
#include "harness/audit/audit_cli.h"
#include "harness/report/report_cli.h"
#include "harness/task.h"
#include "harness/worker_client.h"
#include "harness/worker_main.h"

using namespace crucible;
namespace fs = std::filesystem;

namespace {

std::string fmt_ms(const std::optional<SampleSummary>& s) {
  if (!s) return "-";
  std::ostringstream o;
  o << std::fixed << std::setprecision(4) << s->median << " ms ±" << std::setprecision(1) << s->rel_stdev * 100 << "%";
  return o.str();
}

std::string params_text(const std::map<std::string, int64_t>& p) {
  std::string s;
  for (auto& [k, v] : p) s += (s.empty() ? "" : " ") + k + "=" + std::to_string(v);
  return s;
}

void print_text(const EvalResult& r, const Task& t, const BaselineTable* baselines) {
  std::cout << "task       " << t.name << "  (" << r.backend << ", " << r.device << ")\n";
  std::cout << "verdict    " << verdict_name(r.verdict) << "\n";
  if (!r.flags.empty()) {
    std::cout << "flags     ";
    for (auto& f : r.flags) std::cout << " " << f;
    std::cout << "\n";
  }
  if (!r.message.empty()) std::cout << "message    " << r.message << "\n";
  if (!r.compile_log.empty() && r.verdict == Verdict::compile_error) std::cout << "compile log:\n" << r.compile_log << "\n";
  if (!r.shapes.empty()) {
    std::cout << "\n" << std::left << std::setw(30) << "shape" << std::setw(10) << "kind" << std::setw(8) << "check"
              << std::setw(12) << "max_abs" << std::setw(22) << "candidate" << std::setw(22) << "reference"
              << "speedup (95% CI)\n";
    for (auto& s : r.shapes) {
      double max_abs = 0;
      for (auto& c : s.checks) max_abs = std::max(max_abs, c.stats.max_abs_err);
      std::ostringstream sp;
      if (s.speedup)
        sp << std::fixed << std::setprecision(3) << s.speedup->ratio << "x [" << s.speedup->lo << ", " << s.speedup->hi << "]";
      else
        sp << "-";
      std::ostringstream ma;
      ma << std::setprecision(3) << max_abs;
      std::cout << std::left << std::setw(30) << params_text(s.params) << std::setw(10) << s.kind << std::setw(8)
                << (s.ok ? "ok" : "FAIL") << std::setw(12) << ma.str() << std::setw(22) << fmt_ms(s.candidate)
                << std::setw(22) << fmt_ms(s.reference) << sp.str() << "\n";
    }
  }
  if (r.speedup) {
    std::cout << "\nspeedup    " << std::fixed << std::setprecision(3) << *r.speedup << "x (geometric mean over timed shapes)\n";
    if (r.sol) std::cout << "speed of light " << std::setprecision(1) << *r.sol * 100 << "%\n";
  }
  if (const Baseline* b = baselines ? baselines->find(t.name) : nullptr) {
    BaselineComparison c = compare_with_baseline(*b, r);
    std::cout << "PyTorch    eager " << std::setprecision(4) << c.eager_ms << " ms";
    if (c.compile_ms) std::cout << ", torch.compile " << *c.compile_ms << " ms";
    std::cout << " (" << baselines->file().string() << ")\n";
    if (c.speedup_vs_eager) {
      std::cout << "vs eager   " << std::setprecision(3) << *c.speedup_vs_eager << "x";
      if (c.speedup_vs_compile) std::cout << "   vs torch.compile " << *c.speedup_vs_compile << "x";
      std::cout << "\n";
    } else {
      std::cout << "vs eager   - (" << c.note << ")\n";
    }
  }
  std::cout << "wall       " << std::fixed << std::setprecision(0) << r.wall_ms << " ms in the worker\n";
}

nlohmann::json eval_json(const EvalResult& r) {
  nlohmann::json j = to_json(r);
  return j;
}

fs::path default_root() { return fs::path(CRUCIBLE_SOURCE_DIR); }

}  // namespace

int main(int argc, char** argv) {
  if (argc >= 2 && std::strcmp(argv[1], "__worker") == 0) return worker_main(argc, argv);
  if (argc >= 2 && std::strcmp(argv[1], "__cpu_executor") == 0) return cpu_executor_main(argc, argv);
  // Subcommands with parsers of their own (harness/report, harness/audit).
  if (argc >= 2) {
    std::string sub = argv[1];
    try {
      if (sub == "report") return report_main(argc - 1, argv + 1);
      if (sub == "compare") return compare_main(argc - 1, argv + 1);
      if (sub == "audit") return audit_main(argc - 1, argv + 1);
      if (sub == "reference-output") return refout_main(argc - 1, argv + 1);
    } catch (const std::exception& e) {
      std::cerr << "crucible " << sub << ": " << e.what() << "\n";
      return 3;
    }
  }

  CLI::App app{"crucible: evaluate LLM-written GPU kernels\n(also: crucible report RUN..., crucible compare RUN_A RUN_B..., crucible audit [SUITE], crucible reference-output)"};
  app.require_subcommand(1);

  // ---- eval
  auto* eval = app.add_subcommand("eval", "Evaluate one candidate file against one task");
  std::string task_dir, cand_file, backend = "auto", arch;
  bool as_json = false, no_time = false;
  double max_time_s = -1;
  eval->add_option("--task", task_dir, "task folder (holding task.yaml)")->required();
  eval->add_option("--candidate", cand_file, "candidate source file")->required();
  eval->add_option("--backend", backend, "cpu | cuda | hip | auto")->capture_default_str();
  eval->add_option("--arch", arch, "compile target (sm_90, gfx90a, ...)");
  eval->add_option("--max-time", max_time_s, "cap on measured time per shape, seconds");
  double deadline_s = 10;
  eval->add_option("--deadline", deadline_s, "seconds one run of the candidate may take")->capture_default_str();
  eval->add_flag("--json", as_json, "print one JSON object");
  eval->add_flag("--no-time", no_time, "verify only");

  // ---- run
  auto* run = app.add_subcommand("run", "Run a campaign from a run config (default: the quickstart suite)");
  std::string config, run_name, results_root = "results";
  run->add_option("config", config, "run config YAML (default: configs/quickstart.yaml)");
  run->add_option("--name", run_name, "run name (results/<name>); rerunning a name resumes it");
  run->add_option("--results", results_root, "results folder")->capture_default_str();
  run->add_option("--backend", backend, "override the config's backend");

  // ---- tasks
  auto* tasks = app.add_subcommand("tasks", "Browse a task suite");
  tasks->require_subcommand(1);
  std::string suite_dir = (default_root() / "tasks").string(), glob = "*";
  int level = -1;
  auto* tlist = tasks->add_subcommand("list", "List tasks");
  tlist->add_option("--suite", suite_dir, "suite folder")->capture_default_str();
  tlist->add_option("--name", glob, "name glob");
  tlist->add_option("--level", level, "level");
  auto* tshow = tasks->add_subcommand("show", "Show one task");
  std::string show_what;
  tshow->add_option("task", show_what, "task folder or name")->required();
  tshow->add_option("--suite", suite_dir, "suite folder");

  // ---- devices
  auto* devices = app.add_subcommand("devices", "List the backends built in and the devices they see");

  // ---- inputs
  auto* inputs = app.add_subcommand("inputs", "Write a task's generated inputs for one shape and seed (raw little-endian files)");
  std::string shape_text, out_dir = ".";
  uint64_t seed = 0;
  inputs->add_option("--task", task_dir, "task folder")->required();
  inputs->add_option("--shape", shape_text, "params, e.g. N=1024,M=64")->required();
  inputs->add_option("--seed", seed, "seed")->required();
  inputs->add_option("--out", out_dir, "output folder")->capture_default_str();

  CLI11_PARSE(app, argc, argv);

  try {
    if (eval->parsed()) {
      Task t = load_task(task_dir);
      ServiceOptions so;
      so.backend = backend;
      so.arch = arch;
      so.eval_options["run_secret"] = (uint64_t(std::random_device{}()) << 32) ^ std::random_device{}();
      if (no_time) so.eval_options["time"] = false;
      if (max_time_s > 0) so.eval_options["max_time_s"] = max_time_s, so.eval_options["max_wall_s"] = 10 * max_time_s;
      so.eval_options["run_deadline_ms"] = static_cast<int>(deadline_s * 1000);
      // The worker's own verify deadline must outlast the candidate's run deadline.
      so.deadlines.seconds["verify"] = std::max(so.deadlines.get("verify"), deadline_s * 4 + 10);
      EvalService svc(so);
      EvalResult r = svc.evaluate(t, read_file(cand_file));
      // PyTorch baselines of this device, from the suite the task is in.
      std::optional<BaselineTable> bt;
      if (auto f = find_baselines(t.dir.parent_path(), svc.facts().name)) bt = BaselineTable::load(*f);
      if (as_json) {
        nlohmann::json j = eval_json(r);
        nlohmann::json rec;
        add_baseline_fields(rec, t.name, r, bt ? &*bt : nullptr);
        if (!rec.is_null()) j["pytorch_baseline"] = rec;
        std::cout << j.dump(2) << "\n";
      } else {
        print_text(r, t, bt ? &*bt : nullptr);
      }
      return 0;
    }
    if (run->parsed()) {
      fs::path cfg = config.empty() ? default_root() / "configs" / "quickstart.yaml" : fs::path(config);
      RunConfig rc = load_run_config(cfg);
      if (backend != "auto" || run->count("--backend")) rc.backend = backend;
      RunOptions ro;
      ro.results_root = results_root;
      ro.name = run_name;
      return run_campaign(rc, ro);
    }
    if (tlist->parsed()) {
      SuiteFilter f;
      f.name_glob = glob;
      if (level >= 0) f.level = level;
      SuiteLoad s = load_suite(suite_dir, f);
      std::map<int, int> per_level;
      for (auto& t : s.tasks) {
        std::cout << std::left << std::setw(6) << ("L" + std::to_string(t.level)) << std::setw(28) << t.name << t.summary << "\n";
        per_level[t.level]++;
      }
      std::cout << "\n" << s.tasks.size() << " tasks:";
      for (auto& [l, n] : per_level) std::cout << " level " << l << ": " << n << ";";
      std::cout << "\n";
      for (auto& e : s.errors) std::cerr << "error: " << e << "\n";
      return s.errors.empty() ? 0 : 1;
    }
    if (tshow->parsed()) {
      fs::path dir = show_what;
      if (!fs::exists(dir / "task.yaml")) {
        SuiteFilter f;
        f.name_glob = show_what;
        SuiteLoad s = load_suite(suite_dir, f);
        if (s.tasks.empty()) throw InputError("no task named '" + show_what + "' under " + suite_dir);
        dir = s.tasks.front().dir;
      }
      Task t = load_task(dir);
      std::cout << read_file((dir / "task.yaml").string());
      return 0;
    }
    if (devices->parsed()) {
      // Each backend is probed in a worker process: this process never initialises a device runtime.
      for (auto& b : backends()) {
        WorkerSpec spec;
        spec.backend = b.name;
        Worker w(spec);
        WorkerReply r = w.call({{"op", "hello"}}, "start");
        std::cout << b.name << ": ";
        if (r.status == WorkerReply::Status::ok && r.msg.value("ok", false))
          std::cout << r.msg["facts"].dump(2) << "\n";
        else
          std::cout << "no device (" << (r.status == WorkerReply::Status::ok ? r.msg.value("error", std::string()) : r.detail) << ")\n";
      }
      return 0;
    }
    if (inputs->parsed()) {
      Task t = load_task(task_dir);
      Params p;
      std::stringstream ss(shape_text);
      std::string kv;
      while (std::getline(ss, kv, ',')) {
        auto eq = kv.find('=');
        if (eq == std::string::npos) throw InputError("--shape: expected NAME=VALUE, got '" + kv + "'");
        p[kv.substr(0, eq)] = std::stoll(kv.substr(eq + 1));
      }
      fs::create_directories(out_dir);
      ExprEnv env;
      for (auto& [k, v] : p) env.ints[k] = v;
      env.reals = t.constants;
      nlohmann::json meta = {{"task", t.name}, {"params", p}, {"seed", seed}, {"tensors", nlohmann::json::array()}};
      for (size_t i = 0; i < t.inputs.size(); ++i) {
        auto& in = t.inputs[i];
        FillSpec f;
        f.dtype = in.dtype;
        f.count = t.element_count(in, p);
        f.seed = seed;
        f.stream = static_cast<uint32_t>(i);
        f.dist = in.init.dist;
        f.p0 = in.init.p0.eval_real(env);
        f.p1 = in.init.p1.eval_real(env);
        std::vector<uint8_t> buf(f.count * dtype_size(in.dtype));
        generate_host(f, buf.data());
        std::ofstream o(fs::path(out_dir) / (in.name + ".bin"), std::ios::binary);
        o.write(reinterpret_cast<const char*>(buf.data()), static_cast<std::streamsize>(buf.size()));
        meta["tensors"].push_back({{"name", in.name}, {"dtype", dtype_name(in.dtype)}, {"shape", t.eval_shape(in, p)}, {"file", in.name + ".bin"}});
      }
      std::ofstream(fs::path(out_dir) / "inputs.json") << meta.dump(2) << "\n";
      return 0;
    }
  } catch (const InputError& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "crucible: " << e.what() << "\n";
    return 3;
  }
  return 0;
}
