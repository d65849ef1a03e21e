// Correct CPU candidate: one output at a time, strided reads; strict comparison keeps
// the first index of the extreme value.
#include <cstdint>

extern "C" void argmax_dim(const float* x, int64_t* y, int64_t nb, int64_t d1, int64_t d2) {
  for (int64_t b = 0; b < nb; ++b)
    for (int64_t j = 0; j < d2; ++j) {
      float m = x[b * d1 * d2 + j];
      int64_t best = 0;
      for (int64_t k = 1; k < d1; ++k) { const float v = x[(b * d1 + k) * d2 + j]; if (v > m) { m = v; best = k; } }
      y[b * d2 + j] = best;
    }
}

/*@launch
launches:
  - kernel: argmax_dim
    args: [x, y, i64(B), i64(D1), i64(D2)]
@*/
