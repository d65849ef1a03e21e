// CPU reference for MSE: one pass, double accumulator.
#include <cstdint>

extern "C" void mse_ref(const float* p, const float* t, float* loss, int64_t n) {
  double s = 0;
  for (int64_t i = 0; i < n; ++i) { const double d = (double)p[i] - t[i]; s += d * d; }
  loss[0] = (float)(s / (double)n);
}

/*@launch
launches:
  - kernel: mse_ref
    args: [predictions, targets, loss, i64(B * D)]
@*/
