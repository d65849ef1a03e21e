// Computes y correctly, then zeroes its input x: the harness's input checksum must notice.
#include <cstdint>

extern "C" void relu(float* x, float* y, int64_t n) {
  for (int64_t i = 0; i < n; ++i) y[i] = x[i] > 0.f ? x[i] : 0.f;
  for (int64_t i = 0; i < n; ++i) x[i] = 0.f;
}

/*@launch
launches:
  - kernel: relu
    args: [x, y, i64(N)]
@*/
