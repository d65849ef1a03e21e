// CPU reference for matvec: a double-precision dot product per row, rounded once to f32.
#include <cstdint>

extern "C" void matvec_ref(const float* A, const float* B, float* C, int64_t M, int64_t K) {
  for (int64_t i = 0; i < M; ++i) {
    const float* a = A + i * K;
    double acc = 0;
    for (int64_t k = 0; k < K; ++k) acc += (double)a[k] * (double)B[k];
    C[i] = (float)acc;
  }
}

/*@launch
launches:
  - kernel: matvec_ref
    args: [A, B, C, i64(M), i64(K)]
@*/
