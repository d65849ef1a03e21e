// Correct candidate: the reference code, resubmitted as a candidate.
// CPU reference for lstm_cell: the two gate GEMMs and the cell update in double.
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
extern "C" void lstm_cell_ref(const float* x, const float* h, const float* c, const float* Wih, const float* Whh,
                              const float* bih, const float* bhh, float* h1, float* c1, int64_t B, int64_t I, int64_t Hd) {
  const int64_t G = 4 * Hd;
  std::vector<double> gx((size_t)(B * G)), gh((size_t)(B * G));
  linear_nt(x, Wih, bih, gx.data(), B, I, G);
  linear_nt(h, Whh, bhh, gh.data(), B, Hd, G);
  for (int64_t b = 0; b < B; ++b)
    for (int64_t u = 0; u < Hd; ++u) {
      auto g = [&](int64_t q) { return gx[b * G + q * Hd + u] + gh[b * G + q * Hd + u]; };
      const double ig = sigmoid_d(g(0)), fg = sigmoid_d(g(1)), gg = std::tanh(g(2)), og = sigmoid_d(g(3));
      const double cn = fg * c[b * Hd + u] + ig * gg;
      c1[b * Hd + u] = (float)cn;
      h1[b * Hd + u] = (float)(og * std::tanh(cn));
    }
}

/*@launch
launches:
  - kernel: lstm_cell_ref
    args: [x, h, c, Wih, Whh, bih, bhh, h1, c1, i64(B), i64(I), i64(Hd)]
@*/
