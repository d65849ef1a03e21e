// Correct candidate: the reference code, resubmitted as a candidate.
// CPU reference for gru_cell: the two gate GEMMs (kept apart: r scales only the hidden part of n)
// and the GRU update, in double.
#include <cmath>
#include <cstdint>
#include <vector>

static double sigmoid_d(double v) { return 1.0 / (1.0 + std::exp(-v)); }

// z[m][n] = sum_k x[m][k] * w[n][k] + b[n]: nn.Linear's x·W^T, double accumulation.
static void linear_nt(const float* x, const float* w, const float* b, double* z, int64_t M, int64_t K, int64_t N) {
  for (int64_t m = 0; m < M; ++m)
    for (int64_t n = 0; n < N; ++n) {
      double s = (double)b[n];
      const float* xr = x + m * K;
      const float* wr = w + n * K;
      for (int64_t k = 0; k < K; ++k) s += (double)xr[k] * (double)wr[k];
      z[m * N + n] = s;
    }
}

extern "C" void gru_cell_ref(const float* x, const float* h, const float* Wih, const float* Whh, const float* bih,
                             const float* bhh, float* h1, int64_t B, int64_t I, int64_t Hd) {
  const int64_t G = 3 * Hd;
  std::vector<double> gx((size_t)(B * G)), gh((size_t)(B * G));
  linear_nt(x, Wih, bih, gx.data(), B, I, G);
  linear_nt(h, Whh, bhh, gh.data(), B, Hd, G);
  for (int64_t b = 0; b < B; ++b)
    for (int64_t u = 0; u < Hd; ++u) {
      const double* a = gx.data() + b * G + u;
      const double* c = gh.data() + b * G + u;
      const double r = sigmoid_d(a[0] + c[0]), z = sigmoid_d(a[Hd] + c[Hd]);
      const double n = std::tanh(a[2 * Hd] + r * c[2 * Hd]);
      h1[b * Hd + u] = (float)((1.0 - z) * n + z * (double)h[b * Hd + u]);
    }
}

/*@launch
launches:
  - kernel: gru_cell_ref
    args: [x, h, Wih, Whh, bih, bhh, h1, i64(B), i64(I), i64(Hd)]
@*/
