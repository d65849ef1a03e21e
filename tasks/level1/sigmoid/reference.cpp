// CPU reference for sigmoid: y = 1 / (1 + exp(-x)), evaluated in double and rounded to f32.
#include <algorithm>
#include <cmath>
#include <cstdint>

extern "C" void sigmoid_ref(const float* x, float* y, int64_t n) {
  for (int64_t i = 0; i < n; ++i) {
    const double v = x[i];
    y[i] = (float)(1.0 / (1.0 + std::exp(-v)));
  }
}

/*@launch
launches:
  - kernel: sigmoid_ref
    args: [x, y, i64(N)]
@*/
