// CPU reference for cumsum: a running double sum along each row.
#include <cstdint>

extern "C" void cumsum_ref(const float* x, float* y, int64_t rows, int64_t len) {
  for (int64_t r = 0; r < rows; ++r) {
    double s = 0;
    for (int64_t j = 0; j < len; ++j) { s += x[r * len + j]; y[r * len + j] = (float)s; }
  }
}

/*@launch
launches:
  - kernel: cumsum_ref
    args: [x, y, i64(B), i64(L)]
@*/
