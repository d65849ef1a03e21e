// Tests harness/statistics and harness/stopping_criterion on synthetic samples:
// medians, spread, the bootstrap interval of a ratio, tie decisions, and when the
// stdrel and fixed criteria stop.
#include <gtest/gtest.h>

#include <random>

#include "harness/error.h"
#include "harness/statistics.h"
#include "harness/stopping_criterion.h"

using namespace crucible;

TEST(Statistics, MedianOddEvenAndEmpty) {
  EXPECT_DOUBLE_EQ(median_of({3, 1, 2}), 2);
  EXPECT_DOUBLE_EQ(median_of({4, 1, 3, 2}), 2.5);
  EXPECT_DOUBLE_EQ(median_of({}), 0);
}

TEST(Statistics, SummaryOfKnownSamples) {
  auto s = summarize({1, 2, 3, 4, 5});
  EXPECT_EQ(s.samples, 5);
  EXPECT_DOUBLE_EQ(s.median, 3);
  EXPECT_DOUBLE_EQ(s.mean, 3);
  EXPECT_DOUBLE_EQ(s.min, 1);
  EXPECT_DOUBLE_EQ(s.max, 5);
  EXPECT_NEAR(s.stdev, 1.5811388, 1e-6);  // sample stdev
  EXPECT_NEAR(s.rel_stdev, 1.5811388 / 3, 1e-6);
}

TEST(Statistics, BootstrapIntervalCoversTrueRatioAndIsDeterministic) {
  std::mt19937_64 g(1);
  std::normal_distribution<double> ref(2.0, 0.02), cand(1.0, 0.01);
  std::vector<double> r, c;
  for (int i = 0; i < 50; ++i) r.push_back(ref(g)), c.push_back(cand(g));
  auto a = bootstrap_median_ratio(r, c, 2000, 7);
  auto b = bootstrap_median_ratio(r, c, 2000, 7);
  EXPECT_NEAR(a.ratio, 2.0, 0.02);
  EXPECT_LT(a.lo, a.ratio);
  EXPECT_GT(a.hi, a.ratio);
  EXPECT_LT(a.lo, 2.0);
  EXPECT_GT(a.hi, 2.0);
  EXPECT_EQ(a.lo, b.lo);
  EXPECT_EQ(a.hi, b.hi);
}

TEST(Statistics, ThresholdDecisionNearOneIsATie) {
  EXPECT_EQ(compare_to_threshold({1.01, 0.98, 1.04}, 1.0), 0);
  EXPECT_EQ(compare_to_threshold({1.5, 1.4, 1.6}, 1.0), 1);
  EXPECT_EQ(compare_to_threshold({0.8, 0.7, 0.9}, 1.0), -1);
}

TEST(StoppingCriterion, StdrelNeedsMinimumSamplesEvenWhenQuiet) {
  StoppingParams p;
  p.min_samples = 10;
  p.min_time_s = 0;
  auto c = make_criterion("stdrel", p);
  for (int i = 0; i < 9; ++i) {
    c->add(1.0);
    EXPECT_FALSE(c->done()) << i;
  }
  c->add(1.0);
  EXPECT_TRUE(c->done());
  EXPECT_FALSE(c->capped());
}

TEST(StoppingCriterion, StdrelWaitsForMinimumTime) {
  StoppingParams p;
  p.min_samples = 10;
  p.min_time_s = 0.1;  // 100 ms of measured time
  auto c = make_criterion("stdrel", p);
  for (int i = 0; i < 19; ++i) c->add(5.0);  // 95 ms
  EXPECT_FALSE(c->done());
  c->add(5.0);
  EXPECT_TRUE(c->done());
}

TEST(StoppingCriterion, StdrelKeepsGoingWhileNoisyThenStopsAtPlateauOrCap) {
  StoppingParams p;
  p.min_samples = 10;
  p.min_time_s = 0;
  p.max_time_s = 1.0;
  std::mt19937_64 g(3);
  std::normal_distribution<double> noisy(1.0, 0.1);  // 10% noise never reaches 0.5%
  auto c = make_criterion("stdrel", p);
  int n = 0;
  while (!c->done()) c->add(std::max(0.01, noisy(g))), ++n;
  EXPECT_GT(n, 10);                     // did not stop at the minimum
  EXPECT_LE(n, 1100);                   // 1 s cap at ~1 ms per sample
  EXPECT_GT(c->samples().size(), 10u);
}

TEST(StoppingCriterion, StdrelCapStopsAndReportsNoise) {
  StoppingParams p;
  p.min_samples = 10;
  p.min_time_s = 0;
  p.max_time_s = 0.05;  // 50 ms cap
  auto c = make_criterion("stdrel", p);
  // Alternating 1 ms / 10 ms: relative stdev about 0.8, growing sample count.
  for (int i = 0; !c->done(); ++i) c->add(i % 2 ? 1.0 : 10.0);
  EXPECT_LE(c->samples().size(), 11u);
  EXPECT_TRUE(c->capped());
}

TEST(StoppingCriterion, FixedTakesExactlyMinSamples) {
  StoppingParams p;
  p.min_samples = 100;
  auto c = make_criterion("fixed", p);
  int n = 0;
  while (!c->done()) c->add(1.0 + (n++ % 7)), (void)0;
  EXPECT_EQ(n, 100);
}

TEST(StoppingCriterion, UnknownNameListsKnownOnes) {
  try {
    make_criterion("nope", {});
    FAIL();
  } catch (const Error& e) {
    std::string m = e.what();
    EXPECT_NE(m.find("stdrel"), std::string::npos);
    EXPECT_NE(m.find("fixed"), std::string::npos);
  }
}

TEST(StoppingCriterion, RobustNoiseIgnoresRareOutliers) {
  std::vector<double> v(100, 1.0);
  for (int i = 0; i < 100; ++i) v[i] = 1.0 + 0.001 * (i % 5);  // 0.1%-level jitter
  v[7] = 1.5;                                                   // two outliers
  v[50] = 2.0;
  EXPECT_LT(robust_noise(v), 0.005);
  EXPECT_GT(summarize(v).rel_stdev, 0.05);
  StoppingParams p;
  p.min_samples = 10;
  p.min_time_s = 0;
  auto c = make_criterion("stdrel", p);
  for (double x : v) {
    if (c->done()) break;
    c->add(x);
  }
  EXPECT_TRUE(c->done());
  EXPECT_LT(c->samples().size(), 20u);  // stopped near the minimum despite the outliers
}
