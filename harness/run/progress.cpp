#include "harness/run/progress.h"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>

namespace crucible {

namespace {

std::string human(double v) {
  char b[32];
  if (v >= 1e6) std::snprintf(b, sizeof b, "%.1fM", v / 1e6);
  else if (v >= 1e3) std::snprintf(b, sizeof b, "%.1fk", v / 1e3);
  else std::snprintf(b, sizeof b, "%.0f", v);
  return b;
}

std::string duration(double s) {
  char b[32];
  long t = static_cast<long>(s + 0.5);
  if (t >= 3600) std::snprintf(b, sizeof b, "%ldh%02ldm", t / 3600, (t / 60) % 60);
  else if (t >= 60) std::snprintf(b, sizeof b, "%ldm%02lds", t / 60, t % 60);
  else std::snprintf(b, sizeof b, "%lds", t);
  return b;
}

bool compiled(const std::string& v) {
  return !v.empty() && v != "format_error" && v != "compile_error" && v != "agent_error";
}

}  // namespace

Progress::Progress(int64_t total, bool live, std::ostream& status, std::ostream& log)
    : live_(live), status_(status), log_(log), start_(std::chrono::steady_clock::now()) {
  c_.total = total;
}

bool Progress::stderr_is_terminal() {
  const char* term = std::getenv("TERM");
  return ::isatty(STDERR_FILENO) && !(term && std::strcmp(term, "dumb") == 0);
}

void Progress::count(const nlohmann::json& rec) {
  c_.done++;
  std::string v = rec.value("verdict", "");
  if (compiled(v)) c_.compiled++;
  if (v == "pass") {
    c_.correct++;
    if (rec.contains("speedup") && rec["speedup"].is_number() && rec["speedup"].get<double>() > 1.0) c_.fast_1++;
  }
  auto num = [&](const char* k) { return rec.contains(k) && rec[k].is_number() ? rec[k].get<double>() : 0.0; };
  c_.tokens += static_cast<int64_t>(num("tokens_in") + num("tokens_out"));
  c_.cost_usd += num("cost_usd");
}

void Progress::preload(const std::vector<nlohmann::json>& records) {
  std::lock_guard<std::mutex> lk(mu_);
  for (auto& r : records) count(r);
  preloaded_ = c_.done;
  start_ = std::chrono::steady_clock::now();
  if (live_) draw(true);
}

void Progress::record(const nlohmann::json& rec) {
  std::lock_guard<std::mutex> lk(mu_);
  count(rec);
  if (live_) {
    draw(false);
    return;
  }
  std::string sp = rec.contains("speedup") && rec["speedup"].is_number()
                       ? std::to_string(rec["speedup"].get<double>()).substr(0, 6) + "x"
                       : "-";
  log_ << "[" << c_.done << "/" << c_.total << "] " << rec.value("key", "") << "  " << rec.value("verdict", "") << "  " << sp;
  if (rec.contains("flags") && rec["flags"].is_array() && !rec["flags"].empty()) log_ << "  " << rec["flags"].dump();
  // Failures show their message (first line, capped) so a log alone says what went wrong.
  if (rec.value("verdict", "pass") != "pass") log_ << "  " << rec.value("message", "").substr(0, 240);
  log_ << std::endl;
}

void Progress::skip(int64_t rounds) {
  std::lock_guard<std::mutex> lk(mu_);
  c_.total -= rounds;
  if (c_.total < c_.done) c_.total = c_.done;
  if (live_) draw(false);
}

void Progress::finish() {
  std::lock_guard<std::mutex> lk(mu_);
  if (!live_) return;
  draw(true);
  status_ << "\n" << std::flush;
}

ProgressCounts Progress::counts() const {
  std::lock_guard<std::mutex> lk(mu_);
  return c_;
}

std::string Progress::status_line() const {
  // Called with mu_ held by draw(), or from outside through counts() semantics.
  const ProgressCounts& c = c_;
  std::string s = std::to_string(c.done) + "/" + std::to_string(c.total) + " rounds  compiled " +
                  std::to_string(c.compiled) + "  correct " + std::to_string(c.correct) + "  fast_1 " +
                  std::to_string(c.fast_1) + "  tokens " + human(static_cast<double>(c.tokens));
  char cost[32];
  std::snprintf(cost, sizeof cost, "  $%.4f", c.cost_usd);
  s += cost;
  double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  int64_t now_done = c.done - preloaded_;
  if (c.done >= c.total) s += "  done in " + duration(elapsed);
  else if (now_done > 0) s += "  ETA " + duration(elapsed / static_cast<double>(now_done) * static_cast<double>(c.total - c.done));
  else s += "  ETA -";
  return s;
}

void Progress::draw(bool force) {
  auto now = std::chrono::steady_clock::now();
  // A terminal redraw per record would flood a slow terminal on fast campaigns.
  if (!force && c_.done < c_.total && now - last_draw_ < std::chrono::milliseconds(100)) return;
  last_draw_ = now;
  std::string line = status_line();
  std::string pad = line.size() < last_len_ ? std::string(last_len_ - line.size(), ' ') : "";
  last_len_ = line.size();
  status_ << "\r" << line << pad << std::flush;
}

}  // namespace crucible
