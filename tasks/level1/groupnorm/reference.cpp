// CPU reference for group norm: each (n, g) group is a contiguous run of CPG * H * W
// elements; two passes in double (mean, variance), then per-channel scale and shift.
#include <cmath>
#include <cstdint>

extern "C" void groupnorm_ref(const float* x, const float* gamma, const float* beta, float* y,
                              int64_t n, int64_t groups, int64_t cpg, int64_t hw, float eps) {
  const int64_t len = cpg * hw;
  for (int64_t row = 0; row < n * groups; ++row) {
    const float* xr = x + row * len;
    double m = 0;
    for (int64_t j = 0; j < len; ++j) m += xr[j];
    m /= (double)len;
    double v = 0;
    for (int64_t j = 0; j < len; ++j) v += ((double)xr[j] - m) * ((double)xr[j] - m);
    v /= (double)len;
    const double rstd = 1.0 / std::sqrt(v + (double)eps);
    const int64_t c0 = (row % groups) * cpg;
    for (int64_t j = 0; j < len; ++j) {
      const int64_t c = c0 + j / hw;
      y[row * len + j] = (float)(((double)xr[j] - m) * rstd * (double)gamma[c] + (double)beta[c]);
    }
  }
}

/*@launch
launches:
  - kernel: groupnorm_ref
    args: [x, gamma, beta, y, i64(N), i64(G), i64(CPG), i64(H * W), f32(eps)]
@*/
