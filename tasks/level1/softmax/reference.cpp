// CPU reference for softmax: per row, max, then exp and sum in double, then scale.
#include <cmath>
#include <cstdint>

extern "C" void softmax_ref(const float* x, float* y, int64_t rows, int64_t cols) {
  for (int64_t r = 0; r < rows; ++r) {
    const float* xr = x + r * cols;
    float* yr = y + r * cols;
    float m = xr[0];
    for (int64_t j = 1; j < cols; ++j) m = xr[j] > m ? xr[j] : m;
    double s = 0;
    for (int64_t j = 0; j < cols; ++j) s += std::exp((double)xr[j] - (double)m);
    for (int64_t j = 0; j < cols; ++j) yr[j] = (float)(std::exp((double)xr[j] - (double)m) / s);
  }
}

/*@launch
launches:
  - kernel: softmax_ref
    args: [x, y, i64(B), i64(D)]
@*/
