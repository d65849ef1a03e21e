// CPU reference for hardtanh: y = min(max(x, -1), 1), evaluated in double and rounded to f32.
#include <algorithm>
#include <cmath>
#include <cstdint>

extern "C" void hardtanh_ref(const float* x, float* y, int64_t n) {
  for (int64_t i = 0; i < n; ++i) {
    const double v = x[i];
    y[i] = (float)(std::min(std::max(v, -1.0), 1.0));
  }
}

/*@launch
launches:
  - kernel: hardtanh_ref
    args: [x, y, i64(N)]
@*/
