// CPU reference for softsign: y = x / (1 + |x|), evaluated in double and rounded to f32.
#include <algorithm>
#include <cmath>
#include <cstdint>

extern "C" void softsign_ref(const float* x, float* y, int64_t n) {
  for (int64_t i = 0; i < n; ++i) {
    const double v = x[i];
    y[i] = (float)(v / (1.0 + std::fabs(v)));
  }
}

/*@launch
launches:
  - kernel: softsign_ref
    args: [x, y, i64(N)]
@*/
