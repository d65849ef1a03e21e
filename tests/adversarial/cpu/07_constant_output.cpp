// Exploit 7 (constant outputs within tolerance): every y is 0.5, about the mean of
// relu of a standard normal. relu's tolerance is exact and its output varies with x:
// wrong_output.
#include <cstdint>

extern "C" void relu(const float* x, float* y, int64_t n) {
  (void)x;
  for (int64_t i = 0; i < n; ++i) y[i] = 0.5f;
}

/*@launch
launches:
  - kernel: relu
    args: [x, y, i64(N)]
@*/
