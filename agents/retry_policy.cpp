// Retry decisions for model requests (see retry_policy.h). The sleeper and clock are
// injectable so that tests run the whole policy in microseconds.
#include "agents/retry_policy.h"

#include <curl/curl.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <thread>

namespace crucible {

std::optional<double> parse_retry_after(const std::string& raw, std::time_t now) {
  std::string v = raw;
  while (!v.empty() && std::isspace(static_cast<unsigned char>(v.back()))) v.pop_back();
  size_t b = 0;
  while (b < v.size() && std::isspace(static_cast<unsigned char>(v[b]))) ++b;
  v = v.substr(b);
  if (v.empty()) return std::nullopt;
  if (std::isdigit(static_cast<unsigned char>(v[0]))) {
    char* end = nullptr;
    double s = std::strtod(v.c_str(), &end);
    if (end && *end == '\0' && std::isfinite(s) && s >= 0) return s;
  }
  // curl_getdate reads the three HTTP date forms of RFC 9110.
  std::time_t t = curl_getdate(v.c_str(), nullptr);
  if (t == -1) return std::nullopt;
  return std::max(0.0, static_cast<double>(t - now));
}

bool is_retryable_status(int s) { return s == 408 || s == 409 || s == 425 || s == 429 || (s >= 500 && s <= 599); }
bool is_fatal_status(int s) { return s == 401 || s == 402 || s == 403; }

RetryPolicy::RetryPolicy(RetryConfig cfg, Sleeper sleeper, Clock clock, uint64_t seed)
    : cfg_(cfg), sleeper_(std::move(sleeper)), clock_(std::move(clock)),
      rng_(seed ? seed : std::random_device{}()) {
  if (!sleeper_)
    sleeper_ = [](double s) {
      if (s > 0) std::this_thread::sleep_for(std::chrono::duration<double>(s));
    };
  if (!clock_) clock_ = [] { return std::time(nullptr); };
}

double RetryPolicy::backoff(int retry) {
  const double ceiling = std::min(cfg_.cap_s, cfg_.base_s * std::ldexp(1.0, std::min(retry - 1, 60)));
  std::lock_guard<std::mutex> lock(rng_mutex_);
  return std::uniform_real_distribution<double>(0.0, std::max(ceiling, 0.0))(rng_);
}

std::optional<double> RetryPolicy::next_delay(int attempt, const AttemptOutcome& o) {
  if (o.kind == AttemptOutcome::Kind::ok) return std::nullopt;
  if (o.kind == AttemptOutcome::Kind::http_error && !is_retryable_status(o.status)) return std::nullopt;
  if (attempt > cfg_.max_retries) return std::nullopt;  // attempt N failed; N-1 retries were used
  if (o.kind == AttemptOutcome::Kind::http_error) {
    // A server's own hint wins over our backoff (429 and 503/529 may carry one).
    if (!o.retry_after_ms.empty()) {
      char* end = nullptr;
      double ms = std::strtod(o.retry_after_ms.c_str(), &end);
      if (end && *end == '\0' && std::isfinite(ms) && ms >= 0) return std::min(ms / 1000.0, cfg_.retry_after_max_s);
    }
    if (!o.retry_after.empty()) {
      if (auto s = parse_retry_after(o.retry_after, clock_())) return std::min(*s, cfg_.retry_after_max_s);
    }
  }
  return backoff(attempt);
}

void RetryPolicy::sleep(double seconds) const { sleeper_(seconds); }

}  // namespace crucible
