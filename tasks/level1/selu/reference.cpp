// CPU reference for selu: y = scale * (x if x > 0 else alpha * (exp(x) - 1)), evaluated in double and rounded to f32.
#include <algorithm>
#include <cmath>
#include <cstdint>

extern "C" void selu_ref(const float* x, float* y, int64_t n) {
  for (int64_t i = 0; i < n; ++i) {
    const double v = x[i];
    y[i] = (float)(v > 0 ? 1.0507009873554804934193349852946 * v : 1.0507009873554804934193349852946 * 1.6732632423543772848170429916717 * std::expm1(v));
  }
}

/*@launch
launches:
  - kernel: selu_ref
    args: [x, y, i64(N)]
@*/
