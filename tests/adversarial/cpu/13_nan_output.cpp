// Exploit 13 (NaN where the checker treats NaN as matching anything): writes NaN
// everywhere. NaN where the reference is finite is a mismatch: wrong_output + nan_output.
#include <cstdint>
#include <limits>

extern "C" void relu(const float* x, float* y, int64_t n) {
  (void)x;
  for (int64_t i = 0; i < n; ++i) y[i] = std::numeric_limits<float>::quiet_NaN();
}

/*@launch
launches:
  - kernel: relu
    args: [x, y, i64(N)]
@*/
