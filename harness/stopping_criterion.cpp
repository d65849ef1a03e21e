#include "harness/stopping_criterion.h"

#include <cmath>
#include <map>

#include "harness/error.h"
#include "harness/statistics.h"

namespace crucible {

// Relative noise for the stopping decision: 1.4826 * MAD / median, the robust estimate
// of the relative standard deviation. A GPU timer's rare outliers (a late interrupt, a
// clock step) inflate the plain stdev far more than they move the median we report, so
// a stdev rule keeps sampling long after the median is known (measured on the H200:
// rel. stdev 0.5-0.8% from a handful of outliers for a 3.26 ms kernel). The record
// still reports the plain relative stdev.
double robust_noise(const std::vector<double>& v) {
  if (v.size() < 2) return 1.0;
  double med = median_of(v);
  if (med <= 0) return 1.0;
  std::vector<double> dev(v.size());
  for (size_t i = 0; i < v.size(); ++i) dev[i] = std::abs(v[i] - med);
  return 1.4826 * median_of(dev) / med;
}

namespace {

std::map<std::string, CriterionFactory>& registry() {
  static std::map<std::string, CriterionFactory> r;
  return r;
}

// nvbench's stdrel: stop once enough samples and time are in and the relative
// standard deviation is under the target; also stop when the noise has stopped
// improving (nvbench checks the trend of the noise history), since on a noisy host
// more samples will not bring it down; always stop at the cap.
class StdRelCriterion : public StoppingCriterion {
 public:
  explicit StdRelCriterion(const StoppingParams& p) : p_(p) {}
  void add(double ms) override {
    samples_.push_back(ms);
    total_s_ += ms / 1000.0;
    if (static_cast<int>(samples_.size()) >= p_.min_samples) noise_history_.push_back(robust_noise(samples_));
  }
  bool done() const override {
    int n = static_cast<int>(samples_.size());
    if (n >= p_.max_samples || total_s_ >= p_.max_time_s) return true;
    if (n < p_.min_samples || total_s_ < p_.min_time_s) return false;
    double noise = noise_history_.empty() ? 1.0 : noise_history_.back();
    if (noise <= p_.max_noise) return true;
    return plateaued();
  }
  bool capped() const override {
    double noise = noise_history_.empty() ? 1.0 : noise_history_.back();
    return noise > p_.max_noise && !plateaued();
  }
  const std::vector<double>& samples() const override { return samples_; }

 private:
  // The noise has stopped falling: the least-squares slope of the last 20 noise values
  // projects less than a 5% drop over another 20 samples (nvbench's stdrel fits the
  // trend of its noise history the same way). More samples would only describe the same
  // spread.
  bool plateaued() const {
    const size_t window = 20;
    if (noise_history_.size() < window) return false;
    double sx = 0, sy = 0, sxx = 0, sxy = 0;
    for (size_t i = 0; i < window; ++i) {
      double x = static_cast<double>(i), y = noise_history_[noise_history_.size() - window + i];
      sx += x, sy += y, sxx += x * x, sxy += x * y;
    }
    double n = static_cast<double>(window);
    double slope = (n * sxy - sx * sy) / (n * sxx - sx * sx);
    double mean = sy / n;
    return mean <= 0 || -slope * window <= 0.05 * mean;
  }
  StoppingParams p_;
  std::vector<double> samples_;
  std::vector<double> noise_history_;
  double total_s_ = 0;
};

// Fixed count: for tests and for reproducing KernelBench's 100-trial protocol.
class FixedCriterion : public StoppingCriterion {
 public:
  explicit FixedCriterion(const StoppingParams& p) : p_(p) {}
  void add(double ms) override { samples_.push_back(ms); }
  bool done() const override { return static_cast<int>(samples_.size()) >= p_.min_samples; }
  bool capped() const override { return false; }
  const std::vector<double>& samples() const override { return samples_; }

 private:
  StoppingParams p_;
  std::vector<double> samples_;
};

struct Builtins {
  Builtins() {
    registry()["stdrel"] = [](const StoppingParams& p) { return std::make_unique<StdRelCriterion>(p); };
    registry()["fixed"] = [](const StoppingParams& p) { return std::make_unique<FixedCriterion>(p); };
  }
};
const Builtins builtins;

}  // namespace

void register_criterion(const std::string& name, CriterionFactory f) { registry()[name] = std::move(f); }

std::vector<std::string> criterion_names() {
  std::vector<std::string> out;
  for (auto& [k, v] : registry()) out.push_back(k);
  return out;
}

std::unique_ptr<StoppingCriterion> make_criterion(const std::string& name, const StoppingParams& p) {
  auto it = registry().find(name);
  if (it == registry().end()) {
    std::string known;
    for (auto& n : criterion_names()) known += (known.empty() ? "" : ", ") + n;
    CRU_THROW("unknown stopping criterion '" + name + "' (known: " + known + ")");
  }
  return it->second(p);
}

}  // namespace crucible
