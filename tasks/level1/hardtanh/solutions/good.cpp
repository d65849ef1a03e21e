// Correct CPU candidate: the same formula in f32 arithmetic (float overloads of <cmath>).
#include <algorithm>
#include <cmath>
#include <cstdint>

extern "C" void hardtanh_f32(const float* __restrict__ x, float* __restrict__ y, int64_t n) {
  for (int64_t i = 0; i < n; ++i) {
    const float v = x[i];
    y[i] = std::min(std::max(v, -1.f), 1.f);
  }
}

/*@launch
launches:
  - kernel: hardtanh_f32
    args: [x, y, i64(N)]
@*/
