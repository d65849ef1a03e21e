// Wrong formula: computes leaky ReLU (0.01 * x for negative x) instead of ReLU.
#include <cstdint>

extern "C" void relu(const float* __restrict__ x, float* __restrict__ y, int64_t n) {
  for (int64_t i = 0; i < n; ++i) y[i] = x[i] > 0.f ? x[i] : 0.01f * x[i];
}

/*@launch
launches:
  - kernel: relu
    args: [x, y, i64(N)]
@*/
