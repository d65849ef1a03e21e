// CPU reference for sum: one pass with a double accumulator.
#include <cstdint>

extern "C" void sum_ref(const float* x, float* y, int64_t n) {
  double s = 0;
  for (int64_t i = 0; i < n; ++i) s += x[i];
  y[0] = (float)s;
}

/*@launch
launches:
  - kernel: sum_ref
    args: [x, y, i64(N)]
@*/
