// When to stop taking timing samples. Criteria plug in through a registry by name,
// as nvbench's stopping criteria do; "stdrel" is the default.
#pragma once
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace crucible {

struct StoppingParams {
  int min_samples = 10;         // nvbench: at least 10 samples
  double min_time_s = 0.05;     // measured time; nvbench uses 0.5 s, see docs/measurement.md for why less here
  double max_noise = 0.005;     // relative stdev, nvbench's 0.5%
  double max_time_s = 5.0;      // cap on measured time (nvbench: 15 s of wall time)
  int max_samples = 10000;
  // Wall-clock cap for one shape's whole timing loop, input regeneration included
  // (nvbench's 15 s timeout is wall time too). Checked by the loop, not the criterion.
  double max_wall_s = 15.0;
};

class StoppingCriterion {
 public:
  virtual ~StoppingCriterion() = default;
  virtual void add(double ms) = 0;
  virtual bool done() const = 0;
  // True when it stopped on the time or sample cap with noise still above max_noise.
  virtual bool capped() const = 0;
  virtual const std::vector<double>& samples() const = 0;
};

// 1.4826 * MAD / median: the robust relative noise stdrel stops on.
double robust_noise(const std::vector<double>& samples);

using CriterionFactory = std::function<std::unique_ptr<StoppingCriterion>(const StoppingParams&)>;
void register_criterion(const std::string& name, CriterionFactory);
// Throws crucible::Error for an unknown name, listing the known ones.
std::unique_ptr<StoppingCriterion> make_criterion(const std::string& name, const StoppingParams&);
std::vector<std::string> criterion_names();

}  // namespace crucible
