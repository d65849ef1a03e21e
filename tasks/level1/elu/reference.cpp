// CPU reference for elu: y = x if x > 0 else exp(x) - 1 (alpha = 1), evaluated in double and rounded to f32.
#include <algorithm>
#include <cmath>
#include <cstdint>

extern "C" void elu_ref(const float* x, float* y, int64_t n) {
  for (int64_t i = 0; i < n; ++i) {
    const double v = x[i];
    y[i] = (float)(v > 0 ? v : std::expm1(v));
  }
}

/*@launch
launches:
  - kernel: elu_ref
    args: [x, y, i64(N)]
@*/
