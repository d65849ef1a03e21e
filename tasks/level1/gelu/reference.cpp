// CPU reference for gelu: y = 0.5 x (1 + erf(x / sqrt(2))) (exact GELU), evaluated in double and rounded to f32.
#include <algorithm>
#include <cmath>
#include <cstdint>

extern "C" void gelu_ref(const float* x, float* y, int64_t n) {
  for (int64_t i = 0; i < n; ++i) {
    const double v = x[i];
    y[i] = (float)(0.5 * v * (1.0 + std::erf(v * 0.70710678118654752440)));
  }
}

/*@launch
launches:
  - kernel: gelu_ref
    args: [x, y, i64(N)]
@*/
