// CPU reference for leaky_relu: y = x if x > 0 else 0.01 * x, evaluated in double and rounded to f32.
#include <algorithm>
#include <cmath>
#include <cstdint>

extern "C" void leaky_relu_ref(const float* x, float* y, int64_t n) {
  for (int64_t i = 0; i < n; ++i) {
    const double v = x[i];
    y[i] = (float)(v > 0 ? v : 0.01 * v);
  }
}

/*@launch
launches:
  - kernel: leaky_relu_ref
    args: [x, y, i64(N)]
@*/
