// CPU reference for layer norm: two passes in double per row (mean, then variance).
#include <cmath>
#include <cstdint>

extern "C" void layernorm_ref(const float* x, const float* gamma, const float* beta, float* y,
                              int64_t rows, int64_t cols, float eps) {
  for (int64_t r = 0; r < rows; ++r) {
    const float* xr = x + r * cols;
    double m = 0;
    for (int64_t j = 0; j < cols; ++j) m += xr[j];
    m /= (double)cols;
    double v = 0;
    for (int64_t j = 0; j < cols; ++j) v += ((double)xr[j] - m) * ((double)xr[j] - m);
    v /= (double)cols;
    const double rstd = 1.0 / std::sqrt(v + (double)eps);
    for (int64_t j = 0; j < cols; ++j)
      y[r * cols + j] = (float)(((double)xr[j] - m) * rstd * (double)gamma[j] + (double)beta[j]);
  }
}

/*@launch
launches:
  - kernel: layernorm_ref
    args: [x, gamma, beta, y, i64(R), i64(C), f32(eps)]
@*/
