#include "backends/cpu/host_compare.h"

#include <tbb/blocked_range.h>
#include <tbb/parallel_reduce.h>

#include <algorithm>
#include <cmath>
#include <cstring>

namespace crucible {

float half_bits_to_float(uint16_t h) {
  uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
  uint32_t exp = (h >> 10) & 0x1Fu;
  uint32_t man = h & 0x3FFu;
  uint32_t bits;
  if (exp == 0x1F) {
    bits = sign | 0x7F800000u | (man << 13);  // Inf / NaN (payload kept)
  } else if (exp != 0) {
    bits = sign | ((exp + 112) << 23) | (man << 13);
  } else if (man == 0) {
    bits = sign;
  } else {
    // Subnormal: value = man * 2^-24, exact in float.
    float v = static_cast<float>(man) * 0x1p-24f;
    std::memcpy(&bits, &v, 4);
    bits |= sign;
  }
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

float bf16_bits_to_float(uint16_t b) {
  uint32_t bits = static_cast<uint32_t>(b) << 16;
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

namespace {

inline uint64_t mix64(uint64_t x) {
  x ^= x >> 30;
  x *= 0xBF58476D1CE4E5B9ull;
  x ^= x >> 27;
  x *= 0x94D049BB133111EBull;
  x ^= x >> 31;
  return x;
}

constexpr size_t kParallelBytes = size_t(1) << 22;  // below this, one thread is faster

}  // namespace

uint64_t host_checksum(const void* data, size_t bytes) {
  const auto* p = static_cast<const unsigned char*>(data);
  const size_t words = bytes / 8;
  auto word_sum = [p](size_t b, size_t e) {
    uint64_t s = 0;
    for (size_t i = b; i < e; ++i) {
      uint64_t w;
      std::memcpy(&w, p + i * 8, 8);
      s += mix64(w ^ mix64(i + 0x9E3779B97F4A7C15ull));
    }
    return s;
  };
  uint64_t sum;
  if (bytes < kParallelBytes) {
    sum = word_sum(0, words);
  } else {
    sum = tbb::parallel_reduce(
        tbb::blocked_range<size_t>(0, words, 1 << 16), uint64_t(0),
        [&](const tbb::blocked_range<size_t>& r, uint64_t acc) { return acc + word_sum(r.begin(), r.end()); },
        [](uint64_t a, uint64_t b) { return a + b; });
  }
  if (bytes % 8) {
    uint64_t tail = 0;
    std::memcpy(&tail, p + words * 8, bytes % 8);
    sum += mix64(tail ^ mix64(words + 0x9E3779B97F4A7C15ull) ^ 0xA5A5A5A5ull);
  }
  return sum ^ mix64(bytes);
}

namespace {

struct Partial {
  uint64_t mismatches = 0, nonfinite = 0, unwritten = 0;
  double max_abs = 0, max_rel = 0;
  int64_t first = -1;
  double first_expected = 0, first_actual = 0;
  bool has_finite = false;
  double out_min = 0, out_max = 0;

  void mismatch(int64_t i, double expected, double actual) {
    ++mismatches;
    if (first < 0 || i < first) first = i, first_expected = expected, first_actual = actual;
  }
  void seen(double o) {
    if (!has_finite) has_finite = true, out_min = out_max = o;
    else out_min = std::min(out_min, o), out_max = std::max(out_max, o);
  }
  void merge(const Partial& o) {
    mismatches += o.mismatches;
    nonfinite += o.nonfinite;
    unwritten += o.unwritten;
    max_abs = std::max(max_abs, o.max_abs);
    max_rel = std::max(max_rel, o.max_rel);
    if (o.first >= 0 && (first < 0 || o.first < first))
      first = o.first, first_expected = o.first_expected, first_actual = o.first_actual;
    if (o.has_finite) {
      if (!has_finite) has_finite = true, out_min = o.out_min, out_max = o.out_max;
      else out_min = std::min(out_min, o.out_min), out_max = std::max(out_max, o.out_max);
    }
  }
};

inline bool all_ff(const unsigned char* p, size_t n) {
  for (size_t k = 0; k < n; ++k)
    if (p[k] != 0xFF) return false;
  return true;
}

template <typename Load>
void compare_float_range(const unsigned char* out, const unsigned char* ref, size_t esize, size_t b, size_t e,
                         const Tolerance& tol, Load load, Partial& P) {
  for (size_t i = b; i < e; ++i) {
    const unsigned char* op = out + i * esize;
    const unsigned char* rp = ref + i * esize;
    if (all_ff(op, esize) && !all_ff(rp, esize)) ++P.unwritten;
    const double o = load(op), r = load(rp);
    const auto idx = static_cast<int64_t>(i);
    if (std::isnan(r)) {
      if (!std::isnan(o)) P.mismatch(idx, r, o);
    } else if (std::isinf(r)) {
      if (!(o == r)) P.mismatch(idx, r, o);
    } else if (!std::isfinite(o)) {
      ++P.nonfinite;
      P.mismatch(idx, r, o);
    } else {
      const double a = std::fabs(o - r);
      P.max_abs = std::max(P.max_abs, a);
      if (r != 0) P.max_rel = std::max(P.max_rel, a / std::fabs(r));
      if (a > tol.atol + tol.rtol * std::fabs(r)) P.mismatch(idx, r, o);
    }
    if (std::isfinite(o)) P.seen(o);
  }
}

template <typename Load>
void compare_int_range(const unsigned char* out, const unsigned char* ref, size_t esize, size_t b, size_t e,
                       const Tolerance& tol, Load load, Partial& P) {
  const bool exact = tol.atol == 0 && tol.rtol == 0;
  for (size_t i = b; i < e; ++i) {
    const unsigned char* op = out + i * esize;
    const unsigned char* rp = ref + i * esize;
    if (all_ff(op, esize) && !all_ff(rp, esize)) ++P.unwritten;
    const int64_t o = load(op), r = load(rp);
    const double od = static_cast<double>(o), rd = static_cast<double>(r);
    const double a = std::fabs(od - rd);
    P.max_abs = std::max(P.max_abs, a);
    if (r != 0) P.max_rel = std::max(P.max_rel, a / std::fabs(rd));
    const bool bad = exact ? o != r : a > tol.atol + tol.rtol * std::fabs(rd);
    if (bad) P.mismatch(static_cast<int64_t>(i), rd, od);
    P.seen(od);
  }
}

void compare_range(const unsigned char* out, const unsigned char* ref, Dtype dt, size_t b, size_t e,
                   const Tolerance& tol, Partial& P) {
  const size_t es = dtype_size(dt);
  switch (dt) {
    case Dtype::f32:
      return compare_float_range(out, ref, es, b, e, tol, [](const unsigned char* p) {
        float v; std::memcpy(&v, p, 4); return static_cast<double>(v); }, P);
    case Dtype::f64:
      return compare_float_range(out, ref, es, b, e, tol, [](const unsigned char* p) {
        double v; std::memcpy(&v, p, 8); return v; }, P);
    case Dtype::f16:
      return compare_float_range(out, ref, es, b, e, tol, [](const unsigned char* p) {
        uint16_t v; std::memcpy(&v, p, 2); return static_cast<double>(half_bits_to_float(v)); }, P);
    case Dtype::bf16:
      return compare_float_range(out, ref, es, b, e, tol, [](const unsigned char* p) {
        uint16_t v; std::memcpy(&v, p, 2); return static_cast<double>(bf16_bits_to_float(v)); }, P);
    case Dtype::i32:
      return compare_int_range(out, ref, es, b, e, tol, [](const unsigned char* p) {
        int32_t v; std::memcpy(&v, p, 4); return static_cast<int64_t>(v); }, P);
    case Dtype::i64:
      return compare_int_range(out, ref, es, b, e, tol, [](const unsigned char* p) {
        int64_t v; std::memcpy(&v, p, 8); return v; }, P);
    case Dtype::u8:
      return compare_int_range(out, ref, es, b, e, tol, [](const unsigned char* p) {
        return static_cast<int64_t>(*p); }, P);
    case Dtype::boolean:
      return compare_int_range(out, ref, es, b, e, tol, [](const unsigned char* p) {
        return static_cast<int64_t>(*p != 0); }, P);
  }
}

}  // namespace

CompareStats host_compare(const void* out, const void* ref, Dtype dtype, uint64_t count, const Tolerance& tol) {
  const auto* o = static_cast<const unsigned char*>(out);
  const auto* r = static_cast<const unsigned char*>(ref);
  Partial P;
  if (count * dtype_size(dtype) < kParallelBytes) {
    compare_range(o, r, dtype, 0, count, tol, P);
  } else {
    P = tbb::parallel_reduce(
        tbb::blocked_range<size_t>(0, count, 1 << 15), Partial{},
        [&](const tbb::blocked_range<size_t>& br, Partial acc) {
          compare_range(o, r, dtype, br.begin(), br.end(), tol, acc);
          return acc;
        },
        [](Partial a, const Partial& b) {
          a.merge(b);
          return a;
        });
  }
  CompareStats s;
  s.count = count;
  s.mismatches = P.mismatches;
  s.nonfinite = P.nonfinite;
  s.unwritten = P.unwritten;
  s.max_abs_err = P.max_abs;
  s.max_rel_err = P.max_rel;
  s.first_mismatch = P.first;
  s.first_expected = P.first_expected;
  s.first_actual = P.first_actual;
  s.out_min = P.out_min;
  s.out_max = P.out_max;
  return s;
}

}  // namespace crucible
