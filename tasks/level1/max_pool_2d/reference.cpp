// CPU reference for 2-D max pooling with padding that never wins.
#include <cstdint>

extern "C" void max_pool_2d_ref(const float* x, float* y, int64_t planes, int64_t h, int64_t w, int64_t k,
                                int64_t s, int64_t p) {
  const int64_t oh = (h + 2 * p - k) / s + 1, ow = (w + 2 * p - k) / s + 1;
  for (int64_t pl = 0; pl < planes; ++pl)
    for (int64_t i = 0; i < oh; ++i)
      for (int64_t j = 0; j < ow; ++j) {
        float m = -3.402823466e+38f;
        for (int64_t a = 0; a < k; ++a)
          for (int64_t b = 0; b < k; ++b) {
            const int64_t ih = i * s - p + a, iw = j * s - p + b;
            if (ih < 0 || ih >= h || iw < 0 || iw >= w) continue;
            const float v = x[(pl * h + ih) * w + iw];
            m = v > m ? v : m;
          }
        y[(pl * oh + i) * ow + j] = m;
      }
}

/*@launch
launches:
  - kernel: max_pool_2d_ref
    args: [x, y, i64(N * C), i64(H), i64(W), i64(K), i64(S), i64(P)]
@*/
