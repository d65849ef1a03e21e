// CPU reference for inference batch norm, in double.
#include <cmath>
#include <cstdint>

extern "C" void batchnorm_ref(const float* x, const float* mean, const float* var, const float* gamma,
                              const float* beta, float* y, int64_t n, int64_t c, int64_t hw, float eps) {
  for (int64_t p = 0; p < n * c; ++p) {
    const int64_t ch = p % c;
    const double a = (double)gamma[ch] / std::sqrt((double)var[ch] + (double)eps);
    for (int64_t s = 0; s < hw; ++s)
      y[p * hw + s] = (float)(((double)x[p * hw + s] - (double)mean[ch]) * a + (double)beta[ch]);
  }
}

/*@launch
launches:
  - kernel: batchnorm_ref
    args: [x, running_mean, running_var, gamma, beta, y, i64(N), i64(C), i64(H * W), f32(eps)]
@*/
