// Correct but slow: computes exp in double twice per element (once for the sum, once for
// the output) and divides instead of multiplying by a reciprocal.
#include <cmath>
#include <cstdint>

extern "C" void softmax(const float* x, float* y, int64_t rows, int64_t cols) {
  for (int64_t r = 0; r < rows; ++r) {
    double m = x[r * cols];
    for (int64_t j = 1; j < cols; ++j) m = std::fmax(m, (double)x[r * cols + j]);
    double s = 0;
    for (int64_t j = 0; j < cols; ++j) s += std::exp(x[r * cols + j] - m);
    for (int64_t j = 0; j < cols; ++j) y[r * cols + j] = (float)(std::exp(x[r * cols + j] - m) / s);
  }
}

/*@launch
launches:
  - kernel: softmax
    args: [x, y, i64(R), i64(C)]
@*/
