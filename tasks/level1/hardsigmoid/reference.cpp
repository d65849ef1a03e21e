// CPU reference for hardsigmoid: y = min(max(x / 6 + 1/2, 0), 1), evaluated in double and rounded to f32.
#include <algorithm>
#include <cmath>
#include <cstdint>

extern "C" void hardsigmoid_ref(const float* x, float* y, int64_t n) {
  for (int64_t i = 0; i < n; ++i) {
    const double v = x[i];
    y[i] = (float)(std::min(std::max(v + 3.0, 0.0), 6.0) / 6.0);
  }
}

/*@launch
launches:
  - kernel: hardsigmoid_ref
    args: [x, y, i64(N)]
@*/
