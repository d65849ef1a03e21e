// Correct CPU candidate: float exp, double row sum, multiply by the reciprocal.
#include <cmath>
#include <cstdint>

extern "C" void softmax(const float* __restrict__ x, float* __restrict__ y, int64_t rows, int64_t cols) {
  for (int64_t r = 0; r < rows; ++r) {
    const float* xr = x + r * cols;
    float* yr = y + r * cols;
    float m = xr[0];
    for (int64_t j = 1; j < cols; ++j) m = std::fmax(m, xr[j]);
    double s = 0;
    for (int64_t j = 0; j < cols; ++j) { yr[j] = std::exp(xr[j] - m); s += yr[j]; }
    const float inv = (float)(1.0 / s);
    for (int64_t j = 0; j < cols; ++j) yr[j] *= inv;
  }
}

/*@launch
launches:
  - kernel: softmax
    args: [x, y, i64(B), i64(D)]
@*/
