// Correct CPU candidate: accumulates whole output rows in float, tap by tap (vectorisable).
#include <cstdint>

extern "C" void conv1d(const float* x, const float* w, float* y, int64_t n, int64_t ci, int64_t co,
                       int64_t len, int64_t k) {
  const int64_t ol = len - k + 1;
  for (int64_t b = 0; b < n; ++b)
    for (int64_t c = 0; c < co; ++c) {
      float* yr = y + (b * co + c) * ol;
      for (int64_t o = 0; o < ol; ++o) yr[o] = 0.f;
      for (int64_t i = 0; i < ci; ++i)
        for (int64_t t = 0; t < k; ++t) {
          const float wv = w[(c * ci + i) * k + t];
          const float* xr = x + (b * ci + i) * len + t;
          for (int64_t o = 0; o < ol; ++o) yr[o] += wv * xr[o];
        }
    }
}

/*@launch
launches:
  - kernel: conv1d
    args: [x, w, y, i64(N), i64(CI), i64(CO), i64(L), i64(K)]
@*/
