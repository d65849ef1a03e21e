// The gaming audit (issue 7): every degenerate candidate (harness/audit/degenerate.h)
// is evaluated, verification only, against every task of a suite; each must fail. A
// degenerate candidate that passes is a defect of that task, reported with the reason.
#pragma once
#include <filesystem>
#include <functional>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "harness/audit/degenerate.h"
#include "harness/task.h"

namespace crucible {

struct AuditRow {
  std::string task;
  std::string kind;                  // degenerate_name()
  std::string verdict;               // a verdict name, or "n/a" / "error"
  std::vector<std::string> flags;
  std::string message;               // the evaluation's message, or why n/a / the error
  bool defect = false;               // the degenerate candidate passed
  bool error = false;                // the audit could not judge (harness fault, broken reference)
  std::string reason;                // defect: why the task is gameable
  double ms = 0;
};

struct AuditReport {
  std::vector<AuditRow> rows;
  std::vector<std::string> load_errors;  // tasks that did not load
  int tasks = 0;
  int defects = 0;
  int errors = 0;
  double wall_s = 0;
  bool ok() const { return defects == 0 && errors == 0 && load_errors.empty(); }
};

struct AuditOptions {
  std::string backend = "cpu";
  std::string name_glob = "*";
  std::optional<int> level;
  int max_shapes = 0;                // >0: only the first N test shapes (a CI-sized audit)
  std::string exe;                   // the crucible binary for workers; empty: this process
  std::vector<DegenerateKind> kinds = all_degenerate_kinds();
  int jobs = 2;                      // evaluations in flight (compiles overlap)
  int run_deadline_ms = 20000;       // per run of a candidate
  uint64_t other_seed = 0x6F7468657253ull;  // inputs of the other_seed answers ("otherS")
  size_t stored_elements = 4096;     // other_seed: elements kept per output and shape
  uint64_t stored_shape_limit = uint64_t(1) << 24;  // other_seed: skip shapes with more elements
  std::function<void(const AuditRow&)> on_row;      // progress, called after each row
};

AuditReport audit_tasks(const std::vector<Task>&, const AuditOptions&);
// Loads the suite (name_glob, level) and audits it; load errors are reported, not thrown.
AuditReport audit_suite(const std::filesystem::path& suite, const AuditOptions&);

void print_audit_table(const AuditReport&, std::ostream&);
nlohmann::json audit_to_json(const AuditReport&);

}  // namespace crucible
