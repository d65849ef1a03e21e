// CPU reference for argmax over the middle dimension: walks x in memory order, one
// accumulator per output column.
#include <cstdint>
#include <vector>

extern "C" void argmax_dim_ref(const float* x, int64_t* y, int64_t nb, int64_t d1, int64_t d2) {
  std::vector<float> acc(d2);
  std::vector<int64_t> idx(d2);
  for (int64_t b = 0; b < nb; ++b) {
    const float* xb = x + b * d1 * d2;
    for (int64_t j = 0; j < d2; ++j) { acc[j] = xb[j]; idx[j] = 0; }
    for (int64_t k = 1; k < d1; ++k) {
      const float* xr = xb + k * d2;
      for (int64_t j = 0; j < d2; ++j) { if (xr[j] > acc[j]) { acc[j] = xr[j]; idx[j] = k; } }
    }
    for (int64_t j = 0; j < d2; ++j) y[b * d2 + j] = idx[j];
  }
  (void)idx;
}

/*@launch
launches:
  - kernel: argmax_dim_ref
    args: [x, y, i64(B), i64(D1), i64(D2)]
@*/
