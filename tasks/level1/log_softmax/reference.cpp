// CPU reference for log-softmax: per row, max, then the sum of exp in double, then x - m - log(s).
#include <cmath>
#include <cstdint>

extern "C" void log_softmax_ref(const float* x, float* y, int64_t rows, int64_t cols) {
  for (int64_t r = 0; r < rows; ++r) {
    const float* xr = x + r * cols;
    float* yr = y + r * cols;
    float m = xr[0];
    for (int64_t j = 1; j < cols; ++j) m = xr[j] > m ? xr[j] : m;
    double s = 0;
    for (int64_t j = 0; j < cols; ++j) s += std::exp((double)xr[j] - (double)m);
    const double lse = (double)m + std::log(s);
    for (int64_t j = 0; j < cols; ++j) yr[j] = (float)((double)xr[j] - lse);
  }
}

/*@launch
launches:
  - kernel: log_softmax_ref
    args: [x, y, i64(B), i64(D)]
@*/
