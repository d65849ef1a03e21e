// Correct CPU candidate: one output at a time, strided reads, double accumulator, divided by D1.
#include <cstdint>

extern "C" void mean_dim(const float* x, float* y, int64_t nb, int64_t d1, int64_t d2) {
  for (int64_t b = 0; b < nb; ++b)
    for (int64_t j = 0; j < d2; ++j) {
      double s = 0;
      for (int64_t k = 0; k < d1; ++k) s += x[(b * d1 + k) * d2 + j];
      y[b * d2 + j] = (float)(s / d1);
    }
}

/*@launch
launches:
  - kernel: mean_dim
    args: [x, y, i64(B), i64(D1), i64(D2)]
@*/
