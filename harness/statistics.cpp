#include "harness/statistics.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>

namespace crucible {

double median_of(std::vector<double> v) {
  if (v.empty()) return 0;
  size_t n = v.size();
  std::nth_element(v.begin(), v.begin() + n / 2, v.end());
  double hi = v[n / 2];
  if (n % 2) return hi;
  double lo = *std::max_element(v.begin(), v.begin() + n / 2);
  return 0.5 * (lo + hi);
}

SampleSummary summarize(const std::vector<double>& v) {
  SampleSummary s;
  s.samples = static_cast<int64_t>(v.size());
  if (v.empty()) return s;
  s.total = std::accumulate(v.begin(), v.end(), 0.0);
  s.mean = s.total / v.size();
  s.median = median_of(v);
  s.min = *std::min_element(v.begin(), v.end());
  s.max = *std::max_element(v.begin(), v.end());
  if (v.size() > 1) {
    double ss = 0;
    for (double x : v) ss += (x - s.mean) * (x - s.mean);
    s.stdev = std::sqrt(ss / (v.size() - 1));
  }
  s.rel_stdev = s.mean > 0 ? s.stdev / s.mean : 0;
  return s;
}

RatioInterval bootstrap_median_ratio(const std::vector<double>& num, const std::vector<double>& den,
                                     int resamples, uint64_t seed) {
  RatioInterval r;
  if (num.empty() || den.empty()) return r;
  r.ratio = median_of(num) / median_of(den);
  std::mt19937_64 rng(seed);
  std::vector<double> ratios;
  ratios.reserve(resamples);
  std::vector<double> a(num.size()), b(den.size());
  std::uniform_int_distribution<size_t> pick_a(0, num.size() - 1), pick_b(0, den.size() - 1);
  for (int i = 0; i < resamples; ++i) {
    for (auto& x : a) x = num[pick_a(rng)];
    for (auto& x : b) x = den[pick_b(rng)];
    double d = median_of(b);
    if (d > 0) ratios.push_back(median_of(a) / d);
  }
  if (ratios.empty()) return r;
  std::sort(ratios.begin(), ratios.end());
  auto at = [&](double q) { return ratios[std::min(ratios.size() - 1, static_cast<size_t>(q * ratios.size()))]; };
  r.lo = at(0.025);
  r.hi = at(0.975);
  return r;
}

int compare_to_threshold(const RatioInterval& r, double p) {
  if (r.lo > p) return 1;
  if (r.hi < p) return -1;
  return 0;
}

}  // namespace crucible
