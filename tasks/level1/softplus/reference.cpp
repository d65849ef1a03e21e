// CPU reference for softplus: y = log(1 + exp(x)), y = x for x > 20, evaluated in double and rounded to f32.
#include <algorithm>
#include <cmath>
#include <cstdint>

extern "C" void softplus_ref(const float* x, float* y, int64_t n) {
  for (int64_t i = 0; i < n; ++i) {
    const double v = x[i];
    y[i] = (float)(v > 20.0 ? v : std::log1p(std::exp(v)));
  }
}

/*@launch
launches:
  - kernel: softplus_ref
    args: [x, y, i64(N)]
@*/
