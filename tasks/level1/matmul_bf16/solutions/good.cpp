// Correct CPU candidate: the textbook i-j-k loops with an f32 accumulator per output.
#include <cstdint>
#include <cmath>
#include <cstring>

// bfloat16 <-> binary32: exact widening, round-to-nearest-even narrowing.
static inline float b2f(uint16_t b) {
  const uint32_t u = (uint32_t)b << 16;
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}
static inline uint16_t f2b(float f) {
  uint32_t x;
  std::memcpy(&x, &f, 4);
  if ((x & 0x7fffffffu) > 0x7f800000u) return (uint16_t)((x >> 16) | 0x40u);  // quiet NaN
  return (uint16_t)((x + 0x7fffu + ((x >> 16) & 1u)) >> 16);
}

extern "C" void mm(const uint16_t* A0, const uint16_t* B0, uint16_t* C0, int64_t batch, int64_t M, int64_t K, int64_t N) {
  for (int64_t b = 0; b < batch; ++b) {
    const uint16_t* A = A0 + b * M * K;
    const uint16_t* B = B0 + b * K * N;
    uint16_t* C = C0 + b * M * N;
    for (int64_t i = 0; i < M; ++i)
      for (int64_t j = 0; j < N; ++j) {
        float acc = 0.f;
        for (int64_t k = 0; k < K; ++k) acc += b2f(A[i * K + k]) * b2f(B[k * N + j]);
        C[i * N + j] = f2b(acc);
      }
  }
}

/*@launch
launches:
  - kernel: mm
    args: [A, B, C, i64(1), i64(M), i64(K), i64(N)]
@*/
