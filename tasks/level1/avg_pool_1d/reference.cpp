// CPU reference for 1-D average pooling (padding counts as zeros), sums in double.
#include <cstdint>

extern "C" void avg_pool_1d_ref(const float* x, float* y, int64_t rows, int64_t len, int64_t k, int64_t s, int64_t p) {
  const int64_t ol = (len + 2 * p - k) / s + 1;
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t o = 0; o < ol; ++o) {
      double acc = 0;
      for (int64_t t = 0; t < k; ++t) {
        const int64_t i = o * s - p + t;
        if (i >= 0 && i < len) acc += x[r * len + i];
      }
      y[r * ol + o] = (float)(acc / (double)k);
    }
}

/*@launch
launches:
  - kernel: avg_pool_1d_ref
    args: [x, y, i64(N * C), i64(L), i64(K), i64(S), i64(P)]
@*/
