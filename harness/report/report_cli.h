// Entry points for the `crucible report` and `crucible compare` subcommands, and the
// headline table printed at the end of `crucible run`.
//
// Wiring in harness/cli/main.cpp: when argv[1] is "report", call
// report_main(argc - 1, argv + 1) (so argv[0] is "report" and the run folders follow);
// likewise compare_main for "compare".
#pragma once
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace crucible {

// crucible report RUN [RUN...] [-o DIR] [--p P]... : writes summary.json, report.md
// and report.html into DIR (default: the first run's folder). Returns the exit code.
int report_main(int argc, char** argv);

// crucible compare RUN_A RUN_B [...] [--json] [--html FILE]
int compare_main(int argc, char** argv);

// The headline table (one row per model x backend x device) of a set of records, as
// they are in records.jsonl.
std::string headline_table(const std::vector<nlohmann::json>& records);

}  // namespace crucible
