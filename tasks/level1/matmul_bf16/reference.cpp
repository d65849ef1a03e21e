// CPU reference for matmul_bf16_ref: every output element is a double-precision sum over k,
// rounded once to the output type. Loop order i, k, j over a stack buffer of 256 double
// sums keeps the reads along j contiguous where the layout allows.
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

extern "C" void matmul_bf16_ref(const uint16_t* A0, const uint16_t* B0, uint16_t* C0, int64_t batch, int64_t M, int64_t K,
                        int64_t N) {
  constexpr int64_t kChunk = 256;
  double acc[kChunk];
  for (int64_t b = 0; b < batch; ++b) {
    const uint16_t* A = A0 + b * M * K;
    const uint16_t* B = B0 + b * K * N;
    uint16_t* C = C0 + b * M * N;
    for (int64_t i = 0; i < M; ++i) {
      for (int64_t j0 = 0; j0 < N; j0 += kChunk) {
        const int64_t w = N - j0 < kChunk ? N - j0 : kChunk;
        for (int64_t jj = 0; jj < w; ++jj) acc[jj] = 0;
        for (int64_t k = 0; k < K; ++k) {
          const double a = (double)b2f(A[i * K + k]);
          for (int64_t jj = 0; jj < w; ++jj) {
            const int64_t j = j0 + jj;
            acc[jj] += a * (double)b2f(B[k * N + j]);
          }
        }
        for (int64_t jj = 0; jj < w; ++jj) C[i * N + j0 + jj] = f2b((float)acc[jj]);
      }
    }
  }
}

/*@launch
launches:
  - kernel: matmul_bf16_ref
    args: [A, B, C, i64(1), i64(M), i64(K), i64(N)]
@*/
