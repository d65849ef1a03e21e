// Correct CPU candidate: float sums over the clamped window, times 1/K.
#include <algorithm>
#include <cstdint>

extern "C" void avg_pool_1d(const float* x, float* y, int64_t rows, int64_t len, int64_t k, int64_t s, int64_t p) {
  const int64_t ol = (len + 2 * p - k) / s + 1;
  const float inv = 1.f / (float)k;
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t o = 0; o < ol; ++o) {
      const int64_t i0 = std::max<int64_t>(o * s - p, 0), i1 = std::min(o * s - p + k, len);
      float acc = 0.f;
      for (int64_t i = i0; i < i1; ++i) acc += x[r * len + i];
      y[r * ol + o] = acc * inv;
    }
}

/*@launch
launches:
  - kernel: avg_pool_1d
    args: [x, y, i64(N * C), i64(L), i64(K), i64(S), i64(P)]
@*/
