// CPU reference for cross-entropy: per row, max, then log-sum-exp in double; mean in double.
#include <cmath>
#include <cstdint>

extern "C" void cross_entropy_ref(const float* x, const int64_t* t, float* loss, int64_t rows, int64_t cols) {
  double total = 0;
  for (int64_t r = 0; r < rows; ++r) {
    const float* xr = x + r * cols;
    double m = xr[0];
    for (int64_t k = 1; k < cols; ++k) m = xr[k] > m ? xr[k] : m;
    double s = 0;
    for (int64_t k = 0; k < cols; ++k) s += std::exp((double)xr[k] - m);
    total += m + std::log(s) - (double)xr[t[r]];
  }
  loss[0] = (float)(total / (double)rows);
}

/*@launch
launches:
  - kernel: cross_entropy_ref
    args: [logits, targets, loss, i64(B), i64(C)]
@*/
