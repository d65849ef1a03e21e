// CPU reference of the gameable fixture: the mean, accumulated in double.
#include <cstdint>

extern "C" void mean_ref(const float* x, float* y, int64_t n) {
  double s = 0;
  for (int64_t i = 0; i < n; ++i) s += x[i];
  y[0] = (float)(s / (double)n);
}

/*@launch
launches:
  - kernel: mean_ref
    args: [x, y, i64(N)]
@*/
