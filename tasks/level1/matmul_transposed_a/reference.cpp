// CPU reference for matmul_transposed_a_ref: every output element is a double-precision sum over k,
// rounded once to the output type. Loop order i, k, j over a stack buffer of 256 double
// sums keeps the reads along j contiguous where the layout allows.
#include <cstdint>

extern "C" void matmul_transposed_a_ref(const float* A0, const float* B0, float* C0, int64_t batch, int64_t M, int64_t K,
                        int64_t N) {
  constexpr int64_t kChunk = 256;
  double acc[kChunk];
  for (int64_t b = 0; b < batch; ++b) {
    const float* A = A0 + b * M * K;
    const float* B = B0 + b * K * N;
    float* C = C0 + b * M * N;
    for (int64_t i = 0; i < M; ++i) {
      for (int64_t j0 = 0; j0 < N; j0 += kChunk) {
        const int64_t w = N - j0 < kChunk ? N - j0 : kChunk;
        for (int64_t jj = 0; jj < w; ++jj) acc[jj] = 0;
        for (int64_t k = 0; k < K; ++k) {
          const double a = (double)A[k * M + i];
          for (int64_t jj = 0; jj < w; ++jj) {
            const int64_t j = j0 + jj;
            acc[jj] += a * (double)B[k * N + j];
          }
        }
        for (int64_t jj = 0; jj < w; ++jj) C[i * N + j0 + jj] = (float)acc[jj];
      }
    }
  }
}

/*@launch
launches:
  - kernel: matmul_transposed_a_ref
    args: [A, B, C, i64(1), i64(M), i64(K), i64(N)]
@*/
