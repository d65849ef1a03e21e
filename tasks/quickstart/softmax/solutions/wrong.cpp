// Off by one: the denominator leaves out the last column of each row, so rows sum to more
// than 1 (and C = 1 divides by zero).
#include <cmath>
#include <cstdint>

extern "C" void softmax(const float* __restrict__ x, float* __restrict__ y, int64_t rows, int64_t cols) {
  for (int64_t r = 0; r < rows; ++r) {
    const float* xr = x + r * cols;
    float* yr = y + r * cols;
    float m = xr[0];
    for (int64_t j = 1; j < cols; ++j) m = std::fmax(m, xr[j]);
    double s = 0;
    for (int64_t j = 0; j < cols - 1; ++j) s += std::exp(xr[j] - m);
    for (int64_t j = 0; j < cols; ++j) yr[j] = (float)(std::exp(xr[j] - m) / s);
  }
}

/*@launch
launches:
  - kernel: softmax
    args: [x, y, i64(R), i64(C)]
@*/
