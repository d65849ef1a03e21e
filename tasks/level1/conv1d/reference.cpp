// CPU reference for the 1-D convolution: direct loops, double accumulation.
#include <cstdint>

extern "C" void conv1d_ref(const float* x, const float* w, float* y, int64_t n, int64_t ci, int64_t co,
                           int64_t len, int64_t k) {
  const int64_t ol = len - k + 1;
  for (int64_t b = 0; b < n; ++b)
    for (int64_t c = 0; c < co; ++c)
      for (int64_t o = 0; o < ol; ++o) {
        double acc = 0;
        for (int64_t i = 0; i < ci; ++i)
          for (int64_t t = 0; t < k; ++t) acc += (double)w[(c * ci + i) * k + t] * x[(b * ci + i) * len + o + t];
        y[(b * co + c) * ol + o] = (float)acc;
      }
}

/*@launch
launches:
  - kernel: conv1d_ref
    args: [x, w, y, i64(N), i64(CI), i64(CO), i64(L), i64(K)]
@*/
