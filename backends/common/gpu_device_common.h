// Host-side helpers both GPU devices (backends/cuda, backends/hip) share: the layout of
// the compare kernel's summary (backends/common/kernels/verify.cuh), exact widening of one
// output element for mismatch reports, the checksum's final mix, and the wording of launch
// errors. No CUDA or HIP API here: each device keeps only what differs between the two.
#pragma once
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include <crucible/philox.h>

#include "harness/dtype.h"
#include "harness/launch_plan.h"

namespace crucible::gpu_common {

// The compare kernel's summary, as verify.cuh lays it out.
struct CompareSummary {
  uint64_t mismatches, nonfinite, unwritten, max_abs_bits, max_rel_bits, first_mismatch, out_min_key, out_max_key,
      finite_outputs, reserved;
};

inline double bits_to_double(uint64_t b) {
  double d;
  std::memcpy(&d, &b, 8);
  return d;
}

inline double from_order_key(uint64_t k) { return bits_to_double((k >> 63) ? (k & 0x7FFFFFFFFFFFFFFFull) : ~k); }

// One element of `dtype` at p, widened exactly (the host side of cru_load_element).
inline double element_to_double(const unsigned char* p, Dtype t) {
  switch (t) {
    case Dtype::f32: {
      uint32_t b;
      std::memcpy(&b, p, 4);
      return cru_u2d(cru_f32_bits_to_f64_bits(b));
    }
    case Dtype::f16: {
      unsigned short b;
      std::memcpy(&b, p, 2);
      return cru_u2d(cru_f32_bits_to_f64_bits(cru_f16_bits_to_f32_bits(b)));
    }
    case Dtype::bf16: {
      unsigned short b;
      std::memcpy(&b, p, 2);
      return cru_u2d(cru_f32_bits_to_f64_bits(cru_bf16_bits_to_f32_bits(b)));
    }
    case Dtype::f64: {
      double d;
      std::memcpy(&d, p, 8);
      return d;
    }
    case Dtype::i32: {
      int32_t v;
      std::memcpy(&v, p, 4);
      return v;
    }
    case Dtype::i64: {
      int64_t v;
      std::memcpy(&v, p, 8);
      return static_cast<double>(v);
    }
    case Dtype::boolean:
      return p[0] != 0 ? 1.0 : 0.0;
    default:
      return p[0];
  }
}

inline uint64_t mix64(uint64_t x) {
  x ^= x >> 30;
  x *= 0xBF58476D1CE4E5B9ull;
  x ^= x >> 27;
  x *= 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

inline std::string dims(const int64_t d[3]) {
  return std::to_string(d[0]) + "x" + std::to_string(d[1]) + "x" + std::to_string(d[2]);
}

inline std::string where(const ResolvedLaunch& l) {
  std::string s;
  if (l.line > 0) s += "line " + std::to_string(l.line) + ": ";
  return s + "launch " + std::to_string(l.index + 1) + " (" + l.kernel + "): ";
}


inline std::string plan_names(const std::vector<ResolvedLaunch>& launches) {
  std::string s;
  for (auto& l : launches) s += (s.empty() ? "" : ", ") + l.kernel;
  return s;
}

// Whether a measured copy bandwidth can stand as the device's peak. Copies reach ~85-90%
// of the DRAM's theoretical bandwidth (memory clock x 2 x bus width) on an idle GPU
// (H200: 4.28 of 4.8 TB/s); below half of it the measurement shared the GPU with another
// process, and a low peak would inflate every later % of speed of light. True when the
// theoretical figure is unknown (0).
inline bool plausible_bandwidth(double measured, double theoretical) {
  return theoretical <= 0 || measured >= 0.5 * theoretical;
}

}  // namespace crucible::gpu_common
