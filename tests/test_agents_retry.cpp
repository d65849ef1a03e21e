// Tests the retry policy on its own: Retry-After parsing (delta seconds and the three
// HTTP date forms, past dates, garbage), which statuses are retried or fatal, the
// server hint winning over backoff and being capped, exponential backoff with full
// jitter within its bounds, and the retry limit.
#include <gtest/gtest.h>

#include "agents/retry_policy.h"

using namespace crucible;
using Kind = AttemptOutcome::Kind;

namespace {
// Sun, 06 Nov 1994 08:49:37 GMT, the RFC 9110 example date.
constexpr std::time_t kRfcDate = 784111777;

AttemptOutcome http(int status, std::string retry_after = "", std::string retry_after_ms = "") {
  AttemptOutcome o;
  o.kind = Kind::http_error;
  o.status = status;
  o.retry_after = std::move(retry_after);
  o.retry_after_ms = std::move(retry_after_ms);
  return o;
}
AttemptOutcome of(Kind k) {
  AttemptOutcome o;
  o.kind = k;
  return o;
}
}  // namespace

TEST(RetryAfter, DeltaSeconds) {
  EXPECT_EQ(parse_retry_after("120", 0), 120.0);
  EXPECT_EQ(parse_retry_after(" 0 ", 0), 0.0);
  EXPECT_DOUBLE_EQ(*parse_retry_after("1.5", 0), 1.5);
}

TEST(RetryAfter, HttpDatesInAllThreeForms) {
  const std::time_t now = kRfcDate - 30;
  EXPECT_EQ(parse_retry_after("Sun, 06 Nov 1994 08:49:37 GMT", now), 30.0);   // IMF-fixdate
  EXPECT_EQ(parse_retry_after("Sunday, 06-Nov-94 08:49:37 GMT", now), 30.0);  // RFC 850
  EXPECT_EQ(parse_retry_after("Sun Nov  6 08:49:37 1994", now), 30.0);        // asctime
}

TEST(RetryAfter, PastDateMeansNowAndGarbageIsIgnored) {
  EXPECT_EQ(parse_retry_after("Sun, 06 Nov 1994 08:49:37 GMT", kRfcDate + 100), 0.0);
  EXPECT_FALSE(parse_retry_after("soon", 0).has_value());
  EXPECT_FALSE(parse_retry_after("", 0).has_value());
  EXPECT_FALSE(parse_retry_after("-5", 0).has_value());
}

TEST(RetryStatus, Classification) {
  for (int s : {408, 429, 500, 502, 503, 504, 529}) EXPECT_TRUE(is_retryable_status(s)) << s;
  for (int s : {200, 400, 401, 403, 404, 413, 422}) EXPECT_FALSE(is_retryable_status(s)) << s;
  for (int s : {401, 402, 403}) EXPECT_TRUE(is_fatal_status(s)) << s;
  for (int s : {400, 429, 500}) EXPECT_FALSE(is_fatal_status(s)) << s;
}

TEST(RetryPolicy, ServerHintWinsAndIsCapped) {
  RetryConfig cfg;
  cfg.retry_after_max_s = 50;
  RetryPolicy p(cfg, {}, [] { return kRfcDate - 10; }, 1);
  EXPECT_EQ(p.next_delay(1, http(429, "7")), 7.0);
  EXPECT_EQ(p.next_delay(1, http(429, "3600")), 50.0);
  EXPECT_EQ(p.next_delay(1, http(429, "Sun, 06 Nov 1994 08:49:37 GMT")), 10.0);
  EXPECT_EQ(p.next_delay(1, http(503, "4")), 4.0);  // 503 and 529 may carry one too
  EXPECT_DOUBLE_EQ(*p.next_delay(1, http(429, "9", "250")), 0.25);  // retry-after-ms is finer
}

TEST(RetryPolicy, BackoffIsFullJitterUnderAnExponentialCeiling) {
  RetryConfig cfg;
  cfg.base_s = 1;
  cfg.cap_s = 8;
  cfg.max_retries = 100;
  RetryPolicy p(cfg, {}, {}, 12345);
  for (int retry = 1; retry <= 8; ++retry) {
    const double ceiling = std::min(8.0, std::ldexp(1.0, retry - 1));
    double lo = 1e9, hi = -1;
    for (int i = 0; i < 400; ++i) {
      const double d = p.backoff(retry);
      ASSERT_GE(d, 0.0);
      ASSERT_LE(d, ceiling);
      lo = std::min(lo, d);
      hi = std::max(hi, d);
    }
    // Full jitter spreads over the whole range, not just near the ceiling.
    EXPECT_LT(lo, 0.1 * ceiling) << retry;
    EXPECT_GT(hi, 0.9 * ceiling) << retry;
  }
}

TEST(RetryPolicy, SeededPoliciesAgree) {
  RetryConfig cfg;
  RetryPolicy a(cfg, {}, {}, 99), b(cfg, {}, {}, 99);
  for (int i = 1; i < 6; ++i) EXPECT_EQ(a.backoff(i), b.backoff(i));
}

TEST(RetryPolicy, WhatIsRetried) {
  RetryConfig cfg;
  cfg.max_retries = 2;
  cfg.base_s = 0.001;
  RetryPolicy p(cfg, {}, {}, 3);
  EXPECT_FALSE(p.next_delay(1, of(Kind::ok)));
  EXPECT_TRUE(p.next_delay(1, http(500)));
  EXPECT_TRUE(p.next_delay(1, http(529)));
  EXPECT_TRUE(p.next_delay(1, http(429)));
  EXPECT_TRUE(p.next_delay(1, of(Kind::connect_timeout)));
  EXPECT_TRUE(p.next_delay(1, of(Kind::read_timeout)));
  EXPECT_TRUE(p.next_delay(1, of(Kind::connection_error)));
  EXPECT_FALSE(p.next_delay(1, http(400)));
  EXPECT_FALSE(p.next_delay(1, http(401)));
  EXPECT_FALSE(p.next_delay(1, http(403)));
  EXPECT_FALSE(p.next_delay(1, http(404)));
}

TEST(RetryPolicy, StopsAfterMaxRetries) {
  RetryConfig cfg;
  cfg.max_retries = 2;
  RetryPolicy p(cfg, {}, {}, 3);
  EXPECT_TRUE(p.next_delay(1, http(500)));   // attempt 1 failed: retry 1
  EXPECT_TRUE(p.next_delay(2, http(500)));   // attempt 2 failed: retry 2
  EXPECT_FALSE(p.next_delay(3, http(500)));  // attempt 3 failed: no more
  RetryConfig none;
  none.max_retries = 0;
  RetryPolicy q(none, {}, {}, 3);
  EXPECT_FALSE(q.next_delay(1, http(429, "1")));
}

TEST(RetryPolicy, SleeperIsInjected) {
  std::vector<double> slept;
  RetryPolicy p(RetryConfig{}, [&](double s) { slept.push_back(s); });
  p.sleep(1.25);
  ASSERT_EQ(slept.size(), 1u);
  EXPECT_EQ(slept[0], 1.25);
}
