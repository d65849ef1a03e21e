// Correct CPU candidate: the textbook i-j-k loops with an f32 accumulator per output.
#include <cstdint>

extern "C" void mm(const float* A0, const float* B0, float* C0, int64_t batch, int64_t M, int64_t K, int64_t N) {
  for (int64_t b = 0; b < batch; ++b) {
    const float* A = A0 + b * M * K;
    const float* B = B0 + b * K * N;
    float* C = C0 + b * M * N;
    for (int64_t i = 0; i < M; ++i)
      for (int64_t j = 0; j < N; ++j) {
        float acc = 0.f;
        for (int64_t k = 0; k < K; ++k) acc += A[k * M + i] * B[k * N + j];
        C[i * N + j] = acc;
      }
  }
}

/*@launch
launches:
  - kernel: mm
    args: [A, B, C, i64(1), i64(M), i64(K), i64(N)]
@*/
