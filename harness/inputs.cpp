#include "harness/inputs.h"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <cmath>
#include <cstring>

#include "crucible/philox.h"
#include "harness/error.h"

namespace crucible {

static_assert(CRU_DTYPE_F32 == int(Dtype::f32) && CRU_DTYPE_F16 == int(Dtype::f16) &&
                  CRU_DTYPE_BF16 == int(Dtype::bf16) && CRU_DTYPE_F64 == int(Dtype::f64) &&
                  CRU_DTYPE_I32 == int(Dtype::i32) && CRU_DTYPE_I64 == int(Dtype::i64) &&
                  CRU_DTYPE_U8 == int(Dtype::u8) && CRU_DTYPE_BOOL == int(Dtype::boolean),
              "philox.h dtype ids must follow harness/dtype.h's enum order");

namespace {

constexpr const char* kDistNames[] = {"normal", "uniform", "randint", "bernoulli", "constant"};
constexpr int kDistCount = 5;

bool is_integer_below_2_53(double v) {
  return std::isfinite(v) && std::floor(v) == v && std::fabs(v) <= 9007199254740992.0;
}

}  // namespace

uint64_t splitmix64(uint64_t z) {
  z += 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

std::optional<int> parse_dist(const std::string& name) {
  for (int d = 0; d < kDistCount; ++d)
    if (name == kDistNames[d]) return d;
  return std::nullopt;
}

const char* dist_name(int dist) { return dist >= 0 && dist < kDistCount ? kDistNames[dist] : "?"; }

void check_fill_spec(const FillSpec& s) {
  auto fail = [&](const std::string& why) {
    throw InputError(std::string("input init '") + dist_name(s.dist) + "' (" + std::to_string(s.p0) +
                     ", " + std::to_string(s.p1) + "): " + why);
  };
  if (s.dist < 0 || s.dist >= kDistCount)
    throw InputError("input init: unknown distribution id " + std::to_string(s.dist) +
                     " (expected normal, uniform, randint, bernoulli or constant)");
  if (dtype_size(s.dtype) == 0) fail("unknown dtype");
  switch (s.dist) {
    case CRU_DIST_NORMAL:
      if (!std::isfinite(s.p0) || !std::isfinite(s.p1) || s.p1 < 0)
        fail("normal needs a finite mean and a finite std >= 0");
      break;
    case CRU_DIST_UNIFORM:
      if (!std::isfinite(s.p0) || !std::isfinite(s.p1) || s.p1 < s.p0)
        fail("uniform needs finite bounds with low <= high");
      break;
    case CRU_DIST_RANDINT:
      if (!is_integer_below_2_53(s.p0) || !is_integer_below_2_53(s.p1))
        fail("randint bounds must be integers of magnitude at most 2^53");
      if (s.p1 <= s.p0) fail("randint needs high > low (high is exclusive)");
      break;
    case CRU_DIST_BERNOULLI:
      if (!(s.p0 >= 0 && s.p0 <= 1)) fail("bernoulli probability must lie in [0, 1]");
      break;
    default:
      break;
  }
}

void generate_host_range(const FillSpec& s, uint64_t first, uint64_t count, void* dst) {
  check_fill_spec(s);
  const size_t size = dtype_size(s.dtype);
  auto* out = static_cast<unsigned char*>(dst);
  constexpr uint64_t kChunk = 1 << 14;
  const uint64_t chunks = (count + kChunk - 1) / kChunk;
  tbb::parallel_for(tbb::blocked_range<uint64_t>(0, chunks), [&](const tbb::blocked_range<uint64_t>& r) {
    for (uint64_t c = r.begin(); c != r.end(); ++c) {
      const uint64_t lo = c * kChunk, hi = std::min(count, lo + kChunk);
      for (uint64_t i = lo; i < hi; ++i)
        cru_gen_element(int(s.dtype), s.dist, s.p0, s.p1, s.seed, s.stream, first + i, out + i * size);
    }
  });
}

void generate_host(const FillSpec& s, void* dst) { generate_host_range(s, 0, s.count, dst); }

uint64_t mix_seed(uint64_t run_secret, uint64_t public_seed, uint64_t shape_index) {
  uint64_t h = splitmix64(run_secret);
  h = splitmix64(h ^ public_seed);
  return splitmix64(h ^ shape_index);
}

float half_to_float(uint16_t h) { return cru_u2f(cru_f16_bits_to_f32_bits(h)); }
float bf16_to_float(uint16_t h) { return cru_u2f(cru_bf16_bits_to_f32_bits(h)); }
uint16_t float_to_half(float f) { return cru_f32_to_f16_bits(f); }
uint16_t float_to_bf16(float f) { return cru_f32_to_bf16_bits(f); }

double element_as_double(Dtype d, const void* base, uint64_t i) {
  const auto* p = static_cast<const unsigned char*>(base) + i * dtype_size(d);
  switch (d) {
    case Dtype::f32: { float v; std::memcpy(&v, p, 4); return v; }
    case Dtype::f16: { uint16_t v; std::memcpy(&v, p, 2); return half_to_float(v); }
    case Dtype::bf16: { uint16_t v; std::memcpy(&v, p, 2); return bf16_to_float(v); }
    case Dtype::f64: { double v; std::memcpy(&v, p, 8); return v; }
    case Dtype::i32: { int32_t v; std::memcpy(&v, p, 4); return double(v); }
    case Dtype::i64: { int64_t v; std::memcpy(&v, p, 8); return double(v); }
    case Dtype::u8: return double(*p);
    case Dtype::boolean: return *p ? 1.0 : 0.0;
  }
  CRU_THROW("element_as_double: unknown dtype " + std::to_string(int(d)));
}

}  // namespace crucible
