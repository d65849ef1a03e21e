// Correct CPU candidate: running sums in float over blocks of 256, each block's total
// carried in double (so the error does not grow with the row length).
#include <cstdint>

extern "C" void cumsum(const float* __restrict__ x, float* __restrict__ y, int64_t rows, int64_t len) {
  for (int64_t r = 0; r < rows; ++r) {
    double carry = 0;
    for (int64_t j0 = 0; j0 < len; j0 += 256) {
      const int64_t j1 = j0 + 256 < len ? j0 + 256 : len;
      float s = 0;
      for (int64_t j = j0; j < j1; ++j) { s += x[r * len + j]; y[r * len + j] = (float)(carry + s); }
      carry += s;
    }
  }
}

/*@launch
launches:
  - kernel: cumsum
    args: [x, y, i64(B), i64(L)]
@*/
