#include "harness/audit/audit_cli.h"

#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "harness/audit/audit.h"
#include "harness/audit/reference_runner.h"
#include "harness/error.h"

namespace crucible {

namespace fs = std::filesystem;

int audit_main(int argc, char** argv) {
  CLI::App app{"crucible audit: degenerate candidates must fail every task"};
  std::string suite = (fs::path(CRUCIBLE_SOURCE_DIR) / "tasks").string();
  AuditOptions o;
  int level = -1;
  bool as_json = false;
  std::string kinds;
  app.add_option("suite", suite, "suite folder")->capture_default_str();
  app.add_option("--backend", o.backend, "cpu | cuda | hip")->capture_default_str();
  app.add_option("--name", o.name_glob, "task name glob")->capture_default_str();
  app.add_option("--level", level, "only this level");
  app.add_option("--max-shapes", o.max_shapes, "verify only the first N test shapes (0: all)")->capture_default_str();
  app.add_option("--jobs", o.jobs, "evaluations in flight")->capture_default_str();
  app.add_option("--kinds", kinds, "comma-separated degenerate kinds (default: all)");
  app.add_flag("--json", as_json, "print one JSON object");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  }
  try {
    if (level >= 0) o.level = level;
    if (!kinds.empty()) {
      o.kinds.clear();
      std::stringstream ss(kinds);
      std::string k;
      while (std::getline(ss, k, ',')) {
        auto d = parse_degenerate(k);
        if (!d) throw InputError("--kinds: unknown kind '" + k + "'");
        o.kinds.push_back(*d);
      }
    }
    if (!as_json)
      o.on_row = [](const AuditRow& r) {
        if (r.defect || r.error) std::cerr << (r.defect ? "defect: " : "error: ") << r.task << " / " << r.kind << "\n";
      };
    AuditReport r = audit_suite(suite, o);
    if (as_json) std::cout << audit_to_json(r).dump(2) << "\n";
    else print_audit_table(r, std::cout);
    return r.ok() ? 0 : 1;
  } catch (const InputError& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "crucible audit: " << e.what() << "\n";
    return 3;
  }
}

int refout_main(int argc, char** argv, const std::string& exe) {
  CLI::App app{"crucible reference-output: a task's inputs and its reference's outputs for one shape and seed"};
  std::string task_dir, shape, out = ".", backend = "cpu";
  uint64_t seed = 0;
  app.add_option("--task", task_dir, "task folder")->required();
  app.add_option("--shape", shape, "params, e.g. N=1024,M=64")->required();
  app.add_option("--seed", seed, "seed (as for crucible inputs)")->required();
  app.add_option("--out", out, "output folder")->capture_default_str();
  app.add_option("--backend", backend, "cpu | cuda | hip")->capture_default_str();
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  }
  try {
    Task t = load_task(task_dir);
    Params p = parse_params_text(shape);
    ReferenceRunner rr(backend, exe);
    ReferenceRun r = rr.run(t, p, seed);
    fs::create_directories(out);
    auto write = [&](const std::string& file, const std::vector<uint8_t>& b) {
      std::ofstream f(fs::path(out) / file, std::ios::binary);
      f.write(reinterpret_cast<const char*>(b.data()), static_cast<std::streamsize>(b.size()));
      if (!f) CRU_THROW("cannot write " + (fs::path(out) / file).string());
    };
    nlohmann::json in = {{"task", t.name}, {"params", p}, {"seed", seed}, {"tensors", nlohmann::json::array()}};
    for (size_t i = 0; i < t.inputs.size(); ++i) {
      auto& s = t.inputs[i];
      write(s.name + ".bin", r.inputs[i]);
      in["tensors"].push_back({{"name", s.name}, {"dtype", dtype_name(s.dtype)}, {"shape", t.eval_shape(s, p)}, {"file", s.name + ".bin"}});
    }
    std::ofstream(fs::path(out) / "inputs.json") << in.dump(2) << "\n";
    nlohmann::json oj = {{"task", t.name}, {"params", p}, {"seed", seed}, {"backend", backend},
                         {"device", rr.facts().name}, {"tensors", nlohmann::json::array()}};
    for (size_t i = 0; i < t.outputs.size(); ++i) {
      auto& s = t.outputs[i];
      write("ref_" + s.name + ".bin", r.outputs[i]);
      Tolerance tol = t.tolerance_for(s);
      oj["tensors"].push_back({{"name", s.name}, {"dtype", dtype_name(s.dtype)}, {"shape", t.eval_shape(s, p)},
                               {"file", "ref_" + s.name + ".bin"}, {"atol", tol.atol}, {"rtol", tol.rtol}});
    }
    std::ofstream(fs::path(out) / "outputs.json") << oj.dump(2) << "\n";
    return 0;
  } catch (const InputError& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "crucible reference-output: " << e.what() << "\n";
    return 3;
  }
}

}  // namespace crucible
