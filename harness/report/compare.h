// `crucible compare`: the same tasks across runs (other hardware, other models) side
// by side; per-task best speedups, geometric-mean ratios against the first column,
// and the tasks that flip between faster and slower than the reference.
#pragma once
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "harness/report/metrics.h"

namespace crucible {

struct CompareValue {
  std::string verdict;          // empty: the task is absent from this column
  double speedup = 0;           // NaN when not correct or untimed
};

struct Comparison {
  std::vector<std::string> columns;                  // "run: model @ device (backend)"
  std::vector<std::string> tasks;
  std::vector<std::vector<CompareValue>> values;     // [task][column]
  struct Versus {
    std::string column;
    int common = 0;                                  // tasks correct and timed in both
    double geomean_ratio = 0;                        // geomean(column / baseline) over common tasks; NaN if none
    std::vector<std::string> faster_to_slower, slower_to_faster, lost, gained;
  };
  std::vector<Versus> versus;                        // columns 1.. against column 0
};

Comparison compare_runs(const std::vector<RunData>& runs);
nlohmann::json to_json(const Comparison& c);
std::string compare_text(const Comparison& c);
std::string compare_html(const Comparison& c);

}  // namespace crucible
