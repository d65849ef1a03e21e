// Correct CPU candidate: one pass of Welford's running mean and variance per row, in double.
#include <cmath>
#include <cstdint>

extern "C" void layernorm(const float* x, const float* gamma, const float* beta, float* y,
                          int64_t rows, int64_t cols, float eps) {
  for (int64_t r = 0; r < rows; ++r) {
    const float* xr = x + r * cols;
    double m = 0, m2 = 0;
    for (int64_t j = 0; j < cols; ++j) {
      const double d = xr[j] - m;
      m += d / (double)(j + 1);
      m2 += d * (xr[j] - m);
    }
    const float rstd = (float)(1.0 / std::sqrt(m2 / (double)cols + eps));
    const float mf = (float)m;
    for (int64_t j = 0; j < cols; ++j) y[r * cols + j] = (xr[j] - mf) * rstd * gamma[j] + beta[j];
  }
}

/*@launch
launches:
  - kernel: layernorm
    args: [x, gamma, beta, y, i64(R), i64(C), f32(eps)]
@*/
