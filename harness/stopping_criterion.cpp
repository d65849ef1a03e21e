#include "harness/stopping_criterion.h"

#include <map>

#include "harness/error.h"
#include "harness/statistics.h"

namespace crucible {

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
    if (static_cast<int>(samples_.size()) >= p_.min_samples) noise_history_.push_back(summarize(samples_).rel_stdev);
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
  // The noise has stopped falling: over the last window of samples it dropped by less
  // than 5% of itself (nvbench's stdrel looks at the trend of the noise the same way).
  // More samples would only describe the same spread; the median is already stable.
  bool plateaued() const {
    const size_t window = 20;
    if (noise_history_.size() < window) return false;
    double first = noise_history_[noise_history_.size() - window];
    double last = noise_history_.back();
    return first - last <= 0.05 * last;
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
