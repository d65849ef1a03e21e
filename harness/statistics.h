// Summary statistics of timing samples, and the bootstrap confidence interval of a
// ratio of medians (speedup). Kept apart from the measurement loop, as nvbench keeps
// detail/statistics apart from measure_cold.
#pragma once
#include <cstdint>
#include <vector>

namespace crucible {

struct SampleSummary {
  int64_t samples = 0;
  double median = 0, mean = 0, stdev = 0, rel_stdev = 0, min = 0, max = 0, total = 0;
};

double median_of(std::vector<double> v);
SampleSummary summarize(const std::vector<double>& v);

struct RatioInterval {
  double ratio = 0;   // median(num) / median(den)
  double lo = 0, hi = 0;  // 95% percentile-bootstrap interval
};

// Percentile bootstrap of median(num)/median(den), resampling both sides
// independently; deterministic for a given seed so a report can be reproduced.
RatioInterval bootstrap_median_ratio(const std::vector<double>& num, const std::vector<double>& den,
                                     int resamples = 2000, uint64_t seed = 0x5eed);

// "faster than p" with ties: +1 when the interval's low end clears p, -1 when its
// high end is under p, 0 (a tie) otherwise (KernelBench #166: decisions near 1.0 are noise).
int compare_to_threshold(const RatioInterval&, double p);

}  // namespace crucible
