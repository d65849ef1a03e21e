// Correct CPU candidate: clamps the window to the image instead of testing each tap.
#include <algorithm>
#include <cstdint>

extern "C" void max_pool_2d(const float* x, float* y, int64_t planes, int64_t h, int64_t w, int64_t k,
                            int64_t s, int64_t p) {
  const int64_t oh = (h + 2 * p - k) / s + 1, ow = (w + 2 * p - k) / s + 1;
  for (int64_t pl = 0; pl < planes; ++pl)
    for (int64_t i = 0; i < oh; ++i) {
      const int64_t h0 = std::max<int64_t>(i * s - p, 0), h1 = std::min(i * s - p + k, h);
      for (int64_t j = 0; j < ow; ++j) {
        const int64_t w0 = std::max<int64_t>(j * s - p, 0), w1 = std::min(j * s - p + k, w);
        float m = x[(pl * h + h0) * w + w0];
        for (int64_t a = h0; a < h1; ++a)
          for (int64_t b = w0; b < w1; ++b) m = std::max(m, x[(pl * h + a) * w + b]);
        y[(pl * oh + i) * ow + j] = m;
      }
    }
}

/*@launch
launches:
  - kernel: max_pool_2d
    args: [x, y, i64(N * C), i64(H), i64(W), i64(K), i64(S), i64(P)]
@*/
