// Correct CPU candidate: accumulates output rows in float, tap by tap (vectorisable).
#include <cstdint>

extern "C" void conv2d(const float* x, const float* w, float* y, int64_t n, int64_t ci, int64_t co,
                       int64_t h, int64_t wd, int64_t k) {
  const int64_t oh = h - k + 1, ow = wd - k + 1;
  for (int64_t b = 0; b < n; ++b)
    for (int64_t c = 0; c < co; ++c)
      for (int64_t i = 0; i < oh; ++i) {
        float* yr = y + ((b * co + c) * oh + i) * ow;
        for (int64_t j = 0; j < ow; ++j) yr[j] = 0.f;
        for (int64_t q = 0; q < ci; ++q)
          for (int64_t a = 0; a < k; ++a)
            for (int64_t e = 0; e < k; ++e) {
              const float wv = w[((c * ci + q) * k + a) * k + e];
              const float* xr = x + ((b * ci + q) * h + i + a) * wd + e;
              for (int64_t j = 0; j < ow; ++j) yr[j] += wv * xr[j];
            }
      }
}

/*@launch
launches:
  - kernel: conv2d
    args: [x, w, y, i64(N), i64(CI), i64(CO), i64(H), i64(W), i64(K)]
@*/
