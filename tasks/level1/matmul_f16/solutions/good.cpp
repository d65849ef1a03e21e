// Correct CPU candidate: the textbook i-j-k loops with an f32 accumulator per output.
#include <cstdint>
#include <cmath>
#include <cstring>

// IEEE binary16 <-> binary32, exact widening and round-to-nearest-even narrowing.
static inline float h2f(uint16_t h) {
  uint32_t s = (uint32_t)(h & 0x8000u) << 16, e = (h >> 10) & 0x1fu, m = h & 0x3ffu, u;
  if (e == 0) {
    if (m == 0) {
      u = s;
    } else {  // subnormal: normalise the mantissa
      e = 113;
      while (!(m & 0x400u)) { m <<= 1; --e; }
      u = s | (e << 23) | ((m & 0x3ffu) << 13);
    }
  } else if (e == 31) {
    u = s | 0x7f800000u | (m << 13);
  } else {
    u = s | ((e + 112) << 23) | (m << 13);
  }
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}
static inline uint16_t f2h(float f) {
  uint32_t x;
  std::memcpy(&x, &f, 4);
  const uint32_t sign = (x >> 16) & 0x8000u, ax = x & 0x7fffffffu;
  if (ax >= 0x7f800000u) return (uint16_t)(sign | 0x7c00u | (ax > 0x7f800000u ? 0x200u : 0u));
  if (ax >= 0x477ff000u) return (uint16_t)(sign | 0x7c00u);  // >= 65520 rounds to infinity
  if (ax < 0x38800000u) {  // below 2^-14: a subnormal half, in units of 2^-24
    float a;
    std::memcpy(&a, &ax, 4);
    return (uint16_t)(sign | (uint32_t)std::nearbyint(a * 16777216.0f));
  }
  const uint32_t r = ax + 0xfffu + ((ax >> 13) & 1u);
  return (uint16_t)(sign | ((r >> 13) - (112u << 10)));
}

extern "C" void mm(const uint16_t* A0, const uint16_t* B0, uint16_t* C0, int64_t batch, int64_t M, int64_t K, int64_t N) {
  for (int64_t b = 0; b < batch; ++b) {
    const uint16_t* A = A0 + b * M * K;
    const uint16_t* B = B0 + b * K * N;
    uint16_t* C = C0 + b * M * N;
    for (int64_t i = 0; i < M; ++i)
      for (int64_t j = 0; j < N; ++j) {
        float acc = 0.f;
        for (int64_t k = 0; k < K; ++k) acc += h2f(A[i * K + k]) * h2f(B[k * N + j]);
        C[i * N + j] = f2h(acc);
      }
  }
}

/*@launch
launches:
  - kernel: mm
    args: [A, B, C, i64(1), i64(M), i64(K), i64(N)]
@*/
