// Tests the input generator: Philox-4x32-10 against Random123's published
// known-answer vectors, the documented (seed, stream, index) mapping, determinism,
// the distributions' statistics, dtype conversions (RNE edge cases for f16/bf16/f32),
// the header's own log/sqrt/div/sin/cos against long-double references, and the
// host API in harness/inputs.h. A pinned digest guards the mapping itself: host and
// device must agree, and so must every version of Crucible.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>
#include <set>
#include <vector>

#include "crucible/philox.h"
#include "harness/error.h"
#include "harness/inputs.h"

using namespace crucible;

namespace {

uint64_t bits_of(double x) { uint64_t b; std::memcpy(&b, &x, 8); return b; }
double double_of(uint64_t b) { double x; std::memcpy(&x, &b, 8); return x; }
uint32_t bits_of(float x) { uint32_t b; std::memcpy(&b, &x, 4); return b; }
float float_of(uint32_t b) { float x; std::memcpy(&x, &b, 4); return x; }

// Distance in ulps between two finite doubles of the same sign region.
double ulp_diff(double got, long double want) {
  long double ulp = std::ldexp(1.0L, std::ilogb(static_cast<double>(want)) - 52);
  return static_cast<double>(std::fabs(static_cast<long double>(got) - want) / ulp);
}

FillSpec spec(Dtype dt, int dist, double p0, double p1, uint64_t n, uint64_t seed = 42, uint32_t stream = 0) {
  FillSpec s;
  s.dtype = dt;
  s.dist = dist;
  s.p0 = p0;
  s.p1 = p1;
  s.count = n;
  s.seed = seed;
  s.stream = stream;
  return s;
}

template <typename T>
std::vector<T> gen(const FillSpec& s) {
  std::vector<T> v(s.count);
  generate_host(s, v.data());
  return v;
}

void moments(const std::vector<double>& v, double& mean, double& sd) {
  long double s = 0, s2 = 0;
  for (double x : v) { s += x; s2 += (long double)x * x; }
  mean = double(s / v.size());
  sd = std::sqrt(double(s2 / v.size() - (long double)mean * mean));
}

// FNV-1a over bytes: a digest of generated data.
uint64_t fnv(const void* p, size_t n, uint64_t h = 0xcbf29ce484222325ull) {
  const auto* b = static_cast<const unsigned char*>(p);
  for (size_t i = 0; i < n; ++i) h = (h ^ b[i]) * 0x100000001b3ull;
  return h;
}

}  // namespace

// ---- Philox itself

TEST(Philox, RandomKnownAnswerVectors) {
  // Random123 tests/kat_vectors, "philox4x32 10" lines: ctr[4] key[2] -> out[4].
  struct Kat { cru_u32 ctr[4], key[2], out[4]; };
  const Kat kats[] = {
      {{0, 0, 0, 0}, {0, 0}, {0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8}},
      {{0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff}, {0xffffffff, 0xffffffff},
       {0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd}},
      {{0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344}, {0xa4093822, 0x299f31d0},
       {0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1}},
  };
  for (const Kat& k : kats) {
    cru_u32 out[4];
    cru_philox4x32_10(k.ctr, k.key, out);
    for (int i = 0; i < 4; ++i) EXPECT_EQ(out[i], k.out[i]) << "word " << i;
  }
}

TEST(Philox, DocumentedCounterAndKeyLayout) {
  const cru_u64 seed = 0x0123456789ABCDEFull, index = 0xFEDCBA9876543210ull;
  const cru_u32 stream = 7;
  cru_u32 key[2] = {0x89ABCDEFu, 0x01234567u};
  cru_u32 ctr[4] = {0x76543210u, 0xFEDCBA98u, 7u, 0x43525543u};
  cru_u32 want[4], got[4];
  cru_philox4x32_10(ctr, key, want);
  cru_philox_words(seed, stream, index, got);
  for (int i = 0; i < 4; ++i) EXPECT_EQ(got[i], want[i]);
}

TEST(Philox, UniformFromWordsIsExactAndOpen) {
  EXPECT_EQ(cru_u01(0, 0), std::ldexp(1.0, -53));
  EXPECT_EQ(cru_u01(0xFFFFFFFFu, 0xFFFFFFFFu), 1.0 - std::ldexp(1.0, -53));
  EXPECT_EQ(cru_u01(0x80000000u, 0), 0.5 + std::ldexp(1.0, -53));
  // The low 12 bits of the second word are not used.
  EXPECT_EQ(cru_u01(5, 0xABCDE000u), cru_u01(5, 0xABCDEFFFu));
  EXPECT_NE(cru_u01(5, 0xABCDE000u), cru_u01(5, 0xABCDF000u));
}

// ---- the header's own arithmetic

TEST(OwnMath, LogWithinTwoUlpOfLongDouble) {
  std::mt19937_64 rng(1);
  double worst = 0;
  for (int i = 0; i < 400000; ++i) {
    double x;
    if (i % 4 == 0) x = cru_u01(uint32_t(rng()), uint32_t(rng()));        // what Box-Muller feeds it
    else if (i % 4 == 1) x = 1.0 + std::ldexp(double(int64_t(rng() % 2000001) - 1000000), -40);  // near 1
    else x = double_of((rng() % (0x7FEull << 52)) + (1ull << 52));       // any positive normal
    double got = cru_log(x);
    long double want = std::log(static_cast<long double>(x));
    if (want == 0) { EXPECT_EQ(got, 0.0); continue; }
    worst = std::max(worst, ulp_diff(got, want));
  }
  EXPECT_LT(worst, 2.0);
  EXPECT_EQ(cru_log(1.0), 0.0);
  EXPECT_TRUE(std::isinf(cru_log(0.0)) && cru_log(0.0) < 0);
  EXPECT_TRUE(std::isnan(cru_log(-1.0)));
  EXPECT_NEAR(cru_log(std::ldexp(1.0, -1074)), -1074 * std::log(2.0), 1e-12);  // subnormal
}

TEST(OwnMath, SqrtAndDivWithinOneUlp) {
  std::mt19937_64 rng(2);
  for (int i = 0; i < 300000; ++i) {
    double x = double_of((rng() % (0x7FDull << 52)) + (1ull << 52));
    double s = cru_sqrt(x);
    EXPECT_LE(std::fabs(s - std::sqrt(x)), std::nextafter(std::sqrt(x), INFINITY) - std::sqrt(x)) << x;
    double a = cru_u01(uint32_t(rng()), uint32_t(rng())) * 4 - 2, b = 1.5 + cru_u01(uint32_t(rng()), 0);
    double q = cru_div(a, b);
    EXPECT_LE(std::fabs(q - a / b), std::fabs(std::nextafter(a / b, INFINITY) - a / b)) << a << "/" << b;
  }
  EXPECT_EQ(cru_sqrt(4.0), 2.0);
  EXPECT_EQ(cru_sqrt(0.0), 0.0);
  EXPECT_TRUE(std::isnan(cru_sqrt(-1.0)));
  EXPECT_EQ(cru_sqrt(std::ldexp(1.0, -1074)), std::ldexp(1.0, -537));  // subnormal input
}

TEST(OwnMath, SinCos2PiWithinFourUlpOfLongDouble) {
  // Reference: the exact reduction in turns (t = 4u, q = nearest, f = t - q, all
  // exact), then long-double sin/cos of f*pi/2; a direct cosl(2*pi*u) would lose
  // relative accuracy near the zeros.
  const long double half_pi = 1.570796326794896619231321691639751442L;
  std::mt19937_64 rng(3);
  double worst = 0;
  for (int i = 0; i < 400000; ++i) {
    double u = cru_u01(uint32_t(rng()), uint32_t(rng()));
    if (i % 8 == 0) u = std::ldexp(double(rng() % 4096), -12);  // exact multiples: symmetry points
    if (i % 8 == 1) u = 0.25 * double(rng() % 5) + std::ldexp(double(int(rng() % 2001) - 1000), -60);  // near zeros
    double s, c;
    cru_sincos2pi(u, &s, &c);
    long double t = 4.0L * u, q = std::nearbyint(t), f = t - q;
    long double sf = std::sin(f * half_pi), cf = std::cos(f * half_pi), ws, wc;
    switch (int(int64_t(q) & 3)) {
      case 0: ws = sf; wc = cf; break;
      case 1: ws = cf; wc = -sf; break;
      case 2: ws = -sf; wc = -cf; break;
      default: ws = -cf; wc = sf; break;
    }
    if (wc == 0) EXPECT_EQ(c, 0.0) << u; else worst = std::max(worst, ulp_diff(c, wc));
    if (ws == 0) EXPECT_EQ(s, 0.0) << u; else worst = std::max(worst, ulp_diff(s, ws));
  }
  EXPECT_LT(worst, 4.0);
  EXPECT_EQ(cru_cos2pi(0.0), 1.0);
  EXPECT_EQ(cru_cos2pi(0.5), -1.0);
  EXPECT_EQ(cru_cos2pi(-0.5), -1.0);
  EXPECT_EQ(cru_cos2pi(3.0), 1.0);  // arguments beyond one turn reduce exactly
  EXPECT_EQ(cru_cos2pi(0.25), 0.0);
  EXPECT_EQ(cru_cos2pi(std::ldexp(1.0, 60) + std::ldexp(1.0, 8)), 1.0);  // huge: an integer
  EXPECT_EQ(cru_cos2pi(std::ldexp(1.0, 50) + 0.75), 0.0);  // quarter turns still exact
  EXPECT_TRUE(std::isnan(cru_cos2pi(INFINITY)) && std::isnan(cru_cos2pi(NAN)));
}

// ---- conversions

TEST(Convert, F16RoundToNearestEvenEdgeCases) {
  EXPECT_EQ(cru_f64_to_f16_bits(1.0), 0x3C00);
  EXPECT_EQ(cru_f64_to_f16_bits(-2.0), 0xC000);
  EXPECT_EQ(cru_f64_to_f16_bits(65504.0), 0x7BFF);                 // largest finite
  EXPECT_EQ(cru_f64_to_f16_bits(65519.99), 0x7BFF);                // below the tie
  EXPECT_EQ(cru_f64_to_f16_bits(65520.0), 0x7C00);                 // tie rounds to even: inf
  EXPECT_EQ(cru_f64_to_f16_bits(1e10), 0x7C00);
  EXPECT_EQ(cru_f64_to_f16_bits(-1e10), 0xFC00);
  EXPECT_EQ(cru_f64_to_f16_bits(1.0 + std::ldexp(1.0, -11)), 0x3C00);      // tie, even below
  EXPECT_EQ(cru_f64_to_f16_bits(1.0 + 3 * std::ldexp(1.0, -11)), 0x3C02);  // tie, even above
  EXPECT_EQ(cru_f64_to_f16_bits(1.0 + std::ldexp(1.0, -11) + 1e-12), 0x3C01);
  EXPECT_EQ(cru_f64_to_f16_bits(std::ldexp(1.0, -24)), 0x0001);    // least subnormal
  EXPECT_EQ(cru_f64_to_f16_bits(std::ldexp(1.0, -25)), 0x0000);    // tie with 0: even
  EXPECT_EQ(cru_f64_to_f16_bits(std::ldexp(1.5, -25)), 0x0001);
  EXPECT_EQ(cru_f64_to_f16_bits(std::ldexp(3.0, -25)), 0x0002);    // tie 1|2 units: even
  EXPECT_EQ(cru_f64_to_f16_bits(std::ldexp(1.0, -14) - std::ldexp(1.0, -26)), 0x0400);  // rounds up to min normal
  EXPECT_EQ(cru_f64_to_f16_bits(-0.0), 0x8000);
  EXPECT_EQ(cru_f64_to_f16_bits(std::ldexp(1.0, -1074)), 0x0000);  // f64 subnormal
  EXPECT_EQ(cru_f64_to_f16_bits(INFINITY), 0x7C00);
  EXPECT_EQ(cru_f64_to_f16_bits(-INFINITY), 0xFC00);
  EXPECT_EQ(cru_f64_to_f16_bits(NAN), 0x7E00);
  EXPECT_EQ(cru_f64_to_f16_bits(-NAN) & 0x7FFF, 0x7E00);
}

TEST(Convert, Bf16RoundToNearestEvenEdgeCases) {
  EXPECT_EQ(float_to_bf16(1.0f), 0x3F80);
  EXPECT_EQ(float_to_bf16(1.0f + std::ldexp(1.0f, -8)), 0x3F80);       // tie, even below
  EXPECT_EQ(float_to_bf16(1.0f + 3 * std::ldexp(1.0f, -8)), 0x3F82);   // tie, even above
  EXPECT_EQ(float_to_bf16(float_of(0x7F7FFFFF)), 0x7F80);              // FLT_MAX rounds to inf
  EXPECT_EQ(float_to_bf16(float_of(0x7F7F7FFF)), 0x7F7F);              // below the tie
  EXPECT_EQ(float_to_bf16(float_of(0x00018000)), 0x0002);              // subnormal tie 1|2: even
  EXPECT_EQ(float_to_bf16(float_of(0x00008000)), 0x0000);              // subnormal tie 0|1: even
  EXPECT_EQ(float_to_bf16(float_of(0x80000001)), 0x8000);
  EXPECT_EQ(float_to_bf16(INFINITY), 0x7F80);
  EXPECT_EQ(float_to_bf16(NAN) & 0x7FC0, 0x7FC0);
  EXPECT_EQ(bf16_to_float(0x3F80), 1.0f);
  EXPECT_EQ(half_to_float(0x0001), std::ldexp(1.0f, -24));
  EXPECT_EQ(half_to_float(0x7BFF), 65504.0f);
  EXPECT_TRUE(std::isinf(half_to_float(0xFC00)) && half_to_float(0xFC00) < 0);
  EXPECT_TRUE(std::isnan(half_to_float(0x7E01)));
}

TEST(Convert, Bf16MatchesIntegerReferenceOverFloatBits) {
  // The classic RNE on bits: (u + 0x7FFF + lsb) >> 16, valid for all non-NaN floats.
  for (uint64_t u = 0; u <= 0xFFFFFFFFull; u += 4093) {
    uint32_t b = uint32_t(u);
    if ((b & 0x7FFFFFFF) > 0x7F800000) continue;
    uint16_t want = uint16_t((b + 0x7FFFu + ((b >> 16) & 1u)) >> 16);
    ASSERT_EQ(float_to_bf16(float_of(b)), want) << std::hex << b;
  }
}

#if defined(__FLT16_MANT_DIG__)
TEST(Convert, F16MatchesCompilerFloat16) {
  // GCC's _Float16 conversions (libgcc, exactly rounded) as the reference.
  for (uint32_t h = 0; h < 0x10000; ++h) {
    _Float16 x;
    uint16_t hb = uint16_t(h);
    std::memcpy(&x, &hb, 2);
    float f = float(x);
    if (std::isnan(f)) { EXPECT_TRUE(std::isnan(half_to_float(hb))); continue; }
    ASSERT_EQ(bits_of(half_to_float(hb)), bits_of(f)) << std::hex << h;
  }
  for (uint64_t u = 0; u <= 0xFFFFFFFFull; u += 4099) {
    float f = float_of(uint32_t(u));
    if (std::isnan(f)) continue;
    _Float16 x = (_Float16)f;
    uint16_t want;
    std::memcpy(&want, &x, 2);
    ASSERT_EQ(float_to_half(f), want) << std::hex << u;
  }
  std::mt19937_64 rng(4);
  for (int i = 0; i < 200000; ++i) {  // direct double -> half, no double rounding
    double d = std::ldexp(cru_u01(uint32_t(rng()), uint32_t(rng())), int(rng() % 50) - 30);
    _Float16 x = (_Float16)d;
    uint16_t want;
    std::memcpy(&want, &x, 2);
    ASSERT_EQ(cru_f64_to_f16_bits(d), want) << d;
  }
}
#endif

TEST(Convert, F32MatchesHardwareCast) {
  std::mt19937_64 rng(5);
  for (int i = 0; i < 500000; ++i) {
    double d = double_of(rng());
    if (std::isnan(d)) continue;
    ASSERT_EQ(cru_f64_to_f32_bits(d), bits_of(float(d))) << d;
  }
  // Ties and the subnormal range of f32.
  EXPECT_EQ(cru_f64_to_f32_bits(1.0 + std::ldexp(1.0, -24)), bits_of(1.0f));
  EXPECT_EQ(cru_f64_to_f32_bits(std::ldexp(1.0, -150)), 0u);
  EXPECT_EQ(cru_f64_to_f32_bits(std::ldexp(1.5, -150)), 1u);
  EXPECT_EQ(cru_f64_to_f32_bits(std::ldexp(1.0, -149)), 1u);
  EXPECT_EQ(cru_f64_to_f32_bits(3.5e38), bits_of(INFINITY));
  for (uint64_t u = 1; u < 0x00800000; u += 997)  // exact float -> double on bits, subnormals included
    ASSERT_EQ(cru_f32_bits_to_f64_bits(uint32_t(u)), bits_of(double(float_of(uint32_t(u)))));
}

// ---- distributions and the host API

TEST(Inputs, DeterministicAndRangeConsistent) {
  FillSpec s = spec(Dtype::f32, CRU_DIST_NORMAL, 0, 1, 100003);
  auto a = gen<float>(s), b = gen<float>(s);
  EXPECT_EQ(0, std::memcmp(a.data(), b.data(), a.size() * 4));
  std::vector<float> part(1000);
  generate_host_range(s, 50000, part.size(), part.data());
  EXPECT_EQ(0, std::memcmp(part.data(), a.data() + 50000, part.size() * 4));
  // Element values match the single-element entry point.
  float one;
  cru_gen_element(CRU_DTYPE_F32, CRU_DIST_NORMAL, 0, 1, 42, 0, 777, &one);
  EXPECT_EQ(bits_of(one), bits_of(a[777]));
}

TEST(Inputs, SeedsAndStreamsGiveIndependentSequences) {
  const uint64_t n = 200000;
  auto base = gen<double>(spec(Dtype::f64, CRU_DIST_NORMAL, 0, 1, n, 1, 0));
  for (auto other : {spec(Dtype::f64, CRU_DIST_NORMAL, 0, 1, n, 1, 1), spec(Dtype::f64, CRU_DIST_NORMAL, 0, 1, n, 2, 0),
                     spec(Dtype::f64, CRU_DIST_NORMAL, 0, 1, n, 1ull << 32, 0)}) {
    auto v = gen<double>(other);
    long double dot = 0;
    uint64_t equal = 0;
    for (uint64_t i = 0; i < n; ++i) { dot += base[i] * v[i]; equal += base[i] == v[i]; }
    EXPECT_EQ(equal, 0u);
    EXPECT_LT(std::fabs(double(dot / n)), 5.0 / std::sqrt(double(n)));  // correlation ~ N(0, 1/n)
  }
}

TEST(Inputs, NormalMomentsAndTails) {
  const uint64_t n = 1 << 20;
  auto v = gen<double>(spec(Dtype::f64, CRU_DIST_NORMAL, 3.0, 2.0, n, 9));
  double mean, sd;
  moments(v, mean, sd);
  EXPECT_NEAR(mean, 3.0, 5 * 2.0 / std::sqrt(double(n)));
  EXPECT_NEAR(sd, 2.0, 5 * 2.0 / std::sqrt(2.0 * n));
  uint64_t within1 = 0, beyond3 = 0;
  for (double x : v) { within1 += std::fabs(x - 3) < 2; beyond3 += std::fabs(x - 3) > 6; }
  EXPECT_NEAR(double(within1) / n, 0.682689, 5 * std::sqrt(0.68 * 0.32 / n));
  EXPECT_NEAR(double(beyond3) / n, 0.0026998, 5 * std::sqrt(0.0027 / n));
}

TEST(Inputs, UniformMomentsAndBounds) {
  const uint64_t n = 1 << 20;
  auto v = gen<double>(spec(Dtype::f64, CRU_DIST_UNIFORM, -1.0, 3.0, n, 10));
  double mean, sd;
  moments(v, mean, sd);
  EXPECT_NEAR(mean, 1.0, 5 * (4 / std::sqrt(12.0)) / std::sqrt(double(n)));
  EXPECT_NEAR(sd, 4 / std::sqrt(12.0), 0.005);
  double lo = *std::min_element(v.begin(), v.end()), hi = *std::max_element(v.begin(), v.end());
  EXPECT_GE(lo, -1.0);
  EXPECT_LT(hi, 3.0);
  EXPECT_LT(lo, -1.0 + 1e-4);
  EXPECT_GT(hi, 3.0 - 1e-4);
}

TEST(Inputs, RandintBoundsAndUniformity) {
  const uint64_t n = 700000;
  auto v = gen<int32_t>(spec(Dtype::i32, CRU_DIST_RANDINT, -3, 4, n, 11));  // 7 values
  std::vector<uint64_t> hist(7);
  for (int32_t x : v) {
    ASSERT_GE(x, -3);
    ASSERT_LT(x, 4);
    ++hist[size_t(x + 3)];
  }
  double chi2 = 0, e = n / 7.0;
  for (auto h : hist) chi2 += (h - e) * (h - e) / e;
  EXPECT_LT(chi2, 30.0);  // 6 dof: p ~ 4e-5
  auto big = gen<int64_t>(spec(Dtype::i64, CRU_DIST_RANDINT, 0, 9007199254740992.0, 1000, 12));
  std::set<int64_t> distinct(big.begin(), big.end());
  EXPECT_EQ(distinct.size(), 1000u);
  for (auto x : big) EXPECT_TRUE(x >= 0 && x < (int64_t(1) << 53));
  // Same integers whatever the dtype they are stored in.
  auto f = gen<float>(spec(Dtype::f32, CRU_DIST_RANDINT, -3, 4, 1000, 11));
  auto u = gen<uint8_t>(spec(Dtype::u8, CRU_DIST_RANDINT, 0, 256, 100000, 11));
  for (size_t i = 0; i < f.size(); ++i) EXPECT_EQ(f[i], float(v[i]));
  std::set<int> seen(u.begin(), u.end());
  EXPECT_EQ(seen.size(), 256u);
}

TEST(Inputs, BernoulliConstantAndIntegerStores) {
  const uint64_t n = 1 << 20;
  auto b = gen<uint8_t>(spec(Dtype::boolean, CRU_DIST_BERNOULLI, 0.25, 0, n, 13));
  uint64_t ones = 0;
  for (auto x : b) { ASSERT_LE(x, 1); ones += x; }
  EXPECT_NEAR(double(ones) / n, 0.25, 5 * std::sqrt(0.25 * 0.75 / n));
  auto z = gen<uint8_t>(spec(Dtype::boolean, CRU_DIST_BERNOULLI, 0.0, 0, 1000, 13));
  auto o = gen<uint8_t>(spec(Dtype::boolean, CRU_DIST_BERNOULLI, 1.0, 0, 1000, 13));
  for (size_t i = 0; i < 1000; ++i) { EXPECT_EQ(z[i], 0); EXPECT_EQ(o[i], 1); }
  auto c = gen<uint16_t>(spec(Dtype::bf16, CRU_DIST_CONSTANT, 1.5, 0, 10));
  for (auto x : c) EXPECT_EQ(x, 0x3FC0);
  // Continuous values into integers: floor, saturating.
  auto sat = gen<uint8_t>(spec(Dtype::u8, CRU_DIST_CONSTANT, 300.7, 0, 3));
  EXPECT_EQ(sat[0], 255);
  auto neg = gen<int32_t>(spec(Dtype::i32, CRU_DIST_CONSTANT, -2.5, 0, 3));
  EXPECT_EQ(neg[0], -3);
  auto big = gen<int32_t>(spec(Dtype::i32, CRU_DIST_CONSTANT, 1e12, 0, 1));
  EXPECT_EQ(big[0], INT32_MAX);
  auto u = gen<int64_t>(spec(Dtype::i64, CRU_DIST_UNIFORM, -5, 5, 100000, 14));
  std::set<int64_t> vals(u.begin(), u.end());
  EXPECT_EQ(vals, (std::set<int64_t>{-5, -4, -3, -2, -1, 0, 1, 2, 3, 4}));
}

TEST(Inputs, HalfPrecisionStoresAreRoundedDoubles) {
  FillSpec s = spec(Dtype::f16, CRU_DIST_NORMAL, 0, 1, 10000, 15);
  auto h = gen<uint16_t>(s);
  s.dtype = Dtype::f64;
  auto d = gen<double>(s);
  s.dtype = Dtype::bf16;
  auto b = gen<uint16_t>(s);
  for (size_t i = 0; i < h.size(); ++i) {
    ASSERT_EQ(h[i], cru_f64_to_f16_bits(d[i]));
    ASSERT_EQ(b[i], cru_f64_to_bf16_bits(d[i]));
    EXPECT_NEAR(half_to_float(h[i]), d[i], std::fabs(d[i]) * std::ldexp(1.0, -11) + 1e-7);
  }
}

TEST(Inputs, PinnedDigestOfTheMapping) {
  // Changing these values changes every task's inputs: a new mapping needs a new
  // version in docs/inputs.md and the device kernels changed alike.
  struct Case { Dtype dt; int dist; double p0, p1; uint64_t digest; };
  const Case cases[] = {
      {Dtype::f32, CRU_DIST_NORMAL, 0, 1, 0x46b19832de9b5aacull},
      {Dtype::f64, CRU_DIST_NORMAL, 0.5, 3, 0xc24810322661d49dull},
      {Dtype::f16, CRU_DIST_UNIFORM, -1, 1, 0x7979c621c56abe63ull},
      {Dtype::bf16, CRU_DIST_NORMAL, 0, 1, 0x71fcbc54884fa172ull},
      {Dtype::i32, CRU_DIST_RANDINT, -100, 100, 0x9a23f489231a9bdeull},
      {Dtype::i64, CRU_DIST_RANDINT, 0, 1e15, 0xf482b35b868ccf10ull},
      {Dtype::u8, CRU_DIST_RANDINT, 0, 256, 0x69307aba70211828ull},
      {Dtype::boolean, CRU_DIST_BERNOULLI, 0.3, 0, 0xba23ae5deeda78dull},
  };
  for (const Case& c : cases) {
    FillSpec s = spec(c.dt, c.dist, c.p0, c.p1, 4096, 0x5EED5EED12345678ull, 3);
    std::vector<unsigned char> buf(s.count * dtype_size(c.dt));
    generate_host(s, buf.data());
    EXPECT_EQ(fnv(buf.data(), buf.size()), c.digest) << dtype_name(c.dt) << " " << dist_name(c.dist);
  }
}

TEST(Inputs, CheckFillSpecRejectsBadSpecs) {
  EXPECT_NO_THROW(check_fill_spec(spec(Dtype::f32, CRU_DIST_NORMAL, 0, 1, 1)));
  EXPECT_THROW(check_fill_spec(spec(Dtype::f32, 9, 0, 1, 1)), InputError);
  EXPECT_THROW(check_fill_spec(spec(Dtype::f32, CRU_DIST_NORMAL, 0, -1, 1)), InputError);
  EXPECT_THROW(check_fill_spec(spec(Dtype::f32, CRU_DIST_UNIFORM, 2, 1, 1)), InputError);
  EXPECT_THROW(check_fill_spec(spec(Dtype::i32, CRU_DIST_RANDINT, 0.5, 4, 1)), InputError);
  EXPECT_THROW(check_fill_spec(spec(Dtype::i32, CRU_DIST_RANDINT, 4, 4, 1)), InputError);
  EXPECT_THROW(check_fill_spec(spec(Dtype::boolean, CRU_DIST_BERNOULLI, 1.5, 0, 1)), InputError);
  std::vector<float> dst(4);
  EXPECT_THROW(generate_host(spec(Dtype::f32, CRU_DIST_NORMAL, NAN, 1, 4), dst.data()), InputError);
  EXPECT_EQ(parse_dist("randint"), CRU_DIST_RANDINT);
  EXPECT_EQ(parse_dist("gamma"), std::nullopt);
  EXPECT_STREQ(dist_name(CRU_DIST_CONSTANT), "constant");
}

TEST(Inputs, MixSeedAvalanches) {
  std::set<uint64_t> seen;
  for (uint64_t a = 0; a < 8; ++a)
    for (uint64_t b = 0; b < 8; ++b)
      for (uint64_t c = 0; c < 8; ++c) seen.insert(mix_seed(a, b, c));
  EXPECT_EQ(seen.size(), 512u);
  EXPECT_NE(mix_seed(1, 2, 3), mix_seed(1, 3, 2));
  // Flipping any one input bit changes about half the output bits.
  double total = 0;
  int trials = 0;
  for (int which = 0; which < 3; ++which)
    for (int bit = 0; bit < 64; ++bit) {
      uint64_t in[3] = {0x1234, 0x5678, 2};
      uint64_t h0 = mix_seed(in[0], in[1], in[2]);
      in[which] ^= 1ull << bit;
      total += __builtin_popcountll(h0 ^ mix_seed(in[0], in[1], in[2]));
      ++trials;
    }
  EXPECT_NEAR(total / trials, 32.0, 2.0);
}

TEST(Inputs, ElementAsDouble) {
  float f[2] = {1.5f, -2.0f};
  EXPECT_EQ(element_as_double(Dtype::f32, f, 1), -2.0);
  uint16_t h[2] = {0x3C00, 0xC000};
  EXPECT_EQ(element_as_double(Dtype::f16, h, 1), -2.0);
  uint16_t b[1] = {0x3FC0};
  EXPECT_EQ(element_as_double(Dtype::bf16, b, 0), 1.5);
  int64_t l[2] = {0, -(int64_t(1) << 40)};
  EXPECT_EQ(element_as_double(Dtype::i64, l, 1), -1099511627776.0);
  int32_t i[1] = {-7};
  EXPECT_EQ(element_as_double(Dtype::i32, i, 0), -7.0);
  uint8_t u[2] = {200, 3};
  EXPECT_EQ(element_as_double(Dtype::u8, u, 0), 200.0);
  EXPECT_EQ(element_as_double(Dtype::boolean, u, 1), 1.0);
  double d[1] = {0.1};
  EXPECT_EQ(element_as_double(Dtype::f64, d, 0), 0.1);
}
