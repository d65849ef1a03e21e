// Correct but slow: copies x into y, then clamps y in a second pass with an unpredictable
// branch; twice the memory traffic of a single pass.
#include <cstdint>

extern "C" void relu_copy(const float* x, float* y, int64_t n) {
  for (int64_t i = 0; i < n; ++i) y[i] = x[i];
}

extern "C" void relu_clamp(volatile float* y, int64_t n) {
  for (int64_t i = 0; i < n; ++i)
    if (y[i] < 0.f) y[i] = 0.f;
}

/*@launch
launches:
  - kernel: relu_copy
    args: [x, y, i64(N)]
  - kernel: relu_clamp
    args: [y, i64(N)]
@*/
