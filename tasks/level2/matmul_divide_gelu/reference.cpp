// CPU reference for matmul_divide_gelu: nn.Linear in double, then the epilogue in double.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

static double gelu_d(double v) { return 0.5 * v * (1.0 + std::erf(v * 0.70710678118654752)); }
static double sigmoid_d(double v) { return 1.0 / (1.0 + std::exp(-v)); }
static double softplus_d(double v) { return v > 20 ? v : std::log1p(std::exp(v)); }
static double mish_d(double v) { return v * std::tanh(softplus_d(v)); }

// z[m][n] = sum_k x[m][k] * w[n][k] (+ b[n]): nn.Linear's x·W^T, double accumulation.
template <class TX, class TW>
static void linear_nt(const TX* x, const TW* w, const float* b, double* z, int64_t M, int64_t K, int64_t N) {
  for (int64_t m = 0; m < M; ++m)
    for (int64_t n = 0; n < N; ++n) {
      double s = b ? (double)b[n] : 0.0;
      const TX* xr = x + m * K;
      const TW* wr = w + n * K;
      for (int64_t k = 0; k < K; ++k) s += (double)xr[k] * (double)wr[k];
      z[m * N + n] = s;
    }
}

// NCHW convolution, square kernel KS, stride 1, zero padding P, plus a per-channel bias.
template <class TX>
static void conv2d(const TX* x, const float* w, const float* cb, double* y, int64_t Nb, int64_t Ci, int64_t H,
                   int64_t W, int64_t Co, int64_t KS, int64_t P) {
  const int64_t Ho = H + 2 * P - KS + 1, Wo = W + 2 * P - KS + 1;
  for (int64_t n = 0; n < Nb; ++n)
    for (int64_t co = 0; co < Co; ++co)
      for (int64_t oy = 0; oy < Ho; ++oy)
        for (int64_t ox = 0; ox < Wo; ++ox) {
          double s = cb ? (double)cb[co] : 0.0;
          for (int64_t ci = 0; ci < Ci; ++ci)
            for (int64_t ky = 0; ky < KS; ++ky) {
              const int64_t iy = oy + ky - P;
              if (iy < 0 || iy >= H) continue;
              for (int64_t kx = 0; kx < KS; ++kx) {
                const int64_t ix = ox + kx - P;
                if (ix < 0 || ix >= W) continue;
                s += (double)x[((n * Ci + ci) * H + iy) * W + ix] * (double)w[((co * Ci + ci) * KS + ky) * KS + kx];
              }
            }
          y[((n * Co + co) * Ho + oy) * Wo + ox] = s;
        }
}

extern "C" void matmul_divide_gelu_ref(const float* x, const float* W, const float* b, float* y, int64_t M, int64_t K,
                           int64_t N, float divisor) {
  std::vector<double> zs((size_t)(M * N));
  linear_nt(x, W, b, zs.data(), M, K, N);
  for (int64_t i = 0; i < M * N; ++i) {
    const int64_t c = i % N;
    const double z = zs[i];
    (void)c;
    y[i] = (float)(gelu_d(z / (double)divisor));
  }
}
/*@launch
launches:
  - kernel: matmul_divide_gelu_ref
    args: [x, W, b, y, i64(M), i64(K), i64(N), f32(divisor)]
@*/
