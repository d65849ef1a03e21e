// Wrong indexing: reads B as if it were stored transposed (B[j][k] at j * K + k), which
// is a different product (and reads out of place whenever N != K).
#include <cstdint>

extern "C" void matmul(const float* A, const float* B, float* C, int64_t M, int64_t K, int64_t N) {
  for (int64_t i = 0; i < M; ++i)
    for (int64_t j = 0; j < N; ++j) {
      float acc = 0.f;
      for (int64_t k = 0; k < K; ++k) {
        const int64_t idx = (j * K + k) % (K * N);  // stays inside B, still wrong
        acc += A[i * K + k] * B[idx];
      }
      C[i * N + j] = acc;
    }
}

/*@launch
launches:
  - kernel: matmul
    args: [A, B, C, i64(M), i64(K), i64(N)]
@*/
