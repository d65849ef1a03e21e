// When and how long to wait before sending a failed model request again, following
// each API's documented behaviour: 429 waits for Retry-After (delta seconds or an
// HTTP date) when the server gives one, otherwise exponential backoff with full
// jitter; 5xx (Anthropic's 529 overloaded included), 408, timeouts and dropped
// connections are retried; 401/402/403 are fatal; other 4xx are final.
#pragma once
#include <cstdint>
#include <ctime>
#include <functional>
#include <mutex>
#include <optional>
#include <random>
#include <string>

namespace crucible {

// What one attempt ended with, as the retry policy needs to see it.
struct AttemptOutcome {
  enum class Kind {
    ok,                // a 2xx with a body
    http_error,        // a non-2xx status
    connect_timeout,   // no connection within connect_timeout_s
    read_timeout,      // connected, no complete answer within read_timeout_s
    connection_error,  // refused, reset, dropped mid-answer, DNS failure
  };
  Kind kind = Kind::ok;
  int status = 0;
  std::string retry_after;     // the Retry-After header, verbatim ("" if absent)
  std::string retry_after_ms;  // OpenAI's retry-after-ms header ("" if absent)
};

struct RetryConfig {
  int max_retries = 4;            // retries after the first attempt
  double base_s = 1.0;            // backoff: U(0, min(cap_s, base_s * 2^(retry-1)))
  double cap_s = 60.0;
  double retry_after_max_s = 600; // Retry-After is honoured up to this
};

// Parses a Retry-After value: delta seconds ("120", "1.5") or an HTTP date
// ("Wed, 21 Oct 2015 07:28:00 GMT", RFC 850 and asctime forms too), relative to `now`.
// A date in the past gives 0. Unparseable: nullopt.
std::optional<double> parse_retry_after(const std::string& value, std::time_t now);

bool is_retryable_status(int status);  // 408, 409, 425, 429, 500-599 (529 included)
bool is_fatal_status(int status);      // 401, 402, 403: the credentials or account are refused

class RetryPolicy {
 public:
  using Sleeper = std::function<void(double seconds)>;
  using Clock = std::function<std::time_t()>;

  explicit RetryPolicy(RetryConfig cfg, Sleeper sleeper = {}, Clock clock = {}, uint64_t seed = 0);

  // After attempt number `attempt` (1-based) ended with `o`: the delay before the next
  // attempt, or nullopt when the request must not be sent again (success, final error,
  // fatal status, retries used up).
  std::optional<double> next_delay(int attempt, const AttemptOutcome& o);
  // Backoff without a server hint for the given retry number (1-based); jittered.
  double backoff(int retry);
  void sleep(double seconds) const;
  const RetryConfig& config() const { return cfg_; }

 private:
  RetryConfig cfg_;
  Sleeper sleeper_;
  Clock clock_;
  std::mutex rng_mutex_;
  std::mt19937_64 rng_;
};

}  // namespace crucible
