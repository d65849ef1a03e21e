// CPU reference for scalar_multiply: C = A * s, in f32 (one rounding, as on the GPU).
#include <cstdint>

extern "C" void scalar_multiply_ref(const float* A, const float* s, float* C, int64_t n) {
  const float k = s[0];
  for (int64_t i = 0; i < n; ++i) C[i] = A[i] * k;
}

/*@launch
launches:
  - kernel: scalar_multiply_ref
    args: [A, s, C, i64(M * N)]
@*/
