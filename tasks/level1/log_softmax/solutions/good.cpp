// Correct CPU candidate: float exp, double row sum, subtract m + log(s) in float.
#include <cmath>
#include <cstdint>

extern "C" void log_softmax(const float* __restrict__ x, float* __restrict__ y, int64_t rows, int64_t cols) {
  for (int64_t r = 0; r < rows; ++r) {
    const float* xr = x + r * cols;
    float* yr = y + r * cols;
    float m = xr[0];
    for (int64_t j = 1; j < cols; ++j) m = std::fmax(m, xr[j]);
    double s = 0;
    for (int64_t j = 0; j < cols; ++j) s += std::exp(xr[j] - m);
    const float lse = m + (float)std::log(s);
    for (int64_t j = 0; j < cols; ++j) yr[j] = xr[j] - lse;
  }
}

/*@launch
launches:
  - kernel: log_softmax
    args: [x, y, i64(B), i64(D)]
@*/
