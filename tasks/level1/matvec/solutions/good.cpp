// Correct CPU candidate: an f32 dot product per row, four partial sums to shorten the chain.
#include <cstdint>

extern "C" void matvec(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C, int64_t M,
                       int64_t K) {
  for (int64_t i = 0; i < M; ++i) {
    const float* a = A + i * K;
    float s[4] = {0.f, 0.f, 0.f, 0.f};
    int64_t k = 0;
    for (; k + 4 <= K; k += 4)
      for (int l = 0; l < 4; ++l) s[l] += a[k + l] * B[k + l];
    for (; k < K; ++k) s[0] += a[k] * B[k];
    C[i] = (s[0] + s[1]) + (s[2] + s[3]);
  }
}

/*@launch
launches:
  - kernel: matvec
    args: [A, B, C, i64(M), i64(K)]
@*/
