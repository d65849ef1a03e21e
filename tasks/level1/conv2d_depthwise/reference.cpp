// CPU reference for the depthwise 2-D convolution: direct loops, double accumulation.
#include <cstdint>

extern "C" void dwconv_ref(const float* x, const float* w, float* y, int64_t n, int64_t c, int64_t h, int64_t wd,
                           int64_t k) {
  const int64_t oh = h - k + 1, ow = wd - k + 1;
  for (int64_t p = 0; p < n * c; ++p) {
    const float* wc = w + (p % c) * k * k;
    for (int64_t i = 0; i < oh; ++i)
      for (int64_t j = 0; j < ow; ++j) {
        double acc = 0;
        for (int64_t a = 0; a < k; ++a)
          for (int64_t e = 0; e < k; ++e) acc += (double)wc[a * k + e] * x[(p * h + i + a) * wd + j + e];
        y[(p * oh + i) * ow + j] = (float)acc;
      }
  }
}

/*@launch
launches:
  - kernel: dwconv_ref
    args: [x, w, y, i64(N), i64(C), i64(H), i64(W), i64(K)]
@*/
