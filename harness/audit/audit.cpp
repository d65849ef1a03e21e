#include "harness/audit/audit.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <mutex>
#include <thread>
#include <chrono>
#include <cstdlib>
#include <iomanip>
#include <fstream>
#include <random>
#include <sstream>

#include <yaml-cpp/yaml.h>

#include "harness/audit/reference_runner.h"
#include "harness/backend_registry.h"
#include "harness/error.h"
#include "harness/eval_service.h"

namespace crucible {

namespace fs = std::filesystem;

namespace {

// A temporary folder removed with its contents.
class TempDir {
 public:
  TempDir() {
    std::string tmpl = (fs::temp_directory_path() / "crucible-audit-XXXXXX").string();
    std::vector<char> b(tmpl.begin(), tmpl.end());
    b.push_back('\0');
    if (!mkdtemp(b.data())) CRU_THROW("mkdtemp failed for " + tmpl);
    path_ = b.data();
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

// A copy of the task folder whose task.yaml keeps only the first `n` test shapes (and
// verifies no benchmark shape beyond them): the worker reads the task from disk, so a
// CI-sized audit needs a trimmed task on disk.
Task trimmed_task(const Task& t, int n, const fs::path& tmp) {
  fs::path dst = tmp / t.name;
  fs::create_directories(dst);
  for (auto& e : fs::directory_iterator(t.dir)) {
    if (e.path().filename() == "solutions") continue;
    fs::copy(e.path(), dst / e.path().filename(), fs::copy_options::recursive | fs::copy_options::overwrite_existing);
  }
  YAML::Node y = YAML::LoadFile(t.file.string());
  YAML::Node tests = YAML::Node(YAML::NodeType::Sequence);
  for (int i = 0; i < n && i < static_cast<int>(y["tests"].size()); ++i) tests.push_back(y["tests"][i]);
  y["tests"] = tests;
  y["benchmarks"] = tests;  // GPU backends verify benchmarks: keep them small
  if (y["cpu_benchmarks"]) y.remove("cpu_benchmarks");
  YAML::Emitter em;
  em << y;
  std::ofstream(dst / "task.yaml") << em.c_str() << "\n";
  return load_task(dst);
}

// The shapes the backend verifies, in order (tests, then its timed shapes).
std::vector<Params> verified_shapes(const Task& t, const std::string& backend) {
  std::vector<Params> v = t.tests;
  const BackendInfo* b = find_backend(backend);
  const auto& extra = b && b->family == "cpu" ? t.cpu_benchmarks : t.benchmarks;
  for (auto& p : extra)
    if (std::find(v.begin(), v.end(), p) == v.end()) v.push_back(p);
  return v;
}

std::vector<StoredShapeOutputs> other_seed_outputs(const Task& t, const AuditOptions& o, ReferenceRunner& rr) {
  std::vector<StoredShapeOutputs> st;
  for (auto& p : verified_shapes(t, o.backend)) {
    uint64_t elems = 0;
    for (auto& in : t.inputs) elems += t.element_count(in, p);
    for (auto& out : t.outputs) elems += t.element_count(out, p);
    if (elems > o.stored_shape_limit) continue;
    ReferenceRun r = rr.run(t, p, o.other_seed);
    StoredShapeOutputs s;
    s.params = p;
    for (size_t i = 0; i < t.outputs.size(); ++i) {
      size_t es = dtype_size(t.outputs[i].dtype);
      size_t keep = std::min(r.outputs[i].size(), o.stored_elements * es);
      s.outputs.emplace_back(r.outputs[i].begin(), r.outputs[i].begin() + static_cast<std::ptrdiff_t>(keep));
    }
    st.push_back(std::move(s));
  }
  return st;
}

}  // namespace

AuditReport audit_tasks(const std::vector<Task>& tasks, const AuditOptions& o) {
  auto t0 = std::chrono::steady_clock::now();
  AuditReport rep;
  ServiceOptions so;
  so.backend = o.backend;
  so.exe = o.exe;
  so.compile_workers = std::max(1, o.jobs);
  so.eval_options["time"] = false;
  so.eval_options["run_secret"] = (uint64_t(std::random_device{}()) << 32) ^ std::random_device{}();
  so.eval_options["run_deadline_ms"] = o.run_deadline_ms;
  so.deadlines.seconds["verify"] = std::max(so.deadlines.get("verify"), o.run_deadline_ms / 1000.0 * 8 + 30);
  EvalService svc(so);
  std::string family = find_backend(svc.backend())->family;
  std::unique_ptr<ReferenceRunner> rr;  // the other_seed answers come from the CPU reference
  TempDir tmp;

  // Per task: the (maybe trimmed) task, its reference source and the other seed's answers.
  struct Prepared {
    const Task* orig;
    std::optional<Task> trimmed;
    std::string ref_src, error;
    std::vector<StoredShapeOutputs> stored;
    const Task& task() const { return trimmed ? *trimmed : *orig; }
  };
  std::vector<Prepared> prep(tasks.size());
  bool want_other = std::find(o.kinds.begin(), o.kinds.end(), DegenerateKind::other_seed) != o.kinds.end();
  for (size_t i = 0; i < tasks.size(); ++i) {
    Prepared& p = prep[i];
    p.orig = &tasks[i];
    try {
      if (o.max_shapes > 0) p.trimmed = trimmed_task(tasks[i], o.max_shapes, tmp.path());
      auto rit = p.task().references.find(family);
      if (rit == p.task().references.end()) throw InputError("no '" + family + "' reference");
      p.ref_src = read_file(rit->second.string());
      if (want_other) {
        if (!rr) rr = std::make_unique<ReferenceRunner>("cpu", o.exe);
        p.stored = other_seed_outputs(p.task(), o, *rr);
      }
    } catch (const std::exception& e) {
      p.error = e.what();
    }
  }
  rr.reset();

  // Every (task, kind) pair; evaluated by `jobs` threads (compiles overlap, runs are
  // serialised by the service), rows kept in (task, kind) order.
  std::vector<AuditRow> rows(tasks.size() * o.kinds.size());
  std::atomic<size_t> next{0};
  std::mutex mu;
  auto work = [&] {
    for (;;) {
      size_t idx = next++;
      if (idx >= rows.size()) return;
      const Prepared& p = prep[idx / o.kinds.size()];
      DegenerateKind kind = o.kinds[idx % o.kinds.size()];
      AuditRow row;
      row.task = p.orig->name;
      row.kind = degenerate_name(kind);
      auto k0 = std::chrono::steady_clock::now();
      try {
        if (!p.error.empty()) throw std::runtime_error(p.error);
        DegenerateCandidate c = make_degenerate(p.task(), kind, family, p.ref_src, p.stored);
        if (c.source.empty()) {
          row.verdict = "n/a";
          row.message = c.not_applicable;
        } else {
          EvalResult r = svc.evaluate(p.task(), c.source);
          row.verdict = verdict_name(r.verdict);
          row.flags = r.flags;
          row.message = r.message;
          if (r.verdict == Verdict::pass) {
            row.defect = true;
            row.reason = degenerate_defect_reason(kind);
          } else if (r.verdict == Verdict::format_error || r.verdict == Verdict::compile_error) {
            // The generator's fault, not a defence: the audit could not judge this pair.
            row.error = true;
            if (r.verdict == Verdict::compile_error) row.message += "\n" + r.compile_log.substr(0, 2000);
          }
        }
      } catch (const std::exception& e) {
        row.verdict = "error";
        row.error = true;
        row.message = e.what();
      }
      row.ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - k0).count();
      std::lock_guard<std::mutex> lk(mu);
      if (o.on_row) o.on_row(row);
      rows[idx] = std::move(row);
    }
  };
  std::vector<std::thread> pool;
  for (int j = 1; j < std::max(1, o.jobs); ++j) pool.emplace_back(work);
  work();
  for (auto& th : pool) th.join();
  rep.tasks = static_cast<int>(tasks.size());
  for (auto& r : rows) {
    if (r.defect) rep.defects++;
    if (r.error) rep.errors++;
  }
  rep.rows = std::move(rows);
  rep.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return rep;
}

AuditReport audit_suite(const fs::path& suite, const AuditOptions& o) {
  SuiteFilter f;
  f.name_glob = o.name_glob;
  f.level = o.level;
  SuiteLoad s = load_suite(suite, f);
  AuditReport r = audit_tasks(s.tasks, o);
  r.load_errors = s.errors;
  return r;
}

void print_audit_table(const AuditReport& r, std::ostream& os) {
  os << std::left << std::setw(30) << "task" << std::setw(16) << "candidate" << std::setw(15) << "verdict"
     << std::setw(9) << "ms" << "result\n";
  for (auto& row : r.rows) {
    std::string res = row.defect ? "DEFECT: " + row.reason
                      : row.error ? "ERROR: " + row.message.substr(0, row.message.find('\n'))
                      : row.verdict == "n/a" ? "skipped (" + row.message + ")"
                                             : "fails, as it must";
    std::string fl;
    for (auto& f : row.flags) fl += (fl.empty() ? " [" : ",") + f;
    if (!fl.empty()) fl += "]";
    std::ostringstream ms;
    ms << std::fixed << std::setprecision(0) << row.ms;
    os << std::left << std::setw(30) << row.task << std::setw(16) << row.kind << std::setw(15) << row.verdict
       << std::setw(9) << ms.str() << res << fl << "\n";
  }
  for (auto& e : r.load_errors) os << "load error: " << e << "\n";
  os << "\n" << r.tasks << " tasks, " << r.rows.size() << " degenerate candidates, " << r.defects << " defects, "
     << r.errors << " errors, " << r.load_errors.size() << " load errors, " << std::fixed << std::setprecision(1)
     << r.wall_s << " s\n";
}

nlohmann::json audit_to_json(const AuditReport& r) {
  nlohmann::json rows = nlohmann::json::array();
  for (auto& row : r.rows)
    rows.push_back({{"task", row.task}, {"candidate", row.kind}, {"verdict", row.verdict}, {"flags", row.flags},
                    {"message", row.message}, {"defect", row.defect}, {"error", row.error}, {"reason", row.reason},
                    {"ms", row.ms}});
  return {{"tasks", r.tasks}, {"defects", r.defects}, {"errors", r.errors}, {"load_errors", r.load_errors},
          {"wall_s", r.wall_s}, {"ok", r.ok()}, {"rows", rows}};
}

}  // namespace crucible
