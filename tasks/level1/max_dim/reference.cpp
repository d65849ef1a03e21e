// CPU reference for max over the middle dimension: walks x in memory order, one
// accumulator per output column.
#include <cstdint>
#include <vector>

extern "C" void max_dim_ref(const float* x, float* y, int64_t nb, int64_t d1, int64_t d2) {
  std::vector<float> acc(d2);
  std::vector<int64_t> idx(d2);
  for (int64_t b = 0; b < nb; ++b) {
    const float* xb = x + b * d1 * d2;
    for (int64_t j = 0; j < d2; ++j) { acc[j] = xb[j]; }
    for (int64_t k = 1; k < d1; ++k) {
      const float* xr = xb + k * d2;
      for (int64_t j = 0; j < d2; ++j) { acc[j] = xr[j] > acc[j] ? xr[j] : acc[j]; }
    }
    for (int64_t j = 0; j < d2; ++j) y[b * d2 + j] = acc[j];
  }
  (void)idx;
}

/*@launch
launches:
  - kernel: max_dim_ref
    args: [x, y, i64(B), i64(D1), i64(D2)]
@*/
