// CPU reference for matmul: C = A·B with a double accumulator per output element.
// Loop order i, k, j over a stack buffer of 256 double sums keeps B's reads contiguous.
#include <cstdint>

extern "C" void matmul_ref(const float* A, const float* B, float* C, int64_t M, int64_t K, int64_t N) {
  constexpr int64_t kChunk = 256;
  double acc[kChunk];
  for (int64_t i = 0; i < M; ++i) {
    for (int64_t j0 = 0; j0 < N; j0 += kChunk) {
      const int64_t w = N - j0 < kChunk ? N - j0 : kChunk;
      for (int64_t j = 0; j < w; ++j) acc[j] = 0;
      for (int64_t k = 0; k < K; ++k) {
        const double a = A[i * K + k];
        const float* b = B + k * N + j0;
        for (int64_t j = 0; j < w; ++j) acc[j] += a * (double)b[j];
      }
      for (int64_t j = 0; j < w; ++j) C[i * N + j0 + j] = (float)acc[j];
    }
  }
}

/*@launch
launches:
  - kernel: matmul_ref
    args: [A, B, C, i64(M), i64(K), i64(N)]
@*/
