// Correct CPU candidate: output rows accumulated in float, tap by tap.
#include <cstdint>

extern "C" void dwconv(const float* x, const float* w, float* y, int64_t n, int64_t c, int64_t h, int64_t wd,
                       int64_t k) {
  const int64_t oh = h - k + 1, ow = wd - k + 1;
  for (int64_t p = 0; p < n * c; ++p)
    for (int64_t i = 0; i < oh; ++i) {
      float* yr = y + (p * oh + i) * ow;
      for (int64_t j = 0; j < ow; ++j) yr[j] = 0.f;
      for (int64_t a = 0; a < k; ++a)
        for (int64_t e = 0; e < k; ++e) {
          const float wv = w[((p % c) * k + a) * k + e];
          const float* xr = x + (p * h + i + a) * wd + e;
          for (int64_t j = 0; j < ow; ++j) yr[j] += wv * xr[j];
        }
    }
}

/*@launch
launches:
  - kernel: dwconv
    args: [x, w, y, i64(N), i64(C), i64(H), i64(W), i64(K)]
@*/
