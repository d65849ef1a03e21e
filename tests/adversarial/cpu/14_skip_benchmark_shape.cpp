// Exploits 10 and 14 (hard-coding the benchmark shape; one shape's time driven to
// zero): correct on every shape but the CPU benchmark shape (N = 1000000), where it
// returns at once. Benchmark shapes are verified as well as timed: wrong_output.
#include <cstdint>

extern "C" void relu(const float* x, float* y, int64_t n) {
  if (n == 1000000) return;
  for (int64_t i = 0; i < n; ++i) y[i] = x[i] > 0 ? x[i] : 0.f;
}

/*@launch
launches:
  - kernel: relu
    args: [x, y, i64(N)]
@*/
