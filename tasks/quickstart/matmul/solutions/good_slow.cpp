// Correct but slow: the textbook i-j-k loop order. The inner loop walks down a column of
// B with a stride of N floats, so nearly every load misses the cache line it needs.
#include <cstdint>

extern "C" void matmul(const float* A, const float* B, float* C, int64_t M, int64_t K, int64_t N) {
  for (int64_t i = 0; i < M; ++i)
    for (int64_t j = 0; j < N; ++j) {
      float acc = 0.f;
      for (int64_t k = 0; k < K; ++k) acc += A[i * K + k] * B[k * N + j];
      C[i * N + j] = acc;
    }
}

/*@launch
launches:
  - kernel: matmul
    args: [A, B, C, i64(M), i64(K), i64(N)]
@*/
