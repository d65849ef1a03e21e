// CPU reference for tanh: y = tanh(x), evaluated in double and rounded to f32.
#include <algorithm>
#include <cmath>
#include <cstdint>

extern "C" void tanh_ref(const float* x, float* y, int64_t n) {
  for (int64_t i = 0; i < n; ++i) {
    const double v = x[i];
    y[i] = (float)(std::tanh(v));
  }
}

/*@launch
launches:
  - kernel: tanh_ref
    args: [x, y, i64(N)]
@*/
