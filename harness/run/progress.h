// Campaign progress: on a terminal a one-line live status redrawn in place with \r
// (done/total, compiled, correct, fast_1, tokens, cost, ETA); otherwise one plain log
// line per record, so logs of unattended runs stay greppable.
#pragma once
#include <chrono>
#include <cstdint>
#include <iosfwd>
#include <mutex>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace crucible {

struct ProgressCounts {
  int64_t done = 0, total = 0;
  int64_t compiled = 0;   // got past parsing and compiling (any verdict after compile)
  int64_t correct = 0;    // pass
  int64_t fast_1 = 0;     // pass with speedup > 1
  int64_t tokens = 0;     // in + out
  double cost_usd = 0;
};

class Progress {
 public:
  // `live`: redraw one status line on `status` (a terminal); otherwise print a log
  // line per record on `log`. `total`: records the run will write at most.
  Progress(int64_t total, bool live, std::ostream& status, std::ostream& log);
  // True when stderr is a terminal and TERM is not "dumb".
  static bool stderr_is_terminal();

  // Records kept from an earlier run: counted as done, not timed (the ETA uses this run's pace).
  void preload(const std::vector<nlohmann::json>& records);
  // One new record.
  void record(const nlohmann::json& rec);
  // A trajectory stopped early (goal reached, agent error, model stopped): its rounds
  // that will never run leave the total.
  void skip(int64_t rounds);
  // Ends the live line (a newline), so later output starts on a fresh line.
  void finish();

  ProgressCounts counts() const;
  // The status text, e.g. "12/30 rounds  compiled 10  correct 7  fast_1 3  tokens 41.2k  $0.0213  ETA 1m05s".
  std::string status_line() const;

 private:
  void count(const nlohmann::json& rec);
  void draw(bool force);

  mutable std::mutex mu_;
  ProgressCounts c_;
  int64_t preloaded_ = 0;
  bool live_;
  std::ostream& status_;
  std::ostream& log_;
  std::chrono::steady_clock::time_point start_, last_draw_;
  size_t last_len_ = 0;
};

}  // namespace crucible
