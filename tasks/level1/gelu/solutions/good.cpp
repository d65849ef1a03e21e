// Correct CPU candidate: the same formula in f32 arithmetic (float overloads of <cmath>).
#include <algorithm>
#include <cmath>
#include <cstdint>

extern "C" void gelu_f32(const float* __restrict__ x, float* __restrict__ y, int64_t n) {
  for (int64_t i = 0; i < n; ++i) {
    const float v = x[i];
    y[i] = 0.5f * v * (1.f + std::erf(v * 0.70710678f));
  }
}

/*@launch
launches:
  - kernel: gelu_f32
    args: [x, y, i64(N)]
@*/
