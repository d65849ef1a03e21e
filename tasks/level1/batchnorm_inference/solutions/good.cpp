// Correct CPU candidate: folds each channel into y = x * a + b in float.
#include <cmath>
#include <cstdint>

extern "C" void batchnorm(const float* x, const float* mean, const float* var, const float* gamma,
                          const float* beta, float* y, int64_t n, int64_t c, int64_t hw, float eps) {
  for (int64_t p = 0; p < n * c; ++p) {
    const int64_t ch = p % c;
    const float a = gamma[ch] / std::sqrt(var[ch] + eps), b = beta[ch] - mean[ch] * a;
    for (int64_t s = 0; s < hw; ++s) y[p * hw + s] = x[p * hw + s] * a + b;
  }
}

/*@launch
launches:
  - kernel: batchnorm
    args: [x, running_mean, running_var, gamma, beta, y, i64(N), i64(C), i64(H * W), f32(eps)]
@*/
