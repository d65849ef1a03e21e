// A plan that does not fit the code: it launches `matmul_fast`, but the file defines
// only `matmul`. The harness must reject it as a format_error naming the function.
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
  - kernel: matmul_fast
    args: [A, B, C, i64(M), i64(K), i64(N)]
@*/
