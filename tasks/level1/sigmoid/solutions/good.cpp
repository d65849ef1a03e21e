// Correct CPU candidate: the same formula in f32 arithmetic (float overloads of <cmath>).
#include <algorithm>
#include <cmath>
#include <cstdint>

extern "C" void sigmoid_f32(const float* __restrict__ x, float* __restrict__ y, int64_t n) {
  for (int64_t i = 0; i < n; ++i) {
    const float v = x[i];
    y[i] = 1.f / (1.f + std::exp(-v));
  }
}

/*@launch
launches:
  - kernel: sigmoid_f32
    args: [x, y, i64(N)]
@*/
