// Wrong: adds into y[0] assuming it starts at zero. The harness poisons outputs (NaN),
// so the result is NaN.
#include <cstdint>

extern "C" void sum(const float* x, float* y, int64_t n) {
  double s = 0;
  for (int64_t i = 0; i < n; ++i) s += x[i];
  y[0] += (float)s;
}

/*@launch
launches:
  - kernel: sum
    args: [x, y, i64(N)]
@*/
